"""The machine output matches its documented schemas (docs/schemas/output.schema.json,
described in docs/OUTPUT.md): real outputs of `atout solve/evaluate/match/move --json`
and of every `atout serve` reply are validated (issue 25, part 5)."""

import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.cli import cli
from solver.protocol import serve
from solver.schemas import SCHEMA_VERSION

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SCHEMA = json.loads((ROOT / "docs" / "schemas" / "output.schema.json").read_text())
COINCHE = (EXAMPLES / "coinche_deal.txt").read_text().strip()
OPEN = COINCHE.split("[Moves")[0] + '[Moves "bid:80:S pass"]'


def check(obj, name):
    schema = {"$schema": SCHEMA["$schema"], "$defs": SCHEMA["$defs"],
              "$ref": f"#/$defs/{name}"}
    jsonschema.Draft202012Validator(schema).validate(obj)


def cli_json(*args, input=None):
    res = CliRunner().invoke(cli, list(args), input=input)
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def test_the_schema_is_valid_and_documented():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    doc = (ROOT / "docs" / "OUTPUT.md").read_text()
    for name in ("solve", "evaluate", "match", "move", "reply_move", "reply_legal",
                 "reply_solve", "reply_evaluate", "reply_version", "reply_quit",
                 "reply_error", "analyse", "analyse_config", "review", "position_values"):
        assert name in SCHEMA["$defs"] and f"`{name}`" in doc
    assert SCHEMA["$defs"]["solve"]["properties"]["schema_version"]["const"] == SCHEMA_VERSION


@pytest.mark.parametrize("args", [
    ["solve", str(EXAMPLES / "coinche_deal.txt"), "--table"],
    ["solve", str(EXAMPLES / "belote_ex10.txt"), "--table", "--no-line"],
    ["solve", str(EXAMPLES / "tarot5.txt"), "--table", "--horizon", "1"],
    ["solve", str(EXAMPLES / "tarot4.txt"), "--at", "70"],
    ["solve", str(EXAMPLES / "tarot4.txt"), "--at", "play", "--horizon", "exact",
     "--deadline", "0.2", "--no-line"],
    ["solve", str(EXAMPLES / "tarocchini_terziglio_solo.txt"), "--table", "--horizon", "1"],
    # the exact analysis stopped at (a), and a finished one with its line (issue 24)
    ["solve", str(EXAMPLES / "tarocchini_ottocento.txt"), "--table", "--deadline", "0.5"],
    ["solve", str(EXAMPLES / "tarocchini_terziglio.txt"), "--at", "60"],
    ["solve", str(EXAMPLES / "coinche_deal.txt"), "--at", "40"],
])
def test_solve_output(args):
    out = cli_json(*args, "--json")
    check(out, "solve")
    assert out["schema_version"] == SCHEMA_VERSION


def test_solve_of_a_plain_deal():
    deal = CliRunner().invoke(cli, ["deal", "coinche", "--json"]).output
    check(cli_json("solve", "-", "--game", "coinche", "--json", input=deal), "solve")


def test_evaluate_output():
    check(cli_json("evaluate", "coinche", "--hand", "JH 9H AS TS KD 7C 8C QC",
                   "--samples", "3", "--json"), "evaluate")


def test_match_output(tmp_path):
    out = cli_json("match", "coinche", "--a", "random", "--b", "heuristic", "--deals", "2",
                   "--json", "--out", str(tmp_path / "m.json"))
    check(out, "match")
    check(json.loads((tmp_path / "m.json").read_text()), "match")
    out = cli_json("match", "tarot", "--a", "random", "--b", "heuristic", "--deals", "2",
                   "--json")
    check(out, "match")


def test_move_output():
    check(cli_json("move", "-", "--agent", "heuristic", "--json", input=OPEN), "move")
    check(cli_json("move", "-", "--agent", "pimc:worlds=2", "--json", input=OPEN), "move")


def test_every_protocol_reply():
    tarot = (EXAMPLES / "tarot4.txt").read_text().strip()
    reqs = [
        ({"cmd": "move", "record": OPEN, "agent": "pimc:worlds=2"}, "reply_move"),
        ({"cmd": "legal", "record": OPEN}, "reply_legal"),
        ({"cmd": "legal", "record": COINCHE}, "reply_legal"),
        ({"cmd": "solve", "record": tarot, "at": 70}, "reply_solve"),
        ({"cmd": "solve", "record": tarot, "at": 12, "horizon": 1}, "reply_solve"),
        ({"cmd": "evaluate", "game": "coinche", "hand": "JH 9H AS TS KD 7C 8C QC",
          "samples": 2}, "reply_evaluate"),
        ({"cmd": "version"}, "reply_version"),
        ({"cmd": "move", "record": "garbage"}, "reply_error"),
        ({"cmd": "nope"}, "reply_error"),
        ({"cmd": "quit"}, "reply_quit"),
    ]
    lines = [json.dumps(dict(r, id=i)) for i, (r, _) in enumerate(reqs)]
    out = io.StringIO()
    serve(iter(["not json"] + lines), out)
    replies = [json.loads(x) for x in out.getvalue().splitlines()]
    check(replies[0], "reply_error")
    for (req, name), reply in zip(reqs, replies[1:], strict=True):
        check(reply, name)
        assert reply["id"] == reqs.index((req, name))


def test_analyse_and_review_output(tmp_path):
    """issue 27: the lines of `atout analyse` (table, position, error) and of `atout
    review` (one record, and many: one review a line)."""
    deals = tmp_path / "deals.txt"
    deals.write_text(COINCHE.split('[Deal "')[1].split('"')[0] + "\nnot a deal\n")
    res = CliRunner().invoke(cli, ["analyse", str(deals), "--game", "coinche",
                                   "--out", str(tmp_path / "out.jsonl")])
    assert res.exit_code == 1  # the bad line
    lines = [json.loads(ln) for ln in (tmp_path / "out.jsonl").read_text().splitlines()]
    check(lines[0], "analyse_config")
    assert "table" in lines[1] and "error" in lines[2]
    for line in lines[1:]:
        check(line, "analyse")
    records = tmp_path / "records.txt"
    records.write_text(COINCHE + "\n" + (EXAMPLES / "tarot4.txt").read_text())
    res = CliRunner().invoke(cli, ["analyse", str(records), "--at", "70"])
    assert res.exit_code == 1  # the Coinche record has 40 moves
    for ln in res.stdout.splitlines():
        check(json.loads(ln), "analyse")
    review = cli_json("review", str(EXAMPLES / "belote_ex10.txt"), "--worlds", "2", "--json")
    check(review, "review")
    res = CliRunner().invoke(cli, ["review", str(records), "--worlds", "1",
                                   "--deadline", "0.05"])
    assert res.exit_code == 0, res.output
    for ln in res.stdout.splitlines():
        check(json.loads(ln), "analyse")
