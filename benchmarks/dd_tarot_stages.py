"""Where the time of question (a) goes, stage by stage (issue 23): made/fail at the
first lead asked in each of the games (a) uses, each alone at the same node budget.

(a) (``solver.dd.tarot._made_probe``) asks R_DD first (the relaxed game favouring the
defence: made there is made), then, after a fail there, races R_A (favouring the
attack: failed there is failed) against the real game. Here each stage runs alone on
every deal of benchmarks/deals/tarot<n>_play.txt (at the first lead, or k tricks
before the end with ``--left``): R_DD, and where R_DD does not prove the contract
made, R_A and the real game. Reported per player count: how many R_DD decides (made,
failed) or leaves open, how many of its fails R_A, the real game or either proves,
and the median nodes of each stage where it finished; ``--per-deal`` prints (not
appends) every deal's row. Node counts are deterministic.

    python benchmarks/dd_tarot_stages.py [--players 4] [--deals 50] [--budget 1e7]
                                         [--left K] [--per-deal] [--no-append]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _report import report, table  # noqa: E402
from dd_tarot import later, load  # noqa: E402

from solver.core import tarot as face  # noqa: E402


def probe(state, relax: str, budget: int) -> tuple[bool | None, int]:
    """Made/fail (the margin at 0) in one game, alone: (answer or None, nodes)."""
    core = face.from_state(state, tt_bits=20)
    core.set_objective("margin")
    core.set_relax(relax)
    answer = core.probe(0, node_budget=budget)
    return answer, core.stats()["nodes"]


def deal_row(n: int, i: int, state, budget: int) -> dict:
    dd, dd_nodes = probe(state, "defence-discard", budget)
    row = {"players": n, "deal": i, "r_dd": dd, "r_dd_nodes": dd_nodes,
           "r_a": None, "r_a_nodes": None, "real": None, "real_nodes": None}
    if dd is not True:
        row["r_a"], row["r_a_nodes"] = probe(state, "attack", budget)
        row["real"], row["real_nodes"] = probe(state, "none", budget)
    return row


def _median(xs: list[int]) -> float | None:
    return statistics.median(xs) if xs else None


def summary(n: int, rows: list[dict], budget: int) -> dict:
    fails = [r for r in rows if r["r_dd"] is False]
    return {
        "players": n, "deals": len(rows), "budget": float(budget),
        "r_dd_made": sum(r["r_dd"] is True for r in rows),
        "r_dd_failed": len(fails),
        "r_dd_open": sum(r["r_dd"] is None for r in rows),
        "failed_by_r_a": sum(r["r_a"] is False for r in fails),
        "failed_by_real": sum(r["real"] is False for r in fails),
        "failed_by_either": sum(r["r_a"] is False or r["real"] is False for r in fails),
        "fails_open": sum(r["r_a"] is not False and r["real"] is not False for r in fails),
        "made_in_real": sum(r["real"] is True for r in rows),
        "r_dd_made_median_nodes": _median([r["r_dd_nodes"] for r in rows if r["r_dd"]]),
        "r_dd_failed_median_nodes": _median([r["r_dd_nodes"] for r in fails]),
        "r_a_failed_median_nodes": _median([r["r_a_nodes"] for r in fails
                                            if r["r_a"] is False]),
        "real_failed_median_nodes": _median([r["real_nodes"] for r in fails
                                             if r["real"] is False]),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, nargs="*", default=[4])
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--budget", type=float, default=1e7,
                    help="node budget of each stage (default 1e7, ~1 s)")
    ap.add_argument("--left", type=int, default=None,
                    help="tricks before the end (default: the first lead)")
    ap.add_argument("--per-deal", action="store_true", help="print every deal's row")
    ap.add_argument("--no-append", action="store_true")
    a = ap.parse_args()
    budget = int(a.budget)
    sums = []
    for n in a.players:
        rows = []
        for i, st in enumerate(load(n)[:a.deals]):
            if a.left is not None:
                st = later(st, i, a.left)
            rows.append(deal_row(n, i, st, budget))
        if a.per_deal:
            print(table(rows))
        sums.append(summary(n, rows, budget))
        print(sums[-1], flush=True)
    where = "first lead" if a.left is None else f"{a.left} tricks left"
    report(f"Tarot (a) stage by stage (dd_tarot_stages.py, issue 23), {where}",
           {"each stage alone at the budget": sums}, append=not a.no_append)


if __name__ == "__main__":
    main()
