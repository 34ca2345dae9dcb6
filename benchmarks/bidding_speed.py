"""Bid analysis (evaluation time, DD bias, bidding strength) for every game: runs each benchmarks/bidding_<game>.py and appends the tables
to benchmarks/RESULTS.md.

Usage: python benchmarks/bidding_speed.py [--quick] [--no-append] [GAME ...]
"""

import argparse

from _report import report, run_modules


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", help="only these games (default: all)")
    parser.add_argument("--quick", action="store_true", help="short run (smoke test)")
    parser.add_argument("--no-append", action="store_true", help="do not write RESULTS.md")
    args = parser.parse_args()
    sections = run_modules("bidding", args.quick, args.games or None)
    report("Bid analysis (evaluation time, DD bias, bidding strength)" + (" (quick)" if args.quick else ""), sections,
           append=not args.no_append)


if __name__ == "__main__":
    main()
