"""Belote/Coinche Cython core (solver.belote_core via solver.core.belote).

Worked examples of the rules are checked on the core directly; the differential tests
follow random games through both the pure-Python rules (solver.games.belote_common)
and the core and require identical legal moves, trick winners and final card points,
for every strain and every option that changes card play.
"""

from __future__ import annotations

import random

import pytest

from solver.cards import BELOTE_DECK as DECK
from solver.core import belote as cb
from solver.errors import DealError, OptionError
from solver.games import belote as belote_game
from solver.games import coinche as coinche_game
from solver.games.belote_common import card_points, legal_cards, trick_winner

S, H, D, C, TA, SA = range(6)


def m(text: str) -> int:
    return DECK.mask(DECK.parse_cards(text))


def cards(text: str) -> list[int]:
    return DECK.parse_cards(text)


def legal_after(strain: int, hand: str, trick: str, seat: int, leader: int = 0,
                **rules) -> set[str]:
    """Legal cards (tokens) of ``seat`` holding ``hand`` after ``trick`` led by
    ``leader``; the other hands get filler cards so the position is consistent."""
    t = cards(trick)
    used = m(hand) | DECK.mask(t)
    free = [c for c in range(32) if not used >> c & 1]
    n = len(cards(hand))
    hands = [0, 0, 0, 0]
    hands[seat] = m(hand)
    for i in range(4):
        s = (leader + i) % 4
        if s == seat:
            continue
        want = n - 1 if i < len(t) else n
        for _ in range(want):
            hands[s] |= 1 << free.pop()
    pos = cb.make_position(hands, t, leader=leader, taker=0)
    assert pos.to_act == seat
    mask = cb.legal_mask(pos, cb.PlayRules(strain, **rules))
    return set(DECK.format_cards(mask).split())


# --- worked examples ---------------------------------------------------------------

def test_belote_ex1_must_overtrump():
    # BELOTE-EX-1 / BELOTE-PLAY-3: seat 1 trumped, seat 2 must overtrump.
    assert legal_after(H, "7H AH QD", "KS 8H", 2) == {"AH"}


def test_belote_ex2_undertrump_option():
    # BELOTE-EX-2 / BELOTE-PLAY-4: undertrump required by default, optional with false.
    assert legal_after(H, "7H QD", "KS 8H", 2) == {"7H"}
    assert legal_after(H, "7H QD", "KS 8H", 2, undertrump_required=False) == {"7H", "QD"}


def test_belote_ex3_partner_master():
    # BELOTE-EX-3 / BELOTE-PLAY-3: partner master, any card.
    assert legal_after(H, "7H 9H QD", "AS 7S", 2) == {"7H", "9H", "QD"}


def test_belote_ex4_trump_lead_overtrump_partner():
    # BELOTE-EX-4: trump led, must beat even the partner (BELOTE-PLAY-3 case 1).
    assert legal_after(H, "9H 7H QD", "TH KH", 2) == {"9H"}
    assert legal_after(H, "9H 7H QD", "TH JH", 2) == {"9H", "7H"}


def test_must_trump_unbeaten_trick_and_void_in_trump_lead():
    # BELOTE-PLAY-3 case 2: opponent master with no trump in the trick -> any trump;
    # void in a trump lead -> any card.
    assert legal_after(H, "7H 9H QD", "AS", 1, leader=0) == {"7H", "9H"}
    assert legal_after(H, "QD KC", "TH", 1, leader=0) == {"QD", "KC"}


def test_belote_ex5_winner_and_points():
    # BELOTE-EX-5 / BELOTE-PLAY-5 / BELOTE-CARD-4 on the core.
    for trick, winner_seat, pts in (("QS AS 7H TS", 2, None), ("QS AS KD TS", 1, 28)):
        t = cards(trick)
        hands = [0, 0, 0, 0]
        hands[3] = 1 << t[3]
        pos = cb.make_position(hands, t[:3], leader=0, taker=0)
        core = cb.core_of(pos, cb.PlayRules(H))
        core.play(t[3])
        # the trick is complete: the winner leads next
        assert core.leader == winner_seat
        if pts is not None:
            assert core.attack_points + core.defence_points == pts + 10  # last trick


def test_card_values_and_totals():
    # BELOTE-CARD-2, BELOTE-CARD-3 (152 in the deck), COINCHE-CARD-3/4 (38 per suit).
    for strain in range(6):
        core = cb.BeloteCore(strain)
        assert sum(core.card_points(c) for c in range(32)) == 152
        for c in range(32):
            assert core.card_points(c) == card_points(c, strain)
    core = cb.BeloteCore(H)
    assert [core.card_points(DECK.card(t)) for t in "JH 9H AH TH KH QH 8H 7H".split()] == \
        [20, 14, 11, 10, 4, 3, 0, 0]
    assert [core.card_points(DECK.card(t)) for t in "AS TS KS QS JS 9S 8S 7S".split()] == \
        [11, 10, 4, 3, 2, 0, 0, 0]
    ta = cb.BeloteCore(TA)
    assert [ta.card_points(DECK.card(t)) for t in "JD 9D AD TD KD QD 8D 7D".split()] == \
        [14, 9, 6, 5, 3, 1, 0, 0]
    sa = cb.BeloteCore(SA)
    assert [sa.card_points(DECK.card(t)) for t in "AC TC KC QC JC 9C 8C 7C".split()] == \
        [19, 10, 4, 3, 2, 0, 0, 0]


def test_core_layout_orders_each_suit_by_power():
    # Per-contract layout: trump order J 9 A T K Q 8 7 (BELOTE-CARD-2, COINCHE-CARD-3),
    # plain order A T K Q J 9 8 7 (BELOTE-CARD-2, COINCHE-CARD-4).
    core = cb.BeloteCore(S)
    trump = [core.core_bit(DECK.card(t)) for t in "7S 8S QS KS TS AS 9S JS".split()]
    plain = [core.core_bit(DECK.card(t)) for t in "7H 8H 9H JH QH KH TH AH".split()]
    assert trump == list(range(0, 8)) and plain == list(range(8, 16))
    assert core.to_deck(core.to_core(0xDEADBEEF)) == 0xDEADBEEF


def test_coinche_ex20_ta_overtake():
    # COINCHE-EX-20 / COINCHE-PLAY-3.
    assert legal_after(TA, "JS AS 7S KD", "QS 9S", 2) == {"JS"}
    assert legal_after(TA, "AS 7S KD QH", "QS JS", 2) == {"AS", "7S"}
    assert legal_after(TA, "JS AS 7S KD", "QS 9S", 2, ta_must_overtake=False) == \
        {"JS", "AS", "7S"}
    assert legal_after(TA, "KD QH", "QS 9S", 2) == {"KD", "QH"}  # void: any card


def test_coinche_ex21_ex22_points_and_sa():
    # COINCHE-EX-21 (TA trick 34 won by JS), COINCHE-EX-22 / COINCHE-PLAY-4 (SA).
    ta = cb.BeloteCore(TA)
    assert sum(ta.card_points(c) for c in cards("JS 9S AS TS")) == 34
    sa = cb.BeloteCore(SA)
    assert sum(sa.card_points(c) for c in cards("KS TS AS 9H")) == 33
    assert legal_after(SA, "7S QD", "KS", 1) == {"7S"}
    t = cards("KS TS AS")
    hands = [0, 0, 0, 1 << DECK.card("9H")]
    core = cb.core_of(cb.make_position(hands, t, leader=0, taker=0), cb.PlayRules(SA))
    assert core.trick_winner == 2  # AS
    core.play(DECK.card("9H"))
    assert core.leader == 2


def test_belote_ex10_complete_deal_in_core():
    # BELOTE-EX-10: the whole deal replayed in the core, every card legal; card points
    # A 138, B 24 (BELOTE-PLAY-6, BELOTE-SCORE-1 dix de der).
    hands = [m("JH 9H AH KH QH AS TS 7D"), m("TH 8H KS QS 9S AD KD 7C"),
             m("7H AC TC KC JS 8S TD 9D"), m("7S 8D JD QD 8C 9C JC QC")]
    tricks = ["JH 8H 7H 7S", "9H TH 8S 8C", "AS 9S JS 9C", "TS QS 9D JC", "7D AD TD QD",
              "KS KC 8D QH", "KH 7C TC JD", "AH KD AC QC"]
    winners = [0, 0, 0, 0, 1, 0, 0, 0]
    leaders = [0, 0, 0, 0, 0, 1, 0, 0]
    core = cb.core_of(cb.make_position(hands, leader=0, taker=0), cb.PlayRules(H))
    for t, w, lead in zip(tricks, winners, leaders, strict=True):
        assert core.leader == lead
        for c in cards(t):
            assert core.legal() >> c & 1
            core.play(c)
        assert core.leader == w
    assert core.is_over()
    assert core.final_points() == (138, 24)
    # O(1) undo restores the previous position exactly
    core.undo()
    assert core.legal() == m("QC") and core.to_act == 3
    core.play(DECK.card("QC"))
    assert core.final_points() == (138, 24)


def test_capot_points_in_core():
    # BELOTE-SCORE-4 / COINCHE-CARD-5: a team taking every trick has 252 (or 250).
    hands = [m("JH 9H AH TH KH QH 8H 7H"), m("AS TS KS QS JS 9S 8S 7S"),
             m("AD TD KD QD JD 9D 8D 7D"), m("AC TC KC QC JC 9C 8C 7C")]
    for cap, taker, expect in ((252, 0, (252, 0)), (250, 0, (250, 0)), (252, 1, (0, 252))):
        core = cb.core_of(cb.make_position(hands, leader=0, taker=taker),
                          cb.PlayRules(H, capot_points=cap))
        while not core.is_over():
            core.play((core.legal() & -core.legal()).bit_length() - 1)
        assert core.final_points() == expect


def test_face_validation_errors():
    hands = [m("JH 9H"), m("AS TS"), m("AD TD"), m("AC TC")]
    with pytest.raises(DealError, match="also in another hand"):
        cb.make_position([hands[0], hands[0], hands[2], hands[3]], leader=0, taker=0)
    with pytest.raises(DealError, match="holds 1 cards"):
        cb.make_position([hands[0], m("AS"), hands[2], hands[3]], leader=0, taker=0)
    with pytest.raises(DealError, match="trick"):
        cb.make_position(hands, cards("JH"), leader=0, taker=0)
    with pytest.raises(DealError, match="leader"):
        cb.make_position(hands, leader=4, taker=0)
    with pytest.raises(OptionError, match="strain"):
        cb.parse_strain("XX")
    with pytest.raises(OptionError):
        cb.playouts(cb.make_position(hands, leader=0, taker=0), cb.PlayRules(S), -1, 1)
    st = coinche_game.new_state(seed=1)
    with pytest.raises(DealError, match="play phase"):
        cb.position_of_state(st)


# --- random play through both implementations ---------------------------------------

VARIANTS = [
    # (game module, strain, options) covering every play-affecting option
    (belote_game, s, {"undertrump_required": u, "capot_points": cap})
    for s in range(4) for u in (True, False) for cap in (252, 250)
] + [
    (belote_game, s, {"second_round_ta_sa": True}) for s in (TA, SA)
] + [
    (coinche_game, s, {"undertrump_required": u, "ta_must_overtake": o, "announces": False})
    for s in range(6) for u in (True, False) for o in (True, False)
]


def random_state(module, strain: int, options: dict, rng: random.Random):
    perm = list(range(32))
    rng.shuffle(perm)
    hands = [sum(1 << c for c in perm[8 * i:8 * i + 8]) for i in range(4)]
    cls = module.BeloteState if module is belote_game else module.CoincheState
    return cls.from_play(hands, strain, rng.randrange(4), dealer=rng.randrange(4),
                         options=options)


def run_differential(module, n_positions: int, seed: int) -> int:
    """Follow random games through the Python rules and the core; return the number of
    positions compared (asserts on the first disagreement)."""
    rng = random.Random(seed)
    done = 0
    while done < n_positions:
        mod, strain, opts = VARIANTS[rng.randrange(len(VARIANTS))]
        if mod is not module:
            continue
        st = random_state(module, strain, opts, rng)
        rules = cb.rules_of_state(st)
        core = cb.core_of(cb.position_of_state(st), rules)
        while not st.is_over():
            seat = st.to_act
            py = legal_cards(st.hands[seat], st.trick, strain,
                             st.options["undertrump_required"],
                             st.options.get("ta_must_overtake", True))
            assert core.to_act == seat
            assert core.legal() == py, (strain, opts, st.trick, DECK.format_cards(py),
                                        DECK.format_cards(core.legal()))
            if st.trick:
                assert core.trick_winner == trick_winner(st.trick, strain)
            done += 1
            card = rng.choice(DECK.cards(py))
            st.play(st.parse_move(DECK.token(card)))
            core.play(card)
            if not st.trick and not st.is_over():
                assert core.leader == st.leader
        final = st.card_points_final(rules.capot_points)
        a = st.attack
        assert core.final_points() == (final[a], final[1 - a])
    return done


@pytest.mark.parametrize("module", [belote_game, coinche_game], ids=["belote", "coinche"])
def test_differential_rules_vs_core(module):
    # BELOTE-PLAY-3, BELOTE-PLAY-4, BELOTE-PLAY-5, BELOTE-PLAY-6, BELOTE-SCORE-1,
    # BELOTE-SCORE-4, COINCHE-PLAY-2, COINCHE-PLAY-3, COINCHE-PLAY-4: >= 20,000 positions
    # per game, every strain and play option, zero disagreements.
    assert run_differential(module, 20_000, seed=hash(module.NAME) % 1000) >= 20_000


@pytest.mark.slow
@pytest.mark.parametrize("module", [belote_game, coinche_game], ids=["belote", "coinche"])
def test_differential_rules_vs_core_million(module):
    assert run_differential(module, 1_000_000, seed=12345) >= 1_000_000


def test_variants_cover_every_strain_and_option():
    seen = {(mod.NAME, s) for mod, s, _ in VARIANTS}
    assert {("coinche", s) for s in range(6)} <= seen
    assert {("belote", s) for s in range(6)} <= seen
    assert any(not o.get("undertrump_required", True) for _, _, o in VARIANTS)
    assert any(not o.get("ta_must_overtake", True) for _, _, o in VARIANTS)
    assert any(o.get("capot_points") == 250 for _, _, o in VARIANTS)


# --- playouts inside the core --------------------------------------------------------

MASK64 = (1 << 64) - 1


class SplitMix:
    """The core's RNG (splitmix64), in Python, to replay its playouts exactly."""

    def __init__(self, seed: int):
        self.s = seed & MASK64

    def next(self) -> int:
        self.s = (self.s + 0x9E3779B97F4A7C15) & MASK64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)


def python_playouts(state_factory, n: int, seed: int) -> tuple[int, int]:
    """Same random games as BeloteCore.playouts, played by the Python rules."""
    rng = SplitMix(seed)
    total = capots = 0
    for _ in range(n):
        st = state_factory()
        core = cb.BeloteCore(*cb.rules_of_state(st).args())
        while not st.is_over():
            seat = st.to_act
            py = legal_cards(st.hands[seat], st.trick, st.strain,
                             st.options["undertrump_required"],
                             st.options.get("ta_must_overtake", True))
            options = sorted(DECK.cards(py), key=core.core_bit)  # core bit order
            k = len(options)
            i = ((rng.next() >> 32) * k) >> 32
            st.play(st.parse_move(DECK.token(options[i])))
        cap = cb.rules_of_state(st).capot_points
        pts = st.card_points_final(cap)[st.attack]
        total += pts
        capots += st.tricks_won[st.attack] == 8
    return total, capots


@pytest.mark.parametrize("strain", range(6))
def test_playouts_equal_python_replay(strain):
    # The core's seeded playout loop plays legal random games and counts them like the
    # rules (BELOTE-PLAY-3, BELOTE-SCORE-1, BELOTE-SCORE-4): identical totals.
    rng = random.Random(strain)
    perm = list(range(32))
    rng.shuffle(perm)
    hands = [sum(1 << c for c in perm[8 * i:8 * i + 8]) for i in range(4)]
    opts = {"announces": False, "undertrump_required": strain % 2 == 0}

    def factory():
        return coinche_game.CoincheState.from_play(hands, strain, 1, dealer=0, options=opts)

    st = factory()
    core = cb.core_of_state(st)
    for seed in (1, 99):
        assert core.playouts(200, seed) == python_playouts(factory, 200, seed)
    # deterministic for a seed, different across seeds
    assert core.playouts(500, 7) == core.playouts(500, 7)
    assert core.playouts(500, 7) != core.playouts(500, 8)


def test_playouts_capot_deal():
    # Attack holding every trump and the top of every suit: random play often capots.
    hands = [m("JH 9H AH TH KH QH 8H 7H"), m("AS TS KS QS JS 9S 8S 7S"),
             m("AD TD KD QD JD 9D 8D 7D"), m("AC TC KC QC JC 9C 8C 7C")]
    pos = cb.make_position(hands, leader=0, taker=0)
    total, caps = cb.playouts(pos, cb.PlayRules(H), 1000, 3)
    assert 0 < caps <= 1000 and 0 < total <= 252 * 1000
