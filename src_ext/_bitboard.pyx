# cython: language_level=3
"""Bitboard primitives exposed to the Python layer.

Card sets are Python ints used as bit masks (bit i = card index i of a deck).
The 78-card Tarot deck needs two 64-bit words; these helpers split any mask below
2**128 into two words and work on them with hardware popcount / count-trailing-zeros.
"""
from libc.stdint cimport uint64_t
from bitboard cimport popcount64, lowest_bit, clear_lowest

cdef uint64_t WORD = 0xFFFFFFFFFFFFFFFF
MAX_BITS = 128


cdef inline void split(object mask, uint64_t* lo, uint64_t* hi) except *:
    if mask < 0 or mask >> 128:
        raise ValueError(f"card mask out of range: {mask!r}")
    lo[0] = <uint64_t>(mask & 0xFFFFFFFFFFFFFFFF)
    hi[0] = <uint64_t>(mask >> 64)


def popcount(mask):
    """Number of cards in a card-set mask."""
    cdef uint64_t lo, hi
    split(mask, &lo, &hi)
    return popcount64(lo) + popcount64(hi)


def bit_list(mask):
    """Indices of the set bits of a mask, lowest first."""
    cdef uint64_t lo, hi
    cdef list out = []
    split(mask, &lo, &hi)
    while lo:
        out.append(lowest_bit(lo))
        lo = clear_lowest(lo)
    while hi:
        out.append(64 + lowest_bit(hi))
        hi = clear_lowest(hi)
    return out


def lowest(mask):
    """Index of the lowest set bit, or -1 for the empty set."""
    cdef uint64_t lo, hi
    split(mask, &lo, &hi)
    if lo:
        return lowest_bit(lo)
    if hi:
        return 64 + lowest_bit(hi)
    return -1


def mask_of(indices):
    """Mask with the given bit indices set (each in 0..127)."""
    cdef uint64_t lo = 0, hi = 0
    cdef int i
    for i in indices:
        if i < 0 or i >= 128:
            raise ValueError(f"card index out of range: {i}")
        if i < 64:
            lo |= (<uint64_t>1) << i
        else:
            hi |= (<uint64_t>1) << (i - 64)
    return (<object>hi << 64) | <object>lo
