"""The play model in Tarocchini (solver/play_model.py) and pimc's worlds weighted by it
(``infer=EPS``). The model player is the heuristic (solver/heuristics/tarocchini.py);
the rules behind the positions: TAROC-PLAY-3 (follow suit, any card of it; the Matto
always legal), TAROC-PLAY-4 (the trick's winner), OTTO-DEAL-2 / TERZ-BID-2 (the
discarder knows his discard) and OTTO-SIG-1 (a volo is true)."""

import math
import random

import pytest

from solver.constraints import holdings_sampler
from solver.games import get_game
from solver.games import tarocchini as T
from solver.heuristic import HeuristicAgent
from solver.heuristics.tarocchini import play_card
from solver.pimc import PimcAgent
from solver.play_mcmc import PlayChain
from solver.play_model import play_model
from solver.worlds_tarocchini import hidden, world

DECK = T.DECK
SPADES = T.SUIT_MASK_OF[0]


def mask(text: str) -> int:
    return sum(1 << DECK.card(t) for t in text.split())


def rest_as_piles(*used: int) -> list[int]:
    """The cards in no hand nor the pile aside, split into the two sides' piles (a
    position accounts for all 62 cards)."""
    rest = [c for c in range(62) if not any(u >> c & 1 for u in used)]
    return [sum(1 << c for c in rest[::2]), sum(1 << c for c in rest[1::2])]


def queen_on_king_position() -> T.TarocchiniState:
    """Ottocento, 5 cards each, seat 0 leads the KS and seat 1 (an opponent) follows
    with the QS: on a trick it cannot win the heuristic throws its cheapest card of
    the suit (TAROC-PLAY-3: any spade), so the QS says seat 1 held no other spade.
    Seat 2 observes."""
    hands = [mask("KS T5 T6 T7 AB"), mask("QS JB NB 7C 8C"), mask("T8 T9 T10 9C 10C"),
             mask("6S 7S 9B 10B 6D")]
    st = T.TarocchiniState.from_play(hands, leader=0, options={"game": "ottocento"},
                                     piles=rest_as_piles(*hands))
    st.play("KS")
    st.play("QS")
    return st


def test_a_card_the_heuristic_never_plays_makes_the_other_spades_unlikely():
    st = queen_on_king_position()
    eps = 0.05
    model = play_model(st, 2, eps)
    assert [(p.seat, DECK.token(p.card)) for p in model.plays] == [(0, "KS"), (1, "QS")]
    draw = holdings_sampler(st, 2)
    rng = random.Random(1)
    seen = {"other spades": 0, "forced": 0}
    for _ in range(200):
        h = draw(rng)
        hand = sum(1 << c for c in h[1]) | mask("QS")  # seat 1's hand when it played
        n = (hand & SPADES).bit_count()
        lp = model.log_prob(1, hand)
        if n > 1:
            assert lp == pytest.approx(math.log(eps / (n - 1)))
            seen["other spades"] += 1
        else:
            assert lp == 0.0  # the QS was forced
            seen["forced"] += 1
        masks = [sum(1 << c for c in x) for x in h]
        assert model.log_weight(h) == pytest.approx(
            lp + model.term(0, masks))
    assert min(seen.values()) > 5


def discarder_position() -> T.TarocchiniState:
    """Ottocento, 5 cards each, the KS already played. The dealer (seat 3) knows his
    discard (OTTO-DEAL-2, no five-point card): with the QS in it, his NS is the top
    spade left for him and he cashes it (nobody is known to trump spades); with the
    QS unseen, the heuristic leads a low card of a short suit instead. He leads the
    NS; seat 0 observes."""
    hands = [mask("T5 T6 T7 AB 6B"), mask("T8 T9 JB NB 7C"), mask("QS 9C 10C 8C 6C"),
             mask("NS 6S 7S 9B 10B")]
    discard = mask("7D 6D")
    piles = rest_as_piles(*hands, discard)
    st = T.TarocchiniState.from_play(hands, leader=3, dealer=3, discard=discard,
                                     options={"game": "ottocento"}, piles=piles)
    assert st.played >> DECK.card("KS") & 1
    st.play("NS")
    return st


def test_the_discarder_s_model_reads_the_world_s_discard():
    st = discarder_position()
    model = play_model(st, 0, 0.1)
    (p,) = model.plays
    assert p.seat == 3 and p.aside == 4
    hand = mask("NS 6S 7S 9B 10B")
    assert model.choice(0, hand, mask("QS 6D")) == (True, 5)
    assert model.choice(0, hand, mask("7D 6D"))[0] is False
    masks = [0, 0, 0, hand & ~mask("NS"), mask("QS 6D")]
    assert model.term(0, masks) == pytest.approx(math.log(0.9))
    masks[4] = mask("7D 6D")
    assert model.term(0, masks) == pytest.approx(math.log(0.1 / 4))


def _replayed_choices(st, seat, holdings) -> list[bool]:
    """In the world of ``holdings`` (seat ``seat``'s view of ``st``), replayed from the
    deal: for each past card of another seat, does the heuristic play it there?"""
    rec = world(st, seat, holdings).to_record()
    module = get_game("tarocchini")
    w = module.new_state(options=rec.options, dealer=rec.dealer, deal=rec.deal)
    out = []
    for token in rec.moves:
        move = w.parse_move(token)
        if w.phase == "play" and move.kind in ("card", "signal"):
            s = w.to_act
            card = move.value if move.kind == "card" else move.value[0]
            if s != seat:
                legal = [m for m in w.legal_moves() if m.kind == "card"]
                if len(legal) > 1:
                    pick = play_card(w.observation(s), w.legal_moves())
                    got = pick.value if pick.kind == "card" else pick.value[0]
                    out.append(got == card)
                else:
                    out.append(True)
        w.play(token)
    return out


@pytest.mark.parametrize("variant", ["ottocento", "terziglio"])
def test_the_model_is_the_heuristic_in_every_sampled_world(variant):
    """On deals played by the heuristic, the model's pick for each past card of the
    others is the heuristic's own, on the true hands (the discarder's discard
    included) and in sampled worlds replayed from the deal, where the view rebuilt
    from public facts must be the one the heuristic had."""
    module = get_game("tarocchini")
    n = 4 if variant == "ottocento" else 3
    checked = worlds_checked = 0
    for seed in range(2):
        st = module.new_state(options={"game": variant}, seed=seed, dealer=seed % n)
        agents = [HeuristicAgent(s) for s in range(n)]
        while not st.is_over():
            s = st.to_act
            if st.phase == "play" and len(st.tricks) in (4, 9) and len(st.trick) == 1:
                model = play_model(st, s, 0.1)
                c, hits, ll = model.agreement(list(st.hands) + [st.discard | st.stock])
                assert hits == c and ll == pytest.approx(c * math.log(0.9))
                checked += c
                draw = holdings_sampler(st, s)
                rng = random.Random(seed)
                for _ in range(3):
                    h = draw(rng)
                    masks = [sum(1 << x for x in hand) for hand in h]
                    expected = _replayed_choices(st, s, h)
                    got = [model.choice(i, masks[p.seat] | p.later,
                                        0 if p.aside is None else masks[p.aside])
                           for i, p in enumerate(model.plays)]
                    if all(k > 0 for _, k in got):
                        assert [hit for hit, _ in got] == expected
                        worlds_checked += 1
            st.play(agents[s].choose(st, s))
    assert checked > 30 and worlds_checked >= 4


def test_the_chain_keeps_the_discarder_s_terms_current():
    """Metropolis moves through the pile aside change the dealer's likelihood (whether
    the QS is in his discard, above): the chain's running terms must equal the
    likelihood recounted from the holdings, and both cases must be visited."""
    st = discarder_position()
    model = play_model(st, 0, 0.1)
    chain = PlayChain(hidden(st.observation(0)), model)
    rng = random.Random(5)
    where = chain.state_of(holdings_sampler(st, 0)(rng))
    seen = set()
    for _ in range(40):
        where, _ = chain.run(where, 5, rng)
        assert chain.consistent(where)
        masks = chain.masks(where)
        assert chain.seat_ll == {3: pytest.approx(model.term(0, masks))}
        seen.add(bool(masks[4] >> DECK.card("QS") & 1))
    assert seen == {True, False} and chain.accepted > 0


def test_pimc_infer_plays_tarocchini():
    st = queen_on_king_position()
    agent = PimcAgent(seed=2, worlds=8, infer=0.05, pool=4)
    move = agent.choose(st, 2)
    assert move in st.legal_moves()
    assert agent.last_stats["inferred"]["pool"] == 32
    again = PimcAgent(seed=2, worlds=8, infer=0.05, pool=4).choose(st, 2)
    assert again == move  # seeded
