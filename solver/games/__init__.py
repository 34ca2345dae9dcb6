"""Registry of the games. Each game module exposes:

* ``NAME`` and ``DECK``; ``OPTIONS``: ``dict[str, solver.options.Option]``;
* ``new_state(options=None, dealer=0, seed=None, deal=None) -> GameState`` — a new deal,
  dealt at random from ``seed`` unless ``deal`` (a ``solver.notation.Deal``) is given;
* the ``GameState`` subclass itself.

Modules are imported lazily so that a broken or missing game never breaks the others.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from ..errors import AtoutError, OptionError

GAME_MODULES = {
    "tarot": "solver.games.tarot",
    "belote": "solver.games.belote",
    "coinche": "solver.games.coinche",
    "tarocchini": "solver.games.tarocchini",
}


def get_game(name: str) -> ModuleType:
    """The rules module of a game, by name."""
    if name not in GAME_MODULES:
        raise OptionError(f"unknown game {name!r} (known: {', '.join(GAME_MODULES)})")
    return importlib.import_module(GAME_MODULES[name])


def state_from_record(record):
    """Replay a ``solver.notation.Record`` into a game state (every move validated)."""
    module = get_game(record.game)
    state = module.new_state(options=record.options, dealer=record.dealer, deal=record.deal)
    for i, token in enumerate(record.moves, 1):
        try:
            state.play(token)
        except AtoutError as e:
            raise type(e)(f"move {i} ({token}): {e}") from None
    return state
