"""Bad input to the CLI and to `atout serve` (issue 25, part 3): every user error is one
line `atout: error: ...` with exit status 2 (never a traceback, never silently
accepted); every bad request gets `{"ok": false, "error": ...}`, short, and the server
answers the next line."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from solver.cli import main
from solver.protocol import handle_line, serve

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
COINCHE = (EXAMPLES / "coinche_deal.txt").read_text().strip()
TAROT4 = (EXAMPLES / "tarot4.txt").read_text().strip()
# the same deal in its auction (seat 2 to call)
OPEN = COINCHE.split("[Moves")[0] + '[Moves "bid:80:S pass"]'


def cli_error(args, stdin: bytes | str = b"", capsys=None):
    """Run the CLI in-process; return (exit status, stderr)."""
    old = sys.stdin
    data = stdin.encode() if isinstance(stdin, str) else stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    try:
        with pytest.raises(SystemExit) as exit_:
            main(args)
    finally:
        sys.stdin = old
    err = capsys.readouterr().err.strip()
    return exit_.value.code, err


def assert_one_line(code, err, message):
    assert code == 2, err
    assert err.startswith("atout: error:") and "\n" not in err, err
    assert "Traceback" not in err and message in err, err


# --- non-UTF-8 input ----------------------------------------------------------------
@pytest.mark.parametrize("cmd", ["solve", "move"])
def test_non_utf8_file_is_one_line(cmd, tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\xfe" + COINCHE.encode())
    assert_one_line(*cli_error([cmd, str(bad)], capsys=capsys), "not UTF-8")


def test_non_utf8_stdin_is_one_line(capsys):
    assert_one_line(*cli_error(["solve", "-"], b'[Game "coinche"]\xe9', capsys=capsys),
                    "standard input: not UTF-8")


def test_non_utf8_checkpoint_is_one_line(tmp_path, capsys):
    ck = tmp_path / "ck.jsonl"
    ck.write_bytes(b"\xff\xff\n")
    assert_one_line(*cli_error(["match", "coinche", "--a", "random", "--b", "random",
                                "--deals", "2", "--checkpoint", str(ck)], capsys=capsys),
                    "not UTF-8")


def test_non_utf8_line_to_serve_gets_an_error_reply_and_the_server_goes_on():
    out = io.StringIO()
    serve(iter([b"\xff\xfe\n", b'{"id": 2, "cmd": "version"}\n']), out)
    replies = [json.loads(x) for x in out.getvalue().splitlines()]
    assert replies[0]["ok"] is False and "not UTF-8" in replies[0]["error"]
    assert replies[1]["ok"] is True and replies[1]["id"] == 2


def test_serve_process_survives_a_non_utf8_line(tmp_path):
    # outside the source tree: the installed package, with its compiled core
    res = subprocess.run([sys.executable, "-m", "solver.cli", "serve"],
                         input=b'\xff\n{"cmd": "version"}\n', capture_output=True,
                         timeout=60, cwd=tmp_path)
    lines = res.stdout.decode().splitlines()
    assert res.returncode == 0 and b"Traceback" not in res.stderr
    assert json.loads(lines[0])["ok"] is False and json.loads(lines[1])["ok"] is True


# --- silently accepted --------------------------------------------------------------
@pytest.mark.parametrize("args,message", [
    (["deal", "tarot", "--seed", "-1"], "--seed"),
    (["deal", "tarot", "--seed", str(10**30)], "--seed"),
    (["match", "coinche", "--a", "random", "--b", "random", "--seed", "-5"], "--seed"),
    (["deal", "tarot", "-o", "misere_value=-3"], "misere_value"),
    (["deal", "coinche", "-o", "target=0"], "target"),
    (["match", "coinche", "--a", "pimc:horizon=3", "--b", "random", "--deals", "1"],
     "means nothing in coinche"),
])
def test_out_of_range_or_meaningless_values_are_refused(args, message, capsys):
    assert_one_line(*cli_error(args, capsys=capsys), message)


@pytest.mark.parametrize("flags,message", [
    (["--game", "tarot"], "the record is a coinche deal"),
    (["--players", "5"], "has 4 hands"),
    (["--variant", "terziglio"], "--variant"),
    (["-o", "allow_sa=false"], "carries its own options"),
    (["--dealer", "1"], "dealer is 3"),
])
def test_flags_contradicting_a_record_are_refused(flags, message, capsys):
    assert_one_line(*cli_error(["solve", "-", *flags], COINCHE, capsys=capsys), message)


def test_infinity_deadline_is_refused_by_the_protocol():
    reply = handle_line('{"cmd": "solve", "record": "x", "deadline": Infinity}')
    assert reply["ok"] is False and "Infinity" in reply["error"]
    reply = handle_line('{"cmd": "move", "record": "x", "seed": NaN}')
    assert reply["ok"] is False and "NaN" in reply["error"]


def test_protocol_seed_range():
    req = {"cmd": "move", "record": OPEN, "agent": "random", "seed": -1}
    reply = handle_line(json.dumps(req))
    assert reply["ok"] is False and "seed" in reply["error"]


def test_protocol_refuses_a_meaningless_agent_option():
    req = {"cmd": "move", "record": OPEN, "agent": "pimc:worlds=2,horizon=3"}
    reply = handle_line(json.dumps(req))
    assert reply["ok"] is False and "means nothing in coinche" in reply["error"]


# --- one meaning of horizon ---------------------------------------------------------
@pytest.mark.parametrize("value", [0, -1, "0", "soon", 2.5, True])
def test_bad_horizon_is_refused_by_cli_and_protocol(value, capsys):
    req = {"cmd": "solve", "record": TAROT4, "at": 70, "horizon": value}
    reply = handle_line(json.dumps(req))
    assert reply["ok"] is False and "horizon" in reply["error"]
    if not isinstance(value, (bool, float)):
        assert_one_line(*cli_error(["solve", "-", "--at", "70", "--horizon", str(value)],
                                   TAROT4, capsys=capsys), "horizon")


def test_exact_horizon_means_the_same_in_cli_and_protocol(capsys):
    reply = handle_line(json.dumps({"cmd": "solve", "record": TAROT4, "at": 70,
                                    "horizon": "exact"}))
    assert reply["ok"] is True and reply["analysis"]["horizon"] is None
    assert reply["analysis"]["exact"] is True
    main(["solve", str(EXAMPLES / "tarot4.txt"), "--at", "70", "--horizon", "exact",
          "--json"])
    out = json.loads(capsys.readouterr().out)
    assert out["analysis"]["horizon"] is None and out["analysis"]["exact"] is True
    assert [c["value"] for c in out["analysis"]["cards"]] == [
        c["value"] for c in reply["analysis"]["cards"]]


# --- error replies are short --------------------------------------------------------
@pytest.mark.parametrize("req", [
    {"cmd": "move", "record": "[Game \"coinche\"][Deal \"" + "Z" * 1_000_000 + "\"]"},
    {"cmd": "move", "record": OPEN, "seed": "x" * 1_000_000},
    {"cmd": "x" * 1_000_000},
    {"cmd": "legal", "record": 12345678901234567890 ** 50},
])
def test_error_replies_do_not_echo_a_huge_input(req):
    reply = handle_line(json.dumps(req))
    assert reply["ok"] is False and len(json.dumps(reply)) < 500


def test_cli_errors_do_not_echo_a_huge_input(capsys):
    code, err = cli_error(["solve", "-"], '[Game "tarot"][Deal "KS ' + "Z" * 100_000 + '"]',
                          capsys=capsys)
    assert code == 2 and len(err) < 400


# --- agents -------------------------------------------------------------------------
def test_unknown_agent_option_is_one_line_before_any_progress(capsys):
    code, err = cli_error(["match", "coinche", "--a", "pimc:wrlds=3", "--b", "random",
                           "--deals", "2"], capsys=capsys)
    assert_one_line(code, err, "unknown option 'wrlds'")
    assert "deals" not in err.split("error:")[0] and "__init__" not in err


def test_unknown_agent_option_in_move(capsys):
    code, err = cli_error(["move", "-", "--agent", "heuristic:depth=2"], OPEN,
                          capsys=capsys)
    assert_one_line(code, err, "agent heuristic: unknown option 'depth'")


# --- Terziglio auction error --------------------------------------------------------
def test_terziglio_auction_error_at_the_end_names_no_pseudo_token():
    from solver.bidding import Context, evaluate
    from solver.cards import DECKS
    from solver.errors import AtoutError

    hand = "10S 9S 8S 7S 6S AS 10B 9B 8B 7B 6B AB 10C 9C 8C 10D 9D 8D"
    ctx = Context("tarocchini", DECKS["tarocchini"].parse_cards(hand), dealer=2,
                  options={"game": "terziglio"}, auction=["pass"] * 3)
    with pytest.raises(AtoutError) as e:
        evaluate(ctx, samples=1)
    assert "(end)" not in str(e.value) and "after its 3 move(s)" in str(e.value)


# --- --plot without matplotlib ------------------------------------------------------
def test_plot_without_matplotlib_is_an_error_before_the_work(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails
    code, err = cli_error(["evaluate", "coinche", "--hand", "JH 9H AS TS KD 7C 8C QC",
                           "--samples", "2", "--plot", str(tmp_path / "p.png")],
                          capsys=capsys)
    assert_one_line(code, err, "pip install 'atout[plot]'")
    assert not (tmp_path / "p.png").exists()


# --- garbage in general -------------------------------------------------------------
GARBAGE = [
    "", "   ", "{", "[", "null", "[Game \"coinche\"]", "[Game \"nope\"][Deal \"\"]",
    "KS QS / JS",
    COINCHE.replace("JS 9S", "JS JS"),            # duplicate card
    COINCHE.replace("JS 9S 8S", "JS 9S"),          # wrong card count
    COINCHE.replace('[Moves "', '[Moves "ZZ '),    # malformed move
    COINCHE.replace('[Moves "', '[Moves "bid:80:S bid:70:H '),  # illegal move
]


@pytest.mark.parametrize("text", GARBAGE)
def test_garbage_records_are_one_line_errors_everywhere(text, capsys):
    for cmd in (["solve", "-"], ["move", "-", "--agent", "random"]):
        code, err = cli_error(cmd, text, capsys=capsys)
        assert code == 2 and err.startswith("atout: error:") and "\n" not in err, (cmd, err)
    out = io.StringIO()
    lines = [json.dumps({"id": i, "cmd": c, "record": text})
             for i, c in enumerate(("move", "legal", "solve"))]
    serve(iter(lines + ['{"id": 9, "cmd": "version"}']), out)
    replies = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [r["ok"] for r in replies] == [False, False, False, True], replies
    assert all("internal error" not in r.get("error", "") for r in replies)
