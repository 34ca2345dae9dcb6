"""Exactness of the uniform deal sampler (issue: determinized play, item 2)."""

import itertools
import math
import random
from collections import Counter

import pytest

from solver.sampling import DealSampler, InconsistentConstraintsError


def brute_force(allowed, caps):
    """Every consistent assignment, enumerated directly."""
    cards = sorted(allowed)
    out = []
    for holders in itertools.product(range(len(caps)), repeat=len(cards)):
        if any(not (allowed[c] >> h & 1) for c, h in zip(cards, holders, strict=True)):
            continue
        if any(holders.count(h) != caps[h] for h in range(len(caps))):
            continue
        out.append(tuple(tuple(sorted(c for c, h2 in zip(cards, holders, strict=True) if h2 == h))
                         for h in range(len(caps))))
    return out


def chi_square_p_value(stat: float, dof: int) -> float:
    """Upper tail of the chi-square distribution (Wilson-Hilferty approximation)."""
    z = ((stat / dof) ** (1 / 3) - (1 - 2 / (9 * dof))) / math.sqrt(2 / (9 * dof))
    return 0.5 * math.erfc(z / math.sqrt(2))


def frequency_p_value(draw, allowed, caps, n, seed):
    deals = brute_force(allowed, caps)
    rng = random.Random(seed)
    counts = Counter(tuple(tuple(h) for h in draw(rng)) for _ in range(n))
    assert set(counts) <= set(deals), "sampled an inconsistent deal"
    expected = n / len(deals)
    stat = sum((counts.get(d, 0) - expected) ** 2 / expected for d in deals)
    return len(deals), chi_square_p_value(stat, len(deals) - 1)


CASES = [
    # 7 cards, 3 holders (2 seats + a pile); card 0 is void-constrained, 1..2 limited
    ({0: 0b110, 1: 0b011, 2: 0b101, 3: 0b111, 4: 0b111, 5: 0b111, 6: 0b011}, (3, 2, 2)),
    # 8 cards, 4 holders, one void suit per seat
    ({0: 0b1110, 1: 0b1110, 2: 0b1101, 3: 0b1101, 4: 0b1011, 5: 0b0111, 6: 0b1111, 7: 0b1111},
     (2, 2, 2, 2)),
    # a forced card (only holder 2 may hold card 5)
    ({0: 0b011, 1: 0b111, 2: 0b111, 3: 0b110, 4: 0b111, 5: 0b100}, (2, 2, 2)),
]


@pytest.mark.parametrize("allowed,caps", CASES)
def test_count_equals_brute_force(allowed, caps):
    assert DealSampler(allowed, caps).count() == len(brute_force(allowed, caps))


@pytest.mark.parametrize("allowed,caps", CASES)
def test_frequencies_are_uniform(allowed, caps):
    sampler = DealSampler(allowed, caps)
    k, p = frequency_p_value(sampler.sample, allowed, caps, n=50 * len(brute_force(allowed, caps)),
                             seed=11)
    assert k > 5
    assert p > 1e-3, f"sampler frequencies are not uniform (p={p:.2g})"


def test_chi_square_check_detects_a_biased_sampler():
    # The check above can fail: a greedy card-by-card sampler is not uniform.
    allowed, caps = CASES[0]

    def greedy(rng):
        left = list(caps)
        out = [[] for _ in caps]
        for c in sorted(allowed):
            choices = [h for h in range(len(caps)) if allowed[c] >> h & 1 and left[h]]
            if not choices:
                return greedy(rng)  # dead end: start again (rejection)
            h = rng.choice(choices)
            left[h] -= 1
            out[h].append(c)
        return out

    _, p = frequency_p_value(greedy, allowed, caps, n=4000, seed=3)
    assert p < 1e-3


def test_same_seed_same_samples():
    allowed, caps = CASES[1]
    s = DealSampler(allowed, caps)
    assert s.samples(20, seed=5) == s.samples(20, seed=5)
    assert s.samples(20, seed=5) != s.samples(20, seed=6)


def test_full_tarot_deal_is_fast_and_consistent():
    # 60 unknown cards, 3 opponents with 18 and a dog of 6; two known voids.
    allowed = {c: 0b1111 for c in range(60)}
    for c in range(0, 14):
        allowed[c] = 0b1110  # holder 0 void in this suit
    for c in range(14, 28):
        allowed[c] = 0b1101
    s = DealSampler(allowed, (18, 18, 18, 6))
    assert s.count() > 0
    rng = random.Random(1)
    for _ in range(20):
        hands = s.sample(rng)
        assert [len(h) for h in hands] == [18, 18, 18, 6]
        assert not set(hands[0]) & set(range(14))
        assert not set(hands[1]) & set(range(14, 28))
        assert sorted(c for h in hands for c in h) == list(range(60))


@pytest.mark.parametrize("allowed,caps", [
    ({0: 0b01, 1: 0b01}, (1, 1)),  # both cards must go to holder 0 which takes one
    ({0: 0b00, 1: 0b11}, (1, 1)),  # a card nobody may hold
    ({0: 0b11}, (1, 1)),           # wrong card count
])
def test_inconsistent_constraints_raise(allowed, caps):
    with pytest.raises(InconsistentConstraintsError):
        DealSampler(allowed, caps)
