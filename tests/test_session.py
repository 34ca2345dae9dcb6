"""Game sessions (solver/session.py) through the stdin protocol: new_game, observe,
move (recorded in the session), close; bounds and idle expiry."""

import json

from solver.protocol import handle_line
from solver.session import STORE, SessionStore, handle_sync

HAND = "KH QH TH AD JD 8D KC 9C"


def ask(**req):
    return handle_line(json.dumps(req))


def test_session_flow():
    r = ask(cmd="new_game", id=1, game="coinche", dealer=0, seat=1, hand=HAND,
            agent="heuristic")
    assert r["ok"] and r["id"] == 1 and r["seat"] == 1 and r["phase"] == "bid"
    sid = r["session"]
    r = ask(cmd="move", session=sid, seed=4)
    assert r["ok"] and r["seat"] == 1
    first = r["move"]
    # the move was recorded: it is seat 2's turn now
    r = ask(cmd="move", session=sid)
    assert r["ok"] is False and "turn" in r["error"]
    r = ask(cmd="observe", session=sid, moves=["pass", "pass"])
    assert r["ok"] and r["seat"] == 0 and r["moves"] == 3
    r = ask(cmd="observe", session=sid, moves=["KH"])  # a card of the seat's own hand
    assert r["ok"] is False and "own hand" in r["error"] and "\n" not in r["error"]
    r = ask(cmd="observe", session=sid, moves="bid:80:S")
    assert r["ok"] and r["seat"] == 1  # a bad observe changed nothing
    assert STORE.sessions[sid].view.moves == [first, "pass", "pass", "bid:80:S"]
    assert ask(cmd="close", session=sid)["ok"]
    r = ask(cmd="observe", session=sid, moves=["pass"])
    assert r["ok"] is False and "no session" in r["error"]


def test_session_bounds_and_expiry():
    store = SessionStore(max_sessions=2, idle_seconds=10.0, max_moves=3)
    req = {"cmd": "new_game", "game": "coinche", "seat": 1, "hand": HAND}
    a = handle_sync(dict(req), store)["session"]
    handle_sync(dict(req), store)
    try:
        handle_sync(dict(req), store)
        raise AssertionError("a third session")
    except Exception as e:
        assert "too many sessions" in str(e)
    try:
        handle_sync({"cmd": "observe", "session": a, "moves": ["pass"] * 4}, store)
        raise AssertionError("too many moves")
    except Exception as e:
        assert "at most 3 moves" in str(e)
    store.sessions[a].last_used -= 11
    assert store.expire() == 1 and a not in store.sessions
    assert len(store.sessions) == 1


def test_session_from_a_view_and_errors():
    r = ask(cmd="new_game", view=f'[Game "coinche"][Dealer "0"][Seat "1"][Hand "{HAND}"]'
                                 f'[Moves "pass"]')
    assert r["ok"] and r["seat"] == 2
    assert ask(cmd="close", session=r["session"])["ok"]
    r = ask(cmd="new_game", game="belote", seat=0, hand="JH")
    assert r["ok"] is False and "hand has 1 cards" in r["error"]
    r = ask(cmd="observe")
    assert r["ok"] is False and "session" in r["error"]
