"""Double-dummy solver speed for every game: runs each benchmarks/dd_<game>.py and
appends the tables to benchmarks/RESULTS.md.

Usage: python benchmarks/dd_speed.py [--quick] [--no-append] [GAME ...]
"""

from _report import runner_main

if __name__ == "__main__":
    runner_main("dd", "Double-dummy solver speed")
