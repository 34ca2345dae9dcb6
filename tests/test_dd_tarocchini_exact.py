"""Issue 24: the exact Tarocchini analysis (solver.dd.tarocchini.analyse) and what it
is built on -- the null-window probe at the "ahead" threshold, the proven bounds, the
sure-trump bounds, the exact table keys -- against the brute-force minimax of
tests/test_dd_tarocchini.py on endgames with combinations (TAROC-DECL-6), the Matto's
exchange and debts (TAROC-MATTO-2..5), declarations (TAROC-DECL-4), the discard
(OTTO-DEAL-3, TERZ-BID-2) and a solo stock (TERZ-BID-3).
"""

from __future__ import annotations

import random

import pytest
from test_dd_tarocchini import MAT, brute, random_endgame

from solver.core import tarocchini as ct
from solver.dd import tarocchini as dd
from solver.games import tarocchini as tg
from solver.games.base import Move


def _endgames(seed: int, count: int, sizes=(3, 4)):
    rng = random.Random(seed)
    for i in range(count):
        variant = "ottocento" if i % 2 else "terziglio"
        yield random_endgame(rng, variant, sizes[i % len(sizes)], mid_trick=i % 3 == 0)


def _solver_for(st, tt_bits=dd.DEFAULT_TT_BITS):
    s = ct.DDSolver(tt_bits)
    s.configure(*ct.game_of_state(st).args())
    s.set_position(*ct.position_of_state(st).args())
    return s


def test_probe_is_a_proven_bound_at_any_threshold():
    # one null-window search (fail-soft): v >= beta proves value >= v, v < beta proves
    # value <= v (TAROC-PLAY-4, TAROC-MATTO-2, TAROC-MATTO-3, TAROC-MATTO-5, TAROC-PTS-2)
    matto = 0
    for st in _endgames(31, 70):
        want = brute(st, prune=True)
        s = _solver_for(st)
        for beta in (want - 7, want, want + 1, want + 30, 0, 1):
            v, nodes, ok = s.probe(beta)
            assert ok and nodes > 0
            if v >= beta:
                assert want >= v >= beta
            else:
                assert want <= v < beta
        matto += any(h >> MAT & 1 for h in st.hands)
        st_ = s.stats()
        assert st_["cuts_first"] + st_["cuts_later"] > 0 and st_["tt_probes"] >= st_["tt_hits"]
    assert matto >= 20


def test_bounds_contain_the_value_and_sure_trumps_tighten_them():
    # the sure-point interval holds the exact value, with or without the sure trumps
    # (TAROC-RANK-1: the top run of trumps of one side always wins its trick;
    # TAROC-RANK-2: the Moors as one group); with them it is never wider, and it is
    # narrower somewhere; so does the discard, counted for its side once that side has
    # won a trick (OTTO-DEAL-3, TERZ-BID-2)
    tighter = 0
    for st in _endgames(32, 120, sizes=(3, 4, 5)):
        if st.trick:
            continue
        want = brute(st, prune=True) if st.hands[st.to_act].bit_count() <= 4 else \
            dd.solve(st).value
        s = _solver_for(st)
        s.set_features(sure=False, sure_discard=False)
        lo0, hi0 = s.bounds()
        s.set_features(sure=True, sure_discard=True)
        lo1, hi1 = s.bounds()
        assert lo0 <= lo1 <= want <= hi1 <= hi0
        tighter += (lo1, hi1) != (lo0, hi0)
    assert tighter >= 10


def test_features_never_change_a_value():
    # sure trumps / the discard's owner / bounds / ordering / merging on or off: the
    # same exact values
    for st in _endgames(33, 40, sizes=(4, 5)):
        s = _solver_for(st)
        vals = set()
        for feats in ({"sure": True}, {"sure": False}, {"sure_discard": False},
                      {"sure_matto": False}, {"merge_dead": False}, {"match": False},
                      {"sure": True, "order": 0}, {"order": 1},
                      {"sure": True, "bounds": False}, {"sure": True, "merge": False},
                      {"early_probe": False}, {"merge2": False}):
            s.set_features(**{"bounds": True, "order": 2, "merge": True, "sure": True,
                              "sure_discard": True, "sure_matto": True, "merge_dead": True,
                              "match": True, "early_probe": True, "merge2": True, **feats})
            s.set_position(*ct.position_of_state(st).args())
            v, lo, hi, _, ok = s.solve(0, 0, 0.0)
            assert ok and lo == hi == v
            vals.add(v)
        assert len(vals) == 1


def test_lead_mobility_changes_the_tree_not_the_value():
    # ``mobility`` (the leads ordered by how many ways the opponents can answer them,
    # TAROC-PLAY-1..3, TAROC-MATTO-1): the same exact values at weights 0, 30 (the
    # default) and 200, and the trees differ somewhere
    assert _solver_for(next(_endgames(35, 1))).features()["mobility"] == dd.MOBILITY
    differ = 0
    for st in _endgames(35, 30, sizes=(6, 7)):
        got = []
        for weight in (0, dd.MOBILITY, 200):
            s = _solver_for(st)
            s.set_features(mobility=weight)
            s.set_position(*ct.position_of_state(st).args())
            v, lo, hi, nodes, ok = s.solve(0, 0, 0.0)
            assert ok and lo == hi == v
            got.append((v, nodes))
        assert len({v for v, _ in got}) == 1, got
        differ += len({n for _, n in got}) > 1
    assert differ > 0


def test_table_keys_are_exact_even_in_a_tiny_table():
    # the table compares the whole key (hands, leader, captured combination cards,
    # debts, flags), not a hash: a 16-entry table, where thousands of positions share
    # each slot, gives the same values as a large one
    for st in _endgames(34, 40, sizes=(4, 5)):
        small = _solver_for(st, tt_bits=4).solve(0, 0, 0.0)
        big = _solver_for(st, tt_bits=20).solve(0, 0, 0.0)
        assert small[0] == big[0] and small[4] and big[4]


def _merging_endgames(seed: int, count: int, sizes=(3, 4), stat: str = "dead_merged"):
    # endgames whose search leaves moves out by a merging rule (stats: ``stat``)
    found = []
    for st in _endgames(seed, 40 * count, sizes=sizes):
        s = _solver_for(st)
        s.reset_stats()
        v, lo, hi, _, ok = s.solve(0, 0, 0.0)
        if s.stats()[stat]:
            found.append((st, v))
            if len(found) == count:
                break
    return found


# the merging rules, each with the stats counter of the moves it leaves out:
# ``merge_dead``, TAROC-MELD-7: 1-point trumps below the point where no side's Grande
# can still reach (the Angelo's side only, TAROC-RANK-1; at most one free skip and one
# gap a contatore) are equal cards, merged like the pips; only once no scartino can
# move a captured trump (TAROC-MATTO-2, TAROC-MATTO-5: a pip is paid first).
# ``merge2``: once no pile can lose a card (TAROC-MATTO-2/3/5 closed), a pip beside
# higher cards of the same hand with no live card between them is played only to a
# trick its side surely loses (TAROC-PLAY-3/4: every later seat's strongest legal
# answer considered), the higher cards only to one it surely takes: a pip is worth
# least and in no combination (TAROC-PTS-2, TAROC-MELD)
MERGING = [("merge_dead", "dead_merged", 36), ("merge2", "merge2_merged", 38)]


@pytest.mark.parametrize("feature,stat,seed", MERGING)
def test_merging_equals_brute_force(feature, stat, seed):
    found = _merging_endgames(seed, 12, stat=stat)
    assert len(found) == 12
    for st, v in found:
        assert v == brute(st, prune=True)
        s = _solver_for(st)
        s.set_features(**{feature: False})
        off = s.solve(0, 0, 0.0)
        assert off[0] == v and off[4]


@pytest.mark.slow
@pytest.mark.parametrize("feature,stat,seed", MERGING)
def test_merging_equals_brute_force_large(feature, stat, seed):
    found = _merging_endgames(seed + 1, 60, sizes=(4, 5), stat=stat)
    assert len(found) >= 40
    for st, v in found:
        assert v == brute(st, prune=True)


def test_matto_of_a_side_that_wins_a_trick_is_a_sure_card():
    # TAROC-MATTO-2: the Matto goes back to its side's pile (a scartino is paid
    # instead), TAROC-MATTO-3: unless that side wins no trick -- so once the side has
    # won one, or holds a sure trump (TAROC-RANK-1), the Matto is its sure card: the
    # bounds with it hold the exact value, are never wider, and are narrower somewhere
    tighter = 0
    seen = 0
    for st in _endgames(38, 300, sizes=(3, 4)):
        if st.trick or not any(h >> MAT & 1 for h in st.hands):
            continue
        seen += 1
        want = brute(st, prune=True)
        s = _solver_for(st)
        s.set_features(sure_matto=False)
        lo0, hi0 = s.bounds()
        s.set_features(sure_matto=True)
        lo1, hi1 = s.bounds()
        assert lo0 <= lo1 <= want <= hi1 <= hi0
        tighter += (lo1, hi1) != (lo0, hi0)
        if seen == 40:
            break
    assert seen == 40 and tighter >= 5


@pytest.mark.parametrize("search", dd.SEARCHES)
def test_analyse_equals_brute_force(search):
    # (a) ahead at the threshold (TERZ-SCORE-2: in Terziglio value >= 0 is the declarer's
    # loss; Ottocento OTTO-SCORE-1: team B strictly ahead), (b) the exact margin, (c)
    # every card, (d) the line: that of principal_variation (lowest deck index first),
    # which reaches the value
    for st in _endgames(35 if search == "now" else 36, 40):
        want = brute(st, prune=True)
        a = dd.analyse(st, search=search)
        assert a.complete and a.stopped is None
        assert a.threshold == (0 if st.variant == "terziglio" else 1)
        assert a.ahead == (want >= a.threshold)
        assert a.value == a.lower == a.upper == want
        per_card = dd.solve_cards(st)
        assert {m.value for m in per_card} == set(a.cards) == set(a.legal)
        for m, r in per_card.items():
            assert a.cards[m.value].complete and a.cards[m.value].value == r.value
        assert a.line == [m.value for m in dd.principal_variation(st)]
        probe = st.copy()
        for c in a.line:
            probe.play(next(m for m in probe.legal_moves() if m.kind == "card"
                            and m.value == c))
        assert probe.is_over()


def test_card_ahead_equals_brute_force():
    """(a) after each legal card (``card_ahead``; TERZ-SCORE-2, OTTO-SCORE-1): each
    answer is the brute-force one; where (a)'s answer goes against the side to play,
    every card has it without a search, else the cards are probed (their nodes are
    the "card ahead" step's)."""
    free = probed = 0
    for st in _endgames(41, 40):
        a = dd.analyse(st, line=False)
        assert set(a.card_ahead) == set(a.legal)
        for card, got in a.card_ahead.items():
            after = st.copy()
            after.play(Move("card", card))
            assert got == (brute(after, prune=True) >= a.threshold), card
        step = dict((q, n) for q, _, n in a.steps)["card ahead"]
        if a.ahead != (st.side_of[st.to_act] == 1):
            assert step == 0 and set(a.card_ahead.values()) == {a.ahead}
            free += 1
        else:
            assert any(v == a.ahead for v in a.card_ahead.values())
            probed += step > 0
    assert free > 5 and probed > 5


def test_analyse_stopped_proves_only_what_it_proved():
    # a node budget far too small: no answer is claimed that was not proven, the
    # interval holds the exact value, and an "ahead" given comes from that interval
    seen = {"ahead": 0, "value": 0, "cards": 0}
    for st in _endgames(37, 40, sizes=(4, 5)):
        want = dd.solve(st).value
        for budget in (5, 60, 400, 3000):
            a = dd.analyse(st, node_budget=budget)
            assert a.lower <= want <= a.upper
            if a.complete:
                assert a.value == want
                continue
            assert a.stopped == "node_budget" and a.nodes <= budget
            seen[a.stage] = seen.get(a.stage, 0) + 1
            if a.ahead is not None:
                assert a.ahead == (want >= a.threshold)
            for card, got in a.card_ahead.items():
                if got is not None:
                    after = st.copy()
                    after.play(Move("card", card))
                    assert got == (dd.solve(after).value >= a.threshold)
            if a.value is not None:
                assert a.value == want and a.stage in ("cards", "line")
            else:
                assert a.line is None
            for r in a.cards.values():
                assert r.lower <= r.upper
                if r.complete:
                    assert r.value is not None
    assert seen["ahead"] and seen["value"]


def test_analyse_deadline_stops_a_full_deal():
    # a full Ottocento deal: far beyond a 0.3 s deadline; the analysis stops on time
    # with the static interval and no answer claimed
    import time

    rng = random.Random(38)
    st = random_endgame(rng, "ottocento", 15)
    t = time.monotonic()
    a = dd.analyse(st, deadline=0.3)
    assert time.monotonic() - t < 3.0
    assert a.stopped == "deadline" and a.value is None and a.line is None
    assert a.lower < a.upper


def test_analyse_threads_give_the_same_cards():
    # (c) in two threads, each with its own solver and table: the same values
    for st in _endgames(39, 12, sizes=(4, 5)):
        one = dd.analyse(st, line=False)
        two = dd.analyse(st, line=False, threads=2)
        assert two.complete and two.value == one.value
        assert {c: r.value for c, r in two.cards.items()} == \
            {c: r.value for c, r in one.cards.items()}


def test_diagnostics_count_every_node_and_probe():
    # set_diag (benchmarks/dd_tarocchini_where.py): nodes by tricks left sum to the
    # search's nodes, probes and hits to the table's counters; the trace has one pair
    # of key hashes per probe; the values are those of the search without it
    for st in _endgames(39, 6, sizes=(4, 5)):
        want = _solver_for(st).solve(0, 0, 0.0)[0]
        s = _solver_for(st)
        s.reset_stats()
        s.set_diag(True, 1_000_000)
        v, lo, hi, nodes, ok = s.solve(0, 0, 0.0)
        d, stats = s.diag(), s.stats()
        s.set_diag(False)
        assert ok and v == want
        assert sum(d["nodes"]) == nodes
        assert sum(d["probes"]) == stats["tt_probes"] == len(d["trace"])
        assert sum(d["hits"]) == stats["tt_hits"]
        assert d["moves"] >= d["moves_ub"] > 0


def _matto_lost_endgames(seed: int, count: int, sizes=(2, 3)):
    # endgames where one side has played the Matto to a trick it lost and has won no
    # trick (its pile is the Matto, it owes a scartino, TAROC-MATTO-2): if it wins none
    # of the tricks left, the Matto goes to the opponents (TAROC-MATTO-3), who may then
    # complete a combination with it (TAROC-MELD-2/5); mostly low cards for that side
    rng = random.Random(seed)
    low = [c for c in range(62) if c < 40 and c % 10 <= 5] + list(range(41, 50))
    for i in range(count):
        n = 4 if i % 2 else 3
        k = sizes[i % len(sizes)]
        y = rng.randrange(2)
        if n == 4:
            side_of = (0, 1, 0, 1)
            declarer = None
        else:
            declarer = rng.randrange(3)
            side_of = tuple(0 if s == declarer else 1 for s in range(3))
        pool = [c for c in range(61)]
        rng.shuffle(pool)
        hands = [0] * n
        for seat in range(n):
            src = low if side_of[seat] == y and rng.random() < 0.7 else pool
            got = [c for c in src if c in pool][:k] if src is low else pool[:k]
            if src is low:
                rng.shuffle(got)
            for c in got:
                pool.remove(c)
                hands[seat] |= 1 << c
        other = [c for c in pool[:rng.randrange(8, 15)]]
        other += [c for c in (60, 59, 40) if c in pool and rng.random() < 0.6]
        piles = [0, 0]
        piles[y] = 1 << MAT
        for c in set(other):
            piles[1 - y] |= 1 << c
        won = [0, 0]
        won[1 - y] = 4
        owed = [0, 0]
        owed[y] = 1
        opts = {"game": "ottocento" if n == 4 else "terziglio", "signals": "none",
                "contatore_multi_use": rng.random() < 0.5}
        kw = {"dealer": rng.randrange(4)} if n == 4 else {"declarer": declarer,
                                                            "contract": "solo"}
        yield tg.TarocchiniState.from_play(hands, rng.randrange(n), opts, piles=piles,
                                           tricks_won=won, owed=owed, **kw)


def test_bounds_give_the_opponents_the_matto_of_a_side_that_won_no_trick():
    # TAROC-MATTO-3: the Matto of a side that wins no trick goes to the opponents (no
    # scartino is given): their greatest total counts it in their combinations
    # (TAROC-MELD-2 the Tarocchi cricca, TAROC-MELD-5 a contatore); the bounds hold the
    # brute-force value, and the search with the bounds finds it
    for st in _matto_lost_endgames(41, 80):
        want = brute(st, prune=True)
        s = _solver_for(st)
        lo, hi = s.bounds()
        assert lo <= want <= hi
        v, lo2, hi2, _, ok = s.solve(0, 0, 0.0)
        assert ok and v == lo2 == hi2 == want
    # the case that was wrong: the declarer (side 0) played the Matto and lost; he
    # cannot win a trick with S-A S-6 against T16..T13, so side 1 gets the Matto and
    # with ANG MON BAG in its pile the Tarocchi cricca of 4 (36, not 18): value 214,
    # the bound said at most 168
    def b(*cards):
        return sum(1 << c for c in cards)
    g = ct.make_game(3, (0, 1, 1))
    pos = ct.make_position(g, [b(0, 1), b(56, 55), b(54, 53)], leader=1,
                           piles=(b(MAT), b(60, 59, 40, 19, 29)), owed=(1, 0), won=(0, 3))
    s = ct.DDSolver(12)
    s.configure(*g.args())
    s.set_position(*pos.args())
    lo, hi = s.bounds()
    assert lo <= 214 <= hi
    assert s.solve(0, 0, 0.0)[:3] == (214, 214, 214)


def _grande_endgames(seed: int, count: int, k: int):
    # endgames where the Angelo's side may still score a long Grande from the other
    # side's trumps: the Angelo and a few low trumps in one hand, the high ones
    # (MON SOL LUN T16..) with the opponents, who hold more of them than that side
    # holds trumps to beat them (TAROC-MELD-7, TAROC-RANK-1); some Moors each
    # (TAROC-MELD-8, TAROC-RANK-2), the Matto sometimes still in a hand
    rng = random.Random(seed)
    for i in range(count):
        n = 4 if i % 2 else 3
        declarer = rng.randrange(3)
        side_of = (0, 1, 0, 1) if n == 4 else tuple(0 if s == declarer else 1
                                                     for s in range(3))
        z = rng.randrange(2)
        zs = [seat for seat in range(n) if side_of[seat] == z]
        high = list(range(54, 60))
        low = list(range(41, 54))
        plain = list(range(40)) + ([MAT] if rng.random() < 0.5 else [])
        for x in (high, low, plain):
            rng.shuffle(x)
        hands = [0] * n
        hands[zs[0]] |= 1 << 60
        take = {seat: k - (seat == zs[0]) for seat in range(n)}
        for seat in range(n):
            want_t = rng.randrange(1, 3) if side_of[seat] == z else rng.randrange(2, k + 1)
            src = low if side_of[seat] == z else high
            for _ in range(min(want_t, take[seat])):
                pool = src if src else low
                hands[seat] |= 1 << pool.pop()
                take[seat] -= 1
            for _ in range(take[seat]):
                hands[seat] |= 1 << plain.pop()
        piles = [0, 0]
        for c in high + low[:rng.randrange(0, 6)]:
            piles[z if rng.random() < 0.6 else 1 - z] |= 1 << c
        for c in plain[:rng.randrange(4, 12)]:
            piles[rng.randrange(2)] |= 1 << c
        won = [1 + rng.randrange(3), 1 + rng.randrange(3)]
        opts = {"game": "ottocento" if n == 4 else "terziglio", "signals": "none",
                "contatore_multi_use": rng.random() < 0.5}
        kw = {"dealer": rng.randrange(4)} if n == 4 else {"declarer": declarer,
                                                            "contract": "solo"}
        yield tg.TarocchiniState.from_play(hands, rng.randrange(n), opts, piles=piles,
                                           tricks_won=won, **kw)


def _check_match_bounds(states) -> tuple[int, int]:
    seen = tighter = 0
    for st in states:
        want = brute(st, prune=True)
        s = _solver_for(st)
        s.set_features(match=False)
        lo0, hi0 = s.bounds()
        off = s.solve(0, 0, 0.0)
        s.set_features(match=True)
        lo1, hi1 = s.bounds()
        s.set_position(*ct.position_of_state(st).args())
        on = s.solve(0, 0, 0.0)
        assert lo0 <= lo1 <= want <= hi1 <= hi0
        assert on[0] == off[0] == want and on[4] and off[4]
        seen += 1
        tighter += (lo1, hi1) != (lo0, hi0)
    return seen, tighter


def test_trump_matching_caps_the_grande_and_the_moors():
    # TAROC-PLAY-4, TAROC-RANK-1/2: an opposing seat's trump ends in a side's pile only
    # in a trick that side wins with a trump beating it, one such trick per trump of
    # the side and per opposing card of that seat: the side's Grande (TAROC-MELD-7) and
    # Moors sequence (TAROC-MELD-8) count at most the natural cards it holds, has
    # captured or can so capture (greedy maximum matching per opposing seat), plus a
    # card a Matto debt may still bring (TAROC-MATTO-2/5): the bounds hold the
    # brute-force value, are never wider and are narrower somewhere; the values are
    # the same with the caps on or off
    seen, tighter = _check_match_bounds(_grande_endgames(42, 40, 3))
    assert seen == 40 and tighter >= 8
    seen, tighter = _check_match_bounds(st for st in _endgames(43, 30, sizes=(3, 4))
                                        if not st.trick)
    assert seen >= 15


@pytest.mark.slow
def test_trump_matching_caps_the_grande_and_the_moors_large():
    seen, tighter = _check_match_bounds(_grande_endgames(44, 200, 4))
    assert seen == 200 and tighter >= 50


# every technique off: plain MTD(f) with the exact table
PLAIN = dict(sure=False, bounds=False, order=False, merge=False, sure_discard=False,
             sure_matto=False, merge_dead=False, match=False, mobility=0, early_probe=False,
             merge2=False)


def _plain_value(st):
    s = _solver_for(st, tt_bits=16)
    s.set_features(**PLAIN)
    value, _, _, _, complete = s.solve(0, 30_000_000, 0.0)
    return value if complete else None


@pytest.mark.parametrize("variant, left", [("ottocento", 5), ("terziglio", 5)])
@pytest.mark.parametrize("count", [25, pytest.param(1500, marks=pytest.mark.slow)])
def test_analysis_equals_a_plain_search(variant, left, count):
    """Differential fuzz: the whole analysis (ahead, the exact margin, every card;
    TAROC-PLAY-4, TAROC-MATTO-2..5, TAROC-PTS-2) equals the core with every technique
    switched off, on random endgames, some of them inside a trick (run the slow size
    after any change to the core's search: a Tarot flaw of this kind showed at ~1
    endgame in 1,500)."""
    for i in range(count):
        st = random_endgame(random.Random(600_000 + i), variant, left, mid_trick=i % 3)
        ref = _plain_value(st)
        a = dd.analyse(st, node_budget=30_000_000, tt_bits=16, line=False)
        assert a.stopped is None and ref is not None
        assert a.value == ref and a.ahead == (ref >= a.threshold), (i, a.value, ref)
        for card, r in a.cards.items():
            after = st.copy()
            after.play(Move("card", card))
            assert r.complete and r.value == _plain_value(after), (i, card)


def test_card_side_probes_agree_with_exact_card_values():
    """dd.card_side_probes (a stopped analysis' cards probed at the position's proven
    margin; TERZ-SCORE-2, OTTO-SCORE-1): True exactly where the card's exact margin is
    >= x, False where it is below, at thresholds around the position's value."""
    checked = 0
    for st in _endgames(7300, 16):
        exact = {m.value: r.value for m, r in dd.solve_cards(st).items() if m.kind == "card"}
        cards = sorted(exact)
        best = max(exact.values()) if st.side_of[st.to_act] == 1 else min(exact.values())
        for x in (best - 1, best, best + 1):
            answers, nodes = dd.card_side_probes(st, x, cards)
            assert nodes > 0 and answers == {c: exact[c] >= x for c in cards}, x
            checked += 1
    assert checked == 48


def test_benchmark_growth_positions_independent_of_first_leads():
    """benchmarks/dd_tarocchini.py: the growth table takes ``--growth-deals`` deals
    whatever ``--deals`` is (``--deals 0``: the growth table alone), each position
    asked in both searches of the comparison."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from dd_tarocchini import measure
    out = measure(["terziglio"], deals=0, budget=10_000, growth=[4], growth_deals=3,
                  growth_budget=100_000, questions=["ahead"])
    assert out["first lead (full deal)"] == []
    rows = out["growth by tricks left"]
    assert [r["search"] for r in rows] == ["before", "now"]
    assert all(r["positions"] == 3 and r["done"] == 3 for r in rows)
