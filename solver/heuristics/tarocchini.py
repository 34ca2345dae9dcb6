"""Tarocchini heuristic player (Ottocento and Terziglio), from its observation only.

Decisions, by phase:

* *monte* (OTTO-DEAL-4): throw in only a hopeless first packet (no trump, no honour);
* *callout* (OTTO-SCORE-3): always call out — it wins the game at once;
* *bid* (TERZ-BID-1): a hand-strength count (trumps, top trumps, Matto and Bagatto,
  Kings and Queens, voids, the points of the melds held) → pass / gioco / solo;
* *discard* (OTTO-DEAL-2, TERZ-BID-2): keep the melds and the trumps, empty short suits
  (voids let us trump), and bank counting cards that are not part of a meld: the discard
  belongs to our own pile;
* *declare* (TAROC-DECL): declare the best set of combinations the meld finder gives;
* card play (TAROC-PLAY, TAROC-MATTO): feed counting and meld cards to a partner's safe
  trick; win a valuable trick as cheaply as possible, or any trick with a card that
  cannot be beaten; otherwise duck with the cheapest card; the Matto replaces a valuable
  card that would be lost (it always stays with our side); lead long trumps when strong,
  cash masters where nobody can trump, else lead low from a short suit (to ruff later)
  or towards a partner's void. The leader throws a true *volo* on the last card of a
  suit so the partner knows (OTTO-SIG-1).
"""

from __future__ import annotations

import random
from typing import Any

from ..cards import bit_list
from ..games import tarocchini as T
from ..games.base import Move
from ..games.tarocchini_melds import (
    ANG,
    BAG,
    KING,
    KNIGHT,
    LUN,
    MAT,
    MON,
    MOORS,
    QUEEN,
    SOL,
    best_combinations,
)

TRUMPS = T.SUIT_MASK_OF[T.TRUMP]
GRANDI = (1 << ANG) | (1 << MON) | (1 << SOL) | (1 << LUN)
FULL = (1 << 62) - 1


def _melds(hand: int, obs: dict[str, Any]) -> tuple[int, tuple]:
    o = obs.get("options") or {}
    return best_combinations(hand, bool(o.get("contatore_multi_use", True)),
                             int(o.get("max_contatori_per_suit_sequence", 2)))


def worth(card: int) -> float:
    """What a card is worth to the side that captures it: its card value plus a bonus
    for the combinations it helps to make in the pile (TAROC-DECL-6)."""
    v = float(T.card_value(card))
    if card in (ANG, MON, BAG, MAT):
        return v + 4  # Tarocchi cricca and Grande head / contatori
    if card in (SOL, LUN):
        return v + 1.5
    if card in MOORS:
        return v + 0.5
    if card < 40:
        r = card % 10
        if r == KING:
            return v + 2
        if r in (QUEEN, KNIGHT):
            return v + 1
        if r == 0:  # Aces make the Aces sequence
            return v + 0.5
    return v


# --- hand strength and bidding --------------------------------------------------------
def hand_strength(hand: int, obs: dict[str, Any] | None = None) -> float:
    """Count for bidding: trumps (length and top trumps), the contatori, Kings and
    Queens, short suits, and a fifth of the points of the combinations held."""
    trumps = hand & TRUMPS
    n = trumps.bit_count()
    pts = 2.0 * n
    pts += 4 * (hand >> ANG & 1) + 3 * (hand >> MON & 1) + 2 * (hand >> SOL & 1) \
        + 1 * (hand >> LUN & 1)
    pts += 4 * (hand >> MAT & 1) + (1 if hand >> BAG & 1 and n >= 6 else 0)
    for s in range(4):
        suit = hand & T.SUIT_MASK_OF[s]
        k = suit >> (10 * s + KING) & 1
        q = suit >> (10 * s + QUEEN) & 1
        pts += 3 * k + (2 if q and (k or suit.bit_count() >= 3) else q)
        length = suit.bit_count()
        if length == 0:
            pts += 3
        elif length == 1 and not k:
            pts += 1
    pts += _melds(hand, obs or {})[0] / 5
    return pts


# Thresholds calibrated on self-play of this player (see the tests): gioco counts the
# stock's help; solo (doubled, no exchange) needs a much stronger hand.
GIOCO_AT = 26.0
SOLO_AT = 56.0
# Card-play tuning: lead trumps with at least max(TRUMP_LEAD_MIN, unseen trumps /
# TRUMP_LEAD_SHARE) of them; the Matto replaces a card worth at least MATTO_SAVES.
TRUMP_LEAD_MIN = 5
TRUMP_LEAD_SHARE = 2
MATTO_SAVES = 2.0
VALUABLE_AT = 6.0  # worth on the table that makes a trick worth winning
LEAD_LONG = -1  # +1: lead low from the longest suit; -1: from the shortest (to ruff)


def choose_bid(obs: dict[str, Any], legal: list[Move]) -> Move:
    pts = hand_strength(obs["hand"], obs)
    wanted = "solo" if pts >= SOLO_AT else "gioco" if pts >= GIOCO_AT else "pass"
    bids = {m.value: m for m in legal}
    for b in ("solo", "gioco") if wanted == "solo" else ("gioco",) if wanted == "gioco" else ():
        if b in bids:
            return bids[b]
    return bids["pass"]


def choose_monte(obs: dict[str, Any], legal: list[Move]) -> Move:
    """OTTO-DEAL-4: vote monte only with no trump, no contatore and no King or Queen."""
    hand = obs["hand"]
    honours = sum(1 for c in bit_list(hand) if c < 40 and c % 10 in (KING, QUEEN))
    hopeless = not hand & (TRUMPS | T.MAT_BIT) and honours == 0
    return next(m for m in legal if m.value == hopeless)


def choose_discard(obs: dict[str, Any], legal: list[Move]) -> Move:
    """Keep the best melds and the trumps; empty short suits; bank loose counting cards."""
    hand = obs["hand"]
    keep_pts = _melds(hand, obs)[0]

    def key(m: Move) -> tuple:
        c = m.value
        loss = keep_pts - _melds(hand & ~(1 << c), obs)[0]
        if c >= 40:  # a trump (never a five-point one here): keep trumps, the low ones go
            return (-loss, -10, -T.POWER[c])
        length = (hand & T.SUIT_MASK_OF[c // 10]).bit_count()
        return (-loss, -length, T.card_value(c))

    return max(legal, key=key)


def choose_declaration(obs: dict[str, Any], legal: list[Move]) -> Move:
    """TAROC-DECL-2/3: declare the best combinations, one family after the other."""
    kinds = {m.kind: m for m in legal}
    if "declare_max" in kinds:
        return kinds["declare_max"]
    mine = {f for f, _ in obs["declared"][obs["seat"]]}
    _, combos = _melds(obs["hand"], obs)
    for combo in combos:
        if combo[0] in mine:
            continue
        move = Move("declare", combo)
        if move in legal:
            return move
    return kinds["declare_end"]


def choose(game: str, obs: dict[str, Any], legal: list[Move], rng: random.Random) -> Move:
    """The move of the observing seat (``legal`` are its legal moves)."""
    phase = obs["phase"]
    if phase == "monte":
        return choose_monte(obs, legal)
    if phase == "callout":
        return next(m for m in legal if m.value is True)
    if phase == "bid":
        return choose_bid(obs, legal)
    if phase == "discard":
        return choose_discard(obs, legal)
    if phase == "declare":
        return choose_declaration(obs, legal)
    return play_card(obs, legal)


# --- card play ------------------------------------------------------------------------
def _sides(obs: dict[str, Any]) -> list[int]:
    if obs["variant"] == "ottocento":
        return [0, 1, 0, 1]
    return [0 if s == obs["declarer"] else 1 for s in range(3)]


def _current_winner(trick: list[tuple[int, int]]) -> int | None:
    if not trick or all(c == MAT for _, c in trick):
        return None
    return T.trick_winner(trick)


def _beats(card: int, best: int, led: int | None) -> bool:
    """Does ``card`` beat the trick's current best card ``best`` (TAROC-PLAY-4)?"""
    if card == MAT:
        return False
    s, b = T.SUIT_OF[card], T.SUIT_OF[best]
    if s == T.TRUMP:
        if b != T.TRUMP:
            return True
        # equal Moors: the one played last wins (TAROC-RANK-2)
        return T.POWER[card] > T.POWER[best] or (card in MOORS and best in MOORS)
    return b != T.TRUMP and s == led and T.POWER[card] > T.POWER[best]


def _unseen(obs: dict[str, Any]) -> int:
    """Cards neither in our hand nor out of play (nor our own known discard)."""
    return FULL & ~obs["hand"] & ~obs["played"] & ~(obs["discard"] or 0)


def _is_master(card: int, unseen: int) -> bool:
    """No unseen card of its suit outranks it (a Moor is never sure: equal Moors)."""
    if card == MAT:
        return False
    suit = T.SUIT_OF[card]
    for x in bit_list(unseen & T.SUIT_MASK_OF[suit]):
        if T.POWER[x] > T.POWER[card] or (card in MOORS and x in MOORS):
            return False
    return True


def _voids(obs: dict[str, Any], seat: int) -> set[int]:
    """Suits ``seat`` is known to lack: shown in play (TAROC-PLAY-3) or by a volo, which
    is only allowed when true (OTTO-SIG-1)."""
    voids = set(obs["voids"][seat])
    for _trick_no, s, c, sig in obs["signals"]:
        if s == seat and sig == "volo" and T.SUIT_OF[c] is not None:
            voids.add(T.SUIT_OF[c])
    return voids


def _may_trump(obs: dict[str, Any], seat: int, suit: int) -> bool:
    """Might ``seat`` trump a lead of plain ``suit``? (not if it follows or has no trump)"""
    voids = _voids(obs, seat)
    return suit in voids and T.TRUMP not in voids


def _cheap_key(card: int, hand: int) -> tuple:
    """Order for throwing a card away: low worth first, keep the contatori and the top
    trumps, prefer shedding from short plain suits (to make voids)."""
    if card == MAT:
        return (3, 0, 0)
    if card == BAG:
        return (2, 0, 0)
    if T.SUIT_OF[card] == T.TRUMP:
        return (1, worth(card), T.POWER[card])
    length = (hand & T.SUIT_MASK_OF[card // 10]).bit_count()
    return (0, worth(card), length, T.POWER[card])


def play_card(obs: dict[str, Any], legal: list[Move]) -> Move:
    cards = sorted({m.value if m.kind == "card" else m.value[0] for m in legal})
    card = _choose_card(obs, cards)
    if not obs["trick"] and card != MAT:
        volo = Move("signal", (card, "volo"))
        if volo in legal and obs["variant"] == "ottocento":
            return volo  # OTTO-SIG-1: a true "last of this suit", for the partner
    return Move("card", card)


def _choose_card(obs: dict[str, Any], cards: list[int]) -> int:
    if len(cards) == 1:
        return cards[0]
    me, hand, trick = obs["seat"], obs["hand"], obs["trick"]
    sides = _sides(obs)
    n = len(sides)
    unseen = _unseen(obs)
    plain = [c for c in cards if c != MAT]
    if not plain:
        return MAT
    if not trick:
        return _lead(obs, plain, sides, unseen)
    led = T.led_suit(trick)
    wseat = _current_winner(trick)
    to_play = [(me + k) % n for k in range(1, n - len(trick))]
    opponents_after = [s for s in to_play if sides[s] != sides[me]]
    last = not to_play
    on_table = sum(worth(c) for _, c in trick)
    if wseat is None:  # only the Matto led: our card defines the suit and leads
        return _lead(obs, plain, sides, unseen)
    best = next(c for s, c in trick if s == wseat)
    partner_wins = sides[wseat] == sides[me]

    def safe(card: int) -> bool:
        """Will ``card`` (currently winning) still win after the others play?"""
        if not opponents_after:
            return True
        if not _is_master(card, unseen):
            return False
        if T.SUIT_OF[card] != T.TRUMP:
            return not any(_may_trump(obs, s, led) for s in opponents_after)
        return True

    if partner_wins and safe(best):
        # feed points and meld cards to our trick (never the Matto: it is worth more
        # as a free card later; BAG is a fine gift here — it would otherwise be at risk)
        pool = [c for c in plain if c not in (ANG, MON, SOL)] or plain
        return max(pool, key=lambda c: (worth(c), -T.POWER[c]))
    winners = [c for c in plain if _beats(c, best, led)]
    if winners:
        sure = [c for c in winners if safe(c)]
        cheap = min(sure or winners, key=lambda c: (worth(c) if c not in (ANG, MON) else 9,
                                                    T.POWER[c]))
        valuable = on_table >= VALUABLE_AT or any(
            c in (ANG, MON, BAG, MAT) or c < 40 and c % 10 == KING for _, c in trick)
        if sure and (valuable or last or worth(cheap) >= 4):
            return cheap
        if sure and T.SUIT_OF[cheap] != T.TRUMP:
            return cheap  # a master of the suit: take it
        if last and cheap not in (ANG, MON):
            return cheap
        if valuable and not partner_wins and (cheap == min(winners, key=lambda c: T.POWER[c])):
            if worth(cheap) <= 2:
                return cheap
    # losing the trick (or leaving it to the partner): the cheapest card, and the Matto
    # instead when even that would give away something valuable (TAROC-MATTO-1/2)
    throw = min(plain, key=lambda c: _cheap_key(c, hand))
    if MAT in cards and not partner_wins and worth(throw) >= MATTO_SAVES:
        return MAT
    return throw


def _lead(obs: dict[str, Any], plain: list[int], sides: list[int], unseen: int) -> int:
    me, hand = obs["seat"], obs["hand"]
    n = len(sides)
    opponents = [s for s in range(n) if sides[s] != sides[me]]
    partners = [s for s in range(n) if sides[s] == sides[me] and s != me]
    trumps = [c for c in plain if T.SUIT_OF[c] == T.TRUMP]
    unseen_trumps = (unseen & TRUMPS).bit_count()
    opp_have_trumps = any(T.TRUMP not in _voids(obs, s) for s in opponents)
    # strong in trumps: draw the opponents' trumps, from the top when it is master
    if trumps and opp_have_trumps and unseen_trumps \
            and len(trumps) >= max(TRUMP_LEAD_MIN, unseen_trumps // TRUMP_LEAD_SHARE):
        top = max(trumps, key=lambda c: T.POWER[c])
        if _is_master(top, unseen):
            return top
        mids = [c for c in trumps if c not in (BAG, ANG, MON) and c not in MOORS]
        if mids:
            return min(mids, key=lambda c: T.POWER[c])
    suits = [c for c in plain if T.SUIT_OF[c] != T.TRUMP]
    # cash a master (a King...) in a suit no opponent can trump
    masters = [c for c in suits if _is_master(c, unseen)
               and not any(_may_trump(obs, s, c // 10) for s in opponents)]
    if masters:
        return max(masters, key=worth)
    # towards a partner's void (he trumps) when the opponents follow
    for p in partners:
        for c in sorted(suits, key=lambda c: worth(c)):
            s = c // 10
            if _may_trump(obs, p, s) and not any(_may_trump(obs, o, s) for o in opponents) \
                    and worth(c) <= 2:
                return c
    if suits:
        # a low card of a short suit (LEAD_LONG), keeping the honours; not into a ruff
        def key(c: int) -> tuple:
            s = c // 10
            length = (hand & T.SUIT_MASK_OF[s]).bit_count()
            ruff = any(_may_trump(obs, o, s) for o in opponents)
            return (ruff, worth(c) >= 3, -length * LEAD_LONG, worth(c), T.POWER[c])
        return min(suits, key=key)
    mids = [c for c in trumps if c not in (BAG, ANG, MON)]
    if mids:
        return min(mids, key=lambda c: T.POWER[c])
    return max(plain, key=lambda c: T.POWER[c])
