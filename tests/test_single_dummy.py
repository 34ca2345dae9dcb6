"""Single-dummy exact (pimc ``exact=N``): every world consistent with what the seat
knows, enumerated (``DealSampler.deals``, ``constraints.all_holdings``), equals brute
force on tiny positions (BELOTE-PLAY-3/4 and COINCHE-PLAY-3/4 give the voids)."""

import itertools
import random

import pytest

from solver import dd
from solver.cards import DECKS, bit_list, mask_of
from solver.constraints import all_holdings
from solver.errors import IllegalMoveError
from solver.games import coinche
from solver.pimc import PimcAgent, seat_sign
from solver.sampling import DealSampler

DECK = DECKS["coinche"]


def test_deals_are_every_assignment_once():
    rng = random.Random(0)
    for _ in range(30):
        holders = rng.randint(2, 4)
        cards = list(range(rng.randint(1, 7)))
        allowed = {c: rng.randint(1, (1 << holders) - 1) for c in cards}
        caps = [0] * holders
        for c in cards:  # capacities some assignment fills
            caps[rng.choice([h for h in range(holders) if allowed[c] >> h & 1])] += 1
        brute = set()
        for owners in itertools.product(range(holders), repeat=len(cards)):
            if all(allowed[c] >> h & 1 for c, h in zip(cards, owners, strict=True)) \
                    and [owners.count(h) for h in range(holders)] == caps:
                brute.add(tuple(tuple(c for c, h in zip(cards, owners, strict=True)
                                      if h == x) for x in range(holders)))
        for use_core in (True, False):
            s = DealSampler(allowed, caps, use_core=use_core)
            got = [tuple(tuple(h) for h in d) for d in s.deals()]
            assert len(got) == len(set(got)) == s.count()
            assert set(got) == brute


def tiny_position(seed):
    """A random Coinche position with 3 cards a hand and 1..3 cards of the trick
    played at random (legal), seat to act next."""
    rng = random.Random(seed)
    cards = rng.sample(range(32), 12)
    hands = [mask_of(cards[3 * s:3 * s + 3]) for s in range(4)]
    st = coinche.CoincheState.from_play(hands, rng.randrange(6), rng.randrange(4),
                                        leader=rng.randrange(4), tricks_won=(3, 2))
    # a full trick then part of the next one: 2 cards a hand left for some seats
    for _ in range(4 + rng.randint(1, 3)):
        st.play(rng.choice(st.legal_moves()))
    return st


def brute_worlds(st, seat):
    """Every way to give the cards ``seat`` cannot see to the others, kept when the
    moves made are legal with those hands (replayed from the start position)."""
    first = st.copy()
    moves = []
    while first.history:
        moves.append(first.undo())
    moves.reverse()
    start = first.hands
    others = [s for s in range(4) if s != seat]
    unseen = [c for s in others for c in bit_list(start[s])]
    out = set()
    for owners in itertools.product(others, repeat=len(unseen)):
        hands = list(start)
        for s in others:
            hands[s] = mask_of(c for c, o in zip(unseen, owners, strict=True) if o == s)
        if [h.bit_count() for h in hands] != [h.bit_count() for h in start]:
            continue
        w = coinche.CoincheState.from_play(hands, st.strain, st.taker, leader=first.leader,
                                           tricks_won=(3, 2))
        try:
            for m in moves:
                w.play(m)
        except IllegalMoveError:
            continue
        out.add(tuple(w.hands))
    return out


@pytest.mark.parametrize("seed", range(8))
def test_all_holdings_equals_brute_force(seed):
    st = tiny_position(seed)
    seat = st.to_act
    every = all_holdings(st, seat, 10_000)
    got = [tuple(mask_of(h) for h in w[:4]) for w in every]
    assert len(got) == len(set(got))
    assert set(got) == brute_worlds(st, seat)
    assert all_holdings(st, seat, len(got) - 1) is None if len(got) > 1 else True


@pytest.mark.parametrize("seed", range(4))
def test_exact_pimc_is_the_mean_over_every_world(seed):
    st = tiny_position(seed)
    seat = st.to_act
    cards = [m for m in st.legal_moves() if m.kind == "card"]
    if len(cards) < 2:
        pytest.skip("one legal card")
    worlds = brute_worlds(st, seat)
    sums = dict.fromkeys(cards, 0.0)
    for hands in worlds:
        w = st.copy()
        w.hands = list(hands)
        values = dd.solve_cards(w)
        for m in cards:
            sums[m] += seat_sign(w, seat) * values[m].value
    want = {m: sums[m] / len(worlds) for m in cards}
    agent = PimcAgent(seed=1, worlds=5, exact=1000, objective="points")
    got = agent.card_values(st, seat, cards)
    assert agent.last_stats["exact"] == len(worlds)
    assert got == pytest.approx(want)
    # more worlds than ``exact``: sampled as before
    agent = PimcAgent(seed=1, worlds=5, exact=len(worlds) - 1, objective="points")
    agent.card_values(st, seat, cards)
    assert "exact" not in agent.last_stats
