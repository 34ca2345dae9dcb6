"""Decks, cards and card sets for the three packs (README "Card notation").

A card is an ``int``: its index in its deck. A set of cards is an ``int`` bit mask
(bit ``i`` = card ``i``), so set operations are integer operations and the Cython
core receives the same masks. Index layouts, lowest to highest:

* Tarot (78): ``T1..T21`` = 0..20, ``EX`` = 21, then suits ``S H D C`` of 14 cards
  each, ranks ``1 2 .. 10 J N Q K`` (index 22 + 14*suit + rank).
* Belote/Coinche (32): suits ``S H D C`` of 8 cards each, natural ranks
  ``7 8 9 T J Q K A`` (index 8*suit + rank).
* Tarocchini (62): suits ``S B C D`` of 10 cards, ranks ``A 6 7 8 9 10 J N Q K``
  (index 10*suit + rank), then trumps ``BAG MO1 MO2 MO3 MO4 T5..T16 LUN SOL MON ANG``
  (40..60) and ``MAT`` (61).

Within a plain suit a higher index is a higher natural rank; trick-taking power per
game and contract is the game module's (and the core's) business.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import _bitboard
from .errors import NotationError

TRUMP = "T"  # pseudo-suit of trumps (Tarot, Tarocchini)


def bit_list(mask: int) -> list[int]:
    """Card indices of a card-set mask (any deck), lowest first."""
    return _bitboard.bit_list(mask)


def mask_of(cards: Iterable[int]) -> int:
    """Card-set mask of card indices (any deck)."""
    return _bitboard.mask_of(list(cards))


class Deck:
    """One pack: its card tokens, and parsing/formatting of cards and card sets."""

    def __init__(self, name: str, tokens: list[str], suit_of: list[str | None],
                 rank_of: list[str]):
        self.name = name
        self.tokens: tuple[str, ...] = tuple(tokens)
        self.size = len(tokens)
        self.full_mask = (1 << self.size) - 1
        self._suit = tuple(suit_of)
        self._rank = tuple(rank_of)
        self._index = {t: i for i, t in enumerate(tokens)}
        assert len(self._index) == self.size

    # --- single cards -------------------------------------------------------
    def card(self, token: str, position: int | None = None) -> int:
        """Parse one card token (case-sensitive) into its index."""
        try:
            return self._index[token]
        except (KeyError, TypeError):
            raise NotationError(f"not a {self.name} card", token, position) from None

    def token(self, card: int) -> str:
        """The notation token of a card index."""
        if not 0 <= card < self.size:
            raise NotationError(f"card index out of range for the {self.name} deck", str(card))
        return self.tokens[card]

    def suit(self, card: int) -> str | None:
        """Suit letter of a card, ``'T'`` for trumps, ``None`` for the Excuse/Matto."""
        return self._suit[card]

    def rank(self, card: int) -> str:
        """Rank part of a card's token (``'K'``, ``'10'``, ``'21'``...)."""
        return self._rank[card]

    def is_card_token(self, token: str) -> bool:
        return token in self._index

    # --- card sets ----------------------------------------------------------
    @staticmethod
    def mask(cards: Iterable[int]) -> int:
        """Bit mask of a collection of card indices."""
        return mask_of(cards)

    @staticmethod
    def cards(mask: int) -> list[int]:
        """Card indices of a mask, lowest index first."""
        return bit_list(mask)

    @staticmethod
    def count(mask: int) -> int:
        return _bitboard.popcount(mask)

    def suit_mask(self, suit: str | None) -> int:
        """Mask of every card of a suit (``'T'`` = trumps)."""
        return sum(1 << i for i, s in enumerate(self._suit) if s == suit)

    def parse_cards(self, text: str, start: int = 0, allow_duplicates: bool = False) -> list[int]:
        """Parse whitespace-separated card tokens; ``start`` offsets reported positions.

        Positions are character offsets in the original text (0-based).
        """
        out: list[int] = []
        seen: set[int] = set()
        pos = 0
        for tok in text.split():
            pos = text.index(tok, pos)
            c = self.card(tok, start + pos)
            if c in seen and not allow_duplicates:
                raise NotationError("duplicate card", tok, start + pos)
            seen.add(c)
            out.append(c)
            pos += len(tok)
        return out

    def format_cards(self, cards: Iterable[int] | int, sort: bool = True) -> str:
        """Space-separated tokens; a mask or an iterable of indices.

        Sorted output lists trumps first (highest first), then suits in deck suit
        order, each from highest to lowest rank.
        """
        lst = self.cards(cards) if isinstance(cards, int) else list(cards)
        if sort:
            lst = sorted(lst, key=self.sort_key)
        return " ".join(self.tokens[c] for c in lst)

    def sort_key(self, card: int) -> tuple[int, int]:
        s = self._suit[card]
        group = -1 if s == TRUMP or s is None else self.suit_order.index(s)
        return (group, -card)

    @property
    def suit_order(self) -> str:
        return "".join(dict.fromkeys(s for s in self._suit if s not in (TRUMP, None)))

    def __repr__(self) -> str:
        return f"<Deck {self.name} ({self.size} cards)>"


def _tarot_deck() -> Deck:
    tokens, suits, ranks = [], [], []
    for n in range(1, 22):
        tokens.append(f"T{n}")
        suits.append(TRUMP)
        ranks.append(str(n))
    tokens.append("EX")
    suits.append(None)
    ranks.append("EX")
    for s in "SHDC":
        for r in ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K"]:
            tokens.append(r + s)
            suits.append(s)
            ranks.append(r)
    return Deck("tarot", tokens, suits, ranks)


def _belote_deck() -> Deck:
    tokens, suits, ranks = [], [], []
    for s in "SHDC":
        for r in "789TJQKA":
            tokens.append(r + s)
            suits.append(s)
            ranks.append(r)
    return Deck("belote", tokens, suits, ranks)


def _tarocchini_deck() -> Deck:
    tokens, suits, ranks = [], [], []
    for s in "SBCD":
        for r in ["A", "6", "7", "8", "9", "10", "J", "N", "Q", "K"]:
            tokens.append(r + s)
            suits.append(s)
            ranks.append(r)
    trumps = (["BAG", "MO1", "MO2", "MO3", "MO4"] + [f"T{n}" for n in range(5, 17)]
              + ["LUN", "SOL", "MON", "ANG"])
    for t in trumps:
        tokens.append(t)
        suits.append(TRUMP)
        ranks.append(t)
    tokens.append("MAT")
    suits.append(None)
    ranks.append("MAT")
    return Deck("tarocchini", tokens, suits, ranks)


TAROT_DECK = _tarot_deck()
BELOTE_DECK = _belote_deck()
TAROCCHINI_DECK = _tarocchini_deck()

DECKS = {"tarot": TAROT_DECK, "belote": BELOTE_DECK, "coinche": BELOTE_DECK,
         "tarocchini": TAROCCHINI_DECK}
