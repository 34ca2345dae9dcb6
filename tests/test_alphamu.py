"""αμ over the last tricks (``solver.alphamu``, pimc ``alphamu=M``; issue 28 item 2):
equal to a brute force over the observer's pure strategies on tiny positions, PIMC at
depth 1, lower than PIMC where strategy fusion fools it, seeded, and refusing bad
options clearly (docs/ENGINE.md, "αμ over the last tricks")."""

import random

import pytest

from solver.agents import make_agent
from solver.alphamu import AlphaMu, pareto
from solver.cards import BELOTE_DECK, bit_list, mask_of
from solver.constraints import all_holdings
from solver.core.belote import BeloteCore, position_of_state, rules_of_state
from solver.dd.belote import attack_net_score
from solver.errors import OptionError
from solver.games import coinche
from solver.pimc import PimcAgent

tok = BELOTE_DECK.token


def masks(*hands):
    return [mask_of(BELOTE_DECK.card(t) for t in h.split()) for h in hands]


class NeedMove(Exception):
    """The strategy has no card yet for this history of the observer."""


def brute_force(st, seat, worlds):
    """Every pure strategy of ``seat`` (a card for each history of the cards played
    since ``st``, the only thing the seat sees change), each evaluated by the mean over
    ``worlds`` of the world's minimax with the seat's cards fixed (the partner
    maximises, the opponents minimise the seat's side's deal score, seeing all), played
    to the end of the deal on the core (``final_points``, capot included) and scored by
    ``attack_net_score``: {root card: the best mean of the strategies leading it}.
    Strategies are enumerated lazily: a history met without a card branches on every
    legal card."""
    base, rules = position_of_state(st), rules_of_state(st)
    net = attack_net_score(st)
    sign = 1 if seat % 2 == st.taker % 2 else -1
    worlds = [[h if isinstance(h, int) else mask_of(h) for h in w[:4]] for w in worlds]

    def minimax(core, hist, strategy, score):
        if core.is_over():
            return sign * score(core.final_points()[0])
        to_act = core.to_act
        legal = bit_list(core.legal())
        if to_act == seat:
            if hist not in strategy:
                raise NeedMove(hist, legal)
            legal = [strategy[hist]]
        values = []
        for c in legal:
            core.play(c)
            values.append(minimax(core, hist + (c,), strategy, score))
            core.undo()
        return max(values) if to_act % 2 == seat % 2 else min(values)

    def evaluate(strategy):
        total = 0
        for w in worlds:
            core = BeloteCore(*rules.args())
            core.set_position(w, list(base.trick), base.leader, base.taker,
                              base.attack_points, base.defence_points, base.attack_all,
                              base.taker_all, base.defence_all, base.tricks_done)
            total += minimax(core, (), strategy, net.at(w))
        return total / len(worlds)

    best: dict[int, float] = {}
    stack = [{}]
    count = 0
    while stack:
        strategy = stack.pop()
        try:
            value = evaluate(strategy)
        except NeedMove as e:
            hist, legal = e.args
            stack.extend({**strategy, hist: c} for c in legal)
            continue
        count += 1
        root = strategy[()]
        best[root] = max(best.get(root, value), value)
    return best, count


def tiny(seed):
    """A random Coinche position with 3 cards a hand, the leader to act."""
    rng = random.Random(seed)
    deal = rng.sample(range(32), 12)
    hands = [mask_of(deal[3 * s:3 * s + 3]) for s in range(4)]
    return coinche.CoincheState.from_play(hands, rng.randrange(6), rng.randrange(4),
                                          leader=rng.randrange(4), tricks_won=(3, 2),
                                          points=(50, 40))


def few_worlds(st, seat, n, seed):
    return random.Random(seed).sample(all_holdings(st, seat, 2000), n)


# (seed, worlds): tiny positions where the seat decides at 3 to 10 histories, 12 to
# 1,536 pure strategies (the brute force's cost; most positions have far more)
TINY = [(138, 2), (172, 4), (250, 3), (253, 3), (346, 2), (360, 3), (373, 3)]


@pytest.mark.parametrize("seed,n", TINY)
def test_alphamu_equals_the_brute_force_over_the_observers_strategies(seed, n):
    # 3 tricks left: the full-depth αμ value of each root card is the best mean of the
    # strategies leading it, and the card αμ picks achieves the best of all
    st = tiny(seed)
    seat = st.to_act
    worlds = few_worlds(st, seat, n, seed)
    brute, count = brute_force(st, seat, worlds)
    assert count > len(brute)    # the seat had later choices to make
    search = AlphaMu(st, seat, worlds, depth=3)
    values = search.card_values()
    assert set(values) == set(brute)
    for c in values:
        assert values[c] == pytest.approx(brute[c])
    pick = max(values, key=values.get)
    assert brute[pick] == pytest.approx(max(brute.values()))
    # and PIMC's values (depth 1) are never below: it assumes the later cards are
    # chosen seeing the world
    pimc = search.card_values(1)
    assert all(pimc[c] >= values[c] - 1e-9 for c in values)


def fusion_position():
    """No trumps (SA), seat 1 took; seat 0 (defence) leads from AH 7D KC with 3 tricks
    left, and 8 sampled worlds. In each world a double-dummy player cashes AH, then
    leads the right one of 7D / KC for that world; αμ must choose that second lead
    without seeing the hands, and after AH the right one differs between the worlds."""
    st = coinche.CoincheState.from_play(masks("AH 7D KC", "QH 9D 7C", "JH KD TC",
                                              "7S QS AS"),
                                        5, 1, leader=0, tricks_won=(3, 2), points=(50, 40))
    worlds = [masks("AH 7D KC", *w.split(",")) for w in (
        "7S KD 7C,QS 9D TC,AS JH QH", "AS JH TC,7S 9D KD,QS QH 7C",
        "AS QH 9D,7S QS 7C,JH KD TC", "QH KD TC,7S JH 9D,QS AS 7C",
        "AS 9D 7C,7S JH TC,QS QH KD", "QS QH TC,JH KD 7C,7S AS 9D",
        "JH KD 7C,QS 9D TC,7S AS QH", "AS 9D TC,QS JH KD,7S QH 7C")]
    return st, worlds


def test_strategy_fusion_fools_pimc_and_alphamu_values_it_correctly():
    st, worlds = fusion_position()
    search = AlphaMu(st, 0, worlds, depth=3)
    pimc = search.card_values(1)         # depth 1: each world's DD value, as PIMC
    alphamu = search.card_values(3)
    ah, kc = BELOTE_DECK.card("AH"), BELOTE_DECK.card("KC")
    assert max(pimc, key=pimc.get) == ah                 # PIMC cashes the ace
    assert max(alphamu, key=alphamu.get) == kc           # αμ leads the king
    # PIMC's value of AH assumes the right second lead in every world: 117 points a
    # deal; a strategy must pick one lead per history, and the best is worth 74.5
    assert pimc[ah] == pytest.approx(117.0)
    assert alphamu[ah] == pytest.approx(74.5)
    assert alphamu[kc] == pytest.approx(109.25)
    assert all(alphamu[c] <= pimc[c] for c in pimc)      # fusion only ever flatters
    # (too many histories here for the brute force, ~2^40 strategies: the test above
    # checks the search against it on positions where the seat has fewer)


def late_positions(game, count, left):
    """Positions of heuristic-played deals with ``left`` tricks to go, ``count``."""
    from solver.games import get_game
    from solver.heuristic import HeuristicAgent
    out = []
    for i in range(4 * count):
        st = get_game(game).new_state(seed=i)
        agent = HeuristicAgent(i)
        while not st.is_over():
            if st.phase == "play" and 8 - sum(st.tricks_won) == left \
                    and len(st.trick) == i % 4:
                if sum(m.kind == "card" for m in st.legal_moves()) > 1:
                    out.append(st.copy())
                break
            st.play(agent.choose(st, st.to_act))
        if len(out) == count:
            break
    return out


@pytest.mark.parametrize("game", ["coinche", "belote"])
def test_depth_one_is_pimc_on_the_same_worlds(game):
    # alphamu=1 solves the worlds PIMC draws, each double-dummy: the same values, card
    for k, st in enumerate(late_positions(game, 4, 4)):
        seat = st.to_act
        cards = [m for m in st.legal_moves() if m.kind == "card"]
        pimc = PimcAgent(seed=k, worlds=12, prune=False)
        am = PimcAgent(seed=k, worlds=12, prune=False, alphamu=1, alphamu_tricks=8)
        assert am.uses_alphamu(st)
        assert am.alphamu_values(st, seat, cards) == pimc.card_values(st, seat, cards)
        assert PimcAgent(seed=k, worlds=12, prune=False).choose(st, seat) == \
            PimcAgent(seed=k, worlds=12, alphamu=1, alphamu_tricks=8).choose(st, seat)


def test_the_agent_is_seeded_and_searches_only_the_last_tricks():
    st = late_positions("coinche", 1, 3)[0]
    seat = st.to_act
    a = make_agent("pimc:worlds=20,alphamu=3,alphamu_tricks=3", seed=5, game="coinche")
    b = make_agent("pimc:worlds=20,alphamu=3,alphamu_tricks=3", seed=5, game="coinche")
    assert a.choose(st, seat) == b.choose(st, seat)
    stats = a.last_stats["alphamu"]
    assert stats["depth"] == 2 and stats["worlds"] == 20   # 3 cards: 2 choices
    early = late_positions("coinche", 1, 4)[0]
    assert a.uses_alphamu(st) and not a.uses_alphamu(early)


def test_a_work_budget_stops_deepening_at_the_last_depth_that_finished(monkeypatch):
    import solver.pimc as pimc_module
    monkeypatch.setattr(pimc_module, "ALPHAMU_WORK", 1)
    st = late_positions("coinche", 1, 4)[0]
    agent = PimcAgent(seed=3, worlds=10, alphamu=3, alphamu_tricks=4)
    agent.choose(st, st.to_act)
    assert agent.last_stats["alphamu"]["depth"] == 1


def test_pareto_keeps_the_vectors_no_other_matches_or_beats_everywhere():
    front = [(1, 5), (2, 2), (1, 5), (0, 6), (1, 4), (3, 1), (2, 1)]
    assert sorted(pareto(front)) == [(0, 6), (1, 5), (2, 2), (3, 1)]


@pytest.mark.parametrize("spec,word", [
    ("pimc:alphamu=-1", "alphamu"), ("pimc:alphamu=9", "alphamu"),
    ("pimc:alphamu=x", "alphamu"), ("pimc:alphamu=true", "alphamu"),
    ("pimc:alphamu=1.5", "alphamu"), ("pimc:alphamu=2,alphamu_tricks=0", "alphamu_tricks"),
    ("pimc:alphamu=2,alphamu_front=-3", "alphamu_front"),
    ("pimc:alphamu=2,objective=make", "make")])
def test_bad_alphamu_options_are_clear_option_errors(spec, word):
    with pytest.raises(OptionError, match=word):
        make_agent(spec, game="coinche")


def test_alphamu_means_nothing_outside_belote_and_coinche():
    with pytest.raises(OptionError, match="means nothing in tarot"):
        make_agent("pimc:alphamu=2", game="tarot")
