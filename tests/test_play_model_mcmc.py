"""Worlds drawn by the play (solver/play_mcmc.py, ``pimc:infer=EPS,mcmc=STEPS``): a
Metropolis chain over the worlds consistent with the hard facts, whose stationary law
is the play model's likelihood. Positions: BELOTE-PLAY-3 / COINCHE-PLAY-3/4 (follow
suit) and TAROT-PLAY-4; the likelihood is the heuristic player's (solver/play_model.py).
"""

import math
import random
from collections import Counter

import pytest

from solver import constraints
from solver.cards import DECKS, bit_list
from solver.constraints import Hidden
from solver.errors import OptionError
from solver.games import coinche, get_game
from solver.heuristic import HeuristicAgent
from solver.pimc import PimcAgent
from solver.play_mcmc import PlayChain, chain_worlds, world_key
from solver.play_model import play_model

DECK = DECKS["coinche"]


def mask(text: str) -> int:
    return sum(1 << DECK.card(t) for t in text.split())


def positions(game: str, options: dict, seeds, every: int):
    """Positions of heuristic-played deals (every ``every``-th card of the play), with
    the seat to act."""
    module = get_game(game)
    n = options.get("players", 4)
    for seed in seeds:
        st = module.new_state(options=options, seed=seed, dealer=seed % n) if options \
            else module.new_state(seed=seed, dealer=seed % n)
        agents = [HeuristicAgent(s) for s in range(n)]
        k = 0
        while not st.is_over():
            s = st.to_act
            if st.phase == "play":
                k += 1
                if k % every == 0:
                    yield st.copy(), s
            st.play(agents[s].choose(st, s))


@pytest.mark.parametrize("game,options,every", [
    ("coinche", {}, 5), ("belote", {}, 5), ("tarot", {"players": 4}, 13),
    ("tarot", {"players": 3}, 17), ("tarot", {"players": 5}, 11)])
def test_the_chain_never_leaves_the_hard_constraints(game, options, every):
    """Every state the chain visits keeps each unknown card with a holder allowed to
    hold it, each holder's count, the fixed cards in place and (Belote) the announces
    heard; and it moves (it is not stuck at its start)."""
    checked = moved = 0
    for st, seat in positions(game, options, range(8), every):
        if checked == 6:
            break
        model = play_model(st, seat, 0.2)
        if not model.plays:
            continue
        hidden = constraints.hidden(st, seat)
        chain = PlayChain(hidden, model)
        start = constraints.holdings_sampler(st, seat)(random.Random(checked))
        where = chain.state_of(start)
        first = dict(where)
        _, kept = chain.run(where, 150, random.Random(7), keep_every=1)
        assert len(kept) == 150
        for w in kept:
            assert chain.consistent(w)
        worlds = [chain.holdings(w) for w in kept[::25]]
        for h in worlds:
            for c, holder in hidden.fixed.items():
                assert c in h[holder]
            assert sorted(c for cards in h for c in cards) == sorted(
                c for cards in start for c in cards)
        moved += kept[-1] != first
        checked += 1
    assert checked >= 4 and moved >= checked // 2


def small_position():
    """Coinche, hearts trump, three cards a hand: seat 0 leads the AS, seat 1 (an
    opponent, who cannot beat it) follows with the KS. Seat 2 observes: 7 cards it
    cannot see, 210 ways to share them before the voids. The heuristic gives its
    lowest spade away, so the KS is unlikely where seat 1 held the 7S or 8S."""
    hands = ["AS 9H JD", "KS 7S 8D", "QD TD 9C", "8S TS 7D"]
    st = coinche.CoincheState.from_play([mask(h) for h in hands], 1, 0, leader=0,
                                        tricks_won=(5, 0))
    st.play("AS")
    st.play("KS")
    return st


def marginals(worlds, weights, cards, holders):
    """P(card at holder) over weighted worlds (holdings)."""
    total = sum(weights)
    out = dict.fromkeys(((c, h) for c in cards for h in holders), 0.0)
    for world, w in zip(worlds, weights, strict=True):
        for h in holders:
            for c in world[h]:
                if c in cards:
                    out[c, h] += w / total
    return out


@pytest.mark.parametrize("eps,power,far", [(0.05, 1.0, 0.15), (0.3, 0.5, 0.05)])
def test_the_chain_samples_the_likelihood_proportional_law(eps, power, far):
    """On a position whose worlds are enumerated, the chain's long-run frequencies
    (each card's holder, and seat 1's hand) match the exact law, every world weighted
    by its likelihood raised to ``power``; the uniform law is far from it, so the check
    would catch a chain that ignored the likelihood."""
    st = small_position()
    seat = 2
    model = play_model(st, seat, eps)
    every = constraints.all_holdings(st, seat, 10_000)
    exact = [math.exp(power * model.log_weight(h)) for h in every]
    hidden = constraints.hidden(st, seat)
    cards = sorted(hidden.allowed)
    holders = [0, 1, 3]
    want = marginals(every, exact, cards, holders)
    uniform = marginals(every, [1.0] * len(every), cards, holders)
    assert max(abs(want[k] - uniform[k]) for k in want) > far

    chain = PlayChain(hidden, model, power)
    start = constraints.holdings_sampler(st, seat)(random.Random(1))
    where = chain.state_of(start)
    _, kept = chain.run(where, 60_000, random.Random(2), keep_every=3)
    worlds = [chain.holdings(w) for w in kept[1000:]]
    got = marginals(worlds, [1.0] * len(worlds), cards, holders)
    assert max(abs(got[k] - want[k]) for k in want) < 0.02
    # the law of seat 1's hand: total variation distance
    exact_hand = Counter()
    for h, w in zip(every, exact, strict=True):
        exact_hand[tuple(sorted(h[1]))] += w / sum(exact)
    seen = Counter(tuple(sorted(h[1])) for h in worlds)
    tv = 0.5 * sum(abs(seen[k] / len(worlds) - exact_hand[k])
                   for k in set(seen) | set(exact_hand))
    assert tv < 0.03
    assert chain.accepted < chain.valid <= chain.proposed


class _NoPlays:
    plays: list = []


def test_rotations_join_worlds_that_swaps_cannot():
    """Three cards, three holders, each card allowed to two of them in a cycle: the two
    worlds differ by a rotation of all three and no swap keeps the constraints; the
    chain visits both, equally often (no past cards: the uniform law)."""
    hidden = Hidden(["a", "b", "c"], {}, {0: 0b011, 1: 0b110, 2: 0b101}, [1, 1, 1])
    chain = PlayChain(hidden, _NoPlays())
    _, kept = chain.run({0: 0, 1: 1, 2: 2}, 4000, random.Random(3), keep_every=1)
    seen = Counter(tuple(sorted(w.items())) for w in kept)
    assert set(seen) == {((0, 0), (1, 1), (2, 2)), ((0, 1), (1, 2), (2, 0))}
    assert abs(seen[(0, 0), (1, 1), (2, 2)] / 4000 - 0.5) < 0.1


def test_chain_worlds_are_seeded_and_spread_over_the_chains():
    st = small_position()
    model = play_model(st, 2, 0.1)
    hidden = constraints.hidden(st, 2)
    draw = constraints.holdings_sampler(st, 2)
    starts = [draw(random.Random(k)) for k in range(3)]
    a, stats = chain_worlds(hidden, model, starts, 40, 10, random.Random(5))
    b, _ = chain_worlds(hidden, model, starts, 40, 10, random.Random(5))
    assert a == b and len(a) == 10
    assert stats["chains"] == 3 and 0 < stats["accepted"] <= stats["valid"] <= 1
    c, _ = chain_worlds(hidden, model, starts, 40, 10, random.Random(6))
    assert c != a


def test_pimc_mcmc_is_seeded_and_weighs_the_worlds_it_keeps():
    """Tarot, mid-deal: the same seed gives the same worlds and card; the worlds'
    weights count the times each distinct world was kept (``worlds`` in all)."""
    st, seat = next((st, s) for st, s in positions("tarot", {"players": 4}, [3], 7)
                    if len(st.tricks) >= 4 and len(st.legal_moves()) > 2)
    runs = []
    for _ in range(2):
        agent = PimcAgent(seed=4, worlds=12, infer=0.05, pool=1, mcmc=60, chains=3)
        pool, _ = agent.draw_worlds(st, seat, 9)
        worlds, weights, info = agent._play_weights(st, seat, pool)
        runs.append([world_key(h) for h in worlds])
        assert sum(weights) == 12 and len(worlds) == info["distinct"]
        assert info["steps"] == 60 and info["chains"] == 3 and info["pool"] == 12
        hidden = constraints.hidden(st, seat)
        chain = PlayChain(hidden, play_model(st, seat, 0.05))
        assert all(chain.consistent(chain.state_of(h)) for h in worlds)
    assert runs[0] == runs[1]
    a = PimcAgent(seed=4, worlds=12, infer=0.05, pool=1, mcmc=60, chains=3)
    b = PimcAgent(seed=4, worlds=12, infer=0.05, pool=1, mcmc=60, chains=3)
    assert a.choose(st, seat) == b.choose(st, seat)
    assert a.last_stats["inferred"] == b.last_stats["inferred"]
    # the true hands are among the worlds the chain may reach: their weight is finite
    true = [bit_list(x) for x in st.hands]
    assert play_model(st, seat, 0.05).log_weight(true) > -1e9


def test_mcmc_options_are_checked():
    from solver.agents import make_agent

    for bad in (-1, 1.5, "x", True):
        with pytest.raises(OptionError):
            PimcAgent(infer=0.1, mcmc=bad)
    for bad in (0, -2, 2.5, True):
        with pytest.raises(OptionError):
            PimcAgent(infer=0.1, mcmc=10, chains=bad)
    with pytest.raises(OptionError, match="infer"):
        PimcAgent(mcmc=10)  # no likelihood to follow
    with pytest.raises(OptionError, match="auction"):
        PimcAgent(infer=0.1, mcmc=10, auction=True)
    assert make_agent("pimc:infer=0.1,mcmc=10", game="tarocchini").mcmc == 10
    with pytest.raises(OptionError):
        make_agent("pimc:infer=0.1,mcmc=ten", game="tarot")
    agent = make_agent("pimc:worlds=20,infer=0.1,mcmc=50,chains=4", game="coinche")
    assert agent.mcmc == 50 and agent.chains == 4
    assert PimcAgent(infer=0.1).mcmc == 0
