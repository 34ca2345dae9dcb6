"""Exact double-dummy analysis of French Tarot card play (every hand visible).

The objective is the real one: the per-defender amount ``T`` of TAROT-SCORE-1 (or
TAROT-VAR-2 with ``scoring=fixed_base``) for the state's contract, with the poignée
bonus ``H`` and the chelem announcement as fixed inputs. ``T`` depends non-additively on
the attack's points, its bouts (threshold), petit au bout, the Excuse rules and chelem,
so the search works on ``T`` itself: bisection over zero-window probes ("can the attack
force T >= x?") in the Cython core, with a transposition table keyed on the remaining
hands, the leader and the captured history the value still depends on (attack points
and bouts so far, whether each side has won a trick, T1 in the previous trick). The
attack maximises ``T``, the defence minimises it; the 5-player partner is known.

``value`` is unrounded (``rounding=nearest_10`` is monotone, apply it to the result).

Horizon search (``horizon=H``): a full deal is out of exact reach early (cost about x5
per trick), so ``solve``/``solve_cards`` can search the current trick and the next ``H``
complete tricks exactly and score each position reached there by the core's static
evaluation of T (``TarotCore.static_eval``: captured points plus an estimate of how the
rest splits, scored by the real objective and kept inside the exact value's range).
Such results are estimates: ``exact=False`` (``complete`` still says the search
finished within its limits). ``default_horizon(state)`` picks H for one sampled world.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ..core import tarot as face
from ..errors import AtoutError, OptionError
from ..games.base import Move
from . import bisection
from . import check_limits as _check_limits
from . import stopped_reason as _stopped
from .result import CardResult, DDResult, limits_spent

DEFAULT_TT_BITS = 20
# R_DD, the relaxed game most favourable to the defence (TarotCore.set_relax): its
# exact values are lower bounds of the real ones, and near them (relaxed_card_values)
R_DD = "defence-discard"


@dataclass(repr=False)
class TarotResult(DDResult):
    """Result of one Tarot double-dummy search: the common fields of :class:`DDResult`
    (``value`` = T; when a limit stops the search, ``[lower, upper]`` is the range of T
    the core proves without searching, see ``_proven``) and

    ``attack_points``/``attack_bouts``: the attack's final card points and bouts on the
    optimal line found (None when the line was not computed); ``line``: its card moves;
    ``called``: the 5p called card (``dd_table``)."""

    attack_points: float | None = None
    attack_bouts: int | None = None
    line: list[Move] = field(default_factory=list)
    called: int | None = None


def _proven(core: Any, lo: int | None = None, hi: int | None = None) -> tuple[int, int]:
    """The interval of T proven at the core's position when a search stopped: the
    core's static bounds (``TarotCore.bounds``, what the value search starts from; an
    aborted search returns no tighter ones), narrowed by known ``lo``/``hi``."""
    blo, bhi = core.bounds()
    if lo is not None:
        blo = max(blo, lo)
    if hi is not None:
        bhi = min(bhi, hi)
    return blo, bhi


def _floor_proven(floor_core: Any, value: int | None, complete: bool) -> int:
    """The lower bound of the real T an R_DD floor search (``relax_floor``) proved:
    its exact value, or where a limit stopped it the lower bound it had reached
    (``last_bounds``): either bounds R_DD's T, which is at most the real one."""
    return value if complete and value is not None else floor_core.last_bounds()[0]


def _deadline_left(start: float, deadline: float | None) -> float | None:
    if deadline is None:
        return None
    return max(0.0, deadline - (time.monotonic() - start))


def _budget_left(core: Any, node_budget: int | None, base: int) -> int | None:
    if node_budget is None:
        return None
    return max(0, node_budget - (core.stats()["nodes"] - base))


def _check_horizon(horizon: Any) -> None:
    if horizon is not None and (isinstance(horizon, bool) or not isinstance(horizon, int)
                                or horizon < 0):
        raise OptionError(f"horizon must be None or a non-negative integer (tricks searched "
                          f"after the current one; 0 or None = to the end), got {horizon!r}")


# the core's switches that give the search as it was before issue 23's techniques
# (points-aware merging, Excuse / master-trump / sure-lead bounds, partition search,
# quasi-symmetry): ``search="before"``
# of solve_cards and default_horizon, for benchmarks and matches against it
BEFORE_FEATURES = {"merge2": False, "sure_ex": False, "sure_trumps": False,
                   "sure_lead": False, "partition": False, "sure_match": False,
                   "sure_won": False, "sure_petit": False, "mobility": False,
                   "quasi": False}
SEARCHES = ("now", "before")

# the static evaluation's point split (``TarotCore.set_eval``): "static" = by
# trick-taking power, as built; "fit" = a linear form fitted by least squares to exact
# margins, one per player count (benchmarks/static_eval_fit.py "split-fit", fitted on the
# deals with deal % 3 != 2; the core's MAE / RMSE on the held-out deals in doubled points,
# static -> fit): 4p 3,922 margins at 8-11 tricks left (17.4 / 21.2 -> 10.4 / 13.2);
# 3p 2,841 at 8-14 left (14.8 / 18.5 -> 7.6 / 10.7; the 4p fit 10.1 / 12.8); 5p 1,396 at
# 8-11 left (22.1 / 26.2 -> 14.1 / 18.2; the 4p fit 16.4 / 20.4). Terms in the core's
# order: intercept, power split, live points, live points A - D, trumps A - D, master
# trumps A - D, plain-suit masters A - D, cuts A - D, the attack leads, kings A - D, the
# attack / the defence holds the Petit, the attack's Petit is hunted. "soft": the same,
# its T the expectation over the fit's held-out error (``_SPREADS``: about its RMSE).
_FITS: dict[int, tuple[float, ...]] = {
    3: (5.669, 0.889, 0.049, 0.319, 1.921, -1.405, 0.958, -0.138, 1.805, -0.604,
        1.188, -12.425, 18.697),
    4: (11.961, 0.937, -0.012, 0.184, 2.141, -0.303, 0.980, -1.774, 4.471, 1.843,
        -7.845, -12.677, 26.198),
    5: (7.328, 1.105, -0.156, 0.339, 1.307, 3.435, 0.180, 1.879, 12.548, 2.706, 1.437,
        -9.394, 22.547),
}
_SPREADS = {3: 11.0, 4: 14.0, 5: 18.0}
# name -> player count -> (set_eval's weights, spread)
EVALUATIONS: dict[str, dict[int, tuple[tuple[float, ...] | None, float]]] = {
    "static": {n: (None, 0.0) for n in _FITS},
    "fit": {n: (w, 0.0) for n, w in _FITS.items()},
    "soft": {n: (w, _SPREADS[n]) for n, w in _FITS.items()},
}
# the evaluation of the estimates an analysis gives where the exact search stops
# (``atout solve``'s cards, the DD table with a horizon): against exact values (2026-12-03,
# benchmarks/RESULTS.md) "fit" has the smallest error -- T on held-out 4p deals at 8-11
# left, MAE 18.1 -> 12.7 (soft 15.8); margins at 12-13 left 19.6 -> 12.1 and made/fail
# 75 % -> 81 % right; 3p / 5p margins on fresh play-throughs at 8-12 / 8-10 left
# 14.7 -> 8.1 / 23.2 -> 12.6 with their own fits (the 4p fit: 9.4 / 17.1). PIMC keeps
# "static" unless ``evaluation=`` says otherwise (a match decides its default).
ANALYSIS_EVALUATION = "fit"


def _core(state: Any, tt_bits: int, poignee: int | None, horizon: int | None,
          search: str = "now", evaluation: str = "static") -> Any:
    if evaluation not in EVALUATIONS:
        raise OptionError(f"evaluation must be one of {', '.join(EVALUATIONS)}, "
                          f"got {evaluation!r}")
    core = face.from_state(state, tt_bits=tt_bits, poignee=poignee)
    if search == "before":
        core.set_features(**BEFORE_FEATURES)
    elif search != "now":
        raise OptionError(f"search must be one of {', '.join(SEARCHES)}, got {search!r}")
    if evaluation != "static":
        core.set_eval(*EVALUATIONS[evaluation][state.players])
    core.set_horizon(horizon)
    return core


def _best_line(core: Any, value: int, node_budget: int | None, deadline: float | None,
               start: float, base: int) -> list[int] | None:
    """Cards of an optimal line from the core's position (value known); the core is
    left at the end of the deal (at the horizon for a horizon search). None if a limit
    stopped it."""
    cards: list[int] = []
    while not core.is_over() and not core.at_horizon():
        attack = core.side_of_to_act()
        found = None
        for card in face.cards_of(core.legal_mask()):
            core.play(card)
            # attack: child >= value means child == value; defence: child <= value
            ok = core.probe(value if attack else value + 1,
                            node_budget=_budget_left(core, node_budget, base),
                            deadline=_deadline_left(start, deadline))
            if ok is None:
                core.undo()
                return None
            if ok == bool(attack):
                found = card
                break
            core.undo()
        if found is None:  # pragma: no cover - a consistent table always finds one
            raise AtoutError("internal error: no card keeps the double-dummy value")
        cards.append(found)
    return cards


def solve(state: Any, node_budget: int | None = None, deadline: float | None = None,
          tt_bits: int = DEFAULT_TT_BITS, *, line: bool = True,
          poignee: int | None = None, horizon: int | None = None,
          evaluation: str = "static") -> TarotResult:
    """Exact value T of a Tarot play-phase ``state`` (attack's point of view), with the
    attack's points and bouts on an optimal line (``line=False`` skips the line).

    ``horizon``: search the current trick and ``horizon`` more tricks exactly, then use
    the static evaluation (None/0: to the end). A truncated search gives ``exact=False``,
    its ``line`` stops at the horizon and the attack's final points/bouts are None.
    ``evaluation``: the horizon's static evaluation (``EVALUATIONS``)."""
    _check_limits(node_budget, deadline, tt_bits)
    _check_horizon(horizon)
    start = time.monotonic()
    core = _core(state, tt_bits, poignee, horizon, evaluation=evaluation)
    exact = not core.truncated()
    value, complete = core.value(node_budget=node_budget, deadline=deadline)
    stats = core.stats()
    lo, hi = (value, value) if complete else _proven(core)
    stopped = _stopped(complete, node_budget, stats["nodes"])
    pts = bouts = None
    moves: list[Move] = []
    if complete and line:
        cards = _best_line(core, value, node_budget, deadline, start, 0)
        if cards is not None:
            if exact:
                k = core.counts()
                pts, bouts = k["att_pts"] / 2, k["att_bouts"]
            moves = [Move("card", c) for c in cards]
        stats = core.stats()
    return TarotResult(value if complete else None, lo, hi, stats["nodes"], complete,
                       time.monotonic() - start, stopped=stopped, tt_hits=stats["tt_hits"],
                       tt_probes=stats["tt_probes"], exact=exact, attack_points=pts,
                       attack_bouts=bouts, line=moves)


def solve_cards(state: Any, node_budget: int | None = None, deadline: float | None = None,
                tt_bits: int = DEFAULT_TT_BITS, *, poignee: int | None = None,
                horizon: int | None = None, only: Any = None,
                search: str = "now", evaluation: str = "static",
                relaxed: bool = False) -> dict[Move, CardResult]:
    """Exact value T after each legal card of the seat to act (one shared table; each
    card's ``nodes``/``seconds`` are those of its own search, after the position's).
    ``horizon``: as in :func:`solve` (one horizon, fixed from the state's trick, for
    the position and every card; values are then estimates, ``exact=False``).
    ``relaxed``: each value is the exact one in R_DD, the relaxed game most favourable
    to the defence (``TarotCore.set_relax("defence-discard")``; see
    :func:`relaxed_card_values`): a lower bound of the real T and most often equal to
    it, reached from 3-4 tricks further from the end than the real game's
    (``exact=False``: not the real game's value; no horizon with it).
    ``only``: solve just these card moves, without the position's value first (the
    other cards are left out). ``search="before"``: the search as it was before issue
    23 (``BEFORE_FEATURES``; same values, more nodes; horizon values may differ a
    little, the static evaluation being clamped into looser bounds). ``evaluation``:
    the horizon's static evaluation (``EVALUATIONS``; exact values never read it)."""
    _check_limits(node_budget, deadline, tt_bits)
    _check_horizon(horizon)
    if relaxed and horizon is not None:
        raise OptionError("solve_cards: a relaxed game's values are searched to the end "
                          "(no horizon with relaxed=True)")
    start = time.monotonic()
    core = _core(state, tt_bits, poignee, horizon, search, evaluation)
    if relaxed:
        core.set_relax(R_DD)
    exact = not core.truncated() and not relaxed
    out: dict[Move, CardResult] = {}
    wanted = None if only is None else {m.value for m in only}
    attack = core.side_of_to_act()
    if wanted is None:
        # the position's value first: it bounds every card's value (the attack's cards
        # are worth at most V, the defence's at least V) and warms the shared table
        root, ok = core.value(node_budget=node_budget, deadline=deadline)
        root_lo, root_hi = (root, root) if ok else _proven(core)
    else:
        root, ok, root_lo, root_hi = None, False, None, None
    for card in face.cards_of(core.legal_mask()):
        if wanted is not None and card not in wanted:
            continue
        t0 = time.monotonic()
        s0 = core.stats()
        core.play(card)
        lo = hi = None
        if ok:
            hi, lo = (root, None) if attack else (None, root)
        value, complete = core.value(node_budget=_budget_left(core, node_budget, 0),
                                     deadline=_deadline_left(start, deadline), lo=lo, hi=hi,
                                     guess=root if ok else None)
        if complete:
            blo = bhi = value
        else:  # a card is worth at most the position (attack), at least (defence)
            blo, bhi = _proven(core, None if attack else root_lo, root_hi if attack else None)
        core.undo()
        st = core.stats()
        move = Move("card", card)
        out[move] = CardResult(value if complete else None, blo, bhi,
                               st["nodes"] - s0["nodes"], complete, time.monotonic() - t0,
                               stopped=_stopped(complete, node_budget, st["nodes"]),
                               tt_hits=st["tt_hits"] - s0["tt_hits"],
                               tt_probes=st["tt_probes"] - s0["tt_probes"], exact=exact,
                               card=move)
    total = core.stats()["nodes"]
    for r in out.values():
        r.call_nodes = total
    return out


@dataclass(repr=False)
class TarotAnalysis:
    """The exact answers to an analyst's questions about a Tarot play-phase position, in
    the order they are asked (``analyse``): (a) is the contract made, (b) the exact T,
    (c) every legal card's value, (d) an optimal line. Each is None when the limits
    stopped the search before it was proven; nothing here is an estimate.

    ``made``: the attack's final points reach the bouts' threshold (E >= 0,
    TAROT-COUNT-4) against best defence; ``margin_lower``/``margin_upper``: the proven
    interval of E (doubled points, only its sign is searched); ``value`` the exact T,
    ``lower``/``upper`` its proven interval; ``cards``: each legal card's
    :class:`CardResult` (``complete=False`` for those not finished, with proven bounds);
    ``line``: the optimal line's moves; ``stopped``: which limit ended the analysis
    ('node_budget' or 'deadline') and ``stage`` the question it was on; ``steps``:
    (question, seconds, nodes) of each search run. ``card_made``: (a) for each legal
    card, made or not after it (None: not proven within its share of the limits);
    ``card_bounds``: the T interval the score classes proved for a card (only where a
    sweep decides part of the deal); ``chelem``: the side (1 attack, 0 defence) the
    score classes proved able to force taking every trick (TAROT-SCORE-5), else None
    (not proven either way)."""

    made: bool | None
    margin_lower: int
    margin_upper: int
    value: int | None
    lower: int
    upper: int
    cards: dict[Move, CardResult]
    line: list[Move] | None
    nodes: int
    seconds: float
    stopped: str | None = None
    stage: str | None = None
    steps: list[tuple[str, float, int]] = field(default_factory=list)
    card_made: dict[Move, bool | None] = field(default_factory=dict)
    card_bounds: dict[Move, tuple[int, int]] = field(default_factory=dict)
    chelem: int | None = None

    @property
    def complete(self) -> bool:
        return self.stopped is None

    def __repr__(self) -> str:
        t = self.value if self.value is not None else f"[{self.lower},{self.upper}]"
        return (f"TarotAnalysis(made={self.made}, T={t}, cards={len(self.cards)}, "
                f"line={'yes' if self.line is not None else 'no'}, nodes={self.nodes}, "
                f"stopped={self.stopped!r})")


def made_T_bounds(state: Any, poignee: int | None = None) -> tuple[int, int]:
    """(the least T of a made contract, the greatest T of a failed one) for the state's
    contract (TAROT-SCORE-1): made means m >= 0, failed m >= 1 with the sign against;
    petit au bout may take 10 M either way, an announced chelem that fails -200 (a
    failed contract never wins every trick: the chelem terms cannot help it)."""
    params = face.objective_params(state.contract, state.options)
    h = face.poignee_total(state) if poignee is None else poignee
    base, mult, pb = params["base"], params["mult"], params["pb_mult"]
    least_made = base * mult + h - 10 * pb - (200 if state.chelem_announced else 0)
    most_failed = -(base + 1) * mult - h + 10 * pb
    return least_made, most_failed


# (a) after a relaxed fail, with R_A (``relax_fail``): the real game's budget before
# R_A runs alone to its answer (twenty-fifth session: at the 4p first lead the real
# game answers first only on fail proofs of ~1e5 nodes, 113k at most, against 0.2-1.5M
# for R_A; restarting R_A in a doubling race cost x1.07-1.18 on every fail proof it
# won above 2M nodes). In the doubling race (``real_first`` off): the first budget
# of each probe, doubled each round
FAIL_RACE_START = 1 << 17
# ... and R_A's share: FAIL_RACE_WEIGHT times the real game's nodes each round
# (fourteenth session: at the first lead R_A's fail proofs are 1.4-2.7x cheaper than
# the real game's on all 6 4p fails that finish, so an even race paid 2-3x the cheaper
# proof; at 16 left the real game is cheaper on 2 of 9, by up to 1.7x: 16, not all)
FAIL_RACE_WEIGHT = 16
# (b)'s first probe asked in R_A when the real game does not answer it within
# NARROW_START nodes (``_value_relaxed_first``'s ``upper``): R_A's share of the
# limits left
UPPER_SHARE = 0.5

# (a)'s fail proofs (the real game, R_A) with the defence's trump leads ordered after
# its plain leads (TarotCore.set_trump_leads_last), by player count: 4p first leads
# within 1e7 nodes 20 of 50 against 18 (20 deals at 1.6e8: median 17.7M -> 10.1M
# nodes, x1.57 geometric mean), 5p 25 against 23, but 3p 20 against 22 (its two
# defenders' master-trump leads refute more often; nineteenth session, RESULTS.md)
TRUMP_LEADS_LAST = {3: False, 4: True, 5: True}

# (a)'s made proofs (R_DD) with the attack's trump leads that are not sure winners
# ordered after its plain leads (TarotCore.set_attack_trump_leads_last), by player
# count: 4p first leads within 1e7 nodes 21 of 50 against 20 (x1.03 geometric mean on
# the 20), 20 deals at 1.6e8 the same 14 (median 10.1M -> 9.4M nodes, x1.03); 5p 24
# against 25 (x1.09 on the 24); 3p 20 against 22 (x0.83 on the 20); R_DD's made
# proofs alone x1.12 (4p, 5p), x1.02 (3p; twentieth session, RESULTS.md)
ATTACK_TRUMP_LEADS_LAST = {3: False, 4: True, 5: False}

# card_side_probes: the node budget of one card's probe
CARD_SIDE_NODES = 500_000


def card_side_probes(state: Any, x: int, cards: list[int], node_budget: int | None = None,
                     deadline: float | None = None, tt_bits: int = DEFAULT_TT_BITS,
                     poignee: int | None = None) -> tuple[dict[int, bool | None], int]:
    """One null-window probe of T at ``x`` after each of ``cards`` (core card ids,
    legal at ``state``), in order, on one table, each within CARD_SIDE_NODES nodes and
    all within ``node_budget`` / ``deadline`` (seconds): True proves the card's T >= x,
    False its T <= x - 1, None: not proven (or not asked once a limit is spent).
    Returns the answers and the nodes spent. For a stopped analysis (``analyse``)
    whose position T is known to lie in [lo, hi]: the side to play picks its best
    card, so at the attack's turn x = lo finds the cards that keep T >= lo, at the
    defence's x = hi + 1 those that keep T <= hi; the others are proven worse."""
    start = time.monotonic()
    core = face.from_state(state, tt_bits=tt_bits, poignee=poignee)
    out: dict[int, bool | None] = {}
    for card in cards:
        spent = core.stats()["nodes"]
        b = CARD_SIDE_NODES if node_budget is None else min(CARD_SIDE_NODES,
                                                              node_budget - spent)
        d = _deadline_left(start, deadline)
        if limits_spent(b, d):
            out[card] = None
            continue
        core.play(card)
        out[card] = core.probe(x, node_budget=b, deadline=d)
        core.undo()
    return out, core.stats()["nodes"]


def _value_after(core: Any, card: int, node_budget: int | None, deadline: float | None,
                 hi: int | None = None) -> tuple[int, bool]:
    """``core.value`` (its game and objective, within the limits; ``hi``: a known upper
    bound) after ``card`` is played; the position is left as it was."""
    core.play(card)
    out = core.value(node_budget=node_budget, deadline=deadline, hi=hi)
    core.undo()
    return out


def relaxed_card_values(state: Any, cards: list[int], node_budget: int | None = None,
                        deadline: float | None = None, tt_bits: int = DEFAULT_TT_BITS,
                        poignee: int | None = None
                        ) -> tuple[dict[int, tuple[int, int, float]], int]:
    """Each of ``cards``' T (core card ids, legal at ``state``) in R_DD, the relaxed
    game most favourable to the defence (``TarotCore.set_relax("defence-discard")``),
    searched exactly there: R_DD <= the real game, so a finished value is a proven
    lower bound of the card's T (TAROT-SCORE-1). It is also the best estimate a
    stopped analysis has of the card: 4p, 10 / 12 tricks left, R_DD's exact margin was
    the real one on 16 of 25 / 12 of 18 positions, 2.2 / 1.4 doubled points off on
    average, against 12.2 / 13.1 for a two-trick horizon with the static evaluation,
    at 7-15x fewer nodes than the real game's value (RESULTS.md, sixteenth session).
    One core and table for all the cards, in order; each card gets an equal share of
    what is left of ``node_budget`` / ``deadline`` (seconds). Returns, for the cards
    whose value finished, (value, nodes, seconds), and the nodes spent in all."""
    start = time.monotonic()
    core = face.from_state(state, tt_bits=tt_bits, poignee=poignee)
    core.set_objective("T")
    core.set_relax(R_DD)
    out: dict[int, tuple[int, int, float]] = {}
    for i, card in enumerate(cards):
        share = len(cards) - i
        n0, t0 = core.stats()["nodes"], time.monotonic()
        b = None if node_budget is None else (node_budget - n0) // share
        d = _deadline_left(start, deadline)
        if limits_spent(b, d):
            break
        v, complete = _value_after(core, card, b, None if d is None else d / share)
        if complete:
            out[card] = (v, core.stats()["nodes"] - n0, time.monotonic() - t0)
    return out, core.stats()["nodes"]


def _made_probe(core: Any, node_budget: int | None, deadline: float | None,
                relax_first: bool, relaxed_game: str = "defence-void",
                fail_core: Any = None, fail_weight: int = FAIL_RACE_WEIGHT,
                trump_leads_last: bool = False, excuse_lead_last: bool = True,
                attack_trump_leads_last: bool = False,
                real_first: bool = True) -> bool | None:
    """(a): is the contract made (the core's objective is the margin)? With
    ``relax_first``, first in a relaxed game that favours the defence
    (``TarotCore.set_relax``): made there is made, and that proof is cheaper (a
    hand's pips of a suit are one card, the table holds their counts). Measured: 4p
    made/fail 2.8x fewer nodes in all at 14 tricks left (a made contract was made in
    the relaxed game in 8 of 8), RESULTS.md. ``relaxed_game``: ``"defence-void"``
    (R_DV, the default: R_DT where, besides, a trick without trumps in which the
    attack played no card of the led suit goes to the defender the defence picks
    among those that followed, R_DV <= R_DT), ``"defence-trumps"`` (R_DT: the
    defence's low trumps also without rank between the attack's trumps, R_DT <= R_D)
    or ``"defence"`` (R_D).

    Otherwise the real game decides, within what the relaxed search left of the
    limits -- helped, when ``fail_core`` (a second core of the position, margin
    objective, kept in R_A: the attack picks the winner among tied pips, R_A >= real;
    or a function making one, called only when it is needed) is given, by R_A, where
    failed is failed. With ``real_first`` the real game gets FAIL_RACE_START nodes,
    then R_A runs alone to its answer (failed is the answer; made there, the real
    game decides with what is left): at the first lead R_A's fail proofs are the
    cheaper ones and the real game's out of reach (RESULTS.md, seventh and
    fourteenth sessions), and one R_A probe costs less than the same proof restarted
    with doubling budgets. Without it (the race as it was): the real game gets
    FAIL_RACE_START nodes and R_A ``fail_weight`` times as many, then twice as many
    each round (their tables keep what was proven). ``trump_leads_last``: those fail
    proofs (after a relaxed fail) order the defence's trump leads after its plain
    ones (TRUMP_LEADS_LAST), and with
    ``excuse_lead_last`` its Excuse lead after all of them; ``attack_trump_leads_last``:
    the relaxed game's made proof orders the attack's trump leads that are not sure
    winners after its plain ones (ATTACK_TRUMP_LEADS_LAST)."""
    start = time.monotonic()
    n0 = core.stats()["nodes"]
    racer = None
    f0 = 0

    def left() -> tuple[int | None, float | None]:
        spent = core.stats()["nodes"] - n0
        if racer is not None:
            spent += racer.stats()["nodes"] - f0
        b = None if node_budget is None else max(0, node_budget - spent)
        return b, _deadline_left(start, deadline)

    if relax_first:
        core.set_relax(relaxed_game)
        core.set_attack_trump_leads_last(attack_trump_leads_last)
        try:
            made = core.probe(0, node_budget=node_budget, deadline=deadline)
        finally:
            core.set_attack_trump_leads_last(False)
        core.set_relax("none")
        if made is None or made:
            return made
    # past a relaxed fail, what follows is expected to be a fail proof
    core.set_trump_leads_last(trump_leads_last and relax_first, excuse_lead_last)
    try:
        if not relax_first or fail_core is None:
            b, d = left()
            return core.probe(0, node_budget=b, deadline=d)
        racer = fail_core() if callable(fail_core) else fail_core
        f0 = racer.stats()["nodes"]
        racer.set_trump_leads_last(trump_leads_last, excuse_lead_last)
        if real_first:
            return _real_then_attack(core, racer, left)
        return _fail_race(core, racer, left, fail_weight)
    finally:
        core.set_trump_leads_last(False)


def _real_then_attack(core: Any, racer: Any, left: Any) -> bool | None:
    """(a) after a relaxed fail: the real game (``core``) within FAIL_RACE_START
    nodes, then R_A (``racer``) alone, then, if R_A is made, the real game with what
    is left (see _made_probe)."""
    def ask(c: Any, cap: int | None = None) -> bool | None:
        b, d = left()
        if limits_spent(b, d):
            return None
        if cap is not None:
            b = cap if b is None else min(cap, b)
        return c.probe(0, node_budget=b, deadline=d)

    answer = ask(core, FAIL_RACE_START)
    if answer is not None:
        return answer
    answer = ask(racer)
    if answer is not True:
        return answer           # failed in R_A is failed; None: a limit stopped it
    return ask(core)            # made in R_A: only the real game can tell


def _fail_race(core: Any, racer: Any, left: Any, fail_weight: int) -> bool | None:
    """(a) after a relaxed fail: the real game (``core``) raced against R_A
    (``racer``) with doubling budgets, see _made_probe."""
    step = FAIL_RACE_START
    racers = [core, racer]
    while True:
        for c in list(racers):
            b, d = left()
            if limits_spent(b, d):
                return None
            mine = step * (fail_weight if c is racer else 1)
            answer = c.probe(0, node_budget=mine if b is None else min(mine, b),
                             deadline=d)
            if answer is not None:
                if c is core or answer is False:
                    return answer
                racers.remove(c)          # made in R_A: only the real game can tell
        step *= 2


def _value_relaxed_first(core: Any, relaxed: Any, lo: int, hi: int,
                         node_budget: int | None, deadline: float | None,
                         first: int | None = None, narrow: bool = True,
                         upper: Any = None) -> tuple[int | None, int, int]:
    """(b) the exact T by bisection on the proven fail-soft bounds, each probe asked
    first in R_D (``relaxed``, a second core kept in the relaxed game that favours the
    defence, with its own table): R_D <= T, so a probe that holds there (T >= x, a
    made-type proof: the costly kind) holds, and one that fails there is asked in the
    real game (``core``); R_D's own fail-soft ceiling is kept, so no probe above it
    is asked there again (it cannot hold). ``upper``: a third core kept in R_A (the
    game that favours the attack, R_A >= T), for the first probe only: if R_D did not
    prove it and the real game does not answer within NARROW_START nodes, R_A gets
    UPPER_SHARE of the limits left (failed there is failed: T < x, a fail proof R_A
    can make far cheaper), then the real game the rest. ``first``: the first probe's
    threshold (a card's at the position's value: (c)), then bisection, ``narrow``ing
    around the probes that run past an allowance (solver.dd.bisection). Returns
    (value or None if a limit stopped it, lo, hi: the interval proven)."""
    start = time.monotonic()
    cores = (core, relaxed) if upper is None else (core, relaxed, upper)
    n0 = sum(c.stats()["nodes"] for c in cores)
    relaxed_hi = hi          # R_D's value is at most this
    upper_left = upper       # R_A, until the first probe has asked it

    def spent() -> int:
        return sum(c.stats()["nodes"] for c in cores) - n0

    def ask(searcher: Any, x: int, cap: int | None) -> int | str | None:
        """``searcher``'s fail-soft bound at x within ``cap`` nodes (None: the
        limits); PAST_ALLOWANCE when the cap stopped it, None when a limit did."""
        budget = None if node_budget is None else node_budget - spent()
        left = _deadline_left(start, deadline)
        if limits_spent(budget, left):
            return None
        capped = cap is not None and (budget is None or cap < budget)
        r = searcher.bound(x, node_budget=cap if capped else budget, deadline=left)
        if r is None:
            past = capped and not limits_spent(None, _deadline_left(start, deadline))
            return bisection.PAST_ALLOWANCE if past else None
        return r

    def probe(x: int, allowance: int | None) -> int | str | None:
        nonlocal relaxed_hi, upper_left
        if x <= relaxed_hi:
            r = ask(relaxed, x, allowance)
            if not isinstance(r, int) or r >= x:
                return r
            relaxed_hi = r
        if upper_left is not None and allowance is None:
            # asked on later probes (capped ones too) R_A cost as much as it saved
            # (twenty-eighth session); on the first it finds the dear fail proofs
            ra, upper_left = upper_left, None
            r = ask(core, x, bisection.NARROW_START)
            if r != bisection.PAST_ALLOWANCE:
                return r
            budget = None if node_budget is None else node_budget - spent()
            r = ask(ra, x, None if budget is None else int(budget * UPPER_SHARE))
            if r is None or (isinstance(r, int) and r < x):
                return r
        return ask(core, x, allowance)

    return bisection.value_by_probes(probe, spent, lo, hi, first, narrow)


def _sweep_classes(core: Any, lo: int, hi: int, node_budget: int | None,
                   deadline: float | None) -> tuple[int, int, int | None]:
    """(b)'s score classes: the chelem and the petit au bout as probes of their own
    (the core's ``sweep_probe``, a points-blind AND/OR search of the game where not
    taking every trick loses). A sweep ends on one of a few values of T
    (``sweep_values``: the chelem term, the petit au bout or not, the Excuse's
    return); for each side that has won every trick so far they are probed from the
    side's worst towards its best, strictly inside (lo, hi) (its ends are proven
    already): a sweep that holds at x proves T <= x (the
    defence) / T >= x (the attack); one that fails at x proves it fails up to the next
    value, so T is beyond that or in a deal the side does not sweep
    (``sweep_rest_bound``). Where the optimal play is a sweep (a chelem deal) that is
    T itself, found without the points. ``core``: a core at the position (a trick
    boundary or inside a trick), in the real game with the plain table. Returns the
    interval proven (what a limit leaves) and the side (0 defence, 1 attack) whose
    sweep held, if one did: that side can force the chelem (TAROT-SCORE-5)."""
    start = time.monotonic()
    n0 = core.stats()["nodes"]
    held = None

    def probe(side: int, x: int) -> bool | None:
        spent = core.stats()["nodes"] - n0
        if node_budget is not None and node_budget - spent <= 0:
            return None
        return core.sweep_probe(side, x, node_budget=None if node_budget is None
                                else node_budget - spent,
                                deadline=_deadline_left(start, deadline))

    for side in (0, 1):
        values = core.sweep_values(side)
        if lo >= hi or not values:
            continue
        # one walk for both sides, in the sense of the side's own good: T for the
        # defence (it wants T low), -T for the attack; (a, b) the interval so read
        sign = 1 if side == 0 else -1
        a, b = (lo, hi) if side == 0 else (-hi, -lo)
        own = sorted(sign * v for v in values)
        rest = sign * core.sweep_rest_bound(side)
        # the side's own end of the interval rules out the values beyond it
        failed = [v for v in own if v < a]
        for v in reversed(own):
            if v >= b:
                continue            # known already: nothing to prove there
            if v < a:
                break
            r = probe(side, sign * v)
            if r is None:
                break
            if not r:
                failed.append(v)
                break
            b, held = v, side
        # no sweep below the next value above the last one that failed: T is there
        # or in an end the side does not sweep (rest)
        up = [v for v in own if not failed or v > max(failed)]
        a = max(a, min(min(up), rest) if up else rest)
        lo, hi = (a, b) if side == 0 else (-b, -a)
    return lo, hi, held


def _card_classes(core: Any, node_budget: int | None,
                  deadline: float | None) -> dict[Move, tuple[int, int]]:
    """Each legal card's T interval from the score classes (``_sweep_classes`` after
    the card, from its bounds), within an equal part of the limits a card: where a
    sweep decides the deal, which cards keep the chelem (and the petit au bout) and
    which lose it, before (b)'s bisection takes the rest of the limits."""
    start = time.monotonic()
    legal = face.cards_of(core.legal_mask())
    out: dict[Move, tuple[int, int]] = {}
    for i, c in enumerate(legal):
        nodes = None if node_budget is None else node_budget // len(legal)
        secs = None if deadline is None else \
            max(0.0, deadline - (time.monotonic() - start)) / (len(legal) - i)
        core.play(c)
        lo, hi = core.bounds()
        lo, hi, _ = _sweep_classes(core, lo, hi, nodes, secs)
        core.undo()
        out[Move("card", c)] = (lo, hi)
    return out


# (a) card by card gets at most this share of the limits left after (a)
CARD_MADE_SHARE = 0.2
# (b)'s floor, R_DD's exact T, gets at most this share of the limits left for (b)
# (each card's in (c): of the card's part), by player count where it differs
# (twenty-eighth session, first leads at 1e8, summed proven width of T where (b)
# stopped): 4p a half, 518 -> 474 on 20 deals (6 narrower, 2 wider), one more exact
# T of 12 at 13 left, the rest and (c) at 12 / 13 left the same nodes; 5p a tenth,
# 446 -> 355 on 10 (5 narrower, none wider; a half 522), at 11 left one more exact of
# 12; 3p a quarter (a tenth 165, a half 170 against 166)
FLOOR_SHARE = 0.25
VALUE_FLOOR_SHARE = {4: 0.5, 5: 0.1}
# (b)'s score classes (the chelem, the petit au bout) get at most this share of what
# is left after the floor
CLASS_SHARE = 0.03
# ... and where a sweep held, the cards' classes this share of what is left then
# (where a sweep decides the deal, which cards keep it is the analyst's question)
CARD_CLASS_SHARE = 0.5


def _card_made(core: Any, made: bool, attack: int, node_budget: int | None,
               deadline: float | None, start: float,
               relaxed: Any = None) -> dict[Move, bool | None]:
    """Made or not after each legal card (the core's objective is the margin). Where
    (a)'s proof covered every card (made with the defence to play: every defence card
    was refuted; failed with the attack to play) the answer is (a)'s; else one probe a
    card, each within an equal part of CARD_MADE_SHARE of the limits left (None when
    it stopped). Cheap for the cards that keep (a)'s answer by the other side's
    proof kind (a failed contract's defence cards that keep it failing), dear for the
    others, which is why they get only a share. ``relaxed``: a second core of the
    position kept in a relaxed game that favours the defence (margin objective),
    asked first for each card within its share: made there is made (4p, cards of
    made positions with the attack to play, 12 / 13 left: x1.9 / 2.0 fewer nodes,
    geometric mean per position, RESULTS.md)."""
    legal = face.cards_of(core.legal_mask())
    if made != bool(attack):
        return {Move("card", c): made for c in legal}
    out: dict[Move, bool | None] = {}
    budget = _budget_left(core, node_budget, 0)
    time_left = _deadline_left(start, deadline)
    each_nodes = None if budget is None else int(budget * CARD_MADE_SHARE) // len(legal)
    each_s = None if time_left is None else time_left * CARD_MADE_SHARE / len(legal)
    for c in legal:
        if each_nodes is not None and each_nodes < 1:
            out[Move("card", c)] = None
            continue
        nodes, secs = each_nodes, each_s
        if relaxed is not None:
            t0, n0 = time.monotonic(), relaxed.stats()["nodes"]
            relaxed.play(c)
            answer = relaxed.probe(0, node_budget=nodes, deadline=secs)
            relaxed.undo()
            if answer:
                out[Move("card", c)] = True
                continue
            if nodes is not None:
                nodes -= relaxed.stats()["nodes"] - n0
            if secs is not None:
                secs -= time.monotonic() - t0
            if (nodes is not None and nodes < 1) or (secs is not None and secs <= 0):
                out[Move("card", c)] = None
                continue
        core.play(c)
        out[Move("card", c)] = core.probe(0, node_budget=nodes, deadline=secs)
        core.undo()
    return out


def analyse(state: Any, node_budget: int | None = None, deadline: float | None = None,
            tt_bits: int = DEFAULT_TT_BITS, *, poignee: int | None = None,
            cards: bool = True, line: bool = True, threads: int = 1,
            progress: Any = None, features: dict[str, bool] | None = None) -> TarotAnalysis:
    """The exact analysis of a Tarot play-phase ``state`` in an analyst's order, one
    shared table and one node budget / deadline for the whole (each later question is
    cheaper once the earlier is known):

    (a) made or not: one null-window search of the margin E at 0 (``set_objective``),
        first in the relaxed game that favours the defence (``_made_probe``; off with
        ``features={"relax_first": False}``);
        then the same for each legal card (``card_made``): free where (a)'s proof
        covered every card (made with the defence to play, failed with the attack),
        else one probe a card within a share (CARD_MADE_SHARE) of the limits left;
    (b) the exact T: first R_DD's exact T (``relax_floor``, within FLOOR_SHARE (4p,
        5p: VALUE_FLOOR_SHARE) of the limits: a proven lower bound, and the value on
        about half the positions), then the score classes (``_sweep_classes``: each
        side's sweep, the chelem and the petit au bout, by points-blind probes within
        CLASS_SHARE of the limits left;
        off with ``features={"sweep_classes": False}``), then bisection on T inside
        the interval left, the first probe just above that floor, each probe asked in
        R_D first (``_value_relaxed_first``; off with ``features={"relax_value":
        False}``: the core's bisection, without the floor and the classes), the
        probes after the first each within an allowance of nodes, the interval
        narrowed beside those that run past it (``solver.dd.bisection``; off with
        ``features={"narrow": False}``); a floor stopped by its share gives the
        lower bound it proved; the first probe, where neither R_D nor NARROW_START
        nodes of the real game answer it, in R_A (a third core: failed there is
        failed) within UPPER_SHARE of the limits left (off with
        ``features={"relax_upper": False}``);
    (c) every legal card (``cards``): each card's search bounded by (b)'s value, on
        one thread its probes in R_D first too (the first at (b)'s value, and in
        R_A as in (b): (b)'s third core, its table kept across the cards), after the
        card's exact T in R_DD where it raises the card's floor (``relax_card_floor``,
        FLOOR_SHARE of the card's part of the limits; the first probe then just above);
    (d) an optimal line (``line``).

    ``progress(stage, result)`` is called after each question with its answer. When a
    limit stops the analysis the answers found so far are kept and the rest is None
    (or, for T, the interval proven so far). ``threads``: (c)'s cards are searched in
    that many threads, each with its own core and table (the same values; each
    thread's searches get the node budget left at (c)'s start, shared equally).
    ``features``: the core's search switches (``TarotCore.set_features``), and
    ``relax_first`` (see (a)), ``relax_value`` (see (b); (c) too, on one thread),
    ``relax_cards`` ((c) only), ``relax_floor`` ((b) without R_DD's exact T as its
    first lower bound: its share of the limits, then bisection above it, the
    first probe just above), ``relax_card_floor`` ((c)'s cards without theirs),
    ``relax_upper`` ((b) and (c) without R_A for the first probe),
    ``relax_trumps`` (R_D instead of R_DT) and
    ``relax_void`` ((a) in R_DT instead of R_DV), ``relax_discard`` ((a) in
    R_DV instead of R_DD), ``real_first`` (off: R_A raced against the real game
    with doubling budgets, as before the twenty-fifth session), ``fail_weight`` (R_A's
    share of that race: False even, an int that weight, True FAIL_RACE_WEIGHT),
    ``trump_leads_last`` ((a)'s fail proofs with the defence's trump leads in the
    heuristic's place), ``excuse_lead_last`` (theirs with
    the defence's Excuse lead in the heuristic's place), ``attack_trump_leads_last``
    ((a)'s made proof with the attack's trump leads in the heuristic's place),
    ``relax_fail`` ((a) with R_A beside the real game after a relaxed fail),
    ``narrow`` ((b) and (c) by plain bisection, each probe to its end), for
    measurements against a technique switched off; the values never change."""
    from .. import parallel

    parallel.check_threads(threads)
    _check_limits(node_budget, deadline, tt_bits)
    start = time.monotonic()
    features = dict(features or {})
    relax_first = features.pop("relax_first", True)
    relax_value = features.pop("relax_value", True)
    relax_floor = features.pop("relax_floor", True) and relax_value
    relax_card_floor = features.pop("relax_card_floor", True) and relax_floor
    sweep_classes = features.pop("sweep_classes", True)
    narrow = features.pop("narrow", True)
    relax_upper = features.pop("relax_upper", True) and relax_value
    relax_cards = features.pop("relax_cards", True) and relax_value
    relax_void = features.pop("relax_void", True)
    relax_discard = features.pop("relax_discard", True) and relax_void
    # on for 4 and 5 players: R_A raced against the real game gained 2 of 50 4p first
    # leads within 2e7 nodes (x1.04 on those both finish) but lost 2 of 50 3p ones
    # within 1e7 (x0.83), 5p level (RESULTS.md, seventh and eighth sessions); with R_A
    # favoured 16:1 (fourteenth session) still mixed there; with quasi-symmetry
    # (twenty-second session, 50 deals at 1e7) 5p 29 finish against 28, x1.05, none
    # dearer (deal 10 x1.9), 3p the same 22 but mixed (x0.32-7.9): on for 5p too.
    # With R_A run alone after the real game's first budget (``real_first``,
    # twenty-fifth session) 3p is level or better: x1.15 geometric mean on the 21 of
    # 50 first leads both finish within 1e7 nodes (22 finish against 23), x1.02 on
    # the 30 of 50 at 1.6e8 (31 finish against 30; R_A or the real game is each the
    # cheaper on about half the fails, x0.04-18 a deal, and R_A finishes where the
    # real game does not): on for every player count
    relax_fail = features.pop("relax_fail", True)
    real_first = features.pop("real_first", True)
    weight = features.pop("fail_weight", True)
    fail_weight = FAIL_RACE_WEIGHT if weight is True else 1 if weight is False else int(weight)
    trump_leads_last = features.pop("trump_leads_last", True) \
        and TRUMP_LEADS_LAST.get(state.players, False)
    excuse_lead_last = features.pop("excuse_lead_last", True)
    attack_trump_leads_last = features.pop("attack_trump_leads_last", True) \
        and ATTACK_TRUMP_LEADS_LAST.get(state.players, False)
    # (b) and (c) ask R_DT (R_DV, below it, misses more of their made-type probes:
    # at 13 left 5 of 10 values within 3e7 nodes against 7); (a) asks R_DV
    value_game = "defence-trumps" if features.pop("relax_trumps", True) else "defence"
    # (a) asks R_DD (R_DV where, besides, a defender's discards are deferred), else
    # R_DV; the cards' made answers too
    relaxed_game = (R_DD if relax_discard else "defence-void") \
        if relax_void and value_game == "defence-trumps" else value_game

    def new_core(objective: str | None = None, relax: str | None = None) -> Any:
        c = face.from_state(state, tt_bits=tt_bits, poignee=poignee)
        if features:
            c.set_features(**features)
        if objective is not None:
            c.set_objective(objective)
        if relax is not None:
            c.set_relax(relax)
        return c

    core = new_core()
    steps: list[tuple[str, float, int]] = []
    attack = core.side_of_to_act()

    def run(stage: str, fn: Any) -> Any:
        t0, n0 = time.monotonic(), core.stats()["nodes"]
        out = fn()
        steps.append((stage, time.monotonic() - t0, core.stats()["nodes"] - n0))
        return out

    extra_nodes = 0   # nodes of the second cores (charge), counted so far

    def left() -> tuple[int | None, float | None]:
        return _budget_left(core, node_budget, 0), _deadline_left(start, deadline)

    card_made: dict[Move, bool | None] = {}
    card_bounds: dict[Move, tuple[int, int]] = {}
    chelem: int | None = None

    def result(stage: str | None, stopped: str | None, **kw: Any) -> TarotAnalysis:
        base = dict(made=None, margin_lower=m_lo, margin_upper=m_hi, value=None,
                    lower=t_lo, upper=t_hi, cards={}, line=None, card_made=card_made,
                    card_bounds=card_bounds, chelem=chelem)
        base.update(kw)
        return TarotAnalysis(nodes=core.stats()["nodes"] + extra_nodes,
                             seconds=time.monotonic() - start,
                             stopped=stopped, stage=stage, steps=steps, **base)

    def stop_reason() -> str:
        b, d = left()
        return "node_budget" if b is not None and b <= 0 else "deadline"

    def charge(other: Any, since: int = 0, in_step: bool = True) -> int:
        """A second core's nodes beyond ``since`` (what was counted of it before), in
        the totals, against the budget (the main core's counts are read against it
        from here on) and in the last step. Returns its count, the next ``since``."""
        nonlocal extra_nodes, node_budget
        total = other.stats()["nodes"]
        new = total - since
        extra_nodes += new
        if node_budget is not None:
            node_budget = max(0, node_budget - new)
        if in_step:
            stage, secs, nodes = steps[-1]
            steps[-1] = (stage, secs, nodes + new)
        return total

    # (a) made or not
    core.set_objective("margin")
    m_lo, m_hi = core.bounds()
    core.set_objective("T")
    t_lo, t_hi = core.bounds()
    core.set_objective("margin")
    b, d = left()
    # the second cores of (a) and of the cards' made answers are dropped once charged
    # (each holds a table); (a)'s is made only if R_DD fails
    raced: list[Any] = []

    def make_fail_core() -> Any:
        raced.append(new_core("margin", "attack"))
        return raced[-1]

    made = run("made", lambda: _made_probe(core, b, d, relax_first, relaxed_game,
                                           make_fail_core if relax_fail else None,
                                           fail_weight, trump_leads_last,
                                           excuse_lead_last, attack_trump_leads_last,
                                           real_first))
    for other in raced:
        charge(other)
    raced.clear()
    if made is None:
        return result("made", stop_reason())
    m_lo, m_hi = (max(m_lo, 0), m_hi) if made else (m_lo, min(m_hi, -1))
    least_made, most_failed = made_T_bounds(state, poignee)
    if made:
        t_lo = max(t_lo, least_made)
    else:
        t_hi = min(t_hi, most_failed)
    if progress is not None:
        progress("made", made)
    # each card's made-type answer asked in the relaxed game first (_card_made)
    card_relaxed = new_core("margin", relaxed_game) \
        if relax_first and made == bool(attack) else None
    run("card made", lambda: card_made.update(
        _card_made(core, made, attack, node_budget, deadline, start, card_relaxed)))
    if card_relaxed is not None:
        charge(card_relaxed)
        card_relaxed = None
    # (b) the exact T
    core.set_objective("T")
    b, d = left()
    relaxed, relaxed_seen = None, 0
    upper, upper_seen = None, 0     # R_A, kept from (b) into (c)
    if relax_value:
        relaxed = new_core("T", value_game)
        first = None
        if relax_floor and t_lo < t_hi:
            # R_DD's exact T first, within its share of the limits: a proven lower
            # bound (R_DD <= real) and often the value, so the bisection starts above
            # it, its first probe just above it
            floor_core = new_core("T", R_DD)
            share = VALUE_FLOOR_SHARE.get(state.players, FLOOR_SHARE)
            fv, fok = run("value floor", lambda: floor_core.value(
                node_budget=None if b is None else int(b * share),
                deadline=None if d is None else d * share, hi=t_hi))
            fv = _floor_proven(floor_core, fv, fok)
            charge(floor_core)
            floor_core = None
            if fv > t_lo:
                t_lo = min(fv, t_hi)
                if fok:
                    first = fv + 1
            b, d = left()
        if sweep_classes and t_lo < t_hi:
            # the chelem and the petit au bout first, within CLASS_SHARE of the limits
            # (a sweep decided by the points-blind probes; elsewhere they stop at once:
            # the other side has a sure trump trick)
            class_core = new_core("T")
            class_core.set_features(**{**features, "partition": False})
            t_lo, t_hi, held = run("value classes", lambda: _sweep_classes(
                class_core, t_lo, t_hi,
                None if b is None else int(b * CLASS_SHARE),
                None if d is None else d * CLASS_SHARE))
            seen = charge(class_core)
            chelem = held
            if held is not None and cards:
                # a sweep decides part of the deal: each card's interval from the
                # classes too, within CARD_CLASS_SHARE of what is left
                b, d = left()
                card_bounds.update(run("card classes", lambda: _card_classes(
                    class_core, None if b is None else int(b * CARD_CLASS_SHARE),
                    None if d is None else d * CARD_CLASS_SHARE)))
                charge(class_core, seen)
            class_core = None
            if first is not None and first > t_hi:
                first = None
            b, d = left()
        upper = new_core("T", "attack") if relax_upper else None
        value, t_lo, t_hi = run("value", lambda: _value_relaxed_first(
            core, relaxed, t_lo, t_hi, b, d, first=first, narrow=narrow, upper=upper))
        relaxed_seen = charge(relaxed)
        if upper is not None:
            upper_seen = charge(upper)
        ok = value is not None
    else:
        value, ok = run("value", lambda: core.value(node_budget=b, deadline=d,
                                                    lo=t_lo, hi=t_hi))
        if not ok:
            t_lo, t_hi = core.last_bounds()
    if not ok:
        return result("value", stop_reason(), made=made)
    t_lo = t_hi = value
    if progress is not None:
        progress("value", value)
    # (c) every card
    out: dict[Move, CardResult] = {}
    if cards:
        hi, lo = (value, None) if attack else (None, value)

        def card_value(c: Any, card: int, budget: int | None, rd: Any = None,
                       fl: Any = None, cards_left: int = 1, ua: Any = None) -> CardResult:
            t0, s0 = time.monotonic(), c.stats()
            others = [x for x in (rd, fl, ua) if x is not None]    # their nodes count too
            others0 = [x.stats()["nodes"] for x in others]
            f0 = 0 if fl is None else fl.stats()["nodes"]
            c.play(card)
            if rd is None:
                v, complete = c.value(node_budget=budget,
                                      deadline=_deadline_left(start, deadline),
                                      lo=lo, hi=hi, guess=value)
                blo, bhi = (v, v) if complete else c.last_bounds()
            else:
                # each probe in R_D first (``rd``: the relaxed core of (b)), the first
                # at the position's value, as the core's MTD(f) step would; R_A
                # (``ua``: (b)'s) for the fail proofs
                rd.play(card)
                if ua is not None:
                    ua.play(card)
                blo, bhi = c.bounds()
                blo, bhi = max(blo, lo if lo is not None else blo), \
                    min(bhi, hi if hi is not None else bhi)
                first = value if attack else value + 1
                if fl is not None and blo < bhi:
                    # the card's exact T in R_DD first (``fl``, relax_floor): a proven
                    # floor, often the card's value; the first probe just above it
                    d_left = _deadline_left(start, deadline)
                    fv, fok = _value_after(
                        fl, card, None if budget is None
                        else int(budget * FLOOR_SHARE / cards_left),
                        None if d_left is None else d_left * FLOOR_SHARE / cards_left, hi=bhi)
                    if budget is not None:
                        budget = max(0, budget - (fl.stats()["nodes"] - f0))
                    fv = _floor_proven(fl, fv, fok)
                    if fv > blo:
                        blo = min(fv, bhi)
                        if fok:
                            first = blo + 1
                v, blo, bhi = _value_relaxed_first(
                    c, rd, blo, bhi, budget, _deadline_left(start, deadline),
                    first=first, narrow=narrow, upper=ua)
                complete = v is not None
                rd.undo()
                if ua is not None:
                    ua.undo()
            c.undo()
            st = c.stats()
            move = Move("card", card)
            nodes = st["nodes"] - s0["nodes"] + sum(
                x.stats()["nodes"] - n for x, n in zip(others, others0, strict=True))
            return CardResult(v if complete else None, blo, bhi, nodes,
                              complete, time.monotonic() - t0,
                              stopped=None if complete else "deadline",
                              tt_hits=st["tt_hits"] - s0["tt_hits"],
                              tt_probes=st["tt_probes"] - s0["tt_probes"], card=move)

        legal = face.cards_of(core.legal_mask())
        if threads == 1:
            floor_cards = new_core("T", R_DD) \
                if relax_card_floor and relax_cards else None
            # the second cores' nodes counted so far, charged after each card
            seen = [[c, n] for c, n in ((relaxed, relaxed_seen), (upper, upper_seen),
                                        (floor_cards, 0)) if c is not None]
            for i, card in enumerate(legal):
                r = card_value(core, card, _budget_left(core, node_budget, 0),
                               relaxed if relax_cards else None, floor_cards, len(legal) - i,
                               upper if relax_cards else None)
                for pair in seen:
                    pair[1] = charge(pair[0], pair[1], in_step=False)
                if not r.complete:
                    r.stopped = stop_reason()
                out[r.card] = r
                if not r.complete:
                    break
        else:
            share = None if node_budget is None else max(
                1, (node_budget - core.stats()["nodes"]) // threads)
            own = parallel.per_thread(lambda _: new_core())
            spent: dict[int, int] = {}

            def job(card: int) -> CardResult:
                c = own(0)
                base = spent.setdefault(id(c), c.stats()["nodes"])
                budget = None if share is None else max(0, share - (c.stats()["nodes"] - base))
                r = card_value(c, card, budget if budget is None or budget > 0 else 1)
                if not r.complete and share is not None and \
                        c.stats()["nodes"] - base >= share:
                    r.stopped = "node_budget"
                return r

            for r in parallel.ordered_map(job, legal, threads):
                out[r.card] = r
        steps.append(("cards", sum(r.seconds for r in out.values()),
                      sum(r.nodes for r in out.values())))
        if progress is not None:
            progress("cards", out)
        if not all(r.complete for r in out.values()) or len(out) < len(legal):
            first_stop = next((r.stopped for r in out.values() if not r.complete), None)
            return result("cards", first_stop or stop_reason(), made=made, value=value,
                          cards=out)
    # (d) the line
    moves = None
    if line:
        cards_line = run("line", lambda: _best_line(core, value, node_budget, deadline,
                                                    start, 0))
        if cards_line is None:
            return result("line", stop_reason(), made=made, value=value, cards=out)
        moves = [Move("card", c) for c in cards_line]
        if progress is not None:
            progress("line", moves)
    return result(None, None, made=made, value=value, cards=out, line=moves)


# (most tricks left, horizon) per player count, from the measurements in
# default_horizon's docstring; None: the exact search to the end
_HORIZONS = {
    3: ((11, None), (12, 4), (16, 3), (22, 2), (24, 1)),
    4: ((8, None), (9, 3), (13, 2), (18, 1)),
    5: ((7, None), (10, 2), (15, 1)),
}


# the table before issue 23 (default_horizon(state, search="before"))
_HORIZONS_BEFORE = {
    3: ((9, None), (10, 5), (12, 4), (16, 3), (22, 2), (24, 1)),
    4: ((7, None), (9, 3), (13, 2), (18, 1)),
    5: ((6, None), (7, 3), (10, 2), (15, 1)),
}


def tricks_left(state: Any) -> int:
    """Tricks still to play at ``state``, the one in progress counted."""
    return face.HAND_SIZE.get(state.players, 0) - state.trick_no()


def default_horizon(state: Any, search: str = "now") -> int | None:
    """Horizon for ``solve_cards`` of one sampled world of ``state`` (e.g. in pimc):
    None (exact search to the end) when that is cheap at this point, else the largest
    horizon whose median cost stays around 50k-150k nodes.

    Measured (2026-11, ``solve_cards`` of the position and every card, tt_bits 20,
    20 deals of benchmarks/deals/tarot<n>.txt, garde sans, the benchmark's taker and
    seeded random play up to the point; median nodes, "k left/H"):

    * exact: 3p 8 left 23k, 9 50k, 10 146k, 11 450k; 4p 6 left 10k, 7 55k, 8 338k,
      9 1.35M; 5p 6 left 29k, 7 177k, 8 1.08M;
    * 3p: 10/5 86k; 12/3 30k, 12/4 149k; 15/3 96k; 16/3 101k; 18/2 35k, 18/3 269k;
      21/2 87k; 22/2 147k; 24/1 12k, 24/2 294k;
    * 4p: 8/3 78k, 8/4 228k; 9/2 23k, 9/3 143k; 10/2 26k, 10/3 208k; 12/2 57k;
      13/2 101k; 14/2 199k; 15/1 13k, 15/2 349k; 18/1 36k, 18/2 1.4M;
    * 5p: 7/2 21k, 7/3 98k; 8/2 34k, 8/3 171k; 9/2 58k, 9/3 305k; 10/2 105k;
      11/2 173k; 12/1 13k; 15/1 28k, 15/2 400k.

    Hence exact up to 9 (3p), 7 (4p), 6 (5p) tricks left, then horizons of 5..1 tricks
    as the deal gets longer. The p90 is 3-10x the median.

    Re-measured with issue 23's search (2026-12-01, same method: 20 deals, garde sans,
    seeded random play, ``solve_cards`` with tt_bits 20; median nodes, before -> now):
    3p 9 left 15.6k -> 8.5k, 10 left 63.9k -> 37.2k, 11 left 43k, 12 left 141k; 4p 7 left
    13.0k -> 4.4k, 8 left 68.9k -> 32.1k, 9 left 225k; 5p 6 left 10.2k -> 7.4k, 7 left
    54.4k -> 25.3k, 8 left 151k. So the worlds are exact from 11 (3p), 8 (4p) and 7
    (5p) tricks left (table ``_HORIZONS``), the horizons above unchanged."""
    n = state.players
    left = tricks_left(state)
    table = _HORIZONS_BEFORE if search == "before" else _HORIZONS
    for most, horizon in table.get(n, ()):
        if left <= most:
            return horizon
    return 1


def principal_variation(state: Any, node_budget: int | None = None,
                        deadline: float | None = None, tt_bits: int = DEFAULT_TT_BITS, *,
                        poignee: int | None = None) -> list[Move]:
    """An optimal line of card play from ``state`` to the end of the deal."""
    res = solve(state, node_budget, deadline, tt_bits, line=True, poignee=poignee)
    if not res.complete:
        raise AtoutError("the search hit its limit before finding the optimal line")
    return res.line


def _calls(hands: list[int], taker: int) -> list[int]:
    """Cards the 5p taker may call (TAROT-CALL-2): Kings, or the lowest honour rank of
    which he lacks a card."""
    for rank in (13, 12, 11, 10):
        cards = [22 + 14 * s + rank for s in range(4)]
        if not all(hands[taker] >> c & 1 for c in cards):
            return cards
    return []


def dd_table(deal: Any, options: dict[str, Any] | None = None, dealer: int = 0,
             node_budget: int | None = None, deadline: float | None = None,
             tt_bits: int = DEFAULT_TT_BITS,
             horizon: int | str | None = None) -> dict[tuple[int, str], TarotResult]:
    """DD value of every seat as taker in garde sans (dog to the attack) and garde
    contre (dog to the defence), eldest hand leading. With 5 players the taker calls
    the card (TAROT-CALL-2) that maximises his own score (2T with a partner, 4T alone,
    TAROT-SCORE-6; ``TarotResult.called``). Limits apply per solve.

    ``horizon``: None searches every entry to the end (out of reach of most full deals:
    give a limit); an integer or ``"auto"`` (``default_horizon``) gives estimates by the
    horizon search (``ANALYSIS_EVALUATION``), ``exact=False`` in their results."""
    from ..games import tarot as rules

    opts = rules.resolve_options(options)
    n = opts["players"]
    hands, dog = rules._check_deal(deal, n)
    aside = sum(1 << c for c in dog)
    out: dict[tuple[int, str], TarotResult] = {}
    for taker in range(n):
        for contract in ("garde_sans", "garde_contre"):
            calls: list[int | None] = [None]
            if n == 5:
                calls = list(_calls(hands, taker)) or [None]
            best: TarotResult | None = None
            best_score = None
            for called in calls:
                partner = None
                if called is not None:
                    holder = next((s for s, h in enumerate(hands) if h >> called & 1), None)
                    partner = None if holder == taker else holder
                st = rules.TarotState.for_play(list(hands), taker=taker, contract=contract,
                                               partner=partner, called_card=called,
                                               aside=aside, dealer=dealer, options=opts)
                h = default_horizon(st) if horizon == "auto" else horizon
                res = solve(st, node_budget, deadline, tt_bits, line=False, horizon=h,
                            evaluation=ANALYSIS_EVALUATION)
                res.called = called
                score = None
                if res.value is not None:
                    score = res.value * (2 if partner is not None else 4 if n == 5 else 1)
                if best is None or (score is not None and
                                    (best_score is None or score > best_score)):
                    best, best_score = res, score
            out[(taker, contract)] = best
    return out
