"""Coinche bid analysis (issue: bid analysis, Coinche part) and `atout evaluate`."""

import json

import pytest
from click.testing import CliRunner

from solver import AtoutError
from solver.bidding import Context, evaluate
from solver.cards import BELOTE_DECK as D
from solver.cli import cli


def ctx(hand, **kw):
    return Context("coinche", D.parse_cards(hand), **kw)


def test_all_eight_trumps_makes_generale_in_every_world():
    # COINCHE-BID-2 / COINCHE-MADE-3: the taker leading with all eight trumps wins every
    # trick himself, so générale is made on every sample and is the best call.
    e = evaluate(ctx("JH 9H AH TH KH QH 8H 7H", seat=0, dealer=3), samples=6, seed=1)
    row = {r.option: r for r in e.rows}
    assert row["generale H"].p_make == 1.0
    assert e.recommended == "generale H"
    assert row["capot H"].p_make == 1.0 and row["160 H"].p_make == 1.0


def test_make_probability_decreases_with_the_level():
    e = evaluate(ctx("JS 9S AS TD KC 7H 8C QD", seat=0, dealer=3), samples=8, seed=2)
    row = {r.option: r for r in e.rows}
    levels = [f"{v} S" for v in range(80, 170, 10)] + ["capot S"]
    probs = [row[name].p_make for name in levels]
    assert probs == sorted(probs, reverse=True)
    assert all(0 <= p <= 1 for p in probs)


def test_same_seed_same_evaluation():
    a = evaluate(ctx("JS 9S AS TD KC 7H 8C QD", seat=1, dealer=0), samples=4, seed=7)
    b = evaluate(ctx("JS 9S AS TD KC 7H 8C QD", seat=1, dealer=0), samples=4, seed=7)
    assert a.to_json(True) | {"seconds": 0} == b.to_json(True) | {"seconds": 0}


def test_coinche_is_offered_over_an_opponent_contract_and_pass_scores_it():
    # seat 1 speaks after seat 0's 160 H; with the top spades and clubs it may coinche
    e = evaluate(ctx("JH 9H AS TS AC TC AD TD", seat=1, dealer=3, auction=["bid:160:H"]),
                 samples=6, seed=3)
    names = {r.option for r in e.rows}
    assert "coinche" in names and "pass" in names and "surcoinche" not in names
    row = {r.option: r for r in e.rows}
    # coinche doubles the stakes of the same outcome: same sign as pass, larger size
    for p, c in zip(row["pass"].scores, row["coinche"].scores, strict=True):
        assert (p > 0) == (c > 0) and abs(c) >= abs(p)


@pytest.mark.parametrize("hand,message", [
    ("JH 9H AH TH KH QH 8H", "8 different cards"),
])
def test_bad_hands_raise(hand, message):
    with pytest.raises(AtoutError, match=message):
        evaluate(ctx(hand), samples=1)


def test_cli_evaluate_json_and_errors():
    r = CliRunner().invoke(cli, ["evaluate", "coinche", "--hand", "JH 9H AH TH KH QH 8H 7H",
                                 "--samples", "3", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output[r.output.index("{"):])
    assert data["recommended"] == "generale H"
    r = CliRunner().invoke(cli, ["evaluate", "coinche", "--hand", "JH 9H XX"])
    assert r.exit_code != 0


def _coinche_example_lines():
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "examples" / "evaluate_coinche.md"
            ).read_text(encoding="utf-8")
    return [ln.removeprefix("atout ").strip() for ln in text.splitlines()
            if ln.startswith("atout evaluate")]


@pytest.mark.parametrize("line", _coinche_example_lines())
def test_cli_evaluates_every_coinche_and_belote_example(line):
    import shlex

    r = CliRunner().invoke(cli, [*shlex.split(line), "--samples", "2", "--json"])
    assert r.exit_code == 0, (line, r.output, r.exception)
    data = json.loads(r.output[r.output.index("{"):])
    assert data["recommended"] in {o["option"] for o in data["options"]}


def test_simulated_bidding_plays_only_contracts_the_worlds_make():
    # cautious_choice (decide): the best-mean contract is skipped when the DD worlds
    # make it less than 90% of the time; free options (a pass) always qualify, and a
    # coinche (P(make) = the opponents fail) needs the floor like a bid
    from solver.bidding import Row, cautious_choice
    rows = [Row("120 H", 10, 0.6, 50.0, 1.0, {}), Row("90 H", 10, 0.95, 40.0, 1.0, {}),
            Row("pass", 10, None, 0.0, 0.0, {})]
    assert cautious_choice(rows) == "90 H"
    assert cautious_choice(rows[:1] + rows[2:]) == "pass"
    assert cautious_choice([Row("coinche", 10, 0.5, 30.0, 1.0, {})] + rows,
                           free=("pass", "coinche")) == "coinche"
    assert cautious_choice([Row("coinche", 10, 0.5, 60.0, 1.0, {})] + rows) == "90 H"
    assert cautious_choice([Row("coinche", 10, 0.92, 60.0, 1.0, {})] + rows) == "coinche"


@pytest.mark.parametrize("hand,seat,auction,options", [
    ("AS KS QS JS 9H TH 7D 8C", 0, [], {}),
    ("7S 8S 7H 8H 7D 8D 9C 7C", 0, [], {}),                      # every strain fails
    ("JS 9S AS TS AH AD AC KC", 1, ["bid:80:H"], {}),
    ("JD 9D AD TD KD QD 8S 7H", 2, ["pass", "bid:100:S"], {}),
    ("JH 9H AH TH KH 8S 7D 7C", 0, [], {"bonuses_count_for_contract": True,
                                        "round_scores": "nearest_10"}),
])
def test_failing_strain_probes_give_the_exact_evaluation(hand, seat, auction, options):
    # a strain whose lowest candidate fails in a world is settled by null-window probes
    # (every candidate fails, only a defence capot changes the score): the table must be
    # the one of exact values in every world
    from solver.bidding import make_evaluator
    c = ctx(hand, seat=seat, dealer=(seat - 1 - len(auction)) % 4, auction=auction,
            options=options)
    tables = []
    for probe_first in (False, True):
        ev = make_evaluator(c)
        ev.probe_first = probe_first
        e = evaluate(c, samples=5, seed=11, evaluator=ev)
        tables.append(([r.to_json(True) for r in e.rows], e.recommended))
    assert tables[0] == tables[1]


def test_worlds_give_the_callers_hands_that_make_their_calls():
    # COINCHE-BID-2..5: the partner's 90 H and the opponent's pass say something about
    # their hands; every sampled world deals them hands with which the heuristic bidder
    # calls the same, so the partner holds hearts far more often than at random
    import random

    from solver.bidding import make_evaluator
    from solver.games import coinche as co
    from solver.heuristics.belote import choose_call, strain_strength

    c = ctx("JS 9S AS TS AD 7C 8C 7H", seat=2, dealer=3, auction=["bid:90:H", "pass"])
    ev = make_evaluator(c)
    rng = random.Random(5)
    worlds = [ev.sample(rng) for _ in range(60)]
    for w in worlds:
        assert w[2] == ev.hand and sum(h.bit_count() for h in w) == 32
        assert w[0] | w[1] | w[2] | w[3] == (1 << 32) - 1
        st = co.new_state(dealer=3, deal=co.Deal([sorted(b for b in range(32) if h >> b & 1)
                                                  for h in w], {}))
        for tok in c.auction:
            obs = st.observation(st.to_act)
            assert choose_call(obs, st.legal_moves()) == st.parse_move(tok)
            st.play(tok)
    assert ev.misfits == 0
    hearts = sum(strain_strength(w[0], 1) for w in worlds) / len(worlds)
    free = make_evaluator(ctx("JS 9S AS TS AD 7C 8C 7H", seat=2, dealer=1))
    at_random = sum(strain_strength(w[0], 1) for w in
                    (free.sample(rng) for _ in range(60))) / 60
    assert hearts > at_random + 5
    e = evaluate(c, samples=3, seed=1, evaluator=ev)
    assert any("others' calls" in n for n in e.notes)


def test_draw_matching_rejection_then_repair():
    # solver.bidding.draw_matching: a hand matching a gap function; rare ones are reached
    # by swaps that never increase the gap, and a pool with nothing to swap is returned
    import random

    from solver.bidding import draw_matching

    pool = list(range(32))
    random.Random(1).shuffle(pool)

    def gap(cards):  # "a hand of the 8 highest cards" is too rare for rejection
        return max(0, sum(24 + k for k in range(8)) - sum(cards))

    part, rest, ok = draw_matching(pool, 8, gap, random.Random(2), tries=50)
    assert not ok and len(part) == 8 and sorted(part + rest) == list(range(32))
    part, rest, ok = draw_matching(pool, 8, gap, random.Random(2), tries=50, repair=5000,
                                   mix=10)
    assert ok and sorted(part) == list(range(24, 32)) and sorted(part + rest) == list(range(32))
    part, rest, ok = draw_matching(pool[:8], 8, gap, random.Random(2), tries=5, repair=100)
    assert rest == [] and len(part) == 8


def test_draw_matching_restarts_a_stalled_climb():
    # solver.bidding.draw_matching: a climb can stall for good. Here the match is the
    # cards 1..4; a hand holding both 0 and 5 is a trap (one swap can drop only one of
    # them, and a hand with one of them is worse), so a climb from the first draw
    # (which holds them) never matches; the restarts draw afresh and match
    import random

    from solver.bidding import draw_matching

    def gap(cards):
        held = (0 in cards) + (5 in cards)
        if held:
            return 50 if held == 2 else 100
        return 10 - 2.5 * sum(1 for c in cards if c in (1, 2, 3, 4))

    for seed in range(20):
        rest = [c for c in range(12) if c not in (0, 5)]
        random.Random(seed).shuffle(rest)
        pool = [0, 5, *rest]
        part, _, ok = draw_matching(pool, 4, gap, random.Random(seed), tries=0, repair=500,
                                    restarts=0)
        assert not ok and {0, 5} <= set(part)
        part, rest, ok = draw_matching(pool, 4, gap, random.Random(seed), tries=0,
                                       repair=500, restarts=8)
        assert ok and sorted(part) == [1, 2, 3, 4] and sorted(part + rest) == list(range(12))


@pytest.mark.parametrize("auction,seat,dealer,message", [
    (["bid:90:H", "pass", "pass", "pass"], 0, 3, "not seat 0.s call"),  # auction over
    (["bid:90:H", "bid:80:S"], 2, 3, "auction call 2 \\(bid:80:S\\)"),   # COINCHE-BID-3
    (["pass"], 0, 3, "not seat 0's call"),
    (["pass", "pass", "pass", "pass", "pass"], 0, 3, "auction call 5 \\(pass\\): the auction is already over"),
])
def test_bad_auctions_name_the_call(auction, seat, dealer, message):
    """The auction is replayed call by call (solver.bidding.replay_auction): the first
    illegal token is named, and the seat must be the one to call next."""
    with pytest.raises(AtoutError, match=message):
        evaluate(ctx("JS 9S AS TD KC 7H 8C QD", seat=seat, dealer=dealer,
                     auction=auction), samples=1)


@pytest.mark.parametrize("hand,seat,dealer,auction,options", [
    # partner's 80 C stands below our lowest candidate (90): a pass plays it, and the
    # points of our side must be exact there, not the stand-in of a failing 90 C
    ("7H 8S 9S QD 8D 9C KC 7C", 1, 1, ["pass", "bid:80:C", "pass"], {}),
    ("8H KS 9S 7D 8D QC TC 7C", 0, 1, ["bid:90:S", "pass"], {}),
    # an opponent's contract: coinche, then surcoinche over our coinched one
    ("JS 9S AS TD KC 7H 8C QD", 1, 3, ["bid:100:H"], {}),
    ("JH 9H AH TH KS AC 8D 7D", 2, 2, ["pass", "bid:90:H", "coinche"], {}),
    # only capots and générales are left to bid: one class below the capot
    ("JH 9H AS TS AC TC AD TD", 1, 3, ["bid:160:H"], {}),
    # the scoring options change the classes (COINCHE-MADE-2, COINCHE-SCORE-4/5/7)
    ("JS 9S AS TD KC 7H 8C QD", 1, 3, ["bid:100:H"],
     {"double_mode": "all", "bonuses_count_for_contract": False}),
    ("JH 9H AH TH KS AC 8D 7D", 2, 2, ["pass", "bid:90:H", "coinche"],
     {"capot_scoring": "fixed", "round_scores": "nearest_10"}),
])
def test_outcomes_searched_by_score_class_equal_the_exact_ones(hand, seat, dealer, auction,
                                                               options):
    # COINCHE-MADE-1..3, COINCHE-SCORE-1..6: every candidate of every world (bids, a
    # pass that lets the auction finish, coinche, surcoinche) scores the same as with
    # the exact DD points (no failing-strain probes, no score classes)
    from solver.bidding import make_evaluator
    c = ctx(hand, seat=seat, dealer=dealer, auction=auction, options=options)
    fast = make_evaluator(c)
    exact = make_evaluator(c)
    exact.probe_first = False
    exact._classes = lambda *args: None
    e_fast = evaluate(c, samples=8, seed=3, evaluator=fast)
    e_exact = evaluate(c, samples=8, seed=3, evaluator=exact)
    assert [r.to_json(True) for r in e_fast.rows] == [r.to_json(True) for r in e_exact.rows]
    assert e_fast.recommended == e_exact.recommended
    names = {r.option for r in e_fast.rows}
    assert "pass" in names and len(names) >= 2


def test_pass_after_three_passes_annuls_the_deal():
    # seat 1 (dealer) speaks fourth after three passes: its pass ends the auction with no
    # contract, the deal is annulled and scores 0 in every world (COINCHE-BID-4)
    e = evaluate(ctx("7S 8S 7H 8H 7D 8D 7C 9C", seat=1, dealer=1,
                     auction=["pass", "pass", "pass"]), samples=8, seed=4)
    row = {r.option: r for r in e.rows}["pass"]
    assert row.scores == [0.0] * 8 and row.p_make is None


def test_pass_lets_the_others_bid_and_play():
    # the first to speak passes with a worthless hand: in the worlds the heuristic
    # bidders finish the auction, so some worlds have a contract (a nonzero score,
    # mostly the opponents' made contracts: negative for us) instead of a flat 0
    e = evaluate(ctx("7S 8S 7H 8H 7D 8D 7C 9C", seat=0, dealer=3), samples=12, seed=5)
    row = {r.option: r for r in e.rows}["pass"]
    played = [s for s in row.scores if s != 0]
    assert len(played) >= 6 and sum(played) < 0
    assert any("heuristic bidder finish the auction" in n for n in e.notes)


def test_a_time_budget_keeps_the_worlds_scored_in_time():
    e = evaluate(ctx("JS 9S AS TD KC 7H 8C QD", seat=0, dealer=3), samples=500, seed=1,
                 seconds=1e-9)
    assert e.samples == 1 and all(r.n == 1 for r in e.rows)
    assert "time budget: 1 of 500 worlds scored" in e.notes
    full = evaluate(ctx("JS 9S AS TD KC 7H 8C QD", seat=0, dealer=3), samples=3, seed=1)
    assert full.samples == 3 and not any("time budget" in n for n in full.notes)
    with pytest.raises(AtoutError, match="seconds must be positive"):
        evaluate(ctx("JS 9S AS TD KC 7H 8C QD"), samples=3, seconds=0)


def test_pimc_passes_its_time_budget_to_simulated_bids(monkeypatch):
    import solver.bidding as bidding
    from solver.games import get_game
    from solver.pimc import PimcAgent

    seen = []
    real = bidding.evaluate

    def spy(*args, **kw):
        seen.append(kw.get("seconds"))
        return real(*args, **kw)

    monkeypatch.setattr(bidding, "evaluate", spy)
    st = get_game("coinche").new_state(dealer=3, seed=2)
    agent = PimcAgent(seed=0, worlds=4, bidding="sim", bid_samples=40, seconds=0.25)
    move = agent.choose(st, st.to_act)
    assert move in st.legal_moves() and seen == [0.25]


def test_simulated_coinche_needs_the_floor(monkeypatch):
    """decide: a coinche is played only when the opponents' contract fails in at least
    90% of the worlds, even when its mean is the best (benchmarks/RESULTS.md)."""
    from types import SimpleNamespace

    import solver.bidding as bidding
    from solver.bidding import Row
    from solver.bidding.coinche import decide
    from solver.games import coinche

    st = coinche.new_state(dealer=3, seed=4)
    st.play(st.parse_move("bid:80:H"))            # seat 0 bids; seat 1 may coinche
    for p_fail, want in ((0.6, "pass"), (0.95, "coinche")):
        rows = [Row("coinche", 10, p_fail, 80.0, 1.0, {}), Row("pass", 10, None, 0.0, 0.0, {})]
        monkeypatch.setattr(bidding, "evaluate",
                            lambda ctx, rows=rows, **kw: SimpleNamespace(rows=rows))
        assert st.move_token(decide(st, st.to_act, samples=4, seed=1)) == want


def test_the_simulated_bidder_reads_the_opponents_calls_not_its_partners(monkeypatch):
    """``read_partner=False`` (what ``decide`` builds): worlds follow the opponents' calls
    (COINCHE-BID-2..5) but deal the partner's unseen cards at random, as that partner
    is a simulated bidder, not the heuristic bidder the worlds model."""
    import random
    from types import SimpleNamespace

    import solver.bidding as bidding
    from solver.bidding import make_evaluator
    from solver.bidding.coinche import CoincheEvaluator, decide
    from solver.games import coinche as co
    from solver.heuristics.belote import strain_strength

    auction = ["bid:90:H", "bid:100:S"]          # seat 0 (our partner), seat 1 (opponent)
    read = make_evaluator(ctx("JS 9S AS TS AD 7C 8C 7H", seat=2, dealer=3, auction=auction))
    unread = CoincheEvaluator(ctx("JS 9S AS TS AD 7C 8C 7H", seat=2, dealer=3,
                                  auction=auction), read_partner=False)
    assert sorted(read._calls) == [0, 1] and sorted(unread._calls) == [1]
    rng = random.Random(3)
    worlds = [unread.sample(rng) for _ in range(20)]      # (a read sample costs 0.1 s)
    partner_hearts = sum(strain_strength(w[0], 1) for w in worlds) / 20
    read_hearts = sum(strain_strength(read.sample(rng)[0], 1) for _ in range(20)) / 20
    assert partner_hearts + 5 < read_hearts
    assert all(strain_strength(w[1], 0) >= 20 for w in worlds)  # the 100 S still counts
    with pytest.raises(AtoutError, match="takes no input read_partner$"):
        make_evaluator(ctx("JS 9S AS TS AD 7C 8C 7H", extra={"read_partner": False}))

    seen = []
    monkeypatch.setattr(bidding, "evaluate", lambda c, **kw: seen.append(kw["evaluator"])
                        or SimpleNamespace(rows=[bidding.Row("pass", 1, None, 0.0, 0.0, {})]))
    st = co.new_state(dealer=3, seed=4)
    st.play(st.parse_move("bid:80:H"))             # seat 0 bids; seat 2 is its partner
    st.play(st.parse_move("pass"))
    decide(st, st.to_act, samples=4, seed=1)
    assert st.to_act == 2 and 0 not in seen[0]._calls and 1 in seen[0]._calls
