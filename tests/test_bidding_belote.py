"""Belote bid analysis (take / pass / second-round suit) and simulated bidding in PIMC."""

import pytest

from solver import AtoutError
from solver.bidding import Context, evaluate
from solver.cards import BELOTE_DECK as D
from solver.games import belote, coinche
from solver.pimc import PimcAgent


def ctx(hand, turned, **kw):
    return Context("belote", D.parse_cards(hand), extra={"turned": D.card(turned)}, **kw)


def test_round_one_candidates_are_the_legal_calls():
    # BELOTE-BID-1: round 1 offers take (the turned suit) or pass
    e = evaluate(ctx("JH 9H AS TS 7C", "8H", seat=0, dealer=3), samples=4, seed=1)
    assert {r.option for r in e.rows} == {"take", "pass"}


def test_jack_nine_ace_of_trumps_take():
    # J, 9 and A of the turned suit plus the turned 8: taking makes on every sample
    e = evaluate(ctx("JH 9H AH AS TS", "8H", seat=0, dealer=3), samples=8, seed=2)
    row = {r.option: r for r in e.rows}
    assert row["take"].p_make == 1.0
    assert e.recommended == "take"


def test_round_two_offers_the_other_suits():
    # BELOTE-BID-2: after four passes, any suit but the turned card's
    e = evaluate(ctx("JH 9H AS TS 7C", "8S", seat=0, dealer=3,
                     auction=["pass", "pass", "pass", "pass"]), samples=4, seed=3)
    assert {r.option for r in e.rows} == {"pass", "take:H", "take:D", "take:C"}


@pytest.mark.parametrize("hand,turned,message", [
    ("JH 9H AS TS", "8S", "5 different cards"),
    ("JH 9H AS TS 8S", "8S", "turned card"),
])
def test_bad_inputs(hand, turned, message):
    with pytest.raises(AtoutError, match=message):
        evaluate(ctx(hand, turned), samples=1)


def test_wrong_turn_is_an_error():
    with pytest.raises(AtoutError, match="not seat"):
        evaluate(ctx("JH 9H AS TS 7C", "8H", seat=2, dealer=3), samples=1)


@pytest.mark.parametrize("module", [belote, coinche])
def test_pimc_with_simulated_bidding_plays_legal_calls(module):
    st = module.new_state(seed=5)
    agent = PimcAgent(seed=1, worlds=2, bidding="sim", bid_samples=2)
    while st.phase == "bid":
        move = agent.choose(st, st.to_act)
        assert move in st.legal_moves()
        st.play(move)


def test_worlds_give_the_callers_hands_that_make_their_calls():
    # BELOTE-BID-1/2: seats that passed the turned suit hold hands with which the
    # heuristic bidder passes too (every sampled world is checked by replaying them)
    import random

    from solver.bidding import make_evaluator
    from solver.heuristics.belote import choose_take

    c = ctx("9S 8S AD TD 7C", "JH", seat=2, dealer=3, auction=["pass", "pass"])
    ev = make_evaluator(c)
    assert sorted(ev._calls) == [0, 1]
    rng = random.Random(3)
    for _ in range(40):
        deal = ev.sample(rng)
        st = belote.BeloteState(deal, {}, 3)
        for tok in c.auction:
            assert choose_take(st.observation(st.to_act), st.legal_moves()) == \
                st.parse_move(tok)
            st.play(tok)
    assert ev.misfits == 0
    e = evaluate(c, samples=3, seed=1, evaluator=ev)
    assert any("others' calls" in n for n in e.notes)


def test_simulated_taking_needs_the_belote_floor(monkeypatch):
    """decide: Belote takes a contract the DD worlds make at least TAKE_FLOOR (75%) of
    the time, a lower floor than Coinche's bids (benchmarks/RESULTS.md), else passes."""
    from types import SimpleNamespace

    import solver.bidding as bidding
    from solver.bidding import Row
    from solver.bidding.belote import TAKE_FLOOR, decide

    st = belote.new_state(dealer=3, seed=4)
    assert TAKE_FLOOR == 0.75
    for p_make, want in ((0.8, "take"), (0.7, "pass")):
        rows = [Row("take", 10, p_make, 30.0, 1.0, {}), Row("pass", 10, None, 0.0, 0.0, {})]
        monkeypatch.setattr(bidding, "evaluate",
                            lambda ctx, rows=rows, **kw: SimpleNamespace(rows=rows))
        assert st.move_token(decide(st, st.to_act, samples=4, seed=1)) == want
