"""Tarocchini exact DD search speed on the fixed deal sets
(benchmarks/deals/tarocchini_ottocento.txt, tarocchini_terziglio.txt, 200 deals each).

Ottocento deal i: dealer seat i % 4, whose side owns the 2-card talon as its discard,
the eldest leads.  Terziglio deal i: a solo by seat i % 3 (the stock goes to the side
of the last trick), seat 1 leads.  No declarations.  Objective: side 1 total − side 0
total in half points (solver.dd.tarocchini).

Tasks per deal, each with a cold transposition table (new generation):

* ``full value`` / ``full cards``: the full deal's value / every opening-lead card,
  under a node budget (``FULL_BUDGET``): the exact full-deal search is far beyond
  the target (each extra trick multiplies the nodes by about 5-6), so this row gives
  the share of deals completed within the budget;
* ``endgame value`` / ``endgame cards``: the exact value / every card after seeded
  random play down to ``K`` tricks left (Ottocento 7, Terziglio 8), completed always.

Target (project brief): median <= 200 ms single core for the full-deal value and all
cards at the opening lead.  Times are CPU seconds of this process
(``time.process_time``), medians / percentiles over the deals.

Optimisation measurements (kept; 30 endgames per variant from these deals, Ottocento
K=7 / Terziglio K=8, value only, total nodes and CPU seconds, tt_bits 18):

=====================================================  ==============  ==============
step                                                   Ottocento       Terziglio
=====================================================  ==============  ==============
exact key, no bounds, basic ordering (merging on)      18.99M  1.96 s  15.44M  1.88 s
+ canonical key (pips by holders, Moors by count)      -3..7 % nodes on a 48-position probe
  (merging off instead: +5..10 % nodes)
+ sure-point bounds, cached combination points         14.90M  1.67 s   6.27M  0.76 s
  dead-family key compression (rejected, off)          14.60M  2.12 s   6.26M  0.98 s
+ ordering: lead sure winners else low, last seat      12.45M  1.55 s   4.99M  0.67 s
+ bounds know the Matto's side / pip payments          12.13M  1.37 s   4.87M  0.59 s
+ last trick played out without search                10.99M  1.19 s   4.37M  0.60 s
=====================================================  ==============  ==============

TT size 2**16/18/20/22 (Ottocento): 16.45M/14.90M/14.69M/14.68M nodes (18 kept for
speed); TT only from 3 or 4 cards per hand: +67 % / +285 % nodes.  MTD(f) probes
before bisection 0/2/4/8/unbounded: 8.8/9.4/11.2/14.3/64 probes per solve, nodes
within 5 % except unbounded (+33 %); 4 kept.  TT hit rate 50-60 %.  Growth: about
5-6x nodes per extra trick (Terziglio K=6..9 medians 11k, 65k, 370k, 1.5M nodes;
Ottocento K=5..7: 11k, 70k, 494k, before bounds and ordering), so an exact full deal
(15 / 18 tricks) would take ~1e10-1e12 nodes at ~7M nodes/s.

Horizon search (``horizon=H``: the current trick and H more searched, the next trick
boundary scored by the core's static evaluation; ``solver.dd.tarocchini
.default_horizon`` picks H by tricks left).  ``solve_cards`` with ``default_horizon``
on the first 50 deals of each set (mid-deal: seeded random play to 8 / 9 tricks
left, ``endgame``), nodes (deterministic) and CPU ms (shared, noisy machine), all
searches complete (no budget):

==========================================  ====  ==========================  ===========
position                                    H     nodes median / p90 / max    ms med/p90
==========================================  ====  ==========================  ===========
Ottocento trick 1 (15 tricks left)          1     22.0k / 37.8k / 47.6k       4.0 / 6.4
Ottocento mid-deal (8 tricks left)          3     109k / 802k / 4.46M         16 / 115
Terziglio trick 1 (18 tricks left)          1     11.1k / 29.8k / 45.3k       2.0 / 5.9
Terziglio mid-deal (9 tricks left)          4     110k / 1.05M / 3.16M        17 / 160
==========================================  ====  ==========================  ===========

One more trick of horizon costs x5-x20 nodes (trick 1: H=2 takes a median 409k
Ottocento, 285k Terziglio), the per-row costs behind default_horizon are in
solver/dd/tarocchini.py.  Pick quality (30 endgames, the card with the best truncated
value scored by the exact search; loss = exact value of the best card minus that of
the pick, half points, mean; a random legal card for reference): Ottocento 7 tricks
left H=1/2/3: 62.5 / 56.5 / 37.7 (best card 18/18/22 of 30; random 78.1); Terziglio
9 tricks left H=2/3/4: 19.9 / 23.4 / 9.7 (22/20/25 of 30; random 84.5).  Static
evaluation alone (one search-free estimate at 5 / 6 tricks left, 60 endgames): mean
absolute error to the exact value 175 / 182 half points, against 429 / 834 for the
points captured so far.
"""

from __future__ import annotations

import random
import statistics
import time
from pathlib import Path

from solver.cards import TAROCCHINI_DECK as DECK
from solver.core import tarocchini as ct
from solver.dd.tarocchini import DEFAULT_TT_BITS, _solver
from solver.notation import Deal

DEALS = Path(__file__).resolve().parent / "deals"
FULL_BUDGET = 2_000_000
ENDGAME_TRICKS = {"ottocento": 7, "terziglio": 8}
TARGET_MS = 200.0


def load_deals(variant: str) -> list[tuple[ct.Game, ct.Position]]:
    """(Game, opening Position) of every deal of tarocchini_<variant>.txt.

    ``variant="gioco"``: the Terziglio deals played as a gioco by the same declarer
    (seat i % 3): he takes the stock and discards as many cards, never a five-point
    one (TERZ-BID-2), one at a time by the heuristic player's rule
    (solver.heuristics.tarocchini.choose_discard); the discard is his side's."""
    if variant == "gioco":
        return [_gioco(game, pos) for game, pos in load_deals("terziglio")]
    out = []
    lines = (DEALS / f"tarocchini_{variant}.txt").read_text(encoding="utf-8").splitlines()
    i = 0
    for line in lines:
        if not line.strip() or line.startswith("#"):
            continue
        deal = Deal.from_text(line, DECK)
        hands = [DECK.mask(h) for h in deal.hands]
        if variant == "ottocento":
            dealer = i % 4
            game = ct.make_game(4, (0, 1, 0, 1), discard=DECK.mask(deal.extras["talon"]),
                                discard_side=dealer % 2)
            pos = ct.make_position(game, hands, leader=(dealer + 1) % 4)
        else:
            declarer = i % 3
            game = ct.make_game(3, tuple(0 if s == declarer else 1 for s in range(3)),
                                stock=DECK.mask(deal.extras["stock"]))
            pos = ct.make_position(game, hands, leader=1)
        out.append((game, pos))
        i += 1
    return out


def _gioco(game: ct.Game, pos: ct.Position) -> tuple[ct.Game, ct.Position]:
    from solver.games import tarocchini as tg
    from solver.games.base import Move
    from solver.heuristics.tarocchini import choose_discard

    declarer = game.side_of.index(0)
    hands = list(pos.hands)
    hand = hands[declarer] | game.stock
    discard = 0
    for _ in range(game.stock.bit_count()):
        legal = [Move("discard", c) for c in range(62)
                 if hand >> c & 1 and tg.card_value(c) != 5]
        c = choose_discard({"hand": hand, "options": {}}, legal).value
        hand &= ~(1 << c)
        discard |= 1 << c
    hands[declarer] = hand
    g = ct.make_game(3, game.side_of, discard=discard, discard_side=0)
    return g, ct.make_position(g, hands, leader=pos.leader)


def endgame(game: ct.Game, pos: ct.Position, tricks: int, seed: int) -> ct.Position:
    """The position after seeded random play down to ``tricks`` tricks left."""
    core = ct.core_of(game, pos)
    rng = random.Random(seed)
    while core.trick_count() or core.hand(core.to_act()).bit_count() > tricks:
        legal = core.legal()
        core.play(rng.choice([c for c in range(62) if legal >> c & 1]))
    won = core.won()
    last = -1 if not sum(won) else game.side_of[core.leader()]
    return ct.make_position(game, [core.hand(s) for s in range(game.n)], leader=core.leader(),
                            piles=core.piles(), owed=core.owed(), won=won, last_side=last)


def _pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def _measure(items, budget: int) -> dict[str, list[float]]:
    solver = _solver(DEFAULT_TT_BITS)
    res: dict[str, list[float]] = {f"{t}_{k}": [] for t in ("value", "cards")
                                   for k in ("t", "n", "ok")}
    for game, pos in items:
        solver.configure(*game.args())
        for task in ("value", "cards"):
            solver.set_position(*pos.args())
            t = time.process_time()
            if task == "value":
                _, _, _, nodes, complete = solver.solve(0, budget, 0.0)
            else:
                _, nodes, complete = solver.solve_cards(budget, 0.0)
            res[f"{task}_t"].append(time.process_time() - t)
            res[f"{task}_n"].append(nodes)
            res[f"{task}_ok"].append(1.0 if complete else 0.0)
    return res


def run(quick: bool = False) -> list[dict]:
    """Measure and return the table rows (one per variant and task)."""
    rows = []
    count = 20 if quick else 200
    budget = 200_000 if quick else FULL_BUDGET
    for variant in ("ottocento", "terziglio"):
        deals = load_deals(variant)[:count]
        ends = [(g, endgame(g, p, ENDGAME_TRICKS[variant], 1000 + i))
                for i, (g, p) in enumerate(deals)]
        for tier, items, b in (("full", deals, budget), ("endgame", ends, 0)):
            res = _measure(items, b)
            for task in ("value", "cards"):
                ts = [1000 * x for x in res[f"{task}_t"]]
                ns = res[f"{task}_n"]
                done = sum(res[f"{task}_ok"])
                med = statistics.median(ts)
                rows.append({
                    "game": f"tarocchini-{variant}",
                    "task": f"{tier} {task}" + (f" (K={ENDGAME_TRICKS[variant]})"
                                                if tier == "endgame" else ""),
                    "deals": len(items), "node_budget": b, "complete": int(done),
                    "median_ms": round(med, 2), "p90_ms": round(_pct(ts, 0.9), 2),
                    "p99_ms": round(_pct(ts, 0.99), 2), "max_ms": round(max(ts), 2),
                    "median_nodes": int(statistics.median(ns)),
                    "p90_nodes": int(_pct(ns, 0.9)), "max_nodes": int(max(ns)),
                    "target_ms": TARGET_MS,
                    "met": bool(done == len(items) and med <= TARGET_MS),
                })
    return rows


# ---------------------------------------------------------------------------
# Issue 24: the exact analysis's questions, before vs now in the same run
# ---------------------------------------------------------------------------
# ``python benchmarks/dd_tarocchini.py [--deals 50] [--budget 2e6] [--growth 8 9 10]
# [--growth-deals 10] [--growth-budget 2e7] [--variants ottocento terziglio]
# [--baseline before|no-matto-merge|no-match|no-mobility|...] [--no-append]``: per variant (Ottocento; Terziglio solo; Terziglio gioco: the same
# deals, the declarer's discard by the heuristic player, ``load_deals("gioco")``), on
# the first ``--deals`` deals of the files above,
# the questions of ``solver.dd.tarocchini.analyse`` at the first lead -- (a) who comes
# out ahead, (b) the exact margin, (c) every card -- each with a per-position node
# budget, for the search as it was before issue 24 (``search="before"``: no sure-trump
# bounds, (a) answered by the exact value, (c) by the former solve_cards) and now
# (one null-window probe, the margin from the probe's bound, the cards from the
# margin), median / p90 / max seconds and nodes; a question stopped by the budget
# counts at the budget (its medians are then lower bounds, ``done`` says how many
# finished).  Then the growth table: the same questions on positions ``k`` tricks
# before the end (seeded random play from the same deals, ``endgame``).
# Seconds: CPU of this process (time.process_time); nodes are deterministic.

QUESTIONS = ("ahead", "value", "cards")


# --baseline: "before" (issue 24's first techniques off, (a) by the exact value), or
# "no-matto-merge": the search of now with only sure_matto and merge_dead off (the
# second session's techniques, core docstring), so the ratio is theirs alone;
# "no-match": the third session's trump-matching combination caps (``match``, off by
# default: they did not pay) off in the "before" rows and on in the "now" rows
# (search and features of the "before" rows, features added to the "now" rows);
# "no-mobility": the leads in the order before the opponents' answers were weighed
# (the core's ``mobility`` 0); "no-early-probe": the table probed before the bounds,
# without a prefetch (the core's ``early_probe`` off: the same nodes, compare seconds);
# "no-merge2": no points-aware merging of a hand's runs (the core's ``merge2``);
# "no-sure-leads": a top card led counts as a sure winner only with no trump out (the
# core's ``order`` 1); "none": no "before" rows (the search of now alone, e.g. at the
# targets' budgets)
BASELINES = {"before": ("before", None, None),
             "no-matto-merge": ("now", {"sure_matto": False, "merge_dead": False}, None),
             "no-match": ("now", {"match": False}, {"match": True}),
             "no-mobility": ("now", {"mobility": 0}, None),
             "no-early-probe": ("now", {"early_probe": False}, None),
             "no-merge2": ("now", {"merge2": False}, None),
             "no-sure-leads": ("now", {"order": 1}, None),
             "none": (None, None, None)}


def ask(game: ct.Game, pos: ct.Position, search: str, budget: int,
        questions: tuple[str, ...] = QUESTIONS,
        features: dict | None = None) -> dict[str, tuple[float, int, bool, int]]:
    """question -> (CPU seconds, nodes, finished, the margin's proven width where (b)
    stopped, the ``median_width`` / ``sum_width`` columns: 0 when it finished or for
    the other questions) at ``pos``, from one run of
    ``analyse`` up to the last question asked: a question's figures are those of the
    analysis up to it (a later question includes the earlier ones), which is what a
    separate run of that question with the same budget would give (the same searches
    in the same order, one budget for the whole)."""
    from solver.dd import tarocchini as dd

    a = dd.analyse_position(game, pos, node_budget=budget, cards="cards" in questions,
                            line=False, search=search, features=features)
    out = {}
    for q in questions:
        # the questions up to q, and past (a) the cards' (a) that analyse asks before
        # (b) ("card ahead", twenty-sixth session)
        upto = QUESTIONS[:QUESTIONS.index(q) + 1] + (("card ahead",) if q != "ahead" else ())
        nodes = sum(n for st, _, n in a.steps if st in upto)
        secs = sum(x for st, x, _ in a.steps if st in upto)
        done = {"ahead": a.stage != "ahead", "value": a.value is not None,
                "cards": a.complete}[q]
        width = a.upper - a.lower if q == "value" and not done else 0
        out[q] = (secs, nodes, bool(done), width)
    return out


def _summary(variant: str, label: str, res: dict[str, list], budget: int) -> list[dict]:
    rows = []
    for version in ("before", "now") if res["before"] else ("now",):
        r = res[version]
        secs = [x[0] for x in r]
        nodes = [x[1] for x in r]
        rows.append({"variant": variant, "question": label, "search": version,
                     "positions": len(r), "done": sum(x[2] for x in r),
                     "budget": f"{budget:.2g}", "median_s": statistics.median(secs),
                     "p90_s": _pct(secs, 0.9), "max_s": max(secs),
                     "median_nodes": int(statistics.median(nodes)),
                     "p90_nodes": int(_pct(nodes, 0.9)), "max_nodes": max(nodes),
                     "median_width": statistics.median(x[3] for x in r),
                     "sum_width": sum(x[3] for x in r),
                     "ratio_before_now": None, "geo_ratio": None, "ratio_on": None})
    if not res["before"]:
        return rows
    both = [(b[1], w[1]) for b, w in zip(res["before"], res["now"], strict=True)
            if b[2] and w[2]]
    rows[-1]["ratio_before_now"] = (statistics.median(b / max(w, 1) for b, w in both)
                                    if both else None)
    rows[-1]["geo_ratio"] = (statistics.geometric_mean(max(b, 1) / max(w, 1)
                                                       for b, w in both) if both else None)
    rows[-1]["ratio_on"] = len(both)
    return rows


def measure(variants: list[str], deals: int, budget: int, growth: list[int],
            growth_deals: int, growth_budget: int,
            questions: list[str], baseline: str = "before") -> dict[str, list[dict]]:
    qs = tuple(q for q in QUESTIONS if q in questions)
    last = qs[-1:]
    first: list[dict] = []
    rows_g: list[dict] = []
    for variant in variants:
        # the first leads and the growth table each take their own count of deals
        # from the front of the file (--deals 0: the growth table alone)
        items = load_deals(variant)
        for label, positions, b, sink in (
                ("", [(g, p) for g, p in items[:deals]], budget, first),
                *((f", {k} left", [(g, endgame(g, p, k, 1000 + i)) for i, (g, p)
                                   in enumerate(items[:growth_deals])], growth_budget,
                   rows_g) for k in growth)):
            if not positions:
                continue
            res: dict[str, dict[str, list]] = {q: {"before": [], "now": []} for q in qs}
            for game, pos in positions:
                for version in ("now",) if baseline == "none" else ("before", "now"):
                    search, feats = (BASELINES[baseline][:2] if version == "before"
                                     else ("now", BASELINES[baseline][2]))
                    got = ask(game, pos, search, b, qs, feats)
                    for q in qs:
                        res[q][version].append(got[q])
            # the growth table gives the cheap question only when the cards are asked
            for q in (qs if sink is first else last if "cards" not in qs else qs):
                rows = _summary(variant, f"({'abc'[QUESTIONS.index(q)]}) {q}{label}",
                                res[q], b)
                sink.extend(rows)
                print(*rows, sep="\n", flush=True)
    return {"first lead (full deal)": first, "growth by tricks left": rows_g}


def main() -> None:
    import argparse
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _report import report

    ap = argparse.ArgumentParser(description="Tarocchini exact analysis, before vs now")
    ap.add_argument("--variants", nargs="*", default=["ottocento", "terziglio", "gioco"],
                    choices=["ottocento", "terziglio", "gioco"])
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--budget", type=float, default=2e6)
    ap.add_argument("--growth", type=int, nargs="*", default=[8, 9, 10])
    ap.add_argument("--growth-deals", type=int, default=10)
    ap.add_argument("--growth-budget", type=float, default=2e7)
    ap.add_argument("--questions", nargs="*", default=list(QUESTIONS), choices=QUESTIONS)
    ap.add_argument("--baseline", choices=sorted(BASELINES), default="before",
                    help="what the 'before' rows are (default: before issue 24; none: "
                         "only the search of now, e.g. against the targets)")
    ap.add_argument("--no-append", action="store_true")
    a = ap.parse_args()
    sections = measure(a.variants, a.deals, int(a.budget), a.growth, a.growth_deals,
                       int(a.growth_budget), a.questions, a.baseline)
    title = ("the search of now alone" if a.baseline == "none" else f"{a.baseline} vs now")
    report(f"Tarocchini exact analysis (dd_tarocchini.py, issue 24), {title}",
           sections, append=not a.no_append)


if __name__ == "__main__":
    main()
