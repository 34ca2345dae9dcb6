"""Where the Tarocchini exact search spends its nodes (issue 24): the "ahead" probe
(solver.dd.tarocchini.ahead_threshold) of benchmarks/deals/ positions under a node
budget, with the core's diagnostics on (DDSolver.set_diag):

* nodes, table probes, hit rate and sure-point cut-offs by tricks left;
* what partition search could gain at most: of the table probes that meet a new exact
  key, the share whose key with every hand's pips reduced to counts per suit (the
  coarsest class partition search on the pips could store, all pips free) was met
  before;
* what merging every 1-point card like the pips would leave out at most (moves
  generated against moves if pips, Aces, Moors and T5..SOL of one hand with no other
  card between them were one card, melds ignored: an upper bound, not a sound rule).

``python benchmarks/dd_tarocchini_where.py terziglio full 4 5e6`` (variant, ``full`` or
tricks left, deals, node budget).  Prints only; figures in benchmarks/RESULTS.md.

``python benchmarks/dd_tarocchini_where.py width terziglio 30 4 8 12 [--off match]``:
the width of the proven interval at the root (``DDSolver.bounds``, half points) against
the card points still in play, median over the deals at each number of tricks left
(seeded random play, ``endgame``), with the features of now and the ones named after
``--off`` switched on, and with those switched off, and how many positions they make
narrower.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from dd_tarocchini import endgame, load_deals  # noqa: E402

from solver.dd.tarocchini import NOW_FEATURES, _solver, ahead_threshold  # noqa: E402


def run(variant: str, left: int | None, ndeals: int, budget: int,
        trace: int = 4_000_000) -> None:
    agg = {k: [0] * 22 for k in ("nodes", "probes", "hits", "bcuts")}
    newx = newc_known = tot = moves = moves_ub = 0
    for i, (g, p) in enumerate(load_deals(variant)[:ndeals]):
        pos = p if left is None else endgame(g, p, left, 1000 + i)
        s = _solver(18)
        s.configure(*g.args())
        s.set_features(**NOW_FEATURES)
        s.set_position(*pos.args())
        s.set_diag(True, trace)
        v, n, ok = s.probe(ahead_threshold(g), budget, 0.0)
        d = s.diag()
        s.set_diag(False, 0)
        for k in agg:
            for j in range(22):
                agg[k][j] += d[k][j]
        moves += d["moves"]
        moves_ub += d["moves_ub"]
        seen_x: set[int] = set()
        seen_c: set[int] = set()
        for x, c in d["trace"]:
            tot += 1
            if x not in seen_x:
                newx += 1
                newc_known += c in seen_c
                seen_x.add(x)
            seen_c.add(c)
        print(f"deal {i}: nodes {n} finished {ok}; distinct keys {len(seen_x)}, "
              f"pips reduced to counts {len(seen_c)}", flush=True)
    where = "full deal" if left is None else f"{left} tricks left"
    print(f"\n{variant}, {where}, {ndeals} deals, budget {budget:.0e}: {tot} table probes, "
          f"{newx} new exact keys, of which {newc_known} ({100 * newc_known / max(newx, 1):.1f}%)"
          f" with a pip-count class met before; moves {moves}, "
          f"{100 * (1 - moves_ub / max(moves, 1)):.1f}% fewer if every 1-point card merged")
    total = sum(agg["nodes"])
    print("| tricks left | nodes % | table probes | hit % | bound cuts |")
    print("|---|---|---|---|---|")
    for j in range(21, 0, -1):
        if agg["nodes"][j]:
            pr = agg["probes"][j]
            print(f"| {j} | {100 * agg['nodes'][j] / total:.2f} | {pr} | "
                  f"{100 * agg['hits'][j] / max(pr, 1):.1f} | {agg['bcuts'][j]} |")


def width(variant: str, ndeals: int, lefts: list[int], off: list[str]) -> None:
    import statistics

    from solver.core import tarocchini as ct

    print(f"| {variant} tricks left | positions | card points left | width with "
          f"{'+'.join(off)} | width without | narrower | median ratio |")
    print("|---|---|---|---|---|---|---|")
    for left in lefts:
        cp, w_on, w_off, narrower, ratio = [], [], [], 0, []
        for i, (g, p) in enumerate(load_deals(variant)[:ndeals]):
            pos = endgame(g, p, left, 1000 + i)
            s = _solver(10)
            s.configure(*g.args())
            s.set_position(*pos.args())
            s.set_features(**{**NOW_FEATURES, **{k: True for k in off}})
            lo, hi = s.bounds()
            s.set_features(**{k: False for k in off})
            lo0, hi0 = s.bounds()
            rest = g.discard | g.stock
            for h in pos.hands:
                rest |= h
            cp.append(ct.points_half(rest))
            w_on.append(hi - lo)
            w_off.append(hi0 - lo0)
            narrower += (hi - lo) < (hi0 - lo0)
            ratio.append((hi0 - lo0) / max(hi - lo, 1))
        print(f"| {left} | {len(cp)} | {statistics.median(cp)} | {statistics.median(w_on)} | "
              f"{statistics.median(w_off)} | {narrower} | {statistics.median(ratio):.3f} |",
              flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "width":
        args = sys.argv[2:]
        offs = args[args.index("--off") + 1:] if "--off" in args else []
        args = args[:args.index("--off")] if "--off" in args else args
        width(args[0], int(args[1]), [int(x) for x in args[2:]], offs)
        sys.exit(0)
    run(sys.argv[1], None if sys.argv[2] == "full" else int(sys.argv[2]), int(sys.argv[3]),
        int(float(sys.argv[4])))
