"""The sampler's counting in C (solver.sampling, which keeps the pure-Python reference).

The same recursion as ``solver.sampling.DealSampler``: N(i, caps), the deals of the
cards of classes i.. that fill the holders' capacities ``caps`` exactly, and the chain
G(i, j, r, caps) that takes a class's multinomial one holder at a time:

    G(i, j, r, caps) = sum over k: C(r, k) * G(i, j + 1, r - k, caps - k e_j)

Counts are unsigned 128-bit integers (a Tarot 4-player first lead has ~4e31 deals,
2**128 is 3.4e38); a multiplication or addition that would overflow sets ``overflow``
and the caller falls back to Python's integers. The memo is an open-addressing table
keyed by the packed capacities (6 bits a holder) and the step (class, holder), grown
when half full.
"""

from libc.stdint cimport uint64_t, int64_t
from libc.stdlib cimport calloc, free

cdef extern from *:
    """
    typedef unsigned __int128 atout_u128;
    static inline int atout_mul128(atout_u128 a, atout_u128 b, atout_u128* r) {
        return __builtin_mul_overflow(a, b, r);
    }
    static inline int atout_add128(atout_u128 a, atout_u128 b, atout_u128* r) {
        return __builtin_add_overflow(a, b, r);
    }
    static inline uint64_t atout_lo64(atout_u128 x) { return (uint64_t)x; }
    static inline uint64_t atout_hi64(atout_u128 x) { return (uint64_t)(x >> 64); }
    static inline atout_u128 atout_make128(uint64_t hi, uint64_t lo) {
        return ((atout_u128)hi << 64) | lo;
    }
    """
    # Cython sees a 64-bit integer; the C code declares and computes in 128 bits
    ctypedef unsigned long long u128 "atout_u128"
    int mul128 "atout_mul128"(u128 a, u128 b, u128* r) noexcept nogil
    int add128 "atout_add128"(u128 a, u128 b, u128* r) noexcept nogil
    uint64_t lo64 "atout_lo64"(u128 x) noexcept nogil
    uint64_t hi64 "atout_hi64"(u128 x) noexcept nogil
    u128 make128 "atout_make128"(uint64_t hi, uint64_t lo) noexcept nogil

DEF MAX_CLASSES = 512   # holder masks of at most 9 holders
DEF MAX_HOLDERS = 9     # array bound; the packed key (6 bits a holder + a 16-bit step
                        # in 62 bits) admits 7 holders, which __init__ checks
DEF MAX_CARDS = 63      # per holder (6 bits)
DEF MAX_CLASS = 127     # cards of one class: C(127, k) < 2**128; BINOM's rows

cdef u128 BINOM[MAX_CLASS + 1][MAX_CLASS + 1]


cdef void _init_binom() noexcept:
    cdef int n, k
    for n in range(MAX_CLASS + 1):
        BINOM[n][0] = 1
        for k in range(1, MAX_CLASS + 1):
            BINOM[n][k] = 0 if k > n else BINOM[n - 1][k - 1] + BINOM[n - 1][k]


_init_binom()


ctypedef struct Slot:
    uint64_t key        # packed << 16 | step, plus 1 (0 marks an empty slot)
    u128 value


cdef inline uint64_t _mix(uint64_t x) noexcept nogil:
    x ^= x >> 31
    x *= <uint64_t>0x9E3779B97F4A7C15
    x ^= x >> 29
    return x


cdef class ChainCounter:
    """The counts of one set of constraints: classes of cards (their sizes and holder
    masks, in the order the sampler processes them) and the holders' capacities."""

    cdef int nclasses, nholders
    cdef int size[MAX_CLASSES]
    cdef int nh[MAX_CLASSES]
    cdef int holder[MAX_CLASSES][MAX_HOLDERS]
    cdef int later[MAX_CLASSES][MAX_HOLDERS]
    cdef int mask[MAX_CLASSES]
    cdef int step0[MAX_CLASSES]      # step index of (class, first holder)
    cdef Slot* table
    cdef uint64_t cap_mask           # table size - 1
    cdef int64_t used
    cdef public bint overflow
    cdef uint64_t packed0

    def __cinit__(self):
        self.table = NULL

    def __init__(self, sizes, masks, holders, later, capacities):
        cdef int i, j, steps = 0
        if len(sizes) > MAX_CLASSES or 6 * len(capacities) + 16 > 62:
            raise ValueError("too many classes or holders for the sampler's core")
        if any(c > MAX_CARDS or c < 0 for c in capacities):
            raise ValueError("a holder's capacity is out of the core's range")
        # BINOM[r][k] is read for r up to a class's size: bound it (memory safety)
        if any(n > MAX_CLASS or n < 0 for n in sizes):
            raise ValueError("a class is too large for the sampler's core")
        self.nclasses = len(sizes)
        self.nholders = len(capacities)
        for i in range(self.nclasses):
            self.size[i] = sizes[i]
            self.mask[i] = masks[i]
            self.nh[i] = len(holders[i])
            self.step0[i] = steps
            steps += self.nh[i]
            for j in range(self.nh[i]):
                self.holder[i][j] = holders[i][j]
            for j in range(self.nholders):
                self.later[i][j] = later[i][j]
        if steps >= (1 << 16):
            raise ValueError("too many steps for the sampler's core")
        self.packed0 = 0
        for j in range(self.nholders):
            self.packed0 |= (<uint64_t>capacities[j]) << (6 * j)
        self.cap_mask = (1 << 12) - 1
        self.table = <Slot*>calloc(self.cap_mask + 1, sizeof(Slot))
        if self.table == NULL:
            raise MemoryError()
        self.used = 0
        self.overflow = False

    def __dealloc__(self):
        free(self.table)

    cdef int _grow(self) noexcept:
        cdef uint64_t old_mask = self.cap_mask, i, k
        cdef Slot* old = self.table
        cdef Slot* t = <Slot*>calloc(2 * (old_mask + 1), sizeof(Slot))
        if t == NULL:
            return 0
        self.table = t
        self.cap_mask = 2 * (old_mask + 1) - 1
        for i in range(old_mask + 1):
            if old[i].key:
                k = _mix(old[i].key) & self.cap_mask
                while t[k].key:
                    k = (k + 1) & self.cap_mask
                t[k] = old[i]
        free(old)
        return 1

    cdef Slot* _find(self, uint64_t key) noexcept:
        """The slot of ``key`` (stored, or the empty one where it would go)."""
        cdef uint64_t k = _mix(key) & self.cap_mask
        while self.table[k].key and self.table[k].key != key:
            k = (k + 1) & self.cap_mask
        return &self.table[k]

    cdef u128 _n(self, int i, uint64_t packed) noexcept:
        cdef int h
        if i == self.nclasses:
            return 1 if packed == 0 else 0
        for h in range(self.nholders):
            if not (self.mask[i] >> h) & 1 and <int>((packed >> (6 * h)) & 63) > self.later[i][h]:
                return 0  # more room than the classes left can fill
        return self._g(i, 0, self.size[i], packed)

    cdef u128 _g(self, int i, int j, int r, uint64_t packed) noexcept:
        cdef uint64_t key = ((packed << 16) | <uint64_t>(self.step0[i] + j)) + 1
        cdef Slot* slot = self._find(key)
        cdef int h, sh, cap, lo, room, x, k, hi
        cdef u128 total = 0, sub, term
        if slot.key:
            return slot.value
        if self.overflow:
            return 0
        h = self.holder[i][j]
        sh = 6 * h
        cap = <int>((packed >> sh) & 63)
        lo = cap - self.later[i][h]
        if lo < 0:
            lo = 0
        if j == self.nh[i] - 1:  # the last holder takes the rest
            if lo <= r <= cap:
                total = self._n(i + 1, packed - ((<uint64_t>r) << sh))
        else:
            room = 0
            for x in range(j + 1, self.nh[i]):
                room += <int>((packed >> (6 * self.holder[i][x])) & 63)
            if r - room > lo:
                lo = r - room
            hi = cap if cap < r else r
            for k in range(lo, hi + 1):
                sub = self._g(i, j + 1, r - k, packed - ((<uint64_t>k) << sh))
                if sub:
                    if mul128(BINOM[r][k], sub, &term) or add128(total, term, &total):
                        self.overflow = True
                        return 0
        # the recursion may have grown the table: find the slot again
        if 2 * (self.used + 1) > <int64_t>(self.cap_mask + 1):
            if not self._grow():
                self.overflow = True   # out of memory: let Python count
                return 0
        slot = self._find(key)
        slot.key = key
        slot.value = total
        self.used += 1
        return total

    def count(self):
        """N(0, capacities) as a Python int, or None if 128 bits overflowed."""
        v = self.n(0, self.packed0)
        return None if self.overflow else v

    def n(self, int i, uint64_t packed):
        """N(i, caps) (a state the draw reaches: already counted)."""
        cdef u128 v = self._n(i, packed)
        return (int(hi64(v)) << 64) | int(lo64(v))

    def split(self, int i, uint64_t packed, target):
        """The composition of class ``i`` that ``target`` (below N(i, caps)) draws, and
        the capacities left (see ``solver.sampling.DealSampler._split``)."""
        cdef u128 t = make128(<uint64_t>(target >> 64), <uint64_t>(target & 0xFFFFFFFFFFFFFFFF))
        cdef u128 w
        cdef int r = self.size[i], j, h, sh, k, cap, found
        ks = []
        for j in range(self.nh[i] - 1):
            h = self.holder[i][j]
            sh = 6 * h
            cap = <int>((packed >> sh) & 63)
            found = 0
            for k in range((cap if cap < r else r) + 1):
                w = self._g(i, j + 1, r - k, packed - ((<uint64_t>k) << sh))
                if not w:
                    continue
                w = w * BINOM[r][k]   # no overflow: a part of N(i, caps)
                if t < w:
                    t = t // BINOM[r][k]
                    found = 1
                    break
                t -= w
            if not found:
                raise AssertionError("sampler weights inconsistent")
            ks.append(k)
            packed -= (<uint64_t>k) << sh
            r -= k
        ks.append(r)
        return tuple(ks), packed - ((<uint64_t>r) << (6 * self.holder[i][self.nh[i] - 1]))
