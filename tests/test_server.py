"""The TCP server (solver/server.py), loopback only, bounded in count and time: a client
holding only its own seat's information plays full deals of every game; a small load
test (8 clients x 20 requests: zero lost, mixed or malformed replies); clients sending
garbage, half lines, 10 MB lines or hanging up mid-request leave the server serving;
busy replies, the token, SIGTERM with a request in flight."""

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

import pytest

from solver.agents import make_agent
from solver.games import get_game
from solver.view import view_of

GAMES = [("tarot", {}), ("tarot", {"players": 3}), ("tarot", {"players": 5}),
         ("belote", {}), ("coinche", {}), ("tarocchini", {}),
         ("tarocchini", {"game": "terziglio"})]


def start(*args):
    # run outside the source tree, so that the installed package (with its compiled
    # core) is imported, as for a user: CI installs the repository, not in place
    p = subprocess.Popen([sys.executable, "-m", "solver.server", "--listen", "127.0.0.1:0",
                          *args], stderr=subprocess.PIPE, text=True,
                         cwd=tempfile.gettempdir())
    line = p.stderr.readline()
    assert "serving on" in line, line
    return p, int(line.split()[3].rsplit(":", 1)[1])


class Client:
    def __init__(self, port, timeout=60):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.f = self.sock.makefile("rwb")

    def send(self, obj):
        self.f.write((obj if isinstance(obj, bytes) else json.dumps(obj).encode()) + b"\n")
        self.f.flush()

    def recv(self):
        line = self.f.readline()
        assert line.endswith(b"\n"), line
        return json.loads(line)

    def ask(self, obj):
        self.send(obj)
        return self.recv()

    def close(self):
        self.sock.close()


@pytest.fixture(scope="module")
def server():
    p, port = start("--workers", "2")
    yield port
    p.send_signal(signal.SIGTERM)
    assert p.wait(20) == 0


def play_deal(port, game, options, seed):
    """The table plays every seat but one with the heuristic; the bot seat is served by
    the server from what that seat sees (a session fed with its view's moves)."""
    state = get_game(game).new_state(options=options, seed=seed, dealer=seed % 3)
    bot = seed % len(state.hands)
    others = make_agent("heuristic", seed=seed)
    c = Client(port)
    v0 = view_of(state.to_record(), bot)
    r = c.ask({"cmd": "new_game", "id": "ng", "agent": "heuristic", "seed": seed,
               **v0.to_json()})
    assert r["ok"], r
    sid, sent, piles, received = r["session"], [], dict(v0.to_json()["piles"]), []
    decisions = 0
    while not state.is_over():
        if state.to_act != bot:
            state.play(others.choose(state, state.to_act))
            continue
        v = view_of(state.to_record(), bot).to_json()
        obs = {"cmd": "observe", "session": sid, "moves": v["moves"][len(sent):],
               "reveal": [[k, t] for k, t in enumerate(v["moves"][:len(sent)])
                          if t != sent[k]],
               "received": v["received"][len(received):]}
        if v["piles"] != piles:
            obs["piles"] = piles = v["piles"]
        r = c.ask(obs)
        assert r["ok"], (r, obs)
        assert r["seat"] == bot
        r = c.ask({"cmd": "move", "session": sid, "id": decisions})
        assert r["ok"] and r["id"] == decisions, r
        state.play(r["move"])
        sent, received = v["moves"] + [r["move"]], v["received"]
        decisions += 1
    assert c.ask({"cmd": "close", "session": sid})["ok"]
    c.close()
    return decisions, len(state.to_record().moves)


def test_bot_plays_full_deals_of_every_game(server):
    results, errors = {}, []

    def run(g):
        try:
            for seed in range(1, 8):  # a deal that gets past the auction
                n, moves = play_deal(server, *g, seed=seed)
                if moves > 20:
                    results[g[0] + str(g[1])] = n
                    break
        except BaseException as e:  # reported below
            errors.append((g, repr(e)[:500]))

    threads = [threading.Thread(target=run, args=(g,)) for g in GAMES]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    assert len(results) == len(GAMES) and all(n > 0 for n in results.values()), results


RECORD = get_game("coinche").new_state(seed=4, dealer=0).to_record().to_text()


def test_load_small(server):
    """8 clients x 20 mixed requests, all at once: every reply is the one asked for."""
    import random

    from solver.games import get_game as gg

    recs = []
    for g, o in GAMES:
        s = gg(g).new_state(options=o, seed=5)
        recs.append(s.to_record().to_text())
    errors = []

    def client(k):
        rng = random.Random(k)
        c = Client(server)
        try:
            for i in range(20):
                rid = f"{k}-{i}"
                kind = rng.choice(["legal", "legal", "version", "move", "bad"])
                if kind == "bad":
                    c.send({"cmd": "legal", "id": rid, "record": "[nope"})
                    r = c.recv()
                    if r.get("ok") is not False or r.get("id") != rid:
                        errors.append(r)
                    continue
                req = {"cmd": kind, "id": rid}
                if kind != "version":
                    req["record"] = rng.choice(recs)
                if kind == "move":
                    req["agent"] = "heuristic"
                r = c.ask(req)
                if r.get("id") != rid or not r.get("ok"):
                    errors.append(r)
        except BaseException as e:
            errors.append(repr(e))
        finally:
            c.close()

    t0 = time.time()
    threads = [threading.Thread(target=client, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors[:3]
    assert time.time() - t0 < 60


def test_faults_leave_the_server_serving(server):
    # garbage, a half line then hang-up, a 10 MB line, a hang-up mid-request
    c = Client(server)
    r = c.ask(b"\xff\xfe garbage")
    assert r["ok"] is False and len(json.dumps(r)) < 500
    r = c.ask(b"[1, 2")
    assert r["ok"] is False
    c.send(b"x" * (10 << 20))
    r = c.recv()
    assert r["ok"] is False and "too long" in r["error"] and len(json.dumps(r)) < 300
    assert c.ask({"cmd": "version", "id": 1})["id"] == 1
    c.close()
    half = socket.create_connection(("127.0.0.1", server))
    half.sendall(b'{"cmd": "legal", "rec')
    half.close()
    gone = socket.create_connection(("127.0.0.1", server))
    gone.sendall(json.dumps({"cmd": "move", "record": RECORD, "agent": "pimc:worlds=4"})
                 .encode() + b"\n")
    gone.close()
    c = Client(server)
    r = c.ask({"cmd": "legal", "id": "after", "record": RECORD})
    assert r["ok"] and r["id"] == "after" and r["seat"] == 1
    r = c.ask({"cmd": "observe", "session": "nope"})
    assert r["ok"] is False and "no session" in r["error"]
    r = c.ask({"cmd": "new_game", "game": "tarot", "seat": 0, "hand": "T1 T2"})
    assert r["ok"] is False and "hand has 2 cards" in r["error"]
    c.close()


def test_busy_token_and_sigterm():
    p, port = start("--workers", "1", "--max-queue", "1", "--token", "s3cret")
    try:
        c = Client(port)
        r = c.ask({"cmd": "version"})
        assert r["ok"] is False and "token" in r["error"]
        slow = {"cmd": "move", "token": "s3cret", "id": "slow",
                "record": get_game("tarot").new_state(seed=3).to_record().to_text(),
                "agent": "pimc:worlds=100000", "seconds": 1.0}
        # the first pimc move of a Tarot deal is a bid (heuristic): use the card play
        rec = None
        s = get_game("coinche").new_state(seed=3)
        agent = make_agent("heuristic")
        while s.phase != "play":
            s.play(agent.choose(s, s.to_act))
        rec = s.to_record().to_text()
        slow["record"] = rec
        slow["agent"] = "pimc:worlds=100000,prune=0"
        c.send(slow)
        time.sleep(0.3)
        d = Client(port)
        r = d.ask({"cmd": "legal", "token": "s3cret", "record": rec})
        assert r["ok"] is False and r.get("busy") is True, r
        d.close()
        p.send_signal(signal.SIGTERM)  # the request in flight is still answered
        r = c.recv()
        assert r["id"] == "slow" and r["ok"], r
        assert p.wait(20) == 0
    finally:
        if p.poll() is None:
            p.kill()


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_protocol_doc_example_client_and_schema(server):
    """docs/PROTOCOL.md's example client (30 lines at most) runs against the server;
    requests and replies of every command validate against docs/protocol.schema.json."""
    jsonschema = pytest.importorskip("jsonschema")
    text = open(os.path.join(ROOT, "docs", "PROTOCOL.md")).read()
    code = text.split("```python\n", 1)[1].split("```", 1)[0]
    assert len(code.strip().splitlines()) <= 30
    out = subprocess.run([sys.executable, "-c", code, str(server)], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0 and "we bid" in out.stdout, out.stderr[-500:]
    schema = json.load(open(os.path.join(ROOT, "docs", "protocol.schema.json")))
    jsonschema.Draft202012Validator.check_schema(schema)
    req_v = jsonschema.Draft202012Validator({**schema, "$ref": "#/$defs/request"})
    rep_v = jsonschema.Draft202012Validator({**schema, "$ref": "#/$defs/reply"})
    c = Client(server)
    view = ('[Game "coinche"][Dealer "0"][Seat "1"][Hand "KH QH TH AD JD 8D KC 9C"]'
            '[Moves "pass"]')
    requests = [
        {"cmd": "version", "id": 1},
        {"cmd": "legal", "record": RECORD},
        {"cmd": "legal", "view": view},
        {"cmd": "move", "record": RECORD, "agent": "heuristic", "seed": 2},
        {"cmd": "new_game", "game": "coinche", "dealer": 3, "seat": 0,
         "hand": ["KH", "QH", "TH", "AD", "JD", "8D", "KC", "9C"], "agent": "heuristic"},
        {"cmd": "legal", "record": "[Game \"nope\"]"},
        {"cmd": "bogus"},
    ]
    for req in requests:
        req_v.validate(req) if req["cmd"] != "bogus" else None
        r = c.ask(req)
        rep_v.validate(r)
        if req["cmd"] == "new_game":
            sid = r["session"]
            for more in ({"cmd": "move", "session": sid},
                         {"cmd": "observe", "session": sid, "moves": ["pass", "pass"]},
                         {"cmd": "close", "session": sid}):
                req_v.validate(more)
                r = c.ask(more)
                assert r["ok"], r
                rep_v.validate(r)
    assert list(req_v.iter_errors({"cmd": "close"}))  # needs a session
    assert list(req_v.iter_errors({"cmd": "move", "agent": "heuristic"}))  # no position
    c.close()


def test_a_slow_search_does_not_block_other_clients(server):
    s = get_game("coinche").new_state(seed=3)
    agent = make_agent("heuristic")
    while s.phase != "play":
        s.play(agent.choose(s, s.to_act))
    slow = Client(server)
    slow.send({"cmd": "move", "id": "slow", "record": s.to_record().to_text(),
               "agent": "pimc:worlds=100000,prune=0", "seconds": 1.0})
    time.sleep(0.2)
    fast = Client(server)
    t = time.perf_counter()
    for i in range(5):
        r = fast.ask({"cmd": "legal", "id": i, "record": RECORD})
        assert r["ok"] and r["id"] == i
    assert time.perf_counter() - t < 1.5
    r = slow.recv()
    assert r["ok"] and r["id"] == "slow"
    slow.close()
    fast.close()
