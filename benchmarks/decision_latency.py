"""Every decision of whole deals played by the backend's default agent (issue 28's
latency target: <= 1 s wall at every point of the deal).

Plays ``--deals`` deals of each setup with the agent ``atout serve`` gives a request
that names none (``solver.protocol.default_agent``, or ``--agent SPEC``) at every
seat, and times every decision with more than one legal move (auction calls
included): wall and CPU seconds, by the third of the deal it falls in. Prints and
appends to RESULTS.md: median / p90 / p99 / max and the decisions over the target.
Deterministic (seeded deals and agents), so ``--agent`` runs compare on the same
decisions.

Usage: python benchmarks/decision_latency.py [--deals N] [--games G ...]
                                             [--agent SPEC] [--extra OPTS] [--target S]
                                             [--no-append]
"""

from __future__ import annotations

import argparse
import statistics
import time

from _report import report
from pimc_speed import GAMES as SETUPS  # the seven setups: (game, options, label)

from solver.agents import make_agent
from solver.games import get_game
from solver.protocol import default_agent

THIRDS = ("first third", "second third", "last third")


def play_deal(game: str, options: dict, spec: str, seed: int):
    """(third of the deal, wall s, CPU s, search nodes) for each decision of one deal."""
    module = get_game(game)
    players = options.get("players", 3 if options.get("game") == "terziglio" else 4)
    st = module.new_state(options=options, dealer=seed % players, seed=seed)
    agents = [make_agent(spec, seed=seed * 10 + s, game=game) for s in range(players)]
    out = []
    total = None
    while not st.is_over():
        seat = st.to_act
        legal = st.legal_moves()
        if len(legal) == 1:
            st.play(legal[0])
            continue
        if total is None and any(m.kind == "card" for m in legal):
            total = max(h.bit_count() for h in st.hands)
        done = 0 if total is None else total - max(h.bit_count() for h in st.hands)
        third = 0 if total is None else min(2, 3 * done // total)
        w, c = time.perf_counter(), time.process_time()
        move = agents[seat].choose(st, seat)
        wall, cpu = time.perf_counter() - w, time.process_time() - c
        stats = getattr(agents[seat], "last_stats", {}) or {}
        out.append((third, wall, cpu, stats.get("nodes")))
        st.play(move)
    return out


def quantile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=6)
    ap.add_argument("--games", nargs="*", default=None)
    ap.add_argument("--agent", default=None, help="agent spec (default: the backend's)")
    ap.add_argument("--extra", default="", help="options added to the spec, e.g. nodes=N")
    ap.add_argument("--target", type=float, default=1.0, help="seconds, wall")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-append", action="store_true")
    args = ap.parse_args()
    rows = []
    for game, options, label in SETUPS:
        if args.games and label not in args.games and game not in args.games:
            continue
        spec = args.agent or default_agent(game, options.get("players"))
        if args.extra:
            spec += ("," if ":" in spec else ":") + args.extra
        decisions = []
        for d in range(args.deals):
            decisions += play_deal(game, options, spec, args.seed * 1000 + d)
        for third in (None, 0, 1, 2):
            part = [x for x in decisions if third is None or x[0] == third]
            if not part:
                continue
            walls = [x[1] for x in part]
            cpus = [x[2] for x in part]
            row = {"game": label, "agent": spec,
                   "part": "all" if third is None else THIRDS[third],
                   "decisions": len(part), "median_wall_s": statistics.median(walls),
                   "p90_wall_s": quantile(walls, 0.9), "p99_wall_s": quantile(walls, 0.99),
                   "max_wall_s": max(walls), "max_cpu_s": max(cpus),
                   f"over_{args.target:g}s": sum(w > args.target for w in walls)}
            # search speed over the decisions whose searches took time (one table:
            # the columns are there, empty, where there are none)
            big = [x for x in part if x[3] and x[2] > 0.1]
            row["max_nodes"] = max((x[3] for x in part if x[3]), default=None)
            row["median_Mnodes_per_cpu_s"] = statistics.median(
                x[3] / x[2] / 1e6 for x in big) if big else None
            rows.append(row)
            print(row, flush=True)
    report(f"Decision latency of the backend's agent ({args.deals} deals a setup, "
           f"every decision; decision_latency.py)", {"latency": rows},
           append=not args.no_append)


if __name__ == "__main__":
    main()
