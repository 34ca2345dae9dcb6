"""(b) on chelem deals with and without the score classes (issue 23, twenty-third
session): the exact T at the first lead of full deals where a sweep is likely, in the
same run with ``features={"sweep_classes": False}`` (the bisection alone after R_DD's
floor) and as now (the chelem and the petit au bout asked by points-blind sweep
probes first, ``solver.dd.tarot._sweep_classes``).

The positions: a taker holding the Excuse and nearly every top trump, dealt from a
seed (tests/test_core_tarot.strong_taker_position: contract, announced chelem and the
Excuse's last-trick rule drawn too), and the sample deal examples/tarot4.txt (a
defence chelem). Reported per version: how many exact T finish within the budget,
the median nodes, and the summed width of the proven intervals (what the analysis
can say when it stops). Node counts are deterministic.

    python benchmarks/dd_tarot_classes.py [--players 4] [--deals 20] [--budget 2e7]
                                          [--per-deal] [--no-append]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT / "tests"))

from _report import report, table  # noqa: E402
from test_core_tarot import strong_taker_position  # noqa: E402

from solver.dd import tarot as ddt  # noqa: E402
from solver.dd.report import position_from_record  # noqa: E402
from solver.notation import parse_record  # noqa: E402

VERSIONS = {"no-classes": {"sweep_classes": False}, "now": {}}


def positions(n: int, count: int) -> list[tuple[str, object]]:
    rng = random.Random(2300 + n)
    out = [(f"strong {i}", strong_taker_position(rng, n)) for i in range(count)]
    if n == 4:
        text = (ROOT / "examples" / "tarot4.txt").read_text()
        out.append(("sample", position_from_record(parse_record(text), "play")[0]))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, nargs="*", default=[4])
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--budget", type=float, default=2e7)
    ap.add_argument("--per-deal", action="store_true", help="print every deal's row")
    ap.add_argument("--no-append", action="store_true")
    a = ap.parse_args()
    budget = int(a.budget)
    sums = []
    for n in a.players:
        per = []
        for name, st in positions(n, a.deals):
            row = {"players": n, "deal": name}
            for version, feats in VERSIONS.items():
                r = ddt.analyse(st, node_budget=budget, cards=False, line=False,
                                features=dict(feats))
                row[f"{version}_T"] = (r.value if r.value is not None
                                       else f"[{r.lower}, {r.upper}]")
                row[f"{version}_nodes"] = r.nodes
                row[f"{version}_width"] = r.upper - r.lower
            per.append(row)
        if a.per_deal:
            print(table(per))
        for version in VERSIONS:
            sums.append({
                "players": n, "search": version, "positions": len(per),
                "exact_T": sum(r[f"{version}_width"] == 0 for r in per),
                "budget": f"{budget:.2g}",
                "median_nodes": int(statistics.median(r[f"{version}_nodes"] for r in per)),
                "summed_width": sum(r[f"{version}_width"] for r in per),
                "narrower": sum(r[f"{version}_width"] < r[f"{other}_width"]
                                for r in per for other in VERSIONS if other != version)})
        print(table(sums[-2:]), flush=True)
    report("Tarot (b) on chelem deals, score classes (dd_tarot_classes.py, issue 23)",
           {"no-classes vs now, same run": sums}, append=not a.no_append)


if __name__ == "__main__":
    main()
