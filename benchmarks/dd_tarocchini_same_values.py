"""The Tarocchini search against the search as it was before issue 24 on the
dd_workload.py positions (first lead, half-way, first exact position; PIMC's horizons,
300k nodes, 2^18 entries): exact card values must be equal wherever both searches
finish; horizon estimates may differ a little (the static evaluation is clamped into
the tighter sure-trump bounds).  Where the exact search finishes, the exact analysis
(``analyse``: ahead, margin, every card) must give the same card values too.

    python benchmarks/dd_tarocchini_same_values.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import dd_workload as workload  # noqa: E402

from solver.dd import tarocchini as dd  # noqa: E402


def _cards(st, features, **kw):
    s = dd._solver(kw.get("tt_bits", dd.DEFAULT_TT_BITS))
    s.set_features(**features)
    try:
        return dd.solve_cards(st, **kw)
    finally:
        s.set_features(**dd.NOW_FEATURES)


def main() -> None:
    compared = exact_equal = estimates_differ = analysed = 0
    for label in ("ottocento", "terziglio"):
        for st in workload.positions(label, workload.DEFAULT_DEALS[label]):
            kw = {"node_budget": 300_000, "tt_bits": 18}
            horizon = dd.default_horizon(st)
            if horizon is not None:
                kw["horizon"] = horizon
            now = _cards(st, dd.NOW_FEATURES, **kw)
            before = _cards(st, dd.BEFORE_FEATURES, **kw)
            for move, r in now.items():
                if r.complete and before[move].complete:
                    compared += 1
                    if horizon is None:
                        if r.value != before[move].value:
                            raise SystemExit(f"{label}: {move} {r.value} != "
                                             f"{before[move].value}")
                        exact_equal += 1
                    elif r.value != before[move].value:
                        estimates_differ += 1
            if horizon is None and all(r.complete for r in now.values()):
                a = dd.analyse(st, node_budget=3_000_000, line=False)
                if a.complete:
                    for move, r in now.items():
                        if a.cards[dd._card_of(move)].value != r.value:
                            raise SystemExit(f"{label}: analyse {move} differs")
                    analysed += 1
    print(f"cards compared {compared}, exact values equal {exact_equal}, "
          f"horizon estimates differing {estimates_differ}; positions whose exact "
          f"analysis gave the same card values {analysed}")


if __name__ == "__main__":
    main()
