"""Belote property tests over random complete deals (every option combination sampled):
card points sum to 162 (or the capot value), every decision has a legal move, replay and
undo are exact, observations reveal nothing private."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from solver.games import belote, state_from_record
from solver.games.belote_common import DECK, legal_cards
from solver.notation import Record

OPTION_CHOICES = {name: list(o.choices) for name, o in belote.OPTIONS.items() if o.choices}


def random_options(rng):
    return {name: rng.choice(ch) for name, ch in OPTION_CHOICES.items()}


def play_out(state, rng):
    while not state.is_over():
        moves = state.legal_moves()
        assert moves, "a decision without a legal move"
        assert state.to_act is not None
        state.play(rng.choice(moves))
    assert state.legal_moves() == []
    return state


def check_deal(seed):
    rng = random.Random(seed)
    options = random_options(rng) if seed % 2 else None
    st_ = belote.new_state(options=options, dealer=seed % 4, seed=seed)
    play_out(st_, rng)
    if st_.annulled:
        assert st_.scores() == [0, 0, 0, 0]
        return st_
    capot = st_.options["capot_points"]
    cards = st_.result["cards"]
    # BELOTE-CARD-3, BELOTE-SCORE-1, BELOTE-SCORE-4
    assert sum(cards) == (capot if 8 in st_.tricks_won else 162)
    assert len(st_.tricks) == 8 and all(len(t) == 4 for t, _ in st_.tricks)
    assert sorted(c for t, _ in st_.tricks for _, c in t) == list(range(32))
    s = st_.scores()
    assert s[0] == s[2] and s[1] == s[3] and min(s) >= 0  # BELOTE-SCORE-7: never negative
    return st_


def test_random_deals_invariants_and_replay():
    for seed in range(300):
        st_ = check_deal(seed)
        rec = st_.to_record()
        again = state_from_record(Record.from_text(rec.to_text()))
        assert again.scores() == st_.scores()
        assert again.to_record().to_text() == rec.to_text()
        assert Record.from_json(rec.to_json()).to_text() == rec.to_text()


def test_every_played_card_was_legal_by_the_pure_function():
    """The state's card moves are exactly ``legal_cards`` (BELOTE-PLAY-3)."""
    for seed in range(100):
        rng = random.Random(seed)
        st_ = belote.new_state(seed=seed, options={"announces": True,
                                                   "second_round_ta_sa": True})
        while not st_.is_over():
            if st_.phase == "play":
                expect = set(DECK.cards(legal_cards(
                    st_.hands[st_.to_act], st_.trick, st_.strain,
                    st_.options["undertrump_required"])))
                assert {x.value for x in st_.legal_moves() if x.kind == "card"} == expect
            st_.play_random(rng)


def test_undo_restores_every_position():
    rng = random.Random(5)
    st_ = belote.new_state(seed=77, options={"announces": True})
    seen = []
    while not st_.is_over():
        seen.append((st_.to_act, st_.observation(st_.to_act), list(st_.hands)))
        st_.play_random(rng)
    for to_act, obs, hands in reversed(seen):
        st_.undo()
        assert st_.to_act == to_act and st_.hands == hands
        assert st_.observation(to_act) == obs


def test_observation_hides_other_hands():
    rng = random.Random(1)
    st_ = belote.new_state(seed=12, options={"announces": True})
    while not st_.is_over():
        for seat in range(4):
            obs = st_.observation(seat)
            assert obs["hand"] == DECK.format_cards(st_.hands[seat])
            text = repr({k: v for k, v in obs.items() if k not in ("hand", "history")})
            for other in range(4):
                if other == seat:
                    continue
                for c in DECK.cards(st_.hands[other]):
                    tok = DECK.token(c)
                    # an unplayed card of another seat may only appear if public
                    # (turned card, shown announce, declared belote)
                    if tok in text:
                        assert tok == obs["turned"] or tok in repr(obs["shown"]) \
                            or tok in repr(obs["belotes"])
        st_.play_random(rng)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2 ** 32), data=st.data())
def test_hypothesis_random_options(seed, data):
    options = {name: data.draw(st.sampled_from(ch)) for name, ch in OPTION_CHOICES.items()}
    st_ = belote.new_state(options=options, seed=seed, dealer=seed % 4)
    play_out(st_, random.Random(seed))
    if not st_.annulled:
        total = sum(st_.result["cards"])
        assert total in (162, options["capot_points"])


def test_match_plays_to_target():
    for seed in range(5):
        match = belote.BeloteMatch(seed=seed, dealer=seed % 4)
        match.play_random(seed)
        assert match.is_over() and match.winner() in (0, 1)
        assert match.reserve >= 0


def test_direction_option_changes_no_play():
    """COMMON-SEAT-2: direction is physical only; the same seed plays identically."""
    recs = []
    for direction in ("counterclockwise", "clockwise"):
        st_ = belote.new_state(seed=31, options={"direction": direction})
        play_out(st_, random.Random(31))
        recs.append((st_.to_record().moves, st_.scores()))
    assert recs[0] == recs[1]


def test_copy_is_independent():
    st_ = belote.new_state(seed=8)
    st_.play("take")
    twin = st_.copy()
    play_out(twin, random.Random(0))
    assert not st_.is_over() and st_.phase == "play" and twin.is_over()
    assert len(st_.history) == 1


def test_match_rounding_applies_after_adding_the_reserve():
    """BELOTE-SCORE-8 with BELOTE-SCORE-6: the written amount (own total + reserve) is
    rounded; the reserve itself is kept exact."""
    o = {k: v.default for k, v in belote.OPTIONS.items()}
    o["round_scores"] = "nearest_10"

    class Done:
        def __init__(self, dealer, result):
            self.dealer, self.result = dealer, result

        def is_over(self):
            return True

        def to_record(self):
            return None

    match = belote.BeloteMatch(dealer=0, options={"round_scores": "nearest_10"})
    assert match.record(Done(0, belote.score_deal(0, [81, 81], [0, 0], None, 0, None, o))) \
        == [0, 80]
    assert match.reserve == 81
    made = belote.score_deal(1, [62, 100], [0, 0], None, 0, None, o)
    assert match.record(Done(1, made)) == [60, 180]  # 100 + 81 = 181 -> 180
