"""Deals and game records: a one-line text form (PBN-inspired) and JSON.

Deal text: the hands in seat order separated by ``/``, then each extra pile as
``| name: cards``. Hands are sets (printed sorted); extra piles keep their order
(Belote's remaining stock is dealt in order)::

    KS QS ... / T21 ... / ... / ... | dog: 3C 4H T7 ...

Record text: bracketed tags, PBN style, on one line::

    [Game "tarot"][Options "players=4"][Dealer "3"][Deal "..."][Moves "pass garde ..."]

``Moves`` holds the move tokens in order, separated by spaces (tokens never contain
spaces). ``Options`` lists only options that differ from the defaults.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from .cards import DECKS, Deck
from .errors import NotationError
from .options import format_value, parse_options


@dataclass
class Deal:
    """The cards of a deal: one list per seat, plus named extra piles (dog, stock...)."""

    hands: list[list[int]]
    extras: dict[str, list[int]] = field(default_factory=dict)

    def all_cards(self) -> list[int]:
        """Every card dealt. Piles named ``_...`` are annotations (a view of cards already
        listed, e.g. the order packets were dealt) and are not counted."""
        out = [c for h in self.hands for c in h]
        for name, pile in self.extras.items():
            if not name.startswith("_"):
                out.extend(pile)
        return out

    def to_text(self, deck: Deck) -> str:
        parts = [" / ".join(deck.format_cards(h) for h in self.hands)]
        for name, pile in self.extras.items():
            parts.append(f"{name}: {deck.format_cards(pile, sort=False)}".rstrip())
        return " | ".join(parts)

    @classmethod
    def from_text(cls, text: str, deck: Deck, start: int = 0) -> Deal:
        """Parse the deal text form; ``start`` offsets error positions."""
        sections = _split_keep(text, "|")
        (hands_text, hoff), rest = sections[0], sections[1:]
        hands = []
        for htext, off in _split_keep(hands_text, "/"):
            hands.append(deck.parse_cards(htext, start + hoff + off))
        extras: dict[str, list[int]] = {}
        for stext, off in rest:
            m = re.match(r"\s*([A-Za-z_]+)\s*:", stext)
            if not m:
                raise NotationError("expected 'name: cards' after '|'", stext.strip(),
                                    start + off)
            extras[m.group(1)] = deck.parse_cards(stext[m.end():], start + off + m.end())
        deal = cls(hands, extras)
        deal.check_unique(deck)
        return deal

    def check_unique(self, deck: Deck) -> None:
        seen: set[int] = set()
        for c in self.all_cards():
            if c in seen:
                raise NotationError("card dealt twice", deck.token(c))
            seen.add(c)

    def to_json(self, deck: Deck) -> dict[str, Any]:
        return {"hands": [[deck.token(c) for c in sorted(h, key=deck.sort_key)]
                          for h in self.hands],
                **{name: [deck.token(c) for c in pile] for name, pile in self.extras.items()}}

    @classmethod
    def from_json(cls, obj: dict[str, Any], deck: Deck) -> Deal:
        if not isinstance(obj, dict) or not isinstance(obj.get("hands"), list):
            raise NotationError("a JSON deal is an object with a 'hands' list")
        hands = [[deck.card(t) for t in _token_list(h, "hand")] for h in obj["hands"]]
        extras = {k: [deck.card(t) for t in _token_list(v, k)]
                  for k, v in obj.items() if k != "hands"}
        deal = cls(hands, extras)
        deal.check_unique(deck)
        return deal


def json_object(obj: Any, what: str) -> dict[str, Any]:
    """``obj`` as a JSON object: parsed when it is text; a NotationError naming
    ``what`` (record, view) otherwise."""
    if isinstance(obj, str):
        try:
            obj = json.loads(obj)
        except ValueError as e:
            raise NotationError(f"invalid JSON {what} ({e})") from None
    if not isinstance(obj, dict):
        raise NotationError(f"a JSON {what} is an object")
    return obj


@dataclass
class Record:
    """A game record: everything needed to replay a deal move by move."""

    game: str
    options: dict[str, Any]
    dealer: int
    deal: Deal
    moves: list[str] = field(default_factory=list)
    tags: dict[str, str] = field(default_factory=dict)  # extra tags kept verbatim (Result...)

    @property
    def deck(self) -> Deck:
        return DECKS[self.game]

    def to_text(self) -> str:
        opts = ",".join(f"{k}={format_value(v)}" for k, v in self.options.items())
        tags = [("Game", self.game), ("Options", opts), ("Dealer", str(self.dealer)),
                ("Deal", self.deal.to_text(self.deck)), ("Moves", " ".join(self.moves))]
        tags += list(self.tags.items())
        return "".join(f'[{k} "{v}"]' for k, v in tags)

    @classmethod
    def from_text(cls, text: str) -> Record:
        text = text.strip()
        tags: dict[str, tuple[str, int]] = {}
        pos = 0
        for m in _TAG.finditer(text):
            if text[pos:m.start()].strip():
                raise NotationError("unexpected text in record", text[pos:m.start()].strip(), pos)
            tags[m.group(1)] = (m.group(2), m.start(2))
            pos = m.end()
        if text[pos:].strip():
            raise NotationError("unexpected text in record", text[pos:].strip(), pos)
        for required in ("Game", "Deal"):
            if required not in tags:
                raise NotationError(f"record has no [{required} \"...\"] tag")
        game, gpos = tags["Game"]
        if game not in DECKS:
            raise NotationError("unknown game", game, gpos)
        opts_text, _ = tags.get("Options", ("", 0))
        dealer_text, dpos = tags.get("Dealer", ("0", 0))
        if not dealer_text.isdigit():
            raise NotationError("dealer must be a seat number", dealer_text, dpos)
        deal_text, deal_pos = tags["Deal"]
        deal = Deal.from_text(deal_text, DECKS[game], deal_pos)
        moves = tags.get("Moves", ("", 0))[0].split()
        extra = {k: v for k, (v, _) in tags.items()
                 if k not in ("Game", "Options", "Dealer", "Deal", "Moves")}
        return cls(game, parse_options(opts_text), int(dealer_text), deal, moves, extra)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game,
                "options": {k: list(v) if isinstance(v, tuple) else v
                            for k, v in self.options.items()},
                "dealer": self.dealer, "deal": self.deal.to_json(self.deck),
                "moves": list(self.moves), **({"tags": self.tags} if self.tags else {})}

    @classmethod
    def from_json(cls, obj: dict[str, Any] | str) -> Record:
        obj = json_object(obj, "record")
        game = obj.get("game")
        if game not in DECKS:
            raise NotationError("unknown game", str(game))
        raw_options = obj.get("options") or {}
        if not isinstance(raw_options, dict):
            raise NotationError("options must be an object of name: value")
        options = {k: tuple(v) if isinstance(v, list) else v for k, v in raw_options.items()}
        dealer = obj.get("dealer", 0)
        if not isinstance(dealer, int) or isinstance(dealer, bool):
            raise NotationError("dealer must be a seat number", str(dealer))
        moves = obj.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(t, str) for t in moves):
            raise NotationError("moves must be a list of tokens")
        tags = obj.get("tags") or {}
        if not isinstance(tags, dict) or not all(isinstance(v, str) for v in tags.values()):
            raise NotationError("tags must be an object of name: text")
        return cls(game, options, dealer, Deal.from_json(obj.get("deal"), DECKS[game]),
                   list(moves), dict(tags))


def parse_record(text: str) -> Record:
    """A record in either form: JSON if it starts with '{', else the tag form."""
    text = text.strip()
    if text.startswith("{"):
        return Record.from_json(text)
    return Record.from_text(text)


_TAG = re.compile(r'\[\s*([A-Za-z]+)\s+"([^"]*)"\s*\]')


def _split_keep(text: str, sep: str) -> list[tuple[str, int]]:
    """Split on ``sep`` keeping each part's offset in ``text``."""
    out, off = [], 0
    for part in text.split(sep):
        out.append((part, off))
        off += len(part) + len(sep)
    return out


def _token_list(value: Any, what: str) -> list[str]:
    if isinstance(value, str):
        return value.split()
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise NotationError(f"{what} must be a list of card tokens")
    return value
