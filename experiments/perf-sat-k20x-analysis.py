#!/usr/bin/env python3
"""experiments/perf-sat-k20x-analysis.py RESULTS — the K20X half uses the
same per-kernel analysis as experiments/perf-sat.ini (it reads the preset
from the results and picks the thesis's Kepler figures)."""
import os
import runpy
import sys

runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "perf-sat-analysis.py"),
               run_name="__main__")
sys.exit(0)
