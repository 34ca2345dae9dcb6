"""The play model in French Tarot (solver/play_model.py) and pimc's worlds weighted by
it (``infer=EPS``). The model player is the heuristic (solver/heuristics/tarot.py); the
rules behind the positions: TAROT-PLAY-4 (follow suit, EX always legal), TAROT-CALL-5
(the partner is known once the called card is out, else only to its holder) and
TAROT-CALL-6 (the 5p first lead)."""

import math
import random

import pytest

from solver.constraints import holdings_sampler
from solver.games import get_game
from solver.games import tarot as T
from solver.heuristic import HeuristicAgent
from solver.heuristics.tarot import play_card
from solver.pimc import PimcAgent
from solver.play_model import play_model

DECK = T.TAROT_DECK


def mask(text: str) -> int:
    return sum(1 << DECK.card(t) for t in text.split())


SPADES = T.SUIT_MASKS[0]


def king_lead_position() -> T.TarotState:
    """4 players, garde, seat 0 the taker. Seat 0 leads the KS and seat 1 (a defender)
    follows with the QS (TAROT-PLAY-4.1: any spade): the heuristic gives its cheapest
    card away on a trick it cannot win, so the QS says seat 1 held no other spade.
    Seat 2, the observer, holds the EX (so seat 1's legal cards are its spades only).
    A full deal at the first trick: the sampler counts the hands from it."""
    free = [c for c in range(78) if c not in (DECK.card("KS"), DECK.card("QS"),
                                             T.EXCUSE)]
    plain = [c for c in free if c > T.EXCUSE and not SPADES >> c & 1]
    # seat 1: the QS and 17 cards of the other plain suits; the aside (écart): 6 low
    # hearts and diamonds (no kings, trumps or bouts, TAROT-DOG-2)
    seat1 = (1 << DECK.card("QS")) | sum(1 << c for c in plain[:17])
    rest = [c for c in free if not seat1 >> c & 1]
    aside_cards = [c for c in rest if c > T.EXCUSE and (c - 22) % 14 < 10][:6]
    rest = [c for c in rest if c not in aside_cards]
    seat0 = (1 << DECK.card("KS")) | sum(1 << c for c in rest[:17])
    seat2 = T.EXCUSE_BIT | sum(1 << c for c in rest[17:34])
    seat3 = sum(1 << c for c in rest[34:])
    st = T.TarotState.for_play([seat0, seat1, seat2, seat3], taker=0, contract="garde",
                               leader=0, aside=sum(1 << c for c in aside_cards))
    st.play("KS")
    st.play("QS")
    return st


def test_a_card_the_heuristic_never_plays_makes_the_other_spades_unlikely():
    st = king_lead_position()
    assert st.to_act == 2
    eps = 0.05
    model = play_model(st, 2, eps)
    assert [(p.seat, DECK.token(p.card)) for p in model.plays] == [(0, "KS"), (1, "QS")]
    draw = holdings_sampler(st, 2)
    rng = random.Random(1)
    seen = {"other spades": 0, "forced": 0}
    for _ in range(200):
        h = draw(rng)
        hand = sum(1 << c for c in h[1]) | mask("QS")  # seat 1's hand when it played
        n = (hand & SPADES).bit_count()  # its legal cards (TAROT-PLAY-4.1)
        lp = model.log_prob(1, hand)
        if n > 1:
            # any other spade is cheaper than the QS: the QS was one of the n - 1 others
            assert lp == pytest.approx(math.log(eps / (n - 1)))
            seen["other spades"] += 1
        else:
            assert lp == 0.0  # the QS was forced
            seen["forced"] += 1
        assert model.log_weight(h) == pytest.approx(
            lp + model.log_prob(0, sum(1 << c for c in h[0]) | mask("KS")))
    assert min(seen.values()) > 5


def test_pimc_infer_resamples_the_tarot_worlds_by_the_play():
    st = king_lead_position()
    other = SPADES & ~mask("KS QS")

    def share(worlds, weights):
        return sum(w for h, w in zip(worlds, weights, strict=True)
                   if any(other >> c & 1 for c in h[1])) / sum(weights)

    uniform = PimcAgent(seed=3, worlds=60)
    draws, _ = uniform.draw_worlds(st, 2, 11)
    # eps 0.02: a world where seat 1 held n spades weighs 0.02 / (n - 1) against ~1
    agent = PimcAgent(seed=3, worlds=60, infer=0.02, pool=4)
    pool, _ = agent.draw_worlds(st, 2, 11)
    # the sampler is unchanged (exact, seeded): the pool starts with the uniform draws
    assert len(pool) == 240 and pool[:60] == draws
    worlds, weights, info = agent._play_weights(st, 2, pool)
    assert info["pool"] == 240 and info["distinct"] == len(worlds)
    assert sum(weights) == 60
    assert share(draws, [1.0] * 60) > 0.6 and share(worlds, weights) < 0.1
    # seeded: the same decision twice gives the same worlds and the same card
    again = PimcAgent(seed=3, worlds=60, infer=0.02, pool=4)
    assert again._play_weights(st, 2, pool)[:2] == (worlds, weights)
    first = PimcAgent(seed=5, worlds=30, infer=0.05).choose(st, 2)
    assert PimcAgent(seed=5, worlds=30, infer=0.05).choose(st, 2) == first
    assert first in st.legal_moves()


def test_ess_tempers_the_likelihood_to_keep_enough_worlds():
    """With ``ess``, the weights are raised to the largest power that keeps the pool's
    effective size at ``ess`` x ``worlds``: more distinct worlds, the same draws."""
    st = king_lead_position()
    sharp = PimcAgent(seed=3, worlds=60, infer=0.02, pool=4)
    soft = PimcAgent(seed=3, worlds=60, infer=0.02, pool=4, ess=1.0)
    pool, _ = sharp.draw_worlds(st, 2, 11)
    assert soft.draw_worlds(st, 2, 11)[0] == pool
    _, _, info = sharp._play_weights(st, 2, pool)
    _, weights, soft_info = soft._play_weights(st, 2, pool)
    assert info["power"] == 1.0 and 0 < soft_info["power"] < 1
    assert soft_info["distinct"] > info["distinct"] and sum(weights) == 60


def _replayed_choices(state: T.TarotState, seat: int, holdings: list[list[int]]):
    """Per past card of a seat other than ``seat``, whether the heuristic playing the
    world ``holdings`` from the start of the card play picks that card: the world's
    hands at the first trick are rebuilt and its cards played again (TAROT-CALL-5: the
    partner is the world's holder of the called card)."""
    n = state.players
    played = [(s, c) for t, _ in state.tricks for s, c in t] + list(state.trick)
    start = [sum(1 << c for c in holdings[s]) for s in range(n)]
    for s, c in played:
        start[s] |= 1 << c
    partner = None
    if state.called_card is not None:  # None: the taker's own card, or in the aside
        holder = next((s for s in range(n) if start[s] >> state.called_card & 1), None)
        partner = None if holder == state.taker else holder
    world = T.TarotState.for_play(start, taker=state.taker, contract=state.contract,
                                  partner=partner, called_card=state.called_card,
                                  leader=state.eldest if not state.chelem_announced
                                  else state.taker, options=state.options)
    world.dog = state.dog if state.dog_shown else 0  # the shown dog (TAROT-DOG-1)
    world.dog_shown = state.dog_shown
    out = []
    for s, c in played:
        if s != seat:
            legal = world.legal_moves()  # cards only: no announcements in a position
            pick = legal[0] if len(legal) == 1 else play_card(world.observation(s), legal)
            out.append(pick.value == c)
        world.play(DECK.token(c))
    return out


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_model_is_the_heuristic_in_every_sampled_world(players):
    """On deals played by the heuristic, the model's pick for each past card of the
    others is the heuristic's own, both on the true hands and in sampled worlds where
    the deal is played again from the first trick (so the view rebuilt from public
    facts is the heuristic's view, partner knowledge included)."""
    module = get_game("tarot")
    checked = worlds_checked = deals = 0
    for seed in range(30):
        st = module.new_state(options={"players": players}, seed=seed,
                               dealer=seed % players)
        if deals == 2:
            break
        deals += 1
        agents = [HeuristicAgent(s) for s in range(players)]
        while not st.is_over():
            s = st.to_act
            if st.phase == "play" and len(st.tricks) in (4, 9) and len(st.trick) == 1:
                model = play_model(st, s, 0.1)
                c, hits, ll = model.agreement(list(st.hands))
                assert hits == c and ll == pytest.approx(c * math.log(0.9))
                checked += c
                draw = holdings_sampler(st, s)
                rng = random.Random(seed)
                for _ in range(4):
                    h = draw(rng)
                    masks = [sum(1 << x for x in hand) for hand in h]
                    expected = _replayed_choices(st, s, h)
                    got = [model.choice(i, masks[p.seat] | p.later)
                           for i, p in enumerate(model.plays)]
                    # a card illegal in the world (n = 0) cannot be replayed: only
                    # worlds where every past card was legal are compared
                    if all(n > 0 for _, n in got):
                        assert [hit for hit, _ in got] == expected
                        worlds_checked += 1
            st.play(agents[s].choose(st, s))
        deals -= st.contract is None  # everybody passed: no card play
    assert checked > 30 and worlds_checked >= 4


def test_tarot_infer_options():
    from solver.agents import make_agent
    from solver.errors import OptionError

    agent = make_agent("pimc:worlds=20,infer=0.1,pool=2", game="tarot")
    assert agent.infer == 0.1 and agent.pool == 2
    with pytest.raises(OptionError):
        make_agent("pimc:infer=1.5", game="tarot")
    with pytest.raises(OptionError):
        make_agent("pimc:infer=0.1,pool=0", game="tarot")
    st = get_game("tarot").new_state(seed=1)
    assert play_model(st, 0, 0.1).plays == []  # before the card play: nothing to weigh
