"""The state API shared by every game (python-chess / OpenSpiel style).

Every decision of a deal — bids, calls, discards, announcements, declarations and
card plays — is a :class:`Move` made by the seat ``state.to_act``. Decisions that pick
several cards (an écart, a poignée, a stock exchange) are sequences of single-card
moves, so ``legal_moves()`` stays small and every agent sees one choice at a time.

A record (``solver.notation.Record``) is the options, dealer, deal and the list of
move tokens; replaying the tokens on a fresh state reproduces the deal exactly.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from ..cards import Deck
from ..errors import IllegalMoveError, NotationError


@dataclass(frozen=True, order=True)
class Move:
    """One decision. ``kind`` names the decision ('card', 'bid', 'call', 'discard',
    'announce', ...); ``value`` is hashable (a card index, a bid name, a tuple...)."""

    kind: str
    value: Any = None


class GameState(ABC):
    """A deal in progress. Subclasses hold the rules of one game (one module per game)."""

    game: str = ""
    deck: Deck
    # bid, play, over; Tarot: call ecart chelem show; Tarocchini: monte callout discard declare
    phase: str

    def __init__(self) -> None:
        self.history: list[Move] = []
        self._undo_stack: list[dict[str, Any]] = []

    # --- the interface every game implements --------------------------------
    @property
    @abstractmethod
    def to_act(self) -> int | None:
        """Seat whose decision it is, or None when the deal is over."""

    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """Every legal move of the seat to act (empty iff the deal is over)."""

    @abstractmethod
    def _apply(self, move: Move) -> None:
        """Apply a move known to be legal."""

    @abstractmethod
    def scores(self) -> list[float]:
        """Final score of each seat (the deal must be over)."""

    @abstractmethod
    def observation(self, seat: int) -> Any:
        """Exactly what ``seat`` knows: own cards, public cards, history, shown cards."""

    @abstractmethod
    def move_token(self, move: Move) -> str:
        """Notation token of a move (no spaces)."""

    @abstractmethod
    def parse_move(self, token: str) -> Move:
        """Move from its notation token (raises NotationError)."""

    @abstractmethod
    def to_record(self):
        """The deal so far as a ``solver.notation.Record``."""

    # --- shared behaviour ---------------------------------------------------
    def is_over(self) -> bool:
        return self.to_act is None

    def play(self, move: Move | str) -> None:
        """Play a legal move (a Move or its token); raises IllegalMoveError otherwise."""
        if isinstance(move, str):
            move = self.parse_move(move)
        if self.is_over():
            raise IllegalMoveError(f"the deal is over; cannot play {self.move_token(move)}")
        legal = self.legal_moves()
        if move not in legal:
            raise IllegalMoveError(
                f"illegal move {self._safe_token(move)} for seat {self.to_act}")
        self._undo_stack.append(self._snapshot())
        self._apply(move)
        self.history.append(move)

    def push_token(self, token: str) -> None:
        """Play a move given as a token (alias for records)."""
        self.play(token)

    def undo(self) -> Move:
        """Take back the last move and return it."""
        if not self._undo_stack:
            raise IllegalMoveError("nothing to undo")
        last = self.history[-1]
        saved = self._undo_stack.pop()
        stack, hist = self._undo_stack, self.history
        self.__dict__.update(saved)
        self._undo_stack, self.history = stack, hist
        self.history.pop()
        return last

    def copy(self) -> GameState:
        """An independent copy (undo history included)."""
        return copy.deepcopy(self)

    def play_random(self, rng: random.Random) -> Move:
        """Play a uniformly random legal move (used by `atout play`)."""
        move = rng.choice(self.legal_moves())
        self.play(move)
        return move

    def _snapshot(self) -> dict[str, Any]:
        state = {k: v for k, v in self.__dict__.items() if k not in ("_undo_stack", "history")}
        return copy.deepcopy(state)

    def _safe_token(self, move: Move) -> str:
        try:
            return self.move_token(move)
        except (NotationError, KeyError, IndexError, TypeError, ValueError):
            return repr(move)
