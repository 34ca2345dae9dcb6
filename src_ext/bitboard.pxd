# Bitboard primitives shared by every core module (cimport this file).
# A card set is one uint64_t (32- and 62-card decks) or two (78-card Tarot deck:
# word 0 = bits 0..63, word 1 = bits 64..77).
from libc.stdint cimport uint64_t

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_clzll(unsigned long long) nogil

cdef extern from *:
    """
    #include <stdint.h>
    /* Hardware popcnt where the build targets it (setup.py adds -mpopcnt on x86-64
       CPUs that have it); otherwise SWAR, as __builtin_popcountll without -mpopcnt is
       a library call (measured 4% of the Belote search's time in perf). */
    static inline int atout_popcount64(uint64_t x) {
    #if defined(__POPCNT__) || defined(__ARM_NEON)
        return __builtin_popcountll(x);
    #else
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    #endif
    }
    """
    int popcount64 "atout_popcount64"(uint64_t x) noexcept nogil

cdef extern from *:
    """
    /* a hint to load a cache line early (the transposition tables' probes) */
    static inline void atout_prefetch(const void* p) {
    #if defined(__GNUC__)
        __builtin_prefetch(p);
    #endif
    }
    """
    void prefetch "atout_prefetch"(const void* p) noexcept nogil

cdef inline int lowest_bit(uint64_t m) noexcept nogil:
    # Index of the lowest set bit; m must be non-zero.
    return __builtin_ctzll(m)

cdef inline int highest_bit(uint64_t m) noexcept nogil:
    # Index of the highest set bit; m must be non-zero.
    return 63 - __builtin_clzll(m)

cdef inline uint64_t clear_lowest(uint64_t m) noexcept nogil:
    return m & (m - 1)


# Seeded random numbers for the random playouts of the cores (splitmix64), and a
# uniformly chosen set bit of a non-zero mask.
cdef inline uint64_t splitmix(uint64_t* s) noexcept nogil:
    cdef uint64_t z
    s[0] += <uint64_t>0x9E3779B97F4A7C15
    z = s[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)

cdef inline int pick_bit(uint64_t m, uint64_t rnd) noexcept nogil:
    cdef int k = popcount64(m)
    cdef int i = <int>(((rnd >> 32) * <uint64_t>k) >> 32)
    while i > 0:
        m &= m - 1
        i -= 1
    return lowest_bit(m)
