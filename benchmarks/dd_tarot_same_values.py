"""The Tarot search against the search as it was before issue 23 on the dd_workload.py
positions (first lead, half-way, first exact position; PIMC's horizons, 300k nodes,
2^18 entries): exact card values must be equal wherever both searches finish; horizon
estimates may differ a little (the static evaluation is clamped into tighter bounds).

    python benchmarks/dd_tarot_same_values.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import dd_workload as workload  # noqa: E402

from solver.dd import tarot as ddt  # noqa: E402


def main() -> None:
    compared = exact_equal = estimates_differ = 0
    for label in ("tarot3", "tarot4", "tarot5"):
        for st in workload.positions(label, workload.DEFAULT_DEALS[label]):
            kw = {"node_budget": 300_000, "tt_bits": 18}
            horizon = ddt.default_horizon(st)
            if horizon is not None:
                kw["horizon"] = horizon
            now = ddt.solve_cards(st, **kw)
            before = ddt.solve_cards(st, search="before", **kw)
            for move, r in now.items():
                if r.complete and before[move].complete:
                    compared += 1
                    if horizon is None:
                        if r.value != before[move].value:
                            raise SystemExit(f"{label}: {move} {r.value} != {before[move].value}")
                        exact_equal += 1
                    elif r.value != before[move].value:
                        estimates_differ += 1
    print(f"cards compared {compared}, exact values equal {exact_equal}, "
          f"horizon estimates differing {estimates_differ}")


if __name__ == "__main__":
    main()
