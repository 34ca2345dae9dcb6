"""Double-dummy analysis (all hands visible): the Python face of the core's exact search.

Each game has a module ``solver.dd.<game>`` exposing the same functions, dispatched here
by the state's game:

* ``solve(state, **limits) -> DDResult`` — exact value of the position (a per-game
  subclass of :class:`DDResult`: ``BeloteResult``, ``TarotResult``, ``TarocchiniResult``);
* ``solve_cards(state, **limits) -> dict[Move, CardResult]`` — value of every legal card;
* ``principal_variation(state, **limits) -> list[Move]`` — an optimal line of play;
* ``dd_table(...)`` — per game, see the module.

Every result has the fields of :class:`DDResult` (``solver.dd.result``): ``value``,
``lower``, ``upper``, ``nodes``, ``complete``, ``seconds``, ``stopped``, ``tt_hits``,
``tt_probes``.

Limits: ``node_budget``, ``deadline`` (seconds), ``tt_bits`` (transposition table size
2**tt_bits entries). A search that hits a limit says so (``complete`` False, ``value``
None, the proven ``[lower, upper]`` and the ``stopped`` reason).

Horizon (Tarot and Tarocchini, whose full deals are out of reach of the exact search):
``horizon=H`` searches the current trick and H more exactly, then scores the position
with the game's static evaluation; such results say ``exact=False``.
``default_horizon(state)`` in those modules gives None where the exact search is cheap
and otherwise the horizon measured to cost about 50k-150k nodes per ``solve_cards``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from ..errors import OptionError
from .result import CardResult, DDResult

__all__ = ["CardResult", "DDResult", "check_limits", "module_for", "principal_variation",
           "side_of_seat", "solve", "solve_cards", "stopped_reason", "supports_horizon"]

DD_MODULES = {
    "tarot": "solver.dd.tarot",
    "belote": "solver.dd.belote",
    "coinche": "solver.dd.belote",
    "tarocchini": "solver.dd.tarocchini",
}


def module_for(game: str) -> ModuleType:
    if game not in DD_MODULES:
        raise OptionError(f"no double-dummy solver for game {game!r}")
    return importlib.import_module(DD_MODULES[game])


def supports_horizon(game: str) -> bool:
    """Whether the game's search takes ``horizon=`` (its full deals are out of reach)."""
    return hasattr(module_for(game), "default_horizon")


def side_of_seat(state, seat: int) -> int | None:
    """The side (1 = the side the DD value is for) of ``seat``: Tarot states have a
    ``side_of`` method, Tarocchini states a tuple, Belote/Coinche none (None)."""
    side_of = getattr(state, "side_of", None)
    if side_of is None:
        return None
    return side_of(seat) if callable(side_of) else side_of[seat]


def solve(state, **limits):
    """Exact double-dummy value of ``state`` (see the game's module for the objective)."""
    return module_for(state.game).solve(state, **limits)


def solve_cards(state, **limits):
    """Double-dummy value of every legal card of the seat to act."""
    return module_for(state.game).solve_cards(state, **limits)


def principal_variation(state, **limits):
    """An optimal line of play from ``state`` to the end of the deal."""
    return module_for(state.game).principal_variation(state, **limits)


def check_limits(node_budget: int | None, deadline: float | None, tt_bits: int) -> None:
    """Validate search limits (shared by the per-game modules)."""
    if node_budget is not None and (not isinstance(node_budget, int) or node_budget <= 0):
        raise OptionError(f"node_budget must be a positive integer, got {node_budget!r}")
    if deadline is not None and not deadline > 0:
        raise OptionError(f"deadline must be a positive number of seconds, got {deadline!r}")
    if not isinstance(tt_bits, int) or not 4 <= tt_bits <= 28:
        raise OptionError(f"tt_bits must be an integer in 4..28, got {tt_bits!r}")


def stopped_reason(complete: bool, node_budget: int | None, nodes: int) -> str | None:
    """Why an incomplete search stopped: 'node_budget' or 'deadline' (None if complete)."""
    if complete:
        return None
    return "node_budget" if node_budget is not None and nodes >= node_budget else "deadline"
