"""Coinche and Belote bid analysis: evaluation time at 200 samples (target: Coinche all
strains <= 1 s single core; CPU seconds of this process, as the shared machine's wall
clock runs up to 3x slower under load) and the DD bias (dd mode vs pimc play-outs on the same
worlds: difference of expected score and P(make) for the recommended bid, and whether
both modes recommend the same call).

``run(quick)`` returns one flat row per measurement.
"""

from __future__ import annotations

import statistics
import time

from solver.bidding import Context, evaluate
from solver.cards import BELOTE_DECK as D

HANDS = [
    ("coinche", "opening", 0, 3, "JS 9S AS TD KC 7H 8C QD", [], {}),
    ("coinche", "strong hearts", 0, 3, "JH 9H AH TH KS AC 8D 7D", [], {}),
    ("coinche", "over partner 90H", 2, 3, "JH 9H AS TS KS QS 8C 7C", ["bid:90:H", "pass"], {}),
    ("coinche", "over 160H", 1, 3, "JH 9H AS TS AC TC AD TD", ["bid:160:H"], {}),
    ("belote", "round 1", 0, 3, "JH 9H AS TS 7C", [], {"turned": "8H"}),
    ("belote", "round 2", 0, 3, "JH 9H AS TS 7C", ["pass"] * 4, {"turned": "8S"}),
]


def _ctx(game, seat, dealer, hand, auction, extra):
    ex = {k: D.card(v) for k, v in extra.items()}
    return Context(game, D.parse_cards(hand), seat, dealer, {}, list(auction), ex)


def run(quick: bool = False) -> list[dict]:
    samples = 20 if quick else 200
    rows = []
    for game, label, seat, dealer, hand, auction, extra in HANDS:
        t = time.process_time()
        e = evaluate(_ctx(game, seat, dealer, hand, auction, extra), samples=samples, seed=1)
        dt = time.process_time() - t
        target = 1.0 if game == "coinche" else None
        rows.append({"game": game, "what": f"evaluate: {label}", "samples": samples,
                     "options": len(e.rows), "seconds": dt, "per_world_ms": 1000 * dt / samples,
                     "target_s": target, "met": None if target is None else dt <= target,
                     "recommended": e.recommended, "dd_minus_pimc": None,
                     "same_call": None})
    # DD bias: same worlds, dd vs pimc play-outs (few worlds: play-outs are expensive)
    bias_samples = 4 if quick else 12
    for game, label, seat, dealer, hand, auction, extra in HANDS[:2] + HANDS[4:5]:
        ctx = _ctx(game, seat, dealer, hand, auction, extra)
        ctx.pimc_worlds = 4 if quick else 8
        t = time.perf_counter()
        dd = evaluate(ctx, samples=bias_samples, seed=2, mode="dd")
        pm = evaluate(ctx, samples=bias_samples, seed=2, mode="pimc")
        rec = {r.option: r for r in dd.rows}[dd.recommended]
        rec_p = {r.option: r for r in pm.rows}[dd.recommended]
        diffs = [a - b for a, b in zip(rec.scores, rec_p.scores, strict=True)]
        rows.append({"game": game, "what": f"DD bias: {label}", "samples": bias_samples,
                     "options": len(dd.rows), "seconds": time.perf_counter() - t,
                     "per_world_ms": None, "target_s": None, "met": None,
                     "recommended": f"dd {dd.recommended} / pimc {pm.recommended}",
                     "dd_minus_pimc": statistics.fmean(diffs),
                     "same_call": dd.recommended == pm.recommended})
    return rows


if __name__ == "__main__":
    import sys

    for row in run(quick="--quick" in sys.argv):
        print(row)
