"""French Tarot heuristic player (sees only its observation).

Bidding: the hand-strength count of seed 002's strategy section (bouts, trump length
and majors, honours, long suits, voids and singletons) mapped to pass / prise / garde /
garde sans / garde contre. Play: the attack pulls trumps when long in them and cashes
masters; everybody saves the Petit when it is safe, never wastes the 21 on an empty
trick, feeds points to a partner's winning trick, ducks cheaply otherwise, and gets rid
of the Excuse before the last trick.
"""

from __future__ import annotations

import random

from ..games import tarot as T
from ..games.base import Move

HONOURS = {T.RANK_K: 9, T.RANK_Q: 7, T.RANK_N: 5, T.RANK_J: 3}


def hand_strength(hand: int) -> int:
    """Seed 002 'hand evaluation' points (4-player scale)."""
    trumps = hand & T.TRUMP_MASK
    n_trumps = trumps.bit_count() + (1 if hand & T.EXCUSE_BIT else 0)
    pts = 0
    if trumps >> T.MONDE & 1:
        pts += 10
    if hand & T.EXCUSE_BIT:
        pts += 8
    if trumps & 1:  # the Petit, worth more with protection
        pts += 0 if n_trumps <= 3 else 5 if n_trumps == 4 else 7 if n_trumps == 5 else 9
    if n_trumps >= 4:
        pts += 2 * n_trumps
    majors = [t for t in range(15, 21) if trumps >> t & 1]  # T16..T21
    pts += 2 * len(majors)
    pts += sum(1 for t in majors if trumps >> (t + 1) & 1 or trumps >> (t - 1) & 1 and t > 15)
    for s in range(4):
        suit = hand & T.SUIT_MASKS[s]
        base = 22 + 14 * s
        k, q = suit >> (base + T.RANK_K) & 1, suit >> (base + T.RANK_Q) & 1
        pts += 10 if k and q else 6 if k else 3 if q else 0
        pts += 2 * (suit >> (base + T.RANK_N) & 1) + (suit >> (base + T.RANK_J) & 1)
        length = suit.bit_count()
        pts += 9 if length >= 7 else 7 if length == 6 else 5 if length == 5 else 0
        pts += 6 if length == 0 else 3 if length == 1 else 0
    return pts


# Seed 002's brackets (40 prise, 56 garde, 71 garde sans, 81 garde contre) are a
# 4-player count; hand_strength is multiplied by this percentage before comparing
# (integers: the thresholds are exact). Calibrated
# against this player's own card play (benchmarks/RESULTS.md, 2026-11-30 evening): the
# strongest seat's prise breaks even at a count of ~60 with 3 players (24-card hands
# count high), ~50 with 4, and gains from ~25 with 5 (the called partner helps), so
# the prise threshold sits at 60 / 50 / 31.
BID_SCALE = {3: 67, 4: 80, 5: 130}


def choose_bid(obs: dict, legal: list[Move]) -> Move:
    return bid_for_strength(hand_strength(obs["hand"]), obs["players"], legal)


def bid_for_strength(strength: int, players: int, legal: list[Move]) -> Move:
    """The bid of a hand of this ``hand_strength`` (the highest legal bid up to the
    contract its scaled count supports, else pass)."""
    pts = strength * BID_SCALE[players]
    wanted = ("pass" if pts < 4000 else "prise" if pts < 5600 else "garde" if pts < 7100
              else "garde_sans" if pts < 8100 else "garde_contre")
    order = ("pass", *T.CONTRACTS)
    bids = {m.value: m for m in legal}
    for b in reversed(order[: order.index(wanted) + 1]):
        if b in bids:
            return bids[b]
    return bids["pass"]


def choose_call(obs: dict, legal: list[Move]) -> Move:
    """Call the king (or fallback rank) of the suit we are longest in, not held."""
    hand = obs["hand"]
    return max(legal, key=lambda m: ((hand >> m.value & 1) == 0,
                                     (hand & T.SUIT_MASKS[T.card_suit(m.value)]).bit_count()))


def choose_discard(obs: dict, legal: list[Move]) -> Move:
    """Écart: create voids (short suits first), bank points (queens, knights) safely."""
    hand = obs["hand"]

    def key(m: Move):
        c = m.value
        if c < T.EXCUSE:  # forced trump: lowest
            return (-100, -c)
        length = (hand & T.SUIT_MASKS[T.card_suit(c)]).bit_count()
        return (T.card_points(c) - 2 * length, c)

    return max(legal, key=key)


def choose(game: str, obs: dict, legal: list[Move], rng: random.Random) -> Move:
    kinds = {m.kind for m in legal}
    phase = obs["phase"]
    if phase == "bid":
        return choose_bid(obs, legal)
    if phase == "call":
        return choose_call(obs, legal)
    if phase == "ecart":
        return choose_discard(obs, legal)
    if phase == "chelem":
        return next(m for m in legal if m.value is False)
    if phase == "show":  # show the lowest trumps, keeping the big ones secret
        return min(legal, key=lambda m: (m.value == T.EXCUSE, m.value))
    if "poignee" in kinds or "misere" in kinds:
        announce = [m for m in legal if m.kind in ("poignee", "misere")]
        if any(m.kind == "misere" for m in announce):
            return next(m for m in announce if m.kind == "misere")
        levels = [m for m in announce if m.kind == "poignee"]
        if levels and obs["seat"] == obs["taker"]:
            return max(levels, key=lambda m: T.POIGNEE_LEVELS.index(m.value))
    cards = [m for m in legal if m.kind == "card"]
    return play_card(obs, cards)


# --- card play ------------------------------------------------------------------------
def _side(obs: dict, seat: int) -> int | None:
    """1 attack, 0 defence, None unknown (hidden 5p partner)."""
    if seat == obs["taker"]:
        return 1
    if obs["partner_known"]:
        return 1 if seat == obs["partner"] else 0
    me = obs["seat"]
    if seat == me:
        return 1 if obs["hand"] >> (obs["called_card"] or 0) & 1 and obs["called_card"] \
            is not None else 0
    return None


def _played(obs: dict) -> int:
    m = 0
    for t, _ in obs["tricks"]:
        for _, c in t:
            m |= 1 << c
    for _, c in obs["trick"]:
        m |= 1 << c
    return m


def _winning(trick) -> tuple[int, int] | None:
    """(seat, card) currently winning the trick."""
    if not trick or all(c == T.EXCUSE for _, c in trick):
        return None
    w = T.trick_winner(trick)
    return next((s, c) for s, c in trick if s == w)


def _beats(card: int, best: int, led: int | None) -> bool:
    if card == T.EXCUSE:
        return False
    if card < T.EXCUSE:
        return best >= T.EXCUSE or card > best
    if best < T.EXCUSE:
        return False
    return T.card_suit(card) == led and card > best


def _master_in_suit(card: int, played: int, hand: int) -> bool:
    """No unseen card of the suit ranks above ``card``."""
    suit = T.SUIT_MASKS[T.card_suit(card)]
    above = suit & ~((1 << (card + 1)) - 1)
    return above & ~(played | hand) == 0


def play_card(obs: dict, cards: list[Move]) -> Move:
    n = obs["players"]
    me, hand, trick = obs["seat"], obs["hand"], obs["trick"]
    my_side = 1 if me == obs["taker"] or (obs["partner_known"] and me == obs["partner"]) \
        or (obs["called_card"] is not None and hand >> obs["called_card"] & 1) else 0
    played = _played(obs)
    tricks_left = hand.bit_count()
    legal = [m.value for m in cards]
    by_card = {m.value: m for m in cards}
    has_ex = T.EXCUSE in legal
    non_ex = [c for c in legal if c != T.EXCUSE]
    # the Excuse must not reach the last trick (it would change side, TAROT-EXC-5)
    if has_ex and (tricks_left <= 2 or not non_ex):
        return by_card[T.EXCUSE]
    if not trick:
        return by_card[_lead(obs, non_ex, my_side, played)]
    led = T.led_suit(trick)
    win = _winning(trick)
    last_to_play = len(trick) == n - 1
    partner_winning = win is not None and win[0] != me and _side(obs, win[0]) == my_side
    trick_points = sum(T.card_points(c) for _, c in trick)
    best = win[1] if win else -1
    winners = [c for c in non_ex if win is None or _beats(c, best, led)]
    # save the Petit when it cannot be taken: partner wins with a trump and we're last,
    # or our T1 is itself the only legal trump
    if 0 in non_ex:
        if (partner_winning and last_to_play) or non_ex == [0]:
            return by_card[0]
    if partner_winning:
        safe = last_to_play or (best < T.EXCUSE and best >= 15)
        pool = [c for c in non_ex if c != 0 and c != T.MONDE]
        if safe and pool:  # feed points
            return by_card[max(pool, key=lambda c: (T.card_points(c) if c >= T.EXCUSE else 0,
                                                    -c if c < T.EXCUSE else c))]
        return by_card[_cheapest(non_ex)]
    if winners:
        valuable = trick_points >= 6 or any(c == 0 for _, c in trick)
        cheap = min(winners, key=lambda c: (c == T.MONDE, c == 0, c))
        if last_to_play or valuable or cheap >= T.EXCUSE and _master_in_suit(cheap, played, hand):
            if cheap != T.MONDE or valuable:
                return by_card[cheap]
        if cheap >= T.EXCUSE and _master_in_suit(cheap, played, hand):
            return by_card[cheap]
    if has_ex and trick_points >= 9 and not winners:
        return by_card[T.EXCUSE]
    return by_card[_cheapest(non_ex)]


def _cheapest(cards: list[int]) -> int:
    """Lowest-value card to throw away, keeping the Petit and the 21."""
    def key(c: int):
        if c == 0 or c == T.MONDE:
            return (3, c)
        if c < T.EXCUSE:
            return (1, c)
        return (0 if T.card_points(c) == 1 else 2, T.card_points(c), c)
    return min(cards, key=key)


def _lead(obs: dict, cards: list[int], my_side: int, played: int) -> int:
    hand = obs["hand"]
    trumps = [c for c in cards if c < T.EXCUSE]
    plain = [c for c in cards if c > T.EXCUSE]
    outstanding_trumps = (T.TRUMP_MASK & ~played & ~hand).bit_count()
    # cash a master honour
    masters = [c for c in plain if (c - 22) % 14 >= T.RANK_J and _master_in_suit(c, played, hand)]
    if my_side == 1 and len(trumps) >= 6 and outstanding_trumps > 0:
        mids = [c for c in trumps if c not in (0, T.MONDE)]
        if mids:
            return max(mids) if len(trumps) >= 9 else min(mids)
    if masters:
        return max(masters, key=lambda c: T.card_points(c))
    if plain:
        # a low card of our longest suit without honours at risk
        def key(c: int):
            length = (hand & T.SUIT_MASKS[T.card_suit(c)]).bit_count()
            return (-length if my_side == 0 else length, T.card_points(c), c)
        return min(plain, key=key)
    mids = [c for c in trumps if c not in (0, T.MONDE)]
    if mids:
        return min(mids)
    return max(trumps) if T.MONDE in trumps else min(cards)
