"""What `atout solve` prints for a Tarot position: the exact answers in an analyst's
order (issue 23) — (a) is the contract made, (b) the exact T, (c) every legal card's
value, (d) the optimal line — by :func:`solver.dd.tarot.analyse` under one deadline.

When the exact search cannot finish, what it proved is kept (made or not, an interval
of T, the cards it finished) and the cards it did not finish are estimated: by their
exact value in R_DD, the relaxed game most favourable to the defence (a proven lower
bound of the card's T, and near the real value: ``relaxed_card_values``), within the
share of the limits kept for it (RELAXED_SHARE), else by the horizon search (exact
play for a few tricks, then the fitted static evaluation, ``ANALYSIS_EVALUATION``);
each row says which (``estimated_with``), each figure is labelled: ``exact`` is never
true for a value the search did not prove."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..games.base import GameState
from . import tarot as ddt
from .result import (
    CardResult,
    answer_from_interval,
    estimated_card_row,
    limits_before_side_probes,
    narrow,
    side_bounds,
)

DEFAULT_DEADLINE = 20.0   # seconds for the whole exact analysis: interactive use
# the share of the limits kept back from the exact analysis for the R_DD values of the
# cards it does not finish (relaxed_card_values: their proven lower bounds and estimates)
RELAXED_SHARE = 0.2


def analyse(state: GameState, node_budget: int | None = None, deadline: float | None = None,
            tt_bits: int | None = None, line: bool = True,
            progress: Callable[[str], None] | None = None, threads: int = 1,
            estimates: bool = True) -> dict[str, Any]:
    """The exact analysis as JSON-ready data (see the module docstring); ``progress``
    gets one plain line per answered question. ``estimates=False`` (``--horizon
    exact``): the cards the exact search did not reach stay unknown (value null,
    with the bound the position's proven T gives them) instead of estimated."""
    start = time.monotonic()
    seat = state.to_act
    attack = bool(state.side_of(seat))
    kw: dict[str, Any] = {} if tt_bits is None else {"tt_bits": tt_bits}
    if deadline is None:
        deadline = DEFAULT_DEADLINE

    def said(stage: str, answer: Any) -> None:
        if progress is None:
            return
        t = time.monotonic() - start
        if stage == "made":
            progress(f"(a) contract made: {'yes' if answer else 'no'} ({t:.1f} s)")
        elif stage == "value":
            progress(f"(b) T = {answer} ({t:.1f} s)")
        elif stage == "cards":
            progress(f"(c) every card solved ({t:.1f} s)")
        elif stage == "line":
            progress(f"(d) optimal line found ({t:.1f} s)")

    if progress is not None:
        progress(f"solving exactly (deadline {deadline:g} s): is the contract made...")
    # the exact analysis gets all but RELAXED_SHARE (and the side probes' share) of the
    # limits: what is left goes to the R_DD values of the cards it did not finish
    budget, seconds = limits_before_side_probes(
        None if node_budget is None else max(1, int(node_budget * (1 - RELAXED_SHARE))),
        deadline * (1 - RELAXED_SHARE))
    a = ddt.analyse(state, node_budget=budget, deadline=seconds, line=line,
                    progress=said, threads=threads, **kw)
    rows = []
    for move, r in a.cards.items():
        rows.append({"move": state.move_token(move), "value": r.value,
                     "lower": r.lower, "upper": r.upper, "exact": bool(r.complete),
                     "complete": bool(r.complete), "nodes": int(r.nodes),
                     "seconds": round(r.seconds, 6)})
        if not r.complete:
            rows[-1]["stopped"] = r.stopped or "deadline"
            rows[-1]["bounds"] = [r.lower, r.upper]
    estimated_with = None
    missing = [m for m in state.legal_moves() if m.kind == "card" and m not in a.cards]
    # one probe a card at the position's proven bound (the side to play picks its best
    # card): without them a stopped first lead could show every card estimated outside
    # the position's proven T (a defence chelem the evaluation does not foresee: T <=
    # -354 proven, every card estimated at -184)
    sides, side_nodes = side_bounds(
        ddt.card_side_probes, state, [m.value for m in missing],
        a.lower if attack else a.upper + 1,
        None if node_budget is None else node_budget - a.nodes,
        deadline - (time.monotonic() - start), kw.get("tt_bits", ddt.DEFAULT_TT_BITS))
    # then each of those cards' T in R_DD (relaxed_card_values): a proven lower bound,
    # and where it finished the estimate shown (far closer than a horizon's)
    relaxed: dict[int, tuple[int, int, float]] = {}
    relaxed_nodes = 0
    if missing:
        relaxed, relaxed_nodes = ddt.relaxed_card_values(
            state, [m.value for m in missing],
            None if node_budget is None else node_budget - a.nodes - side_nodes,
            deadline - (time.monotonic() - start), kw.get("tt_bits", ddt.DEFAULT_TT_BITS))

    def relaxed_floor(move: Any) -> tuple[int | None, None] | None:
        return (relaxed[move.value][0], None) if move.value in relaxed else None

    if missing and not estimates:
        for move in missing:
            # a card is worth at most the position for the attack, at least for the
            # defence (proven_card_bounds, with its made answer and score classes);
            # its side probe and its R_DD value may have proven more
            bounds = list(narrow(*narrow(*proven_card_bounds(state, a, move, attack),
                                         sides.get(move.value)), relaxed_floor(move)))
            rows.append({"move": state.move_token(move), "value": None, "lower": bounds[0],
                         "upper": bounds[1], "exact": False, "complete": False, "nodes": 0,
                         "seconds": 0.0, "stopped": a.stopped or "deadline",
                         "bounds": bounds})
        missing = []
    elif missing:
        # the cards the exact search did not reach: their R_DD values, else horizon
        # estimates, labelled, kept inside what is proven of them (proven_card_bounds)
        def proven(move: Any) -> tuple[int | None, int | None]:
            return narrow(*narrow(*proven_card_bounds(state, a, move, attack),
                                  sides.get(move.value)), relaxed_floor(move))

        for move in missing:
            if move.value in relaxed:
                v, nodes, secs = relaxed[move.value]
                r = CardResult(v, v, v, nodes, True, secs, card=move)   # R_DD's search
                rows.append(estimated_card_row(state.move_token(move), r, *proven(move)))
                if rows[-1]["estimate"]:           # (else its interval closed: exact)
                    rows[-1]["estimated_with"] = "relaxed"
        rest = [m for m in missing if m.value not in relaxed]
        if rest:
            estimated_with = ddt.default_horizon(state) or 1
            est = ddt.solve_cards(state, horizon=estimated_with, only=rest,
                                  evaluation=ddt.ANALYSIS_EVALUATION, **kw)
            for move, r in est.items():
                rows.append(estimated_card_row(state.move_token(move), r, *proven(move)))
                if rows[-1]["estimate"]:
                    rows[-1]["estimated_with"] = "horizon"
    least_made, most_failed = ddt.made_T_bounds(state)
    for row in rows:
        made = a.card_made.get(state.parse_move(row["move"]), "unasked")
        if made is None or made == "unasked":
            # its own probe stopped (or not asked): what its proven T says
            # (TAROT-SCORE-1: above every failed contract's T is made, below every
            # made one's failed; e.g. a card's R_DD value, a proven lower bound)
            derived = answer_from_interval(row, most_failed + 1, least_made - 1)
            if derived is not None:
                made = derived
        if made != "unasked":
            row["made"] = {"answer": made, "exact": made is not None}
    sign = 1 if attack else -1
    rows.sort(key=lambda x: (not x["exact"], x["value"] is None, -sign * (x["value"] or 0)))
    out: dict[str, Any] = {
        "game": "tarot", "to_act": seat, "side_to_act": "attack" if attack else "defence",
        "value_meaning": "T, the per-defender amount for the attack (TAROT-SCORE-1)",
        "made": {"answer": a.made, "exact": a.made is not None,
                 "margin_lower": a.margin_lower, "margin_upper": a.margin_upper,
                 "unit": "doubled card points (E = P - R(B), TAROT-COUNT-4)"},
        "T": {"value": a.value, "lower": a.lower, "upper": a.upper,
              "exact": a.value is not None},
        # the side proven able to force taking every trick (TAROT-SCORE-5), by the
        # score classes; None: not proven either way
        "chelem": None if a.chelem is None else
        {"side": "attack" if a.chelem else "defence", "exact": True},
        "cards": rows, "cards_estimated_with_horizon": estimated_with,
        "cards_estimated_with_evaluation": ddt.ANALYSIS_EVALUATION if estimated_with
        else None,
        "cards_estimated_with_relaxed_game": ddt.R_DD
        if any(r.get("estimated_with") == "relaxed" for r in rows) else None,
        "horizon": estimated_with,
        "exact": a.complete and all(r["exact"] for r in rows),
        "estimate": any(r.get("estimate") for r in rows), "complete": a.complete,
        "limits": {"node_budget": node_budget, "deadline": deadline},
        "stopped_at": a.stage,
        "deadline": deadline, "nodes": int(a.nodes) + side_nodes + relaxed_nodes,
        "seconds": round(time.monotonic() - start, 3),
        "steps": [{"question": q, "seconds": round(s, 4), "nodes": int(n)}
                  for q, s, n in a.steps],
    }
    if a.stopped is not None:
        out["stopped"] = a.stopped
    if a.value is not None:
        out["value"] = a.value
    if a.line is not None:
        out["line"] = [state.move_token(m) for m in a.line]
    return out


def proven_card_bounds(state: GameState, a: ddt.TarotAnalysis, move: Any,
                       attack: bool) -> tuple[int | None, int | None]:
    """The T interval proven for a card the exact search did not finish: the
    position's proven T bounds it on one side (the side to play picks the best card:
    the attack's cards are worth at most the position, the defence's at least), and
    its made answer (a) on the other (TAROT-SCORE-1: a made contract's T is at least
    the least made one, a failed one's at most the greatest failed one), and the
    interval the score classes proved for it (``card_bounds``: which cards keep a
    chelem or a petit au bout)."""
    lo, hi = (None, a.upper) if attack else (a.lower, None)
    made = a.card_made.get(move)
    if made is not None:
        least_made, most_failed = ddt.made_T_bounds(state)
        if made:
            lo = least_made if lo is None else max(lo, least_made)
        else:
            hi = most_failed if hi is None else min(hi, most_failed)
    if move in a.card_bounds:
        clo, chi = a.card_bounds[move]
        lo = clo if lo is None else max(lo, clo)
        hi = chi if hi is None else min(hi, chi)
    return lo, hi


def format_analysis(a: dict[str, Any], players: int) -> str:
    """The text of :func:`analyse`'s result."""
    from .report import analysis_cards_and_line, cards_heading, stop_reason

    why = stop_reason(a)
    lines = [f"tarot: seat {a['to_act']} to play ({a['side_to_act']}); values are "
             f"{a['value_meaning']}"]
    m = a["made"]
    if m["exact"]:
        lines.append(f"(a) contract made: {'yes' if m['answer'] else 'no'} (exact)")
    else:
        lines.append(f"(a) contract made: unknown (stopped by {why})")
    t = a["T"]
    if t["exact"]:
        lines.append(f"(b) T = {t['value']} (exact)")
    else:
        lines.append(f"(b) T in [{t['lower']}, {t['upper']}] (proven; the exact T was "
                     f"stopped by {why})")
    if a.get("chelem"):
        lines.append(f"    the {a['chelem']['side']} can force the chelem, taking every "
                     f"trick (exact)")
    lines.append(cards_heading(a, "T"))
    lines += analysis_cards_and_line(a, players, "T", why)
    return "\n".join(lines)
