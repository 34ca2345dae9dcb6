"""Tarocchini combinations (melds): validity, values, enumeration and the best set.

Rules: docs/rules/tarocchini.md, section 7 (TAROC-MELD-1..12) and TAROC-DECL-2/5.

A *combination* is ``(family, mask)``: a family name and the bit mask of the cards
that make it up. A mask is a valid combination of its family iff every card in it
counts (its length ``L`` equals its card count), so ``KS QS NS`` is a combination but
``ANG MON SOL LUN MAT BAG T14`` is not (``T14`` never counts, TAROC-EX-22).

A *scoring unit* (TAROC-DECL-5: one player's declaration, or one side's pile after
play) scores at most one combination per family (TAROC-MELD-1); cricche and sequences
are doubled separately when three or more of them score (TAROC-MELD-10).

Card indices are those of ``solver.cards.TAROCCHINI_DECK`` (suits ``S B C D`` ranks
``A 6 7 8 9 10 J N Q K`` = 10*suit + rank, then ``BAG MO1..MO4 T5..T16 LUN SOL MON ANG``
= 40..60, ``MAT`` = 61).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import product
from typing import Any

from ..cards import TAROCCHINI_DECK as DECK
from ..errors import IllegalMoveError

# --- card indices -----------------------------------------------------------------
SUITS = "SBCD"
RANKS = ("A", "6", "7", "8", "9", "10", "J", "N", "Q", "K")
ACE, JACK, KNIGHT, QUEEN, KING = 0, 6, 7, 8, 9


def suit_card(suit: int, rank: int) -> int:
    """Index of the plain card of ``suit`` (0..3 = S B C D) and ``rank`` (0 = A .. 9 = K)."""
    return 10 * suit + rank


BAG = 40
MOORS = (41, 42, 43, 44)
T = {n: 40 + n for n in range(5, 17)}  # T5 = 45 .. T16 = 56
LUN, SOL, MON, ANG = 57, 58, 59, 60
MAT = 61

MAT_BIT = 1 << MAT
TRUMP_MASK = ((1 << 21) - 1) << 40  # BAG .. ANG (MAT is not a trump, TAROC-RANK-1)
MOORS_MASK = sum(1 << c for c in MOORS)
CONT_MASK = (1 << BAG) | MAT_BIT  # the contatori (TAROC-DECK-2)
SUIT_MASKS = tuple(0x3FF << (10 * s) for s in range(4))
ACES_MASK = sum(1 << suit_card(s, ACE) for s in range(4))

# --- families ---------------------------------------------------------------------
# Cricche (TAROC-MELD-2): members and (value of 3, value of 4).
CRICCHE: dict[str, tuple[int, tuple[int, int]]] = {
    "tarocchi": ((1 << ANG) | (1 << MON) | (1 << BAG) | MAT_BIT, (18, 36)),
    "kings": (sum(1 << suit_card(s, KING) for s in range(4)), (17, 34)),
    "queens": (sum(1 << suit_card(s, QUEEN) for s in range(4)), (14, 28)),
    "knights": (sum(1 << suit_card(s, KNIGHT) for s in range(4)), (13, 26)),
    "jacks": (sum(1 << suit_card(s, JACK) for s in range(4)), (12, 24)),
}
SUIT_FAMILIES = ("swords", "batons", "cups", "coins")  # suit sequences of S B C D
SEQUENCES = ("grande", *SUIT_FAMILIES, "moors", "aces")  # TAROC-MELD-4
FAMILIES = (*CRICCHE, *SEQUENCES)

# The Grande's walk (TAROC-MELD-7): head group, then T16 .. T5, then the Moors.
_HEAD = (MON, SOL, LUN)
_GRANDE_PATH = _HEAD + tuple(T[n] for n in range(16, 4, -1))
_HEAD_MASK = sum(1 << c for c in _HEAD)


def sequence_value(length: int) -> int:
    """Points of a sequence of ``length`` >= 3 cards: 10 + 5 (L - 3) (TAROC-MELD-3)."""
    return 10 + 5 * (length - 3)


def _popcount(mask: int) -> int:
    return mask.bit_count()


def _cont_list(mask: int) -> list[int]:
    return [c for c in (BAG, MAT) if mask >> c & 1]


def family_cards(family: str) -> int:
    """Mask of every card that can belong to a combination of ``family``."""
    if family in CRICCHE:
        return CRICCHE[family][0]
    if family == "grande":
        return TRUMP_MASK | MAT_BIT
    if family in SUIT_FAMILIES:
        s = SUIT_FAMILIES.index(family)
        figs = sum(1 << suit_card(s, r) for r in (ACE, JACK, KNIGHT, QUEEN, KING))
        return figs | CONT_MASK
    if family == "moors":
        return MOORS_MASK | CONT_MASK
    if family == "aces":
        return ACES_MASK | CONT_MASK
    raise KeyError(family)


# --- best combination of one family from a set of cards ------------------------------
def _grande(naturals: int, conts: tuple[int, ...]) -> int:
    """Best Grande (TAROC-MELD-7) from natural trumps ``naturals`` and contatori ``conts``.

    Returns the mask of the cards that count (0 if no valid Grande). Contatori may fill a
    missing position; one head card may be skipped free; two contatori in consecutive
    positions end the sequence after the second; unused contatori go at the end (BAG in
    its natural place is the same as a contatore).
    """
    if not naturals >> ANG & 1 or not naturals & _HEAD_MASK:
        return 0
    best = 0
    path = _GRANDE_PATH

    def finish(cards: int, left: tuple[int, ...]) -> None:
        nonlocal best
        for c in left:
            cards |= 1 << c
        cards |= 1 << ANG
        if _popcount(cards) > _popcount(best):
            best = cards

    def walk(i: int, cards: int, left: tuple[int, ...], skip: bool, prev_filled: bool) -> None:
        if i == len(path):  # T5 reached: every held Moor extends the Grande
            finish(cards | (naturals & MOORS_MASK), left)
            return
        p = path[i]
        if naturals >> p & 1:
            walk(i + 1, cards | (1 << p), left, skip, False)
            return
        if i < 3 and skip:  # the free skip of one head card
            walk(i + 1, cards, left, False, False)
        if left:
            filled = cards | (1 << left[0])
            if prev_filled:  # second consecutive contatore: the sequence ends here
                finish(filled, left[1:])
            else:
                walk(i + 1, filled, left[1:], skip, True)
        if i >= 3:  # stop at a missing card (a stop inside the head is invalid)
            finish(cards, left)

    walk(0, 0, conts, True, False)
    return best if _popcount(best) >= 3 else 0


def _suit_sequence(suit: int, cards: int, conts: tuple[int, ...], max_cont: int) -> int:
    """Best suit sequence (TAROC-MELD-6): King, F >= 1 natural Q/N/J, F + c >= 2, Ace extends."""
    king = 1 << suit_card(suit, KING)
    if not cards & king:
        return 0
    figs = cards & sum(1 << suit_card(suit, r) for r in (QUEEN, KNIGHT, JACK))
    f = _popcount(figs)
    used = conts[:max_cont]
    if f < 1 or f + len(used) < 2:
        return 0
    out = king | figs | (cards & (1 << suit_card(suit, ACE)))
    for c in used:
        out |= 1 << c
    return out


def _set_sequence(naturals: int, conts: tuple[int, ...]) -> int:
    """Moors or Aces (TAROC-MELD-8/9): m >= 2 naturals and m + c >= 3."""
    m = _popcount(naturals)
    if m < 2 or m + len(conts) < 3:
        return 0
    out = naturals
    for c in conts:
        out |= 1 << c
    return out


def best_in_family(family: str, cards: int, conts: tuple[int, ...] | None = None,
                   max_cont_suit: int = 2) -> int:
    """Mask of the best combination of ``family`` within ``cards`` (0 if none).

    ``conts`` restricts which contatori sequences may use (default: those in ``cards``);
    a cricca only uses its natural members (TAROC-MELD-2).
    """
    if family in CRICCHE:
        held = cards & CRICCHE[family][0]
        return held if _popcount(held) >= 3 else 0
    if conts is None:
        conts = tuple(_cont_list(cards))
    if family == "grande":
        return _grande(cards & TRUMP_MASK & ~(1 << BAG), conts)
    if family in SUIT_FAMILIES:
        return _suit_sequence(SUIT_FAMILIES.index(family), cards, conts, max_cont_suit)
    if family == "moors":
        return _set_sequence(cards & MOORS_MASK, conts)
    if family == "aces":
        return _set_sequence(cards & ACES_MASK, conts)
    raise KeyError(family)


def combination_points(family: str, mask: int) -> int:
    """Points of one valid combination (no doubling)."""
    n = _popcount(mask)
    if family in CRICCHE:
        return CRICCHE[family][1][n - 3]
    return sequence_value(n)


def is_combination(family: str, mask: int, max_cont_suit: int = 2) -> bool:
    """True iff ``mask`` is a valid combination of ``family`` in which every card counts."""
    if family not in FAMILIES or mask & ~family_cards(family):
        return False
    best = best_in_family(family, mask, None, max_cont_suit)
    return best != 0 and best == mask


# --- scoring a unit -------------------------------------------------------------------
def unit_points(combos: list[tuple[str, int]] | tuple[tuple[str, int], ...],
                multi_use: bool = True) -> int:
    """Points of one scoring unit made of these combinations (TAROC-MELD-10/11/12).

    Cricche total doubled if >= 3 cricche, sequences total doubled if >= 3 sequences.
    With ``multi_use`` false a contatore may appear in at most one sequence.
    """
    fams = [f for f, _ in combos]
    if len(set(fams)) != len(fams):
        raise IllegalMoveError("a scoring unit scores at most one combination per family")
    if not multi_use:
        seen = 0
        for f, m in combos:
            if f in SEQUENCES:
                if m & seen & CONT_MASK:
                    raise IllegalMoveError("a contatore is used in two sequences "
                                           "(contatore_multi_use=false)")
                seen |= m & CONT_MASK
    cr = [combination_points(f, m) for f, m in combos if f in CRICCHE]
    sq = [combination_points(f, m) for f, m in combos if f in SEQUENCES]
    return sum(cr) * (2 if len(cr) >= 3 else 1) + sum(sq) * (2 if len(sq) >= 3 else 1)


@lru_cache(maxsize=65536)
def best_combinations(cards: int, multi_use: bool = True,
                      max_cont_suit: int = 2) -> tuple[int, tuple[tuple[str, int], ...]]:
    """The best-scoring legal set of combinations within ``cards``: ``(points, combos)``.

    With multi-use (default, TAROC-MELD-12) every family takes its best combination
    with every contatore. Otherwise each contatore goes to at most one sequence and
    every assignment is tried (at most 8**2), keeping the best total after doubling.
    """
    combos: list[tuple[str, int]] = []
    for f in CRICCHE:
        m = best_in_family(f, cards)
        if m:
            combos.append((f, m))
    conts = _cont_list(cards)
    if multi_use:
        for f in SEQUENCES:
            m = best_in_family(f, cards, tuple(conts), max_cont_suit)
            if m:
                combos.append((f, m))
        return unit_points(combos), tuple(combos)
    best_pts, best_seq = -1, []
    for assign in product((None, *SEQUENCES), repeat=len(conts)):
        seq = []
        for f in SEQUENCES:
            mine = tuple(c for c, a in zip(conts, assign, strict=True) if a == f)
            m = best_in_family(f, cards & ~CONT_MASK | sum(1 << c for c in mine), mine,
                               max_cont_suit)
            if m:
                seq.append((f, m))
        pts = unit_points(seq, multi_use=False)
        if pts > best_pts:
            best_pts, best_seq = pts, seq
    combos += best_seq
    return unit_points(combos, multi_use=False), tuple(combos)


def best_points(cards: int, options: dict[str, Any] | None = None) -> int:
    """Points of the best combination set within ``cards`` under the game options."""
    o = options or {}
    return best_combinations(cards, bool(o.get("contatore_multi_use", True)),
                             int(o.get("max_contatori_per_suit_sequence", 2)))[0]


# --- every alternative a player could declare (TAROC-DECL-2) ---------------------------
@lru_cache(maxsize=16384)
def family_combinations(family: str, cards: int, max_cont_suit: int = 2) -> tuple[int, ...]:
    """Every valid combination mask of ``family`` within ``cards`` (ascending masks).

    A player may declare less than he holds (TAROC-DECL-2): three of four Kings, part of
    a sequence, a sequence without a contatore... each listed here.
    """
    rel = cards & family_cards(family)
    if family == "grande":
        return tuple(sorted(m for m in _grande_sets(rel) if is_combination(family, m)))
    if family in SUIT_FAMILIES:
        king = 1 << suit_card(SUIT_FAMILIES.index(family), KING)
        if not rel & king:
            return ()
        rel &= ~king
        base = king
    else:
        base = 0
    bits = [1 << c for c in range(64) if rel >> c & 1]
    out = []
    for sel in range(1 << len(bits)):
        m = base
        for i, b in enumerate(bits):
            if sel >> i & 1:
                m |= b
        if _popcount(m) >= 3 and is_combination(family, m, max_cont_suit):
            out.append(m)
    return tuple(sorted(out))


def _subsets(mask: int) -> list[int]:
    out = [0]
    while mask:
        low = mask & -mask
        out += [x | low for x in out]
        mask ^= low
    return out


def _grande_sets(cards: int) -> set[int]:
    """Every Grande within ``cards``, generated by walking TAROC-MELD-7 while letting
    each held natural card be left out (then it is missing: skipped, filled or a stop).
    Every set produced counts all its cards, and every valid set is produced by its own
    best placement, so this equals filtering all subsets, without the 2**n cost."""
    naturals = cards & TRUMP_MASK & ~(1 << BAG)
    if not naturals >> ANG & 1:
        return set()
    conts = tuple(_cont_list(cards))
    out: set[int] = set()
    path = _GRANDE_PATH
    moor_subsets = _subsets(naturals & MOORS_MASK)

    def finish(sel: int, left: tuple[int, ...]) -> None:
        if not sel & _HEAD_MASK:
            return
        for extra in _subsets(sum(1 << c for c in left)):
            m = sel | extra | (1 << ANG)
            if _popcount(m) >= 3:
                out.add(m)

    def walk(i: int, sel: int, left: tuple[int, ...], skip: bool, prev_filled: bool) -> None:
        if i == len(path):
            for sub in moor_subsets:
                finish(sel | sub, left)
            return
        p = path[i]
        if naturals >> p & 1:
            walk(i + 1, sel | (1 << p), left, skip, False)
        if i < 3 and skip:
            walk(i + 1, sel, left, False, False)
        for k, c in enumerate(left):
            rest = left[:k] + left[k + 1:]
            if prev_filled:
                finish(sel | (1 << c), rest)
            else:
                walk(i + 1, sel | (1 << c), rest, skip, True)
        if i >= 3:
            finish(sel, left)

    walk(0, 0, conts, True, False)
    return out


def declaration_alternatives(cards: int, max_cont_suit: int = 2) -> dict[str, tuple[int, ...]]:
    """Per family, every combination a player holding ``cards`` could declare."""
    out = {}
    for f in FAMILIES:
        combos = family_combinations(f, cards, max_cont_suit)
        if combos:
            out[f] = combos
    return out


def iter_declarations(cards: int, multi_use: bool = True,
                      max_cont_suit: int = 2) -> Iterator[tuple[tuple[str, int], ...]]:
    """Every legal declaration (a set of combinations, at most one per family), the empty
    one included. The number can be large for long trump holdings; iterate lazily."""
    alts = declaration_alternatives(cards, max_cont_suit)
    fams = list(alts)
    for choice in product(*[(None, *alts[f]) for f in fams]):
        combos = tuple((f, m) for f, m in zip(fams, choice, strict=True) if m is not None)
        if not multi_use:
            seen, ok = 0, True
            for f, m in combos:
                if f in SEQUENCES:
                    if m & seen & CONT_MASK:
                        ok = False
                        break
                    seen |= m & CONT_MASK
            if not ok:
                continue
        yield combos


def format_combination(family: str, mask: int) -> str:
    """``family:C1+C2+...`` (cards sorted as the deck prints them)."""
    return family + ":" + DECK.format_cards(mask).replace(" ", "+")
