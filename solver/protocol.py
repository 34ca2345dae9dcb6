"""A line protocol for game applications (``atout serve``): one JSON object per line
in, one JSON object per line out, in the same order.

Requests (every field but ``cmd`` optional unless marked; ``id``, any JSON value, is
echoed in the reply):

``{"cmd": "move", "record": REC, "agent": SPEC, "seed": 0, "seconds": 2.0}``
    The move of the seat to act after the record's moves (``at``: after that many
    moves): a card, bid, discard, call, announce or declaration. Reply
    ``{"ok": true, "move": TOKEN, "seat": S, "phase": P, "agent": SPEC, "time": T}``
    (``stats``: the PIMC worlds used). Without ``agent``: ``pimc:worlds=100`` within
    4M search nodes, its worlds following the auction in Coinche and Belote, its
    horizon leaves scored by the fitted evaluation in Tarot 4p (``default_agent``).
    ``seconds`` bounds a PIMC decision (the worlds solved when it runs out are used;
    with ``bidding=sim``, bids too); ``seat``, if given, must be the seat to act. Honest
    agents read only what that seat knows (``state.observation``): the other hands
    in the record do not change their choice; ``oracle`` sees all.
``{"cmd": "legal", "record": REC}``
    ``{"ok": true, "seat": S, "phase": P, "legal": [TOKEN, ...], "over": false}``.
``{"cmd": "solve", "record": REC, "node_budget": N, "deadline": 10.0}``
    Double-dummy value of every legal card at the position (``atout solve``).
``{"cmd": "evaluate", "game": G, "hand": "...", "seat": 0, "dealer": 3,
"auction": [...], "turned": "7S", "options": {...}, "samples": 200, "mode": "dd",
"seconds": 5}``
    Bid analysis (``atout evaluate``): the evaluation as JSON.
``{"cmd": "version"}``, ``{"cmd": "quit"}`` (the server stops after replying).

``REC`` is a record in the notation of docs/NOTATION.md, as text or as its JSON
object. A request that cannot be served gets ``{"ok": false, "error": MESSAGE}`` and
the server goes on with the next line; the same seed gives the same reply. Every
reply carries ``"schema_version"`` (``solver.schemas.SCHEMA_VERSION``, the version of this
output; schemas in docs/schemas/, described in docs/OUTPUT.md). An error message
quotes at most a short excerpt of a bad input. ``horizon`` (``solve``) means what
``atout solve --horizon`` means: ``"auto"`` (default), ``"exact"`` or a positive number
of tricks. Numbers are finite JSON numbers (``Infinity`` and ``NaN`` are refused);
seeds are integers 0 to 2**32-1.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from . import __version__
from .errors import AtoutError, OptionError
from .schemas import SCHEMA_VERSION

MAX_ERROR = 300  # characters of an error message (never the whole bad input back)
MAX_SEED = 2**32 - 1

COMMANDS = ("move", "legal", "solve", "evaluate", "version", "quit", "new_game", "observe",
            "close")
# The agent a request gets when it names none: PIMC over 100 worlds; in Coinche and
# Belote the worlds follow the auction (measured against uniform worlds, duplicate:
# Coinche +11.0 [+5.9, +16.2] points per deal over 800 deals, Belote +4.9 [+1.3, +8.6]
# over 400; Tarot 4p no gain; benchmarks/RESULTS.md). A decision spends at most about
# DEFAULT_NODES search nodes (``pimc:nodes``, deterministic): every decision of whole
# deals of all seven setups then took <= 1 s wall on this 2-core machine, against
# 1.2-3.8 s at worst without it (benchmarks/decision_latency.py, RESULTS.md).
DEFAULT_NODES = 4_000_000
DEFAULT_AGENT = f"pimc:worlds=100,nodes={DEFAULT_NODES}"
DEFAULT_AGENTS = {"coinche": f"pimc:worlds=100,auction=1,nodes={DEFAULT_NODES}",
                  "belote": f"pimc:worlds=100,auction=1,nodes={DEFAULT_NODES}"}
# Tarot player counts whose default scores the horizon's leaves by the fitted static
# evaluation's expected T (pimc ``evaluation=soft``, issue 28): duplicate at equal time
# against the plain default, Tarot 4p +1.56 [+0.09, +3.03] a deal over 300 deals;
# decisions stay <= 1 s (benchmarks/RESULTS.md).
SOFT_TAROT_PLAYERS = frozenset({4})


def default_agent(game: str, players: int | None = None) -> str:
    """The agent a request that names none gets, for ``game`` with ``players`` seats."""
    if game == "tarot" and players in SOFT_TAROT_PLAYERS:
        return f"{DEFAULT_AGENT},evaluation=soft"
    return DEFAULT_AGENTS.get(game, DEFAULT_AGENT)


class Stop(Exception):
    """Raised by ``quit`` after its reply."""


def _field(req: dict[str, Any], name: str, kind: type | tuple[type, ...], default: Any,
           required: bool = False) -> Any:
    if name not in req or req[name] is None:
        if required:
            raise AtoutError(f"request needs the field {name!r}")
        return default
    value = req[name]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        # JSON names: a record may be a string or an object
        want = " or ".join(_JSON_NAMES.get(k, k.__name__) for k in kinds
                           if not (k is int and float in kinds))
        raise AtoutError(f"field {name!r} must be {want}, got {_short(value)}")
    return value


def _short(value: Any, limit: int = 60) -> str:
    from .dd.report import short
    return short(value, limit)


def _seed(req: dict[str, Any]) -> int:
    seed = _field(req, "seed", int, 0)
    if not 0 <= seed <= MAX_SEED:
        raise AtoutError(f"seed must be 0 to 2**32-1, got {_short(seed)}")
    return seed


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


_JSON_NAMES = {str: "a string", int: "an integer", float: "a number", dict: "an object",
               list: "a list", bool: "true or false"}


def _state(req: dict[str, Any]):
    from .games import state_from_record
    from .notation import Record, parse_record
    from .view import is_view, request_state

    if req.get("view") is not None or is_view(req.get("record")):  # a seat's view
        return request_state(req)  # (solver/view.py)

    rec = _field(req, "record", (str, dict), None, required=True)
    record = parse_record(json.dumps(rec) if isinstance(rec, dict) else rec)
    at = _field(req, "at", int, None)
    if at is not None:
        if not 0 <= at <= len(record.moves):
            raise AtoutError(f"at={at}: the record has {len(record.moves)} moves")
        record = Record(record.game, record.options, record.dealer, record.deal,
                        record.moves[:at])
    return state_from_record(record)


def _move(req: dict[str, Any]) -> dict[str, Any]:
    from .agents import make_agent, parse_spec

    state = _state(req)
    if state.is_over():
        raise AtoutError("the deal is over: no move to make")
    seat = state.to_act
    asked = _field(req, "seat", int, seat)
    if asked != seat:
        raise AtoutError(f"it is seat {seat}'s turn, not seat {asked}'s")
    players = state.players if state.game == "tarot" else None
    spec = _field(req, "agent", str, default_agent(state.game, players))
    seed = _seed(req)
    seconds = _field(req, "seconds", (int, float), None)
    name, _ = parse_spec(spec)  # validates the agent's name
    if seconds is not None:
        if seconds <= 0:
            raise AtoutError(f"seconds must be positive, got {seconds!r}")
        if name == "pimc":
            spec = f"{spec}{',' if ':' in spec else ':'}seconds={float(seconds)}"
    agent = make_agent(spec, seed=seed, game=state.game)
    t = time.perf_counter()
    move = agent.choose(state, seat)
    out = {"move": state.move_token(move), "seat": seat,
           "phase": state.phase, "agent": spec,
           "time": round(time.perf_counter() - t, 4)}
    stats = getattr(agent, "last_stats", None)
    if stats:
        out["stats"] = {k: v for k, v in stats.items() if isinstance(v, (int, float, str))}
    return out


def _legal(req: dict[str, Any]) -> dict[str, Any]:
    state = _state(req)
    if state.is_over():
        return {"over": True, "legal": [], "scores": list(state.scores())}
    return {"over": False, "seat": state.to_act, "phase": state.phase,
            "legal": [state.move_token(m) for m in state.legal_moves()]}


def _solve(req: dict[str, Any]) -> dict[str, Any]:
    from .dd.report import analyse, parse_horizon

    state = _state(req)
    budget = _field(req, "node_budget", int, None)
    deadline = _field(req, "deadline", (int, float), 120.0)
    if budget is not None and budget < 1:
        raise AtoutError(f"node_budget must be positive, got {budget}")
    if deadline <= 0:
        raise AtoutError(f"deadline must be positive, got {deadline}")
    horizon = parse_horizon(_field(req, "horizon", (str, int), "auto"), "horizon")
    return {"analysis": analyse(state, budget, float(deadline), line=True,
                                horizon=horizon)}


def _evaluate(req: dict[str, Any]) -> dict[str, Any]:
    from .bidding import context_from
    from .bidding import evaluate as run_evaluation

    game = _field(req, "game", str, None, required=True)
    auction = _field(req, "auction", (list, str), [])
    if isinstance(auction, str):
        auction = auction.split()
    ctx = context_from(game, _field(req, "hand", str, None, required=True),
                       seat=_field(req, "seat", int, 0),
                       dealer=_field(req, "dealer", int, None),
                       options=_field(req, "options", dict, {}),
                       auction=[str(a) for a in auction],
                       turned=_field(req, "turned", str, None),
                       params=_field(req, "params", dict, {}))
    samples = _field(req, "samples", int, 200)
    if samples < 1:
        raise AtoutError(f"samples must be positive, got {samples}")
    mode = _field(req, "mode", str, "dd")
    if mode not in ("dd", "pimc"):
        raise AtoutError(f"mode must be dd or pimc, got {mode!r}")
    seconds = _field(req, "seconds", (int, float), None)
    if seconds is not None and seconds <= 0:
        raise AtoutError(f"seconds must be positive, got {seconds!r}")
    result = run_evaluation(ctx, samples=samples, seed=_seed(req),
                            mode=mode, seconds=seconds)
    return {"evaluation": result.to_json()}


def _version(req: dict[str, Any]) -> dict[str, Any]:
    return {"version": __version__, "commands": list(COMMANDS)}


HANDLERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "move": _move, "legal": _legal, "solve": _solve, "evaluate": _evaluate,
    "version": _version,
}


def _error(reply: dict[str, Any], message: str) -> dict[str, Any]:
    """An error reply; the message cut to ``MAX_ERROR`` characters."""
    if len(message) > MAX_ERROR:
        message = message[:MAX_ERROR - 30] + f"... ({len(message)} characters)"
    return reply | {"ok": False, "error": message}


def handle_line(line: str | bytes) -> dict[str, Any]:
    """The reply to one request line. Raises ``Stop`` (carrying the reply) on quit."""
    base: dict[str, Any] = {"schema_version": SCHEMA_VERSION}
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as e:
            return _error(base, f"not UTF-8 text (byte 0x{line[e.start]:02x} at offset "
                                f"{e.start})")
    try:
        req = json.loads(line, parse_constant=_no_constant)
    except ValueError as e:
        return _error(base, f"not a JSON object: {e}")
    except RecursionError:
        return _error(base, "not a JSON object: nested too deeply")
    if not isinstance(req, dict):
        return _error(base, "not a JSON object: expected {...}")
    reply: dict[str, Any] = ({"id": req["id"]} if "id" in req else {}) | base
    if "id" in req and len(json.dumps(req["id"])) > 200:
        return _error(base, "field 'id' is too long (at most 200 characters of JSON)")
    cmd = req.get("cmd")
    if cmd == "quit":
        raise Stop(reply | {"ok": True})
    handler = HANDLERS.get(cmd) if isinstance(cmd, str) else None
    if cmd in ("new_game", "observe", "close") or (cmd == "move" and "session" in req):
        from .session import handle_sync as handler  # game sessions (solver/session.py)
    if handler is None:
        return _error(reply, f"unknown cmd {_short(cmd, 40)} (known: {', '.join(COMMANDS)})")
    try:
        return reply | {"ok": True} | handler(req)
    except (AtoutError, OptionError) as e:
        return _error(reply, str(e))
    except RecursionError:
        return _error(reply, "request too deeply nested")
    except Exception as e:  # a bug: report it, keep serving the other requests
        return _error(reply, f"internal error ({type(e).__name__}: {e})")


def serve(lines: Iterable[str] | Iterable[bytes], out: TextIO) -> int:
    """Answer every request line (text, or bytes decoded as UTF-8 one line at a time;
    blank lines are skipped) until the input ends or a ``quit``; returns the number of
    requests answered."""
    n = 0
    for line in lines:
        if not line.strip():
            continue
        n += 1
        try:
            reply = handle_line(line)
        except Stop as stop:
            out.write(json.dumps(stop.args[0]) + "\n")
            out.flush()
            break
        out.write(json.dumps(reply, default=str) + "\n")
        out.flush()
    return n
