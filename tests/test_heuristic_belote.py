"""The Belote/Coinche heuristic player: legal at every decision, clearly better than
random, and the classic decisions in targeted positions."""

import random

import pytest

from solver.constraints import sample_worlds
from solver.games import belote, coinche
from solver.games.base import Move
from solver.games.belote_common import DECK, TA
from solver.heuristic import HeuristicAgent
from solver.heuristics.belote import choose, strain_strength, suit_strength
from solver.match import MatchConfig, run_match
from solver.notation import Deal

c = DECK.card
H, S = 1, 0


def mask(text):
    return sum(1 << x for x in DECK.parse_cards(text))


def decide(st):
    return choose(st.game, st.observation(st.to_act), st.legal_moves(), random.Random(0))


@pytest.mark.parametrize("game,options", [
    ("belote", {}),
    ("belote", {"announces": True, "belote_optional": True, "second_round_ta_sa": True}),
    ("coinche", {}),
    ("coinche", {"belote_optional": True, "undertrump_required": False,
                 "coinche_ends_auction": False}),
])
def test_heuristic_completes_deals_with_legal_moves(game, options):
    # run_match plays every move through state.play, which rejects illegal moves
    # (BELOTE-PLAY-3/4, COINCHE-PLAY-3/4, BELOTE-BID-1/2, COINCHE-BID-3/5/6, BELOTE-ANN-5)
    cfg = MatchConfig(game, "heuristic", "random", 100, seed=5, options=options)
    summary = run_match(cfg)
    assert summary["deals"] == 100  # 200 deals played (duplicate)
    assert all(len(r["plays"]) == 2 for r in summary["results"])


@pytest.mark.parametrize("game", ["belote", "coinche"])
def test_heuristic_beats_random(game):
    cfg = MatchConfig(game, "heuristic", "random", 120, seed=11)
    summary = run_match(cfg)
    assert summary["ci95"][0] > 0, summary["ci95"]


def belote_deal(seat_hand, turned, dealer=0, seat=1):
    """A Belote deal giving ``seat`` these 5 cards and this turned card."""
    rest = [x for x in range(32) if not mask(seat_hand) >> x & 1 and x != c(turned)]
    hands, pos = [], 0
    for s in range(4):
        if s == seat:
            hands.append(DECK.parse_cards(seat_hand))
        else:
            hands.append(rest[pos:pos + 5])
            pos += 5
    return Deal(hands, {"turned": [c(turned)], "stock": rest[pos:]})


def test_belote_takes_with_jack_nine_ace_of_the_turned_suit():
    # BELOTE-BID-1: J+9+A of the turned suit → take; a handful of low cards → pass
    st = belote.new_state(deal=belote_deal("JH 9H AH 7S 8D", "7H"), dealer=0)
    assert decide(st) == Move("take", None)
    st = belote.new_state(deal=belote_deal("7S 8S 9D 7C 8C", "7H"), dealer=0)
    assert decide(st) == Move("pass")


def test_belote_second_round_names_the_strong_suit():
    # BELOTE-BID-2: after four passes, name another suit (not the turned one's)
    st = belote.new_state(deal=belote_deal("JS 9S AS TS AD", "7H"), dealer=0)
    for _ in range(4):
        st.play("pass")
    assert decide(st) == Move("take", S)


def test_coinche_bids_the_strain_with_most_trump_points_and_raises_partner():
    # COINCHE-BID-2/3: J 9 A T of hearts + a side ace → a heart bid of at least 80
    hands = ["JH 9H AH TH AS 7C 8C 7D", "7S 8S 9S TS JS QS KS 8D",
             "KH QH 8H 7H 9D TD JD QD", "AC KC QC JC TC 9C KD AD"]
    st = coinche.new_state(deal=Deal([DECK.parse_cards(h) for h in hands]), dealer=3)
    move = decide(st)  # seat 0 speaks first
    assert move.kind == "bid" and move.value[1] == H and move.value[0] >= 80
    st.play(move)
    st.play("pass")
    raise_ = decide(st)  # seat 2: K Q 8 7 of hearts → no jack/nine, no ace: pass
    assert raise_ == Move("pass")


def test_coinche_all_trumps_count_prefers_jacks():
    # COINCHE-CARD-3: jacks and nines rule TA; four jacks outscore any suit count
    hand = mask("JS JH JD JC 9S 9H AS 7D")
    assert strain_strength(hand, TA) > max(suit_strength(hand, s) for s in range(4))


def test_partner_master_charges_points():
    # partner's AS wins, we play last, void in spades: charge the TD (10), not 7D / 8H
    hands = ["AS 7C 8C", "8S AD TC", "TD 7D 8H", "7S KD QD"]
    st = coinche.CoincheState.from_play([mask(h) for h in hands], H, 0, leader=3,
                                        tricks_won=(5, 0))
    for t in ("7S", "AS", "8S"):
        st.play(t)
    assert decide(st) == Move("card", c("TD"))


def test_opponent_master_ducks_low():
    # the opponent's AS wins and we cannot follow nor must trump (no trumps): throw 7D
    hands = ["AS 7C 8C", "8S AD TC", "TD 7D 8C", "7S KD QD"]
    hands[2] = "TD 7D 9C"
    st = coinche.CoincheState.from_play([mask(h) for h in hands], H, 0, leader=1,
                                        tricks_won=(5, 0))
    st.play("8S")  # seat 1 leads; seat 2 void in spades, partner not master
    assert decide(st) == Move("card", c("7D"))


def test_attack_pulls_trumps_with_the_master_trump():
    hands = ["JH 9H 7H AS 8C", "8H TH 7S 8S 9S", "QH AD KD QD JD", "KH AC TC KC QC"]
    st = coinche.CoincheState.from_play([mask(h) for h in hands], H, 0, leader=0,
                                        tricks_won=(3, 0))
    assert decide(st) == Move("card", c("JH"))


def test_defence_leads_its_aces():
    # (the opponents still follow spades, so the ace cannot be ruffed at once)
    hands = ["JH 9H 7H TS 7D", "AS KS 7S 8S 9D", "QH AD KD QD JS", "KH AC TC KC QC"]
    st = coinche.CoincheState.from_play([mask(h) for h in hands], H, 0, leader=1,
                                        tricks_won=(3, 0))
    assert decide(st) == Move("card", c("AS"))


def test_announces_and_belote_are_always_made():
    # BELOTE-ANN-5: announce what is held; BELOTE-BR-2 option: declare the belote
    hands = ["KH QH JH 7S 8S 9S 7D 8D", "AS TS JS QS KS AD TD KD",
             "AH TH 9H 8H 7H QD JD 9D", "AC TC KC QC JC 9C 8C 7C"]
    st = coinche.CoincheState.from_play([mask(h) for h in hands], H, 0, leader=0,
                                        options={"belote_optional": True})
    move = decide(st)
    assert move.kind == "announce"
    while st.legal_moves() and any(m.kind == "announce" for m in st.legal_moves()):
        st.play(decide(st))
    assert {a.seat for a in st.announces} == {0}
    move = decide(st)
    if move.value in (c("KH"), c("QH")):
        assert move.kind == "belote"


def test_decisions_depend_only_on_the_observation():
    # the same decision in every world consistent with what the seat sees
    agent = HeuristicAgent(seed=1)
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        st = coinche.new_state(seed=seed)
        stop = rng.randint(4, 40)
        while not st.is_over() and len(st.history) < stop:
            st.play(agent.choose(st, st.to_act))
        if st.is_over() or st.phase != "play":
            continue
        seat = st.to_act
        move = agent.choose(st, seat)
        for w in sample_worlds(st, seat, 3, seed):
            assert agent.choose(w, seat) == move
        checked += 1
    assert checked > 20
