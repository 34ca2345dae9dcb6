"""Recorded decisions judged by the true deal's double-dummy values (issue 28, item 4).

    python benchmarks/decision_set.py record --game coinche [--deals 60] [--rate 0.25]
        [--players heuristic] [--seed 0] [--option players=4 ...]
        -> benchmarks/decisions/<game>-<players>.json (Tarot: tarot<n>-<players>.json,
          Tarocchini: ottocento-... or terziglio-...)
    python benchmarks/decision_set.py eval SET.json --agent SPEC [--agent SPEC ...]
        [--skip N] [--limit N]
        mean loss per decision (points of the deal) with its 95% interval, the mean
        decision time, and every agent paired with the first one (gain: the first's
        loss minus its own, > 0 = better); --dump FILE: the losses per decision
    python benchmarks/decision_set.py exact SET.json --left LO HI [--budget 4e7] --out F
        Tarot / Tarocchini: the decisions with LO-HI tricks left (the one in progress
        counted) judged again by the exact search (``decisions.exact_values``), kept
        where it values every card within the budget: a judge that does not read the
        static evaluation, for decisions whose worlds a horizon search scores
    python benchmarks/decision_set.py model SET.json [--eps 0.05 0.1 ...]
        the play model (solver.play_model) on the set's deals: how often the heuristic
        picks the card each other seat played (its true hand), the log-loss per such
        card for each eps, where the true hands rank by weight among uniform draws, the
        time to weigh a draw and the effective size of the draws' weights;
        --mcmc STEPS [--chains C]: also the worlds of pimc's mcmc (solver.play_mcmc,
        --worlds of them, chains started from the draws resampled by weight) against
        those resampled from the draws: where the true hands rank by weight among
        them (50% for draws from the posterior itself, when the model is right),
        their distinct worlds, whether the true world is one of them, the time

The judge and the loss are defined in ``solver/decisions.py``. Everything is seeded:
the same command gives the same figures (the times aside).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import statistics
import time
from pathlib import Path

from solver import decisions as D
from solver.cards import bit_list
from solver.constraints import hidden, holdings_sampler
from solver.pimc import effective_size, resample
from solver.play_mcmc import chain_worlds, world_key
from solver.play_model import play_model

HERE = Path(__file__).parent


def parse_options(pairs: list[str]) -> dict:
    """``KEY=VALUE`` game options (integers and true/false converted)."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"--option wants KEY=VALUE, got {pair!r}")
        out[key] = int(value) if value.lstrip("-").isdigit() else \
            {"true": True, "false": False}.get(value, value)
    return out


def cmd_record(args) -> None:
    options = parse_options(args.option)
    ds = D.record_decisions(args.game, args.deals, args.seed, args.rate, args.players,
                            options)
    name = re.sub(r"[^A-Za-z0-9=.]+", "_", args.players)
    game = args.game
    if game == "tarot":
        game += str(options.get("players", 4))
    if game == "tarocchini":
        game = str(options.get("game", "ottocento"))
    out = Path(args.out or HERE / "decisions" / f"{game}-{name}.json")
    out.parent.mkdir(exist_ok=True)
    D.save(ds, str(out))
    print(f"{len(ds)} decisions from {args.deals} deals -> {out}")


def cmd_eval(args) -> None:
    ds = D.load(args.set)[args.skip:][:args.limit]
    print(f"{args.set}: {len(ds)} decisions from #{args.skip} (agents interleaved"
          " decision by decision)")

    def progress(done, scored):
        if done % 100 == 0:
            gains = [D.paired(s, scored[0]) for s in scored[1:]]
            print(f"  {done} decisions: mean loss " + ", ".join(
                f"{s.spec} {statistics.mean(s.losses):.2f}" for s in scored) + "; gain "
                + ", ".join(f"{g[0]:+.2f} [{g[1]:+.2f}, {g[2]:+.2f}]" for g in gains),
                flush=True)

    scored = D.evaluate_all(ds, args.agent, args.seed, progress, first=args.skip)
    if args.dump:
        with open(args.dump, "w") as f:
            json.dump({s.spec: {"losses": s.losses, "times": s.times} for s in scored}, f)
    print("| agent | mean loss | 95% CI | mean s | p90 s | gain vs first (its loss less) | 95% CI |")
    print("|---|---|---|---|---|---|---|")
    for k, s in enumerate(scored):
        m, lo, hi = D.mean_ci(s.losses)
        t = sorted(s.times)
        p90 = t[int(0.9 * (len(t) - 1))]
        if k:
            d, dlo, dhi = D.paired(s, scored[0])
            gain = f"{d:+.2f} | [{dlo:+.2f}, {dhi:+.2f}]"
        else:
            gain = "- | -"
        print(f"| `{s.spec}` | {m:.2f} | [{lo:.2f}, {hi:.2f}] | {statistics.mean(s.times):.3f}"
              f" | {p90:.3f} | {gain} |", flush=True)


def cmd_exact(args) -> None:
    ds = D.load(args.set)
    lo, hi = args.left
    keep, tried = [], 0
    start = time.perf_counter()
    for d in ds:
        st = d.state()
        left = st.hands[d.seat].bit_count()     # the trick in progress counted
        if not lo <= left <= hi:
            continue
        tried += 1
        values = D.exact_values(st, d.seat, int(args.budget))
        if values is not None:
            d.values = values
            keep.append(d)
    out = args.out
    D.save(keep, out)
    print(f"{len(keep)} of the {tried} decisions with {lo}-{hi} tricks left valued exactly "
          f"within {args.budget:.0e} nodes a decision ({time.perf_counter() - start:.0f} s)"
          f" -> {out}")


def true_masks(st) -> list[int]:
    """The true holdings as the sampler places them: the seats' hands, then (Tarocchini)
    the pile aside (the discard, or the Terziglio solo stock)."""
    masks = list(st.hands)
    if st.game == "tarocchini":
        masks.append(st.discard | st.stock)
    return masks


def cmd_model(args) -> None:
    ds = D.load(args.set)[args.skip:][:args.limit]
    choices = hits = 0
    n_legal = []
    ranks = []
    top10 = 0
    ranked = 0
    weigh: list[float] = []  # seconds to weigh one draw, per decision
    sizes: list[float] = []  # the effective size of the draws' weights, per decision
    # --mcmc: per decision, where the true hands rank among the worlds, the distinct
    # worlds, whether the true world is one of them; the chains' time and acceptance
    mc = {name: {"rank": [], "distinct": [], "true": []} for name in ("sir", "mcmc")}
    chain_time: list[float] = []
    accepted: list[float] = []
    for i, d in enumerate(ds):
        st = d.state()
        model = play_model(st, d.seat, args.eps[0])
        if model is None or not model.plays:
            continue
        masks = true_masks(st)
        c, h, _ = model.agreement(masks)
        choices += c
        hits += h
        for j, p in enumerate(model.plays):
            aside = getattr(p, "aside", None)
            hit, n = model.choice(j, masks[p.seat] | p.later,
                                  0 if aside is None else masks[aside])
            if n > 1:
                n_legal.append((hit, n))
        # the true hands against uniform draws: the share of draws weighing less
        true = [bit_list(x) for x in masks]
        lw_true = model.log_weight(true)
        draw = holdings_sampler(st, d.seat)
        rng = random.Random(f"model-{i}")
        pool = [draw(rng) for _ in range(args.draws)]
        start = time.perf_counter()
        lws = [model.log_weight(h) for h in pool]
        weigh.append((time.perf_counter() - start) / len(pool))
        sizes.append(effective_size(lws))
        if len(set(lws)) == 1 and lws[0] == lw_true:
            continue  # no information at this decision
        if args.mcmc:
            mc_rng = random.Random(f"mcmc-{i}")
            key_true = world_key(true)[:len(st.hands)]
            # SIR: the draws resampled to --worlds picks
            picks = resample(lws, args.worlds, mc_rng)
            sir = [(lws[j], world_key(pool[j])[:len(st.hands)]) for j, k in picks
                   for _ in range(k)]
            starts = [pool[j] for j, k in resample(lws, args.chains, mc_rng)
                      for _ in range(k)]
            start = time.perf_counter()
            worlds, stats = chain_worlds(hidden(st, d.seat), model, starts, args.mcmc,
                                         args.worlds, mc_rng)
            chain_time.append(time.perf_counter() - start)
            accepted.append(stats["accepted"])
            chained = [(model.log_weight(h), world_key(h)[:len(st.hands)]) for h in worlds]
            for name, got in (("sir", sir), ("mcmc", chained)):
                xs = [x for x, _ in got]
                share = (sum(x < lw_true for x in xs) + 0.5 * sum(x == lw_true for x in xs)) \
                    / len(xs)
                mc[name]["rank"].append(share)
                mc[name]["distinct"].append(len({k for _, k in got}))
                mc[name]["true"].append(any(k == key_true for _, k in got))
        below = sum(x < lw_true for x in lws) + 0.5 * sum(x == lw_true for x in lws)
        ranks.append(below / len(lws))
        cut = sorted(lws, reverse=True)[max(0, len(lws) // 10 - 1)]
        top10 += lw_true >= cut
        ranked += 1
    print(f"{args.set}: {len(ds)} decisions from #{args.skip}, {choices} past cards of others with a choice,"
          f" the heuristic picks {hits} ({hits / max(1, choices):.1%})")
    print("| eps | log-loss per card (nats) | uniform over legal |")
    print("|---|---|---|")
    uni = statistics.mean(math.log(n) for _, n in n_legal)
    for eps in args.eps:
        ll = -statistics.mean(math.log(1 - eps) if hit else math.log(eps / (n - 1))
                              for hit, n in n_legal)
        print(f"| {eps} | {ll:.3f} | {uni:.3f} |")
    if ranked:
        print(f"true hands vs {args.draws} uniform draws at {ranked} decisions: mean share of"
              f" draws weighing less {statistics.mean(ranks):.1%} (50% = no information),"
              f" in the top 10% by weight {top10 / ranked:.1%} (10% = none)")
    if weigh:
        print(f"weighing a draw: median {statistics.median(weigh) * 1e6:.0f} µs, max"
              f" {max(weigh) * 1e6:.0f} µs; effective size of the {args.draws} draws' weights"
              f" (eps {args.eps[0]}): median {statistics.median(sizes):.1f}")
    if chain_time:
        print(f"--worlds {args.worlds} at {len(chain_time)} decisions: resampled from the"
              f" {args.draws} draws (sir) or drawn by {args.chains} chains of {args.mcmc}"
              f" steps (mcmc, eps {args.eps[0]})")
        print("| worlds | true hands' share of worlds weighing less (mean; 50% ="
              " calibrated) | in the top 10% | distinct worlds (median) | the true world"
              " among them |")
        print("|---|---|---|---|---|")
        for name, got in mc.items():
            top = sum(r >= 0.9 for r in got["rank"]) / len(got["rank"])
            print(f"| {name} | {statistics.mean(got['rank']):.1%} | {top:.1%} |"
                  f" {statistics.median(got['distinct']):.0f} |"
                  f" {statistics.mean(got['true']):.1%} |")
        print(f"chains: median {statistics.median(chain_time) * 1e3:.0f} ms a decision"
              f" ({statistics.median(chain_time) / (args.chains * args.mcmc) * 1e6:.0f} µs"
              f" a step), accepted {statistics.mean(accepted):.1%} of the proposals")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("--game", required=True, choices=D.JUDGE_GAMES)
    r.add_argument("--deals", type=int, default=60)
    r.add_argument("--rate", type=float, default=0.25)
    r.add_argument("--players", default="heuristic")
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--option", action="append", default=[],
                   help="a game option KEY=VALUE (Tarot: players=3, 4 or 5)")
    r.add_argument("--out")
    e = sub.add_parser("eval")
    e.add_argument("set")
    e.add_argument("--agent", action="append", required=True)
    e.add_argument("--seed", type=int, default=0)
    e.add_argument("--limit", type=int)
    e.add_argument("--skip", type=int, default=0, help="leave out the first decisions "
                   "(the others are seeded as in the whole set)")
    e.add_argument("--dump", help="write every agent's loss and time per decision (JSON)")
    x = sub.add_parser("exact", help="a Tarot or Tarocchini set's decisions with LO-HI "
                       "tricks left, judged by the exact search (those it values within "
                       "the budget)")
    x.add_argument("set")
    x.add_argument("--left", type=int, nargs=2, metavar=("LO", "HI"), required=True)
    x.add_argument("--budget", type=float, default=4e7, help="nodes a decision")
    x.add_argument("--out", required=True)
    m = sub.add_parser("model")
    m.add_argument("set")
    m.add_argument("--eps", type=float, nargs="+", default=[0.02, 0.05, 0.1, 0.2, 0.3])
    m.add_argument("--draws", type=int, default=200)
    m.add_argument("--limit", type=int)
    m.add_argument("--mcmc", type=int, default=0, help="steps a chain (0: no chains)")
    m.add_argument("--chains", type=int, default=10)
    m.add_argument("--worlds", type=int, default=100)
    m.add_argument("--skip", type=int, default=0, help="leave out the first decisions "
                   "(fit eps on some decisions, report on the others)")
    args = ap.parse_args()
    {"record": cmd_record, "eval": cmd_eval, "model": cmd_model,
     "exact": cmd_exact}[args.cmd](args)


if __name__ == "__main__":
    main()
