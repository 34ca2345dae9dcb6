"""The package's own exception types: every error a user can cause is one of these.

The CLI prints ``str(error)`` on one line and exits with status 2; no traceback.
"""


class AtoutError(Exception):
    """Base class of every user-facing error raised by atout."""


class NotationError(AtoutError, ValueError):
    """Malformed card, hand, deal or record text. Names the bad token and its position."""

    def __init__(self, message: str, token: str | None = None, position: int | None = None):
        self.token = token
        self.position = position
        if token is not None and position is not None:
            message = f"{message}: {token!r} at position {position}"
        elif token is not None:
            message = f"{message}: {token!r}"
        super().__init__(message)


class OptionError(AtoutError, ValueError):
    """Unknown option, or an option value out of range."""


class IllegalMoveError(AtoutError, ValueError):
    """A move that is not legal in the current state."""


class DealError(AtoutError, ValueError):
    """An impossible deal: wrong card counts, duplicates, cards of another deck."""
