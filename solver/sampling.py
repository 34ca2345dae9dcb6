"""Exact uniform sampling of the unknown cards among the deals consistent with what a
seat knows (DESIGN "Determinization").

The constraints are, for every unknown card, the set of holders that may hold it
(seats and extra piles such as the dog), and for every holder the number of unknown
cards it holds. Cards with the same allowed set form a *class*; a deal is fixed by how
many cards of each class each holder gets (a composition) plus which ones. The number
of deals for a sequence of compositions is a product of multinomials, so

    N(i, caps) = sum over compositions k of class i within caps:
                 multinomial(|class i|; k) * N(i + 1, caps - k)

counts the completions exactly (memoized), and drawing the composition of each class
with probability proportional to its completions, then splitting the class's cards at
random, gives every consistent deal the same probability. No rejection, so it never
stalls; inconsistent constraints are reported at once.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence
from functools import lru_cache
from math import factorial

from .errors import AtoutError


class InconsistentConstraintsError(AtoutError, ValueError):
    """No deal satisfies the constraints (e.g. a card no holder may hold)."""


def _compositions(n: int, caps: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """All ways to write n as k_0 + ... + k_{m-1} with 0 <= k_j <= caps[j]."""
    return _compositions_of(n, tuple(caps))


@lru_cache(maxsize=1 << 16)
def _compositions_of(n: int, caps: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    if not caps:
        return ((),) if n == 0 else ()
    rest = sum(caps[1:])
    return tuple((k, *tail) for k in range(max(0, n - rest), min(n, caps[0]) + 1)
                 for tail in _compositions_of(n - k, caps[1:]))


class DealSampler:
    """Uniform sampler over assignments of unknown cards to holders.

    ``allowed[card]`` is a bit mask of the holders (0..H-1) that may hold ``card``;
    ``capacities[h]`` is how many of the unknown cards holder ``h`` holds.
    """

    def __init__(self, allowed: dict[int, int], capacities: Sequence[int]):
        self.capacities = tuple(int(c) for c in capacities)
        self.num_holders = len(self.capacities)
        if any(c < 0 for c in self.capacities):
            raise InconsistentConstraintsError(f"negative hand size in {self.capacities}")
        full = (1 << self.num_holders) - 1
        classes: dict[int, list[int]] = {}
        for card in sorted(allowed):
            mask = allowed[card] & full
            if mask == 0:
                raise InconsistentConstraintsError(f"card {card} can be held by no one")
            classes.setdefault(mask, []).append(card)
        if sum(len(v) for v in classes.values()) != sum(self.capacities):
            raise InconsistentConstraintsError(
                f"{len(allowed)} unknown cards for {sum(self.capacities)} places")
        # Most constrained classes first: fewer branches near the root.
        order = sorted(classes, key=lambda m: (bin(m).count("1"), m))
        self.class_masks = order
        self.class_cards = [classes[m] for m in order]
        self.class_holders = [[h for h in range(self.num_holders) if m >> h & 1] for m in order]
        self._count = lru_cache(maxsize=None)(self._count_uncached)
        self._choices = lru_cache(maxsize=None)(self._choices_uncached)
        if self.count() == 0:
            raise InconsistentConstraintsError("no deal is consistent with the constraints")

    def _count_uncached(self, i: int, caps: tuple[int, ...]) -> int:
        if i == len(self.class_cards):
            return 1 if not any(caps) else 0
        # Cards of the remaining classes must exactly fill the remaining capacities.
        holders = self.class_holders[i]
        n = len(self.class_cards[i])
        total = 0
        fact_n = factorial(n)
        for k in _compositions(n, [caps[h] for h in holders]):
            new = list(caps)
            weight = fact_n
            for h, kh in zip(holders, k, strict=True):
                new[h] -= kh
                weight //= factorial(kh)
            sub = self._count(i + 1, tuple(new))
            if sub:
                total += weight * sub
        return total

    def count(self) -> int:
        """Number of consistent deals."""
        return self._count(0, self.capacities)

    def _choices_uncached(self, i: int, caps: tuple[int, ...]):
        """The compositions of class ``i`` within ``caps`` that have completions, with
        the running total of their completion counts (for a draw by bisection)."""
        holders = self.class_holders[i]
        n = len(self.class_cards[i])
        totals: list[int] = []
        picks: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        total = 0
        for k in _compositions(n, [caps[h] for h in holders]):
            new = list(caps)
            weight = factorial(n)
            for h, kh in zip(holders, k, strict=True):
                new[h] -= kh
                weight //= factorial(kh)
            w = weight * self._count(i + 1, tuple(new))
            if w:
                total += w
                totals.append(total)
                picks.append((k, tuple(new)))
        return totals, picks

    def sample(self, rng: random.Random) -> list[list[int]]:
        """One consistent deal, uniformly at random: the cards of each holder."""
        caps = self.capacities
        out: list[list[int]] = [[] for _ in range(self.num_holders)]
        for i, cards in enumerate(self.class_cards):
            holders = self.class_holders[i]
            totals, picks = self._choices(i, caps)
            # the composition whose running total first exceeds a uniform draw
            target = rng.randrange(totals[-1])
            k, caps = picks[bisect_right(totals, target)]
            shuffled = list(cards)
            rng.shuffle(shuffled)
            pos = 0
            for h, kh in zip(holders, k, strict=True):
                out[h].extend(shuffled[pos:pos + kh])
                pos += kh
        return [sorted(h) for h in out]

    def samples(self, n: int, seed: int) -> list[list[list[int]]]:
        """``n`` deals from ``seed`` (deterministic)."""
        rng = random.Random(seed)
        return [self.sample(rng) for _ in range(n)]
