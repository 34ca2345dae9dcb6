"""Every agent completes at least 200 deals of every game and variant with legal moves
only (issue: determinized play). ``run_match`` plays every move through
``state.play``, which rejects an illegal move, so a finished match is the check; each
duplicate deal is played several times (the agents exchanged), and the test counts
the plays. PIMC runs with one world (the same code path as 100 worlds, cheaper)."""

import math

import pytest

from solver.match import MatchConfig, run_match

GAMES = [("coinche", {}, 2), ("belote", {}, 2), ("tarot", {"players": 3}, 3),
         ("tarot", {"players": 4}, 4), ("tarot", {"players": 5}, 5),
         ("tarocchini", {"game": "ottocento"}, 2), ("tarocchini", {"game": "terziglio"}, 4)]
AGENTS = ["random", "heuristic", "pimc:worlds=1", "oracle"]


@pytest.mark.parametrize("agent", AGENTS)
@pytest.mark.parametrize("game,options,plays_per_deal", GAMES,
                         ids=[f"{g}{o.get('players', '')}{o.get('game', '')}"
                              for g, o, _ in GAMES])
def test_agent_completes_200_deals(game, options, plays_per_deal, agent):
    deals = math.ceil(200 / plays_per_deal)
    jobs = 1 if agent in ("random", "heuristic") else 2   # results do not depend on jobs
    summary = run_match(MatchConfig(game, agent, "random", deals, seed=77, options=options),
                        jobs=jobs)
    plays = sum(len(r["plays"]) for r in summary["results"])
    assert summary["deals"] == deals and plays >= 200
    # every play of the deal reached its end with a score for every seat
    assert all(len(r["per_seat"]) >= 2 for r in summary["results"])
