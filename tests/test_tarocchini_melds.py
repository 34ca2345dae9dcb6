"""Tarocchini combinations (tarocchini.md §7) and the meld finder, with a brute force."""

from __future__ import annotations

import random
from itertools import product

import pytest
from test_tarocchini import c, m

from solver.cards import TAROCCHINI_DECK as D
from solver.errors import IllegalMoveError
from solver.games import tarocchini_melds as M


def best(text: str, multi: bool = True, maxc: int = 2) -> int:
    return M.best_combinations(m(text), multi, maxc)[0]


def glen(text: str) -> int:
    return M.best_in_family("grande", m(text)).bit_count()


def combos_text(text: str, multi: bool = True) -> dict[str, str]:
    return {f: D.format_cards(x) for f, x in M.best_combinations(m(text), multi, 2)[1]}


# --- worked examples (TAROC-EX-20..28, exact) ---------------------------------------------
@pytest.mark.parametrize("rule,cards,total", [
    ("TAROC-EX-20", "ANG MON LUN T16", 15),
    ("TAROC-EX-21", "ANG MAT LUN T16 T15 BAG T13 T12", 53),
    ("TAROC-EX-22", "ANG MON SOL LUN MAT BAG T14", 61),
    ("TAROC-EX-23", " ".join(D.tokens[40:]), 166),
    ("TAROC-EX-24", "KS QS BAG AS", 15),
    ("TAROC-EX-25", "KS QS NS JS AS MAT", 25),
    ("TAROC-EX-26", "KS KB KC QS QB QC NS NB ND", 108),
    ("TAROC-EX-27", "ANG MON SOL T16 BAG MAT KS QS NS KC QC KD MO1 MO2 AS", 213),
])
def test_worked_examples(rule, cards, total):
    """TAROC-EX-20 .. TAROC-EX-27 under default options."""
    assert best(cards) == total, rule


def test_example_28_single_use():
    """TAROC-EX-28 / TAROC-MELD-12: contatore_multi_use=false: 53 + 50 x 2 = 153."""
    hand = "ANG MON SOL T16 BAG MAT KS QS NS KC QC KD MO1 MO2 AS"
    assert best(hand, multi=False) == 153
    got = combos_text(hand, multi=False)
    assert got["grande"] == "ANG MON SOL T16" and got["swords"] == "KS QS NS AS"
    assert {got["cups"], got["moors"]} in ({"BAG KC QC", "MAT MO2 MO1"},
                                           {"MAT KC QC", "MO2 MO1 BAG"})


def test_example_details():
    """TAROC-EX-21 / TAROC-EX-22 / TAROC-EX-23: which cards count in the Grande."""
    assert combos_text("ANG MAT LUN T16 T15 BAG T13 T12")["grande"] == \
        "MAT ANG LUN T16 T15 T13 T12 BAG"
    got = combos_text("ANG MON SOL LUN MAT BAG T14")
    assert got["grande"] == "MAT ANG MON SOL LUN BAG" and got["tarocchi"] == "MAT ANG MON BAG"
    full = combos_text(" ".join(D.tokens[40:]))
    assert len(full["grande"].split()) == 22 and len(full["moors"].split()) == 6


# --- rules --------------------------------------------------------------------------------
def test_one_combination_per_family_per_unit():
    """TAROC-MELD-1: a unit scores at most one combination per family."""
    with pytest.raises(IllegalMoveError):
        M.unit_points([("kings", m("KS KB KC")), ("kings", m("KD KB KC"))])
    # families are scored separately: a cricca and a sequence of the same cards coexist
    assert M.unit_points([("kings", m("KS KB KC")), ("swords", m("KS QS NS"))]) == 27


def test_cricche_values_natural_only():
    """TAROC-MELD-2: cricche of 3 / 4; the contatori are not wild in cricche."""
    for fam, cards3, v3, cards4, v4 in [
            ("tarocchi", "ANG MON MAT", 18, "ANG MON BAG MAT", 36),
            ("kings", "KS KB KC", 17, "KS KB KC KD", 34),
            ("queens", "QS QB QD", 14, "QS QB QC QD", 28),
            ("knights", "NS NC ND", 13, "NS NB NC ND", 26),
            ("jacks", "JB JC JD", 12, "JS JB JC JD", 24)]:
        assert M.is_combination(fam, m(cards3)) and M.combination_points(fam, m(cards3)) == v3
        assert M.is_combination(fam, m(cards4)) and M.combination_points(fam, m(cards4)) == v4
        assert best(cards4) >= v4
    assert not M.is_combination("kings", m("KS KB BAG"))
    assert not M.is_combination("kings", m("KS KB MAT"))
    assert best("KS KB BAG") == 0
    assert M.is_combination("tarocchi", m("ANG BAG MAT"))


def test_sequence_values():
    """TAROC-MELD-3: a sequence of L cards is worth 10 + 5 (L - 3)."""
    assert [M.sequence_value(n) for n in (3, 4, 5, 6, 7, 22)] == [10, 15, 20, 25, 30, 105]
    assert best("KS QS NS") == 10 and best("KS QS NS JS") == 15


def test_seven_sequence_families():
    """TAROC-MELD-4: Grande, four suit sequences, Moors and Aces."""
    assert M.SEQUENCES == ("grande", "swords", "batons", "cups", "coins", "moors", "aces")
    hand = "ANG MON SOL KS QS NS KB QB NB KC QC NC KD QD ND MO1 MO2 MO3 AS AB AC"
    assert {f for f, _ in M.best_combinations(m(hand))[1]} >= set(M.SEQUENCES)


def test_contatori_wild_in_sequences_never_head():
    """TAROC-MELD-5: each contatore lengthens a valid sequence by one; never the head."""
    assert best("KS QS NS") == 10 and best("KS QS NS MAT") == 15
    assert best("KS QS NS MAT BAG") == 20
    assert not M.is_combination("swords", m("QS NS JS MAT"))  # no King
    assert not M.is_combination("grande", m("MON SOL LUN MAT"))  # no Angel
    assert best("QS NS JS MAT BAG") == 0
    assert best("MON SOL LUN T16 MAT") == 0


def test_suit_sequence_rule():
    """TAROC-MELD-6 / TAROC-AMB-5: King, F >= 1, F + c >= 2; Ace extends; max 2 contatori."""
    assert M.is_combination("swords", m("KS QS JS"))  # one figure missing naturally
    assert not M.is_combination("swords", m("KS QS"))
    assert not M.is_combination("swords", m("KS QS AS"))  # the Ace is not a third figure
    assert M.is_combination("swords", m("KS QS MAT"))
    assert not M.is_combination("swords", m("KS MAT BAG"))  # F >= 1
    assert M.is_combination("cups", m("KC NC AC BAG"))
    assert best("KS QS NS JS AS BAG MAT") == 30  # maximum: 7 cards
    assert best("KS QS NS JS AS BAG MAT", maxc=1) == 25
    assert not M.is_combination("swords", m("KS QS BAG MAT"), max_cont_suit=1)
    assert M.is_combination("swords", m("KS QS BAG"), max_cont_suit=1)


def test_grande_rules():
    """TAROC-MELD-7: head group, free skip, contatore fill, extension, Moors, stop rule."""
    assert M.is_combination("grande", m("ANG MON SOL"))
    assert not M.is_combination("grande", m("ANG LUN"))
    assert not M.is_combination("grande", m("ANG LUN T16"))  # two head cards missing
    assert M.is_combination("grande", m("ANG LUN MAT"))  # H = 1, c = 1
    assert not M.is_combination("grande", m("ANG MAT BAG"))  # H >= 1 required
    # extension stops at the first missing unfilled card
    assert glen("ANG MON SOL LUN T16 T14") == 5
    assert glen("ANG MON SOL LUN T16 MAT T14") == 7
    # Moors extend only once T5 is reached
    top = "ANG MON SOL LUN " + " ".join(f"T{k}" for k in range(16, 4, -1))
    assert glen(top + " MO1 MO3") == 18
    assert glen(top.replace(" T5", "") + " MO1 MO3") == 15
    assert glen(top.replace(" T5", "") + " MAT MO1 MO3") == 18
    # two consecutive contatori (T15 and T14) end the sequence after the second
    assert glen("ANG MON SOL LUN T16 MAT BAG T13") == 7
    assert not M.is_combination("grande", m("ANG MON SOL LUN T16 MAT BAG T13"))
    assert M.is_combination("grande", m("ANG MON SOL LUN T16 MAT BAG"))
    # the free head skip breaks consecutiveness: MAT fills T16, T15 counts, BAG fills T14
    assert M.is_combination("grande", m("ANG MON SOL MAT BAG T15"))
    # BAG in its natural place counts as a contatore
    assert glen(top + " MO1 MO2 MO3 MO4 BAG") == 21


def test_moors_and_aces():
    """TAROC-MELD-8 / TAROC-MELD-9: m >= 2 naturals and m + c >= 3; max 6 cards, 25."""
    assert not M.is_combination("moors", m("MO1 MO2"))
    assert M.is_combination("moors", m("MO1 MO2 MAT"))
    assert not M.is_combination("moors", m("MO1 MAT BAG"))
    assert best("MO1 MO2 MO3 MO4 MAT BAG") >= 25
    assert M.best_combinations(m("MO1 MO2 MO3 MO4"))[0] == 15
    assert not M.is_combination("aces", m("AS AB"))
    assert M.is_combination("aces", m("AS AB BAG"))
    assert not M.is_combination("aces", m("AS MAT BAG"))
    assert M.combination_points("aces", m("AS AB AC AD MAT BAG")) == 25


def test_doubling_independent():
    """TAROC-MELD-10: >= 3 cricche doubles the cricche, >= 3 sequences the sequences."""
    assert best("KS KB KC QS QB QC NS NB ND") == 2 * (17 + 14 + 13) + 20  # TAROC-EX-26
    # three sequences, two cricche: only the sequences double
    assert best("KS QS NS KB QB NB KC QC JC") == (17 + 14) + 2 * (10 + 10 + 10)
    # two sequences and two cricche: nothing doubles
    assert best("KS QS NS KB QB NB KC QC") == 17 + 14 + 10 + 10


def test_natural_card_in_cricca_and_each_sequence_family():
    """TAROC-MELD-11: a King in the cricca and its suit sequence; a Moor in the Grande
    and the Moors; an Ace in its suit sequence and the Aces."""
    got = dict(M.best_combinations(m("KS KB KC QS NS AS AB AC"))[1])
    assert got["kings"] & got["swords"] & m("KS")
    assert got["swords"] & got["aces"] & m("AS")
    top = "ANG MON SOL LUN " + " ".join(f"T{k}" for k in range(16, 4, -1))
    got = dict(M.best_combinations(m(top + " MO1 MO2 MO3"))[1])
    assert got["grande"] & got["moors"] == m("MO1 MO2 MO3")


def test_contatore_multi_use_option():
    """TAROC-MELD-12 / TAROC-AMB-4: by default each contatore serves every sequence and
    the Tarocchi cricca; with false, at most one sequence each."""
    hand = "ANG MON SOL MAT KS QS MO1 MO2"
    got = dict(M.best_combinations(m(hand))[1])
    assert all(got[f] & M.MAT_BIT for f in ("grande", "swords", "moors", "tarocchi"))
    assert best(hand) == 18 + 2 * (15 + 10 + 10)
    single = M.best_combinations(m(hand), False, 2)
    seq_with_mat = [f for f, x in single[1] if f in M.SEQUENCES and x & M.MAT_BIT]
    assert len(seq_with_mat) == 1
    assert single[0] == 18 + 10 + 10  # MAT to swords or moors; Grande of 3 alone
    with pytest.raises(IllegalMoveError):
        M.unit_points([("swords", m("KS QS MAT")), ("moors", m("MO1 MO2 MAT"))], False)


def test_alternatives_include_partial_declarations():
    """TAROC-DECL-2: every valid combination is listed, including shorter ones."""
    alts = M.declaration_alternatives(m("KS KB KC KD QS NS JS"))
    assert len(alts["kings"]) == 5  # four triples and the four Kings
    assert m("KS QS NS") in alts["swords"] and m("KS QS JS") in alts["swords"]
    assert m("KS QS NS JS") in alts["swords"]
    assert all(M.is_combination(f, x) for f, xs in alts.items() for x in xs)
    decls = list(M.iter_declarations(m("KS KB KC QS NS")))
    assert () in decls and len(decls) == 2 * 2  # kings or not, swords KQN or not


# --- brute force ---------------------------------------------------------------------------
_HEAD = ["MON", "SOL", "LUN"]
_PATH = _HEAD + [f"T{k}" for k in range(16, 4, -1)]


def naive_grande_len(cards: set[str]) -> int:
    """An independent reading of TAROC-MELD-7: try every placement of the contatori
    (a path position or the end) and of the free head skip, then walk."""
    if "ANG" not in cards or not cards & set(_HEAD):
        return 0
    conts = [x for x in ("BAG", "MAT") if x in cards]
    best_len = 0
    for places in product(range(len(_PATH) + 1), repeat=len(conts)):
        fill = [p for p in places if p < len(_PATH)]
        if len(set(fill)) != len(fill) or any(_PATH[p] in cards for p in fill):
            continue
        for skip in (None, 0, 1, 2):
            if skip is not None and (_PATH[skip] in cards or skip in fill):
                continue
            count, prev, i, used, complete = 0, False, 0, 0, True
            while i < len(_PATH):
                if _PATH[i] in cards:
                    count, prev = count + 1, False
                elif i in fill:
                    count, used = count + 1, used + 1
                    if prev:
                        i += 1
                        complete = False
                        break
                    prev = True
                elif i == skip:
                    prev = False
                else:
                    complete = False
                    break
                i += 1
            if i < 3:
                continue  # stopped inside the head
            if complete:
                count += len([x for x in cards if x.startswith("MO")])
            length = 1 + count + (len(conts) - used)
            best_len = max(best_len, length)
    return best_len if best_len >= 3 else 0


def naive_valid(family: str, cards: set[str], maxc: int) -> bool:
    """Independent validity checks straight from TAROC-MELD-2/6/7/8/9."""
    conts = len(cards & {"BAG", "MAT"})
    if family in M.CRICCHE:
        members = set(D.format_cards(M.CRICCHE[family][0]).split())
        return cards <= members and len(cards) >= 3
    if family == "grande":
        return naive_grande_len(cards) == len(cards)
    if family in M.SUIT_FAMILIES:
        s = "SBCD"[M.SUIT_FAMILIES.index(family)]
        allowed = {r + s for r in "KQNJA"} | {"BAG", "MAT"}
        f = len(cards & {"Q" + s, "N" + s, "J" + s})
        return (cards <= allowed and "K" + s in cards and f >= 1 and f + conts >= 2
                and conts <= maxc)
    group = {"moors": {"MO1", "MO2", "MO3", "MO4"}, "aces": {"AS", "AB", "AC", "AD"}}[family]
    k = len(cards & group)
    return cards <= group | {"BAG", "MAT"} and k >= 2 and k + conts >= 3


def brute_best(hand: list[str], multi: bool, maxc: int) -> int:
    per_family = []
    for fam in M.FAMILIES:
        rel = [x for x in hand if M.family_cards(fam) >> c(x) & 1]
        found = [None]
        for sel in range(1, 1 << len(rel)):
            sub = {rel[i] for i in range(len(rel)) if sel >> i & 1}
            if naive_valid(fam, sub, maxc):
                found.append((fam, m(" ".join(sub))))
        per_family.append(found)
    top = 0
    for choice in product(*per_family):
        combos = [x for x in choice if x is not None]
        try:
            top = max(top, M.unit_points(combos, multi))
        except IllegalMoveError:
            continue
    return top


POOL = (["ANG", "MON", "SOL", "LUN", "T16", "T15", "T14", "BAG", "MAT", "MO1", "MO2", "MO3",
         "KS", "QS", "NS", "JS", "AS", "KB", "QB", "KC", "KD", "AB", "AC", "QC", "NB"])


@pytest.mark.parametrize("multi,maxc", [(True, 2), (False, 2), (True, 1), (False, 1)])
def test_finder_optimal_against_brute_force(multi, maxc):
    """The finder's best equals the best over every declarable subset (small hands)."""
    rng = random.Random(f"melds-{multi}-{maxc}")
    for _ in range(60):
        hand = rng.sample(POOL, rng.randint(4, 8))
        mask = m(" ".join(hand))
        pts, combos = M.best_combinations(mask, multi, maxc)
        assert pts == brute_best(hand, multi, maxc), hand
        assert M.unit_points(combos, multi) == pts
        assert all(M.is_combination(f, x, maxc) and not x & ~mask for f, x in combos)
        if len(hand) <= 6:
            alts = max(M.unit_points(d, multi)
                       for d in M.iter_declarations(mask, multi, maxc))
            assert alts == pts


def test_grande_matches_naive_reading():
    """TAROC-MELD-7: the finder's Grande length equals the independent placement search."""
    trumps = ["ANG", "MON", "SOL", "LUN"] + [f"T{k}" for k in range(16, 4, -1)] + \
        ["MO1", "MO2", "BAG", "MAT"]
    rng = random.Random("grande")
    for _ in range(400):
        hand = set(rng.sample(trumps, rng.randint(3, 12)))
        hand.add("ANG")
        got = M.best_in_family("grande", m(" ".join(hand))).bit_count()
        assert got == naive_grande_len(hand), sorted(hand)


def test_grande_alternatives_equal_subset_filter():
    """TAROC-DECL-2: the listed Grande alternatives are exactly the valid subsets."""
    rng = random.Random("grande-alts")
    trumps = list(range(40, 62))
    for _ in range(80):
        hand = sum(1 << x for x in rng.sample(trumps, rng.randint(3, 10))) | (1 << M.ANG)
        rel = hand & M.family_cards("grande") & ~(1 << M.ANG)
        bits = [1 << x for x in range(62) if rel >> x & 1]
        expect = []
        for sel in range(1 << len(bits)):
            cand = (1 << M.ANG) | sum(b for i, b in enumerate(bits) if sel >> i & 1)
            if naive_valid("grande", set(D.format_cards(cand).split()), 2):
                expect.append(cand)
        assert M.family_combinations("grande", hand) == tuple(sorted(expect)), \
            D.format_cards(hand)
