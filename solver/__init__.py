"""atout: solver and game-analysis engine for French Tarot, Belote, Coinche and Tarocchini."""

from .errors import AtoutError, DealError, IllegalMoveError, NotationError, OptionError

__version__ = "0.1.0"

__all__ = ["AtoutError", "DealError", "IllegalMoveError", "NotationError", "OptionError", "__version__"]
