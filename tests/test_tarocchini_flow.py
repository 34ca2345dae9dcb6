"""Tarocchini deal flow: declarations, Ottocento, Terziglio, scoring, records, CLI."""

from __future__ import annotations

import copy
import json
import random

import pytest
from click.testing import CliRunner
from test_tarocchini import c, deal_with, m

from solver.cards import TAROCCHINI_DECK as D
from solver.cli import cli
from solver.errors import DealError, IllegalMoveError, NotationError, OptionError
from solver.games import state_from_record
from solver.games import tarocchini as T
from solver.games.base import Move
from solver.games.tarocchini_melds import MAT_BIT as MAT_BIT_
from solver.games.tarocchini_melds import best_points
from solver.notation import Record, parse_record


def to_phase(st: T.TarocchiniState, phase: str) -> T.TarocchiniState:
    """Advance with neutral choices (play on, take, first discard, declare nothing)."""
    while st.phase != phase and not st.is_over():
        p = st.phase
        if p == "monte":
            st.play("play")
        elif p == "callout":
            st.play("take")
        elif p == "discard":
            st.play(st.legal_moves()[0])
        elif p == "declare":
            st.play("decl:done")
        elif p == "bid":
            st.play("gioco" if not st.bids else "pass")
        else:
            st.play(st.legal_moves()[0])
    return st


def random_finish(st: T.TarocchiniState, rng: random.Random) -> T.TarocchiniState:
    while not st.is_over():
        st.play_random(rng)
    return st


# --- declarations (TAROC-DECL-1..6) -----------------------------------------------------
def test_declarations_after_discard_eldest_first_public():
    """TAROC-DECL-1 / TAROC-AMB-13: after the discard, eldest first, dealer last; declared
    cards are shown to everybody and taken back into the hand."""
    deal = deal_with("ottocento", {0: "KS KB KC", 3: "KD QD ND"})
    st = to_phase(T.new_state(dealer=3, deal=deal), "declare")
    assert st.to_act == 0 and not st.discard & st.hands[3] and st.discard.bit_count() == 2
    before = st.hands[0]
    st.play("decl:kings:KS+KB+KC")
    st.play("decl:done")
    assert st.hands[0] == before
    assert st.observation(1)["declared"][0] == [("kings", m("KS KB KC"))]
    order = [st.to_act]
    for _ in range(3):
        order.append(st.to_act)
        st.play("decl:done")
    assert order[1:] == [1, 2, 3] and st.phase == "play" and st.to_act == 0


def test_declaration_must_be_valid_combination():
    """TAROC-DECL-2: any valid combination (shorter ones too); invalid ones are refused."""
    deal = deal_with("ottocento", {0: "KS KB KC KD QS NS JS"})
    st = to_phase(T.new_state(dealer=3, deal=deal), "declare")
    tokens = {st.move_token(mv) for mv in st.legal_moves()}
    assert {"decl:kings:KS+KB+KC", "decl:kings:KS+KB+KC+KD", "decl:swords:KS+QS+JS",
            "decl:swords:KS+QS+NS+JS", "decl:done"} <= tokens
    with pytest.raises(IllegalMoveError):
        st.play("decl:swords:KS+QS")
    with pytest.raises(IllegalMoveError):
        st.play("decl:kings:KS+KB+QS")
    st.play("decl:kings:KB+KC+KD")
    assert not any(mv.value and mv.value[0] == "kings" for mv in st.legal_moves()
                   if mv.kind == "declare" and mv.value)
    st.play("decl:done")
    assert st.decl_points[0] == 17


def test_declarations_none_or_max_option():
    """TAROC-DECL-3: the engine simplification offers only nothing or the maximum."""
    deal = deal_with("ottocento", {0: "KS KB KC KD QS NS JS"})
    st = to_phase(T.new_state({"declarations": "none_or_max"}, dealer=3, deal=deal), "declare")
    assert {st.move_token(mv) for mv in st.legal_moves()} == {"decl:done", "decl:max"}
    st.play("decl:max")
    assert st.decl_points[0] == best_points(st.hands[0]) >= 34 + 15
    assert st.to_act == 1


def test_declared_points_count_for_the_side():
    """TAROC-DECL-4: declared points go to the declarer's side total."""
    deal = deal_with("ottocento", {1: "KS KB KC"})
    st = to_phase(T.new_state(dealer=0, deal=deal), "declare")
    assert st.to_act == 1
    st.play("decl:kings:KS+KB+KC")
    for _ in range(4):
        st.play("decl:done")
    assert st.phase == "play"
    random_finish(st, random.Random(3))
    assert st.result["declared"] == [0, 17]
    r = st.result
    assert r["totals_half"][1] == 2 * 17 + 2 * r["pile_melds"][1] + r["card_points_half"][1] + \
        (T.LAST_TRICK_HALF if r["last_trick"] == 1 else 0)


def test_each_declaration_is_its_own_unit():
    """TAROC-DECL-5: doubling counts the sequences of one player's declaration only."""
    deal = deal_with("ottocento", {0: "KS QS NS KB QB NB", 2: "KC QC NC"})
    st = to_phase(T.new_state(dealer=3, deal=deal), "declare")
    st.play("decl:swords:KS+QS+NS")
    st.play("decl:batons:KB+QB+NB")
    st.play("decl:done")
    st.play("decl:done")
    st.play("decl:cups:KC+QC+NC")
    st.play("decl:done")
    assert st.decl_points[0] == 20 and st.decl_points[2] == 10  # not (10+10+10) x 2


def test_piles_evaluated_again_after_play():
    """TAROC-DECL-6: each side's pile (tricks, Matto, discard) is evaluated again."""
    rng = random.Random(11)
    for seed in range(20):
        for variant in ("ottocento", "terziglio"):
            st = random_finish(T.new_state({"game": variant}, seed=seed), rng)
            if "pile_melds" not in (st.result or {}):
                continue
            assert st.result["pile_melds"] == [best_points(p) for p in st.piles]
            assert st.piles[0] | st.piles[1] == D.full_mask and not st.piles[0] & st.piles[1]


def test_discard_counts_in_pile_melds():
    """OTTO-DEAL-3 / TAROC-AMB-7: the discard is part of the dealer's side's pile."""
    st = T.TarocchiniState.from_play([m("KS"), m("6S"), m("7S"), m("8S")], 1, dealer=0,
                                     discard=m("QS NS"))
    for tok in ("6S", "7S", "8S", "KS"):
        st.play(tok)
    assert st.piles[0] == m("KS 6S 7S 8S QS NS") and st.result["pile_melds"] == [10, 0]


def test_discard_to_opponents_when_dealer_side_wins_nothing():
    """OTTO-DEAL-3: if the dealer's side wins no trick, the discard goes to the opponents."""
    st = T.TarocchiniState.from_play([m("6S"), m("KS"), m("7S"), m("8S")], 1, dealer=0,
                                     discard=m("QS NS"))
    for tok in ("KS", "7S", "8S", "6S"):
        st.play(tok)
    assert st.piles == [0, m("KS 6S 7S 8S QS NS")]


# --- Ottocento deal, monte, discard -----------------------------------------------------------
def test_ottocento_deal_15_each_dealer_takes_two():
    """OTTO-DEAL-1: 15 cards each, the dealer takes the 2 remaining cards (17)."""
    st = T.new_state(seed=4, dealer=1)
    assert [h.bit_count() for h in st.hands] == [15] * 4 and st.talon.bit_count() == 2
    to_phase(st, "discard")
    assert st.hands[1].bit_count() == 17 and st.to_act == 1
    to_phase(st, "declare")
    assert [h.bit_count() for h in st.hands] == [15] * 4


def test_dealer_discard_restrictions():
    """OTTO-DEAL-2 / TAROC-AMB-6: no five-point card; other trumps may be discarded."""
    deal = deal_with("ottocento", {0: "KS ANG MON BAG MAT SOL T5 MO1 QS"})
    st = to_phase(T.new_state(dealer=0, deal=deal), "discard")
    legal = {mv.value for mv in st.legal_moves()}
    assert all(mv.kind == "discard" for mv in st.legal_moves())
    assert not legal & {c(t) for t in ("KS", "ANG", "MON", "BAG", "MAT")}
    assert {c("SOL"), c("T5"), c("MO1"), c("QS")} <= legal
    with pytest.raises(IllegalMoveError):
        st.play("discard:KS")
    st.play("discard:SOL")
    assert st.discard == m("SOL")


def test_monte_votes():
    """OTTO-DEAL-4: all four monte -> thrown in; otherwise play on; options off / 5 and 10."""
    st = T.new_state(seed=2, dealer=0)
    assert st.phase == "monte" and st.to_act == 1
    hand5 = st.observation(1)["hand"]
    assert hand5.bit_count() == 5 and hand5 & ~st.hands[1] == 0
    for _ in range(4):
        st.play("monte")
    assert st.is_over() and st.abandoned and st.scores() == [0.0] * 4
    st = T.new_state(seed=2, dealer=0)
    for tok in ("monte", "monte", "play", "monte"):
        st.play(tok)
    assert st.phase in ("discard", "callout")
    twice = T.new_state({"monte": "after_5_and_10"}, seed=2)
    for _ in range(4):
        twice.play("play")
    assert twice.phase == "monte" and twice.observation(1)["hand"].bit_count() == 10
    for _ in range(4):
        twice.play("monte")
    assert twice.abandoned
    off = T.new_state({"monte": "off"}, seed=2)
    assert off.phase == "discard"


def test_ottocento_play_15_tricks_eldest_leads():
    """OTTO-PLAY-1: 15 tricks of 4 cards, the eldest leads the first."""
    for seed in range(5):
        st = to_phase(T.new_state(seed=seed, dealer=2), "play")
        if st.is_over():
            continue
        assert st.to_act == 3
        random_finish(st, random.Random(seed))
        assert len(st.tricks) == 15 and all(len(t) == 4 for t, _ in st.tricks)
        assert st.tricks[0][0][0][0] == 3


def test_signals():
    """OTTO-SIG-1: volo (leader, only if true), striscio (anyone), busso (leader); none;
    after_top_card; signals are public events."""
    hands = [m("6S 7S KB"), m("8S 9S QB"), m("10S AS JB"), m("KS QS NB")]
    st = T.TarocchiniState.from_play(hands, 0)
    toks = {st.move_token(mv) for mv in st.legal_moves()}
    assert {"6S:striscio", "6S:busso", "KB:volo", "KB:busso", "KB:striscio"} <= toks
    assert "6S:volo" not in toks  # 7S remains: volo would be false
    st.play("6S:busso")
    toks = {st.move_token(mv) for mv in st.legal_moves()}
    assert toks == {"8S", "9S", "8S:striscio", "9S:striscio"}
    assert st.signals == [(0, 0, c("6S"), "busso")]
    assert st.observation(2)["signals"] == st.signals
    none = T.TarocchiniState.from_play(hands, 0, {"signals": "none"})
    assert all(mv.kind == "card" for mv in none.legal_moves())
    top = T.TarocchiniState.from_play(hands, 0, {"signals": "after_top_card"})
    assert all(mv.kind == "card" for mv in top.legal_moves())  # KS not yet played
    for tok in ("6S", "8S", "10S", "KS"):
        top.play(tok)
    assert "QS:striscio" in {top.move_token(mv) for mv in top.legal_moves()}


# --- Ottocento scoring and the game to 800 -----------------------------------------------
def test_ottocento_hand_score_example():
    """OTTO-SCORE-1 / OTTO-EX-1: 27 + 39 + 52 + 6 = 124 and 18 + 30 + 35 = 83."""
    assert T.side_total_half(27, 39, 2 * 52, True) == 2 * 124
    assert T.side_total_half(18, 30, 2 * 35, False) == 2 * 83


def test_ottocento_scores_are_side_totals():
    """OTTO-SCORE-1: each seat scores its side's declarations + pile melds + cards + last."""
    for seed in range(10):
        st = random_finish(T.new_state(seed=seed), random.Random(seed))
        if st.abandoned:
            continue
        r = st.result
        for s in (0, 1):
            assert r["totals_half"][s] == T.side_total_half(
                r["declared"][s], r["pile_melds"][s], r["card_points_half"][s],
                r["last_trick"] == s)
        assert st.scores() == [st.side_totals()[s % 2] for s in range(4)]
        again = T.hand_totals(st.piles, r["declared"], r["last_trick"], st.options)
        assert again.items() <= r.items()
        assert all(x % 2 == 0 for x in r["card_points_half"])  # TAROC-PTS-3: even piles
        assert sum(r["card_points_half"]) == 2 * 87


def test_match_accumulates_no_negative_scores():
    """OTTO-SCORE-2: scores accumulate per side, never negative; the eldest deals next."""
    match = T.OttocentoMatch(seed=5, dealer=1)
    rng = random.Random(5)
    seen = []
    while match.winner is None:
        before = list(match.totals)
        st = match.new_deal()
        assert st.dealer == match.dealer and st.totals == before
        random_finish(st, rng)
        match.add(st)
        seen.append(st.dealer)
        assert all(a >= b >= 0 for a, b in zip(match.totals, before, strict=True))
    assert seen[:3] == [1, 2, 3][:len(seen[:3])]
    assert max(match.totals) >= 800
    with pytest.raises(IllegalMoveError):
        match.new_deal()


def test_calling_out_example():
    """OTTO-SCORE-3 / OTTO-EX-2 / TAROC-AMB-13: team A at 770 declares 36 and wins; a
    dealer whose first 15 cards reach the target calls out first."""
    deal = deal_with("ottocento", {0: "ANG MON BAG MAT"})
    match = T.OttocentoMatch(dealer=3)
    match.totals = [770, 610]
    st = match.new_deal(deal)
    assert best_points(st.hands[3]) < 190
    st = to_phase(st, "discard")  # no call-out offered to the dealer
    assert st.to_act == 3
    st = to_phase(st, "declare")
    assert st.to_act == 0
    st.play("decl:tarocchi:ANG+MON+BAG+MAT")
    st.play("decl:done")
    assert st.is_over() and st.called_out == 0 and not st.tricks
    match.add(st)
    assert match.winner == 0 and match.totals[0] == 806
    rich = deal_with("ottocento", {3: "KS KB KC KD QS QB QC QD NS NB NC ND JS JB JC"})
    st = T.new_state(dealer=3, deal=rich, totals=[770, 610])
    st.play("play")
    for _ in range(3):
        st.play("play")
    assert st.phase == "callout" and st.to_act == 3
    assert {st.move_token(mv) for mv in st.legal_moves()} == {"callout", "take"}
    st.play("callout")
    assert st.is_over() and st.called_out == 1 and st.hands[3].bit_count() == 15
    assert st.side_totals()[1] >= 190


def test_target_and_tie():
    """OTTO-SCORE-4 / TAROC-AMB-12: at or above the target wins; both: higher; equal: replay."""
    assert T.match_winner([800, 700], 800) == 0
    assert T.match_winner([820, 850], 800) == 1
    assert T.match_winner([810, 810], 800) is None
    assert T.match_winner([790, 799], 800) is None
    assert T.match_winner([300, 200], 250) == 0
    small = T.OttocentoMatch({"target": 100}, seed=1)
    assert small.play_random(random.Random(1)) in (0, 1) and max(small.totals) >= 100


# --- Terziglio -------------------------------------------------------------------------------
def test_terziglio_deal_sizes():
    """TERZ-DEAL-1 / TAROC-AMB-8: 18 each and a stock of 8; option 19+5."""
    st = T.new_state({"game": "terziglio"}, seed=3)
    assert [h.bit_count() for h in st.hands] == [18] * 3 and st.stock.bit_count() == 8
    st = T.new_state({"game": "terziglio", "terziglio_deal": "19+5"}, seed=3)
    assert [h.bit_count() for h in st.hands] == [19] * 3 and st.stock.bit_count() == 5


def test_terziglio_bidding():
    """TERZ-BID-1: each speaks once from the eldest; higher bids only; all pass: redeal."""
    st = T.new_state({"game": "terziglio"}, seed=3, dealer=1)
    assert st.to_act == 2
    assert {st.move_token(mv) for mv in st.legal_moves()} == {"pass", "gioco", "solo"}
    st.play("gioco")
    assert {st.move_token(mv) for mv in st.legal_moves()} == {"pass", "solo"}
    st.play("solo")
    assert {st.move_token(mv) for mv in st.legal_moves()} == {"pass"}
    st.play("pass")
    assert st.declarer == 0 and st.contract == "solo" and st.side_of == (0, 1, 1)
    allpass = T.new_state({"game": "terziglio"}, seed=3)
    for _ in range(3):
        allpass.play("pass")
    assert allpass.is_over() and allpass.abandoned and allpass.scores() == [0.0] * 3


def test_gioco_takes_stock_and_discards():
    """TERZ-BID-2: the declarer takes the stock, discards as many, never a five-point card."""
    st = T.new_state({"game": "terziglio"}, seed=8, dealer=2)
    stock = st.stock
    st.play("gioco")
    st.play("pass")
    st.play("pass")
    assert st.phase == "discard" and st.to_act == 0
    assert st.hands[0].bit_count() == 26 and st.hands[0] & stock == stock
    assert all(not T.FIVE_POINT_MASK >> mv.value & 1 for mv in st.legal_moves())
    for _ in range(8):
        st.play(st.legal_moves()[-1])
    assert st.phase == "declare" and st.hands[0].bit_count() == 18
    assert st.discard.bit_count() == 8 and not st.discard & T.FIVE_POINT_MASK
    # the discard is the declarer's unless he wins no trick
    won = T.TarocchiniState.from_play([m("KS"), m("6S"), m("7S")], 0, {"game": "terziglio"},
                                      declarer=0, contract="gioco", discard=m("QS"))
    for tok in ("KS", "6S", "7S"):
        won.play(tok)
    assert won.piles[0] == m("KS 6S 7S QS")
    lost = T.TarocchiniState.from_play([m("6S"), m("KS"), m("7S")], 0, {"game": "terziglio"},
                                       declarer=0, contract="gioco", discard=m("QS"))
    for tok in ("6S", "KS", "7S"):
        lost.play(tok)
    assert lost.piles == [0, m("KS 6S 7S QS")]


def test_solo_stock_to_last_trick_winner():
    """TERZ-BID-3: in a solo the stock stays unseen and goes to the last trick's winner."""
    st = T.new_state({"game": "terziglio"}, seed=8)
    stock = st.stock
    st.play("solo")
    st.play("pass")
    st.play("pass")
    assert st.phase == "declare" and st.stock == stock
    assert all(h & stock == 0 for h in st.hands)
    for winner_seat, hands in ((1, [m("6S"), m("KS"), m("7S")]), (0, [m("KS"), m("6S"), m("7S")])):
        s = T.TarocchiniState.from_play(hands, 0, {"game": "terziglio"}, declarer=0,
                                        contract="solo", stock=m("QS NS"))
        for _ in range(3):
            s.play(s.legal_moves()[0])
        side = s.side_of[winner_seat]
        assert s.piles[side] & m("QS NS") == m("QS NS")


def test_terziglio_declarations_pooled():
    """TERZ-DECL-1: all three declare after the exchange; the opponents' points are pooled."""
    deal = deal_with("terziglio", {1: "KS KB KC", 2: "QS QB QC"})
    st = T.new_state({"game": "terziglio"}, dealer=2, deal=deal)
    st.play("solo")
    st.play("pass")
    st.play("pass")
    assert st.phase == "declare" and st.to_act == 0
    st.play("decl:done")
    st.play("decl:kings:KS+KB+KC")
    st.play("decl:done")
    st.play("decl:queens:QS+QB+QC")
    st.play("decl:done")
    assert st.phase == "play"
    random_finish(st, random.Random(1))
    assert st.result["declared"] == [0, 17 + 14]


def test_terziglio_play_18_tricks():
    """TERZ-PLAY-1 / TAROC-AMB-9: 18 tricks of 3, eldest leads; only opponents signal."""
    st = T.new_state({"game": "terziglio"}, seed=5, dealer=0)
    st.play("pass")
    st.play("gioco")
    st.play("pass")
    to_phase(st, "play")
    assert st.declarer == 2 and st.to_act == 1
    rng = random.Random(2)
    while not st.is_over():
        if st.to_act == st.declarer:
            assert all(mv.kind == "card" for mv in st.legal_moves())
        st.play_random(rng)
    assert len(st.tricks) == 18 and st.tricks[0][0][0][0] == 1


@pytest.mark.parametrize("rule,contract,decl,opp,scores", [
    ("TERZ-EX-1", "gioco", 2 * (45 + 60 + 48 + 6), 2 * (34 + 28 + 39), (6, -3)),
    ("TERZ-EX-2", "solo", 2 * 196, 2 * 150, (16, -8)),
    ("TERZ-EX-3", "gioco", 2 * 120, 2 * 120, (-4, 2)),
    ("TERZ-EX-4", "gioco", 291, 221, (6, -3)),
])
def test_terziglio_examples(rule, contract, decl, opp, scores):
    """TERZ-SCORE-1..5 / TAROC-AMB-10 worked examples (totals in half points)."""
    winner, _, g = T.terziglio_game_points(decl, opp, contract)
    assert T.terziglio_settlement(winner, g) == scores, rule


def test_terziglio_scoring_rules():
    """TERZ-SCORE-1: total composition; TERZ-SCORE-2: tie loses; TERZ-SCORE-3: rounding;
    TERZ-SCORE-4: solo doubles; TERZ-SCORE-5: zero-sum settlement."""
    assert T.side_total_half(45, 60, 96, True) == 2 * 159
    assert T.terziglio_game_points(240, 240, "gioco")[0] == 1
    assert T.terziglio_game_points(242, 240, "gioco")[0] == 0
    assert T.terziglio_rounded(2 * 159) == 150 and T.terziglio_rounded(2 * 196) == 200
    assert T.terziglio_rounded(291) == 150 and T.terziglio_rounded(290) == 100
    assert T.terziglio_rounded(2 * 145) == 100 and T.terziglio_rounded(2 * 146) == 150
    assert T.terziglio_rounded(2 * 49) == 50 and T.terziglio_rounded(2 * 45) == 0
    assert T.terziglio_game_points(2 * 196, 2 * 150, "solo") == (0, 200, 8)
    assert T.terziglio_game_points(2 * 196, 2 * 150, "gioco") == (0, 200, 4)
    for w, g in ((0, 3), (1, 5)):
        d, o = T.terziglio_settlement(w, g)
        assert d + 2 * o == 0


def test_terziglio_capot():
    """TERZ-SCORE-6 / TAROC-AMB-11 / TERZ-EX-5: capot G = 40, doubled in solo unless the option."""
    assert T.terziglio_settlement(*T.terziglio_game_points(0, 0, "solo", 0)[::2]) == (160, -80)
    wp = T.terziglio_game_points(0, 0, "solo", 0, capot_doubled_in_solo=False)
    assert T.terziglio_settlement(wp[0], wp[2]) == (80, -40)
    assert T.terziglio_game_points(0, 0, "gioco", 1)[2] == 40
    hands = [m("KS KB"), m("6S 6B"), m("7S 7B")]
    for opt, expect in ((True, [160.0, -80.0, -80.0]), (False, [80.0, -40.0, -40.0])):
        st = T.TarocchiniState.from_play(hands, 0, {"game": "terziglio",
                                                    "terziglio_capot_doubled_in_solo": opt},
                                         declarer=0, contract="solo", stock=0)
        for tok in ("KS", "6S", "7S", "KB", "6B", "7B"):
            st.play(tok)
        assert st.result["capot"] and st.scores() == expect


def test_terziglio_state_scores_consistent():
    """TERZ-SCORE-1..5 on random deals: scores follow the totals and sum to zero."""
    for seed in range(30):
        st = random_finish(T.new_state({"game": "terziglio"}, seed=seed), random.Random(seed))
        if st.abandoned:
            continue
        r = st.result
        assert sum(st.scores()) == 0
        if not r["capot"]:
            win = 0 if r["totals_half"][0] > r["totals_half"][1] else 1
            assert r["winner"] == win
            assert r["rounded"] == T.terziglio_rounded(r["totals_half"][win])
        assert sum(r["card_points_half"]) == 2 * 87


# --- records, notation, options, errors ------------------------------------------------------
@pytest.mark.parametrize("variant", ["ottocento", "terziglio"])
def test_records_round_trip_and_replay(variant):
    """Records round-trip in text and JSON and replay to the identical final state."""
    for seed in range(25):
        st = random_finish(T.new_state({"game": variant}, seed=seed, dealer=seed % 3),
                           random.Random(seed))
        rec = st.to_record()
        text = rec.to_text()
        again = Record.from_text(text)
        assert again.to_text() == text
        js = json.dumps(rec.to_json())
        assert parse_record(js).to_text() == text
        for r in (again, parse_record(js)):
            replay = state_from_record(r)
            assert replay.history == st.history
            assert replay.result == st.result and replay.piles == st.piles
            assert replay.scores() == st.scores()


def test_undo_restores_state():
    """Undo takes back moves exactly (fast shallow snapshots)."""
    st = T.new_state(seed=9)
    rng = random.Random(9)
    states = []
    while not st.is_over():
        states.append((st.phase, list(st.hands), list(st.piles), list(st.trick), st.to_act))
        st.play_random(rng)
    for snap in reversed(states):
        st.undo()
        assert (st.phase, st.hands, st.piles, st.trick, st.to_act) == snap


def test_move_tokens_parse():
    st = T.new_state(seed=1)
    assert st.parse_move("decl:kings:KS+KB+KC") == Move("declare", ("kings", m("KS KB KC")))
    assert st.parse_move("7S:volo") == Move("signal", (c("7S"), "volo"))
    assert st.parse_move("discard:T5") == Move("discard", c("T5"))
    for bad in ("decl:foo:KS", "7S:wave", "XX", "decl:kings"):
        with pytest.raises(NotationError):
            st.parse_move(bad)


def test_bad_deals_and_options():
    with pytest.raises(OptionError):
        T.new_state({"game": "tressette"})
    with pytest.raises(OptionError):
        T.new_state({"monte": "sometimes"})
    with pytest.raises(OptionError):
        T.new_state({"target": 0})
    deal = deal_with("ottocento", {})
    short = type(deal)([h[:14] for h in deal.hands], deal.extras)
    with pytest.raises(DealError):
        T.new_state(deal=short)
    with pytest.raises(DealError):
        T.new_state(dealer=4)
    with pytest.raises(DealError):
        T.new_state({"game": "terziglio"}, deal=deal)


@pytest.mark.parametrize("variant", ["ottocento", "terziglio"])
def test_play_completes_on_200_seeds(variant):
    """`atout play tarocchini` logic on 200 seeds: every deal ends, card points 93."""
    for seed in range(200):
        st = T.new_state({"game": variant}, seed=seed, dealer=seed % 3)
        random_finish(st, random.Random(f"play-{seed}"))
        assert st.is_over() and st.to_act is None and st.legal_moves() == []
        if st.result and "card_points_half" in st.result:
            assert sum(st.result["card_points_half"]) + T.LAST_TRICK_HALF == 2 * 93
            assert st.piles[0] | st.piles[1] == D.full_mask


@pytest.mark.parametrize("variant", ["ottocento", "terziglio"])
def test_cli_deal_and_play(variant):
    runner = CliRunner()
    out = runner.invoke(cli, ["deal", "tarocchini", "--variant", variant, "--seed", "7"])
    assert out.exit_code == 0, out.output
    assert len(out.output.split("/")) == (4 if variant == "ottocento" else 3)
    for seed in range(200):  # `atout play tarocchini --variant X --seed N` on 200 seeds
        out = runner.invoke(cli, ["play", "tarocchini", "--variant", variant, "--seed",
                                  str(seed), "--json"])
        assert out.exit_code == 0, out.output
        obj = json.loads(out.output)
        assert len(obj["scores"]) == (4 if variant == "ottocento" else 3)
        if seed < 10:
            rec = Record.from_json(obj["record"])
            assert state_from_record(rec).scores() == obj["scores"]


# --- analysis helpers and samples ----------------------------------------------------------
def test_from_play_with_captured_cards_and_debt():
    """TAROC-MATTO-2 via from_play: a debt carried in is paid as soon as a scartino is won."""
    st = T.TarocchiniState.from_play([m("KS"), m("6S"), m("7S"), m("8S")], 0,
                                     piles=[m("KD QD AD"), MAT_BIT_], owed=[0, 1],
                                     tricks_won=[1, 0])
    assert st.played == m("KD QD AD MAT")
    for tok in ("KS", "6S", "7S", "8S"):
        st.play(tok)
    # team B never won a trick: MAT goes to team A, the debt is cancelled (TAROC-MATTO-3)
    assert st.piles == [m("KD QD AD MAT KS 6S 7S 8S"), 0]
    with pytest.raises(DealError):
        T.TarocchiniState.from_play([m("KS"), m("6S"), m("7S"), m("8S")], 0, piles=[m("KS"), 0])


def test_collect_trick_and_final_piles_pure():
    """TAROC-MATTO-2 / TAROC-MATTO-5 / OTTO-DEAL-3 as pure functions (DD objective)."""
    side_of = (0, 1, 0, 1)
    w, piles, owed = T.collect_trick([(0, c("KD")), (1, c("MAT")), (2, c("QD")), (3, c("AD"))],
                                     side_of, [0, 0], [0, 0])
    assert (w, piles, owed) == (0, [m("KD QD AD"), MAT_BIT_], [0, 1])
    w, piles, owed = T.collect_trick([(1, c("KS")), (2, c("QS")), (3, c("NS")), (0, c("JS"))],
                                     side_of, piles, owed)
    assert w == 1 and owed == [0, 1]  # no scartino won: the debt waits
    final = T.final_piles(piles, owed, [1, 1], discard=m("6B 7B"), discard_side=0)
    assert final == [m("KD QD AD JS 6B 7B"), m("MAT KS QS NS")]
    # TAROC-MATTO-3 and OTTO-DEAL-3: team B won nothing: MAT and its discard go to A
    assert T.final_piles([m("KD QD AD"), MAT_BIT_], [0, 1], [1, 0], discard=m("6B"),
                         discard_side=1) == [m("KD QD AD MAT 6B"), 0]


def test_observation_hides_hidden_cards():
    st = T.new_state(seed=6, dealer=0)
    obs = st.observation(2)
    assert obs["hand"].bit_count() == 5 and obs["discard"] is None
    to_phase(st, "declare")
    assert st.observation(0)["discard"] == st.discard and st.observation(1)["discard"] is None
    assert all(h & st.discard == 0 for h in st.hands)


@pytest.mark.parametrize("name", ["ottocento", "terziglio", "terziglio_solo"])
def test_sample_records_replay(name):
    """The example records replay to the scores their Result tag states."""
    from pathlib import Path
    base = Path(__file__).resolve().parent.parent / "examples" / f"tarocchini_{name}"
    text = base.with_suffix(".txt").read_text()
    rec = parse_record(text)
    assert rec.to_text() == text.strip()
    st = state_from_record(rec)
    st2 = state_from_record(parse_record(base.with_suffix(".json").read_text()))
    assert st.is_over() and st.result == st2.result
    t = st.side_totals()
    if st.variant == "ottocento":
        assert rec.tags["Result"] == f"A {t[0]:g} B {t[1]:g}"
    else:
        assert rec.tags["Result"].endswith(" ".join(f"{x:g}" for x in st.scores()))


def test_cli_user_errors_exit_2(capsys):
    from solver.cli import main
    with pytest.raises(SystemExit) as e:
        main(["deal", "tarocchini", "--variant", "scopone"])
    assert e.value.code == 2 and "game" in capsys.readouterr().err


def test_copy_is_independent_including_undo():
    st = T.new_state(seed=12)
    rng = random.Random(12)
    for _ in range(30):
        st.play_random(rng)
    twin = st.copy()
    ref = copy.deepcopy(st)  # the generic deep copy as reference
    for _ in range(5):
        st.undo()
    while not st.is_over():
        st.play_random(rng)
    assert twin.hands == ref.hands and twin.history == ref.history
    for _ in range(5):
        twin.undo()
        ref.undo()
    assert twin.hands == ref.hands and twin.piles == ref.piles and twin.phase == ref.phase
    random_finish(twin, random.Random(1))
    random_finish(ref, random.Random(1))
    assert twin.result == ref.result


def test_from_play_mid_trick_matches_played_state():
    """from_play with a trick in progress equals the state reached by playing it."""
    for seed in range(10):
        st = to_phase(T.new_state(seed=seed), "play")
        if st.is_over():
            continue
        rng = random.Random(seed)
        for _ in range(4 * 5 + seed % 4):
            st.play(rng.choice([mv for mv in st.legal_moves() if mv.kind == "card"]))
        mid = T.TarocchiniState.from_play(
            list(st.hands), st.leader, dealer=st.dealer, discard=st.discard,
            decl_points=st.decl_points, piles=st.piles, tricks_won=st.tricks_won,
            owed=st.owed, trick=st.trick)
        assert mid.to_act == st.to_act and mid.legal_moves() == st.legal_moves()
        while not st.is_over():
            mv = rng.choice([x for x in st.legal_moves() if x.kind == "card"])
            st.play(mv)
            mid.play(mv)
        assert mid.result == st.result
    with pytest.raises(DealError):
        T.TarocchiniState.from_play([m("KS"), m("6S"), m("7S"), m("8S")], 0,
                                    trick=[(1, c("9S"))])


def test_inferred_voids_are_true():
    """TAROC-PLAY-3: voids shown in play are real (never contradicted by the hand)."""
    st = T.TarocchiniState.from_play([m("6S KB"), m("T5 KC"), m("MAT 7S"), m("KD QD")], 0)
    for tok in ("6S", "T5", "MAT", "KD"):
        st.play(tok)
    v = st.observation(0)["voids"]
    assert v[1] == {0} and v[2] == set() and v[3] == {0, T.TRUMP}
    for seed in range(10):
        st = T.new_state({"monte": "off"}, seed=seed)
        rng = random.Random(seed)
        while not st.is_over():
            if st.phase == "play":
                for seat, suits in enumerate(st.inferred_voids()):
                    for s in suits:
                        assert not st.hands[seat] & T.SUIT_MASK_OF[s]
            st.play_random(rng)


def test_called_out_deal_record_replays():
    """OTTO-SCORE-3: the running totals travel in the record, so a call-out replays."""
    deal = deal_with("ottocento", {0: "ANG MON BAG MAT"})
    st = to_phase(T.new_state(dealer=3, deal=deal, totals=[770, 610]), "declare")
    st.play("decl:tarocchi:ANG+MON+BAG+MAT")
    st.play("decl:done")
    rec = st.to_record()
    assert rec.options["totals"] == (770, 610) and "totals=[770,610]" in rec.to_text()
    again = state_from_record(Record.from_text(rec.to_text()))
    assert again.called_out == 0 and again.result == st.result
    assert state_from_record(Record.from_json(json.dumps(rec.to_json()))).called_out == 0
    with pytest.raises(OptionError):
        T.new_state({"totals": (1, 2, 3)})
    with pytest.raises(OptionError):
        T.new_state({"totals": "[-1,0]"})
