"""What `atout solve` prints: the value of every legal card at a position, the optimal
line and the DD table, as readable text or as JSON. Game-independent: it only uses
``solver.dd``'s per-game modules through their shared API."""

from __future__ import annotations

import math
import time
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
# the unit and meaning of a Tarocchini value, by variant (solver.dd.tarocchini)
TAROCCHINI_MEANING = {
    "ottocento": "half points: team B's (seats 1, 3) hand total minus team A's "
                 "(seats 0, 2); 2 = one card point",
    "terziglio": "half points: the opponents' total minus the declarer's (the declarer "
                 "wins the deal iff it is below 0, TERZ-SCORE-2); 2 = one card point",
}
# what the sides are called (side 1 is the side the value is for; side 0 the other)
SIDE_NAMES = {
    "tarot": {1: "attack", 0: "defence"},
    "ottocento": {1: "team B", 0: "team A"},
    "terziglio": {1: "opponents", 0: "declarer"},
}
# --horizon auto: first the exact search within this many nodes (and seconds); if it
# finishes, its exact values are given (README: "exact wherever that is quick")
AUTO_EXACT_NODES = 1_000_000
AUTO_EXACT_SECONDS = 1.0


def parse_horizon(value: Any, what: str = "--horizon") -> int | str | None:
    """The one meaning of a horizon, for the CLI and the protocol: ``"auto"`` (or
    None/missing), ``"exact"`` (returned as None: the search to the end) or a positive
    number of tricks searched exactly after the current one."""
    if value is None or value == "auto":
        return "auto"
    if value == "exact":
        return None
    n = None
    if isinstance(value, int) and not isinstance(value, bool):
        n = value
    elif isinstance(value, str):
        try:
            n = int(value)
        except ValueError:
            n = None
    if n is None or n < 1:
        raise AtoutError(f"{what}: expected auto, exact or a positive number of tricks, "
                         f"got {short(value)}")
    return n


def short(value: Any, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters (error messages never echo a huge
    input back)."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def _variant(state_or_game: Any, options: dict[str, Any] | None = None) -> str:
    """The game, or for Tarocchini its variant (``ottocento`` or ``terziglio``)."""
    game = getattr(state_or_game, "game", state_or_game)
    if game != "tarocchini":
        return game
    variant = getattr(state_or_game, "variant", None)
    if variant is None:
        from ..games import tarocchini as tg
        from ..options import resolve
        variant = resolve(tg.OPTIONS, options or {}, tg.NAME)["game"]
    return variant


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


DEFAULT_DEADLINE = 120.0   # seconds per search (Tarot's and Tarocchini's exact analyses:
                           # report_tarot, report_tarocchini)


def analyse(state: GameState, node_budget: int | None = None, deadline: float | None = None,
            tt_bits: int | None = None, line: bool = True,
            horizon: int | str | None = None, progress: Any = None,
            threads: int = 1) -> dict[str, Any]:
    """Value of every legal card (best first for the seat to act) and an optimal line.
    With ``horizon`` (Tarot, Tarocchini) the values are estimates: exact play for that
    many tricks after the current one, then the game's static evaluation (Tarot: its
    ``ANALYSIS_EVALUATION``); no line.
    ``horizon="auto"``: the game's ``default_horizon`` (exact where that is quick; in
    every game without a horizon search, exact). Tarot with ``"auto"`` or None: the
    exact analysis of ``report_tarot`` (made, T, every card, line, under one deadline;
    ``progress`` gets a line per answer, ``threads`` search the cards); Tarocchini
    likewise ``report_tarocchini`` (ahead, margin, every card, line). ``deadline``
    None: the default of the game's analysis."""
    if state.is_over():
        raise AtoutError("the deal is over: nothing to solve")
    if state.phase != "play":
        raise AtoutError(f"the position is not in the card play (phase {state.phase!r})")
    if state.game == "tarot" and horizon in ("auto", None):
        from . import report_tarot
        out = report_tarot.analyse(state, node_budget, deadline, tt_bits, line,
                                   progress=progress, threads=threads,
                                   estimates=horizon == "auto")
        out["variant"] = _variant(state)
        return out
    if state.game == "tarocchini" and horizon in ("auto", None):
        from . import report_tarocchini
        return report_tarocchini.analyse(state, node_budget, deadline, tt_bits, line,
                                         progress=progress, threads=threads,
                                         estimates=horizon == "auto")
    if deadline is None:
        deadline = DEFAULT_DEADLINE
    mod = module_for(state.game)
    limits: dict[str, Any] = {"node_budget": node_budget, "deadline": deadline}
    if tt_bits is not None:
        limits["tt_bits"] = tt_bits
    start = time.monotonic()
    values = None
    if horizon == "auto":
        horizon = mod.default_horizon(state) if supports_horizon(state.game) else None
        if horizon is not None:
            # exact where that is quick: a short exact search first
            trial = dict(limits, node_budget=min(node_budget or AUTO_EXACT_NODES,
                                                 AUTO_EXACT_NODES),
                         deadline=min(deadline or AUTO_EXACT_SECONDS, AUTO_EXACT_SECONDS))
            first = mod.solve_cards(state, **trial)
            if all(r.complete for r in first.values()):
                values, horizon = first, None
    if horizon is not None:
        if not supports_horizon(state.game):
            raise AtoutError(f"--horizon applies to tarot and tarocchini, not {state.game} "
                             "(its exact search is fast enough)")
        limits["horizon"] = horizon
        evaluation = getattr(mod, "ANALYSIS_EVALUATION", None)   # Tarot's fitted one
        if evaluation is not None:
            limits["evaluation"] = evaluation
        line = False
    if values is None:
        values = mod.solve_cards(state, **limits)
    seat = state.to_act
    side = side_of_seat(state, seat)
    sign = 1 if side in (None, 1) else -1
    rows = []
    for move, r in values.items():
        rows.append({"move": state.move_token(move), "value": r.value,
                     "complete": bool(r.complete), "nodes": int(r.nodes),
                     "seconds": round(r.seconds, 6)})
        if not r.complete:
            rows[-1]["stopped"] = r.stopped or "deadline"
            rows[-1]["bounds"] = [_finite(r.lower), _finite(r.upper)]
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
    variant = _variant(state)
    names = SIDE_NAMES.get(variant, {})
    all_done = all(r["complete"] for r in rows)
    out: dict[str, Any] = {
        "game": state.game, "to_act": seat,
        # exact: every value is the exact double-dummy value (not an estimate, and
        # none missing because a limit stopped the search)
        "exact": all_done and all(r.exact for r in values.values()),
        "estimate": not all(r.exact for r in values.values()), "horizon": horizon,
        "complete": all_done,
        "side_to_act": names.get(side) if side is not None else None,
        "value_meaning": TAROCCHINI_MEANING.get(variant) or VALUE_MEANING.get(state.game, ""),
        # per-card node counts, or one shared total repeated on every card
        "cards": rows, "nodes": (rows[0]["nodes"] if len({r["nodes"] for r in rows}) == 1
                                 else sum(r["nodes"] for r in rows)),
        "seconds": round(time.monotonic() - start, 4),
    }
    if not all_done:
        out["stopped"] = next(r["stopped"] for r in rows if not r["complete"])
        out["limits"] = {"node_budget": node_budget, "deadline": deadline}
    complete = [r for r in rows if r["complete"]]
    if complete:
        best = complete[0]["value"]
        out["value"] = best if len(complete) == len(rows) else None
    if line and rows and all(r["complete"] for r in rows):
        pv = mod.principal_variation(state, **limits)
        out["line"] = [state.move_token(m) if hasattr(state, "move_token") else str(m)
                       for m in pv]
    return out


def _finite(v: Any) -> Any:
    return v if isinstance(v, int) or (isinstance(v, float) and math.isfinite(v)) else None


GAME_TITLES = {"tarot": "Tarot", "belote": "Belote", "coinche": "Coinche",
               "ottocento": "Tarocchini (Ottocento)", "terziglio": "Tarocchini (Terziglio)"}


def format_analysis(a: dict[str, Any], players: int, variant: str | None = None) -> str:
    """The analysis as a card player reads it: who is to play, what a value means (its
    unit said once), one row per card best first, the position's value, the line."""
    if a.get("game") == "tarot" and "made" in a:
        from . import report_tarot
        return report_tarot.format_analysis(a, players)
    if a.get("game") == "tarocchini" and "margin" in a:
        from . import report_tarocchini
        return report_tarocchini.format_analysis(a, players)
    title = GAME_TITLES.get(variant or a["game"], a["game"])
    who = f"seat {a['to_act']}" + (f" ({a['side_to_act']})" if a.get("side_to_act") else "")
    lines = [f"{title}, {players} players: {who} to play, best card first",
             f"values: {a['value_meaning']}"]
    if a.get("estimate"):
        lines.append(f"ESTIMATES: exact play for {a['horizon']} more trick(s), then a static "
                     "evaluation (not the exact double-dummy value)")
    scored = any("outcome" in r for r in a["cards"])
    head = ["card", "value"] + (["contract", "attack net"] if scored else []) + [
        "nodes", "time (s)"]
    table = []
    for r in a["cards"]:
        if r["complete"]:
            v = str(r["value"])
        else:
            lo, hi = (r.get("bounds") or [None, None])
            v = "stopped" if lo is None and hi is None else \
                f"{'' if lo is None else lo}..{'' if hi is None else hi}"
        row = [r["move"], v]
        if scored:
            net = r.get("attack_net")
            row += [r.get("outcome", "-"), "-" if net is None else f"{net:g}"]
        # a stopped card's own counts mislead (its search had what the position's
        # search left of the limit): the run's totals are on the search line
        row += ([f"{r['nodes']:,}", f"{r['seconds']:.4f}"] if r["complete"] else ["-", "-"])
        table.append(row)
    lines += _columns(head, table, indent=2)
    if a.get("value") is not None:
        lines.append(f"position value: {a['value']}")
    elif a.get("stopped"):
        lim = a.get("limits") or {}
        why = (f"the deadline ({lim.get('deadline'):g} s)" if a["stopped"] == "deadline"
               and lim.get("deadline") else
               f"the node budget ({lim.get('node_budget'):,})" if a["stopped"] == "node_budget"
               and lim.get("node_budget") else f"a search limit ({a['stopped']})")
        lines.append(f"STOPPED by {why}: the values marked lo..hi are proven bounds, not "
                     "values (raise --deadline or --node-budget, use --horizon N, or "
                     "pick a later position with --at)")
    lines.append(f"search: {a['nodes']:,} nodes in the card searches, "
                 f"{a.get('seconds', 0):.2f} s in all")
    if a.get("line"):
        lines.append("optimal line (one trick per group):")
        lines.append(line_text(a["line"], players, a.get("trick_len", 0)))
    return "\n".join(lines)


def line_text(tokens: list[str], players: int, trick_len: int = 0) -> str:
    """An optimal line's move tokens, one trick per group (the current trick has
    ``trick_len`` cards already down)."""
    first = players - trick_len
    groups = [tokens[:first]] + [tokens[i:i + players]
                                 for i in range(first, len(tokens), players)]
    return "  " + " | ".join(" ".join(g) for g in groups if g)


SUIT_NAMES = {
    "tarot": {"T": "trumps", "S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs",
              None: "excuse"},
    "belote": {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"},
    "tarocchini": {"T": "trumps", "S": "swords", "B": "batons", "C": "cups", "D": "coins",
                   None: "Matto"},
}


def format_hands(state: GameState) -> str:
    """Every hand of a position, one block per seat and one row per suit (trumps
    first), marking the seat to act and each seat's side."""
    from ..cards import DECKS

    deck = DECKS[state.game]
    names = SUIT_NAMES["belote" if state.game == "coinche" else state.game]
    to_act = None if state.is_over() else state.to_act
    side_name = SIDE_NAMES.get(_variant(state), {})
    lines = ["hands:"]
    for seat, hand in enumerate(state.hands):
        cards = deck.cards(hand) if isinstance(hand, int) else list(hand)
        tags = []
        side = side_of_seat(state, seat)
        if side is not None and side in side_name:
            tags.append(side_name[side])
        if seat == to_act:
            tags.append("to play")
        lines.append(f"  seat {seat}" + (f" ({', '.join(tags)})" if tags else "") +
                     f": {len(cards)} cards")
        groups: dict = {}
        for c in sorted(cards, key=deck.sort_key):
            groups.setdefault(deck.suit(c), []).append(deck.token(c))
        width = max(len(v) for v in names.values())
        for suit, toks in groups.items():
            lines.append(f"    {names.get(suit, str(suit)):<{width}}  {' '.join(toks)}")
    trick = getattr(state, "trick", None) or []
    if trick and all(isinstance(x, tuple) and len(x) == 2 for x in trick):
        lines.append("trick so far: " + ", ".join(f"seat {seat} {deck.token(card)}"
                                                 for seat, card in trick))
    return "\n".join(lines)


def stop_reason(a: dict[str, Any]) -> str:
    """What stopped an exact analysis (Tarot, Tarocchini), for "stopped by ..."; empty
    when it finished."""
    return {"deadline": f"the deadline ({a['deadline']:g} s)",
            "node_budget": "the node budget (--node-budget)"}.get(a.get("stopped") or "", "")


def cards_heading(a: dict[str, Any], bound: str) -> str:
    """The heading of an exact analysis's card table: exact, or how many are and that the
    others are horizon estimates kept inside what is proven of each card's ``bound``
    (T, margin)."""
    exact_cards = [r for r in a["cards"] if r["exact"]]
    est = a.get("cards_estimated_with_horizon")
    relaxed = a.get("cards_estimated_with_relaxed_game")
    head = "(c) every legal card:"
    if est is not None or relaxed is not None:
        some = f" {len(exact_cards)} exact, the others" if exact_cards else ""
        where = f"kept inside the {bound} proven for each card"
        evaluation = ("the fitted static evaluation"
                      if a.get("cards_estimated_with_evaluation") == "fit"
                      else "a static evaluation")
        how = []
        if relaxed is not None:
            how.append("R_DD: exact in the relaxed game favouring the defence, a proven "
                       "lower bound")
        if est is not None:
            how.append(("the others: " if relaxed is not None else "")
                       + f"exact play for {est} more trick(s), then {evaluation}")
        return head + f"{some} ESTIMATES ({'; '.join(how)}; {where})"
    if len(exact_cards) == len(a["cards"]):
        head += " exact"
    return head


def _proven_range(lo: int | None, hi: int | None) -> str:
    """What was proven about an estimated figure, as text: " in [lo, hi]", or one side
    alone (" >= lo", " <= hi"; a bare "[lo, ]" read as a typo), or nothing."""
    if lo is not None and hi is not None:
        return f" in [{lo}, {hi}]"
    if lo is not None:
        return f" >= {lo}"
    if hi is not None:
        return f" <= {hi}"
    return ""


def analysis_cards_and_line(a: dict[str, Any], players: int, unit: str, why: str,
                            answer: tuple[str, str, str, str] = ("made", "made", "yes", "no")
                            ) -> list[str]:
    """The lines an exact analysis report ends with (Tarot and Tarocchini): every card's
    value (exact, estimate or the bounds a stop left) and its answer to (a) where rows
    carry one (``answer``: the rows' key, the column's head and its cells for a true
    and a false answer; Tarot's "made", Tarocchini's "ahead"), (d) the line, the stop,
    the totals."""
    table = []
    key, head_a, yes, no = answer
    with_made = any(key in r for r in a["cards"])
    for r in a["cards"]:
        if r["exact"]:
            row = [r["move"], str(r["value"]), "exact"]
        elif r["value"] is not None:
            row = [r["move"], str(r["value"]),
                   "estimate R_DD" if r.get("estimated_with") == "relaxed" else "estimate"]
            row[2] += _proven_range(r.get("lower"), r.get("upper"))
        else:
            lo, hi = r.get("bounds") or [None, None]
            v = "stopped" if lo is None and hi is None else \
                f"{'' if lo is None else lo}..{'' if hi is None else hi}"
            row = [r["move"], v, "stopped"]
        # a stopped card's own counts mislead: the run's totals are on the last line
        if with_made:
            m = r.get(key)
            row.append("?" if m is None or m["answer"] is None
                       else yes if m["answer"] else no)
        row += ([f"{r['nodes']:,}", f"{r['seconds']:.4f}"] if r["complete"] else ["-", "-"])
        table.append(row)
    head = ["card", unit, ""] + ([head_a] if with_made else []) + ["nodes", "time (s)"]
    lines = _columns(head, table, indent=2)
    if a.get("line"):
        lines.append("(d) optimal line (one trick per group):")
        lines.append(line_text(a["line"], players, a.get("trick_len", 0)))
    elif a.get("stopped") is not None:
        lines.append("(d) optimal line: not found before the stop")
    if a.get("stopped"):
        lines.append(f"STOPPED by {why}: what is marked exact was proven, the rest is not")
    lines.append(f"nodes {a['nodes']:,}, {a['seconds']:.1f} s in all")
    return lines


def _columns(head: list[str], rows: list[list[str]], indent: int = 0) -> list[str]:
    """Aligned columns: the first left-aligned, the others right-aligned."""
    width = [max(len(str(x)) for x in col) for col in zip(head, *rows, strict=True)]

    def fmt(row: list[Any]) -> str:
        cells = [str(x).ljust(w) if i == 0 else str(x).rjust(w)
                 for i, (x, w) in enumerate(zip(row, width, strict=True))]
        return " " * indent + "  ".join(cells).rstrip()
    return [fmt(head)] + [fmt(r) for r in rows]


def table_deal(record: Record) -> Any:
    """The deal a record's DD table is of: its dealt hands, or in Belote and Coinche
    (whose record deals 5 cards, then 3 after the auction) the 8-card hands of its
    first lead."""
    if record.game == "belote" and any(len(h) != 8 for h in record.deal.hands):
        state, _ = position_from_record(record, "play")
        return [list(h) if not isinstance(h, int) else h for h in state.hands]
    return record.deal


STRAIN_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs",
                "TA": "all trumps", "SA": "no trumps"}


def table_of(record_or_deal, game: str, options: dict[str, Any], dealer: int,
             node_budget: int | None = None, tt_bits: int | None = None,
             deadline: float | None = None,
             horizon: int | str | None = "auto") -> dict[str, Any]:
    """The game's DD table as JSON-ready data (and par for Coinche). Tarot and
    Tarocchini entries are estimated by the horizon search (``horizon``: a number of
    tricks, ``"auto"`` = the game's ``default_horizon``, None = exact, out of reach of
    most full deals), each row saying whether it is ``exact``; Belote and Coinche are
    always exact. ``node_budget``/``deadline`` apply to each search. Ottocento has no
    table (its value depends on the partnership's play of the whole deal, and the
    discard): ``rows`` is empty and ``note`` says so."""
    from ..cards import DECKS

    mod = module_for(game)
    kw: dict[str, Any] = {"node_budget": node_budget, "deadline": deadline}
    if tt_bits is not None:
        kw["tt_bits"] = tt_bits
    if game == "tarot":
        deck = DECKS["tarot"]
        t = mod.dd_table(record_or_deal, options, dealer, horizon=horizon, **kw)
        return {"kind": "tarot", "unit": VALUE_MEANING["tarot"],
                "rows": [{"taker": taker, "contract": contract, "value": r.value,
                          "exact": bool(r.exact and r.complete),
                          "attack_points": r.attack_points,
                          "called": None if r.called is None else deck.token(r.called),
                          "nodes": r.nodes, "complete": r.complete}
                         for (taker, contract), r in sorted(t.items())]}
    if game in ("belote", "coinche"):
        t = mod.dd_table(record_or_deal, game, options, dealer, **kw)
        out: dict[str, Any] = {"kind": game, "unit": "the declaring side's card points "
                               "incl. belote and dix de der (252 on capot)", "rows": [
            {"strain": strain, "side": side, "points": e["points"], "capot": e["capot"],
             "generale": e["generale"], "nodes": e["nodes"], "complete": e["complete"]}
            for strain, sides in t.items() for side, e in sides.items()]}
        if game == "coinche":
            out["par"] = mod.par(record_or_deal, options, dealer, table=t)
        return out
    if game == "tarocchini":
        if _variant(game, options) == "ottocento":
            return {"kind": "ottocento", "unit": None, "rows": [],
                    "note": "Ottocento has no DD table (Terziglio only: a solo for each "
                            "seat); the card values above are the analysis"}
        t = mod.dd_table(record_or_deal, options=options, dealer=dealer, horizon=horizon,
                         **kw)
        return {"kind": "terziglio", "unit": TAROCCHINI_MEANING["terziglio"] +
                " (each seat as the declarer of a solo)",
                "rows": [{"declarer": k, "value": r.value,
                          "exact": bool(r.exact and r.complete),
                          "nodes": r.nodes, "complete": r.complete}
                         for k, r in sorted(t.items())]}
    raise AtoutError(f"no DD table for {game}")


TABLE_HEADS = {"taker": "taker", "contract": "contract", "value": "value",
               "exact": "exact", "attack_points": "attack pts", "called": "called",
               "nodes": "nodes", "strain": "strain", "side": "declarers",
               "points": "points", "capot": "capot", "generale": "generale",
               "declarer": "declarer"}


def format_table(game: str, t: dict[str, Any]) -> str:
    rows = t["rows"]
    if not rows:
        return "DD table: " + (t.get("note") or "(empty)")
    keys = [k for k in rows[0] if k != "complete"]
    if all(r.get("attack_points") is None for r in rows):
        keys = [k for k in keys if k != "attack_points"]
    lines = ["DD table" + (f" (values: {t['unit']})" if t.get("unit") else "") + ":"]
    body = [[_table_cell(k, r.get(k), r) for k in keys] for r in rows]
    lines += _columns([TABLE_HEADS.get(k, k) for k in keys], body, indent=2)
    if any(not r.get("complete", True) for r in rows):
        lines.append("  (a value '-' was stopped by a search limit)")
    if "par" in t:
        lines.append(f"par: {_par_text(t['par'])}")
    return "\n".join(lines)


def _table_cell(key: str, v: Any, row: dict[str, Any]) -> str:
    if key == "strain":
        return STRAIN_NAMES.get(v, str(v))
    if key == "side":
        return "seats 0+2" if v == 0 else "seats 1+3"
    if key == "contract":
        return str(v).replace("_", " ")
    if key == "generale" and isinstance(v, dict):
        won = [f"seat {s}" for s, ok in v.items() if ok]
        return ", ".join(won) if won else "no"
    if key == "nodes":
        return f"{v:,}"
    return _cell(v)


def _cell(v: Any) -> str:
    if isinstance(v, dict):
        return ",".join(f"{k}:{_cell(x)}" for k, x in v.items())
    if isinstance(v, bool):
        return "yes" if v else "no"
    return "-" if v is None else str(v)


def _par_text(p: Any) -> str:
    """The par result by name: the contract, who declares, and the score."""
    if not isinstance(p, dict) or "contract" not in p:
        return str(p)
    c = p.get("contract")
    if not c:
        return "all pass (no contract makes for either side)"
    mult = {1: "", 2: " coinched", 4: " surcoinched"}.get(c.get("multiplier", 1),
                                                          f" x{c.get('multiplier')}")
    side = "seats 0+2" if c.get("side") == 0 else "seats 1+3"
    strain = STRAIN_NAMES.get(c.get("strain"), c.get("strain"))
    text = f"{c.get('name', c.get('value'))} {strain}{mult} by {side}"
    if p.get("scores") is not None:
        text += f", scores {p['scores'][0]} (seats 0+2) - {p['scores'][1]} (seats 1+3)"
    if p.get("net") is not None:
        text += f", net {p['net']:+} for seats 0+2"
    return text
