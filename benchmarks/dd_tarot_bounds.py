"""How far the Tarot core's static bounds (``value_bounds``: captured points plus the
sure facts) lie from the exact margin, by tricks left (issue 23: which side of the
made/fail proofs a tighter bound would shorten).

Positions: the deals of benchmarks/deals/tarot<n>_play.txt played by the heuristic
player to k tricks before the end (dd_tarot.py's ``later``), real game, margin
objective E = P - R(B) in doubled points. For each: the bounds ``lo <= E <= hi`` the
search would read at that trick boundary (``TarotCore.bounds``) and the exact E
(``value``, skipped past the node budget). Reported per k: how often the bounds leave
made/fail open (lo < 0 <= hi) and, of those, how many are made; the slack of the lower
bound (E - lo: what a made proof must still find) and of the upper bound (hi - E: what
a fail proof must), median / p10 / p90.

    python benchmarks/dd_tarot_bounds.py [--players 4] [--ks 6 8 10 12] [--deals 50]
                                         [--budget 5e6] [--no-append]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _report import report  # noqa: E402
from dd_tarot import later, load  # noqa: E402

from solver.core import tarot as face  # noqa: E402

DEFAULT_KS = {3: [6, 8, 10, 12], 4: [6, 8, 10, 12], 5: [4, 6, 8, 10]}


def _q(xs: list[int], f: float) -> int:
    s = sorted(xs)
    return s[int(f * (len(s) - 1))]


def slack(n: int, k: int, deals: int, budget: int) -> dict:
    """One row: the bounds against the exact margin at k tricks left, n players."""
    lo_gap: list[int] = []
    hi_gap: list[int] = []
    open_made = open_failed = skipped = 0
    for i, st in enumerate(load(n)[:deals]):
        core = face.from_state(later(st, i, k), tt_bits=20)
        core.set_objective("margin")
        lo, hi = core.bounds()
        e, complete = core.value(node_budget=budget)
        if not complete:
            skipped += 1
            continue
        lo_gap.append(e - lo)
        hi_gap.append(hi - e)
        if lo < 0 <= hi:
            if e >= 0:
                open_made += 1
            else:
                open_failed += 1
    row = {"players": n, "tricks_left": k, "positions": len(lo_gap),
           "skipped_at_budget": skipped, "open_made": open_made,
           "open_failed": open_failed}
    for name, xs in (("lo_slack", lo_gap), ("hi_slack", hi_gap)):
        row[f"{name}_median"] = _q(xs, 0.5) if xs else None
        row[f"{name}_p10"] = _q(xs, 0.1) if xs else None
        row[f"{name}_p90"] = _q(xs, 0.9) if xs else None
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, nargs="*", default=[3, 4, 5])
    ap.add_argument("--ks", type=int, nargs="*", default=None,
                    help="tricks left (default: per player count)")
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--budget", type=float, default=5e6,
                    help="node budget of each exact margin (positions past it are skipped)")
    ap.add_argument("--no-append", action="store_true")
    a = ap.parse_args()
    rows = []
    for n in a.players:
        for k in a.ks or DEFAULT_KS[n]:
            rows.append(slack(n, k, a.deals, int(a.budget)))
            print(rows[-1], flush=True)
    report("Tarot static bounds against exact margins (dd_tarot_bounds.py, issue 23)",
           {"slack by tricks left (doubled points)": rows}, append=not a.no_append)


if __name__ == "__main__":
    main()
