"""A fixed double-dummy workload of the kind PIMC plays, per game, for measuring the
cores' per-node cost: the positions, nodes and values are deterministic, so a change
that must keep the search tree (a faster legal-move, ordering, bound or evaluation
function that computes the same thing) shows the same ``nodes`` and ``checksum`` and
only ``cpu_s`` moves. Run it under ``valgrind --tool=callgrind`` for instruction
counts, which the shared machines' load does not disturb (benchmarks/RESULTS.md).

Positions: seeded random deals, the heuristic player's bids, seeded random card play;
in each deal the first lead, a position where the game's ``default_horizon`` still
searches with a horizon half-way through the deal, and the first position where the
exact search is in reach (Belote and Coinche, exact throughout: the first lead and
half-way). Each is solved with ``solve_cards`` (every legal card) at the horizon PIMC
would use, with its node budget and table size (Tarot, Tarocchini: 300,000 nodes and
2^18 entries; Belote, Coinche: no budget, 2^16), as ``solver.pimc`` does.
``checksum``: a hash of every card's value.

Usage: python benchmarks/dd_workload.py [--games tarot4 ...] [--deals N] [--no-append]
"""

from __future__ import annotations

import argparse
import hashlib
import random
import time

from _report import report

from solver import dd
from solver.games import get_game
from solver.heuristic import HeuristicAgent

GAMES = {
    "coinche": ("coinche", {}, 4), "belote": ("belote", {}, 4),
    "tarot3": ("tarot", {"players": 3}, 3),
    "tarot4": ("tarot", {"players": 4}, 4),
    "tarot5": ("tarot", {"players": 5}, 5),
    "ottocento": ("tarocchini", {"game": "ottocento"}, 4),
    "terziglio": ("tarocchini", {"game": "terziglio"}, 3),
}
DEFAULT_DEALS = {"coinche": 60, "belote": 60, "tarot3": 80, "tarot4": 100, "tarot5": 80,
                 "ottocento": 60, "terziglio": 40}
# PIMC's table sizes and node budgets (solver.pimc): Belote/Coinche search to the end
LIMITS = {"coinche": {"tt_bits": 16}, "belote": {"tt_bits": 16}}


def horizon_of(ddm, st):
    """The horizon PIMC would search ``st`` at (None: exact; Belote/Coinche always)."""
    return ddm.default_horizon(st) if hasattr(ddm, "default_horizon") else None


def positions(label: str, deals: int) -> list:
    """Up to three positions per deal (first lead, half-way horizon search, first exact
    search), over ``deals`` seeded deals."""
    game, options, players = GAMES[label]
    module = get_game(game)
    ddm = dd.module_for(game)
    out = []
    for i in range(deals):
        rng = random.Random(i)
        st = module.new_state(options=options, dealer=i % players, seed=5000 + i)
        bidder = HeuristicAgent(seed=i + 1)
        total = None
        got: set[str] = set()
        while not st.is_over():
            legal = st.legal_moves()
            cards = [m for m in legal if m.kind == "card"]
            playing = st.phase == "play" and bool(cards)
            if playing and len(cards) > 1:
                left = max(h.bit_count() for h in st.hands)
                total = left if total is None else total
                # Belote/Coinche are exact from the first lead: take the half-way
                # position there instead of the first exact one
                exact = hasattr(ddm, "default_horizon") and horizon_of(ddm, st) is None
                key = ("first" if left == total else "exact" if exact
                       else "half" if left == total // 2 else None)
                if key and key not in got:
                    got.add(key)
                    out.append(st.copy())
            st.play(rng.choice(cards) if playing else bidder.choose(st, st.to_act))
    return out


def run(label: str, deals: int) -> dict:
    game = GAMES[label][0]
    states = positions(label, deals)
    ddm = dd.module_for(game)
    digest = hashlib.sha1()
    nodes = 0
    t = time.process_time()
    for st in states:
        limits = dict(LIMITS.get(label, {"node_budget": 300_000, "tt_bits": 18}))
        horizon = horizon_of(ddm, st)
        if horizon is not None:
            limits["horizon"] = horizon
        results = dd.solve_cards(st, **limits)
        for move, r in sorted(results.items(), key=lambda x: repr(x[0].value)):
            digest.update(repr((move.value, r.value)).encode())
        # Tarot reports each card's own search (the position's first value is not
        # counted), Belote and Tarocchini the whole call's nodes on every card
        counts = [r.nodes for r in results.values()]
        nodes += sum(counts) if game == "tarot" else max(counts)
    cpu = time.process_time() - t
    return {"game": label, "deals": deals, "positions": len(states), "nodes": nodes,
            "checksum": digest.hexdigest()[:12], "cpu_s": round(cpu, 3)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", nargs="*", default=list(GAMES), choices=list(GAMES))
    ap.add_argument("--deals", type=int, default=None,
                    help="deals per game (default: a per-game count of ~1 s)")
    ap.add_argument("--no-append", action="store_true")
    args = ap.parse_args()
    rows = [run(g, args.deals or DEFAULT_DEALS[g]) for g in args.games]
    report("DD workload (per-node cost, same trees)", {"workload": rows},
           append=not args.no_append)


if __name__ == "__main__":
    main()
