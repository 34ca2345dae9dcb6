"""The line protocol (``atout serve``) and ``atout move``: the AI-opponent backend of a
game application. Every request gets one reply line; bad input gets an error reply and
the server goes on."""

import io
import json

import pytest
from click.testing import CliRunner

from solver.cli import cli
from solver.games import get_game
from solver.heuristic import HeuristicAgent
from solver.notation import Deal, Record
from solver.protocol import handle_line, serve

GAMES = [("coinche", {}), ("belote", {}), ("tarot", {"players": 3}),
         ("tarot", {"players": 4}), ("tarot", {"players": 5}),
         ("tarocchini", {"game": "ottocento"}), ("tarocchini", {"game": "terziglio"})]


def record_text(game, options, seed, moves=0):
    """A record of a random deal with its first ``moves`` moves (heuristic play)."""
    st = get_game(game).new_state(options=options, dealer=seed % 3, seed=seed)
    agent = HeuristicAgent(seed=seed)
    for _ in range(moves):
        if st.is_over():
            break
        st.play(agent.choose(st, st.to_act))
    return st.to_record().to_text()


def first_lead(seed):
    """A Coinche state at the first lead after a heuristic auction (the first deal from
    ``seed`` on that is not passed out)."""
    while True:
        st = get_game("coinche").new_state(dealer=0, seed=seed)
        agent = HeuristicAgent(seed=seed)
        while st.phase == "bid":
            st.play(agent.choose(st, st.to_act))
        if st.phase == "play":
            return st
        seed += 1


def ask(**req):
    return handle_line(json.dumps(req))


def test_garbage_gets_an_error_line_and_the_server_goes_on():
    rec = record_text("coinche", {}, 1)
    lines = ["not json", "[1, 2]", '{"cmd": 3}', '{"cmd": "fly", "id": 1}', "",
             json.dumps({"cmd": "legal", "id": 2, "record": rec}),
             json.dumps({"cmd": "legal", "record": "[Game \"coinche\"]"}),
             json.dumps({"cmd": "move", "record": rec, "seed": "x"}),
             json.dumps({"cmd": "move"}),
             json.dumps({"cmd": "quit", "id": "bye"}),
             json.dumps({"cmd": "version"})]
    out = io.StringIO()
    assert serve(lines, out) == 9  # the blank line is skipped; nothing after quit
    replies = [json.loads(x) for x in out.getvalue().splitlines()]
    assert len(replies) == 9
    assert [r["ok"] for r in replies] == [False] * 4 + [True] + [False] * 3 + [True]
    assert "not a JSON object" in replies[0]["error"]
    assert "unknown cmd" in replies[2]["error"] and replies[3]["id"] == 1
    assert replies[4]["id"] == 2 and replies[4]["phase"] == "bid" and "pass" in replies[4]["legal"]
    assert "Deal" in replies[5]["error"]
    assert "field 'seed' must be an integer, got" in replies[6]["error"]
    assert "needs the field 'record'" in replies[7]["error"]
    assert replies[8] == {"id": "bye", "ok": True, "schema_version": 1}


@pytest.mark.parametrize("game,options", GAMES)
def test_move_is_legal_and_deterministic_in_every_game(game, options):
    """A bid-phase and a card-play decision per game (pimc at the card play)."""
    for moves in (0, 30):
        rec = record_text(game, options, 3, moves)
        legal = ask(cmd="legal", record=rec)
        assert legal["ok"], legal
        if legal["over"]:
            continue
        for spec in ("heuristic", "pimc:worlds=4", "random"):
            a = ask(cmd="move", record=rec, agent=spec, seed=5)
            b = ask(cmd="move", record=rec, agent=spec, seed=5)
            assert a["ok"], a
            assert a["move"] in legal["legal"] and a["seat"] == legal["seat"]
            assert a["move"] == b["move"]


def test_hidden_cards_do_not_change_an_honest_agents_move():
    """Two records that differ only in cards the seat to act cannot see (swapped
    between two other hands before any card is played) get the same pimc move."""
    st = first_lead(11)
    assert st.phase == "play" and not st.tricks
    rec = st.to_record()
    me = st.to_act
    a, b = [(me + 1) % 4, (me + 2) % 4]
    hands = [list(h) for h in rec.deal.hands]
    hands[a][0], hands[b][0] = hands[b][0], hands[a][0]
    other = Record(rec.game, rec.options, rec.dealer,
                   Deal(hands, {k: v for k, v in rec.deal.extras.items() if not k.startswith("_")}),
                   rec.moves)
    for spec in ("pimc:worlds=12", "pimc:worlds=12,auction=1"):
        first = ask(cmd="move", record=rec.to_text(), agent=spec, seed=2)
        second = ask(cmd="move", record=other.to_text(), agent=spec, seed=2)
        assert first["ok"] and second["ok"]
        assert first["move"] == second["move"]
        untimed = [{k: v for k, v in r["stats"].items() if k != "time"}
                   for r in (first, second)]
        assert untimed[0] == untimed[1] and untimed[0]["worlds"] == 12


def test_default_agent_per_game():
    """Without an agent: pimc over 100 worlds; in Coinche and Belote its worlds follow
    the auction, in Tarot 4p its horizon leaves are the fitted evaluation's expected T
    (measured stronger there, benchmarks/RESULTS.md)."""
    st = first_lead(12)
    reply = ask(cmd="move", record=st.to_record().to_text(), seconds=0.2)
    assert reply["ok"] and reply["agent"] == "pimc:worlds=100,auction=1,nodes=4000000,seconds=0.2"
    assert "auction_fit" in reply["stats"]
    rec = record_text("tarot", {"players": 4}, 2)
    assert ask(cmd="move", record=rec)["agent"] == \
        "pimc:worlds=100,nodes=4000000,evaluation=soft"
    rec = record_text("tarot", {"players": 3}, 2)
    assert ask(cmd="move", record=rec)["agent"] == "pimc:worlds=100,nodes=4000000"
    rec = record_text("belote", {}, 2)
    assert ask(cmd="move", record=rec)["agent"] == "pimc:worlds=100,auction=1,nodes=4000000"


def test_move_errors_name_the_problem():
    rec = record_text("coinche", {}, 4)
    seat = ask(cmd="legal", record=rec)["seat"]
    assert ask(cmd="move", record=rec, seat=(seat + 1) % 4)["error"] == \
        f"it is seat {seat}'s turn, not seat {(seat + 1) % 4}'s"
    assert "unknown agent" in ask(cmd="move", record=rec, agent="genius")["error"]
    assert "seconds must be positive" in ask(cmd="move", record=rec, seconds=0)["error"]
    assert "the record has 0 moves" in ask(cmd="move", record=rec, at=3)["error"]
    over = get_game("coinche").new_state(dealer=0, seed=4)
    h = HeuristicAgent(seed=0)
    while not over.is_over():
        over.play(h.choose(over, over.to_act))
    assert "the deal is over" in ask(cmd="move", record=over.to_record().to_text())["error"]
    assert ask(cmd="legal", record=over.to_record().to_json())["over"] is True


def test_seconds_bounds_a_pimc_card_decision():
    rec = record_text("coinche", {}, 6)
    st = first_lead(6)
    reply = ask(cmd="move", record=st.to_record().to_text(), agent="pimc:worlds=100000",
                seconds=0.3)
    assert reply["ok"] and reply["agent"].endswith("seconds=0.3")
    assert 1 <= reply["stats"]["worlds"] < 100000 and reply["time"] < 5
    assert rec  # the bid-phase record is served too
    assert ask(cmd="move", record=rec, agent="pimc:worlds=4", seconds=0.3)["ok"]


def test_solve_and_evaluate_requests():
    st = first_lead(8)
    solved = ask(cmd="solve", record=st.to_record().to_text())
    assert solved["ok"] and solved["analysis"]["exact"]
    legal = ask(cmd="legal", record=st.to_record().to_text())["legal"]
    assert {c["move"] for c in solved["analysis"]["cards"]} <= set(legal)
    ev = ask(cmd="evaluate", game="coinche", hand="JH 9H AH TH KH QH 8H 7H", seat=0,
             dealer=3, samples=4, seed=1)
    assert ev["ok"] and ev["evaluation"]["recommended"] == "generale H"
    bad = ask(cmd="evaluate", game="coinche", hand="JH 9H", samples=4)
    assert not bad["ok"] and "8 different cards" in bad["error"]
    assert "unknown game" in ask(cmd="evaluate", game="bridge", hand="AS")["error"]
    # inputs a game's evaluation does not take are refused, not ignored
    assert ask(cmd="evaluate", game="coinche", hand="JS 9S AS TD KC 7H 8C QD",
               turned="7S")["error"] == "coinche evaluation takes no input turned"
    assert ask(cmd="evaluate", game="belote", hand="JS 9S AS TD KC", turned="7S",
               params={"depth": 3})["error"] == \
        "belote evaluation takes no input depth (it takes turned)"


def test_deeply_nested_garbage_is_an_error_reply():
    reply = handle_line('{"cmd": "move", "record": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert reply == {"ok": False, "error": "not a JSON object: nested too deeply",
                     "schema_version": 1}


def test_cli_move_and_serve():
    rec = record_text("belote", {}, 9)
    runner = CliRunner()
    res = runner.invoke(cli, ["move", "-", "--agent", "heuristic", "--json"], input=rec)
    assert res.exit_code == 0, res.output
    reply = json.loads(res.output)
    assert reply["move"] in ask(cmd="legal", record=rec)["legal"]
    res = runner.invoke(cli, ["serve"], input="oops\n" + json.dumps(
        {"cmd": "move", "record": rec, "agent": "heuristic"}) + "\n")
    lines = [json.loads(x) for x in res.output.splitlines()]
    assert res.exit_code == 0 and [x["ok"] for x in lines] == [False, True]
    assert lines[1]["move"] == reply["move"]


def test_field_types_are_named_as_json_types():
    """A field of the wrong type is named with its JSON types (a record may be a string
    or an object; a time a number)."""
    lines = [json.dumps({"cmd": "move", "record": True}),
             json.dumps({"cmd": "solve", "record": record_text("coinche", {}, 3),
                         "deadline": "soon"}),
             json.dumps({"cmd": "evaluate", "game": "coinche", "hand": "AS", "options": []})]
    out = io.StringIO()
    serve(lines, out)
    errors = [json.loads(x)["error"] for x in out.getvalue().splitlines()]
    assert errors == ["field 'record' must be a string or an object, got True",
                      "field 'deadline' must be a number, got 'soon'",
                      "field 'options' must be an object, got []"]
