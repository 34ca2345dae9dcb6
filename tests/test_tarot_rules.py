"""French Tarot: pure functions (deck values, legal cards, trick winner, counting, scoring).

Every TAROT-EX-* scoring vector of docs/rules/tarot.md is checked exactly here.
"""

from fractions import Fraction

import pytest

from solver import AtoutError, OptionError
from solver.cards import TAROT_DECK
from solver.games import tarot
from solver.games.tarot import (
    EXCUSE,
    FULL_DECK,
    contract_result,
    count_piles,
    deal_value,
    distribute,
    legal_cards,
    pile_points2,
    score_deal,
    trick_winner,
)


def c(tok: str) -> int:
    return TAROT_DECK.card(tok)


def m(text: str) -> int:
    return sum(1 << TAROT_DECK.card(t) for t in text.split())


def toks(mask: int) -> set[str]:
    return {TAROT_DECK.token(x) for x in TAROT_DECK.cards(mask)}


def trick_of(*pairs: str) -> list[tuple[int, int]]:
    """'0:7H' style (seat:card) pairs."""
    out = []
    for p in pairs:
        s, t = p.split(":")
        out.append((int(s), c(t)))
    return out


# --- deck and values -------------------------------------------------------------------
def test_deck_composition():
    # TAROT-DECK-1: 21 trumps, the Excuse, four suits of 14 cards
    assert TAROT_DECK.size == 78
    assert tarot.TRUMP_MASK.bit_count() == 21
    for s in range(4):
        assert tarot.SUIT_MASKS[s].bit_count() == 14
    assert toks(tarot.SUIT_MASKS[1]) == {r + "H" for r in
                                         "1 2 3 4 5 6 7 8 9 10 J N Q K".split()}


def test_bouts():
    # TAROT-DECK-3
    assert toks(tarot.BOUTS_MASK) == {"T1", "T21", "EX"}


def test_card_values_and_total():
    # TAROT-DECK-4 (half points), TAROT-EX-20
    assert [tarot.card_points(c(t)) for t in ("T1", "T21", "EX", "KS", "QH", "ND", "JC",
                                              "10S", "1H", "T2", "T20")] == \
        [9, 9, 9, 9, 7, 5, 3, 1, 1, 1, 1]
    assert pile_points2(FULL_DECK) == 182  # 91 points
    assert pile_points2(m("KH QS T21 T5 3C")) == 27  # 13.5
    assert count_piles(m("KH QS T21 T5 3C")) == (27, 1)
    assert tarot.HALF_MASK.bit_count() == 59


def test_ranking_within_suit_and_trumps():
    # TAROT-DECK-2: K > Q > N > J > 10 > ... > 1; T21 highest trump; trumps beat suits
    order = "KS QS NS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S 1S".split()
    for hi, lo in zip(order, order[1:], strict=False):
        assert trick_winner(trick_of(f"0:{lo}", f"1:{hi}", "2:2H")) == 1
    assert trick_winner(trick_of("0:KS", "1:T1", "2:QS")) == 1
    assert trick_winner(trick_of("0:T20", "1:T21", "2:T19")) == 1
    # a suit card of another suit never wins
    assert trick_winner(trick_of("0:2S", "1:KH", "2:KD", "3:KC")) == 0


# --- legal cards -----------------------------------------------------------------------
def test_follow_suit():
    # TAROT-PLAY-4.1: must follow (any card of the suit, no need to win); EX also legal
    hand = m("KH 2H T5 EX 3S")
    assert toks(legal_cards(hand, trick_of("0:7H"))) == {"KH", "2H", "EX"}
    # TAROT-PLAY-2: the leader may lead anything
    assert legal_cards(hand, []) == hand


def test_overtrump_ex22():
    # TAROT-EX-22 (TAROT-PLAY-4.3): led 7H, seat 2 has played T8; seat 3 has no heart
    trick = trick_of("1:7H", "2:T8")
    assert toks(legal_cards(m("T5 T12 KS"), trick)) == {"T12"}
    assert toks(legal_cards(m("T5 T12 KS EX"), trick)) == {"T12", "EX"}


def test_undertrump_ex23():
    # TAROT-EX-23: cannot beat T8, must still trump
    assert toks(legal_cards(m("T3 T6 KS"), trick_of("1:7H", "2:T8"))) == {"T3", "T6"}


def test_trump_lead_no_partner_exception_ex24():
    # TAROT-EX-24 (TAROT-PLAY-4.2, TAROT-PLAY-5): must beat the fellow defender's T14
    trick = trick_of("0:T10", "1:T14")
    assert toks(legal_cards(m("T2 T15 T20 KS"), trick)) == {"T15", "T20"}
    # no higher trump: any trump
    assert toks(legal_cards(m("T2 T9 KS"), trick)) == {"T2", "T9"}
    # no trump at all: any card (TAROT-PLAY-4.4)
    assert toks(legal_cards(m("KS 2H EX"), trick)) == {"KS", "2H", "EX"}


def test_void_in_suit_and_trumps_discards_anything():
    # TAROT-PLAY-4.4
    assert toks(legal_cards(m("KS 2D"), trick_of("0:7H", "1:T3"))) == {"KS", "2D"}


def test_excuse_always_legal():
    # TAROT-EXC-1: EX is legal in every situation, it satisfies no obligation
    for trick in (trick_of("0:7H"), trick_of("0:T10"), trick_of("0:7H", "1:T8")):
        assert legal_cards(m("EX 2H T20"), trick) & (1 << EXCUSE)
    assert toks(legal_cards(m("EX 2H"), trick_of("0:7H"))) == {"EX", "2H"}


def test_excuse_lead_second_card_defines_suit():
    # TAROT-PLAY-3: after an EX lead the next player leads freely; the third follows it
    assert legal_cards(m("KS 2H T3"), trick_of("0:EX")) == m("KS 2H T3")
    assert toks(legal_cards(m("KS 2H T3"), trick_of("0:EX", "1:5H"))) == {"2H"}
    assert toks(legal_cards(m("KS T3 T9"), trick_of("0:EX", "1:T5"))) == {"T9"}


def test_first_lead_restriction_mask():
    # TAROT-CALL-6 (pure form): called suit forbidden at the opening lead except the card
    forb = tarot.first_lead_forbidden(c("KH"))
    assert toks(legal_cards(m("KH 2H 3S"), [], forb)) == {"KH", "3S"}
    assert toks(legal_cards(m("2H 3H"), [], forb)) == {"2H", "3H"}  # nothing else: all
    assert legal_cards(m("2H 3S"), [], tarot.first_lead_forbidden(None)) == m("2H 3S")


# --- trick winner ----------------------------------------------------------------------
def test_trick_winner():
    # TAROT-PLAY-6: highest trump, else highest card of the led suit
    assert trick_winner(trick_of("0:7H", "1:KH", "2:2H", "3:QS")) == 1
    assert trick_winner(trick_of("0:7H", "1:KH", "2:T2", "3:QS")) == 2
    assert trick_winner(trick_of("0:T3", "1:KH", "2:T2", "3:T21")) == 3


def test_excuse_never_wins_ex25():
    # TAROT-EXC-2, TAROT-EX-25: EX, KS, 3S, T2 -> spades led by KS, T2 wins
    trick = trick_of("0:EX", "1:KS", "2:3S", "3:T2")
    assert tarot.led_suit(trick) == 0
    assert trick_winner(trick) == 3
    assert trick_winner(trick_of("0:KS", "1:EX", "2:3S")) == 0
    # TAROT-EXC-6 form: EX wins the last trick for a side that won all the others
    assert trick_winner(trick_of("0:KS", "1:EX", "2:3S"), excuse_wins=True) == 1


# --- counting --------------------------------------------------------------------------
def test_required_points_by_bouts():
    # TAROT-COUNT-2: 56 / 51 / 41 / 36
    for bouts, need in enumerate((56, 51, 41, 36)):
        assert contract_result(need, bouts) == (True, 0)
        assert contract_result(need - 1, bouts) == (False, 1)


def test_half_points_ex21():
    # TAROT-EX-21, TAROT-COUNT-4: the half point goes to the side that wins the deal
    assert contract_result(Fraction(81, 2), 2) == (False, 1)
    assert contract_result(41.5, 2) == (True, 1)
    assert contract_result(Fraction(101, 2), 1) == (False, 1)
    with pytest.raises(AtoutError):
        contract_result(41.25, 2)


def test_defence_has_the_rest():
    # TAROT-COUNT-3: the defence has 91 - P
    pile = m("KH QS T21 T5 3C EX")
    assert pile_points2(pile) + pile_points2(FULL_DECK & ~pile) == 182


def test_excuse_owed_at_counting():
    # TAROT-EXC-4: an unsettled exchange -> EX counts 4 for its owner, 0.5 for the other
    attack = FULL_DECK & ~(1 << EXCUSE)
    assert count_piles(attack, excuse_owed=0) == (173 + 1, 2)
    assert count_piles(1 << EXCUSE, excuse_owed=1) == (8, 1)


# --- scoring vectors (TAROT-EX-1 .. TAROT-EX-12) -----------------------------------------
def test_ex1_garde_sans_with_poignee():
    # TAROT-EX-1 (TAROT-SCORE-1, TAROT-SCORE-4, TAROT-SCORE-6 4p)
    assert deal_value("garde_sans", 53, 2, poignee=20) == 168
    assert score_deal(4, "garde_sans", 53, 2, poignee=20) == [504, -168, -168, -168]


def test_ex2_failed_with_petit_au_bout_lost():
    # TAROT-EX-2 (TAROT-SCORE-3: PB x M, sign independent of the contract)
    assert deal_value("garde", 38, 2, petit_au_bout=-1) == -76
    assert score_deal(4, "garde", 38, 2, petit_au_bout=-1) == [-228, 76, 76, 76]


def test_ex3_three_players_garde_contre_half_point():
    # TAROT-EX-3 (3p distribution, the defender's poignée goes to the defence)
    assert deal_value("garde_contre", 50.5, 1, poignee=20) == -176
    assert score_deal(3, "garde_contre", Fraction(101, 2), 1, poignee=20) == [-352, 176, 176]


def test_ex4_five_players_with_partner():
    # TAROT-EX-4 (TAROT-SCORE-6 5p with partner)
    assert deal_value("garde", 45, 2, petit_au_bout=1) == 78
    assert score_deal(5, "garde", 45, 2, taker=0, partner=1, petit_au_bout=1) == \
        [156, 78, -78, -78, -78]


def test_ex5_five_players_alone_made_exactly():
    # TAROT-EX-5 (taker alone: +4T; E = 0 is made with margin 0)
    assert deal_value("prise", 36, 3) == 25
    assert score_deal(5, "prise", 36, 3, taker=0, partner=None) == [100, -25, -25, -25, -25]


def test_ex6_announced_chelem_made():
    # TAROT-EX-6 (TAROT-SCORE-5 announced and made: +400)
    assert deal_value("garde", 91, 3, petit_au_bout=1, chelem_announced=True,
                      attack_all_tricks=True) == 580
    assert score_deal(4, "garde", 91, 3, petit_au_bout=1, chelem_announced=True,
                      attack_all_tricks=True) == [1740, -580, -580, -580]


def test_ex7_unannounced_chelem():
    # TAROT-EX-7 (not announced, attack wins all tricks: +200)
    assert deal_value("prise", 87, 2, attack_all_tricks=True) == 271
    assert score_deal(4, "prise", 87, 2, attack_all_tricks=True) == [813, -271, -271, -271]


def test_ex8_announced_chelem_failed():
    # TAROT-EX-8 (TAROT-SCORE-2: T may have the opposite sign; no clamping)
    assert deal_value("garde", 70, 3, chelem_announced=True) == -82
    assert score_deal(4, "garde", 70, 3, chelem_announced=True) == [-246, 82, 82, 82]


def test_ex9_defender_poignee_goes_to_winner():
    # TAROT-EX-9 (TAROT-ANN-6: the bonus goes to the side winning the deal)
    assert score_deal(4, "garde", 46, 2, poignee=30) == [270, -90, -90, -90]


def test_ex10_rounding():
    # TAROT-EX-10 (TAROT-SCORE-8)
    assert score_deal(4, "garde_sans", 53, 2, poignee=20,
                      options={"rounding": "nearest_10"}) == [510, -170, -170, -170]


def test_ex11_garde_contre_multiplier():
    # TAROT-EX-11 (TAROT-BID-2 option garde_contre_multiplier)
    assert deal_value("garde_contre", 61, 1) == 210
    assert deal_value("garde_contre", 61, 1, options={"garde_contre_multiplier": 8}) == 280
    assert score_deal(4, "garde_contre", 61, 1, options={"garde_contre_multiplier": 8}) == \
        [840, -280, -280, -280]


def test_ex12_misere_part():
    # TAROT-EX-12 (TAROT-ANN-9): +30 / -10 / -10 / -10, added to the deal's scores
    assert tarot.misere_scores(4, [2]) == [-10, -10, 30, -10]
    base = score_deal(4, "garde", 46, 2, options={"misere": "on"})
    with_m = score_deal(4, "garde", 46, 2, misere=[2], options={"misere": "on"})
    assert [a - b for a, b in zip(with_m, base, strict=True)] == [-10, -10, 30, -10]
    assert sum(with_m) == 0
    assert tarot.misere_scores(4, [2], value=20) == [-20, -20, 60, -20]


def test_bad_scoring_inputs():
    for kw in ({"contract": "pousse"}, {"petit_au_bout": 10}, {"bouts": 4}):
        args = {"contract": "garde", "points": 50, "bouts": 2} | kw
        with pytest.raises(AtoutError):
            deal_value(**args, options={"scoring": "fixed_base"})


def test_chelem_term_table():
    # TAROT-SCORE-5: first matching row
    assert tarot.chelem_term(True, True, False) == 400
    assert tarot.chelem_term(True, False, False) == -200
    assert tarot.chelem_term(True, False, True) == -200
    assert tarot.chelem_term(False, True, False) == 200
    assert tarot.chelem_term(False, False, True) == -200
    assert tarot.chelem_term(False, False, False) == 0


def test_distribution_tables_and_zero_sum():
    # TAROT-SCORE-6 and TAROT-SCORE-7
    assert distribute(10, 3, taker=1) == [-10, 20, -10]
    assert distribute(10, 4, taker=2) == [-10, -10, 30, -10]
    assert distribute(10, 5, taker=3, partner=0) == [10, -10, -10, 20, -10]
    assert distribute(10, 5, taker=3, partner=None) == [-10, -10, -10, 40, -10]
    assert distribute(-7, 5, taker=3, partner=3) == [7, 7, 7, -28, 7]


def test_rounding_rule():
    # TAROT-SCORE-8: defenders (and a 5p partner) rounded, 5 away from zero, taker balance
    assert distribute(165, 4, 0, rounding="nearest_10") == [510, -170, -170, -170]
    assert distribute(-165, 4, 0, rounding="nearest_10") == [-510, 170, 170, 170]
    assert distribute(164, 4, 0, rounding="nearest_10") == [480, -160, -160, -160]
    assert distribute(78, 5, 0, partner=1, rounding="nearest_10") == [160, 80, -80, -80, -80]
    assert distribute(-25, 3, 2, rounding="nearest_10") == [30, 30, -60]


def test_fixed_base_variant():
    # TAROT-VAR-2: T = sign(B_c + m) + PB + sign H + C, no multiplier
    fb = {"scoring": "fixed_base"}
    assert deal_value("garde", 45, 2, petit_au_bout=1, options=fb) == 40 + 4 + 10
    assert deal_value("prise", 38, 2, petit_au_bout=-1, poignee=20, options=fb) == \
        -(10 + 3) - 10 - 20
    assert deal_value("garde_contre", 61, 1, options=fb | {"garde_contre_multiplier": 8}) \
        == 160 + 10
    assert deal_value("garde_sans", 91, 3, chelem_announced=True, attack_all_tricks=True,
                      options=fb) == 80 + 55 + 400


def test_options_validation():
    # unknown options and values raise OptionError naming the option (TAROT-GEN-1)
    with pytest.raises(OptionError, match=r"option players: 9 is not one of 3, 4, 5"):
        tarot.resolve_options({"players": 9})
    with pytest.raises(OptionError, match="pousse"):
        tarot.resolve_options({"pousse": True})
    with pytest.raises(OptionError, match="poignee_bonuses"):
        tarot.resolve_options({"poignee_bonuses": [10, 20, 30]})
    assert tarot.resolve_options({"poignee_bonuses": [20, 40, 60]})["poignee_bonuses"] == \
        (20, 40, 60)
    assert tarot.resolve_options({"misere": "on", "rounding": "nearest_10"})["misere"] == "on"


def test_out_of_scope_variants_rejected():
    # TAROT-VAR-1: pousse / petit chelem are not supported (no such bid or token)
    with pytest.raises(AtoutError):
        tarot.parse_move("pousse")
    with pytest.raises(AtoutError):
        tarot.parse_move("petit_chelem")
    assert tarot.CONTRACTS == ("prise", "garde", "garde_sans", "garde_contre")
