"""Exact uniform sampling of the unknown cards among the deals consistent with what a
seat knows (docs/DESIGN.md "Determinization").

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

The sum over a class's compositions is taken one holder at a time, as a chain of
binomials: multinomial(n; k_1..k_m) = C(n, k_1) * multinomial(n - k_1; k_2..k_m), so

    G(i, j, r, caps) = sum over k <= caps[h_j]: C(r, k) * G(i, j + 1, r - k, caps - k e_j)

with N(i, caps) = G(i, 1, |class i|, caps). The partial sums are shared between the
compositions that agree on their first holders, and no holder is left more room than
the later classes (or the class's other holders) can fill: a Tarot 5-player count that
enumerated ~800,000 compositions now visits ~240,000 states, in half the time. The draw
walks the same chain and picks the same composition as a scan of all of them would.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from itertools import combinations
from math import comb

from .errors import AtoutError


class InconsistentConstraintsError(AtoutError, ValueError):
    """No deal satisfies the constraints (e.g. a card no holder may hold)."""


class DealSampler:
    """Uniform sampler over assignments of unknown cards to holders.

    ``allowed[card]`` is a bit mask of the holders (0..H-1) that may hold ``card``;
    ``capacities[h]`` is how many of the unknown cards holder ``h`` holds.
    """

    def __init__(self, allowed: dict[int, int], capacities: Sequence[int],
                 use_core: bool = True):
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
        # later[i][h]: cards of the classes after i that holder h may take; a holder
        # with more room than that must take the rest from class i (the last class
        # fills its holders exactly)
        self.later = [tuple(sum(len(classes[m]) for m in order[i + 1:] if m >> h & 1)
                            for h in range(self.num_holders)) for i in range(len(order))]
        # capacities packed W bits a holder (6, the C core's width, unless a holder
        # has more than 63 cards); the memo of N and G is one dict keyed by the packed
        # capacities and the step (class, holder)
        self._w = max(6, max(self.capacities, default=0).bit_length())
        self._cap_mask = (1 << self._w) - 1
        # step (class i, holder j) is number step0[i] + j of nsteps
        self._step0 = [sum(len(hs) for hs in self.class_holders[:i])
                       for i in range(len(order))]
        self._nsteps = sum(len(hs) for hs in self.class_holders)
        self._memo: dict[int, int] = {}
        self._packed0 = sum(c << (self._w * h) for h, c in enumerate(self.capacities))
        # the C counter (solver.sampling_core) when the counts fit its 128 bits; the
        # same recursion, draws and results as the Python below, which stays the
        # reference (and the fallback)
        self._core = None
        if use_core and self._w == 6:
            self._core = _core_counter(self)
        if self.count() == 0:
            raise InconsistentConstraintsError("no deal is consistent with the constraints")

    def _n(self, i: int, packed: int) -> int:
        """N(i, caps): the deals of the cards of classes i.. filling ``caps`` exactly."""
        if i == len(self.class_cards):
            return 1 if packed == 0 else 0
        later, mask = self.later[i], self.class_masks[i]
        for h in range(self.num_holders):
            if not mask >> h & 1 and (packed >> (self._w * h)) & self._cap_mask > later[h]:
                return 0  # more room than the classes left can fill
        return self._g(i, 0, len(self.class_cards[i]), packed)

    def _g(self, i: int, j: int, r: int, packed: int) -> int:
        """G(i, j, r, caps): the ways to give the r cards of class i not yet placed to
        its holders j.. (multinomial), times the completions by the later classes
        (memoized; r follows from caps, so it is not part of the key)."""
        key = packed * self._nsteps + self._step0[i] + j
        got = self._memo.get(key)
        if got is not None:
            return got
        holders = self.class_holders[i]
        h = holders[j]
        sh = self._w * h
        cap = (packed >> sh) & self._cap_mask
        lo = max(0, cap - self.later[i][h])
        if j == len(holders) - 1:  # the last holder takes the rest
            total = self._n(i + 1, packed - (r << sh)) if lo <= r <= cap else 0
        else:
            # the holders after j must be able to take what is left
            room = sum((packed >> (self._w * x)) & self._cap_mask for x in holders[j + 1:])
            total = 0
            for k in range(max(lo, r - room), min(r, cap) + 1):
                sub = self._g(i, j + 1, r - k, packed - (k << sh))
                if sub:
                    total += comb(r, k) * sub
        self._memo[key] = total
        return total

    def count(self) -> int:
        """Number of consistent deals."""
        if self._core is not None:
            return self._core.n(0, self._packed0)
        return self._n(0, self._packed0)

    def _split(self, i: int, packed: int, target: int) -> tuple[tuple[int, ...], int]:
        """The composition of class ``i`` drawn by ``target`` (uniform below N(i, caps)),
        and the caps left: the first composition, in lexicographic order, at which the
        running total of the compositions' weights (multinomial times completions)
        exceeds ``target``. Walked one holder at a time: the block of compositions
        sharing k_1 weighs C(n, k_1) times the chain below, and within it the draw is
        target // C(n, k_1)."""
        holders = self.class_holders[i]
        r = len(self.class_cards[i])
        ks = []
        for j, h in enumerate(holders[:-1]):
            sh = self._w * h
            for k in range(min(r, (packed >> sh) & self._cap_mask) + 1):
                w = self._g(i, j + 1, r - k, packed - (k << sh))
                if not w:
                    continue
                w *= comb(r, k)
                if target < w:
                    target //= comb(r, k)
                    break
                target -= w
            else:  # pragma: no cover - target < N(i, caps) always falls in a block
                raise AssertionError("sampler weights inconsistent")
            ks.append(k)
            packed -= k << sh
            r -= k
        ks.append(r)
        return tuple(ks), packed - (r << (self._w * holders[-1]))

    def sample(self, rng: random.Random) -> list[list[int]]:
        """One consistent deal, uniformly at random: the cards of each holder."""
        packed = self._packed0
        out: list[list[int]] = [[] for _ in range(self.num_holders)]
        core = self._core
        for i, cards in enumerate(self.class_cards):
            if core is not None:
                k, packed = core.split(i, packed, rng.randrange(core.n(i, packed)))
            else:
                k, packed = self._split(i, packed, rng.randrange(self._n(i, packed)))
            shuffled = list(cards)
            rng.shuffle(shuffled)
            pos = 0
            for h, kh in zip(self.class_holders[i], k, strict=True):
                out[h].extend(shuffled[pos:pos + kh])
                pos += kh
        return [sorted(h) for h in out]

    def samples(self, n: int, seed: int) -> list[list[list[int]]]:
        """``n`` deals from ``seed`` (deterministic)."""
        rng = random.Random(seed)
        return [self.sample(rng) for _ in range(n)]

    def deals(self) -> Iterator[list[list[int]]]:
        """Every consistent deal once (the cards of each holder, sorted), in a fixed
        order: class by class, each composition with completions, each split of the
        class's cards. ``count()`` of them; meant for the few-worlds case (late in a
        deal, ``solver.pimc`` ``exact``)."""
        out: list[list[int]] = [[] for _ in range(self.num_holders)]

        def walk(i: int, packed: int) -> Iterator[list[list[int]]]:
            if i == len(self.class_cards):
                yield [sorted(h) for h in out]
                return
            holders = self.class_holders[i]
            for ks in self._compositions(i, packed):
                left = packed - sum(k << (self._w * h) for h, k in zip(holders, ks,
                                                                       strict=True))
                core = self._core
                if not (core.n(i + 1, left) if core is not None else self._n(i + 1, left)):
                    continue  # no completion by the later classes
                for split in _splits(self.class_cards[i], ks):
                    for h, part in zip(holders, split, strict=True):
                        out[h].extend(part)
                    yield from walk(i + 1, left)
                    for h, part in zip(holders, split, strict=True):
                        del out[h][len(out[h]) - len(part):]

        yield from walk(0, self._packed0)

    def _compositions(self, i: int, packed: int) -> Iterator[tuple[int, ...]]:
        """The ways to share class ``i``'s cards among its holders within ``packed``."""
        holders = self.class_holders[i]
        caps = [(packed >> (self._w * h)) & self._cap_mask for h in holders]

        def rec(j: int, r: int) -> Iterator[tuple[int, ...]]:
            if j == len(holders) - 1:
                if r <= caps[j]:
                    yield (r,)
                return
            for k in range(min(r, caps[j]) + 1):
                for rest in rec(j + 1, r - k):
                    yield (k, *rest)

        yield from rec(0, len(self.class_cards[i]))


def _splits(cards: list[int], ks: Sequence[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every way to cut ``cards`` into parts of sizes ``ks`` (in order)."""
    if not ks:
        yield []
        return
    for part in combinations(cards, ks[0]):
        rest = [c for c in cards if c not in part]
        for more in _splits(rest, ks[1:]):
            yield [part, *more]


def _core_counter(sampler: DealSampler):
    """A counted ``solver.sampling_core.ChainCounter`` for ``sampler``'s constraints, or
    None where the core does not apply (too many holders, or counts beyond 128 bits)."""
    try:
        from .sampling_core import ChainCounter
    except ImportError:  # pragma: no cover - the extension is built with the package
        return None
    try:
        core = ChainCounter([len(c) for c in sampler.class_cards], sampler.class_masks,
                            sampler.class_holders, sampler.later, sampler.capacities)
    except ValueError:
        return None
    return core if core.count() is not None else None
