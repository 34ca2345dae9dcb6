"""Rule-based strategies per game, used by ``solver.heuristic.HeuristicAgent``."""
