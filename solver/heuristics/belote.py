"""Belote and Coinche heuristic player (sees only its observation).

Bidding: a hand-strength count per strain — trump honours (J 9 A T, belote K+Q) and
length, side aces and guarded tens, voids and singletons once trumps are long. Belote
takes the turned suit with J+9, or three trumps with honours and side values; round two
names the best other suit with a stricter threshold. Coinche bids the strain with the
best count at a level estimated from it, raises the partner's suit with support (jack
or nine of trumps, side aces), competes over the opponents when the estimate is higher,
and coinches a contract it holds strong defence against (trump honours behind the
taker's suit, side aces).

Card play, from classic principles: the attack pulls trumps while it holds the master
trump and opponents may still hold trumps (the constraints of ``solver.worlds_belote``
tell who can hold what), cashes masters (aces first) and keeps a trump for the last trick;
the defence leads its aces and avoids leading a bare ten. Following: low when the partner
is master, and a high-value card ("charging") when the partner's trick is safe; otherwise
win with the cheapest card that is sure to hold, or duck with the least valuable card.
Announces are always made and belotes always said.
"""

from __future__ import annotations

import random

from ..cards import mask_of
from ..errors import AtoutError
from ..games.base import Move
from ..games.belote_common import (
    ABOVE,
    DECK,
    POINTS,
    POWER,
    R7,
    R8,
    R9,
    RA,
    RJ,
    RK,
    RQ,
    RT,
    SA,
    SUIT_MASK,
    TA,
    strain_of,
    trick_winner,
)

FULL = (1 << 32) - 1
TRUMP_VALUE = {RJ: 8, R9: 6, RA: 4, RT: 3, RK: 2, RQ: 2, R8: 1, R7: 1}


def _as_mask(cards: int | str) -> int:
    """Cards given as a mask or as card text."""
    return cards if isinstance(cards, int) else mask_of(DECK.parse_cards(cards))


def _has(hand: int, suit: int, rank: int) -> bool:
    return bool(hand >> (8 * suit + rank) & 1)


# --- hand evaluation -------------------------------------------------------------------
def suit_strength(hand: int, trump: int) -> int:
    """Count for ``trump`` as the trump suit: trump honours and length, belote, side
    aces (and tens guarded by them), voids and singletons when trumps are long."""
    trumps = (hand >> (8 * trump)) & 0xFF
    n = trumps.bit_count()
    pts = sum(TRUMP_VALUE[r] for r in range(8) if trumps >> r & 1)
    pts += max(0, n - 2) * 2  # length
    if trumps >> RK & 1 and trumps >> RQ & 1:
        pts += 2  # belote: 20 points that count for the contract
    for s in range(4):
        if s == trump:
            continue
        side = (hand >> (8 * s)) & 0xFF
        if side >> RA & 1:
            pts += 4 + (2 if side >> RT & 1 else 0)
        elif side >> RT & 1 and side.bit_count() >= 2:
            pts += 1
        if n >= 3:
            pts += {0: 3, 1: 1}.get(side.bit_count(), 0)
    return pts


def ta_strength(hand: int) -> int:
    """Count for all trumps (J 9 A T per suit, COINCHE-CARD-3): jacks and guarded nines."""
    pts = 0
    for s in range(4):
        side = (hand >> (8 * s)) & 0xFF
        j, nine = side >> RJ & 1, side >> R9 & 1
        pts += 7 * j + (5 if nine and j else 2 if nine and side.bit_count() >= 3 else 0)
        pts += (side >> RA & 1) * (2 if j and nine else 1)
        pts += max(0, side.bit_count() - 3) * 2 if j else 0
    return pts


def sa_strength(hand: int) -> int:
    """Count for no trumps (A T K per suit, COINCHE-CARD-4): aces, guarded tens, length
    behind masters."""
    pts = 0
    for s in range(4):
        side = (hand >> (8 * s)) & 0xFF
        a, t = side >> RA & 1, side >> RT & 1
        pts += 7 * a + (4 if a and t else 1 if t and side.bit_count() >= 3 else 0)
        if a and t and side >> RK & 1:
            pts += 2 + 2 * max(0, side.bit_count() - 3)
    return pts


def strain_strength(hand: int, strain: int) -> int:
    """Hand count for one strain, on the scale of ``suit_strength``."""
    if strain == TA:
        return ta_strength(hand)
    if strain == SA:
        return sa_strength(hand)
    return suit_strength(hand, strain)


# --- Belote: taking --------------------------------------------------------------------
BELOTE_TAKE = 16  # J+9+A of trumps (8+6+4+2) or J + 2 trumps + an ace clear it
BELOTE_SECOND = 18


def choose_take(obs: dict, legal: list[Move]) -> Move:
    """Belote round 1 (take the turned suit) and round 2 (name another strain)."""
    hand = _as_mask(obs["hand"])
    turned = DECK.card(obs["turned"])
    with_turned = hand | 1 << turned  # the taker always gets the turned card (BELOTE-BID-4)
    passing = next(m for m in legal if m.kind == "pass") if any(
        m.kind == "pass" for m in legal) else None
    takes = [m for m in legal if m.kind == "take"]
    if obs["bid_round"] == 1:
        score = suit_strength(with_turned, turned >> 3)
        if turned & 7 == RJ:
            score += 1
        if score >= BELOTE_TAKE or passing is None:
            return takes[0]
        return passing
    best = max(takes, key=lambda m: strain_strength(with_turned, m.value))
    if strain_strength(with_turned, best.value) >= BELOTE_SECOND or passing is None:
        return best
    return passing


# --- Coinche: auction ------------------------------------------------------------------
def bid_level(strength: int) -> int:
    """Contract value a count supports: 80 at 20, +10 per 3 more (tuned in duplicate
    matches against the 4-point step), capot (250) from 56."""
    if strength < 20:
        return 0
    if strength >= 56:
        return 250
    return min(160, 80 + 10 * ((strength - 20) // 3))


def defence_strength(hand: int, strain: int) -> int:
    """How much ``hand`` hurts a contract in ``strain`` (trump honours, side aces)."""
    pts = 0
    for s in range(4):
        side = (hand >> (8 * s)) & 0xFF
        trump = strain == TA or s == strain
        if trump:
            pts += 3 * (side >> RJ & 1) + 2 * (side >> R9 & 1) + (side >> RA & 1)
            pts += 1 if side.bit_count() >= 3 else 0
        else:
            pts += 2 * (side >> RA & 1) + (side >> RT & 1 and side >> RA & 1)
    return pts


def choose_call(obs: dict, legal: list[Move]) -> Move:
    """One Coinche call: raise the partner, bid our best strain, coinche, or pass."""
    me = obs["seat"]
    hand = _as_mask(obs["hand"])
    pass_move = Move("pass")
    contract = obs["contract"]
    by_bid = {m.value: m for m in legal if m.kind == "bid"}
    strains = sorted({s for _, s in by_bid})
    if not by_bid:  # after a coinche: surcoinche only with a very strong own contract
        if Move("surcoinche") in legal and contract and contract["seat"] % 2 == me % 2:
            strain = strain_of(contract["strain"])
            if bid_level(strain_strength(hand, strain)) >= contract["value"] + 30:
                return Move("surcoinche")
        return pass_move
    high = contract["value"] if contract else 0
    best = max(strains, key=lambda s: strain_strength(hand, s))
    mine = bid_level(strain_strength(hand, best))
    if contract and contract["seat"] % 2 == me % 2:
        if contract["seat"] == me:
            return pass_move
        # raise the partner's strain with support: jack / nine of trumps, side aces
        strain = strain_of(contract["strain"])
        support = 0
        for s in range(4):
            side = (hand >> (8 * s)) & 0xFF
            if strain == TA or s == strain:
                support += 2 * (side >> RJ & 1) + (side >> R9 & 1)
            else:
                support += side >> RA & 1
        value = min(160, high + 10 * (support // 3)) if high < 250 else high
        if value > high and (value, strain) in by_bid and high < 140:
            return by_bid[(value, strain)]
        if mine >= high + 30 and (mine, best) in by_bid and best != strain:
            return by_bid[(mine, best)]
        return pass_move
    if contract:  # the opponents hold the contract
        strain = strain_of(contract["strain"])
        if Move("coinche") in legal:
            need = 10 if high <= 90 else 9 if high <= 120 else 8
            if defence_strength(hand, strain) >= need and mine < high:
                return Move("coinche")
    target = mine
    if target > high and (target, best) in by_bid:
        return by_bid[(target, best)]
    for v in range(high + 10, target + 1, 10):  # the lowest value we support
        if (v, best) in by_bid:
            return by_bid[(v, best)]
    return pass_move


# --- card play -------------------------------------------------------------------------
class _View:
    """What the player sees, decoded once per decision."""

    def __init__(self, obs: dict):
        trick = [(s, DECK.card(t)) for s, t in obs["trick"]]
        tricks = [[(s, DECK.card(t)) for s, t in tr] for tr, _ in obs["tricks"]]
        played = _as_mask(obs.get("gone") or "")
        for tr in [*tricks, trick]:
            for _, c in tr:
                played |= 1 << c
        self._set(obs["seat"], _as_mask(obs["hand"]), strain_of(obs["strain"]),
                  obs["taker"], trick, tricks, played, _allowed(obs))

    def _set(self, me: int, hand: int, strain: int, taker: int, trick: list, tricks: list,
             played: int, allowed: dict[int, int]) -> None:
        self.me, self.hand, self.strain, self.taker = me, hand, strain, taker
        self.trick, self.tricks, self.played = trick, tricks, played
        self.unseen = FULL & ~played & ~hand  # in the other three hands
        self.attack = taker % 2 == me % 2
        self.allowed = allowed

    @classmethod
    def of(cls, me: int, hand: int, strain: int, taker: int, trick: list, tricks: list,
           played: int, allowed: dict[int, int]) -> _View:
        """The view of seat ``me`` holding ``hand``, from public facts: the same as
        ``_View(obs)`` of its observation when ``allowed`` is its
        ``worlds_belote.hidden(obs).allowed`` (``solver.play_model`` builds it for the
        seats' hands of a sampled world)."""
        v = cls.__new__(cls)
        v._set(me, hand, strain, taker, trick, tricks, played, allowed)
        return v

    def trumps(self, mask: int) -> int:
        if self.strain == TA:
            return mask
        if self.strain == SA:
            return 0
        return mask & SUIT_MASK[self.strain]

    def may_hold(self, seat: int, cards: int) -> bool:
        """Some of ``cards`` (unseen) may be in ``seat``'s hand."""
        for c in DECK.cards(cards & self.unseen):
            if self.allowed.get(c, 0b1111) >> seat & 1:
                return True
        return False

    def is_master(self, card: int) -> bool:
        """No unseen card of its suit beats it (BELOTE-CARD-2 / COINCHE-CARD-3/4)."""
        return ABOVE[self.strain][card] & self.unseen == 0

    def opponents_may_trump(self) -> bool:
        trumps = self.trumps(FULL) & self.unseen
        return any(self.may_hold(s, trumps) for s in range(4) if s % 2 != self.me % 2)


def _allowed(obs: dict) -> dict[int, int]:
    try:
        from ..worlds_belote import hidden
        return hidden(obs).allowed
    except (AtoutError, ImportError):
        return {}


def _points(v: _View, c: int) -> int:
    return POINTS[v.strain][c]


def _is_trump(v: _View, c: int) -> bool:
    return v.strain == TA or (v.strain < 4 and c >> 3 == v.strain)


def _low_key(v: _View, c: int):
    """Cheapest card to give away: fewest points, not a trump, lowest, from a long suit."""
    trump = _is_trump(v, c) and v.strain != TA
    length = (v.hand & SUIT_MASK[c >> 3]).bit_count()
    return (trump, _points(v, c), POWER[v.strain][c], -length)


def choose_card(obs: dict, cards: list[int]) -> int:
    """The card to play (from the legal ones)."""
    return choose_card_in(_View(obs), cards)


def choose_card_in(v: _View, cards: list[int]) -> int:
    """``choose_card`` from a decoded view."""
    if len(cards) == 1:
        return cards[0]
    if not v.trick:
        return _lead(v, cards)
    return _follow(v, cards)


def _lead(v: _View, cards: list[int]) -> int:
    my_trumps = [c for c in cards if _is_trump(v, c)] if v.strain < 4 else []
    plain = [c for c in cards if c not in my_trumps]
    if v.strain < 4 and my_trumps:
        outstanding = v.trumps(FULL) & v.unseen
        top = max(my_trumps, key=lambda c: POWER[v.strain][c])
        if outstanding and v.opponents_may_trump():
            if v.attack and v.is_master(top) and (len(my_trumps) >= 2 or not plain):
                return top  # pull trumps with the master trump
            if v.me == v.taker and len(my_trumps) >= 3 and not v.is_master(top):
                # chase the higher trump with a low one (the partner may hold it)
                return min(my_trumps, key=lambda c: (POWER[v.strain][c], _points(v, c)))
    # cash masters: aces and tens that no card can beat in their suit
    masters = [c for c in plain if v.is_master(c)]
    if v.strain < 4:
        # a plain master only holds if the opponents cannot trump it
        safe = [c for c in masters
                if not any(v.may_hold(s, SUIT_MASK[c >> 3]) is False
                           and v.may_hold(s, v.trumps(FULL)) for s in range(4)
                           if s % 2 != v.me % 2)]
        masters = safe
    if masters:
        return max(masters, key=lambda c: (_points(v, c), POWER[v.strain][c]))
    if v.strain == TA:
        top = [c for c in cards if v.is_master(c)]
        if top:
            return max(top, key=lambda c: _points(v, c))
    if plain:
        # keep trumps (one for the last trick): lead plain cards while we have some
        def key(c: int):
            suit = SUIT_MASK[c >> 3]
            length = (v.hand & suit).bit_count()
            bare_ten = c & 7 == RT and not v.played >> ((c & ~7) + RA) & 1
            guarded = any(_points(v, x) >= 10 for x in DECK.cards(v.hand & suit)) and \
                length <= 2
            # attack: shorten a suit to ruff later; defence: long suit
            return (bare_ten, guarded, _points(v, c), length if v.attack else -length,
                    POWER[v.strain][c])
        return min(plain, key=key)
    return min(cards, key=lambda c: (POWER[v.strain][c], _points(v, c)))


def _wins(v: _View, c: int) -> bool:
    return trick_winner([*v.trick, (v.me, c)], v.strain) == v.me


def _holds(v: _View, c: int) -> bool:
    """Will ``c``, winning now, stay the winner once the others after us have played?"""
    after = [(v.me + k) % 4 for k in range(1, 4 - len(v.trick))]
    opponents = [s for s in after if s % 2 != v.me % 2]
    if not opponents:
        return True
    led = v.trick[0][1] >> 3
    beat_in_suit = ABOVE[v.strain][c] & v.unseen
    trumps = v.trumps(FULL) & v.unseen
    for s in opponents:
        if _is_trump(v, c) or c >> 3 == led:
            if v.may_hold(s, beat_in_suit):
                return False
        if v.strain < 4 and not _is_trump(v, c):
            # a void opponent can trump a plain winner
            if not v.may_hold(s, SUIT_MASK[led]) and v.may_hold(s, trumps):
                return False
    return True


def _follow(v: _View, cards: list[int]) -> int:
    win_seat = trick_winner(v.trick, v.strain)
    win_card = next(c for s, c in v.trick if s == win_seat)
    partner_master = win_seat % 2 == v.me % 2
    last = len(v.trick) == 3
    trick_pts = sum(_points(v, c) for _, c in v.trick)
    if partner_master:
        safe = last or _holds_for(v, win_seat, win_card)
        if safe:  # charge: the partner's trick takes our points
            plain = [c for c in cards if not _is_trump(v, c) or v.strain == TA]
            pool = plain or cards
            if v.strain < 4 and not plain:
                return min(cards, key=lambda c: _low_key(v, c))
            non_master = [c for c in pool if not v.is_master(c)] or pool
            return max(non_master, key=lambda c: (_points(v, c), -POWER[v.strain][c]))
        return min(cards, key=lambda c: _low_key(v, c))
    winners = [c for c in cards if _wins(v, c)]
    if winners:
        cheap = min(winners, key=lambda c: (_is_trump(v, c) and v.strain != TA,
                                           POWER[v.strain][c], _points(v, c)))
        if last:
            return cheap
        holding = [c for c in winners if _holds(v, c)]
        if holding:
            return min(holding, key=lambda c: (_is_trump(v, c) and v.strain != TA,
                                               POWER[v.strain][c], _points(v, c)))
        if trick_pts >= 10 and _points(v, cheap) <= 4:
            return cheap
    return min(cards, key=lambda c: _low_key(v, c))


def _holds_for(v: _View, seat: int, card: int) -> bool:
    """Is the partner's winning ``card`` safe from the players still to come?"""
    after = [(v.me + k) % 4 for k in range(1, 4 - len(v.trick))]
    led = v.trick[0][1] >> 3
    trumps = v.trumps(FULL) & v.unseen
    for s in after:
        if s % 2 == v.me % 2:
            continue
        if (_is_trump(v, card) or card >> 3 == led) and \
                v.may_hold(s, ABOVE[v.strain][card] & v.unseen):
            return False
        if v.strain < 4 and not _is_trump(v, card) and \
                not v.may_hold(s, SUIT_MASK[led]) and v.may_hold(s, trumps):
            return False
    return True


# --- entry point -----------------------------------------------------------------------
def choose(game: str, obs: dict, legal: list[Move], rng: random.Random) -> Move:
    """The heuristic's move for ``game`` ('belote' or 'coinche') from the observation."""
    if obs["phase"] == "bid":
        if game == "belote":
            return choose_take(obs, legal)
        return choose_call(obs, legal)
    announces = [m for m in legal if m.kind == "announce"]
    if announces:  # BELOTE-ANN-5: announce every combination held
        return announces[0]
    cards = sorted({m.value for m in legal if m.kind in ("card", "belote")})
    card = choose_card(obs, cards)
    declared = Move("belote", card)
    return declared if declared in legal else Move("card", card)
