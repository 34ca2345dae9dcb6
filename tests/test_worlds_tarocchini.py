"""Tarocchini worlds: constraints from a seat's observation, and sampled worlds.

The strong test: on random positions of both variants (and option mixes), the true deal
satisfies every constraint derived for every seat. Then one position per inference,
and the worlds themselves: observer's hand and legal moves kept, full playouts,
replayable records, reproducibility.
"""

from __future__ import annotations

import random

import pytest

from solver.cards import TAROCCHINI_DECK as D
from solver.constraints import hidden, sample_worlds
from solver.errors import AtoutError
from solver.games import state_from_record
from solver.games import tarocchini as T
from solver.notation import Deal
from solver.worlds_tarocchini import world

TRUMPS = T.SUIT_MASK_OF[T.TRUMP]
SPADES = T.SUIT_MASK_OF[0]


def c(tok: str) -> int:
    return D.card(tok)


def m(text: str) -> int:
    return D.mask(D.parse_cards(text))


def fill(n: int, size: int, fixed: dict[int, str], aside: str = "", aside_size: int = 2,
         exclude: dict[int, int] | None = None) -> tuple[list[int], int]:
    """Hands of ``size`` cards and the pile aside (holder ``n``): the fixed cards, the
    rest in deck order, never giving a holder a card of ``exclude[holder]`` (the pile
    aside gets no five-point card unless told otherwise)."""
    excl = {n: T.FIVE_POINT_MASK, **(exclude or {})}
    want = [size] * n + [aside_size]
    got = [D.parse_cards(fixed.get(s, "")) for s in range(n)] + [D.parse_cards(aside)]
    used = {x for h in got for x in h}
    pool = [x for x in range(62) if x not in used]
    for h in sorted(range(n + 1), key=lambda h: -excl.get(h, 0).bit_count()):
        for x in list(pool):
            if len(got[h]) >= want[h]:
                break
            if not excl.get(h, 0) >> x & 1:
                got[h].append(x)
                pool.remove(x)
        assert len(got[h]) == want[h], h
    return [D.mask(h) for h in got[:n]], D.mask(got[n])


def ottocento_play(fixed: dict[int, str], discard: str = "", exclude: dict | None = None,
                   options: dict | None = None) -> T.TarocchiniState:
    """An Ottocento play position from the first trick; dealer 3, eldest 0 leads."""
    hands, disc = fill(4, 15, fixed, discard, 2, exclude)
    return T.TarocchiniState.from_play(hands, 0, options, dealer=3, discard=disc)


def allowed_for(h, card: str) -> set[int]:
    x = c(card)
    if x in h.fixed:
        return {h.fixed[x]}
    return {i for i in range(len(h.holders)) if h.allowed[x] >> i & 1}


def random_position(variant: str, seed: int, options: dict | None = None,
                    max_steps: int = 90):
    """A random state in the declarations or the card play (None if the deal ended)."""
    rng = random.Random(seed)
    opts = {"game": variant, **(options or {})}
    n = 4 if variant == "ottocento" else 3
    st = T.new_state(opts, dealer=seed % n, seed=seed)
    steps = rng.randint(0, max_steps)
    k = 0
    while not st.is_over():
        if st.phase in ("declare", "play") and k >= steps:
            return st
        st.play_random(rng)
        k += 1
    return None


def true_holdings(st) -> list[int]:
    aside = st.stock if st.variant == "terziglio" and st.contract == "solo" else st.discard
    return list(st.hands) + [aside]


OPTION_MIXES = [
    {},
    {"declarations": "none_or_max", "signals": "after_top_card"},
    {"contatore_multi_use": False, "max_contatori_per_suit_sequence": 1,
     "declarations": "none_or_max"},
]


@pytest.mark.parametrize("variant", ["ottocento", "terziglio"])
@pytest.mark.parametrize("mix", range(len(OPTION_MIXES)))
def test_true_deal_always_satisfies_the_constraints(variant, mix):
    """TAROC-PLAY-3 voids, OTTO-SIG-1 volo, TAROC-DECL-1/3 declared cards, OTTO-DEAL-2 and
    TERZ-BID-2/3 pile aside: the real cards are always where the constraints allow."""
    opts = dict(OPTION_MIXES[mix])
    if variant == "terziglio" and mix == 1:
        opts["terziglio_deal"] = "19+5"
    if variant == "ottocento" and mix == 2:
        opts["monte"] = "after_5_and_10"
    checked = 0
    inferred = 0
    for seed in range(70):
        st = random_position(variant, seed, opts)
        if st is None:
            continue
        truth = true_holdings(st)
        for seat in range(st.n):
            h = hidden(st, seat)
            for holder, mask in enumerate(truth):
                for card in range(62):
                    if not mask >> card & 1:
                        continue
                    if card in h.fixed:
                        assert h.fixed[card] == holder, (seed, seat, card)
                    else:
                        assert h.allowed[card] >> holder & 1, (seed, seat, holder, card)
                        assert holder != seat
            unknown = [mk.bit_count() - sum(1 for x in h.fixed.values() if x == i)
                       for i, mk in enumerate(truth)]
            assert unknown == h.capacities
            assert h.sampler().count() >= 1
            full = (1 << len(truth)) - 1 & ~(1 << seat)
            inferred += sum(1 for a in h.allowed.values() if a != full)
            checked += 1
    assert checked > 100
    assert inferred > 0  # the positions do carry inferences


def test_void_and_no_trump_from_not_following():
    """TAROC-PLAY-3: seat 1 neither follows spades nor trumps → no spade, no trump;
    seat 2 trumps → no spade, but any trump (TAROC-EX-4); the leader: nothing."""
    st = ottocento_play({0: "7S KB", 1: "8D QB", 2: "T9 KC", 3: "9S T16"},
                        exclude={1: SPADES | TRUMPS, 2: SPADES})
    st.play("7S")
    st.play("8D")
    st.play("T9")
    h = hidden(st, 3)
    assert allowed_for(h, "QS") == {0, 4}  # not seat 1 (void), not 2 (void), not 3 (me)
    assert allowed_for(h, "KS") == {0}  # and a King is never in the discard (OTTO-DEAL-2)
    unseen_trumps = [x for x in h.allowed if TRUMPS >> x & 1]
    assert unseen_trumps
    for x in unseen_trumps:
        assert not h.allowed[x] >> 1 & 1 and h.allowed[x] >> 2 & 1


def test_no_overtrump_inference():
    """TAROC-PLAY-3 / TAROC-EX-4: trumping under an earlier trump proves nothing about
    higher trumps (unlike French Tarot)."""
    st = ottocento_play({0: "7S", 1: "T12", 2: "T9", 3: "8S"},
                        exclude={1: SPADES, 2: SPADES, 3: TRUMPS})
    for tok in ("7S", "T12", "T9"):
        st.play(tok)
    h = hidden(st, 3)
    higher = [x for x in h.allowed if TRUMPS >> x & 1 and T.POWER[x] > T.POWER[c("T12")]]
    assert higher
    for x in higher:
        assert h.allowed[x] >> 2 & 1


def test_trumps_led_and_not_trumping():
    """TAROC-PLAY-3 rule 3: trumps led, a seat playing a plain card has no trump."""
    st = ottocento_play({0: "T10", 1: "KD", 2: "T5"}, exclude={1: TRUMPS})
    st.play("T10")
    st.play("KD")
    h = hidden(st, 2)
    unseen = [x for x in h.allowed if TRUMPS >> x & 1]
    assert unseen and all(not h.allowed[x] >> 1 & 1 for x in unseen)
    assert all(h.allowed[x] >> 1 & 1 for x in h.allowed if x < 40)


def test_matto_reveals_nothing():
    """TAROC-MATTO-1: the Matto may replace any card, so playing it shows no void; and
    when it is led, the next card is free and defines the suit (TAROC-PLAY-2)."""
    st = ottocento_play({0: "7S", 1: "MAT", 2: "8S"}, exclude={1: SPADES | TRUMPS})
    st.play("7S")
    st.play("MAT")
    h = hidden(st, 2)
    assert all(h.allowed[x] >> 1 & 1 for x in h.allowed)  # seat 1: no inference at all
    st = ottocento_play({0: "MAT", 1: "7S", 2: "8D", 3: "9C"},
                        exclude={2: SPADES | TRUMPS})
    st.play("MAT")
    st.play("7S")  # defines spades, seat 1 was free
    st.play("8D")  # seat 2: no spade, no trump
    h = hidden(st, 3)
    assert all(h.allowed[x] >> 1 & 1 for x in h.allowed)  # seat 1 was free
    assert 2 not in allowed_for(h, "KS")
    assert any(TRUMPS >> x & 1 for x in h.allowed)
    for x in h.allowed:
        assert bool(h.allowed[x] >> 2 & 1) == (x >= 10 and x < 40)  # no spade, no trump


def test_volo_signal_is_a_void_other_signals_are_not():
    """OTTO-SIG-1: volo is allowed only when true → its leader has no more of the suit;
    striscio and busso are requests and locate nothing."""
    st = ottocento_play({0: "7S KB 8B", 1: "8S", 2: "9S", 3: "10S"}, exclude={0: SPADES})
    st.play("7S:volo")
    h = hidden(st, 1)
    assert 0 not in allowed_for(h, "KS") and 0 in allowed_for(h, "KB")
    st = ottocento_play({0: "7S 6S KB", 1: "8S", 2: "9S", 3: "10S"}, exclude={1: SPADES})
    st.play("7S:busso")
    st.play("8S:striscio")
    h = hidden(st, 2)
    assert 0 in allowed_for(h, "KS") and 1 in allowed_for(h, "KS")


def _declared_ottocento(options: dict | None = None) -> T.TarocchiniState:
    """Seat 0 holds the four Kings and swords K Q N, nothing else that melds; dealer 3
    takes 6S 7S and discards them; the declarations start."""
    melds = m("AS 8S 9S 10S JS AB AC AD JB JC JD QB QC QD NB NC ND") | TRUMPS | T.MAT_BIT
    hands, talon = fill(4, 15, {0: "KS KB KC KD QS NS", 1: "AS", 2: "MAT", 3: "ANG"},
                        "6S 7S", 2, {0: melds})
    deal = Deal([D.parse_cards(D.format_cards(h)) for h in hands],
                {"talon": D.parse_cards("6S 7S")})
    st = T.new_state({"monte": "off", **(options or {})}, dealer=3, deal=deal)
    st.play("discard:6S")
    st.play("discard:7S")
    return st


def test_declared_cards_are_located_partial_declarations_locate_nothing_else():
    """TAROC-DECL-1: declared cards are shown (located until played); TAROC-DECL-2:
    declaring three of four Kings says nothing of the fourth."""
    st = _declared_ottocento()
    st.play("decl:kings:KS+KB+KC")
    st.play("decl:done")
    for _ in range(3):
        st.play("decl:done")
    h = hidden(st, 1)
    assert h.fixed[c("KS")] == 0 and h.fixed[c("KC")] == 0
    assert 0 in allowed_for(h, "KD") and 0 in allowed_for(h, "QS")
    # once played, a declared card is no longer located anywhere
    st.play("KS")
    h = hidden(st, 1)
    assert c("KS") not in h.fixed and c("KS") not in h.allowed and h.fixed[c("KB")] == 0


def test_maximal_declaration_limits_the_hand():
    """TAROC-DECL-3 ``none_or_max``: a declaration is the best set of the hand, so a card
    that would have raised it (the fourth King, the QS of the swords sequence...) is not
    held; a seat that declared nothing may hold anything."""
    st = _declared_ottocento({"declarations": "none_or_max"})
    st.play("decl:max")  # seat 0: all four Kings, swords K Q N
    for _ in range(3):
        st.play("decl:done")
    assert st.declared[0]
    h = hidden(st, 1)
    assert h.fixed[c("KD")] == 0
    # JS would lengthen the swords sequence K Q N → not with seat 0
    assert 0 not in allowed_for(h, "JS")
    # BAG (a contatore) would lengthen the swords sequence too
    assert 0 not in allowed_for(h, "BAG")
    # a low card unrelated to any combination may be there
    assert 0 in allowed_for(h, "8C")
    # seat 2 declared nothing (optional): the Matto's holder is unconstrained by that
    assert 2 in allowed_for(h, "MAT") and all(h.allowed[x] >> 2 & 1 for x in h.allowed)


def test_ottocento_discard_known_only_to_the_dealer():
    """OTTO-DEAL-2: the dealer knows his discard; for the others it is 2 cards that are
    not five-point cards."""
    st = ottocento_play({}, discard="6S 7S")
    hd = hidden(st, 3)
    assert hd.fixed[c("6S")] == 4 and hd.fixed[c("7S")] == 4 and hd.capacities[4] == 0
    h = hidden(st, 0)
    assert h.capacities == [0, 15, 15, 15, 2]
    for five in ("KS", "KD", "ANG", "MON", "BAG", "MAT"):
        if c(five) not in h.fixed:
            assert 4 not in allowed_for(h, five)
    low = [x for x in h.allowed if not T.FIVE_POINT_MASK >> x & 1]
    assert low and any(TRUMPS >> x & 1 for x in low)  # other trumps may be discarded
    assert all(h.allowed[x] >> 4 & 1 for x in low)


def _terziglio(contract: str):
    hands, aside = fill(3, 18, {}, "", 8)
    if contract == "gioco":
        # pile aside = the declarer's discard: scartini only
        cards = [x for x in range(62) if (aside | hands[0]) >> x & 1]
        low = [x for x in cards if not T.FIVE_POINT_MASK >> x & 1][:8]
        aside = sum(1 << x for x in low)
        hands[0] = sum(1 << x for x in cards if x not in low)
        return T.TarocchiniState.from_play(hands, 1, {"game": "terziglio"}, declarer=0,
                                           contract="gioco", discard=aside, dealer=0)
    return T.TarocchiniState.from_play(hands, 1, {"game": "terziglio"}, declarer=0,
                                       contract="solo", stock=aside, dealer=0)


def test_terziglio_gioco_discard_and_solo_stock():
    """TERZ-BID-2: the gioco discard is the declarer's secret and holds no five-point
    card; TERZ-BID-3: the solo stock is unseen by everybody and may hold any card."""
    st = _terziglio("gioco")
    hd = hidden(st, 0)
    assert all(hd.fixed[x] == 3 for x in range(62) if st.discard >> x & 1)
    ho = hidden(st, 1)
    assert ho.holders[3] == "discard" and ho.capacities == [18, 0, 18, 8]
    for five in ("KS", "ANG", "MAT", "BAG"):
        if c(five) not in ho.fixed:
            assert 3 not in allowed_for(ho, five)
    st = _terziglio("solo")
    for seat in range(3):
        h = hidden(st, seat)
        assert h.holders[3] == "stock" and h.capacities[3] == 8
        assert not any(x == 3 for x in h.fixed.values())
        five = next(x for x in range(62) if T.FIVE_POINT_MASK >> x & 1 and x in h.allowed)
        assert h.allowed[five] >> 3 & 1


def test_hand_sizes_mid_trick():
    """OTTO-PLAY-1: seats that played to the trick in progress hold one card fewer."""
    st = ottocento_play({})
    st.play(st.legal_moves()[0])
    st.play(st.legal_moves()[0])
    h = hidden(st, 2)
    assert h.capacities[:4] == [14, 14, 0, 15]


def test_unaccounted_cards_and_wrong_phase_are_errors():
    hands, aside = fill(4, 3, {}, "", 50)
    st = T.TarocchiniState.from_play(hands, 0, discard=aside & -aside)
    with pytest.raises(AtoutError, match="62 cards"):
        hidden(st, 0)
    st = T.new_state(seed=1)
    with pytest.raises(AtoutError, match="phase"):
        hidden(st, 0)


# --- the worlds -----------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["ottocento", "terziglio"])
def test_worlds_keep_what_the_seat_knows_and_play_out(variant):
    rng = random.Random(5)
    done = 0
    for seed in range(40):
        st = random_position(variant, seed)
        if st is None:
            continue
        seat = st.to_act
        obs = st.observation(seat)
        worlds = sample_worlds(st, seat, 4, seed=seed)
        differ = False
        for w in worlds:
            assert w.hands[seat] == st.hands[seat]
            assert w.legal_moves() == st.legal_moves()
            assert w.observation(seat) == obs  # nothing the seat knows has changed
            differ |= w.hands != st.hands
            # the record of a world replays to the world (no trace of the true deal)
            again = state_from_record(w.to_record())
            assert again.hands == w.hands and again.discard == w.discard
            assert again.stock == w.stock and again.piles == w.piles
            while not w.is_over():
                w.play_random(rng)
            assert len(w.scores()) == st.n
        assert st.hands == true_holdings(st)[:st.n]  # the state itself is untouched
        done += 1
        assert differ or hidden(st, seat).sampler().count() == 1
    assert done > 20


def test_world_replaces_the_hidden_parts_of_the_deal():
    """The dealer's discard and the others' packets in a world come from the draw."""
    st = random_position("ottocento", 3, {"monte": "after_5_and_10"}, max_steps=20)
    seat = (st.dealer + 1) % 4
    h = hidden(st, seat)
    holdings = [list(x) for x in h.sampler().sample(random.Random(0))]
    for card, holder in h.fixed.items():
        holdings[holder].append(card)
    w = world(st, seat, holdings)
    assert w.discard == sum(1 << x for x in holdings[4])
    discards = [mv.value for mv in w.history if mv.kind == "discard"]
    assert sorted(discards) == sorted(holdings[4])
    for k in range(len(w.monte_masks)):
        assert w.monte_masks[k][seat] == st.monte_masks[k][seat]
        for s in range(4):
            assert w.monte_masks[k][s] & ~(w.hands[s] | _played_by(w, s) | w.discard) == 0


def _played_by(st, seat: int) -> int:
    out = 0
    for t in [t for t, _ in st.tricks] + [st.trick]:
        out |= sum(1 << x for s, x in t if s == seat)
    return out


def test_same_seed_same_worlds():
    st = random_position("terziglio", 7, max_steps=30)
    seat = st.to_act
    a = sample_worlds(st, seat, 5, seed=42)
    b = sample_worlds(st, seat, 5, seed=42)
    other = sample_worlds(st, seat, 5, seed=43)
    assert [w.hands for w in a] == [w.hands for w in b]
    assert [w.stock | w.discard for w in a] == [w.stock | w.discard for w in b]
    assert [w.hands for w in a] != [w.hands for w in other]


def test_sampling_is_uniform_on_a_small_endgame():
    """A 2-card endgame with the rest captured: the 8 unseen cards are spread uniformly
    over the 3 other hands and the discard (2 each, 8!/2^4 = 2520 deals)."""
    five = T.FIVE_POINT_MASK
    hands, disc = fill(4, 2, {}, "", 2, {1: five, 2: five, 3: five})
    rest = ((1 << 62) - 1) & ~disc & ~sum(hands)
    st = T.TarocchiniState.from_play(hands, 0, dealer=3, discard=disc, piles=[rest, 0],
                                     tricks_won=[13, 0])
    h = hidden(st, 0)
    sampler = h.sampler()
    assert sampler.count() == 2520
    card = next(x for x in h.allowed)
    counts = [0] * 5
    rng = random.Random(1)
    for _ in range(4000):
        for holder, cards in enumerate(sampler.sample(rng)):
            if card in cards:
                counts[holder] += 1
    assert counts[0] == 0 and all(800 <= k <= 1200 for k in counts[1:])


def test_pimc_side_convention_and_endgame():
    """PIMC on Tarocchini: side 1 (Ottocento team B, the Terziglio opponents) maximises
    the DD value, so the declarer's sign is -1; an endgame decision uses every world."""
    from solver.heuristic import HeuristicAgent
    from solver.pimc import seat_sign

    st = random_position("terziglio", 4, max_steps=0)
    while st.phase != "play":
        st.play_random(random.Random(0))
    assert [seat_sign(st, s) for s in range(3)] == [-1 if s == st.declarer else 1
                                                   for s in range(3)]
    assert seat_sign(random_position("ottocento", 1), 1) == 1
    pytest.importorskip("solver.tarocchini_core")
    pimc = pytest.importorskip("solver.pimc")
    helper = HeuristicAgent(0)
    while st.hands[st.to_act].bit_count() > 3 \
            or sum(mv.kind == "card" for mv in st.legal_moves()) < 2:
        st.play(helper.choose(st, st.to_act))
    agent = pimc.PimcAgent(seed=1, worlds=6)
    move = agent.choose(st, st.to_act)
    assert move in st.legal_moves()
    if move.kind == "card":
        assert agent.last_stats["worlds"] == 6
