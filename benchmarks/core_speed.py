"""Core speed (legal moves, playouts) for every game: runs each benchmarks/core_<game>.py and
appends the tables to benchmarks/RESULTS.md.

Usage: python benchmarks/core_speed.py [--quick] [--no-append] [GAME ...]
"""

from _report import runner_main

if __name__ == "__main__":
    runner_main("core", "Core speed (legal moves, playouts)")
