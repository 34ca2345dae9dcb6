"""The Tarot heuristic player: legal at every decision, and clearly better than random."""

import pytest

from solver.games import tarot
from solver.heuristics.tarot import hand_strength
from solver.match import MatchConfig, run_match

D = tarot.TAROT_DECK


def mask(text):
    return sum(1 << c for c in D.parse_cards(text))


def test_hand_strength_count_of_seed_002():
    # 21: 10, EX: 8, Petit with 6 trumps (EX counts): 9, 6 trumps x 2: 12, majors T20 T21:
    # 2 x 2 + 1 each in sequence: 6, K+Q of hearts: 10, three voids: 3 x 6 = 18 → 73
    assert hand_strength(mask("T21 T20 T1 T5 T7 EX KH QH")) == 73
    # few trumps: no per-trump points; a bare king 6, a knight 2, a 5-card suit 5,
    # a singleton (5C) 3
    assert hand_strength(mask("T3 T9 KS NS 2S 3S 4S 1H 2H 3D 4D 5C")) == 6 + 2 + 5 + 3


@pytest.mark.parametrize("players", [3, 4, 5])
def test_heuristic_completes_deals_with_legal_moves(players):
    # run_match plays every move through state.play, which rejects illegal moves
    cfg = MatchConfig("tarot", "heuristic", "random", 30, seed=3, options={"players": players})
    summary = run_match(cfg)
    assert summary["deals"] == 30


def test_heuristic_beats_random():
    cfg = MatchConfig("tarot", "heuristic", "random", 60, seed=11, options={"players": 4})
    summary = run_match(cfg)
    assert summary["ci95"][0] > 0, summary["ci95"]
