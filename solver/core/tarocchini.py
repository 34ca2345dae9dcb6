"""Typed Python face of the Tarocchini Cython core (``solver.tarocchini_core``).

Converts the play phase of a ``TarocchiniState`` (``hands``, ``trick``, ``leader``,
``piles``, ``owed``, ``tricks_won``, ``side_of``, ``discard``, ``stock``,
``decl_points``) or plain masks into a core position, validating it first so that the
core never sees an inconsistent position (every problem raises ``DealError`` /
``OptionError`` with a message naming it).  The core itself never imports a game
module: it receives deck masks and small integers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import tarocchini_core as _core
from ..errors import DealError, OptionError

FULL = (1 << 62) - 1
MAT = 61

TarocchiniCore = _core.TarocchiniCore
DDSolver = _core.DDSolver
meld_points = _core.meld_points
points_half = _core.points_half


@dataclass(frozen=True)
class Game:
    """Everything fixed during the play of one deal that the objective depends on.

    ``side_of``: seat -> side (Ottocento teams {0,2} = 0; Terziglio declarer = 0);
    ``discard`` (deck mask) joins ``discard_side``'s pile unless that side wins no
    trick (OTTO-DEAL-3, TERZ-BID-2); ``stock`` (solo) goes to the side of the last trick
    (TERZ-BID-3); ``declared``: points declared per side (TAROC-DECL-4)."""

    n: int
    side_of: tuple[int, ...]
    discard: int = 0
    discard_side: int = 0
    stock: int = 0
    declared: tuple[int, int] = (0, 0)
    multi_use: bool = True
    max_cont: int = 2

    def args(self) -> tuple[Any, ...]:
        return (self.n, list(self.side_of), self.discard, self.discard_side, self.stock,
                list(self.declared), self.multi_use, self.max_cont)


@dataclass(frozen=True)
class Position:
    """A validated play-phase position: deck masks per seat, the trick in progress
    (deck cards in play order from ``leader``), the sides' piles, debts and tricks won."""

    hands: tuple[int, ...]
    trick: tuple[int, ...]
    leader: int
    piles: tuple[int, int] = (0, 0)
    owed: tuple[int, int] = (0, 0)
    won: tuple[int, int] = (0, 0)
    last_side: int = -1

    @property
    def to_act(self) -> int:
        return (self.leader + len(self.trick)) % len(self.hands)

    def args(self) -> tuple[Any, ...]:
        return (list(self.hands), list(self.trick), self.leader, list(self.piles),
                list(self.owed), list(self.won), self.last_side)


def make_game(n: int, side_of: Any, *, discard: int = 0, discard_side: int = 0, stock: int = 0,
              declared: Any = (0, 0), multi_use: bool = True, max_cont: int = 2) -> Game:
    """Validate and build a Game; raises DealError / OptionError naming the problem."""
    if n not in (3, 4):
        raise DealError(f"Tarocchini is played by 3 or 4 players, got {n!r}")
    sides = tuple(int(x) for x in side_of)
    if len(sides) != n or any(x not in (0, 1) for x in sides) or len(set(sides)) != 2:
        raise DealError(f"side_of must give side 0 or 1 to each of the {n} seats, both "
                        f"sides present, got {side_of!r}")
    for name, m in (("discard", discard), ("stock", stock)):
        if not isinstance(m, int) or m < 0 or m & ~FULL:
            raise DealError(f"{name} must be a mask of the 62-card deck")
    if discard & stock:
        raise DealError("a card is both in the discard and in the stock")
    if discard_side not in (0, 1):
        raise DealError(f"discard_side must be 0 or 1, got {discard_side!r}")
    decl = tuple(int(x) for x in declared)
    if len(decl) != 2 or any(x < 0 for x in decl):
        raise DealError(f"declared must be two non-negative point totals, got {declared!r}")
    if max_cont not in (1, 2):
        raise OptionError(f"max_contatori_per_suit_sequence must be 1 or 2, got {max_cont!r}")
    return Game(n, sides, discard, discard_side, stock, (decl[0], decl[1]), bool(multi_use),
                int(max_cont))


def make_position(game: Game, hands: list[int], trick: list[int] | tuple[int, ...] = (), *,
                  leader: int, piles: Any = (0, 0), owed: Any = (0, 0),
                  won: Any = None, last_side: int = -1) -> Position:
    """Validate and build a Position for ``game``; raises DealError naming the problem."""
    n = game.n
    if len(hands) != n:
        raise DealError(f"a {n}-player Tarocchini position has {n} hands, got {len(hands)}")
    hands_t = tuple(int(h) for h in hands)
    if not (isinstance(leader, int) and 0 <= leader < n):
        raise DealError(f"leader must be a seat 0..{n - 1}, got {leader!r}")
    trick_t = tuple(int(c) for c in trick)
    if len(trick_t) >= n:
        raise DealError(f"a trick in progress holds at most {n - 1} cards")
    piles_t = tuple(int(p) for p in piles)
    if len(piles_t) != 2:
        raise DealError("piles: one mask per side")
    seen = game.discard | game.stock
    for what, m in [*((f"hand of seat {s}", h) for s, h in enumerate(hands_t)),
                    *((f"pile of side {s}", p) for s, p in enumerate(piles_t))]:
        if m < 0 or m & ~FULL:
            raise DealError(f"{what} holds cards outside the 62-card deck")
        if seen & m:
            raise DealError(f"a card of the {what} is also elsewhere")
        seen |= m
    for c in trick_t:
        if not 0 <= c < 62:
            raise DealError(f"trick card index {c} out of range")
        if seen >> c & 1:
            raise DealError("a card of the trick is also in a hand or pile")
        seen |= 1 << c
    size = hands_t[leader].bit_count() + (1 if trick_t else 0)
    for i in range(n):
        seat = (leader + i) % n
        want = size - 1 if i < len(trick_t) else size
        if hands_t[seat].bit_count() != want:
            raise DealError(f"seat {seat} holds {hands_t[seat].bit_count()} cards, expected "
                            f"{want} with {len(trick_t)} card(s) in the trick led by {leader}")
    if size == 0:
        raise DealError("empty position: no card left to play")
    if size > 20:
        raise DealError(f"at most 19 cards per hand, got {size}")
    owed_t = tuple(int(x) for x in owed)
    if len(owed_t) != 2 or any(x < 0 for x in owed_t) or sum(owed_t) > 1:
        raise DealError(f"owed: scartini owed per side, at most one in all (one Matto), "
                        f"got {owed!r}")
    for s in (0, 1):
        if owed_t[s] and not piles_t[s] >> MAT & 1:
            raise DealError(f"side {s} owes a scartino but does not hold the Matto")
    if won is None:
        won = tuple(int(p != 0) for p in piles_t)
    won_t = tuple(int(x) for x in won)
    if len(won_t) != 2 or any(x < 0 for x in won_t):
        raise DealError(f"won: tricks won per side, got {won!r}")
    for s in (0, 1):
        if piles_t[s] & ~(1 << MAT) and not won_t[0] + won_t[1]:
            raise DealError("piles hold cards but no trick has been won")
    if last_side not in (-1, 0, 1):
        raise DealError(f"last_side must be -1, 0 or 1, got {last_side!r}")
    return Position(hands_t, trick_t, leader, (piles_t[0], piles_t[1]),
                    (owed_t[0], owed_t[1]), (won_t[0], won_t[1]), last_side)


def game_of_state(state: Any) -> Game:
    """The fixed deal data of a TarocchiniState in its play phase."""
    o = state.options
    n = state.n
    side_of = tuple(state.side_of)
    if state.variant == "ottocento":
        dside = side_of[state.dealer]
    else:
        if state.declarer is None:
            raise DealError("a Terziglio position needs a declarer")
        dside = side_of[state.declarer]
    declared = tuple(sum(state.decl_points[p] for p in range(n) if side_of[p] == s)
                     for s in (0, 1))
    return make_game(n, side_of, discard=state.discard, discard_side=dside, stock=state.stock,
                     declared=declared, multi_use=bool(o.get("contatore_multi_use", True)),
                     max_cont=int(o.get("max_contatori_per_suit_sequence", 2)))


def position_of_state(state: Any) -> Position:
    """The core position of a TarocchiniState in its play phase."""
    if state.phase != "play":
        raise DealError(f"the state is not in the play phase (phase {state.phase!r})")
    game = game_of_state(state)
    last_side = state.side_of[state.tricks[-1][1]] if state.tricks else -1
    return make_position(game, list(state.hands), [c for _, c in state.trick],
                         leader=state.leader, piles=state.piles, owed=state.owed,
                         won=state.tricks_won, last_side=last_side)


def core_of(game: Game, position: Position) -> TarocchiniCore:
    """A TarocchiniCore loaded with ``position`` of ``game``."""
    core = TarocchiniCore(*game.args())
    core.set_position(*position.args())
    return core


def core_of_state(state: Any) -> TarocchiniCore:
    """A TarocchiniCore loaded with the play-phase position of ``state``."""
    return core_of(game_of_state(state), position_of_state(state))


def legal_mask(game: Game, position: Position) -> int:
    """Deck mask of the legal cards of the seat to act (computed by the core)."""
    return core_of(game, position).legal()


def playouts(game: Game, position: Position, n: int, seed: int) -> tuple[int, int]:
    """``n`` seeded random playouts inside the core: (sum of side 1 − side 0 totals,
    sum of side 1 totals), in half points."""
    if n < 0:
        raise OptionError("number of playouts must be >= 0")
    return core_of(game, position).playouts(n, seed & (2 ** 64 - 1))
