"""Decks, card tokens, bitboard primitives (README "Card notation")."""

import random

import pytest

from solver import NotationError, _bitboard
from solver.cards import BELOTE_DECK, TAROCCHINI_DECK, TAROT_DECK


def test_deck_sizes():
    # TAROT-DECK-1, BELOTE-CARD-1, TAROC-DECK-1
    assert TAROT_DECK.size == 78
    assert BELOTE_DECK.size == 32
    assert TAROCCHINI_DECK.size == 62


@pytest.mark.parametrize("deck", [TAROT_DECK, BELOTE_DECK, TAROCCHINI_DECK])
def test_tokens_round_trip(deck):
    for i, tok in enumerate(deck.tokens):
        assert deck.card(tok) == i
        assert deck.token(i) == tok
    text = deck.format_cards(deck.full_mask)
    assert sorted(deck.parse_cards(text)) == list(range(deck.size))


def test_readme_examples():
    assert TAROT_DECK.suit(TAROT_DECK.card("KH")) == "H"
    assert TAROT_DECK.rank(TAROT_DECK.card("10C")) == "10"
    assert TAROT_DECK.suit(TAROT_DECK.card("EX")) is None
    assert BELOTE_DECK.rank(BELOTE_DECK.card("TS")) == "T"
    assert TAROCCHINI_DECK.suit(TAROCCHINI_DECK.card("MO3")) == "T"
    assert TAROCCHINI_DECK.suit(TAROCCHINI_DECK.card("MAT")) is None


@pytest.mark.parametrize("bad,deck", [("1H", BELOTE_DECK), ("TS", TAROT_DECK), ("kh", TAROT_DECK),
                                      ("2S", TAROCCHINI_DECK), ("EX", TAROCCHINI_DECK)])
def test_bad_token_names_token_and_position(bad, deck):
    good = deck.tokens[0]
    with pytest.raises(NotationError) as err:
        deck.parse_cards(f"{good} {bad}")
    assert repr(bad) in str(err.value)
    assert err.value.position == len(good) + 1


def test_duplicate_card_rejected():
    with pytest.raises(NotationError, match="duplicate"):
        TAROT_DECK.parse_cards("KH QH KH")


def test_bitboard_primitives_match_python():
    rng = random.Random(5)
    for _ in range(2000):
        idx = rng.sample(range(78), rng.randint(0, 78))
        mask = sum(1 << i for i in idx)
        assert _bitboard.mask_of(idx) == mask
        assert _bitboard.popcount(mask) == len(idx)
        assert _bitboard.bit_list(mask) == sorted(idx)
        assert _bitboard.lowest(mask) == (min(idx) if idx else -1)


def test_bitboard_rejects_out_of_range():
    with pytest.raises(ValueError):
        _bitboard.popcount(-1)
    with pytest.raises(ValueError):
        _bitboard.mask_of([128])
