"""Tarot bid analysis (issue: bid analysis, French Tarot part) and `atout evaluate tarot`."""

import json
import random

import pytest
from click.testing import CliRunner

from solver import AtoutError
from solver.bidding import Context, evaluate
from solver.bidding import tarot as bt
from solver.cards import TAROT_DECK as D
from solver.cli import cli
from solver.games import tarot as T

MONSTER = "T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T11 T10 T9 T8 T7 T6 T5 EX"
HOPELESS = "1S 2S 3S 4S 5S 6S 7S 8S 9S 10S 1H 2H 3H 4H 5H 6H 7H 8H"


def ctx(hand, **kw):
    kw.setdefault("seat", 0)
    kw.setdefault("dealer", 3)
    return Context("tarot", D.parse_cards(hand), **kw)


def rows(e):
    return {r.option: r for r in e.rows}


def test_hopeless_hand_passes_and_never_makes():
    # TAROT-COUNT-2: no bout needs 56 points; 18 low cards win no trick and the écart
    # (TAROT-DOG-1) or the dog (TAROT-DOG-3) cannot bring 56 points
    e = evaluate(ctx(HOPELESS), samples=3, seed=1)
    r = rows(e)
    assert e.recommended == "pass"
    for c in T.CONTRACTS:  # TAROT-BID-2: every contract is a candidate
        assert r[c].p_make == 0.0 and r[c].mean < 0
    # a bigger multiplier loses more (TAROT-BID-2, TAROT-SCORE-1)
    assert r["prise"].mean > r["garde"].mean > r["garde_sans"].mean > r["garde_contre"].mean
    assert r["pass"].mean == 0 and r["pass"].p_make is None


def test_seventeen_top_trumps_and_excuse_announce_chelem_and_triple_poignee():
    # The taker holds T5..T21 and EX: every trick is his whoever leads (TAROT-PLAY-4.2),
    # so the announced chelem is made (TAROT-ANN-1/2/3, +400 in TAROT-SCORE-5), the
    # triple poignée (15 trumps, TAROT-ANN-4) is won (TAROT-ANN-6), and garde contre has
    # the largest multiplier: "garde_contre chelem poignee:triple" is certain.
    e = evaluate(ctx(MONSTER), samples=3, seed=2)
    r = rows(e)
    assert e.recommended == "garde_contre chelem poignee:triple"
    for name, row in r.items():
        if name != "pass":
            assert row.p_make == 1.0, name
    # TAROT-SCORE-6: the 4p taker scores 3T
    assert all(s % 3 == 0 for s in r["garde_contre chelem"].scores)
    # TAROT-SCORE-4 / TAROT-ANN-6: each poignée level adds its bonus to T (x3 for the seat)
    b = T.resolve_options({})["poignee_bonuses"]
    for lv, bonus in zip(T.POIGNEE_LEVELS, b, strict=True):
        for s0, s1 in zip(r["garde"].scores, r[f"garde poignee:{lv}"].scores, strict=True):
            assert s1 - s0 == 3 * bonus
    # garde sans: the dog counts for the attack (TAROT-DOG-3): all 91 points, chelem
    t = T.deal_value("garde_sans", 91, 3, chelem_announced=True, attack_all_tricks=True)
    assert set(r["garde_sans chelem"].scores) == {3 * t}


def test_poignee_bonus_goes_to_the_winner_of_the_deal():
    # TAROT-SCORE-4 / TAROT-ANN-6: announcing a simple poignée (10 trumps, TAROT-ANN-4)
    # adds the bonus when the contract is made and gives it away when it fails: the
    # row differs from the plain one by exactly 3 x 20 (4p taker, TAROT-SCORE-6) with
    # the sign of the deal
    hand = "T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 1S 2S 3S 4S 5S 6S 7S 8S"
    e = evaluate(ctx(hand), samples=3, seed=3)
    r = rows(e)
    assert "garde poignee:double" not in r
    for plain, ann in zip(r["garde"].scores, r["garde poignee:simple"].scores, strict=True):
        assert ann - plain == (60 if plain > 0 else -60)


def test_call_candidates_five_players():
    # TAROT-CALL-2: a taker with every King calls a Queen; TAROT-CALL-1 the call is
    # part of the bid decision
    hand = "KS KH KD KC T21 T20 T19 T1 EX 2S 3S 4H 5H 6D 7C"
    e = evaluate(ctx(hand, dealer=4, options={"players": 5}), samples=2, seed=4)
    names = set(rows(e))
    assert {"garde QS", "garde QH", "garde QD", "garde QC"} <= names
    assert not any(" K" in n for n in names)
    # a called card held by the taker himself: he plays alone (TAROT-CALL-3, 4T)
    hand2 = "QS KS KH KD T21 T20 T19 T1 EX 2S 3S 4H 5H 6D 7C"
    e2 = evaluate(ctx(hand2, dealer=4, options={"players": 5}), samples=2, seed=4)
    assert all(s % 4 == 0 for s in rows(e2)["garde KS"].scores)


def test_five_player_alone_option_has_no_call():
    # TAROT-CALL-2 with five_player_lowest_call=alone: K, Q and N held: no call
    hand = "KS KH KD KC QS QH QD QC NS NH ND NC T21 T1 EX"
    ev = bt.make_evaluator(ctx(hand, dealer=4, options={"players": 5,
                                                        "five_player_lowest_call": "alone"}))
    assert "garde" in ev.candidates() and "garde JS" not in ev.candidates()
    ev2 = bt.make_evaluator(ctx(hand, dealer=4, options={"players": 5}))
    assert "garde JS" in ev2.candidates()


def test_auction_limits_candidates_and_pass_is_scored():
    # TAROT-BID-1: strictly higher than the standing bid; our pass leaves seat 0's
    # garde standing and is scored as a defender (-T, TAROT-SCORE-6)
    e = evaluate(ctx(HOPELESS, seat=1, dealer=3, auction=["garde"]), samples=3, seed=5)
    names = [r.option for r in e.rows]
    assert "prise" not in names and "garde" not in names and "garde_sans" in names
    r = rows(e)
    assert r["pass"].p_make is not None and any(s != 0 for s in r["pass"].scores)
    assert e.recommended == "pass"


def test_allow_prise_false_removes_prise():
    e = bt.make_evaluator(ctx(HOPELESS, options={"allow_prise": False}))  # TAROT-BID-2
    assert "prise" not in e.candidates() and "garde" in e.candidates()


@pytest.mark.parametrize("hand,kw,message", [
    (HOPELESS.rsplit(" ", 1)[0], {}, "18 different cards"),
    (D.parse_cards(HOPELESS)[:17] + [D.card("1S")], {}, "listed twice"),
    (HOPELESS, {"seat": 1, "dealer": 3}, "not seat 1's call"),
    (HOPELESS, {"seat": 2, "auction": ["garde", "prise"]}, "auction call 2"),
    (HOPELESS, {"seat": 7}, "seat and dealer"),
    ("T1 " + HOPELESS.rsplit(" ", 1)[0], {}, "petit sec"),  # TAROT-DEAL-3
])
def test_bad_inputs_raise(hand, kw, message):
    with pytest.raises(AtoutError, match=message):
        if isinstance(hand, list):
            bt.make_evaluator(Context("tarot", hand, 0, 3))
        else:
            bt.make_evaluator(ctx(hand, **kw))


def test_out_of_deck_card_raises():
    with pytest.raises(AtoutError, match="not a tarot card"):
        bt.make_evaluator(Context("tarot", list(range(17)) + [99], 0, 3))


def test_ecart_candidates_are_legal():
    # TAROT-DOG-2: no King, bout or EX; trumps only when the low cards do not suffice;
    # replaying every candidate on a real state checks it move by move
    rng = random.Random(6)
    for players in (3, 4, 5):
        for _ in range(15):
            deal = T.deal_cards(players, rng.randrange(10**6))
            st = T.new_state({"players": players, "petit_sec_redeal": False}, dealer=0,
                             deal=deal)
            st.play("prise")
            while st.phase == "bid":
                st.play("pass")
            if st.phase == "call":
                st.play(st.legal_moves()[0])
            enlarged = st.hands[st.taker]
            cands = bt.ecart_candidates(enlarged, T.DOG_SIZE[players], limit=6)
            assert cands and cands[0] == bt.heuristic_ecart(enlarged, T.DOG_SIZE[players])
            for e in cands:
                s2 = st.copy()
                for c in D.cards(e):
                    assert T.Move("discard", c) in s2.legal_moves()
                    s2.play(T.Move("discard", c))
                assert s2.phase == "chelem" and s2.ecart == e


def test_dd_line_counts_score_like_the_rules():
    # TAROT-SCORE-1: T recomputed from the counts of the optimal line equals the core's
    # T; TAROT-COUNT-1..4 / TAROT-SCORE-6: a heuristic play-out scored from the counts
    # equals the state's own scores
    ev = bt.make_evaluator(ctx(MONSTER.replace("T5", "KS").replace("T6", "QH")))
    rng = random.Random(7)
    for contract in ("garde", "garde_sans", "garde_contre"):
        w = ev.sample(rng)
        hs, aside = list(w["hands"]), w["dog"]
        if contract == "garde":  # the dog taken in and an écart made (TAROT-DOG-1)
            enlarged = hs[0] | w["dog"]
            aside = bt.heuristic_ecart(enlarged, 6)
            hs[0] = enlarged & ~aside
        st = T.TarotState.for_play(hs, taker=0, contract=contract, aside=aside, dealer=3)
        play = st.copy()
        bt._heuristic_play(play, 5, random.Random(0))
        k = bt._dd_line(play, 2_000_000, 16)
        assert k is not None and k["T"] == bt.value_of(k, contract, ev.opts)
        full = st.copy()
        bt._heuristic_play(full, -1, random.Random(0))
        kc = bt._counts_of_state(full)
        t = bt.value_of(kc, contract, ev.opts)
        assert T.distribute(t, 4, 0) == full.scores()


def test_same_seed_same_evaluation():
    a = evaluate(ctx(HOPELESS, seat=2, dealer=1), samples=2, seed=9)
    b = evaluate(ctx(HOPELESS, seat=2, dealer=1), samples=2, seed=9)
    assert a.to_json(True) | {"seconds": 0} == b.to_json(True) | {"seconds": 0}


def test_three_players_scale():
    # TAROT-SCORE-6: the 3p taker scores 2T; TAROT-DEAL-1 24 cards
    hand = MONSTER + " KS QS NS JS 1H 2H"
    e = evaluate(ctx(hand, dealer=2, options={"players": 3}), samples=2, seed=3)
    assert all(s % 2 == 0 for s in rows(e)["garde"].scores)
    assert rows(e)["garde"].p_make == 1.0


def test_cli_evaluate_tarot_json_and_errors():
    r = CliRunner().invoke(cli, ["evaluate", "tarot", "--hand", MONSTER, "--samples", "2",
                                 "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output[r.output.index("{"):])
    assert data["recommended"] == "garde_contre chelem poignee:triple"
    assert any("3T" in n for n in data["notes"])
    r = CliRunner().invoke(cli, ["evaluate", "tarot", "--hand", "T21 T20 KS XX"])
    assert r.exit_code != 0
    r = CliRunner().invoke(cli, ["evaluate", "tarot", "--hand", "T21 T20 KS"])
    assert r.exit_code != 0 and "18 different cards" in str(r.exception)


def test_decide_bids_and_discards_legally():
    # the PIMC agent's non-card decisions: a legal bid (TAROT-BID-1) and a legal écart
    # (TAROT-DOG-2) chosen by the analysis
    st = T.new_state({"players": 4}, dealer=3, seed=12)
    mv = bt.decide(st, st.to_act, 2, 0)
    assert mv in st.legal_moves() and mv.kind == "bid"
    st.play("garde")
    for _ in range(3):
        st.play("pass")
    assert st.phase == "ecart"
    for _ in range(6):
        mv = bt.decide(st, st.taker, 2, 0)
        assert mv in st.legal_moves() and mv.kind == "discard"
        st.play(mv)
    assert st.phase == "chelem"


def _deal_with(hand0: str, players: int = 4, seed: int = 0, hand1: str = "") -> T.Deal:
    fixed = [D.parse_cards(hand0)] + ([D.parse_cards(hand1)] if hand1 else [])
    rest = [c for c in range(78) if not any(c in h for h in fixed)]
    random.Random(seed).shuffle(rest)
    size = T.HAND_SIZE[players]
    k = players - len(fixed)
    hands = fixed + [rest[i * size:(i + 1) * size] for i in range(k)]
    return T.Deal(hands, {"dog": rest[k * size:]})


def test_decide_chelem_and_poignee_with_a_certain_hand():
    # TAROT-ANN-1: the taker holding T5..T21 and EX announces the chelem (it is made in
    # every world, +400 against +200 unannounced, TAROT-SCORE-5); TAROT-ANN-2 he then
    # leads, and at his first card announces the triple poignée (TAROT-ANN-4/5), won by
    # his side (TAROT-ANN-6)
    st = T.new_state({"players": 4, "petit_sec_redeal": False}, dealer=3,
                     deal=_deal_with(MONSTER, seed=4))
    st.play("garde_contre")
    for _ in range(3):
        st.play("pass")
    assert st.phase == "chelem"
    mv = bt.decide(st, 0, 2, 1)
    assert mv == T.Move("chelem", True)
    st.play(mv)
    assert st.to_act == 0
    mv = bt.decide(st, 0, 2, 1)
    assert mv == T.Move("poignee", "triple")


def test_decide_weak_hand_does_not_announce_chelem():
    st = T.new_state({"players": 4, "petit_sec_redeal": False}, dealer=3,
                     deal=_deal_with(HOPELESS, seed=5))
    st.play("garde_sans")
    for _ in range(3):
        st.play("pass")
    assert bt.decide(st, 0, 2, 1) == T.Move("chelem", False)


@pytest.mark.parametrize("players", [4, 5])
def test_pimc_agent_with_simulation_bidding_plays_complete_deals(players):
    # the Full AI: bids (TAROT-BID-1), call (TAROT-CALL-1), écart (TAROT-DOG-2),
    # chelem and poignée come from decide(); every move goes through state.play
    from solver.pimc import PimcAgent

    st = T.new_state({"players": players}, dealer=0, seed=21)
    agents = [PimcAgent(seed=s, worlds=1, node_budget=2000, bidding="sim", bid_samples=1)
              for s in range(players)]
    while not st.is_over():
        s = st.to_act
        st.play(agents[s].choose(st, s))
    assert sum(st.scores()) == 0  # TAROT-SCORE-7
    assert st.contract is not None


def test_pimc_ecart_by_simulation_alone():
    # pimc discard=sim: the taker's écart (TAROT-DOG-2) is decide()'s, seeded by the deal;
    # the bid stays the heuristic's (TAROT-BID-1) and the agent's random stream is not
    # drawn from, so the card play after the écart samples what it would have sampled
    from solver.errors import OptionError
    from solver.heuristic import HeuristicAgent
    from solver.pimc import PimcAgent

    st = T.new_state({"players": 4}, dealer=3, seed=12)
    agent = PimcAgent(worlds=1, discard="sim", bid_samples=2)
    agent.reset(7)
    helper = HeuristicAgent(0)
    helper.reset(7)
    assert agent.choose(st, st.to_act) == helper.choose(st, st.to_act)
    st.play("garde")
    for _ in range(3):
        st.play("pass")
    assert st.phase == "ecart"
    chosen = []
    stream = agent.rng.getstate()
    bt._ECARTS.clear()
    for _ in range(6):
        want = bt.decide(st, st.taker, 2, 7)
        mv = agent.choose(st, st.taker)
        assert mv == want and mv.kind == "discard" and mv in st.legal_moves()
        chosen.append(mv.value)
        st.play(mv)
    assert agent.rng.getstate() == stream
    assert len(bt._ECARTS) == 1     # the six discards are one decision (one seed)
    assert st.phase == "chelem" and st.ecart == sum(1 << c for c in chosen)
    with pytest.raises(OptionError, match="discard must be heuristic or sim"):
        PimcAgent(discard="dog")


@pytest.mark.parametrize("params", [{"ending": -1}, {"node_budget": 0}, {"ecarts": "x"}])
def test_evaluator_parameters_are_checked(params):
    from solver.errors import OptionError

    with pytest.raises(OptionError, match="tarot evaluation"):
        bt.make_evaluator(ctx(HOPELESS), **params)


def test_evaluator_parameters_from_context_extra():
    ev = bt.make_evaluator(ctx(HOPELESS, extra={"ending": 3, "node_budget": 1000}))
    assert ev.ending == 3 and ev.node_budget == 1000


def _example_lines():
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "examples" / "evaluate_tarot.txt"
    return [ln for ln in path.read_text(encoding="utf-8").splitlines()
            if ln.strip() and not ln.startswith("#")]


@pytest.mark.parametrize("line", _example_lines())
def test_cli_evaluates_every_example_hand(line):
    import shlex

    r = CliRunner().invoke(cli, [*shlex.split(line), "--samples", "1", "--json"])
    assert r.exit_code == 0, (line, r.output, r.exception)
    data = json.loads(r.output[r.output.index("{"):])
    assert data["recommended"] in {o["option"] for o in data["options"]}


def test_cli_evaluator_parameters():
    r = CliRunner().invoke(cli, ["evaluate", "tarot", "--hand", MONSTER, "--samples", "1",
                                 "--param", "ending=4", "--param", "node_budget=100000",
                                 "--json"])
    assert r.exit_code == 0, r.output
    assert any("from 4 cards per hand" in n for n in json.loads(
        r.output[r.output.index("{"):])["notes"])
    for bad in (["--param", "nodes=5"], ["--turned", "KS"]):
        r = CliRunner().invoke(cli, ["evaluate", "tarot", "--hand", MONSTER, *bad])
        assert r.exit_code != 0 and "takes no input" in str(r.exception)


def test_decide_announces_misere_and_shows_lowest_trumps():
    # TAROT-ANN-5: the poignée shows exactly the threshold number of trumps, here the
    # lowest ones; TAROT-ANN-9: a misère always earns v from each other player
    heads_free = "T1 T2 1S 2S 3S 4S 5S 6S 7S 8S 9S 10S 1H 2H 3H 4H 5H 6H"
    st = T.new_state({"players": 4, "misere": "on", "petit_sec_redeal": False}, dealer=3,
                     deal=_deal_with(MONSTER, seed=4, hand1=heads_free))
    st.play("garde_contre")
    for _ in range(3):
        st.play("pass")
    st.play("no_chelem")
    assert st.to_act == 0  # the eldest (dealer 3) is the taker
    st.play("poignee:simple")
    while st.phase == "show":
        mv = bt.decide(st, 0, 1, 0)
        assert mv in st.legal_moves() and mv.kind == "show"
        st.play(mv)
    assert D.cards(st.poignees[0][2]) == D.parse_cards("T5 T6 T7 T8 T9 T10 T11 T12 T13 T14")
    st.play("T21")
    assert st.to_act == 1
    assert bt.decide(st, 1, 1, 0) == T.Move("misere", "head")


def test_ecart_chosen_on_the_dog_alone_is_never_better_than_the_clairvoyant_one():
    # TAROT-DOG-1/2: with ecart_worlds=m the écart is fixed from the taker's enlarged
    # hand only; the clairvoyant per-world best of the same candidates is an upper
    # bound in every world (same worlds, same play)
    hand = "T21 T19 T16 T12 T10 T7 T5 T1 EX KS QS 4S KH 10H 3D 2D 9C 4C"
    a = evaluate(ctx(hand), samples=3, seed=8, evaluator=bt.make_evaluator(ctx(hand)))
    ev = bt.make_evaluator(ctx(hand, extra={"ecart_worlds": 2}))
    b = evaluate(ctx(hand), samples=3, seed=8, evaluator=ev)
    for c in ("prise", "garde"):
        for x, y in zip(rows(a)[c].scores, rows(b)[c].scores, strict=True):
            assert x >= y
    assert any("resampled" in n for n in b.notes)
    # garde sans / garde contre do not depend on the écart
    assert rows(a)["garde_sans"].scores == rows(b)["garde_sans"].scores


def test_worlds_give_the_bidders_hands_that_make_their_bids():
    # TAROT-BID-1..3: a garde before us says the hand is strong; every sampled world
    # deals that seat a hand with which the heuristic bidder bids garde too
    from solver.heuristics import tarot as H

    c = ctx("T21 T17 T12 T9 T3 EX KS QS 4S KH 7H 2H 1D 9D 10C 8C 5C 1C", seat=1, dealer=3,
            auction=["garde"])
    ev = bt.make_evaluator(c)
    rng = random.Random(2)
    strong = []
    for _ in range(30):
        w = ev.sample(rng)
        assert sum(h.bit_count() for h in w["hands"]) + w["dog"].bit_count() == 78
        obs = {"hand": w["hands"][0], "players": 4}
        assert H.choose_bid(obs, [T.Move("bid", b) for b in ("pass", *T.CONTRACTS)]) \
            .value == "garde"
        strong.append(H.hand_strength(w["hands"][0]))
    assert ev.misfits == 0 and min(strong) >= 56
    assert any("others' calls" in n for n in ev.notes)
