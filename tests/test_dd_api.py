"""One result API for the double-dummy modules of every game (solver.dd.result):
``solve`` returns a per-game subclass of ``DDResult`` with the common fields first,
``solve_cards`` maps each legal move to a ``CardResult`` (the same type for every game).
Values are checked against the brute-force references of tests/test_dd_*.py, on one
small endgame per game."""

from __future__ import annotations

import random
from dataclasses import fields

import pytest
import test_dd_belote as tb
import test_dd_tarocchini as tq
import test_dd_tarot as tt

from solver import dd
from solver.core import belote as cb
from solver.dd import belote as ddb
from solver.dd import tarocchini as ddq
from solver.dd import tarot as ddt
from solver.dd.result import CardResult, DDResult
from solver.games import tarot as tarot_rules

COMMON = ("value", "lower", "upper", "nodes", "complete", "seconds", "stopped",
          "tt_hits", "tt_probes", "exact")


def belote_case():
    st = tb.endgame_state("coinche", 3, random.Random(1))
    rules = cb.rules_of_state(st)
    value = tb.brute_force(st.strain, st.taker, rules.undertrump_required,
                           rules.ta_must_overtake, rules.capot_points)

    def expect(s):
        return tb.brute_of_state(value, s)
    return st, expect, ddb.BeloteResult


def tarot_case():
    st = tt.random_endgame(random.Random(11), 4, 3)
    return st, lambda s: tt.brute_force(s, {}), ddt.TarotResult


def tarocchini_case():
    st = tq.random_endgame(random.Random(7), "ottocento", 3)
    return st, lambda s: tq.brute(s, prune=True), ddq.TarocchiniResult


CASES = {"coinche": belote_case, "tarot": tarot_case, "tarocchini": tarocchini_case}


def card_expectations(st, expect):
    out = {}
    for move in st.legal_moves():
        if move.kind != "card":
            continue
        child = st.copy()
        child.play(move)
        out[move] = expect(child)
    return out


@pytest.mark.parametrize("game", list(CASES))
def test_solve_and_solve_cards_share_one_shape(game):
    st, expect, cls = CASES[game]()
    want = expect(st)
    res = dd.solve(st)
    assert type(res) is cls and isinstance(res, DDResult)
    assert tuple(f.name for f in fields(res))[:len(COMMON)] == COMMON
    assert res.complete and res.value == res.lower == res.upper == want
    assert res.stopped is None and res.nodes > 0 and res.seconds >= 0
    assert 0 <= res.tt_hits <= res.tt_probes
    assert not hasattr(res, "time")
    assert repr(res).startswith(f"{cls.__name__}(value={want}, ")

    cards = dd.solve_cards(st)
    wants = card_expectations(st, expect)
    assert set(wants) <= set(cards)
    for move, r in cards.items():
        assert type(r) is CardResult and r.card == move
        assert tuple(f.name for f in fields(r)) == COMMON + ("card", "call_nodes")
        assert r.complete and r.stopped is None and r.nodes > 0
        # the whole call's nodes (Tarot: the position's search and every card's),
        # 0 where every card already carries them
        assert r.call_nodes >= sum(x.nodes for x in cards.values()) if game == "tarot" \
            else r.call_nodes == 0
        if move in wants:
            assert r.value == r.lower == r.upper == wants[move], (game, move)
    pick = max if (st.side_of(st.to_act) if game == "tarot" else
                   st.to_act % 2 == st.attack if game == "coinche" else
                   st.side_of[st.to_act] == 1) else min
    assert pick(r.value for r in cards.values()) == want


def test_per_game_extras():
    st, expect, _ = belote_case()
    r = dd.solve(st)
    assert r.attack == st.attack and r.capot in (True, False) and len(r.belote) == 2
    st, expect, _ = tarot_case()
    r = ddt.solve(st)
    assert r.line and r.attack_points is not None and r.attack_bouts is not None
    assert r.called is None
    st, expect, _ = tarocchini_case()
    r = dd.solve(st)
    assert r.points == r.value / 2


def test_tarot_stopped_search_gives_proven_interval():
    # the Tarot core proves no bound when a search stops: the interval is its static
    # range of T, which must hold the exact value (and, per card, the card's value)
    st = tt.random_endgame(random.Random(5), 4, 5)
    want = tt.brute_force(st, {})
    part = ddt.solve(st, node_budget=3)
    assert not part.complete and part.value is None and part.stopped == "node_budget"
    assert part.lower <= want <= part.upper and part.lower < part.upper
    cards = ddt.solve_cards(st, node_budget=3)
    wants = card_expectations(st, lambda s: tt.brute_force(s, {}))
    for move, r in cards.items():
        assert not r.complete and r.value is None and r.stopped == "node_budget"
        assert r.lower <= wants[move] <= r.upper


def test_tarot_deadline_stop_reason():
    # a whole deal is far out of reach in no time (the core checks the clock every
    # 1024 nodes, so an endgame could finish first)
    st = tarot_rules.new_state({"players": 4}, seed=2)
    st = tarot_rules.TarotState.for_play(list(st.hands), taker=0, contract="garde",
                                         aside=st.dog)
    timed = ddt.solve(st, deadline=1e-6)
    assert not timed.complete and timed.value is None and timed.stopped == "deadline"
    assert timed.lower < timed.upper
