"""What `atout solve` prints: the value of every legal card at a position, the optimal
line and the DD table, as readable text or as JSON. Game-independent: it only uses
``solver.dd``'s per-game modules through their shared API."""

from __future__ import annotations

from typing import Any

from ..errors import AtoutError
from ..games import state_from_record
from ..games.base import GameState
from ..notation import Record
from . import module_for, side_of_seat, supports_horizon

VALUE_MEANING = {
    "tarot": "T, the per-defender amount for the attack (TAROT-SCORE-1)",
    "belote": "the attack's card points incl. dix de der (252 on capot)",
    "coinche": "the attack's card points incl. dix de der (252 on capot)",
    "tarocchini": "the value for side 1 (see solver.dd.tarocchini)",
}


def position_from_record(record: Record, at: str | None = None) -> tuple[GameState, str]:
    """The position to analyse and a note saying which one it is.

    ``at``: a number of moves to replay, ``'play'`` for the first lead, or None: after
    every move of the record, or at the first lead if the record is a finished deal."""
    if at is not None and at != "play":
        try:
            k = int(at)
        except ValueError:
            raise AtoutError(f"--at must be a move count or 'play', got {at!r}") from None
        if not 0 <= k <= len(record.moves):
            raise AtoutError(f"--at {k}: the record has {len(record.moves)} moves")
        part = Record(record.game, record.options, record.dealer, record.deal,
                      record.moves[:k])
        return state_from_record(part), f"after move {k}"
    full = state_from_record(record)
    if at is None and not full.is_over():
        return full, f"after the record's {len(record.moves)} moves"
    # replay up to the first card of the deal
    for k in range(len(record.moves) + 1):
        part = Record(record.game, record.options, record.dealer, record.deal,
                      record.moves[:k])
        st = state_from_record(part)
        if st.is_over():
            break
        if st.phase == "play" and any(m.kind == "card" for m in st.legal_moves()) and (
                k == len(record.moves) or _is_card_token(st, record.moves[k])):
            return st, f"at the first lead (after move {k})"
    raise AtoutError("the record never reaches the card play (no contract?)")


def _is_card_token(state: GameState, token: str) -> bool:
    try:
        return state.parse_move(token).kind == "card"
    except AtoutError:
        return False


DEFAULT_DEADLINE = 120.0   # seconds per search (Tarot's exact analysis: report_tarot)


def analyse(state: GameState, node_budget: int | None = None, deadline: float | None = None,
            tt_bits: int | None = None, line: bool = True,
            horizon: int | str | None = None, progress: Any = None) -> dict[str, Any]:
    """Value of every legal card (best first for the seat to act) and an optimal line.
    With ``horizon`` (Tarot, Tarocchini) the values are estimates: exact play for that
    many tricks after the current one, then the game's static evaluation; no line.
    ``horizon="auto"``: the game's ``default_horizon`` (exact where that is quick; in
    every game without a horizon search, exact). Tarot with ``"auto"`` or None: the
    exact analysis of ``report_tarot`` (made, T, every card, line; ``progress`` gets
    a line per answer). ``deadline`` None: the default of the game's analysis."""
    if state.is_over():
        raise AtoutError("the deal is over: nothing to solve")
    if getattr(state, "phase", "play") != "play":
        raise AtoutError(f"the position is not in the card play (phase {state.phase!r})")
    if state.game == "tarot" and horizon in ("auto", None):
        # Tarot: the exact answers in an analyst's order (made, T, cards, line) under
        # one deadline, with labelled estimates only for what it could not prove
        from . import report_tarot
        return report_tarot.analyse(state, node_budget, deadline, tt_bits, line,
                                    progress=progress)
    if deadline is None:
        deadline = DEFAULT_DEADLINE
    mod = module_for(state.game)
    limits: dict[str, Any] = {"node_budget": node_budget, "deadline": deadline}
    if tt_bits is not None:
        limits["tt_bits"] = tt_bits
    if horizon == "auto":
        horizon = mod.default_horizon(state) if supports_horizon(state.game) else None
    if horizon is not None:
        if not supports_horizon(state.game):
            raise AtoutError(f"--horizon applies to tarot and tarocchini, not {state.game} "
                             "(its exact search is fast enough)")
        limits["horizon"] = horizon
        line = False
    values = mod.solve_cards(state, **limits)
    seat = state.to_act
    side = side_of_seat(state, seat)
    sign = 1 if side in (None, 1) else -1
    rows = []
    for move, r in values.items():
        rows.append({"move": state.move_token(move), "value": r.value,
                     "complete": bool(r.complete), "nodes": int(r.nodes),
                     "seconds": round(r.seconds, 6)})
    rows.sort(key=lambda x: (x["value"] is None, -sign * (x["value"] or 0)))
    to_net = getattr(mod, "attack_net_score", None)
    if to_net is not None:
        # Belote/Coinche: what each card's points mean for the contract (the attack's
        # net deal score, unrounded: the score PIMC averages)
        net, hands = to_net(state), list(state.hands)
        for row in rows:
            if row["value"] is not None:
                row["outcome"] = net.scorer(row["value"], hands)["outcome"]
                row["attack_net"] = net(row["value"], hands)
    out: dict[str, Any] = {
        "game": state.game, "to_act": seat,
        "exact": all(r.exact for r in values.values()), "horizon": horizon,
        "side_to_act": "attack" if side == 1 else "defence" if side == 0 else None,
        "value_meaning": VALUE_MEANING.get(state.game, ""),
        # per-card node counts, or one shared total repeated on every card
        "cards": rows, "nodes": (rows[0]["nodes"] if len({r["nodes"] for r in rows}) == 1
                                 else sum(r["nodes"] for r in rows)),
    }
    complete = [r for r in rows if r["complete"]]
    if complete:
        best = complete[0]["value"]
        out["value"] = best if len(complete) == len(rows) else None
    if line and rows and all(r["complete"] for r in rows):
        pv = mod.principal_variation(state, **limits)
        out["line"] = [state.move_token(m) if hasattr(state, "move_token") else str(m)
                       for m in pv]
    return out


def format_analysis(a: dict[str, Any], players: int) -> str:
    if a.get("game") == "tarot" and "made" in a:
        from . import report_tarot
        return report_tarot.format_analysis(a, players)
    lines = [f"{a['game']}: seat {a['to_act']} to play ({a['side_to_act'] or 'n/a'}); "
             f"values are {a['value_meaning']}"]
    if not a.get("exact", True):
        lines.append(f"ESTIMATES: exact play for {a['horizon']} more trick(s), then a static "
                     "evaluation (not the exact double-dummy value)")
    scored = any("outcome" in r for r in a["cards"])
    extra = f"  {'contract':>8}  {'attack net':>10}" if scored else ""
    lines.append(f"{'card':>6}  {'value':>8}{extra}  {'nodes':>12}  {'time (s)':>9}")
    for r in a["cards"]:
        v = r["value"] if r["complete"] else "stopped"
        more = f"  {r.get('outcome', '-'):>8}  {r.get('attack_net', '-')!s:>10}" if scored \
            else ""
        lines.append(f"{r['move']:>6}  {v!s:>8}{more}  {r['nodes']:>12,}  "
                     f"{r['seconds']:>9.4f}")
    if a.get("value") is not None:
        lines.append(f"position value: {a['value']}  (nodes {a['nodes']:,})")
    else:
        lines.append("a search limit stopped the solver: some values are unknown "
                     "(raise --deadline or --node-budget, or pick a later position with --at)")
    if a.get("line"):
        lines.append("optimal line (one trick per group):")
        toks = a["line"]
        first = players - a.get("trick_len", 0)
        groups = [toks[:first]] + [toks[i:i + players] for i in range(first, len(toks), players)]
        lines.append("  " + " | ".join(" ".join(g) for g in groups if g))
    return "\n".join(lines)


def table_of(record_or_deal, game: str, options: dict[str, Any], dealer: int,
             node_budget: int | None = None, tt_bits: int | None = None,
             deadline: float | None = None,
             horizon: int | str | None = "auto") -> dict[str, Any]:
    """The game's DD table as JSON-ready data (and par for Coinche). Tarot and
    Tarocchini entries are estimated by the horizon search (``horizon``: a number of
    tricks, ``"auto"`` = the game's ``default_horizon``, None = exact, out of reach of
    most full deals), each row saying whether it is ``exact``; Belote and Coinche are
    always exact. ``node_budget``/``deadline`` apply to each search."""
    mod = module_for(game)
    kw: dict[str, Any] = {"node_budget": node_budget, "deadline": deadline}
    if tt_bits is not None:
        kw["tt_bits"] = tt_bits
    if game == "tarot":
        t = mod.dd_table(record_or_deal, options, dealer, horizon=horizon, **kw)
        return {"rows": [{"taker": taker, "contract": contract, "value": r.value,
                          "exact": r.exact, "attack_points": r.attack_points,
                          "called": r.called, "nodes": r.nodes,
                          "complete": r.complete}
                         for (taker, contract), r in sorted(t.items())]}
    if game in ("belote", "coinche"):
        t = mod.dd_table(record_or_deal, game, options, dealer, **kw)
        out: dict[str, Any] = {"rows": [
            {"strain": strain, "side": side, "points": e["points"], "capot": e["capot"],
             "generale": e["generale"], "nodes": e["nodes"], "complete": e["complete"]}
            for strain, sides in t.items() for side, e in sides.items()]}
        if game == "coinche":
            out["par"] = mod.par(record_or_deal, options, dealer, table=t)
        return out
    if game == "tarocchini":
        t = mod.dd_table(record_or_deal, options=options, dealer=dealer, horizon=horizon,
                         **kw)
        return {"rows": [{"declarer": k, "value": r.value, "exact": r.exact,
                          "nodes": r.nodes, "complete": r.complete}
                         for k, r in sorted(t.items())]}
    raise AtoutError(f"no DD table for {game}")


def format_table(game: str, t: dict[str, Any]) -> str:
    rows = t["rows"]
    if not rows:
        return "(empty table)"
    keys = [k for k in rows[0] if k != "complete"]
    lines = ["DD table:", "  ".join(f"{k:>12}" for k in keys)]
    for r in rows:
        lines.append("  ".join(f"{_cell(r.get(k)):>12}" for k in keys))
    if "par" in t:
        lines.append(f"par: {_par_text(t['par'])}")
    return "\n".join(lines)


def _cell(v: Any) -> str:
    if isinstance(v, dict):
        return ",".join(f"{k}:{_cell(x)}" for k, x in v.items())
    if isinstance(v, bool):
        return "yes" if v else "no"
    return "-" if v is None else str(v)


def _par_text(p: Any) -> str:
    if isinstance(p, dict):
        return ", ".join(f"{k}={_cell(v)}" for k, v in p.items())
    return str(p)
