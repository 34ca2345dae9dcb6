# cython: language_level=3
"""Tarocchini (Ottocento / Terziglio) card-play core: bitboards, legal moves, tricks,
the Matto exchange, pile combinations, seeded playouts and the exact double-dummy
search (rules: docs/rules/tarocchini.md sections 2-8, 9, 10).

Card layout ("core bits", one uint64_t for the 62 cards): plain suit ``s`` (S B C D =
0..3) owns bits ``10*s .. 10*s+9`` and inside a suit the bit position is the
trick-taking power (TAROC-RANK-3): long suits S B ``A 6 7 8 9 10 J N Q K`` (= deck
order), round suits C D ``10 9 8 7 6 A J N Q K`` (pips reversed).  Trumps keep their
deck bits 40..60 (BAG, MO1..MO4, T5..T16, LUN, SOL, MON, ANG: already in power order,
the four Moors share one rank, TAROC-RANK-2) and the Matto is bit 61.

Card points are in half points, ``2 * value - 1`` per card (TAROC-PTS-2): a pile of
``n`` cards is worth ``n + 8*(five-point cards) + 6*Q + 4*N + 2*J`` half points.

The hot code is plain C: ``cdef ... noexcept nogil`` functions on ``uint64_t`` masks
and small ints.  The Python classes at the end only copy integers in and out; the
Python face (solver/core/tarocchini.py) validates positions before they get here.

Issue 24 (the exact analysis, solver/dd/tarocchini.py: analyse) added ``probe`` (one
null-window search: "who comes out ahead"), ``bounds`` (the value's proven interval
without search), ``play``/``undo`` on the solver (the cards and the line share one
table), windows for ``solve`` and ``set_features``.  Measured on
benchmarks/dd_tarocchini.py (nodes, same positions, before vs now in one run; figures
in benchmarks/RESULTS.md):

* the probe at the ahead threshold against the exact value (how the question was
  answered before): Ottocento x16 at 8 tricks left, x46 at 9; Terziglio x70-x220 at
  8-11 (kept);
* sure trumps in the bounds (``sure``: the top trump run of one side, Moors as a
  group): -10 % nodes on Terziglio full-deal probes, -6 % at 12 left, -1 % Ottocento at
  10 left; solve_cards -11 % (Ottocento, 7 left) (kept);
* the discard counted for its side once that side has won a trick (``sure_discard``):
  -0.2 % (Ottocento, 10 left; the Terziglio deals are solos, no discard) (kept);
* rejected: a history heuristic in the move order (+26 % nodes on Terziglio full-deal
  probes, +4 % Ottocento at 10 left, +43 % Terziglio at 12); sure-point bounds inside a
  trick (no cut: with the trick's cards unassigned they are never tighter than at the
  trick boundary above); a larger table (2**20: -0.1 %; 2**16: +1 %).
  ``stats()`` counts the cut-offs by the first move searched and by a later one: on
  those probes 94-98 % are by the first, the table hit rate 44-51 %: the order is not
  where the nodes go.

Issue 24, second session (benchmarks/dd_tarocchini_where.py, ``set_diag``: nodes,
table probes, hits and bound cuts by tricks left, and a trace of the keys):

* partition search (the Tarot core's classes of positions differing only in low cards)
  measured *before* building it: of the table probes meeting a new exact key, the
  share whose key with every hand's pips reduced to counts per suit was met before --
  the most a partition table on the pips could reuse -- is 1.3 % on Terziglio full
  deals, 0 % gioco, 7.6 % Ottocento full deals, 10.5 % Ottocento at 10 tricks left
  (5M-node probes): the pips are 20 of 62 cards and the canonical key already holds
  them by relative rank, so it was not built;
* where the nodes are: 85-95 % at 2-7 tricks left; at the first lead of an Ottocento
  deal the probe is still in the first line when 5M nodes are spent; a table of 2**20
  or 2**22 entries changes nothing (the positions are distinct, not crowded out);
* ``sure_matto``: the Matto in a hand is a sure card of its side once that side has
  won a trick or holds a sure trump (matto_sure, TAROC-MATTO-2/3/5); the scartino a
  debtor pays is never the Matto (side_max).  Kept (on): -1.4 % nodes on 12
  Terziglio full-deal probes (one deal x2.4), 0-1 % on endgames;
* ``merge_dead``: 1-point trumps (T5..SOL) below the point no side's Grande can reach
  (grande_free_from, TAROC-MELD-7) merged like the pips, once no scartino can move a
  captured trump.  Kept (on): Terziglio 10 left -8 % nodes in sum (one deal x2.2),
  Ottocento 8-9 left -1..2 %, full deals 0 % (the Grande is alive there).  An upper
  bound, melds ignored, of what merging every 1-point card could leave out: 18 % of
  the moves (Terziglio), 5 % (Ottocento);
* medians over the benchmark's rows (dd_tarocchini.py --baseline no-matto-merge):
  x1.0 for both;
* the bounds: the sure-point interval is 15-20x the card points still in play (4-12
  tricks left), nearly all of it combinations (each side completes what it could with
  every remaining card, and every partition of them is a possible end), which is why
  they cut only at 2-5 tricks left;
* rejected: card-point caps from counting sure tricks (each opponent seat loses its
  cheapest cards to a seat's sure tricks; the other side wins at most k - S tricks):
  sound, tighter on 132 of 150 endgames, 0.2-0.8 % fewer nodes, +4-8 % CPU.

Issue 24, third session:

* fixed: side_max now gives the opponents, for their combinations, the Matto of a side
  that has won no trick (TAROC-MATTO-3: it goes to them, no scartino).  The upper
  bound had missed it (168 for a value of 214 in a test position).
* ``match`` (off): caps on a side's Grande and Moors sequence (match_caps).  An
  opposing seat's trumps reach the side only through distinct trumps of the side that
  beat them, one per trick (trumps_matched, a greedy maximum matching per seat; per
  side would be wrong with partners).  The matching bounds *how many* such trumps are
  taken, not which ones: a T20 against T19 and T18 takes either.  Sound (brute force),
  narrower on 25-30 % of the endgames built for it.  But the root interval is only
  0-2 % narrower at 4-12 tricks left, and nodes are x1.00 (benchmarks/RESULTS.md):
  the plain-suit families, which no every-play rule can take from a side, are two
  thirds of the width.

Issue 24, 2026-12-03 (from the Tarot core, issue 23):

* ``mobility``: a lead's score loses ``mobility`` x 4 log2 of the product of the
  opponents' legal answers (lead_branching).  A null-window proof keeps the first card
  of the proving side that succeeds, and the cards that succeed leave trees of very
  different sizes: a lead that forces follows or trumps is cheaper to prove than a
  master that frees every answer.  Weights 4 / 30 / 100 measured, 30 kept (on by
  default): "ahead" probes, geometric mean of the per-position node ratio, Terziglio
  1.17 / 1.86 at 9 / 10 tricks left, Ottocento 2.38 / 1.49 (10 positions each;
  benchmarks/dd_tarocchini.py --baseline no-mobility, RESULTS.md).

Issue 24, eighth session:

* ``early_probe`` (on): at a trick boundary the table bucket's three cache lines are
  prefetched once the key is known, and the sure-point bounds run before the probe
  reads them.  perf had a third of the search's time on that one cache miss (entries
  of 72 bytes hold the whole key, so a bucket of two spans three lines).  Same nodes
  (the bounds' cut comes first now: +-0.02 %), x1.13 the speed on Ottocento "ahead"
  probes at 10 tricks left, x1.19 on Terziglio full deals (CPU time, median of
  per-position ratios, A/B in one process).  Huge pages for the table
  (posix_memalign + madvise(MADV_HUGEPAGE), granted) changed nothing (x1.01-1.03):
  the miss is memory latency, not the TLB; not kept.
* ``merge2`` (on, from the Tarot core's points-aware merging): in exact searches,
  once no pile can lose a card (matto_open false), a hand's pip beside higher cards of the
  same hand with no live card between them (a run: every card of it beats and loses
  to the same cards, so the trick's winner does not depend on which is played) is
  searched only where the trick is surely lost to the other side (give the pip), the
  higher cards only where it is surely taken (bank them): the cards kept are
  interchangeable for the rest of the deal and a pip is worth least and in no
  combination.  ``run_outcome`` reads each later seat's strongest legal answer (a
  lead: surely taken when no later opponent can beat it).  Exact values on 130
  endgames (5-7 tricks left) the same, nodes geometric mean x1.28-1.43 (following
  only: x1.25-1.33); "ahead" probes x1.17 (Ottocento, 10 left), x1.12 (Terziglio full
  deals that finish).  Not under a horizon: the static evaluation reads which cards
  a hand keeps.
* ``order`` 2 (the default): a lead of the top remaining card of its suit counts as
  a sure winner, searched first, also when trumps are still out but no opponent can
  use one (each either must follow the suit or holds no trump: later_beats, the
  strongest legal answer of each); before, only when no other seat held a trump.
  "Ahead" probes, geometric mean of the per-position node ratio: Ottocento x19.0 at
  10 left (median x8.7; one 467k-node probe now takes 10 nodes), x1.29 at 9 left;
  Terziglio x2.13 and gioco x1.76 at 10 left; exact endgames at 8 left x1.28-1.32.
* measured and not kept: the relaxed games of the Tarot core carried over (R_0 / R_1:
  the pips 6..10 without rank among themselves, side 0 / side 1 picking the winner
  of a trick a pip heads; R_0 <= value <= R_1, checked on endgames): the relaxed
  values are nearly the real ones (12 Terziglio endgames at 6 left: 10 equal), but the
  proofs are no cheaper: Ottocento "ahead" probes at 10 left x1.0-1.5 in the
  direction that proves, and on Terziglio full deals the game favouring the
  opponents of the side being proven ahead cost more than the real one (994k against
  82k nodes, > 5M against 2.9M and 4.4M).  20 of 62 cards are pips (Tarot: 40 of
  78), the merging of a hand's adjacent pips already takes most of it, and every
  proof needs the combinations' cards, which keep their ranks.

Ninth session: enhanced transposition cutoff at a trick's last card (each child's
table entry, and its sure-point bounds, read before any subtree) measured and not
kept: Terziglio full deals nodes x1.06-1.20, CPU x0.51-0.94 (a child's key costs more
than the subtrees it saves; from 9 cards a hand only x0.91 CPU).  The gioco first
leads the "ahead" probe does not finish are near-minimal proofs (the declarer's first
card cuts at every one of its nodes, the opponents never): the order is not where
their nodes go.

Twenty-sixth session (diagnostic, not landed): where the "ahead" proofs are wide -- at
the nodes of the side a probe refutes, one node type searched on its first card only,
the node ratio being that type's width: Terziglio gioco (13 probes that finish within
5M nodes) leads x117, follows x4.6, trump follows x4.1, ruffs x2.5, discards x1.03;
Ottocento (5) leads x48, follows x26, trump follows x12, ruffs x1.8, discards x1.05.
A seat void in the led suit and in trumps is rare, so the Tarot core's deferred
discards (R_DD) would have nothing to take here. Non-sure trump leads after the plain
ones (both sides): gioco first leads x1.000; not kept.
"""

from libc.stdint cimport uint64_t, int64_t, uint32_t, int32_t, uint8_t
from libc.stdlib cimport calloc, free
from libc.math cimport log2
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from bitboard cimport popcount64, lowest_bit, highest_bit, pick_bit, splitmix, prefetch

from solver.errors import DealError, IllegalMoveError   # user errors (never in hot code)

DEF NCARDS = 62
DEF MAT = 61
DEF BAG = 40
DEF ANG = 60
DEF MON = 59
DEF TRUMPSUIT = 4
DEF MATSUIT = 5
DEF INF = 1000000
DEF VBOUND = 20000      # |value| is far below this (half points)
DEF LAST_HALF = 12      # 6 card points for the last trick (TAROC-PTS-2)
DEF MAXPLY = 80

# ---------------------------------------------------------------------------
# Tables (filled once at import)
# ---------------------------------------------------------------------------

cdef int DECK2CORE[62]
cdef int CORE2DECK[62]
cdef int SUIT[62]           # core card -> 0..3 plain suit, 4 trump, 5 Matto
cdef int POWER[62]          # core card -> power inside its suit (Moors all equal)
cdef int PTS[62]            # core card -> half points (2 * value - 1)
cdef uint64_t SUITMASK[5]
cdef uint64_t TRUMPS        # BAG .. ANG (the Matto is not a trump, TAROC-RANK-1)
cdef uint64_t MATB
cdef uint64_t MOORS
cdef uint64_t FIVE          # the five-point cards (TAROC-DECK-2)
cdef uint64_t QUEENS, KNIGHTS, JACKS, KINGS, ACES
cdef uint64_t PIPS          # 6..10 of every suit: in no combination, 1 point
cdef uint64_t REL           # cards that can count in a combination (all but PIPS)
cdef uint64_t TAROCCHI_M    # ANG MON BAG MAT
cdef uint64_t CONT          # the contatori BAG MAT
cdef int KING_C[4]
cdef int QNJ_M_SHIFT[4]
cdef uint64_t QNJ[4]
cdef int ACE_C[4]
cdef int GIVE_ORDER[43]     # TAROC-MATTO-2 scartino order (engine: pick_scartino)
cdef int NGIVE
cdef int LOWEST_ORDER[61]   # TAROC-MATTO-5 lowest-valued card order (pick_lowest)
cdef int GPATH[15]          # the Grande's walk: MON SOL LUN T16 .. T5 (TAROC-MELD-7)
cdef uint64_t HEADM


cdef void _init_tables():
    global TRUMPS, MATB, MOORS, FIVE, QUEENS, KNIGHTS, JACKS, KINGS, ACES, PIPS, REL
    global TAROCCHI_M, CONT, NGIVE, HEADM
    cdef int c, s, r, pos, i, k
    for c in range(62):
        if c < 40:
            s = c // 10
            r = c % 10
            pos = 5 - r if (s >= 2 and r <= 5) else r   # TAROC-RANK-3
            DECK2CORE[c] = 10 * s + pos
        else:
            DECK2CORE[c] = c
    for c in range(62):
        CORE2DECK[DECK2CORE[c]] = c
    TRUMPS = ((<uint64_t>1 << 21) - 1) << 40
    MATB = <uint64_t>1 << MAT
    MOORS = (<uint64_t>0xF) << 41
    for s in range(4):
        SUITMASK[s] = (<uint64_t>0x3FF) << (10 * s)
    SUITMASK[4] = TRUMPS
    KINGS = QUEENS = KNIGHTS = JACKS = ACES = PIPS = 0
    for s in range(4):
        KING_C[s] = 10 * s + 9
        KINGS |= <uint64_t>1 << (10 * s + 9)
        QUEENS |= <uint64_t>1 << (10 * s + 8)
        KNIGHTS |= <uint64_t>1 << (10 * s + 7)
        JACKS |= <uint64_t>1 << (10 * s + 6)
        QNJ[s] = (<uint64_t>7) << (10 * s + 6)
        ACE_C[s] = DECK2CORE[10 * s]
        ACES |= <uint64_t>1 << ACE_C[s]
        for r in range(1, 6):
            PIPS |= <uint64_t>1 << DECK2CORE[10 * s + r]
    FIVE = KINGS | (<uint64_t>1 << ANG) | (<uint64_t>1 << MON) | (<uint64_t>1 << BAG) | MATB
    REL = (((<uint64_t>1) << 62) - 1) & ~PIPS
    TAROCCHI_M = (<uint64_t>1 << ANG) | (<uint64_t>1 << MON) | (<uint64_t>1 << BAG) | MATB
    CONT = (<uint64_t>1 << BAG) | MATB
    for c in range(62):
        if c < 40:
            SUIT[c] = c // 10
            POWER[c] = c % 10
        elif c < MAT:
            SUIT[c] = TRUMPSUIT
            POWER[c] = 41 if 41 <= c <= 44 else c
        else:
            SUIT[c] = MATSUIT
            POWER[c] = -1
        PTS[c] = (1 + 8 * ((FIVE >> c) & 1) + 6 * ((QUEENS >> c) & 1)
                  + 4 * ((KNIGHTS >> c) & 1) + 2 * ((JACKS >> c) & 1))
    # scartino order (solver.games.tarocchini._GIVE_ORDER, deck order): pips 6..10,
    # Aces, Moors, T5..T16, LUN, SOL
    k = 0
    for c in range(40):
        if 1 <= c % 10 <= 5:
            GIVE_ORDER[k] = DECK2CORE[c]
            k += 1
    for s in range(4):
        GIVE_ORDER[k] = DECK2CORE[10 * s]
        k += 1
    for c in range(41, 59):
        GIVE_ORDER[k] = c
        k += 1
    NGIVE = k
    # lowest-valued card (pick_lowest): the give order, then by value and deck index
    for i in range(NGIVE):
        LOWEST_ORDER[i] = GIVE_ORDER[i]
    k = NGIVE
    for r in (6, 7, 8):            # Jacks (2), Knights (3), Queens (4)
        for s in range(4):
            LOWEST_ORDER[k] = DECK2CORE[10 * s + r]
            k += 1
    for c in (9, 19, 29, 39, 40, 59, 60):   # value 5 by deck index (MAT excluded)
        LOWEST_ORDER[k] = DECK2CORE[c]
        k += 1
    GPATH[0] = MON
    GPATH[1] = 58
    GPATH[2] = 57
    for i in range(12):
        GPATH[3 + i] = 56 - i
    HEADM = (<uint64_t>7) << 57


_init_tables()


cdef inline int pile_half(uint64_t m) noexcept nogil:
    """Card points of a set in half points: n + 8 f5 + 6 Q + 4 N + 2 J (TAROC-PTS-2)."""
    return (popcount64(m) + 8 * popcount64(m & FIVE) + 6 * popcount64(m & QUEENS)
            + 4 * popcount64(m & KNIGHTS) + 2 * popcount64(m & JACKS))


# ---------------------------------------------------------------------------
# Combinations (TAROC-MELD-1..12) of a set of core cards
# ---------------------------------------------------------------------------

cdef void _gwalk(uint64_t nat, int i, int cnt, int left, int skip, int prevf,
                 int* best) noexcept nogil:
    """The Grande's walk (TAROC-MELD-7), counting cards: ``cnt`` counted so far,
    ``left`` contatori unused, ``skip`` the free head skip still available,
    ``prevf`` the previous position was filled by a contatore."""
    cdef int L, p
    if i == 15:   # T5 reached: every held Moor extends the Grande
        L = cnt + popcount64(nat & MOORS) + left + 1
        if L > best[0]:
            best[0] = L
        return
    p = GPATH[i]
    if (nat >> p) & 1:
        _gwalk(nat, i + 1, cnt + 1, left, skip, 0, best)
        return
    if i < 3 and skip:
        _gwalk(nat, i + 1, cnt, left, 0, 0, best)
    if left:
        if prevf:   # two consecutive contatori: the sequence ends after the second
            L = cnt + 1 + (left - 1) + 1
            if L > best[0]:
                best[0] = L
        else:
            _gwalk(nat, i + 1, cnt + 1, left - 1, skip, 1, best)
    if i >= 3:      # stop at a missing card (never inside the head group)
        L = cnt + left + 1
        if L > best[0]:
            best[0] = L


cdef inline int grande_len(uint64_t m, int k) noexcept nogil:
    cdef uint64_t nat = m & TRUMPS & ~(<uint64_t>1 << BAG)
    cdef int best = 0
    if not (nat >> ANG) & 1 or not (nat & HEADM):
        return 0
    _gwalk(nat, 0, 0, k, 1, 0, &best)
    return best if best >= 3 else 0


cdef inline int seq_len(uint64_t m, int fam, int k, int maxc) noexcept nogil:
    """Length of the best sequence of family ``fam`` (0 Grande, 1..4 suits S B C D,
    5 Moors, 6 Aces) with ``k`` contatori available (0 = no valid sequence)."""
    return seq_len_c(m, fam, k, maxc, 99, 99)


cdef inline int seq_len_c(uint64_t m, int fam, int k, int maxc, int gnat,
                          int mnat) noexcept nogil:
    """seq_len with caps (an upper bound of a pile's sequence that can still grow,
    match_caps): the Grande counts at most ``gnat`` natural cards (its length at most
    ``gnat`` + the contatori), the Moors sequence at most ``mnat`` natural Moors."""
    cdef int s, f, j, n
    if fam == 0:
        n = grande_len(m, k)
        if n > gnat + k:
            n = gnat + k
        return n if n >= 3 else 0
    if fam <= 4:    # TAROC-MELD-6
        s = fam - 1
        if not (m >> KING_C[s]) & 1:
            return 0
        f = popcount64(m & QNJ[s])
        j = k if k < maxc else maxc
        if f < 1 or f + j < 2:
            return 0
        return 1 + f + j + <int>((m >> ACE_C[s]) & 1)
    n = popcount64(m & (MOORS if fam == 5 else ACES))   # TAROC-MELD-8/9
    if fam == 5 and n > mnat:
        n = mnat
    if n < 2 or n + k < 3:
        return 0
    return n + k


cdef inline int seq_pts(int L) noexcept nogil:
    return 10 + 5 * (L - 3) if L >= 3 else 0    # TAROC-MELD-3


cdef int melds(uint64_t m, int multi, int maxc) noexcept nogil:
    """Points of the best combination set within ``m`` (one scoring unit):
    cricche (TAROC-MELD-2) and sequences, each total doubled at 3+ combinations
    (TAROC-MELD-10); contatori multi-use or single-use (TAROC-MELD-12)."""
    return melds_c(m, multi, maxc, 99, 99)


cdef int melds_c(uint64_t m, int multi, int maxc, int gnat, int mnat) noexcept nogil:
    """melds with the Grande / Moors caps of seq_len_c (99: none)."""
    cdef int cr = 0, ncr = 0, n, k, f, L, tot, ns, best, a0, a1, cnt[7]
    n = popcount64(m & TAROCCHI_M)
    if n >= 3:
        cr += 18 if n == 3 else 36
        ncr += 1
    n = popcount64(m & KINGS)
    if n >= 3:
        cr += 17 if n == 3 else 34
        ncr += 1
    n = popcount64(m & QUEENS)
    if n >= 3:
        cr += 14 if n == 3 else 28
        ncr += 1
    n = popcount64(m & KNIGHTS)
    if n >= 3:
        cr += 13 if n == 3 else 26
        ncr += 1
    n = popcount64(m & JACKS)
    if n >= 3:
        cr += 12 if n == 3 else 24
        ncr += 1
    if ncr >= 3:
        cr *= 2
    k = popcount64(m & CONT)
    if multi or k == 0:
        tot = 0
        ns = 0
        for f in range(7):
            L = seq_len_c(m, f, k, maxc, gnat, mnat)
            if L:
                tot += seq_pts(L)
                ns += 1
        if ns >= 3:
            tot *= 2
        return cr + tot
    return cr + seq_single_c(m, k, maxc, gnat, mnat)


cdef int seq_single(uint64_t m, int k, int maxc) noexcept nogil:
    return seq_single_c(m, k, maxc, 99, 99)


cdef int seq_single_c(uint64_t m, int k, int maxc, int gnat, int mnat) noexcept nogil:
    """Sequence points with single-use contatori (TAROC-MELD-12): each of the ``k``
    contatori to at most one sequence (7 = none), the best total after doubling."""
    cdef int best = 0, a0, a1, f, L, tot, ns, cnt[7]
    for a0 in range(8):
        for a1 in range(8 if k == 2 else 1):
            for f in range(7):
                cnt[f] = 0
            if a0 < 7:
                cnt[a0] += 1
            if k == 2 and a1 < 7:
                cnt[a1] += 1
            tot = 0
            ns = 0
            for f in range(7):
                L = seq_len_c(m, f, cnt[f], maxc, gnat, mnat)
                if L:
                    tot += seq_pts(L)
                    ns += 1
            if ns >= 3:
                tot *= 2
            if tot > best:
                best = tot
    return best


cdef uint64_t CRFAM[5]
cdef int CRV3[5]
cdef int CRV4[5]
cdef uint64_t SEQFAM[7]
CRV3[:] = [18, 17, 14, 13, 12]
CRV4[:] = [36, 34, 28, 26, 24]


cdef void _init_families():
    cdef int s
    CRFAM[0] = TAROCCHI_M
    CRFAM[1] = KINGS
    CRFAM[2] = QUEENS
    CRFAM[3] = KNIGHTS
    CRFAM[4] = JACKS
    SEQFAM[0] = TRUMPS | MATB
    for s in range(4):
        SEQFAM[1 + s] = (<uint64_t>1 << KING_C[s]) | QNJ[s] | (<uint64_t>1 << ACE_C[s]) | CONT
    SEQFAM[5] = MOORS | CONT
    SEQFAM[6] = ACES | CONT


_init_families()


# ---------------------------------------------------------------------------
# Positions, legal moves, tricks
# ---------------------------------------------------------------------------

ctypedef struct Game:
    int n                   # 4 Ottocento, 3 Terziglio
    int side[4]             # seat -> side (0 / 1)
    uint64_t discard        # core mask, joins discard_side's pile (OTTO-DEAL-3, TERZ-BID-2)
    int discard_side
    uint64_t stock          # solo stock, to the side of the last trick (TERZ-BID-3)
    int decl_half[2]        # declared points per side, in half points (TAROC-DECL-4)
    int multi               # TAROC-MELD-12 contatore_multi_use
    int maxc                # TAROC-MELD-6 max_contatori_per_suit_sequence


ctypedef struct Pos:
    uint64_t hand[4]
    int tcard[4]            # the trick in progress, in play order from the leader
    int trick_n
    int leader
    uint64_t pile[2]        # cards won by each side (after Matto exchanges)
    int owed[2]             # scartini owed (TAROC-MATTO-2)
    int won[2]              # tricks won by each side
    int last_side           # side of the last completed trick's winner (-1: none)
    int last_winner


cdef inline uint64_t legal_mask(const Game* g, const Pos* p) noexcept nogil:
    """TAROC-PLAY-1/2/3 and TAROC-MATTO-1 as mask operations."""
    cdef int seat = (p.leader + p.trick_n) % g.n
    cdef uint64_t hand = p.hand[seat], follow, tr
    cdef int led = -1, i
    for i in range(p.trick_n):
        if p.tcard[i] != MAT:       # TAROC-PLAY-2: a led Matto lets the next card decide
            led = SUIT[p.tcard[i]]
            break
    if led < 0:
        return hand
    follow = hand & SUITMASK[led]
    if follow:
        return follow | (hand & MATB)
    if led != TRUMPSUIT:
        tr = hand & TRUMPS          # no obligation to overtrump
        if tr:
            return tr | (hand & MATB)
    return hand


cdef inline int trick_best(const Pos* p, int upto) noexcept nogil:
    """Index in the trick of the card currently winning among the first ``upto``
    cards (TAROC-PLAY-4, equal Moors: the last one wins, TAROC-RANK-2); -1 if none."""
    cdef int led = -1, i, c, k, best = -1, bk = -1
    for i in range(upto):
        if p.tcard[i] != MAT:
            led = SUIT[p.tcard[i]]
            break
    for i in range(upto):
        c = p.tcard[i]
        if c == MAT:
            continue        # the Matto never wins (TAROC-RANK-1)
        if SUIT[c] == TRUMPSUIT:
            k = 100 + POWER[c]
        elif SUIT[c] == led:
            k = POWER[c]
        else:
            continue
        if k > bk or (k == bk and k == 141):
            best = i
            bk = k
    return best


cdef inline int pick_give(uint64_t pile) noexcept nogil:
    cdef int i
    for i in range(NGIVE):
        if (pile >> GIVE_ORDER[i]) & 1:
            return GIVE_ORDER[i]
    return -1


cdef inline int pick_lowest(uint64_t pile) noexcept nogil:
    cdef int i
    for i in range(61):
        if (pile >> LOWEST_ORDER[i]) & 1:
            return LOWEST_ORDER[i]
    return -1


cdef inline void collect(const Game* g, Pos* p) noexcept nogil:
    """Winner of the complete trick, Matto exchange and scartino debts (TAROC-MATTO-2)."""
    cdef int bi = trick_best(p, g.n), i, c, s, ws, w, mat_side = -1
    cdef uint64_t cards = 0
    w = (p.leader + bi) % g.n
    ws = g.side[w]
    for i in range(g.n):
        c = p.tcard[i]
        cards |= <uint64_t>1 << c
        if c == MAT:
            mat_side = g.side[(p.leader + i) % g.n]
    if mat_side >= 0 and mat_side != ws:
        p.pile[ws] |= cards & ~MATB
        p.pile[mat_side] |= MATB
        p.owed[mat_side] += 1
    else:
        p.pile[ws] |= cards
    for s in range(2):
        while p.owed[s]:
            c = pick_give(p.pile[s] & ~MATB)
            if c < 0:
                break
            p.pile[s] &= ~(<uint64_t>1 << c)
            p.pile[1 - s] |= <uint64_t>1 << c
            p.owed[s] -= 1
    p.won[ws] += 1
    p.trick_n = 0
    p.leader = w
    p.last_side = ws
    p.last_winner = w


cdef inline void pos_play(const Game* g, Pos* p, int c) noexcept nogil:
    cdef int seat = (p.leader + p.trick_n) % g.n
    p.hand[seat] &= ~(<uint64_t>1 << c)
    p.tcard[p.trick_n] = c
    p.trick_n += 1
    if p.trick_n == g.n:
        collect(g, p)


cdef inline int pos_over(const Game* g, const Pos* p) noexcept nogil:
    return p.trick_n == 0 and (p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]) == 0


cdef void final_piles(const Game* g, const Pos* p, uint64_t* piles) noexcept nogil:
    """End of hand (TAROC-MATTO-3/5, OTTO-DEAL-3, TERZ-BID-2/3), as final_piles."""
    cdef int s, c, owner, owed[2]
    piles[0] = p.pile[0]
    piles[1] = p.pile[1]
    owed[0] = p.owed[0]
    owed[1] = p.owed[1]
    for s in range(2):
        if (piles[s] & MATB) and p.won[s] == 0:
            piles[s] &= ~MATB
            piles[1 - s] |= MATB
            owed[s] = 0
        while owed[s]:
            c = pick_lowest(piles[s])
            if c < 0:
                break
            piles[s] &= ~(<uint64_t>1 << c)
            piles[1 - s] |= <uint64_t>1 << c
            owed[s] -= 1
    if g.discard:
        owner = g.discard_side
        if p.won[owner] == 0:
            owner = 1 - owner
        piles[owner] |= g.discard
    if g.stock and p.last_side >= 0:
        piles[p.last_side] |= g.stock


cdef int final_totals(const Game* g, const Pos* p, int* tot, int* md, int* cp,
                      uint64_t* piles) noexcept nogil:
    """Each side's total in half points (OTTO-SCORE-1, TERZ-SCORE-1); returns
    side 1 minus side 0."""
    cdef int s
    final_piles(g, p, piles)
    for s in range(2):
        md[s] = melds(piles[s], g.multi, g.maxc)
        cp[s] = pile_half(piles[s])
        tot[s] = side_total(g, p, s, md[s], cp[s])
    return tot[1] - tot[0]


cdef inline int side_total(const Game* g, const Pos* p, int s, int md, int cp) noexcept nogil:
    # a side's final total from its combinations (md) and card points (cp, half points)
    return g.decl_half[s] + 2 * md + cp + (LAST_HALF if s == p.last_side else 0)


# ---------------------------------------------------------------------------
# Seeded random playouts
# ---------------------------------------------------------------------------

cdef int64_t run_playouts(const Game* g, const Pos* start, int64_t n, uint64_t seed,
                          int64_t* side1_total) noexcept nogil:
    """``n`` random playouts to the end; returns the sum of the final values
    (side 1 minus side 0, half points) and adds side 1's totals to ``side1_total``."""
    cdef Pos p
    cdef int64_t total = 0, i
    cdef uint64_t st = seed
    cdef int tot[2], md[2], cp[2]
    cdef uint64_t piles[2]
    for i in range(n):
        p = start[0]
        while not pos_over(g, &p):
            pos_play(g, &p, pick_bit(legal_mask(g, &p), splitmix(&st)))
        total += final_totals(g, &p, tot, md, cp, piles)
        side1_total[0] += tot[1]
    return total


# ---------------------------------------------------------------------------
# Python-facing helpers (conversions)
# ---------------------------------------------------------------------------

cdef uint64_t to_core(uint64_t deck_mask):
    cdef uint64_t out = 0
    cdef int d
    while deck_mask:
        d = lowest_bit(deck_mask)
        deck_mask &= deck_mask - 1
        out |= <uint64_t>1 << DECK2CORE[d]
    return out


cdef uint64_t to_deck(uint64_t core_mask):
    cdef uint64_t out = 0
    cdef int c
    while core_mask:
        c = lowest_bit(core_mask)
        core_mask &= core_mask - 1
        out |= <uint64_t>1 << CORE2DECK[c]
    return out


cdef int game_init(Game* g, int n, side, uint64_t discard, int discard_side,
                   uint64_t stock, decl, bint multi, int maxc) except -1:
    cdef int i
    # the Python face validates; these guards only keep the core memory-safe
    if n not in (3, 4) or len(side) < n or discard_side not in (0, 1):
        raise DealError("core game: n must be 3 or 4 with a side for each seat")
    if any(int(side[i]) not in (0, 1) for i in range(n)):
        raise DealError("core game: sides are 0 or 1")
    g.n = n
    for i in range(4):
        g.side[i] = int(side[i]) if i < n else 0
    g.discard = to_core(discard)
    g.discard_side = discard_side
    g.stock = to_core(stock)
    g.decl_half[0] = 2 * int(decl[0])
    g.decl_half[1] = 2 * int(decl[1])
    g.multi = 1 if multi else 0
    g.maxc = maxc


cdef int pos_init(Pos* p, int n, hands, trick, int leader, piles, owed, won,
                  int last_side) except -1:
    cdef int i
    if not 0 <= leader < n or len(trick) >= n or len(hands) > 4 or last_side not in (-1, 0, 1):
        raise DealError("core position: leader, trick or last side out of range")
    if any(not 0 <= int(c) < 62 for c in trick):
        raise DealError("core position: trick card out of range")
    if any(popcount64(<uint64_t>h) > 20 for h in hands):
        raise DealError("core position: at most 20 cards per hand")
    for i in range(4):
        p.hand[i] = to_core(hands[i]) if i < len(hands) else 0
    p.trick_n = len(trick)
    for i in range(p.trick_n):
        p.tcard[i] = DECK2CORE[int(trick[i])]
    p.leader = leader
    for i in range(2):
        p.pile[i] = to_core(piles[i])
        p.owed[i] = int(owed[i])
        p.won[i] = int(won[i])
    p.last_side = last_side
    p.last_winner = -1


def deck_to_core(int deck_card) -> int:
    """Core bit of a deck card index."""
    if not 0 <= deck_card < 62:
        raise IllegalMoveError(f"card index {deck_card} out of range 0..61")
    return DECK2CORE[deck_card]


def core_to_deck(int core_card) -> int:
    """Deck index of a core bit."""
    if not 0 <= core_card < 62:
        raise IllegalMoveError(f"core bit {core_card} out of range 0..61")
    return CORE2DECK[core_card]


def meld_points(uint64_t deck_mask, bint multi_use=True, int max_cont=2) -> int:
    """Points of the best combination set within a deck mask (TAROC-MELD)."""
    return melds(to_core(deck_mask), 1 if multi_use else 0, max_cont)


def points_half(uint64_t deck_mask) -> int:
    """Card points of a deck mask in half points (TAROC-PTS-2)."""
    return pile_half(to_core(deck_mask))


cdef class TarocchiniCore:
    """One play-phase position with O(1) play/undo (a copy of the small position
    struct per ply), legal masks, trick results, final totals and seeded playouts.
    Cards in and out are deck indices / deck masks."""

    cdef Game g
    cdef Pos p
    cdef Pos hist[MAXPLY]
    cdef int nhist

    def __init__(self, int n, side, uint64_t discard=0, int discard_side=0,
                 uint64_t stock=0, decl=(0, 0), bint multi_use=True, int max_cont=2):
        game_init(&self.g, n, side, discard, discard_side, stock, decl, multi_use, max_cont)
        self.nhist = 0

    def set_position(self, hands, trick, int leader, piles=(0, 0), owed=(0, 0),
                     won=(0, 0), int last_side=-1):
        pos_init(&self.p, self.g.n, hands, trick, leader, piles, owed, won, last_side)
        self.nhist = 0

    def to_act(self) -> int:
        return (self.p.leader + self.p.trick_n) % self.g.n

    def leader(self) -> int:
        return self.p.leader

    def trick_count(self) -> int:
        return self.p.trick_n

    def last_winner(self) -> int:
        return self.p.last_winner

    def current_winner(self) -> int:
        """Seat currently winning the trick in progress (-1 if none)."""
        cdef int i = trick_best(&self.p, self.p.trick_n)
        return -1 if i < 0 else (self.p.leader + i) % self.g.n

    def hand(self, int seat) -> int:
        if not 0 <= seat < self.g.n:
            raise IllegalMoveError(f"seat must be 0..{self.g.n - 1}, got {seat}")
        return to_deck(self.p.hand[seat])

    def piles(self) -> list:
        return [to_deck(self.p.pile[0]), to_deck(self.p.pile[1])]

    def owed(self) -> list:
        return [self.p.owed[0], self.p.owed[1]]

    def won(self) -> list:
        return [self.p.won[0], self.p.won[1]]

    def is_over(self) -> bool:
        return bool(pos_over(&self.g, &self.p))

    def legal(self) -> int:
        """Deck mask of the legal cards of the seat to act."""
        return to_deck(legal_mask(&self.g, &self.p))

    def play(self, int deck_card):
        """Play a card of the seat to act (IllegalMoveError if it is not legal)."""
        cdef int c
        cdef int seat = (self.p.leader + self.p.trick_n) % self.g.n
        if self.nhist >= MAXPLY:
            raise IllegalMoveError("too many plies")
        if not 0 <= deck_card < 62:
            raise IllegalMoveError(f"card index {deck_card} out of range 0..61")
        c = DECK2CORE[deck_card]
        if not (legal_mask(&self.g, &self.p) >> c) & 1:
            raise IllegalMoveError(f"card {deck_card} is not legal for seat {seat}")
        self.hist[self.nhist] = self.p
        self.nhist += 1
        pos_play(&self.g, &self.p, c)

    def undo(self):
        if self.nhist == 0:
            raise IllegalMoveError("nothing to undo")
        self.nhist -= 1
        self.p = self.hist[self.nhist]

    def final(self) -> dict:
        """Final piles (deck masks), combinations, card points and totals (half points)
        of the finished hand; ``value`` = side 1 total minus side 0 total."""
        cdef int tot[2], md[2], cp[2]
        cdef uint64_t piles[2]
        cdef int v = final_totals(&self.g, &self.p, tot, md, cp, piles)
        return {"piles": [to_deck(piles[0]), to_deck(piles[1])], "pile_melds": [md[0], md[1]],
                "card_points_half": [cp[0], cp[1]], "totals_half": [tot[0], tot[1]],
                "last_trick": self.p.last_side, "value": v}

    def playouts(self, long long n, unsigned long long seed) -> tuple:
        """``n`` seeded random playouts inside the core from the current position:
        (sum of final values side 1 − side 0, sum of side 1 totals), half points."""
        cdef int64_t s1 = 0, tot
        with nogil:
            tot = run_playouts(&self.g, &self.p, n, seed, &s1)
        return tot, s1


# ---------------------------------------------------------------------------
# Exact double-dummy search
# ---------------------------------------------------------------------------
# Value: the final total of side 1 minus that of side 0 (half points), side 1
# maximises.  Transposition table entries at trick boundaries, keyed on the hands
# (hence the remaining cards), the leader, the combination-relevant captured cards of
# side 1 (side 0's are the rest of the captured ones), scartino debts, "has won a
# trick" per side and, while the Matto is still in a hand, whether each side's pile
# holds a pip (which scartino it would give).  Values are stored relative to the card
# points already taken (pile1 − pile0 half points): the rest of the value is a function
# of the key.

ctypedef struct TTEntry:
    uint64_t h[6]
    uint64_t rel1
    uint32_t gen
    int32_t lb
    int32_t ub
    uint8_t info            # leader | flags << 2
    uint8_t move            # best move (core card) or 255
    uint8_t left            # cards left in the position


ctypedef struct Search:
    Game g
    Pos p
    TTEntry* tt
    int tt_bits
    uint64_t tt_size
    uint32_t gen
    int64_t nodes
    int64_t budget
    double deadline
    int aborted
    int64_t tt_probes
    int64_t tt_hits
    int64_t tt_stores
    int64_t probes
    int merge
    int canon
    int bounds
    int sure                # bounds count the sure trumps (issue 24; off: as before)
    int sure_discard        # ... and the discard of a side that has won a trick
    int sure_matto          # ... and the Matto of a side that surely wins a trick
    int merge_dead          # merge 1-point trumps the Grande can no longer reach
    int match               # combination caps from the per-seat trump matching
    int64_t dead_merged     # moves left out by merge_dead
    int dead                # dead-family compression of the key
    int tt_min              # cards per hand from which trick boundaries use the TT
    int order               # move-ordering scheme (0 basic, 1 sure winners / last seat)
    int mobility            # leads: weight of the opponents' answers (lead_branching)
    int early_probe         # the table's bucket prefetched, the bounds asked before it
    int merge2              # points-aware merging of a hand's runs (gen_moves)
    int64_t m2_merged       # moves left out by merge2
    int mtd_steps           # MTD(f) probes before bisection
    int64_t bound_cuts
    int64_t cuts_first      # cut-offs by the first move searched / by a later one
    int64_t cuts_later
    uint64_t mc_key[4096]   # direct-mapped cache of combination points by card set
    int mc_val[4096]
    uint64_t mc2_key[4096]  # ... and by card set and caps (melds_cached_cap)
    int mc2_cap[4096]
    int mc2_val[4096]
    int vlo                 # static bounds of the value (all cards to one side)
    int vhi
    int stop_left           # horizon: cards per hand at the trick boundary scored by
                            # static_eval instead of searched (<= 1: exact search)
    int64_t leaves          # horizon leaves scored
    int diag                # diagnostics on: per-depth counters and the key trace
    int64_t d_nodes[22]     # nodes by tricks left (the trick in progress included)
    int64_t d_probes[22]    # table probes / hits / bound cuts by tricks left
    int64_t d_hits[22]
    int64_t d_bcuts[22]
    int64_t d_moves         # moves generated / if every 1-point card merged like pips
    int64_t d_moves_ub
    int64_t d_gen
    uint64_t* tr_buf        # key trace: (exact hash, pip-free hash) per table probe
    int64_t tr_n
    int64_t tr_cap


cdef inline double now_s() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline int key_flags(const Pos* p) noexcept nogil:
    cdef int f = (p.owed[0] & 1) | ((p.owed[1] & 1) << 1)
    f |= (1 if p.won[0] else 0) << 2
    f |= (1 if p.won[1] else 0) << 3
    if (p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]) & MATB:
        f |= (1 if p.pile[0] & PIPS else 0) << 4
        f |= (1 if p.pile[1] & PIPS else 0) << 5
    return f


cdef uint64_t dead_summary(const Search* s, const Pos* p, uint64_t* out) noexcept nogil:
    """Combination families whose cards are all captured (none in a hand, the discard
    or the stock) with the Matto closed have fixed points per side: their cards leave
    the key (returned mask: cards in dead families only) and each side's dead cricche
    (sum, count) and dead sequences (sum, count) enter it instead (the doubling
    TAROC-MELD-10 still depends on the live ones).  Single-use contatori
    (TAROC-MELD-12) couple the sequences: they die only all together."""
    cdef uint64_t U = p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3] | s.g.discard | s.g.stock
    cdef uint64_t dead = 0, live = 0, code = 0, pile
    cdef int f, sd, n, crs, crc, sqs, sqc, L, k, seq_dead[7], all_seq = 1
    for f in range(5):
        if CRFAM[f] & U:
            live |= CRFAM[f]
        else:
            dead |= CRFAM[f]
    for f in range(7):
        seq_dead[f] = (SEQFAM[f] & U) == 0
        if not seq_dead[f]:
            all_seq = 0
    if not s.g.multi and not all_seq:
        for f in range(7):
            seq_dead[f] = 0
    for f in range(7):
        if seq_dead[f]:
            dead |= SEQFAM[f]
        else:
            live |= SEQFAM[f]
    if dead == 0:
        return 0
    for sd in range(2):
        pile = p.pile[sd]
        crs = crc = sqs = sqc = 0
        for f in range(5):
            if not (CRFAM[f] & U):
                n = popcount64(pile & CRFAM[f])
                if n >= 3:
                    crs += CRV3[f] if n == 3 else CRV4[f]
                    crc += 1
        k = popcount64(pile & CONT)
        if s.g.multi:
            for f in range(7):
                if seq_dead[f]:
                    L = seq_len(pile, f, k, s.g.maxc)
                    if L:
                        sqs += seq_pts(L)
                        sqc += 1
        elif all_seq:
            sqs = seq_single(pile, k, s.g.maxc)
        code |= (<uint64_t>(crs | (crc << 8) | (sqs << 11) | (sqc << 21))) << (24 * sd)
    out[0] = code | (<uint64_t>1 << 63)
    return dead & ~live


cdef inline uint64_t make_key(const Search* s, uint64_t* hk) noexcept nogil:
    """Key words of a trick-boundary position; returns the side-1 captured part.

    Canonical form (``canon``): pips (in no combination, 1 point each, contiguous in
    power between the Ace and the Jack / below the Ace) by count and holders in power
    order per suit; the Moors (equal rank, interchangeable everywhere) by count per
    holder and, among side 1's captured cards, by count."""
    cdef const Pos* p = &s.p
    cdef uint64_t rem, code = 0, strip, rel1, lo_m, hi_m, r
    cdef int i, st, b, sh = 0, k
    if not s.canon:
        for i in range(4):
            hk[i] = p.hand[i]
        hk[4] = 0
        hk[5] = 0
        return p.pile[1] & REL
    strip = ~(PIPS | MOORS)
    for i in range(4):
        hk[i] = p.hand[i] & strip
    rem = (p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]) & PIPS
    # a pip's holder code (seat 0..3) as two bits: seats 1 and 3 set the low one,
    # seats 2 and 3 the high one
    lo_m = p.hand[1] | p.hand[3]
    hi_m = p.hand[2] | p.hand[3]
    for st in range(4):
        k = 0
        r = rem & (<uint64_t>0x3FF << (10 * st))
        while r:                        # the suit's pips in power order
            b = lowest_bit(r)
            r &= r - 1
            code |= (((lo_m >> b) & 1) | (((hi_m >> b) & 1) << 1)) << (sh + 3 + 2 * k)
            k += 1
        code |= (<uint64_t>k) << sh
        sh += 13
    for i in range(4):
        code |= (<uint64_t>popcount64(p.hand[i] & MOORS)) << (52 + 3 * i)
    hk[4] = code
    cdef uint64_t drop = 0
    hk[5] = 0
    if s.dead and not matto_open(p):
        drop = dead_summary(s, p, &hk[5])
    rel1 = p.pile[1] & REL & ~MOORS & ~drop
    if drop & MOORS:
        return rel1
    return rel1 | ((<uint64_t>popcount64(p.pile[1] & MOORS)) << 41)


cdef inline uint64_t tt_hash(uint64_t* hk, int info, uint64_t rel1) noexcept nogil:
    # the table index's hash of a key (computed once a node, for the probe and the store)
    return mix64(hk[0] ^ mix64(hk[1] ^ mix64(hk[2] ^ mix64(hk[3] ^ mix64(
        hk[4] ^ mix64(hk[5] ^ mix64(rel1 ^ (<uint64_t>info << 56))))))))


cdef inline TTEntry* tt_slot(Search* s, uint64_t h, uint64_t* hk, int info, uint64_t rel1,
                             int probe) noexcept nogil:
    """The entry for this key of hash ``h`` (probe: NULL if absent; store: the slot
    to use; buckets of two, same key reused, else an older generation, else the
    smaller subtree)."""
    cdef uint64_t i = (h >> (64 - s.tt_bits)) & ~(<uint64_t>1)
    cdef TTEntry* a = &s.tt[i]
    cdef TTEntry* b = &s.tt[i + 1]
    cdef int k
    for k in range(2):
        if (a.gen == s.gen and a.info == info and a.rel1 == rel1 and a.h[0] == hk[0]
                and a.h[1] == hk[1] and a.h[2] == hk[2] and a.h[3] == hk[3]
                and a.h[4] == hk[4] and a.h[5] == hk[5]):
            return a
        a, b = b, a
    if probe:
        return NULL
    if a.gen != s.gen:
        return a
    if b.gen != s.gen:
        return b
    return a if a.left <= b.left else b


cdef inline int have_trumps_out(Search* s, int seat) noexcept nogil:
    """Does any other seat still hold a trump?"""
    cdef int i
    for i in range(s.g.n):
        if i != seat and (s.p.hand[i] & TRUMPS):
            return 1
    return 0


cdef inline int trick_key(int c, int led) noexcept nogil:
    # a card's strength in a trick with suit ``led`` (trick_best's order; -1: cannot win)
    if SUIT[c] == TRUMPSUIT:
        return 100 + POWER[c]
    return POWER[c] if SUIT[c] == led else -1


cdef int LOG4[64]             # round(4 log2 k): the leads' branching measure
for _i in range(1, 64):
    LOG4[_i] = <int>(4.0 * log2(_i) + 0.5)
LOG4[0] = 0


cdef int lead_branching(Search* s, int c, int seat) noexcept nogil:
    """Move ordering (``mobility``): about 4 log2 of how many ways the leader's
    opponents can answer the lead c (the product of each one's legal cards by
    TAROC-PLAY-1..3 and TAROC-MATTO-1; the trick's later cards ignored)."""
    cdef Pos* p = &s.p
    cdef int o, f = 0
    cdef uint64_t h, m
    for o in range(s.g.n):
        if s.g.side[o] == s.g.side[seat]:
            continue
        h = p.hand[o]
        if c == MAT:
            m = h
        elif h & SUITMASK[SUIT[c]]:
            m = (h & SUITMASK[SUIT[c]]) | (h & MATB)
        elif SUIT[c] != TRUMPSUIT and (h & TRUMPS):
            m = (h & TRUMPS) | (h & MATB)
        else:
            m = h
        f += LOG4[popcount64(m)]
    return f


cdef inline int seat_beats(const Pos* p, int seat, int wkey, int led) noexcept nogil:
    """Can ``seat`` play a card above a trick's winning card of strength ``wkey``
    (trick_key) with ``led`` led? TAROC-PLAY-3/4: it follows the led suit if it can,
    else trumps if it can (any trump), and the later of two equal Moors wins."""
    cdef uint64_t h = p.hand[seat], cand
    cdef int k
    if led == TRUMPSUIT or not (h & SUITMASK[led]):
        cand = h & TRUMPS
    else:
        cand = h & SUITMASK[led]
    if not cand:
        return 0
    k = trick_key(highest_bit(cand), led)
    return k > wkey or (k == wkey and k == 141)


cdef inline int later_beats(Search* s, int side, int wkey, int led) noexcept nogil:
    """Can a seat not of ``side`` still to play in this trick (after the seat to act)
    beat a winning card of strength ``wkey`` (seat_beats: its strongest legal answer)?"""
    cdef Pos* p = &s.p
    cdef int j, t
    for j in range(p.trick_n + 1, s.g.n):
        t = (p.leader + j) % s.g.n
        if s.g.side[t] != side and seat_beats(p, t, wkey, led):
            return 1
    return 0


cdef inline int move_score(Search* s, int c, int seat, int cur_best_i, int ttmove,
                           int led) noexcept nogil:
    """Heuristic order: the TT's best move; win the trick cheaply; give points to a
    partner who is winning; otherwise duck with the cheapest card. ``led``: the
    trick's suit (-1: none yet)."""
    cdef Pos* p = &s.p
    cdef int side = s.g.side[seat], wseat, wins, pw, kc, kb
    if c == ttmove:
        return 10000
    pw = POWER[c] + (100 if SUIT[c] == TRUMPSUIT else 0)
    if p.trick_n == 0:
        if s.order == 0:
            return PTS[c] * 4 + pw
        # lead a sure winner (the top remaining card of its suit that no opponent can
        # trump: none holds a trump, or, ``order`` 2, each must follow its suit or has
        # no trump), else a low card; with ``mobility``, fewer answers for the
        # opponents first (a smaller proof)
        kc = s.mobility * lead_branching(s, c, seat) if s.mobility else 0
        if c != MAT and (((p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]) & SUITMASK[SUIT[c]])
                         >> c) == 1 and (SUIT[c] == TRUMPSUIT or not have_trumps_out(s, seat)
                                         or (s.order == 2 and not later_beats(
                                             s, s.g.side[seat], trick_key(c, SUIT[c]),
                                             SUIT[c]))):
            return 500 + PTS[c] * 4 - kc
        return 100 - PTS[c] * 4 - pw // 4 - kc
    wseat = (p.leader + cur_best_i) % s.g.n if cur_best_i >= 0 else -1
    # would c win against the current best card? (trick_best's rule, TAROC-PLAY-4 and
    # TAROC-RANK-1/2: the Matto never wins, the later of equal Moors does)
    if c == MAT:
        wins = 0
    elif cur_best_i < 0:
        wins = 1
    else:
        kc = trick_key(c, led)
        kb = trick_key(p.tcard[cur_best_i], led)
        wins = kc > kb or (kc == kb and kc == 141)
    if wseat >= 0 and s.g.side[wseat] == side and not wins:
        return 3000 + PTS[c] * 8 - pw
    if wins:
        if s.order and p.trick_n == s.g.n - 1:
            return 2500 + PTS[c] * 8 - pw      # last to play: win with the most points
        return 2000 - pw + PTS[c] * 2
    return 1000 - PTS[c] * 8 - pw


cdef inline void diag_merge(Search* s, int c, uint64_t present, int seat) noexcept nogil:
    # diagnostics: would c be merged if every 1-point card (pips, Aces, Moors, T5..SOL)
    # were merged like the pips (its next higher remaining card is the seat's, 1 point)?
    cdef uint64_t one = PIPS | ACES | MOORS | (TRUMPS & ~((<uint64_t>1 << BAG) | (<uint64_t>1 << MON) | (<uint64_t>1 << ANG)))
    cdef uint64_t above
    cdef int t
    s.d_moves += 1
    if (one >> c) & 1:
        above = present & SUITMASK[SUIT[c]] & ~((<uint64_t>2 << c) - 1)
        if (MOORS >> c) & 1:
            above &= ~MOORS
        if above:
            t = lowest_bit(above)
            if ((one >> t) & 1) and ((s.p.hand[seat] >> t) & 1):
                return
    s.d_moves_ub += 1


cdef uint64_t TRUMP1 = ((<uint64_t>1 << 59) - 1) & ~((<uint64_t>1 << 45) - 1)  # T5..SOL


cdef int grande_free_from(const Search* s, const Pos* p) noexcept nogil:
    """Index on the Grande's walk (GPATH: MON SOL LUN T16 .. T5, TAROC-MELD-7) from
    which no side's Grande can still reach a card, whatever the rest of the deal
    (16: none such).  Once the Matto is closed, or its side pays its scartino with a
    pip (pays_pip: pips come first, TAROC-MATTO-2/5), no captured trump can move
    any more: a side can score a Grande only if it
    can still end with the Angelo (not in the other side's pile, nor held by or just
    played by an opponent: it always wins its trick, TAROC-RANK-1); its walk passes a
    missing card only by the head group's free skip or a contatore, at most once each
    (two contatori consecutive end it), so it never passes the (k+2)-th card of the
    walk already in the other side's pile, k the contatori the side may still get."""
    cdef int z, i, dead, k, cut = 0, zc, seat, lo
    cdef uint64_t angb = <uint64_t>1 << ANG, opp
    if matto_open(p):
        lo = matto_loser(s, p)
        if lo < 0 or not pays_pip(p, lo):
            return 16
    for z in range(2):
        opp = p.pile[1 - z]
        if opp & angb:
            continue
        zc = -1
        for seat in range(s.g.n):
            if (p.hand[seat] & angb) and s.g.side[seat] != z:
                zc = 0
        for i in range(p.trick_n):
            if p.tcard[i] == ANG and s.g.side[(p.leader + i) % s.g.n] != z:
                zc = 0
        if zc == 0:
            continue
        k = popcount64(CONT & ~opp)
        dead = 0
        zc = 16
        for i in range(15):
            if (opp >> GPATH[i]) & 1:
                dead += 1
                if dead == k + 2:
                    zc = i + 1
                    break
        if zc > cut:
            cut = zc
        if cut == 16:
            break
    return cut


cdef int run_outcome(Search* s, uint64_t run, int seat, int led, int cbi) noexcept nogil:
    """merge2: +1 when the seat's side surely takes the trick whichever card of ``run``
    (adjacent plain cards of its hand, one suit) it plays, -1 when it surely loses it,
    0 when that is not sure (double dummy: each later seat's strongest legal card)."""
    cdef Pos* p = &s.p
    cdef int side = s.g.side[seat], wk, ws, lowc = lowest_bit(run)
    cdef int hik = trick_key(highest_bit(run), led), lok = trick_key(lowc, led)
    cdef int ck = trick_key(p.tcard[cbi], led) if cbi >= 0 else -1
    cdef int cs = s.g.side[(p.leader + cbi) % s.g.n] if cbi >= 0 else side
    if cbi < 0:
        ws = side               # leading: the run heads the trick (taken only if no
        wk = lok                # later opponent can beat it)
    elif cs != side and hik <= ck:
        ws = cs                 # below the winner with every card of the run
        wk = ck
    elif lok > ck:
        ws = side               # above the winner with every card of the run
        wk = lok
    elif cs == side and hik <= ck:
        ws = side
        wk = ck
    else:
        return 0
    if later_beats(s, ws, wk, led):
        return 0
    return 1 if ws == side else -1


cdef int gen_moves(Search* s, int* out, int ttmove) noexcept nogil:
    """Legal cards of the seat to act, equivalent cards merged, in search order.
    Merged: pips (6..10, in no combination, 1 point each) of one holder with no other
    remaining card of the suit between them, and the Moors of one hand (equal rank,
    equal value, interchangeable in every combination)."""
    cdef Pos* p = &s.p
    cdef int seat = (p.leader + p.trick_n) % s.g.n
    cdef uint64_t legal = legal_mask(&s.g, p), present, m, above
    cdef int n = 0, c, i, j, sc[24], cbi, t, led
    cdef int moor_done = 0, gcut = 16, m2 = 0, o
    cdef uint64_t free1 = 0, mine, oth, run, sm
    present = p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]
    if s.merge and s.merge_dead and s.stop_left == 0 and popcount64(legal & TRUMP1) >= 2:
        # 1-point trumps below the Grande's reach: equal cards, merged like the pips
        gcut = grande_free_from(s, p)
        if gcut < 16:
            free1 = TRUMP1 & ((<uint64_t>2 << (59 - gcut)) - 1)
    for i in range(p.trick_n):
        present |= <uint64_t>1 << p.tcard[i]
    cbi = trick_best(p, p.trick_n)
    led = -1
    for i in range(p.trick_n):
        if p.tcard[i] != MAT:
            led = SUIT[p.tcard[i]]
            break
    # merge2 (points-aware): with no pile able to lose a card, a pip beside
    # higher cards of the hand in a run (no other live card between) is dominated by
    # them in a trick the side surely takes (bank the richer card) and dominates them
    # in one it surely loses (give the pip): the cards kept are interchangeable for
    # every later trick, and a pip is worth least, in no combination (TAROC-MELD); a
    # lead is surely taken when no later opponent can beat it
    m2 = s.merge and s.merge2 and s.stop_left == 0 and (led >= 0 or p.trick_n == 0) \
        and not matto_open(p)       # (exact searches only: the horizon's static
                                    # evaluation reads which cards a hand keeps)
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - 1
        if m2 and SUIT[c] < TRUMPSUIT and (p.hand[seat] & SUITMASK[SUIT[c]] & PIPS) \
                and (p.hand[seat] & SUITMASK[SUIT[c]] & ~PIPS):
            sm = SUITMASK[SUIT[c]]
            mine = p.hand[seat] & sm
            oth = present & sm & ~mine
            run = mine
            if oth & ((<uint64_t>1 << c) - 1):
                run &= ~((<uint64_t>2 << highest_bit(oth & ((<uint64_t>1 << c) - 1))) - 1)
            if oth & ~((<uint64_t>2 << c) - 1):
                run &= (<uint64_t>1 << lowest_bit(oth & ~((<uint64_t>2 << c) - 1))) - 1
            if (run & PIPS) and (run & ~PIPS):
                o = run_outcome(s, run, seat, led if led >= 0 else SUIT[c], cbi)
                if (o < 0 and not (PIPS >> c) & 1) or (o > 0 and (PIPS >> c) & 1):
                    s.m2_merged += 1
                    continue
        if s.merge:
            if (MOORS >> c) & 1:
                if moor_done:
                    continue
                moor_done = 1
            elif (PIPS >> c) & 1:
                above = present & SUITMASK[SUIT[c]] & ~((<uint64_t>2 << c) - 1)
                if above:
                    t = lowest_bit(above)
                    if ((PIPS >> t) & 1) and ((p.hand[seat] >> t) & 1):
                        continue    # the next higher remaining card is mine: same value
            elif (free1 >> c) & 1:
                above = present & TRUMPS & ~((<uint64_t>2 << c) - 1)
                if above:
                    t = lowest_bit(above)
                    if ((free1 >> t) & 1) and ((p.hand[seat] >> t) & 1):
                        s.dead_merged += 1
                        continue    # the same, for trumps no Grande can reach
        out[n] = c
        sc[n] = move_score(s, c, seat, cbi, ttmove, led)
        n += 1
        if s.diag:
            diag_merge(s, c, present, seat)
    # insertion sort, best score first
    for i in range(1, n):
        c = out[i]
        t = sc[i]
        j = i - 1
        while j >= 0 and sc[j] < t:
            out[j + 1] = out[j]
            sc[j + 1] = sc[j]
            j -= 1
        out[j + 1] = c
        sc[j + 1] = t
    return n


cdef inline int matto_open(const Pos* p) noexcept nogil:
    """True while a pile can still lose a card: the Matto in a hand, a scartino owed
    (TAROC-MATTO-2/5) or the Matto with a side that has won no trick (TAROC-MATTO-3)."""
    return ((p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]) & MATB) != 0 or \
        p.owed[0] != 0 or p.owed[1] != 0 or \
        ((p.pile[0] & MATB) != 0 and p.won[0] == 0) or \
        ((p.pile[1] & MATB) != 0 and p.won[1] == 0)


cdef inline int melds_cached(Search* s, uint64_t m) noexcept nogil:
    """melds() through a small direct-mapped cache (cleared by configure)."""
    cdef int i = <int>(mix64(m) & 4095)
    if s.mc_key[i] != m:
        s.mc_key[i] = m
        s.mc_val[i] = melds(m, s.g.multi, s.g.maxc)
    return s.mc_val[i]


cdef inline int melds_cached_cap(Search* s, uint64_t m, int gnat, int mnat) noexcept nogil:
    """melds_c() with caps through a second small cache (uncapped: melds_cached)."""
    cdef int cap, i
    if gnat >= 22 and mnat >= 4:
        return melds_cached(s, m)
    cap = gnat | (mnat << 8)
    i = <int>(mix64(m ^ (<uint64_t>cap * <uint64_t>0x9E3779B97F4A7C15)) & 4095)
    if s.mc2_key[i] != m or s.mc2_cap[i] != cap:
        s.mc2_key[i] = m
        s.mc2_cap[i] = cap
        s.mc2_val[i] = melds_c(m, s.g.multi, s.g.maxc, gnat, mnat)
    return s.mc2_val[i]


cdef int search_final_value(Search* s, const Pos* p) noexcept nogil:
    """final_value of a finished (or projected) deal in the search: the same total,
    the combinations through the search's cache (the horizon leaves' projected piles
    repeat: the same leaf is reached through every order of its last trick)."""
    cdef uint64_t piles[2]
    final_piles(&s.g, p, piles)
    return (side_total(&s.g, p, 1, melds_cached(s, piles[1]), pile_half(piles[1]))
            - side_total(&s.g, p, 0, melds_cached(s, piles[0]), pile_half(piles[0])))


cdef inline int matto_loser(const Search* s, const Pos* p) noexcept nogil:
    """The side that may still lose one card of its pile through the Matto
    (TAROC-MATTO-2/3/5), or -1: the Matto's side while it is in a hand, a scartino is
    owed or the Matto sits with a side that has won no trick."""
    cdef int i
    for i in range(s.g.n):
        if p.hand[i] & MATB:
            return s.g.side[i]
    for i in range(2):
        if p.owed[i] or ((p.pile[i] & MATB) and p.won[i] == 0):
            return i
    return -1


cdef inline int pays_pip(const Pos* p, int sd) noexcept nogil:
    """Side ``sd`` would pay a debt with a pip (its pile holds one; pips come first
    in both give orders) and cannot lose the Matto itself (it has won a trick)."""
    return (p.pile[sd] & PIPS) != 0 and p.won[sd] > 0


cdef uint64_t NATG = ((<uint64_t>1 << 61) - 1) & ~((<uint64_t>1 << 41) - 1)   # MO1..ANG


cdef inline int trumps_matched(uint64_t own, uint64_t killers) noexcept nogil:
    """How many of the trumps ``own`` (one seat's) distinct trumps of ``killers`` (the
    other side's) can beat, each in its own trick: a greedy maximum matching going down
    the trumps, an opposing trump is a killer in reserve, one of ``own`` uses one up.
    A trump beats a lower one (TAROC-RANK-1) and a Moor another Moor when played after
    it (TAROC-RANK-2: the last one wins), so the opposing Moors join the reserve before
    the seat's own Moors draw on it; the Matto is no trump (TAROC-RANK-1)."""
    cdef uint64_t t = (own | killers) & TRUMPS
    cdef int c, avail = 0, n = 0, u
    own &= TRUMPS
    killers &= TRUMPS
    while t:
        c = highest_bit(t)
        if (MOORS >> c) & 1:
            avail += popcount64(killers & MOORS)
            u = popcount64(own & MOORS)
            if u > avail:
                u = avail
            n += u
            avail -= u
            t &= ~MOORS
            continue
        t &= ~(<uint64_t>1 << c)
        if (own >> c) & 1:
            if avail:
                avail -= 1
                n += 1
        else:
            avail += 1
    return n


cdef inline void match_caps(Search* s, const Pos* p, int sd, uint64_t rest, int extra,
                            int* gnat, int* mnat) noexcept nogil:
    """Caps on the natural cards of side ``sd``'s Grande and Moors sequence
    (TAROC-MELD-7/8) at the end of the deal.  A trump of an opposing seat ends in
    ``sd``'s pile only in a trick ``sd`` wins, hence with a trump of ``sd`` that beats
    it in that trick (TAROC-PLAY-4, TAROC-RANK-1/2; the Matto never wins); each of
    ``sd``'s trumps falls in one trick, and that trick holds one card of the opposing
    seat: so the opposing seat's trumps ``sd`` captures are matched to distinct trumps
    of ``sd`` that beat them (trumps_matched; per seat -- one trick may hold a trump of
    each opposing seat, so the opposing side as a whole is not matched).  Natural cards
    of ``sd``: its pile, its hands, the discard or stock if they may still be its own
    (``rest``: the remaining cards less the opposing side's sure ones), the captured
    ones, and ``extra`` cards of the opponents' pile a debt may still give
    (TAROC-MATTO-2/3/5)."""
    cdef uint64_t zt = 0, opph = 0, base, h
    cdef int i, gn, mn, km, u
    for i in range(s.g.n):
        if s.g.side[i] == sd:
            zt |= p.hand[i] & TRUMPS
        else:
            opph |= p.hand[i]
    base = p.pile[sd] | (rest & ~opph)
    gn = popcount64(base & NATG) + extra
    mn = popcount64(base & MOORS) + extra
    km = popcount64(zt & ~(<uint64_t>1 << BAG))    # every trump but the Bagatto beats
    for i in range(s.g.n):                         # or equals a Moor (TAROC-RANK-1/2)
        if s.g.side[i] != sd:
            h = p.hand[i] & rest
            gn += trumps_matched(h & NATG, zt)
            u = popcount64(h & MOORS)
            mn += u if u < km else km
    gnat[0] = gn
    mnat[0] = mn


cdef inline int side_max(Search* s, const Pos* p, int sd, uint64_t rest,
                         int loser, uint64_t osure) noexcept nogil:
    """Upper bound of side ``sd``'s final total: it takes every remaining card but the
    opponents' sure trumps ``osure`` (``rest``: the remaining cards less ``osure``),
    the discard, the stock and the last trick (combinations are monotone in the pile),
    and, if the opponents may still pay a Matto debt, their card (a pip, or any card
    of their pile or sure trumps for combinations).  With ``match`` on, its Grande and
    Moors sequence count only the natural cards it can still get (match_caps)."""
    cdef uint64_t m = p.pile[sd] | rest, mo
    cdef int gn = 99, mn = 99
    if loser == 1 - sd:
        if pays_pip(p, 1 - sd):
            if s.match:
                match_caps(s, p, sd, rest, 0, &gn, &mn)
            return (s.g.decl_half[sd] + 2 * melds_cached_cap(s, m, gn, mn) + pile_half(m) + 1
                    + LAST_HALF)
        # (the scartino is never the Matto itself, TAROC-MATTO-2/5; but the Matto in
        # the pile of a side that has won no trick goes to the opponents, TAROC-MATTO-3,
        # and nothing is given: one 5-point card either way)
        mo = (p.pile[1 - sd] | osure) & ~MATB
        if p.won[1 - sd] == 0:
            mo |= p.pile[1 - sd] & MATB
        if s.match:
            match_caps(s, p, sd, rest, 1, &gn, &mn)
        return (s.g.decl_half[sd] + 2 * melds_cached_cap(s, m | mo, gn, mn)
                + pile_half(m) + 9 + LAST_HALF)
    if s.match:
        match_caps(s, p, sd, rest, 0, &gn, &mn)
    return s.g.decl_half[sd] + 2 * melds_cached_cap(s, m, gn, mn) + pile_half(m) + LAST_HALF


cdef inline int side_min(Search* s, const Pos* p, int sd, int loser,
                         uint64_t own) noexcept nogil:
    """Lower bound of side ``sd``'s final total: its pile and its sure trumps ``own``
    (sure_trumps), minus the card it may still pay through the Matto (a pip, else any
    card: then no combination counted)."""
    cdef uint64_t m = p.pile[sd] | own
    if loser == sd:
        if pays_pip(p, sd):
            return s.g.decl_half[sd] + 2 * melds_cached(s, m) + pile_half(m) - 1
        return s.g.decl_half[sd] + pile_half(m) - 9
    return s.g.decl_half[sd] + 2 * melds_cached(s, m) + pile_half(m)


cdef inline void sure_trumps(const Search* s, const Pos* p, uint64_t* su) noexcept nogil:
    """The trumps in hand that surely end in their own side's pile (``su[side]``): the
    top run of the remaining trumps held by one side.  Each of them, whenever it is
    played, faces only higher trumps of its own side (TAROC-RANK-1: trumps beat the
    plain suits, the Matto never wins), so its trick is won by its side, which keeps
    it (TAROC-PLAY-4; only a Matto debt can move it later, which side_min / side_max
    allow for).  The Moors are one rank group (TAROC-RANK-2: the last one played
    wins): they count only when one side holds every remaining Moor.  Empty unless
    the ``sure`` feature is on (issue 24)."""
    cdef uint64_t h1 = 0, h0 = 0, t, m
    cdef int i, c, hs, top = -1
    su[0] = 0
    su[1] = 0
    if not s.sure:
        return
    for i in range(s.g.n):
        if s.g.side[i]:
            h1 |= p.hand[i]
        else:
            h0 |= p.hand[i]
    t = (h0 | h1) & TRUMPS
    while t:
        c = highest_bit(t)
        m = (t & MOORS) if (MOORS >> c) & 1 else (<uint64_t>1 << c)
        if (m & h0) and (m & h1):
            break
        hs = 1 if m & h1 else 0
        if top < 0:
            top = hs
        elif hs != top:
            break
        su[hs] |= m
        t &= ~m


cdef inline void matto_sure(const Search* s, const Pos* p, uint64_t* su) noexcept nogil:
    """The Matto in a hand ends in its own side's pile once that side has won a trick
    or surely wins one (it holds a sure trump, ``su``): it is never won by the
    opponents (TAROC-MATTO-1/2: it never wins a trick and goes back to its side, which
    pays a scartino instead; TAROC-MATTO-4: the last trick too) and never given as a
    scartino (TAROC-MATTO-2/5); only a side that wins no trick loses it
    (TAROC-MATTO-3).  It joins that side's sure cards ``su`` (the debt stays counted
    by side_min / side_max through matto_loser)."""
    cdef int i, y
    for i in range(s.g.n):
        if p.hand[i] & MATB:
            y = s.g.side[i]
            if p.won[y] > 0 or (su[y] & TRUMPS):
                su[y] |= MATB
            return


cdef inline void pos_bounds(Search* s, const Pos* p, int* lo, int* hi) noexcept nogil:
    """The sure-point interval of a trick-boundary position's value: side 1's least
    total less side 0's greatest, and the reverse."""
    cdef int bo = matto_loser(s, p)
    cdef uint64_t su[2]
    cdef uint64_t rest = p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3] | s.g.discard | s.g.stock
    sure_trumps(s, p, su)
    if s.sure_matto:
        matto_sure(s, p, su)
    if s.sure_discard and s.g.discard and p.won[s.g.discard_side] > 0:
        # the discard joins its side's pile at the end once that side has won a trick
        # (OTTO-DEAL-3, TERZ-BID-2); debts are paid from the pile before it joins
        su[s.g.discard_side] |= s.g.discard
    hi[0] = side_max(s, p, 1, rest & ~su[0], bo, su[0]) - side_min(s, p, 0, bo, su[0])
    lo[0] = side_min(s, p, 1, bo, su[1]) - side_max(s, p, 0, rest & ~su[1], bo, su[1])


# ---------------------------------------------------------------------------
# Horizon search: static evaluation of a trick boundary
# ---------------------------------------------------------------------------
# A horizon H (Python face: ``horizon``) searches the current trick and the next H
# tricks exactly; at the trick boundary where ``stop_left`` cards per hand remain the
# position is scored by static_eval instead of being searched.  The horizon is an
# absolute depth (a number of cards left, fixed by the root), so two positions with
# the same cards left always have the same remaining depth and the TT key needs no
# change.  static_eval is rel (pile1 − pile0 card points) plus a function of the TT
# key only (canonical pips and Moors, side 1's relevant captured cards, debts and
# "has won" flags, the leader), so TT entries stay correct, and it is clamped into
# the sure-point interval [side_min(1) − side_max(0), side_max(1) − side_min(0)] of
# the leaf: those bounds only shrink as cards are played (every card a side can
# still take is a card it could take before), so the sure-point cut-offs of the
# nodes above a leaf remain valid bounds of the truncated game.

cdef uint64_t KEEP_ORDER[6]     # most valuable first: 5, 4, 3, 2 points, relevant 1-point
                                # cards (trumps, Moors, Aces), pips


cdef void _init_keep():
    KEEP_ORDER[0] = FIVE & ~MATB
    KEEP_ORDER[1] = QUEENS
    KEEP_ORDER[2] = KNIGHTS
    KEEP_ORDER[3] = JACKS
    KEEP_ORDER[4] = REL & ~(FIVE | QUEENS | KNIGHTS | JACKS | MATB)
    KEEP_ORDER[5] = PIPS


_init_keep()


cdef int static_eval(Search* s) noexcept nogil:
    """Estimated final value (side 1 total − side 0 total, half points) of a trick
    boundary, on the exact objective's scale.

    How the remaining cards end up, as the game is played.  Every card goes to the
    side that wins the trick it is played to, so the estimate first shares the ``k``
    tricks left: the sure tricks of a side are the top run of each suit it holds alone
    (TAROC-RANK-1/3: the Angelo always wins, the Mondo with the Angelo or once it is
    gone; a plain-suit run counts only up to the shortest length in that suit of an
    opponent who holds trumps, since a void opponent must trump, TAROC-PLAY-3; the
    Moors are one rank group, TAROC-RANK-2); the other tricks are shared by strength
    (2 per trump held, 1 per King, Queen or Knight, +1 per side), rounded to whole
    tricks ``t_s``.  Then each seat keeps for its side the ``t_s`` cards it plays to
    the tricks its side wins: its sure cards first, then its most valuable cards (a
    player drops points and combination cards on tricks his side wins, as double-dummy
    play does); its other cards go to the opponents.  The Matto stays with its side and
    costs a scartino when it is played to a lost trick (TAROC-MATTO-2).  The last trick
    (6 points) goes to the side of the top remaining trump (it can keep it to the end),
    else to the side winning more tricks.  The projected final piles are then scored
    exactly like a finished deal (final_piles, final_totals): card points with pair
    counting (TAROC-PTS-2), the combinations of each pile (TAROC-DECL-6, the
    non-additive part: a card that completes a cricca or a sequence, doubling,
    TAROC-MELD-10), the end rules (TAROC-MATTO-3/5, the discard OTTO-DEAL-3 /
    TERZ-BID-2, the solo stock TERZ-BID-3), the declarations.  Exact when the deal is
    over and when one trick is left (it is played out).  The estimate is clamped into
    the leaf's sure-point interval, hence inside the exact value's possible range."""
    cdef Pos* p = &s.p
    cdef Pos q
    cdef uint64_t allh = p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]
    cdef uint64_t sure[2], su, m, newp[2], left_cards, sideh[2]
    cdef int k, i, j, c, sd, top_side, bo, lo_b, hi_b, lim, ln, nrun, hs
    cdef int S[2], w[2], t[2], last, v, quota
    cdef uint64_t keep, cand
    cdef double T[2], C
    k = popcount64(p.hand[p.leader])
    if k == 0:
        return search_final_value(s, p)
    if k == 1:
        q = p[0]
        for i in range(s.g.n):
            pos_play(&s.g, &q, lowest_bit(q.hand[(q.leader + q.trick_n) % s.g.n]))
        return search_final_value(s, &q)
    sure[0] = sure[1] = 0
    S[0] = S[1] = 0
    w[0] = w[1] = 1
    # each side's cards in hand
    sideh[0] = sideh[1] = 0
    for i in range(s.g.n):
        sideh[s.g.side[i]] |= p.hand[i]
    # trumps: the top run, from the Angelo down, the Moors as one group
    su = allh & TRUMPS
    top_side = -1
    while su:
        c = highest_bit(su)
        m = (su & MOORS) if 41 <= c <= 44 else (<uint64_t>1 << c)
        hs = 2 if (m & sideh[0]) and (m & sideh[1]) else (1 if m & sideh[1] else 0)
        if top_side < 0:
            top_side = hs
        if hs != top_side or hs == 2:
            break
        sure[hs] |= m
        S[hs] += popcount64(m)
        su &= ~m
    # plain suits: the top run of one side, up to the shortest trumping opponent
    for j in range(4):
        su = allh & SUITMASK[j]
        if not su:
            continue
        hs = 1 if (sideh[1] >> highest_bit(su)) & 1 else 0
        lim = 99
        for i in range(s.g.n):
            if s.g.side[i] != hs and (p.hand[i] & TRUMPS):
                ln = popcount64(p.hand[i] & SUITMASK[j])
                if ln < lim:
                    lim = ln
        nrun = 0
        while su and nrun < lim:
            c = highest_bit(su)
            if not (sideh[hs] >> c) & 1:
                break
            sure[hs] |= <uint64_t>1 << c
            nrun += 1
            su &= ~(<uint64_t>1 << c)
        S[hs] += nrun
    # contested tricks shared by strength
    for i in range(s.g.n):
        sd = s.g.side[i]
        w[sd] += 2 * popcount64(p.hand[i] & TRUMPS) + popcount64(
            p.hand[i] & (KINGS | QUEENS | KNIGHTS))
    if S[0] + S[1] > k:
        T[0] = k * S[0] / <double>(S[0] + S[1])
        T[1] = k - T[0]
    else:
        C = k - S[0] - S[1]
        T[0] = S[0] + C * w[0] / <double>(w[0] + w[1])
        T[1] = k - T[0]
    # whole tricks: side 1 wins t[1] of the k tricks left
    t[1] = <int>(T[1] + 0.5)
    if t[1] > k:
        t[1] = k
    t[0] = k - t[1]
    # last trick: the top remaining trump's side (it can keep it to the end), else
    # the side winning more tricks (ties: the leader's side)
    if (top_side == 0 or top_side == 1) and t[top_side] > 0:
        last = top_side
    elif t[1] != t[0]:
        last = 1 if t[1] > t[0] else 0
    else:
        last = s.g.side[p.leader]
    if t[last] == 0:
        last = 1 - last
    # projected piles: each seat keeps (for its side) the cards it plays to the t
    # tricks its side wins: its sure cards, then its most valuable ones; the rest go
    # to the opponents.  The Matto stays with its side (TAROC-MATTO-2); played to a
    # lost trick when the seat has one, its side then owes a scartino.
    newp[0] = newp[1] = 0
    q = p[0]
    for i in range(s.g.n):
        sd = s.g.side[i]
        m = p.hand[i]
        quota = t[sd]
        if m & MATB:
            newp[sd] |= MATB
            m &= ~MATB
            if quota < k:
                q.owed[sd] += 1
            else:
                quota -= 1
        keep = 0
        for j in range(7):
            if quota <= 0:
                break
            if j == 0:
                cand = m & sure[sd]
            else:
                cand = m & KEEP_ORDER[j - 1] & ~keep
            ln = popcount64(cand)
            if ln <= quota:          # the whole group fits
                keep |= cand
                quota -= ln
                continue
            while quota > 0:         # its highest cards first
                c = highest_bit(cand)
                cand &= ~(<uint64_t>1 << c)
                keep |= <uint64_t>1 << c
                quota -= 1
        newp[sd] |= keep
        newp[1 - sd] |= m & ~keep
    for i in range(4):
        q.hand[i] = 0
    q.pile[0] = p.pile[0] | newp[0]
    q.pile[1] = p.pile[1] | newp[1]
    for sd in range(2):
        q.won[sd] += t[sd]
    q.last_side = last
    v = search_final_value(s, &q)
    # clamp into the leaf's sure-point interval (valid bounds of the exact value)
    pos_bounds(s, p, &lo_b, &hi_b)
    if v > hi_b:
        v = hi_b
    if v < lo_b:
        v = lo_b
    return v


cdef void diag_probe(Search* s, uint64_t th, uint64_t* hk, int info, uint64_t rel1,
                     int hit) noexcept nogil:
    # diagnostics: per-depth probes and hits; the trace of (exact key hash, the hash of
    # the key with every hand's pips reduced to counts per suit)
    cdef int L = popcount64(s.p.hand[s.p.leader]), i, st
    cdef uint64_t a = th, c
    s.d_probes[L] += 1
    if hit:
        s.d_hits[L] += 1
    if s.tr_buf != NULL and s.tr_n + 2 <= s.tr_cap:
        c = 0
        for i in range(4):
            for st in range(4):
                c = (c << 4) | <uint64_t>popcount64(s.p.hand[i] & PIPS & SUITMASK[st])
        a = mix64(hk[0] ^ mix64(hk[1] ^ mix64(hk[2] ^ mix64(hk[3] ^ mix64(
            (hk[4] >> 52) ^ mix64(c ^ mix64(hk[5] ^ mix64(rel1 ^ (<uint64_t>info << 56)))))))))
        s.tr_buf[s.tr_n] = th ^ (<uint64_t>L << 59)
        s.tr_buf[s.tr_n + 1] = a
        s.tr_n += 2


cdef inline int bounds_cut(Search* s, int beta, int* v) noexcept nogil:
    """Do the sure-point bounds of this trick boundary settle the window? (v: the
    bound returned)"""
    cdef Pos* p = &s.p
    cdef int blo, bhi
    pos_bounds(s, p, &blo, &bhi)
    if bhi < beta or blo >= beta:
        s.bound_cuts += 1
        if s.diag:
            s.d_bcuts[popcount64(p.hand[p.leader])] += 1
        v[0] = bhi if bhi < beta else blo
        return 1
    return 0


cdef int search(Search* s, int beta) noexcept nogil:
    """Null-window fail-soft alpha-beta: a value >= beta is a lower bound, < beta an
    upper bound of the final value (side 1 − side 0, half points)."""
    cdef Pos* p = &s.p
    cdef Pos saved
    cdef int seat, maxi, best, v, i, n, moves[24], rel = 0, info = 0, ttmove = 255
    cdef int bm = 255, left, use_tt = 0
    cdef uint64_t hk[6]
    cdef uint64_t rel1 = 0, th = 0
    cdef TTEntry* e
    s.nodes += 1
    if s.budget and s.nodes >= s.budget:      # at most budget nodes counted
        s.aborted = 1
        return 0
    if s.deadline > 0 and (s.nodes & 1023) == 0 and now_s() > s.deadline:
        s.aborted = 1
        return 0
    if s.diag:
        s.d_nodes[popcount64(p.hand[p.leader]) + (1 if p.trick_n else 0)] += 1
    if p.trick_n == 0:
        if (p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]) == 0:
            return search_final_value(s, p)
        if popcount64(p.hand[p.leader]) == 1:   # last trick: no choice left
            saved = p[0]
            for i in range(s.g.n):
                pos_play(&s.g, p, lowest_bit(p.hand[(p.leader + p.trick_n) % s.g.n]))
            v = search_final_value(s, p)
            p[0] = saved
            return v
        if popcount64(p.hand[p.leader]) == s.stop_left:     # horizon reached
            s.leaves += 1
            return static_eval(s)
        use_tt = popcount64(p.hand[p.leader]) >= s.tt_min
        if use_tt:
            rel = pile_half(p.pile[1]) - pile_half(p.pile[0])
            rel1 = make_key(s, hk)
            info = p.leader | (key_flags(p) << 2)
            th = tt_hash(hk, info, rel1)
            if s.early_probe:
                # the bucket (two entries, three cache lines) is asked for now and
                # read after the bounds, whose work hides the memory's latency (the
                # probe's cache miss was a third of the search's time, perf)
                e = &s.tt[(th >> (64 - s.tt_bits)) & ~(<uint64_t>1)]
                prefetch(e)
                prefetch(<char*>e + 64)
                prefetch(<char*>e + 128)
        if s.bounds and s.early_probe and bounds_cut(s, beta, &v):
            return v
        if use_tt:
            s.tt_probes += 1
            e = tt_slot(s, th, hk, info, rel1, 1)
            if s.diag:
                diag_probe(s, th, hk, info, rel1, e != NULL)
        else:
            e = NULL
        if e != NULL:
            s.tt_hits += 1
            if e.lb + rel >= beta:
                return e.lb + rel
            if e.ub + rel < beta:
                return e.ub + rel
            ttmove = e.move
        if s.bounds and not s.early_probe and bounds_cut(s, beta, &v):
            return v
    seat = (p.leader + p.trick_n) % s.g.n
    maxi = s.g.side[seat] == 1
    n = gen_moves(s, moves, ttmove)
    best = -INF if maxi else INF
    for i in range(n):
        saved = p[0]
        pos_play(&s.g, p, moves[i])
        v = search(s, beta)
        p[0] = saved
        if s.aborted:
            return 0
        if maxi:
            if v > best:
                best = v
                bm = moves[i]
                if best >= beta:
                    if i == 0:
                        s.cuts_first += 1
                    else:
                        s.cuts_later += 1
                    break
        else:
            if v < best:
                best = v
                bm = moves[i]
                if best < beta:
                    if i == 0:
                        s.cuts_first += 1
                    else:
                        s.cuts_later += 1
                    break
    if p.trick_n == 0 and use_tt:
        left = popcount64(p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3])
        e = tt_slot(s, th, hk, info, rel1, 0)
        s.tt_stores += 1
        if not (e.gen == s.gen and e.info == info and e.rel1 == rel1 and e.h[0] == hk[0]
                and e.h[1] == hk[1] and e.h[2] == hk[2] and e.h[3] == hk[3]
                and e.h[4] == hk[4] and e.h[5] == hk[5]):
            e.h[0] = hk[0]
            e.h[1] = hk[1]
            e.h[2] = hk[2]
            e.h[3] = hk[3]
            e.h[4] = hk[4]
            e.h[5] = hk[5]
            e.rel1 = rel1
            e.info = <uint8_t>info
            e.gen = s.gen
            e.lb = -INF
            e.ub = INF
            e.move = 255
        e.left = <uint8_t>left
        if best >= beta:
            if best - rel > e.lb:
                e.lb = best - rel
        else:
            if best - rel < e.ub:
                e.ub = best - rel
        e.move = <uint8_t>bm
    return best


cdef int mtd(Search* s, int guess, int* lo_out, int* hi_out) noexcept nogil:
    """Drive zero-window probes to the exact value: MTD(f) steps from ``guess``, then
    bisection of [lo, hi] once MTD(f) is slow (values jump by combinations).  The
    interval starts as [lo_out, hi_out] (proven bounds given by the caller, clipped to
    the static ones); at return it is the proven interval (lo == hi: exact)."""
    cdef int lo = s.vlo, hi = s.vhi, g = guess, beta, v, k = 0
    if lo_out[0] > lo:
        lo = lo_out[0]
    if hi_out[0] < hi:
        hi = hi_out[0]
    if g < lo:
        g = lo
    if g > hi:
        g = hi
    while lo < hi:
        if k < s.mtd_steps:
            beta = g + 1 if g == lo else g
            if beta <= lo:
                beta = lo + 1
            if beta > hi:
                beta = hi
        else:
            beta = lo + (hi - lo + 1) // 2
        v = search(s, beta)
        s.probes += 1
        k += 1
        if s.aborted:
            break
        if v >= beta:
            lo = v
        else:
            hi = v
        g = v
    lo_out[0] = lo
    hi_out[0] = hi
    return lo


cdef class DDSolver:
    """Exact double-dummy search with a transposition table of ``2**tt_bits`` entries
    (buckets of two, generation tags: one generation per loaded position)."""

    cdef Search s
    cdef Pos played[MAXPLY]
    cdef int nplay

    def __cinit__(self, int tt_bits=18):
        if tt_bits < 4 or tt_bits > 28:
            raise ValueError("tt_bits must be in 4..28")
        self.s.tt_bits = tt_bits
        self.s.tt_size = (<uint64_t>1) << tt_bits
        self.s.tt = <TTEntry*>calloc(self.s.tt_size, sizeof(TTEntry))
        if self.s.tt == NULL:
            raise MemoryError("transposition table")
        self.s.gen = 0
        self.s.merge = 1
        self.s.canon = 1
        self.s.bounds = 1
        self.s.sure = 1
        self.s.sure_discard = 1
        self.s.sure_matto = 1
        self.s.merge_dead = 1
        self.s.match = 0
        self.nplay = 0
        self.s.mtd_steps = 4
        self.s.order = 2
        self.s.mobility = 30
        self.s.early_probe = 1
        self.s.merge2 = 1
        self.s.tt_min = 2
        self.s.dead = 0         # measured: ~2% fewer nodes, ~15% slower (off)
        self.s.vlo = -VBOUND
        self.s.vhi = VBOUND
        self.s.stop_left = 0
        self.s.leaves = 0
        self.s.diag = 0
        self.s.tr_buf = NULL
        self.s.tr_n = 0
        self.s.tr_cap = 0

    def __dealloc__(self):
        if self.s.tt != NULL:
            free(self.s.tt)
            self.s.tt = NULL
        if self.s.tr_buf != NULL:
            free(self.s.tr_buf)
            self.s.tr_buf = NULL

    def set_diag(self, bint on, long long trace=0):
        """Diagnostics (measurements): per-depth counters (``diag()``) and, with
        ``trace`` > 0, a trace of up to ``trace`` table probes' key hashes."""
        cdef int i
        self.s.diag = 1 if on else 0
        for i in range(22):
            self.s.d_nodes[i] = self.s.d_probes[i] = self.s.d_hits[i] = self.s.d_bcuts[i] = 0
        self.s.d_moves = self.s.d_moves_ub = 0
        if self.s.tr_buf != NULL:
            free(self.s.tr_buf)
            self.s.tr_buf = NULL
        self.s.tr_n = 0
        self.s.tr_cap = 2 * trace
        if trace > 0:
            self.s.tr_buf = <uint64_t*>calloc(2 * trace, sizeof(uint64_t))
            if self.s.tr_buf == NULL:
                raise MemoryError("trace")

    def diag(self) -> dict:
        """The diagnostics counters (by tricks left) and the trace (list of pairs)."""
        cdef int64_t i
        tr = [(self.s.tr_buf[i], self.s.tr_buf[i + 1]) for i in range(0, self.s.tr_n, 2)]
        return {"nodes": [self.s.d_nodes[i] for i in range(22)],
                "probes": [self.s.d_probes[i] for i in range(22)],
                "hits": [self.s.d_hits[i] for i in range(22)],
                "bcuts": [self.s.d_bcuts[i] for i in range(22)], "trace": tr,
                "moves": self.s.d_moves, "moves_ub": self.s.d_moves_ub}

    def configure(self, int n, side, uint64_t discard=0, int discard_side=0,
                  uint64_t stock=0, decl=(0, 0), bint multi_use=True, int max_cont=2):
        game_init(&self.s.g, n, side, discard, discard_side, stock, decl, multi_use,
                  max_cont)
        cdef int mall = melds((<uint64_t>1 << 62) - 1, self.s.g.multi, self.s.g.maxc)
        cdef int i
        for i in range(4096):   # the combination cache depends on the options
            self.s.mc_key[i] = 0
            self.s.mc2_key[i] = 0
            self.s.mc2_cap[i] = -1
            self.s.mc_val[i] = 0
        # |value| bounds: one side takes every card, the last trick and its declarations
        self.s.vhi = self.s.g.decl_half[1] + 174 + LAST_HALF + 2 * mall
        self.s.vlo = -(self.s.g.decl_half[0] + 174 + LAST_HALF + 2 * mall)
        self.s.gen += 1

    def set_merge(self, bint on):
        """Equivalent-card merging on/off (for measurements)."""
        self.s.merge = 1 if on else 0

    def set_dead_families(self, bint on):
        """Dead-family compression of the TT key on/off (for measurements)."""
        self.s.dead = 1 if on else 0
        self.s.gen += 1

    def set_tt_min(self, int k):
        """Cards per hand from which trick boundaries use the TT (for measurements)."""
        self.s.tt_min = k

    def set_order(self, int k):
        """Move-ordering scheme (for measurements): 0 basic, 1 sure winners (a top card
        with no trump out) and the last seat, 2 (the default) a lead also surely wins
        when no opponent's strongest legal answer beats it."""
        self.s.order = k

    def set_mtd_steps(self, int k):
        """MTD(f) probes before switching to bisection (for measurements)."""
        self.s.mtd_steps = k

    def set_bounds(self, bint on):
        """Sure-point bounds at trick boundaries on/off (for measurements)."""
        self.s.bounds = 1 if on else 0

    def set_canonical(self, bint on):
        """Canonical TT key for pips and Moors on/off (for measurements)."""
        self.s.canon = 1 if on else 0
        self.s.gen += 1

    def set_position(self, hands, trick, int leader, piles=(0, 0), owed=(0, 0),
                     won=(0, 0), int last_side=-1):
        pos_init(&self.s.p, self.s.g.n, hands, trick, leader, piles, owed, won, last_side)
        self.nplay = 0
        self.s.gen += 1

    def reset_stats(self):
        self.s.tt_probes = self.s.tt_hits = self.s.tt_stores = self.s.probes = 0
        self.s.bound_cuts = 0
        self.s.cuts_first = self.s.cuts_later = 0
        self.s.leaves = 0
        self.s.dead_merged = 0
        self.s.m2_merged = 0

    cdef void _horizon(self, int horizon):
        """Set the horizon for a search from the loaded (root) position: the current
        trick and the next ``horizon`` tricks are searched, the trick boundary after
        them is scored by static_eval (0: exact search to the end).  A stop at one
        card per hand or less is the exact search (the last trick is played out)."""
        cdef int stop = 0
        if horizon > 0:
            stop = (popcount64(self.s.p.hand[self.s.p.leader])
                    + (1 if self.s.p.trick_n else 0) - 1 - horizon)
            if stop < 2:
                stop = 0
        if stop != self.s.stop_left:    # TT values depend on the horizon
            self.s.stop_left = stop
            self.s.gen += 1

    def horizon_stop(self, int horizon) -> int:
        """Cards per hand at the horizon's leaves for ``horizon`` from the loaded
        position (0: the search is exact)."""
        self._horizon(horizon)
        return self.s.stop_left

    def static_value(self) -> int:
        """static_eval of the loaded position (a trick boundary), half points."""
        if self.s.g.n == 0:
            raise DealError("DDSolver: configure() and set_position() first")
        if self.s.p.trick_n:
            raise DealError("static_value: the position must be at a trick boundary")
        return static_eval(&self.s)

    def stats(self) -> dict:
        return {"tt_probes": self.s.tt_probes, "tt_hits": self.s.tt_hits,
                "tt_stores": self.s.tt_stores, "probes": self.s.probes,
                "bound_cuts": self.s.bound_cuts, "horizon_leaves": self.s.leaves,
                "cuts_first": self.s.cuts_first, "cuts_later": self.s.cuts_later,
                "dead_merged": self.s.dead_merged, "merge2_merged": self.s.m2_merged,
                "tt_entries": self.s.tt_size}

    def solve(self, int guess, long long node_budget, double deadline,
              int horizon=0, int lower=-INF, int upper=INF) -> tuple:
        """(value, lower, upper, nodes, complete) of the loaded position (``horizon``:
        see _horizon; 0 = exact); ``lower``/``upper``: bounds of the value already
        proven (by a probe), where the search starts from."""
        cdef int lo, hi, v
        if self.s.g.n == 0:
            raise DealError("DDSolver: configure() and set_position() first")
        self._horizon(horizon)
        self.s.nodes = 0
        self.s.aborted = 0
        self.s.budget = node_budget
        self.s.deadline = (now_s() + deadline) if deadline > 0 else 0.0
        lo, hi = lower, upper
        with nogil:
            v = mtd(&self.s, guess, &lo, &hi)
        return v, lo, hi, self.s.nodes, not self.s.aborted

    def solve_cards(self, long long node_budget, double deadline, int horizon=0,
                    unsigned long long only=0) -> tuple:
        """([(deck card, lower, upper)], nodes, complete): every legal card's value
        (exact when lower == upper; ``horizon`` counted from the loaded position);
        ``only`` (a mask of deck cards, 0 = all): just these legal cards."""
        if self.s.g.n == 0:
            raise DealError("DDSolver: configure() and set_position() first")
        self._horizon(horizon)
        cdef uint64_t legal = legal_mask(&self.s.g, &self.s.p)
        cdef uint64_t want = 0
        cdef int d
        if only:
            for d in range(62):
                if (only >> d) & 1:
                    want |= (<uint64_t>1) << DECK2CORE[d]
            legal &= want
        cdef Pos saved = self.s.p
        cdef int c, lo, hi, guess = 0, first = 1
        out = []
        self.s.nodes = 0
        self.s.aborted = 0
        self.s.budget = node_budget
        self.s.deadline = (now_s() + deadline) if deadline > 0 else 0.0
        while legal:
            c = lowest_bit(legal)
            legal &= legal - 1
            pos_play(&self.s.g, &self.s.p, c)
            lo, hi = -INF, INF
            if self.s.aborted:
                lo, hi = self.s.vlo, self.s.vhi
            else:
                with nogil:
                    mtd(&self.s, guess, &lo, &hi)
                if not self.s.aborted and first:
                    guess = lo
                    first = 0
            self.s.p = saved
            out.append((CORE2DECK[c], lo, hi))
        return out, self.s.nodes, not self.s.aborted

    # -- issue 24: one null-window probe, proven bounds, play/undo for the analysis --

    def set_features(self, sure=None, bounds=None, order=None, merge=None,
                     sure_discard=None, sure_matto=None, merge_dead=None, match=None,
                     mobility=None, early_probe=None, merge2=None):
        """Switch search techniques on/off in one call (``None``: unchanged):
        ``sure`` the sure-trump bounds (issue 24), ``sure_discard`` the discard counted
        for its side once that side has won a trick (issue 24), ``bounds`` the sure-point bounds,
        ``order`` the move-ordering scheme (0/1), ``merge`` equivalent-card merging,
        ``sure_matto`` the Matto as a sure card of its side, ``merge_dead`` 1-point
        trumps no Grande can reach merged like pips, ``match`` the trump-matching caps
        on the Grande and Moors sequences (off by default: measured x1.00),
        ``mobility`` the weight of the opponents' answers in the order of the leads
        (lead_branching; 30 by default, 0: the order before), ``early_probe`` the
        table's bucket prefetched at a trick boundary and the bounds asked before it
        (on: the same values, x1.13-1.19 the speed), ``merge2`` the points-aware
        merging of a hand's pip beside its higher cards (gen_moves, on).
        Values never change; the table is invalidated (bounds are stored in it)."""
        if sure is not None:
            self.s.sure = 1 if sure else 0
        if sure_discard is not None:
            self.s.sure_discard = 1 if sure_discard else 0
        if sure_matto is not None:
            self.s.sure_matto = 1 if sure_matto else 0
        if merge_dead is not None:
            self.s.merge_dead = 1 if merge_dead else 0
        if match is not None:
            self.s.match = 1 if match else 0
        if bounds is not None:
            self.s.bounds = 1 if bounds else 0
        if order is not None:
            self.s.order = int(order)
        if mobility is not None:
            self.s.mobility = int(mobility)
        if early_probe is not None:
            self.s.early_probe = 1 if early_probe else 0
        if merge2 is not None:
            self.s.merge2 = 1 if merge2 else 0
        if merge is not None:
            self.s.merge = 1 if merge else 0
        self.s.gen += 1

    def features(self) -> dict:
        return {"sure": bool(self.s.sure), "sure_discard": bool(self.s.sure_discard),
                "sure_matto": bool(self.s.sure_matto), "merge_dead": bool(self.s.merge_dead),
                "match": bool(self.s.match),
                "bounds": bool(self.s.bounds),
                "order": self.s.order, "merge": bool(self.s.merge),
                "mobility": self.s.mobility, "early_probe": bool(self.s.early_probe),
                "merge2": bool(self.s.merge2),
                "canon": bool(self.s.canon), "mtd_steps": self.s.mtd_steps}

    def bounds(self) -> tuple:
        """(lower, upper): the value's interval proven without searching (the
        sure-point bounds at a trick boundary, with the sure trumps if that feature
        is on; the static ones of configure() inside a trick)."""
        cdef int lo, hi
        if self.s.g.n == 0:
            raise DealError("DDSolver: configure() and set_position() first")
        if self.s.p.trick_n or pos_over(&self.s.g, &self.s.p):
            if pos_over(&self.s.g, &self.s.p):
                lo = hi = search_final_value(&self.s, &self.s.p)
                return lo, hi
            return self.s.vlo, self.s.vhi
        pos_bounds(&self.s, &self.s.p, &lo, &hi)
        if lo < self.s.vlo:
            lo = self.s.vlo
        if hi > self.s.vhi:
            hi = self.s.vhi
        return lo, hi

    def probe(self, int beta, long long node_budget=0, double deadline=0.0) -> tuple:
        """One null-window search of the loaded position (exact, no horizon): (v,
        nodes, complete); complete and v >= beta: the value is >= v (a proven lower
        bound), complete and v < beta: the value is <= v."""
        cdef int v
        if self.s.g.n == 0:
            raise DealError("DDSolver: configure() and set_position() first")
        self._horizon(0)
        self.s.nodes = 0
        self.s.aborted = 0
        self.s.budget = node_budget
        self.s.deadline = (now_s() + deadline) if deadline > 0 else 0.0
        with nogil:
            v = search(&self.s, beta)
        self.s.probes += 1
        return v, self.s.nodes, not self.s.aborted

    def play(self, int deck_card):
        """Play a legal card of the seat to act in the loaded position (undo() takes
        it back); the table stays valid (its entries depend only on their key)."""
        cdef int c
        if not 0 <= deck_card < 62:
            raise IllegalMoveError(f"card index {deck_card} out of range 0..61")
        c = DECK2CORE[deck_card]
        if not (legal_mask(&self.s.g, &self.s.p) >> c) & 1:
            raise IllegalMoveError(f"card {deck_card} is not legal here")
        if self.nplay >= MAXPLY:
            raise IllegalMoveError("too many plies")
        self.played[self.nplay] = self.s.p
        self.nplay += 1
        pos_play(&self.s.g, &self.s.p, c)

    def undo(self):
        if self.nplay == 0:
            raise IllegalMoveError("nothing to undo")
        self.nplay -= 1
        self.s.p = self.played[self.nplay]

    def legal(self) -> int:
        """Deck mask of the legal cards of the seat to act."""
        return to_deck(legal_mask(&self.s.g, &self.s.p))

    def side_to_act(self) -> int:
        return self.s.g.side[(self.s.p.leader + self.s.p.trick_n) % self.s.g.n]

    def is_over(self) -> bool:
        return bool(pos_over(&self.s.g, &self.s.p))

    def final_value(self) -> int:
        """The value of a finished deal (side 1 total - side 0 total, half points)."""
        if not pos_over(&self.s.g, &self.s.p):
            raise DealError("final_value: the deal is not over")
        return search_final_value(&self.s, &self.s.p)
