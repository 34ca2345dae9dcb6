"""Belote classique rules (docs/rules/belote.md): every BELOTE-* rule and example."""

import random

import pytest

from solver.errors import DealError, IllegalMoveError, NotationError, OptionError
from solver.games import belote, state_from_record
from solver.games.base import Move
from solver.games.belote_common import (
    DECK,
    SA,
    TA,
    Announce,
    announce_winner,
    available_announces,
    belote_suits,
    card_points,
    legal_cards,
    trick_points,
    trick_winner,
)
from solver.notation import Deal

S, H, D, C = range(4)


def m(text):
    """Mask of a hand written in tokens."""
    return DECK.mask(DECK.parse_cards(text))


def cs(text):
    return DECK.parse_cards(text)


def toks(mask):
    return set(DECK.format_cards(mask).split())


def trick(*pairs):
    """trick((0, 'KS'), (1, '8H')) -> [(0, card), (1, card)]."""
    return [(s, DECK.card(t)) for s, t in pairs]


def opts(**kw):
    return {**{k: o.default for k, o in belote.OPTIONS.items()}, **kw}


# --- BELOTE-EX-10: the complete deal ------------------------------------------------

EX10_HANDS = ["JH 9H AH KH QH AS TS 7D", "TH 8H KS QS 9S AD KD 7C",
              "7H AC TC KC JS 8S TD 9D", "7S 8D JD QD 8C 9C JC QC"]
EX10_TRICKS = [  # leader, cards, winner, points
    (0, "JH 8H 7H 7S", 0, 20), (0, "9H TH 8S 8C", 0, 24), (0, "AS 9S JS 9C", 0, 13),
    (0, "TS QS 9D JC", 0, 15), (0, "7D AD TD QD", 1, 24), (1, "KS KC 8D QH", 0, 11),
    (0, "KH 7C TC JD", 0, 16), (0, "AH KD AC QC", 0, 29)]


def ex10_deal():
    """A 5-card deal + turned QH + stock that completes into the EX-10 hands when seat 0
    (eldest, dealer 3) takes in round 1 (BELOTE-DEAL-2: taker 2 cards, others 3)."""
    hands = [cs("JH 9H AH KH AS"), cs("TH 8H KS QS 9S"), cs("7H AC TC KC JS"),
             cs("7S 8D JD QD 8C")]
    stock = cs("TS 7D") + cs("AD KD 7C") + cs("8S TD 9D") + cs("9C JC QC")
    return Deal(hands, {"turned": cs("QH"), "stock": stock})


def test_ex10_complete_deal_exact():
    """BELOTE-EX-10 exact; BELOTE-DEAL-2, BELOTE-BR-1, BELOTE-SCORE-1, BELOTE-SCORE-3,
    BELOTE-PLAY-6."""
    st = belote.new_state(dealer=3, deal=ex10_deal())
    assert st.to_act == 0 and st.phase == "bid"
    st.play("take")
    assert st.phase == "play" and st.strain == H and st.taker == 0 and st.attack == 0
    assert [toks(h) for h in st.hands] == [set(h.split()) for h in EX10_HANDS]
    points_so_far = [0, 0]
    for i, (leader, cards, winner, pts) in enumerate(EX10_TRICKS):
        assert st.leader == leader and st.to_act == leader
        for tok in cards.split():
            st.play(tok)
        t, w = st.tricks[i]
        assert w == winner
        assert trick_points(t, H) == pts
        points_so_far[winner % 2] += pts
        assert st.points == points_so_far
    # "belote" with QH in trick 6, "rebelote" with KH in trick 7.
    assert st.belote_said == [(0, H)]
    assert st.is_over()
    assert st.result["cards"] == [138, 24] and sum(st.result["cards"]) == 162
    assert st.result["totals"] == [158, 24] and st.result["outcome"] == "made"
    assert st.scores() == [158, 24, 158, 24]


def test_ex10_via_from_play_matches():
    """BELOTE-EX-10 again from the analysis constructor (same play, same result)."""
    st = belote.BeloteState.from_play([m(h) for h in EX10_HANDS], H, 0, dealer=3)
    assert st.leader == 0
    for _, cards, _, _ in EX10_TRICKS:
        for tok in cards.split():
            st.play(tok)
    assert st.scores() == [158, 24, 158, 24]
    with pytest.raises(DealError):
        st.to_record()


def test_ex10_record_round_trip_and_replay():
    st = belote.new_state(dealer=3, deal=ex10_deal())
    st.play("take")
    for _, cards, _, _ in EX10_TRICKS:
        for tok in cards.split():
            st.play(tok)
    rec = st.to_record()
    again = state_from_record(type(rec).from_text(rec.to_text()))
    assert again.scores() == st.scores()
    assert again.to_record().to_text() == rec.to_text()
    assert "turned: QH" in rec.to_text() and "stock: TS 7D AD" in rec.to_text()


# --- section 1-2: general, cards ------------------------------------------------------

def test_gen_teams_and_attack():
    """BELOTE-GEN-1 (teams {0,2} v {1,3}, eldest = dealer + 1) and BELOTE-GEN-2 (attack =
    taker's team)."""
    for dealer in range(4):
        st = belote.new_state(dealer=dealer, seed=dealer)
        assert st.to_act == (dealer + 1) % 4
        st.play("pass")
        st.play("take")
        taker = (dealer + 2) % 4
        assert st.taker == taker and st.attack == taker % 2
        rng = random.Random(dealer)
        while not st.is_over():
            st.play_random(rng)
        s = st.scores()
        assert s[0] == s[2] and s[1] == s[3]


def test_card_deck_and_values():
    """BELOTE-CARD-1 (32 cards), BELOTE-CARD-2 (values), BELOTE-CARD-3 (152, 162)."""
    assert DECK.size == 32
    assert [card_points(DECK.card(r + "H"), H) for r in "J9ATKQ87"] == [20, 14, 11, 10, 4, 3, 0, 0]
    assert [card_points(DECK.card(r + "S"), H) for r in "ATKQJ987"] == [11, 10, 4, 3, 2, 0, 0, 0]
    for trump in range(4):
        assert sum(card_points(c, trump) for c in range(32)) == 152
    st = belote.new_state(seed=5)
    st.play("take")
    rng = random.Random(1)
    while not st.is_over():
        st.play_random(rng)
    if 8 not in st.tricks_won:
        assert sum(st.result["cards"]) == 162


def test_card_trump_beats_and_offsuit_never_wins():
    """BELOTE-CARD-4: any trump beats any non-trump; an off-suit non-trump never wins."""
    assert trick_winner(trick((0, "AS"), (1, "7H")), H) == 1
    assert trick_winner(trick((0, "7S"), (1, "AD"), (2, "AC"), (3, "8S")), H) == 3
    assert trick_winner(trick((0, "7S"), (1, "JS")), H) == 1  # plain order: J over 7


def test_card_natural_order_for_sequences():
    """BELOTE-CARD-5: sequences use A K Q J T 9 8 7 even in trumps (J-T-9 of trumps is a
    tierce although J and 9 are the two top trumps)."""
    found = available_announces(m("JH TH 9H 7S 8D AC QC KC"), 0, 0, False)
    kinds = {(k, DECK.token(i) if k != "carre" else i) for k, i, _, _ in found}
    assert ("tierce", "JH") in kinds and ("tierce", "AC") in kinds
    assert not available_announces(m("JH 9H 7H 7S 8D AC QC TC"), 0, 0, False)


# --- section 3: deal ------------------------------------------------------------------

def test_deal_shape_and_completion():
    """BELOTE-DEAL-1 (5 cards, turned card, 11 left), BELOTE-DEAL-2 (taker turned + 2,
    others 3, in seat order from the eldest), BELOTE-DEAL-3 (uniform permutation: a seed
    gives one deal; the stock is dealt in order)."""
    st = belote.new_state(dealer=2, seed=42)
    rec = st.to_record()
    assert [len(h) for h in rec.deal.hands] == [5, 5, 5, 5]
    assert len(rec.deal.extras["turned"]) == 1 and len(rec.deal.extras["stock"]) == 11
    assert belote.new_state(dealer=2, seed=42).to_record().to_text() == rec.to_text()
    assert belote.new_state(dealer=2, seed=43).to_record().to_text() != rec.to_text()
    stock = rec.deal.extras["stock"]
    st.play("pass")  # seat 3
    st.play("take")  # seat 0 takes
    expect = [set(h) for h in rec.deal.hands]
    expect[3] |= set(stock[0:3])  # eldest seat 3
    expect[0] |= set(stock[3:5]) | set(rec.deal.extras["turned"])  # taker: 2 + turned
    expect[1] |= set(stock[5:8])
    expect[2] |= set(stock[8:11])
    assert [set(DECK.cards(h)) for h in st.hands] == expect


def test_deal_uniform_permutation_statistics():
    """BELOTE-DEAL-3: over many seeds each card is the turned card about equally often."""
    counts = [0] * 32
    n = 6400
    for seed in range(n):
        counts[belote.new_state(seed=seed).turned] += 1
    expected = n / 32
    chi2 = sum((c - expected) ** 2 / expected for c in counts)
    assert chi2 < 70  # 31 degrees of freedom; p ~ 1e-4


def test_deal_errors():
    with pytest.raises(DealError):
        belote.new_state(deal=Deal([cs("7S 8S")] * 1))
    d = ex10_deal()
    d.extras["stock"] = d.extras["stock"][:10]
    with pytest.raises(DealError, match="stock"):
        belote.new_state(deal=d)
    with pytest.raises(OptionError):
        belote.new_state(options={"litige": "maybe"})


def test_next_dealer_rotation_and_annulled():
    """BELOTE-DEAL-4 and BELOTE-BID-3: the eldest deals next, also after an annulled deal;
    an annulled deal scores nothing."""
    match = belote.BeloteMatch(dealer=1, seed=3)
    st = match.new_deal()
    for _ in range(8):
        st.play("pass")
    assert st.is_over() and st.annulled and st.scores() == [0, 0, 0, 0]
    assert match.record(st) == [0, 0]
    assert match.dealer == 2 and match.totals == [0, 0]
    st = match.new_deal()
    assert st.dealer == 2


# --- section 4: taking ---------------------------------------------------------------

def test_bid_round_one():
    """BELOTE-BID-1: eldest to dealer, take or pass; the first taker ends it (trump = turned
    suit). BELOTE-BID-5: no bid value, only take/pass."""
    st = belote.new_state(dealer=0, seed=7)
    assert set(map(st.move_token, st.legal_moves())) == {"pass", "take"}
    assert st.to_act == 1
    st.play("pass")
    assert st.to_act == 2
    st.play("take")
    assert st.phase == "play" and st.taker == 2 and st.strain == st.turned >> 3
    with pytest.raises(IllegalMoveError):
        belote.new_state(dealer=0, seed=7).play("take:S")


def test_bid_round_two_and_turned_card_to_taker():
    """BELOTE-BID-2: round 2 names another suit than the turned card's; BELOTE-BID-4: the
    taker still receives the turned card; turned card, taker and trump are public."""
    st = belote.new_state(dealer=3, seed=11)
    turned_suit = st.turned >> 3
    for _ in range(4):
        st.play("pass")
    legal = set(map(st.move_token, st.legal_moves()))
    assert legal == {"pass"} | {f"take:{x}" for i, x in enumerate("SHDC") if i != turned_suit}
    other = next(i for i in range(4) if i != turned_suit)
    st.play("pass")  # seat 0
    st.play(f"take:{'SHDC'[other]}")  # seat 1
    assert st.strain == other and st.taker == 1
    assert st.hands[1] >> st.turned & 1
    obs = st.observation(2)
    assert obs["turned"] == DECK.token(st.turned) and obs["taker"] == 1
    assert obs["strain"] == "SHDC"[other]


def test_bid_all_pass_twice_annulled():
    """BELOTE-BID-3."""
    st = belote.new_state(seed=2)
    for _ in range(7):
        st.play("pass")
    assert not st.is_over()
    st.play("pass")
    assert st.is_over() and st.annulled and st.legal_moves() == []


def test_bid_second_round_ta_sa_option():
    """BELOTE-BID-6: option second_round_ta_sa adds TA and SA in round 2, with the Coinche
    card tables and play rules."""
    st = belote.new_state(seed=4, options={"second_round_ta_sa": True})
    for _ in range(4):
        st.play("pass")
    assert {"take:TA", "take:SA"} <= set(map(st.move_token, st.legal_moves()))
    st.play("take:TA")
    assert st.strain == TA
    rng = random.Random(0)
    while not st.is_over():
        st.play_random(rng)
    assert sum(st.result["cards"]) in (162, 252)
    st2 = belote.new_state(seed=4)
    for _ in range(4):
        st2.play("pass")
    assert "take:TA" not in set(map(st2.move_token, st2.legal_moves()))


def _seed_with_turned_jack():
    for seed in range(1000):
        st = belote.new_state(seed=seed, options={"turned_jack_forces_dealer": True})
        if st.turned & 7 == 4:
            return seed
    raise AssertionError


def test_bid_turned_jack_forces_dealer():
    """BELOTE-BID-7."""
    seed = _seed_with_turned_jack()
    st = belote.new_state(seed=seed, options={"turned_jack_forces_dealer": True})
    for _ in range(3):
        st.play("pass")
    assert [st.move_token(x) for x in st.legal_moves()] == ["take"]
    st2 = belote.new_state(seed=seed)
    for _ in range(3):
        st2.play("pass")
    assert "pass" in map(st2.move_token, st2.legal_moves())


# --- section 5: play -----------------------------------------------------------------

def test_play_first_lead_option():
    """BELOTE-PLAY-1: eldest leads trick 1; first_lead=dealer: the dealer leads. The trick
    winner leads the next (COMMON-TRICK-2)."""
    for first, lead in (("eldest", 1), ("dealer", 0)):
        st = belote.new_state(dealer=0, seed=9, options={"first_lead": first})
        st.play("take")
        assert st.leader == lead and st.to_act == lead
        for _ in range(4):
            st.play(st.legal_moves()[0])
        assert st.to_act == st.tricks[0][1]


def test_play_lead_any_card():
    """BELOTE-PLAY-2: the leader may lead any card."""
    hand = m("JH 7S 8D AC")
    assert legal_cards(hand, [], H) == hand


def test_ex1_must_overtrump():
    """BELOTE-EX-1, BELOTE-PLAY-3 (void, opponent trumped: overtrump)."""
    t = trick((0, "KS"), (1, "8H"))
    assert toks(legal_cards(m("7H AH QD"), t, H)) == {"AH"}


def test_ex2_undertrump():
    """BELOTE-EX-2, BELOTE-PLAY-4 (undertrump required, option false)."""
    t = trick((0, "KS"), (1, "8H"))
    assert toks(legal_cards(m("7H QD"), t, H)) == {"7H"}
    assert toks(legal_cards(m("7H QD"), t, H, undertrump_required=False)) == {"7H", "QD"}


def test_ex3_partner_master():
    """BELOTE-EX-3, BELOTE-PLAY-3 (partner master: any card)."""
    t = trick((0, "AS"), (1, "7S"))
    assert toks(legal_cards(m("7H 9H QD"), t, H)) == {"7H", "9H", "QD"}


def test_ex4_trump_lead_must_overtake():
    """BELOTE-EX-4, BELOTE-PLAY-3 (trump led: beat every trump if possible)."""
    assert toks(legal_cards(m("9H 7H QD"), trick((0, "TH"), (1, "KH")), H)) == {"9H"}
    assert toks(legal_cards(m("9H 7H QD"), trick((0, "TH"), (1, "JH")), H)) == {"9H", "7H"}
    # even when the partner is master
    assert toks(legal_cards(m("9H 7H QD"), trick((1, "7H"), (2, "KH"), (3, "8H")), H)) == {"9H"}


def test_play3_other_cases():
    """BELOTE-PLAY-3: follow suit (any card of it); void and trick not trumped: any trump;
    void without trumps: any card; void in trumps when trumps led: any card."""
    assert toks(legal_cards(m("7S AS JH"), trick((1, "KS")), H)) == {"7S", "AS"}
    assert toks(legal_cards(m("7H JH QD"), trick((1, "KS")), H)) == {"7H", "JH"}
    assert toks(legal_cards(m("7C QD"), trick((1, "KS")), H)) == {"7C", "QD"}
    assert toks(legal_cards(m("7C QD"), trick((1, "KH")), H)) == {"7C", "QD"}
    # partner master by a trump: free discard, any trump (no overtrump obligation)
    t = trick((3, "KS"), (0, "JH"), (1, "AS"))
    assert toks(legal_cards(m("7H QD"), t, H)) == {"7H", "QD"}


def test_ex5_trick_winner():
    """BELOTE-EX-5, BELOTE-PLAY-5."""
    assert trick_winner(trick((0, "QS"), (1, "AS"), (2, "7H"), (3, "TS")), H) == 2
    t = trick((0, "QS"), (1, "AS"), (2, "KD"), (3, "TS"))
    assert trick_winner(t, H) == 1 and trick_points(t, H) == 28


def test_play6_card_points_per_team():
    """BELOTE-PLAY-6: card points are summed per team over its tricks."""
    st = belote.new_state(seed=21)
    st.play("take")
    rng = random.Random(2)
    while not st.is_over():
        st.play_random(rng)
    per_team = [0, 0]
    for t, w in st.tricks:
        per_team[w % 2] += trick_points(t, st.strain)
    assert per_team == st.points


# --- section 6: belote-rebelote ---------------------------------------------------------

def test_br_public_when_first_card_played():
    """BELOTE-BR-1/2: automatic, public from the first of K/Q."""
    st = belote.BeloteState.from_play([m(h) for h in EX10_HANDS], H, 0, dealer=3)
    for tok in "JH 8H 7H 7S 9H TH 8S 8C AS 9S JS 9C TS QS 9D JC 7D AD TD QD KS KC 8D".split():
        st.play(tok)
    assert st.observation(1)["belotes"] == []
    st.play("QH")
    obs = st.observation(1)
    assert obs["belotes"] == [{"seat": 0, "suit": "H", "cards": "KH QH"}]


def test_br_optional():
    """BELOTE-BR-2 option belote_optional: silent play forgoes the 20 points."""
    hands = [m(h) for h in EX10_HANDS]
    plays = [c for _, cards, _, _ in EX10_TRICKS for c in cards.split()]
    results = {}
    for declare in (True, False):
        st = belote.BeloteState.from_play(hands, H, 0, dealer=3,
                                          options={"belote_optional": True})
        for tok in plays:
            if tok == "QH":
                assert {"QH", "belote:QH"} <= set(map(st.move_token, st.legal_moves()))
                tok = "belote:QH" if declare else "QH"
            st.play(tok)
        results[declare] = st.scores()[0]
    assert results == {True: 158, False: 138}


def test_br_kept_whatever_the_result():
    """BELOTE-BR-3: belote counts for the contract and is always kept: failed (BELOTE-EX-23)
    and litige (BELOTE-EX-28: 71 + 20 = 91 v 91 -> attack 20 now, 71 in reserve)."""
    o = opts()
    r = belote.score_deal(0, [70, 92], [20, 0], None, 0, None, o)  # EX-23
    assert r["outcome"] == "failed" and r["written"] == [20, 162]
    r = belote.score_deal(0, [71, 91], [20, 0], None, 0, None, o)  # EX-28
    assert r["outcome"] == "litige" and r["written"] == [20, 91] and r["reserve"] == 71


def test_br_only_trump_king_queen():
    """BELOTE-BR-4: only trump K+Q; in TA each suit (COINCHE-ANN-3); SA none."""
    hand = m("KH QH KS QS 7D 8D 9D 7C")
    assert belote_suits(hand, H) == [H]
    assert belote_suits(hand, D) == []
    assert belote_suits(hand, TA) == [S, H]
    assert belote_suits(hand, SA) == []


# --- section 7: scoring -------------------------------------------------------------------

@pytest.mark.parametrize("ex,cards,belote_,ann,expect", [
    ("BELOTE-EX-20", [95, 67], [20, 0], (None, 0), ("made", [115, 67])),
    ("BELOTE-EX-21", [72, 90], [20, 0], (None, 0), ("made", [92, 90])),
    ("BELOTE-EX-22", [80, 82], [0, 20], (None, 0), ("failed", [0, 182])),
    ("BELOTE-EX-23", [70, 92], [20, 0], (None, 0), ("failed", [20, 162])),
    ("BELOTE-EX-24", [81, 81], [0, 0], (None, 0), ("litige", [0, 81])),
    ("BELOTE-EX-25", [252, 0], [20, 0], (None, 0), ("made", [272, 0])),
    ("BELOTE-EX-26", [90, 72], [0, 0], (1, 70), ("failed", [0, 232])),
    ("BELOTE-EX-27", [60, 102], [0, 0], (0, 200), ("made", [260, 102])),
])
def test_scoring_examples(ex, cards, belote_, ann, expect):
    """BELOTE-EX-20 to BELOTE-EX-27 exact (attack = team A): BELOTE-SCORE-2 (totals),
    BELOTE-SCORE-3 (made: each its total), BELOTE-SCORE-4 (capot 252), BELOTE-SCORE-5
    (failed: 162 + all announces + belote), BELOTE-SCORE-6 (litige), BELOTE-ANN-8."""
    capot = 0 if cards == [252, 0] else None
    r = belote.score_deal(0, cards, belote_, ann[0], ann[1], capot, opts())
    assert (r["outcome"], r["written"]) == expect
    if ex == "BELOTE-EX-24":
        assert r["reserve"] == 81


def test_ex26_announce_comparison_gives_defence():
    """BELOTE-EX-26: attack tierce 20 v defence quarte 50 + tierce 20 -> defence 70."""
    a = [Announce(0, "tierce", DECK.card("KS"), m("KS QS JS"), 20),
         Announce(1, "quarte", DECK.card("AD"), m("AD KD QD JD"), 50),
         Announce(3, "tierce", DECK.card("TC"), m("TC 9C 8C"), 20)]
    assert announce_winner(a, H, 0) == (1, 70)


def test_score_capot_points_option():
    """BELOTE-SCORE-4: capot 252, option 250; a defence capot scores it too (SCORE-5)."""
    r = belote.score_deal(0, [0, 252], [0, 0], None, 0, 1, opts())
    assert r["written"] == [0, 252]
    r = belote.score_deal(0, [0, 250], [0, 0], None, 0, 1, opts(capot_points=250))
    assert r["written"] == [0, 250]
    r = belote.score_deal(1, [250, 0], [0, 0], None, 0, 0, opts(capot_points=250))
    assert r["written"] == [250, 0]


def test_score_capot_from_play():
    """BELOTE-SCORE-4 in a played deal: taking all 8 tricks gives capot_points."""
    hands = [m("JH 9H AH TH KH QH 8H 7H"), m("AS TS KS QS JS 9S 8S 7S"),
             m("AD TD KD QD JD 9D 8D 7D"), m("AC TC KC QC JC 9C 8C 7C")]
    for cp in (252, 250):
        st = belote.BeloteState.from_play(hands, H, 0, dealer=3, options={"capot_points": cp})
        rng = random.Random(0)
        while not st.is_over():
            st.play_random(rng)
        assert st.tricks_won == [8, 0]
        assert st.result["cards"] == [cp, 0]
        assert st.scores()[0] == cp + 20


def test_litige_taker_fails_option():
    """BELOTE-SCORE-6 option litige=taker_fails: a tie is a failure; BELOTE-EX-29 last line."""
    r = belote.score_deal(0, [81, 81], [0, 0], None, 0, None, opts(litige="taker_fails"))
    assert r["outcome"] == "failed" and r["written"] == [0, 162]


def test_score_rounding_option():
    """BELOTE-SCORE-8: nearest 10, 5 up; contract evaluated on exact values."""
    r = belote.score_deal(0, [85, 77], [0, 0], None, 0, None, opts(round_scores="nearest_10"))
    assert r["written"] == [90, 80] and r["exact"] == [85, 77]
    r = belote.score_deal(0, [84, 78], [0, 0], None, 0, None, opts(round_scores="nearest_10"))
    assert r["written"] == [80, 80] and r["outcome"] == "made"


class _FakeDeal:
    """A finished deal with given result, for match bookkeeping tests."""

    def __init__(self, dealer, result):
        self.dealer, self.result = dealer, result

    def is_over(self):
        return True

    def scores(self):
        w = self.result["written"]
        return [w[0], w[1], w[0], w[1]]

    def to_record(self):
        return None


def test_ex29_litige_reserve_to_next_winner_and_cumulative():
    """BELOTE-EX-29 (continues BELOTE-EX-24), BELOTE-SCORE-6, BELOTE-SCORE-7: the reserve goes to the
    winner of the next non-litige deal; totals accumulate, never negative."""
    match = belote.BeloteMatch(dealer=0)
    r1 = belote.score_deal(0, [81, 81], [0, 0], None, 0, None, opts())
    assert match.record(_FakeDeal(0, r1)) == [0, 81]
    assert match.reserve == 81
    r2 = belote.score_deal(1, [62, 100], [0, 0], None, 0, None, opts())  # B takes, makes
    assert match.record(_FakeDeal(1, r2)) == [62, 181]
    assert match.totals == [62, 262] and match.reserve == 0


def test_litige_reserves_accumulate_and_go_to_defence_on_failure():
    """BELOTE-SCORE-6: consecutive litiges accumulate; a failed next deal pays the defence."""
    match = belote.BeloteMatch(dealer=0)
    lit = belote.score_deal(0, [81, 81], [0, 0], None, 0, None, opts())
    match.record(_FakeDeal(0, lit))
    lit2 = belote.score_deal(1, [91, 71], [0, 20], None, 0, None, opts())  # EX-28 mirrored
    assert match.record(_FakeDeal(1, lit2)) == [91, 20]
    assert match.reserve == 81 + 71
    fail = belote.score_deal(0, [60, 102], [0, 0], None, 0, None, opts())
    assert match.record(_FakeDeal(2, fail)) == [0, 162 + 152]


# --- section 8: announces --------------------------------------------------------------

def _ann_state(hands, strain=H, **o):
    return belote.BeloteState.from_play([m(h) for h in hands], strain, 0, dealer=3,
                                        options={"announces": True, **o})


ANN_HANDS = ["AS KS QS TS KH KD KC 7H", "JS JH JD JC 9S 9H 9D 9C",
             "AH QH TH 8H AD QD TD 8D", "8S 7S AC QC TC 8C 7C 7D"]


def test_ann_off_by_default_in_belote():
    """BELOTE-ANN-1: no announces in Belote classique by default; on with the option."""
    st = belote.BeloteState.from_play([m(h) for h in ANN_HANDS], H, 0, dealer=3)
    assert all(x.kind == "card" for x in st.legal_moves())
    st = _ann_state(ANN_HANDS)
    assert {"announce:tierce:AS", "announce:carre:K"} <= set(map(st.move_token,
                                                                 st.legal_moves()))


def test_ann_combinations_and_values():
    """BELOTE-ANN-2: tierce 20, quarte 50, quinte 100 (6+ still one quinte), carrés J 200,
    9 150, A/T/K/Q 100; four 8s/7s nothing. BELOTE-ANN-3: option 50."""
    found = {(k, p) for k, _, _, p in available_announces(m("AS KS QS JS TS 9S 7H 8H"), 0, 0,
                                                          False)}
    assert found == {("quinte", 100)}
    assert {(k, p) for k, _, _, p in available_announces(m("AS KS QS AH KH QH JH 7C"),
                                                         0, 0, False)} == {("tierce", 20),
                                                                          ("quarte", 50)}
    carres = {(k, i, p) for k, i, _, p in available_announces(
        m("JS JH JD JC 9S 9H 9D 9C"), 0, 0, False) if k == "carre"}
    assert carres == {("carre", 4, 200), ("carre", 2, 150)}
    assert available_announces(m("8S 8H 8D 8C 7S 7H 7D 7C"), 0, 0, False) == []
    for rank, value in (("A", 100), ("T", 100), ("K", 100), ("Q", 100)):
        hand = m(" ".join(rank + s for s in "SHDC"))
        assert available_announces(hand, 0, 0, False)[0][3] == value
        assert available_announces(hand, 0, 0, False, 50)[0][3] == 50


def test_ann_card_reuse():
    """BELOTE-ANN-4: default a card may be in one sequence and one carré; exclusive: one
    announce only; a long run is not split."""
    hand = m("KS QS JS KH KD KC 7C 8D")
    default = available_announces(hand, 0, 0, False)
    assert {k for k, _, _, _ in default} == {"tierce", "carre"}
    # after announcing the carré of kings, exclusive leaves no sequence with KS
    carre = next(c for k, _, c, _ in default if k == "carre")
    assert {k for k, _, _, _ in available_announces(hand, 0, carre, True)} == set()
    assert {k for k, _, _, _ in available_announces(hand, 0, carre, False)} == {"tierce"}
    st = _ann_state(["KS QS JS KH KD KC 7C 8D", "AS TS 9S 8S 7S AH TH 9H",
                     "AD TD 9D QD JD AC TC 9C", "7H 8H QH JH QC JC 7D 8C"],
                    announce_card_reuse="exclusive")
    st.play("announce:carre:K")
    assert "announce:tierce:KS" not in map(st.move_token, st.legal_moves())
    run = available_announces(m("AS KS QS JS TS 9S 8S 7S"), 0, 0, False)
    assert [(k, c.bit_count()) for k, _, c, _ in run] == [("quinte", 8)]


def test_ann_timing_and_information():
    """BELOTE-ANN-5: announce during trick 1 before one's own card, any subset, not after;
    others hear only the type; the winning team's cards are shown from trick 2."""
    st = _ann_state(ANN_HANDS)
    st.play("announce:tierce:AS")
    with pytest.raises(IllegalMoveError):
        st.play("announce:tierce:AS")  # not twice
    with pytest.raises(IllegalMoveError):
        st.play("announce:carre:J")  # not held
    st.play("AS")
    st.play("announce:carre:J")  # seat 1
    st.play("announce:carre:9")
    obs0 = st.observation(0)
    assert {a["announce"] for a in obs0["announces"] if a["seat"] == 1} == {"carre:J", "carre:9"}
    assert {a["announce"] for a in obs0["announces"] if a["seat"] == 0} == {"tierce:AS"}
    assert st.observation(2)["announces"][0]["announce"] == "tierce"  # type only
    assert st.observation(2)["shown"] == {}
    st.play("9S")
    st.play("8D")  # seat 2 announces nothing
    st.play("8S")
    assert st.announce_team == 1 and st.announce_points == 350
    assert set(st.observation(0)["shown"][1].split()) == set("JS JH JD JC 9S 9H 9D 9C".split())
    assert list(st.observation(0)["shown"]) == [1]
    assert not any(x.kind == "announce" for x in st.legal_moves())


def test_ann_compare_modes():
    """BELOTE-ANN-6: best_single (the best announce's team scores all of its announces)
    v team_total (higher sum scores; equal sums nobody)."""
    a = [Announce(0, "quinte", DECK.card("AS"), 0, 100),
         Announce(1, "quarte", DECK.card("AD"), 0, 50),
         Announce(3, "quarte", DECK.card("AC"), 0, 50),
         Announce(3, "tierce", DECK.card("AH"), 0, 20)]
    assert announce_winner(a, H, 0) == (0, 100)
    assert announce_winner(a, H, 0, "team_total") == (1, 120)
    assert announce_winner(a[:3], H, 0, "team_total") == (None, 0)


def test_ex30_trump_sequence_wins_tie():
    """BELOTE-EX-30, BELOTE-ANN-7 step 4."""
    a = [Announce(0, "tierce", DECK.card("KS"), 0, 20), Announce(1, "tierce", DECK.card("KH"), 0, 20)]
    assert announce_winner(a, H, 0)[0] == 1
    # in TA / SA no sequence is of trumps: step 5, earlier player (seat 0 leads) wins
    assert announce_winner(a, TA, 0)[0] == 0
    assert announce_winner(a, SA, 1)[0] == 1


def test_ex31_higher_top_card():
    """BELOTE-EX-31: A-top quarte beats J-top quarte."""
    a = [Announce(1, "quarte", DECK.card("JC"), 0, 50), Announce(2, "quarte", DECK.card("AD"), 0, 50)]
    assert announce_winner(a, H, 1)[0] == 0


def test_ex32_carre_beats_sequence_and_carre_order():
    """BELOTE-EX-32: carré beats a sequence of equal value; Tens beat Kings."""
    kings = Announce(3, "carre", 6, 0, 100)
    quinte = Announce(0, "quinte", DECK.card("QS"), 0, 100)
    tens = Announce(0, "carre", 3, 0, 100)
    assert announce_winner([kings, quinte], H, 0)[0] == 1
    assert announce_winner([kings, tens], H, 0)[0] == 0


def test_ann7_order_of_play_and_none_scores():
    """BELOTE-ANN-7 step 5 and option announce_tie=none_scores."""
    a = [Announce(1, "tierce", DECK.card("KS"), 0, 20), Announce(2, "tierce", DECK.card("KD"), 0, 20)]
    assert announce_winner(a, H, 1)[0] == 1  # seat 1 plays first in trick 1
    assert announce_winner(a, H, 2)[0] == 0  # seat 2 leads
    assert announce_winner(a, H, 1, tie="none_scores") == (None, 0)
    higher = [Announce(1, "tierce", DECK.card("AS"), 0, 20), a[1]]
    assert announce_winner(higher, H, 1, tie="none_scores") == (1, 20)


def test_ann8_announces_count_for_contract_in_play():
    """BELOTE-ANN-8: the winning team's announces count in its total; in a failed contract
    they go to the defence (played through a state)."""
    st = _ann_state(ANN_HANDS)
    rng = random.Random(3)
    while not st.is_over():
        moves = st.legal_moves()
        anns = [x for x in moves if x.kind == "announce"]
        st.play(anns[0] if anns else rng.choice(moves))
    r = st.result
    assert st.announce_team == 1  # carré of jacks (200) is the best announce
    ann = [0, st.announce_points]
    assert r["totals"] == [r["cards"][t] + ann[t] + st.belote_points()[t] for t in (0, 1)]
    if r["outcome"] == "failed":
        assert r["written"][1] == (252 if st.tricks_won[1] == 8 else 162) \
            + st.announce_points + st.belote_points()[1]


# --- section 9: game ----------------------------------------------------------------------

def test_game_to_target():
    """BELOTE-GAME-1: deals until a team reaches the target; higher total wins; equal ->
    the team that won the last deal."""
    match = belote.BeloteMatch(seed=5, options={"target": 501})
    winner = match.play_random(seed=5)
    assert max(match.totals) >= 501 and all(sum(s) >= 0 for s in match.deal_scores)
    assert winner == (0 if match.totals[0] > match.totals[1] else 1) or \
        match.totals[0] == match.totals[1]
    assert sum(x for s in match.deal_scores for x in s) == sum(match.totals)
    tie = belote.BeloteMatch(options={"target": 100})
    tie.totals = [300, 300]
    tie.last_winner = 1
    assert tie.winner() == 1


# --- notation and API errors ---------------------------------------------------------------

def test_move_tokens_round_trip():
    st = belote.new_state(seed=1)
    for tok in ["take", "take:H", "take:TA", "pass", "JH", "belote:KH", "announce:tierce:KS",
                "announce:carre:J"]:
        assert st.move_token(st.parse_move(tok)) == tok
    for bad in ["take:X", "bid:80:H", "announce:sixte:KS", "announce:carre:8x", ""]:
        with pytest.raises(NotationError):
            st.parse_move(bad)


def test_illegal_moves_raise():
    st = belote.new_state(seed=1)
    with pytest.raises(IllegalMoveError):
        st.play(Move("card", 0))
    st.play("take")
    card = next(c for c in range(32) if not st.hands[st.to_act] >> c & 1)
    with pytest.raises(IllegalMoveError, match="illegal"):
        st.play(DECK.token(card))


def test_from_play_mid_deal_position():
    """The analysis constructor at a mid-deal position (after trick 4 of BELOTE-EX-10):
    captured points and tricks carry over; the result equals the full deal's."""
    played = " ".join(c for _, cards, _, _ in EX10_TRICKS[:4] for c in cards.split())
    hands = [m(h) & ~m(played) for h in EX10_HANDS]
    st = belote.BeloteState.from_play(hands, H, 0, dealer=3, leader=0, points=(72, 0),
                                      tricks_won=(4, 0))
    assert [h.bit_count() for h in st.hands] == [4] * 4 and st.to_act == 0
    for _, cards, _, _ in EX10_TRICKS[4:]:
        for tok in cards.split():
            st.play(tok)
    assert st.result["cards"] == [138, 24] and st.scores() == [158, 24, 158, 24]
    with pytest.raises(DealError):
        belote.BeloteState.from_play(hands, H, 0, tricks_won=(3, 0))
