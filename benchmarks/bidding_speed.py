"""Bid analysis (evaluation time, DD bias, bidding strength) for every game: runs each benchmarks/bidding_<game>.py and
appends the tables to benchmarks/RESULTS.md.

Usage: python benchmarks/bidding_speed.py [--quick] [--no-append] [GAME ...]
"""

from _report import runner_main

if __name__ == "__main__":
    runner_main("bidding", "Bid analysis (evaluation time, DD bias, bidding strength)")
