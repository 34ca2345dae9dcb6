"""The review of a played deal (`atout review`, issue 27): every card and call
decision of each seat with its double-dummy cost and its cost on the seat's own view
(PIMC), mistakes told apart from bad luck, per-seat totals; every game."""

import json
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.analyse import card_of, record_positions
from solver.cards import DECKS
from solver.cli import cli, main
from solver.errors import AtoutError
from solver.notation import parse_record
from solver.review import BID_THRESHOLD, CARD_THRESHOLD, page_review, review

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
# small: 2 worlds a decision, 300k nodes a DD search (early Tarot/Tarocchini:
# estimates), the same on a loaded machine (a wall-clock deadline would not be)
QUICK = {"worlds": 2, "deadline": 60, "node_budget": 300_000}


def record(name):
    return parse_record((EXAMPLES / f"{name}.txt").read_text())


def with_moves(name, moves, options=None):
    """The example deal ``name`` with other moves (a deal in progress: no result)."""
    text = (EXAMPLES / f"{name}.txt").read_text()
    text = re.sub(r'\[Result "[^"]*"\]', "", re.sub(r'\[Moves "[^"]*"\]',
                                                       f'[Moves "{moves}"]', text))
    if options is not None:
        text = re.sub(r'\[Options "[^"]*"\]', f'[Options "{options}"]', text)
    return parse_record(text)


def costly(d):
    """A decision clearly worse on the actual cards and on the seat's view."""
    return (d["dd_cost"] >= BID_THRESHOLD and d["view_cost"] >= BID_THRESHOLD
            and d["verdict"] == "mistake" and d["dd_best"] != d["move"] != d["view_best"])


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


def check_rows(rec, r):
    """The fields of every row agree: its moves are the record's, the costs are the
    best value less the choice's (never negative), the verdict follows the kind's
    threshold, the totals sum the rows."""
    for d in r["decisions"]:
        k = d["k"]
        if "tokens" in d:  # a discard or declaration: the record's moves it is made of
            assert d["kind"] in ("discard", "declaration")
            assert d["tokens"] == rec.moves[k:k + len(d["tokens"])]
        else:
            assert d["kind"] in ("card", "bid") and d["move"] == rec.moves[k]
        limit = CARD_THRESHOLD[rec.game] if d["kind"] == "card" else BID_THRESHOLD
        if d.get("view_cost") is not None:
            assert d["view_cost"] >= 0
        if d.get("dd_cost") is not None:
            assert d["dd_cost"] >= 0
            if d["kind"] != "card":
                assert d["dd_cost"] == pytest.approx(d["dd_best_value"] - d["dd_value"])
        if "tokens" in d:  # the best is named by the choice's own name on a tie
            for side in ("dd", "view"):
                if d.get(f"{side}_cost") is not None:
                    assert (d[f"{side}_cost"] == 0) == (d[f"{side}_best"] == d["move"])
        want = ("mistake" if (d.get("view_cost") or 0) >= limit else
                "unlucky" if (d.get("dd_cost") or 0) >= limit else "ok")
        assert d["verdict"] == want
    assert set(r["thresholds"]) == {"card", "bid"} and r["bid_unit"]
    for t in r["totals"]:
        rows = [d for d in r["decisions"] if d["seat"] == t["seat"] and d["kind"] == t["kind"]]
        assert t["decisions"] == len(rows)
        assert t["dd_cost"] == pytest.approx(sum(d.get("dd_cost") or 0 for d in rows))
        assert t["mistakes"] == sum(d["verdict"] == "mistake" for d in rows)
        assert t["not_priced"] == sum("dd_cost" not in d for d in rows)


def row(r, k, kind):
    return next(d for d in r["decisions"] if d["k"] == k and d["kind"] == kind)


def total(r, seat, kind):
    return next(t for t in r["totals"] if t["seat"] == seat and t["kind"] == kind)


GAMES = ["coinche_deal", "belote_ex10", "tarot4", "tarocchini_ottocento",
         "tarocchini_terziglio"]


@pytest.mark.parametrize("name", GAMES + [
    pytest.param(name, marks=pytest.mark.slow)
    for name in ("tarot3", "tarot5", "tarocchini_terziglio_solo")])
def test_review_of_every_game(name):
    rec = record(name)
    r = review(rec, seed=3, **QUICK)
    cards = [d for d in r["decisions"] if d["kind"] == "card"]
    assert [d["k"] for d in cards] == card_decisions(rec)
    check_rows(rec, r)
    if rec.game in ("tarot", "tarocchini"):
        # early positions are out of reach of the exact search at 0.05 s: labelled
        assert not cards[0]["dd_exact"] and cards[-1]["dd_exact"]
    # every decision that is not a card's is priced, on the view and on the cards
    calls = [d for d in r["decisions"] if d["kind"] != "card"]
    assert calls and all("dd_cost" in d and "view_cost" in d and "note" not in d
                         for d in calls)
    kinds = {d["kind"] for d in calls}
    # the écart (TAROT-DOG-2), the chelem call (TAROT-ANN-1), the Tarocchini discards
    # (OTTO-DEAL-2, TERZ-BID-2) and declarations (TAROC-DECL-1), Coinche announces
    # (BELOTE-ANN-5); a Terziglio solo has no exchange (TERZ-BID-3)
    want = {"coinche": {"bid", "declaration"}, "belote": {"bid"},
            "tarot": {"bid", "discard", "declaration"},
            "tarocchini": {"bid", "discard", "declaration"}}[rec.game]
    assert kinds == (want - {"discard"} if name.endswith("_solo") else want)
    # Tarot and Tarocchini play-outs open with the heuristic player: never exact
    if rec.game in ("tarot", "tarocchini"):
        assert not any(d["dd_exact"] or d["view_exact"] for d in calls)
    # a choice that changes no score is only counted: the signals of Tarocchini
    other = sum(t.get("other_decisions", 0) for t in r["totals"])
    assert (other > 0) == (rec.game == "tarocchini")


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


# --- decisions other than cards, each kind on a constructed deal where one choice is
# clearly worse (2 worlds a decision: a few seconds each) ----------------------------

def test_belote_take_and_the_second_round_suit():
    """BELOTE-BID-1: a pass with J 9 A K of the turned suit (and its Queen turned) gives
    the contract away; BELOTE-BID-2: in round 2, naming clubs without a club when
    holding J 9 A T of spades."""
    deal = ("AS AH KH JH 9H / KS QS 9S TH 8H / JS 7H AC KC TC / 7S QD JD 8D 8C | turned: QH"
            " | stock: TS 7D AD KD 7C 8S TD 9D 9C JC QC")
    rec = parse_record(f'[Game "belote"][Dealer "3"][Deal "{deal}"][Moves "pass"]')
    r = review(rec, seed=3, **QUICK)
    check_rows(rec, r)
    d = row(r, 0, "bid")
    assert d["move"] == "pass" and d["dd_best"] == d["view_best"] == "take"
    assert d["dd_cost"] >= BID_THRESHOLD and d["view_cost"] >= BID_THRESHOLD
    assert d["dd_exact"] and not d["view_exact"]  # exact DD play after a modelled auction
    deal = ("JS 9S AS TS 7H / KS QS 8S TH 8H / JD 7D AD KD TD / 7S QD 8D 9D 8C | turned: QH"
            " | stock: TC QC AC JC 9C 9H AH 7C KH KC JH")
    rec = parse_record(f'[Game "belote"][Dealer "3"][Deal "{deal}"]'
                       '[Moves "pass pass pass pass take:C"]')
    r = review(rec, seed=3, **QUICK)
    check_rows(rec, r)
    d = row(r, 4, "bid")
    assert d["move"] == "take:C" and d["dd_best"] == d["view_best"] == "take:S"
    assert costly(d)


def test_coinche_announce_not_made_costs_its_points():
    """BELOTE-ANN-5/6 (COINCHE-ANN-1): seat 0 holds a tierce and plays its card without
    announcing it; its team holds the best announce, so the tierce's 20 points are lost,
    on the actual cards and on its view. The announce its partner then makes is priced
    too (it was the right choice)."""
    rec = with_moves("coinche_deal", "bid:80:S pass bid:100:S coinche pass pass 8S AS "
                                     "announce:tierce:9D JD KS")
    r = review(rec, seed=3, **QUICK)
    check_rows(rec, r)
    d = row(r, 6, "declaration")
    assert d["tokens"] == [] and d["move"] == "no announce"
    assert d["dd_best"] == d["view_best"] == "announce:tierce:9S"
    assert d["dd_cost"] == 20 and d["view_cost"] >= BID_THRESHOLD and d["verdict"] == "mistake"
    assert d["dd_exact"] and d["view_exact"]  # every world solved exactly
    assert row(r, 6, "card")["move"] == "8S"  # the card is its own decision
    mate = row(r, 8, "declaration")
    assert mate["tokens"] == ["announce:tierce:9D"] and mate["dd_cost"] == 0


def test_belote_optional_belote_not_said_costs_20():
    """BELOTE-BR-2/3, option belote_optional: the taker plays the trump Queen, the first
    of his King and Queen, without saying belote: 20 points for his team lost."""
    rec = with_moves("belote_ex10", "take JH 8H 7H 7S 9H TH 8S 8C AS 9S JS 9C TS QS 9D JC "
                     "7D AD TD QD KS KC 8D QH", options="belote_optional=true")
    r = review(rec, seed=3, **QUICK)
    check_rows(rec, r)
    d = row(r, 24, "declaration")
    assert d["move"] == "QH" and d["tokens"] == ["QH"]
    assert d["dd_best"] == d["view_best"] == "belote:QH"
    assert d["dd_cost"] == d["view_cost"] == 20 and d["verdict"] == "mistake"
    assert row(r, 24, "card")["move"] == "QH"


def test_tarot_ecart_one_small_card_of_each_suit():
    """TAROT-DOG-2: an écart of one small card from each suit (no void made, no points
    banked) against the analysis's candidates: costly in the taker's score."""
    ecart = " ".join(f"discard:{c}" for c in "1H 2H 2S 1C 2D 3D".split())
    rec = with_moves("tarot4", f"pass garde pass pass {ecart}")
    r = review(rec, seed=3, **QUICK)
    check_rows(rec, r)
    d = row(r, 4, "discard")
    assert d["seat"] == 2 and d["tokens"] == ecart.split()
    assert d["move"] == "écart 2S 2H 1H 3D 2D 1C" and costly(d)
    assert not d["dd_exact"] and not d["view_exact"]  # heuristic opening, DD ending
    assert [x["k"] for x in r["decisions"] if 4 < x["k"] < 10] == []  # one row


def test_tarot_chelem_announced_and_failed():
    """TAROT-ANN-1..3: a chelem announced by a taker whose garde fails: -200 T more."""
    ecart = "discard:2S discard:JH discard:7H discard:1H discard:5S discard:6S"
    rec = with_moves("tarot4", f"pass garde pass pass {ecart} chelem")
    r = review(rec, seed=3, **QUICK)
    check_rows(rec, r)
    d = row(r, 10, "declaration")
    assert d["move"] == "chelem" and d["dd_best"] == d["view_best"] == "no_chelem"
    assert d["dd_cost"] == d["view_cost"] == 600  # 3 x 200: the 4-player taker's 3T


def tarot_poignee_record(moves, options=""):
    """A 4-player deal where seat 1 (the eldest, dealer 0) holds ten trumps, the Excuse
    and the four Kings: a poignée (TAROT-ANN-4: ten trumps in 4p) it wins with; seat 2
    holds no trump (a misère d'atout, TAROT-ANN-9)."""
    deck = DECKS["tarot"]
    mine = "T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 EX KS KH KD KC QS QH QD".split()
    rest = [deck.token(c) for c in range(78) if deck.token(c) not in mine]
    hands = [rest[0:18], mine, rest[18:36], rest[36:54]]
    deal = " / ".join(" ".join(h) for h in hands) + " | dog: " + " ".join(rest[54:])
    return parse_record(f'[Game "tarot"][Options "{options}"][Dealer "0"][Deal "{deal}"]'
                        f'[Moves "{moves}"]')


def test_tarot_poignee_and_misere():
    """TAROT-ANN-5/6: the poignée bonus (20, simple) goes to the side that wins; the
    taker who wins and leads without announcing it loses 3 x 20. Announced (the ten
    trumps shown, one row with its show moves), it is the best choice. TAROT-ANN-9
    (option misere=on): the defender without a trump who plays his card without
    announcing a misère loses its 10 from each other player."""
    rec = tarot_poignee_record("garde_sans pass pass pass no_chelem T21")
    r = review(rec, seed=3, **QUICK)
    check_rows(rec, r)
    d = row(r, 5, "declaration")
    assert d["seat"] == 1 and d["tokens"] == [] and d["move"] == "no announcement"
    assert d["dd_best"] == d["view_best"] == "poignee:simple"
    assert d["dd_cost"] == d["view_cost"] == 60
    shows = " ".join(f"show:T{n}" for n in range(12, 22))
    rec = tarot_poignee_record(f"garde_sans pass pass pass no_chelem poignee:simple "
                               f"{shows} T21 8S", options="misere=on")
    r = review(rec, seed=3, **QUICK)
    check_rows(rec, r)
    d = row(r, 5, "declaration")
    assert d["move"] == "poignee:simple" and len(d["tokens"]) == 11
    assert d["dd_cost"] == d["view_cost"] == 0
    d = row(r, 17, "declaration")
    assert d["seat"] == 2 and d["move"] == "no announcement"
    assert d["dd_best"] == d["view_best"] == "misere:trump"
    assert d["dd_cost"] == d["view_cost"] == 30
    # the show moves are the poignée's (its row's tokens), not choices of their own
    assert total(r, 1, "card")["other_decisions"] == 0


def test_tarot_five_player_call():
    """TAROT-CALL-1..3: the 5-player taker holding three Kings calls the fourth (a
    partner) where calling one of his own (alone) was better on the cards and on his
    view; the bid before it is worth its best call."""
    rec = with_moves("tarot5", "pass garde pass pass pass call:KC")
    r = review(rec, seed=3, **QUICK)
    check_rows(rec, r)
    d = row(r, 5, "bid")
    assert d["seat"] == 2 and d["move"] == "call:KC"
    assert d["dd_best"].startswith("garde K") and d["view_best"].startswith("garde K")
    assert costly(d | {"move": "garde KC"})
    assert row(r, 1, "bid")["dd_best"] in ("pass", "prise", "garde", "garde_sans",
                                           "garde_contre")


def test_tarocchini_declaring_nothing_and_discarding_trumps():
    """TAROC-DECL-2/4: an Ottocento player who declares nothing gives away his
    combinations' points; TERZ-BID-2: a Terziglio declarer who discards five of his
    trumps with the stock's exchange."""
    rec = with_moves("tarocchini_ottocento", "play play play play discard:T16 discard:8D "
                                             "decl:done")
    r = review(rec, seed=3, **QUICK)
    check_rows(rec, r)
    d = row(r, 6, "declaration")
    assert d["tokens"] == ["decl:done"] and d["move"] == "declare nothing"
    assert d["dd_best"] == d["view_best"] == "declare max" and costly(d)
    assert [x["kind"] for x in r["decisions"]] == ["bid"] * 4 + ["discard", "declaration"]
    discard = " ".join(f"discard:{c}" for c in "T16 T14 T12 T11 T8 9S JC 10C".split())
    rec = with_moves("tarocchini_terziglio", f"gioco pass pass {discard}")
    r = review(rec, seed=3, **QUICK)
    check_rows(rec, r)
    d = row(r, 3, "discard")
    assert d["move"] == "discard T16 T14 T12 T11 T8 9S JC 10C" and costly(d)


def test_tarocchini_pass_with_a_solo_hand():
    """TERZ-BID-1: the eldest passes with sixteen trumps and both contatori."""
    deck = DECKS["tarocchini"]
    mine = "ANG MON SOL LUN T16 T15 T14 T13 T12 T11 T10 T9 T8 T7 T6 T5 BAG MAT".split()
    rest = [deck.token(c) for c in range(62) if deck.token(c) not in mine]
    deal = (" ".join(mine) + " / " + " ".join(rest[:18]) + " / " + " ".join(rest[18:36])
            + " | stock: " + " ".join(rest[36:]))
    rec = parse_record(f'[Game "tarocchini"][Options "game=terziglio"][Dealer "2"]'
                       f'[Deal "{deal}"][Moves "pass"]')
    r = review(rec, seed=3, **QUICK)
    check_rows(rec, r)
    d = row(r, 0, "bid")
    assert d["move"] == "pass" and d["dd_best"] == d["view_best"] == "solo" and costly(d)


def test_a_decision_the_evaluator_refuses_says_why(monkeypatch):
    """A row is never silently unpriced: an evaluator's refusal (an AtoutError) becomes
    the row's note, and the row counts as not priced."""
    import solver.review_calls as rc

    def refuse(*args):
        raise AtoutError("no bid analysis for this position")

    monkeypatch.setitem(rc.PRICERS, "bid", refuse)
    rec = with_moves("belote_ex10", "take")
    r = review(rec, seed=3, **QUICK)
    d = row(r, 0, "bid")
    assert d["note"] == "not priced: no bid analysis for this position"
    assert "dd_cost" not in d and d["verdict"] == "ok"
    assert total(r, 0, "bid")["not_priced"] == 1


def test_tarocchini_call_out_says_why_it_is_not_priced():
    """OTTO-SCORE-3: the dealer whose cards reach the match target may call out, which
    ends the game; not a deal score to price, so the row says so."""
    from solver.games import tarocchini as T

    st = T.new_state({"totals": (0, 790), "monte": "off"}, dealer=3, seed=0)
    st.play("callout")
    r = review(st.to_record(), seed=3, **QUICK)
    (d,) = r["decisions"]
    assert d["move"] == "callout" and d["kind"] == "bid" and "OTTO-SCORE-3" in d["note"]
    assert "dd_cost" not in d and total(r, 3, "bid")["not_priced"] == 1
