"""Game sessions: the engine keeps one seat's view per game, so requests stay small.

``new_game`` (a seat's view at the start: game, options, dealer, seat, hand, piles;
returns ``session``), ``observe`` (the next public or own moves, cards received, piles
shown, ``reveal``: masked moves shown later), ``move`` with ``session`` (the engine's move for its seat; recorded unless
``"play": false``), ``close``. Each request is split in two: ``prepare`` (bookkeeping,
no engine work) gives a stateless request for the engine (``legal`` or ``move`` on the
session's view) and a ``finish`` that commits the session's change once the engine
answered. The stdin server runs the engine request in-process; the TCP server
(``solver.server``) in a worker process. Bounds: ``max_sessions`` sessions, each at most
``max_moves`` moves; sessions idle for ``idle_seconds`` are dropped.
"""

from __future__ import annotations

import itertools
import secrets
import time
from collections.abc import Callable
from typing import Any

from .errors import AtoutError
from .view import View, parse_view

SESSION_COMMANDS = ("new_game", "observe", "close")
MAX_SESSIONS = 1000
MAX_MOVES = 400
IDLE_SECONDS = 900.0


class Session:
    __slots__ = ("id", "view", "agent", "seed", "last_used", "busy")

    def __init__(self, sid: str, view: View, agent: str | None, seed: int):
        self.id, self.view, self.agent, self.seed = sid, view, agent, seed
        self.last_used = time.monotonic()
        self.busy = False


Finish = Callable[[dict[str, Any]], dict[str, Any]]


class SessionStore:
    def __init__(self, max_sessions: int = MAX_SESSIONS, idle_seconds: float = IDLE_SECONDS,
                 max_moves: int = MAX_MOVES):
        self.max_sessions, self.idle_seconds, self.max_moves = (max_sessions, idle_seconds,
                                                                max_moves)
        self.sessions: dict[str, Session] = {}
        self._ids = itertools.count(1)
        self._salt = secrets.token_hex(3)

    def expire(self, now: float | None = None) -> int:
        now = time.monotonic() if now is None else now
        old = [k for k, s in self.sessions.items()
               if not s.busy and now - s.last_used > self.idle_seconds]
        for k in old:
            del self.sessions[k]
        return len(old)

    def _get(self, req: dict[str, Any]) -> Session:
        sid = req.get("session")
        if not isinstance(sid, str):
            raise AtoutError("request needs the field 'session' (a string from new_game)")
        s = self.sessions.get(sid)
        if s is None:
            raise AtoutError(f"no session {sid[:40]!r} (closed, expired or never opened)")
        if s.busy:
            raise AtoutError(f"session {sid}: one request at a time per session")
        s.last_used = time.monotonic()
        return s

    def prepare(self, req: dict[str, Any]) -> tuple[dict[str, Any] | None, Finish]:
        """``(engine request or None, finish(engine reply) -> reply fields)``."""
        self.expire()
        cmd = req.get("cmd")
        if cmd == "new_game":
            return self._new_game(req)
        if cmd == "close":
            s = self._get(req)
            del self.sessions[s.id]
            return None, lambda _r: {"session": s.id, "closed": True}
        s = self._get(req)
        if cmd == "observe":
            return self._observe(s, req)
        if cmd == "move":
            return self._move(s, req)
        raise AtoutError(f"cmd {cmd!r} takes no session")

    def _new_game(self, req):
        if len(self.sessions) >= self.max_sessions:
            raise AtoutError(f"too many sessions ({self.max_sessions}): close some first")
        src = req.get("view")
        if src is None:
            src = {k: req[k] for k in ("game", "options", "dealer", "seat", "hand", "piles",
                                       "received", "moves") if k in req}
        if not isinstance(src, (str, dict)):
            raise AtoutError("field 'view' must be a string or an object")
        view = parse_view(src)
        self._check_size(view)
        agent = req.get("agent")
        if agent is not None and not isinstance(agent, str):
            raise AtoutError("field 'agent' must be a string")
        seed = req.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise AtoutError("field 'seed' must be an integer")
        work = {"cmd": "legal", "view": view.to_json()}

        def finish(reply):
            if not reply.get("ok"):
                return reply
            if len(self.sessions) >= self.max_sessions:
                raise AtoutError(f"too many sessions ({self.max_sessions}): close some first")
            sid = f"g{next(self._ids)}-{self._salt}"
            self.sessions[sid] = Session(sid, view, agent, seed)
            return _strip(reply) | {"session": sid}

        return work, finish

    def _check_size(self, view: View) -> None:
        if len(view.moves) > self.max_moves:
            raise AtoutError(f"a session holds at most {self.max_moves} moves")

    def _observe(self, s: Session, req):
        moves = req.get("moves", req.get("move", []))
        if isinstance(moves, str):
            moves = moves.split()
        if not isinstance(moves, list) or not all(isinstance(t, str) for t in moves):
            raise AtoutError("field 'moves' must be a list of move tokens")
        new = View(s.view.game, s.view.options, s.view.dealer, s.view.seat,
                   list(s.view.hand), dict(s.view.piles), list(s.view.received),
                   s.view.moves + moves)
        deck = new.deck
        reveal = req.get("reveal") or []
        if not isinstance(reveal, list):
            raise AtoutError("field 'reveal' must be a list of [move index, token]")
        for item in reveal:  # a masked move shown later (a Belote announce's cards)
            if (not isinstance(item, list) or len(item) != 2 or not isinstance(item[0], int)
                    or not isinstance(item[1], str)):
                raise AtoutError("field 'reveal' must be a list of [move index, token]")
            k, tok = item
            if not 0 <= k < len(new.moves) or "?" not in new.moves[k]:
                raise AtoutError(f"reveal: move {k} is not a masked move")
            if not tok.startswith(new.moves[k].split("?")[0]):
                raise AtoutError(f"reveal: {tok[:40]!r} does not match {new.moves[k]!r}")
            new.moves[k] = tok
        received = req.get("received")
        if received is not None:
            if isinstance(received, str):
                received = received.split()
            if not isinstance(received, list) or not all(isinstance(t, str) for t in received):
                raise AtoutError("field 'received' must be a list of card tokens")
            new.received += [deck.card(t) for t in received]
        piles = req.get("piles")
        if piles is not None:
            if not isinstance(piles, dict):
                raise AtoutError("field 'piles' must be an object of name: cards")
            for k, v in piles.items():
                cards = v.split() if isinstance(v, str) else v
                if not isinstance(cards, list) or not all(isinstance(t, str) for t in cards):
                    raise AtoutError(f"pile {str(k)[:20]!r} must be a list of card tokens")
                new.piles[str(k)] = [deck.card(t) for t in cards]
        self._check_size(new)
        s.busy = True

        def finish(reply):
            s.busy = False
            if reply.get("ok"):
                s.view = new
                s.last_used = time.monotonic()
                return _strip(reply) | {"session": s.id, "moves": len(new.moves)}
            return reply

        return {"cmd": "legal", "view": new.to_json()}, finish

    def _move(self, s: Session, req):
        work = {"cmd": "move", "view": s.view.to_json(),
                "seed": req.get("seed", s.seed)}
        for k in ("agent", "seconds"):
            if req.get(k) is not None:
                work[k] = req[k]
        if "agent" not in work and s.agent:
            work["agent"] = s.agent
        play = req.get("play", True)
        if not isinstance(play, bool):
            raise AtoutError("field 'play' must be true or false")
        s.busy = True
        before = len(s.view.moves)

        def finish(reply):
            s.busy = False
            if reply.get("ok") and play and len(s.view.moves) == before:
                s.view.moves.append(reply["move"])
                s.last_used = time.monotonic()
            return _strip(reply) | ({"session": s.id} if reply.get("ok") else {})

        return work, finish

    def release(self, req: dict[str, Any]) -> None:
        """Clear the busy flag of a request's session (its engine request failed)."""
        s = self.sessions.get(req.get("session")) if isinstance(req.get("session"), str) else None
        if s is not None:
            s.busy = False


def _strip(reply: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in reply.items() if k not in ("id",)}


def is_session_request(req: dict[str, Any]) -> bool:
    cmd = req.get("cmd")
    return cmd in SESSION_COMMANDS or (cmd == "move" and "session" in req)


STORE = SessionStore()  # the stdin server's sessions


def handle_sync(req: dict[str, Any], store: SessionStore | None = None) -> dict[str, Any]:
    """Serve a session request in-process (``atout serve`` on stdin): reply fields, or
    raises AtoutError."""
    import json

    from .protocol import handle_line

    store = STORE if store is None else store
    work, finish = store.prepare(req)
    try:
        reply = handle_line(json.dumps(work)) if work is not None else {"ok": True}
    except BaseException:
        store.release(req)
        raise
    out = finish(reply)
    if not out.get("ok", True):
        raise AtoutError(out.get("error", "failed"))
    return {k: v for k, v in out.items() if k != "ok"}
