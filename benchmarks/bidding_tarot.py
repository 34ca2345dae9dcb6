"""French Tarot bid analysis: evaluation time, the écart heuristic against the search,
the DD bias, and simulation bidding against point-count bidding.

(a) Time of ``atout evaluate tarot`` (dd mode, every contract with the écart search,
poignée rows) on fixed hands for 3, 4 and 5 players at 200 worlds (``quick``: 20;
the time per world is given too). Target (issue): 4p all contracts incl. écart search
<= 30 s at 200 samples, single core.

(b) Écart check: on seeded 4p deals where seat 0 takes a garde, every candidate écart
(``ecart_candidates``, limit 12) is played out in the same worlds (heuristic opening,
exact DD ending); per world the T of the heuristic écart (``choose_discard``) is
compared with the best candidate's: how often the heuristic one is the best and the
mean / max gap in T. The candidate set of the evaluator (limit 6) is compared too.
(b2) On deals with at most 1000 legal écarts, every legal écart is played out in one
world: how often the candidate set holds the best écart and the gaps of the set and
of the heuristic écart to the true best.

(c) DD bias: on seeded 4p hands the same worlds are evaluated in dd mode (DD ending:
every hand visible) and pimc mode (PIMC agents play the ending); per hand and contract
the difference of the expected seat scores (dd - pimc) and of P(make); whether both
recommend the same bid. Both modes share the heuristic opening (all but the last 5
tricks), so this measures the bias of the DD ending only.

(d) Bidding: the same seeded 4p deals are bid once with the heuristic point count
(``solver.heuristics.tarot.choose_bid``) and once by simulation (``decide``: 8
worlds per decision; it also makes the écart, chelem and poignée decisions); the card
play is the heuristic player's in both. Reported: deals taken, the taker's make rate
and mean own score (TAROT-SCORE-6, 3T), and the mean score of the seats per bidding.

(e) Optimism of the per-world écart: the same 4p hands with the écart chosen in each
world seeing every hand (the default) and chosen on the dog alone (``ecart_worlds=4``).

``run(quick)`` returns one flat row per measurement.
"""

from __future__ import annotations

import random
import statistics
import time
from itertools import combinations

from solver.bidding import Context, evaluate
from solver.bidding import tarot as bt
from solver.cards import TAROT_DECK as D
from solver.cards import mask_of
from solver.games import tarot as T
from solver.heuristic import HeuristicAgent

CASES = [
    # (label, players, dealer, hand) seat 0 speaks first
    ("3p strong", 3, 2, "T21 T20 T17 T15 T13 T11 T9 T8 T6 T3 T1 EX KS QS 7S 3S KH 10H 2H "
     "KD 9D 4D 5C 2C"),
    ("4p three bouts", 4, 3, "T21 T19 T16 T12 T10 T7 T5 T1 EX KS QS 4S KH 10H 3D 2D 9C 4C"),
    ("4p strong", 4, 3, "T21 T19 T18 T16 T15 T12 T10 T7 T5 T1 EX KS QS KH 10H 3D 2D 4C"),
    ("5p strong", 5, 4, "T21 T19 T18 T16 T15 T12 T10 T7 T5 T1 EX KS QS KH 10H"),
]


def _timing(quick: bool) -> list[dict]:
    samples = 20 if quick else 200
    rows = []
    for label, players, dealer, hand in CASES:
        ctx = Context("tarot", D.parse_cards(hand), 0, dealer, {"players": players})
        ev = bt.make_evaluator(ctx)
        t = time.perf_counter()
        c = time.process_time()
        e = evaluate(ctx, samples=samples, seed=0, mode="dd", evaluator=ev)
        dt, dc = time.perf_counter() - t, time.process_time() - c
        target = "-"
        if players == 4:
            target = "yes" if dc * 200 / samples <= 30 else "no"
        rows.append({"task": "(a) evaluate, dd mode", "hand": label, "candidates": len(e.rows),
                     "samples": samples, "wall_s": round(dt, 2), "cpu_s": round(dc, 2),
                     "cpu_s_at_200": round(dc * 200 / samples, 1),
                     "target_4p_30s": target,
                     "fallbacks": f"{ev.stats['fallbacks']}/{ev.stats['solves']}",
                     "recommended": e.recommended})
    return rows


def _garde_deals(count: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        deal = T.deal_cards(4, rng.randrange(1 << 30))
        yield [mask_of(h) for h in deal.hands], mask_of(deal.extras["dog"])


def _ecart_check(quick: bool) -> list[dict]:
    deals = 6 if quick else 40
    worlds = 2 if quick else 5
    gaps, gaps4, best_h, best_4, n, cands_n = [], [], 0, 0, 0, []
    ev = bt.PlayOnly(4, 3, T.resolve_options({}))
    for hands, dog in _garde_deals(deals, 11):
        enlarged = hands[0] | dog
        cands = bt.ecart_candidates(enlarged, 6, limit=12)
        cands_n.append(len(cands))
        unknown = [c for c in range(78) if not enlarged >> c & 1]
        rng = random.Random(enlarged % 1_000_003)
        for _ in range(worlds):
            others, _ = bt._deal_unknown(rng, unknown, 4, 0, 0)
            values = []
            for e in cands:
                hs = list(others)
                hs[0] = enlarged & ~e
                k = ev.play(hs, e, "garde", 0, None, False, "dd")
                values.append(bt.value_of(k, "garde", ev.opts))
            best = max(values)
            gaps.append(best - values[0])
            gaps4.append(best - max(values[:6]))
            best_h += values[0] >= best
            best_4 += max(values[:6]) >= best
            n += 1
    return [{"task": "(b) écart: heuristic vs best of the candidates (limit 12)",
             "deals": deals, "worlds": n,
             "candidates_mean": round(statistics.fmean(cands_n), 1),
             "heuristic_best_pct": round(100 * best_h / n, 1),
             "heuristic_gap_mean_T": round(statistics.fmean(gaps), 1),
             "heuristic_gap_max_T": max(gaps),
             "limit6_best_pct": round(100 * best_4 / n, 1),
             "limit6_gap_mean_T": round(statistics.fmean(gaps4), 1),
             "fallbacks": f"{ev.stats['fallbacks']}/{ev.stats['solves']}"}]


def all_ecarts(enlarged: int, dog_size: int) -> list[int]:
    """Every legal écart (TAROT-DOG-2)."""
    low = D.cards(enlarged & bt.LOW_MASK)
    if len(low) >= dog_size:
        return [mask_of(c) for c in combinations(low, dog_size)]
    trumps = D.cards(enlarged & T.MIDDLE_TRUMPS)
    return [mask_of(low) | mask_of(c) for c in combinations(trumps, dog_size - len(low))]


def _exhaustive_check(quick: bool) -> list[dict]:
    """(b2) the candidate set against every legal écart, on deals with <= 1000 écarts."""
    want = 2 if quick else 12
    done, gaps_h, gaps_c, best_c, sizes = 0, [], [], 0, []
    ev = bt.PlayOnly(4, 3, T.resolve_options({}))
    for hands, dog in _garde_deals(5000, 13):
        enlarged = hands[0] | dog
        every = all_ecarts(enlarged, 6)
        if not 1 < len(every) <= 1000:
            continue
        unknown = [c for c in range(78) if not enlarged >> c & 1]
        others, _ = bt._deal_unknown(random.Random(done), unknown, 4, 0, 0)

        def value(e: int, others=others, enlarged=enlarged) -> int:
            hs = list(others)
            hs[0] = enlarged & ~e
            return bt.value_of(ev.play(hs, e, "garde", 0, None, False, "dd"), "garde",
                               ev.opts)

        best = max(value(e) for e in every)
        cands = [value(e) for e in bt.ecart_candidates(enlarged, 6)]
        gaps_h.append(best - cands[0])
        gaps_c.append(best - max(cands))
        best_c += max(cands) >= best
        sizes.append(len(every))
        done += 1
        if done >= want:
            break
    return [{"task": "(b2) écart: heuristic and candidate set vs every legal écart",
             "worlds": done, "ecarts_mean": round(statistics.fmean(sizes), 1),
             "candidates_best_pct": round(100 * best_c / done, 1),
             "candidates_gap_mean_T": round(statistics.fmean(gaps_c), 1),
             "heuristic_gap_mean_T": round(statistics.fmean(gaps_h), 1),
             "heuristic_gap_max_T": max(gaps_h),
             "fallbacks": f"{ev.stats['fallbacks']}/{ev.stats['solves']}"}]


def _bias(quick: bool) -> list[dict]:
    hands_n = 2 if quick else 8
    samples = 3 if quick else 12
    rows = []
    rng = random.Random(5)
    for i in range(hands_n):
        hand = T.deal_cards(4, rng.randrange(1 << 30)).hands[0]
        res = {}
        for mode in ("dd", "pimc"):
            ctx = Context("tarot", hand, 0, 3, {}, pimc_worlds=4)
            ev = bt.make_evaluator(ctx, chelem=False)
            ev.drop_rows(lambda c, call, x: not x)
            t = time.process_time()
            res[mode] = (evaluate(ctx, samples=samples, seed=i, mode=mode, evaluator=ev),
                         time.process_time() - t)
        d, p = res["dd"][0], res["pimc"][0]
        dr = {r.option: r for r in d.rows}
        pr = {r.option: r for r in p.rows}
        for c in T.CONTRACTS:
            rows.append({"task": "(c) DD bias (dd - pimc), 4p", "hand": D.format_cards(hand),
                         "contract": c, "samples": samples,
                         "dd_mean": round(dr[c].mean, 1), "pimc_mean": round(pr[c].mean, 1),
                         "bias_mean": round(dr[c].mean - pr[c].mean, 1),
                         "dd_p_make": round(dr[c].p_make, 2),
                         "pimc_p_make": round(pr[c].p_make, 2),
                         "same_recommendation": d.recommended == p.recommended,
                         "pimc_cpu_s": round(res["pimc"][1], 1)})
    return rows


class _SimBidder(HeuristicAgent):
    """Heuristic card play; bids, écart, chelem and poignée by ``decide``."""

    def __init__(self, seed: int, samples: int):
        super().__init__(seed)
        self.samples = samples

    def choose(self, state, seat):
        legal = state.legal_moves()
        if len(legal) > 1 and state.phase in ("bid", "call", "ecart", "chelem") or (
                state.phase == "play" and any(m.kind == "poignee" for m in legal)):
            mv = bt.decide(state, seat, self.samples, self.rng.randrange(1 << 30))
            if mv is not None:
                return mv
        return super().choose(state, seat)


def _bidding(quick: bool) -> list[dict]:
    deals = 6 if quick else 60
    samples = 4 if quick else 8
    rows = []
    for label, make in (("point count (heuristic)", lambda s: HeuristicAgent(s)),
                        (f"simulation ({samples} worlds)", lambda s: _SimBidder(s, samples))):
        taken = made = 0
        taker_scores, t0 = [], time.process_time()
        for d in range(deals):
            st = T.new_state({"players": 4}, dealer=d % 4, seed=1000 + d)
            agents = [make(100 * d + s) for s in range(4)]
            while not st.is_over():
                s = st.to_act
                st.play(agents[s].choose(st, s))
            if st.annulled:
                continue
            taken += 1
            c = st.count()
            made += T.contract_result(c.points, c.bouts)[0]
            taker_scores.append(st.scores()[st.taker])
        rows.append({"task": "(d) bidding, 4p, heuristic card play", "bidding": label,
                     "deals": deals, "taken": taken,
                     "taker_make_pct": round(100 * made / taken, 1) if taken else None,
                     "taker_mean_score": round(statistics.fmean(taker_scores), 1)
                     if taker_scores else None,
                     "taker_score_per_deal": round(sum(taker_scores) / deals, 1),
                     "cpu_s": round(time.process_time() - t0, 1)})
    return rows


def _ecart_optimism(quick: bool) -> list[dict]:
    """(e) the per-world (clairvoyant) écart against the écart chosen on the dog alone
    (``ecart_worlds=4``): mean garde / prise score on the same worlds, and the time."""
    samples = 10 if quick else 50
    rows = []
    for label, players, dealer, hand in CASES:
        if players != 4:
            continue
        out = {}
        for m in (0, 4):
            ctx = Context("tarot", D.parse_cards(hand), 0, dealer, {}, extra={"ecart_worlds": m})
            t = time.process_time()
            e = evaluate(ctx, samples=samples, seed=0)
            out[m] = ({r.option: r for r in e.rows}, time.process_time() - t)
        for c in ("prise", "garde"):
            rows.append({"task": "(e) écart per world (sees all) vs on the dog (4 worlds)",
                         "hand": label, "contract": c, "samples": samples,
                         "mean_per_world": round(out[0][0][c].mean, 1),
                         "mean_on_dog": round(out[4][0][c].mean, 1),
                         "optimism": round(out[0][0][c].mean - out[4][0][c].mean, 1),
                         "p_make_per_world": round(out[0][0][c].p_make, 2),
                         "p_make_on_dog": round(out[4][0][c].p_make, 2),
                         "cpu_s_per_world_mode": round(out[0][1], 1),
                         "cpu_s_on_dog_mode": round(out[4][1], 1)})
    return rows


def run(quick: bool = False) -> list[dict]:
    """All measurements as table rows."""
    return (_timing(quick) + _ecart_check(quick) + _exhaustive_check(quick)
            + _ecart_optimism(quick) + _bias(quick) + _bidding(quick))


if __name__ == "__main__":
    import sys

    for row in run("--quick" in sys.argv):
        print(row)
