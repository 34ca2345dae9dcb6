"""AI players behind one interface: a seat's view in, a move out, for every decision.

An agent is called as ``agent.choose(state, seat)`` when ``seat`` is to act. Honest
agents read only ``state.observation(seat)`` and ``state.legal_moves()``; the
``oracle`` is the one agent allowed to look at the whole state (an upper bound).
Agents are built from a spec string ``NAME[:key=value,...]``, e.g. ``random``,
``heuristic``, ``pimc:worlds=100``, ``oracle``.
"""

from __future__ import annotations

import importlib
import inspect
import random
from abc import ABC, abstractmethod
from typing import Any

from .errors import OptionError
from .games.base import GameState, Move
from .options import parse_options


class Agent(ABC):
    """A player. ``seed`` makes every random choice reproducible."""

    name = "agent"

    def __init__(self, seed: int = 0, **params: Any):
        if params:
            raise OptionError(f"agent {self.name} takes no parameter {', '.join(params)}")
        self.rng = random.Random(seed)

    def reset(self, seed: int) -> None:
        """Start a new deal with a fresh, reproducible random stream."""
        self.rng = random.Random(f"{self.name}-{seed}")

    @abstractmethod
    def choose(self, state: GameState, seat: int) -> Move:
        """The move of ``seat`` (who is to act) in ``state``."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


class RandomAgent(Agent):
    """Uniformly random legal moves."""

    name = "random"

    def choose(self, state: GameState, seat: int) -> Move:
        return self.rng.choice(state.legal_moves())


AGENTS: dict[str, str] = {
    "random": "solver.agents:RandomAgent",
    "heuristic": "solver.heuristic:HeuristicAgent",
    "pimc": "solver.pimc:PimcAgent",
    "oracle": "solver.pimc:OracleAgent",
}


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``'pimc:worlds=100'`` -> ``('pimc', {'worlds': 100})``."""
    name, _, params = spec.partition(":")
    name = name.strip()
    if name not in AGENTS:
        raise OptionError(f"unknown agent {name!r} (known: {', '.join(AGENTS)})")
    return name, parse_options(params)


# agent options that mean something only in some games (the horizon search exists in
# Tarot and Tarocchini; world inference from the auction and from the play in all four)
_PLAY_MODEL = ("coinche", "belote", "tarot", "tarocchini")   # solver.play_model
GAME_SPECIFIC = {"horizon": ("tarot", "tarocchini"),
                 "auction": ("coinche", "belote", "tarot", "tarocchini"),
                 "infer": _PLAY_MODEL, "pool": _PLAY_MODEL, "ess": _PLAY_MODEL,
                 "mcmc": _PLAY_MODEL, "chains": _PLAY_MODEL,
                 "model": ("coinche", "belote"),   # the learned play model
                 # αμ over the last tricks (solver.alphamu)
                 "alphamu": ("coinche", "belote"), "alphamu_tricks": ("coinche", "belote"),
                 "alphamu_front": ("coinche", "belote"),
                 "evaluation": ("tarot",),   # the horizon's static evaluation
                 "relaxed": ("tarot",),      # worlds searched to the end in R_DD
                 "discard": ("tarot", "tarocchini")}   # the discard by simulation


def agent_options(name: str) -> list[str]:
    """The options agent ``name`` takes (its constructor's keywords but ``seed``)."""
    module, _, cls = AGENTS[name].partition(":")
    factory = getattr(importlib.import_module(module), cls)
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return []
    return [p for p, v in params.items() if p != "seed" and v.kind in (
        v.POSITIONAL_OR_KEYWORD, v.KEYWORD_ONLY)]


def check_spec(spec: str, game: str | None = None) -> None:
    """Refuse, before any play, an agent spec with an unknown name or option, or (with
    ``game``) an option that means nothing in that game (``pimc:horizon=3`` in
    Coinche)."""
    if not isinstance(spec, str):
        raise OptionError(f"an agent spec is a string, got {type(spec).__name__}")
    name, params = parse_spec(spec)
    try:
        known = agent_options(name)
    except (ImportError, AttributeError):
        raise OptionError(f"agent {name!r} is not available in this build") from None
    for key in params:
        if key not in known:
            raise OptionError(f"agent {name}: unknown option {key!r} "
                              f"(known: {', '.join(known) if known else 'none'})")
        if game is not None:
            check_game_option(name, key, game)


def check_game_option(agent: str, key: str, game: str) -> None:
    """Refuse option ``key`` of agent ``agent`` in ``game`` if it means nothing there
    (``GAME_SPECIFIC``). ``check_spec`` asks it of every option of a spec; an agent
    built without one (``PimcAgent(...)`` directly, ``make_agent`` without ``game``)
    asks it where it uses the option."""
    games = GAME_SPECIFIC.get(key)
    if games is not None and game not in games:
        raise OptionError(f"agent {agent}: option {key!r} means nothing in {game} "
                          f"(only in {', '.join(games)})")


def make_agent(spec: str, seed: int = 0, game: str | None = None) -> Agent:
    """An agent from its spec string (``game``: refuse options that mean nothing
    there)."""
    check_spec(spec, game)
    name, params = parse_spec(spec)
    module, _, cls = AGENTS[name].partition(":")
    factory = getattr(importlib.import_module(module), cls)
    try:
        return factory(seed=seed, **params)
    except TypeError as e:  # a value of the wrong kind, in the agent's own words
        raise OptionError(f"agent {spec!r}: {str(e).split('(', 1)[0]}") from None
