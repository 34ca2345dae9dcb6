"""Exact double-dummy analysis for Tarocchini (Ottocento and Terziglio; all hands,
the discard and a solo stock visible).

Objective (the true one of the play phase): **side 1's final total minus side 0's
final total, in half points** (``value``; ``value / 2`` is in card points), where a
side's total is its declarations (fixed inputs, TAROC-DECL-4) + the combinations of
its final pile (TAROC-DECL-6, after the Matto rules TAROC-MATTO-2..5, the discard
OTTO-DEAL-3 / TERZ-BID-2 and a solo stock TERZ-BID-3) + its card points with pair
counting (TAROC-PTS-2) + 6 for the last trick (OTTO-SCORE-1, TERZ-SCORE-1).

* Ottocento: side 0 = team A (seats 0, 2), side 1 = team B (seats 1, 3): the value is
  B's hand total minus A's.
* Terziglio: side 0 = the declarer, side 1 = the two opponents: the value is the
  opponents' total minus the declarer's (the declarer wins the deal iff value < 0,
  TERZ-SCORE-2).  Game points (rounding, TERZ-SCORE-3..6) are not searched: they are
  a monotone step function of this difference except for rounding, and the margin is
  what a card-play analysis compares.

Side 1 maximises the value and side 0 minimises it (``state.side_of(seat)``), as the
PIMC agent assumes.  The search lives in the Cython core
(``solver.tarocchini_core.DDSolver``): null-window fail-soft alpha-beta driven by
MTD(f) then bisection, a ``2**tt_bits`` transposition table at trick boundaries keyed
on the hands, the leader and the captured history the value still depends on (which
combination-relevant cards side 1 has captured, debts, "has won a trick", pips held
while the Matto is out), values stored relative to the card points taken; merged
equivalent cards (pips with no card between them, Moors of one hand) and move
ordering (TT move, cheap winners, points to a winning partner, low ducks).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from ..core.tarocchini import (
    DDSolver,
    Game,
    Position,
    game_of_state,
    make_game,
    make_position,
    position_of_state,
)
from ..errors import DealError, OptionError
from ..games.base import Move
from . import check_limits as _check_limits
from . import stopped_reason as _stopped
from .result import CardResult, DDResult

DEFAULT_TT_BITS = 18


@dataclass(repr=False)
class TarocchiniResult(DDResult):
    """Result of one Tarocchini double-dummy search: the common fields of
    :class:`DDResult`, ``value`` being side 1 total − side 0 total in half points."""

    @property
    def points(self) -> float | None:
        """The value in card points (half points / 2)."""
        return None if self.value is None else self.value / 2


@lru_cache(maxsize=4)
def _solver(tt_bits: int) -> DDSolver:
    # One table per size, reused (generation tags invalidate old entries).
    return DDSolver(tt_bits)


def _load(game: Game, position: Position, tt_bits: int) -> DDSolver:
    s = _solver(tt_bits)
    s.configure(*game.args())
    s.set_position(*position.args())
    return s


def solve_position(game: Game, position: Position, node_budget: int | None = None,
                   deadline: float | None = None, tt_bits: int = DEFAULT_TT_BITS,
                   guess: int = 0) -> TarocchiniResult:
    """Exact value of a validated position (see the module docstring)."""
    _check_limits(node_budget, deadline, tt_bits)
    s = _load(game, position, tt_bits)
    s.reset_stats()
    t = time.perf_counter()
    value, lo, hi, nodes, complete = s.solve(guess, node_budget or 0, deadline or 0.0)
    dt = time.perf_counter() - t
    stats = s.stats()
    return TarocchiniResult(value if complete else None, lo, hi, nodes, complete, dt,
                            stopped=_stopped(complete, node_budget, nodes),
                            tt_hits=stats["tt_hits"], tt_probes=stats["tt_probes"])


def solve(state: Any, node_budget: int | None = None, deadline: float | None = None,
          tt_bits: int = DEFAULT_TT_BITS) -> TarocchiniResult:
    """Exact double-dummy value of a Tarocchini state in its play phase.

    ``node_budget`` (nodes) and ``deadline`` (seconds) stop the search; the result
    then says ``complete=False`` and gives the proven bounds."""
    return solve_position(game_of_state(state), position_of_state(state), node_budget,
                          deadline, tt_bits)


def solve_cards_position(game: Game, position: Position, node_budget: int | None = None,
                         deadline: float | None = None,
                         tt_bits: int = DEFAULT_TT_BITS) -> tuple[dict[int, CardResult], int]:
    """Value of every legal card (deck index -> CardResult of ``Move("card", c)``) and
    the total node count (one search scores every card)."""
    _check_limits(node_budget, deadline, tt_bits)
    s = _load(game, position, tt_bits)
    s.reset_stats()
    t = time.perf_counter()
    cards, nodes, complete = s.solve_cards(node_budget or 0, deadline or 0.0)
    dt = time.perf_counter() - t
    stats = s.stats()
    out = {}
    for card, lo, hi in cards:
        exact = lo == hi
        out[card] = CardResult(lo if exact else None, lo, hi, nodes, exact, dt,
                               stopped=None if exact else _stopped(False, node_budget, nodes),
                               tt_hits=stats["tt_hits"], tt_probes=stats["tt_probes"],
                               card=Move("card", card))
    return out, nodes


def solve_cards(state: Any, node_budget: int | None = None, deadline: float | None = None,
                tt_bits: int = DEFAULT_TT_BITS) -> dict[Move, CardResult]:
    """Value of every legal card move of the seat to act.  A card played with a signal
    (``KS:volo``) gets its card's value: signals do not change the play (OTTO-SIG-1)."""
    per_card, _ = solve_cards_position(game_of_state(state), position_of_state(state),
                                       node_budget, deadline, tt_bits)
    out: dict[Move, CardResult] = {}
    for move in state.legal_moves():
        card = move.value if move.kind == "card" else (
            move.value[0] if move.kind == "signal" else None)
        if card in per_card:
            out[move] = replace(per_card[card], card=move)
    return out


def principal_variation(state: Any, node_budget: int | None = None,
                        deadline: float | None = None,
                        tt_bits: int = DEFAULT_TT_BITS) -> list[Move]:
    """An optimal line of play (card moves, no signals) from ``state`` to the end.

    At each turn the first card (lowest deck index) achieving the position's value for
    the side to act is played.  Raises OptionError if a limit stops a search."""
    st = state.copy()
    line: list[Move] = []
    t_end = None if deadline is None else time.perf_counter() + deadline
    while not st.is_over():
        left = None if t_end is None else max(1e-3, t_end - time.perf_counter())
        values = solve_cards(st, node_budget, left, tt_bits)
        cards = {m: r for m, r in values.items() if m.kind == "card"}
        if any(not r.complete for r in cards.values()):
            raise OptionError("principal_variation: a search limit stopped the solver")
        pick = max if st.side_of[st.to_act] == 1 else min
        best = pick(r.value for r in cards.values())
        move = min((m for m, r in cards.items() if r.value == best), key=lambda m: m.value)
        st.play(move)
        line.append(move)
    return line


def _hands_of(deal: Any) -> tuple[list[int], int]:
    hands = deal.hands if hasattr(deal, "hands") else deal
    out = [int(h) if isinstance(h, int) else sum(1 << c for c in h) for h in hands]
    stock = 0
    if hasattr(deal, "extras"):
        stock = sum(1 << c for c in deal.extras.get("stock", []))
    return out, stock


def dd_table(deal: Any, options: dict[str, Any] | None = None, dealer: int = 0,
             node_budget: int | None = None,
             tt_bits: int = DEFAULT_TT_BITS) -> dict[int, TarocchiniResult]:
    """Terziglio DD table: for each seat as the declarer of a **solo** (no exchange, the
    stock unseen in play and won by the side of the last trick, TERZ-BID-3; no
    declarations), the DD value with the eldest (``dealer + 1``) leading
    (TERZ-PLAY-1).  Values are opponents − declarer in half points, so the declarer
    wins the deal iff the value is negative (TERZ-SCORE-2).  Gioco is not tabled: its
    value depends on the declarer's choice of discard, which is not card play.

    ``deal``: a Deal (3 hands + ``stock``) or a list of 3 hand masks (then no stock)."""
    from ..games import tarocchini as tg
    from ..options import resolve
    opts = resolve(tg.OPTIONS, options, tg.NAME)
    hands, stock = _hands_of(deal)
    if len(hands) != 3 or len({h.bit_count() for h in hands}) != 1:
        raise DealError("a Terziglio DD table needs three hands of equal size")
    if not (isinstance(dealer, int) and 0 <= dealer < 3):
        raise DealError(f"dealer must be a seat 0..2, got {dealer!r}")
    leader = (dealer + 1) % 3
    table: dict[int, TarocchiniResult] = {}
    for declarer in range(3):
        sides = tuple(0 if s == declarer else 1 for s in range(3))
        game = make_game(3, sides, stock=stock, discard_side=0,
                         multi_use=bool(opts["contatore_multi_use"]),
                         max_cont=int(opts["max_contatori_per_suit_sequence"]))
        pos = make_position(game, hands, leader=leader)
        table[declarer] = solve_position(game, pos, node_budget, None, tt_bits)
    return table
