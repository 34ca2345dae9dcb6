"""French Tarot (FFT rules, 3/4/5 players): the executable form of docs/rules/tarot.md.

Layout of this module:

* card constants and **pure functions** usable without a state (for the core and the
  double-dummy solver): :func:`card_points` (doubled integer units), :func:`pile_points2`,
  :func:`led_suit`, :func:`legal_cards`, :func:`trick_winner`, :func:`first_lead_forbidden`;
* the pure scoring functions :func:`deal_value`, :func:`distribute`, :func:`score_deal`
  (TAROT-COUNT-2..4, TAROT-SCORE-1..8, TAROT-VAR-2);
* :class:`TarotState`, the whole deal as a sequence of moves (auction, call, écart,
  chelem, announcements, card play), and :func:`new_state` (registry entry point).

Point unit: card values are kept as **doubled integers** ("half points") so that the
deck totals 182 and no float ever appears; ``pile_points2(mask) / 2`` is the FFT count.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..cards import TAROT_DECK, bit_list
from ..errors import AtoutError, DealError, IllegalMoveError, NotationError, OptionError
from ..notation import Deal, Record
from ..options import Option, resolve
from .base import GameState, Move

NAME = "tarot"
DECK = TAROT_DECK

# --- cards (index layout: solver/cards.py) -----------------------------------------
PETIT = 0  # T1
MONDE = 20  # T21
EXCUSE = 21  # EX
TRUMP = 4  # suit id of trumps; plain suits are 0..3 (S H D C); the Excuse has suit -1
NO_SUIT = -1

TRUMP_MASK = (1 << 21) - 1  # T1..T21
EXCUSE_BIT = 1 << EXCUSE
SUIT_MASKS = tuple(((1 << 14) - 1) << (22 + 14 * s) for s in range(4))
BOUTS_MASK = (1 << PETIT) | (1 << MONDE) | EXCUSE_BIT  # TAROT-DECK-3
RANK_K, RANK_Q, RANK_N, RANK_J = 13, 12, 11, 10  # rank index within a suit (1 = 0)


def _rank_mask(rank: int) -> int:
    return sum(1 << (22 + 14 * s + rank) for s in range(4))


KINGS_MASK = _rank_mask(RANK_K)
HEADS_MASK = KINGS_MASK | _rank_mask(RANK_Q) | _rank_mask(RANK_N) | _rank_mask(RANK_J)
MIDDLE_TRUMPS = TRUMP_MASK & ~((1 << PETIT) | (1 << MONDE))  # T2..T20
# "half-point cards" (TAROT-DECK-4, TAROT-EXC-3): suit 1..10 and trumps T2..T20
HALF_MASK = MIDDLE_TRUMPS | sum(((1 << 10) - 1) << (22 + 14 * s) for s in range(4))
FULL_DECK = (1 << 78) - 1


def _points2(card: int) -> int:
    if (BOUTS_MASK >> card) & 1:
        return 9
    if card < 22:
        return 1
    return {RANK_K: 9, RANK_Q: 7, RANK_N: 5, RANK_J: 3}.get((card - 22) % 14, 1)


POINTS2 = tuple(_points2(c) for c in range(78))  # TAROT-DECK-4, doubled
TOTAL_POINTS2 = 182  # 91 points


def card_suit(card: int) -> int:
    """Suit id of a card: 0..3 plain suits S H D C, TRUMP (4), NO_SUIT (-1) for EX."""
    if card < EXCUSE:
        return TRUMP
    if card == EXCUSE:
        return NO_SUIT
    return (card - 22) // 14


def card_points(card: int) -> int:
    """Value of a card in half points (TAROT-DECK-4): bout/K 9, Q 7, N 5, J 3, other 1."""
    return POINTS2[card]


def pile_points2(mask: int) -> int:
    """Value of a set of cards in half points (the whole deck is 182, TAROT-COUNT-3)."""
    total = 0
    while mask:
        low = mask & -mask
        total += POINTS2[low.bit_length() - 1]
        mask ^= low
    return total


# --- play rules as pure functions ----------------------------------------------------
def led_suit(trick: list[tuple[int, int]]) -> int | None:
    """Suit led in a trick: that of the first card that is not EX (TAROT-PLAY-3), or None."""
    for _, card in trick:
        if card != EXCUSE:
            return card_suit(card)
    return None


def first_lead_forbidden(called_card: int | None) -> int:
    """Cards that may not open the deal in 5p (TAROT-CALL-6): the called suit but the card."""
    if called_card is None:
        return 0
    return SUIT_MASKS[card_suit(called_card)] & ~(1 << called_card)


def legal_cards(hand: int, trick: list[tuple[int, int]], lead_forbidden: int = 0) -> int:
    """Mask of the cards of ``hand`` legal on ``trick`` ((seat, card) pairs so far).

    ``lead_forbidden`` only matters when ``trick`` is empty: cards that may not be led
    (pass ``first_lead_forbidden(called)`` for the first lead of a 5p deal, TAROT-CALL-6;
    if it would forbid the whole hand, the whole hand is legal).
    """
    if not trick:
        return (hand & ~lead_forbidden) or hand  # TAROT-PLAY-2
    led = led_suit(trick)
    if led is None:  # only EX so far: the next card leads (TAROT-PLAY-3)
        return hand
    ex = hand & EXCUSE_BIT  # TAROT-EXC-1: always legal
    if led != TRUMP:
        follow = hand & SUIT_MASKS[led]
        if follow:  # TAROT-PLAY-4.1
            return follow | ex
    trumps = hand & TRUMP_MASK
    if trumps:  # TAROT-PLAY-4.2 / 4.3, no partner exception (TAROT-PLAY-5)
        high = -1
        for _, card in trick:
            if card < EXCUSE and card > high:
                high = card
        over = trumps >> (high + 1) << (high + 1)
        return (over or trumps) | ex
    return hand  # TAROT-PLAY-4.4


def trick_winner(trick: list[tuple[int, int]], excuse_wins: bool = False) -> int:
    """Seat winning a trick (TAROT-PLAY-6, TAROT-EXC-2).

    ``excuse_wins``: the TAROT-EXC-6 case (EX played to the last trick by a side that
    won every previous trick); then the EX player wins.
    """
    led = led_suit(trick)
    best_seat, best_key = trick[0][0], -1
    for seat, card in trick:
        if card == EXCUSE:
            if excuse_wins or led is None:
                return seat
            continue
        if card < EXCUSE:
            key = 100 + card
        elif card_suit(card) == led:
            key = card
        else:
            key = -1
        if key > best_key:
            best_seat, best_key = seat, key
    return best_seat


# --- options -----------------------------------------------------------------------
OPTIONS: dict[str, Option] = {
    "players": Option(4, (3, 4, 5), "TAROT-GEN-1"),
    "direction": Option("counterclockwise", ("counterclockwise", "clockwise"), "COMMON-SEAT-2"),
    "petit_sec_redeal": Option(True, (True, False), "TAROT-DEAL-3"),
    "allow_prise": Option(True, (True, False), "TAROT-BID-2"),
    "garde_contre_multiplier": Option(6, (6, 8), "TAROT-BID-2"),
    "poignee_bonuses": Option((20, 30, 40), ((20, 30, 40), (20, 40, 60)), "TAROT-ANN-6"),
    "excuse_last_trick": Option("changes_side", ("changes_side", "to_trick_winner"),
                                "TAROT-EXC-5"),
    "five_player_first_lead_restriction": Option(True, (True, False), "TAROT-CALL-6"),
    "five_player_lowest_call": Option("jack", ("jack", "alone"), "TAROT-CALL-2"),
    "misere": Option("off", ("off", "on"), "TAROT-ANN-9"),
    "misere_value": Option(10, None, "TAROT-ANN-9", "points from each other player"),
    "rounding": Option("none", ("none", "nearest_10"), "TAROT-SCORE-8"),
    "scoring": Option("fft", ("fft", "fixed_base"), "TAROT-VAR-2"),
}


def resolve_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """Full tarot option dict (lists accepted for tuple-valued options)."""
    given = {k: tuple(v) if isinstance(v, list) else v for k, v in (options or {}).items()}
    return resolve(OPTIONS, given, NAME)


HAND_SIZE = {3: 24, 4: 18, 5: 15}  # TAROT-DEAL-1
DOG_SIZE = {3: 6, 4: 6, 5: 3}
CONTRACTS = ("prise", "garde", "garde_sans", "garde_contre")  # TAROT-BID-2, lowest first
BASE_FIXED = {"prise": 10, "garde": 40, "garde_sans": 80, "garde_contre": 160}  # TAROT-VAR-2
POIGNEE_LEVELS = ("simple", "double", "triple")
POIGNEE_THRESHOLDS = {3: (13, 15, 18), 4: (10, 13, 15), 5: (8, 10, 13)}  # TAROT-ANN-4
MISERE_KINDS = ("trump", "head")  # TAROT-ANN-9
REQUIRED_POINTS = (56, 51, 41, 36)  # TAROT-COUNT-2, by number of bouts


def multiplier(contract: str, options: dict[str, Any] | None = None) -> int:
    """Contract multiplier M (TAROT-BID-2; garde contre 6 or 8 by option)."""
    if contract not in CONTRACTS:
        raise AtoutError(f"unknown tarot contract {contract!r}")
    if contract == "garde_contre":
        return resolve_options(options)["garde_contre_multiplier"] if options else 6
    return {"prise": 1, "garde": 2, "garde_sans": 4}[contract]


# --- counting and scoring (pure) ---------------------------------------------------------
def _points2_of(points: int | float | Fraction) -> int:
    doubled = Fraction(points) * 2
    if doubled.denominator != 1:
        raise AtoutError(f"card points must be a multiple of 0.5, got {points}")
    return int(doubled)


def contract_result(points: int | float | Fraction, bouts: int) -> tuple[bool, int]:
    """(made, margin) from the attack's points and bouts (TAROT-COUNT-2, TAROT-COUNT-4).

    Made iff ``E = P - R(B) >= 0``; the margin is ``ceil(|E|)`` (the half point goes to
    the side winning the deal).
    """
    if not 0 <= bouts <= 3:
        raise AtoutError(f"bouts must be 0..3, got {bouts}")
    e2 = _points2_of(points) - 2 * REQUIRED_POINTS[bouts]
    return e2 >= 0, (abs(e2) + 1) // 2


def chelem_term(announced: bool, attack_all: bool, defence_all: bool) -> int:
    """C of TAROT-SCORE-5 (first matching row)."""
    if announced:
        return 400 if attack_all else -200
    if attack_all:
        return 200
    if defence_all:
        return -200
    return 0


def deal_value(contract: str, points: int | float | Fraction, bouts: int, *,
               petit_au_bout: int = 0, poignee: int = 0, chelem_announced: bool = False,
               attack_all_tricks: bool = False, defence_all_tricks: bool = False,
               options: dict[str, Any] | None = None) -> int:
    """Per-defender amount T (TAROT-SCORE-1, or TAROT-VAR-2 with ``scoring=fixed_base``).

    ``points``: attack pile value (halves allowed); ``petit_au_bout``: +1 if the attack
    won the last trick holding T1 (TAROT-SCORE-3), -1 if the defence did, 0 otherwise;
    ``poignee``: total of the poignée bonuses announced (TAROT-SCORE-4).
    """
    opts = resolve_options(options)
    if contract not in CONTRACTS:
        raise AtoutError(f"unknown tarot contract {contract!r} (one of {', '.join(CONTRACTS)})")
    if petit_au_bout not in (-1, 0, 1):
        raise AtoutError(f"petit_au_bout must be -1, 0 or 1, got {petit_au_bout!r}")
    made, margin = contract_result(points, bouts)
    sign = 1 if made else -1
    c = chelem_term(chelem_announced, attack_all_tricks, defence_all_tricks)
    pb = 10 * petit_au_bout
    if opts["scoring"] == "fixed_base":  # TAROT-VAR-2
        return sign * (BASE_FIXED[contract] + margin) + pb + sign * poignee + c
    m = multiplier(contract, opts)
    return sign * (25 + margin) * m + pb * m + sign * poignee + c


def _round10(x: int) -> int:
    """Nearest multiple of 10, exact multiples of 5 away from zero (TAROT-SCORE-8)."""
    s = -1 if x < 0 else 1
    return s * ((abs(x) + 5) // 10 * 10)


def distribute(value: int, players: int, taker: int, partner: int | None = None,
               rounding: str = "none") -> list[int]:
    """Scores per seat from the per-defender amount T (TAROT-SCORE-6, TAROT-SCORE-8).

    Each defender gets ``-T``, the partner (5p) ``+T``, the taker the balance, so the
    scores always sum to zero (TAROT-SCORE-7).
    """
    if partner == taker:
        partner = None
    defender = -value
    mate = value
    if rounding == "nearest_10":
        defender, mate = _round10(defender), _round10(mate)
    out = [defender] * players
    out[taker] = 0
    if partner is not None:
        out[partner] = mate
    out[taker] = -sum(out)
    return out


def misere_scores(players: int, announcers: list[int], value: int = 10) -> list[int]:
    """Misère part of the scores (TAROT-ANN-9): v from each other player per misère."""
    out = [0] * players
    for seat in announcers:
        for other in range(players):
            if other != seat:
                out[other] -= value
                out[seat] += value
    return out


def score_deal(players: int, contract: str, points: int | float | Fraction, bouts: int, *,
               taker: int = 0, partner: int | None = None, petit_au_bout: int = 0,
               poignee: int = 0, chelem_announced: bool = False,
               attack_all_tricks: bool = False, defence_all_tricks: bool = False,
               misere: Sequence[int] = (), options: dict[str, Any] | None = None) -> list[int]:
    """Final scores per seat of a deal from its counted outcome (pure; TAROT-EX-* vectors)."""
    opts = resolve_options(options)
    value = deal_value(contract, points, bouts, petit_au_bout=petit_au_bout, poignee=poignee,
                       chelem_announced=chelem_announced, attack_all_tricks=attack_all_tricks,
                       defence_all_tricks=defence_all_tricks, options=opts)
    out = distribute(value, players, taker, partner, opts["rounding"])
    if misere:
        extra = misere_scores(players, list(misere), opts["misere_value"])
        out = [a + b for a, b in zip(out, extra, strict=True)]
    return out


@dataclass(frozen=True)
class Count:
    """The counted outcome of a finished deal (TAROT-COUNT-1..4).

    ``points2`` is the attack's pile value in half points (``points`` as a Fraction);
    ``petit_au_bout`` is +1/-1/0 (TAROT-SCORE-3); trick counts are per side.
    """

    points2: int
    bouts: int
    petit_au_bout: int
    attack_tricks: int
    defence_tricks: int

    @property
    def points(self) -> Fraction:
        return Fraction(self.points2, 2)

    @property
    def attack_all(self) -> bool:
        """The attack won every trick (chelem, TAROT-ANN-3)."""
        return self.defence_tricks == 0

    @property
    def defence_all(self) -> bool:
        """The defence won every trick (TAROT-SCORE-5)."""
        return self.attack_tricks == 0


def count_piles(attack_pile: int, excuse_owed: int | None = None) -> tuple[int, int]:
    """(points2, bouts) of an attack pile (TAROT-COUNT-1, TAROT-COUNT-3).

    ``excuse_owed``: side (1 attack, 0 defence) still owing a half-point card for the
    Excuse at the end (TAROT-EXC-4): the Excuse then counts 4 for its owner and 0.5 for
    the other side.
    """
    p2 = pile_points2(attack_pile)
    if excuse_owed == 1:
        p2 -= 1
    elif excuse_owed == 0:
        p2 += 1
    return p2, (attack_pile & BOUTS_MASK).bit_count()


# --- the state ---------------------------------------------------------------------------
def _moves(kind: str, values) -> tuple[Move, ...]:
    return tuple(Move(kind, v) for v in values)


CARD_MOVES = _moves("card", range(78))
DISCARD_MOVES = _moves("discard", range(78))
SHOW_MOVES = _moves("show", range(78))
CALL_MOVES = _moves("call", range(78))
BID_MOVES = {b: Move("bid", b) for b in ("pass", *CONTRACTS)}
CHELEM_MOVES = (Move("chelem", False), Move("chelem", True))  # no_chelem first
POIGNEE_MOVES = {lv: Move("poignee", lv) for lv in POIGNEE_LEVELS}
MISERE_MOVES = {k: Move("misere", k) for k in MISERE_KINDS}

_LIST_ATTRS = ("hands", "auction", "trick", "tricks", "won", "tricks_won", "poignees",
               "miseres")


class TarotState(GameState):
    """A deal of French Tarot in progress.

    Phases (``phase``): ``'bid'`` (TAROT-BID), ``'call'`` (5p, TAROT-CALL), ``'ecart'``
    (TAROT-DOG-2, one ``discard`` move per card), ``'chelem'`` (TAROT-ANN-1, taker says
    ``chelem``/``no_chelem``), ``'play'`` (card play; during the first trick the seat to
    act may also announce ``poignee:<level>`` / ``misere:<kind>`` before its card),
    ``'show'`` (cards of an announced poignée, one ``show`` move each), ``'over'``.

    Attributes kept stable for the core and the double-dummy solver:

    * ``hands: list[int]`` current hand masks per seat; ``players``; ``dealer``;
    * ``trick: list[(seat, card)]`` trick in progress; ``tricks: list[(trick, winner)]``;
      ``leader`` seat leading the current trick;
    * ``contract`` (one of CONTRACTS or None), ``taker``, ``partner`` (5p seat or None when
      the taker is alone; hidden information, fixed at the call), ``called_card``;
    * ``won = [defence_mask, attack_mask]`` cards won in tricks per side (Excuse
      exchanges applied), ``tricks_won = [defence, attack]``, ``excuse_owed`` (side that
      still owes a half-point card, TAROT-EXC-4), ``ecart``/``dog`` masks,
      ``chelem_announced``; ``side_of(seat)`` is 1 for the attack, 0 for the defence.

    Use ``legal_cards(hand, trick, state.lead_forbidden())`` / ``trick_winner`` for the
    play rules without a state; ``TarotState.for_play`` builds a play-phase position from
    hands and a contract directly. Card points are in half points (``card_points``).

    Move tokens (docs/NOTATION.md, "French Tarot"): ``pass prise garde garde_sans
    garde_contre``, ``call:KH``, ``discard:3C``, ``chelem``/``no_chelem``,
    ``poignee:simple|double|triple`` then ``show:<card>`` per card, ``misere:trump|head``,
    and card tokens (``T21``, ``EX``, ``10C``) for card plays.
    """

    game = NAME
    deck = TAROT_DECK

    def __init__(self, options: dict[str, Any], dealer: int, hands: list[int],
                 dog_order: list[int]):
        super().__init__()
        self.options = options
        self.players = n = options["players"]
        self.dealer = dealer
        self.initial_hands = tuple(hands)
        self.dog_order = tuple(dog_order)
        self.dog = sum(1 << c for c in dog_order)
        self.hands = list(hands)
        self.phase = "bid"
        self.auction: list[tuple[int, str]] = []
        self.contract: str | None = None
        self.taker: int | None = None
        self.called_card: int | None = None
        self.partner: int | None = None
        self.dog_shown = False
        self.ecart = 0
        self.ecart_shown = 0  # trumps forced into the écart, public (TAROT-DOG-2)
        self.chelem_announced = False
        self.poignees: list[tuple[int, str, int]] = []  # (seat, level, shown mask)
        self.showing: tuple[int, str, int] | None = None  # poignée being shown
        self.miseres: list[tuple[int, str, int]] = []  # (seat, kind, hand shown)
        self.leader = (dealer + 1) % n  # eldest (TAROT-GEN-2)
        self.trick: list[tuple[int, int]] = []
        self.tricks: list[tuple[list[tuple[int, int]], int]] = []
        self.won = [0, 0]
        self.tricks_won = [0, 0]
        self.excuse_owed: int | None = None
        self.petit_trick: tuple[int, int] | None = None  # (trick number, side) taking T1
        self.petit_au_bout = 0
        self.annulled: str | None = None
        self.petit_sec_seats: tuple[int, ...] = ()
        self.from_position = False
        # TAROT-DEAL-3: petit sec annuls the deal before the auction
        if options["petit_sec_redeal"]:
            sec = tuple(s for s, h in enumerate(hands) if _is_petit_sec(h))
            if sec:
                self.petit_sec_seats = sec
                self.annulled = "petit_sec"
                self.phase = "over"

    # --- small helpers --------------------------------------------------------------
    @property
    def eldest(self) -> int:
        return (self.dealer + 1) % self.players

    @property
    def next_dealer(self) -> int:
        """Dealer of the next deal: the eldest hand, also after an annulled deal."""
        return self.eldest

    @property
    def dog_size(self) -> int:
        return DOG_SIZE[self.players]

    def side_of(self, seat: int) -> int:
        """1 if ``seat`` is in the attack (taker or partner), else 0."""
        return 1 if seat == self.taker or seat == self.partner else 0

    def trick_no(self) -> int:
        """Number of completed tricks."""
        return self.tricks_won[0] + self.tricks_won[1]

    def lead_forbidden(self) -> int:
        """Cards the current leader may not lead (TAROT-CALL-6; first lead of a 5p deal)."""
        if (self.players == 5 and not self.trick and self.trick_no() == 0
                and self.options["five_player_first_lead_restriction"]):
            return first_lead_forbidden(self.called_card)
        return 0

    # --- the state API ------------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        ph = self.phase
        if ph == "play" or ph == "show":
            return (self.leader + len(self.trick)) % self.players
        if ph == "bid":
            return (self.eldest + len(self.auction)) % self.players
        if ph == "over":
            return None
        return self.taker

    def legal_moves(self) -> list[Move]:
        ph = self.phase
        if ph == "play":
            seat = (self.leader + len(self.trick)) % self.players
            hand = self.hands[seat]
            moves = [CARD_MOVES[c] for c in bit_list(legal_cards(hand, self.trick,
                                                                self.lead_forbidden()))]
            if self.trick_no() == 0 and not self.from_position:
                moves = self._announcements(seat) + moves
            return moves
        if ph == "show":
            return [SHOW_MOVES[c] for c in bit_list(self._showable())]
        if ph == "bid":
            best = max((CONTRACTS.index(b) for _, b in self.auction if b != "pass"),
                       default=-1)
            lowest = 0 if self.options["allow_prise"] else 1
            return [BID_MOVES["pass"]] + [BID_MOVES[c] for c in
                                          CONTRACTS[max(best + 1, lowest):]]
        if ph == "call":
            rank = self._call_rank()
            return [CALL_MOVES[22 + 14 * s + rank] for s in range(4)]
        if ph == "ecart":
            return [DISCARD_MOVES[c] for c in bit_list(self._discardable())]
        if ph == "chelem":
            return list(CHELEM_MOVES)
        return []

    def _announcements(self, seat: int) -> list[Move]:
        """Poignée and misère announcements open at ``seat``'s turn in the first trick
        (TAROT-ANN-5, TAROT-ANN-9)."""
        out = []
        hand = self.hands[seat]
        if all(p[0] != seat for p in self.poignees):
            avail = self._poignee_pool(seat).bit_count()
            has_ex = bool(hand & EXCUSE_BIT)
            for level, t in zip(POIGNEE_LEVELS, POIGNEE_THRESHOLDS[self.players], strict=True):
                if avail >= t or (avail == t - 1 and has_ex):
                    out.append(POIGNEE_MOVES[level])
        if self.options["misere"] == "on":
            done = {k for s, k, _ in self.miseres if s == seat}
            if "trump" not in done and not hand & (TRUMP_MASK | EXCUSE_BIT):
                out.append(MISERE_MOVES["trump"])
            if "head" not in done and not hand & HEADS_MASK:
                out.append(MISERE_MOVES["head"])
        return out

    def _poignee_pool(self, seat: int) -> int:
        """Trumps ``seat`` may show: its hand's, plus for the taker the trumps forced into
        the écart (TAROT-ANN-5, FFT)."""
        pool = self.hands[seat] & TRUMP_MASK
        if seat == self.taker:
            pool |= self.ecart & TRUMP_MASK
        return pool

    def _showable(self) -> int:
        seat, level, shown = self.showing
        pool = self._poignee_pool(seat)
        t = POIGNEE_THRESHOLDS[self.players][POIGNEE_LEVELS.index(level)]
        if pool.bit_count() < t:  # t - 1 trumps and EX: all of them (TAROT-ANN-5)
            pool |= EXCUSE_BIT
        return pool & ~shown

    def _call_rank(self) -> int | None:
        """Rank the 5p taker must call (TAROT-CALL-2), None when he plays alone."""
        hand = self.hands[self.taker]
        for rank in (RANK_K, RANK_Q, RANK_N):
            rmask = _rank_mask(rank)
            if hand & rmask != rmask:
                return rank
        return None if self.options["five_player_lowest_call"] == "alone" else RANK_J

    def _discardable(self) -> int:
        """Cards the taker may discard next (TAROT-DOG-2): low cards first; trumps
        T2..T20 only when the low cards cannot fill the écart."""
        hand = self.hands[self.taker]
        left = self.dog_size - self.ecart.bit_count()
        low = hand & ~(TRUMP_MASK | EXCUSE_BIT | KINGS_MASK)
        if low.bit_count() >= left:
            return low
        return low | (hand & MIDDLE_TRUMPS)

    def _apply(self, move: Move) -> None:
        kind = move.kind
        if kind == "card":
            self._play_card(move.value)
        elif kind == "bid":
            self._bid(move.value)
        elif kind == "call":
            self.called_card = card = move.value
            # TAROT-CALL-3/4/5: the holder is the partner (the taker cannot give cards
            # away, so this is also the holder at the start of play)
            holder = next((s for s, h in enumerate(self.hands) if h >> card & 1), None)
            self.partner = None if holder == self.taker else holder
            self._after_call()
        elif kind == "discard":
            bit = 1 << move.value
            self.hands[self.taker] &= ~bit
            self.ecart |= bit
            if bit & TRUMP_MASK:
                self.ecart_shown |= bit  # TAROT-DOG-2: shown to all
            if self.ecart.bit_count() == self.dog_size:
                self.phase = "chelem"
        elif kind == "chelem":
            self._start_play(bool(move.value))
        elif kind == "poignee":
            self.showing = (self.to_act, move.value, 0)
            self.phase = "show"
        elif kind == "show":
            seat, level, shown = self.showing
            shown |= 1 << move.value
            t = POIGNEE_THRESHOLDS[self.players][POIGNEE_LEVELS.index(level)]
            if shown.bit_count() == t:
                self.poignees.append((seat, level, shown))
                self.showing = None
                self.phase = "play"
            else:
                self.showing = (seat, level, shown)
        elif kind == "misere":
            seat = self.to_act
            self.miseres.append((seat, move.value, self.hands[seat]))
        else:  # pragma: no cover - legal_moves never offers other kinds
            raise IllegalMoveError(f"unknown move kind {kind!r}")

    def _bid(self, bid: str) -> None:
        self.auction.append((self.to_act, bid))
        if len(self.auction) < self.players:
            return
        bids = [(CONTRACTS.index(b), s) for s, b in self.auction if b != "pass"]
        if not bids:  # TAROT-BID-3
            self.annulled = "all_pass"
            self.phase = "over"
            return
        rank, self.taker = max(bids)
        self.contract = CONTRACTS[rank]
        if self.players == 5 and self._call_rank() is not None:
            self.phase = "call"  # TAROT-CALL-1: before the dog is revealed
        else:
            self._after_call()

    def _after_call(self) -> None:
        if self.contract in ("prise", "garde"):  # TAROT-DOG-1
            self.dog_shown = True
            self.hands[self.taker] |= self.dog
            self.phase = "ecart"
        else:  # TAROT-DOG-3/4: the dog stays face down
            self.phase = "chelem"

    def _start_play(self, chelem: bool) -> None:
        self.chelem_announced = chelem
        self.leader = self.taker if chelem else self.eldest  # TAROT-ANN-2
        self.phase = "play"

    def _play_card(self, card: int) -> None:
        seat = (self.leader + len(self.trick)) % self.players
        self.hands[seat] &= ~(1 << card)
        self.trick.append((seat, card))
        if len(self.trick) == self.players:
            self._resolve_trick()

    def _resolve_trick(self) -> None:
        trick = self.trick
        k = self.trick_no()
        last = not any(self.hands)
        ex_seat = next((s for s, c in trick if c == EXCUSE), None)
        exc6 = (last and ex_seat is not None
                and self.tricks_won[1 - self.side_of(ex_seat)] == 0)  # TAROT-EXC-6
        winner = trick_winner(trick, excuse_wins=exc6)
        wside = self.side_of(winner)
        mask = 0
        for _, c in trick:
            mask |= 1 << c
        if ex_seat is not None and not exc6:
            exside = self.side_of(ex_seat)
            mask &= ~EXCUSE_BIT
            if last:  # TAROT-EXC-5
                dest = (1 - exside if self.options["excuse_last_trick"] == "changes_side"
                        else wside)
                self.won[dest] |= EXCUSE_BIT
            else:  # TAROT-EXC-3: EX stays with its owner's side
                self.won[exside] |= EXCUSE_BIT
                if exside != wside:
                    self.excuse_owed = exside
        self.won[wside] |= mask
        self.tricks_won[wside] += 1
        if mask & 1:  # T1
            self.petit_trick = (k, wside)
        if self.excuse_owed is not None:  # TAROT-EXC-3/4: give a half-point card
            owner = self.excuse_owed
            half = self.won[owner] & HALF_MASK
            if half:
                low = half & -half
                self.won[owner] ^= low
                self.won[1 - owner] |= low
                self.excuse_owed = None
        self.tricks.append((trick, winner))
        self.trick = []
        self.leader = winner
        if last:
            pt = self.petit_trick
            if pt is not None and (pt[0] == k or (exc6 and pt[0] == k - 1 and pt[1] == wside)):
                self.petit_au_bout = 1 if pt[1] == 1 else -1  # TAROT-SCORE-3
            self.phase = "over"

    # --- counting and scores ------------------------------------------------------
    def attack_pile(self) -> int:
        """Cards counted for the attack (TAROT-COUNT-1): tricks, écart or garde-sans dog."""
        pile = self.won[1]
        if self.contract in ("prise", "garde"):
            pile |= self.ecart
        elif self.contract == "garde_sans":
            pile |= self.dog
        return pile

    def defence_pile(self) -> int:
        pile = self.won[0]
        if self.contract == "garde_contre":
            pile |= self.dog
        return pile

    def count(self) -> Count:
        """Count a finished (or played-out) deal's piles (TAROT-COUNT-1..4)."""
        if self.contract is None:
            raise AtoutError("no contract: the deal was annulled or the auction is not over")
        p2, bouts = count_piles(self.attack_pile(), self.excuse_owed)
        return Count(p2, bouts, self.petit_au_bout, self.tricks_won[1], self.tricks_won[0])

    def contract_made(self) -> bool | None:
        """Whether the taker made the contract (TAROT-COUNT-4); None without a contract
        or before the end of the deal."""
        if self.phase != "over" or self.annulled or self.contract is None:
            return None
        c = self.count()
        return contract_result(c.points, c.bouts)[0]

    def scores(self) -> list[int]:
        if self.phase != "over":
            raise AtoutError("the deal is not over")
        if self.annulled:  # TAROT-SCORE-7: annulled deals score 0
            return [0] * self.players
        c = self.count()
        bonuses = self.options["poignee_bonuses"]
        poignee = sum(bonuses[POIGNEE_LEVELS.index(lv)] for _, lv, _ in self.poignees)
        return score_deal(self.players, self.contract, c.points, c.bouts, taker=self.taker,
                          partner=self.partner, petit_au_bout=c.petit_au_bout,
                          poignee=poignee, chelem_announced=self.chelem_announced,
                          attack_all_tricks=c.attack_all, defence_all_tricks=c.defence_all,
                          misere=[s for s, _, _ in self.miseres], options=self.options)

    # --- information ----------------------------------------------------------------
    def partner_known_to(self, seat: int) -> bool:
        """Whether ``seat`` knows who the 5p partner is (TAROT-CALL-5)."""
        if self.called_card is None or self.phase == "over":
            return True
        bit = 1 << self.called_card
        if self.dog_shown and self.dog & bit:
            return True
        if any(c == self.called_card for t, _ in self.tricks for _, c in t) or \
                any(c == self.called_card for _, c in self.trick):
            return True
        return bool(self.hands[seat] & bit)

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` knows: own hand, public cards (shown dog, forced écart trumps,
        poignées, misère hands), auction, call, tricks; never other hands nor a hidden
        5p partner."""
        over = self.phase == "over"
        known = self.partner_known_to(seat)
        return {
            "seat": seat, "players": self.players, "dealer": self.dealer,
            "phase": self.phase, "to_act": self.to_act, "hand": self.hands[seat],
            "auction": list(self.auction), "contract": self.contract, "taker": self.taker,
            "called_card": self.called_card,
            "partner": self.partner if known else None, "partner_known": known,
            "dog": self.dog if (self.dog_shown or over) else None,
            "ecart": self.ecart if seat == self.taker else None,
            "ecart_shown": self.ecart_shown, "chelem_announced": self.chelem_announced,
            "poignees": list(self.poignees), "showing": self.showing,
            "miseres": list(self.miseres), "leader": self.leader,
            "trick": list(self.trick), "tricks": [(list(t), w) for t, w in self.tricks],
            "annulled": self.annulled,
            "petit_sec": {s: self.initial_hands[s] for s in self.petit_sec_seats},
        }

    # --- notation -------------------------------------------------------------------
    def move_token(self, move: Move) -> str:
        kind, v = move.kind, move.value
        if kind == "card":
            return TAROT_DECK.token(v)
        if kind == "bid":
            return v
        if kind == "chelem":
            return "chelem" if v else "no_chelem"
        if kind in ("call", "discard", "show"):
            return f"{kind}:{TAROT_DECK.token(v)}"
        if kind in ("poignee", "misere"):
            return f"{kind}:{v}"
        raise NotationError("not a tarot move", repr(move))

    def parse_move(self, token: str) -> Move:
        return parse_move(token)

    def to_record(self) -> Record:
        if self.from_position:
            raise AtoutError("a position built with TarotState.for_play has no deal record")
        hands = [bit_list(h) for h in self.initial_hands]
        record = Record(NAME, non_default_options(self.options), self.dealer,
                        Deal(hands, {"dog": list(self.dog_order)}),
                        [self.move_token(m) for m in self.history])
        if self.phase == "over":
            record.tags["Result"] = " ".join(str(s) for s in self.scores())
        return record

    # --- speed: shallow snapshots (all nested values are immutable) -------------------
    def _snapshot(self) -> dict[str, Any]:
        d = self.__dict__.copy()
        del d["_undo_stack"], d["history"]
        for k in _LIST_ATTRS:
            d[k] = d[k].copy()
        return d

    def copy(self, undo: bool = True) -> TarotState:
        """An independent copy; ``undo=False`` leaves out the undo history (a sampled
        world is solved, never undone, and copying it was a sixth of a decision)."""
        new = object.__new__(type(self))
        new.__dict__ = self._snapshot()
        new.history = self.history.copy()
        new._undo_stack = [{k: (v.copy() if k in _LIST_ATTRS else v) for k, v in s.items()}
                           for s in self._undo_stack] if undo else []
        return new

    # --- positions for analysis -----------------------------------------------------
    @classmethod
    def for_play(cls, hands: list[int], *, taker: int, contract: str = "garde",
                 partner: int | None = None, called_card: int | None = None,
                 leader: int | None = None, dealer: int | None = None,
                 trick: Sequence[tuple[int, int]] = (), won: tuple[int, int] = (0, 0),
                 tricks_won: tuple[int, int] = (0, 0), aside: int = 0,
                 chelem_announced: bool = False, excuse_owed: int | None = None,
                 petit_trick: tuple[int, int] | None = None,
                 options: dict[str, Any] | None = None) -> TarotState:
        """A play-phase position built directly (for analysis and the DD solver).

        ``hands``: current hand masks; ``trick``: trick in progress ((seat, card) pairs,
        its first seat is the leader); ``leader`` when no trick is in progress (default:
        the taker if ``chelem_announced`` and no trick was played, else the eldest, i.e.
        the seat after ``dealer``; ``dealer`` defaults to the seat before the taker);
        ``won``/``tricks_won``: captured cards and trick counts so far, per side
        (defence, attack); ``aside``: the écart (prise/garde) or the dog (garde sans/contre);
        ``petit_trick``: (trick number, side) if T1 was already captured. Hands may be
        partial (an ending); only duplicates are rejected. No poignée/misère window opens.
        """
        opts = resolve_options(options)
        n = opts["players"]
        if len(hands) != n:
            raise DealError(f"a {n}-player position needs {n} hands, got {len(hands)}")
        if contract not in CONTRACTS:
            raise AtoutError(f"unknown tarot contract {contract!r}")
        seen = 0
        for m in (*hands, aside, won[0], won[1], *(1 << c for _, c in trick)):
            if m & seen:
                raise DealError("a card appears twice in the position: "
                                + TAROT_DECK.format_cards(m & seen))
            seen |= m
        dealer = (taker - 1) % n if dealer is None else dealer
        st = cls(opts | {"petit_sec_redeal": False}, dealer, list(hands), [])
        st.options = opts
        st.from_position = True
        st.contract, st.taker, st.partner, st.called_card = contract, taker, partner, called_card
        st.auction = []
        st.chelem_announced = chelem_announced
        if contract in ("prise", "garde"):
            st.ecart, st.dog_shown = aside, True
        else:
            st.dog = aside
        st.won, st.tricks_won = list(won), list(tricks_won)
        st.excuse_owed, st.petit_trick = excuse_owed, petit_trick
        st.trick = list(trick)
        if trick:
            st.leader = trick[0][0]
        elif leader is not None:
            st.leader = leader
        elif chelem_announced and sum(tricks_won) == 0:
            st.leader = taker
        for s, _card in trick:  # the trick's cards are out of the hands already
            if not 0 <= s < n:
                raise DealError(f"seat {s} is not a seat of a {n}-player game")
        st.phase = "play"
        counts = {(h.bit_count() + any(s == seat for s, _ in trick)) for seat, h in
                  enumerate(hands)}
        if len(counts) != 1:
            raise DealError("hands of a position must have equal sizes (counting the "
                            "cards already in the trick)")
        if not any(hands) and not trick:
            st.phase = "over"
        return st


def _is_petit_sec(hand: int) -> bool:
    """TAROT-DEAL-3: exactly one trump, T1, and no EX."""
    return hand & (TRUMP_MASK | EXCUSE_BIT) == 1 << PETIT


def non_default_options(options: dict[str, Any]) -> dict[str, Any]:
    """Options that differ from the defaults (for records)."""
    return {k: v for k, v in options.items() if OPTIONS[k].default != v}


def parse_move(token: str) -> Move:
    """Move from its token (grammar in docs/NOTATION.md, "French Tarot")."""
    if token in BID_MOVES:
        return BID_MOVES[token]
    if token == "chelem":
        return CHELEM_MOVES[1]
    if token == "no_chelem":
        return CHELEM_MOVES[0]
    kind, sep, rest = token.partition(":")
    if sep:
        if kind in ("call", "discard", "show"):
            return Move(kind, TAROT_DECK.card(rest, len(kind) + 1))
        if kind == "poignee" and rest in POIGNEE_LEVELS:
            return POIGNEE_MOVES[rest]
        if kind == "misere" and rest in MISERE_KINDS:
            return MISERE_MOVES[rest]
        raise NotationError("not a tarot move", token)
    if TAROT_DECK.is_card_token(token):
        return CARD_MOVES[TAROT_DECK.card(token)]
    raise NotationError("not a tarot move", token)


def _check_deal(deal: Deal, n: int) -> tuple[list[int], list[int]]:
    """Validate a given deal (TAROT-DEAL-1); returns (hand masks, dog in order)."""
    if len(deal.hands) != n:
        raise DealError(f"a {n}-player tarot deal has {n} hands, got {len(deal.hands)}")
    unknown = set(deal.extras) - {"dog"}
    if unknown:
        raise DealError(f"unexpected pile(s) in a tarot deal: {', '.join(sorted(unknown))}")
    if "dog" not in deal.extras:
        raise DealError("the tarot deal has no dog pile ('| dog: ...')")
    seen = 0
    masks = []
    for seat, hand in enumerate(deal.hands):
        if len(hand) != HAND_SIZE[n]:
            raise DealError(f"seat {seat} has {len(hand)} cards, expected {HAND_SIZE[n]} "
                            f"with {n} players")
        masks.append(0)
        for c in hand:
            if not isinstance(c, int) or not 0 <= c < 78:
                raise DealError(f"seat {seat} holds a card that is not a tarot card: {c!r}")
            if seen >> c & 1:
                raise DealError(f"card dealt twice: {TAROT_DECK.token(c)}")
            seen |= 1 << c
            masks[seat] |= 1 << c
    dog = list(deal.extras["dog"])
    if len(dog) != DOG_SIZE[n]:
        raise DealError(f"the dog has {len(dog)} cards, expected {DOG_SIZE[n]} "
                        f"with {n} players")
    for c in dog:
        if not isinstance(c, int) or not 0 <= c < 78:
            raise DealError(f"the dog holds a card that is not a tarot card: {c!r}")
        if seen >> c & 1:
            raise DealError(f"card dealt twice: {TAROT_DECK.token(c)}")
        seen |= 1 << c
    return masks, dog


def deal_cards(players: int, seed: Any) -> Deal:
    """A uniformly random deal from ``seed`` (COMMON-RNG-1): a shuffled deck cut into the
    hands in seat order, then the dog."""
    cards = list(range(78))
    random.Random(seed).shuffle(cards)
    h = HAND_SIZE[players]
    return Deal([cards[i * h:(i + 1) * h] for i in range(players)],
                {"dog": cards[players * h:]})


def new_state(options: dict[str, Any] | None = None, dealer: int = 0, seed: Any = None,
              deal: Deal | None = None) -> TarotState:
    """A new deal: dealt from ``seed`` (None means seed 0) unless ``deal`` is given."""
    opts = resolve_options(options)
    n = opts["players"]
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
        raise OptionError(f"dealer {dealer!r} is not a seat of a {n}-player game (0..{n - 1})")
    if deal is None:
        deal = deal_cards(n, 0 if seed is None else seed)
    hands, dog = _check_deal(deal, n)
    return TarotState(opts, dealer, hands, dog)
