"""Tarocchini deck, ranking, card points, play rules and the Matto (tarocchini.md §1-6).

Also holds the small helpers the other tests/test_tarocchini_*.py files import.
"""

from __future__ import annotations

import random

import pytest

from solver.cards import TAROCCHINI_DECK as D
from solver.errors import IllegalMoveError
from solver.games import tarocchini as T
from solver.games.tarocchini_melds import MAT_BIT
from solver.notation import Deal


def c(tok: str) -> int:
    return D.card(tok)


def m(text: str) -> int:
    return D.mask(D.parse_cards(text))


def trick(*pairs: tuple[int, str]) -> list[tuple[int, int]]:
    return [(s, c(t)) for s, t in pairs]


def deal_with(variant: str, hands: dict[int, str], extras: dict[str, str] | None = None,
              avoid: str = "") -> Deal:
    """A full deal with the given cards fixed; the rest filled in deck order (skipping
    ``avoid``, which is placed last so it ends in the last hand/pile to fill)."""
    n, size = (4, 15) if variant == "ottocento" else (3, 18)
    extras = dict(extras or {})
    pile_sizes = {"talon": 2} if n == 4 else {"stock": 8}
    fixed = {s: D.parse_cards(t) for s, t in hands.items()}
    fixed_x = {k: D.parse_cards(v) for k, v in extras.items()}
    used = {x for h in fixed.values() for x in h} | {x for p in fixed_x.values() for x in p}
    late = [x for x in D.parse_cards(avoid) if x not in used]
    pool = [x for x in range(62) if x not in used and x not in late] + late
    out_hands = []
    for s in range(n):
        h = list(fixed.get(s, []))
        while len(h) < size:
            h.append(pool.pop(0))
        out_hands.append(h)
    out_extras = {}
    for k, sz in pile_sizes.items():
        p = list(fixed_x.get(k, []))
        while len(p) < sz:
            p.append(pool.pop(0))
        out_extras[k] = p
    assert not pool
    return Deal(out_hands, out_extras)


# --- deck (TAROC-DECK-1/2, TAROC-GEN-1) ----------------------------------------------
def test_deck_62_cards_values_and_groups():
    """TAROC-DECK-1: 22 trionfi (21 trumps + MAT) and 40 suit cards with their values."""
    assert D.size == 62
    trumps = [x for x in range(62) if T.suit_of(x) == T.TRUMP]
    assert len(trumps) == 21 and T.suit_of(c("MAT")) is None
    assert sum(1 for x in range(62) if T.suit_of(x) in (0, 1, 2, 3)) == 40
    for tok, v in [("ANG", 5), ("MON", 5), ("SOL", 1), ("LUN", 1), ("T16", 1), ("T5", 1),
                   ("MO3", 1), ("BAG", 5), ("MAT", 5), ("KS", 5), ("QB", 4), ("NC", 3),
                   ("JD", 2), ("10S", 1), ("6C", 1), ("AD", 1)]:
        assert T.card_value(c(tok)) == v, tok


def test_five_point_cards_and_contatori():
    """TAROC-DECK-2: five-point cards are the Kings, ANG, MON, BAG, MAT; contatori BAG MAT."""
    assert T.FIVE_POINT_MASK == m("KS KB KC KD ANG MON BAG MAT")
    from solver.games.tarocchini_melds import CONT_MASK
    assert CONT_MASK == m("BAG MAT")
    assert all(T.card_value(x) == 5 for x in D.cards(T.FIVE_POINT_MASK))
    assert all(T.card_value(x) == 1 for x in range(62) if not T.FIVE_POINT_MASK >> x & 1
               and D.rank(x) not in ("Q", "N", "J"))


def test_variants_seats_and_eldest():
    """TAROC-GEN-1: ottocento 4 players, teams {0,2} v {1,3}; terziglio 3; eldest leads."""
    s = T.new_state(seed=1, dealer=2)
    assert s.n == 4 and s.side_of == (0, 1, 0, 1) and s.eldest == 3 and s.to_act == 3
    t = T.new_state({"game": "terziglio"}, seed=1, dealer=2)
    assert t.n == 3 and len(t.hands) == 3 and t.eldest == 0 and t.to_act == 0


# --- ranking (TAROC-RANK-1/2/3) --------------------------------------------------------
def test_trump_order_and_trumps_beat_suits():
    """TAROC-RANK-1: ANG > MON > SOL > LUN > T16 > ... > T5 > Moors > BAG; the Matto never wins."""
    order = ["ANG", "MON", "SOL", "LUN"] + [f"T{k}" for k in range(16, 4, -1)] + ["MO1", "BAG"]
    for hi, lo in zip(order, order[1:], strict=False):
        assert T.trick_winner(trick((0, "6S"), (1, lo), (2, hi), (3, "7S"))) == 2
        assert T.trick_winner(trick((0, "6S"), (1, hi), (2, lo), (3, "7S"))) == 1
    assert T.trick_winner(trick((0, "6S"), (1, "BAG"), (2, "KS"), (3, "MAT"))) == 1
    assert T.trick_winner(trick((0, "MAT"), (1, "AC"), (2, "KS"))) == 1


def test_equal_moors_last_one_wins():
    """TAROC-RANK-2 / TAROC-EX-3: 6S MO2 MO4 7S -> MO4; with T5 fourth, T5; MO2 beats BAG."""
    assert T.trick_winner(trick((0, "6S"), (1, "MO2"), (2, "MO4"), (3, "7S"))) == 2
    assert T.trick_winner(trick((0, "6S"), (1, "MO2"), (2, "MO4"), (3, "T5"))) == 3
    assert T.trick_winner(trick((0, "6S"), (1, "MO2"), (2, "BAG"), (3, "7S"))) == 1
    assert T.trick_winner(trick((0, "MO4"), (1, "MO1"), (2, "MO3"))) == 2


def test_long_and_round_suit_orders():
    """TAROC-RANK-3 / TAROC-EX-1 / TAROC-EX-2: round suits C D rank A above 6..10."""
    assert T.trick_winner(trick((0, "7C"), (1, "10C"), (2, "AC"), (3, "9C"))) == 2
    assert T.trick_winner(trick((0, "7S"), (1, "10S"), (2, "AS"), (3, "9S"))) == 1
    long_order = "K Q N J 10 9 8 7 6 A".split()
    round_order = "K Q N J A 6 7 8 9 10".split()
    for suit, order in [("S", long_order), ("B", long_order), ("C", round_order),
                        ("D", round_order)]:
        for hi, lo in zip(order, order[1:], strict=False):
            assert T.trick_winner(trick((0, lo + suit), (1, hi + suit), (2, "MAT"))) == 1
            assert T.trick_winner(trick((0, hi + suit), (1, lo + suit), (2, "MAT"))) == 0
    # an off-suit card never wins
    assert T.trick_winner(trick((0, "6S"), (1, "KB"), (2, "KC"), (3, "KD"))) == 0


# --- card points (TAROC-PTS-1/2/3) ------------------------------------------------------
def test_pack_values_sum_118():
    """TAROC-PTS-1: the card values of the pack sum to 118."""
    assert sum(T.card_value(x) for x in range(62)) == 118


def test_pair_counting_examples():
    """TAROC-PTS-2 / TAROC-EX-10 / TAROC-EX-11 / TAROC-EX-12 (half-point units)."""
    assert T.pile_points_half(m("KS 7B QC NC")) == 2 * 11
    assert T.pile_points_half(m("ANG KS QC 6D T12 MO1")) == 2 * 14
    assert T.pile_points_half(D.full_mask) == 2 * 87
    assert T.pile_points_half(D.full_mask) + T.LAST_TRICK_HALF == 2 * 93
    assert sum(T.card_points(x) for x in range(62)) == 174


def test_odd_pile_half_points():
    """TAROC-PTS-3 / TAROC-AMB-3 / TAROC-EX-12: an odd Terziglio pile keeps its .5 exactly."""
    assert T.pile_points_half(m("KS 7B QC")) == 17  # 8.5 points
    st = T.TarocchiniState.from_play([m("KS"), m("7B"), m("QC")], 0, {"game": "terziglio"},
                                     declarer=1, contract="gioco")
    st.play("KS")
    st.play("7B")
    st.play("QC")
    assert st.result["card_points_half"] == [0, 17]
    # declarer (side 0) 0 pts; opponents 8.5 + 6 for the last trick
    assert st.side_totals() == [0.0, 14.5]


# --- play (TAROC-PLAY-1..4) ---------------------------------------------------------------
def test_leader_may_lead_anything_and_winner_leads_next():
    """TAROC-PLAY-1: any lead; the winner of a trick leads the next one."""
    hands = [m("6S MAT"), m("KS T5"), m("7S 8S"), m("9S AB")]
    st = T.TarocchiniState.from_play(hands, 0)
    assert T.legal_cards(hands[0], []) == hands[0]
    for tok in ("6S", "KS", "7S", "9S"):
        st.play(tok)
    assert st.tricks[0][1] == 1 and st.leader == 1 and st.to_act == 1


def test_matto_led_next_card_defines_suit():
    """TAROC-PLAY-2 / TAROC-AMB-1: if the Matto is led, the second card defines the suit."""
    hand = m("KB 7S T9")
    assert T.legal_cards(hand, trick((0, "MAT"))) == hand
    assert T.legal_cards(hand, trick((0, "MAT"), (1, "6S"))) == m("7S")
    assert T.legal_cards(m("KB T9"), trick((0, "MAT"), (1, "6S"))) == m("T9")
    assert T.trick_winner(trick((0, "MAT"), (1, "6S"), (2, "KS"), (3, "KB"))) == 2


def test_follow_trump_and_free_cases():
    """TAROC-PLAY-3: follow suit (any card), else trump (any), trumps on trumps, else free."""
    # 1. holding the led suit: any card of it, no duty to head the trick
    assert T.legal_cards(m("KS 6S T9 8D"), trick((0, "QS"))) == m("KS 6S")
    # 2. void, holding trumps: any trump
    assert T.legal_cards(m("T9 MO1 8D"), trick((0, "6S"))) == m("T9 MO1")
    # 3. trumps led: any trump (no overtrumping)
    assert T.legal_cards(m("BAG ANG KS"), trick((0, "T12"))) == m("BAG ANG")
    # 4. otherwise any card
    assert T.legal_cards(m("KS 8D"), trick((0, "T12"))) == m("KS 8D")
    assert T.legal_cards(m("KB 8D"), trick((0, "6S"))) == m("KB 8D")
    # no partner exception: partner (seat 0) winning does not free seat 2
    assert T.legal_cards(m("T9 8D"), trick((0, "KS"), (1, "6S"))) == m("T9")


def test_example_void_must_trump_no_overtrump():
    """TAROC-EX-4: lead 6S, void in swords with T9 MO1 8D: {T9, MO1}; after T12 still."""
    assert T.legal_cards(m("T9 MO1 8D"), trick((0, "6S"))) == m("T9 MO1")
    assert T.legal_cards(m("T9 MO1 8D MAT"), trick((0, "6S"))) == m("T9 MO1 MAT")
    assert T.legal_cards(m("T9 MO1 8D"), trick((0, "6S"), (1, "T12"))) == m("T9 MO1")


def test_trick_winner_highest_trump_else_highest_of_led_suit():
    """TAROC-PLAY-4: highest trump if any, else highest card of the led suit."""
    assert T.trick_winner(trick((0, "KS"), (1, "AS"), (2, "T5"), (3, "QS"))) == 2
    assert T.trick_winner(trick((0, "QS"), (1, "AS"), (2, "KB"), (3, "KS"))) == 3
    assert T.trick_winner(trick((0, "T5"), (1, "T7"), (2, "KS"), (3, "T6"))) == 1


def test_illegal_card_rejected():
    """TAROC-PLAY-3: the state rejects a card that does not follow suit."""
    st = T.TarocchiniState.from_play([m("6S KB"), m("7S KC"), m("8S KD"), m("9S T5")], 0)
    st.play("6S")
    with pytest.raises(IllegalMoveError):
        st.play("KC")


# --- the Matto (TAROC-MATTO-1..5) ----------------------------------------------------------
def test_matto_always_legal():
    """TAROC-MATTO-1: MAT may be played instead of the required card."""
    for tr in (trick((0, "6S")), trick((0, "T12")), trick((0, "6S"), (1, "T5"))):
        assert T.legal_cards(m("7S T9 MAT"), tr) & MAT_BIT


def test_example_matto_exchange_scartino_given_when_won():
    """TAROC-MATTO-2 / TAROC-EX-5: KD MAT QD AD -> KD wins for team A; MAT to team B,
    which gives team A one scartino (here as soon as it wins one)."""
    hands = [m("KD 6S"), m("MAT KS"), m("QD 7S"), m("AD 8S")]
    st = T.TarocchiniState.from_play(hands, 0)
    for tok in ("KD", "MAT", "QD", "AD"):
        st.play(tok)
    assert st.tricks[0][1] == 0
    assert st.piles == [m("KD QD AD"), MAT_BIT] and st.owed == [0, 1]
    for tok in ("6S", "KS", "7S", "8S"):  # team B wins: pays at once from these cards
        st.play(tok)
    assert st.owed == [0, 0]
    assert st.piles[0] == m("KD QD AD 6S") and st.piles[1] == m("MAT KS 7S 8S")
    assert st.piles[0] | st.piles[1] == sum(hands)


def test_matto_won_by_partner_nothing_exchanged():
    """TAROC-MATTO-2: if the partner wins the trick, MAT just goes with it."""
    st = T.TarocchiniState.from_play([m("6S"), m("MAT"), m("7S"), m("KS")], 0)
    for tok in ("6S", "MAT", "7S", "KS"):
        st.play(tok)
    assert st.piles == [0, m("6S MAT 7S KS")]


def test_matto_side_wins_no_trick_loses_it():
    """TAROC-MATTO-3: the Matto's side won no trick: MAT goes to the opponents, nothing given."""
    st = T.TarocchiniState.from_play([m("KS 6B"), m("MAT 7B"), m("6S KB"), m("7S QB")], 0)
    for tok in ("KS", "MAT", "6S", "7S", "6B", "7B", "KB", "QB"):
        st.play(tok)
    assert st.tricks_won == [2, 0]
    assert st.piles == [m("KS MAT 6S 7S 6B 7B KB QB"), 0]


def test_matto_on_last_trick_normal_exchange():
    """TAROC-MATTO-4 / TAROC-AMB-2: MAT on the last trick: normal exchange, no loss."""
    st = T.TarocchiniState.from_play([m("6S KB"), m("KS MAT"), m("7S 6B"), m("8S 7B")], 0)
    for tok in ("6S", "KS", "7S", "8S"):  # team B wins the first trick
        st.play(tok)
    for tok in ("MAT", "6B", "7B", "KB"):  # seat 1 leads MAT; team A wins with KB
        st.play(tok)
    assert st.is_over() and st.tricks[-1][1] == 0
    assert st.piles[1] & MAT_BIT  # MAT kept by team B
    assert st.piles[1] == m("KS MAT 7S 8S")  # 6S given to team A
    assert st.piles[0] == m("KB 6B 7B 6S")


def test_matto_no_scartino_gives_lowest_card():
    """TAROC-MATTO-5: owing side with tricks but no scartino gives its lowest-valued card."""
    hands = [m("KD QS"), m("MAT KS"), m("QD NS"), m("ND JS")]
    st = T.TarocchiniState.from_play(hands, 0)
    for tok in ("KD", "MAT", "QD", "ND", "QS", "KS", "NS", "JS"):
        st.play(tok)
    assert st.is_over()
    # team B won KS QS NS JS (no scartino): gives JS (2), the lowest value
    assert st.piles[1] == m("MAT KS QS NS") and st.piles[0] == m("KD QD ND JS")


def test_matto_debt_paid_with_scartino_preference():
    """TAROC-MATTO-2: the scartino given is a 1-point card of the side's won cards."""
    assert T.pick_scartino(m("KS AS 7B T9")) == c("7B")
    assert T.pick_scartino(m("KS QS")) is None
    assert T.pick_lowest(m("KS QS JB")) == c("JB")


# --- differential: the mask functions against a token-level reading of the rules ---------
_LONG = "A 6 7 8 9 10 J N Q K".split()
_ROUND = "10 9 8 7 6 A J N Q K".split()
_TRUMPS = (["BAG", "MO"] + [f"T{k}" for k in range(5, 17)] + ["LUN", "SOL", "MON", "ANG"])


def _is_moor(tok: str) -> bool:
    return tok in ("MO1", "MO2", "MO3", "MO4")


def _kind(tok: str) -> str:
    """'MAT', 'T' for trumps, else the suit letter."""
    if tok == "MAT":
        return "MAT"
    if tok in ("BAG", "LUN", "SOL", "MON", "ANG") or tok.startswith("T") or _is_moor(tok):
        return "T"
    return tok[-1]


def _strength(tok: str) -> int:
    if _kind(tok) == "T":
        return _TRUMPS.index("MO" if _is_moor(tok) else tok)
    order = _LONG if tok[-1] in "SB" else _ROUND
    return order.index(tok[:-1])


def naive_legal(hand: list[str], played: list[str]) -> set[str]:
    """TAROC-PLAY-2/3 and TAROC-MATTO-1 read literally on tokens."""
    led = next((_kind(t) for t in played if t != "MAT"), None)
    if led is None:
        return set(hand)
    same = {t for t in hand if _kind(t) == led}
    trumps = {t for t in hand if _kind(t) == "T"}
    mat = {t for t in hand if t == "MAT"}
    if same:
        return same | mat
    if trumps:
        return trumps | mat
    return set(hand)


def naive_winner(played: list[str]) -> int:
    """TAROC-PLAY-4 with TAROC-RANK-2 (equal Moors: the last one) on tokens."""
    led = next(_kind(t) for t in played if t != "MAT")
    best = None
    for i, t in enumerate(played):
        k = _kind(t)
        if k == "MAT" or (k != "T" and k != led):
            continue
        key = (k == "T", _strength(t))
        if best is None or key > best[0] or (key == best[0] and _is_moor(t)):
            best = (key, i)
    return best[1]


@pytest.mark.parametrize("variant", ["ottocento", "terziglio"])
def test_legal_cards_and_winner_match_naive_reading(variant):
    """TAROC-PLAY-3 / TAROC-PLAY-4 / TAROC-RANK-2 on every position of random deals."""
    rng = random.Random(f"naive-{variant}")
    checked = 0
    for seed in range(40):
        st = T.new_state({"game": variant, "monte": "off"}, seed=seed)
        while st.phase != "play" and not st.is_over():
            st.play(rng.choice([mv for mv in st.legal_moves()
                                if mv.kind != "declare"]))
        while not st.is_over():
            seat = st.to_act
            hand = D.format_cards(st.hands[seat]).split()
            played = [D.token(x) for _, x in st.trick]
            legal = set(D.format_cards(T.legal_cards(st.hands[seat], st.trick)).split())
            assert legal == naive_legal(hand, played), (hand, played)
            st.play(rng.choice([mv for mv in st.legal_moves() if mv.kind == "card"]))
            checked += 1
            if not st.trick:
                t, w = st.tricks[-1]
                assert t[naive_winner([D.token(x) for _, x in t])][0] == w
    assert checked > 2000
