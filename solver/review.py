"""The review of a played deal (``atout review RECORD``, issue 27): for each decision
of each seat, the card (or bid, discard, declaration) it made, the best one
double-dummy and what the choice cost double-dummy (every hand seen), and what it cost
from what that seat knew (PIMC over worlds consistent with its view: ``solver.pimc``,
whose worlds come from the seat's observation only), so that a mistake (costly on what the seat knew) is told
apart from bad luck (costly only on the actual cards); per-seat totals.

Units: a card's cost is in the game's DD unit (``solver.analyse.position_values``);
every other decision's (bids, the Tarot écart and Tarocchini discards, announces and
declarations: ``solver.review_calls``, from ``solver.bidding``'s evaluators) is in the
seat's own deal score (``review_calls.UNITS``), over the same number of worlds for its
view and on the actual deal for the DD cost. Early Tarot and Tarocchini positions are
out of reach of the exact search: their DD costs and the PIMC worlds are horizon
estimates, labelled; so are the bid analysis's play-outs that open with the heuristic
player (Tarot, Tarocchini).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from .analyse import (
    POSITION_DEADLINE,
    card_of,
    is_card_position,
    position_values,
    record_positions,
)
from .errors import AtoutError
from .games.base import GameState, Move
from .notation import Record

# A decision costs this much or more (card: in the game's DD unit; the others: in the
# seat's deal score, review_calls.UNITS)
# to count as costly: a mistake when it cost that on the seat's own view, bad luck
# when only on the actual cards.
CARD_THRESHOLD = {"tarot": 5, "belote": 5, "coinche": 5, "tarocchini": 10}
BID_THRESHOLD = 10
DEFAULT_WORLDS = 20
# the kinds of decision: a card, a call of the auction, a discard (the Tarot écart,
# Tarocchini's), a declaration (announces, belote, chelem, poignée, combinations)
KINDS = ("card", "bid", "discard", "declaration")


def _verdict(dd_cost: float | None, view_cost: float | None, threshold: float) -> str:
    if view_cost is not None and view_cost >= threshold:
        return "mistake"
    if dd_cost is not None and dd_cost >= threshold:
        return "unlucky"
    return "ok"


def review_card(state: GameState, move: Move, token: str, worlds: int, seed: int,
                deadline: float | None, node_budget: int | None,
                values: dict[str, Any] | None = None) -> dict[str, Any]:
    """One card decision: its DD cost (every hand seen; ``values``: the position's
    ``position_values`` if already known) and its cost on the seat's view (PIMC,
    ``worlds`` worlds, the DD value averaged: objective ``points``)."""
    from .pimc import PimcAgent

    seat = state.to_act
    card = state.deck.token(card_of(move))
    if values is None:
        values = position_values(state, deadline, node_budget)
    rows = values["cards"]
    mine = next((r for r in rows if r["move"] == token),
                next(r for r in rows if r["card"] == card))
    best = mine if mine["loss"] == 0 else rows[0]  # a best card played is named
    out: dict[str, Any] = {
        "dd_best": best["card"], "dd_value": mine["value"], "dd_best_value": best["value"],
        "dd_cost": mine["loss"], "dd_exact": bool(mine["loss_exact"])}
    agent = PimcAgent(seed=seed, worlds=worlds, objective="points", prune=False)
    cards = [m for m in state.legal_moves() if m.kind == "card"]
    view = agent.card_values(state, seat, cards)
    stats = agent.last_stats
    if view is None:
        out.update(view_best=None, view_cost=None, view_exact=False)
    else:
        played = Move("card", card_of(move))
        top = max(cards, key=lambda m: (view[m], m == played, -cards.index(m)))
        out.update(view_best=state.deck.token(top.value),
                   view_cost=round(view[top] - view[played], 2),
                   # worlds solved to the end of the deal (not horizon estimates)
                   view_exact=stats.get("horizon") is None and "horizons" not in stats)
    out["worlds"] = stats.get("worlds", 0)
    return out


def review(record: Record, worlds: int = DEFAULT_WORLDS, seed: int = 0,
           deadline: float | None = POSITION_DEADLINE, node_budget: int | None = None,
           progress: Callable[[int, int], None] | None = None,
           values: dict[int, dict[str, Any]] | None = None) -> dict[str, Any]:
    """The review of every decision of the record (see the module docstring),
    JSON-ready; a decision with one legal choice is not listed, a choice that changes
    no score (a Tarocchini signal, the trumps a poignée shows) is only counted
    (``other_decisions``).
    ``values``: a dict that gets each card position's ``position_values`` by move
    count (for the viewer, which shows them: ``solver.viewer.page_data``)."""
    from .dd.report import _variant
    from .review_calls import UNITS, find_calls, price_call

    if worlds < 1:
        raise AtoutError("worlds must be at least 1")
    start = time.monotonic()
    n_seats = len(record.deal.hands)
    decisions: list[dict[str, Any]] = []
    other = [0] * n_seats
    total = len(record.moves)
    states = [state for _, state in record_positions(record)]
    opened: set = set()  # announcement windows reviewed (review_calls.find_calls)
    covered: set[int] = set()  # positions whose choice a row prices
    for k in range(total):
        state = states[k]
        seat = state.to_act
        token = record.moves[k]
        move = state.parse_move(token)
        legal = state.legal_moves()
        rng_seed = random.Random(f"review-{seed}-{k}").randrange(1 << 30)
        rows: list[dict[str, Any]] = []
        for call in find_calls(record, states, k, opened):
            covered.update(range(k, k + max(1, len(call.tokens))))
            priced = price_call(call, record, states, worlds, rng_seed)
            row = {"k": k, "seat": seat, "move": priced.pop("move"), "kind": call.kind}
            if call.kind != "bid":
                row["tokens"] = call.tokens
            rows.append(row | priced)
        if card_of(move) is not None and is_card_position(state):
            cards = {card_of(m) for m in legal if card_of(m) is not None}
            if len(cards) > 1:
                covered.add(k)
                known = position_values(state, deadline, node_budget)
                if values is not None:
                    values[k] = known
                rows.append({"k": k, "seat": seat, "move": token, "kind": "card"} |
                            review_card(state, move, token, worlds, rng_seed, deadline,
                                        node_budget, known))
            if any(m.kind == "signal" and card_of(m) == card_of(move) for m in legal):
                covered.add(k)
                other[seat] += 1  # the signal added or not changes no score (OTTO-SIG-1)
        if len(legal) > 1 and k not in covered:
            other[seat] += 1  # a choice no row prices (e.g. which trumps a poignée shows)
        for row in rows:
            limit = CARD_THRESHOLD.get(record.game, 5) if row["kind"] == "card" \
                else BID_THRESHOLD
            row["verdict"] = _verdict(row.get("dd_cost"), row.get("view_cost"), limit)
            decisions.append(row)
        if progress is not None:
            progress(k + 1, total)
    from .dd.report import TAROCCHINI_MEANING, VALUE_MEANING

    variant = _variant(record.game, record.options)
    unit = TAROCCHINI_MEANING.get(variant) or VALUE_MEANING.get(record.game, "")
    totals = []
    for s in range(n_seats):
        mine = [d for d in decisions if d["seat"] == s]
        for kind in KINDS:
            rows = [d for d in mine if d["kind"] == kind]
            totals.append({
                "seat": s, "kind": kind, "decisions": len(rows),
                "dd_cost": round(sum(d.get("dd_cost") or 0 for d in rows), 2),
                "view_cost": round(sum(d.get("view_cost") or 0 for d in rows), 2),
                "mistakes": sum(d["verdict"] == "mistake" for d in rows),
                "unlucky": sum(d["verdict"] == "unlucky" for d in rows),
                "estimates": sum(not (d.get("dd_exact") and d.get("view_exact", True))
                                 for d in rows if "dd_cost" in d),
                "not_priced": sum("dd_cost" not in d and "view_cost" not in d
                                  for d in rows)})
            if kind == "card":
                totals[-1]["other_decisions"] = other[s]
    from .schemas import SCHEMA_VERSION

    return {"schema": "review", "schema_version": SCHEMA_VERSION, "game": record.game,
            "variant": variant, "players": n_seats, "worlds": worlds, "seed": seed,
            "card_unit": unit, "bid_unit": UNITS.get(variant) or UNITS[record.game],
            "thresholds": {"card": CARD_THRESHOLD.get(record.game, 5), "bid": BID_THRESHOLD},
            "decisions": decisions, "totals": totals,
            "seconds": round(time.monotonic() - start, 2)}


def _num(v: Any, exact: bool = True) -> str:
    if v is None:
        return "-"
    text = f"{v:g}" if isinstance(v, (int, float)) else str(v)
    return text if exact else "~" + text


def format_review(r: dict[str, Any]) -> str:
    """The review as text: one line per decision, then the per-seat totals."""
    from .dd.report import GAME_TITLES, _columns

    lines = [f"{GAME_TITLES.get(r['variant'], r['game'])}, {r['players']} players: review "
             f"of every decision ({r['worlds']} worlds per decision for each seat's "
             "own view, seed {})".format(r["seed"]),
             f"card costs: {r['card_unit']}; bids, discards and declarations: "
             f"{r['bid_unit']}",
             "DD cost: against the best choice with every hand seen; view cost: against "
             "the best on what the seat knew (PIMC; the bid analysis for what is not a "
             "card); ~ marks an estimate",
             f"mistake: view cost >= {r['thresholds']['card']} (cards) or "
             f"{r['thresholds']['bid']} (the rest); unlucky: only the DD cost is"]
    head = ["pos", "seat", "move", "DD best", "DD cost", "view best", "view cost", ""]
    body = []
    for d in r["decisions"]:
        body.append([str(d["k"]), str(d["seat"]), d["move"], d.get("dd_best") or "-",
                     _num(d.get("dd_cost"), d.get("dd_exact", True)),
                     d.get("view_best") or "-",
                     _num(d.get("view_cost"), d.get("view_exact", True)),
                     {"ok": ""}.get(d["verdict"], d["verdict"].upper()) +
                     (f" ({d['note']})" if d.get("note") else "")])
    lines += _columns(head, body, indent=2)
    lines.append("per seat:")
    tb = [[str(t["seat"]), t["kind"] + "s", str(t["decisions"]), _num(t["dd_cost"]),
           _num(t["view_cost"]), str(t["mistakes"]), str(t["unlucky"]),
           str(t["estimates"])] for t in r["totals"] if t["decisions"]]
    lines += _columns(["seat", "kind", "decisions", "DD cost", "view cost", "mistakes",
                       "unlucky", "estimated"], tb, indent=2)
    lines.append(f"({r['seconds']:.1f} s)")
    return "\n".join(lines)


def page_review(r: dict[str, Any]) -> dict[str, Any]:
    """The review as the viewer's panel (``solver.viewer``: rows clickable to their
    position, the costly ones highlighted)."""
    rows = []
    for d in r["decisions"]:
        rows.append({"k": d["k"], "verdict": d["verdict"], "cells": [
            str(d["k"]), str(d["seat"]), d["move"], d.get("dd_best") or "-",
            _num(d.get("dd_cost"), d.get("dd_exact", True)), d.get("view_best") or "-",
            _num(d.get("view_cost"), d.get("view_exact", True)),
            {"ok": ""}.get(d["verdict"], d["verdict"])]})
    totals = [[str(t["seat"]), t["kind"] + "s", str(t["decisions"]), _num(t["dd_cost"]),
               _num(t["view_cost"]), str(t["mistakes"]), str(t["unlucky"])]
              for t in r["totals"] if t["decisions"]]
    legend = (f"DD cost: against the best choice with every hand seen; view cost: against "
              f"the best on what the seat knew (PIMC, {r['worlds']} worlds); cards in "
              f"{r['card_unit']}, bids, discards and declarations in {r['bid_unit']}; ~ an "
              "estimate. Red: a mistake "
              "(costly on the seat's own view); yellow: unlucky (costly only on the "
              "actual cards). Click a row to go to its position.")
    return {"legend": legend, "rows": rows, "totals": totals,
            "columns": ["pos", "seat", "move", "DD best", "DD cost", "view best",
                        "view cost", ""],
            "total_columns": ["seat", "kind", "decisions", "DD cost", "view cost",
                              "mistakes", "unlucky"]}
