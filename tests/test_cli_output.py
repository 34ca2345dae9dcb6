"""What `atout solve` prints (issue 25, parts 3 and 4): defects of the output and the
text a card player reads."""

import json
from pathlib import Path

from click.testing import CliRunner

from solver.cards import DECKS
from solver.cli import cli

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
README = Path(__file__).resolve().parent.parent / "README.md"


def run(*args, input=None):
    res = CliRunner().invoke(cli, list(args), input=input)
    assert res.exception is None or isinstance(res.exception, SystemExit), res.output
    return res


def test_table_on_a_belote_record_uses_the_hands_of_the_first_lead():
    res = run("solve", str(EXAMPLES / "belote_ex10.txt"), "--table", "--json", "--no-line")
    assert res.exit_code == 0, res.output
    rows = json.loads(res.output)["table"]["rows"]
    assert len(rows) == 12 and all(r["complete"] for r in rows)


def test_table_on_an_ottocento_record_says_there_is_none_and_keeps_the_analysis():
    res = run("solve", str(EXAMPLES / "tarocchini_ottocento.txt"), "--table", "--deadline", "1")
    assert res.exit_code == 0, res.output
    assert "Ottocento has no DD table" in res.output and "(b) margin" in res.output


def test_a_json_deal_as_printed_by_deal_is_accepted():
    deal = run("deal", "coinche", "--seed", "3", "--json").output
    res = run("solve", "-", "--game", "coinche", "--json", input=deal)
    assert res.exit_code == 0, res.output
    assert len(json.loads(res.output)["table"]["rows"]) == 12
    text = run("deal", "coinche", "--seed", "3").output
    same = run("solve", "-", "--game", "coinche", "--json", input=text)
    assert json.loads(same.output)["table"] == json.loads(res.output)["table"]


def test_five_player_called_card_is_a_card_name():
    res = run("solve", str(EXAMPLES / "tarot5.txt"), "--table", "--json", "--no-line",
              "--horizon", "1")
    assert res.exit_code == 0, res.output
    called = [r["called"] for r in json.loads(res.output)["table"]["rows"]]
    deck = DECKS["tarot"]
    assert called and all(c is None or deck.is_card_token(c) for c in called)
    assert any(c is not None for c in called)
    text = run("solve", str(EXAMPLES / "tarot5.txt"), "--table", "--no-line",
               "--horizon", "1").output
    assert any(f"  {c}" in text for c in called if c)


def test_tarocchini_header_names_the_declarer_and_the_unit():
    res = run("solve", str(EXAMPLES / "tarocchini_terziglio_solo.txt"), "--horizon", "1")
    assert res.exit_code == 0, res.output
    head = res.output.split("card")[0]
    assert "half points" in res.output and "declarer" in res.output
    assert "defence" not in head
    a = json.loads(run("solve", str(EXAMPLES / "tarocchini_terziglio_solo.txt"),
                       "--horizon", "1", "--json").output)["analysis"]
    assert a["side_to_act"] in ("declarer", "opponents")
    assert "half points" in a["value_meaning"]


def test_a_timed_out_exact_search_is_not_exact_and_says_why():
    res = run("solve", str(EXAMPLES / "tarot4.txt"), "--at", "play", "--horizon", "exact",
              "--deadline", "0.3", "--json", "--no-line")
    a = json.loads(res.output)["analysis"]
    assert a["exact"] is False and a["complete"] is False and a["stopped"] == "deadline"
    assert any(c["value"] is None and c["stopped"] for c in a["cards"])
    assert a["seconds"] >= 0.2  # the run's own time, not one card's 0.0001 s
    text = run("solve", str(EXAMPLES / "tarot4.txt"), "--at", "play", "--horizon", "exact",
               "--deadline", "0.3", "--no-line").output
    assert "STOPPED by the deadline (0.3 s)" in text
    rows = [line.split() for line in text.splitlines() if ".." in line and
            line.startswith("  ")]
    assert rows and all(r[-2:] == ["-", "-"] for r in rows)  # no 1,024 nodes / 0.0001 s
    assert "s in all" in text


def test_auto_horizon_is_exact_where_the_exact_search_is_quick():
    # Tarot 4p after move 43: exact in ~0.3 s, where default_horizon gives 1 trick
    from solver import dd
    from solver.dd.report import position_from_record
    from solver.notation import parse_record

    record = parse_record((EXAMPLES / "tarot4.txt").read_text())
    state, _ = position_from_record(record, "43")
    assert dd.module_for("tarot").default_horizon(state) is not None
    a = json.loads(run("solve", str(EXAMPLES / "tarot4.txt"), "--at", "43",
                       "--json").output)["analysis"]
    assert a["exact"] is True and a["horizon"] is None and a["line"]


def test_a_finished_record_at_its_end_says_the_deal_is_over_with_the_scores():
    moves = len(json.loads((EXAMPLES / "coinche_deal.json").read_text())["moves"])
    res = run("solve", str(EXAMPLES / "coinche_deal.txt"), "--at", str(moves))
    assert res.exit_code == 0, res.output
    assert "the deal is over: scores" in res.output
    out = json.loads(run("solve", str(EXAMPLES / "coinche_deal.txt"), "--at", str(moves),
                         "--json").output)
    assert out["over"] is True and len(out["scores"]) == 4


def test_readme_names_only_functions_that_exist():
    import solver.dd as dd

    text = README.read_text()
    assert "solver.dd.dd_table" not in text
    for name in ("solve", "solve_cards", "principal_variation"):
        assert hasattr(dd, name)
    assert "atout[plot]" in text or "'.[plot]'" in text


# --- part 4: output a card player reads ---------------------------------------------
def test_solve_shows_every_hand_by_seat_and_suit():
    out = run("solve", str(EXAMPLES / "coinche_deal.txt"), "--no-line").output
    assert "hands:" in out and "seat 0" in out and "to play" in out
    assert "    spades" in out and "    hearts" in out


def test_par_line_names_the_contract():
    out = run("solve", str(EXAMPLES / "coinche_deal.txt"), "--table", "--no-line").output
    par = next(line for line in out.splitlines() if line.startswith("par:"))
    assert "{" not in par and "by seats" in par and "scores" in par
    assert "no trumps" in out or "all trumps" in out  # strains by name


def test_columns_are_aligned():
    out = run("solve", str(EXAMPLES / "coinche_deal.txt"), "--table", "--no-line").output
    lines = out.splitlines()
    i = next(k for k, line in enumerate(lines) if line.lstrip().startswith("card"))
    block = []
    for line in lines[i:]:
        if not line.startswith("  "):
            break
        block.append(line)
    assert len(block) > 2 and len({len(line) for line in block}) == 1


def test_help_describes_every_option():
    import click

    for name, cmd in cli.commands.items():
        for p in cmd.params:
            if isinstance(p, click.Option):
                assert p.help, f"atout {name} {p.opts[0]} has no help"


def test_progress_is_plain_lines_off_a_terminal():
    res = CliRunner().invoke(cli, ["match", "coinche", "--a", "random", "--b", "random",
                                   "--deals", "3"])
    assert res.exit_code == 0
    assert "deals: 3/3" in res.output and "\r" not in res.output
