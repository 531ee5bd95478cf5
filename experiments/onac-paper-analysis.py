#!/usr/bin/env python3
"""experiments/onac-paper-analysis.py RESULTS — the paper-scale check of
experiments/onac.ini uses the same analysis (experiments/onac-analysis.py),
which writes headline rows only for the results of experiments/onac.ini."""
import os
import runpy

runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "onac-analysis.py"),
               run_name="__main__")
