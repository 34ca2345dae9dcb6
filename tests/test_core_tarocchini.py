"""Tarocchini Cython core (solver.tarocchini_core via solver.core.tarocchini).

Worked examples are checked on the core directly; the differential tests follow random
deals (Ottocento and Terziglio gioco/solo, 18+8 and 19+5, both contatore options)
through both the pure-Python rules (solver.games.tarocchini: legal_cards,
collect_trick, final_piles, hand_totals) and the core, and require identical legal
masks, trick winners, piles, scartino debts and final totals on every position.
"""

from __future__ import annotations

import random

import pytest

from solver.cards import TAROCCHINI_DECK as DECK
from solver.core import tarocchini as ct
from solver.errors import DealError, IllegalMoveError, OptionError
from solver.games import tarocchini as tg
from solver.games.tarocchini_melds import best_combinations

OTTO_SIDES = (0, 1, 0, 1)


def m(text: str) -> int:
    return DECK.mask(DECK.parse_cards(text))


def cards(text: str) -> list[int]:
    return DECK.parse_cards(text)


def fill(seat: int, hand: str, trick: str, leader: int, n: int = 4) -> list[int]:
    """Hands with ``hand`` at ``seat`` and filler cards elsewhere (consistent sizes)."""
    t = cards(trick)
    used = m(hand) | DECK.mask(t)
    free = [c for c in range(62) if not used >> c & 1]
    k = len(cards(hand)) + (1 if (seat - leader) % n < len(t) else 0)
    hands = [0] * n
    hands[seat] = m(hand)
    for i in range(n):
        s = (leader + i) % n
        if s == seat:
            continue
        for _ in range(k - 1 if i < len(t) else k):
            hands[s] |= 1 << free.pop()
    return hands


def legal_after(hand: str, trick: str, seat: int, leader: int = 0) -> set[str]:
    game = ct.make_game(4, OTTO_SIDES)
    pos = ct.make_position(game, fill(seat, hand, trick, leader), cards(trick), leader=leader)
    assert pos.to_act == seat
    return set(DECK.format_cards(ct.legal_mask(game, pos)).split())


def trick_result(trick: str, leader: int = 0, n: int = 4,
                 sides: tuple[int, ...] = OTTO_SIDES) -> tuple[int, ct.TarocchiniCore]:
    """Play a complete trick in the core; return (winner seat, core)."""
    t = cards(trick)
    game = ct.make_game(n, sides)
    hands = [0] * n
    used = DECK.mask(t)
    free = [c for c in range(62) if not used >> c & 1]
    for i, c in enumerate(t):
        hands[(leader + i) % n] = 1 << c
    # a second card each so the hand does not end (no end-of-hand rules)
    for s in range(n):
        hands[s] |= 1 << free.pop()
    core = ct.core_of(game, ct.make_position(game, hands, leader=leader))
    for c in t:
        core.play(c)
    return core.last_winner(), core


# --- worked examples: play --------------------------------------------------------

def test_ex1_round_suit_ace_wins():
    # TAROC-EX-1, TAROC-RANK-3: round suit, K Q N J A 6 7 8 9 10: the Ace wins.
    assert trick_result("7C 10C AC 9C")[0] == 2


def test_ex2_long_suit_ten_wins():
    # TAROC-EX-2, TAROC-RANK-3: long suit, 10 beats 9 and the Ace.
    assert trick_result("7S 10S AS 9S")[0] == 1


def test_ex3_last_moor_wins():
    # TAROC-EX-3, TAROC-RANK-2, TAROC-PLAY-4: equal Moors, the last played wins.
    assert trick_result("6S MO2 MO4 7S")[0] == 2
    assert trick_result("6S MO2 MO4 T5")[0] == 3
    assert trick_result("6S MO2 BAG 7S")[0] == 1   # TAROC-RANK-1: MO2 beats BAG
    assert trick_result("MO3 MO1 MO2 MO4", leader=1)[0] == 0


def test_ex4_no_overtrump_duty():
    # TAROC-EX-4, TAROC-PLAY-3: void in swords, must trump, any trump.
    assert legal_after("T9 MO1 8D", "6S", 1) == {"T9", "MO1"}
    assert legal_after("T9 MO1 8D", "6S T12", 2) == {"T9", "MO1"}
    assert legal_after("T9 MO1 8D MAT", "6S T12", 2) == {"T9", "MO1", "MAT"}


def test_follow_and_trump_led():
    # TAROC-PLAY-3 (1): follow the led suit with any card; (3) trumps led: any trump;
    # (4) otherwise any card; TAROC-MATTO-1: the Matto always legal.
    assert legal_after("KS 6S T5 MAT", "9S", 1) == {"KS", "6S", "MAT"}
    assert legal_after("KS 6S T5 MAT", "T16", 1) == {"T5", "MAT"}
    assert legal_after("KS 6S 9D", "T16", 1) == {"KS", "6S", "9D"}
    # TAROC-PLAY-2: a led Matto lets the next card define the suit
    assert legal_after("KS 6S T5", "MAT", 1) == {"KS", "6S", "T5"}
    assert legal_after("KS 6S T5", "MAT 9S", 2) == {"KS", "6S"}
    # TAROC-PLAY-1: the leader may lead anything
    assert legal_after("KS 6S T5 MAT", "", 0) == {"KS", "6S", "T5", "MAT"}


def test_ex5_matto_exchange():
    # TAROC-EX-5, TAROC-MATTO-2: MAT goes to team B's pile, team B owes a scartino and
    # pays it as soon as it wins one.
    w, core = trick_result("KD MAT QD AD")
    assert w == 0
    piles = core.piles()
    assert piles[1] == m("MAT")
    assert piles[0] == m("KD QD AD")
    assert core.owed() == [0, 1]


def test_matto_partner_wins_no_exchange():
    # TAROC-MATTO-2: won by the partner, nothing is exchanged.
    w, core = trick_result("KD QD MAT AD", leader=0)
    assert w == 0
    assert core.piles()[0] == m("KD MAT QD AD")
    assert core.owed() == [0, 0]


def test_matto_debt_paid_at_once():
    # TAROC-MATTO-2: the owing side pays at once from the cards it has won.
    game = ct.make_game(4, OTTO_SIDES)
    hands = [m(h) for h in ("KD T5", "MAT T6", "QD T7", "AD T8")]
    pos = ct.make_position(game, hands, leader=0, piles=(0, m("7S QB")), won=(0, 1))
    core = ct.core_of(game, pos)
    for c in cards("KD MAT QD AD"):
        core.play(c)
    piles = core.piles()
    assert piles[0] == m("KD QD AD 7S")
    assert piles[1] == m("QB MAT")
    assert core.owed() == [0, 0]


# --- card points and combinations ------------------------------------------------

def test_card_points_examples():
    # TAROC-EX-10/11/12, TAROC-PTS-1/2/3 (half points)
    assert ct.points_half(m("KS 7B QC NC")) == 22
    assert ct.points_half(m("ANG KS QC 6D T12 MO1")) == 28
    assert ct.points_half((1 << 62) - 1) == 174
    assert ct.points_half(m("KS 7B QC")) == 17


@pytest.mark.parametrize("text,multi,total", [
    ("ANG MON LUN T16", True, 15),                       # TAROC-EX-20
    ("ANG MAT LUN T16 T15 BAG T13 T12", True, 53),       # TAROC-EX-21
    ("ANG MON SOL LUN MAT BAG T14", True, 61),           # TAROC-EX-22
    ("KS QS BAG AS", True, 15),                          # TAROC-EX-24
    ("KS QS NS JS AS MAT", True, 25),                    # TAROC-EX-25
    ("KS KB KC QS QB QC NS NB ND", True, 108),           # TAROC-EX-26
    ("ANG MON SOL T16 BAG MAT KS QS NS KC QC KD MO1 MO2 AS", True, 213),   # TAROC-EX-27
    ("ANG MON SOL T16 BAG MAT KS QS NS KC QC KD MO1 MO2 AS", False, 153),  # TAROC-EX-28
])
def test_meld_examples(text, multi, total):
    # TAROC-MELD-1..12 worked examples on the core's meld evaluation
    assert ct.meld_points(m(text), multi, 2) == total


def test_meld_full_grande():
    # TAROC-EX-23, TAROC-MELD-7: all 21 trumps + MAT = 166
    assert ct.meld_points(((1 << 21) - 1) << 40 | 1 << 61) == 166


def test_meld_random_sets_equal_python():
    # TAROC-MELD-1..12: the core's best combination set equals best_combinations on
    # random card sets (biased towards meld cards), every option.
    rng = random.Random(11)
    rel = [c for c in range(62) if not (c < 40 and 1 <= c % 10 <= 5)]
    for i in range(4000):
        k = rng.randrange(0, 30)
        pool = rel if i % 2 else list(range(62))
        mask = DECK.mask(rng.sample(pool, k))
        for multi in (True, False):
            for maxc in (1, 2):
                assert ct.meld_points(mask, multi, maxc) == \
                    best_combinations(mask, multi, maxc)[0], (DECK.format_cards(mask), multi, maxc)


# --- validation ----------------------------------------------------------------------

def test_validation_errors():
    game = ct.make_game(4, OTTO_SIDES)
    with pytest.raises(DealError):
        ct.make_game(5, (0, 1, 0, 1, 0))
    with pytest.raises(DealError):
        ct.make_game(3, (0, 0, 0))
    with pytest.raises(OptionError):
        ct.make_game(3, (0, 1, 1), max_cont=3)
    with pytest.raises(DealError):   # duplicate card
        ct.make_position(game, [m("KS"), m("KS"), m("QS"), m("NS")], leader=0)
    with pytest.raises(DealError):   # wrong sizes
        ct.make_position(game, [m("KS 7S"), m("QS"), m("NS"), m("JS")], leader=0)
    with pytest.raises(DealError):   # empty
        ct.make_position(game, [0, 0, 0, 0], leader=0)
    with pytest.raises(DealError):   # bad leader
        ct.make_position(game, [m("KS"), m("QS"), m("NS"), m("JS")], leader=4)
    with pytest.raises(DealError):   # owes but has no Matto
        ct.make_position(game, [m("KS"), m("QS"), m("NS"), m("JS")], leader=0,
                         owed=(1, 0), piles=(m("7S"), 0), won=(1, 0))
    with pytest.raises(DealError):
        ct.position_of_state(tg.new_state({"game": "terziglio"}, seed=1))


def test_core_rejects_illegal_card():
    game = ct.make_game(4, OTTO_SIDES)
    core = ct.core_of(game, ct.make_position(game, fill(1, "KS 6S T5", "9S", 0), cards("9S"),
                                             leader=0))
    with pytest.raises(IllegalMoveError):
        core.play(DECK.card("T5"))
    with pytest.raises(IllegalMoveError):
        core.play(70)
    with pytest.raises(IllegalMoveError):
        core.undo()


# --- differential tests --------------------------------------------------------------

def random_setup(rng: random.Random, variant: int) -> tuple[dict, ct.Game, list[int], int, int]:
    """A random play-phase setup: (options, Game, hands, leader, dealer/declarer).
    variant 0 Ottocento, 1 Terziglio gioco 18+8, 2 solo 18+8, 3 gioco 19+5, 4 solo 19+5."""
    perm = list(range(62))
    rng.shuffle(perm)
    multi = rng.random() < 0.5
    maxc = rng.choice((1, 2))
    opts = {"contatore_multi_use": multi, "max_contatori_per_suit_sequence": maxc}
    if variant == 0:
        hands = [DECK.mask(perm[15 * i:15 * i + 15]) for i in range(4)]
        dealer = rng.randrange(4)
        decl = (rng.randrange(0, 60), rng.randrange(0, 60))
        game = ct.make_game(4, OTTO_SIDES, discard=DECK.mask(perm[60:]),
                            discard_side=OTTO_SIDES[dealer], declared=decl,
                            multi_use=multi, max_cont=maxc)
        return opts | {"game": "ottocento"}, game, hands, (dealer + 1) % 4, dealer
    each = 18 if variant in (1, 2) else 19
    hands = [DECK.mask(perm[each * i:each * i + each]) for i in range(3)]
    rest = DECK.mask(perm[3 * each:])
    declarer = rng.randrange(3)
    sides = tuple(0 if s == declarer else 1 for s in range(3))
    solo = variant in (2, 4)
    decl = (rng.randrange(0, 60), rng.randrange(0, 60))
    game = ct.make_game(3, sides, discard=0 if solo else rest, discard_side=0,
                        stock=rest if solo else 0, declared=decl, multi_use=multi, max_cont=maxc)
    opts |= {"game": "terziglio", "terziglio_deal": "18+8" if each == 18 else "19+5"}
    return opts, game, hands, rng.randrange(3), declarer


def run_differential(seed: int, deals: int) -> int:
    """Random play through the Python rules and the core; returns positions compared."""
    rng = random.Random(seed)
    positions = 0
    for d in range(deals):
        variant = d % 5
        opts, game, hands, leader, _ = random_setup(rng, variant)
        n = game.n
        core = ct.core_of(game, ct.make_position(game, hands, leader=leader))
        hands = list(hands)
        trick: list[tuple[int, int]] = []
        piles, owed, won = [0, 0], [0, 0], [0, 0]
        last = -1
        while any(hands):
            seat = (leader + len(trick)) % n
            legal = tg.legal_cards(hands[seat], trick)   # TAROC-PLAY-3
            assert core.to_act() == seat
            assert core.legal() == legal, (d, DECK.format_cards(hands[seat]), trick)
            positions += 1
            bits = [c for c in range(62) if legal >> c & 1]
            c = rng.choice(bits)
            hands[seat] &= ~(1 << c)
            trick.append((seat, c))
            core.play(c)
            if len(trick) == n:
                w, piles, owed = tg.collect_trick(trick, game.side_of, piles, owed)
                won[game.side_of[w]] += 1
                assert core.last_winner() == w   # TAROC-PLAY-4
                assert core.piles() == piles     # TAROC-MATTO-2
                assert core.owed() == owed
                assert core.won() == won
                leader, trick, last = w, [], game.side_of[w]
            else:
                cw = core.current_winner()
                assert cw == (tg.trick_winner(trick) if any(c != tg.MAT for _, c in trick)
                              else -1)
        fin = tg.final_piles(piles, owed, won, game.discard,
                             game.discard_side if game.discard else None, game.stock, last)
        ref = tg.hand_totals(fin, list(game.declared), last, opts)
        got = core.final()
        assert got["piles"] == fin
        assert got["pile_melds"] == ref["pile_melds"]
        assert got["card_points_half"] == ref["card_points_half"]
        assert got["totals_half"] == ref["totals_half"]
        assert sum(got["card_points_half"]) == 174  # TAROC-PTS-2
        assert got["value"] == ref["totals_half"][1] - ref["totals_half"][0]
    return positions


def test_differential_random_play():
    # >= 20,000 positions: legal masks (TAROC-PLAY-1/2/3, TAROC-MATTO-1), trick winners
    # (TAROC-PLAY-4, TAROC-RANK-1/2/3), Matto exchange (TAROC-MATTO-2..5), discard and
    # stock (OTTO-DEAL-3, TERZ-BID-2, TERZ-BID-3), card points (TAROC-PTS-2) and totals
    # (OTTO-SCORE-1, TERZ-SCORE-1) equal the Python rules.
    assert run_differential(2026, 400) >= 20000


@pytest.mark.slow
def test_differential_million_positions():
    total = 0
    seed = 1
    while total < 1_000_000:
        total += run_differential(seed, 1000)
        seed += 1


def test_play_undo_restores():
    # play/undo are exact inverses (O(1) snapshots)
    rng = random.Random(5)
    for variant in range(5):
        _, game, hands, leader, _ = random_setup(rng, variant)
        core = ct.core_of(game, ct.make_position(game, hands, leader=leader))
        states = []
        while not core.is_over():
            states.append((core.legal(), core.piles(), core.owed(), core.won(), core.to_act(),
                           [core.hand(s) for s in range(game.n)]))
            c = rng.choice([x for x in range(62) if core.legal() >> x & 1])
            core.play(c)
        while states:
            core.undo()
            assert (core.legal(), core.piles(), core.owed(), core.won(), core.to_act(),
                    [core.hand(s) for s in range(game.n)]) == states.pop()


def test_playouts_seeded_and_zero_sum():
    # seeded playouts reproduce; every playout's side totals sum to 186 + melds + decl
    rng = random.Random(8)
    for variant in range(5):
        _, game, hands, leader, _ = random_setup(rng, variant)
        pos = ct.make_position(game, hands, leader=leader)
        a = ct.playouts(game, pos, 200, seed=42)
        b = ct.playouts(game, pos, 200, seed=42)
        c = ct.playouts(game, pos, 200, seed=43)
        assert a == b
        assert a != c
        with pytest.raises(OptionError):
            ct.playouts(game, pos, -1, seed=1)


def test_state_conversion_matches_state_play():
    # position_of_state on real states (signals off) follows the state's own play
    for seed in range(6):
        variant = "ottocento" if seed % 2 == 0 else "terziglio"
        st = tg.new_state({"game": variant, "signals": "none", "monte": "off"}, seed=seed)
        rng = random.Random(seed)
        while st.phase != "play" and not st.is_over():
            st.play_random(rng)
        if st.is_over():
            continue
        core = ct.core_of_state(st)
        while not st.is_over():
            legal = sum(1 << mv.value for mv in st.legal_moves() if mv.kind == "card")
            assert core.legal() == legal
            mv = rng.choice([mv for mv in st.legal_moves() if mv.kind == "card"])
            st.play(mv)
            core.play(mv.value)
        got = core.final()
        assert got["totals_half"] == st.result["totals_half"]
