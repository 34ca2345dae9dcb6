"""Double-dummy analysis for Tarocchini (Ottocento and Terziglio; all hands, the
discard and a solo stock visible): exact, or depth-limited with a static evaluation
(``horizon``).

Objective (the true one of the play phase): **side 1's final total minus side 0's
final total, in half points** (``value``; ``value / 2`` is in card points), where a
side's total is its declarations (fixed inputs, TAROC-DECL-4) + the combinations of
its final pile (TAROC-DECL-6, after the Matto rules TAROC-MATTO-2..5, the discard
OTTO-DEAL-3 / TERZ-BID-2 and a solo stock TERZ-BID-3) + its card points with pair
counting (TAROC-PTS-2) + 6 for the last trick (OTTO-SCORE-1, TERZ-SCORE-1).

* Ottocento: side 0 = team A (seats 0, 2), side 1 = team B (seats 1, 3): the value is
  B's hand total minus A's.
* Terziglio: side 0 = the declarer, side 1 = the two opponents: the value is the
  opponents' total minus the declarer's (the declarer wins the deal iff value < 0,
  TERZ-SCORE-2).  Game points (rounding, TERZ-SCORE-3..6) are not searched: they are
  a monotone step function of this difference except for rounding, and the margin is
  what a card-play analysis compares.

Side 1 maximises the value and side 0 minimises it (``state.side_of(seat)``), as the
PIMC agent assumes.  The search lives in the Cython core
(``solver.tarocchini_core.DDSolver``): null-window fail-soft alpha-beta driven by
MTD(f) then bisection, a ``2**tt_bits`` transposition table at trick boundaries keyed
on the hands, the leader and the captured history the value still depends on (which
combination-relevant cards side 1 has captured, debts, "has won a trick", pips held
while the Matto is out), values stored relative to the card points taken; merged
equivalent cards (pips with no card between them, Moors of one hand) and move
ordering (TT move, cheap winners, points to a winning partner, low ducks).

Horizon search (``horizon=H``, for positions whose exact search is out of reach, see
``default_horizon``): the current trick and the next H tricks are searched exactly and
the trick boundary after them is scored by the core's static evaluation (captured
points and combinations, plus the remaining cards projected to the sides by their
sure tricks and trump strength: ``static_eval`` in src_ext/tarocchini_core.pyx), on
the scale of the exact value.  The result is the exact value of that truncated game,
``exact=False``; a horizon reaching the last trick is the exact search, bit for bit.

The exact analysis (issue 24, ``analyse``): the questions in a player's order under
one node budget / deadline and one table -- (a) who comes out ahead (one null-window
probe at ``ahead_threshold``: in Terziglio, does the declarer win, TERZ-SCORE-2; in
Ottocento, is team B strictly ahead), (b) the exact margin (MTD(f) from the probe's
fail-soft bound, then bisection), (c) every card (each searched from (b)'s value, a
bound of it), (d) the optimal line (one probe per card tried).  A stopped analysis
keeps what it proved (``TarocchiniAnalysis``: None for an unproven answer, the
margin's proven interval).  ``search="before"`` gives the search as it was before
(``BEFORE_FEATURES``), for benchmarks/dd_tarocchini.py.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any

from ..cards import mask_of
from ..core.tarocchini import (
    DDSolver,
    Game,
    Position,
    game_of_state,
    make_game,
    make_position,
    position_of_state,
)
from ..errors import DealError, OptionError
from ..games.base import Move
from ..parallel import per_thread
from . import check_limits as _check_limits
from . import stopped_reason as _stopped
from .result import CardResult, DDResult, limits_spent

DEFAULT_TT_BITS = 18


@dataclass(repr=False)
class TarocchiniResult(DDResult):
    """Result of one Tarocchini double-dummy search: the common fields of
    :class:`DDResult`, ``value`` being side 1 total − side 0 total in half points."""

    @property
    def points(self) -> float | None:
        """The value in card points (half points / 2)."""
        return None if self.value is None else self.value / 2


# One solver per table size and thread, reused across calls (generation tags
# invalidate old entries; threads: solver.parallel).
_solver = per_thread(DDSolver)


def _load(game: Game, position: Position, tt_bits: int) -> DDSolver:
    s = _solver(tt_bits)
    s.configure(*game.args())
    s.set_position(*position.args())
    return s


def check_horizon(horizon: Any) -> int:
    """Validate a horizon (None or 0: exact search to the end; else the number of
    complete tricks searched after the current one); returns it as an int (0 = none)."""
    if horizon is None:
        return 0
    if isinstance(horizon, bool) or not isinstance(horizon, int) or horizon < 0:
        raise OptionError(f"horizon must be None or an integer >= 0 (tricks searched after "
                          f"the current one), got {horizon!r}")
    return horizon


def tricks_left(position: Position) -> int:
    """Tricks still to be completed, the one in progress included."""
    return position.hands[position.leader].bit_count() + (1 if position.trick else 0)


def is_truncated(position: Position, horizon: int | None) -> bool:
    """Does ``horizon`` stop the search before the end (a static evaluation at the
    leaves)?  Not when the stop would leave one trick or none: the last trick is
    played out, which is exact."""
    h = check_horizon(horizon)
    return h > 0 and tricks_left(position) - 1 - h >= 2


# default_horizon: horizon by tricks left L (the trick in progress included), measured
# with solve_cards on 20 deals of benchmarks/deals/tarocchini_<variant>.txt per row
# (endgames by seeded random play, benchmarks/dd_tarocchini.endgame), median nodes
# (p90 where it matters):
#   Ottocento  exact: L=6 74k (p90 153k), L=7 377k (1.8M).
#              L=7: H3 56k, H4 185k;  L=8: H3 111k, H4 533k;  L=9: H2 27k, H3 178k;
#              L=10: H2 51k, H3 387k;  L=11: H2 100k, H3 853k;  L=12: H1 10k, H2 211k;
#              L=13: H1 16k, H2 230k;  L=14: H1 18k, H2 291k;  L=15: H1 22k, H2 409k.
#   Terziglio  exact: L=7 22k (p90 85k), L=8 99k (888k).
#              L=8: H4 41k, H5 50k;  L=9: H4 102k;  L=10: H3 61k, H4 187k;
#              L=11: H3 160k;  L=12: H2 23k, H3 174k;  L=13: H2 45k, H3 354k;
#              L=14: H2 51k;  L=15: H2 83k;  L=16: H2 133k;  L=17: H1 10k, H2 193k;
#              L=18: H1 11k, H2 285k.
# Each extra trick searched costs x5-x20 nodes (large hands early in the deal), so the
# largest H with a median around 150k at most is taken; None where the exact search is
# cheap.  (The p90 is 3-10x the median: pimc's node budget still skips a few worlds.)
_EXACT_UP_TO = {4: 6, 3: 7}
_HORIZON_BY_LEFT = {
    4: {7: 3, 8: 3, 9: 2, 10: 2, 11: 2, 12: 1, 13: 1, 14: 1, 15: 1},
    3: {8: 5, 9: 4, 10: 3, 11: 3, 12: 2, 13: 2, 14: 2, 15: 2, 16: 2, 17: 1, 18: 1, 19: 1},
}


def default_horizon(state: Any) -> int | None:
    """The horizon to use for ``solve_cards`` of one (sampled) world of ``state``.

    None (exact search to the end) when few tricks are left: Ottocento <= 6 tricks
    (exact solve_cards median 74k nodes, p90 153k, on benchmarks/deals/), Terziglio <= 7
    (22k, p90 85k; at 8 tricks the median is 99k but p90 888k).  Else the largest
    horizon whose median solve_cards cost stays around 50k-150k nodes, by tricks left
    L (the trick in progress included; measured on 20 deals per row, figures in the
    comment above ``_HORIZON_BY_LEFT``): Ottocento L 7-8: 3, 9-11: 2, 12-15: 1 (trick 1:
    median 22k nodes, H=2 would take 409k); Terziglio L 8: 5, 9: 4, 10-11: 3, 12-16: 2,
    17-19: 1 (trick 1: 11k, H=2 285k).  Works on a state or a core Position (it reads
    ``hands``, ``leader`` and ``trick``)."""
    n = len(state.hands)
    left = state.hands[state.leader].bit_count() + (1 if state.trick else 0)
    if left <= _EXACT_UP_TO[n]:
        return None
    return _HORIZON_BY_LEFT[n].get(left, 1)


def static_value(game: Game, position: Position) -> int:
    """The core's static evaluation (estimated side 1 − side 0 final totals, half
    points) of a position at a trick boundary: what a horizon search scores its leaves
    with (see ``static_eval`` in src_ext/tarocchini_core.pyx).  Exact when the deal is
    over or one trick is left.  For tests and inspection."""
    s = _load(game, position, DEFAULT_TT_BITS)
    return s.static_value()


def solve_position(game: Game, position: Position, node_budget: int | None = None,
                   deadline: float | None = None, tt_bits: int = DEFAULT_TT_BITS,
                   guess: int = 0, horizon: int | None = None) -> TarocchiniResult:
    """Value of a validated position (see the module docstring and ``solve``)."""
    _check_limits(node_budget, deadline, tt_bits)
    h = check_horizon(horizon)
    s = _load(game, position, tt_bits)
    s.reset_stats()
    t = time.perf_counter()
    value, lo, hi, nodes, complete = s.solve(guess, node_budget or 0, deadline or 0.0, h)
    dt = time.perf_counter() - t
    stats = s.stats()
    return TarocchiniResult(value if complete else None, lo, hi, nodes, complete, dt,
                            stopped=_stopped(complete, node_budget, nodes),
                            tt_hits=stats["tt_hits"], tt_probes=stats["tt_probes"],
                            exact=not is_truncated(position, h))


def solve(state: Any, node_budget: int | None = None, deadline: float | None = None,
          tt_bits: int = DEFAULT_TT_BITS, horizon: int | None = None) -> TarocchiniResult:
    """Double-dummy value of a Tarocchini state in its play phase.

    ``node_budget`` (nodes) and ``deadline`` (seconds) stop the search; the result
    then says ``complete=False`` and gives the proven bounds.  ``horizon`` (None or 0:
    exact search to the end) searches the current trick and the next ``horizon``
    tricks exactly and scores the trick boundary after them with the core's static
    evaluation: the value is then that of the truncated game (``exact=False``; the
    bounds are bounds of that estimate).  A horizon reaching the last trick gives the
    exact value (``exact=True``)."""
    return solve_position(game_of_state(state), position_of_state(state), node_budget,
                          deadline, tt_bits, horizon=horizon)


def solve_cards_position(game: Game, position: Position, node_budget: int | None = None,
                         deadline: float | None = None, tt_bits: int = DEFAULT_TT_BITS,
                         horizon: int | None = None, only: int = 0
                         ) -> tuple[dict[int, CardResult], int]:
    """Value of every legal card (deck index -> CardResult of ``Move("card", c)``) and
    the total node count (one search scores every card; ``horizon`` as in ``solve``,
    counted from ``position``); ``only``: a mask of the deck cards to solve (0: all)."""
    _check_limits(node_budget, deadline, tt_bits)
    h = check_horizon(horizon)
    exact_game = not is_truncated(position, h)
    s = _load(game, position, tt_bits)
    s.reset_stats()
    t = time.perf_counter()
    cards, nodes, complete = s.solve_cards(node_budget or 0, deadline or 0.0, h, only)
    dt = time.perf_counter() - t
    stats = s.stats()
    out = {}
    for card, lo, hi in cards:
        done = lo == hi
        out[card] = CardResult(lo if done else None, lo, hi, nodes, done, dt,
                               stopped=None if done else _stopped(False, node_budget, nodes),
                               tt_hits=stats["tt_hits"], tt_probes=stats["tt_probes"],
                               exact=exact_game, card=Move("card", card))
    return out, nodes


def solve_cards(state: Any, node_budget: int | None = None, deadline: float | None = None,
                tt_bits: int = DEFAULT_TT_BITS,
                horizon: int | None = None, only: Any = None) -> dict[Move, CardResult]:
    """Value of every legal card move of the seat to act.  A card played with a signal
    (``KS:volo``) gets its card's value: signals do not change the play (OTTO-SIG-1).
    ``horizon``: see ``solve`` (truncated results have ``exact=False``).  ``only``:
    solve just the cards of these moves (the others are left out)."""
    only_mask = mask_of(_card_of(m) for m in only) if only else 0
    per_card, _ = solve_cards_position(game_of_state(state), position_of_state(state),
                                       node_budget, deadline, tt_bits, horizon=horizon,
                                       only=only_mask)
    out: dict[Move, CardResult] = {}
    for move in state.legal_moves():
        card = _card_of(move)
        if card in per_card:
            out[move] = replace(per_card[card], card=move)
    return out


def _card_of(move: Move) -> int | None:
    """The card a card move plays (a signal move ``KS:volo`` plays its card)."""
    if move.kind == "card":
        return move.value
    return move.value[0] if move.kind == "signal" else None


def principal_variation(state: Any, node_budget: int | None = None,
                        deadline: float | None = None,
                        tt_bits: int = DEFAULT_TT_BITS) -> list[Move]:
    """An optimal line of play (card moves, no signals) from ``state`` to the end.

    At each turn the first card (lowest deck index) achieving the position's value for
    the side to act is played.  Raises OptionError if a limit stops a search."""
    st = state.copy()
    line: list[Move] = []
    t_end = None if deadline is None else time.perf_counter() + deadline
    while not st.is_over():
        left = None if t_end is None else max(1e-3, t_end - time.perf_counter())
        values = solve_cards(st, node_budget, left, tt_bits)
        cards = {m: r for m, r in values.items() if m.kind == "card"}
        if any(not r.complete for r in cards.values()):
            raise OptionError("principal_variation: a search limit stopped the solver")
        pick = max if st.side_of[st.to_act] == 1 else min
        best = pick(r.value for r in cards.values())
        move = min((m for m, r in cards.items() if r.value == best), key=lambda m: m.value)
        st.play(move)
        line.append(move)
    return line


# ---------------------------------------------------------------------------
# Issue 24: the exact analysis in a player's order, under one deadline
# ---------------------------------------------------------------------------

# the weight of the opponents' answers in the order of the leads (the core's
# ``mobility``, its default; benchmarks/RESULTS.md, 2026-12-03)
MOBILITY = 30
# the core's switches that give the search as it was before issue 24 (no sure-trump
# bounds, no discard counted for its owner, no Matto as a sure card, no merging of
# trumps the Grande cannot reach; the "ahead" question answered by the exact value,
# there being no probe):
# ``search="before"`` of ``analyse``, for benchmarks/dd_tarocchini.py
BEFORE_FEATURES = {"sure": False, "sure_discard": False, "sure_matto": False,
                   "merge_dead": False, "match": False, "mobility": 0, "early_probe": False,
                   "merge2": False, "order": 1}
# ``match`` (the trump-matching caps on the Grande and the Moors, issue 24's third
# session) stays off: sound, but x1.00 nodes (benchmarks/RESULTS.md). Every switch a
# benchmark baseline turns is named in both: the solvers are kept per thread, so a
# switch left out would keep the last search's setting
NOW_FEATURES = {"sure": True, "sure_discard": True, "sure_matto": True, "merge_dead": True,
                "match": False, "mobility": MOBILITY, "early_probe": True, "merge2": True,
                "order": 2}
SEARCHES = ("now", "before")


def ahead_threshold(game: Game) -> int:
    """The margin the "who comes out ahead" probe tests (value >= threshold): 0 in
    Terziglio (the declarer wins iff his total is strictly greater, TERZ-SCORE-2:
    value >= 0 means he does not), 1 in Ottocento (team B strictly ahead; a tie is
    "not ahead", and the exact margin then says which)."""
    return 0 if game.n == 3 else 1


@dataclass(repr=False)
class TarocchiniAnalysis:
    """The exact answers about a Tarocchini play-phase position, in the order a player
    asks them (``analyse``): (a) ``ahead``: does side 1 come out ahead (value >=
    ``threshold``, see ``ahead_threshold``: in Terziglio, the declarer loses); (b)
    ``value``: the exact margin (side 1 total - side 0 total, half points), with
    ``lower``/``upper`` its proven interval; (c) ``cards``: each legal card's
    CardResult (deck index -> result; ``complete=False`` for a card not finished, with
    its proven bounds); (d) ``line``: an optimal line (deck cards).  ``card_ahead``:
    (a) after each legal card (deck index -> ahead or not, None where a limit stopped
    its probe; empty if (a) was not answered).  Each answer is
    None when the limits stopped the analysis before it was proven: nothing here is
    an estimate.  ``stopped``: 'node_budget' or 'deadline', ``stage`` the question it
    was on; ``steps``: (question, seconds, nodes) of each search run."""

    ahead: bool | None
    threshold: int
    value: int | None
    lower: int
    upper: int
    cards: dict[int, CardResult]
    line: list[int] | None
    nodes: int
    seconds: float
    stopped: str | None = None
    stage: str | None = None
    steps: list[tuple[str, float, int]] = field(default_factory=list)
    legal: list[int] = field(default_factory=list)
    card_ahead: dict[int, bool | None] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        return self.stopped is None

    def __repr__(self) -> str:
        v = self.value if self.value is not None else f"[{self.lower},{self.upper}]"
        return (f"TarocchiniAnalysis(ahead={self.ahead}, value={v}, cards={len(self.cards)}"
                f"/{len(self.legal)}, line={'yes' if self.line is not None else 'no'}, "
                f"nodes={self.nodes}, stopped={self.stopped!r})")


def _deck_cards(mask: int) -> list[int]:
    return [c for c in range(62) if mask >> c & 1]


# (a) card by card gets at most this share of the limits left after (a), in equal
# parts (as the Tarot analysis' "card made")
CARD_AHEAD_SHARE = 0.2


def _card_ahead(s: Any, legal: list[int], ahead: bool, thr: int,
                limits: tuple[int, float]) -> tuple[dict[int, bool | None], int]:
    """(a) after each legal card, on the analysis' solver ``s`` (its table warm from
    (a)): where (a)'s answer goes against the side to play, its proof refuted every
    card of that side, so each card has that answer without a search; else one probe
    a card at ``thr`` within an equal part of CARD_AHEAD_SHARE of ``limits`` (node
    budget, seconds; 0: none) -- the card (a)'s proof played is a table hit.
    Returns the answers (None: a limit stopped that card's probe) and the nodes."""
    if ahead != (s.side_to_act() == 1):
        return {c: ahead for c in legal}, 0
    b = 0 if not limits[0] else int(limits[0] * CARD_AHEAD_SHARE) // len(legal)
    d = 0.0 if not limits[1] else limits[1] * CARD_AHEAD_SHARE / len(legal)
    out: dict[int, bool | None] = {}
    spent = 0
    for card in legal:
        if limits[0] and b < 1:
            out[card] = None        # (its share of the node budget is less than a node)
            continue
        s.play(card)
        if s.is_over():
            out[card] = s.final_value() >= thr
        else:
            v, n, ok = s.probe(thr, b, d)
            spent += n
            out[card] = (v >= thr) if ok else None
        s.undo()
    return out, spent


def analyse_position(game: Game, position: Position, node_budget: int | None = None,
                     deadline: float | None = None, tt_bits: int = DEFAULT_TT_BITS, *,
                     cards: bool = True, line: bool = True, progress: Any = None,
                     search: str = "now", threads: int = 1,
                     features: dict[str, Any] | None = None) -> TarocchiniAnalysis:
    """The exact analysis of a validated position, one table and one node budget /
    deadline for the whole (each question is cheaper once the earlier is known):

    (a) ahead or not: one null-window search at ``ahead_threshold`` (fail-soft: its
        result is also a proven bound of the margin); then the same after each legal
        card (``card_ahead``, ``_card_ahead``): free where (a)'s answer goes against
        the side to play, else one probe a card within a share (CARD_AHEAD_SHARE) of
        the limits left;
    (b) the exact margin: MTD(f) from the probe's bound, then bisection, inside the
        interval (a) proved;
    (c) every legal card (``cards``): each card's search starts from (b)'s value, a
        bound of it (side 1's cards are worth at most the position, side 0's at least);
    (d) an optimal line (``line``): at each turn the first card (lowest deck index)
        that keeps the value, by one probe per card tried (the table is warm).

    ``progress(stage, answer)`` is called after each answer.  When a limit stops the
    analysis the answers found so far are kept, the rest is None, the margin's proven
    interval is given (and (a) when that interval decides it).  ``search="before"``:
    the search as it was before issue 24 (``BEFORE_FEATURES``; (a) from the exact
    value, (c) by the former solve_cards): same answers, for the benchmark's ratios.
    ``threads``: (c)'s cards are searched in that many threads, each with its own
    solver and table (the same values; the node budget is checked as each card
    starts, so the threads may together pass it by what their last searches spend).
    ``features``: core switches set after those of ``search`` (``DDSolver.set_features``;
    benchmarks: e.g. ``{"sure_matto": False, "merge_dead": False}``), same values."""
    from .. import parallel

    parallel.check_threads(threads)
    _check_limits(node_budget, deadline, tt_bits)
    if search not in SEARCHES:
        raise OptionError(f"search must be one of {', '.join(SEARCHES)}, got {search!r}")
    start = time.monotonic()
    s = _load(game, position, tt_bits)
    feats = {**(BEFORE_FEATURES if search == "before" else NOW_FEATURES), **(features or {})}
    s.set_features(**feats)
    s.reset_stats()
    thr = ahead_threshold(game)
    steps: list[tuple[str, float, int]] = []
    spent = [0]
    legal = _deck_cards(s.legal())
    maxi = s.side_to_act() == 1

    def limits() -> tuple[int, float] | None:
        """(node budget, seconds) left for the next core call (0: none); None when a
        limit is used up."""
        b = 0
        if node_budget is not None:
            b = node_budget - spent[0]
            if b <= 0:
                return None
        d = 0.0
        if deadline is not None:
            d = deadline - (time.monotonic() - start)
            if d <= 0:
                return None
        return b, d

    def why() -> str:
        if node_budget is not None and spent[0] >= node_budget:
            return "node_budget"
        return "deadline"

    def run(stage: str, fn: Any) -> Any:
        t0, n0 = time.monotonic(), spent[0]
        out = fn()
        steps.append((stage, time.monotonic() - t0, spent[0] - n0))
        return out

    lo, hi = s.bounds()
    root_lo, root_hi = lo, hi   # every continuation's value lies in them
    ahead: bool | None = None
    value: int | None = None
    card_ahead: dict[int, bool | None] = {}

    def result(stage: str | None, stopped: str | None, **kw: Any) -> TarocchiniAnalysis:
        a = ahead
        if a is None and stopped is not None:   # the proven interval may decide (a)
            a = True if lo >= thr else False if hi < thr else None
        base = dict(ahead=a, value=value, cards={}, line=None, card_ahead=card_ahead)
        base.update(kw)
        return TarocchiniAnalysis(threshold=thr, lower=lo, upper=hi,
                                  nodes=spent[0], seconds=time.monotonic() - start,
                                  stopped=stopped, stage=stage, steps=steps,
                                  legal=legal, **base)

    def exact(guess: int, a: int, b: int) -> tuple[int, int, bool]:
        lim = limits()
        if lim is None:
            return a, b, False
        v, l2, h2, n, ok = s.solve(guess, lim[0], lim[1], 0, a, b)
        spent[0] += n
        return l2, h2, bool(ok)

    # (a) ahead or not
    if search == "now":
        def probe_a() -> tuple[int, bool]:
            lim = limits()
            if lim is None:
                return 0, False
            v, n, ok = s.probe(thr, lim[0], lim[1])
            spent[0] += n
            return v, bool(ok)
        v, ok = run("ahead", probe_a)
        if not ok:
            return result("ahead", why())
        ahead = v >= thr
        if ahead:
            lo = max(lo, v)
        else:
            hi = min(hi, v)
        guess = v
    else:
        l2, h2, ok = run("ahead", lambda: exact(0, lo, hi))
        lo, hi = max(lo, l2), min(hi, h2)
        if not ok:
            return result("ahead", why())
        ahead = lo >= thr
        guess = lo
    if progress is not None:
        progress("ahead", ahead)
    # (a) for each card: which cards keep the answer (the cheap question a card by
    # card, what a player asks when the exact margin is out of reach)
    lim = limits()
    if lim is not None:
        def ahead_cards() -> None:
            got, n = _card_ahead(s, legal, ahead, thr, lim)
            spent[0] += n
            card_ahead.update(got)
        run("card ahead", ahead_cards)
    # (b) the exact margin
    if lo < hi:
        l2, h2, ok = run("value", lambda: exact(guess, lo, hi))
        lo, hi = max(lo, l2), min(hi, h2)
        if not ok:
            return result("value", why())
    else:
        steps.append(("value", 0.0, 0))
    value = lo
    if progress is not None:
        progress("value", value)
    # (c) every card
    out: dict[int, CardResult] = {}
    if cards:
        t_c, n_c = time.monotonic(), spent[0]
        if search == "before":
            lim = limits()
            got = []
            if lim is not None:
                got, n, _ = s.solve_cards(lim[0], lim[1], 0, 0)
                spent[0] += n
            for card, clo, chi in got:
                done = clo == chi
                out[card] = CardResult(clo if done else None, clo, chi, n, done,
                                       time.monotonic() - t_c,
                                       stopped=None if done else why(), card=card)
        else:
            window = (root_lo, value) if maxi else (value, root_hi)
            loaded: dict[int, Any] = {id(s): s}
            lock = threading.Lock()

            def card_value(card: int) -> CardResult:
                c = _solver(tt_bits)
                if id(c) not in loaded:     # a worker thread's own solver and table
                    c.configure(*game.args())
                    c.set_features(**feats)
                    c.set_position(*position.args())
                    loaded[id(c)] = c
                t0 = time.monotonic()
                c.play(card)
                n = 0
                if c.is_over():
                    cl = ch = c.final_value()
                    ok = True
                else:
                    with lock:
                        lim = limits()
                    cl, ch, ok = window[0], window[1], False
                    if lim is not None:
                        _, cl, ch, n, ok = c.solve(value, lim[0], lim[1], 0, *window)
                        with lock:
                            spent[0] += n
                c.undo()
                return CardResult(cl if ok else None, cl, ch, n, bool(ok),
                                  time.monotonic() - t0,
                                  stopped=None if ok else why(), card=card)

            for r in parallel.ordered_map(card_value, legal, threads):
                out[r.card] = r
                if not r.complete and threads == 1:
                    break
        steps.append(("cards", time.monotonic() - t_c, spent[0] - n_c))
        if progress is not None:
            progress("cards", out)
        if len(out) < len(legal) or not all(r.complete for r in out.values()):
            return result("cards", why(), cards=out)
    # (d) the line
    moves: list[int] | None = None
    if line:
        def best_line() -> list[int] | None:
            got: list[int] = []
            first = True
            try:
                while not s.is_over():
                    side1 = s.side_to_act() == 1
                    found = None
                    for card in _deck_cards(s.legal()):
                        if first and card in out:
                            keeps = out[card].value == value
                        else:
                            lim = limits()
                            if lim is None:
                                return None
                            s.play(card)
                            if s.is_over():
                                v, n, ok = s.final_value(), 0, True
                                v_ok = v >= value if side1 else v <= value
                            else:
                                # side 1: child >= value means == value; side 0: <=
                                beta = value if side1 else value + 1
                                v, n, ok = s.probe(beta, lim[0], lim[1])
                                v_ok = (v >= beta) if side1 else (v < beta)
                            s.undo()
                            spent[0] += n
                            if not ok:
                                return None
                            keeps = v_ok
                        if keeps:
                            found = card
                            break
                    if found is None:  # pragma: no cover - a consistent search finds one
                        raise OptionError("internal error: no card keeps the DD value")
                    s.play(found)
                    got.append(found)
                    first = False
            finally:
                for _ in got:
                    s.undo()
            return got
        moves = run("line", best_line)
        if moves is None:
            return result("line", why(), cards=out)
        if progress is not None:
            progress("line", moves)
    return result(None, None, cards=out, line=moves)


# card_side_probes: the node budget of one card's probe
CARD_SIDE_NODES = 500_000


def card_side_probes(state: Any, x: int, cards: list[int], node_budget: int | None = None,
                     deadline: float | None = None, tt_bits: int = DEFAULT_TT_BITS
                     ) -> tuple[dict[int, bool | None], int]:
    """One null-window probe of the margin at ``x`` after each of ``cards`` (deck
    indices, legal at ``state``), in order, on one table, each within CARD_SIDE_NODES
    nodes and all within ``node_budget`` / ``deadline`` (seconds): True proves the
    card's margin >= x, False that it is <= x - 1, None: not proven (or not asked once
    a limit is spent). Returns the answers and the nodes spent. For a stopped
    analysis whose margin lies in [lo, hi]: side 1 picks its highest card, so at its
    turn x = lo finds the cards that keep the margin >= lo; side 0 its lowest, x =
    hi + 1 those that keep it <= hi (the tarot module's ``card_side_probes`` alike)."""
    start = time.monotonic()
    s = _load(game_of_state(state), position_of_state(state), tt_bits)
    s.set_features(**NOW_FEATURES)
    out: dict[int, bool | None] = {}
    spent = 0
    for card in cards:
        b = CARD_SIDE_NODES if node_budget is None else min(CARD_SIDE_NODES,
                                                              node_budget - spent)
        d = None if deadline is None else deadline - (time.monotonic() - start)
        if limits_spent(b, d):
            out[card] = None
            continue
        s.play(card)
        v, n, ok = s.probe(x, b, 0.0 if d is None else d)
        s.undo()
        spent += n
        out[card] = (v >= x) if ok else None
    return out, spent


def analyse(state: Any, node_budget: int | None = None, deadline: float | None = None,
            tt_bits: int = DEFAULT_TT_BITS, *, cards: bool = True, line: bool = True,
            progress: Any = None, search: str = "now", threads: int = 1
            ) -> TarocchiniAnalysis:
    """The exact analysis of a Tarocchini play-phase ``state`` (see
    ``analyse_position``): ahead or not, the exact margin, every legal card (deck
    index -> CardResult; a signal move ``KS:volo`` has its card's value, OTTO-SIG-1),
    an optimal line (deck cards), under one node budget / deadline."""
    return analyse_position(game_of_state(state), position_of_state(state), node_budget,
                            deadline, tt_bits, cards=cards, line=line, progress=progress,
                            search=search, threads=threads)


# Pile combinations of a finished Terziglio hand, both sides together, in half points:
# mean 317 over 117 deals played by the heuristic player (card points are always 174
# half points, declarations averaged 132). The DD value does not say how the total
# splits, so ``value_score`` takes this for the part still to be made.
TERZ_MELDS_HALF = 317


def value_score(state: Any):
    """``score(value)``: an estimate of the Terziglio settlement seen from side 1 (the
    opponents: +2G when they win, -2G when the declarer does; TERZ-SCORE-2..5) for a
    deal of ``state`` that ends with the DD value ``value`` (side 1 total - side 0
    total, half points). A tie is the declarer's loss (TERZ-SCORE-2). The winning
    side's total W is (S + |value|) / 2 with S the two totals' sum: card points and
    last trick (186 half points), the declarations made (2 per point) and the pile
    combinations, taken as the larger of those the piles hold already and
    ``TERZ_MELDS_HALF`` (the DD value does not split them). G = rounded W / 50,
    doubled in a solo (TERZ-SCORE-3, TERZ-SCORE-4); capot is not modelled. The score
    never falls as the value rises, so each world's DD line is also its best line for
    the score, and the jump at 0 (about 2 x 2G) makes PIMC weigh winning the deal
    above the margin, which is what the settlement counts. None in Ottocento, whose
    deal total is the margin's own sum (OTTO-SCORE-1)."""
    from ..games import tarocchini as tg

    if state.variant != "terziglio" or state.contract is None:
        return None
    opts = state.options
    multi = bool(opts.get("contatore_multi_use", True))
    maxc = int(opts.get("max_contatori_per_suit_sequence", 2))
    melds = 2 * sum(tg.best_combinations(pile, multi, maxc)[0] for pile in state.piles)
    total = (2 * sum(state.decl_points) + sum(tg.CARD_POINTS_HALF)
             + tg.LAST_TRICK_HALF + max(melds, TERZ_MELDS_HALF))
    solo = 2 if state.contract == "solo" else 1

    def score(value: int | float) -> int:
        w = int(total + abs(value)) // 2
        g = tg.terziglio_rounded(w) // 50 * solo
        return 2 * g if value >= 0 else -2 * g

    return score


def _hands_of(deal: Any) -> tuple[list[int], int]:
    hands = deal.hands if hasattr(deal, "hands") else deal
    out = [int(h) if isinstance(h, int) else sum(1 << c for c in h) for h in hands]
    stock = 0
    if hasattr(deal, "extras"):
        stock = sum(1 << c for c in deal.extras.get("stock", []))
    return out, stock


def dd_table(deal: Any, options: dict[str, Any] | None = None, dealer: int = 0,
             node_budget: int | None = None, tt_bits: int = DEFAULT_TT_BITS,
             deadline: float | None = None,
             horizon: int | str | None = None) -> dict[int, TarocchiniResult]:
    """Terziglio DD table: for each seat as the declarer of a **solo** (no exchange, the
    stock unseen in play and won by the side of the last trick, TERZ-BID-3; no
    declarations), the DD value with the eldest (``dealer + 1``) leading
    (TERZ-PLAY-1).  Values are opponents − declarer in half points, so the declarer
    wins the deal iff the value is negative (TERZ-SCORE-2).  Gioco is not tabled: its
    value depends on the declarer's choice of discard, which is not card play.

    ``deal``: a Deal (3 hands + ``stock``) or a list of 3 hand masks (then no stock).
    ``horizon``: None searches to the end (give a limit on long deals); an integer or
    ``"auto"`` (``default_horizon``) gives estimates, ``exact=False`` in the results."""
    from ..games import tarocchini as tg
    from ..options import resolve
    opts = resolve(tg.OPTIONS, options, tg.NAME)
    hands, stock = _hands_of(deal)
    if len(hands) != 3 or len({h.bit_count() for h in hands}) != 1:
        raise DealError("a Terziglio DD table needs three hands of equal size")
    if not (isinstance(dealer, int) and 0 <= dealer < 3):
        raise DealError(f"dealer must be a seat 0..2, got {dealer!r}")
    leader = (dealer + 1) % 3
    table: dict[int, TarocchiniResult] = {}
    for declarer in range(3):
        sides = tuple(0 if s == declarer else 1 for s in range(3))
        game = make_game(3, sides, stock=stock, discard_side=0,
                         multi_use=bool(opts["contatore_multi_use"]),
                         max_cont=int(opts["max_contatori_per_suit_sequence"]))
        pos = make_position(game, hands, leader=leader)
        h = default_horizon(pos) if horizon == "auto" else horizon
        table[declarer] = solve_position(game, pos, node_budget, deadline, tt_bits,
                                         horizon=h)
    return table
