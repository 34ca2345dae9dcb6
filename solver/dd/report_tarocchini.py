"""What `atout solve` prints for a Tarocchini position (issue 24): the exact answers in
the order a player asks them -- (a) which side comes out ahead, (b) the exact margin,
(c) every legal card's value, (d) the optimal line -- by
:func:`solver.dd.tarocchini.analyse` under one deadline.

When the exact search cannot finish, what it proved is kept (ahead or not when that
was settled, the proven interval of the margin, the cards it finished) and the cards
it did not reach are estimated by the horizon search (exact play for a few tricks,
then the static evaluation), each figure labelled: ``exact`` is never true for a value
the search did not prove.  (The same shape as the Tarot report, solver/dd/report_tarot.py;
no code is shared with it.)"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..games.base import GameState
from . import tarocchini as dd
from .result import (
    answer_from_interval,
    estimated_card_row,
    limits_before_side_probes,
    narrow,
    side_bounds,
)

DEFAULT_DEADLINE = 20.0   # seconds for the whole exact analysis: interactive use

# what the "ahead" answer means, by variant: (question, answer if value >= threshold,
# answer if below)
AHEAD_TEXT = {
    "terziglio": ("does the declarer win (TERZ-SCORE-2)",
                  "no: the opponents' total is at least the declarer's",
                  "yes: the declarer's total is greater"),
    "ottocento": ("is team B (seats 1, 3) ahead (OTTO-SCORE-1)",
                  "yes: team B's total is greater",
                  "no: team A (seats 0, 2) is ahead or level"),
}


# the cards table's column of each card's (a), by variant: its head and its cells
# for a margin at or above the threshold and below it (AHEAD_TEXT's question
# answered; ? where not proven)
AHEAD_COLUMN = {"terziglio": ("declarer wins", "no", "yes"),
                "ottocento": ("B ahead", "yes", "no")}


def _sides(variant: str) -> dict[int, str]:
    return {1: "opponents", 0: "declarer"} if variant == "terziglio" else \
        {1: "team B", 0: "team A"}


def analyse(state: GameState, node_budget: int | None = None, deadline: float | None = None,
            tt_bits: int | None = None, line: bool = True,
            progress: Callable[[str], None] | None = None, threads: int = 1,
            estimates: bool = True) -> dict[str, Any]:
    """The exact analysis as JSON-ready data (see the module docstring); ``progress``
    gets one plain line per answered question; ``threads`` search the cards.
    ``estimates=False`` (``--horizon
    exact``): the cards the exact search did not reach stay unknown (value null, with
    the bound the position's proven margin gives them) instead of estimated."""
    from .report import TAROCCHINI_MEANING

    start = time.monotonic()
    variant = state.variant
    seat = state.to_act
    side = state.side_of[seat]
    kw: dict[str, Any] = {} if tt_bits is None else {"tt_bits": tt_bits}
    if deadline is None:
        deadline = DEFAULT_DEADLINE
    question, yes, no = AHEAD_TEXT[variant]

    def said(stage: str, answer: Any) -> None:
        if progress is None:
            return
        t = time.monotonic() - start
        if stage == "ahead":
            progress(f"(a) {question}? {yes if answer else no} ({t:.1f} s)")
        elif stage == "value":
            progress(f"(b) margin = {answer} half points ({t:.1f} s)")
        elif stage == "cards":
            progress(f"(c) every card solved ({t:.1f} s)")
        elif stage == "line":
            progress(f"(d) optimal line found ({t:.1f} s)")

    if progress is not None:
        progress(f"solving exactly (deadline {deadline:g} s): {question}...")
    budget, seconds = limits_before_side_probes(node_budget, deadline)
    a = dd.analyse(state, node_budget=budget, deadline=seconds, line=line,
                   progress=said, threads=threads, **kw)
    moves = [m for m in state.legal_moves() if dd._card_of(m) is not None]
    rows = []
    missing = []
    for move in moves:
        r = a.cards.get(dd._card_of(move))
        if r is None:
            missing.append(move)
            continue
        rows.append({"move": state.move_token(move), "value": r.value,
                     "lower": r.lower, "upper": r.upper, "exact": bool(r.complete),
                     "complete": bool(r.complete), "nodes": int(r.nodes),
                     "seconds": round(r.seconds, 6)})
        if not r.complete:
            rows[-1]["stopped"] = r.stopped or "deadline"
            rows[-1]["bounds"] = [r.lower, r.upper]
    estimated_with = None
    # side 1's cards are worth at most the position, side 0's at least; a side probe
    # at that bound (dd.card_side_probes) proves which cards keep it
    bounds = [None, a.upper] if side == 1 else [a.lower, None]

    def ahead_bound(card: int) -> tuple[int | None, int | None] | None:
        # (a) after the card (a.card_ahead): at least the threshold, or below it
        got = a.card_ahead.get(card)
        return None if got is None else (a.threshold, None) if got else \
            (None, a.threshold - 1)

    sides, side_nodes = side_bounds(
        dd.card_side_probes, state, sorted({dd._card_of(m) for m in missing}),
        a.lower if side == 1 else a.upper + 1,
        None if node_budget is None else node_budget - a.nodes,
        deadline - (time.monotonic() - start), kw.get("tt_bits", dd.DEFAULT_TT_BITS))
    if missing and not estimates:
        for move in missing:
            lo, hi = narrow(*narrow(bounds[0], bounds[1], sides.get(dd._card_of(move))),
                            ahead_bound(dd._card_of(move)))
            rows.append({"move": state.move_token(move), "value": None, "lower": lo,
                         "upper": hi, "exact": False, "complete": False, "nodes": 0,
                         "seconds": 0.0, "stopped": a.stopped or "deadline",
                         "bounds": [lo, hi]})
    elif missing:
        # the cards the exact search did not reach: horizon estimates, labelled, kept
        # inside the side of the position's proven margin that bounds every card
        estimated_with = dd.default_horizon(state) or 1
        est = dd.solve_cards(state, horizon=estimated_with, only=missing, **kw)
        for move, r in est.items():
            lo, hi = narrow(*narrow(bounds[0], bounds[1], sides.get(dd._card_of(move))),
                            ahead_bound(dd._card_of(move)))
            rows.append(estimated_card_row(state.move_token(move), r, lo, hi))
    for row in rows:
        # each card's (a): its own probe's answer, else what its proven interval says
        got = a.card_ahead.get(dd._card_of(state.parse_move(row["move"])))
        if got is None:
            got = answer_from_interval(row, a.threshold, a.threshold - 1)
        row["ahead"] = {"answer": got, "exact": got is not None,
                        "text": None if got is None else (yes if got else no)}
    sign = 1 if side == 1 else -1
    rows.sort(key=lambda x: (not x["exact"], x["value"] is None, -sign * (x["value"] or 0)))
    names = _sides(variant)
    out: dict[str, Any] = {
        "game": "tarocchini", "variant": variant, "to_act": seat,
        "side_to_act": names[side], "value_meaning": TAROCCHINI_MEANING[variant],
        "ahead": {"question": question, "answer": a.ahead, "exact": a.ahead is not None,
                  "threshold": a.threshold,
                  "text": None if a.ahead is None else (yes if a.ahead else no)},
        "margin": {"value": a.value, "lower": a.lower, "upper": a.upper,
                   "exact": a.value is not None, "unit": "half points"},
        "cards": rows, "cards_estimated_with_horizon": estimated_with,
        "horizon": estimated_with,
        "exact": a.complete and bool(rows) and all(r["exact"] for r in rows),
        "estimate": estimated_with is not None, "complete": a.complete,
        "limits": {"node_budget": node_budget, "deadline": deadline},
        "stopped_at": a.stage, "deadline": deadline, "nodes": int(a.nodes) + side_nodes,
        "seconds": round(time.monotonic() - start, 3),
        "steps": [{"question": q, "seconds": round(s, 4), "nodes": int(n)}
                  for q, s, n in a.steps],
    }
    if a.stopped is not None:
        out["stopped"] = a.stopped
    if a.value is not None:
        out["value"] = a.value
    if a.line is not None:
        from ..games.base import Move
        out["line"] = [state.move_token(Move("card", c)) for c in a.line]
    return out


def format_analysis(a: dict[str, Any], players: int) -> str:
    """The text of :func:`analyse`'s result."""
    from .report import GAME_TITLES, analysis_cards_and_line, cards_heading, stop_reason

    why = stop_reason(a)
    lines = [f"{GAME_TITLES.get(a['variant'], 'Tarocchini')}: seat {a['to_act']} to play "
             f"({a['side_to_act']}); values are {a['value_meaning']}"]
    h = a["ahead"]
    if h["exact"]:
        lines.append(f"(a) {h['question']}? {h['text']} (exact)")
    else:
        lines.append(f"(a) {h['question']}? unknown (stopped by {why})")
    m = a["margin"]
    if m["exact"]:
        lines.append(f"(b) margin = {m['value']} half points (exact)")
    else:
        lines.append(f"(b) margin in [{m['lower']}, {m['upper']}] half points (proven; the "
                     f"exact margin was stopped by {why})")
    lines.append(cards_heading(a, "margin"))
    lines += analysis_cards_and_line(a, players, "margin", why,
                                     answer=("ahead", *AHEAD_COLUMN[a["variant"]]))
    return "\n".join(lines)
