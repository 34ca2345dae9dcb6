"""The exact value from zero-window probes, for the exact analysis (issue 23: Tarot's
(b) and (c)): bisection on the fail-soft bounds the probes prove, narrowing around the
probes that run past an allowance.

A probe at a threshold x asks "value >= x?"; its fail-soft answer r proves value >= r
when r >= x, value <= r when r < x. Near the value a probe is a tight proof and can
cost thousands of times one far from it, so waiting on the middle of a wide interval
can leave the interval wide when the limits run out. Narrowing gives each probe but
the first an allowance of nodes; one that runs past it is left for later and the next
thresholds are taken between it and the proven bounds, where the proofs are cheap.
Measured on 4p Tarot first leads at 1e8 nodes (benchmarks/RESULTS.md, twenty-seventh
session): the proven width summed over the 14 deals whose bisection ran x0.69, the
exact finishes and the mid-deal exact values' nodes level. Not used for Tarocchini's
margin: driven from here (four MTD(f) steps, then narrowing) it cost x0.92-1.00 in
nodes to the exact margin at 10-11 tricks left, one Terziglio finish fewer in 12, and
the widths where it stopped went either way (Ottocento narrower, gioco wider), so
Tarocchini keeps the core's ``solve``.
"""

from __future__ import annotations

from collections.abc import Callable

# the first allowance of a probe in nodes, and its growth once every threshold left
# between the proven bounds has run past it
NARROW_START = 1 << 20
NARROW_GROWTH = 4

PAST_ALLOWANCE = "past allowance"   # a probe's answer: stopped by its allowance only


def next_threshold(lo: int, hi: int, hard: list[int]) -> int | None:
    """The next probe's threshold x in (lo, hi]: the middle of the interval (the upper
    one of two), or, once some thresholds ran past their allowance (``hard``), the
    middle of the wider of the two gaps they leave next to the proven bounds, (lo,
    min(hard)) and (max(hard), hi] (the lower on a tie); None when no threshold is left
    outside them."""
    if not hard:
        return lo + (hi - lo + 1) // 2
    below = min(hard) - lo - 1        # thresholds lo+1 .. min(hard)-1
    above = hi - max(hard)            # thresholds max(hard)+1 .. hi
    if below <= 0 and above <= 0:
        return None
    if below >= above:
        return (lo + min(hard) + 1) // 2
    return max(hard) + 1 + above // 2


def value_by_probes(probe: Callable[[int, int | None], int | str | None],
                    spent: Callable[[], int], lo: int, hi: int,
                    first: int | None = None,
                    narrow: bool = True) -> tuple[int | None, int, int]:
    """The exact value inside the proven interval [lo, hi] by zero-window probes.

    ``probe(x, allowance)``: the fail-soft answer at threshold x within ``allowance``
    nodes (None: no allowance), PAST_ALLOWANCE when it ran past the allowance with the
    limits not used up, None when a limit (node budget, deadline) stopped it.
    ``spent()``: the nodes spent so far. ``first``: the first threshold (a floor's
    value + 1, a card's expected value: the probe most likely to end the search); it
    runs without an allowance. ``narrow`` off: every probe without one (plain
    bisection). Returns (the value, or None if a limit stopped it; lo, hi: the
    interval proven)."""
    allowance = NARROW_START if narrow else None
    hard: list[int] = []     # thresholds whose probe ran past the allowance
    while lo < hi:
        hard = [h for h in hard if lo < h <= hi]
        x = next_threshold(lo, hi, hard)
        if x is None:
            # every threshold left ran past the allowance: ask them again with more
            # (at least what was spent so far, so the stopped probes cost a bounded
            # share of the whole), the one just above the lower bound first
            assert allowance is not None
            allowance = max(allowance * NARROW_GROWTH, spent())
            hard = []
            x = lo + 1
        given = first is not None
        if given:
            x, first = min(max(first, lo + 1), hi), None
        r = probe(x, None if given else allowance)
        if r is None:
            return None, lo, hi
        if r == PAST_ALLOWANCE:
            hard.append(x)          # later, with more
            continue
        assert isinstance(r, int)
        if r >= x:
            lo = min(r, hi)
        else:
            hi = max(r, lo)
    return lo, lo, hi
