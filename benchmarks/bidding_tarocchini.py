"""Tarocchini bid analysis: evaluation time per decision and the bias of the dd mode.

(a) Time of ``atout evaluate tarocchini`` (dd mode) per kind of decision on fixed
hands: the Terziglio bid, the gioco discard, the Ottocento monte vote, the dealer's
discard and the declarations; 200 worlds (``quick``: 20, the time is also given per
world, so 200 worlds ~ 200 x that).

(b) DD bias: on seeded hands (Terziglio bids of seat 0, dealer 2; Ottocento
declarations of the eldest hand) the same worlds are evaluated in dd mode (heuristic
opening, exact DD endgame: everyone sees all cards there) and in pimc mode (the same
opening, PIMC agents in the endgame). Per hand and candidate the difference of the
expected scores (dd - pimc: Terziglio game points of the seat, Ottocento net points
of its side) and of P(make); whether both modes recommend the same option.

``run(quick)`` returns one flat row per measurement.
"""

from __future__ import annotations

import statistics
import time

from solver.bidding import Context, evaluate
from solver.cards import TAROCCHINI_DECK as D
from solver.games import tarocchini as T

TERZ = {"game": "terziglio"}

CASES = [
    # (label, hand, seat, dealer, options, auction)
    ("terziglio bid", "ANG MON SOL T16 T14 T12 T11 T8 BAG KS 9S KB NB JC 10C AC 8D 6D",
     0, 2, TERZ, ""),
    ("terziglio gioco discard (8 of 26)",
     "ANG MON SOL T16 T14 T12 T11 T8 BAG KS 9S KB NB JC 10C AC 8D 6D JS 10S 9B 7B KC QC 10D AD",
     0, 2, TERZ, "gioco pass pass"),
    ("ottocento monte vote", "8S 7S 9B 6C 9D", 3, 3, {}, "monte monte monte"),
    ("ottocento dealer discard (2 of 17)",
     "T15 T10 T9 T7 MO2 QS JS 6S KB 10B 9B QC KD QD 8D T5 MO3", 3, 3, {},
     "play play play play"),
    ("ottocento declarations", "ANG MON T11 T6 BAG NS 8S NB AB KC NC 10C ND 7D 6D", 0, 3, {},
     "play play play play discard:? discard:?"),
]


def _timing(quick: bool) -> list[dict]:
    samples = 20 if quick else 200
    rows = []
    for label, hand, seat, dealer, opts, auction in CASES:
        ctx = Context("tarocchini", D.parse_cards(hand), seat, dealer, dict(opts),
                      auction.split())
        t = time.perf_counter()
        e = evaluate(ctx, samples=samples, seed=0, mode="dd")
        dt = time.perf_counter() - t
        rows.append({"task": "(a) evaluate, dd mode", "decision": label,
                     "candidates": len(e.rows), "samples": samples,
                     "seconds": round(dt, 2), "ms_per_world": round(1000 * dt / samples, 1),
                     "recommended": e.recommended})
    # the realistic mode: PIMC agents (4 worlds per card) in the endgame
    label, hand, seat, dealer, opts, auction = CASES[0]
    n = 2 if quick else 10
    ctx = Context("tarocchini", D.parse_cards(hand), seat, dealer, dict(opts),
                  auction.split(), pimc_worlds=4)
    t = time.perf_counter()
    e = evaluate(ctx, samples=n, seed=0, mode="pimc")
    dt = time.perf_counter() - t
    rows.append({"task": "(a) evaluate, pimc mode (4 worlds per card)", "decision": label,
                 "candidates": len(e.rows), "samples": n, "seconds": round(dt, 2),
                 "ms_per_world": round(1000 * dt / n, 1), "recommended": e.recommended})
    return rows


def _bias_rows(label: str, contexts: list[Context], samples: int) -> list[dict]:
    rows = []
    diffs: list[float] = []
    pdiffs: list[float] = []
    agree = 0
    t0 = time.perf_counter()
    for i, ctx in enumerate(contexts):
        dd = evaluate(ctx, samples=samples, seed=i, mode="dd")
        pm = evaluate(ctx, samples=samples, seed=i, mode="pimc")
        pr = {r.option: r for r in pm.rows}
        agree += dd.recommended == pm.recommended
        for r in dd.rows:
            q = pr[r.option]
            diffs.append(r.mean - q.mean)
            if r.p_make is not None and q.p_make is not None:
                pdiffs.append(r.p_make - q.p_make)
            rows.append({"task": f"(b) dd bias, {label}", "decision": f"hand {i}",
                         "candidate": r.option, "samples": samples,
                         "dd_mean": round(r.mean, 2), "pimc_mean": round(q.mean, 2),
                         "bias": round(r.mean - q.mean, 2),
                         "dd_p_make": r.p_make, "pimc_p_make": q.p_make,
                         "dd_rec": dd.recommended, "pimc_rec": pm.recommended})
    rows.append({"task": f"(b) dd bias, {label}", "decision": "summary",
                 "candidate": "all", "samples": samples, "hands": len(contexts),
                 "mean_bias": round(statistics.fmean(diffs), 2),
                 "mean_abs_bias": round(statistics.fmean(abs(d) for d in diffs), 2),
                 "mean_p_make_bias": round(statistics.fmean(pdiffs), 3) if pdiffs else None,
                 "same_recommendation": f"{agree}/{len(contexts)}",
                 "seconds": round(time.perf_counter() - t0, 1)})
    return rows


def _bias(quick: bool) -> list[dict]:
    """dd vs pimc on seeded hands: Terziglio bids (game points of the seat) and
    Ottocento declarations of the eldest hand (net card points of his side)."""
    terz = []
    for seed in range(3 if quick else 12):
        st = T.new_state(TERZ, dealer=2, seed=1000 + seed)
        terz.append(Context("tarocchini", list(st.deal.hands[0]), 0, 2, dict(TERZ), [],
                            pimc_worlds=4))
    otto = []
    for seed in range(1 if quick else 4):
        st = T.new_state({}, dealer=3, seed=2000 + seed)
        otto.append(Context("tarocchini", list(st.deal.hands[0]), 0, 3, {},
                            ["play"] * 4 + ["discard:?"] * 2, pimc_worlds=4))
    return (_bias_rows("terziglio bid", terz, 2 if quick else 10)
            + _bias_rows("ottocento declarations", otto, 1 if quick else 4))


def run(quick: bool = False) -> list[dict]:
    """Timing rows for every kind of decision, then the dd-vs-pimc bias rows."""
    return _timing(quick) + _bias(quick)


if __name__ == "__main__":
    import sys

    for row in run(quick="--quick" in sys.argv):
        print(row)
