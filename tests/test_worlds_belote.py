"""Belote/Coinche constraints from what a seat knows, and sampled worlds
(determinized play; solver/worlds_belote.py)."""

import random

import pytest

from solver import dd
from solver.constraints import hidden, sample_worlds
from solver.errors import AtoutError
from solver.games import belote, coinche, state_from_record
from solver.games.belote_common import DECK, SA, TA, available_announces

c = DECK.card
H, S = 1, 0


def mask(text):
    return sum(1 << x for x in DECK.parse_cards(text))


def random_play_position(module, options, seed):
    """A random deal stopped at a random point of its card play (None if annulled)."""
    rng = random.Random(seed)
    st = module.new_state(options=options, seed=seed, dealer=seed % 4)
    steps = rng.randint(0, 31)
    k = 0
    while not st.is_over():
        if st.phase == "play":
            if k >= steps:
                return st, rng
            k += 1
        st.play_random(rng)
    return None, rng


def check_truth(st, seat):
    h = hidden(st, seat)
    for holder in range(4):
        for card in DECK.cards(st.hands[holder]):
            if card in h.fixed:
                assert h.fixed[card] == holder
            else:
                assert holder != seat
                assert h.allowed[card] >> holder & 1, (holder, DECK.token(card))
    unknown = [st.hands[i].bit_count() - sum(1 for x in h.fixed.values() if x == i)
               for i in range(4)]
    assert unknown == h.capacities
    return h


CASES = [
    ("belote", {}),
    ("belote", {"announces": True, "second_round_ta_sa": True}),
    ("belote", {"undertrump_required": False, "belote_optional": True}),
    ("coinche", {}),
    ("coinche", {"undertrump_required": False, "ta_must_overtake": False}),
    ("coinche", {"belote_optional": True, "announce_card_reuse": "exclusive"}),
    ("coinche", {"announces": False, "ta_belote": "none"}),
]


@pytest.mark.parametrize("game,options", CASES)
def test_true_deal_always_satisfies_the_constraints(game, options):
    # The strong test: any wrong inference (BELOTE-PLAY-3/4 voids, no trump, no overtrump,
    # COINCHE-PLAY-3 TA overtake, COINCHE-PLAY-4, BELOTE-BR-2, BELOTE-BID-4, BELOTE-ANN-5)
    # eventually forbids a card its true holder has.
    module = {"belote": belote, "coinche": coinche}[game]
    strains, checked, inferred = set(), 0, 0
    for seed in range(220):
        st, _ = random_play_position(module, options, seed)
        if st is None:
            continue
        h = check_truth(st, st.to_act)
        inferred += sum(4 - 1 - bin(m).count("1") for m in h.allowed.values())
        strains.add(st.strain)
        checked += 1
    assert checked > 150 and inferred > 100
    if game == "coinche":
        assert strains == {0, 1, 2, 3, TA, SA}


@pytest.mark.parametrize("game,options", CASES)
def test_worlds_keep_the_observer_view_and_play_out(game, options):
    module = {"belote": belote, "coinche": coinche}[game]
    done = 0
    for seed in range(60):
        st, rng = random_play_position(module, options, 500 + seed)
        if st is None:
            continue
        seat = st.to_act
        worlds = sample_worlds(st, seat, 3, seed)
        again = sample_worlds(st, seat, 3, seed)
        assert [w.hands for w in worlds] == [w.hands for w in again]  # seeded
        obs = st.observation(seat)
        for w in worlds:
            assert w.hands[seat] == st.hands[seat]
            assert w.legal_moves() == st.legal_moves()
            assert w.observation(seat) == obs  # same view: history, shown, belotes, points
            assert [x.bit_count() for x in w.hands] == [x.bit_count() for x in st.hands]
            replay = state_from_record(w.to_record())  # a genuine deal
            assert replay.hands == w.hands
            while not w.is_over():
                w.play_random(rng)
            assert w.result is not None
        done += 1
    assert done > 40


def position(module, hands, strain, taker, leader, options=None, **kw):
    n = len(hands[0].split())
    cls = module.CoincheState if module is coinche else module.BeloteState
    return cls.from_play([mask(x) for x in hands], strain, taker, leader=leader,
                         options=options, tricks_won=(8 - n, 0), **kw)


def allowed(st, seat, token):
    return {s for s in range(4) if hidden(st, seat).allowed[c(token)] >> s & 1}


def test_void_and_no_trump_and_partner_master_exception():
    # BELOTE-PLAY-3: seat 1 discards on the opponent's master AS with no trump → void in
    # spades and no heart (trumps); seat 2 discards on the partner's master AS → void in
    # spades only (BELOTE-PLAY-3.2: partner master, any card — it still holds 8H).
    st = position(coinche, ["AS KS QS", "7C 8C 9C", "7D 8H 9D", "7S 8S JH"], H, 0, 0)
    for t in ("AS", "7C", "7D"):
        st.play(t)
    check_truth(st, 3)
    assert allowed(st, 3, "8H") == {0, 2}  # seat 0 may hold trumps, seat 1 not
    assert allowed(st, 3, "KS") == {0}
    assert allowed(st, 3, "9C") == {0, 1, 2}


def test_no_overtrump_and_undertrump_option():
    # BELOTE-PLAY-3/4: seat 1 trumps 9H over AS; seat 2 cannot overtrump and undertrumps
    # 7H → it has no trump above 9H (JH), lower trumps are possible.
    hands = ["AS KS QS", "9H JH 7C", "7H 8H 9D", "7S 8S AH"]
    st = position(coinche, hands, H, 0, 0)
    for t in ("AS", "9H", "7H"):
        st.play(t)
    check_truth(st, 3)
    assert allowed(st, 3, "JH") == {0, 1}
    assert 2 in allowed(st, 3, "8H")
    # undertrump_required=false: seat 2 may discard 9D instead; that proves no JH only
    st = position(coinche, hands, H, 0, 0, options={"undertrump_required": False})
    for t in ("AS", "9H", "9D"):
        st.play(t)
    check_truth(st, 3)
    assert 2 not in allowed(st, 3, "JH") and 2 in allowed(st, 3, "8H")
    # with the default the same discard proves no trump at all
    st = position(coinche, ["AS KS 8H", "9H JH 7C", "7D 8D 9D", "7S 8S AH"], H, 0, 0)
    for t in ("AS", "9H", "9D"):
        st.play(t)
    check_truth(st, 3)
    assert allowed(st, 3, "8H") == {0, 1} and allowed(st, 3, "JH") == {0, 1}


def test_trump_lead_forces_overtrump_even_over_partner():
    # BELOTE-PLAY-3.1: trump led, seat 2 plays 7H under its partner's 9H → no JH.
    st = position(coinche, ["9H JH QS", "AH 7C 8C", "7H 8D 9D", "7S 8S TH"], H, 0, 0)
    for t in ("9H", "AH", "7H"):
        st.play(t)
    check_truth(st, 3)
    assert allowed(st, 3, "JH") == {0}


def test_ta_must_overtake_inference():
    # COINCHE-PLAY-3 (COINCHE-EX-20 shape): QS led, 9S, seat 2 plays 7S → it has no JS;
    # with ta_must_overtake=false nothing is learnt.
    hands = ["QS KH QH", "9S JS 8D", "AS 7S KD", "TD 8H 9C"]
    st = position(coinche, hands, TA, 0, 0)
    for t in ("QS", "9S", "7S"):
        st.play(t)
    check_truth(st, 3)
    assert allowed(st, 3, "JS") == {0, 1}
    st = position(coinche, hands, TA, 0, 0, options={"ta_must_overtake": False})
    for t in ("QS", "9S", "7S"):
        st.play(t)
    assert allowed(st, 3, "JS") == {0, 1, 2}


def test_sa_void_only():
    # COINCHE-PLAY-4: following low reveals nothing; a discard reveals a void.
    st = position(coinche, ["KS 7H 8H", "7S JS 9D", "7C AD 8C", "AS TS 9H"], SA, 0, 0)
    for t in ("KS", "7S", "7C"):
        st.play(t)
    check_truth(st, 3)
    assert allowed(st, 3, "JS") == {0, 1}


def test_belote_said_and_unsaid():
    # BELOTE-BR-2: a declared belote reveals the other card; by default a K of trumps
    # played without belote proves the Q is elsewhere; with belote_optional nothing.
    st = position(coinche, ["7S 8S 9S", "KH QH 7C", "7D 8D 9D", "AS TS JH"], H, 0, 0)
    for t in ("7S", "KH"):
        st.play(t)
    h = check_truth(st, 3)
    assert h.fixed[c("QH")] == 1
    hands = ["7S 8S 9S", "KH 8C 7C", "QH 8D 9D", "AS TS JH"]
    st = position(coinche, hands, H, 0, 0)
    for t in ("7S", "KH"):
        st.play(t)
    check_truth(st, 3)
    assert 1 not in allowed(st, 3, "QH")
    st = position(coinche, hands, H, 0, 0, options={"belote_optional": True})
    for t in ("7S", "KH"):
        st.play(t)
    assert 1 in allowed(st, 3, "QH")


def test_turned_card_is_the_takers():
    # BELOTE-BID-4: the taker received the turned card; it stays his until played.
    seen = 0
    for seed in range(60):
        st, _ = random_play_position(belote, {}, seed)
        if st is None:
            continue
        seat = st.to_act
        if seat != st.taker and st.hands[st.taker] >> st.turned & 1:
            assert hidden(st, seat).fixed[st.turned] == st.taker
            seen += 1
    assert seen > 10


def test_heard_announces_shape_every_world():
    # BELOTE-ANN-5: during trick 1 only the type is heard; a carré names its cards; after
    # trick 1 the best team's cards are shown. Every world realises what was heard.
    # BELOTE-ANN-6/7: once compared, the losing team's hidden sequences rank below the
    # winner's best, so every world keeps the same announce winner
    found = {"seq": 0, "carre": 0, "shown": 0, "beaten": 0}
    for seed in range(1500):
        rng = random.Random(seed)
        st = coinche.new_state(seed=seed)
        while not st.is_over() and st.phase != "play":
            st.play_random(rng)
        if st.is_over():
            continue
        stop = rng.randint(1, 8)
        while not st.is_over():
            moves = st.legal_moves()
            ann = [m for m in moves if m.kind == "announce"]
            st.play(ann[0] if ann else rng.choice(moves))
            if sum(1 for m in st.history if m.kind == "card") >= stop:
                break
        if st.is_over() or not st.announces:
            continue
        seat = st.to_act
        obs = st.observation(seat)
        others = [a for a in st.announces if a.seat != seat]
        if not others:
            continue
        h = check_truth(st, seat)
        for a in others:
            if a.kind == "carre":
                found["carre"] += 1
                for x in DECK.cards(a.cards & st.hands[a.seat]):
                    assert h.fixed[x] == a.seat
            elif a.seat in obs["shown"]:
                found["shown"] += 1
                for x in DECK.cards(a.cards & st.hands[a.seat]):
                    assert h.fixed[x] == a.seat
            else:
                found["seq"] += 1
                if obs["announce_team"] is not None:
                    found["beaten"] += 1
        for w in sample_worlds(st, seat, 3, seed):
            assert w.observation(seat)["announces"] == obs["announces"]
            assert w.observation(seat)["announce_team"] == obs["announce_team"]
            for a in w.announces:
                held = available_announces(w.start_hands[a.seat], 0, 0, False)
                assert any(k == a.kind for k, *_ in held)
        if min(found.values()) >= 3:
            break
    assert min(found.values()) >= 3, found


def test_from_play_position_world_is_patched_consistently():
    # a position without a deal record: hands, snapshots and pending belotes replaced
    hands = ["AS KS QS 7D", "9H JH 7C KH", "7H 8H 9D QH", "7S 8S AH 8D"]
    st = position(coinche, hands, H, 0, 0)
    for t in ("AS", "9H", "7H", "7S"):
        st.play(t)
    seat = st.to_act
    for w in sample_worlds(st, seat, 5, 3):
        assert w.hands[seat] == st.hands[seat]
        assert w.observation(seat) == st.observation(seat)
        assert w.legal_moves() == st.legal_moves()
        for _ in range(4):
            w.undo()
        assert [x.bit_count() for x in w.hands] == [4, 4, 4, 4]
        assert w.hands[seat] == st.start_hands[seat]
        assert w.hands == w.start_hands
        assert sum(w.hands) == sum(st.start_hands)
        pend = {p for p in w.belote_pending}
        assert pend == {(s, H) for s in range(4)
                        if w.hands[s] & mask("KH QH") == mask("KH QH")}


def test_no_worlds_outside_the_card_play():
    st = coinche.new_state(seed=1)
    with pytest.raises(AtoutError, match="card play"):
        hidden(st, 0)


def test_side_of_matches_the_dd_value_and_contract_made():
    # pimc.seat_sign: side_of(seat) == 1 for the side whose points dd maximises (attack)
    st = position(coinche, ["JH", "7S", "8S", "9S"], H, 1, 0, value=80)
    assert [st.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    r = dd.solve(st)
    st.play("JH")
    for t in ("7S", "8S", "9S"):
        st.play(t)
    assert r.value == st.card_points_final()[st.attack] == 0  # JH (defence) wins
    assert st.contract_made() is False
    st = coinche.new_state(seed=3)
    rng = random.Random(2)
    assert st.contract_made() is None
    while not st.is_over():
        st.play_random(rng)
    assert st.contract_made() in (None, True, False)
    assert (st.contract_made() is None) == st.annulled


def test_from_play_worlds_with_announces_replay_and_undo():
    # 8-card from_play positions with announces in trick 1 (BELOTE-ANN-5): the patched
    # world keeps the seat's view and legal moves, and undoes back to four 8-card hands
    checked = 0
    for seed in range(60):
        rng = random.Random(seed)
        perm = list(range(32))
        rng.shuffle(perm)
        hands = [sum(1 << x for x in perm[8 * i:8 * i + 8]) for i in range(4)]
        st = coinche.CoincheState.from_play(hands, rng.randrange(6), rng.randrange(4),
                                            leader=rng.randrange(4))
        stop = rng.randint(1, 12)
        while not st.is_over() and len(st.history) < stop:
            moves = st.legal_moves()
            ann = [m for m in moves if m.kind == "announce"]
            st.play(ann[0] if ann and rng.random() < 0.8 else rng.choice(moves))
        seat = st.to_act
        obs = st.observation(seat)
        for w in sample_worlds(st, seat, 2, seed):
            assert w.observation(seat) == obs
            assert w.legal_moves() == st.legal_moves()
            while not w.is_over():
                w.play_random(rng)
            for _ in range(len(w.history)):
                w.undo()
            assert sum(w.hands) == (1 << 32) - 1
            assert all(x.bit_count() == 8 for x in w.hands)
            assert w.hands[seat] == hands[seat]
        checked += 1
    assert checked > 50


def test_the_run_prefilter_is_what_the_runs_say():
    """BELOTE-ANN-2: the sampler's cheap check (``worlds_belote._has_runs``) holds
    exactly when the hand has a maximal run at least as long as the sequence heard, so
    it rejects no hand ``_announce_plan`` would accept."""
    import random

    from solver.games.belote_common import SEQ_NAMES, sequence_runs
    from solver.worlds_belote import _has_runs

    rng = random.Random(7)
    for _ in range(5000):
        hand = sum(1 << c for c in rng.sample(range(32), rng.randint(3, 8)))
        longest = max((t - b + 1 for t, b in sequence_runs(hand)), default=0)
        for n, kind in SEQ_NAMES.items():
            assert _has_runs(hand, [(kind, None)]) == (longest >= n)
            assert _has_runs(hand, [("carre", 3), (kind, None)]) == (longest >= n)
        assert _has_runs(hand, [("carre", 5)])


def test_heard_sequence_worlds_are_uniform_over_the_consistent_deals():
    # BELOTE-ANN-5: a tierce heard by its type alone. The sampler draws from the union of
    # "the seat holds this run" (Karp-Luby) before the full check: every consistent deal
    # comes out, no other, each about equally often -- the one deal holding both runs
    # too (drawn through either run, it is kept half the time)
    from collections import Counter

    from solver.worlds_belote import BeloteHidden

    unknown = DECK.parse_cards("7S 8S 9S 7H 8H 9H JD QD KC AC")
    allowed = {x: 0b0110 for x in unknown}           # seats 1 and 2 hold them: 6 + 4
    h = BeloteHidden(["seat0", "seat1", "seat2", "seat3"], {}, allowed, [0, 6, 4, 0],
                     [0, 0, 0, 0], {1: [("tierce", None)]})
    sampler = h.sampler()
    assert len(sampler.parts) == 2                    # 789 of spades, of hearts
    consistent = {tuple(map(tuple, d)) for d in sampler.deals()}
    assert len(consistent) == 69                      # 35 + 35 - the one with both
    both = tuple(sorted(DECK.parse_cards("7S 8S 9S 7H 8H 9H")))
    draws = Counter(tuple(map(tuple, d)) for d in sampler.samples(12000, seed=3))
    assert set(draws) == consistent
    mean = 12000 / len(consistent)
    chi2 = sum((k - mean) ** 2 / mean for k in draws.values())
    assert chi2 < 120, chi2                           # 68 degrees of freedom: mean 68, sd 12
    double = [k for d, k in draws.items() if d[1] == both]
    assert len(double) == 1 and abs(double[0] - mean) < 0.4 * mean, (double, mean)


def test_two_seats_heard_sequences_worlds_are_uniform():
    # BELOTE-ANN-5: two seats heard a tierce each; the draws come from the combinations
    # of one run per seat: every consistent deal, no other, about equally often
    from collections import Counter

    from solver.worlds_belote import BeloteHidden

    unknown = DECK.parse_cards("7S 8S 9S 7H 8H 9H JD QD KC AC")
    allowed = {x: 0b0110 for x in unknown}
    h = BeloteHidden(["seat0", "seat1", "seat2", "seat3"], {}, allowed, [0, 5, 5, 0],
                     [0, 0, 0, 0], {1: [("tierce", None)], 2: [("tierce", None)]})
    sampler = h.sampler()
    assert sorted(sampler.runs) == [1, 2] and len(sampler.parts) == 2   # (S, H), (H, S)
    consistent = {tuple(map(tuple, d)) for d in sampler.deals()}
    assert len(consistent) == 12                      # 2 ways to place the runs x C(4, 2)
    draws = Counter(tuple(map(tuple, d)) for d in sampler.samples(6000, seed=4))
    assert set(draws) == consistent
    mean = 6000 / len(consistent)
    chi2 = sum((k - mean) ** 2 / mean for k in draws.values())
    assert chi2 < 40, chi2                            # 11 degrees of freedom
