"""Property tests over random complete Tarocchini deals under random option sets."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.cards import TAROCCHINI_DECK as D
from solver.games import state_from_record
from solver.games import tarocchini as T
from solver.games.tarocchini_melds import best_points
from solver.notation import Record

OPTION_SETS = st.fixed_dictionaries({
    "game": st.sampled_from(["ottocento", "terziglio"]),
    "contatore_multi_use": st.booleans(),
    "max_contatori_per_suit_sequence": st.sampled_from([1, 2]),
    "signals": st.sampled_from(["standard", "none", "after_top_card"]),
    "monte": st.sampled_from(["after_5", "off", "after_5_and_10"]),
    "declarations": st.sampled_from(["full", "none_or_max"]),
    "terziglio_deal": st.sampled_from(["18+8", "19+5"]),
    "terziglio_capot_doubled_in_solo": st.booleans(),
})


def _random_deal(options, seed, dealer):
    state = T.new_state(options, seed=seed, dealer=dealer % (4 if options["game"] ==
                                                             "ottocento" else 3))
    rng = random.Random(seed)
    while not state.is_over():
        state.play_random(rng)
    return state


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=OPTION_SETS, seed=st.integers(0, 10**9), dealer=st.integers(0, 3))
def test_complete_deal_invariants(options, seed, dealer):
    """TAROC-PTS-2 (93 per hand), TAROC-DECL-6 (pile melds), TERZ-SCORE-5 (zero-sum),
    OTTO-SCORE-2 (no negative score); records replay to the identical result."""
    state = _random_deal(options, seed, dealer)
    r = state.result
    assert state.legal_moves() == [] and state.to_act is None
    if "card_points_half" in r:
        assert sum(r["card_points_half"]) + T.LAST_TRICK_HALF == 2 * 93
        assert state.piles[0] | state.piles[1] == D.full_mask
        assert not state.piles[0] & state.piles[1]
        assert r["pile_melds"] == [best_points(p, state.options) for p in state.piles]
        if options["game"] == "ottocento":
            assert all(x % 2 == 0 for x in r["card_points_half"])
    scores = state.scores()
    if options["game"] == "terziglio":
        assert sum(scores) == 0
    else:
        assert all(x >= 0 for x in scores)
    rec = state.to_record()
    again = state_from_record(Record.from_text(rec.to_text()))
    assert again.result == r and again.scores() == scores
    assert state_from_record(Record.from_json(rec.to_json())).history == state.history


@settings(max_examples=30, deadline=None)
@given(options=OPTION_SETS, seed=st.integers(0, 10**9))
def test_undo_to_the_start(options, seed):
    """Undoing every move restores the freshly dealt state."""
    fresh = T.new_state(options, seed=seed)
    state = _random_deal(options, seed, 0)
    while state.history:
        state.undo()
    assert state.hands == fresh.hands and state.phase == fresh.phase
    assert state.piles == [0, 0] and state.tricks == [] and state.to_act == fresh.to_act


@pytest.mark.slow
def test_many_deals_both_variants():
    """Slow: 3000 random deals per variant complete with 93 card points."""
    for variant in ("ottocento", "terziglio"):
        for seed in range(3000):
            state = _random_deal({"game": variant}, seed, seed)
            if state.result and "card_points_half" in state.result:
                assert sum(state.result["card_points_half"]) == 2 * 87
