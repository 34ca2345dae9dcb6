"""Seeded fuzzing of what users and programs feed atout: mutated records on the CLI
(``solve``, ``move``), garbage requests on the protocol, and garbage arguments to the
compiled cores. Every input either works or gets one clean error (the package's own
exception or a usage error): never another exception, never a crash of the
interpreter (which would end this test run)."""

import io
import json
import random
from pathlib import Path

import click
from click.testing import CliRunner

from solver import belote_core, tarocchini_core, tarot_core
from solver.cli import cli
from solver.errors import AtoutError
from solver.protocol import serve

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
GARBAGE = ["", "XX", "ZZ9", "AS", "21", "EX", "bid:999:S", "bid:80:Q", "-1", "1e9", "\x00",
           "é", "[", "]", '"', "{", "pass", "coinche", "announce:tierce:9S", "discard:6S",
           "KS KS", "T", "0", "99999999999999999999"]


def mutate_text(text: str, rng: random.Random) -> str:
    kind = rng.randrange(6)
    if kind == 0:
        i = rng.randrange(len(text))
        return text[:i] + text[i + 1:]
    if kind == 1:
        return text[:rng.randrange(len(text) + 1)]
    toks = text.split(" ")
    i = rng.randrange(len(toks))
    if kind == 2:
        toks[i] = rng.choice(GARBAGE)
    elif kind == 3:
        j = rng.randrange(len(toks))
        toks[i], toks[j] = toks[j], toks[i]
    elif kind == 4:
        toks.insert(i, rng.choice(GARBAGE))
    else:
        del toks[i]
    return " ".join(toks)


def mutate_json(obj, rng: random.Random) -> str:
    paths = []

    def walk(o, p):
        paths.append(p)
        items = o.items() if isinstance(o, dict) else enumerate(o) if isinstance(o, list) else ()
        for k, v in items:
            walk(v, p + [k])

    walk(obj, [])
    path = rng.choice(paths[1:])
    parent = obj
    for k in path[:-1]:
        parent = parent[k]
    if rng.random() < 0.3:
        del parent[path[-1]]
    else:
        parent[path[-1]] = rng.choice([None, 5, -3, "XX", [], {}, 1.5, True, "AS", [["AS"]]])
    return json.dumps(obj)


def test_cli_mutated_records_get_clean_errors():
    rng = random.Random(2026)
    files = sorted(p for p in EXAMPLES.iterdir() if p.suffix in (".txt", ".json")
                   and not p.name.startswith("evaluate"))
    runner = CliRunner()
    codes = []
    for _ in range(300):
        path = rng.choice(files)
        text = path.read_text()
        src = mutate_json(json.loads(text), rng) if path.suffix == ".json" \
            else mutate_text(text, rng)
        if rng.random() < 0.6:
            args = ["solve", "-", "--node-budget", "3000", "--deadline", "2", "--no-line"]
            if rng.random() < 0.3:
                args += ["--at", rng.choice(["0", "3", "play", "-1", "x", "999"])]
        else:
            args = ["move", "-", "--agent", rng.choice(["heuristic", "random", "pimc:worlds=2",
                                                         "pimc:worlds=x", "foo"])]
        res = runner.invoke(cli, args, input=src)
        clean = (SystemExit, AtoutError, click.ClickException)
        assert res.exception is None or isinstance(res.exception, clean), (args, src[:200])
        codes.append(res.exit_code)
    assert codes.count(0) >= 3 and len(codes) - codes.count(0) >= 200


def test_protocol_garbage_gets_one_error_line_each():
    rng = random.Random(7)
    rec = json.loads((EXAMPLES / "coinche_deal.json").read_text())
    base = [{"cmd": "move", "record": rec, "agent": "heuristic", "at": 20},
            {"cmd": "legal", "record": rec},
            {"cmd": "solve", "record": rec, "node_budget": 1000, "at": 24},
            {"cmd": "version"},
            {"cmd": "evaluate", "game": "coinche", "hand": "JS 9S 8S 7S TH 8H JC TC",
             "samples": 2}]
    lines = []
    for _ in range(300):
        req = json.loads(json.dumps(rng.choice(base)))
        r = rng.random()
        if r < 0.3:
            req[rng.choice(list(req))] = rng.choice([None, 1, "x", [], {}, -5, 1e300, True])
        elif r < 0.4:
            req[rng.choice(["at", "seed", "seconds", "id", "agent", "foo"])] = \
                rng.choice([None, "x", -1, 10**30, 0.0, []])
        line = json.dumps(req)
        if rng.random() < 0.2:
            j = rng.randrange(len(line))
            line = line[:j] + rng.choice(["", "\x00", "}", '"', "é"]) + line[j + 1:]
        lines.append(line)
    out = io.StringIO()
    serve(io.StringIO("\n".join(lines) + "\n"), out)
    replies = [json.loads(x) for x in out.getvalue().splitlines()]
    assert len(replies) == len(lines)
    errors = [r["error"] for r in replies if not r["ok"]]
    assert all(isinstance(e, str) and e and "\n" not in e for e in errors)
    assert 50 <= len(errors) < len(lines)


def _junk_int(rng):
    return rng.choice([0, 1, -1, 3, 4, 5, 7, 8, 31, 32, 63, 64, 77, 78, 127, 128, 255,
                       2**31 - 1, -2**31, rng.randrange(-100, 100)])


def _junk_mask(rng, bits):
    r = rng.random()
    if r < 0.1:
        return -1
    if r < 0.2:
        return 1 << rng.randrange(0, 130)
    if r < 0.3:
        return rng.randrange(0, 1 << 64)
    return sum(1 << b for b in rng.sample(range(bits), rng.randrange(0, min(12, bits + 1))))


def _junk_list(rng, k, bits):
    if rng.random() < 0.1:
        return rng.choice([None, "x", [], [1, 2], (1,), 5])
    return [_junk_mask(rng, bits) for _ in range(k + rng.choice([0, 0, 0, -1, 1]))]


def _junk_trick(rng, bits):
    if rng.random() < 0.1:
        return rng.choice([None, "x", 5])
    return [_junk_int(rng) % bits if rng.random() < 0.8 else _junk_int(rng)
            for _ in range(rng.randrange(0, 6))]


def _call(f, *args, **kw):
    try:
        return f(*args, **kw)
    except (ValueError, TypeError, OverflowError, IndexError, AtoutError):
        return None


def test_cores_take_garbage_without_crashing():
    """The cores check what they are given; garbage raises a Python exception."""
    rng = random.Random(11)
    built = 0
    for _ in range(3000):
        which = rng.randrange(4)
        if which == 0:
            c = _call(belote_core.BeloteCore, _junk_int(rng), rng.random() < 0.5)
            if c is not None:
                built += 1
                _call(c.set_position, _junk_list(rng, 4, 32), _junk_trick(rng, 32),
                      _junk_int(rng), _junk_int(rng))
                _call(c.legal)
                _call(c.play, _junk_int(rng))
                _call(c.undo)
        elif which == 1:
            s = _call(belote_core.DDSolver, rng.choice([4, 8, 3, 29, -1]))
            if s is not None:
                built += 1
                _call(s.configure, _junk_int(rng))
                _call(s.set_position, _junk_list(rng, 4, 32), _junk_trick(rng, 32),
                      _junk_int(rng), _junk_int(rng), _junk_int(rng), _junk_int(rng))
                _call(s.solve, _junk_int(rng), 2000)
                _call(s.solve_cards, 2000)
                _call(s.probe, _junk_int(rng), 2000)
        elif which == 2:
            n = rng.choice([3, 4, 5, 2, 6, 0])
            c = _call(tarot_core.TarotCore, n, _junk_list(rng, n, 78), _junk_int(rng),
                      _junk_trick(rng, 78), _junk_int(rng), _junk_int(rng),
                      _junk_list(rng, n, 2), tt_bits=rng.choice([4, 8, 3, 30]))
            if c is not None:
                built += 1
                _call(c.legal_mask)
                _call(c.play, _junk_int(rng))
                _call(c.undo)
        else:
            n = rng.choice([3, 4, 2, 5])
            c = _call(tarocchini_core.TarocchiniCore, n, _junk_list(rng, n, 2),
                      _junk_mask(rng, 62), _junk_int(rng))
            if c is not None:
                built += 1
                _call(c.set_position, _junk_list(rng, n, 62), _junk_trick(rng, 62),
                      _junk_int(rng))
                _call(c.play, _junk_int(rng))
                _call(c.undo)
    assert built > 100
