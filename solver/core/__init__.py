"""Typed Python face of the Cython card-play core, one module per game
(``solver.core.<game>``): converts a game state's play phase into a core position
(bit masks and small integers) and back, validating it first."""
