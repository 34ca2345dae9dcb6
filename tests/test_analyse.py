"""Batch analysis (`atout analyse`, issue 27): the DD table and par of each deal, or
every card's value at a position of each record, as JSON lines and CSV; a bad line is
reported with its number and the rest analysed; a finished output is resumed; local
jobs and a Ray cluster give the same results as one process."""

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import solver.analyse as analyse_mod
from solver.analyse import BatchConfig, position_values, read_lines, run_batch
from solver.cards import DECKS
from solver.cli import cli, main
from solver.dd.belote import dd_table, par
from solver.games import state_from_record
from solver.notation import Deal, Record, parse_record

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
COINCHE_DEALS = [ln for ln in (ROOT / "benchmarks" / "deals" / "coinche.txt")
                 .read_text().splitlines() if ln and not ln.startswith("#")][:4]


def deals_file(tmp_path, lines) -> Path:
    path = tmp_path / "deals.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def run(*args):
    return CliRunner().invoke(cli, ["analyse", *map(str, args)])


def test_table_per_deal_equals_the_solver_and_a_bad_line_is_reported(tmp_path):
    # line 1 a comment, line 3 bad, line 4 blank: the others analysed
    lines = ["# four deals", COINCHE_DEALS[0], "QS KH XX / 9S", "", *COINCHE_DEALS[1:3]]
    res = run(deals_file(tmp_path, lines), "--game", "coinche")
    assert res.exit_code == 1
    assert "atout: line 3: not a belote card: 'XX'" in res.stderr
    out = [json.loads(ln) for ln in res.stdout.splitlines()]
    assert [r["line"] for r in out] == [2, 3, 5, 6]
    assert "error" in out[1] and "table" not in out[1]
    for r, text in zip([out[0], out[2], out[3]], [lines[1], lines[4], lines[5]], strict=True):
        assert r["schema"] == "analyse" and r["game"] == "coinche"
        deal = Deal.from_text(text, DECKS["coinche"])
        table = dd_table(deal, "coinche", {}, 0)
        got = {(row["strain"], row["side"]): row["points"] for row in r["table"]["rows"]}
        assert got == {(s, side): e["points"] for s, sides in table.items()
                       for side, e in sides.items()}
        assert r["table"]["par"] == json.loads(json.dumps(par(deal, {}, 0, table=table)))


def test_positions_of_records_equal_atout_solve(tmp_path):
    # every card's value at a late Tarot position (exact: the make/fail question) and
    # at a Coinche one, from a text record and a JSON record
    tarot = (EXAMPLES / "tarot4.txt").read_text().strip()
    coinche = json.dumps(parse_record((EXAMPLES / "coinche_deal.txt").read_text())
                         .to_json())
    path = deals_file(tmp_path, [tarot, tarot.replace('[Dealer "0"]', '[Dealer "1"]'),
                                 coinche])
    res = run(path, "--at", "70", "--csv", tmp_path / "cards.csv")
    # the second record's moves are illegal for its dealer; the third has 40 moves
    assert res.exit_code == 1
    assert "atout: line 2: move 1 (pass)" in res.stderr or "atout: line 2:" in res.stderr
    assert "atout: line 3: --at 70: the record has 40 moves" in res.stderr
    res = run(deals_file(tmp_path, [tarot, coinche]), "--at", "play", "--deadline", "60",
              "--node-budget", "1000000")
    assert res.exit_code == 0, res.output
    first = [json.loads(ln) for ln in res.stdout.splitlines()]
    assert all(r["position"].startswith("at the first lead") for r in first)
    # the Tarot first lead is out of reach in 1M nodes: labelled estimates, no exact
    # claim; the Coinche one is exact
    assert not first[0]["analysis"]["exact"] and first[1]["analysis"]["exact"]
    res = run(deals_file(tmp_path, [tarot, '{"game": "coinche", "deal": 5}']),
              "--at", "70", "--csv", tmp_path / "cards.csv")
    assert res.exit_code == 1 and "line 2: a JSON deal is an object" in res.stderr
    out = [json.loads(ln) for ln in res.stdout.splitlines()]
    assert "error" in out[1]
    out = out[:1]
    for r, name in zip(out, ["tarot4.txt"], strict=True):
        solved = CliRunner().invoke(cli, ["solve", str(EXAMPLES / name), "--at", "70",
                                          "--json", "--no-line"])
        want = json.loads(solved.stdout)["analysis"]
        a = r["analysis"]
        assert a["exact"] and r["position"] == "after move 70"
        assert {c["move"]: c["value"] for c in a["cards"]} == \
            {c["move"]: c["value"] for c in want["cards"]}
        assert min(c["loss"] for c in a["cards"]) == 0
    assert out[0]["analysis"]["made"] is not None  # Tarot: made or not, proven
    # --at end: after all of each record's moves (the record cut at move 70)
    cut = parse_record(tarot)
    cut.moves = cut.moves[:70]
    res = run(deals_file(tmp_path, [cut.to_text()]), "--at", "end")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["analysis"] == out[0]["analysis"]
    rows = list(csv.DictReader((tmp_path / "cards.csv").open()))
    assert len(rows) == len(out[0]["analysis"]["cards"]) + 1
    assert {row["line"] for row in rows} == {"1", "2"}
    assert [row["error"] for row in rows if row["line"] == "2"][0]


def test_resume_keeps_finished_lines_and_jobs_give_the_same_file(tmp_path, monkeypatch):
    items = read_lines("x", "\n".join(COINCHE_DEALS[:3]))
    cfg = BatchConfig(game="coinche")
    one = tmp_path / "one.jsonl"
    run_batch(cfg, items[:2], str(one))
    # an interrupted run: its last line cut short
    text = one.read_text()
    one.write_text(text[:text.rindex("{") + 20])
    seen = []
    real = analyse_mod.analyse_item

    def counting(cfg, text):
        seen.append(text)
        return real(cfg, text)

    monkeypatch.setattr(analyse_mod, "analyse_item", counting)
    resumed = run_batch(cfg, items, str(one))
    assert seen == [items[1][1], items[2][1]]  # the finished line was kept
    assert [r["line"] for r in resumed] == [1, 2, 3]
    monkeypatch.setattr(analyse_mod, "analyse_item", real)
    two = tmp_path / "two.jsonl"
    run_batch(cfg, items, str(two), jobs=2)
    assert two.read_text() == one.read_text()
    # another analysis into the same file is refused
    with pytest.raises(analyse_mod.AtoutError, match="another analysis"):
        run_batch(BatchConfig(game="coinche", at="play"), items, str(one))


@pytest.mark.slow
def test_ray_gives_the_same_results(tmp_path):
    pytest.importorskip("ray")
    items = read_lines("x", "\n".join(COINCHE_DEALS[:3]))
    cfg = BatchConfig(game="coinche")
    assert run_batch(cfg, items, ray="local") == run_batch(cfg, items)


def test_position_values_loss_is_from_the_seat_to_act():
    # a defender's best card is the one that gives the attack the least
    record = parse_record((EXAMPLES / "coinche_deal.txt").read_text())
    state = state_from_record(Record(record.game, record.options, record.dealer,
                                     record.deal, record.moves[:12]))
    assert state.side_of(state.to_act) == 0
    v = position_values(state)
    best = min(c["value"] for c in v["cards"])
    assert all(c["loss"] == c["value"] - best for c in v["cards"])


def test_bad_command_lines_are_one_clear_error(tmp_path, capsys):
    path = deals_file(tmp_path, COINCHE_DEALS[:1])
    (tmp_path / "empty.txt").write_text("\n# nothing\n")
    for args, message in (([path, "--game", "coinche", "--jobs", "2", "--ray", "local"],
                           "not both"),
                          ([tmp_path / "empty.txt"], "no deal or record"),
                          ([path, "--players", "4"], "apply to plain deals, with --game"),
                          ([path, "--game", "coinche", "--out", tmp_path / "no" / "x"],
                           "does not exist")):
        with pytest.raises(SystemExit) as e:
            main(["analyse", *map(str, args)])
        assert e.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith("atout: error: ") and message in err and err.count("\n") == 1
    # a plain deal without --game: that line's error, the batch goes on
    res = run(path)
    assert res.exit_code == 1 and "line 1: a plain deal needs --game" in res.stderr
