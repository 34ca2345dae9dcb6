"""The play model (solver/play_model.py) and pimc's worlds weighted by it (infer=EPS).

The model gives a world the likelihood of the cards the other seats played, under the
heuristic player softened by eps; the rules behind the positions are BELOTE-PLAY-3
(follow suit) and COINCHE-PLAY-3/4."""

import math
import random

import pytest

from solver.cards import DECKS, bit_list
from solver.constraints import holdings_sampler
from solver.games import coinche, get_game
from solver.heuristic import HeuristicAgent
from solver.pimc import PimcAgent, _prune, resample
from solver.play_model import play_model

DECK = DECKS["coinche"]


def mask(text: str) -> int:
    return sum(1 << DECK.card(t) for t in text.split())


def spade_lead_position():
    """Hearts trump, seat 0 leads the master AS and seat 1 (an opponent, who cannot
    beat it) plays KS: the heuristic gives the lowest spade away (BELOTE-PLAY-3:
    any spade), so KS says seat 1 held no smaller spade. Seat 2 is to play."""
    hands = ["AS 9H JD 7C", "KS 7S 8D 8C", "QD TD 9C JC", "8S TS 7D AC"]
    st = coinche.CoincheState.from_play([mask(h) for h in hands], 1, 0, leader=0,
                                        tricks_won=(4, 0))
    st.play("AS")
    st.play("KS")
    return st


def test_a_card_the_heuristic_never_plays_makes_the_alternatives_unlikely():
    st = spade_lead_position()
    eps = 0.05
    model = play_model(st, 2, eps)
    assert [(p.seat, DECK.token(p.card)) for p in model.plays] == [(0, "AS"), (1, "KS")]
    draw = holdings_sampler(st, 2)
    rng = random.Random(1)
    low, ten = mask("7S 8S"), mask("TS")
    seen = {"low": 0, "ten": 0, "none": 0}
    for _ in range(200):
        h = draw(rng)
        hand = sum(1 << c for c in h[1]) | mask("KS")  # seat 1's hand when it played
        n = (hand & (low | ten | mask("KS"))).bit_count()  # its legal spades
        lp = model.log_prob(1, hand)
        if hand & low:
            # a spade without points was there to give: KS was one of the n - 1 others
            assert lp == pytest.approx(math.log(eps / (n - 1)))
            seen["low"] += 1
        elif hand & ten:
            assert lp == pytest.approx(math.log(1 - eps))  # KS is cheaper than TS
            seen["ten"] += 1
        else:
            assert lp == 0.0  # KS was forced
            seen["none"] += 1
        assert model.log_weight(h) == pytest.approx(
            lp + model.log_prob(0, sum(1 << c for c in h[0]) | mask("AS")))
    assert min(seen.values()) > 10


def test_pimc_infer_resamples_the_worlds_by_the_play():
    st = spade_lead_position()
    low = mask("7S 8S")
    uniform = PimcAgent(seed=3, worlds=60)
    draws, _ = uniform.draw_worlds(st, 2, 11)
    share_uniform = sum(any(low >> c & 1 for c in h[1]) for h in draws) / len(draws)
    agent = PimcAgent(seed=3, worlds=60, infer=0.05, pool=4)
    pool, _ = agent.draw_worlds(st, 2, 11)
    assert len(pool) == 240
    worlds, weights, info = agent._play_weights(st, 2, pool)
    assert info["pool"] == 240 and info["distinct"] == len(worlds)
    assert sum(weights) == 60
    share = sum(w for h, w in zip(worlds, weights, strict=True)
                if any(low >> c & 1 for c in h[1])) / 60
    assert share_uniform > 0.4 and share < 0.1
    # seeded: the same decision twice
    again = PimcAgent(seed=3, worlds=60, infer=0.05, pool=4)
    assert again._play_weights(st, 2, pool)[:2] == (worlds, weights)
    assert agent.choose(st, 2) in st.legal_moves()
    assert agent.last_stats["inferred"]["pool"] == 240


@pytest.mark.parametrize("game", ["coinche", "belote"])
def test_the_model_predicts_the_heuristic_exactly_on_the_true_hands(game):
    """On deals played by the heuristic, every past card of the others is the model
    player's pick when it holds the seat's true hand (so the view it rebuilds from
    public facts is the heuristic's own)."""
    module = get_game(game)
    choices = 0
    for seed in range(2):
        st = module.new_state(seed=seed, dealer=seed)
        agents = [HeuristicAgent(s) for s in range(4)]
        while not st.is_over():
            s = st.to_act
            if st.phase == "play" and len(st.tricks) in (3, 6) and not st.trick:
                model = play_model(st, s, 0.1)
                c, hits, ll = model.agreement(list(st.hands))
                assert hits == c
                assert ll == pytest.approx(c * math.log(0.9))
                assert model.log_weight([bit_list(h) for h in st.hands]) == \
                    pytest.approx(ll)
                choices += c
            st.play(agents[s].choose(st, s))
    assert choices > 20


def test_resample_is_proportional_and_seeded():
    picks = resample([0.0, math.log(3.0)], 4000, random.Random(5))
    assert picks == resample([0.0, math.log(3.0)], 4000, random.Random(5))
    counts = dict(picks)
    assert sum(counts.values()) == 4000
    assert 0.72 < counts[1] / 4000 < 0.78
    assert resample([-1e9, 0.0], 10, random.Random(0)) == [(1, 10)]


def test_temper_keeps_the_effective_size_asked_for():
    from solver.pimc import effective_size, temper

    assert effective_size([0.0] * 8) == pytest.approx(8)
    assert effective_size([0.0, -1e9, -1e9]) == pytest.approx(1)
    logs = [-40.0 * i for i in range(100)]  # one draw carries nearly all the weight
    assert temper(logs, 1) == 1.0 and temper([0.0] * 5, 5) == 1.0
    b = temper(logs, 20)
    assert 0 < b < 1
    assert effective_size([b * x for x in logs]) >= 20
    assert effective_size([(b + 2 / 1024) * x for x in logs]) < 20  # the largest power


def test_weighted_prune_with_unit_weights_is_the_unweighted_test():
    from solver.games.base import Move

    rng = random.Random(2)
    cards = [Move("card", i) for i in range(4)]
    rows = [{m: rng.gauss(10 * (i == 0) - i, 5) for i, m in enumerate(cards)}
            for _ in range(30)]
    totals = {m: sum(r[m] for r in rows) for m in cards}
    assert _prune(cards, totals, rows) == _prune(cards, totals, rows, [1.0] * 30)
    # a weight scales nothing: the effective number of worlds is unchanged
    totals2 = {m: 2 * totals[m] for m in cards}
    assert _prune(cards, totals2, rows, [2.0] * 30) == _prune(cards, totals, rows)


def test_infer_option_is_checked():
    from solver.errors import OptionError

    for bad in (-0.1, 1.0, "x", True):
        with pytest.raises(OptionError):
            PimcAgent(infer=bad)
    with pytest.raises(OptionError):
        PimcAgent(pool=0)
    for bad in (-0.1, 1.5, "x", True):
        with pytest.raises(OptionError):
            PimcAgent(ess=bad)
    # every game has a model now (Tarocchini too): before the card play it has
    # nothing to weigh, and the worlds are the uniform draws
    assert play_model(get_game("tarocchini").new_state(seed=1), 0, 0.1).plays == []
    from solver.agents import make_agent

    for spec in ("pimc:infer=0.1", "pimc:infer=0.1,ess=0.5"):
        assert make_agent(spec, game="tarocchini").infer == 0.1
    with pytest.raises(OptionError):
        make_agent("pimc:infer=0.1,ess=2", game="tarocchini")
    assert make_agent("pimc:infer=0.1,pool=2,exact=50", game="belote").exact == 50


def test_infer_under_a_time_budget_weighs_what_half_of_it_allows():
    st = get_game("coinche").new_state(seed=7)
    agents = [HeuristicAgent(s) for s in range(4)]
    while st.phase != "play" or len(st.tricks) < 2:
        st.play(agents[st.to_act].choose(st, st.to_act))
    seat = st.to_act
    agent = PimcAgent(seed=0, worlds=2000, pool=4, infer=0.2, seconds=1e-4)
    draws, _ = agent.draw_worlds(st, seat, 3)
    assert len(draws) == 63  # drawing stops at its first look at the clock
    worlds, weights, info = agent._play_weights(st, seat, draws, stop=0.0)
    assert info["pool"] == 31  # the first 31 weighed, then the clock said stop
    assert sum(weights) == 31 and len(worlds) == info["distinct"]
    assert agent.choose(st, seat) in st.legal_moves()


def test_infer_without_past_cards_solves_as_many_worlds_as_plain_pimc():
    st = get_game("coinche").new_state(seed=7)
    agents = [HeuristicAgent(s) for s in range(4)]
    while st.phase != "play":
        st.play(agents[st.to_act].choose(st, st.to_act))
    seat = st.to_act  # the first lead: nobody else has played
    agent = PimcAgent(seed=0, worlds=30, pool=4, infer=0.2)
    pool, _ = agent.draw_worlds(st, seat, 3)
    worlds, weights, info = agent._play_weights(st, seat, pool)
    assert len(pool) == 30  # no pool to draw
    assert _ is None and agent._play_weights(st, seat, pool * 4)[0] == pool
    assert worlds == pool and weights == [1.0] * 30
    assert info is None


def test_the_learned_model_weighs_points_thrown_away():
    """The learned model (``model=learned``, fitted on pimc's cards): KS given to the
    opponent's master AS (BELOTE-PLAY-3: any spade) is less likely from a hand that
    had a spade without points than from one whose other spade was TS, and forced
    from a hand without another spade."""
    from solver.play_model import PlayModel
    st = spade_lead_position()
    model = play_model(st, 2, 0.05, learned=True)
    assert isinstance(model, PlayModel) and model.weights is not None
    ks = mask("KS")
    low = model.log_prob(1, ks | mask("7S 8D 8C"))
    ten = model.log_prob(1, ks | mask("TS 8D 8C"))
    forced = model.log_prob(1, ks | mask("7D 8D 8C"))
    assert low < ten < forced == 0.0
    # each is log((1 - eps) softmax + eps / n), so above log(eps / n)
    assert low > math.log(0.05 / 2)


def test_the_learned_model_is_a_softmax_over_the_legal_cards():
    """With weight only on the heuristic's card, the learned model is the heuristic's
    model in another form: P(heuristic's card) = e^w / (e^w + n - 1), eps of uniform
    mixed in; the probabilities of the legal cards sum to one."""
    from solver.play_model import BELOTE_FEATURES, PlayModel, _belote_plays
    checked = 0
    for deal in range(6):
        st = coinche.new_state(seed=deal, dealer=deal % 4)
        agent = HeuristicAgent(seed=deal)
        while not st.is_over() and not (st.phase == "play" and len(st.trick) == 2
                                        and st.tricks):
            st.play(agent.choose(st, st.to_act))
        if st.is_over():
            continue
        w = [0.0] * len(BELOTE_FEATURES)
        w[0] = 1.7
        plays = _belote_plays(st, 0)
        hands = {p.seat: st.hands[p.seat] for p in plays}
        for p in plays:
            hand = hands[p.seat] | p.later
            cards = p.legal(hand)
            if len(cards) < 2:
                continue
            heur = p.heuristic_card(hand, cards)
            lp = p.learned_log_prob(hand, w)
            e = math.exp(1.7)
            want = e / (e + len(cards) - 1) if p.card == heur else 1 / (e + len(cards) - 1)
            assert lp == pytest.approx(math.log(want))
            # the softmax over the legal cards sums to one
            total = sum(math.exp(type(p)(**{**p.__dict__, "card": c}).learned_log_prob(
                hand, w)) for c in cards)
            assert total == pytest.approx(1.0)
            mixed = PlayModel([p], 0.2, w).log_prob(0, hand)
            assert mixed == pytest.approx(math.log(0.8 * want + 0.2 / len(cards)))
            checked += 1
    assert checked > 10
