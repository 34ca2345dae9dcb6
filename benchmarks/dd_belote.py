"""Belote / Coinche exact DD search speed on fixed deal sets (benchmarks/deals/).

For every deal: (a) the value of the full deal, (b) the value of every legal card at
the opening lead; time and nodes per deal (cold transposition table per deal), with
median / p90 / p99 / max.  Coinche suit contracts are also solved by colver's solver
(``Env.solve_scores``, all cards) in the same run, on colver's rules
(``undertrump_required=false``, contract on team 0).

Targets (project brief): Coinche all-cards opening lead median <= 2 ms and >= 9x
faster than colver.  ``run(quick)`` returns one flat row per (game, rules, task).

Besides time and nodes, each row gives the transposition-table hit rate, the number of
null-window probes per deal (all probes of the task) and the node rate, which together
say what limits the search.

What limits it (measured 2026-11-29 on the first 60 Coinche deals, colver rules; values
identical at every step, checked by a checksum of all values):

* Node rate is not the limit: 17-21 M nodes/s. A profile (perf) puts ~25% of the time in
  move ordering (order_moves + trick_outlook) and ~20% in transposition-table probes that
  miss the cache; copying the position as 64-bit words instead of a struct assignment
  (store-forwarding stalls) saved ~12%. A table of 2**15-2**16 entries (fits L2) is
  within noise of 2**18; a lean search without ordering/table for the penultimate trick
  cut nodes by 3.6% and time by nothing (not kept).
* Node count is the limit: median 134k nodes for the value, 360k for all cards. The value
  needs ~7 null-window probes (bisection of the point range 0..162/252 from the greedy
  line's value; MTD(f) bound-following: 18.6 probes and +21% nodes; full window: +35%
  nodes); all cards need ~45 probes (each non-equivalent card is its own bisection,
  bounded by the position's value; a full-window search per card: +10%).
* Ordering: 93% of cutoffs come from the first move (81% at the leader, 96% at the 4th
  hand); history-heuristic tie-breaking and lead-scoring variants changed nodes by -1%
  to +14%. TT hit rate 67% (value), 74% (all cards).
* Where the nodes are: 70% with 2-3 cards left per hand; of the trick-boundary nodes
  with 2 cards left 25% are cut by static bounds, 50% by the table, 5% by the cash
  bound, 17% are expanded (3 left: 23% / 45% / 3% / 29%).
  Larger exact-value caching (full-window search at <= 2 or 3 cards) costs +9% / +50%.
* Quasi-symmetry (kept): bounds stored under a shape key (holders of the remaining cards
  in power order, up to 5 cards per hand) serve positions of the same shape with other
  point cards, widened by the rank-matched point distance (after Kupferschmid &
  Helmert's Skat solver). 240 deals: median nodes 174k -> 90k (value), 408k -> 234k
  (all cards), max 3.0M -> 1.6M / 6.5M -> 2.7M; time -30% (two table probes on an exact
  miss); identical values. Keeping every variant in the shape's bucket instead of one
  representative thrashed the table (up to 600x more nodes on a deal where the
  defence takes every trick) and was replaced.
* Shape entries at every depth (a 64-bit mix of the shape beyond 5 cards a hand):
  -15% nodes more (median 80k value, 198k all cards). Two variants per shape, the
  nearest in points answering: -4% nodes, no time gain (not kept). A window search once
  the bisection interval is <= 4..32 points wide: no fewer nodes (not kept).
* Table size, again after the shape entries (150 random Coinche deals, 2026-11-29):
  2**16 entries against 2**18: +3% nodes, -10% time for the value and for all cards
  (two runs each, same values); 2**15: +9% nodes, no faster; 2**20: +10% time. The
  default is 2**16 since (column ``tt_bits``).
* So the 2 ms target (still ~7x fewer nodes) needs more than this: multi-trick
  quick-trick bounds in the DDS style, a cheaper all-cards scheme (44 probes per deal).

Times are CPU times of this process (``time.process_time``; both solvers run
single-threaded in-process), because wall-clock times on the shared, overloaded
benchmark machine were up to 4x the CPU time; the wall-clock median is reported too.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from solver.cards import BELOTE_DECK
from solver.core import belote as cb
from solver.dd.belote import DEFAULT_TT_BITS, _solver
from solver.notation import Deal

DEALS = Path(__file__).resolve().parent / "deals"


def load_deals(game: str) -> list[list[int]]:
    """Hand masks of every deal of benchmarks/deals/<game>.txt."""
    out = []
    for line in (DEALS / f"{game}.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            deal = Deal.from_text(line, BELOTE_DECK)
            out.append([BELOTE_DECK.mask(h) for h in deal.hands])
    return out


def _pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def _colver_all_cards(hands: list[int], dealer: int, trump: int) -> float:
    import colver
    plain = [0, 1, 2, 6, 3, 4, 5, 7]
    env = colver.Env.deal_with_hands(
        dealer, [[8 * (c >> 3) + plain[c & 7] for c in range(32) if h >> c & 1] for h in hands])
    env.set_contract(trump, 80, 0, 0)
    env.set_phase_playing()
    t = time.process_time()
    env.solve_scores()
    return time.process_time() - t


def _measure(deals, contract, rules_of, colver: bool) -> dict[str, list[float]]:
    solver = _solver(DEFAULT_TT_BITS)
    res: dict[str, list[float]] = {"value_t": [], "value_n": [], "cards_t": [],
                                   "cards_n": [], "colver_t": [], "value_w": [],
                                   "cards_w": [], "value_s": [], "cards_s": []}
    for i, hands in enumerate(deals):
        dealer, strain, taker = contract(i)
        rules = rules_of(strain)
        pos = cb.make_position(hands, leader=(dealer + 1) % 4, taker=taker)
        solver.configure(*rules.args())
        for task in ("value", "cards"):
            solver.new_generation()
            solver.set_position(*pos.args())
            w = time.perf_counter()
            t = time.process_time()
            if task == "value":
                out = solver.solve()
                nodes = out[3]
            else:
                nodes = solver.solve_cards()[1]
            res[f"{task}_t"].append(time.process_time() - t)
            res[f"{task}_w"].append(time.perf_counter() - w)
            res[f"{task}_n"].append(nodes)
            res[f"{task}_s"].append(solver.stats())
        if colver:
            res["colver_t"].append(_colver_all_cards(hands, dealer, strain))
    return res


def run(quick: bool = False) -> list[dict]:
    """Solve the fixed deal sets and return the table rows."""
    rows = []
    n = 20 if quick else 240
    setups = [
        # (game, rules label, contract(i) -> (dealer, strain, taker), rules, colver?)
        ("coinche", "colver rules (suits, no undertrump, taker team 0)",
         lambda i: (i % 4, i % 4, 2 * ((i // 4) % 2)),
         lambda s: cb.PlayRules(s, undertrump_required=False), True),
        ("coinche", "defaults (S H D C TA SA)",
         lambda i: (i % 4, i % 6, (i // 6) % 4), lambda s: cb.PlayRules(s), False),
        ("belote", "defaults (suits)",
         lambda i: (i % 4, i % 4, (i // 4) % 4), lambda s: cb.PlayRules(s), False),
    ]
    for game, label, contract, rules_of, with_colver in setups:
        deals = load_deals(game)[:n]
        m = _measure(deals, contract, rules_of, with_colver)
        for task, key in (("(a) full-deal value", "value"), ("(b) all cards, opening lead",
                                                            "cards")):
            t = [x * 1000 for x in m[f"{key}_t"]]
            nodes = m[f"{key}_n"]
            col = statistics.median(m["colver_t"]) * 1000 if (with_colver and key == "cards") \
                else 0.0
            med = statistics.median(t)
            speedup = col / med if col else 0.0
            is_target = game == "coinche" and key == "cards"
            target = "median <= 2 ms, >= 9x colver" if is_target else "-"
            met = "-" if not is_target else (
                "yes" if med <= 2.0 and (not with_colver or speedup >= 9) else "no")
            stats = m[f"{key}_s"]
            probes = sum(x["tt_probes"] for x in stats)
            hit_rate = sum(x["tt_hits"] for x in stats) / probes if probes else 0.0
            rate = sum(nodes) / sum(m[f"{key}_t"]) / 1e6 if sum(m[f"{key}_t"]) else 0.0
            rows.append({"game": game, "rules": label, "task": task, "deals": len(deals),
                         "median_ms": round(med, 3), "p90_ms": round(_pct(t, 0.9), 3),
                         "p99_ms": round(_pct(t, 0.99), 3), "max_ms": round(max(t), 3),
                         "median_wall_ms": round(statistics.median(m[f"{key}_w"]) * 1000, 3),
                         "median_nodes": int(statistics.median(nodes)),
                         "p90_nodes": int(_pct(nodes, 0.9)), "max_nodes": int(max(nodes)),
                         "tt_hit_rate": round(hit_rate, 3),
                         "probes_per_deal": round(statistics.mean(
                             x["probes"] for x in stats), 1),
                         "Mnodes_per_s": round(rate, 1),
                         "colver_median_ms": round(col, 3),
                         "speedup_vs_colver": round(speedup, 2), "tt_bits": DEFAULT_TT_BITS,
                         "target": target,
                         "met": met})
    return rows


if __name__ == "__main__":
    for row in run(quick=True):
        print(row)
