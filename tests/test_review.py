"""The review of a played deal (`atout review`, issue 27): every card and call
decision of each seat with its double-dummy cost and its cost on the seat's own view
(PIMC), mistakes told apart from bad luck, per-seat totals; every game."""

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.analyse import card_of, record_positions
from solver.cli import cli, main
from solver.notation import parse_record
from solver.review import BID_THRESHOLD, CARD_THRESHOLD, page_review, review

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
# small: 2 worlds a decision, 300k nodes a DD search (early Tarot/Tarocchini:
# estimates), the same on a loaded machine (a wall-clock deadline would not be)
QUICK = {"worlds": 2, "deadline": 60, "node_budget": 300_000}


def record(name):
    return parse_record((EXAMPLES / f"{name}.txt").read_text())


def card_decisions(rec):
    """The positions where the seat to act chose among two or more cards."""
    out = []
    for k, state in record_positions(rec):
        if k == len(rec.moves):
            break
        if card_of(state.parse_move(rec.moves[k])) is not None and len(
                {card_of(m) for m in state.legal_moves() if card_of(m) is not None}) > 1:
            out.append(k)
    return out


@pytest.mark.parametrize("name", ["coinche_deal", "belote_ex10", "tarot4",
                                  "tarocchini_ottocento", "tarocchini_terziglio"])
def test_review_of_every_game(name):
    rec = record(name)
    r = review(rec, seed=3, **QUICK)
    cards = [d for d in r["decisions"] if d["kind"] == "card"]
    assert [d["k"] for d in cards] == card_decisions(rec)
    threshold = CARD_THRESHOLD[rec.game]
    for d in r["decisions"]:
        assert d["move"] == rec.moves[d["k"]]
        limit = threshold if d["kind"] == "card" else BID_THRESHOLD
        if d.get("view_cost") is not None:
            assert d["view_cost"] >= 0
        if d.get("dd_cost") is not None:
            assert d["dd_cost"] >= 0
        want = ("mistake" if (d.get("view_cost") or 0) >= limit else
                "unlucky" if (d.get("dd_cost") or 0) >= limit else "ok")
        assert d["verdict"] == want
    for t in r["totals"]:
        rows = [d for d in r["decisions"] if d["seat"] == t["seat"] and d["kind"] == t["kind"]]
        assert t["decisions"] == len(rows)
        assert t["dd_cost"] == pytest.approx(sum(d.get("dd_cost") or 0 for d in rows))
        assert t["mistakes"] == sum(d["verdict"] == "mistake" for d in rows)
    if rec.game in ("tarot", "tarocchini"):
        # early positions are out of reach of the exact search at 0.05 s: labelled
        assert not cards[0]["dd_exact"] and cards[-1]["dd_exact"]
    if rec.game in ("coinche", "tarot"):
        bids = [d for d in r["decisions"] if d["kind"] == "bid"]
        assert bids and all("dd_cost" in d and "view_cost" in d for d in bids)


def test_card_costs_are_the_solvers_and_the_review_is_seeded():
    rec = record("coinche_deal")
    r = review(rec, seed=1, **QUICK)
    again = review(rec, seed=1, **QUICK)
    assert r["decisions"] == again["decisions"]
    cards = {d["k"]: d for d in r["decisions"] if d["kind"] == "card"}
    for k in (7, 12, 20, 30):
        res = CliRunner().invoke(cli, ["solve", str(EXAMPLES / "coinche_deal.txt"), "--at",
                                       str(k), "--json", "--no-line"])
        a = json.loads(res.stdout)["analysis"]
        sign = -1 if a["cards"][0]["value"] < a["cards"][-1]["value"] else 1
        best = a["cards"][0]["value"]
        played = next(c["value"] for c in a["cards"] if c["move"] == rec.moves[k])
        assert cards[k]["dd_exact"]
        assert cards[k]["dd_cost"] == sign * (best - played)
    # the viewer's panel: one row per decision, the verdict as the row's class
    panel = page_review(r)
    assert [row["k"] for row in panel["rows"]] == [d["k"] for d in r["decisions"]]
    assert {row["verdict"] for row in panel["rows"]} <= {"ok", "mistake", "unlucky"}


def test_review_cli_text_json_and_html(tmp_path, capsys):
    page = tmp_path / "review.html"
    res = CliRunner().invoke(cli, ["review", str(EXAMPLES / "belote_ex10.txt"), "--worlds",
                                   "2", "--json", "--html", str(page)])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["schema"] == "review" and out["decisions"]
    text = page.read_text()
    assert '"review":{"legend"' in text and 'id="reviewbox"' in text
    res = CliRunner().invoke(cli, ["review", str(EXAMPLES / "belote_ex10.txt"), "--worlds",
                                   "2"])
    assert res.exit_code == 0 and "per seat:" in res.stdout
    deal = tmp_path / "deal.txt"
    deal.write_text("JS 9S 8S 7S TH 8H JC TC / AS AH QH 7H AD QC 9C 8C / JH JD 9D 8D 7D "
                    "AC KC 7C / KS QS TS KH 9H KD QD TD")
    with pytest.raises(SystemExit) as e:
        main(["review", str(deal)])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("atout: error: expected a record") and err.count("\n") == 1


def test_many_records_one_review_a_line_the_same_with_jobs(tmp_path):
    from solver.analyse import BatchConfig, read_lines, run_batch
    from solver.games import get_game

    lines = []
    for seed in (1, 2):
        state = get_game("belote").new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            state.play_random(rng)
        lines.append(json.dumps(state.to_record().to_json()))
    lines.insert(1, "JS 9S 8S / not a record")
    path = tmp_path / "played.jsonl"
    path.write_text("\n".join(lines) + "\n")
    res = CliRunner().invoke(cli, ["review", str(path), "--worlds", "2"])
    assert res.exit_code == 1
    assert "atout: line 2: expected a record" in res.stderr
    out = [json.loads(ln) for ln in res.stdout.splitlines()]
    assert [r["line"] for r in out] == [1, 2, 3] and "error" in out[1]
    assert all(r["review"]["decisions"] for r in (out[0], out[2]))
    cfg = BatchConfig(review_worlds=2)
    items = read_lines(str(path), path.read_text())
    one = run_batch(cfg, items)
    assert run_batch(cfg, items, jobs=2) == one
    assert [json.loads(json.dumps(r)) for r in one] == out
