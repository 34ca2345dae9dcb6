"""French Tarot: property tests over random complete deals (3, 4 and 5 players).

Random deals are played with uniformly random legal moves (bids, calls, écarts, chelem,
poignées, misères, cards); every card played is checked against an independent, naive
reading of TAROT-PLAY-4 / TAROT-EXC-1 written here from the rules text.
"""

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.cards import TAROT_DECK
from solver.games import state_from_record, tarot
from solver.games.tarot import FULL_DECK, new_state, pile_points2
from solver.notation import parse_record

OPTION_SETS = [
    {},
    {"misere": "on"},
    {"excuse_last_trick": "to_trick_winner", "rounding": "nearest_10"},
    {"scoring": "fixed_base", "allow_prise": False},
    {"petit_sec_redeal": False, "poignee_bonuses": [20, 40, 60],
     "garde_contre_multiplier": 8},
    {"five_player_first_lead_restriction": False, "five_player_lowest_call": "alone"},
]


def naive_legal(hand: list[int], trick: list[tuple[int, int]]) -> set[int]:
    """TAROT-PLAY-4 and TAROT-EXC-1, on card lists, straight from the rules text."""
    suit = TAROT_DECK.suit
    played = [card for _, card in trick if card != tarot.EXCUSE]
    if not played:
        return set(hand)
    led = suit(played[0])
    excuse = {card for card in hand if card == tarot.EXCUSE}
    same = {card for card in hand if suit(card) == led}
    if led != "T" and same:
        return same | excuse
    trumps = {card for card in hand if suit(card) == "T"}
    if not trumps:
        return set(hand)
    in_trick = [card for card in played if suit(card) == "T"]
    higher = {t for t in trumps if not in_trick or t > max(in_trick)}
    return (higher or trumps) | excuse


def play_deal(players: int, options: dict, seed: int, dealer: int):
    state = new_state({"players": players, **options}, dealer=dealer, seed=seed)
    rng = random.Random(seed * 7 + 1)
    while not state.is_over():
        moves = state.legal_moves()
        assert moves and state.to_act is not None  # a decision always has a legal move
        if state.phase == "play":
            cards = {mv.value for mv in moves if mv.kind == "card"}
            hand = TAROT_DECK.cards(state.hands[state.to_act])
            expected = naive_legal(hand, state.trick)
            if not state.trick and state.lead_forbidden():
                expected = {x for x in hand if not state.lead_forbidden() >> x & 1} or expected
            assert cards == expected
        if players == 5 and state.taker is not None:
            check_partner_secrecy(state)
        state.play(rng.choice(moves))
    return state


def check_partner_secrecy(state) -> None:
    """TAROT-CALL-5: the partner is known to a seat only if it holds (or held) the called
    card, once the card is played, once the dog shows it, or at the end."""
    called = state.called_card
    played = [card for t, _ in state.tricks for _, card in t] + [x for _, x in state.trick]
    for seat in range(5):
        obs = state.observation(seat)
        assert obs["hand"] == state.hands[seat]
        public = (called is None or called in played
                  or (state.dog_shown and state.dog >> called & 1))
        holds = called is not None and bool(state.hands[seat] >> called & 1)
        assert obs["partner_known"] == (public or holds)
        assert obs["partner"] == (state.partner if obs["partner_known"] else None)


def check_deal(state, players: int) -> None:
    scores = state.scores()
    assert len(scores) == players and sum(scores) == 0  # TAROT-SCORE-7
    if state.annulled:
        assert scores == [0] * players
        return
    assert all(h == 0 for h in state.hands)  # hands are empty at the end
    assert len(state.tricks) == tarot.HAND_SIZE[players]
    attack, defence = state.attack_pile(), state.defence_pile()
    assert attack | defence == FULL_DECK and not attack & defence
    assert pile_points2(attack) + pile_points2(defence) == 182  # 91 points
    cnt = state.count()
    assert 0 <= cnt.points2 <= 182 and 0 <= cnt.bouts <= 3
    assert cnt.attack_tricks + cnt.defence_tricks == len(state.tricks)
    # the record round-trips through both notations and replays to the same scores
    rec = state.to_record()
    text = rec.to_text()
    assert parse_record(text).to_text() == text
    js = json.dumps(rec.to_json())
    assert parse_record(js).to_text() == text
    for form in (text, js):
        replay = state_from_record(parse_record(form))
        assert replay.is_over() and replay.scores() == scores
        assert [replay.move_token(mv) for mv in replay.history] == rec.moves


SETTINGS = settings(max_examples=120, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(players=st.sampled_from([3, 4, 5]), seed=st.integers(0, 2**32),
       opt=st.integers(0, len(OPTION_SETS) - 1), dealer=st.integers(0, 2))
def test_random_deals(players, seed, opt, dealer):
    state = play_deal(players, OPTION_SETS[opt], seed, dealer)
    check_deal(state, players)


def test_many_seeds_each_player_count():
    """A fixed sweep (not shrunk by hypothesis) so every count gets plenty of deals."""
    for players in (3, 4, 5):
        for seed in range(60):
            state = play_deal(players, OPTION_SETS[seed % len(OPTION_SETS)], seed, seed % 3)
            check_deal(state, players)


@SETTINGS
@given(players=st.sampled_from([3, 4, 5]), seed=st.integers(0, 2**32))
def test_undo_restores_every_position(players, seed):
    state = new_state({"players": players, "misere": "on"}, seed=seed)
    rng = random.Random(seed)
    seen = []
    while not state.is_over():
        seen.append((state.phase, state.to_act, list(state.hands), list(state.trick),
                     state.legal_moves()))
        state.play_random(rng)
    for phase, to_act, hands, trick, moves in reversed(seen):
        state.undo()
        assert (state.phase, state.to_act, state.hands, state.trick) == (phase, to_act,
                                                                         hands, trick)
        assert state.legal_moves() == moves
