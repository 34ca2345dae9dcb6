"""Strength table: duplicate matches between agents, per game, with 95% confidence
intervals (issue: determinized play; bid analysis). Appends to benchmarks/RESULTS.md.

Pairings (A vs B, ``--pairs``): heuristic vs random, pimc(W) vs heuristic, oracle vs
pimc(W), pimc(W) with simulated bidding vs pimc(W) with heuristic bidding
(``simbid-heubid``), and pimc(W) whose worlds follow the auction vs uniform worlds
(``auction-uniform``; ``auction-heuristic`` plays it against the heuristic player, to
pair with ``pimc-heuristic`` where pimc against pimc is too slow).

Usage: python benchmarks/strength.py [--deals N] [--worlds W] [--jobs J | --ray ADDRESS]
                                     [--games coinche tarot4 ...] [--pairs ...] [--no-append]
                                     [--checkpoint-dir DIR [--report-only]]

``--ray ADDRESS`` plays the deals on a Ray cluster (``atout match --ray``) instead of
``--jobs`` local processes; the results are the same.

With --checkpoint-dir the 1,000-deal pimc(100) tables can be built over several runs:
each match's finished deals are kept there and skipped when the command runs again.
``--report-only`` plays nothing: it tables the deals the checkpoints hold so far (the
``deals`` column says how many), e.g. to record a long match's progress.

``benchmarks/matches/`` holds the checkpoints of the long matches behind RESULTS.md
(JSON lines, one deal each, ~0.5 KB): committed with each session's figures, so the
deals can be checked and a match interrupted at the end of a session goes on in the
next (``--checkpoint-dir benchmarks/matches``).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from _report import report

from solver.match import MatchConfig, load_checkpoint, run_match, summarize

GAMES = {
    "coinche": ("coinche", {}), "belote": ("belote", {}),
    "tarot3": ("tarot", {"players": 3}), "tarot4": ("tarot", {"players": 4}),
    "tarot5": ("tarot", {"players": 5}),
    "ottocento": ("tarocchini", {"game": "ottocento"}),
    "terziglio": ("tarocchini", {"game": "terziglio"}),
}


def pairings(worlds: int, bid_samples: int) -> dict[str, tuple[str, str]]:
    pimc = f"pimc:worlds={worlds}"
    return {
        "heuristic-random": ("heuristic", "random"),
        "pimc-heuristic": (pimc, "heuristic"),
        "oracle-pimc": ("oracle", pimc),
        "simbid-heubid": (f"{pimc},bidding=sim,bid_samples={bid_samples}", pimc),
        # card-play worlds that follow the auction (solver.inference) vs uniform ones
        "auction-uniform": (f"{pimc},auction=1", pimc),
        "auction-heuristic": (f"{pimc},auction=1", "heuristic"),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--worlds", type=int, default=100)
    ap.add_argument("--bid-samples", type=int, default=24)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--ray", default=None, metavar="ADDRESS",
                    help="play the deals on the Ray cluster at ADDRESS (auto, local, "
                         "HOST:PORT, ray://HOST:PORT) instead of --jobs processes")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--games", nargs="*", default=list(GAMES))
    ap.add_argument("--pairs", nargs="*", default=None)
    ap.add_argument("--no-append", action="store_true")
    ap.add_argument("--checkpoint-dir", default=None,
                    help="keep each match's finished deals in DIR and skip them when run "
                         "again (long matches over several sessions)")
    ap.add_argument("--report-only", action="store_true",
                    help="with --checkpoint-dir: table the finished deals, play none")
    args = ap.parse_args()
    if args.report_only and not args.checkpoint_dir:
        ap.error("--report-only needs --checkpoint-dir")
    if args.checkpoint_dir:
        Path(args.checkpoint_dir).mkdir(parents=True, exist_ok=True)
    pairs = pairings(args.worlds, args.bid_samples)
    rows = []
    for label in args.games:
        game, options = GAMES[label]
        for name, (a, b) in pairs.items():
            if args.pairs and name not in args.pairs:
                continue
            t = time.perf_counter()
            ck = None
            if args.checkpoint_dir:
                tag = f"{label}-{name}-w{args.worlds}-b{args.bid_samples}-s{args.seed}"
                ck = str(Path(args.checkpoint_dir) / f"{tag}.jsonl")
            cfg = MatchConfig(game, a, b, args.deals, args.seed, options)
            if args.report_only:
                if ck is None or not Path(ck).exists():
                    continue
                done = load_checkpoint(cfg, ck)
                if not done:
                    continue
                s = summarize(cfg, [done[i] for i in sorted(done)])
            else:
                s = run_match(cfg, jobs=1 if args.ray else args.jobs, checkpoint=ck,
                              ray=args.ray)
            row = {"game": label, "A": a, "B": b, "deals": s["deals"],
                   "A-B per deal": s["mean_diff"], "ci95_lo": s["ci95"][0],
                   "ci95_hi": s["ci95"][1],
                   "A wins (CI > 0)": s["ci95"][0] > 0,
                   "A taker made": s["contracts"]["a"]["made_rate"],
                   "B taker made": s["contracts"]["b"]["made_rate"],
                   "A taker score": s["contracts"]["a"]["taker_score"],
                   "B taker score": s["contracts"]["b"]["taker_score"],
                   "seconds": None if args.report_only else time.perf_counter() - t}
            rows.append(row)
            print(row, flush=True)
    what = "finished deals so far of" if args.report_only else ""
    title = f"Strength (duplicate matches, {what} {args.deals} deals per pairing)"
    if args.report_only:
        # the commit that report() names is the one that tabled the deals, not the
        # one(s) that played them (long matches run over several sessions)
        title += " - tabled from checkpoints played earlier"
    report(title.replace("  ", " "), {"matches": rows}, append=not args.no_append)


if __name__ == "__main__":
    main()
