# Bitboard primitives shared by every core module (cimport this file).
# A card set is one uint64_t (32- and 62-card decks) or two (78-card Tarot deck:
# word 0 = bits 0..63, word 1 = bits 64..77).
from libc.stdint cimport uint64_t

cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_clzll(unsigned long long) nogil

cdef inline int popcount64(uint64_t m) noexcept nogil:
    return __builtin_popcountll(m)

cdef inline int lowest_bit(uint64_t m) noexcept nogil:
    # Index of the lowest set bit; m must be non-zero.
    return __builtin_ctzll(m)

cdef inline int highest_bit(uint64_t m) noexcept nogil:
    # Index of the highest set bit; m must be non-zero.
    return 63 - __builtin_clzll(m)

cdef inline uint64_t clear_lowest(uint64_t m) noexcept nogil:
    return m & (m - 1)
