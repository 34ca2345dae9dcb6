"""French Tarot through the `atout` command: deal, play, errors, and the sample records."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.cli import cli
from solver.games import state_from_record
from solver.notation import parse_record

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_play_completes_on_100_seeds(players):
    # TAROT-GEN-1: every player count plays to the end; scores are zero-sum (TAROT-SCORE-7)
    runner = CliRunner()
    for seed in range(100):
        result = runner.invoke(cli, ["play", "tarot", "--players", str(players),
                                     "--seed", str(seed), "--dealer", str(seed % players)])
        assert result.exit_code == 0, result.output
        record_line, score_line = result.output.strip().splitlines()
        scores = [int(x) for x in score_line.split()[1:]]
        assert len(scores) == players and sum(scores) == 0
        if seed % 10 == 0:
            assert state_from_record(parse_record(record_line)).scores() == scores


def test_play_json_and_options():
    result = CliRunner().invoke(cli, ["play", "tarot", "--players", "5", "--seed", "3",
                                      "-o", "misere=on", "-o", "rounding=nearest_10",
                                      "--json"])
    assert result.exit_code == 0, result.output
    obj = json.loads(result.output)
    assert obj["record"]["options"] == {"players": 5, "misere": "on", "rounding": "nearest_10"}
    replay = state_from_record(parse_record(json.dumps(obj["record"])))
    assert replay.scores() == obj["scores"]


def test_deal_command():
    # TAROT-DEAL-1: four hands of 18 and a dog of 6
    result = CliRunner().invoke(cli, ["deal", "tarot", "--seed", "4"])
    assert result.exit_code == 0
    hands, dog = result.output.strip().split(" | dog: ")
    assert [len(h.split()) for h in hands.split(" / ")] == [18, 18, 18, 18]
    assert len(dog.split()) == 6


def test_bad_player_count_is_one_error_line(tmp_path):
    # run outside the source tree so that the installed package (with its compiled
    # core) is imported, as for a user
    proc = subprocess.run([sys.executable, "-m", "solver.cli", "deal", "tarot",
                           "--players", "9"], capture_output=True, text=True, timeout=60,
                          cwd=tmp_path)
    assert proc.returncode != 0
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and proc.stdout == ""
    assert "option players: 9 is not one of 3, 4, 5" in lines[0]


@pytest.mark.parametrize("name", ["tarot3.txt", "tarot4.txt", "tarot5.txt"])
def test_example_records_replay(name):
    text = (EXAMPLES / name).read_text(encoding="utf-8").strip()
    record = parse_record(text)
    state = state_from_record(record)
    assert state.is_over()
    assert " ".join(str(s) for s in state.scores()) == record.tags["Result"]
    assert state.contract is not None  # the samples are played deals, not annulled ones
