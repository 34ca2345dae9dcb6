"""Tarocchini bid analysis (issue: bid analysis, Tarocchini part), its `atout evaluate`
use and the PIMC agent's simulated decisions. Few worlds: each test runs in seconds."""

import json
import random
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver import AtoutError
from solver.bidding import Context, evaluate
from solver.bidding import tarocchini as bt
from solver.cards import TAROCCHINI_DECK as D
from solver.cli import cli
from solver.games import tarocchini as T
from solver.games.base import Move
from solver.games.tarocchini_melds import best_combinations
from solver.heuristic import HeuristicAgent
from solver.heuristics import tarocchini as H
from solver.notation import Deal
from solver.pimc import PimcAgent

TERZ = {"game": "terziglio"}
DEFAULTS = {k: o.default for k, o in T.OPTIONS.items()}
STRONG = "ANG MON SOL LUN T16 T15 T14 T13 T12 T11 T10 T9 T8 T7 T6 T5 BAG MAT"
WEAK = "10S 9S 8S 7S 6S AS 10B 9B 8B 7B 6B AB 10C 9C 8C 10D 9D 8D"
OTTO_HAND = "ANG MON T11 T6 BAG NS 8S NB AB KC NC 10C ND 7D 6D"
EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "evaluate_tarocchini.txt"


def ctx(hand, **kw):
    return Context("tarocchini", D.parse_cards(hand), **kw)


def rows(e):
    return {r.option: r for r in e.rows}


def deal_with(hand: str, seat: int, n: int, stock: int) -> Deal:
    """A deal giving ``hand`` to ``seat``, the other cards in deck order."""
    mine = D.parse_cards(hand)
    rest = [c for c in range(62) if c not in mine]
    each = len(mine)
    hands, k = [], 0
    for s in range(n):
        if s == seat:
            hands.append(mine)
        else:
            hands.append(rest[k:k + each])
            k += each
    return Deal(hands, {"stock" if n == 3 else "talon": rest[k:k + stock]})


# --- Terziglio bid (TERZ-BID-1..3, TERZ-SCORE-2..6) ---------------------------------
def test_all_trumps_and_both_contatori_bid_solo_and_make_it():
    # TERZ-BID-3 / TERZ-SCORE-4: sixteen trumps from the Angel down plus BAG and MAT win
    # every deal; the solo doubles the game points, so it beats the gioco in every world.
    e = evaluate(ctx(STRONG, seat=0, dealer=2, options=TERZ), samples=4, seed=1)
    r = rows(e)
    assert set(r) == {"pass", "gioco", "solo"}
    assert r["solo"].p_make == 1.0 and r["gioco"].p_make == 1.0
    assert e.recommended == "solo"
    for solo, gioco in zip(r["solo"].scores, r["gioco"].scores, strict=True):
        assert solo > gioco > 0


def test_hopeless_hand_passes_and_its_solo_always_loses():
    # TERZ-SCORE-2/5: a declarer without trump, Matto or court card loses every solo;
    # the loss is -2G (TERZ-SCORE-5), G doubled by the solo (TERZ-SCORE-4): a multiple
    # of -4, and -160 when the opponents take every trick (TERZ-SCORE-6, TERZ-EX-5).
    e = evaluate(ctx(WEAK, seat=0, dealer=2, options=TERZ), samples=6, seed=2)
    r = rows(e)
    assert r["solo"].p_make == 0.0
    assert all(s < 0 and s % 4 == 0 for s in r["solo"].scores)
    assert e.recommended == "pass"


def test_bids_offered_follow_the_auction():
    # TERZ-BID-1: each bid must be higher than the current one: after a gioco only solo
    e = evaluate(ctx(WEAK, seat=1, dealer=2, options=TERZ, auction=["gioco"]), samples=2,
                 seed=0)
    assert {r.option for r in e.rows} == {"pass", "solo"}
    # after a gioco the deal is always played: a pass is never thrown in (P(make) is
    # defined on every world); a solo's -2G/+2G is a multiple of 4 (TERZ-SCORE-4/5)
    r = rows(e)
    assert r["pass"].p_make is not None
    assert all(s % 4 == 0 for s in r["solo"].scores)


def test_worlds_explain_the_bids_already_made():
    # TERZ-BID-1: seat 0 bid solo before us; every world gives him a hand on which the
    # heuristic player bids solo too (the bid model), and he holds 18 cards
    ev = bt.make_evaluator(ctx(WEAK, seat=1, dealer=2, options=TERZ, auction=["solo"]))
    rng = random.Random(3)
    legal = [Move("bid", b) for b in T.BIDS]
    for _ in range(5):
        hand0 = ev.sample(rng)["deal"].hands[0]
        assert len(hand0) == 18
        assert H.choose_bid({"hand": D.mask(hand0), "options": DEFAULTS | TERZ},
                            legal).value == "solo"
    assert ev._misfits == 0 and ev.notes[-1].endswith("every world matches them")
    # after two passes the weak hand leaves only trumps and court cards to the others:
    # no draw lets both pass, so every world is drawn anyway and counted in the note
    ev = bt.make_evaluator(ctx(WEAK, seat=2, dealer=2, options=TERZ, auction=["pass"] * 2))
    for _ in range(3):
        ev.sample(rng)
    assert ev._misfits == 3 and "3 world(s) could not match" in ev.notes[-1]


def test_same_seed_same_evaluation():
    a = evaluate(ctx(WEAK, seat=0, dealer=2, options=TERZ), samples=3, seed=7)
    b = evaluate(ctx(WEAK, seat=0, dealer=2, options=TERZ), samples=3, seed=7)
    assert a.to_json(True) | {"seconds": 0} == b.to_json(True) | {"seconds": 0}


# --- discards (TERZ-BID-2, OTTO-DEAL-2/3) ------------------------------------------
def test_gioco_discard_candidates_never_hold_a_five_point_card():
    # TERZ-BID-2: the declarer takes the 8-card stock and discards 8, never a five-point
    # card; every candidate is a legal discard of 8 cards from the 26
    hand = D.parse_cards(STRONG) + D.parse_cards("KS QS NS JS KB 9B KC AD")
    mask = D.mask(hand)
    cands = bt.discard_candidates(mask, 8, DEFAULTS)
    assert cands and len(set(cands)) == len(cands)
    for m in cands:
        assert m.bit_count() == 8 and m & ~mask == 0 and m & T.FIVE_POINT_MASK == 0
    e = evaluate(Context("tarocchini", hand, seat=0, dealer=2, options=TERZ,
                         auction=["gioco", "pass", "pass"]), samples=2, seed=3)
    assert all(r.option.startswith("discard ") for r in e.rows)
    assert len(e.rows) == len(cands)


def test_ottocento_dealer_discards_two_cards():
    # OTTO-DEAL-2: the dealer holds 17 cards (OTTO-DEAL-1) and discards 2; the discard
    # stays in his side's pile (OTTO-DEAL-3), so banking a loose counting card can pay
    hand = OTTO_HAND + " MO3 T5"
    e = evaluate(ctx(hand, seat=3, dealer=3, auction=["play"] * 4), samples=2, seed=4)
    for r in e.rows:
        cards = D.parse_cards(r.option.removeprefix("discard "))
        assert len(cards) == 2 and not any(T.FIVE_POINT_MASK >> c & 1 for c in cards)


def test_discard_needs_discardable_cards():
    # a hand of five-point cards only cannot discard (OTTO-DEAL-2)
    with pytest.raises(AtoutError, match="may be discarded"):
        bt.discard_candidates(D.mask(D.parse_cards("KS KB KC")), 2, DEFAULTS)


def test_discard_decision_midway():
    # TERZ-BID-2: after 3 of his 8 discards the declarer holds 23 cards; the candidates
    # discard the 5 still due and the 3 named ones stay out of every world's hands
    hand = D.parse_cards(STRONG) + D.parse_cards("KS QS NS JS KB 9B KC AD")
    done = D.parse_cards("T5 T6 9B")
    rest = [c for c in hand if c not in done]
    auction = ["gioco", "pass", "pass"] + [f"discard:{D.token(c)}" for c in done]
    ev = bt.make_evaluator(Context("tarocchini", rest, seat=0, dealer=2, options=TERZ,
                                   auction=auction))
    for name in ev.candidates():
        assert len(D.parse_cards(name.removeprefix("discard "))) == 5
    st = ev._replay(ev.sample(random.Random(1)))
    assert st.phase == "discard" and st.to_discard == 5 and st.hands[0] == D.mask(rest)


# --- monte (OTTO-DEAL-4) ------------------------------------------------------------
def test_monte_vote_decides_only_when_the_others_all_said_monte():
    # OTTO-DEAL-4: the deal is thrown in only if all four say monte. After three monte
    # votes the dealer's vote decides: monte scores 0 in every world.
    e = evaluate(ctx("8S 7S 9B 6C 9D", seat=3, dealer=3, auction=["monte"] * 3), samples=3,
                 seed=5)
    r = rows(e)
    assert r["monte"].scores == [0.0] * 3 and r["monte"].p_make is None
    # after a "play" vote, a monte vote changes nothing: same score in every world
    e = evaluate(ctx("8S 7S 9B 6C 9D", seat=3, dealer=3, auction=["play", "monte", "monte"]),
                 samples=3, seed=5)
    r = rows(e)
    assert r["monte"].scores == r["play"].scores


# --- declarations (TAROC-DECL-1..4, TERZ-DECL-1) -----------------------------------
def test_declaring_adds_exactly_the_declared_points_in_dd_mode():
    # TAROC-DECL-4: declared points are scored for the declarer's side. In dd mode
    # (everyone sees everything) declaring changes nothing else, so on every world
    # "declare max" beats "declare nothing" by the unit's points (TAROC-DECL-5), here
    # Tarocchi 18 + Knights 26 + Grande 10 + Cups 10 = 64.
    hand = D.parse_cards(OTTO_HAND)
    pts = best_combinations(D.mask(hand))[0]
    assert pts == 64
    e = evaluate(Context("tarocchini", hand, seat=0, dealer=3,
                         auction=["play"] * 4 + ["discard:?"] * 2), samples=2, seed=6)
    r = rows(e)
    assert e.recommended == "declare max"
    for a, b in zip(r["declare max"].scores, r["declare nothing"].scores, strict=True):
        assert a - b == pts
    assert any(name.startswith("max but ") for name in r)


def test_declaration_choices_none_or_max_option():
    # TAROC-DECL-3: with declarations=none_or_max the only choices are nothing or all
    c = bt.declaration_candidates(D.mask(D.parse_cards(OTTO_HAND)),
                                  DEFAULTS | {"declarations": "none_or_max"})
    assert c == {"declare nothing": [Move("declare_end")], "declare max": [Move("declare_max")]}


def test_declarations_of_others_stay_in_their_hands():
    # TAROC-DECL-1 / TERZ-DECL-1: seat 0 (eldest) declared; his cards are shown, so
    # every world gives them to him and the moves replay on every world
    auction = ["gioco", "pass", "pass"] + ["discard:?"] * 8 + [
        "decl:tarocchi:ANG+MON+BAG", "decl:done"]
    ev = bt.make_evaluator(Context("tarocchini", D.parse_cards(WEAK), seat=1, dealer=2,
                                   options=TERZ, auction=auction))
    rng = random.Random(0)
    for _ in range(3):
        world = ev.sample(rng)
        assert {D.card(t) for t in ("ANG", "MON", "BAG")} <= set(
            world["deal"].hands[0] + world["deal"].extras["stock"])
        st = ev._replay(world)
        assert st.phase == "declare" and st.to_act == 1
        assert st.discard.bit_count() == 8 and not st.discard & T.FIVE_POINT_MASK


def test_another_players_max_declaration_limits_his_cards():
    # TAROC-DECL-3 none_or_max: seat 0's decl:max showed only the Kings KS KB KC (17):
    # he keeps them in every world and holds no card that would have raised his best
    opts = TERZ | {"declarations": "none_or_max"}
    auction = ["gioco", "pass", "pass"] + ["discard:?"] * 8 + [
        "decl:kings:KS+KB+KC", "decl:max"]
    ev = bt.make_evaluator(Context("tarocchini", D.parse_cards(WEAK), seat=1, dealer=2,
                                   options=opts, auction=auction))
    assert ev.scan.max_declared == {0: 17}
    assert set(ev.candidates()) == {"declare nothing"}  # the weak hand has no combination
    rng = random.Random(2)
    for _ in range(3):
        st = ev._replay(ev.sample(rng))
        assert st.decl_points[0] == 17 and st.to_act == 1
    assert ev._misfits == 0
    with pytest.raises(AtoutError, match="before another player's decl:max"):
        bt.make_evaluator(Context("tarocchini", D.parse_cards(WEAK), seat=1, dealer=2,
                                  options=opts, auction=auction[:-2] + ["decl:max"]))
    # ANG MON BAG also make a Grande of 3: a best set cannot be the Tarocchi alone
    with pytest.raises(AtoutError, match="already make 28 points, not 18"):
        bt.make_evaluator(Context("tarocchini", D.parse_cards(WEAK), seat=1, dealer=2,
                                  options=opts, auction=auction[:-2] + [
                                      "decl:tarocchi:ANG+MON+BAG", "decl:max"]))


# --- errors ---------------------------------------------------------------------
@pytest.mark.parametrize("hand,kw,message", [
    (WEAK.rsplit(" ", 1)[0], {"options": TERZ, "dealer": 2}, "has 18 cards, got 17"),
    (OTTO_HAND, {"seat": 1, "dealer": 3, "auction": ["play"] * 2}, "seat 2's decision"),
    (OTTO_HAND, {"dealer": 3, "auction": ["gioco"]}, "auction move 1"),
    (WEAK, {"options": TERZ, "dealer": 2, "auction": ["pass"] * 3}, "thrown in"),
    (OTTO_HAND, {"dealer": 3, "auction": ["play"] * 4 + ["discard:T5"]},
     "unseen: write discard:\\?"),
    # OTTO-SCORE-3: seat 0's 18 points bring team A from 790 to the target: game over
    ("SOL LUN T16 T14 T12 MO1 9S QB JB 8B 7B 6B 8C 6C 10D",
     {"seat": 1, "dealer": 3, "options": {"totals": (790, 0)},
      "auction": ["play"] * 4 + ["discard:?"] * 2 + ["decl:tarocchi:ANG+MON+BAG", "decl:done"]},
     "reached the target"),
])
def test_bad_inputs_raise_one_clear_error(hand, kw, message):
    with pytest.raises(AtoutError, match=message):
        evaluate(ctx(hand, **kw), samples=1)


def test_duplicate_cards_are_rejected():
    with pytest.raises(AtoutError, match="twice"):
        evaluate(Context("tarocchini", [60] * 18, dealer=2, options=TERZ), samples=1)


# --- pimc mode ------------------------------------------------------------------
def test_pimc_mode_plays_out_and_keeps_the_certain_answer():
    # the strong hand again: PIMC agents in the endgame, still a sure solo
    e = evaluate(ctx(STRONG, seat=0, dealer=2, options=TERZ, pimc_worlds=2), samples=1,
                 seed=1, mode="pimc")
    r = rows(e)
    assert r["solo"].p_make == 1.0 and e.recommended == "solo"


# --- the PIMC agent's decisions ----------------------------------------------------
def test_pimc_agent_bids_discards_and_declares_by_simulation():
    # bidding='sim': the bid (TERZ-BID-1), the gioco exchange (TERZ-BID-2) and the
    # declaration (TAROC-DECL-2) come from decide(); every move is legal
    st = T.new_state(TERZ, dealer=2, deal=deal_with(STRONG, 0, 3, 8))
    agent = PimcAgent(seed=0, worlds=2, node_budget=10_000, bidding="sim", bid_samples=2)
    assert bt.decide(st, 0, 2, 0) == Move("bid", "solo")
    mv = agent.choose(st, 0)
    assert mv == Move("bid", "solo")
    st2 = T.new_state(TERZ, dealer=2, deal=deal_with(STRONG, 0, 3, 8))
    for tok in ("gioco", "pass", "pass"):
        st2.play(tok)
    while st2.phase == "discard":
        mv = agent.choose(st2, 0)
        assert mv.kind == "discard" and not T.FIVE_POINT_MASK >> mv.value & 1
        st2.play(mv)
    assert st2.discard.bit_count() == 8
    while st2.phase == "declare" and st2.to_act == 0:
        st2.play(agent.choose(st2, 0))
    assert st2.decl_points[0] == best_combinations(st2.hands[0])[0]
    # decide() leaves card play to the agent
    assert bt.decide(T.TarocchiniState.from_play(st2.hands, 0, TERZ, declarer=0,
                                                 contract="gioco", discard=st2.discard),
                     0, 1) is None


def test_pimc_agent_takes_every_ottocento_decision_before_the_play():
    # OTTO-DEAL-4 votes, OTTO-DEAL-2 dealer's discard, TAROC-DECL declarations: the
    # sim agent takes them all with a 1-world budget and the deal reaches the play
    st = T.new_state({}, dealer=3, seed=11)
    agents = [PimcAgent(seed=s, worlds=2, node_budget=10_000, bidding="sim", bid_samples=1)
              for s in range(4)]
    while st.phase not in ("play", "over"):
        seat = st.to_act
        st.play(agents[seat].choose(st, seat))
    assert st.phase == "play"
    assert st.discard.bit_count() == 2 and not st.discard & T.FIVE_POINT_MASK
    for seat in range(4):  # dd-mode decisions: declaring all never costs (TAROC-DECL-4)
        assert st.decl_points[seat] == best_combinations(st.hands[seat])[0]


def test_pimc_agent_discards_alone_by_simulation():
    # discard='sim': the Ottocento dealer's discard (OTTO-DEAL-2) is decide()'s, seeded
    # by the deal; the monte votes (OTTO-DEAL-4) stay the heuristic's, and the agents'
    # random streams are not drawn from
    st = T.new_state({}, dealer=3, seed=11)
    agents = [PimcAgent(worlds=2, node_budget=10_000, discard="sim", bid_samples=1)
              for _ in range(4)]
    helpers = [HeuristicAgent(0) for _ in range(4)]
    for s, (a, h) in enumerate(zip(agents, helpers, strict=True)):
        a.reset(100 + s)
        h.reset(100 + s)
    streams = [a.rng.getstate() for a in agents]
    while st.phase not in ("play", "over"):
        seat = st.to_act
        if st.phase == "discard":
            want = bt.decide(st, seat, 1, 100 + seat)
        else:
            want = helpers[seat].choose(st, seat)
        mv = agents[seat].choose(st, seat)
        assert mv == want and mv in st.legal_moves()
        st.play(mv)
    assert st.discard.bit_count() == 2 and not st.discard & T.FIVE_POINT_MASK
    assert [a.rng.getstate() for a in agents] == streams


def test_decide_calls_out_when_the_dealer_can():
    # OTTO-SCORE-3: the dealer whose first 15 cards reach the target calls out (wins)
    st = T.new_state({"totals": (0, 790), "monte": "off"}, dealer=3, seed=0)
    assert best_combinations(D.mask(st.deal.hands[3]))[0] >= 10 and st.phase == "callout"
    assert bt.decide(st, 3, 1, 0) == Move("callout", True)
    assert bt.decide(st, 0, 1, 0) is None  # not seat 0's decision


@pytest.mark.parametrize("opts,seed", [
    (TERZ | {"terziglio_deal": "19+5", "contatore_multi_use": False}, 1),
    (TERZ | {"declarations": "none_or_max"}, 2),
    ({"monte": "after_5_and_10", "max_contatori_per_suit_sequence": 1}, 3),
])
def test_sim_decisions_replay_on_real_histories(opts, seed):
    # every decision before the play, under other options (TERZ-DEAL-1 19+5,
    # TAROC-MELD-12 single use, TAROC-DECL-3 none_or_max, OTTO-DEAL-4 second vote):
    # the seat's view (hidden discards as discard:?) is scanned, sampled and replayed
    st = T.new_state(opts, dealer=seed % (3 if opts.get("game") else 4), seed=seed)
    agents = [PimcAgent(seed=s, worlds=2, node_budget=10_000, bidding="sim", bid_samples=1)
              for s in range(st.n)]
    decided = evaluated = 0
    while st.phase not in ("play", "over"):
        seat = st.to_act
        legal = st.legal_moves()
        mv = bt.decide(st, seat, 1, seed) if len(legal) > 1 else None
        decided += mv is not None
        if st.phase == "declare" and not evaluated:  # decide() declares without sampling
            obs = st.observation(seat)
            e = evaluate(Context("tarocchini", D.cards(obs["hand"]), seat, st.dealer,
                                 dict(st.options), bt._auction_of(st, seat)), samples=1)
            evaluated = len(e.rows)
        st.play(mv if mv is not None else agents[seat].choose(st, seat))
    assert decided >= st.n and (evaluated or st.phase == "over")


# --- the CLI and the sample hands -----------------------------------------------
def test_cli_evaluate_json_and_one_line_errors():
    r = CliRunner().invoke(cli, ["evaluate", "tarocchini", "--variant", "terziglio",
                                 "--hand", STRONG, "--seat", "0", "--dealer", "2",
                                 "--samples", "2", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output[r.output.index("{"):])
    assert data["recommended"] == "solo"
    for bad, msg in (("ANG ANG", "duplicate"), ("ANG KH", "not a tarocchini card"),
                     ("ANG MON", "got 2")):
        r = CliRunner().invoke(cli, ["evaluate", "tarocchini", "--variant", "terziglio",
                                     "--hand", bad])
        assert r.exit_code != 0 and msg in r.output + str(r.exception)


def test_sample_hands_in_examples_evaluate():
    lines = [ln for ln in EXAMPLES.read_text(encoding="utf-8").splitlines()
             if ln.strip() and not ln.startswith("#")]
    assert len(lines) >= 5
    for line in lines:
        args = shlex.split(line)
        assert args[:2] == ["evaluate", "tarocchini"]
        r = CliRunner().invoke(cli, [*args, "--samples", "1", "--json"])
        assert r.exit_code == 0, (line, r.output)
        data = json.loads(r.output[r.output.index("{"):])
        assert data["recommended"] in {o["option"] for o in data["options"]}
