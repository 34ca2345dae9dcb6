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


# use_core: the C counter (solver.sampling_core) or the pure-Python reference
@pytest.mark.parametrize("use_core", [True, False])
@pytest.mark.parametrize("allowed,caps", CASES)
def test_count_equals_brute_force(allowed, caps, use_core):
    s = DealSampler(allowed, caps, use_core=use_core)
    assert (s._core is not None) == use_core
    assert s.count() == len(brute_force(allowed, caps))


@pytest.mark.parametrize("use_core", [True, False])
@pytest.mark.parametrize("allowed,caps", CASES)
def test_frequencies_are_uniform(allowed, caps, use_core):
    sampler = DealSampler(allowed, caps, use_core=use_core)
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


def _random_constraints(rng, holders, cards):
    """Random holder masks (suits of cards with voids, as play reveals them) and
    capacities that some deal satisfies."""
    deal = [rng.randrange(holders) for _ in range(cards)]
    caps = tuple(deal.count(h) for h in range(holders))
    allowed = {}
    suit_voids = {}
    for c in range(cards):
        suit = c % 5
        if suit not in suit_voids:
            suit_voids[suit] = {h for h in range(holders) if rng.random() < 0.25}
        mask = sum(1 << h for h in range(holders) if h not in suit_voids[suit])
        allowed[c] = mask | 1 << deal[c]  # the true holder stays allowed
    return allowed, caps


def test_core_counter_agrees_with_the_python_reference():
    # the C counter and the Python recursion: the same counts and, seed for seed, the
    # same draws, on random constraints of 2..7 holders and up to 36 cards, and of
    # 3..4 holders and 40..60 cards
    rng = random.Random(5)
    big = 0
    sizes = [(rng.randint(2, 7), rng.randint(1, 36)) for _ in range(100)]
    sizes += [(rng.randint(3, 4), rng.randint(40, 60)) for _ in range(12)]
    for holders, cards in sizes:
        allowed, caps = _random_constraints(rng, holders, cards)
        if holders == 7 and cards > 28:
            continue        # the Python recursion takes seconds there (two cases)
        c = DealSampler(allowed, caps)
        py = DealSampler(allowed, caps, use_core=False)
        assert c._core is not None and py._core is None
        assert c.count() == py.count()
        assert c.samples(5, seed=3) == py.samples(5, seed=3)
        big += c.count() > 2 ** 64
    assert big >= 8  # counts beyond 64 bits were compared


def _count_card_by_card(allowed, caps):
    """An independent count: each card in turn goes to an allowed holder with room."""
    from functools import cache

    cards = sorted(allowed)

    @cache
    def n(i, room):
        if i == len(cards):
            return int(not any(room))
        return sum(n(i + 1, room[:h] + (room[h] - 1,) + room[h + 1:])
                   for h in range(len(room)) if allowed[cards[i]] >> h & 1 and room[h])

    return n(0, tuple(caps))


def test_many_classes_counted_right():
    # a holder mask per card: up to ~100 classes, hundreds of (class, holder) steps in
    # the memo keys; the core, the Python recursion and a card-by-card count agree
    rng = random.Random(8)
    for _ in range(12):
        holders = rng.randint(5, 7)
        cards = rng.randint(14, 20)
        deal = [rng.randrange(holders) for _ in range(cards)]
        allowed = {c: rng.randrange(1, 1 << holders) | 1 << deal[c] for c in range(cards)}
        caps = tuple(deal.count(h) for h in range(holders))
        c, py = DealSampler(allowed, caps), DealSampler(allowed, caps, use_core=False)
        assert c.count() == py.count() == _count_card_by_card(allowed, caps)
        assert c.samples(3, seed=1) == py.samples(3, seed=1)


def test_counts_beyond_128_bits_fall_back_to_python():
    # 100 free cards among 4 holders of 25: 100! / 25!^4 ~ 1.6e57 > 2**128; 8 holders
    # do not fit the core's keys: both are counted by the Python reference (the first
    # once read past the core's binomial table and crashed the interpreter)
    s = DealSampler({c: 0b1111 for c in range(100)}, (25, 25, 25, 25))
    assert s._core is None
    assert s.count() == math.factorial(100) // math.factorial(25) ** 4
    hands = s.sample(random.Random(1))
    assert sorted(len(h) for h in hands) == [25] * 4
    s = DealSampler({c: 0xFF for c in range(16)}, (2,) * 8)
    assert s._core is None
    assert s.count() == math.factorial(16) // 2 ** 8
    # classes larger than any holder: 100 cards for 2 x 50 (the core's binomials go to
    # 127 cards a class), 130 cards for 3 holders (past that: Python)
    s = DealSampler({c: 0b11 for c in range(100)}, (50, 50))
    assert s._core is not None and s.count() == math.comb(100, 50)
    s = DealSampler({c: 0b111 for c in range(130)}, (44, 43, 43))
    assert s._core is None
    assert s.count() == math.factorial(130) // (math.factorial(44) * math.factorial(43) ** 2)
    # a holder of more than 63 cards (wider packing, Python only)
    s = DealSampler({c: 0b11 for c in range(70)}, (68, 2))
    assert s._core is None and s.count() == math.comb(70, 2)
    assert [len(h) for h in s.sample(random.Random(2))] == [68, 2]
