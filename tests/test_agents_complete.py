"""Every agent completes at least 200 deals of every game and variant with legal moves
only (issue: determinized play). ``run_match`` plays every move through
``state.play``, which rejects an illegal move, so a finished match is the check; each
duplicate deal is played several times (the agents exchanged), and the test counts
the plays. PIMC runs with one world (the same code path as 100 worlds, cheaper). The
searching agents in Tarot and Tarocchini play 20-40 times in the default run and 200
in the slow one (see COSTLY)."""

import math

import pytest

from solver.match import MatchConfig, run_match

GAMES = [("coinche", {}, 2), ("belote", {}, 2), ("tarot", {"players": 3}, 3),
         ("tarot", {"players": 4}, 4), ("tarot", {"players": 5}, 5),
         ("tarocchini", {"game": "ottocento"}, 2), ("tarocchini", {"game": "terziglio"}, 4)]
AGENTS = ["random", "heuristic", "pimc:worlds=1", "oracle"]


# The searching agents in the games of long deals were most of this file's time (on
# the loaded 2-core machine: the Tarocchini oracle 304 s and 187 s for 200 plays, the
# Tarot oracle 20-31 s, PIMC in Tarocchini 17-18 s and in Tarot 3p 12 s): the default
# run plays these 40 times (the Tarocchini oracle 6, the Tarot oracle 12: the suite's
# slowest tests at 6-15 s for 12-24; the same code paths), in
# this process; the 200 plays of the claim, in 2 local processes, are the slow run's
# (pytest -m slow, after any change to the agents, the searches or the match code).
COSTLY = {("tarocchini", "oracle"): 6, ("tarot", "oracle"): 12,
          ("tarocchini", "pimc:worlds=1"): 40, ("tarot", "pimc:worlds=1"): 40}


def _ident(game, options):
    return f"{game}{options.get('players', '')}{options.get('game', '')}"


CASES = []
for _g, _o, _ppd in GAMES:
    for _a in AGENTS:
        if (_g, _a) in COSTLY:
            _few = COSTLY[_g, _a]
            CASES.append(pytest.param(_g, _o, _ppd, _a, _few, id=f"{_ident(_g, _o)}-{_a}-{_few}"))
            CASES.append(pytest.param(_g, _o, _ppd, _a, 200, id=f"{_ident(_g, _o)}-{_a}",
                                      marks=pytest.mark.slow))
        else:
            CASES.append(pytest.param(_g, _o, _ppd, _a, 200, id=f"{_ident(_g, _o)}-{_a}"))


@pytest.mark.parametrize("game,options,plays_per_deal,agent,min_plays", CASES)
def test_agent_completes_200_deals(game, options, plays_per_deal, agent, min_plays):
    deals = math.ceil(min_plays / plays_per_deal)
    # results do not depend on jobs (test_match); 2 processes beside pytest's own
    # workers only add their start-up, but the slow run keeps that path
    jobs = 2 if min_plays == 200 and agent not in ("random", "heuristic") else 1
    summary = run_match(MatchConfig(game, agent, "random", deals, seed=77, options=options),
                        jobs=jobs)
    plays = sum(len(r["plays"]) for r in summary["results"])
    assert summary["deals"] == deals and plays >= min_plays
    # every play of the deal reached its end with a score for every seat
    assert all(len(r["per_seat"]) >= 2 for r in summary["results"])
