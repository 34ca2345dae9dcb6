"""Tarocchini (Tarocco Bolognese): Ottocento (4 players) and Terziglio (3 players).

The executable form of docs/rules/tarocchini.md. Rule IDs are cited where each
rule lives. Cards are ``TAROCCHINI_DECK`` indices, sets are bit masks (solver.cards).

Module-level pure functions (no state needed; the Cython core and the double-dummy
solver are differential-tested against them):

* ``legal_cards(hand, trick) -> int`` — mask of the cards ``hand`` may play to
  ``trick`` (a list of ``(seat, card)``), TAROC-PLAY-2/3 and TAROC-MATTO-1;
* ``trick_winner(trick) -> int`` — seat winning a complete trick, TAROC-PLAY-4;
* ``card_points(card) -> int`` — card points in **half points**: ``2 * value - 1``,
  so that a pile of ``n`` cards is worth ``sum(card_points) / 2`` = ``Σ values − n/2``
  (TAROC-PTS-2). The pack is 174 half points, the last trick 12 (``LAST_TRICK_HALF``);
  ``card_value(card)`` is the printed value (TAROC-DECK-1).

Neither function depends on a contract: Tarocchini has one fixed trump suit and no
partner exception. The deal's objective is also pure: ``collect_trick`` (trick winner,
Matto exchange, scartino debts), ``final_piles`` (end-of-hand Matto rules, discard,
solo stock), ``hand_totals`` (pile combinations, card points, last trick; totals in
half points), ``terziglio_game_points`` / ``terziglio_settlement``, ``match_winner``.
Combinations and the meld finder are in ``solver.games.tarocchini_melds``.

Deal flow (one state = one deal; ``OttocentoMatch`` plays deals to the target):

* Ottocento: ``monte`` votes (OTTO-DEAL-4) → dealer's ``callout``/``take`` choice
  (OTTO-SCORE-3, only offered when he can reach the target) → 2 ``discard`` moves
  (OTTO-DEAL-2) → ``declare`` (TAROC-DECL) → 15 tricks ``play`` → ``over``.
* Terziglio: ``bid`` (TERZ-BID-1) → gioco: stock taken, ``discard`` as many
  (TERZ-BID-2) → ``declare`` → 18 tricks → ``over``.
"""

from __future__ import annotations

import random
from typing import Any

from ..cards import TAROCCHINI_DECK, bit_list, mask_of
from ..errors import DealError, IllegalMoveError, NotationError, OptionError
from ..notation import Deal, Record
from ..options import Option, resolve
from .base import GameState, Move
from .tarocchini_melds import (
    ACE,
    ANG,
    BAG,
    CONT_MASK,
    FAMILIES,
    JACK,
    KING,
    KNIGHT,
    MAT,
    MAT_BIT,
    MON,
    QUEEN,
    SEQUENCES,
    SUIT_MASKS,
    TRUMP_MASK,
    best_combinations,
    family_combinations,
    format_combination,
    unit_points,
)

NAME = "tarocchini"
DECK = TAROCCHINI_DECK

OPTIONS: dict[str, Option] = {
    "game": Option("ottocento", ("ottocento", "terziglio"), "TAROC-GEN-1"),
    "contatore_multi_use": Option(True, (True, False), "TAROC-MELD-12"),
    "max_contatori_per_suit_sequence": Option(2, (1, 2), "TAROC-MELD-6"),
    "signals": Option("standard", ("standard", "none", "after_top_card"), "OTTO-SIG-1"),
    "monte": Option("after_5", ("after_5", "off", "after_5_and_10"), "OTTO-DEAL-4"),
    "declarations": Option("full", ("full", "none_or_max"), "TAROC-DECL-3"),
    "target": Option(800, None, "OTTO-SCORE-4"),
    "terziglio_deal": Option("18+8", ("18+8", "19+5"), "TERZ-DEAL-1"),
    "terziglio_capot_doubled_in_solo": Option(True, (True, False), "TERZ-SCORE-6"),
    "totals": Option((0, 0), None, "OTTO-SCORE-3",
                     "Ottocento: the sides' running totals before this deal (match context; "
                     "recorded so that a call-out replays)"),
    "direction": Option("counterclockwise", ("counterclockwise", "clockwise"), "COMMON-SEAT-2",
                        "physical mapping only; seat numbering is unchanged"),
}

TRUMP = 4  # pseudo-suit index of trumps; plain suits are 0..3 = S B C D
LAST_TRICK_HALF = 12  # 6 card points for the last trick (TAROC-PTS-2), in half points
FIVE_POINT_MASK = (sum(1 << (10 * s + KING) for s in range(4))
                   | (1 << ANG) | (1 << MON) | (1 << BAG) | MAT_BIT)  # TAROC-DECK-2
SIGNALS = ("volo", "striscio", "busso")
BIDS = ("pass", "gioco", "solo")

# --- card values and power ------------------------------------------------------------
_PLAIN_VALUE = {KING: 5, QUEEN: 4, KNIGHT: 3, JACK: 2}


def _value(card: int) -> int:
    if card < 40:
        return _PLAIN_VALUE.get(card % 10, 1)
    return 5 if card in (ANG, MON, BAG, MAT) else 1


CARD_VALUE = tuple(_value(c) for c in range(62))
CARD_POINTS_HALF = tuple(2 * v - 1 for v in CARD_VALUE)


def card_value(card: int) -> int:
    """Printed value of a card: K 5, Q 4, N 3, J 2, ANG MON BAG MAT 5, others 1 (TAROC-DECK-1)."""
    return CARD_VALUE[card]


def card_points(card: int) -> int:
    """Card points of one card in half points (2 value − 1), additive over a pile (TAROC-PTS-2)."""
    return CARD_POINTS_HALF[card]


def pile_points_half(mask: int) -> int:
    """Card points of a set of cards in half points: 2 (Σ values) − n (TAROC-PTS-2/3)."""
    total = 0
    while mask:
        low = mask & -mask
        total += CARD_POINTS_HALF[low.bit_length() - 1]
        mask ^= low
    return total


def suit_of(card: int) -> int | None:
    """0..3 for a plain suit (S B C D), ``TRUMP`` (4) for a trump, None for the Matto."""
    if card < 40:
        return card // 10
    return TRUMP if card < MAT else None


def _power(card: int) -> int:
    """Trick-taking power: trumps above plain cards; Moors share one rank (TAROC-RANK-1/3)."""
    if card >= 40:
        if card == BAG:
            return 100
        if card in (41, 42, 43, 44):
            return 101  # the four Moors are equal (TAROC-RANK-2)
        return 100 + card - 40  # T5 = 105 .. T16 = 116, LUN 117, SOL 118, MON 119, ANG 120
    r = card % 10
    if card // 10 >= 2 and r <= 5:  # round suits C, D: K Q N J A 6 7 8 9 10 (TAROC-RANK-3)
        return 5 - r
    return r  # long suits S, B: K Q N J 10 9 8 7 6 A


POWER = tuple(_power(c) if c != MAT else -1 for c in range(62))
SUIT_OF = tuple(suit_of(c) for c in range(62))
SUIT_MASK_OF = (*SUIT_MASKS, TRUMP_MASK)


def led_suit(trick: list[tuple[int, int]]) -> int | None:
    """Suit of the trick: the first card's, or the second's if the Matto was led (TAROC-PLAY-2)."""
    for _, c in trick:
        if c != MAT:
            return SUIT_OF[c]
    return None


def legal_cards(hand: int, trick: list[tuple[int, int]]) -> int:
    """Mask of the cards of ``hand`` legal on ``trick`` (TAROC-PLAY-1/3, TAROC-MATTO-1)."""
    if not trick:
        return hand
    led = led_suit(trick)
    if led is None:  # only the Matto so far: the next card defines the suit
        return hand
    mat = hand & MAT_BIT
    follow = hand & SUIT_MASK_OF[led]
    if follow:
        return follow | mat
    if led != TRUMP:
        trumps = hand & TRUMP_MASK
        if trumps:
            return trumps | mat
    return hand


def trick_winner(trick: list[tuple[int, int]]) -> int:
    """Seat winning a complete trick (TAROC-PLAY-4; equal Moors: the last one wins, TAROC-RANK-2)."""
    led = led_suit(trick)
    best_seat, best_key = -1, (-1, -1)
    for seat, c in trick:
        if c == MAT:
            continue  # the Matto never wins (TAROC-RANK-1)
        s = SUIT_OF[c]
        if s == TRUMP:
            key = (2, POWER[c])
        elif s == led:
            key = (1, POWER[c])
        else:
            continue
        if key > best_key or (key == best_key and key == (2, 101)):
            best_seat, best_key = seat, key
    if best_seat < 0:
        raise IllegalMoveError("a trick needs a card other than the Matto")
    return best_seat


# Order in which a side gives a scartino (TAROC-MATTO-2); the rules do not say which,
# so the engine gives the one least useful in combinations: plain pips 6..10, then Aces,
# Moors, numbered trumps T5..T16, LUN, SOL.
_GIVE_ORDER = ([c for c in range(40) if c % 10 in (1, 2, 3, 4, 5)]
               + [10 * s + ACE for s in range(4)] + [41, 42, 43, 44]
               + list(range(45, 59)))
_GIVE_RANK = {c: i for i, c in enumerate(_GIVE_ORDER)}


def pick_scartino(pile: int) -> int | None:
    """The scartino (1-point card) a side gives from its won cards, or None."""
    for c in _GIVE_ORDER:
        if pile >> c & 1:
            return c
    return None


def pick_lowest(pile: int) -> int | None:
    """The lowest-valued card of a pile, excluding the Matto (TAROC-MATTO-5)."""
    cards = [c for c in range(61) if pile >> c & 1]
    if not cards:
        return None
    return min(cards, key=lambda c: (CARD_VALUE[c], _GIVE_RANK.get(c, 100), c))


def terziglio_rounded(total_half: int) -> int:
    """TERZ-SCORE-3: round down to a multiple of 50, up when W mod 50 > 45 (half-point input)."""
    base = (total_half // 100) * 50
    if total_half % 100 > 90:
        base += 50
    return base


def side_total_half(declared: int, pile_melds: int, cards_half: int, last_trick: bool) -> int:
    """A side's hand total in half points (OTTO-SCORE-1, TERZ-SCORE-1):
    declarations + pile combinations + card points + 6 for the last trick."""
    return 2 * declared + 2 * pile_melds + cards_half + (LAST_TRICK_HALF if last_trick else 0)


def terziglio_game_points(declarer_half: int, opponents_half: int, contract: str,
                          capot: int | None = None,
                          capot_doubled_in_solo: bool = True) -> tuple[int, int | None, int]:
    """Terziglio result from the side totals (half points): ``(winner side, rounded W, G)``.

    Side 0 is the declarer. TERZ-SCORE-2: he wins iff strictly more (a tie loses);
    TERZ-SCORE-3: W rounded; TERZ-SCORE-4: solo doubles G; TERZ-SCORE-6: capot (side
    ``capot`` won every trick) is G = 40, doubled in solo unless the option says no.
    """
    solo = contract == "solo"
    if capot is not None:
        return capot, None, 40 * (2 if solo and capot_doubled_in_solo else 1)
    winner = 0 if declarer_half > opponents_half else 1
    rounded = terziglio_rounded(declarer_half if winner == 0 else opponents_half)
    return winner, rounded, rounded // 50 * (2 if solo else 1)


def terziglio_settlement(winner: int, game_points: int) -> tuple[int, int]:
    """TERZ-SCORE-5: (declarer, each opponent) = (+2G, −G) if he wins, else (−2G, +G)."""
    sign = 1 if winner == 0 else -1
    return 2 * game_points * sign, -game_points * sign


def match_winner(totals: list[int], target: int) -> int | None:
    """OTTO-SCORE-4: the side at or above the target; both: the higher; equal: None."""
    a, b = totals
    if (a >= target or b >= target) and a != b:
        return 0 if a > b else 1
    return None


def collect_trick(trick: list[tuple[int, int]], side_of: tuple[int, ...] | list[int],
                  piles: list[int], owed: list[int]) -> tuple[int, list[int], list[int]]:
    """Winner of a complete trick and the side piles / scartino debts after it.

    TAROC-MATTO-2: a Matto in a trick won by the other side goes to its own side's pile,
    which then owes one scartino; every debt is paid as soon as the owing side holds a
    scartino among its won cards (``pick_scartino``). Returns new lists.
    """
    w = trick_winner(trick)
    ws = side_of[w]
    piles, owed = list(piles), list(owed)
    cards = 0
    for _, c in trick:
        cards |= 1 << c
    mat_side = next((side_of[s] for s, c in trick if c == MAT), None)
    if mat_side is not None and mat_side != ws:
        piles[ws] |= cards & ~MAT_BIT
        piles[mat_side] |= MAT_BIT
        owed[mat_side] += 1
    else:
        piles[ws] |= cards
    for s in (0, 1):
        while owed[s]:
            c = pick_scartino(piles[s] & ~MAT_BIT)
            if c is None:
                break
            piles[s] &= ~(1 << c)
            piles[1 - s] |= 1 << c
            owed[s] -= 1
    return w, piles, owed


def final_piles(piles: list[int], owed: list[int], tricks_won: list[int], discard: int = 0,
                discard_side: int | None = None, stock: int = 0,
                last_side: int = 0) -> list[int]:
    """Each side's pile at the end of the hand, ready for scoring.

    TAROC-MATTO-3: a Matto whose side won no trick goes to the opponents, debt cancelled;
    TAROC-MATTO-5: a debt still open is paid with the lowest-valued card (``pick_lowest``);
    OTTO-DEAL-3 / TERZ-BID-2: the discard joins ``discard_side`` unless that side won no
    trick; TERZ-BID-3: a solo stock goes to the side of the last trick.
    """
    piles, owed = list(piles), list(owed)
    for s in (0, 1):
        if piles[s] & MAT_BIT and tricks_won[s] == 0:
            piles[s] &= ~MAT_BIT
            piles[1 - s] |= MAT_BIT
            owed[s] = 0
        while owed[s]:
            c = pick_lowest(piles[s])
            if c is None:
                break
            piles[s] &= ~(1 << c)
            piles[1 - s] |= 1 << c
            owed[s] -= 1
    if discard:
        owner = discard_side if discard_side is not None else 0
        if tricks_won[owner] == 0:
            owner = 1 - owner
        piles[owner] |= discard
    if stock:
        piles[last_side] |= stock
    return piles


def hand_totals(piles: list[int], declared: list[int], last_side: int,
                options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Scores of a finished hand from the final piles (``final_piles``) and each side's
    declared points: pile combinations (TAROC-DECL-6), card points, last trick and the
    totals in half points (OTTO-SCORE-1, TERZ-SCORE-1)."""
    o = options or {}
    multi = bool(o.get("contatore_multi_use", True))
    maxc = int(o.get("max_contatori_per_suit_sequence", 2))
    melds = [best_combinations(piles[s], multi, maxc)[0] for s in (0, 1)]
    cards_half = [pile_points_half(piles[s]) for s in (0, 1)]
    totals = [side_total_half(declared[s], melds[s], cards_half[s], s == last_side)
              for s in (0, 1)]
    return {"declared": list(declared), "pile_melds": melds, "card_points_half": cards_half,
            "last_trick": last_side, "totals_half": totals}


# --- the state ------------------------------------------------------------------------
class TarocchiniState(GameState):
    """One deal of Ottocento or Terziglio.

    Stable attributes (contract with the core and the DD solver):

    * ``hands: list[int]`` current hand masks per seat; ``trick: list[(seat, card)]`` the
      trick in progress; ``tricks: list[(trick, winner)]`` completed tricks;
      ``leader`` the seat who leads (led) the current trick; ``phase`` one of
      ``'monte' 'callout' 'bid' 'discard' 'declare' 'play' 'over'``;
    * ``variant`` ``'ottocento'|'terziglio'``, ``n`` players, ``dealer``;
      ``side_of: tuple[int, ...]`` seat → side (Ottocento: team A {0,2} = 0, team B = 1;
      Terziglio: declarer = side 0, the two opponents = side 1); ``declarer`` and
      ``contract`` (``'gioco'|'solo'``, Terziglio only, else None);
    * ``piles: list[int]`` cards won by side 0 / side 1 so far (after Matto exchanges),
      ``owed: list[int]`` scartini still owed by each side (TAROC-MATTO-2),
      ``tricks_won: list[int]``; ``discard`` (Ottocento or gioco discard mask),
      ``stock`` (solo stock mask, unseen); ``decl_points: list[int]`` per seat.

    Objective of a deal (what a double-dummy search must reproduce): each trick goes
    through ``collect_trick`` (Matto exchange, scartino debts), the hand ends with
    ``final_piles``, and ``hand_totals`` scores it: per side ``side_total_half(declared,
    best_points(pile), pile_points_half(pile), last_trick)`` (``result['totals_half']``). Card points are in
    half points (``card_points``). Reach the play phase directly with
    ``TarocchiniState.from_play(hands, leader, options, ...)``, or with
    ``new_state(deal=...)`` then the auction/discard/declaration moves.

    Move tokens (``move_token`` / ``parse_move``): a card ``KS``; a card with a signal
    ``KS:volo`` / ``KS:striscio`` / ``KS:busso``; monte votes ``monte`` / ``play``; the
    dealer's ``callout`` / ``take``; ``discard:T5``; bids ``pass`` ``gioco`` ``solo``;
    declarations ``decl:<family>:<C1+C2+...>`` (families: tarocchi kings queens knights
    jacks grande swords batons cups coins moors aces), ``decl:max``, ``decl:done``.
    """

    game = NAME
    deck = DECK

    def __init__(self, options: dict[str, Any], dealer: int, deal: Deal,
                 totals: list[int] | None = None) -> None:
        super().__init__()
        self.options = options
        self.variant: str = options["game"]
        self.n = 4 if self.variant == "ottocento" else 3
        if not 0 <= dealer < self.n:
            raise DealError(f"dealer must be a seat 0..{self.n - 1}, got {dealer}")
        self.dealer = dealer
        self.eldest = (dealer + 1) % self.n  # TAROC-GEN-1, COMMON-SEAT-3
        self.deal = deal
        # running match totals before this deal (OTTO-SCORE-3), from the option
        self.totals = list(totals) if totals else list(options.get("totals", (0, 0)))
        self.hands: list[int] = [mask_of(h) for h in deal.hands]
        self.trick: list[tuple[int, int]] = []
        self.tricks: list[tuple[list[tuple[int, int]], int]] = []
        self.leader = self.eldest
        self._turn = self.eldest
        self.played = 0
        self.piles = [0, 0]
        self.owed = [0, 0]
        self.tricks_won = [0, 0]
        self.discard = 0
        self.to_discard = 0
        self.stock = 0
        self.talon = 0
        self.declarer: int | None = None
        self.contract: str | None = None
        self.bids: list[str] = []
        self.votes: list[bool] = []
        self.monte_round = 0
        self.declared: list[tuple[tuple[str, int], ...]] = [() for _ in range(self.n)]
        self.decl_points = [0] * self.n
        self.decl_seat = self.eldest
        self.decl_count = 0
        self.signals: list[tuple[int, int, int, str]] = []  # (trick no, seat, card, signal)
        self.called_out: int | None = None
        self.abandoned = False
        self.result: dict[str, Any] | None = None
        self.monte_masks: list[list[int]] = []
        if self.variant == "ottocento":
            self.side_of: tuple[int, ...] = (0, 1, 0, 1)
            self.talon = mask_of(deal.extras["talon"])
            for name in ("_first_five", "_second_five"):
                if name in deal.extras:
                    pile = deal.extras[name]
                    self.monte_masks.append([mask_of(pile[5 * i:5 * i + 5]) for i in range(4)])
            self.phase = "monte" if options["monte"] != "off" else ""
            if options["monte"] == "off":
                self._after_deal()
        else:
            self.side_of = (1, 1, 1)
            self.stock = mask_of(deal.extras["stock"])
            self.phase = "bid"

    # --- construction for analysis ----------------------------------------------------
    @classmethod
    def from_play(cls, hands: list[int], leader: int, options: dict[str, Any] | None = None,
                  *, dealer: int | None = None, declarer: int | None = None,
                  contract: str | None = None, discard: int = 0, stock: int = 0,
                  decl_points: list[int] | None = None, piles: list[int] | None = None,
                  tricks_won: list[int] | None = None, owed: list[int] | None = None,
                  trick: list[tuple[int, int]] | None = None) -> TarocchiniState:
        """A state in the play phase, for analysis.

        ``hands``: hand masks of equal size, ``leader``: the seat to lead. Ottocento:
        ``dealer`` (default: the seat before the leader) and its side's ``discard``.
        Terziglio: ``declarer`` and ``contract`` (``'gioco'`` with its ``discard`` mask, or
        ``'solo'`` with the unseen ``stock`` mask). What was captured so far: ``piles``
        per side (side 0 = team A / the declarer), ``tricks_won`` per side (default: 1 per
        non-empty pile) and scartini ``owed`` per side. ``decl_points`` per seat (default
        0). ``trick``: the cards already played to the current trick, ``(seat, card)``
        from ``leader`` on (those seats hold one card fewer). Such a state has no
        replayable record (``to_record`` raises)."""
        opts = resolve(OPTIONS, options, NAME)
        n = 4 if opts["game"] == "ottocento" else 3
        trick = list(trick or [])
        if len(trick) >= n or [s for s, _ in trick] != [(leader + i) % n
                                                        for i in range(len(trick))]:
            raise DealError("the current trick must list fewer than n cards, from the leader on")
        sizes = {h.bit_count() + any(s == seat for s, _ in trick) for seat, h in enumerate(hands)}
        if len(hands) != n or len(sizes) != 1:
            raise DealError(f"{opts['game']} play needs {n} hands of equal size")
        piles = list(piles) if piles else [0, 0]
        allc = 0
        for h in (*hands, discard, stock, *piles, *(1 << c for _, c in trick)):
            if allc & h:
                raise DealError("a card is in two hands/piles")
            allc |= h
        if dealer is None:
            dealer = (leader - 1) % n
        fake = Deal([[] for _ in range(n)],
                    {"talon": []} if n == 4 else {"stock": []})
        st = cls(opts | {"monte": "off"}, dealer, fake)
        st.options = opts
        st.hands = list(hands)
        st.leader = st._turn = leader
        st.discard = discard
        st.stock = stock
        st.talon = 0
        st.played = 0
        st.to_discard = 0
        if n == 3:
            if declarer is None or contract not in ("gioco", "solo"):
                raise DealError("a Terziglio play state needs declarer and contract gioco|solo")
            st.declarer, st.contract = declarer, contract
            st.side_of = tuple(0 if s == declarer else 1 for s in range(3))
        st.decl_points = list(decl_points) if decl_points else [0] * n
        st.piles = piles
        st.played = piles[0] | piles[1]
        st.tricks_won = list(tricks_won) if tricks_won else [int(p != 0) for p in piles]
        st.owed = list(owed) if owed else [0, 0]
        st.trick = trick
        st._turn = (leader + len(trick)) % n
        for _, c in trick:
            st.played |= 1 << c
        st.phase = "play"
        st._from_play = True
        return st

    # --- generic state machinery ---------------------------------------------------------
    def _snapshot(self) -> dict[str, Any]:
        """Shallow copies only: nested values are never mutated in place (fast undo)."""
        out = {}
        for k, v in self.__dict__.items():
            if k in ("_undo_stack", "history"):
                continue
            out[k] = v.copy() if isinstance(v, list | dict) else v
        return out

    def copy(self, undo: bool = True) -> TarocchiniState:
        """An independent copy; ``undo=False`` leaves out the undo history (sampled
        worlds are solved, never undone)."""
        new = object.__new__(type(self))
        new.__dict__.update(self._snapshot())
        new.history = list(self.history)
        new._undo_stack = [{k: (v.copy() if isinstance(v, list | dict) else v)
                            for k, v in s.items()} for s in self._undo_stack] if undo else []
        return new

    @property
    def to_act(self) -> int | None:
        p = self.phase
        if p == "play":
            return self._turn
        if p == "monte":
            return (self.eldest + len(self.votes)) % self.n
        if p == "bid":
            return (self.eldest + len(self.bids)) % self.n
        if p == "declare":
            return self.decl_seat
        if p == "callout":
            return self.dealer
        if p == "discard":
            return self.dealer if self.variant == "ottocento" else self.declarer
        return None

    def legal_moves(self) -> list[Move]:
        p = self.phase
        if p == "play":
            return self._card_moves()
        if p == "monte":
            return [Move("monte", True), Move("monte", False)]
        if p == "bid":
            top = max((BIDS.index(b) for b in self.bids), default=0)
            return [Move("bid", "pass")] + [Move("bid", b) for b in BIDS[top + 1:]]
        if p == "declare":
            return self._declare_moves()
        if p == "callout":
            return [Move("callout", True), Move("callout", False)]
        if p == "discard":
            seat = self.to_act
            # OTTO-DEAL-2, TERZ-BID-2: never a five-point card
            return [Move("discard", c) for c in bit_list(self.hands[seat] & ~FIVE_POINT_MASK)]
        return []

    def _card_moves(self) -> list[Move]:
        seat = self._turn
        hand = self.hands[seat]
        legal = legal_cards(hand, self.trick)
        moves = [Move("card", c) for c in bit_list(legal)]
        mode = self.options["signals"]
        if mode == "none" or (self.variant == "terziglio" and seat == self.declarer):
            return moves  # TERZ-PLAY-1: only the two opponents signal to each other
        for c in bit_list(legal):
            for sig in self._signals_for(seat, hand, c):
                moves.append(Move("signal", (c, sig)))
        return moves

    def _signals_for(self, seat: int, hand: int, card: int) -> list[str]:
        """OTTO-SIG-1: volo (leader, true: last card of the suit), striscio (anyone),
        busso (leader); ``after_top_card``: only once the led suit's top card is out."""
        leading = not self.trick
        suit = led_suit([*self.trick, (seat, card)])
        if self.options["signals"] == "after_top_card":
            if suit is None:
                return []
            top = ANG if suit == TRUMP else 10 * suit + KING
            if not self.played >> top & 1:
                return []
        out = []
        if leading and suit is not None and not (hand & ~(1 << card) & SUIT_MASK_OF[suit]):
            out.append("volo")
        out.append("striscio")
        if leading and card != MAT:
            out.append("busso")
        return out

    def _declare_moves(self) -> list[Move]:
        seat = self.decl_seat
        if self.options["declarations"] == "none_or_max":  # TAROC-DECL-3
            out = [Move("declare_end")]
            if best_combinations(self.hands[seat], self.options["contatore_multi_use"],
                                 self.options["max_contatori_per_suit_sequence"])[0]:
                out.append(Move("declare_max"))
            return out
        mine = self.declared[seat]
        done = {f for f, _ in mine}
        used = 0
        for f, m in mine:
            if f in SEQUENCES:
                used |= m & CONT_MASK
        single = not self.options["contatore_multi_use"]
        out = []
        for f in FAMILIES:  # TAROC-DECL-2: any valid combination, at most one per family
            if f in done:
                continue
            for m in family_combinations(f, self.hands[seat],
                                         self.options["max_contatori_per_suit_sequence"]):
                if single and f in SEQUENCES and m & used:
                    continue  # TAROC-MELD-12 single use
                out.append(Move("declare", (f, m)))
        out.append(Move("declare_end"))
        return out

    # --- applying moves ----------------------------------------------------------------
    def _apply(self, move: Move) -> None:
        kind = move.kind
        if kind in ("card", "signal"):
            card = move.value if kind == "card" else move.value[0]
            if kind == "signal":
                self.signals = [*self.signals, (len(self.tricks), self._turn, card, move.value[1])]
            self._play_card(card)
        elif kind == "monte":
            self._vote(move.value)
        elif kind == "bid":
            self._bid(move.value)
        elif kind == "declare":
            self._declare(move.value)
        elif kind in ("declare_end", "declare_max"):
            self._declare(None if kind == "declare_end" else "max")
        elif kind == "discard":
            seat = self.to_act
            self.hands[seat] &= ~(1 << move.value)
            self.discard |= 1 << move.value
            self.to_discard -= 1
            if self.to_discard == 0:
                self._start_declarations()
        elif kind == "callout":
            if move.value:  # OTTO-SCORE-3: the dealer calls out on his first 15 cards
                pts, combos = best_combinations(self.hands[self.dealer],
                                                self.options["contatore_multi_use"],
                                                self.options["max_contatori_per_suit_sequence"])
                self.declared[self.dealer] = combos
                self.decl_points[self.dealer] = pts
                self._finish_called_out(self.side_of[self.dealer])
            else:
                self._take_talon()
        else:
            raise IllegalMoveError(f"unknown move kind {kind!r}")

    def _vote(self, monte: bool) -> None:
        """OTTO-DEAL-4: all four say monte → the deal is thrown in."""
        self.votes = [*self.votes, monte]
        if len(self.votes) < self.n:
            return
        if all(self.votes):
            self.abandoned = True
            self._end({"abandoned": "monte"})
            return
        self.monte_round += 1
        if self.options["monte"] == "after_5_and_10" and self.monte_round == 1:
            self.votes = []
            return
        self._after_deal()

    def _after_deal(self) -> None:
        """All 15 cards dealt: the dealer may call out first (OTTO-SCORE-3), else he takes
        the talon and discards (OTTO-DEAL-1/2)."""
        side = self.side_of[self.dealer]
        best = best_combinations(self.hands[self.dealer], self.options["contatore_multi_use"],
                                 self.options["max_contatori_per_suit_sequence"])[0]
        if self.totals[side] + best >= self.options["target"]:
            self.phase = "callout"
        else:
            self._take_talon()

    def _take_talon(self) -> None:
        self.hands[self.dealer] |= self.talon
        self.talon = 0
        self.to_discard = 2
        self.phase = "discard"

    def _bid(self, bid: str) -> None:
        """TERZ-BID-1: each speaks once, pass < gioco < solo; all pass → thrown in."""
        self.bids = [*self.bids, bid]
        if len(self.bids) < self.n:
            return
        if all(b == "pass" for b in self.bids):
            self.abandoned = True
            self._end({"abandoned": "all pass"})
            return
        top = max(range(self.n), key=lambda i: BIDS.index(self.bids[i]))
        self.declarer = (self.eldest + top) % self.n
        self.contract = self.bids[top]
        self.side_of = tuple(0 if s == self.declarer else 1 for s in range(self.n))
        if self.contract == "gioco":  # TERZ-BID-2: take the stock, discard as many
            self.hands[self.declarer] |= self.stock
            self.to_discard = self.stock.bit_count()
            self.stock = 0
            self.phase = "discard"
        else:  # TERZ-BID-3: solo, the stock stays unseen
            self._start_declarations()

    def _start_declarations(self) -> None:
        self.phase = "declare"  # TAROC-DECL-1, TERZ-DECL-1: eldest first, dealer last
        self.decl_seat = self.eldest
        self.decl_count = 0

    def _declare(self, value: tuple[str, int] | str | None) -> None:
        """A combination (family, mask), or the end of the player's declaration
        (``None``: what he declared; ``'max'``: his best set, TAROC-DECL-3)."""
        seat = self.decl_seat
        if value is not None and value != "max":
            self.declared[seat] = (*self.declared[seat], value)
            return
        multi = self.options["contatore_multi_use"]
        if value == "max":
            pts, combos = best_combinations(self.hands[seat], multi,
                                            self.options["max_contatori_per_suit_sequence"])
            self.declared[seat] = combos
        self.decl_points[seat] = unit_points(self.declared[seat], multi)  # TAROC-DECL-5
        side = self.side_of[seat]
        if self.variant == "ottocento":  # OTTO-SCORE-3: a declaration reaching the target
            side_decl = sum(self.decl_points[s] for s in range(self.n) if self.side_of[s] == side)
            if self.totals[side] + side_decl >= self.options["target"]:
                self._finish_called_out(side)
                return
        self.decl_count += 1
        if self.decl_count == self.n:
            self.phase = "play"
            self.leader = self._turn = self.eldest  # OTTO-PLAY-1, TERZ-PLAY-1
        else:
            self.decl_seat = (seat + 1) % self.n

    def _finish_called_out(self, side: int) -> None:
        self.called_out = side
        decl = [sum(self.decl_points[s] for s in range(self.n) if self.side_of[s] == t)
                for t in (0, 1)]
        self._end({"called_out": side, "declared": decl})

    def _play_card(self, card: int) -> None:
        seat = self._turn
        self.hands[seat] &= ~(1 << card)
        self.played |= 1 << card
        self.trick = [*self.trick, (seat, card)]
        if len(self.trick) < self.n:
            self._turn = (seat + 1) % self.n
            return
        trick = self.trick
        w, self.piles, self.owed = collect_trick(trick, self.side_of, self.piles, self.owed)
        self.tricks_won[self.side_of[w]] += 1
        self.tricks = [*self.tricks, (trick, w)]
        self.trick = []
        self.leader = self._turn = w  # TAROC-PLAY-1, COMMON-TRICK-2
        if not any(self.hands):
            self._finish_hand(w)

    def _finish_hand(self, last_winner: int) -> None:
        last_side = self.side_of[last_winner]
        owner = None
        if self.discard:
            owner = self.side_of[self.dealer if self.variant == "ottocento" else self.declarer]
        self.piles = final_piles(self.piles, self.owed, self.tricks_won, self.discard, owner,
                                 self.stock, last_side)
        self.owed = [0, 0]
        decl = [sum(self.decl_points[p] for p in range(self.n) if self.side_of[p] == s)
                for s in (0, 1)]
        result = hand_totals(self.piles, decl, last_side, self.options)
        totals = result["totals_half"]
        if self.variant == "terziglio":
            result.update(self._terziglio_result(totals))
        self._end(result)

    def _terziglio_result(self, totals: list[int]) -> dict[str, Any]:
        capot = next((s for s in (0, 1) if self.tricks_won[1 - s] == 0), None)
        winner, rounded, g = terziglio_game_points(
            totals[0], totals[1], self.contract or "gioco", capot,
            self.options["terziglio_capot_doubled_in_solo"])
        return {"winner": winner, "capot": capot is not None, "rounded": rounded, "game_points": g}

    def _end(self, result: dict[str, Any]) -> None:
        self.phase = "over"
        self.result = result

    # --- results -------------------------------------------------------------------------
    def side_totals(self) -> list[float]:
        """Each side's hand total in points (.5 possible in Terziglio), the deal being over."""
        if self.result is None:
            raise IllegalMoveError("the deal is not over")
        if "totals_half" in self.result:
            return [t / 2 for t in self.result["totals_half"]]
        return [float(x) for x in self.result.get("declared", [0, 0])]

    def scores(self) -> list[float]:
        """Ottocento: each seat's side hand total (OTTO-SCORE-1). Terziglio: game points,
        declarer ±2G, opponents ∓G (TERZ-SCORE-5). Thrown-in deals score 0."""
        if self.result is None:
            raise IllegalMoveError("the deal is not over")
        if self.abandoned:
            return [0.0] * self.n
        if self.variant == "ottocento":
            t = self.side_totals()
            return [t[self.side_of[s]] for s in range(self.n)]
        decl, opp = terziglio_settlement(self.result["winner"], self.result["game_points"])
        return [float(decl if s == self.declarer else opp) for s in range(self.n)]

    @property
    def taker(self) -> int | None:
        """The Terziglio declarer (the contract's taker, for match statistics); None in
        Ottocento, which has no contract (OTTO-SCORE-2)."""
        return self.declarer if self.variant == "terziglio" else None

    def contract_made(self) -> bool | None:
        """Terziglio: True iff the declarer won the deal (TERZ-SCORE-2); None in Ottocento,
        for a thrown-in deal or before the end."""
        if self.variant != "terziglio" or self.result is None or self.abandoned \
                or "winner" not in self.result:
            return None
        return self.result["winner"] == 0

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` knows: own hand (only the packets dealt so far during the monte
        vote), public declarations, bids, votes, tricks, signals; own discard; the
        options, the cards out of the hands (``played``) and the size of the pile aside."""
        hand = self.hands[seat]
        if self.phase == "monte" and self.monte_masks:
            hand = 0
            for packet in self.monte_masks[:self.monte_round + 1]:
                hand |= packet[seat]
        own_discard = (self.variant == "ottocento" and seat == self.dealer) or \
            (self.variant == "terziglio" and seat == self.declarer)
        return {"seat": seat, "variant": self.variant, "phase": self.phase,
                "dealer": self.dealer, "hand": hand, "votes": list(self.votes),
                "bids": list(self.bids), "declarer": self.declarer, "contract": self.contract,
                "declared": [list(d) for d in self.declared],
                "discard": self.discard if own_discard else None,
                "tricks": [(list(t), w) for t, w in self.tricks], "trick": list(self.trick),
                "signals": list(self.signals), "to_act": self.to_act,
                "totals": list(self.totals), "voids": self.inferred_voids(),
                "options": dict(self.options), "played": self.played,
                "aside_size": (self.discard | self.stock).bit_count()}

    def inferred_voids(self) -> list[set[int]]:
        """Suits (0..3, ``TRUMP``) each seat has shown out of, from the play
        (TAROC-PLAY-3): not following proves a void; not trumping on a plain suit proves
        no trumps. A Matto proves nothing."""
        voids: list[set[int]] = [set() for _ in range(self.n)]
        for tr in [t for t, _ in self.tricks] + [self.trick]:
            led = led_suit(tr)
            if led is None:
                continue
            for seat, card in tr:
                s = SUIT_OF[card]
                if card == MAT or s == led:
                    continue
                voids[seat].add(led)
                if led != TRUMP and s != TRUMP:
                    voids[seat].add(TRUMP)
        return voids

    # --- notation ------------------------------------------------------------------------
    def move_token(self, move: Move) -> str:
        k, v = move.kind, move.value
        if k == "card":
            return DECK.token(v)
        if k == "signal":
            return f"{DECK.token(v[0])}:{v[1]}"
        if k == "monte":
            return "monte" if v else "play"
        if k == "callout":
            return "callout" if v else "take"
        if k == "bid":
            return v
        if k == "discard":
            return "discard:" + DECK.token(v)
        if k == "declare":
            return "decl:" + format_combination(*v)
        if k == "declare_end":
            return "decl:done"
        if k == "declare_max":
            return "decl:max"
        raise NotationError("unknown move kind", k)

    def parse_move(self, token: str) -> Move:
        if token in ("monte", "play"):
            return Move("monte", token == "monte")
        if token in ("callout", "take"):
            return Move("callout", token == "callout")
        if token in BIDS:
            return Move("bid", token)
        if token == "decl:done":
            return Move("declare_end")
        if token == "decl:max":
            return Move("declare_max")
        if token.startswith("discard:"):
            return Move("discard", DECK.card(token[8:]))
        if token.startswith("decl:"):
            parts = token.split(":")
            if len(parts) != 3 or parts[1] not in FAMILIES:
                raise NotationError("bad declaration token (decl:<family>:<C1+C2+...>)", token)
            cards = [DECK.card(t) for t in parts[2].split("+")]
            return Move("declare", (parts[1], mask_of(cards)))
        if ":" in token:
            card, _, sig = token.partition(":")
            if sig not in SIGNALS:
                raise NotationError("unknown signal", token)
            return Move("signal", (DECK.card(card), sig))
        return Move("card", DECK.card(token))

    def to_record(self) -> Record:
        if getattr(self, "_from_play", False):
            raise NotationError("a state built with from_play has no replayable record")
        opts = {k: v for k, v in self.options.items() if OPTIONS[k].default != v}
        return Record(NAME, opts, self.dealer, self.deal,
                      [self.move_token(m) for m in self.history])


# --- dealing --------------------------------------------------------------------------
def _random_deal(variant: str, options: dict[str, Any], dealer: int, seed: int) -> Deal:
    """COMMON-RNG-1: a uniform permutation split as OTTO-DEAL-1 / TERZ-DEAL-1."""
    rng = random.Random(f"tarocchini-{variant}-{seed}")
    perm = list(range(62))
    rng.shuffle(perm)
    if variant == "ottocento":
        hands: list[list[int]] = [[] for _ in range(4)]
        pos = 0
        packets: list[list[int]] = []
        for _ in range(3):  # three packets of 5, from the eldest (OTTO-DEAL-1)
            packet = [[] for _ in range(4)]
            for k in range(4):
                seat = (dealer + 1 + k) % 4
                packet[seat] = perm[pos:pos + 5]
                hands[seat] += packet[seat]
                pos += 5
            packets.append([c for p in packet for c in p])
        extras = {"talon": perm[60:62]}
        if options["monte"] != "off":
            extras["_first_five"] = packets[0]
            if options["monte"] == "after_5_and_10":
                extras["_second_five"] = packets[1]
        return Deal(hands, extras)
    each, stock = (18, 8) if options["terziglio_deal"] == "18+8" else (19, 5)
    return Deal([perm[i * each:(i + 1) * each] for i in range(3)], {"stock": perm[3 * each:]})


def _check_deal(variant: str, options: dict[str, Any], deal: Deal) -> Deal:
    """Validate a given deal (DealError) and fill in the monte packets from hand order."""
    if sorted(deal.all_cards()) != list(range(62)):
        raise DealError("a Tarocchini deal must contain each of the 62 cards exactly once")
    if variant == "ottocento":
        if len(deal.hands) != 4 or any(len(h) != 15 for h in deal.hands):
            raise DealError("an Ottocento deal is 4 hands of 15 cards plus 'talon: 2 cards'")
        if len(deal.extras.get("talon", [])) != 2:
            raise DealError("an Ottocento deal needs the dealer's 2 last cards as 'talon'")
        extras = {"talon": list(deal.extras["talon"])}
        names = [] if options["monte"] == "off" else (
            ["_first_five"] if options["monte"] == "after_5" else ["_first_five", "_second_five"])
        for k, name in enumerate(names):
            pile = deal.extras.get(name)
            if pile is None:  # packets taken from each hand in the order given
                pile = [c for h in deal.hands for c in h[5 * k:5 * k + 5]]
            if len(pile) != 20 or any(not set(pile[5 * i:5 * i + 5]) <= set(deal.hands[i])
                                      for i in range(4)):
                raise DealError(f"'{name}' must list 5 cards of each hand, seat 0 first")
            extras[name] = list(pile)
        if len(names) == 2 and set(extras[names[0]]) & set(extras[names[1]]):
            raise DealError("'_first_five' and '_second_five' overlap")
        unknown = set(deal.extras) - {"talon", "_first_five", "_second_five"}
        if unknown:
            raise DealError(f"unknown Ottocento pile(s): {', '.join(sorted(unknown))}")
        return Deal([list(h) for h in deal.hands], extras)
    each, stock = (18, 8) if options["terziglio_deal"] == "18+8" else (19, 5)
    if len(deal.hands) != 3 or any(len(h) != each for h in deal.hands) \
            or len(deal.extras.get("stock", [])) != stock or set(deal.extras) != {"stock"}:
        raise DealError(f"a Terziglio deal is 3 hands of {each} cards plus 'stock: {stock} cards'")
    return deal


def new_state(options: dict[str, Any] | None = None, dealer: int = 0, seed: int | None = None,
              deal: Deal | None = None, totals: list[int] | None = None) -> TarocchiniState:
    """A new deal: random from ``seed`` (default 0) unless ``deal`` is given.
    ``totals`` are the running Ottocento side totals (for calling out, OTTO-SCORE-3); they
    are stored as the option ``totals`` so that the deal's record replays exactly."""
    opts = resolve(OPTIONS, options, NAME)
    if opts["target"] <= 0:
        raise OptionError(f"option target: must be a positive integer, got {opts['target']}")
    if totals is not None:
        opts["totals"] = tuple(totals)
    t = opts["totals"]
    if len(t) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0
                              for x in t):
        raise OptionError(f"option totals: expected [A,B], two non-negative integers, got {t!r}")
    opts["totals"] = tuple(t)
    variant = opts["game"]
    n = 4 if variant == "ottocento" else 3
    if not 0 <= dealer < n:
        raise DealError(f"dealer must be a seat 0..{n - 1}, got {dealer}")
    if deal is None:
        deal = _random_deal(variant, opts, dealer, 0 if seed is None else seed)
    else:
        deal = _check_deal(variant, opts, deal)
    return TarocchiniState(opts, dealer, deal)


class OttocentoMatch:
    """A game of Ottocento played to the target (OTTO-SCORE-2/3/4).

    Holds the running side totals, the dealer rotation (next dealer = eldest) and the
    records of the deals played. Use ``new_deal()`` for the next state (it knows the
    totals, so calling out is offered), play it, then ``add(state)``; or
    ``play_random(rng)`` for a whole game of random legal moves. ``winner`` is the
    winning side (0 = team A {0,2}, 1 = team B {1,3}) once decided.
    """

    def __init__(self, options: dict[str, Any] | None = None, dealer: int = 0,
                 seed: int = 0) -> None:
        self.options = resolve(OPTIONS, options, NAME)
        if self.options["game"] != "ottocento":
            raise IllegalMoveError("OttocentoMatch needs game=ottocento")
        self.totals = [0, 0]
        self.dealer = dealer % 4
        self.seed = seed
        self.records: list[Record] = []
        self.winner: int | None = None

    def new_deal(self, deal: Deal | None = None) -> TarocchiniState:
        """The next deal (random from the match seed and deal number unless ``deal``)."""
        if self.winner is not None:
            raise IllegalMoveError("the game is over")
        return new_state(self.options, self.dealer, seed=self.seed * 100003 + len(self.records),
                         deal=deal, totals=self.totals)

    def add(self, state: TarocchiniState) -> None:
        """Account a finished deal: add the hand scores and decide the winner."""
        if not state.is_over():
            raise IllegalMoveError("the deal is not over")
        if self.winner is not None:
            raise IllegalMoveError("the game is over")
        self.records.append(state.to_record())
        self.dealer = (self.dealer + 1) % 4  # COMMON-SEAT-3: the eldest deals next
        if state.abandoned:
            return  # OTTO-DEAL-4: thrown in, no score
        hand = [int(t) for t in state.side_totals()]
        self.totals = [self.totals[s] + hand[s] for s in (0, 1)]
        if state.called_out is not None:  # OTTO-SCORE-3: the calling side wins at once
            self.winner = state.called_out
            return
        self.winner = match_winner(self.totals, self.options["target"])  # OTTO-SCORE-4

    def play_random(self, rng: random.Random, max_deals: int = 1000) -> int:
        """Play deals of uniformly random legal moves until a side wins; return it."""
        for _ in range(max_deals):
            if self.winner is not None:
                break
            state = self.new_deal()
            while not state.is_over():
                state.play_random(rng)
            self.add(state)
        if self.winner is None:
            raise IllegalMoveError(f"no winner after {max_deals} deals")
        return self.winner
