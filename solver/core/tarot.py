"""Python face of the Tarot core (``solver.tarot_core``): turns the play phase of a
:class:`solver.games.tarot.TarotState` into a core position (bit masks and small
integers), validating it first so that the core only ever sees consistent input.

Card ids and masks are those of ``solver.cards.TAROT_DECK``; the core splits a mask into
its trump word (``T1..T21``, ``EX``) and its suit word. Points are doubled integers.
"""

from __future__ import annotations

from typing import Any

from .. import tarot_core
from ..cards import TAROT_DECK
from ..errors import AtoutError, DealError, IllegalMoveError, OptionError

TarotCore = tarot_core.TarotCore

EXCUSE = 21
BOUTS_MASK = (1 << 0) | (1 << 20) | (1 << 21)  # TAROT-DECK-3
FULL_DECK = (1 << 78) - 1
HAND_SIZE = {3: 24, 4: 18, 5: 15}  # TAROT-DEAL-1
BASE_FIXED = {"prise": 10, "garde": 40, "garde_sans": 80, "garde_contre": 160}  # TAROT-VAR-2
POIGNEE_LEVELS = ("simple", "double", "triple")


def cards_of(mask: int) -> list[int]:
    """Card ids of a mask, lowest first."""
    return TAROT_DECK.cards(mask)


def trick_winner_index(cards: list[int]) -> int:
    """Index of the winning card of a trick by TAROT-PLAY-6 (EX never wins here)."""
    return tarot_core.trick_winner(list(cards))


def card_points2(card: int) -> int:
    """Doubled value of a card (TAROT-DECK-4)."""
    return tarot_core.card_points2(card)


def pile_points2(mask: int) -> int:
    """Doubled value of a card set (a 78-bit mask)."""
    return tarot_core.mask_points2(mask)


def objective_params(contract: str, options: dict[str, Any]) -> dict[str, int]:
    """Base, multiplier and petit-au-bout multiplier of T (TAROT-SCORE-1, TAROT-VAR-2)."""
    if options.get("scoring", "fft") == "fixed_base":
        return {"base": BASE_FIXED[contract], "mult": 1, "pb_mult": 1}
    if contract == "garde_contre":
        m = int(options.get("garde_contre_multiplier", 6))
    else:
        m = {"prise": 1, "garde": 2, "garde_sans": 4}[contract]
    return {"base": 25, "mult": m, "pb_mult": m}


def poignee_total(state: Any) -> int:
    """Sum of the poignée bonuses announced so far (TAROT-ANN-6, TAROT-SCORE-4)."""
    bonuses = state.options["poignee_bonuses"]
    return sum(bonuses[POIGNEE_LEVELS.index(level)] for _, level, _ in state.poignees)


def captured(state: Any) -> tuple[int, int]:
    """(doubled points, bouts) already credited to the attack: its won cards plus the
    écart (prise/garde) or the dog (garde sans), with a pending Excuse half-point
    (TAROT-EXC-4) settled as the rules settle it at counting."""
    pile = state.attack_pile()
    p2 = pile_points2(pile)
    owed = state.excuse_owed
    if owed == 1:
        p2 -= 1
    elif owed == 0:
        p2 += 1
    return p2, (pile & BOUTS_MASK).bit_count()


def validate(state: Any) -> None:
    """Raise a package error unless ``state`` is a consistent Tarot play-phase position."""
    if getattr(state, "game", None) != "tarot":
        raise AtoutError("the Tarot core needs a tarot state")
    if state.phase != "play":
        raise AtoutError(f"the Tarot core needs a position in the card play, not phase "
                         f"{state.phase!r}")
    n = state.players
    if n not in HAND_SIZE or len(state.hands) != n:
        raise DealError(f"a tarot position needs 3, 4 or 5 hands, got {len(state.hands)}")
    seen = 0
    for m in (*state.hands, *(1 << c for _, c in state.trick)):
        if m < 0 or m & ~FULL_DECK:
            raise DealError("a hand holds a card outside the tarot deck")
        if m & seen:
            raise DealError("a card is in two places in the position")
        seen |= m
    seat = state.to_act
    if state.trick and state.trick[0][0] != state.leader:
        raise DealError("the trick in progress does not start with the leader")
    for i, (s, _) in enumerate(state.trick):
        if s != (state.leader + i) % n:
            raise DealError("the trick in progress is not in seat order")
    remaining = state.hands[seat].bit_count()
    if remaining == 0:
        raise DealError("the seat to act has no card")
    for s in range(n):
        played = any(t == s for t, _ in state.trick)
        if state.hands[s].bit_count() + played != remaining:
            raise DealError("hands of the position have inconsistent sizes")
    total = state.trick_no() + remaining
    if total > HAND_SIZE[n]:
        raise DealError("more tricks than a deal has")
    if n == 5 and state.partner is not None and state.partner == state.taker:
        raise DealError("the partner cannot be the taker")


def from_state(state: Any, *, tt_bits: int = 20, poignee: int | None = None) -> TarotCore:
    """A core position equal to the play-phase ``state`` (validated first).

    ``poignee``: total poignée bonus H to score (default: the poignées announced in the
    state). The 5-player partner is taken as known (double dummy sees every hand)."""
    validate(state)
    n = state.players
    opts = state.options
    trick_no = state.trick_no()
    total = trick_no + state.hands[state.to_act].bit_count()
    att_pts, att_bouts = captured(state)
    forbid = 0
    if n == 5 and opts["five_player_first_lead_restriction"] and state.called_card is not None:
        c = state.called_card
        suit_mask = ((1 << 14) - 1) << (22 + 14 * ((c - 22) // 14)) if c >= 22 else 0
        forbid = suit_mask & ~(1 << c)  # TAROT-CALL-6
    pt = state.petit_trick
    params = objective_params(state.contract, opts)
    if poignee is None:
        poignee = poignee_total(state)
    if isinstance(poignee, bool) or not isinstance(poignee, int) or not 0 <= poignee <= 1000:
        raise OptionError(f"poignée bonus must be an integer in 0..1000, got {poignee!r}")
    try:
        return TarotCore(
            n, list(state.hands), state.leader, [c for _, c in state.trick], trick_no, total,
            [state.side_of(s) for s in range(n)], att_pts=att_pts, att_bouts=att_bouts,
            att_tricks=state.tricks_won[1], def_tricks=state.tricks_won[0],
            petit_trick=-1 if pt is None else pt[0],
            excuse_rule=0 if opts["excuse_last_trick"] == "changes_side" else 1,
            forbid=forbid, poignee=poignee, chelem_announced=bool(state.chelem_announced),
            tt_bits=tt_bits, **params)
    except ValueError as e:
        raise DealError(f"inconsistent tarot position: {e}") from None


def legal_cards(state: Any) -> int:
    """Mask of the legal cards of the seat to act, computed by the core."""
    return from_state(state, tt_bits=4).legal_mask()


def play_card(core: TarotCore, card: int) -> None:
    """Play a card in a core position, raising IllegalMoveError if it is not legal."""
    try:
        core.play(card)
    except ValueError as e:
        raise IllegalMoveError(f"card {card}: {e}") from None
