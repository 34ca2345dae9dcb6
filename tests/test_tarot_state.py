"""French Tarot: the deal as a state (deal, auction, call, dog, announcements, play, Excuse,
counting and scores), built from given deals and from positions."""

import random

import pytest

from solver import AtoutError, DealError, IllegalMoveError, NotationError, OptionError
from solver.cards import TAROT_DECK
from solver.games import state_from_record, tarot
from solver.games.base import Move
from solver.games.tarot import EXCUSE_BIT, FULL_DECK, TarotState, new_state
from solver.notation import Deal, parse_record


def c(tok: str) -> int:
    return TAROT_DECK.card(tok)


def m(text: str) -> int:
    return sum(1 << TAROT_DECK.card(t) for t in text.split())


def toks(mask: int) -> set[str]:
    return {TAROT_DECK.token(x) for x in TAROT_DECK.cards(mask)}


def build(players: int, hands: dict[int, str], dog: str = "") -> Deal:
    """A deal with the given cards fixed. Seats given cards are padded with plain-suit
    cards from the top (KC, QC, ...); the rest is dealt round-robin in index order."""
    size, dsize = tarot.HAND_SIZE[players], tarot.DOG_SIZE[players]
    piles = [[c(t) for t in hands.get(s, "").split()] for s in range(players)]
    piles.append([c(t) for t in dog.split()])
    used = {x for p in piles for x in p}
    pad = [x for x in range(77, 21, -1) if x not in used]
    for s in hands:
        while len(piles[s]) < size:
            piles[s].append(pad.pop(0))
            used.add(piles[s][-1])
    need = [size] * players + [dsize]
    rest = [x for x in range(78) if x not in used]
    i = 0
    for card in rest:
        while len(piles[i % len(piles)]) >= need[i % len(piles)]:
            i += 1
        piles[i % len(piles)].append(card)
        i += 1
    return Deal(piles[:players], {"dog": piles[players]})


def play(state: TarotState, tokens: str) -> None:
    for t in tokens.split():
        state.play(t)


def first_legal_cards(state: TarotState) -> None:
    """Finish the deal playing the first legal card (or show/discard) each time."""
    while not state.is_over():
        moves = [mv for mv in state.legal_moves() if mv.kind not in ("poignee", "misere")]
        state.play(moves[0])


def random_finish(state: TarotState, seed: int) -> None:
    rng = random.Random(seed)
    while not state.is_over():
        state.play_random(rng)


# --- deal ------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4, 5])
def test_deal_sizes(players):
    # TAROT-DEAL-1, TAROT-GEN-1
    st = new_state({"players": players}, seed=7)
    size = {3: 24, 4: 18, 5: 15}[players]
    assert st.players == players
    assert [h.bit_count() for h in st.hands] == [size] * players
    assert st.dog.bit_count() == {3: 6, 4: 6, 5: 3}[players]
    union = st.dog
    for h in st.hands:
        assert not union & h
        union |= h
    assert union == FULL_DECK


def test_seeded_deal_reproducible_and_uniform():
    # COMMON-RNG-1: a uniformly random permutation, reproducible from the seed
    assert tarot.deal_cards(4, 11) == tarot.deal_cards(4, 11)
    assert tarot.deal_cards(4, 11) != tarot.deal_cards(4, 12)
    hits = [0] * 5
    trials = 3000
    for seed in range(trials):
        d = tarot.deal_cards(4, seed)
        piles = [*d.hands, d.extras["dog"]]
        for i, p in enumerate(piles):
            if tarot.EXCUSE in p:
                hits[i] += 1
    for i, expected in enumerate([18 / 78] * 4 + [6 / 78]):
        sd = (trials * expected * (1 - expected)) ** 0.5
        assert abs(hits[i] - trials * expected) < 4 * sd


def test_deal_validation_errors():
    good = build(4, {})
    new_state(deal=good)
    with pytest.raises(DealError, match="4 hands"):
        new_state(deal=Deal(good.hands[:3], good.extras))
    with pytest.raises(DealError, match="seat 1 has 17 cards, expected 18"):
        new_state(deal=Deal([good.hands[0], good.hands[1][1:], *good.hands[2:]],
                            {"dog": good.extras["dog"] + good.hands[1][:1]}))
    with pytest.raises(DealError, match="dog has 5 cards, expected 6"):
        new_state(deal=Deal(good.hands, {"dog": good.extras["dog"][1:]}))
    with pytest.raises(DealError, match="no dog"):
        new_state(deal=Deal(good.hands, {}))
    with pytest.raises(DealError, match="twice"):
        dup = [list(h) for h in good.hands]
        dup[0][0] = dup[1][0]
        new_state(deal=Deal(dup, good.extras))
    with pytest.raises(DealError, match="stock"):
        new_state(deal=Deal(good.hands, {**good.extras, "stock": []}))
    with pytest.raises(DealError, match="5 hands, got 4"):
        new_state({"players": 5}, deal=good)
    with pytest.raises(OptionError, match="dealer 4"):
        new_state(dealer=4)
    with pytest.raises(OptionError, match="option players: 9 is not one of 3, 4, 5"):
        new_state({"players": 9})


def test_petit_sec_annuls_the_deal():
    # TAROT-DEAL-3: exactly one trump, T1, and no EX -> annulled, all scores 0
    low = "1S 2S 3S 4S 5S 6S 7S 8S 9S 10S JS NS QS KS 1H 2H 3H"
    deal = build(4, {2: "T1 " + low})
    st = new_state(deal=deal, dealer=1)
    assert st.is_over() and st.annulled == "petit_sec" and st.petit_sec_seats == (2,)
    assert st.scores() == [0, 0, 0, 0]
    assert st.legal_moves() == []
    assert st.observation(0)["petit_sec"] == {2: st.hands[2]}  # the hand is shown
    # TAROT-GEN-2: the next deal is dealt by the eldest, also after an annulled deal
    assert st.next_dealer == 2
    # with EX, T1 alone is not petit sec
    st = new_state(deal=build(4, {2: "T1 EX " + low[:-3]}))
    assert not st.is_over() and st.phase == "bid"
    # option petit_sec_redeal=false: the deal is played
    st = new_state({"petit_sec_redeal": False}, deal=deal)
    assert st.phase == "bid"


def test_dog_hidden_until_shown():
    # TAROT-DEAL-2: nobody sees the dog during the auction, nor in garde sans until the end
    st = new_state(seed=3, dealer=3)
    assert all(st.observation(s)["dog"] is None for s in range(4))
    play(st, "garde_sans pass pass pass")
    assert all(st.observation(s)["dog"] is None for s in range(4))
    random_finish(st, 1)
    assert st.observation(1)["dog"] == st.dog


# --- auction ---------------------------------------------------------------------------
def test_auction_each_speaks_once_strictly_higher():
    # TAROT-BID-1, TAROT-GEN-2: eldest first, dealer last, one turn each
    st = new_state(seed=5, dealer=2)
    assert st.to_act == 3
    assert [mv.value for mv in st.legal_moves()] == ["pass", "prise", "garde", "garde_sans",
                                                     "garde_contre"]
    play(st, "garde")
    assert st.to_act == 0
    assert [mv.value for mv in st.legal_moves()] == ["pass", "garde_sans", "garde_contre"]
    with pytest.raises(IllegalMoveError):
        st.play("prise")
    with pytest.raises(IllegalMoveError):
        st.play("garde")
    play(st, "pass garde_sans")
    assert st.to_act == 2
    play(st, "pass")
    # TAROT-BID-3: the highest bidder is the taker; no second round
    assert st.taker == 1 and st.contract == "garde_sans" and st.phase == "chelem"
    assert [a for _, a in st.auction] == ["garde", "pass", "garde_sans", "pass"]


def test_all_pass_annuls():
    # TAROT-BID-3
    st = new_state(seed=5, dealer=0)
    play(st, "pass pass pass pass")
    assert st.is_over() and st.annulled == "all_pass"
    assert st.scores() == [0, 0, 0, 0]
    assert st.next_dealer == 1


def test_contracts_and_allow_prise_option():
    # TAROT-BID-2: four contracts; allow_prise=false removes prise
    st = new_state({"allow_prise": False}, seed=5)
    assert [mv.value for mv in st.legal_moves()] == ["pass", "garde", "garde_sans",
                                                     "garde_contre"]
    with pytest.raises(IllegalMoveError):
        st.play("prise")
    assert tarot.multiplier("prise") == 1 and tarot.multiplier("garde") == 2
    assert tarot.multiplier("garde_sans") == 4 and tarot.multiplier("garde_contre") == 6
    assert tarot.multiplier("garde_contre", {"garde_contre_multiplier": 8}) == 8


# --- 5 players: the call -----------------------------------------------------------------
def test_call_before_dog_and_kings():
    # TAROT-CALL-1: 5p, the call comes right after the auction, before the dog is shown
    st = new_state({"players": 5}, deal=build(5, {0: "2H 3H 4S"}), dealer=4)
    play(st, "prise pass pass pass pass")
    assert st.phase == "call" and st.to_act == 0
    assert st.observation(0)["dog"] is None and not st.dog_shown
    # TAROT-CALL-2: a King of any suit
    assert toks(sum(1 << mv.value for mv in st.legal_moves())) == {"KS", "KH", "KD", "KC"}
    holder = next(s for s in range(5) if st.hands[s] & m("KH"))
    play(st, "call:KH")
    assert st.phase == "ecart" and st.dog_shown
    assert st.partner == holder


@pytest.mark.parametrize("held,expected", [
    ("KS KH KD KC", {"QS", "QH", "QD", "QC"}),
    ("KS KH KD KC QS QH QD QC", {"NS", "NH", "ND", "NC"}),
    ("KS KH KD KC QS QH QD QC NS NH ND NC", {"JS", "JH", "JD", "JC"}),
])
def test_call_fallback_ranks(held, expected):
    # TAROT-CALL-2: all Kings -> a Queen; all K and Q -> a Knight; all K, Q, N -> a Jack
    st = new_state({"players": 5}, deal=build(5, {0: held}), dealer=4)
    play(st, "garde pass pass pass pass")
    assert toks(sum(1 << mv.value for mv in st.legal_moves())) == expected


def test_lowest_call_alone_option():
    # TAROT-CALL-2 option five_player_lowest_call=alone
    held = "KS KH KD KC QS QH QD QC NS NH ND NC"
    st = new_state({"players": 5, "five_player_lowest_call": "alone"},
                   deal=build(5, {0: held}), dealer=4)
    play(st, "garde pass pass pass pass")
    assert st.phase == "ecart" and st.called_card is None
    first_legal_cards(st)
    assert st.partner is None
    sc = st.scores()
    assert sc[0] == -4 * sc[1] and len(set(sc[1:])) == 1


def test_call_own_card_plays_alone():
    # TAROT-CALL-3: calling a card he holds -> alone, 1 against 4 (taker +4T)
    st = new_state({"players": 5}, deal=build(5, {0: "KH 2C"}), dealer=4)
    play(st, "garde_sans pass pass pass pass call:KH")
    assert st.partner is None
    assert st.observation(0)["partner_known"]  # the taker knows he is alone
    assert not st.observation(1)["partner_known"]  # the others do not
    play(st, "no_chelem")
    first_legal_cards(st)
    sc = st.scores()
    assert sc[0] == -4 * sc[1] and sum(sc) == 0


def test_called_card_in_dog():
    # TAROT-CALL-4: the called card in the dog -> the taker plays alone (TAROT-EX-5 case)
    st = new_state({"players": 5}, deal=build(5, {}, dog="KH 2C 3C"), dealer=4)
    play(st, "prise pass pass pass pass call:KH")
    assert st.partner is None and st.hands[0] & m("KH")  # prise: he receives it
    # public once the dog is shown (TAROT-CALL-5)
    assert st.observation(3)["partner_known"]
    st = new_state({"players": 5}, deal=build(5, {}, dog="KH 2C 3C"), dealer=4)
    play(st, "garde_contre pass pass pass pass call:KH no_chelem")
    assert st.partner is None and st.dog & m("KH")  # stays in the dog
    assert not st.observation(3)["partner_known"]  # hidden until the end
    first_legal_cards(st)
    assert st.observation(3)["partner_known"]
    sc = st.scores()
    assert sc[0] == -4 * sc[1]


def test_partner_hidden_until_called_card_played():
    # TAROT-CALL-5: the partnership is hidden information until the card is played
    st = new_state({"players": 5}, deal=build(5, {0: "2S 3S 4S", 2: "KH 2H"}), dealer=4)
    play(st, "garde_sans pass pass pass pass call:KH no_chelem")
    assert st.partner == 2
    for seat in (0, 1, 3, 4):
        obs = st.observation(seat)
        assert obs["partner"] is None and not obs["partner_known"]
        assert obs["hand"] == st.hands[seat]
    assert st.observation(2)["partner"] == 2  # the holder knows
    # play until KH falls; from then on everyone knows
    while not any(card == c("KH") for t, _ in st.tricks for _, card in t) and \
            not any(card == c("KH") for _, card in st.trick):
        assert st.observation(1)["partner"] is None
        moves = [mv for mv in st.legal_moves() if mv.kind == "card"]
        kh = [mv for mv in moves if mv.value == c("KH")]
        st.play(kh[0] if kh else moves[0])
    assert all(st.observation(s)["partner"] == 2 for s in range(5))


def test_first_lead_restriction():
    # TAROT-CALL-6: the opening lead may not be of the called suit unless the called card
    deal = build(5, {0: "2H 3H 4S 5S", 1: "KH"}, dog="1C 2C 3C")
    st = new_state({"players": 5}, deal=deal, dealer=4)
    play(st, "garde_sans pass pass pass pass call:KH no_chelem")
    assert st.to_act == 0
    cards = {TAROT_DECK.token(mv.value) for mv in st.legal_moves() if mv.kind == "card"}
    assert "2H" not in cards and "3H" not in cards and "4S" in cards
    with pytest.raises(IllegalMoveError):
        st.play("2H")
    # only the very first card: the second trick may be led with hearts
    st2 = new_state({"players": 5, "five_player_first_lead_restriction": False}, deal=deal,
                    dealer=4)
    play(st2, "garde_sans pass pass pass pass call:KH no_chelem 2H")
    # the called card itself may be led
    st3 = new_state({"players": 5}, deal=build(5, {0: "KH 3H 4S"}), dealer=4)
    play(st3, "garde_sans pass pass pass pass call:KH no_chelem")
    legal = {TAROT_DECK.token(mv.value) for mv in st3.legal_moves() if mv.kind == "card"}
    assert "KH" in legal and "3H" not in legal
    # an EX lead lapses the restriction
    st4 = new_state({"players": 5}, deal=build(5, {0: "EX 3H 4S", 1: "2H 5H KS"}), dealer=4)
    play(st4, "garde_sans pass pass pass pass call:KS no_chelem EX")
    assert Move("card", c("2H")) in st4.legal_moves()


# --- dog and écart ---------------------------------------------------------------------------
EX27_HAND = ("KS KH KD KC T1 T21 EX T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 "
             "1S 2S 3H 4D 5C")


def ex27_state() -> TarotState:
    cards = EX27_HAND.split()
    deal = build(4, {0: " ".join(cards[:18])}, dog=" ".join(cards[18:]))
    st = new_state(deal=deal, dealer=3)
    play(st, "prise pass pass pass")
    return st


def test_prise_dog_shown_and_taken():
    # TAROT-DOG-1: the dog is shown to all, joins the taker's hand, he discards as many
    st = ex27_state()
    assert st.phase == "ecart" and st.to_act == 0
    assert all(st.observation(s)["dog"] == st.dog for s in range(4))
    assert st.hands[0].bit_count() == 24 and st.hands[0] & st.dog == st.dog


def test_ecart_ex27_forced_trump_shown():
    # TAROT-EX-27 / TAROT-DOG-2: |L| = 5 < 6 -> the 5 low cards plus exactly one trump
    st = ex27_state()
    legal = toks(sum(1 << mv.value for mv in st.legal_moves()))
    assert legal == {"1S", "2S", "3H", "4D", "5C"} | {f"T{i}" for i in range(2, 14)}
    assert not legal & {"KS", "KH", "KD", "KC", "T1", "T21", "EX"}  # never discarded
    play(st, "discard:T7")
    # one trump done: only the low cards remain legal
    assert toks(sum(1 << mv.value for mv in st.legal_moves())) == {"1S", "2S", "3H", "4D",
                                                                    "5C"}
    play(st, "discard:1S discard:2S discard:3H discard:4D discard:5C")
    assert st.phase == "chelem" and st.ecart == m("T7 1S 2S 3H 4D 5C")
    # the forced trump is public, the rest of the écart only known to the taker
    assert st.observation(2)["ecart_shown"] == m("T7")
    assert st.observation(2)["ecart"] is None and st.observation(0)["ecart"] == st.ecart


def test_ecart_without_trumps_when_enough_low_cards():
    # TAROT-DOG-2: |L| >= dog size -> no trump, no King may be discarded
    st = new_state(deal=build(4, {0: "KS 1S 2S 3S 4S 5S 6S 7S"}), dealer=3)
    play(st, "garde pass pass pass")
    hand = st.hands[0]
    low = hand & ~(tarot.TRUMP_MASK | EXCUSE_BIT | tarot.KINGS_MASK)
    assert low.bit_count() >= 6
    assert sum(1 << mv.value for mv in st.legal_moves()) == low
    with pytest.raises(IllegalMoveError):
        st.play(Move("discard", TAROT_DECK.cards(hand & tarot.KINGS_MASK)[0]))


def test_garde_sans_dog_counts_for_attack_garde_contre_for_defence():
    # TAROT-DOG-3, TAROT-DOG-4, TAROT-COUNT-1
    for contract, side in (("garde_sans", 1), ("garde_contre", 0)):
        st = new_state(seed=4, dealer=3)
        play(st, f"{contract} pass pass pass")
        assert st.phase == "chelem" and not st.dog_shown
        assert st.hands[0].bit_count() == 18  # the dog is not taken
        random_finish(st, 9)
        piles = (st.defence_pile(), st.attack_pile())
        assert piles[side] & st.dog == st.dog and not piles[1 - side] & st.dog
        assert piles[0] | piles[1] == FULL_DECK and not piles[0] & piles[1]
    st = ex27_state()
    first_legal_cards(st)
    assert st.attack_pile() & st.ecart == st.ecart  # the écart counts for the attack


# --- chelem ----------------------------------------------------------------------------------
def test_chelem_announcement_and_taker_lead():
    # TAROT-ANN-1: only the taker, after the écart (or after the auction in garde sans)
    # TAROT-ANN-2: then the taker leads whatever his seat
    st = new_state(seed=6, dealer=0)
    play(st, "pass garde_sans pass pass")
    assert st.phase == "chelem" and st.to_act == 2
    assert {mv.value for mv in st.legal_moves()} == {True, False}
    play(st, "chelem")
    assert st.chelem_announced and st.phase == "play" and st.to_act == 2
    st = new_state(seed=6, dealer=0)
    play(st, "pass garde_sans pass pass no_chelem")
    assert st.to_act == 1  # TAROT-GEN-2, TAROT-PLAY-1: the eldest leads
    st = ex27_state()
    play(st, "discard:T7 discard:1S discard:2S discard:3H discard:4D")
    assert Move("chelem", True) not in st.legal_moves()  # not before the écart is done


# --- poignées and misère -----------------------------------------------------------------------
def poignee_moves(st):
    return [mv.value for mv in st.legal_moves() if mv.kind == "poignee"]


def test_poignee_thresholds_and_showing():
    # TAROT-ANN-4 (4p: 10/13/15), TAROT-ANN-5 (exactly t trumps shown, public)
    trumps = " ".join(f"T{i}" for i in range(2, 15))  # 13 trumps
    st = new_state(deal=build(4, {1: trumps}), dealer=3)
    play(st, "garde_sans pass pass pass no_chelem")
    assert poignee_moves(st) == []  # seat 0 has few trumps
    play(st, TAROT_DECK.token([mv for mv in st.legal_moves() if mv.kind == "card"][0].value))
    assert poignee_moves(st) == ["simple", "double"]
    play(st, "poignee:simple")
    assert st.phase == "show" and st.to_act == 1
    assert toks(sum(1 << mv.value for mv in st.legal_moves())) == set(trumps.split())
    for i in range(2, 12):
        play(st, f"show:T{i}")
    assert st.phase == "play" and st.poignees == [(1, "simple", m(" ".join(
        f"T{i}" for i in range(2, 12))))]
    assert poignee_moves(st) == []  # at most one poignée
    assert st.observation(3)["poignees"] == st.poignees  # public
    # TAROT-ANN-5: only in the first trick
    first_legal_cards(st)
    assert st.poignees[0][0] == 1


@pytest.mark.parametrize("players,thresholds", [(3, (13, 15, 18)), (5, (8, 10, 13))])
def test_poignee_thresholds_3_and_5(players, thresholds):
    # TAROT-ANN-4
    n_tr = thresholds[1]
    trumps = " ".join(f"T{i}" for i in range(2, 2 + n_tr))
    st = new_state({"players": players}, deal=build(players, {0: trumps}),
                   dealer=players - 1)
    play(st, "garde_sans" + " pass" * (players - 1))
    if players == 5:
        play(st, "call:KS")
    play(st, "no_chelem")
    assert poignee_moves(st) == ["simple", "double"]


def test_poignee_with_excuse():
    # TAROT-ANN-5: EX replaces a missing trump only with exactly t-1 trumps
    nine = " ".join(f"T{i}" for i in range(2, 11))
    st = new_state(deal=build(4, {0: nine + " EX"}), dealer=3)
    play(st, "pass pass pass garde_sans no_chelem")
    assert st.taker == 3 and st.to_act == 0
    assert (st.hands[0] & tarot.TRUMP_MASK).bit_count() == 9
    assert poignee_moves(st) == ["simple"]
    play(st, "poignee:simple")
    assert toks(sum(1 << mv.value for mv in st.legal_moves())) == set(nine.split()) | {"EX"}
    play(st, "show:EX " + " ".join(f"show:{t}" for t in nine.split()))
    assert st.poignees[0][2] == m(nine + " EX")
    ten = nine + " T11"
    st = new_state(deal=build(4, {0: ten + " EX"}), dealer=3)
    play(st, "pass pass pass garde_sans no_chelem poignee:simple")
    assert "EX" not in toks(sum(1 << mv.value for mv in st.legal_moves()))
    with pytest.raises(IllegalMoveError):
        st.play("show:EX")


def test_poignee_may_show_ecart_trumps():
    # TAROT-ANN-5: trumps forced into the écart may be shown again (FFT)
    st = ex27_state()
    play(st, "discard:T7 discard:1S discard:2S discard:3H discard:4D discard:5C no_chelem")
    assert st.to_act == 0
    # 13 trumps in hand + T7 in the écart = 14, plus EX: triple (15) with EX is allowed
    assert poignee_moves(st) == ["simple", "double", "triple"]
    play(st, "poignee:double")
    assert "T7" in toks(sum(1 << mv.value for mv in st.legal_moves()))
    play(st, "show:T7")
    assert st.showing[2] == m("T7")


def line_with(deal, prefix: str, announce: str | None, seat: int, options=None):
    """Play ``prefix``, then first legal cards, ``announce`` at ``seat``'s first turn."""
    st = new_state(options, deal=deal, dealer=3)
    play(st, prefix)
    while st.to_act != seat:
        st.play([mv for mv in st.legal_moves() if mv.kind == "card"][0])
    if announce:
        play(st, announce)
    first_legal_cards(st)
    return st


def ecart_prefix(deal, bids: str) -> str:
    """The bids, the first legal écart and no_chelem, as tokens."""
    st = new_state(deal=deal, dealer=3)
    play(st, bids)
    while st.phase == "ecart":
        st.play(st.legal_moves()[0])
    play(st, "no_chelem")
    return " ".join(st.move_token(mv) for mv in st.history)


def test_poignee_bonus_goes_to_winner_not_multiplied():
    # TAROT-ANN-6, TAROT-SCORE-4: +-20 per defender whatever side showed it
    trumps = " ".join(f"T{i}" for i in range(2, 12))
    deal = build(4, {1: trumps})
    prefix = ecart_prefix(deal, "garde pass pass pass")
    base = line_with(deal, prefix, None, 1)
    shown = line_with(deal, prefix, "poignee:simple " + " ".join(f"show:{t}" for t in
                                                                 trumps.split()), 1)
    assert [mv for mv in shown.history if mv.kind == "card"] == \
        [mv for mv in base.history if mv.kind == "card"]
    made = base.count().points2 >= 2 * tarot.REQUIRED_POINTS[base.count().bouts]
    sign = 1 if made else -1
    diff = [a - b for a, b in zip(shown.scores(), base.scores(), strict=True)]
    assert diff == [60 * sign, -20 * sign, -20 * sign, -20 * sign]
    bonus = line_with(deal, prefix, "poignee:simple " + " ".join(f"show:{t}" for t in
                                                                 trumps.split()), 1,
                      {"poignee_bonuses": [20, 40, 60]})
    assert bonus.scores() == shown.scores()  # simple is 20 in both tables
    assert tarot.POIGNEE_THRESHOLDS[4] == (10, 13, 15)


def test_misere_state_ex12():
    # TAROT-ANN-9 / TAROT-EX-12: seat 2 announces misère d'atout: +30 / -10 each
    low = "1S 2S 3S 4S 5S 6S 7S 8S 9S 10S 1H 2H 3H 4H 5H 6H 7H 8H"
    deal = build(4, {2: low})
    prefix = "garde_sans pass pass pass no_chelem"
    base = line_with(deal, prefix, None, 2, {"misere": "on"})
    st = new_state({"misere": "on"}, deal=deal, dealer=3)
    play(st, prefix)
    while st.to_act != 2:
        st.play([mv for mv in st.legal_moves() if mv.kind == "card"][0])
    assert [mv.value for mv in st.legal_moves() if mv.kind == "misere"] == ["trump", "head"]
    play(st, "misere:trump")
    assert st.observation(0)["miseres"] == [(2, "trump", m(low))]  # the hand is shown
    first_legal_cards(st)
    diff = [a - b for a, b in zip(st.scores(), base.scores(), strict=True)]
    assert diff == [-10, -10, 30, -10] and sum(st.scores()) == 0
    # off by default: no misère moves at all
    st = new_state(deal=deal, dealer=3)
    play(st, prefix)
    while st.to_act != 2:
        st.play([mv for mv in st.legal_moves() if mv.kind == "card"][0])
    assert not [mv for mv in st.legal_moves() if mv.kind == "misere"]


def test_misere_taker_uses_hand_after_ecart():
    # TAROT-ANN-9: for the taker, the hand after the écart (the dog brought a trump)
    low = "1S 2S 3S 4S 5S 6S 7S 8S 9S 10S 1H 2H 3H 4H 5H 6H 7H 8H"
    st = new_state({"misere": "on"}, deal=build(4, {0: low}, dog="T5 9H 10H 1D 2D 3D"),
                   dealer=3)
    play(st, "prise pass pass pass")
    while st.phase == "ecart":
        st.play(st.legal_moves()[0])
    play(st, "no_chelem")
    assert st.to_act == 0 and st.hands[0] & m("T5")
    assert [mv.value for mv in st.legal_moves() if mv.kind == "misere"] == ["head"]


# --- play, the Excuse and counting ----------------------------------------------------------------
def test_tricks_and_leaders():
    # TAROT-PLAY-1: as many tricks as cards in a hand; the winner leads the next trick
    st = new_state({"players": 3}, seed=8)
    random_finish(st, 3)
    if st.annulled:
        pytest.skip("annulled deal")
    assert len(st.tricks) == 24
    for (t1, w1), (t2, _) in zip(st.tricks, st.tricks[1:], strict=False):
        assert t2[0][0] == w1
        assert w1 in [s for s, _ in t1]


def pos(hands: dict[int, str], n: int = 4, options=None, **kw) -> TarotState:
    masks = [m(hands.get(s, "")) for s in range(n)]
    return TarotState.for_play(masks, options={"players": n, **(options or {})}, **kw)


def test_excuse_exchange_ex25():
    # TAROT-EX-25, TAROT-EXC-3: EX returns to its owner's side, which gives a 0.5 card
    st = pos({0: "EX 9C", 1: "KS 9D", 2: "3S 9H", 3: "T2 8H"}, taker=0, leader=0,
             won=(m("KD"), m("2C KC")), tricks_won=(3, 4))
    play(st, "EX KS 3S T2")
    assert st.tricks[-1][1] == 3
    assert st.won[1] == m("EX KC")  # EX kept, 2C handed over
    assert st.won[0] == m("KD KS 3S T2 2C")
    assert st.excuse_owed is None


def test_excuse_same_side_no_exchange():
    # TAROT-EXC-3: trick won by the owner's own side: nothing exchanged
    st = pos({0: "KS 9C", 1: "EX 9D", 2: "3S 9H", 3: "T2 8H"}, taker=0, leader=0,
             won=(m("2C"), m("KD")), tricks_won=(3, 4))
    play(st, "KS EX 3S T2")
    assert st.won[0] == m("2C EX KS 3S T2") and st.won[1] == m("KD")


def test_excuse_exchange_deferred():
    # TAROT-EXC-4: owner's side has no half-point card yet -> deferred until it wins one
    st = pos({0: "EX KC", 1: "KS 2C", 2: "3S 3C", 3: "T2 4C"}, taker=0, leader=0,
             won=(0, m("KD")), tricks_won=(0, 1))
    play(st, "EX KS 3S T2")
    assert st.excuse_owed == 1 and st.won[1] == m("KD EX")
    play(st, "4C KC 2C 3C")  # seat 3 leads; the taker wins 4C 2C 3C
    assert st.tricks[-1][1] == 0
    assert st.excuse_owed is None
    assert st.won[1] == m("KD EX KC 3C 4C") and st.won[0] & m("2C")


def test_excuse_last_trick_changes_side_ex26():
    # TAROT-EX-26, TAROT-EXC-5: defender's EX on the last trick goes to the taker's pile
    hands = {0: "5S", 1: "EX", 2: "6S", 3: "T9"}
    st = pos(hands, taker=0, leader=0, tricks_won=(5, 12))
    play(st, "5S EX 6S T9")
    assert st.tricks[-1][1] == 3 and st.is_over()
    assert st.won[1] == EXCUSE_BIT and st.won[0] == m("5S 6S T9")
    st = pos(hands, taker=0, leader=0, tricks_won=(5, 12),
             options={"excuse_last_trick": "to_trick_winner"})
    play(st, "5S EX 6S T9")
    assert st.won[0] == m("EX 5S 6S T9") and st.won[1] == 0
    # the attack's EX on the last trick goes to the defence even if the attack wins it
    st = pos({0: "EX", 1: "KS", 2: "2S", 3: "3S", 4: "4S"}, n=5, taker=0, partner=1,
             leader=1, tricks_won=(3, 11))
    play(st, "KS 2S 3S 4S EX")
    assert st.tricks[-1][1] == 1
    assert st.won[0] == EXCUSE_BIT and st.won[1] == m("KS 2S 3S 4S")


def rest_for_attack(hands: dict[int, str], aside: str) -> tuple[int, int]:
    used = m(" ".join(hands.values()) + " " + aside)
    return 0, FULL_DECK & ~used


def test_chelem_with_excuse_last_ex6():
    # TAROT-EX-6, TAROT-EXC-6, TAROT-SCORE-3 exception: EX wins the last trick, T1 won in
    # trick 17 counts au bout; announced chelem made
    hands = {0: "T21 EX", 1: "T1 2S", 2: "3S 4S", 3: "5S 6S"}
    aside = "1H 2H 3H 4H 5H 6H"
    st = pos(hands, taker=0, contract="garde", leader=0, won=rest_for_attack(hands, aside),
             tricks_won=(0, 16), aside=m(aside), chelem_announced=True)
    play(st, "T21 T1 3S 5S")
    play(st, "EX 2S 4S 6S")
    assert st.tricks[-1][1] == 0  # EX won the last trick
    cnt = st.count()
    assert (cnt.points, cnt.bouts, cnt.petit_au_bout, cnt.defence_tricks) == (91, 3, 1, 0)
    assert st.scores() == [1740, -580, -580, -580]


def test_unannounced_chelem_defence_excuse_ex7():
    # TAROT-EX-7, TAROT-ANN-3, TAROT-EXC-4: the defence's EX never wins a trick and does
    # not prevent the chelem; it counts 4 for the defence, 0.5 for the attack
    hands = {0: "T21 T20", 1: "EX 2S", 2: "3S 4S", 3: "5S 6S"}
    aside = "1H 2H 3H 4H 5H 6H"
    st = pos(hands, taker=0, contract="prise", leader=0, won=rest_for_attack(hands, aside),
             tricks_won=(0, 16), aside=m(aside))
    play(st, "T21 EX 3S 5S")
    assert st.excuse_owed == 0  # the defence owes a half-point card it never wins
    play(st, "T20 2S 4S 6S")
    cnt = st.count()
    assert (cnt.points, cnt.bouts, cnt.defence_tricks) == (87, 2, 0)
    assert st.scores() == [813, -271, -271, -271]


def test_petit_au_bout_either_side():
    # TAROT-SCORE-3: T1 in the last trick: +10 x M if the attack wins it, -10 x M if the
    # defence does, whoever played T1
    st = pos({0: "T1", 1: "T5", 2: "2S", 3: "3S"}, taker=0, leader=0, tricks_won=(5, 12))
    play(st, "T1 T5 2S 3S")
    assert st.petit_au_bout == -1
    st = pos({0: "T7", 1: "T1", 2: "2S", 3: "3S"}, taker=0, leader=0, tricks_won=(5, 12))
    play(st, "T7 T1 2S 3S")
    assert st.petit_au_bout == 1
    st = pos({0: "T7", 1: "T2", 2: "2S", 3: "3S"}, taker=0, leader=0, tricks_won=(5, 12),
             won=(m("T1"), 0), petit_trick=(10, 0))
    play(st, "T7 T2 2S 3S")
    assert st.petit_au_bout == 0


def test_defence_wins_all_tricks():
    # TAROT-SCORE-5: defence wins all tricks -> C = -200
    st = pos({0: "2S", 1: "KS", 2: "3S", 3: "4S"}, taker=0, leader=0, tricks_won=(17, 0),
             won=(FULL_DECK & ~m("2S KS 3S 4S 1H 2H 3H 4H 5H 6H"), 0),
             aside=m("1H 2H 3H 4H 5H 6H"), contract="prise")
    play(st, "2S KS 3S 4S")
    cnt = st.count()
    assert cnt.attack_tricks == 0
    made, margin = tarot.contract_result(cnt.points, cnt.bouts)
    assert not made
    assert st.scores()[1] == (25 + margin) + 200


# --- API: tokens, errors, undo/copy, observation, record --------------------------------------
def test_move_tokens_round_trip():
    st = new_state()
    for token in ("pass", "prise", "garde", "garde_sans", "garde_contre", "call:KH",
                  "discard:3C", "chelem", "no_chelem", "poignee:simple", "poignee:triple",
                  "show:T15", "show:EX", "misere:trump", "misere:head", "T21", "EX", "10C"):
        assert st.move_token(st.parse_move(token)) == token
    for bad in ("", "garde-sans", "call:", "call:ZZ", "poignee:quadruple", "T22", "KX",
                "misere:all"):
        with pytest.raises(NotationError):
            st.parse_move(bad)


def test_errors():
    st = new_state(seed=1)
    with pytest.raises(AtoutError, match="not over"):
        st.scores()
    with pytest.raises(IllegalMoveError):
        st.play("KS")
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        st.undo()
    play(st, "pass pass pass pass")
    with pytest.raises(IllegalMoveError, match="over"):
        st.play("pass")


def test_undo_and_copy():
    st = new_state({"players": 5}, seed=12)
    rng = random.Random(0)
    snaps = []
    while not st.is_over():
        snaps.append((st.observation(0), st.hands.copy(), st.to_act))
        st.play_random(rng)
    final = st.scores()
    cp = st.copy()
    for obs, hands, to_act in reversed(snaps):
        st.undo()
        assert st.observation(0) == obs and st.hands == hands and st.to_act == to_act
    assert st.history == []
    assert cp.scores() == final  # the copy is independent
    cp.undo()
    assert not cp.is_over() and st.to_act == snaps[0][2]


def test_observation_hides_other_hands():
    st = new_state(seed=21)
    play(st, "pass garde pass pass")
    for seat in range(4):
        obs = st.observation(seat)
        assert obs["hand"] == st.hands[seat]
        assert obs["dog"] == st.dog  # shown after a garde
        others = [st.hands[s] for s in range(4) if s != seat]
        text = repr(obs)
        for h in others:
            assert str(h) not in text


def test_record_replay_text_and_json():
    st = new_state({"players": 5, "misere": "on"}, seed=31, dealer=2)
    random_finish(st, 5)
    rec = st.to_record()
    assert rec.options == {"players": 5, "misere": "on"}
    assert rec.deal.extras["dog"] == list(st.dog_order)
    for text in (rec.to_text(), __import__("json").dumps(rec.to_json())):
        back = state_from_record(parse_record(text))
        assert back.scores() == st.scores()
        assert back.to_record().to_text() == rec.to_text()


def test_for_play_validation():
    with pytest.raises(DealError, match="twice"):
        pos({0: "KS", 1: "KS", 2: "2S", 3: "3S"}, taker=0)
    with pytest.raises(DealError, match="equal sizes"):
        pos({0: "KS QS", 1: "2H", 2: "2S", 3: "3S"}, taker=0)
    with pytest.raises(DealError, match="4 hands"):
        TarotState.for_play([0, 0], taker=0)
    st = pos({0: "KS", 1: "2H", 2: "2S", 3: "3S"}, taker=0)
    with pytest.raises(AtoutError, match="record"):
        st.to_record()
    # a trick in progress: the first seat of the trick leads, the trick's cards are out
    st = pos({0: "KS", 1: "2H", 2: "2S", 3: ""}, taker=0, trick=[(3, c("3S"))])
    assert st.leader == 3 and st.to_act == 0
    assert [TAROT_DECK.token(mv.value) for mv in st.legal_moves()] == ["KS"]


def test_contract_made_follows_the_count():
    # TAROT-COUNT-4: made iff the attack's points reach R(B); None when annulled
    from solver.games.tarot import contract_result
    seen = set()
    for seed in range(40):
        st = tarot.new_state(seed=seed)
        rng = random.Random(seed)
        while not st.is_over():
            st.play_random(rng)
        made = st.contract_made()
        if st.annulled:
            assert made is None
        else:
            c = st.count()
            assert made == contract_result(c.points, c.bouts)[0]
            seen.add(made)
    assert seen == {True, False}
