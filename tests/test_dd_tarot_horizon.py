"""Tarot horizon search (solver.dd.tarot ``horizon=``, the core's ``set_horizon`` and
``static_eval``): a depth-limited double-dummy search whose leaves are scored by a static
evaluation of T (TAROT-SCORE-1, with TAROT-COUNT-2 threshold, TAROT-SCORE-3 petit au
bout, TAROT-SCORE-5 chelem) instead of being searched to the end.

Checked here: a horizon covering every trick left gives the exact values bit for bit;
the static evaluation is exact on finished deals and one trick from the end and stays
inside the objective's range (the core's value bounds); a truncated search equals the
plain brute-force minimax of test_dd_tarot (on the Python rules) cut at the same trick
boundary and scored there by the same static evaluation; results are deterministic; bad
horizons raise OptionError."""

from __future__ import annotations

import math
import random

import pytest
from test_dd_tarot import brute_force, final_T, position_key, random_endgame

from solver.core import tarot as face
from solver.dd import tarot as ddt
from solver.errors import OptionError
from solver.games import tarot as rules


def tricks_left(st: rules.TarotState) -> int:
    """Tricks still to finish, the current one included."""
    return st.hands[st.to_act].bit_count()


def static_leaf(hz: int, weights=None, spread: float = 0.0):
    """Leaf hook for test_dd_tarot.brute_force: a trick boundary with trick number >= hz
    is scored by the core's static evaluation of that position instead of being
    searched; with it the brute force is the depth-limited minimax of the horizon.
    Values are cached by position (brute_force meets a leaf again under other windows)."""
    cache: dict[tuple, int] = {}

    def leaf(st: rules.TarotState) -> int | None:
        if st.trick_no() < hz:
            return None
        key = position_key(st)
        if key not in cache:
            core = face.from_state(st, tt_bits=4)
            if weights is not None or spread:
                core.set_eval(weights, spread)
            cache[key] = core.static_eval()
        return cache[key]
    return leaf


@pytest.mark.parametrize("n", [3, 4, 5])
def test_full_horizon_equals_exact(n):
    """TAROT-SCORE-1: horizon >= the tricks after the current one is the exact search
    (same value of the position and of every card, same node counts), exact=True."""
    rng = random.Random(4100 + n)
    for i in range(36):  # 108 endgames over the three player counts
        st = random_endgame(rng, n, 3 + i % 3)
        left = tricks_left(st)
        ref = ddt.solve(st, tt_bits=12, line=False)
        for h in (left - 1, left, left + 4) if i % 4 == 0 else (left - 1 + i % 3,):
            res = ddt.solve(st, tt_bits=12, line=False, horizon=h)
            assert res.exact and res.complete
            assert (res.value, res.nodes) == (ref.value, ref.nodes), (n, i, h)
        if i % 3 == 0:
            exact = ddt.solve_cards(st, tt_bits=12)
            cards = ddt.solve_cards(st, tt_bits=12, horizon=left + i % 2)
            assert {m: (r.value, r.nodes) for m, r in cards.items()} == \
                   {m: (r.value, r.nodes) for m, r in exact.items()}
            assert all(r.exact for r in cards.values())


@pytest.mark.parametrize("n", [3, 4, 5])
def test_static_eval_exact_at_the_end_and_in_range(n):
    """The static evaluation is the rules' T on finished deals (TAROT-SCORE-1/3/5),
    the exact value with one trick left, and inside the core's value bounds (the
    range of the exact value) everywhere along random plays."""
    rng = random.Random(4200 + n)
    for i in range(30):
        st = random_endgame(rng, n, 4)
        while st.trick:
            st.play(rng.choice(st.legal_moves()))
        while st.phase == "play":
            core = face.from_state(st, tt_bits=4)
            lo, hi = core.bounds()
            v = core.static_eval()
            assert lo <= v <= hi, (n, i, lo, v, hi)
            if tricks_left(st) == 1:
                assert v == ddt.solve(st, tt_bits=8, line=False).value
            for _ in range(n):
                st.play(rng.choice(st.legal_moves()))
        # finished deal: replay the last trick in the core and evaluate there
        last = st.copy()
        for _ in range(n):
            last.undo()
        core = face.from_state(last, tt_bits=4)
        for mv in st.history[-n:]:
            core.play(mv.value)
        assert core.is_over()
        assert core.static_eval() == core.final_value() == final_T(st)


# The brute force on the Python rules is the cost (5 players: ~2.5 s an endgame): the
# default run checks 6 endgames per player count, the slow run 12 (pytest -m slow,
# after any change to the Tarot search, its horizon or the static evaluation).
@pytest.mark.parametrize("count", [6, pytest.param(12, marks=pytest.mark.slow)])
@pytest.mark.parametrize("n", [3, 4, 5])
def test_truncated_search_equals_depth_limited_minimax(n, count):
    """Values of the truncated search (position and every card, horizons 1 and 2) equal
    the brute-force minimax on the Python rules with the static evaluation at the
    horizon (no table, no bounds, no card merging), with the table and the core's
    pruning bounds on: the leaves stay inside the bounds, so pruning stays valid."""
    rng = random.Random(4300 + n)
    checked = differ = 0
    for i in range(count):
        st = random_endgame(rng, n, 4 + (i % 2 if n < 5 else 0))
        for h in (1, 2):
            if h >= tricks_left(st) - 1:
                continue  # exact search, covered above
            res = ddt.solve(st, tt_bits=12, line=True, horizon=h)
            assert not res.exact and res.complete
            differ += res.value != ddt.solve(st, tt_bits=12, line=False).value
            core = face.from_state(st, tt_bits=4)
            hz = core.trick_no + 1 + h
            leaf = static_leaf(hz)
            assert res.value == brute_force(st, {}, leaf=leaf), (n, i, h)
            # the line stops at the horizon and reaches the value there
            for mv in res.line:
                core.play(mv.value)
            assert not core.trick and core.trick_no == hz
            assert core.static_eval() == res.value
            cards = ddt.solve_cards(st, tt_bits=12, horizon=h)
            for mv, r in cards.items():
                st.play(mv)
                assert not r.exact and r.value == brute_force(st, {}, leaf=leaf), (n, i, h, mv)
                st.undo()
            checked += 1
    assert checked >= 6 and differ >= 3  # the horizon does change values


def test_truncated_search_table_and_bounds_do_not_change_values():
    """Deeper positions (6 tricks left, horizon 2): the same values with the table,
    bounds, merging and ordering switched off in the core."""
    rng = random.Random(4400)
    for i in range(9):
        n = 3 + i % 3
        st = random_endgame(rng, n, 6)
        full = face.from_state(st, tt_bits=16)
        full.set_horizon(2)
        plain = face.from_state(st, tt_bits=16)
        plain.set_horizon(2)
        plain.set_features(tt=False, merge=False, bounds=False, order=False)
        assert full.value()[0] == plain.value()[0], (n, i)


def test_deterministic():
    rng = random.Random(4500)
    st = random_endgame(rng, 4, 7)
    a = ddt.solve_cards(st, horizon=2)
    b = ddt.solve_cards(st, horizon=2)
    assert {m: (r.value, r.nodes) for m, r in a.items()} == \
           {m: (r.value, r.nodes) for m, r in b.items()}
    assert ddt.solve(st, horizon=2).value == ddt.solve(st, horizon=2).value


@pytest.mark.parametrize("bad", [-1, 1.5, "2", True])
def test_bad_horizon_is_an_option_error(bad):
    st = random_endgame(random.Random(4600), 4, 5)
    with pytest.raises(OptionError, match="horizon"):
        ddt.solve(st, horizon=bad)
    with pytest.raises(OptionError, match="horizon"):
        ddt.solve_cards(st, horizon=bad)


def test_horizon_zero_or_none_is_exact():
    st = random_endgame(random.Random(4700), 4, 5)
    ref = ddt.solve(st, line=False)
    for h in (None, 0):
        r = ddt.solve(st, line=False, horizon=h)
        assert r.exact and (r.value, r.nodes) == (ref.value, ref.nodes)


def test_default_horizon():
    """Exact near the end, a horizon that shrinks as the deal gets longer; the value it
    gives is an estimate (exact=False) or exact (None)."""
    for n, exact_from in ((3, 11), (4, 8), (5, 7)):
        hs = rules.HAND_SIZE[n]
        rng = random.Random(4800 + n)
        st = random_endgame(rng, n, hs)
        seen = []
        while st.phase == "play":
            h = ddt.default_horizon(st)
            left = hs - st.trick_no()
            assert (h is None) == (left <= exact_from), (n, left, h)
            seen.append(h or 0)
            st.play(rng.choice(st.legal_moves()))
        hs_seen = [h for h in seen if h]
        assert hs_seen == sorted(hs_seen) and hs_seen[0] == 1
    st = random_endgame(random.Random(4900), 4, 18)
    res = ddt.solve_cards(st, horizon=ddt.default_horizon(st))
    assert all(r.complete and not r.exact for r in res.values())


FIT = ddt.EVALUATIONS["fit"][4][0]   # the 4p fit, as a set of weights for any count


def random_boundaries(rng: random.Random, n: int, deals: int = 20):
    """(deal index, state) at every trick boundary of random plays of ``deals`` random
    deals of 1-6 tricks less than a full hand (the state is played on after each)."""
    for i in range(deals):
        st = random_endgame(rng, n, rules.HAND_SIZE[n] - i % 6)
        while st.trick:
            st.play(rng.choice(st.legal_moves()))
        while st.phase == "play":
            yield i, st
            for _ in range(n):
                st.play(rng.choice(st.legal_moves()))


@pytest.mark.parametrize("n", [3, 4, 5])
def test_fitted_evaluation_in_range_and_exact_at_the_end(n):
    """The fitted point split (``set_eval``, issue 28) keeps what the static evaluation
    guarantees: inside the value bounds everywhere, exact one trick from the end
    (TAROT-SCORE-1), and ``set_eval(None)`` gives back the evaluation as built."""
    changed = 0
    for i, st in random_boundaries(random.Random(5000 + n), n):
        core = face.from_state(st, tt_bits=4)
        built = core.static_eval()
        core.set_eval(FIT)
        lo, hi = core.bounds()
        v = core.static_eval()
        assert lo <= v <= hi, (n, i, lo, v, hi)
        changed += v != built
        if tricks_left(st) == 1:
            assert v == built == ddt.solve(st, tt_bits=8, line=False).value
        core.set_eval(None)
        assert core.static_eval() == built
    assert changed > 20   # it is another evaluation


def test_fitted_evaluation_is_its_linear_form():
    """Each weight moves the leaf by its term (margin objective, doubled points, where
    the bounds do not clamp): the intercept by itself, and the power split at weight 1
    alone is the built evaluation up to rounding."""
    rng = random.Random(5100)
    seen = 0
    for i in range(40):
        st = random_endgame(rng, 4, 10 + i % 8)
        while st.trick:
            st.play(rng.choice(st.legal_moves()))
        core = face.from_state(st, tt_bits=4)
        core.set_objective("margin")
        lo, hi = core.bounds()
        built = core.static_eval()
        zero = [0.0] * len(FIT)
        split = list(zero)
        split[1] = 1.0
        core.set_eval(split)
        assert abs(core.static_eval() - built) <= 1 or built in (lo, hi)
        v0 = core.static_eval()
        shifted = list(split)
        shifted[0] = 8.0
        core.set_eval(shifted)
        v8 = core.static_eval()
        if lo + 8 < v0 < hi - 8:
            assert v8 == v0 + 8, (i, v0, v8)
            seen += 1
        else:
            assert v0 <= v8 <= v0 + 8
    assert seen >= 20


def test_fitted_truncated_search_equals_depth_limited_minimax():
    """With the fitted evaluation, the truncated search (position and every card)
    equals the brute-force minimax scored at the horizon by the same evaluation."""
    rng = random.Random(5200)
    for i in range(4):
        n = 3 + i % 3 if i < 3 else 4
        st = random_endgame(rng, n, 5 if n < 5 else 4)
        res = ddt.solve(st, tt_bits=12, line=False, horizon=1)
        core = face.from_state(st, tt_bits=12)
        weights = ddt.EVALUATIONS["fit"][n][0]      # the player count's own fit
        core.set_eval(weights)
        core.set_horizon(1)
        leaf = static_leaf(core.trick_no + 2, weights)
        assert core.value()[0] == brute_force(st, {}, leaf=leaf), (n, i)
        cards = ddt.solve_cards(st, tt_bits=12, horizon=1, evaluation="fit")
        for mv, r in cards.items():
            st.play(mv)
            assert r.value == brute_force(st, {}, leaf=leaf), (n, i, mv)
            st.undo()
        assert res.value is not None


@pytest.mark.parametrize("n", [3, 4, 5])
def test_soft_evaluation_averages_the_jump_at_the_threshold(n):
    """``spread`` (evaluation "soft"): the T leaf is the expectation of TAROT-SCORE-1's
    T over a pile spread around the estimate. It stays inside the value bounds and lies
    between the leaves of the pile estimate moved by three spreads down and up (f_points
    is nondecreasing); near the threshold it is strictly inside the jump, so it differs
    from the hard leaf somewhere."""
    softer = 0
    for i, st in random_boundaries(random.Random(5500 + n), n):
        if tricks_left(st) == 1:
            continue          # exact there: no estimate to spread
        core = face.from_state(st, tt_bits=4)
        lo, hi = core.bounds()
        core.set_eval(FIT)
        hard = core.static_eval()
        core.set_eval(FIT, 14.0)
        soft = core.static_eval()
        assert lo <= soft <= hi, (n, i, lo, soft, hi)
        down, up = list(FIT), list(FIT)
        down[0] -= 42
        up[0] += 42
        core.set_eval(down)
        v_down = core.static_eval()
        core.set_eval(up)
        v_up = core.static_eval()
        assert v_down <= soft <= v_up, (n, i, v_down, soft, v_up)
        softer += soft != hard
    assert softer > 10
    with pytest.raises(ValueError, match="spread"):
        face.from_state(random_endgame(random.Random(5500), n, 4), tt_bits=4).set_eval(FIT, -1.0)


# the core's 5-point Gauss-Hermite rule (soft_points): weights, and nodes for spread 14
# rounded to doubled points
GH_W = (0.011257411327721, 0.222075922005613, 0.533333333333333, 0.222075922005613,
        0.011257411327721)
GH_OFF_14 = (-40, -19, 0, 19, 40)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_soft_leaf_is_the_hard_leafs_expectation(n):
    """The soft T leaf (spread 14) is the Gauss-Hermite average of the hard leaf with
    the pile estimate moved by each node's offset: moving the fit's intercept by k
    doubled points moves the estimate by exactly k, and the weights sum to 1, so the
    petit au bout and chelem terms pass through (TAROT-SCORE-1/3/5). Checks the core's
    table of soft values against that definition, where no moved leaf is clamped."""
    checked = 0
    for i, st in random_boundaries(random.Random(5700 + n), n):
        if tricks_left(st) == 1:
            continue
        core = face.from_state(st, tt_bits=4)
        lo, hi = core.bounds()
        hard = []
        for k in GH_OFF_14:
            moved = list(FIT)
            moved[0] += k
            core.set_eval(moved)
            hard.append(core.static_eval())
        if any(v in (lo, hi) for v in hard):
            continue                  # clamped to the value bounds: not the plain average
        core.set_eval(FIT, 14.0)
        expected = math.floor(sum(w * v for w, v in zip(GH_W, hard, strict=True)) + 0.5)
        assert core.static_eval() == expected, (n, i, hard)
        checked += 1
    assert checked > 20


def test_soft_truncated_search_equals_depth_limited_minimax():
    rng = random.Random(5600)
    for i in range(3):
        n = 3 + i
        st = random_endgame(rng, n, 5 if n < 5 else 4)
        core = face.from_state(st, tt_bits=12)
        weights, spread = ddt.EVALUATIONS["soft"][n]
        core.set_eval(weights, spread)
        core.set_horizon(1)
        leaf = static_leaf(core.trick_no + 2, weights, spread)
        assert core.value()[0] == brute_force(st, {}, leaf=leaf), (n, i)
        cards = ddt.solve_cards(st, tt_bits=12, horizon=1, evaluation="soft")
        for mv, r in cards.items():
            st.play(mv)
            assert r.value == brute_force(st, {}, leaf=leaf), (n, i, mv)
            st.undo()


def test_evaluation_never_read_by_the_exact_search():
    rng = random.Random(5300)
    st = random_endgame(rng, 4, 5)
    ref = ddt.solve_cards(st, tt_bits=12)
    for evaluation in ("fit", "soft"):
        other = ddt.solve_cards(st, tt_bits=12, evaluation=evaluation)
        assert {m: (r.value, r.nodes) for m, r in ref.items()} == \
               {m: (r.value, r.nodes) for m, r in other.items()}


def test_bad_evaluation_is_an_error():
    st = random_endgame(random.Random(5400), 4, 5)
    with pytest.raises(OptionError, match="evaluation"):
        ddt.solve_cards(st, evaluation="learned")
    core = face.from_state(st, tt_bits=4)
    with pytest.raises(ValueError, match="13 weights"):
        core.set_eval([1.0, 2.0])
