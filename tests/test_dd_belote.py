"""Exact double-dummy search for Belote and Coinche (solver.dd.belote).

The reference is a plain memoised minimax written here on the pure-Python rules
(legal_cards / trick_winner / card_points of solver.games.belote_common): simple and
obviously right, exponential, so it is run on endgames (3-5 tricks left).  The
objective is the attack's final card points with dix de der (BELOTE-SCORE-1) and
capot_points for a capot (BELOTE-SCORE-4, COINCHE-CARD-5).
"""

from __future__ import annotations

import itertools
import random
from functools import cache

import pytest

from solver.cards import BELOTE_DECK as DECK
from solver.core import belote as cb
from solver.dd import belote as dd
from solver.errors import DealError, OptionError
from solver.games import belote as belote_game
from solver.games import coinche as coinche_game
from solver.games.base import Move
from solver.games.belote_common import card_points, legal_cards, trick_winner

TA, SA = 4, 5


def brute_force(strain: int, taker: int, undertrump: bool = True, overtake: bool = True,
                capot: int = 252):
    """value(hands, trick, leader, attack_points, attack_all) by exhaustive minimax."""
    attack = taker % 2

    @cache
    def value(hands: tuple, trick: tuple, leader: int, ap: int, attack_all: bool) -> int:
        seat = (leader + len(trick)) % 4
        played = [((leader + i) % 4, c) for i, c in enumerate(trick)]
        legal = legal_cards(hands[seat], played, strain, undertrump, overtake)
        results = []
        for c in range(32):
            if not legal >> c & 1:
                continue
            h = list(hands)
            h[seat] &= ~(1 << c)
            h = tuple(h)
            if len(trick) < 3:
                results.append(value(h, trick + (c,), leader, ap, attack_all))
                continue
            full = played + [(seat, c)]
            w = trick_winner(full, strain)
            pts = sum(card_points(x, strain) for _, x in full)
            last = not any(h)
            if w % 2 == attack:
                nap, nall = ap + pts + (10 if last else 0), attack_all
            else:
                nap, nall = ap, False
            if last:
                results.append(capot if nall else nap)
            else:
                results.append(value(h, (), w, nap, nall))
        return max(results) if seat % 2 == attack else min(results)

    return value


def brute_generale(strain: int, taker: int):
    """gen(hands, trick, leader): can the taker alone win every remaining trick?"""

    @cache
    def gen(hands: tuple, trick: tuple, leader: int) -> bool:
        seat = (leader + len(trick)) % 4
        played = [((leader + i) % 4, c) for i, c in enumerate(trick)]
        legal = legal_cards(hands[seat], played, strain)
        res = []
        for c in range(32):
            if not legal >> c & 1:
                continue
            h = list(hands)
            h[seat] &= ~(1 << c)
            h = tuple(h)
            if len(trick) < 3:
                res.append(gen(h, trick + (c,), leader))
                continue
            w = trick_winner(played + [(seat, c)], strain)
            res.append(w == taker and (not any(h) or gen(h, (), w)))
        return any(res) if seat % 2 == taker % 2 else all(res)

    return gen


def brute_of_state(value, st) -> int:
    a = st.attack
    return value(tuple(st.hands), tuple(c for _, c in st.trick), st.leader, st.points[a],
                 st.tricks_won[1 - a] == 0)


VARIANTS = {
    "belote": [(s, {"undertrump_required": u, "capot_points": cap})
               for s in range(4) for u in (True, False) for cap in (252, 250)]
    + [(s, {"second_round_ta_sa": True}) for s in (TA, SA)],
    "coinche": [(s, {"undertrump_required": u, "ta_must_overtake": o, "announces": False})
                for s in range(6) for u in (True, False) for o in (True, False)],
}
MODULES = {"belote": belote_game, "coinche": coinche_game}


def endgame_state(game: str, tricks_left: int, rng: random.Random):
    """A random play-phase state with ``tricks_left`` tricks to play; half of them
    with the attack having won every earlier trick (capot still possible)."""
    strain, opts = rng.choice(VARIANTS[game])
    perm = list(range(32))
    rng.shuffle(perm)
    k = tricks_left
    hands = [sum(1 << c for c in perm[k * i:k * i + k]) for i in range(4)]
    played = perm[4 * k:]
    taker = rng.randrange(4)
    done = 8 - k
    played_pts = sum(card_points(c, strain) for c in played)
    if rng.random() < 0.5:
        points, won = (played_pts, 0), (done, 0)  # attack won everything so far
    else:
        a_tricks = rng.randrange(done)
        a_pts = rng.randrange(played_pts + 1) if a_tricks else 0
        points, won = (a_pts, played_pts - a_pts), (a_tricks, done - a_tricks)
    attack = taker % 2
    if attack == 1:
        points, won = points[::-1], won[::-1]
    mod = MODULES[game]
    cls = mod.BeloteState if game == "belote" else mod.CoincheState
    st = cls.from_play(hands, strain, taker, dealer=rng.randrange(4), options=opts,
                       leader=rng.randrange(4), points=points, tricks_won=won)
    return st


def play_random_card(st, rng: random.Random) -> None:
    moves = [mv for mv in st.legal_moves() if mv.kind == "card"]
    st.play(rng.choice(moves))


def check_against_brute(game: str, roots: list[tuple[int, int]], seed: int) -> dict:
    """For each (tricks_left, count) root batch: solve the root, every legal card, and
    the positions along a random line down to 3 tricks left, against brute force."""
    rng = random.Random(seed)
    stats = {"positions": 0, "capot": 0, "cards": 0}
    for tricks_left, count in roots:
        for _ in range(count):
            st = endgame_state(game, tricks_left, rng)
            rules = cb.rules_of_state(st)
            value = brute_force(st.strain, st.taker, rules.undertrump_required,
                                rules.ta_must_overtake, rules.capot_points)
            while True:
                res = dd.solve(st)
                expect = brute_of_state(value, st)
                assert res.complete and res.value == expect, (game, st.strain, res, expect)
                assert res.lower == res.upper == expect
                stats["positions"] += 1
                stats["capot"] += res.capot
                # every legal card, and consistency with the position's value
                per_card = dd.solve_cards(st)
                vals = []
                for mv, r in per_card.items():
                    st.play(mv)
                    assert r.value == brute_of_state(value, st), (game, mv, r)
                    st.undo()
                    vals.append(r.value)
                    stats["cards"] += 1
                pick = max if st.to_act % 2 == st.attack else min
                assert pick(vals) == res.value
                # walk down a random line while at least 3 tricks remain
                play_random_card(st, rng)
                if 8 - len(st.tricks) - sum(st.tricks_won) + len(st.tricks) < 3 \
                        or st.hands[st.to_act].bit_count() + (1 if st.trick else 0) < 3:
                    break
    return stats


# The brute force is the cost (7-10 s CPU per game for the full size): the default run
# takes half the roots (~900 positions), the slow run all (pytest -m slow, after any
# change to the Belote/Coinche search or rules).
@pytest.mark.parametrize("roots,positions,cards", [
    ([(3, 130), (4, 45), (5, 2)], 800, 1600),
    pytest.param([(3, 260), (4, 90), (5, 2)], 1000, 2000, marks=pytest.mark.slow)],
    ids=["half", "full"])
@pytest.mark.parametrize("game", ["belote", "coinche"])
def test_dd_equals_brute_force_endgames(game, roots, positions, cards):
    # >= 1,000 endgame positions per game in the slow run, >= 800 in the default one
    # (3-5 tricks left), with capots, every strain and play option: BELOTE-PLAY-3,
    # BELOTE-PLAY-4, BELOTE-PLAY-5, BELOTE-SCORE-1, BELOTE-SCORE-4, COINCHE-PLAY-3,
    # COINCHE-PLAY-4, COINCHE-CARD-5.
    stats = check_against_brute(game, roots, seed=len(game))
    assert stats["positions"] >= positions
    assert stats["capot"] > 0
    assert stats["cards"] >= cards


@pytest.mark.slow
@pytest.mark.parametrize("game", ["belote", "coinche"])
def test_dd_equals_brute_force_five_tricks(game):
    stats = check_against_brute(game, [(5, 60)], seed=99)
    assert stats["positions"] >= 60


def test_solve_cards_consistent_full_deals():
    # Values of all legal cards: max (attack to act) / min (defence) equals the value.
    rng = random.Random(5)
    for i in range(6):
        st = coinche_game.new_state(seed=i, dealer=i % 4)
        st = coinche_game.CoincheState.from_play(st.hands, i % 6, rng.randrange(4),
                                                 dealer=i % 4)
        res = dd.solve(st)
        cards = dd.solve_cards(st)
        pick = max if st.to_act % 2 == st.attack else min
        assert res.complete and pick(r.value for r in cards.values()) == res.value
        assert all(r.complete for r in cards.values())
        assert res.nodes > 0


def test_principal_variation_achieves_value():
    # Playing the PV to the end gives the attack exactly the DD value (BELOTE-SCORE-1/4).
    for seed in range(3):
        st0 = coinche_game.new_state(seed=seed)
        st = coinche_game.CoincheState.from_play(st0.hands, seed % 6, seed % 4, dealer=0)
        res = dd.solve(st)
        line = dd.principal_variation(st)
        assert len(line) == 32
        for mv in line:
            st.play(mv)
        assert st.card_points_final()[st.attack] == res.value


def test_capot_and_generale():
    # BELOTE-SCORE-4 capot (252), COINCHE-MADE-3 générale: seat 0 holds all trumps and
    # every ace; partner seat 2 holds the rest of the tens.
    hands = [DECK.mask(DECK.parse_cards(t)) for t in (
        "JH 9H AH TH KH QH 8H 7H", "KS QS JS 9S KD QD JD 9D",
        "AS TS AD TD AC TC 8S 7S", "KC QC JC 9C 8C 7C 8D 7D")]
    st = coinche_game.CoincheState.from_play(hands, 1, 0, dealer=3)
    res = dd.solve(st)
    assert res.value == 252 and res.capot
    table = dd.dd_table(hands, "coinche", None, dealer=3)
    assert table["H"][0]["points"] == 252 and table["H"][0]["capot"]
    # seat 0 holds every trump and the lead is seat 0's: he can take all 8 tricks
    assert res.generale is True and table["H"][0]["generale"][0] is True
    # seat 2 as taker cannot (seat 0's trumps win tricks for the partnership only)
    st2 = coinche_game.CoincheState.from_play(hands, 1, 2, dealer=3)
    r2 = dd.solve(st2)
    assert r2.capot and r2.generale is False and table["H"][0]["generale"][2] is False
    assert res.seconds > 0 and not hasattr(res, "time")
    assert table["H"][1]["points"] == 0
    st_b = belote_game.BeloteState.from_play(hands, 1, 0, dealer=3,
                                             options={"capot_points": 250})
    assert dd.solve(st_b).value == 250


def test_generale_search_against_brute_force():
    # COINCHE-MADE-3: générale iff the taker alone can win every trick; compared with an
    # exhaustive search on 3-trick endgames.
    rng = random.Random(11)
    checked = 0
    for _ in range(120):
        strain = rng.randrange(6)
        perm = list(range(32))
        rng.shuffle(perm)
        hands = [sum(1 << c for c in perm[3 * i:3 * i + 3]) for i in range(4)]
        taker = rng.randrange(4)
        leader = taker if rng.random() < 0.7 else rng.randrange(4)

        gen = brute_generale(strain, taker)

        pos = cb.make_position(hands, leader=leader, taker=taker, taker_all=True)
        s = dd._load(pos, cb.PlayRules(strain), 16)
        ok, nodes, complete = s.generale()
        assert complete and ok == gen(tuple(hands), (), leader)
        checked += ok
    assert checked > 0


def test_node_budget_and_deadline_stop():
    st0 = coinche_game.new_state(seed=42)
    st = coinche_game.CoincheState.from_play(st0.hands, 5, 1, dealer=0)
    full = dd.solve(st)
    dd._solver(dd.DEFAULT_TT_BITS).new_generation()
    part = dd.solve(st, node_budget=50)
    assert not part.complete and part.value is None and part.stopped == "node_budget"
    assert part.lower <= full.value <= part.upper
    assert part.nodes <= 51
    dd._solver(dd.DEFAULT_TT_BITS).new_generation()
    timed = dd.solve(st, deadline=1e-9)
    assert not timed.complete and timed.stopped == "deadline"
    assert timed.lower <= full.value <= timed.upper
    with pytest.raises(OptionError):
        dd.solve(st, node_budget=0)
    with pytest.raises(OptionError):
        dd.solve(st, deadline=0)
    with pytest.raises(OptionError):
        dd.solve(st, tt_bits=40)


def test_small_table_still_exact():
    # A tiny transposition table (2**4 entries) forces replacements: still exact.
    rng = random.Random(8)
    for _ in range(40):
        st = endgame_state("coinche", 4, rng)
        assert dd.solve(st, tt_bits=4).value == dd.solve(st, tt_bits=20).value


def test_dd_table_and_par():
    st0 = coinche_game.new_state(seed=3, dealer=3)
    table = dd.dd_table(st0.hands, "coinche", None, dealer=3)
    assert set(table) == {"S", "H", "D", "C", "TA", "SA"}
    for strain, per_side in table.items():
        a, b = per_side[0]["points"], per_side[1]["points"]
        # the two sides' values describe the same zero-sum play unless capot
        if 0 < a < 252 and 0 < b < 252:
            assert a + b <= 162 and a + b >= 0
        st = coinche_game.CoincheState.from_play(st0.hands, dd.STRAINS.index(strain), 1,
                                                 dealer=3)
        assert dd.solve(st).value == b
    result = dd.par(table=table, dealer=3)
    assert result["contract"] is not None
    c = result["contract"]
    side = c["side"]
    # the par contract is makeable (its side scores more than the other)
    assert result["scores"][side] > result["scores"][1 - side]
    assert result["net"] == result["scores"][0] - result["scores"][1]
    with pytest.raises(DealError):
        dd.dd_table([1, 2, 3, 4], "coinche")
    with pytest.raises(OptionError):
        dd.dd_table(st0.hands, "tarot")


def test_par_hand_made():
    # Side 0 can force capot in hearts (seat 0 all trumps + aces): par is a made capot
    # (COINCHE-BID-2, COINCHE-MADE-3, COINCHE-SCORE-1, COINCHE-SCORE-5).
    hands = [DECK.mask(DECK.parse_cards(t)) for t in (
        "JH 9H AH TH KH QH 8H 7H", "KS QS JS 9S KD QD JD 9D",
        "AS TS AD TD AC TC 8S 7S", "KC QC JC 9C 8C 7C 8D 7D")]
    result = dd.par(hands, dealer=3)
    assert result["contract"]["side"] == 0
    assert result["scores"][1] == 0 and result["scores"][0] >= 250 + 162


def test_solve_requires_play_phase():
    st = coinche_game.new_state(seed=1)
    with pytest.raises(DealError):
        dd.solve(st)


def test_solve_cards_belote_move_and_announces():
    # With belote_optional the declared-belote move gets its card's value
    # (BELOTE-BR-2); announce moves are not card moves.
    hands = [DECK.mask(DECK.parse_cards(t)) for t in (
        "KH QH AS TS 7D 8D 9D TD", "JH 9H KS QS 9S AD KD 7C",
        "7H AC TC KC JS 8S JD QD", "8H TH AH 7S 8C 9C JC QC")]
    st = belote_game.BeloteState.from_play(hands, 1, 0, dealer=3,
                                           options={"belote_optional": True})
    vals = dd.solve_cards(st)
    kh = DECK.card("KH")
    assert vals[Move("belote", kh)].value == vals[Move("card", kh)].value
    assert dd.solve(st).belote == [20, 0]


def _heuristic_auction(game: str, seed: int):
    """A deal of ``game`` after an auction by the heuristic player, and that player."""
    from solver.games import get_game
    from solver.heuristic import HeuristicAgent

    st = get_game(game).new_state(dealer=seed % 4, seed=seed)
    h = HeuristicAgent(seed=seed)
    while st.phase != "play" and not st.is_over():
        st.play(h.choose(st, st.to_act))
    return st, h


@pytest.mark.parametrize("game", ["coinche", "belote"])
def test_attack_net_score_is_the_deal_score(game):
    """``attack_net_score`` (the value PIMC averages) scores a deal from the attack's
    final card points exactly as the game does (COINCHE-MADE-1..3, COINCHE-SCORE-1..6,
    BELOTE-SCORE-2..8, BELOTE-BR-3): at any point after the first trick (announces
    settled), with the current hands, it gives the finished deal's net score; and it
    never falls as the points rise."""
    checked = 0
    seen = set()
    for seed in range(80):
        st, h = _heuristic_auction(game, seed)
        if st.phase != "play" or getattr(st, "value", 0) == coinche_game.GENERALE:
            continue
        while len(st.tricks) < 1 + seed % 6 or st.trick:
            st.play(h.choose(st, st.to_act))
        net = dd.attack_net_score(st)
        hands = list(st.hands)
        won_before = st.tricks_won[st.attack]
        capot = st.options.get("capot_points", 252)
        scale = [net(p, hands) for p in [*range(163), capot]]
        assert scale == sorted(scale)
        while not st.is_over():
            st.play(h.choose(st, st.to_act))
        attack = st.attack
        points = st.card_points_final(capot)[attack]
        if points == 0 and st.tricks_won[1 - attack] < 8 and not won_before:
            continue   # 0 points, no trick won yet: taken as a defence capot (docstring)
        ex = st.result["exact"]
        assert net(points, hands) == ex[attack] - ex[1 - attack], (seed, points, st.result)
        checked += 1
        seen.add(st.result["outcome"])
    assert checked >= 40 and {"made", "failed"} <= seen


@pytest.mark.parametrize("game", ["coinche", "belote"])
def test_pimc_averages_the_deal_score(game):
    """PIMC's default objective averages each world's deal score (attack_net_score of
    its DD card points, signed for the seat); ``objective=points`` the card points."""
    from solver.cards import mask_of
    from solver.games import get_game
    from solver.heuristic import HeuristicAgent
    from solver.pimc import PimcAgent

    st = get_game(game).new_state(dealer=1, seed=3)
    h = HeuristicAgent(seed=3)
    while st.phase != "play":
        st.play(h.choose(st, st.to_act))
    for _ in range(6):
        st.play(h.choose(st, st.to_act))
    seat = st.to_act
    cards = [m for m in st.legal_moves() if m.kind == "card"]
    worlds = PimcAgent(seed=0, worlds=5).draw_worlds(st, seat, 9)[0]
    solve = dd.world_card_solver(st)
    net = dd.attack_net_score(st)
    sign = 1 if seat % 2 == st.attack else -1
    expect = {"points": {}, "mean": {}}
    for m in cards:
        pts = [solve(w[:4])[m].value for w in worlds]
        expect["points"][m] = sum(sign * p for p in pts) / 5
        expect["mean"][m] = sum(sign * net(p, [mask_of(x) for x in w[:4]])
                                for p, w in zip(pts, worlds, strict=True)) / 5
    for objective, want in expect.items():
        agent = PimcAgent(seed=0, worlds=5, objective=objective)
        agent.draw_worlds = lambda state, s, seed: (worlds, None)
        assert agent.card_values(st, seat, cards) == pytest.approx(want)
    assert expect["points"] != expect["mean"]
    with pytest.raises(OptionError, match="mean, make, points"):
        PimcAgent(objective="score")


@pytest.mark.parametrize("game", ["coinche", "belote"])
def test_zero_points_is_a_defence_capot_only_before_the_attack_wins_a_trick(game):
    """0 final points: a defence capot (BELOTE-SCORE-4, COINCHE-CARD-5) while the attack
    has won no trick; once it has, a 0-point trick was won and a failed contract scores
    as an ordinary failure (the same as with 1 point)."""
    seen = set()
    for seed in range(60):
        st, h = _heuristic_auction(game, seed)
        while st.phase == "play" and (len(st.tricks) < 2 or st.trick):
            st.play(h.choose(st, st.to_act))
        if st.phase != "play" or getattr(st, "value", 0) >= coinche_game.CAPOT:
            continue
        score = dd.deal_scorer(st)
        hands = list(st.hands)
        if score(1, hands)["outcome"] != "failed":
            continue   # made on its announces and belote alone: the points count
        won = bool(st.tricks_won[st.attack])
        same = score(0, hands)["exact"] == score(1, hands)["exact"]
        assert same == won, (seed, won)
        seen.add(won)
    assert seen == {True, False}


def _random_coinche_position(rng: random.Random, seed: int, i: int, max_plays: int):
    """A Coinche deal of ``seed`` in strain i % 6 with a random taker, after fewer than
    ``max_plays`` random legal cards: its DD position and play rules."""
    st = coinche_game.new_state(seed=seed, dealer=i % 4)
    st = coinche_game.CoincheState.from_play(st.hands, i % 6, rng.randrange(4), dealer=i % 4)
    for _ in range(rng.randrange(0, max_plays)):
        st.play(rng.choice(st.legal_moves()))
    return dd.position_of_state(st), dd.rules_of_state(st)


def test_solve_cards_of_some_cards_equals_all_cards():
    """``only`` (PIMC's successive elimination) solves a subset of the legal cards
    without the position's value first: each card's value is the one the full search
    gives, and the other cards are left out."""
    rng = random.Random(11)
    checked = 0
    for i in range(12):
        pos, rules = _random_coinche_position(rng, 40 + i, i, 9)
        full, _ = dd.solve_cards_position(pos, rules)
        legal = sorted(full)
        for k in (1, 2, len(legal)):
            some = rng.sample(legal, min(k, len(legal)))
            got, _ = dd.solve_cards_position(pos, rules, only=sum(1 << c for c in some))
            assert sorted(got) == sorted(some)
            assert all(got[c].value == full[c].value for c in some)
            checked += 1
    assert checked == 36


@pytest.mark.parametrize("game", ["coinche", "belote"])
def test_score_classes_keep_every_cards_deal_score(game):
    """PIMC searches a world only as far as its deal score needs (``NetScore.classes``:
    runs of final points with the same net score, flat where the contract fails and,
    coinched, wherever it is made). Each card's value then scores exactly as its exact
    value (COINCHE-SCORE-1..3, BELOTE-SCORE-2..3), with or without ``only``, in fewer
    nodes."""
    from solver.cards import mask_of
    from solver.pimc import PimcAgent

    seeds = [*range(14), 79, 175] if game == "coinche" else list(range(16))
    nodes = {"exact": 0, "classes": 0}
    multipliers, checked = set(), 0
    for seed in seeds:
        st, h = _heuristic_auction(game, seed)
        if st.phase != "play":
            continue
        while len(st.tricks) < seed % 5 or (st.trick and seed % 2):
            st.play(h.choose(st, st.to_act))
        multipliers.add(getattr(st, "multiplier", 1))
        net = dd.attack_net_score(st)
        exact, by_class = dd.world_card_solver(st), dd.world_card_solver(st, net=net)
        table = dd._solver(dd.DEFAULT_TT_BITS)
        for world in PimcAgent(seed=seed, worlds=3).draw_worlds(st, st.to_act, seed)[0]:
            hands = world[:4]
            masks = [mask_of(x) for x in hands]
            classes = net.classes(masks)
            capot = len(classes) - 1
            finals = [*range(163), capot]   # the final counts a deal can end with
            assert list(classes) == sorted(classes)
            assert all((classes[p] == classes[q]) == (net(p, masks) == net(q, masks))
                       for p, q in itertools.pairwise(finals))
            for only in (None, [min(exact(hands), key=lambda m: m.value)]):
                table.new_generation()
                want = exact(hands, only)
                table.new_generation()
                got = by_class(hands, only)
                assert got.keys() == want.keys()
                for m, r in got.items():
                    assert r.complete and r.lower <= want[m].value <= r.upper
                    assert classes[r.lower] == classes[r.upper]
                    assert net(r.value, masks) == net(want[m].value, masks), (seed, m)
                    checked += 1
                nodes["exact"] += next(iter(want.values())).nodes
                nodes["classes"] += next(iter(got.values())).nodes
    assert checked > 150
    assert nodes["classes"] < 0.9 * nodes["exact"]
    if game == "coinche":
        assert multipliers >= {1, 2}


def test_score_classes_must_be_one_non_decreasing_class_per_point_count():
    s = dd._solver(dd.DEFAULT_TT_BITS)
    st = coinche_game.CoincheState.from_play(coinche_game.new_state(seed=1).hands, 0, 0)
    s.configure(*dd.rules_of_state(st).args())
    s.set_position(*dd.position_of_state(st).args())
    with pytest.raises(ValueError, match="253 values expected"):
        s.solve_cards(classes=bytes(162))
    with pytest.raises(ValueError, match="non-decreasing"):
        s.solve_cards(classes=bytes([1] * 100 + [0] * 153))
    cards, nodes, complete = s.solve_cards(classes=bytes(253))
    assert nodes == 0 and complete and len(cards) == 8   # one class: nothing to search
    assert all(lo == 0 and hi == 252 for _, lo, hi in cards)   # 252: a capot


def test_score_classes_of_any_shape_bound_the_exact_value():
    """``solve_cards(classes=...)`` with random runs (one point count to dozens per run):
    every card's proven [lo, hi] holds its exact value and lies in one run."""
    rng = random.Random(5)
    s = dd._solver(dd.DEFAULT_TT_BITS)
    checked = 0
    for i in range(10):
        pos, rules = _random_coinche_position(rng, 70 + i, i, 13)
        exact, _ = dd.solve_cards_position(pos, rules)
        runs, k = [], 0
        while len(runs) < 253:
            runs += [k] * rng.choice((1, 1, 2, 5, 17, 60))
            k += 1
        classes = bytes(runs[:253])
        s.configure(*rules.args())
        s.new_generation()
        s.set_position(*pos.args())
        cards, _, complete = s.solve_cards(classes=classes)
        assert complete and sorted(c for c, _, _ in cards) == sorted(exact)
        for c, lo, hi in cards:
            assert lo <= exact[c].value <= hi and classes[lo] == classes[hi], (i, c)
            checked += 1
    assert checked > 30


def test_the_value_searched_by_score_class_bounds_the_exact_value():
    """``solve(classes=...)`` (bid analysis: a doubled contract needs made or not) stops
    once the value's class is known: its [lo, hi] holds the exact value and lies in one
    run; without classes it is the exact value."""
    rng = random.Random(8)
    s = dd._solver(dd.DEFAULT_TT_BITS)
    checked = 0
    for i in range(12):
        pos, rules = _random_coinche_position(rng, 90 + i, i, 13)
        s.configure(*rules.args())
        s.new_generation()
        s.set_position(*pos.args())
        exact = s.solve()[0]
        runs, k = [], 0
        while len(runs) < 253:
            runs += [k] * rng.choice((1, 2, 5, 17, 60, 120))
            k += 1
        classes = bytes(runs[:253])
        s.new_generation()
        s.set_position(*pos.args())
        value, lo, hi, _, complete = s.solve(classes=classes)
        assert complete and value == lo and lo <= exact <= hi and classes[lo] == classes[hi]
        s.set_position(*pos.args())
        assert s.solve()[0] == exact   # classes apply to one call only
        checked += 1
    assert checked == 12


@pytest.mark.parametrize("game", ["coinche", "belote"])
def test_the_deal_score_searched_by_class_is_the_exact_values_score(game):
    """``solve_deal_score`` (Belote bid analysis) searches a deal only as far as its
    score needs: the result is ``deal_scorer``'s for the exact DD value
    (BELOTE-SCORE-2..3, COINCHE-SCORE-1..3), made and failed contracts both seen."""
    outcomes = set()
    for seed in range(12):
        st, _ = _heuristic_auction(game, seed)
        if st.phase != "play":
            continue
        want = dd.deal_scorer(st)(dd.solve(st).value, list(st.hands))
        got = dd.solve_deal_score(st)
        assert got["exact"] == want["exact"] and got["outcome"] == want["outcome"], seed
        outcomes.add(got["outcome"])
    assert {"made", "failed"} <= outcomes
