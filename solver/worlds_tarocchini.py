"""Tarocchini worlds: what a seat knows → constraints on the cards it cannot see.

``hidden(obs)`` turns one seat's observation (``TarocchiniState.observation``) during
the declarations or the card play into ``solver.constraints.Hidden``: holders are the
seats ``0..n-1`` then the pile set aside (``aside``: the Ottocento dealer's discard,
the Terziglio gioco discard, or the unseen Terziglio solo stock). Hard information only:

* hand sizes: every seat holds as many cards as the observer, less the cards it played
  in the trick in progress (OTTO-DEAL-1, TERZ-DEAL-1; the dealer/declarer discarded as
  many as he took, OTTO-DEAL-2, TERZ-BID-2);
* voids from the play (TAROC-PLAY-3): a follower who did not follow the led suit has
  none of it; one who neither followed a plain suit nor trumped has no trump. No upper
  limit on trumps: Tarocchini has no duty to overtrump (TAROC-PLAY-3, TAROC-EX-4). The
  Matto may replace any card (TAROC-MATTO-1), so it proves nothing; when the Matto is
  led, the next card defines the suit and its player was free (TAROC-PLAY-2);
* the *volo* signal (OTTO-SIG-1) is allowed only if true: its leader holds no further
  card of the led suit. *Striscio* and *busso* are requests, not facts: nothing;
* declared combinations are shown (TAROC-DECL-1): those cards not yet played are in the
  declarer's hand. Declaring is optional and may be partial (TAROC-DECL-2), so nothing
  follows about other cards — except under ``declarations=none_or_max`` (TAROC-DECL-3),
  where a non-empty declaration is the maximal one: a card that would have raised the
  best total of what the seat is known to have held is not in its hand;
* the pile aside: the discarder knows his discard (OTTO-DEAL-2, TERZ-BID-2), the others
  know it holds no five-point card; the solo stock is unseen by everybody and may hold
  anything (TERZ-BID-3).

Not used (soft or hand-level information): monte votes (OTTO-DEAL-4), bids
(TERZ-BID-1), a player's choice not to declare, and the Ottocento dealer's call-out
opportunity (OTTO-SCORE-3: a limit on his first 15 cards, which are not located).

``world(state, seat, holdings)`` copies the state and replaces every part hidden from
``seat``: the hands of the others, the pile aside, and the deal record (original hands,
talon or stock, monte packets) rebuilt from the sampled cards so that nothing of the
true deal survives in the copy.
"""

from __future__ import annotations

from typing import Any

from .cards import bit_list
from .constraints import Hidden
from .errors import AtoutError
from .games.base import Move
from .games.tarocchini import (
    FIVE_POINT_MASK,
    SUIT_MASK_OF,
    SUIT_OF,
    TRUMP,
    TarocchiniState,
    led_suit,
)
from .games.tarocchini_melds import MAT, best_combinations, unit_points
from .notation import Deal

FULL_DECK = (1 << 62) - 1
PHASES = ("declare", "play")


def _all_tricks(obs: dict[str, Any]) -> list[list[tuple[int, int]]]:
    return [list(t) for t, _ in obs["tricks"]] + ([list(obs["trick"])] if obs["trick"] else [])


def played_by_seat(obs: dict[str, Any], n: int) -> list[int]:
    """Mask of the cards each seat has played so far (public)."""
    out = [0] * n
    for t in _all_tricks(obs):
        for s, c in t:
            out[s] |= 1 << c
    return out


def void_masks(obs: dict[str, Any], n: int) -> list[int]:
    """Per seat, the cards it cannot hold because of how it played (TAROC-PLAY-3) and of
    the volo signals it gave (OTTO-SIG-1)."""
    forbid = [0] * n
    for t in _all_tricks(obs):
        led = led_suit(t)  # TAROC-PLAY-2: a led Matto lets the next card define the suit
        if led is None:
            continue
        for s, c in t:
            suit = SUIT_OF[c]
            if c == MAT or suit == led:
                continue  # TAROC-MATTO-1: the Matto is always legal, it proves nothing
            forbid[s] |= SUIT_MASK_OF[led]  # did not follow: void in the led suit
            if led != TRUMP and suit != TRUMP:
                forbid[s] |= SUIT_MASK_OF[TRUMP]  # did not trump either: no trump
    for _trick_no, s, c, sig in obs["signals"]:
        # OTTO-SIG-1: volo is only allowed when the led card is the last of its suit
        if sig == "volo" and c != MAT:
            forbid[s] |= SUIT_MASK_OF[SUIT_OF[c]] & ~(1 << c)
    return forbid


def _max_declaration_limits(obs: dict[str, Any], seat: int, held: int, unknown: int) -> int:
    """TAROC-DECL-3 ``none_or_max``: a non-empty declaration is the best set of the hand,
    so no unknown card can have raised the best total of the cards ``held`` then."""
    opts = obs["options"]
    multi = bool(opts["contatore_multi_use"])
    maxc = int(opts["max_contatori_per_suit_sequence"])
    declared = [tuple(x) for x in obs["declared"][seat]]
    points = unit_points(declared, multi)
    out = 0
    for c in bit_list(unknown):
        if best_combinations(held | 1 << c, multi, maxc)[0] > points:
            out |= 1 << c
    return out


def hidden(obs: dict[str, Any]) -> Hidden:
    """Constraints for the observing seat of ``obs`` (declarations or card play)."""
    if obs["phase"] not in PHASES:
        raise AtoutError(f"tarocchini worlds are sampled in the declarations or the card "
                         f"play only, not in phase {obs['phase']!r}")
    ottocento = obs["variant"] == "ottocento"
    n = 4 if ottocento else 3
    me = obs["seat"]
    aside = n
    played_by = played_by_seat(obs, n)
    played = obs["played"]  # the tricks, and the piles of a position set up mid-hand
    # OTTO-DEAL-1 / TERZ-DEAL-1: equal hands once the talon/stock exchange is done
    per_hand = obs["hand"].bit_count() + played_by[me].bit_count()
    size = [per_hand - played_by[s].bit_count() for s in range(n)]
    size.append(obs["aside_size"])
    if ottocento:
        discarder = obs["dealer"]
        solo = False
    else:
        discarder = obs["declarer"]
        solo = obs["contract"] == "solo"
        if discarder is None:
            raise AtoutError("tarocchini worlds: Terziglio without a declarer")

    fixed: dict[int, int] = {c: me for c in bit_list(obs["hand"])}
    if obs["discard"] is not None and not solo:
        fixed.update({c: aside for c in bit_list(obs["discard"])})  # the discarder's own
    for s in range(n):
        for _family, mask in obs["declared"][s]:  # TAROC-DECL-1: shown cards
            for c in bit_list(mask & ~played):
                if fixed.get(c, s) != s:
                    raise AtoutError("observation is inconsistent: a declared card is "
                                     "located elsewhere")
                fixed[c] = s

    forbid = void_masks(obs, n) + [0]
    forbid[me] = FULL_DECK
    if not solo:
        forbid[aside] |= FIVE_POINT_MASK  # OTTO-DEAL-2, TERZ-BID-2
    unknown = FULL_DECK & ~played & ~sum(1 << c for c in fixed)
    if obs["options"]["declarations"] == "none_or_max":
        for s in range(n):
            if s != me and obs["declared"][s]:
                held = played_by[s]
                for _family, mask in obs["declared"][s]:
                    held |= mask
                forbid[s] |= _max_declaration_limits(obs, s, held, unknown)

    everyone = (1 << (n + 1)) - 1
    allowed: dict[int, int] = {}
    for c in bit_list(unknown):
        mask = everyone
        for h in range(n + 1):
            if forbid[h] >> c & 1:
                mask &= ~(1 << h)
        allowed[c] = mask
    caps = list(size)
    for h in fixed.values():
        caps[h] -= 1
    if min(caps) < 0:
        raise AtoutError("observation is inconsistent: more known cards than places")
    if sum(caps) != len(allowed):
        raise AtoutError(f"{len(allowed)} unseen cards for {sum(caps)} places: a position "
                         f"must account for all 62 cards (hands, piles, discard or stock)")
    holders = [f"seat{s}" for s in range(n)] + ["stock" if solo else "discard"]
    return Hidden(holders, fixed, allowed, caps)


def _first_cards(mask: int, k: int) -> list[int]:
    return bit_list(mask)[:k]


def world(state: TarocchiniState, seat: int, holdings: list[list[int]]) -> TarocchiniState:
    """A copy of ``state`` in which everything ``seat`` cannot see is as drawn.

    ``holdings``: the cards of each seat then of the pile aside (``hidden``'s holders).
    The deal record is rebuilt from them (hand + cards played + discard; the talon, the
    gioco stock and the monte packets of the others chosen among those cards), so the
    world keeps no trace of the true hidden cards; its record replays to the same play.
    """
    if state.phase not in PHASES:
        raise AtoutError(f"tarocchini worlds need the declarations or the card play, not "
                         f"phase {state.phase!r}")
    n = state.n
    if len(holdings) != n + 1:
        raise AtoutError(f"a Tarocchini world needs {n + 1} holdings (seats, then aside)")
    masks = [sum(1 << c for c in h) for h in holdings]
    w = state.copy(undo=False)
    for s in range(n):
        w.hands[s] = masks[s]
    solo = state.variant == "terziglio" and state.contract == "solo"
    if solo:
        w.stock = masks[n]
    else:
        w.discard = masks[n]
        # the discard moves of the history are hidden too: replay the world's discard
        true = [m.value for m in state.history if m.kind == "discard"]
        mine = state.dealer if state.variant == "ottocento" else state.declarer
        cards = true if seat == mine else bit_list(masks[n])
        if len(cards) == len(true):
            it = iter(cards)
            w.history = [Move("discard", next(it)) if m.kind == "discard" else m
                         for m in state.history]
    if getattr(state, "_from_play", False):
        return w  # no deal record to rebuild
    played_by = [0] * n
    for t in [t for t, _ in state.tricks] + [state.trick]:
        for s, c in t:
            played_by[s] |= 1 << c
    start = [masks[s] | played_by[s] for s in range(n)]
    if state.variant == "ottocento":
        dealer = state.dealer
        before = start[dealer] | masks[n]  # his 17 cards before the discard
        if seat == dealer:
            talon = sum(1 << c for c in state.deal.extras["talon"])
        else:
            talon = sum(1 << c for c in _first_cards(before, 2))
        start[dealer] = before & ~talon
        extras: dict[str, list[int]] = {"talon": bit_list(talon)}
        packets: list[list[int]] = []
        taken = [0] * n
        names = [k for k in ("_first_five", "_second_five") if k in state.deal.extras]
        for name in names:
            true = state.deal.extras[name]
            pile: list[int] = []
            for s in range(n):
                if s == seat:
                    mine = true[5 * s:5 * s + 5]
                else:
                    mine = _first_cards(start[s] & ~taken[s], 5)
                taken[s] |= sum(1 << c for c in mine)
                pile += mine
            extras[name] = pile
            packets.append([sum(1 << c for c in pile[5 * s:5 * s + 5]) for s in range(n)])
        w.monte_masks = packets[:len(state.monte_masks)]
    else:
        stock_size = 62 - n * (start[0].bit_count())
        if solo:
            extras = {"stock": bit_list(masks[n])}
        else:
            decl = state.declarer
            before = start[decl] | masks[n]  # his hand with the stock, before discarding
            if seat == decl:
                stock = sum(1 << c for c in state.deal.extras["stock"])
            else:
                stock = sum(1 << c for c in _first_cards(before, stock_size))
            start[decl] = before & ~stock
            extras = {"stock": bit_list(stock)}
    w.deal = Deal([bit_list(m) for m in start], extras)
    return w
