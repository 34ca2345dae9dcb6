"""How close the estimates of a stopped Tarot analysis are to the exact card values
(issue 23): each legal card's exact T in R_DD (``solver.dd.tarot.relaxed_card_values``,
the estimate ``atout solve`` shows first since the sixteenth session, a proven lower
bound) and the horizon estimate (``solve_cards`` at ``default_horizon`` with the
analysis' evaluation, what it showed before and still shows where R_DD does not
finish), against the exact values (``solve_cards``).

Positions: the deals of benchmarks/deals/tarot<n>_play.txt played by the heuristic
player to k tricks before the end (dd_tarot.py's ``later``), kept where the exact card
values and every R_DD value finish within the node budget. Reported per player count:
cards, how many R_DD values equal the exact one, the mean and median absolute error
of each estimate in T, and how often the card each estimate ranks first is an optimal
card.

    python benchmarks/dd_tarot_estimates.py [--players 4] [--left 11] [--deals 12]
                                            [--budget 3e7] [--no-append]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _report import report  # noqa: E402
from dd_tarot import later, load  # noqa: E402

from solver.core import tarot as face  # noqa: E402
from solver.dd import tarot as ddt  # noqa: E402

DEFAULT_LEFT = {3: 13, 4: 11, 5: 9}


def measure(n: int, left: int, deals: int, budget: int) -> dict:
    """One row: R_DD's and the horizon's card estimates against the exact values."""
    err_r: list[int] = []
    err_h: list[int] = []
    equal = positions = best_r = best_h = 0
    for i, st in enumerate(load(n)[:deals]):
        st = later(st, i, left)
        exact = ddt.solve_cards(st, node_budget=budget)
        if not all(r.complete for r in exact.values()):
            continue
        truth = {m.value: r.value for m, r in exact.items()}
        relaxed, _ = ddt.relaxed_card_values(st, list(truth), node_budget=budget)
        if set(relaxed) != set(truth):
            continue
        horizon = {m.value: r.value for m, r in ddt.solve_cards(
            st, horizon=ddt.default_horizon(st) or 1,
            evaluation=ddt.ANALYSIS_EVALUATION).items()}
        sign = 1 if face.from_state(st).side_of_to_act() else -1
        positions += 1
        for c, v in truth.items():
            equal += relaxed[c][0] == v
            err_r.append(abs(relaxed[c][0] - v))
            err_h.append(abs(horizon[c] - v))
        best = max(sign * v for v in truth.values())
        best_r += sign * truth[max(truth, key=lambda c: sign * relaxed[c][0])] == best
        best_h += sign * truth[max(truth, key=lambda c: sign * horizon[c])] == best
    return {"players": n, "tricks_left": left, "positions": positions, "cards": len(err_r),
            "r_dd_equal": equal,
            "r_dd_mae": round(statistics.mean(err_r), 2) if err_r else None,
            "horizon_mae": round(statistics.mean(err_h), 2) if err_h else None,
            "r_dd_median_err": statistics.median(err_r) if err_r else None,
            "horizon_median_err": statistics.median(err_h) if err_h else None,
            "r_dd_best_card": best_r, "horizon_best_card": best_h}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, nargs="*", default=[4])
    ap.add_argument("--left", type=int, default=None,
                    help="tricks before the end (default 13 / 11 / 9 for 3 / 4 / 5 players)")
    ap.add_argument("--deals", type=int, default=12)
    ap.add_argument("--budget", type=float, default=3e7)
    ap.add_argument("--no-append", action="store_true")
    a = ap.parse_args()
    rows = []
    for n in a.players:
        rows.append(measure(n, a.left or DEFAULT_LEFT[n], a.deals, int(a.budget)))
        print(rows[-1], flush=True)
    report("Tarot card estimates against exact values (dd_tarot_estimates.py, issue 23)",
           {"R_DD's exact values and the horizon's": rows}, append=not a.no_append)


if __name__ == "__main__":
    main()
