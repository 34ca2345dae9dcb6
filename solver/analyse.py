"""Analysis for people (issue 27): every legal card's double-dummy value at a position,
relative to the best card (the bridge "=", "-n" convention, in the game's own unit),
the positions of a record one by one, and batch analysis of many deals or records
(``atout analyse``: the DD table and par of each deal, or every card's value at a
given position; ``atout review`` of many records: each one's review), to JSON lines
and CSV, resumable, on local processes or a Ray cluster.

The values come from ``solver.dd.report.analyse`` (what ``atout solve`` prints), so a
page of ``atout view``, a line of ``atout review`` and ``atout solve --at K`` agree
wherever the search is exact; where it is not (early Tarot and Tarocchini positions
under a deadline) each value says ``exact: false``.
"""

from __future__ import annotations

import csv
import hashlib
import json
import multiprocessing
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .cards import DECKS
from .errors import AtoutError
from .games import get_game
from .games.base import GameState, Move
from .notation import Deal, Record, parse_record

# Seconds per position of the viewer and the review: the Tarot exact analysis of an
# early position does not finish in that time, and its cards are then estimated
# (labelled); every other game's position is solved well within it.
POSITION_DEADLINE = 1.0


def card_of(move: Move) -> int | None:
    """The card a move plays: a card move's own, a signal's (Tarocchini ``KC:striscio``
    plays KC), a declared belote's (``belote:KH``, option belote_optional, plays KH);
    None for a move that plays no card (a bid, an announce)."""
    if move.kind in ("card", "belote"):
        return move.value
    if move.kind == "signal" and isinstance(move.value, tuple):
        return move.value[0]
    return None


def is_card_position(state: GameState) -> bool:
    """Whether the seat to act may play a card here (the card play has begun)."""
    if state.is_over() or state.phase != "play":
        return False
    return any(card_of(m) is not None for m in state.legal_moves())


def seat_sign(state: GameState, seat: int) -> int:
    """+1 if the DD value (side 1's) is ``seat``'s own gain, -1 if it is its loss."""
    from .dd import side_of_seat

    return 1 if side_of_seat(state, seat) in (None, 1) else -1


def position_values(state: GameState, deadline: float | None = POSITION_DEADLINE,
                    node_budget: int | None = None, horizon: int | str | None = "auto",
                    tt_bits: int | None = None) -> dict[str, Any]:
    """Every legal card's DD value at a card-play position, and its loss against the
    best card for the seat to act (0 for the best: "="; n > 0: "-n"), as JSON-ready
    data. ``exact`` on a card: its value is the exact double-dummy value (else an
    estimate of the horizon search, or null when a limit stopped it); ``loss_exact``:
    the loss compares two exact values."""
    from .dd.report import analyse

    a = analyse(state, node_budget, deadline, tt_bits, line=False, horizon=horizon)
    seat = state.to_act
    sign = seat_sign(state, seat)
    estimate = bool(a.get("estimate"))
    rows = []
    for r in a["cards"]:
        move = state.parse_move(r["move"])
        exact = bool(r["exact"]) if "exact" in r else bool(r["complete"]) and not estimate
        row = {"move": r["move"], "card": state.deck.token(card_of(move)),
               "value": r["value"], "exact": exact}
        if r.get("bounds") is not None and r["value"] is None:
            row["bounds"] = r["bounds"]
        if "attack_net" in r:
            row["outcome"], row["attack_net"] = r["outcome"], r["attack_net"]
        rows.append(row)
    known = [row for row in rows if row["value"] is not None]
    best = max(known, key=lambda row: sign * row["value"]) if known else None
    for row in rows:
        if row["value"] is None or best is None:
            row["loss"], row["loss_exact"] = None, False
        else:
            row["loss"] = sign * (best["value"] - row["value"])
            row["loss_exact"] = row["exact"] and best["exact"]
    rows.sort(key=lambda row: (row["loss"] is None, row["loss"] or 0))
    out: dict[str, Any] = {
        "to_act": seat, "side_to_act": a.get("side_to_act"),
        "unit": a["value_meaning"],
        "exact": all(row["exact"] for row in rows), "cards": rows,
        "best": None if best is None else best["value"], "nodes": a["nodes"],
    }
    if "made" in a:  # Tarot: is the contract made, the exact T (when proven)
        out["made"] = a["made"]["answer"] if a["made"]["exact"] else None
        out["T"] = a["T"]
    return out


def loss_text(loss: int | float | None) -> str:
    """The bridge convention: "=" for the best card, "-n" for one n worse."""
    if loss is None:
        return "?"
    return "=" if loss == 0 else f"-{loss:g}"


def record_positions(record: Record) -> Iterator[tuple[int, GameState]]:
    """``(k, state)`` for every position of a record: the state after its first k moves
    (k = 0 .. len(moves)); each state is the caller's to keep."""
    module = get_game(record.game)
    state = module.new_state(options=record.options, dealer=record.dealer, deal=record.deal)
    for k in range(len(record.moves) + 1):
        yield k, state.copy()
        if k < len(record.moves):
            try:
                state.play(record.moves[k])
            except AtoutError as e:
                raise type(e)(f"move {k + 1} ({record.moves[k]}): {e}") from None


def parse_item(text: str, game: str | None = None, options: dict[str, Any] | None = None,
               dealer: int = 0) -> tuple[Record | None, Deal | None, str, dict[str, Any], int]:
    """One deal or record, in any of the notation's forms (a record as text or JSON, a
    plain deal as text or as ``atout deal --json`` prints it; a plain deal needs
    ``game``): ``(record, deal, game, options, dealer)``, one of record/deal None."""
    text = text.strip()
    if not text:
        raise AtoutError("empty line: expected a record or a deal")
    obj = None
    if text.startswith("{"):
        try:
            obj = json.loads(text)
        except ValueError as e:
            raise AtoutError(f"invalid JSON ({e})") from None
        if not isinstance(obj, dict):
            raise AtoutError("a JSON line is an object (a record or a deal)")
    if obj is not None and "game" not in obj and "hands" in obj or (
            obj is None and not text.startswith("[")):
        if game is None:
            raise AtoutError("a plain deal needs --game (records name their game)")
        deck = DECKS[game]
        deal = Deal.from_json(obj, deck) if obj is not None else Deal.from_text(text, deck)
        opts = dict(options or {})
        get_game(game).new_state(options=opts, dealer=dealer, deal=deal)  # validates
        return None, deal, game, opts, dealer
    record = parse_record(text)
    if game is not None and game != record.game:
        raise AtoutError(f"--game {game}: the record is a {record.game} deal")
    return record, None, record.game, record.options, record.dealer


# --- batch analysis (atout analyse) ------------------------------------------------

@dataclass
class BatchConfig:
    """What ``atout analyse`` computes for each line: ``at`` None -> the DD table (and
    par where the game has one) of the deal; else every card's value at that position
    of each record (a move count or ``play``, as ``atout solve --at``, or ``end``: after
    all the record's moves)."""

    at: str | None = None
    game: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    dealer: int = 0
    deadline: float | None = None
    node_budget: int | None = None
    horizon: int | str | None = "auto"
    # ``atout review`` of many records: the worlds per decision and the seed
    review_worlds: int | None = None
    seed: int = 0

    def key(self) -> dict[str, Any]:
        return json.loads(json.dumps(self.__dict__, default=str))


def line_key(line_no: int, text: str) -> str:
    """What identifies a finished line in a resumed output: its number and its text."""
    return f"{line_no}:{hashlib.sha1(text.strip().encode()).hexdigest()[:16]}"


def analyse_item(cfg: BatchConfig, text: str) -> dict[str, Any]:
    """The analysis of one line (see :class:`BatchConfig`), JSON-ready; an AtoutError
    for a bad record or deal."""
    from .dd.report import (
        DEFAULT_DEADLINE,
        _variant,
        position_from_record,
        table_deal,
        table_of,
    )

    if cfg.review_worlds is not None and not text.lstrip().startswith(("[", "{")):
        raise AtoutError("expected a record (text [Game ...] tags or JSON); a plain deal "
                         "has no play to review")
    record, deal, game, options, dealer = parse_item(text, cfg.game, cfg.options, cfg.dealer)
    out: dict[str, Any] = {"game": game, "variant": _variant(game, options)}
    if cfg.review_worlds is not None:
        from .review import review

        if record is None:
            raise AtoutError("a review needs a record (a plain deal has no play)")
        result = review(record, cfg.review_worlds, cfg.seed,
                        POSITION_DEADLINE if cfg.deadline is None else cfg.deadline,
                        cfg.node_budget)
        for k in ("schema", "schema_version", "seconds"):  # the same in any run
            result.pop(k)
        out["review"] = result
        return out
    if cfg.at is None:
        source = deal if record is None else table_deal(record)
        deadline = DEFAULT_DEADLINE if cfg.deadline is None else cfg.deadline
        table = table_of(source, game, options, dealer, cfg.node_budget, None, deadline,
                         cfg.horizon)
        out["table"] = table
        return out
    if record is None:
        raise AtoutError("--at applies to records (a plain deal has no moves)")
    state, where = position_from_record(record, None if cfg.at == "end" else cfg.at)
    out["position"] = where
    if not is_card_position(state):
        raise AtoutError(f"--at {cfg.at}: {where} is not a card-play position")
    values = position_values(state, cfg.deadline, cfg.node_budget, cfg.horizon)
    out["analysis"] = values
    return out


def _batch_job(args: tuple[BatchConfig, int, str]) -> tuple[int, dict[str, Any]]:
    """One line's result, or its error: a bad line never stops the batch."""
    cfg, line_no, text = args
    try:
        result: dict[str, Any] = analyse_item(cfg, text)
    except AtoutError as e:
        result = {"error": " ".join(str(e).split())[:300]}
    from .schemas import SCHEMA_VERSION

    return line_no, {"schema": "analyse", "schema_version": SCHEMA_VERSION,
                     "line": line_no, "key": line_key(line_no, text)} | result


def read_lines(path: str, text: str) -> list[tuple[int, str]]:
    """The non-blank lines of the input, numbered from 1 (lines starting with # are
    comments)."""
    return [(i, ln) for i, ln in enumerate(text.splitlines(), 1)
            if ln.strip() and not ln.lstrip().startswith("#")]


def load_done(cfg: BatchConfig, path: str) -> dict[str, dict[str, Any]]:
    """The lines finished by an earlier run into the output ``path`` (JSON lines whose
    first line is the config), by :func:`line_key`; an error for another batch's file.
    Lines that failed are not kept: they are tried again."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return {}
    with open(path, encoding="utf-8") as f:
        lines = [ln for ln in f if ln.strip()]
    try:
        head = json.loads(lines[0])
        if head.get("schema") != "analyse_config":
            raise KeyError("schema")
        found = head["config"]
        done = {}
        for ln in lines[1:]:
            try:
                rec = json.loads(ln)
            except ValueError:
                continue  # a line cut short by an interrupted run: analysed again
            if isinstance(rec, dict) and "error" not in rec and "key" in rec:
                done[rec["key"]] = rec
    except (ValueError, KeyError, TypeError, AttributeError, IndexError) as e:
        raise AtoutError(f"{path} is not the output of atout analyse "
                         f"({type(e).__name__}: {e}); use another file") from None
    if found != cfg.key():
        raise AtoutError(f"{path} holds another analysis ({found}); use another file")
    return done


def run_batch(cfg: BatchConfig, items: list[tuple[int, str]], out_path: str | None = None,
              jobs: int = 1, ray: str | None = None,
              progress: Callable[[int], None] | None = None,
              report_error: Callable[[int, str], None] | None = None,
              ) -> list[dict[str, Any]]:
    """Analyse every ``(line_no, text)`` item; the results in line order. With
    ``out_path`` the finished lines are appended there as they come (after a first
    line holding the config) and a run with the same file skips them; at the end the
    file is rewritten in line order, so it is the same whatever ``jobs``, ``ray`` or
    the interruptions. ``report_error(line_no, message)`` is told of each bad line."""
    from .match import check_backend, play_on_ray

    check_backend(jobs, ray)
    done = load_done(cfg, out_path) if out_path else {}
    results: dict[int, dict[str, Any]] = {}
    tasks = []
    for line_no, text in items:
        kept = done.get(line_key(line_no, text))
        if kept is not None:
            results[line_no] = kept
        else:
            tasks.append((cfg, line_no, text))
    if progress and results:
        progress(len(results))
    sink = None
    if out_path:
        fresh = not os.path.exists(out_path) or os.path.getsize(out_path) == 0
        sink = open(out_path, "a", encoding="utf-8")
        if fresh:
            sink.write(json.dumps({"schema": "analyse_config", "config": cfg.key()}) + "\n")
            sink.flush()

    def finished(line_no: int, result: dict[str, Any]) -> None:
        results[line_no] = result
        if "error" in result and report_error:
            report_error(line_no, result["error"])
        if sink is not None:
            sink.write(json.dumps(result, default=str) + "\n")
            sink.flush()
        if progress:
            progress(1)

    try:
        if ray is not None and tasks:
            play_on_ray(ray, tasks, finished, job=_batch_job)
        elif jobs > 1 and len(tasks) > 1:
            with multiprocessing.get_context("spawn").Pool(min(jobs, len(tasks))) as pool:
                for line_no, r in pool.imap_unordered(_batch_job, tasks, chunksize=1):
                    finished(line_no, r)
        else:
            for t in tasks:
                finished(*_batch_job(t))
    finally:
        if sink is not None:
            sink.close()
    ordered = [results[i] for i in sorted(results)]
    if out_path:
        tmp = out_path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(json.dumps({"schema": "analyse_config", "config": cfg.key()}) + "\n")
            for r in ordered:
                f.write(json.dumps(r, default=str) + "\n")
        os.replace(tmp, out_path)
    return ordered


CSV_TABLE = ["line", "game", "variant", "error", "strain", "side", "points", "capot",
             "taker", "contract", "declarer", "value", "exact", "complete", "par"]
CSV_CARDS = ["line", "game", "variant", "error", "position", "to_act", "move", "value",
             "loss", "exact", "made"]


def csv_rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    """One CSV row per DD table entry (table mode) or per legal card (position mode);
    a bad line gives one row with its error."""
    base = {"line": result["line"], "game": result.get("game"),
            "variant": result.get("variant"), "error": result.get("error")}
    if "error" in result:
        return [base]
    if "table" in result:
        table = result["table"]
        par = table.get("par")
        par_text = None
        if par is not None:
            from .dd.report import _par_text
            par_text = _par_text(par)
        rows = [base | {k: r.get(k) for k in CSV_TABLE if k in r} | {"par": par_text}
                for r in table["rows"]]
        return rows or [base | {"par": table.get("note")}]
    a = result["analysis"]
    return [base | {"position": result["position"], "to_act": a["to_act"],
                    "move": c["move"], "value": c["value"], "loss": c["loss"],
                    "exact": c["exact"], "made": a.get("made")} for c in a["cards"]]


def write_csv(results: list[dict[str, Any]], path: str, positions: bool) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=CSV_CARDS if positions else CSV_TABLE,
                           extrasaction="ignore")
        w.writeheader()
        for r in results:
            for row in csv_rows(r):
                w.writerow(row)
