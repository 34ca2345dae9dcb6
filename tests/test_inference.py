"""Card-play worlds that follow the auction (``pimc:auction=1``, solver.inference)."""

import random

import pytest

from solver import constraints, inference
from solver.cards import bit_list, mask_of
from solver.errors import OptionError
from solver.games import get_game
from solver.heuristic import HeuristicAgent
from solver.heuristics.belote import strain_strength
from solver.inference import auction_model, played_by_seat
from solver.pimc import PimcAgent


def after_auction(seed, cards_played=0):
    """A Coinche deal bid by heuristic players (the first from ``seed`` on in which a
    seat other than the leader bid), ``cards_played`` cards into the play."""
    while True:
        st = get_game("coinche").new_state(dealer=0, seed=seed)
        h = HeuristicAgent(seed=seed)
        while st.phase == "bid":
            st.play(h.choose(st, st.to_act))
        if st.phase == "play" and st.contract[2] != st.to_act:
            for _ in range(cards_played):
                st.play(h.choose(st, st.to_act))
            return st
        seed += 1


def test_the_model_records_the_others_calls_and_the_true_deal_fits():
    st = after_auction(1, cards_played=6)
    seat = st.to_act
    model = auction_model(st, seat)
    assert model is not None and seat not in model.calls
    assert sum(len(c) for c in model.calls.values()) == sum(
        1 for s, _ in st.observation(seat)["calls"] if s != seat)
    # the real hands were bid by the heuristic bidder: the true world follows the auction
    played = played_by_seat(st.observation(seat), "coinche")
    truth = [[c for c in range(32) if h >> c & 1] for h in st.hands]
    assert model.fits(truth, played)


def test_worlds_follow_the_auction():
    """The taker's trump count in the worlds: with the auction model every world used
    has the bidder holding a hand that bids as it did, so strong in its strain."""
    st = after_auction(3)
    seat = st.to_act
    taker, strain = st.contract[2], st.contract[1]
    agent = PimcAgent(seed=0, worlds=40, auction=True)
    worlds, fit = agent.draw_worlds(st, seat, seed=7)
    assert len(worlds) == 40 and fit is not None and fit > 0
    model = auction_model(st, seat)
    played = played_by_seat(st.observation(seat), "coinche")
    assert all(model.fits(w, played) for w in worlds[:fit])
    uniform = constraints.sample_holdings(st, seat, 40, seed=7)

    def mean_strength(ws):
        return sum(strain_strength(sum(1 << c for c in w[taker]), strain) for w in ws) / len(ws)

    assert mean_strength(worlds[:fit]) > mean_strength(uniform)


def test_shortfall_filled_by_fewest_misfits(monkeypatch):
    """Too few draws to find enough fitting worlds: the fill is the draws in which the
    fewest calling seats miss their calls, fewest first (likeliest if each seat strays
    from the heuristic bidder with a small probability)."""
    monkeypatch.setattr(inference, "DRAWS_PER_WORLD", 1)
    st = after_auction(3)
    seat = st.to_act
    agent = PimcAgent(seed=0, worlds=60, auction=True)
    worlds, fit = agent.draw_worlds(st, seat, seed=11)
    model = auction_model(st, seat)
    played = played_by_seat(st.observation(seat), "coinche")
    assert len(worlds) == 60 and fit < 60
    counts = [model.misfits(w, played) for w in worlds]
    assert counts[:fit] == [0] * fit
    assert all(c >= 1 for c in counts[fit:]) and counts[fit:] == sorted(counts[fit:])
    assert max(counts) <= len(model.calls)
    # the same 60 draws replayed (Coinche draws use the rng only to sample): the fill
    # is the misfits ranked by (count, draw order)
    draw, rng = constraints.holdings_sampler(st, seat), random.Random(11)
    draws = [draw(rng) for _ in range(60)]
    ranked = sorted((model.misfits(w, played), i) for i, w in enumerate(draws)
                    if model.misfits(w, played))
    assert worlds[fit:] == [draws[i] for _, i in ranked]
    assert [model.misfits(w, played) for w in draws] != counts   # the ranking changed something


def test_auction_worlds_are_deterministic_and_optional():
    st = after_auction(5, cards_played=3)
    a = PimcAgent(seed=4, worlds=12, auction=True).choose(st, st.to_act)
    b = PimcAgent(seed=4, worlds=12, auction=True).choose(st, st.to_act)
    assert a == b
    plain = PimcAgent(seed=4, worlds=12)
    plain.choose(st, st.to_act)
    assert "auction_fit" not in plain.last_stats
    with pytest.raises(OptionError, match="auction must be true or false"):
        PimcAgent(auction=5)


def _tarocchini_in_play(variant: str, seed: int, cards_played: int = 0):
    st = get_game("tarocchini").new_state(options={"game": variant}, dealer=seed % 3,
                                          seed=seed)
    h = HeuristicAgent(seed=seed)
    while st.phase != "play" and not st.is_over():
        st.play(h.choose(st, st.to_act))
    for _ in range(cards_played if st.phase == "play" else 0):
        st.play(h.choose(st, st.to_act))
    return st if st.phase == "play" else None


def test_ottocento_draws_uniform_worlds():
    """Ottocento's monte votes are not modelled: the worlds are the uniform draws."""
    st = next(s for s in (_tarocchini_in_play("ottocento", k) for k in range(2, 40)) if s)
    agent = PimcAgent(seed=0, worlds=4, auction=True)
    worlds, fit = agent.draw_worlds(st, st.to_act, seed=1)
    assert fit is None and worlds == constraints.sample_holdings(st, st.to_act, 4, seed=1)


def test_terziglio_true_deals_follow_the_bids():
    """TERZ-BID-1..3: every seat bid on its dealt cards. Defenders and a solo declarer
    hold them still (plus what they played): the true deal fits. A gioco declarer's
    dealt hand is a random subset, of the dealt size, of his cards now, played and
    discarded: it is among them and makes his bid."""
    contracts = set()
    for seed in range(60):
        st = _tarocchini_in_play("terziglio", seed, cards_played=seed % 7)
        if st is None:
            continue
        dealt = st.to_record().deal.hands   # the true deal
        for seat in range(3):
            model = auction_model(st, seat)
            assert model is not None and seat not in model.calls
            assert sorted(model.calls) == sorted(s for s in range(3) if s != seat)
            obs = st.observation(seat)
            played = played_by_seat(obs, "tarocchini")
            truth = [bit_list(h) for h in st.hands] + [bit_list(st.discard | st.stock)]
            for caller in model.calls:
                hand = model.auction_hand(caller, truth, played.get(caller, 0))
                real = mask_of(dealt[caller])
                if caller in model.dealt_before:
                    assert caller == st.declarer and st.contract == "gioco"
                    assert model.dealt_before[caller] == len(dealt[caller])
                    assert hand & real == real and hand.bit_count() == len(dealt[caller]) \
                        + (st.discard).bit_count()
                else:
                    assert hand == real
                assert model.fits_hand(caller, real), (seed, seat, caller)
        contracts.add(st.contract)
    assert contracts == {"gioco", "solo"}


def test_terziglio_pimc_worlds_follow_the_bids():
    """A defender's worlds give the declarer a hand that bids as he did."""
    for seed in range(60):
        st = _tarocchini_in_play("terziglio", seed, cards_played=2)
        if st is not None and st.to_act != st.declarer:
            break
    seat = st.to_act
    worlds, fit = PimcAgent(seed=0, worlds=20, auction=True).draw_worlds(st, seat, 3)
    assert fit is not None and fit > 0 and len(worlds) == 20
    model = auction_model(st, seat)
    played = played_by_seat(st.observation(seat), "tarocchini")
    assert st.declarer in model.calls
    exact = [c for c in model.calls if c not in model.dealt_before]   # no exchange
    assert exact
    for w in worlds[:fit]:
        for caller in exact:
            assert model.fits_hand(caller, model.auction_hand(caller, w, played.get(caller, 0)))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_tarot_true_deals_follow_the_auction(players):
    """In Tarot the taker's hand at the auction is rebuilt from a world (its cards now,
    played, and its écart, minus the dog): the true deal, bid by the heuristic bidder,
    always fits, whoever looks and whatever the contract."""
    checked = 0
    for seed in range(60):
        st = get_game("tarot").new_state(options={"players": players}, dealer=0, seed=seed)
        h = HeuristicAgent(seed=seed)
        while st.phase != "play" and not st.is_over():
            st.play(h.choose(st, st.to_act))
        if st.phase != "play":
            continue
        for _ in range(seed % 9):
            st.play(h.choose(st, st.to_act))
        seat = st.to_act
        model = auction_model(st, seat)
        if model is None:
            continue
        obs = st.observation(seat)
        truth = [[c for c in range(78) if hand >> c & 1] for hand in st.hands]
        truth.append([c for c in range(78) if (st.ecart or st.dog or 0) >> c & 1])
        assert model.fits(truth, played_by_seat(obs, "tarot")), (seed, obs["contract"])
        checked += 1
    assert checked >= 10


def test_tarot_pimc_worlds_follow_the_auction():
    for seed in range(60):
        st = get_game("tarot").new_state(options={"players": 4}, dealer=0, seed=seed)
        h = HeuristicAgent(seed=seed)
        while st.phase != "play" and not st.is_over():
            st.play(h.choose(st, st.to_act))
        if st.phase == "play" and st.to_act != st.taker:
            break
    worlds, fit = PimcAgent(seed=0, worlds=30, auction=True).draw_worlds(st, st.to_act, 3)
    assert fit == 30 and len(worlds) == 30
    model = auction_model(st, st.to_act)
    played = played_by_seat(st.observation(st.to_act), "tarot")
    assert all(model.fits(w, played) for w in worlds)


def test_belote_true_deals_follow_the_auction_on_their_first_five_cards():
    """Belote calls were made on the first 5 cards (BELOTE-DEAL-1/2/3): the model keeps
    a world when a random 5-card subset of each caller's cards (the turned card left
    out) makes its calls, so the true deal is kept when the subset drawn is the real
    one, and worlds kept by pimc make every caller's calls on some 5 of their cards."""
    from itertools import combinations

    from solver.heuristics.belote import choose_take

    for seed in range(40):
        st = get_game("belote").new_state(dealer=0, seed=seed)
        h = HeuristicAgent(seed=seed)
        first5 = list(st.hands)
        while st.phase == "bid":
            st.play(h.choose(st, st.to_act))
        if st.phase == "play" and st.to_act != st.taker:
            break
    seat = st.to_act
    model = auction_model(st, seat)
    assert model is not None and model.dealt_before == dict.fromkeys(model.calls, 5)
    for caller in model.calls:  # the real 5-card hands make the calls
        assert model.fits_hand(caller, first5[caller])
    worlds, fit = PimcAgent(seed=0, worlds=16, auction=True).draw_worlds(st, seat, 5)
    assert fit == 16
    turned = model.not_dealt
    for w in worlds:
        for caller, calls in model.calls.items():
            cards = [c for c in w[caller] if not turned >> c & 1]
            assert any(all(choose_take(obs | {"hand": sum(1 << c for c in sub)}, legal) == mv
                           for obs, legal, mv in calls)
                       for sub in combinations(cards, 5))
