"""Duplicate matches and the agent interface (issue: determinized play, item 4)."""

import json

import pytest
from click.testing import CliRunner

from solver import OptionError, agents
from solver.agents import Agent, make_agent
from solver.cli import cli
from solver.match import MatchConfig, run_match


class FirstMoveAgent(Agent):
    """Always the first legal move: a deterministic, different player."""

    name = "first"

    def choose(self, state, seat):
        return state.legal_moves()[0]


@pytest.fixture(autouse=True)
def first_agent(monkeypatch):
    monkeypatch.setitem(agents.AGENTS, "first", "test_match:FirstMoveAgent")


@pytest.mark.parametrize("players", [3, 4, 5])
def test_same_agent_on_both_sides_gives_exactly_zero(players):
    # Duplicate: A and B identical → identical play on identical cards.
    cfg = MatchConfig("tarot", "random", "random", 6, seed=2, options={"players": players})
    summary = run_match(cfg)
    assert summary["deals"] == 6
    assert summary["mean_diff"] == 0
    assert all(r["per_seat"] == [0] * players for r in summary["results"])


def test_results_do_not_depend_on_jobs():
    # worker processes are spawned: only registered agents exist there
    cfg = MatchConfig("tarot", "random", "random", 8, seed=4, options={"players": 4})
    assert run_match(cfg, jobs=1)["results"] == run_match(cfg, jobs=2)["results"]


def test_different_agents_differ():
    cfg = MatchConfig("tarot", "first", "random", 8, seed=4, options={"players": 4})
    one = run_match(cfg, jobs=1)
    assert any(r["diff"] != 0 for r in one["results"])
    lo, hi = one["ci95"]
    assert lo <= one["mean_diff"] <= hi


def test_zero_sum_individual_game_tables():
    cfg = MatchConfig("tarot", "first", "random", 4, seed=1, options={"players": 5})
    for r in run_match(cfg)["results"]:
        for p in r["plays"]:
            assert sum(p["scores"]) == 0


def test_contracts_summary_counts_each_agents_takes():
    # per agent: the contracts its seats took, how many were made, and the taker's
    # own mean deal score on them (issue: bid analysis asks for the Tarot 4p taker's
    # make rate and score by bidding method)
    cfg = MatchConfig("belote", "heuristic", "random", 6, seed=2)   # both take some
    summary = run_match(cfg)
    expect = {"a": [0, 0, 0], "b": [0, 0, 0]}
    for r in summary["results"]:
        for p in r["plays"]:
            if p["taker"] is not None:
                side = "a" if p["taker"] in p["a_seats"] else "b"
                expect[side][0] += 1
                expect[side][1] += bool(p["made"])
                expect[side][2] += p["scores"][p["taker"]]
    assert expect["a"][0] > 0 and expect["b"][0] > 0
    for side, (taken, made, pts) in expect.items():
        c = summary["contracts"][side]
        assert (c["taken"], c["made"]) == (taken, made)
        assert c["made_rate"] == made / taken and c["taker_score"] == pts / taken
    from solver.match import format_summary
    assert f"taker's mean score {pts / taken:+.1f}" in format_summary(summary)


def test_bad_agent_spec_is_a_clear_error():
    with pytest.raises(OptionError, match="unknown agent"):
        make_agent("nonsense")
    with pytest.raises(OptionError):
        make_agent("random:depth=3")


def test_cli_match_writes_json(tmp_path):
    out = tmp_path / "m.json"
    res = CliRunner().invoke(cli, ["match", "tarot", "--a", "first", "--b", "random",
                                   "--deals", "3", "--seed", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "A - B per deal" in res.output
    data = json.loads(out.read_text())
    assert data["deals"] == 3 and len(data["results"]) == 3


def test_checkpoint_resumes_a_match_with_the_same_result(tmp_path):
    # a match stopped after 3 of 6 deals and run again gives the uninterrupted result
    full = run_match(MatchConfig("coinche", "heuristic", "random", 6, seed=4))
    ck = tmp_path / "m.jsonl"
    part = run_match(MatchConfig("coinche", "heuristic", "random", 3, seed=4),
                     checkpoint=str(ck))
    assert part["deals"] == 3
    # the first 3 deals are kept, and a longer match of the same config reuses them
    assert len(ck.read_text().splitlines()) == 4
    calls = []
    resumed = run_match(MatchConfig("coinche", "heuristic", "random", 6, seed=4),
                        checkpoint=str(ck), progress=calls.append)
    assert resumed["results"] == full["results"] and resumed["mean_diff"] == full["mean_diff"]
    assert calls[0] == 3 and len(ck.read_text().splitlines()) == 7


def test_checkpoint_with_workers_records_each_deal_once(tmp_path):
    # with worker processes deals finish (and are appended) in any order: each once,
    # and the checkpoint reloads to the serial run's results
    cfg = MatchConfig("tarot", "heuristic", "random", 6, seed=3, options={"players": 3})
    ck = tmp_path / "m.jsonl"
    par = run_match(cfg, jobs=2, checkpoint=str(ck))
    rows = [json.loads(ln) for ln in ck.read_text().splitlines()[1:]]
    assert sorted(r["index"] for r in rows) == list(range(6))
    assert par["results"] == run_match(cfg)["results"]
    calls = []
    assert run_match(cfg, checkpoint=str(ck), progress=calls.append)["results"] \
        == par["results"]
    assert calls == [6]


def test_checkpoint_of_another_match_is_a_clear_error(tmp_path):
    from solver.errors import OptionError
    ck = tmp_path / "m.jsonl"
    run_match(MatchConfig("coinche", "heuristic", "random", 1, seed=4), checkpoint=str(ck))
    with pytest.raises(OptionError, match="belongs to another match"):
        run_match(MatchConfig("belote", "heuristic", "random", 1, seed=4), checkpoint=str(ck))
    (tmp_path / "bad.jsonl").write_text("not json\n")
    with pytest.raises(OptionError, match="not a match checkpoint"):
        run_match(MatchConfig("coinche", "heuristic", "random", 1, seed=4),
                  checkpoint=str(tmp_path / "bad.jsonl"))


def test_cli_match_checkpoint_resumes_and_refuses_another_match(tmp_path, capsys):
    from solver.cli import main
    ck = str(tmp_path / "m.jsonl")
    args = ["match", "belote", "--a", "heuristic", "--b", "random", "--deals", "2",
            "--checkpoint", ck]
    assert main(args) in (0, None)
    assert main(args[:7] + ["4"] + args[8:]) in (0, None)   # extends the same match
    assert len(open(ck).read().splitlines()) == 5
    capsys.readouterr()
    with pytest.raises(SystemExit) as e:
        main(["match", "coinche", "--a", "heuristic", "--b", "random", "--deals", "2",
              "--checkpoint", ck])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("atout: error: checkpoint") and "\n" not in err


@pytest.mark.parametrize("flag,where,message", [
    ("--out", "missing/r.json", "--out {}: folder"),
    ("--out", "", "--out {}: is a folder"),
    ("--checkpoint", "missing/m.jsonl", "{}: No such file or directory"),
])
def test_cli_match_unwritable_files_are_refused_before_play(tmp_path, capsys, flag, where,
                                                            message):
    """An output file that cannot be written is one error line (exit 2) before any
    deal is played, not a traceback after the match."""
    from solver.cli import main
    path = str(tmp_path / where) if where else str(tmp_path)
    with pytest.raises(SystemExit) as e:
        main(["match", "coinche", "--a", "heuristic", "--b", "random", "--deals", "1",
              flag, path])
    assert e.value.code == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert err.startswith(f"atout: error: {message.format(path)}") and "\n" not in err
    assert captured.out == ""   # nothing played


def test_cli_evaluate_unwritable_plot_is_refused_before_work(tmp_path, capsys):
    from solver.cli import main
    with pytest.raises(SystemExit) as e:
        main(["evaluate", "coinche", "--hand", "JH 9H AS TS KS QS 8C 7C", "--samples", "2",
              "--plot", str(tmp_path / "no" / "p.png")])
    assert e.value.code == 2
    captured = capsys.readouterr()
    assert captured.err.strip().startswith("atout: error: --plot") and captured.out == ""


# --- playing the deals on a Ray cluster (docs/DESIGN.md "Scale") ------------------

def test_ray_backend_without_ray_is_a_clear_error(monkeypatch, capsys):
    import sys

    from solver.cli import main
    monkeypatch.setitem(sys.modules, "ray", None)   # import ray fails
    cfg = MatchConfig("belote", "heuristic", "random", 1, seed=1)
    with pytest.raises(OptionError, match=r"pip install 'atout\[ray\]'"):
        run_match(cfg, ray="local")
    with pytest.raises(SystemExit) as e:
        main(["match", "belote", "--a", "heuristic", "--b", "random", "--ray", "auto"])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("atout: error: playing on a Ray cluster") and "\n" not in err


@pytest.mark.parametrize("kwargs,message", [
    ({"jobs": 2, "ray": "local"}, "not both"),
    ({"ray": ""}, "address is empty"),
    ({"ray": "no-port"}, "bad Ray cluster address"),
    ({"ray": "127.0.0.1:9"}, "cannot reach the Ray cluster"),       # nothing listens
    ({"ray": "ray://127.0.0.1:9"}, "cannot reach the Ray cluster"),
])
def test_ray_backend_bad_requests_are_clear_errors(kwargs, message):
    if kwargs.get("ray"):
        pytest.importorskip("ray")
    cfg = MatchConfig("belote", "heuristic", "random", 1, seed=1)
    with pytest.raises(OptionError, match=message):
        run_match(cfg, **kwargs)


def test_match_on_ray_equals_local_play(tmp_path):
    # a cluster started for the run: the same deals, the same results, each deal
    # recorded once in the checkpoint, and a checkpoint's deals are not replayed
    pytest.importorskip("ray")
    tarot = MatchConfig("tarot", "heuristic", "random", 4, seed=3, options={"players": 3})
    ck = tmp_path / "m.jsonl"
    run_match(MatchConfig("tarot", "heuristic", "random", 1, seed=3,
                          options={"players": 3}), checkpoint=str(ck))
    on_ray = run_match(tarot, ray="local", checkpoint=str(ck))
    assert on_ray["results"] == run_match(tarot)["results"]
    rows = [json.loads(ln) for ln in ck.read_text().splitlines()[1:]]
    assert sorted(r["index"] for r in rows) == [0, 1, 2, 3]
    coinche = MatchConfig("coinche", "heuristic", "random", 2, seed=5)
    assert run_match(coinche, ray="local")["results"] == run_match(coinche)["results"]


def test_cli_ray_with_every_deal_in_the_checkpoint_plays_nothing(tmp_path):
    # nothing left to play: the cluster is not joined (this address would be refused)
    pytest.importorskip("ray")
    from solver.cli import main
    ck = str(tmp_path / "m.jsonl")
    args = ["match", "belote", "--a", "heuristic", "--b", "random", "--deals", "2",
            "--checkpoint", ck]
    assert main(args) in (0, None)
    assert main(args + ["--ray", "127.0.0.1:9"]) in (0, None)
    with pytest.raises(SystemExit) as e:   # one more deal to play: the address matters
        main(args[:7] + ["3"] + args[8:] + ["--ray", "127.0.0.1:9"])
    assert e.value.code == 2
