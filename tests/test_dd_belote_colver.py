"""Coinche suit contracts: our DD values equal colver's solver (colver==0.11.1).

colver plays Coinche with the rule that a player who cannot overtrump an opponent's
trump may discard (no undertrumping), which is our ``undertrump_required=false``
(BELOTE-PLAY-4); every other play rule coincides (checked move by move below).
colver's ``Env.solve_scores()['scores']`` gives, for every legal card at the root,
the card points (0-252, dix de der and capot included, belote excluded) of team 0
(seats 0/2); we put the contract on team 0 so that this is the attack's value, and
vary the dealer so that either team may lead.
"""

from __future__ import annotations

import random

import pytest

from solver.dd import belote as dd
from solver.games import coinche as coinche_game
from solver.games.belote_common import legal_cards, trick_winner

colver = pytest.importorskip("colver")

# colver's card index: 8 * suit + plain rank (7 8 9 J Q K T A); suits S H D C as ours
PLAIN_POS = [0, 1, 2, 6, 3, 4, 5, 7]
FROM_COL = [0] * 32
for _c in range(32):
    FROM_COL[8 * (_c >> 3) + PLAIN_POS[_c & 7]] = _c


def to_col(card: int) -> int:
    return 8 * (card >> 3) + PLAIN_POS[card & 7]


def colver_env(hands: list[int], dealer: int, trump: int):
    env = colver.Env.deal_with_hands(
        dealer, [[to_col(c) for c in range(32) if h >> c & 1] for h in hands])
    env.set_contract(trump, 80, 0, 0)
    env.set_phase_playing()
    return env


def random_deal(rng: random.Random) -> list[int]:
    perm = list(range(32))
    rng.shuffle(perm)
    return [sum(1 << c for c in perm[8 * i:8 * i + 8]) for i in range(4)]


def test_colver_play_rules_coincide_without_undertrump():
    # BELOTE-PLAY-3 and BELOTE-PLAY-4 (undertrump_required=false) vs colver's legal moves.
    rng = random.Random(2)
    for _ in range(60):
        hands = random_deal(rng)
        dealer, trump = rng.randrange(4), rng.randrange(4)
        env = colver_env(hands, dealer, trump)
        trick: list[tuple[int, int]] = []
        for _k in range(32):
            seat = env.current_player()
            ours = legal_cards(hands[seat], trick, trump, False)
            theirs = sum(1 << FROM_COL[a] for a in env.legal_actions())
            assert ours == theirs
            card = rng.choice([c for c in range(32) if ours >> c & 1])
            env.step(to_col(card))
            hands[seat] &= ~(1 << card)
            trick.append((seat, card))
            if len(trick) == 4:
                winner = trick_winner(trick, trump)
                trick = []
                if any(hands):
                    assert env.current_player() == winner


def compare_with_colver(n_deals: int, seed: int) -> int:
    rng = random.Random(seed)
    compared = 0
    for _ in range(n_deals):
        hands = random_deal(rng)
        dealer, trump = rng.randrange(4), rng.randrange(4)
        taker = rng.choice((0, 2))
        st = coinche_game.CoincheState.from_play(
            hands, trump, taker, dealer=dealer,
            options={"undertrump_required": False, "announces": False})
        ours = {mv.value: r.value for mv, r in dd.solve_cards(st).items()}
        theirs = {FROM_COL[c]: v for c, v in colver_env(hands, dealer, trump)
                  .solve_scores()["scores"]}
        assert ours == theirs, (hands, dealer, trump)
        compared += 1
    return compared


def test_dd_equals_colver_some_deals():
    # COINCHE-PLAY-2, BELOTE-SCORE-1, BELOTE-SCORE-4 on full deals (fast subset).
    assert compare_with_colver(12, seed=1) == 12


@pytest.mark.slow
def test_dd_equals_colver_500_deals():
    assert compare_with_colver(500, seed=2026) == 500
