"""Coinche rules (docs/rules/coinche.md): every COINCHE-* rule and example."""

import random

import pytest

from solver.errors import DealError, IllegalMoveError, NotationError, OptionError
from solver.games import coinche, state_from_record
from solver.games.belote_common import (
    DECK,
    SA,
    TA,
    Announce,
    announce_winner,
    belote_suits,
    card_points,
    legal_cards,
    trick_points,
    trick_winner,
)
from solver.notation import Deal, Record

S, H, D, C = range(4)


def m(text):
    return DECK.mask(DECK.parse_cards(text))


def toks(mask):
    return set(DECK.format_cards(mask).split())


def trick(*pairs):
    return [(s, DECK.card(t)) for s, t in pairs]


def opts(**kw):
    return {**{k: o.default for k, o in coinche.OPTIONS.items()}, **kw}


def tokens(st):
    return [st.move_token(x) for x in st.legal_moves()]


def score(value, cards, mult=1, belote=(0, 0), ann=(None, 0), capot=None, gen=False,
          attack=0, **o):
    return coinche.score_deal(value, attack, mult, list(cards), capot, gen, list(belote),
                              ann[0], ann[1], opts(**o))


# --- scoring table COINCHE-EX-1..16 ---------------------------------------------------

@pytest.mark.parametrize("ex,kwargs,made,written", [
    ("COINCHE-EX-1", dict(value=100, cards=(112, 50)), True, [212, 50]),
    ("COINCHE-EX-2", dict(value=120, cards=(105, 57), belote=(20, 0)), True, [245, 57]),
    ("COINCHE-EX-3", dict(value=110, cards=(98, 64)), False, [0, 272]),
    ("COINCHE-EX-4", dict(value=90, cards=(102, 60), mult=2), True, [342, 0]),
    ("COINCHE-EX-5", dict(value=130, cards=(120, 42), mult=4), False, [0, 682]),
    ("COINCHE-EX-6", dict(value=80, cards=(81, 81)), False, [0, 242]),
    ("COINCHE-EX-7", dict(value=250, cards=(162, 0), capot=0), True, [412, 0]),
    ("COINCHE-EX-8", dict(value=160, cards=(162, 0), capot=0), True, [412, 0]),
    ("COINCHE-EX-9", dict(value=500, cards=(162, 0), capot=0, gen=True), True, [662, 0]),
    ("COINCHE-EX-10", dict(value=500, cards=(162, 0), capot=0, gen=False), False, [0, 662]),
    ("COINCHE-EX-11", dict(value=100, cards=(85, 77), ann=(0, 50)), True, [235, 77]),
    ("COINCHE-EX-12", dict(value=90, cards=(75, 87), belote=(20, 0)), True, [185, 87]),
    ("COINCHE-EX-13", dict(value=90, cards=(75, 87), belote=(20, 0),
                           bonuses_count_for_contract=False), False, [20, 252]),
    ("COINCHE-EX-14", dict(value=90, cards=(102, 60), mult=2, double_mode="all"), True,
     [504, 0]),
    ("COINCHE-EX-15", dict(value=100, cards=(112, 50), round_scores="nearest_10"), True,
     [210, 50]),
    ("COINCHE-EX-16", dict(value=120, cards=(130, 32), belote=(40, 0)), True, [290, 32]),
])
def test_scoring_examples(ex, kwargs, made, written):
    """COINCHE-EX-1..16 (attack = team A), exact."""
    r = score(**kwargs)
    assert r["made"] is made and r["written"] == written


@pytest.mark.parametrize("attack", [0, 1])
def test_scoring_symmetric_in_teams(attack):
    """COINCHE-SCORE-1, COINCHE-SCORE-2 for either attacking team (EX-1 and EX-3 mirrored)."""
    r = score(100, (50, 112) if attack else (112, 50), attack=attack)
    assert r["written"] == ([50, 212] if attack else [212, 50])
    r = score(110, (64, 98) if attack else (98, 64), attack=attack)
    assert r["written"] == ([272, 0] if attack else [0, 272])


def test_made_rules():
    """COINCHE-MADE-1 (totals incl. belote and announces), COINCHE-MADE-2 (P_A >= V and
    P_A > P_D), COINCHE-MADE-3 (capot: all tricks by the attack; générale: by the taker)."""
    r = score(100, (80, 82), belote=(20, 0), ann=(1, 20))
    assert r["totals"] == [100, 102] and not r["made"]  # 100 >= 100 but not > 102
    assert score(100, (80, 82), belote=(20, 0))["made"]  # 100 >= 100 and 100 > 82
    assert not score(100, (99, 63))["made"]
    assert score(250, (162, 0), capot=0)["made"]
    assert not score(250, (152, 10), capot=None)["made"]
    r = score(250, (152, 10))
    assert r["written"] == [0, 162 + 250]


def test_score_failed_and_announces_and_belote_kept():
    """COINCHE-SCORE-2 (defence base + V + ann + own belote; attack own belote),
    COINCHE-SCORE-6 (belote always kept)."""
    r = score(120, (90, 72), belote=(20, 0), ann=(0, 50))
    assert r["made"] and r["written"] == [120 + 160, 72]
    r = score(140, (90, 72), belote=(20, 20), ann=(0, 20))
    assert not r["made"] and r["written"] == [20, 162 + 140 + 20 + 20]


def test_score_coinched_modes():
    """COINCHE-SCORE-3 (bid_only: W base + m*V + ann + belote; L own belote),
    COINCHE-SCORE-4 (all: m*(base + V + ann) + belote)."""
    r = score(100, (110, 52), mult=2, belote=(0, 20), ann=(0, 20))
    assert r["written"] == [162 + 200 + 20, 20]
    r = score(100, (110, 52), mult=4, belote=(0, 20), ann=(0, 20), double_mode="all")
    assert r["written"] == [4 * (162 + 100 + 20), 20]
    r = score(100, (162, 0), mult=2, capot=0)  # unbid capot: base 252
    assert r["written"] == [252 + 200, 0]


def test_score_capot_modes():
    """COINCHE-SCORE-5: bid_plus_points (V with 162 card points) v fixed (V + ann, times m,
    + belote); COINCHE-CARD-5 (252 only for an unbid capot)."""
    assert score(250, (162, 0), capot=0, belote=(20, 0))["written"] == [250 + 162 + 20, 0]
    r = score(250, (162, 0), capot=0, belote=(20, 0), ann=(0, 50), capot_scoring="fixed")
    assert r["written"] == [250 + 50 + 20, 0]
    r = score(250, (150, 12), mult=2, belote=(20, 0), capot_scoring="fixed")
    assert r["written"] == [20, 2 * 250]
    assert score(160, (162, 0), capot=0)["cards"] == [252, 0]
    assert score(250, (162, 0), capot=0)["cards"] == [162, 0]


def test_score_rounding():
    """COINCHE-SCORE-7: nearest 10 (5 up) on written scores; made on exact values."""
    r = score(80, (85, 77), round_scores="nearest_10")
    assert r["exact"] == [165, 77] and r["written"] == [170, 80]


# --- deal, general ---------------------------------------------------------------------

def test_gen_and_deal_patterns():
    """COINCHE-GEN-1 (teams, eldest first), COINCHE-DEAL-1 (8 each, packets from the
    eldest: 3-2-3 default, 3-3-2, 2-3-3 options; no turned card)."""
    perm = list(range(32))
    h = coinche.deal_hands(perm, 3, "3-2-3")
    assert h[0] == [0, 1, 2, 12, 13, 20, 21, 22] and h[3][:3] == [9, 10, 11]
    h = coinche.deal_hands(perm, 0, "2-3-3")
    assert h[1][:2] == [0, 1] and h[2][:2] == [2, 3]
    h = coinche.deal_hands(perm, 0, "3-3-2")
    assert h[1] == [0, 1, 2, 12, 13, 14, 24, 25]
    for pattern in ("3-2-3", "3-3-2", "2-3-3"):
        st = coinche.new_state(dealer=1, seed=3, options={"deal_pattern": pattern})
        assert [h.bit_count() for h in st.hands] == [8] * 4 and st.to_act == 2
        assert list(st.to_record().deal.extras) == []
    with pytest.raises(OptionError):
        coinche.new_state(options={"deal_pattern": "4-4"})
    with pytest.raises(DealError):
        coinche.new_state(deal=Deal([[0, 1]] * 4))


def test_next_dealer_after_annulled():
    """COINCHE-DEAL-2 and COINCHE-BID-4: four passes annul; the eldest deals next."""
    match = coinche.CoincheMatch(dealer=3, seed=1)
    st = match.new_deal()
    for _ in range(4):
        st.play("pass")
    assert st.is_over() and st.annulled and st.scores() == [0, 0, 0, 0]
    match.record(st)
    assert match.dealer == 0


# --- cards --------------------------------------------------------------------------

def test_card_tables():
    """COINCHE-CARD-1 (strains), COINCHE-CARD-2 (suit: BELOTE-CARD-2), COINCHE-CARD-3 (TA
    J 9 A T K Q 8 7 = 14 9 6 5 3 1 0 0), COINCHE-CARD-4 (SA A T K Q J 9 8 7 = 19 10 4 3 2)."""
    assert [card_points(DECK.card(r + "S"), TA) for r in "J9ATKQ87"] == [14, 9, 6, 5, 3, 1, 0, 0]
    assert [card_points(DECK.card(r + "D"), SA) for r in "ATKQJ987"] == [19, 10, 4, 3, 2, 0, 0, 0]
    for strain in range(6):
        assert sum(card_points(c, strain) for c in range(32)) == 152
    assert card_points(DECK.card("JS"), S) == 20 and card_points(DECK.card("JS"), H) == 2
    st = coinche.new_state(seed=0)
    bids = {t.split(":")[2] for t in tokens(st) if t.startswith("bid:80:")}
    assert bids == {"S", "H", "D", "C", "TA", "SA"}
    st = coinche.new_state(seed=0, options={"allow_ta": False, "allow_sa": False})
    assert {t.split(":")[2] for t in tokens(st) if t.startswith("bid:80:")} == set("SHDC")


def test_ex21_ta_points_and_ex22_sa():
    """COINCHE-EX-21 (TA trick 34 won by JS), COINCHE-EX-22 (SA: AS wins 33; follow)."""
    t = trick((0, "JS"), (1, "9S"), (2, "AS"), (3, "TS"))
    assert trick_points(t, TA) == 34 and trick_winner(t, TA) == 0
    t = trick((0, "KS"), (1, "TS"), (2, "AS"), (3, "9H"))
    assert trick_winner(t, SA) == 2 and trick_points(t, SA) == 33
    assert toks(legal_cards(m("7S QD"), trick((0, "KS")), SA)) == {"7S"}


def test_card5_dix_de_der_every_strain():
    """COINCHE-CARD-5: 162 in every strain (252 for an unbid capot)."""
    for strain in ("S", "TA", "SA"):
        st = coinche.new_state(seed=8, dealer=3)
        st.play(f"bid:80:{strain}")
        for _ in range(3):
            st.play("pass")
        rng = random.Random(8)
        while not st.is_over():
            st.play_random(rng)
        assert sum(st.result["cards"]) in (162, 252)
        if 8 not in st.tricks_won:
            assert sum(st.result["cards"]) == 162


# --- auction ----------------------------------------------------------------------------

def test_auction_order_and_rounds():
    """COINCHE-BID-1: from the eldest in seat order, as many rounds as needed (a player who
    passed may bid later). COINCHE-BID-3: strictly higher values; partner may be overbid."""
    st = coinche.new_state(dealer=3, seed=1)
    assert st.to_act == 0
    st.play("pass")
    st.play("bid:80:C")  # seat 1
    st.play("bid:90:H")  # seat 2
    st.play("pass")  # seat 3
    st.play("bid:100:S")  # seat 0 bids after passing
    with pytest.raises(IllegalMoveError):
        st.play("bid:100:H")  # same value in another strain
    st.play("pass")  # seat 1
    st.play("bid:110:TA")  # seat 2 overbids his partner seat 0
    assert st.contract == (110, TA, 2)


def test_bid_values():
    """COINCHE-BID-2: 80..160 by 10, capot 250, générale 500; options max 180, no générale."""
    assert coinche.bid_values(opts()) == [80, 90, 100, 110, 120, 130, 140, 150, 160, 250, 500]
    assert coinche.bid_values(opts(max_numeric_bid=180))[-4:] == [170, 180, 250, 500]
    assert coinche.bid_values(opts(allow_generale=False))[-1] == 250
    st = coinche.new_state(seed=1)
    st.play("bid:generale:S")
    assert tokens(st) == ["pass", "coinche"]
    with pytest.raises(IllegalMoveError):
        coinche.new_state(seed=1).play("bid:170:S")
    with pytest.raises(IllegalMoveError):
        coinche.new_state(seed=1).play("bid:85:S")


def test_ex24_auction_end():
    """COINCHE-EX-24, COINCHE-BID-4: three passes after a bid end the auction."""
    st = coinche.new_state(dealer=3, seed=2)
    for t in ["pass", "bid:80:C", "pass", "pass"]:
        st.play(t)
    assert st.phase == "bid"
    st.play("pass")
    assert st.phase == "play" and (st.value, st.strain, st.taker, st.multiplier) == (80, C, 1, 1)
    st = coinche.new_state(dealer=3, seed=2)
    for _ in range(4):
        st.play("pass")
    assert st.annulled


def test_ex23_coinche_ends_auction():
    """COINCHE-EX-23, COINCHE-BID-5, COINCHE-BID-6 (default): after a coinche only the contracting team
    may surcoinche or pass, in seat order after the coincher."""
    st = coinche.new_state(dealer=3, seed=4)
    for t in ["bid:80:H", "bid:90:S", "bid:100:H"]:
        st.play(t)
    assert "coinche" in tokens(st)  # seat 3, opponent of the highest bidder
    st.play("coinche")
    assert st.to_act == 0 and tokens(st) == ["pass", "surcoinche"]
    st.play("pass")
    assert st.to_act == 2  # seat 1 (coinching team) is skipped
    st.play("pass")
    assert st.phase == "play" and (st.value, st.strain, st.taker, st.multiplier) == (100, H, 2, 2)
    # surcoinche ends it at once
    st = coinche.new_state(dealer=3, seed=4)
    for t in ["bid:80:H", "bid:90:S", "bid:100:H", "coinche", "surcoinche"]:
        st.play(t)
    assert st.phase == "play" and st.multiplier == 4


def test_ex23_option_higher_bid_cancels_coinche():
    """COINCHE-EX-23 with coinche_ends_auction=false (COINCHE-BID-6 option)."""
    o = {"coinche_ends_auction": False}
    st = coinche.new_state(dealer=3, seed=4, options=o)
    for t in ["bid:80:H", "bid:90:S", "bid:100:H", "coinche"]:
        st.play(t)
    assert "bid:110:H" in tokens(st)
    st.play("bid:110:H")  # seat 0 cancels the coinche
    assert st.multiplier == 1 and "coinche" in tokens(st)
    st.play("coinche")  # seat 1
    st.play("surcoinche")  # seat 2
    assert st.multiplier == 4
    for _ in range(3):
        st.play("pass")
    assert st.phase == "play" and (st.value, st.taker, st.multiplier) == (110, 0, 4)


def test_coinche_and_surcoinche_rights():
    """COINCHE-BID-5: coinche only by the team not holding the bid, once per contract;
    surcoinche only by the contracting team after a coinche."""
    st = coinche.new_state(dealer=3, seed=5)
    assert "coinche" not in tokens(st)  # no bid yet
    st.play("bid:80:S")  # seat 0
    assert "coinche" in tokens(st) and "surcoinche" not in tokens(st)  # seat 1
    st.play("pass")
    assert "coinche" not in tokens(st)  # seat 2 is the bidder's partner
    st = coinche.new_state(dealer=3, seed=5, options={"coinche_ends_auction": False})
    st.play("bid:80:S")
    st.play("coinche")
    assert "coinche" not in tokens(st) and "surcoinche" in tokens(st)  # seat 2
    st.play("pass")
    assert "coinche" not in tokens(st) and "surcoinche" not in tokens(st)  # seat 3


def test_auction_result_public():
    """COINCHE-BID-7: contract value, strain, taker, multiplier; all calls public."""
    st = coinche.new_state(dealer=0, seed=6)
    for t in ["bid:90:SA", "coinche", "pass", "pass"]:
        st.play(t)
    obs = st.observation(2)
    assert obs["calls"] == [(1, "bid:90:SA"), (2, "coinche"), (3, "pass"), (1, "pass")]
    assert obs["contract"] == {"value": 90, "strain": "SA", "seat": 1, "multiplier": 2}
    assert st.phase == "play" and st.strain == SA


# --- play --------------------------------------------------------------------------

def _play_state(bid="bid:80:H", dealer=3, seed=7, **o):
    st = coinche.new_state(dealer=dealer, seed=seed, options=o)
    st.play(bid)
    for _ in range(3):
        st.play("pass")
    return st


def test_play_first_lead_and_suit_rules():
    """COINCHE-PLAY-1 (eldest leads; first_lead option), COINCHE-PLAY-2 (suit contract
    legal moves are BELOTE-PLAY-2..6: a state's legal cards are ``legal_cards``)."""
    st = _play_state(announces=False)
    assert st.to_act == 0 == st.leader
    assert _play_state(first_lead="dealer", announces=False).to_act == 3
    rng = random.Random(0)
    while not st.is_over():
        expect = legal_cards(st.hands[st.to_act], st.trick, H)
        assert {x.value for x in st.legal_moves()} == set(DECK.cards(expect))
        st.play_random(rng)
    assert legal_cards(m("7H AH QD"), trick((0, "KS"), (1, "8H")), H) == m("AH")


def test_ex20_ta_overtake():
    """COINCHE-EX-20, COINCHE-PLAY-3 (and the option ta_must_overtake=false)."""
    hand = m("JS AS 7S KD")
    assert toks(legal_cards(hand, trick((0, "QS"), (1, "9S")), TA)) == {"JS"}
    assert toks(legal_cards(m("AS 7S KD"), trick((0, "QS"), (1, "JS")), TA)) == {"AS", "7S"}
    hand2 = m("9S AS 7S KD")
    assert toks(legal_cards(hand2, trick((0, "QS"), (1, "JS")), TA)) == {"9S", "AS", "7S"}
    assert toks(legal_cards(hand, trick((0, "QS"), (1, "9S")), TA, ta_must_overtake=False)) \
        == {"JS", "AS", "7S"}
    assert toks(legal_cards(m("7H KD"), trick((0, "QS"), (1, "9S")), TA)) == {"7H", "KD"}
    assert trick_winner(trick((0, "QS"), (1, "9S"), (2, "JH"), (3, "7S")), TA) == 1


def test_ex22_sa_follow():
    """COINCHE-PLAY-4: SA follow suit (no obligation to beat), else any card; highest of
    the led suit wins."""
    assert toks(legal_cards(m("7S AS QD"), trick((0, "KS")), SA)) == {"7S", "AS"}
    assert toks(legal_cards(m("7H QD"), trick((0, "KS")), SA)) == {"7H", "QD"}
    assert trick_winner(trick((0, "KS"), (1, "JS"), (2, "AH")), SA) == 0


# --- belote and announces -----------------------------------------------------------------

def test_ann1_on_by_default_and_no_trump_sequences_in_ta_sa():
    """COINCHE-ANN-1: announces on by default; in TA/SA no sequence is of trumps."""
    st = coinche.CoincheState.from_play(
        [m("AS KS QS 7H 8H 9D 7C 8C"), m("AH KH QH 7S 8S 9C TC JC"),
         m("JS TS 9S JH TH 9H AD KD"), m("QD JD TD 8D 7D AC KC QC")],
        H, 0, dealer=3)
    assert "announce:tierce:AS" in tokens(st)
    off = coinche.CoincheState.from_play([st.start_hands[i] for i in range(4)], H, 0,
                                         dealer=3, options={"announces": False})
    assert not any(t.startswith("announce") for t in tokens(off))
    a = [Announce(0, "tierce", DECK.card("AS"), 0, 20), Announce(1, "tierce", DECK.card("AH"), 0, 20)]
    assert announce_winner(a, H, 0)[0] == 1
    assert announce_winner(a, TA, 0)[0] == 0 and announce_winner(a, SA, 0)[0] == 0


def test_ann2_ann3_belote_per_strain():
    """COINCHE-ANN-2 (suit contract: trump K+Q), COINCHE-ANN-3 (TA each suit or none; SA
    never); EX-16 two belotes in TA."""
    hand = m("KS QS KD QD 7H 8H 9C 7C")
    assert belote_suits(hand, S) == [S] and belote_suits(hand, H) == []
    assert belote_suits(hand, TA) == [S, D]
    assert belote_suits(hand, TA, "none") == [] and belote_suits(hand, SA) == []
    hands = [hand, m("AS TS JS AD TD JD AH TH"), m("9S 8S 7S 9D 8D 7D JH 9H"),
             m("QH KH AC TC JC KC QC 8C")]
    for ta_belote, expect in (("each_suit", 40), ("none", 0)):
        st = coinche.CoincheState.from_play(hands, TA, 0, dealer=3, value=120,
                                            options={"ta_belote": ta_belote,
                                                     "announces": False})
        rng = random.Random(1)
        while not st.is_over():
            st.play_random(rng)
        assert st.belote_points()[0] == expect
        assert st.belote_points()[1] == (0 if ta_belote == "none" else 40)  # KQ H and KQ C


# --- game -----------------------------------------------------------------------------

def test_game_to_target():
    """COINCHE-GAME-1: cumulative totals until a team reaches the target."""
    match = coinche.CoincheMatch(seed=2, options={"target": 1000})
    winner = match.play_random(seed=2)
    assert max(match.totals) >= 1000 and winner in (0, 1)
    assert sum(map(sum, match.deal_scores)) == sum(match.totals)
    assert len(match.deals) == len(match.deal_scores)


# --- notation ---------------------------------------------------------------------------

def test_tokens_and_record_round_trip():
    st = coinche.new_state(seed=3)
    for tok in ["pass", "bid:110:H", "bid:capot:TA", "bid:generale:SA", "coinche",
                "surcoinche", "KH", "belote:QS", "announce:quarte:AD", "announce:carre:9"]:
        assert st.move_token(st.parse_move(tok)) == tok
    for bad in ["bid:cent:H", "bid:80", "bid:80:X", "take", "XX"]:
        with pytest.raises(NotationError):
            st.parse_move(bad)
    rng = random.Random(3)
    while not st.is_over():
        st.play_random(rng)
    rec = st.to_record()
    for text in (rec.to_text(), Record.from_json(rec.to_json()).to_text()):
        again = state_from_record(Record.from_text(text))
        assert again.scores() == st.scores() and again.to_record().to_text() == rec.to_text()


def test_generale_in_play():
    """COINCHE-MADE-3 and COINCHE-EX-9 / COINCHE-EX-10 through a played deal: générale by
    seat 0 is defeated by a trick won by his partner (seat 2)."""
    base = ["JH 9H AH TH KH QH 8H", "KS QS JS TS 9S 8S 7D 8D", "AS 9D TD JD QD KD AD",
            "7C 8C 9C TC JC QC KC AC"]
    for seat0_extra, seat2_extra, made, written in (("7H", "7S", True, [682, 0]),
                                                     ("7S", "7H", False, [20, 662])):
        hands = [m(base[0] + " " + seat0_extra), m(base[1]), m(base[2] + " " + seat2_extra),
                 m(base[3])]
        st = coinche.CoincheState.from_play(hands, H, 0, dealer=3, value=500,
                                            options={"announces": False})
        rng = random.Random(4)
        while not st.is_over():
            st.play_random(rng)
        assert st.result["made"] is made and st.result["written"] == written
