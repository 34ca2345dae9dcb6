# cython: language_level=3
# distutils: extra_compile_args = -fno-strict-aliasing
"""Belote / Coinche card-play core: bitboards, legal moves, tricks, playouts and the
exact double-dummy search (rules: docs/rules/belote.md sections 2, 5, 6, 7 and
coinche.md sections 2, 4).

Card layout (per contract, "core bits"): suit ``s`` (S H D C = 0..3) owns bits
``8*s .. 8*s+7`` and inside a suit the bit position is the trick-taking power
(0 = weakest).  The trump suit of a suit contract, and every suit in TA, use the
trump order 7 8 Q K T A 9 J (BELOTE-CARD-2, COINCHE-CARD-3); the other suits, and
every suit in SA, use the plain order 7 8 9 J Q K T A (BELOTE-CARD-2,
COINCHE-CARD-4).  So "cards of this suit above X" is a mask operation.  Deck
(notation) indices are ``8*suit + natural rank`` (solver/cards.py); the tables
below convert.

The hot code is plain C: ``cdef ... noexcept nogil`` functions on ``uint64_t``
masks and small ints, no Python objects.  The Python classes at the end only copy
integers in and out; the Python face (solver/core/belote.py) validates positions
before they get here.

Search measurements (20 fixed Coinche deals of benchmarks/deals/coinche.txt, value of
the full deal, all six strains; total nodes; CPU ns/node on the shared machine):
  bisection instead of MTD(f) stepping by fail-soft bounds: 40 -> 7.2 probes/solve
  sure-points bound (master-trump run) + canonical 0-point-card TT key: 9.51M -> 9.33M
  trick-outlook move ordering: 9.33M -> 6.31M; lead towards partner's master: 5.15M
  greedy first guess: 4.95M; 4-way cache-line buckets: 4.94M; cash bound: 4.60M
  per node: 98 -> ~50 ns (no owner map in Pos, forced moves unscored, stats off,
  SWAR popcount); TT 2**16/18/20/22: 17.5/18.0/19.9/25.9 ms median (all cards)
  quick tricks (the leader's run of sure tricks, ``quick_gain``), 60 Coinche + 60 Belote
  deals: total nodes -7% (value 12.67M -> 11.80M, all cards 32.6M -> 30.2M), same
  values; forced follow-suit points on top of it: -1% more, no faster (not kept)
  rejected (measured worse): exact values for <= 3-card endgames (+64% nodes), no
  table below 3 cards (+70%), full-window root search (+43%), history heuristic
  (+94% as primary), killer moves (+5..20%), TT prefetch of child buckets (+15% time)
"""

from libc.stdint cimport uint64_t, int64_t, uint32_t, int16_t, uint8_t, int8_t
from libc.stdlib cimport abs, calloc, free
from libc.string cimport memset
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from bitboard cimport lowest_bit, highest_bit, pick_bit, popcount64, splitmix


# ---------------------------------------------------------------------------
# Strains and tables
# ---------------------------------------------------------------------------

DEF TA = 4
DEF SA = 5
DEF MAXMOVES = 8
DEF TT_MIN_LEFT = 1  # no table below this many cards per hand (cheaper to search)
DEF FOLLOW_BOUND = 0  # probes that test the last fail-soft bound before bisecting
DEF CASH_BOUND = 1  # bound from a surely winning lead at trick boundaries
DEF QUICK_BOUND = 1  # bound from the leader's run of sure tricks (several tricks)
DEF QUASI = 1      # shape entries with point-distance bounds (quasi-symmetry)
DEF QUASI_LEFT = 8  # shape entries for positions with at most this many cards a hand
DEF LEAD_RUFF_GOOD = 200  # lead ordering: a side suit the partner can ruff, first
DEF LEAD_RUFF_BAD = 20    # ... one an opponent can ruff (and the partner cannot), later
DEF STATS = 0      # 1: count nodes by depth and cutoff positions (diagnostics)

STRAIN_NAMES = ("S", "H", "D", "C", "TA", "SA")

# natural rank index (7 8 9 T J Q K A = 0..7) -> power position in the suit
cdef int PLAIN_POS[8]
cdef int TRUMP_POS[8]
# points by power position (BELOTE-CARD-2, COINCHE-CARD-3, COINCHE-CARD-4)
cdef int PLAIN_PTS[8]
cdef int TRUMP_PTS[8]
cdef int TA_PTS[8]
cdef int SA_PTS[8]

PLAIN_POS[:] = [0, 1, 2, 6, 3, 4, 5, 7]     # 7 8 9 J Q K T A
TRUMP_POS[:] = [0, 1, 6, 4, 7, 2, 3, 5]     # 7 8 Q K T A 9 J
PLAIN_PTS[:] = [0, 0, 0, 2, 3, 4, 10, 11]   # 7 8 9 J Q K T A
TRUMP_PTS[:] = [0, 0, 3, 4, 10, 11, 14, 20]  # 7 8 Q K T A 9 J
TA_PTS[:] = [0, 0, 1, 3, 5, 6, 9, 14]       # 7 8 Q K T A 9 J
SA_PTS[:] = [0, 0, 0, 2, 3, 4, 10, 19]      # 7 8 9 J Q K T A


ctypedef struct Rules:
    int strain               # 0..3 trump suit, 4 = TA, 5 = SA
    uint64_t trump_mask      # core bits of the trump suit (0 in TA / SA)
    int undertrump           # BELOTE-PLAY-4 undertrump_required
    int ta_overtake          # COINCHE-PLAY-3 ta_must_overtake
    int capot_points         # BELOTE-SCORE-4 capot_points (252 / 250)
    int pts[32]              # points by core bit
    int to_core[32]          # deck index -> core bit
    int to_deck[32]          # core bit -> deck index
    uint64_t zero_mask       # core bits worth 0 points
    int zlen[4]              # per suit: number of 0-point cards (the weakest positions)


cdef inline uint64_t suit_of_bit(int c) noexcept nogil:
    return (<uint64_t>0xFF) << (c & 0x38)


cdef inline uint64_t above(int c) noexcept nogil:
    # cards of c's suit strictly stronger than c
    return suit_of_bit(c) & ~(((<uint64_t>2) << c) - 1)


cdef inline uint64_t below(int c) noexcept nogil:
    return suit_of_bit(c) & ((((<uint64_t>1) << c)) - 1)


cdef void rules_init(Rules* r, int strain, int undertrump, int ta_overtake,
                     int capot_points) noexcept nogil:
    cdef int s, nat, pos, bit
    cdef int trump_like
    r.strain = strain
    r.undertrump = undertrump
    r.ta_overtake = ta_overtake
    r.capot_points = capot_points
    r.trump_mask = 0
    r.zero_mask = 0
    if strain < 4:
        r.trump_mask = (<uint64_t>0xFF) << (8 * strain)
    for s in range(4):
        trump_like = (strain == TA) or (strain == s)
        for nat in range(8):
            pos = TRUMP_POS[nat] if trump_like else PLAIN_POS[nat]
            bit = 8 * s + pos
            r.to_core[8 * s + nat] = bit
            r.to_deck[bit] = 8 * s + nat
            if strain == TA:
                r.pts[bit] = TA_PTS[pos]
            elif strain == SA:
                r.pts[bit] = SA_PTS[pos]
            elif trump_like:
                r.pts[bit] = TRUMP_PTS[pos]
            else:
                r.pts[bit] = PLAIN_PTS[pos]
            if r.pts[bit] == 0:
                r.zero_mask |= (<uint64_t>1) << bit
    for s in range(4):
        r.zlen[s] = popcount64((r.zero_mask >> (8 * s)) & 0xFF)


cdef inline int beats(const Rules* r, int c, int w) noexcept nogil:
    # BELOTE-PLAY-5, COINCHE-PLAY-3/4: does c (played after w) beat the winning card w?
    if (c ^ w) < 8 and (c >> 3) == (w >> 3):
        return c > w
    return <int>((r.trump_mask >> c) & 1) & <int>(((r.trump_mask >> w) & 1) ^ 1)


cdef inline uint64_t legal_mask(const Rules* r, uint64_t hand, int trick_n, int lead,
                                int win, int partner_master) noexcept nogil:
    """Legal cards of the player to act (hand in core bits).

    BELOTE-PLAY-2/3/4 for suit contracts, COINCHE-PLAY-3 (TA) and COINCHE-PLAY-4 (SA).
    ``lead`` is the first card of the trick, ``win`` the card currently winning it.
    """
    cdef uint64_t led, follow, trumps, higher
    if trick_n == 0:
        return hand                                   # BELOTE-PLAY-2: any lead
    led = suit_of_bit(lead)
    follow = hand & led
    if r.strain == SA:                                 # COINCHE-PLAY-4
        return follow if follow else hand
    if r.strain == TA:                                 # COINCHE-PLAY-3
        if follow == 0:
            return hand
        if r.ta_overtake:
            # the winning card is always of the led suit in TA
            higher = follow & above(win)
            if higher:
                return higher
        return follow
    trumps = hand & r.trump_mask
    if follow:
        if led == r.trump_mask:
            # BELOTE-PLAY-3 1: trump led, must beat the highest trump even if partner master
            higher = follow & above(win)
            return higher if higher else follow
        return follow                                  # BELOTE-PLAY-3 1: follow suit
    if led == r.trump_mask:
        return hand                                    # BELOTE-PLAY-3 2: void in trumps led
    if partner_master:
        return hand                                    # BELOTE-PLAY-3 2: partner master
    if trumps == 0:
        return hand
    if (r.trump_mask >> win) & 1:
        # trick already trumped by an opponent: overtrump if possible (BELOTE-PLAY-3)
        higher = trumps & above(win)
        if higher:
            return higher
        if r.undertrump:                               # BELOTE-PLAY-4
            return trumps
        return hand
    return trumps                                      # must trump (any)


# ---------------------------------------------------------------------------
# Play state (used by playouts, the legality API and the search)
# ---------------------------------------------------------------------------

ctypedef struct Pos:
    # small integer fields keep the struct at 56 bytes: the search copies it per node
    uint64_t hand[4]       # core bits
    int8_t trick[4]        # core bits of the current trick, in play order
    int8_t trick_n
    int8_t leader
    int8_t win             # card currently winning the trick (core bit)
    int8_t win_seat
    int8_t fcap            # attack has won every completed trick (capot still possible)
    int8_t fgen            # the taker has won every completed trick (générale possible)
    int8_t fdef            # the defence has won every completed trick
    int8_t attack          # attack team (taker & 1)
    int8_t taker
    int8_t tricks_done
    int16_t trick_pts
    int16_t ap             # attack card points so far (incl. dix de der)
    int16_t dp             # defence card points so far
    int16_t rem_pts        # points of the cards still in hands


ctypedef struct Undo:
    int card
    int trick_n, leader, win, win_seat, trick_pts, ap, dp, fcap, fgen, fdef, tricks_done
    int t0, t1, t2, t3


cdef inline void pos_copy(Pos* dst, const Pos* src) noexcept nogil:
    # Copy as seven 64-bit words: a plain struct assignment compiled to byte and
    # 16-byte moves that stall store forwarding (measured: ~12% of the search time).
    cdef uint64_t* d = <uint64_t*>dst
    cdef const uint64_t* q = <const uint64_t*>src
    d[0] = q[0]
    d[1] = q[1]
    d[2] = q[2]
    d[3] = q[3]
    d[4] = q[4]
    d[5] = q[5]
    d[6] = q[6]


cdef inline int pos_to_act(const Pos* p) noexcept nogil:
    return (p.leader + p.trick_n) & 3


cdef inline uint64_t pos_legal(const Rules* r, const Pos* p) noexcept nogil:
    cdef int seat = (p.leader + p.trick_n) & 3
    return legal_mask(r, p.hand[seat], p.trick_n, p.trick[0], p.win,
                      p.trick_n >= 2 and p.win_seat == ((seat + 2) & 3))


cdef inline void pos_play(const Rules* r, Pos* p, int c) noexcept nogil:
    """Play core card c for the player to act; completes the trick when it is the 4th
    card (BELOTE-PLAY-5 winner, BELOTE-PLAY-6 points, BELOTE-SCORE-1 dix de der,
    BELOTE-SCORE-4 capot)."""
    cdef int seat = (p.leader + p.trick_n) & 3
    cdef int last
    p.hand[seat] ^= (<uint64_t>1) << c
    p.rem_pts -= r.pts[c]
    p.trick[p.trick_n] = c
    if p.trick_n == 0 or beats(r, c, p.win):
        p.win = c
        p.win_seat = seat
    p.trick_pts += r.pts[c]
    p.trick_n += 1
    if p.trick_n == 4:
        p.tricks_done += 1
        last = (p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]) == 0
        if (p.win_seat & 1) == p.attack:
            p.ap += p.trick_pts + (10 if last else 0)
            p.fdef = 0
        else:
            p.dp += p.trick_pts + (10 if last else 0)
            p.fcap = 0
        if p.win_seat != p.taker:
            p.fgen = 0
        p.leader = p.win_seat
        p.trick_n = 0
        p.trick_pts = 0
        p.win = 0                # a trick boundary looks the same however reached
        p.win_seat = 0
        p.trick[0] = 0
        p.trick[1] = 0
        p.trick[2] = 0
        p.trick[3] = 0


cdef inline int final_attack(const Rules* r, const Pos* p) noexcept nogil:
    # BELOTE-SCORE-4: 252 (capot_points) when the attack took every trick
    if p.fcap and p.tricks_done == 8:
        return r.capot_points
    return p.ap


# ---------------------------------------------------------------------------
# RNG (splitmix64) and random playouts
# ---------------------------------------------------------------------------

cdef int64_t run_playouts(const Rules* r, const Pos* start, int64_t n, uint64_t seed,
                          int64_t* capots) noexcept nogil:
    """n random playouts to the end of the deal; returns the sum of the attack's final
    card points (BELOTE-SCORE-1/4) and counts attack capots."""
    cdef Pos p
    cdef int64_t total = 0, i
    cdef uint64_t st = seed, m
    cdef int c
    capots[0] = 0
    for i in range(n):
        p = start[0]
        while p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]:
            m = pos_legal(r, &p)
            if m == 0:
                break                  # inconsistent hand sizes: stop this playout
            c = pick_bit(m, splitmix(&st))
            pos_play(r, &p, c)
        c = final_attack(r, &p)
        if p.fcap and p.tricks_done == 8:
            capots[0] += 1
        total += c
    return total


# ---------------------------------------------------------------------------
# Python access to the play state (validated by solver/core/belote.py)
# ---------------------------------------------------------------------------

def _check_position(hands, trick, int leader, int taker):
    """Minimal guard of the core's own invariants (the Python face validates fully):
    4 disjoint hands of at most 8 cards, at most 3 trick cards, seats 0..3.  Anything
    else could overflow the fixed move arrays, so it is refused here too."""
    if len(hands) != 4:
        raise ValueError("4 hands expected")
    seen = 0
    for h in hands:
        h = int(h)
        if h < 0 or h >> 32 or h.bit_count() > 8 or h & seen:
            raise ValueError("hands must be disjoint sets of at most 8 of the 32 cards")
        seen |= h
    if len(trick) > 3:
        raise ValueError("a trick in progress holds at most 3 cards")
    for c in trick:
        if not 0 <= c < 32 or (seen >> c) & 1:
            raise ValueError("bad trick card")
        seen |= 1 << c
    if not (0 <= leader < 4 and 0 <= taker < 4):
        raise ValueError("leader and taker must be seats 0..3")
    n = int(hands[leader]).bit_count() + (1 if len(trick) else 0)
    for i in range(4):
        if int(hands[(leader + i) % 4]).bit_count() != (n - 1 if i < len(trick) else n):
            raise ValueError("hand sizes do not match the trick in progress")


cdef class BeloteCore:
    """One play-phase position under a fixed contract, in core bits.

    Cards in and out of this class are deck indices / deck masks; conversion to the
    per-contract layout happens here.  ``play``/``undo`` are O(1)."""

    cdef Rules r
    cdef Pos p
    cdef Undo hist[40]
    cdef int nhist

    def __init__(self, int strain, bint undertrump_required=True,
                 bint ta_must_overtake=True, int capot_points=252):
        if not 0 <= strain <= 5:
            raise ValueError("strain must be 0..5 (S H D C TA SA)")
        rules_init(&self.r, strain, undertrump_required, ta_must_overtake, capot_points)
        memset(&self.p, 0, sizeof(Pos))
        self.nhist = 0

    # --- conversions -----------------------------------------------------
    cpdef uint64_t to_core(self, uint64_t deck_mask):
        cdef uint64_t out = 0
        cdef int d
        while deck_mask:
            d = lowest_bit(deck_mask)
            deck_mask &= deck_mask - 1
            out |= (<uint64_t>1) << self.r.to_core[d]
        return out

    cpdef uint64_t to_deck(self, uint64_t core_mask):
        cdef uint64_t out = 0
        cdef int c
        while core_mask:
            c = lowest_bit(core_mask)
            core_mask &= core_mask - 1
            out |= (<uint64_t>1) << self.r.to_deck[c]
        return out

    def card_points(self, int deck_card) -> int:
        """Points of a card in this contract (BELOTE-CARD-2, COINCHE-CARD-3/4)."""
        return self.r.pts[self.r.to_core[deck_card]]

    def core_bit(self, int deck_card) -> int:
        return self.r.to_core[deck_card]

    @property
    def strain(self) -> int:
        return self.r.strain

    # --- position --------------------------------------------------------
    def set_position(self, hands, trick, int leader, int taker, int attack_points=0,
                     int defence_points=0, bint attack_all=True, bint taker_all=True,
                     bint defence_all=True, int tricks_done=0):
        """Load a position: 4 deck masks, the current trick's deck cards in play
        order (led by ``leader``), points and capot/générale flags of past tricks."""
        cdef int i, c, seat
        _check_position(hands, trick, leader, taker)
        memset(&self.p, 0, sizeof(Pos))
        for i in range(4):
            self.p.hand[i] = self.to_core(hands[i])
        self.p.leader = leader
        self.p.taker = taker
        self.p.attack = taker & 1
        self.p.ap = attack_points
        self.p.dp = defence_points
        self.p.fcap = attack_all
        self.p.fgen = taker_all
        self.p.fdef = defence_all
        self.p.tricks_done = tricks_done
        self.p.rem_pts = 0
        for i in range(4):
            for c in range(32):
                if (self.p.hand[i] >> c) & 1:
                    self.p.rem_pts += self.r.pts[c]
        self.nhist = 0
        # replay the current trick's cards (the face checked their legality)
        for i in range(len(trick)):
            c = self.r.to_core[trick[i]]
            seat = (leader + i) & 3
            self.p.hand[seat] |= (<uint64_t>1) << c
            self.p.rem_pts += self.r.pts[c]
            pos_play(&self.r, &self.p, c)

    @property
    def to_act(self) -> int:
        return pos_to_act(&self.p)

    @property
    def leader(self) -> int:
        return self.p.leader

    @property
    def trick_winner(self) -> int:
        """Seat currently winning the trick in progress (-1 if the trick is empty)."""
        return self.p.win_seat if self.p.trick_n else -1

    @property
    def trick_count(self) -> int:
        return self.p.trick_n

    @property
    def tricks_done(self) -> int:
        return self.p.tricks_done

    @property
    def attack_points(self) -> int:
        return self.p.ap

    @property
    def defence_points(self) -> int:
        return self.p.dp

    def hand(self, int seat) -> int:
        return self.to_deck(self.p.hand[seat & 3])

    def is_over(self) -> bool:
        return (self.p.hand[0] | self.p.hand[1] | self.p.hand[2] | self.p.hand[3]) == 0

    def legal(self) -> int:
        """Deck mask of the legal cards of the player to act."""
        return self.to_deck(pos_legal(&self.r, &self.p))

    def play(self, int deck_card):
        """Play a card (deck index) for the player to act; must be legal."""
        cdef int c
        cdef Undo* u
        if not 0 <= deck_card < 32:
            raise ValueError("card index out of range")
        c = self.r.to_core[deck_card]
        if not (pos_legal(&self.r, &self.p) >> c) & 1:
            raise ValueError("illegal card for the player to act")
        u = &self.hist[self.nhist]
        self.nhist += 1
        u.card = c
        u.trick_n = self.p.trick_n
        u.leader = self.p.leader
        u.win = self.p.win
        u.win_seat = self.p.win_seat
        u.trick_pts = self.p.trick_pts
        u.ap = self.p.ap
        u.dp = self.p.dp
        u.fcap = self.p.fcap
        u.fgen = self.p.fgen
        u.fdef = self.p.fdef
        u.tricks_done = self.p.tricks_done
        u.t0 = self.p.trick[0]
        u.t1 = self.p.trick[1]
        u.t2 = self.p.trick[2]
        u.t3 = self.p.trick[3]
        pos_play(&self.r, &self.p, c)

    def undo(self):
        """Take back the last card played with ``play`` (O(1))."""
        cdef Undo* u
        if self.nhist == 0:
            raise ValueError("nothing to undo")
        self.nhist -= 1
        u = &self.hist[self.nhist]
        self.p.trick_n = u.trick_n
        self.p.leader = u.leader
        self.p.win = u.win
        self.p.win_seat = u.win_seat
        self.p.trick_pts = u.trick_pts
        self.p.ap = u.ap
        self.p.dp = u.dp
        self.p.fcap = u.fcap
        self.p.fgen = u.fgen
        self.p.fdef = u.fdef
        self.p.tricks_done = u.tricks_done
        self.p.trick[0] = u.t0
        self.p.trick[1] = u.t1
        self.p.trick[2] = u.t2
        self.p.trick[3] = u.t3
        self.p.hand[(u.leader + u.trick_n) & 3] |= (<uint64_t>1) << u.card
        self.p.rem_pts += self.r.pts[u.card]

    def final_points(self):
        """(attack, defence) card points at the end of the deal, capot included."""
        if not self.is_over():
            raise ValueError("the deal is not over")
        if self.p.fcap and self.p.tricks_done == 8:
            return (self.r.capot_points, 0)
        if self.p.fdef and self.p.tricks_done == 8:
            return (0, self.r.capot_points)
        return (self.p.ap, self.p.dp)

    def playouts(self, long long n, unsigned long long seed):
        """Run n random playouts (uniform legal card at each turn) from this position
        inside the core; returns (sum of attack final points, number of capots)."""
        cdef int64_t caps = 0
        cdef int64_t tot
        with nogil:
            tot = run_playouts(&self.r, &self.p, n, seed, &caps)
        return (tot, caps)


# ---------------------------------------------------------------------------
# Exact double-dummy search
# ---------------------------------------------------------------------------
#
# Objective (BELOTE-PLAY-6, BELOTE-SCORE-1, BELOTE-SCORE-4, COINCHE-CARD-5): the
# attack's final card points, dix de der included, ``capot_points`` when the attack
# takes every trick.  The attack maximises, the defence minimises.  Belote-rebelote
# (BELOTE-BR-3) is a fixed bonus of the holder's team whatever the play, so it is
# not part of the searched value (the Python face reports it beside the value).
#
# Null-window fail-soft alpha-beta, driven by bisection / MTD(f) over the point range
# (``mtdf``).  Transposition table at trick boundaries, keyed on a canonical form of
# the remaining cards (``tt_key``: point cards by identity, 0-point cards by count and
# holders), the leader, the capot flag, the search mode and the attack team (the taker
# for générale); each entry also holds the generation (one per deal and contract:
# the holder of every card is fixed within a generation).  Values are stored as
# lower / upper bounds relative to the attack's points already taken.
#
# Quasi-symmetry (after Kupferschmid & Helmert's Skat solver): positions with the same
# *shape* -- per suit the holders of the remaining cards in power order -- have
# isomorphic game trees, so their values differ by at most the summed point difference
# of their rank-matched cards (``point_distance``).  At every trick boundary (up to
# QUASI_LEFT cards a hand) every stored bound is also kept under the shape key (one
# representative per shape);
# when the exact key misses, the representative's bounds widened by the distance still
# cut most null-window probes.  Measured on the 240 Coinche benchmark deals: nodes
# halved (median 174k -> 90k for the value, 408k -> 234k for all cards) with shape
# entries up to 5 cards a hand, -15% more with them at every depth (80k / 198k); same
# values.

DEF MODE_VALUE = 0
DEF MODE_GENERALE = 1
DEF BOUND_LOWER = 1
DEF BOUND_UPPER = 2
DEF EXACT_LEFT = 0   # trick-boundary nodes with at most this many cards: exact values

ctypedef struct TTEntry:
    # 16 bytes, four to a cache line
    uint64_t key
    uint32_t rem            # the remaining cards (core mask) of the stored position
    uint8_t gen             # generation (low byte; the table is cleared when it wraps)
    uint8_t lb              # bounds on the value relative to the attack's points
    uint8_t ub
    uint8_t move


ctypedef struct Search:
    Rules r
    Pos p
    int owner[32]
    TTEntry* tt
    uint64_t tt_mask
    int tt_bits
    uint64_t gen
    int64_t nodes
    int64_t budget          # 0 = unlimited
    double deadline         # absolute monotonic seconds, 0 = none
    int aborted
    int64_t tt_probes
    int64_t tt_hits
    int64_t tt_stores
    int64_t shape_hits      # exact misses answered by a same-shape entry
    int64_t probes
    int64_t by_left[9]      # nodes by cards left in the hand of the seat to act
    int64_t cut_at[9]       # cutoffs by index of the move that caused them
    int64_t late_cut[4][2]  # cutoffs after the first move, by trick position and side
    int64_t first_cut[4][2]
    int use_cls             # 1: mtdf stops once the value's score class is known
    uint8_t cls[256]        # score class of each final point count (non-decreasing)


cdef inline double now_s() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline uint64_t tt_key(const Search* s, int mode) noexcept nogil:
    """Canonical key of a trick-boundary position.  Two positions with, in every suit,
    the same remaining cards in power order with the same holders and the same points
    have the same value; the 0-point cards of a suit are its weakest ones, so they are
    encoded by count and holders only (playing the 7 or the 8 of a suit transposes).
    Per suit: the point-carrying cards' bits (fixed holders) and an 8-bit code of the
    0-point cards (count + 2-bit holder of each, weakest first)."""
    cdef const Pos* p = &s.p
    cdef uint64_t rem = p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]
    cdef uint64_t key = 0, zr, code
    cdef int st, z, b, k, sh = 0
    for st in range(4):
        z = s.r.zlen[st]
        key |= ((rem >> (8 * st + z)) & ((<uint64_t>0xFF) >> z)) << sh
        sh += 8 - z
        zr = (rem >> (8 * st)) & ((<uint64_t>1 << z) - 1)
        code = <uint64_t>popcount64(zr)
        k = 2
        while zr:
            b = lowest_bit(zr)
            zr &= zr - 1
            code |= (<uint64_t>s.owner[8 * st + b]) << k
            k += 2
        key |= code << sh
        sh += 8
    # the value depends on the attack team, générale on the taker himself
    cdef uint64_t who = <uint64_t>(p.taker if mode == MODE_GENERALE else p.attack)
    return (key | ((<uint64_t>p.leader) << 56) | ((<uint64_t>(p.fcap & 1)) << 58)
            | ((<uint64_t>mode) << 59) | (who << 60))


cdef inline uint64_t shape_key(const Search* s, int mode) noexcept nogil:
    """Key of a trick-boundary position up to the points of its cards (quasi-symmetry):
    per suit the number of remaining cards and their holders in power order, plus the
    leader, the capot flag, the mode and the attack team.  Positions with the same shape
    have isomorphic game trees (same legal moves and trick winners move for move); only
    the points of the cards differ, so their values differ by at most ``point_distance``.
    Exact in 64 bits for at most 5 cards per hand (16 + 2 * 20 + 6 bits), a 64-bit mix
    beyond (collisions about 2**-63 per comparison); bit 63 marks shape keys."""
    cdef const Pos* p = &s.p
    cdef uint64_t rem = p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]
    cdef uint64_t key = 0, m, counts = 0, seq = 0
    cdef int st, b, n = 0
    for st in range(4):
        m = (rem >> (8 * st)) & 0xFF
        counts |= (<uint64_t>popcount64(m)) << (4 * st)
        while m:
            b = highest_bit(m)
            m ^= (<uint64_t>1) << b
            seq |= (<uint64_t>s.owner[8 * st + b]) << (2 * n)
            n += 1
    cdef uint64_t who = <uint64_t>(p.taker if mode == MODE_GENERALE else p.attack)
    cdef uint64_t flags = (<uint64_t>p.leader) | ((<uint64_t>(p.fcap & 1)) << 2) \
        | ((<uint64_t>mode) << 3) | (who << 4)
    if n <= 20:
        # exact: 16 bits of counts, 2 bits a card, 6 flag bits
        key = counts | (seq << 16) | (flags << 56)
    else:
        # 6-8 cards a hand: a 64-bit mix of the 118-bit shape (collisions ~2**-63)
        key = seq * <uint64_t>0x9E3779B97F4A7C15
        key ^= (key >> 29) ^ ((counts | (flags << 16)) * <uint64_t>0xBF58476D1CE4E5B9)
        key ^= key >> 32
    return key | ((<uint64_t>1) << 63)


cdef inline int point_distance(const Rules* r, uint32_t a, uint32_t b) noexcept nogil:
    """Sum over the remaining cards, matched by rank order within each suit, of the
    difference of their points: a bound on how much the values of two positions of the
    same shape can differ (every line of play wins the same tricks in both; a capot is
    worth capot_points in both, and with the capot flag ap = 152 - remaining points)."""
    cdef uint32_t x, y
    cdef int st, i, j, d = 0
    if a == b:
        return 0
    for st in range(4):
        x = (a >> (8 * st)) & 0xFF
        y = (b >> (8 * st)) & 0xFF
        if x == y:
            continue                 # the same cards: no difference in this suit
        while x:
            i = highest_bit(x)
            j = highest_bit(y)
            x ^= (<uint32_t>1) << i
            y ^= (<uint32_t>1) << j
            d += abs(r.pts[8 * st + i] - r.pts[8 * st + j])
    return d


cdef inline int map_move(uint32_t a, uint32_t b, int c) noexcept nogil:
    """The card of remaining set b at the rank position card c has in remaining set a."""
    cdef int st = c >> 3
    cdef uint32_t x = (a >> (8 * st)) & 0xFF
    cdef uint32_t y = (b >> (8 * st)) & 0xFF
    cdef int k = popcount64(x >> ((c & 7) + 1))   # cards of a above c in its suit
    while k:
        y ^= (<uint32_t>1) << highest_bit(y)
        k -= 1
    return 8 * st + highest_bit(y) if y else -1


cdef inline uint64_t tt_index(const Search* s, uint64_t key) noexcept nogil:
    # first slot of the key's bucket: 4 entries of 16 bytes = one 64-byte cache line
    return ((key * <uint64_t>0x9E3779B97F4A7C15) >> (64 - s.tt_bits)) & ~(<uint64_t>3)


cdef inline TTEntry* tt_probe(Search* s, uint64_t key) noexcept nogil:
    cdef uint64_t i = tt_index(s, key)
    cdef int k
    s.tt_probes += 1
    for k in range(4):
        if s.tt[i + k].key == key and s.tt[i + k].gen == <uint8_t>s.gen:
            s.tt_hits += 1
            return &s.tt[i + k]
    return NULL


cdef inline TTEntry* shape_probe(Search* s, uint64_t skey, uint32_t rem,
                                 int* dist) noexcept nogil:
    """The representative stored for the shape ``skey`` (one per shape: the last one
    searched) and its point distance to the remaining cards ``rem``."""
    cdef uint64_t i = tt_index(s, skey)
    cdef int k
    for k in range(4):
        if s.tt[i + k].key == skey and s.tt[i + k].gen == <uint8_t>s.gen:
            s.shape_hits += 1
            dist[0] = point_distance(&s.r, s.tt[i + k].rem, rem)
            return &s.tt[i + k]
    return NULL


cdef inline void tt_store(Search* s, uint64_t key, uint32_t rem, int value_rel, int kind,
                          int move, bint shape) noexcept nogil:
    """Store a bound (kind: BOUND_LOWER, BOUND_UPPER or both = exact).  Bucket of four
    (one cache line): the same key is updated in place; otherwise an entry of an older
    generation is replaced, else the one with fewest cards left (cheapest to redo).
    Shape keys keep one representative per shape: another variant (other remaining
    cards) replaces it rather than taking a second slot (variants of one shape share a
    bucket, and keeping them all evicted everything else)."""
    cdef uint64_t i = tt_index(s, key)
    cdef TTEntry* e = NULL
    cdef TTEntry* x
    cdef int k
    s.tt_stores += 1
    for k in range(4):
        x = &s.tt[i + k]
        if x.key == key and x.gen == <uint8_t>s.gen:
            e = x
            if shape and x.rem != rem:
                e.rem = rem
                e.lb = 0
                e.ub = 255
            break
    if e == NULL:
        for k in range(4):
            x = &s.tt[i + k]
            if x.gen != <uint8_t>s.gen:
                e = x
                break
            if e == NULL or popcount64(x.rem) < popcount64(e.rem):
                e = x
        e.key = key
        e.gen = <uint8_t>s.gen
        e.rem = rem
        e.lb = 0
        e.ub = 255
    if value_rel < 0:
        value_rel = 0
    if value_rel > 255:
        value_rel = 255
    if kind & BOUND_LOWER and value_rel > e.lb:
        e.lb = <uint8_t>value_rel
    if kind & BOUND_UPPER and value_rel < e.ub:
        e.ub = <uint8_t>value_rel
    e.move = <uint8_t>move


cdef inline int check_limits(Search* s) noexcept nogil:
    if s.budget > 0 and s.nodes >= s.budget:
        s.aborted = 1
    elif s.deadline > 0 and (s.nodes & 1023) == 0 and now_s() > s.deadline:
        s.aborted = 1
    return s.aborted


cdef inline int last_trick_value(Search* s) noexcept nogil:
    """Exact value when every hand holds one card at a trick boundary."""
    cdef Pos* p = &s.p
    cdef const Rules* r = &s.r
    cdef int i, seat, c, win = 0, wseat = 0, pts = 10
    for i in range(4):
        seat = (p.leader + i) & 3
        c = lowest_bit(p.hand[seat])
        pts += r.pts[c]
        if i == 0 or beats(r, c, win):
            win = c
            wseat = seat
    if (wseat & 1) == p.attack:
        if p.fcap:
            return r.capot_points
        return p.ap + pts
    return p.ap


cdef inline int can_beat(const Rules* r, uint64_t hand, int trick_n, int lead, int w,
                         int partner_master) noexcept nogil:
    # has a player holding ``hand`` a legal card beating the winning card w?
    cdef uint64_t l = legal_mask(r, hand, trick_n, lead, w, partner_master)
    if l & above(w):
        return 1
    return ((r.trump_mask >> w) & 1) == 0 and (l & r.trump_mask) != 0


cdef inline int can_ruff(const Rules* r, uint64_t hand, uint64_t suit) noexcept nogil:
    # void in ``suit`` and holding a trump
    return (hand & suit) == 0 and (hand & r.trump_mask) != 0


cdef inline int trick_outlook(const Rules* r, const Pos* p, int seat, int c) noexcept nogil:
    """Move-ordering estimate after ``seat`` plays c: +1 if its team surely wins the
    trick (no later opponent can beat the winning card), -1 if it surely loses (the
    winner is an opponent and the partner, if still to play, cannot beat it), else 0."""
    cdef int lead = c if p.trick_n == 0 else p.trick[0]
    cdef int w = c, ws = seat, k, q, n_after
    if p.trick_n and not beats(r, c, p.win):
        w = p.win
        ws = p.win_seat
    n_after = 3 - p.trick_n
    if (ws & 1) == (seat & 1):
        for k in range(1, n_after + 1):
            q = (seat + k) & 3
            if (q & 1) != (seat & 1) and can_beat(r, p.hand[q], p.trick_n + k, lead, w,
                                                  (ws & 1) == (q & 1)):
                return 0
        return 1
    for k in range(1, n_after + 1):
        q = (seat + k) & 3
        if (q & 1) == (seat & 1) and can_beat(r, p.hand[q], p.trick_n + k, lead, w, 0):
            return 0
    return -1


cdef inline int order_moves(Search* s, uint64_t legal, int seat, int ttmove,
                            int* moves) noexcept nogil:
    """Candidate cards, best first; equivalent cards are merged (same holder, same
    points, no other live card between them in the suit's power order: keep the
    lowest)."""
    cdef Pos* p = &s.p
    cdef const Rules* r = &s.r
    cdef uint64_t live = p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]
    cdef uint64_t sep = live
    cdef uint64_t mine = p.hand[seat]
    cdef uint64_t lower, su, m = legal
    cdef int scores[8]
    cdef int n = 0, c, b, sc, j, partner_win, sure, top, same_outlook = -2
    cdef int cand[8]
    cdef int nc = 0, i
    if p.trick_n:
        sep |= (<uint64_t>1) << p.win
    partner_win = p.trick_n > 0 and (p.win_seat & 1) == (seat & 1)
    while m:
        c = lowest_bit(m)
        m &= m - 1
        lower = sep & below(c)
        if lower:
            b = highest_bit(lower)
            if (mine >> b) & 1 and r.pts[b] == r.pts[c]:
                continue
        cand[nc] = c
        nc += 1
    if nc == 1:
        moves[0] = cand[0]
        return 1
    for i in range(nc):
        c = cand[i]
        # --- heuristic score: will my side surely win / lose this trick after c?
        # (every card that does not beat the trick's winner leaves the same trick)
        if p.trick_n and not beats(r, c, p.win):
            if same_outlook == -2:
                same_outlook = trick_outlook(r, p, seat, c)
            sure = same_outlook
        else:
            sure = trick_outlook(r, p, seat, c)
        if sure > 0:
            sc = 100 + r.pts[c]                  # sure trick: add points to it
        elif sure < 0:
            sc = -2 * r.pts[c] - 2 * (c & 7)     # lost trick: cheapest, weakest card
        elif p.trick_n == 0:
            top = highest_bit(live & suit_of_bit(c))
            if s.owner[top] == ((seat + 2) & 3):
                sc = 60 - r.pts[c]               # lead towards the partner's master
            elif c == top:
                sc = 50 + r.pts[c]
            else:
                sc = 10 - r.pts[c]
            if r.trump_mask and not (r.trump_mask >> c) & 1:
                # a side suit the partner can ruff is a good lead (BELOTE-PLAY-3: void,
                # he must trump), one an opponent can ruff a poor one
                su = suit_of_bit(c)
                if can_ruff(r, p.hand[(seat + 2) & 3], su):
                    sc += LEAD_RUFF_GOOD
                elif can_ruff(r, p.hand[(seat + 1) & 3], su) or \
                        can_ruff(r, p.hand[(seat + 3) & 3], su):
                    sc -= LEAD_RUFF_BAD
        elif beats(r, c, p.win):
            sc = 40 - r.pts[c]                   # take the lead of the trick cheaply
        elif partner_win:
            sc = 20 - r.pts[c]
        else:
            sc = 10 - r.pts[c]
        if c == ttmove:
            sc += 1000
        # insertion sort, descending score
        j = n
        while j > 0 and scores[j - 1] < sc:
            scores[j] = scores[j - 1]
            moves[j] = moves[j - 1]
            j -= 1
        scores[j] = sc
        moves[j] = c
        n += 1
    return n


cdef inline void sure_points(Search* s, int* lo, int* hi) noexcept nogil:
    """Suit contracts, at a trick boundary: the run of highest remaining trumps held
    by one team is won by that team whenever played (BELOTE-CARD-4, BELOTE-PLAY-5), so
    its points are sure for that team (and a defence master trump rules out capot)."""
    cdef Pos* p = &s.p
    cdef uint64_t m = (p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]) & s.r.trump_mask
    cdef int b, team, run = 0
    if m == 0:
        return
    team = s.owner[highest_bit(m)] & 1
    while m:
        b = highest_bit(m)
        if (s.owner[b] & 1) != team:
            break
        run += s.r.pts[b]
        m ^= (<uint64_t>1) << b
    if team == p.attack:
        lo[0] = p.ap + run
    else:
        hi[0] = p.ap + p.rem_pts + 10 - run


cdef inline int min_points(const Rules* r, uint64_t hand) noexcept nogil:
    cdef int c, m = 1000
    if hand & r.zero_mask:
        return 0
    while hand:
        c = lowest_bit(hand)
        hand &= hand - 1
        if r.pts[c] < m:
            m = r.pts[c]
    return m if m < 1000 else 0


cdef inline int cash_gain(const Rules* r, const Pos* p, int seat) noexcept nogil:
    """At a trick boundary: points the leader's team surely takes in this trick by
    leading a card no opponent can beat (trick_outlook), counting for the other three
    cards only the cheapest card of each hand; -1 if no lead surely wins."""
    cdef uint64_t m = p.hand[seat]
    cdef uint64_t opp = p.hand[(seat + 1) & 3] | p.hand[(seat + 3) & 3]
    cdef int c, best = -1, k
    while m:
        c = highest_bit(m)
        m ^= (<uint64_t>1) << c
        # only a card no opponent can beat in its own suit may surely win
        if r.pts[c] > best and (above(c) & opp) == 0 and trick_outlook(r, p, seat, c) > 0:
            best = r.pts[c]
    if best < 0:
        return -1
    for k in range(1, 4):
        best += min_points(r, p.hand[(seat + k) & 3])
    return best


cdef inline int cheapest_points(const Rules* r, uint64_t hand, int k) noexcept nogil:
    """Sum of the k lowest card points in ``hand`` (a lower bound on any k of its cards)."""
    cdef int v[8]
    cdef int n = 0, i, j, x, total = 0
    while hand:
        x = r.pts[lowest_bit(hand)]
        hand &= hand - 1
        j = n
        while j > 0 and v[j - 1] > x:
            v[j] = v[j - 1]
            j -= 1
        v[j] = x
        n += 1
    for i in range(k if k < n else n):
        total += v[i]
    return total


cdef inline int top_run(const Rules* r, uint64_t live_suit, uint64_t mine, int cap,
                        int* pts) noexcept nogil:
    """How many of the highest live cards of one suit (``live_suit``), at most ``cap``,
    ``mine`` holds as an unbroken run from the top; their points are added to pts."""
    cdef int b, n = 0
    while live_suit and n < cap:
        b = highest_bit(live_suit)
        if not (mine >> b) & 1:
            break
        n += 1
        pts[0] += r.pts[b]
        live_suit ^= (<uint64_t>1) << b
    return n


cdef inline int quick_gain(const Rules* r, const Pos* p, int seat) noexcept nogil:
    """At a trick boundary: points the leader's team surely takes by cashing the
    leader's sure tricks in a row (DDS-style quick tricks); -1 if none.  A sure trick
    is a lead of the highest live card of its suit, held by the leader, who keeps the
    lead.  In a suit contract the leader first draws with his run of top trumps; a side
    suit's top cards are then sure while every opponent who may still hold a trump
    must follow that suit (BELOTE-PLAY-3: a void opponent must trump), so at most as
    many as his length there.  TA and SA have no ruffs (COINCHE-PLAY-3/4).  The other
    hands add at least their cheapest cards; all tricks add the dix de der."""
    cdef uint64_t live = p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]
    cdef uint64_t mine = p.hand[seat]
    cdef uint64_t o1 = p.hand[(seat + 1) & 3]
    cdef uint64_t o2 = p.hand[(seat + 3) & 3]
    cdef uint64_t suit
    cdef int k = 0, won = 0, st, cap, left1 = 0, left2 = 0, n
    if r.trump_mask:
        k = top_run(r, live & r.trump_mask, mine, 8, &won)
        left1 = popcount64(o1 & r.trump_mask) - k    # trumps left after the draw
        left2 = popcount64(o2 & r.trump_mask) - k
    for st in range(4):
        suit = (<uint64_t>0xFF) << (8 * st)
        if suit == r.trump_mask:
            continue
        cap = 8
        if left1 > 0:
            n = popcount64(o1 & suit)
            cap = n if n < cap else cap
        if left2 > 0:
            n = popcount64(o2 & suit)
            cap = n if n < cap else cap
        k += top_run(r, live & suit, mine, cap, &won)
    if k == 0:
        return -1
    won += cheapest_points(r, p.hand[(seat + 2) & 3], k)
    won += cheapest_points(r, o1, k) + cheapest_points(r, o2, k)
    if k == popcount64(mine):
        won += 10
    return won


cdef int ab_search(Search* s, int alpha, int beta) noexcept nogil:
    """Fail-soft alpha-beta on the attack's final points: returns g with g <= alpha
    meaning value <= g, g >= beta meaning value >= g, otherwise g is the exact value.
    The drivers use null windows (alpha = beta - 1); small endgames (at most
    EXACT_LEFT cards per hand, at a trick boundary) are searched with a full window so
    that their exact value, stored in the table, serves every later probe."""
    cdef Pos* p = &s.p
    cdef const Rules* r = &s.r
    cdef Pos saved
    cdef int seat, nleft = 0, lo, hi, maximize, best, g, i, nm, c, bm, ttmove = -1
    cdef int a0, b0, kind, dist = 0
    cdef int moves[8]
    cdef uint64_t key = 0, skey = 0
    cdef uint32_t rem = 0
    cdef TTEntry* e
    s.nodes += 1
    if check_limits(s):
        return 0
    seat = (p.leader + p.trick_n) & 3
    if STATS:
        s.by_left[popcount64(p.hand[seat])] += 1
    if p.trick_n == 0:
        nleft = popcount64(p.hand[seat])
        if nleft == 1:
            return last_trick_value(s)
        if nleft == 0:
            return final_attack(r, p)
        lo = p.ap
        hi = r.capot_points if p.fcap else p.ap + p.rem_pts + 10
        if r.trump_mask:
            sure_points(s, &lo, &hi)
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        if nleft > TT_MIN_LEFT:
            key = tt_key(s, MODE_VALUE)
            e = tt_probe(s, key)
            if QUASI and e == NULL and nleft <= QUASI_LEFT:
                rem = <uint32_t>(p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3])
                skey = shape_key(s, MODE_VALUE)
                e = shape_probe(s, skey, rem, &dist)
        else:
            e = NULL
        if e != NULL:
            # a same-shape position's bounds hold within their point distance
            if e.lb - dist + p.ap >= beta or (e.lb == e.ub and dist == 0):
                return e.lb - dist + p.ap
            if e.ub + dist + p.ap <= alpha:
                return e.ub + dist + p.ap
            ttmove = e.move if dist == 0 else map_move(e.rem, rem, e.move)
            if e.lb - dist + p.ap > lo:
                lo = e.lb - dist + p.ap
            if e.ub + dist + p.ap < hi:
                hi = e.ub + dist + p.ap
        if CASH_BOUND and nleft > TT_MIN_LEFT:
            g = cash_gain(r, p, seat)
            if QUICK_BOUND:
                g = max(g, quick_gain(r, p, seat))
            if g >= 0:
                if (seat & 1) == p.attack:
                    if p.ap + g > lo:
                        lo = p.ap + g
                        if lo >= beta:
                            return lo
                elif p.ap + p.rem_pts + 10 - g < hi:
                    hi = p.ap + p.rem_pts + 10 - g
                    if hi <= alpha:
                        return hi
        if nleft <= EXACT_LEFT:
            alpha = lo - 1          # full window within the proven bounds: exact value
            beta = hi + 1
    a0 = alpha
    b0 = beta
    nm = order_moves(s, pos_legal(r, p), seat, ttmove, moves)
    if nm == 0:
        return final_attack(r, p)      # unreachable for positions the face accepts
    maximize = (seat & 1) == p.attack
    best = -1 if maximize else 100000
    bm = moves[0]
    pos_copy(&saved, p)
    for i in range(nm):
        c = moves[i]
        pos_play(r, p, c)
        g = ab_search(s, alpha, beta)
        pos_copy(p, &saved)
        if s.aborted:
            return 0
        if maximize:
            if g > best:
                best = g
                bm = c
                if best > alpha:
                    alpha = best
            if best >= beta:
                if STATS:
                    s.cut_at[i] += 1
                    if i:
                        s.late_cut[saved.trick_n][1] += 1
                    else:
                        s.first_cut[saved.trick_n][1] += 1
                break
        else:
            if g < best:
                best = g
                bm = c
                if best < beta:
                    beta = best
            if best <= alpha:
                if STATS:
                    s.cut_at[i] += 1
                    if i:
                        s.late_cut[saved.trick_n][0] += 1
                    else:
                        s.first_cut[saved.trick_n][0] += 1
                break
    if saved.trick_n == 0 and nleft > TT_MIN_LEFT:
        if best <= a0:
            kind = BOUND_UPPER
        elif best >= b0:
            kind = BOUND_LOWER
        else:
            kind = BOUND_LOWER | BOUND_UPPER
        # (the position is restored: p equals saved here)
        rem = <uint32_t>(p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3])
        tt_store(s, key, rem, best - saved.ap, kind, bm, 0)
        if QUASI and nleft <= QUASI_LEFT:
            if skey == 0:
                skey = shape_key(s, MODE_VALUE)
            tt_store(s, skey, rem, best - saved.ap, kind, bm, 1)
    return best


cdef inline int dd_search(Search* s, int beta) noexcept nogil:
    """Null-window probe: g >= beta means value >= g, g < beta means value <= g."""
    return ab_search(s, beta - 1, beta)


cdef int gen_search(Search* s) noexcept nogil:
    """Can the taker alone win every remaining trick (générale, COINCHE-MADE-3)?
    Attack seats choose, defence seats refute.  1 / 0."""
    cdef Pos* p = &s.p
    cdef const Rules* r = &s.r
    cdef Pos saved
    cdef int seat, nleft = 0, maximize, res, g, i, nm, c, ttmove = -1
    cdef int moves[8]
    cdef uint64_t key = 0
    cdef TTEntry* e
    s.nodes += 1
    if check_limits(s):
        return 0
    if not p.fgen:
        return 0
    seat = (p.leader + p.trick_n) & 3
    if p.trick_n == 0:
        nleft = popcount64(p.hand[seat])
        if nleft == 0:
            return 1
        key = tt_key(s, MODE_GENERALE)
        e = tt_probe(s, key)
        if e != NULL:
            if e.lb >= 1:
                return 1
            if e.ub == 0:
                return 0
            ttmove = e.move
    nm = order_moves(s, pos_legal(r, p), seat, ttmove, moves)
    if nm == 0:
        return 0
    maximize = (seat & 1) == p.attack
    res = 0 if maximize else 1
    pos_copy(&saved, p)
    c = moves[0]
    for i in range(nm):
        c = moves[i]
        pos_play(r, p, c)
        g = gen_search(s)
        pos_copy(p, &saved)
        if s.aborted:
            return 0
        if maximize and g:
            res = 1
            break
        if not maximize and not g:
            res = 0
            break
    if saved.trick_n == 0:
        tt_store(s, key, <uint32_t>(p.hand[0] | p.hand[1] | p.hand[2] | p.hand[3]), res,
                 BOUND_LOWER if res == 1 else BOUND_UPPER, c, 0)
    return res


cdef inline int value_hi(const Search* s) noexcept nogil:
    cdef const Pos* p = &s.p
    if p.fcap:
        return s.r.capot_points
    return p.ap + p.rem_pts + p.trick_pts + 10


cdef int greedy_value(Search* s) noexcept nogil:
    """Value of the line where every seat plays its first-ordered card: a cheap guess
    for the first probe (not a bound)."""
    cdef Pos saved = s.p
    cdef int moves[8]
    cdef int seat, v
    while s.p.hand[0] | s.p.hand[1] | s.p.hand[2] | s.p.hand[3]:
        seat = (s.p.leader + s.p.trick_n) & 3
        if order_moves(s, pos_legal(&s.r, &s.p), seat, -1, moves) == 0:
            break
        pos_play(&s.r, &s.p, moves[0])
    v = final_attack(&s.r, &s.p)
    s.p = saved
    return v


cdef inline int class_start(const Search* s, int g, int lo) noexcept nogil:
    """The probe that splits score classes nearest to ``g`` within (lo, ...]: the
    first point count of g's class, or of the next class when that start is <= lo."""
    cdef int b = g
    while b > lo + 1 and s.cls[b - 1] == s.cls[g]:
        b -= 1
    if b > lo + 1 or s.cls[lo] != s.cls[b]:
        return b
    while b < 255 and s.cls[b] == s.cls[lo]:
        b += 1
    return b


cdef int mtdf(Search* s, int guess, int* lo_out, int* hi_out) noexcept nogil:
    """Exact value by zero-window probes: the first at ``guess`` (or the greedy line's
    value), then bisection of the proven interval.  ``lo_out``/``hi_out`` hold known
    bounds on entry (-1: none) and the proven bounds on exit (equal unless the node
    budget or deadline stopped the search).  With score classes (``use_cls``) the
    search stops once lo and hi are in one class, every probe splitting two classes:
    the exact value is not needed where the deal's score is flat."""
    cdef int lo = s.p.ap, hi = value_hi(s), g, beta, npr = 0
    if lo_out[0] > lo:
        lo = lo_out[0]
    if hi_out[0] >= 0 and hi_out[0] < hi:
        hi = hi_out[0]
    if s.p.hand[0] | s.p.hand[1] | s.p.hand[2] | s.p.hand[3] == 0:
        lo = final_attack(&s.r, &s.p)
        hi = lo
    g = guess
    if g < 0:
        g = greedy_value(s)
    if g < lo or g > hi:
        g = (lo + hi) // 2
    while lo < hi:
        if s.use_cls and s.cls[lo] == s.cls[hi]:
            break
        # bisection of the proven interval [lo, hi], first probe at the guess
        if g <= lo or g > hi:
            g = (lo + hi + 1) // 2
        if s.use_cls:
            g = class_start(s, g, lo)
        beta = g
        g = dd_search(s, beta)
        s.probes += 1
        if s.aborted:
            break
        if g >= beta:
            lo = g
            g = -1 if npr >= FOLLOW_BOUND else lo + 1
        else:
            hi = g
            g = -1 if npr >= FOLLOW_BOUND else hi
        npr += 1
    lo_out[0] = lo
    hi_out[0] = hi
    return lo


if sizeof(Pos) != 56 or sizeof(TTEntry) != 16:   # pos_copy: seven 64-bit words; 4 entries a line
    raise ImportError("belote_core: unexpected Pos layout")


cdef class DDSolver:
    """Exact double-dummy search for one contract; owns its transposition table
    (2**tt_bits entries of 16 bytes, four-way buckets, generation-tagged; exact and
    shape entries share it)."""

    cdef Search s
    cdef int configured

    def __cinit__(self, int tt_bits=20):
        if not 4 <= tt_bits <= 28:
            raise ValueError("tt_bits must be in 4..28")
        memset(&self.s, 0, sizeof(Search))
        self.s.tt_bits = tt_bits
        self.s.tt_mask = ((<uint64_t>1) << tt_bits) - 1
        self.s.tt = <TTEntry*>calloc((<size_t>1) << tt_bits, sizeof(TTEntry))
        if self.s.tt == NULL:
            raise MemoryError("cannot allocate the transposition table")
        self.s.gen = 0
        self.configured = 0
        for i in range(32):
            self.s.owner[i] = -1

    def __dealloc__(self):
        if self.s.tt != NULL:
            free(self.s.tt)
            self.s.tt = NULL

    @property
    def tt_bits(self) -> int:
        return self.s.tt_bits

    cdef void _new_generation(self):
        cdef int i
        self.s.gen += 1
        if (self.s.gen & 0xFF) == 0:      # entries keep the generation's low byte
            memset(self.s.tt, 0, ((<size_t>1) << self.s.tt_bits) * sizeof(TTEntry))
            self.s.gen = 1
        for i in range(32):
            self.s.owner[i] = -1

    def configure(self, int strain, bint undertrump_required=True,
                  bint ta_must_overtake=True, int capot_points=252):
        """Set the contract's strain and play options (a change starts a new TT
        generation)."""
        if not 0 <= strain <= 5:
            raise ValueError("strain must be 0..5 (S H D C TA SA)")
        if (not self.configured or strain != self.s.r.strain
                or undertrump_required != self.s.r.undertrump
                or ta_must_overtake != self.s.r.ta_overtake
                or capot_points != self.s.r.capot_points):
            rules_init(&self.s.r, strain, undertrump_required, ta_must_overtake,
                       capot_points)
            self.configured = 1
            self._new_generation()

    def set_position(self, hands, trick, int leader, int taker, int attack_points=0,
                     int defence_points=0, bint attack_all=True, bint taker_all=True,
                     bint defence_all=True, int tricks_done=0):
        """Load a position (deck masks / deck cards, like BeloteCore.set_position).
        The TT is kept when every card's holder agrees with the current generation."""
        cdef int i, c, seat, clash = 0
        cdef Pos* p = &self.s.p
        cdef uint64_t h[4]
        if not self.configured:
            raise ValueError("configure() the contract first")
        _check_position(hands, trick, leader, taker)
        for i in range(4):
            h[i] = 0
            m = hands[i]
            while m:
                d = (m & -m).bit_length() - 1
                m &= m - 1
                h[i] |= (<uint64_t>1) << self.s.r.to_core[d]
        for i in range(len(trick)):
            c = self.s.r.to_core[trick[i]]
            h[(leader + i) & 3] |= (<uint64_t>1) << c
        for i in range(4):
            for c in range(32):
                if (h[i] >> c) & 1 and self.s.owner[c] != -1 and self.s.owner[c] != i:
                    clash = 1
        if clash:
            self._new_generation()
        memset(p, 0, sizeof(Pos))
        for i in range(4):
            p.hand[i] = h[i]
            for c in range(32):
                if (h[i] >> c) & 1:
                    self.s.owner[c] = i
                    p.rem_pts += self.s.r.pts[c]
        p.leader = leader
        p.taker = taker
        p.attack = taker & 1
        p.ap = attack_points
        p.dp = defence_points
        p.fcap = attack_all
        p.fgen = taker_all
        p.fdef = defence_all
        p.tricks_done = tricks_done
        for i in range(len(trick)):
            c = self.s.r.to_core[trick[i]]
            pos_play(&self.s.r, p, c)

    def _limits(self, long long node_budget, double seconds):
        self.s.nodes = 0
        self.s.aborted = 0
        self.s.tt_probes = 0
        self.s.tt_hits = 0
        self.s.tt_stores = 0
        self.s.shape_hits = 0
        self.s.probes = 0
        memset(self.s.by_left, 0, sizeof(self.s.by_left))
        memset(self.s.cut_at, 0, sizeof(self.s.cut_at))
        memset(self.s.late_cut, 0, sizeof(self.s.late_cut))
        memset(self.s.first_cut, 0, sizeof(self.s.first_cut))
        self.s.budget = node_budget if node_budget > 0 else 0
        self.s.deadline = now_s() + seconds if seconds > 0 else 0.0

    def stats(self) -> dict:
        """Counters of the last call: nodes, TT probes / hits / stores."""
        return {"nodes": self.s.nodes, "tt_probes": self.s.tt_probes,
                "tt_hits": self.s.tt_hits, "shape_hits": self.s.shape_hits, "tt_stores": self.s.tt_stores,
                "probes": self.s.probes, "by_left": [self.s.by_left[i] for i in range(9)],
                "cut_at": [self.s.cut_at[i] for i in range(9)],
                "late_cut": [[self.s.late_cut[i][j] for j in range(2)] for i in range(4)],
                "first_cut": [[self.s.first_cut[i][j] for j in range(2)] for i in range(4)]}

    def legal(self) -> int:
        """Deck mask of the legal cards at the loaded position."""
        cdef uint64_t m = pos_legal(&self.s.r, &self.s.p)
        cdef uint64_t out = 0
        while m:
            out |= (<uint64_t>1) << self.s.r.to_deck[lowest_bit(m)]
            m &= m - 1
        return out

    def to_act(self) -> int:
        return pos_to_act(&self.s.p)

    def solve(self, int guess=-1, long long node_budget=0, double seconds=0.0,
              classes=None):
        """Value of the loaded position: (value, lo, hi, nodes, complete).  With
        ``classes`` (as in ``solve_cards``) the search stops once [lo, hi] lies in one
        score class, and value is lo."""
        cdef int lo = -1, hi = -1
        self._set_classes(classes)
        self._limits(node_budget, seconds)
        try:
            with nogil:
                mtdf(&self.s, guess, &lo, &hi)
        finally:
            self.s.use_cls = 0
        return (lo, lo, hi, self.s.nodes, not self.s.aborted)

    def solve_cards(self, long long node_budget=0, double seconds=0.0,
                    unsigned long long only=0, classes=None):
        """Value of every legal card: list of (deck card, lo, hi), nodes, complete.
        Equivalent cards (merged in the search) share one search.  ``only`` (a mask of
        deck cards, 0 = all): solve just these legal cards; the position's value is then
        not searched first (one card alone costs less than the value, which must find
        the best card among all of them).  ``classes`` (bytes, one per final point
        count 0..capot_points, non-decreasing): the score class of each value; a card's
        search stops once [lo, hi] lies in one class (lo < hi where the score is flat)."""
        self._set_classes(classes)
        try:
            return self._solve_cards(node_budget, seconds, only)
        finally:
            self.s.use_cls = 0

    cdef _set_classes(self, classes):
        cdef int i, n
        if classes is None:
            self.s.use_cls = 0
            return
        cdef const unsigned char[:] c = classes
        n = c.shape[0]
        if n != self.s.r.capot_points + 1:
            raise ValueError(f"classes: {self.s.r.capot_points + 1} values expected "
                             f"(0..capot_points), got {n}")
        for i in range(256):
            self.s.cls[i] = c[i] if i < n else c[n - 1]
            if i and self.s.cls[i] < self.s.cls[i - 1]:
                raise ValueError("classes must be non-decreasing")
        self.s.use_cls = 1

    def _solve_cards(self, long long node_budget, double seconds,
                     unsigned long long only):
        cdef Pos saved = self.s.p
        cdef uint64_t legal = pos_legal(&self.s.r, &self.s.p)
        cdef uint64_t m = legal, want = legal, done = 0
        cdef uint64_t sep, lower
        cdef int c, b, lo = -1, hi = -1, guess = -1, seat, maximize
        cdef int rlo = -1, rhi = -1
        cdef int vlo[32]
        cdef int vhi[32]
        self._limits(node_budget, seconds)
        seat = pos_to_act(&self.s.p)
        maximize = (seat & 1) == saved.attack
        if only:
            want = 0
            for c in range(32):
                if (only >> c) & 1:
                    want |= (<uint64_t>1) << self.s.r.to_core[c]
            want &= legal
        else:
            # the position's value v first: a max node's cards are worth <= v (and the
            # best ones exactly v), a min node's >= v, so most cards need one probe
            # (with score classes: v's class, [rlo, rhi])
            with nogil:
                mtdf(&self.s, -1, &rlo, &rhi)
        sep = saved.hand[0] | saved.hand[1] | saved.hand[2] | saved.hand[3]
        if saved.trick_n:
            sep |= (<uint64_t>1) << saved.win
        out = []
        while m:
            c = lowest_bit(m)
            m &= m - 1
            if not (want >> c) & 1:
                continue
            lower = sep & below(c)
            b = highest_bit(lower) if lower else -1
            if b >= 0 and (saved.hand[seat] >> b) & 1 and \
                    self.s.r.pts[b] == self.s.r.pts[c] and (done >> b) & 1:
                vlo[c] = vlo[b]
                vhi[c] = vhi[b]
            elif self.s.aborted:
                vlo[c] = saved.ap
                vhi[c] = value_hi(&self.s)
            else:
                pos_play(&self.s.r, &self.s.p, c)
                lo = -1
                hi = -1
                if rlo >= 0:
                    # the first probe asks whether the card reaches v (max node) or
                    # stays at v (min node: a probe at v + 1)
                    if maximize:
                        hi = rhi
                        guess = rlo
                    else:
                        lo = rlo
                        guess = rhi + 1
                with nogil:
                    mtdf(&self.s, guess, &lo, &hi)
                self.s.p = saved
                vlo[c] = lo
                vhi[c] = hi
                guess = lo
            done |= (<uint64_t>1) << c
            out.append((self.s.r.to_deck[c], vlo[c], vhi[c]))
        return out, self.s.nodes, not self.s.aborted

    def generale(self, long long node_budget=0, double seconds=0.0):
        """Whether the taker can force winning every remaining trick:
        (result, nodes, complete)."""
        cdef int res
        self._limits(node_budget, seconds)
        with nogil:
            res = gen_search(&self.s)
        return (bool(res), self.s.nodes, not self.s.aborted)

    def probe(self, int beta, long long node_budget=0):
        """One null-window probe: fail-soft bound and node count (diagnostics, and the
        Coinche bid analysis's first probe at the points a strain needs)."""
        cdef int g
        self._limits(node_budget, 0.0)
        with nogil:
            g = dd_search(&self.s, beta)
        return (g, self.s.nodes, not self.s.aborted)

    def new_generation(self):
        """Forget every stored bound (next searches start with an empty table)."""
        self._new_generation()

    def solve_window(self, long long node_budget=0):
        """Diagnostics: one full-window alpha-beta search of the loaded position."""
        cdef int g
        self._limits(node_budget, 0.0)
        with nogil:
            g = ab_search(&self.s, self.s.p.ap - 1, value_hi(&self.s) + 1)
        return (g, self.s.nodes, not self.s.aborted)

    def greedy(self) -> int:
        """Diagnostics: value of the greedy line used as the first probe's guess."""
        return greedy_value(&self.s)

    def ordered_moves(self) -> list:
        """Diagnostics: the search's move order at the loaded position (deck cards)."""
        cdef int moves[8]
        cdef int n = order_moves(&self.s, pos_legal(&self.s.r, &self.s.p),
                                 pos_to_act(&self.s.p), -1, moves)
        return [self.s.r.to_deck[moves[i]] for i in range(n)]
