"""Score classes of issue 23: the chelem and the petit au bout as probes of their own
(the core's ``sweep_probe`` / ``sweep_rest_bound``), against an exhaustive AND/OR
search on the Python rules, in 3, 4 and 5 player endgames.

Rules: TAROT-SCORE-5 (chelem term: a side that wins every trick), TAROT-SCORE-3 (petit
au bout), TAROT-EXC-6 (the Excuse winning the last trick of a sweep, the Petit au bout
one trick earlier), TAROT-SCORE-1 (T)."""

from __future__ import annotations

import random

import pytest
from test_dd_tarot import brute_force, final_T, play_legal, position_key, random_endgame

from solver.cards import TAROT_DECK
from solver.core import tarot as face
from solver.games import tarot as rules


def sweeps(st: rules.TarotState, side: int, x: int, memo: dict) -> bool:
    """Can ``side`` (0 defence, 1 attack) force winning every remaining trick with a
    final T <= x (defence) / >= x (attack)? Every legal card, no pruning but the
    memo (TAROT-SCORE-5 / TAROT-SCORE-3 read from the finished deal)."""
    if st.phase == "over":
        c = st.count()
        other = c.attack_tricks if side == 0 else c.defence_tricks
        t = final_T(st)
        return other == 0 and (t <= x if side == 0 else t >= x)
    key = position_key(st)
    if key in memo:
        return memo[key]
    mine = st.side_of(st.to_act) == side
    out = not mine
    for card in TAROT_DECK.cards(rules.legal_cards(st.hands[st.to_act], st.trick,
                                                   st.lead_forbidden())):
        play_legal(st, card)
        v = sweeps(st, side, x, memo)
        st.undo()
        if v == mine:
            out = v
            break
    memo[key] = out
    return out


def class_core(st: rules.TarotState):
    """A core at ``st`` as analyse's class step keeps one: the real game, T, the
    plain table (sweep probes need it)."""
    core = face.from_state(st, tt_bits=12)
    core.set_features(partition=False)
    core.set_objective("T")
    return core


def sweep_endgames(n: int, count: int, seed: int, inside: bool = False):
    """Endgames at a trick boundary (``inside``: some inside a trick too), kept where
    some side has won no trick yet (the others are answered by the first test of the
    probe and say little)."""
    rng = random.Random(seed)
    while count:
        st = random_endgame(rng, n, rng.choice((2, 3)))
        if (st.trick and not inside) or st.phase == "over":
            continue
        if min(st.tricks_won) > 0:
            continue
        count -= 1
        yield st


@pytest.mark.parametrize("n", [3, 4, 5])
def test_sweep_probe_equals_brute_force(n):
    """sweep_probe(side, x) is the exhaustive AND/OR answer at thresholds around the
    exact T and at the extremes (the class alone), both sides, with and without the
    petit au bout deciding (TAROT-SCORE-5, TAROT-SCORE-3, TAROT-EXC-6)."""
    seen = {True: 0, False: 0}
    for st in sweep_endgames(n, 60, seed=2390 + n, inside=True):
        t = brute_force(st, {})
        core = class_core(st)
        for side in (0, 1):
            for x in (t - 21, t - 1, t, t + 1, t + 21, -10**4 if side else 10**4):
                expect = sweeps(st, side, x, {})
                got = core.sweep_probe(side, x)
                assert got == expect, (side, x, got, expect, t)
                seen[got] += 1
    assert seen[True] > 30 and seen[False] > 30


@pytest.mark.parametrize("n", [3, 4, 5])
def test_sweep_answers_bound_the_exact_T(n):
    """What analyse concludes from a probe holds: True at x proves T <= x (defence) /
    T >= x (attack); False proves T >= min(x + 1, rest) / T <= max(x - 1, rest), rest
    being sweep_rest_bound (the extreme T of the ends the side does not sweep)."""
    for st in sweep_endgames(n, 40, seed=2395 + n, inside=True):
        t = brute_force(st, {})
        core = class_core(st)
        lo, hi = core.bounds()
        for side in (0, 1):
            rest = core.sweep_rest_bound(side)
            for x in range(lo - 1, hi + 2, 7):
                r = core.sweep_probe(side, x)
                if side == 0:
                    assert (t <= x) if r else (t >= min(x + 1, rest)), (x, r, t, rest)
                else:
                    assert (t >= x) if r else (t <= max(x - 1, rest)), (x, r, t, rest)


def test_sweep_probe_rejects_what_it_does_not_search():
    """Clear errors: a side other than 0 / 1, the partition table, a relaxed game, a
    threshold out of range, the margin objective."""
    st = next(sweep_endgames(4, 1, seed=2399))
    core = face.from_state(st, tt_bits=12)
    with pytest.raises(ValueError, match="plain table"):
        core.sweep_probe(0, 0)
    core.set_features(partition=False)
    with pytest.raises(ValueError, match="side"):
        core.sweep_probe(2, 0)
    core.set_relax("defence")
    with pytest.raises(ValueError, match="real game"):
        core.sweep_probe(0, 0)
    core.set_relax("none")
    with pytest.raises(ValueError, match="threshold"):
        core.sweep_probe(0, 10**6)
    core.set_objective("margin")
    with pytest.raises(ValueError, match="bound T"):
        core.sweep_probe(0, 0)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_sweep_values_hold_every_sweep_end(n):
    """sweep_values lists every T a sweep can end with: the least T the defence can
    force in a sweep, and the greatest the attack can, found by bisection on the
    brute-force AND/OR answer, are among them; and T itself is among them whenever
    the deal's optimal play is a sweep (TAROT-SCORE-5, TAROT-SCORE-3, TAROT-EXC-3..6)."""
    found = 0
    for st in sweep_endgames(n, 40, seed=2380 + n, inside=True):
        core = class_core(st)
        lo, hi = core.bounds()
        for side in (0, 1):
            values = core.sweep_values(side)
            far = (10**4 if side == 0 else -10**4)
            if not sweeps(st, side, far, {}):
                continue
            a, b = lo - 1, hi + 1      # defence: false at a, true at b (attack: reverse)
            if side == 0:
                while b - a > 1:
                    x = (a + b) // 2
                    a, b = (a, x) if sweeps(st, 0, x, {}) else (x, b)
                best = b
            else:
                while b - a > 1:
                    x = (a + b) // 2
                    a, b = (x, b) if sweeps(st, 1, x, {}) else (a, x)
                best = a
            assert best in values, (side, best, values)
            found += 1
    assert found > 10


@pytest.mark.parametrize("n", [3, 4, 5])
def test_score_classes_narrow_T_soundly(n):
    """analyse's class step (_sweep_classes) on proven intervals around the exact T:
    the interval it returns still holds T, and it is T exactly on the deals whose
    optimal play is a sweep (a chelem, with or without the petit au bout)."""
    from solver.dd import tarot as ddt
    exact = narrowed = 0
    for st in sweep_endgames(n, 40, seed=2370 + n, inside=True):
        t = brute_force(st, {})
        core = class_core(st)
        blo, bhi = core.bounds()
        for lo, hi in ((blo, bhi), (max(blo, t - 10), min(bhi, t + 30)),
                       (max(blo, t - 30), min(bhi, t + 10))):
            nlo, nhi, _ = ddt._sweep_classes(core, lo, hi, None, None)
            assert lo <= nlo <= t <= nhi <= hi, (lo, hi, nlo, nhi, t)
            narrowed += (nlo, nhi) != (lo, hi)
            exact += nlo == nhi
    assert exact > 10 and narrowed > 20


def test_sweep_through_the_excuse_on_the_last_trick():
    """TAROT-EXC-6: the attack's master trump is a sure trick, but a defence that has
    won every trick takes the last one with its Excuse: the defence leads KS (the
    attack must follow with 2S), then the Excuse, which wins the trick the attack's
    T21 falls to. A sure-trick refutation that forgot the Excuse says no."""
    from test_core_tarot import c, m

    from solver import tarot_core
    core = tarot_core.TarotCore(4, [m("EX KS"), m("3S 4S"), m("T21 2S"), m("5S 6S")], 0,
                                [], 16, 18, [0, 0, 1, 0], att_tricks=0, def_tricks=16)
    core.set_features(partition=False)
    core.set_objective("T")
    values = core.sweep_values(0)
    assert core.sweep_probe(0, max(values)) is True
    assert core.sweep_probe(1, -10**4) is False
    for card in ("KS", "4S", "2S", "6S", "EX", "3S", "T21", "5S"):
        core.play(c(card))
    assert core.counts()["att_tricks"] == 0 and core.counts()["exc6"] == 1


@pytest.mark.parametrize("n", [3, 4, 5])
def test_card_classes_hold_each_cards_T(n):
    """analyse's per-card class step (_card_classes): each legal card's interval holds
    the brute-force T after that card, and pins it on the cards whose optimal
    continuation is a sweep (which cards keep a chelem, TAROT-SCORE-5)."""
    from solver.dd import tarot as ddt
    from solver.games.base import Move
    pinned = cards = 0
    for st in sweep_endgames(n, 25, seed=2360 + n, inside=True):
        core = class_core(st)
        got = ddt._card_classes(core, None, None)
        for card in TAROT_DECK.cards(rules.legal_cards(st.hands[st.to_act], st.trick,
                                                       st.lead_forbidden())):
            play_legal(st, card)
            t = brute_force(st, {})
            st.undo()
            lo, hi = got[Move("card", card)]
            assert lo <= t <= hi, (card, lo, hi, t)
            pinned += lo == hi
            cards += 1
    assert cards > 50 and pinned > 10


@pytest.mark.parametrize("n", [3, 4, 5])
def test_analyse_reports_a_chelem_only_where_one_is_forced(n):
    """analyse's ``chelem`` (the side the score classes proved able to take every
    trick, TAROT-SCORE-5) is one the exhaustive AND/OR search confirms, and its exact T
    is still the brute-force one."""
    from solver.dd import tarot as ddt
    reported = 0
    for st in sweep_endgames(n, 80, seed=2350 + n, inside=True):
        a = ddt.analyse(st, tt_bits=12, cards=False, line=False)
        assert a.value == brute_force(st, {})
        if a.chelem is not None:
            assert sweeps(st, a.chelem, 10**4 if a.chelem == 0 else -10**4, {})
            reported += 1
    assert reported > 3


class _Recording:
    """A core whose sweep probes are recorded (side, threshold, answer)."""

    def __init__(self, core):
        self.core = core
        self.probes: list[tuple[int, int, bool | None]] = []

    def __getattr__(self, name):
        return getattr(self.core, name)

    def sweep_probe(self, side, x, **limits):
        r = self.core.sweep_probe(side, x, **limits)
        self.probes.append((side, x, r))
        return r


def test_score_classes_count_the_ends_no_side_sweeps():
    """With an announced chelem (TAROT-SCORE-5: -200 whether the defence sweeps or the
    attack merely loses a trick) an end the defence does not sweep can be below a
    defence sweep's T: the attack takes one cheap trick and the defence still brings
    the Petit au bout (TAROT-SCORE-3). So a failed defence sweep probe at x proves T
    only above min(next sweep value, sweep_rest_bound) -- without the second term the
    class step would claim T at or above the next sweep value. Constructed 3p/4p
    endgames (2-3 tricks left, the defence has won every trick, the Petit in a
    defender's hand): the interval always holds the exact T of a plain search, and
    the case where only the rest bound keeps it sound is met."""
    from solver import tarot_core
    from solver.dd import tarot as ddt
    plain = dict(tt=False, merge=False, bounds=False, order=False, merge2=False,
                 sure_ex=False, sure_trumps=False, sure_lead=False, partition=False,
                 sure_match=False, sure_won=False, sure_petit=False, mobility=False,
                 quasi=False, sweep_low=False)
    rng = random.Random(5)
    reached = checked = 0
    for _ in range(1500):
        n, k = rng.choice((3, 4)), rng.choice((2, 3))
        total = rules.HAND_SIZE[n]
        deck = list(range(78))
        rng.shuffle(deck)
        if rules.PETIT not in deck[:n * k]:
            deck.remove(rules.PETIT)
            deck.insert(0, rules.PETIT)
        hands = [sum(1 << c for c in deck[i * k:(i + 1) * k]) for i in range(n)]
        taker = rng.randrange(n)
        if hands[taker] >> rules.PETIT & 1:
            continue
        args = dict(trick_no=total - k, total_tricks=total,
                    sides=[int(s == taker) for s in range(n)],
                    att_pts=rng.randrange(30), def_tricks=total - k,
                    chelem_announced=True, mult=rng.choice((1, 2, 4)), tt_bits=10)
        leader = rng.randrange(n)
        ref = tarot_core.TarotCore(n, hands, leader, **args)
        ref.set_features(**plain)
        ref.set_objective("T")
        t, done = ref.value()
        assert done
        core = tarot_core.TarotCore(n, hands, leader, **args)
        core.set_features(partition=False)
        core.set_objective("T")
        values = core.sweep_values(0)
        rec = _Recording(core)
        lo, hi = core.bounds()
        nlo, nhi, _ = ddt._sweep_classes(rec, lo, hi, None, None)
        assert nlo <= t <= nhi, (n, k, nlo, nhi, t)
        checked += 1
        for side, x, r in rec.probes:
            up = [v for v in values if v > x]
            if side == 0 and r is False and up and t < min(up):
                reached += 1
    assert checked > 800 and reached >= 3, (checked, reached)
