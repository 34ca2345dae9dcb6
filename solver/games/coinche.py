"""Coinche / Belote contrée (rules: docs/rules/coinche.md): 8 cards each, auction
80..160 (or 180), capot, générale, suit/TA/SA strains, coinche and surcoinche, play in
every strain, belote (each suit in TA), announces, contract fulfilment and scoring in every
mode, and ``CoincheMatch`` for a game to the target.

Move tokens: ``pass``, ``bid:110:H``, ``bid:capot:TA``, ``bid:generale:SA``, ``coinche``,
``surcoinche``; then card tokens (``JH``), ``belote:KH`` (play and declare, only with
``belote_optional``), ``announce:tierce:KS`` / ``announce:carre:J`` (trick 1).
Deal text: four 8-card hands (no extra pile).
"""

from __future__ import annotations

import sys
from typing import Any

from ..errors import DealError, NotationError
from ..notation import Deal, Record
from ..options import Option
from .base import Move
from .belote_common import (
    DECK,
    SA,
    STRAIN_NAMES,
    TA,
    Match,
    TrickPlayState,
    check_deck,
    legal_cards,
    play_options,
    random_permutation,
    round_nearest_10,
    strain_of,
)
from .belote_common import card_points as card_points  # re-exported pure functions
from .belote_common import trick_winner as trick_winner

NAME = "coinche"
CAPOT = 250  # COINCHE-BID-2
GENERALE = 500

OPTIONS: dict[str, Option] = {
    # COINCHE options table: Coinche inherits every belote.* play option.
    **play_options(announces_default=True),
    "deal_pattern": Option("3-2-3", ("3-2-3", "3-3-2", "2-3-3"), "COINCHE-DEAL-1"),
    "allow_ta": Option(True, (True, False), "COINCHE-CARD-1"),
    "allow_sa": Option(True, (True, False), "COINCHE-CARD-1"),
    "max_numeric_bid": Option(160, (160, 180), "COINCHE-BID-2"),
    "allow_generale": Option(True, (True, False), "COINCHE-BID-2"),
    "coinche_ends_auction": Option(True, (True, False), "COINCHE-BID-6"),
    "ta_must_overtake": Option(True, (True, False), "COINCHE-PLAY-3"),
    "ta_belote": Option("each_suit", ("each_suit", "none"), "COINCHE-ANN-3"),
    "bonuses_count_for_contract": Option(True, (True, False), "COINCHE-MADE-2"),
    "double_mode": Option("bid_only", ("bid_only", "all"), "COINCHE-SCORE-4"),
    "capot_scoring": Option("bid_plus_points", ("bid_plus_points", "fixed"),
                            "COINCHE-SCORE-5"),
    "round_scores": Option(False, (False, "nearest_10"), "COINCHE-SCORE-7"),
    "target": Option(2000, None, "COINCHE-GAME-1"),
}

__all__ = ["NAME", "DECK", "OPTIONS", "CoincheState", "CoincheMatch", "new_state",
           "legal_cards", "trick_winner", "card_points", "score_deal", "bid_values"]


def bid_values(options: dict[str, Any]) -> list[int]:
    """Every bid value in increasing order (COINCHE-BID-2)."""
    values = list(range(80, options["max_numeric_bid"] + 1, 10)) + [CAPOT]
    if options["allow_generale"]:
        values.append(GENERALE)
    return values


def score_deal(value: int, attack: int, multiplier: int, cards: list[int],
               capot_team: int | None, generale_made: bool, belote: list[int],
               announce_team: int | None, announce_points: int,
               options: dict[str, Any]) -> dict[str, Any]:
    """Score one deal (COINCHE-MADE-1..3, COINCHE-SCORE-1..7).

    ``cards``: card points per team including dix de der on the 162 scale (no capot
    bonus: this function applies COINCHE-CARD-5 itself); ``capot_team``: team that won all
    8 tricks, if any; ``generale_made``: the taker won all 8 himself. Returns ``made``,
    ``totals`` (P_A/P_D per team), ``exact`` and ``written`` (rounded) team amounts, and
    ``winner`` (team W).
    """
    defence = 1 - attack
    bid_capot = value in (CAPOT, GENERALE)
    cards = list(cards)
    if capot_team is not None and not bid_capot:
        cards[capot_team], cards[1 - capot_team] = 252, 0  # unbid capot: 252
    ann = [0, 0]
    if announce_team is not None:
        ann[announce_team] = announce_points
    totals = [cards[t] + belote[t] + ann[t] for t in (0, 1)]  # COINCHE-MADE-1
    if value == CAPOT:  # COINCHE-MADE-3
        made = capot_team == attack
    elif value == GENERALE:
        made = generale_made
    elif options["bonuses_count_for_contract"]:  # COINCHE-MADE-2
        made = totals[attack] >= value and totals[attack] > totals[defence]
    else:
        made = cards[attack] >= value and cards[attack] > cards[defence]
    win = attack if made else defence
    lose = 1 - win
    base = 252 if (capot_team == win and not bid_capot) else 162
    exact = [0, 0]
    exact[lose] = belote[lose]  # COINCHE-SCORE-6: belote always kept
    if bid_capot and options["capot_scoring"] == "fixed":  # COINCHE-SCORE-5 option
        exact[win] = multiplier * (value + announce_points) + belote[win]
    elif multiplier == 1:
        if made:  # COINCHE-SCORE-1
            exact[attack] = value + totals[attack]
            exact[defence] = totals[defence]
        else:  # COINCHE-SCORE-2
            exact[defence] = base + value + announce_points + belote[defence]
    elif options["double_mode"] == "bid_only":  # COINCHE-SCORE-3
        exact[win] = base + multiplier * value + announce_points + belote[win]
    else:  # COINCHE-SCORE-4
        exact[win] = multiplier * (base + value + announce_points) + belote[win]
    written = list(exact)
    if options["round_scores"] == "nearest_10":  # COINCHE-SCORE-7
        written = [round_nearest_10(x) for x in written]
    return {"made": made, "outcome": "made" if made else "failed", "totals": totals,
            "cards": cards, "exact": exact, "written": written, "winner": win}


class CoincheState(TrickPlayState):
    """One deal of Coinche (see ``TrickPlayState`` for the play-phase attributes).

    Auction (``phase == 'bid'``): ``calls`` (public (seat, token) list), ``contract``
    ``(value, strain, seat)`` of the highest bid or None, ``multiplier`` (1, 2, 4),
    ``coincher``. After the auction ``value``, ``strain``, ``taker``, ``multiplier`` hold
    the contract (COINCHE-BID-7). After the deal: ``result`` (see ``score_deal``).

    Analysis entry point: ``CoincheState.from_play(hands, strain, taker, value=...,
    multiplier=..., leader=...)`` (see ``TrickPlayState.from_play``).
    """

    NAME = NAME
    OPTION_SPEC = OPTIONS
    game = NAME
    deck = DECK

    def __init__(self, deal: Deal, options: dict[str, Any] | None = None,
                 dealer: int = 0) -> None:
        super().__init__(options, dealer)
        check_deck(deal, [8, 8, 8, 8], {})
        self.deal = deal
        self.from_position = False
        self.hands = [DECK.mask(h) for h in deal.hands]
        self._init_position()
        self._current = (dealer + 1) % 4  # COINCHE-BID-1: eldest first

    def _init_position(self, value: int = 80, multiplier: int = 1) -> None:
        self.calls: list[tuple[int, str]] = []
        self.contract: tuple[int, int, int] | None = None
        self.value = value
        self.multiplier = multiplier
        self.coincher: int | None = None
        self.passes = 0
        self.surcoinche_turns: list[int] = []
        if value not in bid_values(self.options) or multiplier not in (1, 2, 4):
            raise DealError(f"bad contract value {value!r} or multiplier {multiplier!r}")

    # --- auction ---------------------------------------------------------------
    def _strains(self) -> list[int]:
        out = [0, 1, 2, 3]
        if self.options["allow_ta"]:
            out.append(TA)
        if self.options["allow_sa"]:
            out.append(SA)
        return out

    def _auction_moves(self) -> list[Move]:
        seat = self._current
        moves = [Move("pass")]
        if self.surcoinche_turns:  # COINCHE-BID-6 default: only pass / surcoinche
            return moves + [Move("surcoinche")]
        high = self.contract[0] if self.contract else 0
        # COINCHE-BID-3: strictly higher value, any strain, partner may be overbid.
        for v in bid_values(self.options):
            if v > high:
                moves.extend(Move("bid", (v, s)) for s in self._strains())
        if self.contract is not None:
            if self.multiplier == 1 and self.contract[2] % 2 != seat % 2:
                moves.append(Move("coinche"))  # COINCHE-BID-5
            if self.multiplier == 2 and self.contract[2] % 2 == seat % 2:
                moves.append(Move("surcoinche"))
        return moves

    def _apply_call(self, move: Move) -> None:
        seat = self._current
        self.calls = self.calls + [(seat, self.move_token(move))]
        ends = self.options["coinche_ends_auction"]
        if move.kind == "bid":
            value, strain = move.value
            self.contract = (value, strain, seat)
            self.multiplier = 1  # COINCHE-BID-6 option false: a higher bid cancels coinche
            self.coincher = None
            self.passes = 0
        elif move.kind == "coinche":
            self.multiplier = 2
            self.coincher = seat
            self.passes = 0
            if ends:  # the two contracting players, in seat order after the coincher
                self.surcoinche_turns = [(seat + 1) % 4, (seat + 3) % 4]
                self._current = self.surcoinche_turns[0]
                return
        elif move.kind == "surcoinche":
            self.multiplier = 4
            self.passes = 0
            if ends:
                self.surcoinche_turns = []
                self._end_auction()
                return
        else:  # pass
            self.passes += 1
            if self.surcoinche_turns:
                self.surcoinche_turns = self.surcoinche_turns[1:]
                if not self.surcoinche_turns:
                    self._end_auction()
                else:
                    self._current = self.surcoinche_turns[0]
                return
            if self.contract is None and len(self.calls) == 4:  # COINCHE-BID-4
                self.annulled = True
                self.phase = "over"
                self._current = None
                self.result = {"outcome": "annulled", "made": None, "written": [0, 0],
                               "exact": [0, 0], "winner": None}
                return
            if self.contract is not None and self.passes == 3:
                self._end_auction()
                return
        self._current = (seat + 1) % 4

    def _end_auction(self) -> None:
        """COINCHE-BID-7: the last bid is the contract."""
        value, strain, taker = self.contract
        self.value = value
        self._begin_play(strain, taker)

    def _begin_play(self, strain: int, taker: int) -> None:
        if self.contract is None:  # from_play: the contract is given, not bid
            self.contract = (self.value, strain, taker)
        super()._begin_play(strain, taker)

    # --- GameState -------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        if self.phase == "over":
            return []
        if self.phase == "play":
            return self._play_moves()
        return self._auction_moves()

    def _apply(self, move: Move) -> None:
        if self.phase == "play":
            self._apply_play(move)
        else:
            self._apply_call(move)

    def _finish(self) -> None:
        capot = next((t for t in (0, 1) if self.tricks_won[t] == 8), None)
        cards = [self.points[t] + self.bonus_der(t) for t in (0, 1)]
        # COINCHE-MADE-3: the taker himself won every trick (in a from_play position the
        # attack's tricks before it are taken as the taker's).
        generale_made = self.tricks_won[self.attack] == 8 and \
            all(w == self.taker for _, w in self.tricks)
        self.result = score_deal(self.value, self.attack, self.multiplier, cards, capot,
                                 generale_made, self.belote_points(), self.announce_team,
                                 self.announce_points, self.options)

    def _auction_token(self, move: Move) -> str:
        if move.kind in ("pass", "coinche", "surcoinche"):
            return move.kind
        if move.kind == "bid":
            value, strain = move.value
            v = {CAPOT: "capot", GENERALE: "generale"}.get(value, str(value))
            return f"bid:{v}:{STRAIN_NAMES[strain]}"
        raise NotationError("unknown move kind", move.kind)

    def _parse_auction(self, token: str) -> Move:
        if token in ("pass", "coinche", "surcoinche"):
            return Move(token)
        parts = token.split(":")
        if len(parts) == 3 and parts[0] == "bid":
            v = {"capot": CAPOT, "generale": GENERALE}.get(parts[1])
            if v is None:
                if not parts[1].isdigit():
                    raise NotationError("bad bid value", token)
                v = int(parts[1])
            return Move("bid", (v, strain_of(parts[2])))
        raise NotationError("not a coinche move (pass, bid:110:H, bid:capot:TA, coinche, "
                            "surcoinche, a card, belote:KH, announce:...)", token)

    def observation(self, seat: int) -> dict[str, Any]:
        obs = self.play_observation(seat)
        obs.update({
            "calls": list(self.calls),  # COINCHE-BID-7: all calls are public
            "contract": None if self.contract is None else
            {"value": self.contract[0], "strain": STRAIN_NAMES[self.contract[1]],
             "seat": self.contract[2], "multiplier": self.multiplier},
            "history": self.history_tokens(seat),
        })
        return obs

    def to_record(self) -> Record:
        if self.from_position:
            raise DealError("a state built with from_play has no deal record")
        return Record(NAME, self.options_record(), self.dealer, self.deal,
                      self.history_tokens())


class CoincheMatch(Match):
    """A game of Coinche to ``target`` (COINCHE-GAME-1) with rotating dealer."""


def deal_hands(perm: list[int], dealer: int, pattern: str = "3-2-3") -> list[list[int]]:
    """COINCHE-DEAL-1: packets (e.g. 3-2-3) from the eldest hand around the table."""
    hands: list[list[int]] = [[] for _ in range(4)]
    pos = 0
    for size in (int(x) for x in pattern.split("-")):
        for i in range(1, 5):
            hands[(dealer + i) % 4].extend(perm[pos:pos + size])
            pos += size
    return hands


def new_state(options: dict[str, Any] | None = None, dealer: int = 0, seed: int | None = None,
              deal: Deal | None = None) -> CoincheState:
    """A new Coinche deal: random from ``seed`` (COMMON-RNG-1) unless ``deal`` is given."""
    if deal is None:
        pattern = (options or {}).get("deal_pattern", "3-2-3")
        if pattern not in OPTIONS["deal_pattern"].choices:
            OPTIONS["deal_pattern"].check("deal_pattern", pattern)
        deal = Deal(deal_hands(random_permutation(seed), dealer, pattern))
    return CoincheState(deal, options, dealer)


CoincheMatch.module = sys.modules[__name__]
