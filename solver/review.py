"""The review of a played deal (``atout review RECORD``, issue 27): for each decision
of each seat, the card (or bid) it made, the best one double-dummy and what the
choice cost double-dummy (every hand seen), and what it cost from what that seat knew
(PIMC over worlds consistent with its view: ``solver.pimc``, whose worlds come from
the seat's observation only), so that a mistake (costly on what the seat knew) is told
apart from bad luck (costly only on the actual cards); per-seat totals.

Units: a card's cost is in the game's DD unit (``solver.analyse.position_values``);
a bid's cost (Coinche, Tarot: ``solver.bidding``'s evaluators) is in the seat's side's
deal score, over the same number of worlds for its view and on the actual deal for
the DD cost. Early Tarot and Tarocchini positions are out of reach of the exact
search: their DD costs and the PIMC worlds are horizon estimates, labelled.
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
from .cards import bit_list, mask_of
from .errors import AtoutError
from .games.base import GameState, Move
from .notation import Record

# A decision costs this much or more (card: in the game's DD unit; bid: deal points)
# to count as costly: a mistake when it cost that on the seat's own view, bad luck
# when only on the actual cards.
CARD_THRESHOLD = {"tarot": 5, "belote": 5, "coinche": 5, "tarocchini": 10}
BID_THRESHOLD = 10
DEFAULT_WORLDS = 20
# games whose auction the review prices (bid analysis with a world of the actual deal)
BID_GAMES = ("coinche", "tarot")


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


def _bid_context(state: GameState, seat: int):
    """The bid analysis of ``seat`` at this point of the auction, from its own view
    (the evaluator, the auction so far), as ``solver.bidding.<game>.decide`` builds it;
    None where the review does not price this game's bids."""
    from .bidding import Context

    if state.game == "coinche" and state.phase == "bid":
        from .bidding.coinche import CoincheEvaluator

        hand = bit_list(state.hands[seat])
        auction = [state.move_token(m) for m in state.history]
        ctx = Context("coinche", hand, seat, state.dealer, dict(state.options), auction)
        return CoincheEvaluator(ctx, read_partner=False), ctx
    if state.game == "tarot" and state.phase == "bid":
        from .bidding.tarot import TarotEvaluator
        from .games import tarot as T

        obs = state.observation(seat)
        ctx = Context("tarot", bit_list(obs["hand"]), seat, obs["dealer"],
                      T.non_default_options(state.options),
                      [b for _, b in obs["auction"]])
        return TarotEvaluator(ctx, chelem=False), ctx
    return None


def _true_world(record: Record) -> Any:
    """The actual deal as a world of the game's bid evaluator."""
    hands = [mask_of(h) for h in record.deal.hands]
    if record.game == "tarot":
        return {"hands": hands, "dog": mask_of(record.deal.extras.get("dog", []))}
    return hands


def _candidate(token: str) -> str:
    """The evaluator's name of a call token (Coinche ``bid:110:H`` is ``110 H``)."""
    if token.startswith("bid:"):
        return " ".join(token.split(":")[1:])
    return token


def review_bid(record: Record, state: GameState, token: str, worlds: int,
               seed: int) -> dict[str, Any] | None:
    """One call: its cost on the seat's view (the bid analysis over ``worlds`` worlds
    consistent with what it heard, DD-scored) and DD on the actual deal; None where
    the review does not price this game's calls."""
    from .bidding import evaluate

    made = _bid_context(state, state.to_act)
    if made is None:
        return None
    ev, ctx = made
    names = ev.candidates()
    mine = _candidate(token)
    if mine not in names:
        return {"note": f"{token} is not among the bid analysis's candidates"}
    table = evaluate(ctx, samples=worlds, seed=seed, evaluator=ev)
    means = {r.option: r.mean for r in table.rows}
    view_best = max(names, key=lambda n: (means[n], n == mine, -names.index(n)))
    actual = ev.outcomes(_true_world(record), "dd")
    dd_best = max(names, key=lambda n: (actual[n].score, n == mine, -names.index(n)))
    return {"view_best": view_best, "view_cost": round(means[view_best] - means[mine], 2),
            "view_exact": False, "dd_best": dd_best,
            "dd_value": actual[mine].score, "dd_best_value": actual[dd_best].score,
            "dd_cost": round(actual[dd_best].score - actual[mine].score, 2),
            "dd_exact": True, "worlds": table.samples}


def review(record: Record, worlds: int = DEFAULT_WORLDS, seed: int = 0,
           deadline: float | None = POSITION_DEADLINE, node_budget: int | None = None,
           progress: Callable[[int, int], None] | None = None,
           values: dict[int, dict[str, Any]] | None = None) -> dict[str, Any]:
    """The review of every card and call decision of the record (see the module
    docstring), JSON-ready; a decision with one legal choice is not listed.
    ``values``: a dict that gets each card position's ``position_values`` by move
    count (for the viewer, which shows them: ``solver.viewer.page_data``)."""
    from .dd.report import _variant

    if worlds < 1:
        raise AtoutError("worlds must be at least 1")
    start = time.monotonic()
    n_seats = len(record.deal.hands)
    decisions: list[dict[str, Any]] = []
    other = [0] * n_seats
    total = len(record.moves)
    for k, state in record_positions(record):
        if k == total:
            break
        seat = state.to_act
        token = record.moves[k]
        move = state.parse_move(token)
        legal = state.legal_moves()
        rng_seed = random.Random(f"review-{seed}-{k}").randrange(1 << 30)
        row: dict[str, Any] | None = None
        if card_of(move) is not None and is_card_position(state):
            cards = {card_of(m) for m in legal if card_of(m) is not None}
            if len(cards) > 1:
                known = position_values(state, deadline, node_budget)
                if values is not None:
                    values[k] = known
                row = {"kind": "card"} | review_card(state, move, token, worlds, rng_seed,
                                                     deadline, node_budget, known)
                threshold = CARD_THRESHOLD.get(record.game, 5)
        elif len(legal) > 1 and getattr(state, "phase", None) == "bid":
            priced = review_bid(record, state, token, worlds, rng_seed)
            row = {"kind": "bid"} | (priced or {"note": "calls are not priced in this "
                                                         "game's review"})
            threshold = BID_THRESHOLD
        elif len(legal) > 1:
            other[seat] += 1
        if row is not None:
            row = {"k": k, "seat": seat, "move": token} | row
            row["verdict"] = _verdict(row.get("dd_cost"), row.get("view_cost"), threshold)
            decisions.append(row)
        if progress is not None:
            progress(k + 1, total)
    from .dd.report import TAROCCHINI_MEANING, VALUE_MEANING

    variant = _variant(record.game, record.options)
    unit = TAROCCHINI_MEANING.get(variant) or VALUE_MEANING.get(record.game, "")
    totals = []
    for s in range(n_seats):
        mine = [d for d in decisions if d["seat"] == s]
        for kind in ("card", "bid"):
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
        totals[-1]["other_decisions"] = other[s]
    from .schemas import SCHEMA_VERSION

    return {"schema": "review", "schema_version": SCHEMA_VERSION, "game": record.game,
            "variant": variant, "players": n_seats, "worlds": worlds, "seed": seed,
            "card_unit": unit, "bid_unit": "the seat's side's deal score (points)",
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
             f"of every card and call ({r['worlds']} worlds per decision for each seat's "
             "own view, seed {})".format(r["seed"]),
             f"card costs: {r['card_unit']}; call costs: {r['bid_unit']}",
             "DD cost: against the best choice with every hand seen; view cost: against "
             "the best on what the seat knew (PIMC); ~ marks an estimate",
             f"mistake: view cost >= {r['thresholds']['card']} (cards) or "
             f"{r['thresholds']['bid']} (calls); unlucky: only the DD cost is"]
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
              f"{r['card_unit']}, calls in {r['bid_unit']}; ~ an estimate. Red: a mistake "
              "(costly on the seat's own view); yellow: unlucky (costly only on the "
              "actual cards). Click a row to go to its position.")
    return {"legend": legend, "rows": rows, "totals": totals,
            "columns": ["pos", "seat", "move", "DD best", "DD cost", "view best",
                        "view cost", ""],
            "total_columns": ["seat", "kind", "decisions", "DD cost", "view cost",
                              "mistakes", "unlucky"]}
