"""The ``heuristic`` agent: a rule-based player per game, written from good-play
principles, that sees only its own observation. Each game's strategy lives in
``solver/heuristics/<game>.py`` as ``choose(obs, legal, rng) -> Move``."""

from __future__ import annotations

import importlib

from .agents import Agent
from .errors import AtoutError
from .games.base import GameState, Move

STRATEGIES = {
    "tarot": "solver.heuristics.tarot",
    "belote": "solver.heuristics.belote",
    "coinche": "solver.heuristics.belote",
    "tarocchini": "solver.heuristics.tarocchini",
}


def strategy(game: str):
    if game not in STRATEGIES:
        raise AtoutError(f"no heuristic player for {game}")
    try:
        return importlib.import_module(STRATEGIES[game])
    except ImportError:
        raise AtoutError(f"no heuristic player for {game} yet") from None


class HeuristicAgent(Agent):
    """Rule-based play and count-based bidding for every game."""

    name = "heuristic"

    def choose(self, state: GameState, seat: int) -> Move:
        legal = state.legal_moves()
        if len(legal) == 1:
            return legal[0]
        return strategy(state.game).choose(state.game, state.observation(seat), legal,
                                           self.rng)
