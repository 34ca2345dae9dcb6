"""Exact double-dummy analysis for Belote and Coinche (all four hands visible).

Objective (the "true" one of the play phase): the **attack's final card points**, dix
de der included (BELOTE-SCORE-1), ``capot_points`` (252, option 250) when the attack
wins every trick (BELOTE-SCORE-4, COINCHE-CARD-5).  The attack maximises it, the
defence minimises it.

Belote-rebelote is **not** part of the searched value: BELOTE-BR-3 /
COINCHE-SCORE-6 make it a fixed 20 for the holder's team whatever the play (it only
depends on who holds trump K+Q, which play cannot change; declaring is never worse,
so the DD model assumes every holder declares).  It is reported beside the value
(``BeloteResult.belote``) and added by ``par`` where the contract test needs it.

The search itself lives in the Cython core (``solver.belote_core.DDSolver``):
null-window fail-soft alpha-beta driven by bisection/MTD(f) over the point range, a
transposition table of ``2**tt_bits`` entries keyed on the remaining cards, the
seat on lead and the capot flag, merged equivalent cards and heuristic move ordering.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from ..cards import mask_of
from ..core.belote import (
    DDSolver,
    PlayRules,
    Position,
    make_position,
    parse_strain,
    position_of_state,
    rules_of_state,
)
from ..errors import DealError, OptionError
from ..games.base import Move
from ..parallel import per_thread
from . import check_limits as _check_limits
from . import stopped_reason as _stopped
from .result import CardResult, DDResult

STRAINS = ("S", "H", "D", "C", "TA", "SA")
# 2^16 entries: ~10% faster than 2^18 on full deals (the table stays in cache;
# benchmarks/RESULTS.md), with 1% more nodes
DEFAULT_TT_BITS = 16


@dataclass(repr=False)
class BeloteResult(DDResult):
    """Result of one Belote/Coinche double-dummy search: the common fields of
    :class:`DDResult` (``value`` = attack's final card points) and

    ``attack``: the attack's team (0 = seats 0/2); ``capot``: the attack can force
    winning every trick (None if unknown); ``belote``: fixed belote points per team,
    not part of ``value``; ``generale``: the taker alone can force winning every trick
    (None if unknown or not computed)."""

    attack: int = 0
    capot: bool | None = None
    belote: list[int] = field(default_factory=lambda: [0, 0])
    generale: bool | None = None


# One solver per table size and thread, reused across calls (generation tags
# invalidate old entries; threads: solver.parallel).
_solver = per_thread(DDSolver)


@dataclass(frozen=True)
class DealScorer:
    """``score(points, hands)`` of ``deal_scorer``, in two steps that callers scoring
    many point counts of one world can split: ``belotes(hands)`` (the belote points of
    each team) and ``scored(points, bel0, bel1)`` (memoized)."""

    belotes: Callable[[list[int]], tuple[int, int]]
    scored: Callable[[int, int, int], dict[str, Any]]

    def __call__(self, points: int, hands: list[int]) -> dict[str, Any]:
        return self.scored(points, *self.belotes(hands))


def _load(position: Position, rules: PlayRules, tt_bits: int) -> DDSolver:
    s = _solver(tt_bits)
    s.configure(*rules.args())
    s.set_position(*position.args())
    return s


def _belote_of_state(state: Any) -> list[int]:
    out = [0, 0]
    for seat, _ in list(getattr(state, "belote_said", [])) + list(
            getattr(state, "belote_pending", [])):
        out[seat % 2] += 20
    return out


def solve_position(position: Position, rules: PlayRules, node_budget: int | None = None,
                   deadline: float | None = None, tt_bits: int = DEFAULT_TT_BITS,
                   belote: list[int] | None = None) -> BeloteResult:
    """Exact value of a validated position (see the module docstring for the objective)."""
    _check_limits(node_budget, deadline, tt_bits)
    s = _load(position, rules, tt_bits)
    t = time.perf_counter()
    value, lo, hi, nodes, complete = s.solve(-1, node_budget or 0, deadline or 0.0)
    dt = time.perf_counter() - t
    stats = s.stats()  # counters of this search (the générale search resets them)
    capot = None
    if complete:
        capot = position.attack_all and value == rules.capot_points
    elif hi < rules.capot_points or not position.attack_all:
        capot = False
    generale = None
    if capot is False or not position.taker_all:
        generale = False  # COINCHE-MADE-3: générale implies capot
    elif complete:
        left = None if deadline is None else max(1e-3, deadline - dt)
        budget = None if node_budget is None else max(1, node_budget - nodes)
        ok, n, done = s.generale(budget or 0, left or 0.0)
        nodes += n
        generale = bool(ok) if done else None
        dt = time.perf_counter() - t
    return BeloteResult(value if complete else None, lo, hi, nodes, complete, dt,
                        stopped=_stopped(complete, node_budget, nodes),
                        tt_hits=stats["tt_hits"], tt_probes=stats["tt_probes"],
                        attack=position.taker % 2, capot=capot,
                        belote=list(belote or [0, 0]), generale=generale)


def solve(state: Any, node_budget: int | None = None, deadline: float | None = None,
          tt_bits: int = DEFAULT_TT_BITS) -> BeloteResult:
    """Exact double-dummy value of a Belote/Coinche state in its play phase.

    ``node_budget`` (nodes) and ``deadline`` (seconds) stop the search; the result
    then says ``complete=False`` and gives the proven bounds."""
    return solve_position(position_of_state(state), rules_of_state(state), node_budget,
                          deadline, tt_bits, _belote_of_state(state))


def solve_cards_position(position: Position, rules: PlayRules,
                         node_budget: int | None = None, deadline: float | None = None,
                         tt_bits: int = DEFAULT_TT_BITS, only: int = 0,
                         classes: bytes | None = None
                         ) -> tuple[dict[int, CardResult], int]:
    """Value of every legal card (deck index -> CardResult of ``Move("card", c)``) and
    the total node count (one search scores every card); ``only``: a mask of the deck
    cards to solve (0: all). ``classes`` (``NetScore.classes``): search each card only
    until its score class is known; its ``value`` is then the lowest point count of
    the proven interval [lower, upper], all of which score the same."""
    _check_limits(node_budget, deadline, tt_bits)
    s = _load(position, rules, tt_bits)
    t = time.perf_counter()
    cards, nodes, complete = s.solve_cards(node_budget or 0, deadline or 0.0, only, classes)
    dt = time.perf_counter() - t
    stats = s.stats()
    out = {}
    for card, lo, hi in cards:
        exact = lo == hi or (classes is not None and complete and classes[lo] == classes[hi])
        out[card] = CardResult(lo if exact else None, lo, hi, nodes, exact, dt,
                               stopped=None if exact else _stopped(False, node_budget, nodes),
                               tt_hits=stats["tt_hits"], tt_probes=stats["tt_probes"],
                               card=Move("card", card))
    return out, nodes


def solve_cards(state: Any, node_budget: int | None = None, deadline: float | None = None,
                tt_bits: int = DEFAULT_TT_BITS, only: Any = None) -> dict[Move, CardResult]:
    """Value of every legal card move of the seat to act (like DDS SolveBoard with all
    cards scored).  A declared-belote move (``belote:KH``, option belote_optional)
    gets the value of its card; announce moves do not change card play and are not
    scored.  ``only``: solve just these moves (the others are left out)."""
    only_mask = mask_of(m.value for m in only) if only else 0
    per_card, _ = solve_cards_position(position_of_state(state), rules_of_state(state),
                                       node_budget, deadline, tt_bits, only_mask)
    out: dict[Move, CardResult] = {}
    for move in state.legal_moves():
        if move.kind in ("card", "belote") and move.value in per_card:
            out[move] = replace(per_card[move.value], card=move)
    return out


def world_card_solver(state: Any, node_budget: int | None = None,
                      tt_bits: int = DEFAULT_TT_BITS, net: NetScore | None = None):
    """``solve_cards`` for worlds of ``state`` that differ only in the hands (PIMC),
    without building a world state for each: the searched value depends on the
    current hands and the public play only (belote and announces are not part of it).
    Returns ``solve(hands) -> dict[Move, CardResult]``, ``hands`` being the four
    current hands of a world (card lists or masks); the seat to act must keep its own
    hand, whose legal moves are those of ``state``. ``solve(hands, only)`` solves just
    the moves ``only`` (the others are left out of the result). With ``net`` (the
    state's ``attack_net_score``), a world is searched only as far as its deal score
    needs: a card's ``value`` scores the same as its exact value (``classes`` of
    ``solve_cards_position``)."""
    base = position_of_state(state)
    rules = rules_of_state(state)
    moves = [m for m in state.legal_moves() if m.kind in ("card", "belote")]
    own = base.to_act

    def solve(hands: Any, only: Any = None) -> dict[Move, CardResult]:
        masks = [h if isinstance(h, int) else sum(1 << c for c in h) for h in hands]
        if masks[own] != base.hands[own]:
            raise DealError("a world must keep the hand of the seat to act")
        position = make_position(masks, base.trick, leader=base.leader, taker=base.taker,
                                 attack_points=base.attack_points,
                                 defence_points=base.defence_points,
                                 attack_all=base.attack_all, taker_all=base.taker_all,
                                 defence_all=base.defence_all, tricks_done=base.tricks_done)
        only_mask = mask_of(m.value for m in only) if only else 0
        classes = net.classes(masks) if net is not None else None
        per_card, _ = solve_cards_position(position, rules, node_budget, None, tt_bits,
                                           only_mask, classes)
        return {m: replace(per_card[m.value], card=m) for m in moves if m.value in per_card}

    return solve


def deal_scorer(state: Any, announce: tuple[int | None, int] | None = None) -> DealScorer:
    """``score(points, hands)``: the game's own ``score_deal`` result (``made`` /
    ``outcome``, ``exact`` and ``written`` amounts per team; COINCHE-MADE-1..3 and
    COINCHE-SCORE-1..6, BELOTE-SCORE-2..8) when the attack ends the deal of ``state``
    with ``points`` final card points (the DD value: dix de der in, ``capot_points``
    for a capot) and the four current hands are ``hands`` (masks). The contract and
    multiplier are those of ``state``; the belotes counted are those already declared
    plus those a hand holds whole (BELOTE-BR-3: a holder declares, as in the DD
    model); the announces are those settled so far, or ``announce`` (team, points):
    a settlement to score with instead (the review prices an announce made during
    the first trick, before it is settled, BELOTE-ANN-5/6). 0 points is taken as a defence
    capot unless the attack has already won a trick (0-point tricks are possible), and a
    Coinche générale as made by a capot. Results are memoized by (points, belotes)."""
    from ..games import belote as be
    from ..games import coinche as co

    opts = state.options
    attack, strain = state.attack, state.strain
    ta = opts.get("ta_belote", "each_suit")
    declared = state.belote_points()
    ann_team, ann_pts = announce or (state.announce_team, state.announce_points)
    capot_pts = rules_of_state(state).capot_points
    coinche = state.game == "coinche"
    # 0 points is a defence capot unless the attack has already won a trick
    capot_for_zero = None if state.tricks_won[attack] else 1 - attack

    def belotes(hands: list[int]) -> tuple[int, int]:
        # the belote points of each team: declared, or held whole (BELOTE-BR-3)
        held = belote_bonus(hands, strain, ta)
        return declared[0] + held[0], declared[1] + held[1]

    @cache
    def scored(points: int, bel0: int, bel1: int) -> dict[str, Any]:
        bel = [bel0, bel1]
        capot_team = attack if points == capot_pts else (capot_for_zero if points == 0
                                                         else None)
        cards = [points, 162 - points] if attack == 0 else [162 - points, points]
        if coinche:
            if capot_team is not None:
                cards = [162, 0] if capot_team == 0 else [0, 162]
            return co.score_deal(state.value, attack, state.multiplier, cards, capot_team,
                                 capot_team == attack, bel, ann_team, ann_pts, opts)
        if capot_team is not None:
            cards = [capot_pts, 0] if capot_team == 0 else [0, capot_pts]
        return be.score_deal(attack, cards, bel, ann_team, ann_pts, capot_team, opts)

    return DealScorer(belotes, scored)


class NetScore:
    """``net(points, hands)``: the deal's score for the attack team minus the defence's
    (unrounded ``exact`` amounts of ``deal_scorer``). It rises with ``points`` (made
    rises with points; a failed contract scores the same whatever the points), so a
    side that plays for points in a world also plays for this score: PIMC averages it
    over its worlds.

    ``classes(hands)``: the score class of every final point count 0..capot_points
    (bytes; a class is a run of point counts with the same net score), which lets the
    search stop once a card's value is known up to its score (``solve_cards``
    ``classes``): a failed contract scores the same at any points, a coinched one the
    same whenever it is made. ``scorer``: the state's ``deal_scorer``."""

    def __init__(self, state: Any):
        self.scorer = deal_scorer(state)
        self._attack = state.attack
        self._capot_points = rules_of_state(state).capot_points
        self._classes: dict[tuple[int, int], bytes] = {}

    def __call__(self, points: int, hands: list[int]) -> int:
        return self._net(points, self.scorer.belotes(hands))

    def at(self, hands: list[int]) -> Callable[[int], int]:
        """``net(points)`` for these hands (their belotes counted once)."""
        bel = self.scorer.belotes(hands)
        return lambda points: self._net(points, bel)

    def _net(self, points: int, bel: tuple[int, int]) -> int:
        ex = self.scorer.scored(points, *bel)["exact"]
        return ex[self._attack] - ex[1 - self._attack]

    def classes(self, hands: list[int]) -> bytes:
        bel = self.scorer.belotes(hands)
        out = self._classes.get(bel)
        if out is None:
            out = self._classes[bel] = score_classes(lambda p: self._net(p, bel),
                                                     self._capot_points)
        return out


def score_classes(score_of: Callable[[int], Any], capot_points: int,
                  ends_apart: bool = False) -> bytes:
    """The score class of every final point count 0..capot_points (``DDSolver``'s
    ``classes``): runs of counts with the same ``score_of(points)``. 163..capot_points-1
    are never a final count: they join 162's run. ``ends_apart``: 0 and the capot are
    classes of their own whatever they score (a search then always tells a capot)."""
    runs, last = [0], score_of(0)
    for p in range(1, 163):
        cur = score_of(p)
        runs.append(runs[-1] + (cur != last or (ends_apart and p == 1)))
        last = cur
    capot = runs[-1] + (ends_apart or score_of(capot_points) != last)
    return bytes(runs + [runs[-1]] * (capot_points - 163) + [capot])


def attack_net_score(state: Any) -> NetScore:
    """The attack's net deal score in ``state`` as a function of the final points and
    the hands (:class:`NetScore`)."""
    return NetScore(state)


def solve_deal_score(state: Any, tt_bits: int = DEFAULT_TT_BITS) -> dict[str, Any]:
    """The deal's score (``deal_scorer``'s result: ``outcome``, ``exact`` and
    ``written`` amounts per team) when ``state`` is played out double-dummy from here,
    the hands' whole belotes declared. The search stops once the final points are known
    up to the score (``NetScore.classes``): a failed contract costs a probe or two
    instead of an exact search."""
    net = NetScore(state)
    hands = list(state.hands)
    s = _load(position_of_state(state), rules_of_state(state), tt_bits)
    points = s.solve(-1, 0, 0.0, net.classes(hands))[0]
    return net.scorer(points, hands)


def principal_variation(state: Any, node_budget: int | None = None,
                        deadline: float | None = None,
                        tt_bits: int = DEFAULT_TT_BITS) -> list[Move]:
    """An optimal line of play from ``state`` to the end of the deal (card moves).

    At each turn the first card (lowest deck index) achieving the position's value for
    the side to act is played.  Raises OptionError if a limit stops a search."""
    st = state.copy()
    line: list[Move] = []
    attack = st.taker % 2
    t_end = None if deadline is None else time.perf_counter() + deadline
    while not st.is_over():
        left = None if t_end is None else max(1e-3, t_end - time.perf_counter())
        values = solve_cards(st, node_budget, left, tt_bits)
        cards = {m: r for m, r in values.items() if m.kind == "card"}
        if any(not r.complete for r in cards.values()):
            raise OptionError("principal_variation: a search limit stopped the solver")
        pick = max if st.to_act % 2 == attack else min
        best = pick(r.value for r in cards.values())
        move = min((m for m, r in cards.items() if r.value == best), key=lambda m: m.value)
        st.play(move)
        line.append(move)
    return line


# --- DD table and par ---------------------------------------------------------------

def _hands_of(deal: Any) -> list[int]:
    hands = deal.hands if hasattr(deal, "hands") else deal
    out = []
    for h in hands:
        out.append(int(h) if isinstance(h, int) else sum(1 << c for c in h))
    if len(out) != 4 or any(h.bit_count() != 8 for h in out):
        raise DealError("a DD table needs four 8-card hands")
    return out


def _play_rules(game: str, options: dict[str, Any] | None, strain: int) -> tuple[
        PlayRules, dict[str, Any]]:
    from ..games import get_game
    if game not in ("belote", "coinche"):
        raise OptionError(f"dd_table: game must be 'belote' or 'coinche', got {game!r}")
    from ..options import resolve
    mod = get_game(game)
    opts = resolve(mod.OPTIONS, options, game)
    return PlayRules(strain, bool(opts["undertrump_required"]),
                     bool(opts.get("ta_must_overtake", True)),
                     int(opts.get("capot_points", 252))), opts


def belote_bonus(hands: list[int], strain: int, ta_belote: str = "each_suit") -> list[int]:
    """Belote points per team held in these 8-card hands (BELOTE-BR-1/4, COINCHE-ANN-3)."""
    from ..games.belote_common import belote_suits
    out = [0, 0]
    for seat, h in enumerate(hands):
        out[seat % 2] += 20 * len(belote_suits(h, strain, ta_belote))
    return out


def dd_table(deal: Any, game: str = "coinche", options: dict[str, Any] | None = None,
             dealer: int = 0, node_budget: int | None = None,
             tt_bits: int = DEFAULT_TT_BITS,
             deadline: float | None = None) -> dict[str, dict[int, dict[str, Any]]]:
    """DD table: for every strain (S H D C TA SA) and declaring side (0 = seats 0/2,
    1 = seats 1/3), the attack's card points with the first lead by the eldest hand
    (``dealer + 1``; the dealer with ``first_lead=dealer``), whether capot can be
    forced, and for each seat of the side whether générale (that seat alone wins every
    trick) can be forced.  The value does not depend on which seat of the side takes.
    ``defence_points`` is 162 minus the attack's points, 0 after an attack capot, and
    ``capot_points`` when the attack's points are 0 (taken as a defence capot).
    ``node_budget``/``deadline`` apply to each search."""
    hands = _hands_of(deal)
    if not (isinstance(dealer, int) and 0 <= dealer < 4):
        raise DealError(f"dealer must be a seat 0..3, got {dealer!r}")
    table: dict[str, dict[int, dict[str, Any]]] = {}
    for strain in range(6):
        rules, opts = _play_rules(game, options, strain)
        leader = dealer if opts["first_lead"] == "dealer" else (dealer + 1) % 4
        bel = belote_bonus(hands, strain, opts.get("ta_belote", "each_suit"))
        table[STRAINS[strain]] = {}
        for side in (0, 1):
            pos = make_position(hands, leader=leader, taker=side)
            r = solve_position(pos, rules, node_budget, deadline, tt_bits, bel)
            gen = {}
            nodes = r.nodes
            for seat in (side, side + 2):
                s = _load(make_position(hands, leader=leader, taker=seat), rules, tt_bits)
                ok, n, complete = s.generale(node_budget or 0, deadline or 0.0)
                nodes += n
                gen[seat] = bool(ok) if complete else None
            defence = 0 if r.value == rules.capot_points else (
                rules.capot_points if r.value == 0 else 162 - (r.value or 0))
            table[STRAINS[strain]][side] = {
                "points": r.value, "defence_points": defence, "capot": r.capot,
                "generale": gen, "belote": bel, "nodes": nodes, "complete": r.complete}
    return table


def par(deal: Any = None, options: dict[str, Any] | None = None, dealer: int = 0,
        table: dict | None = None, tt_bits: int = DEFAULT_TT_BITS) -> dict[str, Any]:
    """Coinche par contract and score from the DD table.

    Definition implemented: both sides know the DD table and bid as two players
    alternating by side, the eldest hand's side first; at its turn a side passes or
    bids any strictly higher (value, strain) of the Coinche ladder (COINCHE-BID-2/3;
    80..max_numeric_bid, capot 250, générale 500 if allowed; TA/SA if allowed).  A pass
    after a bid ends the auction; two passes before any bid annul the deal (score 0).
    On a final contract the defence coinches iff that raises its net score, then the
    attack surcoinches iff that raises its own (COINCHE-BID-5).  The deal is scored by
    Coinche's own ``score_deal`` (COINCHE-MADE-1..3, COINCHE-SCORE-1..6) from the DD
    card points and the belotes held; each side maximises its score minus the other
    side's.  Simplifications: announces are not counted; générale uses the better seat
    of the side; a defence capot is assumed iff the attack's DD points are 0.
    Returns the contract, multiplier, scores per team and the net score of team 0."""
    from ..games import coinche as co
    opts = co.OPTIONS
    from ..options import resolve
    o = resolve(opts, options, "coinche")
    if table is None:
        if deal is None:
            raise OptionError("par needs a deal or a DD table")
        table = dd_table(deal, "coinche", options, dealer, tt_bits=tt_bits)
    strains = [0, 1, 2, 3] + ([4] if o["allow_ta"] else []) + ([5] if o["allow_sa"] else [])
    values = co.bid_values(o)
    capot_pts = 252

    def outcome(vi: int, strain: int, side: int, mult: int) -> list[int]:
        e = table[STRAINS[strain]][side]
        pts = e["points"]
        if pts is None:
            raise OptionError("par: incomplete DD table entry")
        value = values[vi]
        capot_team = side if pts == capot_pts else (1 - side if pts == 0 else None)
        cards = [0, 0]
        if capot_team is None:
            cards[side], cards[1 - side] = pts, 162 - pts
        else:
            cards[capot_team] = 162
        gen = any(bool(g) for g in e["generale"].values())
        res = co.score_deal(value, side, mult, cards, capot_team, gen, list(e["belote"]),
                            None, 0, o)
        return res["exact"]

    def net(scores: list[int], side: int) -> int:
        return scores[side] - scores[1 - side]

    @cache
    def settle(vi: int, strain: int, side: int) -> tuple[int, list[int]]:
        # COINCHE-BID-5: defence may coinche, then the attack may surcoinche.
        plain = outcome(vi, strain, side, 1)
        doubled = outcome(vi, strain, side, 2)
        redoubled = outcome(vi, strain, side, 4)
        after_double = redoubled if net(redoubled, side) > net(doubled, side) else doubled
        mult_d = 4 if after_double is redoubled else 2
        if net(after_double, 1 - side) > net(plain, 1 - side):
            return mult_d, after_double
        return 1, plain

    @cache
    def best(vi: int, strain: int, bidder: int) -> tuple[int, tuple]:
        """Net score of team 0 when ``1 - bidder`` is to act over (vi, strain, bidder)."""
        mover = 1 - bidder
        mult, sc = settle(vi, strain, bidder)
        result = (net(sc, 0), (vi, strain, bidder, mult, tuple(sc)))
        for vj in range(vi + 1, len(values)):
            for s in strains:
                cand = best(vj, s, mover)
                better = cand[0] > result[0] if mover == 0 else cand[0] < result[0]
                if better:
                    result = cand
        return result

    first = (dealer + 1) % 2  # the eldest hand's side speaks first
    # no contract yet: the first side may bid or pass; then the other side likewise
    options_first = [best(v, s, first) for v in range(len(values)) for s in strains]
    options_second = [best(v, s, 1 - first) for v in range(len(values)) for s in strains]

    def pick(cands, side, fallback):
        res = fallback
        for c in cands:
            if (c[0] > res[0]) if side == 0 else (c[0] < res[0]):
                res = c
        return res

    second_if_pass = pick(options_second, 1 - first, (0, None))
    result = pick(options_first, first, second_if_pass)
    if result[1] is None:
        return {"contract": None, "scores": [0, 0], "net": 0}
    vi, strain, side, mult, sc = result[1]
    v = values[vi]
    name = {co.CAPOT: "capot", co.GENERALE: "generale"}.get(v, str(v))
    return {"contract": {"value": v, "name": name, "strain": STRAINS[strain], "side": side,
                         "multiplier": mult},
            "scores": list(sc), "net": result[0]}


def strain_index(strain: int | str) -> int:
    """Strain 0..5 from a token or an int (OptionError otherwise)."""
    return parse_strain(strain)
