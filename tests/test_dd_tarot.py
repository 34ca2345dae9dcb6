"""Tarot double-dummy solver (solver.dd.tarot) against a plain exhaustive minimax written
here on the pure-Python rules (solver.games.tarot), on random endgames with 3-5 tricks
left for 3, 4 and 5 players, including Excuse, petit-au-bout and chelem situations.

The objective is T of TAROT-SCORE-1 (TAROT-COUNT-2 threshold, TAROT-COUNT-4 margin,
TAROT-SCORE-3 petit au bout, TAROT-SCORE-5 chelem, TAROT-EXC-3..6 Excuse)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from test_core_tarot import CONTRACTS, KINGS, strong_taker_position

from solver import dd
from solver.cards import TAROT_DECK
from solver.core import tarot as face
from solver.dd import tarot as ddt
from solver.errors import AtoutError, OptionError
from solver.games import tarot as rules
from solver.notation import Deal

_VALUES: dict = {}


def final_T(st: rules.TarotState) -> int:
    """T of a finished deal, from the rules' own counting (poignée H of the state);
    deal_value results are cached per distinct counted outcome."""
    cnt = st.count()
    bonuses = st.options["poignee_bonuses"]
    h = sum(bonuses[rules.POIGNEE_LEVELS.index(lv)] for _, lv, _ in st.poignees)
    key = (st.contract, cnt, h, st.chelem_announced, tuple(sorted(st.options.items())))
    if key not in _VALUES:
        _VALUES[key] = rules.deal_value(
            st.contract, cnt.points, cnt.bouts, petit_au_bout=cnt.petit_au_bout, poignee=h,
            chelem_announced=st.chelem_announced, attack_all_tricks=cnt.defence_tricks == 0,
            defence_all_tricks=cnt.attack_tricks == 0, options=st.options)
    return _VALUES[key]


def play_legal(st: rules.TarotState, card: int) -> None:
    """GameState.play without re-checking legality (the card comes from legal_cards)."""
    move = rules.CARD_MOVES[card]
    st._undo_stack.append(st._snapshot())
    st._apply(move)
    st.history.append(move)


INF = 10**6


def position_key(st: rules.TarotState) -> tuple:
    """What the rest of the deal's play and score depend on (the memo key of brute_force)."""
    return (tuple(st.hands), tuple(st.trick), tuple(st.won), tuple(st.tricks_won),
            st.excuse_owed, st.petit_trick, st.leader)


def brute_force(st: rules.TarotState, memo: dict, alpha: int = -INF, beta: int = INF,
                leaf: Callable[[rules.TarotState], int | None] | None = None,
                final: Callable[[rules.TarotState], int] = final_T) -> int:
    """Exhaustive minimax with plain alpha-beta over every legal card (attack max,
    defence min), on the rules' own state. With the full window it returns the exact
    value; the memo caches results of identical (state, window) calls only (one memo
    per root and ``leaf``).

    ``leaf`` (depth-limited searches, tests/test_dd_tarot_horizon.py): called on every
    unfinished position at a trick boundary; a number it returns is that position's
    value (it is not searched), None searches on. ``final``: the value of a finished
    deal (default T; tests/test_dd_tarot_exact.py also searches the margin)."""
    if st.phase == "over":
        return final(st)
    if leaf is not None and not st.trick:
        v = leaf(st)
        if v is not None:
            return v
    key = (position_key(st), alpha, beta)
    if key in memo:
        return memo[key]
    seat = st.to_act
    attack = st.side_of(seat)
    best = -INF if attack else INF
    for card in TAROT_DECK.cards(rules.legal_cards(st.hands[seat], st.trick,
                                                   st.lead_forbidden())):
        play_legal(st, card)
        v = brute_force(st, memo, alpha, beta, leaf, final)
        st.undo()
        if attack:
            best = max(best, v)
            alpha = max(alpha, v)
        else:
            best = min(best, v)
            beta = min(beta, v)
        if alpha >= beta:
            break
    memo[key] = best
    return best


def random_endgame(rng: random.Random, n: int, tricks_left: int) -> rules.TarotState:
    """A random deal played at random (or steered towards chelem/Excuse endings) until
    `tricks_left` tricks remain, sometimes stopped inside a trick."""
    kind = rng.random()
    if kind < 0.3:
        st = strong_taker_position(rng, n)
    else:
        deal = rules.deal_cards(n, rng.randrange(1 << 30))
        hands = [sum(1 << x for x in h) for h in deal.hands]
        dog = sum(1 << x for x in deal.extras["dog"])
        taker = rng.randrange(n)
        partner = called = None
        if n == 5:
            called = rng.choice(KINGS)
            holder = next((s for s, h in enumerate(hands) if h >> called & 1), None)
            partner = None if holder == taker else holder
        opts = {"players": n,
                "excuse_last_trick": rng.choice(("changes_side", "to_trick_winner")),
                "scoring": rng.choice(("fft", "fft", "fixed_base"))}
        st = rules.TarotState.for_play(hands, taker=taker, contract=rng.choice(CONTRACTS),
                                       partner=partner, called_card=called, aside=dog,
                                       chelem_announced=rng.random() < 0.1, options=opts)
    if rng.random() < 0.3:
        st.poignees.append((st.taker, rng.choice(rules.POIGNEE_LEVELS), 0))
    hs = rules.HAND_SIZE[n]
    stop_extra = rng.randrange(n) if rng.random() < 0.25 else 0
    strong = kind < 0.3
    while st.trick_no() < hs - tricks_left or len(st.trick) < stop_extra:
        legal = TAROT_DECK.cards(rules.legal_cards(st.hands[st.to_act], st.trick,
                                                   st.lead_forbidden()))
        keep = (rules.EXCUSE, rules.PETIT)
        if strong and st.side_of(st.to_act):
            pick = [x for x in legal if x not in keep] or legal
            card = max(pick, key=lambda x: (x < 21, x))
        else:
            pick = [x for x in legal if x not in keep] if rng.random() < 0.7 else legal
            card = rng.choice(pick or legal)
        st.play(rules.CARD_MOVES[card])
    return st


def check_endgames(n: int, count: int, seed: int, depths: tuple[int, ...] = ()) -> dict:
    """Solve `count` random endgames and compare with the brute force. Tricks left: 3,
    every 8th 4 with 3-4 players (``depths``: those counts in turn)."""
    rng = random.Random(seed)
    seen = {"excuse": 0, "petit": 0, "chelem": 0, "mid_trick": 0}
    for i in range(count):
        tricks_left = depths[i % len(depths)] if depths else 3 + (i % 8 == 0 and n < 5)
        st = random_endgame(rng, n, tricks_left)
        live = sum(st.hands) | sum(1 << c for _, c in st.trick)
        seen["excuse"] += bool(live >> rules.EXCUSE & 1)
        seen["petit"] += bool(live & 1)
        seen["chelem"] += st.tricks_won[0] == 0 or st.tricks_won[1] == 0
        seen["mid_trick"] += bool(st.trick)
        expect = brute_force(st, {})
        res = ddt.solve(st, tt_bits=12, line=(i % 4 == 0))
        assert res.complete and res.value == expect, (n, i, res.value, expect)
        if i % 4 == 0:
            # the optimal line reaches the value, with the points/bouts reported
            end = st.copy()
            for mv in res.line:
                end.play(mv)
            assert end.phase == "over" and final_T(end) == expect
            assert end.count().points2 == res.attack_points * 2
            assert end.count().bouts == res.attack_bouts
        if i % 3 == 0:
            cards = ddt.solve_cards(st, tt_bits=12)
            vals = [r.value for r in cards.values()]
            assert (max(vals) if st.side_of(st.to_act) else min(vals)) == expect
            if i % 9 == 0 and tricks_left == 3:
                for mv, r in cards.items():
                    st.play(mv)
                    assert r.value == brute_force(st, {})
                    st.undo()
    return seen


# The exhaustive minimax on the Python rules is the cost (25-50 s CPU for 1,000 4- or
# 5-player endgames): the default run compares 250 per player count, the slow run the
# 1,000 of the claim (pytest -m slow, after any change to the Tarot search or rules).
@pytest.mark.parametrize("count", [250, pytest.param(1000, marks=pytest.mark.slow)])
@pytest.mark.parametrize("n", [3, 4, 5])
def test_solver_equals_brute_force(n, count):
    """`count` endgames per player count: DD value == exhaustive minimax; the card
    values agree with the position value (TAROT-SCORE-1, TAROT-EXC-6, TAROT-SCORE-3);
    the Excuse, the Petit, a side without a trick and a stop inside a trick all occur."""
    seen = check_endgames(n, count, seed=n)
    assert seen["excuse"] > count // 10 and seen["petit"] > count // 20
    assert seen["chelem"] > count // 50 and seen["mid_trick"] > count // 20


@pytest.mark.slow
@pytest.mark.parametrize("n", [3, 4, 5])
def test_solver_equals_brute_force_deeper(n):
    """As above with 3, 4 and 5 tricks left in equal shares (slow). With 5 players 3 and
    4 tricks only: the exhaustive minimax of a 5-trick 5-player endgame takes from
    seconds to over an hour (one ran 50 CPU minutes without ending)."""
    depths = (3, 4, 5) if n < 5 else (3, 4)
    check_endgames(n, 1000, seed=100 + n, depths=depths)


def test_dispatch_and_errors():
    rng = random.Random(11)
    st = random_endgame(rng, 4, 3)
    res = dd.solve(st, tt_bits=10)
    assert res.value == brute_force(st, {})
    assert dd.principal_variation(st, tt_bits=10) == res.line
    assert set(dd.solve_cards(st)) == {rules.CARD_MOVES[c] for c in
                                       TAROT_DECK.cards(rules.legal_cards(
                                           st.hands[st.to_act], st.trick,
                                           st.lead_forbidden()))}
    with pytest.raises(OptionError):
        ddt.solve(st, tt_bits=40)
    # the limits are validated like the other games' (solver.dd.check_limits)
    for bad in ({"node_budget": -1}, {"node_budget": 0}, {"deadline": 0.0},
                {"deadline": -1.0}):
        with pytest.raises(OptionError):
            ddt.solve(st, **bad)
    with pytest.raises(AtoutError):
        ddt.solve(rules.new_state({"players": 4}, seed=1))


def test_node_budget_stops_search():
    st = rules.new_state({"players": 4}, seed=2)
    hands = list(st.hands)
    st = rules.TarotState.for_play(hands, taker=0, contract="garde", aside=st.dog)
    res = ddt.solve(st, node_budget=2000)
    assert not res.complete and res.value is None and res.nodes <= 2100
    res = ddt.solve(st, deadline=1e-6)
    assert not res.complete


def test_dd_table_wiring():
    """dd_table: every seat as taker in garde sans (dog to the attack, TAROT-DOG-3) and
    garde contre (dog to the defence, TAROT-DOG-4), eldest leading; each entry is the
    solve() of that position (same deterministic search under the same node budget);
    5p: the call is one allowed by TAROT-CALL-2."""
    for n in (3, 5):
        deal = rules.deal_cards(n, 7)
        table = ddt.dd_table(Deal(deal.hands, deal.extras), {"players": n}, dealer=0,
                             node_budget=1500)
        assert set(table) == {(s, c) for s in range(n) for c in ("garde_sans", "garde_contre")}
        hands = [sum(1 << x for x in h) for h in deal.hands]
        dog = sum(1 << x for x in deal.extras["dog"])
        for (taker, contract), res in table.items():
            partner = None
            if n == 5:
                assert res.called in ddt._calls(hands, taker)
                holder = next((s for s, h in enumerate(hands) if h >> res.called & 1), None)
                partner = None if holder == taker else holder
            st = rules.TarotState.for_play(hands, taker=taker, contract=contract,
                                           partner=partner, called_card=res.called,
                                           aside=dog, dealer=0, options={"players": n})
            assert st.leader == 1
            again = ddt.solve(st, node_budget=1500, line=False)
            assert (again.nodes, again.complete, again.value) == \
                (res.nodes, res.complete, res.value)


def test_first_guess_does_not_change_values():
    """MTD(f) steps from any first guess reach the same exact value (TAROT-SCORE-1)."""
    rng = random.Random(21)
    for i in range(60):
        st = random_endgame(rng, (3, 4, 5)[i % 3], 3)
        expect = brute_force(st, {})
        for g in (expect, expect - 1, expect + 1, expect - 97, expect + 250):
            core = face.from_state(st, tt_bits=10)
            assert core.value(guess=g) == (expect, True)


def test_reused_table_starts_empty():
    """Tables are recycled: a core takes the table of a freed core of the same size and
    empties it by a new generation tag, no memset. Stale entries, even of the same
    position, must be dead: the search on a recycled table, or after clear_tt, visits
    exactly the nodes of the first search (a live stale entry would cut it short)."""
    def search(core):  # value and nodes of one search (the counter accumulates)
        before = core.stats()["nodes"]
        return core.value(), core.stats()["nodes"] - before

    rng = random.Random(33)
    checked = 0
    for i in range(36):
        st = random_endgame(rng, (3, 4, 5)[i % 3], 4)
        core = face.from_state(st, tt_bits=11)
        first = search(core)
        if first[1] <= 1:
            continue                               # the root's bounds decide: no table
        checked += 1
        assert search(core)[1] < first[1]          # the table is live: hits...
        core.clear_tt()
        assert search(core) == first               # ...and emptied
        del core                                   # its table goes to the pool...
        again = face.from_state(st, tt_bits=11)    # ...and comes back here, empty
        assert search(again) == first
    assert checked >= 20


def test_tables_above_the_pool_size_come_fresh_and_empty():
    # tables above the pool's size (2**20 entries) are allocated for each core and
    # given back at its end (anonymous pages, zero until touched: no memset): a large
    # table gives the value a small one gives, each time, and a second core of the
    # same size starts empty (the same nodes as the first)
    rng = random.Random(34)
    for i in range(6):
        st = random_endgame(rng, (3, 4, 5)[i % 3], 4)
        small = face.from_state(st, tt_bits=10)
        expected = small.value()
        runs = []
        for _ in range(2):
            big = face.from_state(st, tt_bits=23)
            runs.append((big.value(), big.stats()["nodes"]))
            del big
        assert runs[0][0] == expected
        assert runs[1] == runs[0]


def test_table_keeps_bouts_and_honours_apart():
    # Regression: the table key once XORed the live honours, shifted by 8 bits, onto
    # the live bouts, so KS / QS fell on EX / T21: these two 2-card endgames (the same
    # holders in power order; EX + 7S live in one, T6 + KS in the other) shared a key
    from solver.tarot_core import TarotCore

    def core(hands):
        masks = [TAROT_DECK.mask(TAROT_DECK.parse_cards(h)) for h in hands]
        return TarotCore(4, masks, 0, (), 16, 18, [1, 0, 0, 0], att_pts=90, att_tricks=8,
                         def_tricks=8, tt_bits=8)

    a = core(["EX 7S", "T5 8S", "T2 9S", "T3 10S"])
    b = core(["T6 8S", "T5 9S", "T2 10S", "T3 KS"])
    assert a.table_key() != b.table_key()
    assert a.value() != b.value()
    c = core(["T6 7S", "T5 8S", "T2 9S", "T3 10S"])  # same game up to relative ranks
    d = core(["T7 7S", "T5 8S", "T2 9S", "T3 10S"])
    assert c.table_key() == d.table_key() and c.value() == d.value()


def test_table_key_regression_position():
    # The position a bid analysis failed on ("no card keeps the double-dummy value"):
    # with EX and KS live the old key let a subtree take a stored bound of another
    # position; the value with the table must be the plain search's (-94 at the root,
    # -94 after five more cards) and the optimal line must follow it to the end
    from solver.bidding.tarot import _dd_line

    hands = ["T1 T15 T17 T18 NS 1H 2H 6H KH 4D 5D 6D 8D 9D 10D 1C 6C QC",
             "T2 T5 T6 T12 T13 T14 T16 T20 EX 2S QS JH QH 7D KD 4C NC KC",
             "T3 T4 T19 T21 3S 4S 5S 7S 8S 10S 4H 5H 7H 8H 10H 5C 9C 10C",
             "T7 T8 T9 T10 T11 1S 6S 9S KS 3H 9H 1D 2D JD ND 3C 7C 8C"]
    st = rules.TarotState.for_play([TAROT_DECK.mask(TAROT_DECK.parse_cards(h)) for h in hands],
                                   taker=2, contract="garde", dealer=0,
                                   aside=TAROT_DECK.mask(TAROT_DECK.parse_cards(
                                       "JS NH 3D QD 2C JC")), options={"players": 4})
    moves = ("KD T3 1D 4D 5C 3C 1C NC KC 9C 7C QC 2S 3S 1S NS KH JH 4H 9H 5D 7D T4 2D 10C 8C "
             "6C 4C 5H 3H 1H QH QS 4S 6S T1 6D T2 T19 JD 7H T7 2H T12 T5 T21 T8 T15 8H T9 6H "
             "T13").split()
    for tok in moves:
        st.play(rules.CARD_MOVES[TAROT_DECK.card(tok)])
    assert _dd_line(st.copy(), 500_000, 16) is not None
    for tok in [None, "T6", "5S", "T10", "T17", "T18"]:
        if tok:
            st.play(rules.CARD_MOVES[TAROT_DECK.card(tok)])
        with_table = face.from_state(st, tt_bits=16, poignee=0)
        plain = face.from_state(st, tt_bits=16, poignee=0)
        plain.set_features(tt=False, bounds=False, merge=False, order=True)
        assert with_table.value() == plain.value() == (-94, True), tok


def test_stats_by_trick_add_up():
    """``stats()['by_trick']`` splits the node count by trick (the diagnostics
    benchmarks/RESULTS.md reports): every node is counted once, at its trick or as an
    end of the deal."""
    rng = random.Random(77)
    for n in (3, 4, 5):
        st = random_endgame(rng, n, 4)
        core = face.from_state(st, tt_bits=12)
        core.value()
        s = core.stats()
        rows = s["by_trick"]
        assert sum(r[0] for r in rows) + rows[-1][1] == s["nodes"]
        assert s["nodes"] > 1 and sum(r[2] + r[3] for r in rows) > 0
