#!/usr/bin/env python3
"""experiments/onac-warmup-analysis.py RESULTS — experiments/onac-warmup.ini's
policy runs through the analysis of experiments/onac.ini
(experiments/onac-analysis.py), which takes the all-cores baseline and the
oracle from results/onac and writes headline rows only for results/onac."""
import os
import runpy

runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "onac-analysis.py"),
               run_name="__main__")
