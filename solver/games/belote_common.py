"""What Belote and Coinche truly share: card tables per strain, play rules, trick
resolution, belote-rebelote, announces, the play phase of a deal and the multi-deal match.

Conventions (``solver/cards.py``): a card is ``8 * suit + rank`` with suits ``S H D C`` =
0..3 and natural ranks ``7 8 9 T J Q K A`` = 0..7; a card set is an ``int`` bit mask.
A *strain* is an ``int``: 0..3 = that suit is trumps, ``TA`` = 4 (all trumps),
``SA`` = 5 (no trumps). Card points are plain integers (every value in the rules is an
integer; no half points).

Pure functions usable without a state (the contract with the core / DD engineers):

* ``legal_cards(hand, trick, strain, undertrump_required=True, ta_must_overtake=True)``
  -> mask of the legal cards of the seat to play (BELOTE-PLAY-3/4, COINCHE-PLAY-3/4);
* ``trick_winner(trick, strain)`` -> seat (BELOTE-PLAY-5, COINCHE-PLAY-3/4);
* ``card_points(card, strain)`` and ``trick_points(trick, strain)`` -> int
  (BELOTE-CARD-2, COINCHE-CARD-3/4).

``trick`` is always a list of ``(seat, card)`` pairs in play order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..cards import BELOTE_DECK
from ..errors import AtoutError, DealError, IllegalMoveError, NotationError
from ..notation import Deal, Record
from ..options import Option, resolve
from .base import GameState, Move

DECK = BELOTE_DECK
SUITS = "SHDC"
RANKS = "789TJQKA"
TA = 4
SA = 5
STRAIN_NAMES = ("S", "H", "D", "C", "TA", "SA")
TEAMS = ((0, 2), (1, 3))  # COMMON-SEAT-4 / BELOTE-GEN-1: team of seat s is s % 2
SUIT_MASK = tuple(0xFF << (8 * s) for s in range(4))
R7, R8, R9, RT, RJ, RQ, RK, RA = range(8)

# BELOTE-CARD-2: order (high -> low) by natural rank index.
_TRUMP_ORDER = (RJ, R9, RA, RT, RK, RQ, R8, R7)
_PLAIN_ORDER = (RA, RT, RK, RQ, RJ, R9, R8, R7)
_TRUMP_POINTS = {RJ: 20, R9: 14, RA: 11, RT: 10, RK: 4, RQ: 3, R8: 0, R7: 0}
_PLAIN_POINTS = {RA: 11, RT: 10, RK: 4, RQ: 3, RJ: 2, R9: 0, R8: 0, R7: 0}
# COINCHE-CARD-3 (TA) and COINCHE-CARD-4 (SA).
_TA_POINTS = {RJ: 14, R9: 9, RA: 6, RT: 5, RK: 3, RQ: 1, R8: 0, R7: 0}
_SA_POINTS = {RA: 19, RT: 10, RK: 4, RQ: 3, RJ: 2, R9: 0, R8: 0, R7: 0}


def strain_of(token: str) -> int:
    """Strain index from its token (``S H D C TA SA``)."""
    try:
        return STRAIN_NAMES.index(token)
    except ValueError:
        raise NotationError("not a strain (S H D C TA SA)", token) from None


def is_trump(card: int, strain: int) -> bool:
    """A trump in this strain: the trump suit, every card in TA, none in SA."""
    return strain == TA or card >> 3 == strain


def _build_tables():
    power = [[0] * 32 for _ in range(6)]
    points = [[0] * 32 for _ in range(6)]
    for strain in range(6):
        for card in range(32):
            suit, rank = divmod(card, 8)
            trump = is_trump(card, strain)
            order = _TRUMP_ORDER if trump else _PLAIN_ORDER
            power[strain][card] = 7 - order.index(rank)  # 7 = highest
            if strain == TA:
                points[strain][card] = _TA_POINTS[rank]
            elif strain == SA:
                points[strain][card] = _SA_POINTS[rank]
            else:
                points[strain][card] = (_TRUMP_POINTS if trump else _PLAIN_POINTS)[rank]
    above = [[0] * 32 for _ in range(6)]
    for strain in range(6):
        for card in range(32):
            suit = card >> 3
            for other in range(8 * suit, 8 * suit + 8):
                if power[strain][other] > power[strain][card]:
                    above[strain][card] |= 1 << other
    return (tuple(map(tuple, power)), tuple(map(tuple, points)), tuple(map(tuple, above)))


POWER, POINTS, ABOVE = _build_tables()
"""``POWER[strain][card]`` 0..7 within its suit; ``POINTS[strain][card]``; ``ABOVE[strain][card]``
= mask of the cards of the same suit that beat it in that strain."""


def card_points(card: int, strain: int) -> int:
    """Card points of one card in a strain (BELOTE-CARD-2, COINCHE-CARD-3/4)."""
    return POINTS[strain][card]


def trick_points(trick: list[tuple[int, int]], strain: int) -> int:
    """Sum of the card points of a trick (no dix de der)."""
    return sum(POINTS[strain][c] for _, c in trick)


def _winning_index(trick: list[tuple[int, int]], strain: int) -> int:
    """Index in ``trick`` of the card currently winning it (BELOTE-PLAY-5)."""
    led = trick[0][1] >> 3
    best, best_key = 0, -1
    pw = POWER[strain]
    for i, (_, card) in enumerate(trick):
        suit = card >> 3
        if strain < 4 and suit == strain:
            key = 16 + pw[card]  # BELOTE-CARD-4: any trump beats any non-trump
        elif suit == led:
            key = pw[card]
        else:
            continue  # another suit, not trump: never wins
        if key > best_key:
            best, best_key = i, key
    return best


def trick_winner(trick: list[tuple[int, int]], strain: int) -> int:
    """Seat winning a (possibly partial) trick: highest trump, else highest of the led suit
    (BELOTE-PLAY-5; COINCHE-PLAY-3 in TA and COINCHE-PLAY-4 in SA)."""
    return trick[_winning_index(trick, strain)][0]


def legal_cards(hand: int, trick: list[tuple[int, int]], strain: int,
                undertrump_required: bool = True, ta_must_overtake: bool = True) -> int:
    """Mask of the cards of ``hand`` the next seat may play to ``trick``.

    The seat to play is the one after the last card of ``trick`` (COMMON-SEAT-1); an
    empty trick means a lead (BELOTE-PLAY-2: any card).
    """
    if not trick:
        return hand
    lead = trick[0][1]
    led = lead >> 3
    follow = hand & SUIT_MASK[led]
    wi = _winning_index(trick, strain)
    win_seat, win_card = trick[wi]
    if strain == SA:  # COINCHE-PLAY-4: follow suit, no obligation to beat
        return follow or hand
    if strain == TA:  # COINCHE-PLAY-3: follow and beat the highest card of the led suit
        if not follow:
            return hand
        if ta_must_overtake:
            return (follow & ABOVE[TA][win_card]) or follow
        return follow
    # Suit contract: BELOTE-PLAY-3.
    trumps = hand & SUIT_MASK[strain]
    if led == strain:  # 3.1 trump led: overtrump if possible, even over the partner
        if follow:
            return (follow & ABOVE[strain][win_card]) or follow
        return hand
    if follow:  # 3.1 plain suit led: follow, any card of it
        return follow
    seat = (trick[-1][0] + 1) % 4
    if win_seat % 2 == seat % 2:  # 3.2 partner master: any card
        return hand
    if not trumps:
        return hand
    if win_card >> 3 != strain:  # trick not trumped yet: must trump (any)
        return trumps
    over = trumps & ABOVE[strain][win_card]
    if over:
        return over
    # BELOTE-PLAY-4: cannot overtrump the opponent's trump.
    return trumps if undertrump_required else hand


# --- belote-rebelote --------------------------------------------------------

def belote_suits(hand: int, strain: int, ta_belote: str = "each_suit") -> list[int]:
    """Suits in which ``hand`` holds a belote (K and Q): the trump suit in a suit contract
    (BELOTE-BR-1/4), each suit in TA with ``ta_belote=each_suit`` (COINCHE-ANN-3), none in
    SA."""
    if strain == SA or (strain == TA and ta_belote == "none"):
        return []
    suits = range(4) if strain == TA else [strain]
    kq = (1 << RK) | (1 << RQ)
    return [s for s in suits if (hand >> (8 * s)) & kq == kq]


# --- announces (BELOTE-ANN) -------------------------------------------------

SEQ_NAMES = {3: "tierce", 4: "quarte", 5: "quinte"}
SEQ_POINTS = {"tierce": 20, "quarte": 50, "quinte": 100}
_CARRE_RANKS = (RJ, R9, RA, RT, RK, RQ)  # four 8s or four 7s are not an announce
_CARRE_ORDER = {RA: 4, RT: 3, RK: 2, RQ: 1, RJ: 0, R9: 0}  # BELOTE-ANN-7 step 3


@dataclass(frozen=True)
class Announce:
    """One announced combination: its seat, kind ('tierce'..'quinte' or 'carre'), the
    identifying card (top card of a sequence) or rank (carré), its cards and points."""

    seat: int
    kind: str
    ident: int
    cards: int
    points: int

    @property
    def is_carre(self) -> bool:
        return self.kind == "carre"

    def key(self, strain: int, first_leader: int, tie_by_order: bool = True) -> tuple:
        """BELOTE-ANN-7 comparison key (higher wins); total order with step 5."""
        if self.is_carre:
            third = _CARRE_ORDER[self.ident]
            trumpish = 0
        else:
            third = self.ident & 7  # natural rank of the top card (BELOTE-CARD-5)
            # step 4: a sequence of trumps beats one that is not; never in TA/SA
            # (COINCHE-ANN-1).
            trumpish = 1 if strain < 4 and self.ident >> 3 == strain else 0
        base = (self.points, 1 if self.is_carre else 0, third, trumpish)
        if not tie_by_order:
            return base
        return (*base, -((self.seat - first_leader) % 4))

    def public_name(self) -> str:
        """What the other players hear (BELOTE-ANN-5): the type, and the rank of a carré."""
        if self.is_carre:
            return f"carre:{RANKS[self.ident]}"
        return self.kind

    def token(self) -> str:
        if self.is_carre:
            return f"announce:carre:{RANKS[self.ident]}"
        return f"announce:{self.kind}:{DECK.token(self.ident)}"


def carre_points(rank: int, carre_100_ranks_value: int = 100) -> int:
    """BELOTE-ANN-2/3: J 200, 9 150, A T K Q 100 (or 50)."""
    if rank == RJ:
        return 200
    if rank == R9:
        return 150
    return carre_100_ranks_value


def sequence_runs(mask: int) -> list[tuple[int, int]]:
    """Maximal runs of 3 or more cards of one suit in natural order (BELOTE-ANN-2) in
    ``mask``: ``(top card, bottom card)`` per run."""
    out = []
    for suit in range(4):
        bits = (mask >> (8 * suit)) & 0xFF
        rank = 0
        while rank < 8:
            if bits >> rank & 1:
                start = rank
                while rank < 8 and bits >> rank & 1:
                    rank += 1
                if rank - start >= 3:
                    out.append((8 * suit + rank - 1, 8 * suit + start))
            else:
                rank += 1
    return out


def available_announces(hand: int, seq_used: int, carre_used: int, exclusive: bool,
                        carre_100_ranks_value: int = 100) -> list[tuple[str, int, int, int]]:
    """Combinations still announceable from ``hand`` given the cards already used
    (BELOTE-ANN-2/4): ``(kind, ident, cards, points)``. Sequences are maximal runs in
    natural order (a run longer than 5 is one quinte, never split); with the default
    reuse a card may serve in one sequence and one carré, with ``exclusive`` in one
    announce only."""
    out = []
    seq_free = hand & ~seq_used & ~(carre_used if exclusive else 0)
    carre_free = hand & ~carre_used & ~(seq_used if exclusive else 0)
    for top, bottom in sequence_runs(seq_free):
        length = top - bottom + 1
        kind = SEQ_NAMES[min(length, 5)]
        cards = ((1 << length) - 1) << bottom
        out.append((kind, top, cards, SEQ_POINTS[kind]))
    for rank in _CARRE_RANKS:
        cards = sum(1 << (8 * s + rank) for s in range(4))
        if carre_free & cards == cards:
            out.append(("carre", rank, cards, carre_points(rank, carre_100_ranks_value)))
    return out


def announce_winner(announces: list[Announce], strain: int, first_leader: int,
                    compare: str = "best_single", tie: str = "trump_then_order"
                    ) -> tuple[int | None, int]:
    """Team that scores announces and the points it scores (BELOTE-ANN-6/7/8).

    ``best_single``: the team holding the single best announce scores all its
    announces; ``team_total``: the higher team sum scores (equal sums: nobody).
    """
    if not announces:
        return None, 0
    sums = [0, 0]
    for a in announces:
        sums[a.seat % 2] += a.points
    if compare == "team_total":
        if sums[0] == sums[1]:
            return None, 0
        team = 0 if sums[0] > sums[1] else 1
        return team, sums[team]
    by_order = tie == "trump_then_order"
    keys = [(a.key(strain, first_leader, by_order), a.seat % 2) for a in announces]
    best = max(k for k, _ in keys)
    teams = {t for k, t in keys if k == best}
    if len(teams) > 1:  # only possible with announce_tie=none_scores (step 5)
        return None, 0
    team = teams.pop()
    return team, sums[team]


# --- options ------------------------------------------------------------------

def play_options(announces_default: bool) -> dict[str, Option]:
    """The ``belote.*`` play options that Coinche inherits (README option table)."""
    return {
        "direction": Option("counterclockwise", ("counterclockwise", "clockwise"),
                            "COMMON-SEAT-2", "physical direction only; seat numbering unchanged"),
        "first_lead": Option("eldest", ("eldest", "dealer"), "BELOTE-PLAY-1"),
        "undertrump_required": Option(True, (True, False), "BELOTE-PLAY-4"),
        "announces": Option(announces_default, (True, False), "BELOTE-ANN-1"),
        "announce_compare": Option("best_single", ("best_single", "team_total"),
                                   "BELOTE-ANN-6"),
        "announce_tie": Option("trump_then_order", ("trump_then_order", "none_scores"),
                               "BELOTE-ANN-7"),
        "announce_card_reuse": Option("carre_and_sequence", ("carre_and_sequence", "exclusive"),
                                      "BELOTE-ANN-4"),
        "carre_100_ranks_value": Option(100, (100, 50), "BELOTE-ANN-3"),
        "belote_optional": Option(False, (True, False), "BELOTE-BR-2"),
    }


def round_nearest_10(x: int) -> int:
    """BELOTE-SCORE-8 / COINCHE-SCORE-7: nearest 10, a final 5 rounds up."""
    return (x + 5) // 10 * 10


# --- the play phase ---------------------------------------------------------------

class TrickPlayState(GameState):
    """The part of a Belote or Coinche deal both games share: card play (with announces in
    trick 1 and belote-rebelote) on a fixed strain.

    State attributes (stable, for the core and DD engineers):

    * ``phase``: ``'bid'`` (taking / auction), ``'play'``, ``'over'``;
    * ``hands: list[int]`` current hand masks per seat; ``trick: list[(seat, card)]`` the
      trick in progress; ``tricks: list[(trick, winner)]`` completed tricks; ``leader``;
    * ``strain`` (0..3 suit, 4 TA, 5 SA, None before the contract), ``taker``,
      ``attack`` (= taker % 2, team 0 = seats {0,2}), ``points: [team0, team1]`` card
      points captured so far (without dix de der), ``tricks_won: [team0, team1]``;
    * ``belote_said: list[(seat, suit)]`` belotes declared so far (20 each);
    * ``announces: list[Announce]``; ``announce_team`` / ``announce_points`` once trick 1
      is complete.

    During trick 1 with announces on, a seat that has not played yet may make announce
    moves before its card (BELOTE-ANN-5); playing its card closes its announces. With
    ``belote_optional`` the first of the belote K/Q can be played as ``belote:KH``
    (declared) or ``KH`` (silent).
    """

    NAME = ""
    OPTION_SPEC: dict[str, Option] = {}

    def __init__(self, options: dict[str, Any] | None = None, dealer: int = 0) -> None:
        super().__init__()
        self.options = resolve(self.OPTION_SPEC, options, self.NAME)
        if not isinstance(dealer, int) or not 0 <= dealer < 4:
            raise DealError(f"dealer must be a seat 0..3, got {dealer!r}")
        self.dealer = dealer
        self.phase = "bid"
        self.hands = [0, 0, 0, 0]
        self.trick: list[tuple[int, int]] = []
        self.tricks: list[tuple[list[tuple[int, int]], int]] = []
        self.leader = (dealer + 1) % 4
        self.strain: int | None = None
        self.taker: int | None = None
        self.points = [0, 0]
        self.tricks_won = [0, 0]
        self.start_hands = [0, 0, 0, 0]
        self.first_leader = self.leader
        self.announces: list[Announce] = []
        self.seq_used = [0, 0, 0, 0]
        self.carre_used = [0, 0, 0, 0]
        self.announce_team: int | None = None
        self.announce_points = 0
        self.belote_pending: list[tuple[int, int]] = []  # eligible (seat, suit), undeclared
        self.belote_said: list[tuple[int, int]] = []
        self.belote_forgone: list[tuple[int, int]] = []
        self.annulled = False
        self._current: int | None = None
        self.result: dict[str, Any] | None = None

    # --- analysis constructor -------------------------------------------------------
    @classmethod
    def from_play(cls, hands: list[int], strain: int, taker: int, *, dealer: int = 0,
                  options: dict[str, Any] | None = None, leader: int | None = None,
                  points: tuple[int, int] = (0, 0), tricks_won: tuple[int, int] = (0, 0),
                  belote_said: tuple = (), announce: tuple[int | None, int] = (None, 0),
                  **contract: Any) -> TrickPlayState:
        """A play-phase state built directly from hand masks (for analysis and DD).

        ``hands``: 4 masks of equal size (8 minus the tricks already played), no trick in
        progress. ``strain`` 0..3 / 4 TA / 5 SA, ``taker`` seat; ``leader`` defaults to the
        first lead of BELOTE-PLAY-1. For a mid-deal position give ``points`` and
        ``tricks_won`` already captured per team, ``belote_said`` ((seat, suit) pairs
        already declared) and ``announce`` (team, points). ``contract``: per game (Coinche
        ``value``, ``multiplier``; Belote ``turned``). Announces are only possible at 8
        cards. Such a state has no deal record (``to_record`` raises DealError).
        """
        hands = [int(h) for h in hands]
        if len(hands) != 4:
            raise DealError("from_play needs 4 hands")
        sizes = {h.bit_count() for h in hands}
        size = sizes.pop() if len(sizes) == 1 else -1
        if not 1 <= size <= 8 or size + sum(tricks_won) != 8:
            raise DealError("hands must have equal sizes (1..8), 8 minus the tricks already "
                            "played")
        if any(hands[i] & hands[j] for i in range(4) for j in range(i + 1, 4)):
            raise DealError("a card is in two hands")
        if strain not in range(6) or taker not in range(4):
            raise DealError("strain must be 0..5 and taker a seat 0..3")
        self = cls.__new__(cls)
        TrickPlayState.__init__(self, options, dealer)
        self.deal = None
        self.from_position = True
        self.hands = hands
        self._init_position(**contract)
        self._begin_play(strain, taker)
        if hands[0].bit_count() < 8:
            self.options = dict(self.options, announces=False)
        if leader is not None:
            if leader not in range(4):
                raise DealError("leader must be a seat 0..3")
            self.leader = self.first_leader = self._current = leader
        self.points = list(points)
        self.tricks_won = list(tricks_won)
        self.belote_said = list(belote_said)
        self.announce_team, self.announce_points = announce
        return self

    def _init_position(self, **contract: Any) -> None:
        """from_play hook: set the game's contract attributes."""

    # --- engine hooks -------------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        return None if self.phase == "over" else self._current

    @property
    def attack(self) -> int | None:
        return None if self.taker is None else self.taker % 2

    def side_of(self, seat: int) -> int:
        """1 for the attack (the taker's team, whose card points the DD solver
        maximises, BELOTE-GEN-2), 0 for the defence."""
        if self.taker is None:
            raise AtoutError("no contract yet: sides are not known")
        return 1 if seat % 2 == self.taker % 2 else 0

    def contract_made(self) -> bool | None:
        """Whether the attack made its contract (BELOTE-SCORE-3, COINCHE-MADE-2/3); a
        litige counts as not made. None while the deal is not over or when there is no
        contract (annulled deal)."""
        if self.phase != "over" or self.annulled or not self.result:
            return None
        return self.result.get("outcome") == "made"

    def _snapshot(self) -> dict[str, Any]:
        # Top-level containers are copied; nested values are never mutated in place.
        return {k: (v.copy() if isinstance(v, list | dict) else v)
                for k, v in self.__dict__.items() if k not in ("_undo_stack", "history")}

    def _ta_belote(self) -> str:
        return self.options.get("ta_belote", "each_suit")

    def _begin_play(self, strain: int, taker: int) -> None:
        """Enter the play phase on the current (8-card) hands."""
        self.strain = strain
        self.taker = taker
        self.phase = "play"
        self.start_hands = list(self.hands)
        # BELOTE-PLAY-1 / COINCHE-PLAY-1: eldest leads, or the dealer (first_lead).
        self.leader = self.dealer if self.options["first_lead"] == "dealer" \
            else (self.dealer + 1) % 4
        self.first_leader = self.leader
        self._current = self.leader
        # BELOTE-BR-1: held in the final 8-card hand.
        self.belote_pending = [(s, suit) for s in range(4)
                               for suit in belote_suits(self.hands[s], strain, self._ta_belote())]

    def _in_announce_window(self, seat: int) -> bool:
        return (self.options["announces"] and not self.tricks
                and all(s != seat for s, _ in self.trick)
                and self.start_hands[seat].bit_count() == 8)

    def _announce_moves(self, seat: int) -> list[Move]:
        avail = available_announces(self.start_hands[seat], self.seq_used[seat],
                                    self.carre_used[seat],
                                    self.options["announce_card_reuse"] == "exclusive",
                                    self.options["carre_100_ranks_value"])
        return [Move("announce", (kind, ident)) for kind, ident, _, _ in avail]

    def _play_moves(self) -> list[Move]:
        seat = self._current
        mask = legal_cards(self.hands[seat], self.trick, self.strain,
                           self.options["undertrump_required"],
                           self.options.get("ta_must_overtake", True))
        moves = []
        optional = self.options["belote_optional"]
        for card in DECK.cards(mask):
            moves.append(Move("card", card))
            if optional and (seat, card >> 3) in self.belote_pending \
                    and card & 7 in (RK, RQ):
                moves.append(Move("belote", card))
        if self._in_announce_window(seat):
            moves = self._announce_moves(seat) + moves
        return moves

    def _apply_announce(self, seat: int, kind: str, ident: int) -> None:
        avail = available_announces(self.start_hands[seat], self.seq_used[seat],
                                    self.carre_used[seat],
                                    self.options["announce_card_reuse"] == "exclusive",
                                    self.options["carre_100_ranks_value"])
        for k, i, cards, pts in avail:
            if (k, i) == (kind, ident):
                self.announces.append(Announce(seat, k, i, cards, pts))
                if k == "carre":
                    self.carre_used[seat] |= cards
                else:
                    self.seq_used[seat] |= cards
                return
        raise IllegalMoveError("announce not available")  # unreachable after play() checks

    def _apply_card(self, seat: int, card: int, declare: bool) -> None:
        # Belote-rebelote: said with the first of K/Q (BELOTE-BR-1/2).
        pair = (seat, card >> 3)
        if pair in self.belote_pending and card & 7 in (RK, RQ):
            self.belote_pending = [p for p in self.belote_pending if p != pair]
            if declare or not self.options["belote_optional"]:
                self.belote_said = self.belote_said + [pair]
            else:
                self.belote_forgone = self.belote_forgone + [pair]
        self.hands[seat] &= ~(1 << card)
        self.trick.append((seat, card))
        if len(self.trick) < 4:
            self._current = (seat + 1) % 4
            return
        winner = trick_winner(self.trick, self.strain)
        self.points[winner % 2] += trick_points(self.trick, self.strain)
        self.tricks_won[winner % 2] += 1
        self.tricks.append((self.trick, winner))
        self.trick = []
        self.leader = winner
        self._current = winner
        if len(self.tricks) == 1 and self.options["announces"]:
            self.announce_team, self.announce_points = announce_winner(
                self.announces, self.strain, self.first_leader,
                self.options["announce_compare"], self.options["announce_tie"])
        if not any(self.hands):
            self.phase = "over"
            self._current = None
            self._finish()

    def _apply_play(self, move: Move) -> None:
        seat = self._current
        if move.kind == "announce":
            self._apply_announce(seat, *move.value)
        else:
            self._apply_card(seat, move.value, move.kind == "belote")

    def _finish(self) -> None:
        """Score the finished deal into ``self.result`` (per game)."""
        raise NotImplementedError

    # --- what both games count ------------------------------------------------------
    def card_points_final(self, capot_points: int = 252) -> list[int]:
        """Card points per team including dix de der (BELOTE-SCORE-1), or the capot value
        for a team that won every trick (BELOTE-SCORE-4, COINCHE-CARD-5)."""
        pts = list(self.points)
        pts[0] += self.bonus_der(0)
        pts[1] += self.bonus_der(1)
        for team in (0, 1):
            if self.tricks_won[team] == 8:
                pts[team], pts[1 - team] = capot_points, 0
        return pts

    def bonus_der(self, team: int) -> int:
        return 10 if self.tricks and self.tricks[-1][1] % 2 == team else 0

    def belote_points(self) -> list[int]:
        """20 per declared belote, per team (BELOTE-BR-3, COINCHE-ANN-3)."""
        out = [0, 0]
        for seat, _ in self.belote_said:
            out[seat % 2] += 20
        return out

    def announce_points_team(self) -> list[int]:
        out = [0, 0]
        if self.announce_team is not None:
            out[self.announce_team] = self.announce_points
        return out

    def scores(self) -> list[float]:
        """This deal's written points per seat (team A on seats 0 and 2)."""
        if self.phase != "over":
            raise AtoutError("the deal is not over")
        t = self.result["written"] if self.result else [0, 0]
        return [t[0], t[1], t[0], t[1]]

    # --- notation ---------------------------------------------------------------
    def move_token(self, move: Move) -> str:
        if move.kind == "card":
            return DECK.token(move.value)
        if move.kind == "belote":
            return f"belote:{DECK.token(move.value)}"
        if move.kind == "announce":
            kind, ident = move.value
            if kind == "carre":
                return f"announce:carre:{RANKS[ident]}"
            return f"announce:{kind}:{DECK.token(ident)}"
        return self._auction_token(move)

    def parse_move(self, token: str) -> Move:
        if not isinstance(token, str) or not token:
            raise NotationError("empty move token", str(token))
        if DECK.is_card_token(token):
            return Move("card", DECK.card(token))
        head, _, rest = token.partition(":")
        if head == "belote" and DECK.is_card_token(rest):
            return Move("belote", DECK.card(rest))
        if head == "announce":
            kind, _, ident = rest.partition(":")
            if kind == "carre" and len(ident) == 1 and ident in RANKS:
                return Move("announce", ("carre", RANKS.index(ident)))
            if kind in SEQ_POINTS and DECK.is_card_token(ident):
                return Move("announce", (kind, DECK.card(ident)))
            raise NotationError("bad announce token (announce:tierce:KS, announce:carre:J)",
                                token)
        return self._parse_auction(token)

    def _auction_token(self, move: Move) -> str:
        raise NotationError("unknown move kind", move.kind)

    def _parse_auction(self, token: str) -> Move:
        raise NotationError(f"not a {self.NAME} move", token)

    def options_record(self) -> dict[str, Any]:
        """Options that differ from the defaults (for records)."""
        return {k: v for k, v in self.options.items() if self.OPTION_SPEC[k].default != v}

    # --- observation -------------------------------------------------------------
    def _public_move(self, seat: int, move: Move, observer: int) -> str:
        """A move as ``observer`` sees it: other seats' announces show only their type."""
        if move.kind == "announce" and seat != observer:
            kind, ident = move.value
            return "announce:" + (f"carre:{RANKS[ident]}" if kind == "carre" else kind)
        return self.move_token(move)

    def play_observation(self, seat: int) -> dict[str, Any]:
        """Public play-phase information plus ``seat``'s own hand."""
        shown = {}
        if self.tricks and self.announce_team is not None:
            # BELOTE-ANN-5: the winning team's announced cards are public from trick 2.
            for a in self.announces:
                if a.seat % 2 == self.announce_team:
                    shown.setdefault(a.seat, 0)
                    shown[a.seat] |= a.cards
        belotes = []
        for s, suit in self.belote_said:
            # BELOTE-BR-2: public from the first of K/Q; the other card's holder is known.
            belotes.append({"seat": s, "suit": SUITS[suit],
                            "cards": DECK.format_cards((1 << (8 * suit + RK))
                                                       | (1 << (8 * suit + RQ)))})
        return {
            "seat": seat,
            "phase": self.phase,
            "dealer": self.dealer,
            "hand": DECK.format_cards(self.hands[seat]),
            "strain": None if self.strain is None else STRAIN_NAMES[self.strain],
            "taker": self.taker,
            "leader": self.leader,
            "trick": [(s, DECK.token(c)) for s, c in self.trick],
            "tricks": [([(s, DECK.token(c)) for s, c in t], w) for t, w in self.tricks],
            "announces": [{"seat": a.seat, "announce": a.public_name()
                           if a.seat != seat else a.token()[len("announce:"):]}
                          for a in self.announces],
            "announce_team": self.announce_team if self.tricks else None,
            "shown": {s: DECK.format_cards(m) for s, m in shown.items()},
            "belotes": belotes,
            "points": list(self.points),
            "options": dict(self.options),  # the rules in force are public
            # cards played before the recorded tricks (a from_play position): public
            "gone": "" if self.phase == "bid" else DECK.format_cards(
                0xFFFFFFFF & ~(self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3])
                & ~sum(1 << c for t, _ in self.tricks for _, c in t)
                & ~sum(1 << c for _, c in self.trick)),
        }

    def history_tokens(self, observer: int | None = None) -> list[str]:
        """Move tokens, as seen by ``observer`` (None: everything)."""
        out = []
        replay = self._seat_sequence()
        for seat, move in zip(replay, self.history, strict=True):
            out.append(self.move_token(move) if observer is None
                       else self._public_move(seat, move, observer))
        return out

    def _seat_sequence(self) -> list[int]:
        """The seat that made each move of ``history``, recomputed from the undo stack."""
        return [snap["_current"] for snap in self._undo_stack]


def random_permutation(seed: int | None) -> list[int]:
    """COMMON-RNG-1: a uniformly random permutation of the 32 cards from ``seed``."""
    cards = list(range(32))
    random.Random(seed).shuffle(cards)
    return cards


def check_deck(deal: Deal, sizes: list[int], extras: dict[str, int]) -> None:
    """Raise DealError unless the deal has these hand and pile sizes and all 32 cards."""
    if len(deal.hands) != 4:
        raise DealError(f"a deal has 4 hands, got {len(deal.hands)}")
    for s, (h, n) in enumerate(zip(deal.hands, sizes, strict=True)):
        if len(h) != n:
            raise DealError(f"seat {s} must hold {n} cards, got {len(h)}")
    for name, n in extras.items():
        if len(deal.extras.get(name, [])) != n:
            raise DealError(f"pile '{name}' must hold {n} cards, got "
                            f"{len(deal.extras.get(name, []))}")
    unknown = set(deal.extras) - set(extras)
    if unknown:
        raise DealError(f"unexpected pile(s) {', '.join(sorted(unknown))}")
    cards = deal.all_cards()
    if len(set(cards)) != 32 or any(not 0 <= c < 32 for c in cards):
        raise DealError("a deal must contain each of the 32 cards exactly once")


# --- a match: deals to the target ----------------------------------------------------

class Match:
    """Deals played to the target (BELOTE-GAME-1, COINCHE-GAME-1): rotating dealer
    (BELOTE-DEAL-4, COINCHE-DEAL-2), cumulative team totals (BELOTE-SCORE-7).

    Use: ``state = match.new_deal()``; play it; ``match.record(state)``; repeat while
    ``not match.is_over()``. ``play_random(seed)`` does all of it with random choices.
    """

    module: Any = None

    def __init__(self, options: dict[str, Any] | None = None, dealer: int = 0,
                 seed: int | None = None) -> None:
        self.options = dict(options or {})
        self.spec_options = resolve(self.module.OPTIONS, self.options, self.module.NAME)
        self.target = self.spec_options["target"]
        self.dealer = dealer
        self.totals = [0, 0]
        self.deals: list[Record] = []
        self.deal_scores: list[list[int]] = []
        self.last_winner: int | None = None  # team that won the last deal (made/failed)
        self._rng = random.Random(seed)

    def new_deal(self, deal: Deal | None = None) -> TrickPlayState:
        """A new deal dealt by the current dealer (random from the match seed unless given)."""
        seed = None if deal is not None else self._rng.randrange(2 ** 63)
        return self.module.new_state(options=self.options, dealer=self.dealer, seed=seed,
                                     deal=deal)

    def record(self, state: TrickPlayState) -> list[int]:
        """Add a finished deal to the totals; return the team amounts written."""
        if not state.is_over():
            raise AtoutError("the deal is not over")
        if state.dealer != self.dealer:
            raise AtoutError(f"deal dealt by seat {state.dealer}, expected {self.dealer}")
        written = self._written(state)
        self.totals = [self.totals[0] + written[0], self.totals[1] + written[1]]
        self.deals.append(state.to_record())
        self.deal_scores.append(written)
        if state.result and state.result.get("winner") is not None:
            self.last_winner = state.result["winner"]
        self.dealer = (self.dealer + 1) % 4  # the eldest deals next, also after annulment
        return written

    def _written(self, state: TrickPlayState) -> list[int]:
        s = state.scores()
        return [int(s[0]), int(s[1])]

    def is_over(self) -> bool:
        """True once a team has reached the target at the end of a deal."""
        return max(self.totals) >= self.target

    def winner(self) -> int | None:
        """Winning team: higher total; equal totals -> the team that won the last deal."""
        if not self.is_over():
            return None
        if self.totals[0] != self.totals[1]:
            return 0 if self.totals[0] > self.totals[1] else 1
        return self.last_winner

    def play_random(self, seed: int | None = None, max_deals: int = 10_000) -> int | None:
        """Play the whole match with uniformly random legal choices; return the winner."""
        rng = random.Random(seed)
        for _ in range(max_deals):
            if self.is_over():
                break
            state = self.new_deal()
            while not state.is_over():
                state.play_random(rng)
            self.record(state)
        return self.winner()
