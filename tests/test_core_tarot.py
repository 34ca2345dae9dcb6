"""Tarot Cython core (solver.tarot_core via solver.core.tarot) against the pure-Python
rules (solver.games.tarot): legal cards, trick winners, Excuse handling, counting and
the final per-defender amount T, on random positions reached by random play, for 3, 4
and 5 players and the play-affecting options. Plus exact rule vectors on the core."""

from __future__ import annotations

import random

import pytest

from solver import tarot_core
from solver.cards import TAROT_DECK
from solver.core import tarot as face
from solver.errors import AtoutError, DealError, IllegalMoveError, OptionError
from solver.games import tarot as rules

CONTRACTS = ("prise", "garde", "garde_sans", "garde_contre")
KINGS = [22 + 14 * s + 13 for s in range(4)]


def c(tok: str) -> int:
    return TAROT_DECK.card(tok)


def m(text: str) -> int:
    return sum(1 << c(t) for t in text.split())


def random_position(rng: random.Random, n: int) -> rules.TarotState:
    """A random play-phase start: random deal, taker, contract, chelem flag, options."""
    deal = rules.deal_cards(n, rng.randrange(1 << 30))
    hands = [sum(1 << x for x in h) for h in deal.hands]
    dog = sum(1 << x for x in deal.extras["dog"])
    taker = rng.randrange(n)
    contract = rng.choice(CONTRACTS)
    options = {
        "players": n,
        "excuse_last_trick": rng.choice(("changes_side", "to_trick_winner")),
        "five_player_first_lead_restriction": rng.random() < 0.5,
        "scoring": rng.choice(("fft", "fft", "fixed_base")),
        "garde_contre_multiplier": rng.choice((6, 8)),
    }
    partner = called = None
    if n == 5:
        called = rng.choice(KINGS)
        holder = next((s for s, h in enumerate(hands) if h >> called & 1), None)
        partner = None if holder == taker else holder
    chelem = rng.random() < 0.1
    st = rules.TarotState.for_play(hands, taker=taker, contract=contract, partner=partner,
                                   called_card=called, aside=dog, chelem_announced=chelem,
                                   options=options)
    return st


def biased_choice(rng: random.Random, cards: list[int], bias: float) -> int:
    """Random card, sometimes steered to make Excuse/petit/chelem endings frequent."""
    if rng.random() < bias:
        for special in (rules.PETIT, rules.EXCUSE):
            if special in cards and len(cards) > 1 and rng.random() < 0.2:
                pick = [x for x in cards if x != special]
                return rng.choice(pick)
    return rng.choice(cards)


def strong_taker_position(rng: random.Random, n: int) -> rules.TarotState:
    """A deal where the taker holds EX and (nearly) the top trumps, so that the attack
    often wins every trick and keeps EX to the end (TAROT-EXC-6 endings)."""
    hs = rules.HAND_SIZE[n]
    taker = rng.randrange(n)
    extra = rng.randrange(0, 4)
    top = list(range(20, max(0, 20 - (hs - 1 - extra)), -1))  # T21 down, never T1
    if rng.random() < 0.5:
        top[-1] = rules.PETIT  # the taker keeps T1 for the end (petit au bout)
    extra = hs - 1 - len(top)
    rest = [x for x in range(78) if x not in top and x != rules.EXCUSE]
    rng.shuffle(rest)
    hand = set(top) | {rules.EXCUSE} | set(rest[:extra])
    rest = rest[extra:]
    hands = []
    for s in range(n):
        if s == taker:
            hands.append(sum(1 << x for x in hand))
        else:
            hands.append(sum(1 << x for x in rest[:hs]))
            rest = rest[hs:]
    dog = sum(1 << x for x in rest)
    options = {"players": n,
               "excuse_last_trick": rng.choice(("changes_side", "to_trick_winner"))}
    return rules.TarotState.for_play(hands, taker=taker, contract=rng.choice(CONTRACTS),
                                     aside=dog, chelem_announced=rng.random() < 0.5,
                                     options=options)


def play_both(st: rules.TarotState, choose, rng: random.Random) -> tuple[int, dict]:
    """Play one deal in the rules and in the core with the same cards, comparing legal
    cards, trick winners, counting and the final T. Returns (positions, core counts)."""
    core = face.from_state(st, tt_bits=4)
    positions = 0
    while st.phase == "play":
        seat = st.to_act
        assert core.to_act == seat
        py_mask = rules.legal_cards(st.hands[seat], st.trick, st.lead_forbidden())
        assert core.legal_mask() == py_mask, (st.trick, TAROT_DECK.format_cards(st.hands[seat]))
        positions += 1
        if rng.random() < 0.1:
            # the face rebuilds the same position from the state's captured history
            again = face.from_state(st, tt_bits=4)
            assert again.counts()["att_pts"] == core.counts()["att_pts"]
            assert again.counts()["att_bouts"] == core.counts()["att_bouts"]
            assert again.legal_mask() == py_mask
        card = choose(st, TAROT_DECK.cards(py_mask))
        before = len(st.tricks)
        st.play(rules.CARD_MOVES[card])
        core.play(card)
        if len(st.tricks) > before:
            trick, winner = st.tricks[-1]
            assert core.leader == winner
            cards = [x for _, x in trick]
            wi = tarot_core.trick_winner(cards)
            if not (st.phase == "over" and rules.EXCUSE in cards):
                assert trick[wi][0] == rules.trick_winner(trick)
    assert core.is_over()
    cnt = st.count()
    k = core.counts()
    assert k["att_pts"] == cnt.points2
    assert k["att_bouts"] == cnt.bouts
    assert k["pb"] == cnt.petit_au_bout
    assert k["att_tricks"] == cnt.attack_tricks and k["def_tricks"] == cnt.defence_tricks
    value = rules.deal_value(st.contract, cnt.points, cnt.bouts,
                             petit_au_bout=cnt.petit_au_bout, poignee=0,
                             chelem_announced=st.chelem_announced,
                             attack_all_tricks=cnt.defence_tricks == 0,
                             defence_all_tricks=cnt.attack_tricks == 0, options=st.options)
    assert core.final_value() == value
    assert sum(st.scores()) == 0
    return positions, k


def run_differential(n_deals: int, seed: int) -> int:
    """Play random deals in both implementations; return the positions compared."""
    rng = random.Random(seed)
    positions = 0

    def choose(st, cards):
        return biased_choice(rng, cards, 0.5)

    for d in range(n_deals):
        st = random_position(rng, (3, 4, 5)[d % 3])
        positions += play_both(st, choose, rng)[0]
    return positions


def test_differential_random_play():
    """TAROT-PLAY-4, TAROT-PLAY-6, TAROT-EXC-3, TAROT-EXC-5, TAROT-COUNT-3, TAROT-SCORE-1:
    core == rules on >= 20,000 positions (3, 4, 5 players, play options varied)."""
    assert run_differential(420, seed=1) >= 20_000


@pytest.mark.slow
def test_differential_million():
    """10^6 positions, zero disagreements (run with -m slow)."""
    total, seed = 0, 100
    while total < 1_000_000:
        total += run_differential(300, seed)
        seed += 1


def test_differential_chelem_excuse_endings():
    """TAROT-EXC-6, TAROT-ANN-3, TAROT-SCORE-3, TAROT-SCORE-5: strong-taker deals where
    the attack keeps EX for the last trick; core == rules, and such endings occur."""
    rng = random.Random(5)

    def choose(st, cards):
        if st.side_of(st.to_act):
            pick = ([x for x in cards if x not in (rules.EXCUSE, rules.PETIT)]
                    or [x for x in cards if x != rules.EXCUSE] or cards)
            return max(pick, key=lambda x: (x < 21, x))
        return rng.choice([x for x in cards if x != rules.PETIT] or cards)

    seen_pb = seen_exc6 = seen_chelem = 0
    for d in range(300):
        st = strong_taker_position(rng, (3, 4, 5)[d % 3])
        _, k = play_both(st, choose, rng)
        seen_pb += k["pb"] != 0
        seen_exc6 += k["exc6"]
        seen_chelem += k["def_tricks"] == 0
    assert seen_exc6 > 10 and seen_pb > 10 and seen_chelem > 10


# --- exact rule vectors on the core -----------------------------------------------------
def core_with_trick(n: int, hands: dict[int, str], trick: list[str], leader: int = 0,
                    sides=None, **kw) -> tarot_core.TarotCore:
    """A core position whose seat to act holds the given cards (others get filler)."""
    used = 0
    masks = []
    for s in range(n):
        mk = m(hands.get(s, ""))
        masks.append(mk)
        used |= mk
    for t in trick:
        used |= 1 << c(t)
    size = max(x.bit_count() for x in masks)
    spare = [x for x in range(78) if not used >> x & 1]
    to_act = (leader + len(trick)) % n
    for s in range(n):
        want = size - (1 if (s - leader) % n < len(trick) else 0)
        if s == to_act:
            continue
        while masks[s].bit_count() < want:
            masks[s] |= 1 << spare.pop()
    return tarot_core.TarotCore(n, masks, leader, [c(t) for t in trick], 0, size,
                                sides or [1] + [0] * (n - 1), **kw)


def legal_toks(core) -> set[str]:
    return {TAROT_DECK.token(x) for x in TAROT_DECK.cards(core.legal_mask())}


def test_overtrump_and_excuse_vector():
    # TAROT-EX-22: led 7H, T8 played; seat holds T5 T12 KS (+EX): {T12} (+EX)
    core = core_with_trick(4, {2: "T5 T12 KS"}, ["7H", "T8"])
    assert legal_toks(core) == {"T12"}
    core = core_with_trick(4, {2: "T5 T12 KS EX"}, ["7H", "T8"])
    assert legal_toks(core) == {"T12", "EX"}  # TAROT-EXC-1


def test_undertrump_vector():
    # TAROT-EX-23: cannot beat T8, must still trump (TAROT-PLAY-4.3)
    core = core_with_trick(4, {2: "T3 T6 KS"}, ["7H", "T8"])
    assert legal_toks(core) == {"T3", "T6"}


def test_trump_lead_no_partner_exception():
    # TAROT-EX-24 / TAROT-PLAY-5: must beat the fellow defender's T14
    core = core_with_trick(4, {2: "T2 T15 T20 KS"}, ["T10", "T14"])
    assert legal_toks(core) == {"T15", "T20"}


def test_follow_suit_and_free_discard():
    # TAROT-PLAY-4.1: any card of the led suit; TAROT-PLAY-4.4: no suit, no trump: any
    core = core_with_trick(4, {1: "2H KH 5S T4"}, ["7H"])
    assert legal_toks(core) == {"2H", "KH"}
    core = core_with_trick(4, {1: "5S QC 3D"}, ["7H"])
    assert legal_toks(core) == {"5S", "QC", "3D"}
    # TAROT-PLAY-2: the leader may lead anything
    core = core_with_trick(4, {0: "5S QC T3 EX"}, [])
    assert legal_toks(core) == {"5S", "QC", "T3", "EX"}


def test_excuse_lead_defines_nothing():
    # TAROT-PLAY-3 / TAROT-EX-25: after EX the next card leads; T2 wins EX KS 3S T2
    core = core_with_trick(4, {1: "KS 4H T9"}, ["EX"])
    assert legal_toks(core) == {"KS", "4H", "T9"}
    assert tarot_core.trick_winner([c("EX"), c("KS"), c("3S"), c("T2")]) == 3
    assert tarot_core.trick_winner([c("EX"), c("KS"), c("3S"), c("QS")]) == 1


def test_first_lead_restriction():
    # TAROT-CALL-6: the called suit (KH called) may not open the deal but KH may
    forbid = m(" ".join(r + "H" for r in "1 2 3 4 5 6 7 8 9 10 J N Q".split()))
    core = core_with_trick(5, {0: "KH 3H 5S T2"}, [], forbid=forbid)
    assert legal_toks(core) == {"KH", "5S", "T2"}


def test_card_points_and_counting():
    # TAROT-DECK-4 doubled; TAROT-EX-20: {KH QS T21 T5 3C} = 13.5; deck = 91
    assert [tarot_core.card_points2(c(t)) for t in "T1 T21 EX KH QH NH JH 10H T5".split()] == \
        [9, 9, 9, 9, 7, 5, 3, 1, 1]
    assert tarot_core.mask_points2(m("KH QS T21 T5 3C")) == 27
    assert tarot_core.mask_points2((1 << 78) - 1) == 182


def last_trick_core(n, hands, leader, sides, att_tricks, def_tricks, **kw):
    """A position at the last trick (hands of one card each)."""
    return tarot_core.TarotCore(n, [m(h) for h in hands], leader, [], 17, 18, sides,
                                att_tricks=att_tricks, def_tricks=def_tricks, **kw)


def test_excuse_last_trick_changes_side():
    # TAROT-EX-26 / TAROT-EXC-5: defender seat 1 plays EX to the last trick won by seat 3
    core = last_trick_core(4, ["3S", "EX", "4S", "T9"], 0, [1, 0, 0, 0], 5, 12)
    for x in ("3S", "EX", "4S", "T9"):
        core.play(c(x))
    assert core.leader == 3
    assert core.counts()["att_pts"] == 9 and core.counts()["att_bouts"] == 1
    core = last_trick_core(4, ["3S", "EX", "4S", "T9"], 0, [1, 0, 0, 0], 5, 12,
                           excuse_rule=1)  # to_trick_winner
    for x in ("3S", "EX", "4S", "T9"):
        core.play(c(x))
    assert core.counts()["att_pts"] == 0


def test_excuse_exchange_mid_deal():
    # TAROT-EXC-3/4: EX of the attack in a trick won by the defence: the attack keeps
    # EX (4.5) and gives 0.5: net 8 half points and one bout for the attack
    core = tarot_core.TarotCore(4, [m("EX 2C"), m("KS 3C"), m("3S 4C"), m("T2 5C")], 0, [],
                                16, 18, [1, 0, 0, 0], att_tricks=8, def_tricks=8)
    for x in ("EX", "KS", "3S", "T2"):
        core.play(c(x))
    assert core.leader == 3
    assert (core.counts()["att_pts"], core.counts()["att_bouts"]) == (8, 1)


def test_chelem_excuse_wins_last_trick_and_petit_au_bout():
    # TAROT-EXC-6 / TAROT-EX-6: the taker, having won every trick, leads EX to the last
    # trick: EX wins it; T1 won in the trick before counts au bout (TAROT-SCORE-3)
    core = tarot_core.TarotCore(4, [m("T1 EX"), m("2C 3C"), m("2D 3D"), m("2H 3H")], 0, [],
                                16, 18, [1, 0, 0, 0], att_tricks=16, att_pts=150,
                                att_bouts=1, mult=2, pb_mult=2, chelem_announced=True)
    for x in ("T1", "2C", "2D", "2H", "EX", "3C", "3D", "3H"):
        core.play(c(x))
    k = core.counts()
    assert k["exc6"] == 1 and k["pb"] == 1 and k["def_tricks"] == 0
    # 150 + 12 + 12 = 174 half points = 87 with 3 bouts: E = 51, T = (25+51)*2+20+400
    assert core.final_value() == (25 + 51) * 2 + 20 + 400


def test_scoring_vector_via_core():
    # TAROT-EX-2: garde, 2 bouts, 38 points, T1 lost au bout: T = -76 (TAROT-SCORE-1)
    core = tarot_core.TarotCore(4, [m("2C"), m("T1"), m("3C"), m("4C")], 0, [], 17, 18,
                                [1, 0, 0, 0], att_pts=76, att_bouts=2, mult=2,
                                pb_mult=2, att_tricks=3, def_tricks=14)
    for x in ("2C", "T1", "3C", "4C"):
        core.play(c(x))
    assert core.counts()["att_pts"] == 76 and core.counts()["pb"] == -1
    assert core.final_value() == -76


def test_face_validation_errors():
    st = rules.TarotState.for_play([m("2C"), m("3C"), m("4C"), m("5C")], taker=0,
                                   contract="garde", tricks_won=(0, 17), won=(0, 0))
    core = face.from_state(st, tt_bits=4)
    assert core.to_act == st.to_act
    with pytest.raises(IllegalMoveError):
        face.play_card(core, c("KH"))
    new = rules.new_state({"players": 4}, seed=3)
    with pytest.raises(AtoutError):
        face.from_state(new)
    with pytest.raises(OptionError):
        face.from_state(st, poignee=-5)
    st.hands[2] = m("4C 6C")
    with pytest.raises(DealError):
        face.from_state(st)


def test_core_rejects_inconsistent_positions():
    """The core checks its own input so that it can never run out of cards or bounds."""
    ok = dict(sides=[1, 0, 0, 0], att_tricks=8, def_tricks=8)
    hands = [m("EX 2C"), m("KS 3C"), m("3S 4C"), m("T2 5C")]
    tarot_core.TarotCore(4, hands, 0, [], 16, 18, **ok)
    bad = [
        ([m("EX 2C"), m("KS 3C"), m("3S 4C"), m("T2 2C")], 16, {}),   # a card twice
        ([m("EX 2C"), m("KS 3C"), m("3S 4C"), m("T2")], 16, {}),      # sizes
        (hands, 15, {}),                                              # tricks left
        (hands, 16, {"poignee": 10**6}),                              # out of range
    ]
    for hs, trick_no, extra in bad:
        with pytest.raises(ValueError):
            tarot_core.TarotCore(4, hs, 0, [], trick_no, 18, **(ok | extra))
    with pytest.raises(ValueError):
        tarot_core.TarotCore(4, hands, 0, [], 16, 18, sides=[1, 0, 0, 0], att_tricks=3,
                             def_tricks=3)
    with pytest.raises(ValueError):  # a trick card still in a hand
        tarot_core.TarotCore(4, [m("EX"), m("KS 3C"), m("3S 4C"), m("T2 5C")], 0, [c("3C")],
                             16, 18, **ok)
    tarot_core.TarotCore(4, [m("EX"), m("KS 3C"), m("3S 4C"), m("T2 5C")], 0, [c("2C")],
                         16, 18, **ok)


def test_playouts_are_seeded():
    st = random_position(random.Random(3), 4)
    core = face.from_state(st, tt_bits=4)
    assert core.playouts(200, 9) == core.playouts(200, 9)
    assert core.playout(4) == core.playout(4)
    before = core.legal_mask()
    core.playouts(50, 1)
    assert core.legal_mask() == before  # position restored
    assert tarot_core.random_deal_playouts(4, 100, 7) == tarot_core.random_deal_playouts(4, 100, 7)
