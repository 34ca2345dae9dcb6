"""Tarocchini horizon search (solver.dd.tarocchini ``horizon``): a depth-limited
double-dummy search whose leaves (the trick boundary after the current trick and the
next ``horizon`` tricks) are scored by the core's static evaluation, on the scale of
the exact objective (side 1 − side 0 final totals in half points: TAROC-PTS-2,
TAROC-DECL-6, OTTO-SCORE-1, TERZ-SCORE-1).

Checked here: a horizon reaching the end gives the exact values bit for bit; the
static evaluation is exact on finished deals and with one trick left, and stays inside
the range of final values the position can still reach; a truncated search equals the
brute-force minimax of test_dd_tarocchini on the Python rules (TAROC-PLAY-3,
TAROC-PLAY-4, TAROC-MATTO-2) cut at the same trick boundary and scored there by the
same static evaluation; determinism; option errors.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_dd_tarocchini import PlayTree, brute, endgames, random_endgame

from solver.core import tarocchini as ct
from solver.dd import tarocchini as dd
from solver.errors import OptionError
from solver.games import tarocchini as tg

INF = 10 ** 9


def _leaf_position(game: ct.Game, hands, leader, piles, owed, won, last) -> ct.Position:
    # built directly (make_position refuses a finished deal, which is a valid leaf here)
    return ct.Position(tuple(hands), (), leader, tuple(piles), tuple(owed), tuple(won), last)


def horizon_stop(st: tg.TarocchiniState, horizon: int) -> int:
    """Cards per hand at the leaves: the current trick and ``horizon`` more are searched
    (the last trick, forced, is always played out: no leaf below 2 cards)."""
    left = st.hands[st.leader].bit_count() + (1 if st.trick else 0)
    stop = left - 1 - horizon
    return stop if stop >= 2 else -1


def static_leaf(game: ct.Game, stop: int):
    """Leaf hook for test_dd_tarocchini.brute: a trick boundary with ``stop`` cards per
    hand is scored by ``dd.static_value`` instead of being searched; with it the brute
    force is the depth-limited minimax of the horizon search."""
    def leaf(node: tuple) -> int | None:
        hands, _, leader, piles, owed, won, last = node
        if hands[leader].bit_count() != stop:
            return None
        return dd.static_value(game, _leaf_position(game, hands, leader, piles, owed, won,
                                                    last))
    return leaf


def depth_limited(st: tg.TarocchiniState, stop: int) -> int:
    """Minimax with alpha-beta on the Python rules (test_dd_tarocchini.brute); a trick
    boundary with ``stop`` cards per hand is scored by ``dd.static_value``."""
    return brute(st, prune=True, leaf=static_leaf(ct.game_of_state(st), stop))


def final_range(st: tg.TarocchiniState) -> tuple[int, int]:
    """(min, max) of the final value over every legal continuation (no minimax)."""
    tree = PlayTree(st)
    memo: dict[Any, tuple[int, int]] = {}

    def rec(node: tuple) -> tuple[int, int]:
        if not any(node[0]) and not node[1]:
            v = tree.final(node)
            return v, v
        if node in memo:
            return memo[node]
        lo, hi = INF, -INF
        for child in tree.children(node):
            a, b = rec(child)
            lo, hi = min(lo, a), max(hi, b)
        memo[node] = (lo, hi)
        return lo, hi

    return rec(tree.root)


def static_of_state(st: tg.TarocchiniState) -> int:
    return dd.static_value(ct.game_of_state(st), ct.position_of_state(st))


@pytest.mark.parametrize("variant", ["ottocento", "terziglio"])
def test_horizon_to_the_end_is_exact(variant):
    # >= 100 random endgames per variant (3-5 tricks left, some mid-trick): any horizon
    # reaching the last trick gives the exact search's values bit for bit, for the
    # position and for every card, with exact=True
    count = 0
    for _i, st in endgames(variant, 110, seed=900 if variant == "ottocento" else 901,
                          sizes=(3, 4, 5) if variant == "terziglio" else (3, 4)):
        left = st.hands[st.leader].bit_count() + (1 if st.trick else 0)
        ref = dd.solve(st)
        ref_cards = dd.solve_cards(st)
        for h in (left - 1, left, left + 3):
            if h < 1:
                continue
            got = dd.solve(st, horizon=h)
            assert got.exact and got.complete and got.value == ref.value
            assert got.nodes == ref.nodes       # the same search, node for node
            cards = dd.solve_cards(st, horizon=h)
            assert {m: r.value for m, r in cards.items()} == \
                {m: r.value for m, r in ref_cards.items()}
            assert all(r.exact for r in cards.values())
        assert dd.solve(st, horizon=None).value == dd.solve(st, horizon=0).value == ref.value
        count += 1
    assert count >= 100


@pytest.mark.parametrize("variant", ["ottocento", "terziglio"])
def test_truncated_search_equals_depth_limited_minimax(variant):
    # the truncated search is the minimax of the game whose leaves are the static
    # evaluation: equal to the depth-limited brute force, for the value and every card
    rng = random.Random(31 if variant == "ottocento" else 32)
    seen_trunc = 0
    for i in range(60 if variant == "ottocento" else 70):
        size = 4 if variant == "ottocento" else (4, 5)[i % 2]
        st = random_endgame(rng, variant, size, mid_trick=i % 3 == 0)
        left = st.hands[st.leader].bit_count() + (1 if st.trick else 0)
        for h in range(1, left - 2):
            got = dd.solve(st, horizon=h)
            assert got.complete and not got.exact
            stop = horizon_stop(st, h)
            assert got.value == depth_limited(st, stop), (variant, i, h)
            seen_trunc += 1
            if i % 5 == 0:
                # every card: the child's leaves are the root's (absolute horizon)
                for move, r in dd.solve_cards(st, horizon=h).items():
                    child = st.copy()
                    child.play(move)
                    assert r.value == depth_limited(child, stop) and not r.exact
    assert seen_trunc >= 60


def test_truncated_values_keep_with_pruning_options():
    # the sure-point bounds (clamped leaves), the canonical TT key and card merging
    # never change a truncated search's value (TT correctness with the horizon)
    rng = random.Random(77)
    s = dd._solver(dd.DEFAULT_TT_BITS)
    try:
        for i in range(40):
            st = random_endgame(rng, "ottocento" if i % 2 else "terziglio", 5 + i % 3)
            left = st.hands[st.leader].bit_count()
            for h in (1, 2, left - 3):
                vals = set()
                for canon, merge, bounds in ((1, 1, 1), (0, 0, 0), (1, 0, 1), (0, 1, 0)):
                    s.set_canonical(canon)
                    s.set_merge(merge)
                    s.set_bounds(bounds)
                    vals.add(dd.solve(st, horizon=h).value)
                assert len(vals) == 1, (i, h, vals)
    finally:
        s.set_canonical(True)
        s.set_merge(True)
        s.set_bounds(True)


@pytest.mark.parametrize("variant", ["ottocento", "terziglio"])
def test_static_value_exact_when_finished_or_forced(variant):
    # a finished deal: the final value (TAROC-MATTO-3/5, OTTO-DEAL-3, TERZ-BID-2/3,
    # OTTO-SCORE-1, TERZ-SCORE-1); one trick left: it is played out
    rng = random.Random(5 if variant == "ottocento" else 6)
    for _ in range(60):
        st = random_endgame(rng, variant, 1)
        game = ct.game_of_state(st)
        assert static_of_state(st) == dd.solve(st).value
        while not st.is_over():
            st.play(rng.choice([m for m in st.legal_moves() if m.kind == "card"]))
        last = st.side_of[st.tricks[-1][1]]
        pos = _leaf_position(game, [0] * st.n, st.leader, st.piles, st.owed, st.tricks_won,
                             last)
        t = st.result["totals_half"]
        assert dd.static_value(game, pos) == t[1] - t[0]


# The full enumeration is the cost (Ottocento 60 positions: 15 s CPU): the default run
# takes the first 30 (measured: 29 and 27 inside, error 0.10 and 0.07 of the base's),
# the slow run 60 (pytest -m slow, after any change to the Tarocchini static value).
@pytest.mark.parametrize("count", [30, pytest.param(60, marks=pytest.mark.slow)])
@pytest.mark.parametrize("variant", ["ottocento", "terziglio"])
def test_static_value_against_reachable_range_and_exact(variant, count):
    # small positions (2-4 tricks left), full enumeration on the Python rules: the
    # estimate is clamped into the sure-point interval, which holds every reachable
    # final value; it is an estimate, so it may leave the reachable range (a card that
    # completes a combination, TAROC-MELD-10 doubling, projected to the wrong side):
    # measured 14/150 Ottocento and 18/150 Terziglio outside.  It must stay inside in
    # most positions and be closer to the exact DD value than the points captured so
    # far are.
    rng = random.Random(11 if variant == "ottocento" else 12)
    inside = 0
    err_static = err_base = 0
    for i in range(count):
        st = random_endgame(rng, variant, 2 + i % 3)
        lo, hi = final_range(st)
        v = static_of_state(st)
        inside += lo <= v <= hi
        exact = dd.solve(st).value
        err_static += abs(v - exact)
        game = ct.game_of_state(st)
        base = (2 * game.declared[1] + ct.points_half(st.piles[1])
                - 2 * game.declared[0] - ct.points_half(st.piles[0]))
        err_base += abs(base - exact)
    assert inside >= 0.8 * count
    assert err_static < 0.5 * err_base


def test_static_value_within_objective_bounds_mid_deal():
    # at any trick boundary of a whole deal the estimate stays inside the value's static
    # range (one side takes every card, the last trick and its declarations)
    rng = random.Random(13)
    for variant in ("ottocento", "terziglio"):
        for _ in range(20):
            st = random_endgame(rng, variant, 20)
            game = ct.game_of_state(st)
            allm = ct.meld_points((1 << 62) - 1, game.multi_use, game.max_cont)
            span = (174 + 12 + 2 * allm, 174 + 12 + 2 * allm)
            while not st.is_over():
                if not st.trick:
                    v = static_of_state(st)
                    assert -(2 * game.declared[0] + span[0]) <= v <= 2 * game.declared[1] + span[1]
                st.play(rng.choice([m for m in st.legal_moves() if m.kind == "card"]))


def test_determinism():
    rng = random.Random(21)
    for variant in ("ottocento", "terziglio"):
        st = random_endgame(rng, variant, 9)
        a = dd.solve_cards(st, horizon=2)
        b = dd.solve_cards(st, horizon=2, tt_bits=16)
        c = dd.solve_cards(st, horizon=2)
        assert {m: r.value for m, r in a.items()} == {m: r.value for m, r in b.items()} == \
            {m: r.value for m, r in c.items()}
        assert [r.nodes for r in a.values()] == [r.nodes for r in c.values()]
        assert dd.solve(st, horizon=3).value == dd.solve(st, horizon=3).value
        assert dd.default_horizon(st) == dd.default_horizon(st.copy())


def test_option_errors():
    st = random_endgame(random.Random(2), "ottocento", 6)
    for bad in (-1, 1.5, "2", True):
        with pytest.raises(OptionError, match="horizon"):
            dd.solve(st, horizon=bad)
        with pytest.raises(OptionError, match="horizon"):
            dd.solve_cards(st, horizon=bad)


def test_default_horizon():
    # exact search (None) in small endgames, a truncated search early in the deal
    rng = random.Random(3)
    for variant, full in (("ottocento", 15), ("terziglio", 18)):
        st = random_endgame(rng, variant, 20)
        h = dd.default_horizon(st)
        assert isinstance(h, int) and 1 <= h < full - 1
        assert dd.solve_cards(st, horizon=h, node_budget=3_000_000)
        small = random_endgame(rng, variant, 5)
        assert dd.default_horizon(small) is None
