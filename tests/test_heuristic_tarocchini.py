"""The Tarocchini heuristic player: legal everywhere, better than random, sound decisions."""

from __future__ import annotations

import random

import pytest

from solver.cards import TAROCCHINI_DECK as D
from solver.constraints import sample_worlds
from solver.games import tarocchini as T
from solver.games.base import Move
from solver.games.tarocchini_melds import best_combinations
from solver.heuristic import HeuristicAgent
from solver.heuristics import tarocchini as H
from solver.match import MatchConfig, run_match
from solver.notation import Deal


def c(tok: str) -> int:
    return D.card(tok)


def m(text: str) -> int:
    return D.mask(D.parse_cards(text))


def fill(n: int, size: int, fixed: dict[int, str], aside_size: int,
         exclude: dict[int, int] | None = None) -> tuple[list[int], int]:
    """Hands with the fixed cards, the rest in deck order avoiding ``exclude[seat]``;
    the pile aside (holder ``n``) gets no five-point card."""
    excl = {n: T.FIVE_POINT_MASK, **(exclude or {})}
    want = [size] * n + [aside_size]
    got = [D.parse_cards(fixed.get(s, "")) for s in range(n)] + [[]]
    pool = [x for x in range(62) if all(x not in h for h in got)]
    for h in sorted(range(n + 1), key=lambda h: -excl.get(h, 0).bit_count()):
        for x in list(pool):
            if len(got[h]) >= want[h]:
                break
            if not excl.get(h, 0) >> x & 1:
                got[h].append(x)
                pool.remove(x)
    return [D.mask(h) for h in got[:n]], D.mask(got[n])


def choice(st: T.TarocchiniState) -> Move:
    seat = st.to_act
    return H.choose("tarocchini", st.observation(seat), st.legal_moves(), random.Random(0))


def position(fixed: dict[int, str], leader: int = 0, exclude: dict | None = None):
    hands, disc = fill(4, 15, fixed, 2, exclude)
    return T.TarocchiniState.from_play(hands, leader, dealer=3, discard=disc)


SPADES, TRUMPS = T.SUIT_MASK_OF[0], T.SUIT_MASK_OF[T.TRUMP]


# --- whole deals ----------------------------------------------------------------------
@pytest.mark.parametrize("variant,deals,options", [
    ("ottocento", 100, {}),
    ("ottocento", 30, {"declarations": "none_or_max", "monte": "after_5_and_10",
                       "signals": "after_top_card", "contatore_multi_use": False}),
    ("terziglio", 50, {}),
    ("terziglio", 15, {"terziglio_deal": "19+5", "declarations": "none_or_max",
                       "signals": "none", "max_contatori_per_suit_sequence": 1}),
])
def test_heuristic_completes_deals_with_legal_moves(variant, deals, options):
    """run_match plays every move through state.play, which rejects illegal moves:
    Ottocento plays each deal twice, Terziglio four times (>= 200 deals each)."""
    cfg = MatchConfig("tarocchini", "heuristic", "random", deals, seed=21,
                      options={"game": variant, **options})
    summary = run_match(cfg)
    assert summary["deals"] == deals
    plays = sum(len(r["plays"]) for r in summary["results"])
    assert plays >= (200 if not options else 60)


def test_heuristic_self_play_completes():
    cfg = MatchConfig("tarocchini", "heuristic", "heuristic", 20, seed=2,
                      options={"game": "terziglio"})
    summary = run_match(cfg)
    assert summary["mean_diff"] == 0  # the same player in every seat: no difference


@pytest.mark.parametrize("variant,deals", [("ottocento", 40), ("terziglio", 60)])
def test_heuristic_beats_random(variant, deals):
    cfg = MatchConfig("tarocchini", "heuristic", "random", deals, seed=11,
                      options={"game": variant})
    summary = run_match(cfg)
    assert summary["ci95"][0] > 0, summary["ci95"]


def test_decisions_use_only_the_observation():
    """Same observation → same move, whatever the hidden cards (a sampled world)."""
    checked = 0
    for seed in range(25):
        rng = random.Random(seed)
        variant = ("ottocento", "terziglio")[seed % 2]
        st = T.new_state({"game": variant}, dealer=seed % 3, seed=seed)
        agent = HeuristicAgent(seed)
        steps = rng.randint(0, 50)
        while not st.is_over() and (st.phase not in ("declare", "play") or steps > 0):
            st.play(agent.choose(st, st.to_act))
            steps -= 1
        if st.is_over():
            continue
        seat = st.to_act
        for w in sample_worlds(st, seat, 3, seed=seed):
            assert choice(w) == choice(st)
            checked += 1
    assert checked >= 30


# --- targeted decisions ---------------------------------------------------------------
def test_hand_strength_count():
    # trumps ANG MON T10 T9 T8 MAT BAG: 6 trumps x 2 = 12, ANG 4 + MON 3, MAT 4, BAG
    # with 6 trumps 1; KS QS: 3 + 2; hearts... B: KB 3; C, D void: 2 x 3; spades 2 cards.
    # melds: Tarocchi 36, Grande? (ANG MON + 2 contatori, T10.. not reached) ...
    hand = m("ANG MON T10 T9 T8 BAG MAT KS QS KB 6B")
    melds = best_combinations(hand)[0]
    assert H.hand_strength(hand) == pytest.approx(12 + 7 + 4 + 1 + 5 + 3 + 6 + melds / 5)
    weak = m("6S 7S 8S 6B 7B 8B 6C 7C 8C 6D 7D 8D T5 MO1")
    assert H.hand_strength(weak) < H.GIOCO_AT < H.hand_strength(hand)


def test_bidding_from_strength():
    """TERZ-BID-1: pass a weak hand, gioco a good one, solo a very strong one."""
    legal = [Move("bid", "pass"), Move("bid", "gioco"), Move("bid", "solo")]
    weak = {"hand": m("6S 7S 8S 6B 7B 8B 6C 7C 8C 6D 7D 8D T5 MO1 9S 9B 9C 9D"),
            "options": {}}
    assert H.choose_bid(weak, legal) == Move("bid", "pass")
    good = {"hand": m("ANG MON SOL T16 T15 T12 T10 T8 MAT KS QS KB 6B 7B 6C 7C AD 8D"),
            "options": {}}
    assert H.choose_bid(good, legal) == Move("bid", "gioco")
    huge = {"hand": m("ANG MON SOL LUN T16 T15 T14 T13 T12 T11 T10 BAG MAT KS QS KB KC KD"),
            "options": {}}
    assert H.choose_bid(huge, legal) == Move("bid", "solo")
    # a solo already bid: gioco is no longer legal, a good hand passes
    assert H.choose_bid(good, [Move("bid", "pass")]) == Move("bid", "pass")


def test_calls_out_and_declares_the_best_set():
    """OTTO-SCORE-3: calling out wins at once; TAROC-DECL-2: the best combinations are
    declared one family at a time, then the declaration ends."""
    obs = {"phase": "callout"}
    assert H.choose("tarocchini", obs, [Move("callout", True), Move("callout", False)],
                    random.Random(0)) == Move("callout", True)
    deal = Deal([D.parse_cards("KS KB KC QS NS JS ANG MON BAG 6D 7D 8D 9D 10D AC"),
                 *[[] for _ in range(3)]], {})
    hands, talon = fill(4, 15, {0: D.format_cards(D.mask(deal.hands[0]))}, 2)
    deal = Deal([[x for x in range(62) if h >> x & 1] for h in hands],
                {"talon": [x for x in range(62) if talon >> x & 1]})
    st = T.new_state({"monte": "off"}, dealer=3, deal=deal)
    while st.phase == "discard":
        st.play(choice(st))
    assert st.to_act == 0
    best_pts, best = best_combinations(st.hands[0])
    while st.to_act == 0 and st.phase == "declare":
        st.play(choice(st))
    assert sorted(st.declared[0]) == sorted(best) and st.decl_points[0] == best_pts > 0


def test_discard_keeps_melds_and_makes_voids():
    """OTTO-DEAL-2: the dealer keeps his sequence and trumps, and empties a short suit."""
    hand = m("KS QS NS JS ANG MON T16 T15 T14 T13 KB 6B 7B 8B 9B QC 6D")
    obs = {"phase": "discard", "hand": hand, "options": {}}
    legal = [Move("discard", x) for x in range(62) if hand >> x & 1
             and not T.FIVE_POINT_MASK >> x & 1]
    first = H.choose("tarocchini", obs, legal, random.Random(0)).value
    assert first in (c("QC"), c("6D"))  # singletons: a void each, the Queen banked
    obs["hand"] = hand & ~(1 << first)
    legal = [mv for mv in legal if mv.value != first]
    second = H.choose("tarocchini", obs, legal, random.Random(0)).value
    assert {first, second} == {c("QC"), c("6D")}


def test_feeds_the_bagatto_to_a_partner_winning_with_the_angel():
    """Protect the contatori: partner's Angel is sure to win, so BAG goes safely into our
    pile instead of a small trump (TAROC-PLAY-3: a trump must be played)."""
    st = position({0: "ANG", 1: "T5", 2: "BAG T10 T11"}, exclude={2: TRUMPS})
    st.play("ANG")
    st.play("T5")
    assert choice(st) == Move("card", c("BAG"))


def test_matto_saves_a_queen_from_an_opponents_king():
    """TAROC-MATTO-1/2: the Matto replaces the Queen that would be lost to the King."""
    st = position({1: "KS", 2: "QS MAT 6B"}, leader=1, exclude={2: SPADES})
    st.play("KS")
    assert choice(st) == Move("card", c("MAT"))


def test_ducks_low_when_the_trick_is_lost():
    st = position({1: "KS", 2: "QS 6S 6B"}, leader=1, exclude={2: SPADES | T.MAT_BIT})
    st.play("KS")
    assert choice(st) == Move("card", c("6S"))


def test_last_to_play_wins_cheaply():
    """Last to play against an opponent's 9S: the cheapest winner (10S, long suit order
    TAROC-RANK-3), not the King or Queen."""
    st = position({1: "9S", 2: "6S", 3: "7S", 0: "10S QS KS"}, leader=1,
                  exclude={0: SPADES | TRUMPS | T.MAT_BIT})
    st.play("9S")
    st.play("6S")
    st.play("7S")
    assert choice(st) == Move("card", c("10S"))


def test_feeds_points_to_a_partner_trick_as_last_player():
    st = position({1: "9S", 2: "KS", 3: "7S", 0: "10S QS 6S"}, leader=1,
                  exclude={0: SPADES | T.MAT_BIT})
    st.play("9S")
    st.play("KS")  # partner of seat 0 wins
    st.play("7S")
    assert choice(st) == Move("card", c("QS"))


def test_leads_trumps_when_long_in_them():
    """With most of the trumps, draw them from the top (the Angel is master)."""
    hand = "ANG MON SOL LUN T16 T15 T14 T13 T12 T11 T10 T9 6S 7S 8S"
    st = position({0: hand})
    move = choice(st)
    assert move.kind in ("card", "signal") and (move.value if move.kind == "card"
                                                else move.value[0]) == c("ANG")


def test_volo_signal_is_true():
    """OTTO-SIG-1: leading the master King that is his last spade, the leader says volo
    (allowed only when true; the engine rejects a false one)."""
    st = position({0: "KS ANG MON SOL LUN T16", 1: "6B"},
                  exclude={0: SPADES | T.SUIT_MASK_OF[1]})
    assert choice(st) == Move("signal", (c("KS"), "volo"))
    st.play(choice(st))
    assert st.signals == [(0, 0, c("KS"), "volo")]


def test_partner_volo_is_read_as_a_void():
    """OTTO-SIG-1: after the partner's volo in spades, a low spade lead lets him trump;
    without the signal the same hand leads its singleton (shortest suit)."""
    first = [(0, c("7S")), (1, c("8S")), (2, c("9S")), (3, c("JS"))]
    obs = {"seat": 2, "variant": "ottocento", "phase": "play", "declarer": None,
           "hand": m("6S 10S 7B 6C 7C 8C 6D 7D 8D 9D"), "trick": [], "tricks": [(first, 3)],
           "signals": [(0, 0, c("7S"), "volo")], "voids": [set(), set(), set(), set()],
           "played": m("7S 8S 9S JS"), "discard": None, "options": {}}
    legal = [Move("card", x) for x in range(62) if obs["hand"] >> x & 1]
    assert H.choose("tarocchini", obs, legal, random.Random(0)) == Move("card", c("6S"))
    quiet = obs | {"signals": []}
    assert H.choose("tarocchini", quiet, legal, random.Random(0)) == Move("card", c("7B"))
