"""Constraints derived from what a seat knows, and sampled worlds (determinized play)."""

import random

import pytest

from solver.constraints import hidden, sample_worlds
from solver.games import tarot
from solver.games.tarot import EXCUSE


def random_play_position(players, seed, min_steps=5, max_steps=80):
    rng = random.Random(seed)
    st = tarot.new_state(options={"players": players}, seed=seed)
    steps = rng.randint(min_steps, max_steps)
    k = 0
    while not st.is_over():
        if st.phase == "play" and k >= steps:
            return st, rng
        st.play_random(rng)
        k += 1
    return None, rng


def true_holdings(st):
    aside = st.ecart if st.contract in ("prise", "garde") else st.dog
    return list(st.hands) + [aside]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_true_deal_always_satisfies_the_constraints(players):
    # TAROT-PLAY-4 voids/overtrump inferences, TAROT-DOG-2 écart restrictions, shown cards
    checked = 0
    for seed in range(150):
        st, _ = random_play_position(players, seed)
        if st is None:
            continue
        seat = st.to_act
        h = hidden(st, seat)
        truth = true_holdings(st)
        for holder, mask in enumerate(truth):
            for c in range(78):
                if mask >> c & 1:
                    if c in h.fixed:
                        assert h.fixed[c] == holder
                    else:
                        assert h.allowed[c] >> holder & 1, (seed, holder, c)
                        assert holder != seat
        unknown = [m.bit_count() - sum(1 for c, x in h.fixed.items() if x == i)
                   for i, m in enumerate(truth)]
        assert unknown == h.capacities
        checked += 1
    assert checked > 100


def test_inference_from_failing_to_follow_and_to_overtrump():
    # TAROT-EX-22/23 shape: led 7H, seat 1 trumps T8, seat 2 plays T3 (under) → seat 2 has
    # no heart and no trump above T8; seat 3 discards a spade → no heart, no trump.
    D = tarot.TAROT_DECK
    c = D.card
    hands = [
        sum(1 << x for x in [c("KH"), c("QS"), c("JS")]),
        sum(1 << x for x in [c("T8"), c("T15"), c("2S")]),
        sum(1 << x for x in [c("T3"), c("KS"), c("NS")]),
        sum(1 << x for x in [c("1S"), c("3S"), c("4S")]),
    ]
    st = tarot.TarotState.for_play(hands, taker=0, contract="garde", leader=0)
    st.play("KH")
    st.play("T8")
    st.play("T3")
    obs_seat = 3
    h = hidden(st, obs_seat)
    for card in range(78):
        if card in h.allowed and D.suit(card) == "H":
            assert not h.allowed[card] >> 1 & 1 and not h.allowed[card] >> 2 & 1
        if card in h.allowed and D.suit(card) == "T" and card > c("T8"):
            assert not h.allowed[card] >> 2 & 1  # seat 2 could not overtrump
    assert h.allowed[c("T15")] >> 1 & 1  # seat 1 may still hold high trumps


@pytest.mark.parametrize("players", [3, 4, 5])
def test_worlds_keep_the_observer_view_and_play_out(players):
    for seed in range(40):
        st, rng = random_play_position(players, 1000 + seed)
        if st is None:
            continue
        seat = st.to_act
        worlds = sample_worlds(st, seat, 4, seed)
        assert sample_worlds(st, seat, 4, seed)[0].hands == worlds[0].hands  # seeded
        for w in worlds:
            assert w.hands[seat] == st.hands[seat]
            assert w.legal_moves() == st.legal_moves()
            assert sum(h.bit_count() for h in w.hands) == sum(h.bit_count() for h in st.hands)
            if w.called_card is not None and w.partner is not None:
                assert w.hands[w.partner] >> w.called_card & 1 or any(
                    cc == w.called_card for t, _ in w.tricks for _, cc in t) or any(
                    cc == w.called_card for _, cc in w.trick)
        for w in worlds:
            while not w.is_over():
                w.play_random(rng)
            assert sum(w.scores()) == 0


def test_excuse_reveals_nothing():
    D = tarot.TAROT_DECK
    c = D.card
    hands = [sum(1 << x for x in [c("KH"), c("QS")]), sum(1 << x for x in [EXCUSE, c("2H")]),
             sum(1 << x for x in [c("3H"), c("KS")]), sum(1 << x for x in [c("4H"), c("4S")])]
    st = tarot.TarotState.for_play(hands, taker=0, contract="garde", leader=0)
    st.play("KH")
    st.play("EX")
    h = hidden(st, 3)
    assert h.allowed[c("2H")] >> 1 & 1  # seat 1 may still hold hearts
