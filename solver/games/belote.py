"""Belote classique (rules: docs/rules/belote.md): 5-card deal and turned card, two
taking rounds, completion deal, play, belote-rebelote, optional announces, scoring with
litige, and ``BeloteMatch`` for a game to the target with the litige reserve.

Move tokens: ``take`` (round 1: the turned card's suit), ``take:H`` / ``take:TA`` /
``take:SA`` (round 2), ``pass``; then card tokens (``JH``), ``belote:KH`` (play and
declare, only with ``belote_optional``), ``announce:tierce:KS`` / ``announce:carre:J``
(announces, trick 1). Deal text: four 5-card hands, ``| turned: QH | stock: <11 cards in
dealing order>``.
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

NAME = "belote"

OPTIONS: dict[str, Option] = {
    **play_options(announces_default=False),
    "litige": Option("suspend", ("suspend", "taker_fails"), "BELOTE-SCORE-6"),
    "capot_points": Option(252, (252, 250), "BELOTE-SCORE-4"),
    "round_scores": Option(False, (False, "nearest_10"), "BELOTE-SCORE-8"),
    "second_round_ta_sa": Option(False, (True, False), "BELOTE-BID-6"),
    "turned_jack_forces_dealer": Option(False, (True, False), "BELOTE-BID-7"),
    "target": Option(501, None, "BELOTE-GAME-1"),
}

__all__ = ["NAME", "DECK", "OPTIONS", "BeloteState", "BeloteMatch", "new_state",
           "legal_cards", "trick_winner", "card_points", "score_deal"]


def score_deal(attack: int, cards: list[int], belote: list[int], announce_team: int | None,
               announce_points: int, capot_team: int | None,
               options: dict[str, Any]) -> dict[str, Any]:
    """Score one deal (BELOTE-SCORE-2..8, BELOTE-BR-3, BELOTE-ANN-8).

    ``cards``: card points per team incl. dix de der, already ``capot_points`` / 0 when a
    team won every trick; ``belote``: belote points per team. Returns ``outcome``
    ('made', 'failed', 'litige'), ``totals`` (team totals of BELOTE-SCORE-2), ``exact``
    (team amounts written now, unrounded), ``written`` (rounded per option), ``reserve``
    (put aside by a litige) and ``winner`` (team that won the deal, None for a litige).
    """
    defence = 1 - attack
    ann = [0, 0]
    if announce_team is not None:
        ann[announce_team] = announce_points
    totals = [cards[t] + belote[t] + ann[t] for t in (0, 1)]
    exact = [0, 0]
    reserve = 0
    if totals[attack] > totals[defence]:  # BELOTE-SCORE-3
        outcome, winner = "made", attack
        exact = list(totals)
    elif totals[attack] == totals[defence] and options["litige"] == "suspend":
        outcome, winner = "litige", None  # BELOTE-SCORE-6
        exact[defence] = totals[defence]
        exact[attack] = belote[attack]
        reserve = cards[attack] + ann[attack]
    else:  # BELOTE-SCORE-5 (and a tie with litige=taker_fails)
        outcome, winner = "failed", defence
        base = options["capot_points"] if capot_team == defence else 162
        exact[attack] = belote[attack]
        exact[defence] = base + announce_points + belote[defence]
    written = list(exact)
    if options["round_scores"] == "nearest_10":  # BELOTE-SCORE-8
        written = [round_nearest_10(x) for x in written]
    return {"outcome": outcome, "totals": totals, "exact": exact, "written": written,
            "reserve": reserve, "winner": winner}


class BeloteState(TrickPlayState):
    """One deal of Belote classique (see ``TrickPlayState`` for the play-phase attributes).

    Taking phase (``phase == 'bid'``): ``turned`` (card), ``stock`` (11 cards in dealing
    order), ``bid_round`` (1 or 2), ``calls`` (public (seat, token) list).
    After the deal: ``result`` (see ``score_deal``) and ``scores()``; an annulled deal
    (BELOTE-BID-3) has ``annulled`` True and scores 0.

    Analysis entry point: ``BeloteState.from_play(hands, strain, taker, leader=...,
    turned=...)`` builds a play-phase state directly from hand masks (see
    ``TrickPlayState.from_play``).
    """

    NAME = NAME
    OPTION_SPEC = OPTIONS
    game = NAME
    deck = DECK

    def __init__(self, deal: Deal, options: dict[str, Any] | None = None,
                 dealer: int = 0) -> None:
        super().__init__(options, dealer)
        check_deck(deal, [5, 5, 5, 5], {"turned": 1, "stock": 11})
        self.deal = deal
        self.hands = [DECK.mask(h) for h in deal.hands]
        self.turned = deal.extras["turned"][0]
        self.stock = list(deal.extras["stock"])
        self.bid_round = 1
        self.calls: list[tuple[int, str]] = []
        self._current = (dealer + 1) % 4  # BELOTE-BID-1: eldest speaks first
        self.from_position = False

    def _init_position(self, turned: int | None = None) -> None:
        """from_play hook: Belote's extra attributes (the turned card, if known)."""
        self.turned = turned
        self.stock = []
        self.bid_round = 0
        self.calls = []

    # --- GameState -------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        if self.phase == "over":
            return []
        if self.phase == "play":
            return self._play_moves()
        seat = self._current
        if self.bid_round == 1:
            # BELOTE-BID-7: turned jack, three passes -> the dealer must take.
            if (self.options["turned_jack_forces_dealer"] and self.turned & 7 == 4
                    and seat == self.dealer):
                return [Move("take", None)]
            return [Move("pass"), Move("take", None)]
        # BELOTE-BID-2: another suit than the turned card's; BELOTE-BID-6: TA/SA option.
        strains = [s for s in range(4) if s != self.turned >> 3]
        if self.options["second_round_ta_sa"]:
            strains += [TA, SA]
        return [Move("pass")] + [Move("take", s) for s in strains]

    def _apply(self, move: Move) -> None:
        if self.phase == "play":
            self._apply_play(move)
            return
        seat = self._current
        self.calls = self.calls + [(seat, self.move_token(move))]
        if move.kind == "take":
            strain = self.turned >> 3 if move.value is None else move.value
            self._complete_deal(seat)
            self._begin_play(strain, seat)
            return
        if seat == self.dealer:
            if self.bid_round == 1:
                self.bid_round = 2
            else:  # BELOTE-BID-3: four passes twice -> annulled
                self.annulled = True
                self.phase = "over"
                self._current = None
                self.result = {"outcome": "annulled", "written": [0, 0], "exact": [0, 0],
                               "reserve": 0, "winner": None}
                return
        self._current = (seat + 1) % 4

    def _complete_deal(self, taker: int) -> None:
        """BELOTE-DEAL-2/3: taker gets the turned card + 2, the others 3, from the eldest."""
        hands = list(self.hands)
        hands[taker] |= 1 << self.turned
        pos = 0
        for i in range(1, 5):
            seat = (self.dealer + i) % 4
            n = 2 if seat == taker else 3
            for c in self.stock[pos:pos + n]:
                hands[seat] |= 1 << c
            pos += n
        self.hands = hands

    def _finish(self) -> None:
        capot = next((t for t in (0, 1) if self.tricks_won[t] == 8), None)
        cards = self.card_points_final(self.options["capot_points"])
        self.result = score_deal(self.attack, cards, self.belote_points(),
                                 self.announce_team, self.announce_points, capot,
                                 self.options)
        self.result["cards"] = cards

    def _auction_token(self, move: Move) -> str:
        if move.kind == "pass":
            return "pass"
        if move.kind == "take":
            return "take" if move.value is None else f"take:{STRAIN_NAMES[move.value]}"
        raise NotationError("unknown move kind", move.kind)

    def _parse_auction(self, token: str) -> Move:
        if token == "pass":
            return Move("pass")
        if token == "take":
            return Move("take", None)
        if token.startswith("take:"):
            return Move("take", strain_of(token[5:]))
        raise NotationError("not a belote move (take, take:H, pass, a card, belote:KH, "
                            "announce:...)", token)

    def observation(self, seat: int) -> dict[str, Any]:
        obs = self.play_observation(seat)
        obs.update({
            "turned": DECK.token(self.turned) if self.turned is not None else None,
            "bid_round": self.bid_round,
            "calls": list(self.calls),
            "history": self.history_tokens(seat),
        })
        return obs

    def to_record(self) -> Record:
        if self.from_position:
            raise DealError("a state built with from_play has no deal record")
        return Record(NAME, self.options_record(), self.dealer, self.deal,
                      self.history_tokens())


class BeloteMatch(Match):
    """A game of Belote to ``target`` with the litige reserve (BELOTE-SCORE-6, -GAME-1).

    ``reserve`` holds the points put aside by litige deals; they go, in addition, to the
    winner of the next deal that is not itself a litige.
    """

    module = None  # set below (this module)

    def __init__(self, options: dict[str, Any] | None = None, dealer: int = 0,
                 seed: int | None = None) -> None:
        super().__init__(options, dealer, seed)
        self.reserve = 0

    def _written(self, state: TrickPlayState) -> list[int]:
        res = state.result
        exact = list(res["exact"])
        if res["outcome"] in ("made", "failed") and self.reserve:
            exact[res["winner"]] += self.reserve
            self.reserve = 0
        self.reserve += res.get("reserve", 0)
        if self.spec_options["round_scores"] == "nearest_10":
            return [round_nearest_10(x) for x in exact]
        return exact


def new_state(options: dict[str, Any] | None = None, dealer: int = 0, seed: int | None = None,
              deal: Deal | None = None) -> BeloteState:
    """A new Belote deal: random from ``seed`` (BELOTE-DEAL-3) unless ``deal`` is given."""
    if deal is None:
        perm = random_permutation(seed)
        # BELOTE-DEAL-1/3: 5 cards each from the eldest, the turned card, 11 in order.
        hands = [[] for _ in range(4)]
        for i in range(4):
            hands[(dealer + 1 + i) % 4] = perm[5 * i:5 * i + 5]
        deal = Deal(hands, {"turned": [perm[20]], "stock": perm[21:]})
    return BeloteState(deal, options, dealer)


BeloteMatch.module = sys.modules[__name__]
