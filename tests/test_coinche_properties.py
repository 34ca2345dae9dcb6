"""Coinche property tests over random complete deals and the CLI: card points 162 (252 for
an unbid capot), a legal move at every decision, exact replay, 200 CLI seeds."""

import json
import random

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cli import cli
from solver.games import coinche, state_from_record
from solver.games.belote_common import DECK, legal_cards
from solver.notation import Record, parse_record

OPTION_CHOICES = {name: list(o.choices) for name, o in coinche.OPTIONS.items() if o.choices}


def play_out(state, rng):
    while not state.is_over():
        moves = state.legal_moves()
        assert moves and state.to_act is not None
        state.play(rng.choice(moves))
    return state


def test_random_deals_invariants_and_replay():
    for seed in range(300):
        rng = random.Random(seed)
        options = {n: rng.choice(c) for n, c in OPTION_CHOICES.items()} if seed % 2 else None
        s = play_out(coinche.new_state(options=options, dealer=seed % 4, seed=seed), rng)
        rec = s.to_record()
        again = state_from_record(Record.from_text(rec.to_text()))
        assert again.scores() == s.scores() and again.to_record().to_text() == rec.to_text()
        if s.annulled:
            continue
        cards = s.result["cards"]
        capot_bid = s.value in (250, 500)
        assert sum(cards) == (252 if 8 in s.tricks_won and not capot_bid else 162)
        assert min(s.scores()) >= 0


def test_state_cards_match_pure_function_all_strains():
    for seed in range(150):
        rng = random.Random(seed)
        s = coinche.new_state(seed=seed)
        strain = ["S", "H", "D", "C", "TA", "SA"][seed % 6]
        s.play(f"bid:80:{strain}")
        for _ in range(3):
            s.play("pass")
        while not s.is_over():
            expect = set(DECK.cards(legal_cards(s.hands[s.to_act], s.trick, s.strain)))
            assert {x.value for x in s.legal_moves() if x.kind in ("card", "belote")} == expect
            s.play_random(rng)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2 ** 32), data=st.data())
def test_hypothesis_random_options(seed, data):
    options = {name: data.draw(st.sampled_from(ch)) for name, ch in OPTION_CHOICES.items()}
    s = play_out(coinche.new_state(options=options, seed=seed, dealer=seed % 4),
                 random.Random(seed))
    if not s.annulled:
        assert s.result["winner"] in (0, 1)
        w = s.result["winner"]
        assert s.result["written"][w] >= s.result["written"][1 - w] or not s.result["made"]


def test_cli_play_coinche_200_seeds():
    runner = CliRunner()
    for seed in range(200):
        res = runner.invoke(cli, ["play", "coinche", "--seed", str(seed), "--json"])
        assert res.exit_code == 0, res.output
        out = json.loads(res.output)
        again = state_from_record(Record.from_json(out["record"]))
        assert again.is_over() and again.scores() == out["scores"]


def test_cli_deal_and_play_text_both_games():
    runner = CliRunner()
    for game in ("belote", "coinche"):
        res = runner.invoke(cli, ["deal", game, "--seed", "3"])
        assert res.exit_code == 0 and res.output.count("/") == 3
        res = runner.invoke(cli, ["play", game, "--seed", "3", "--dealer", "2",
                                  "-o", "announces=true"])
        assert res.exit_code == 0, res.output
        record_line, score_line = res.output.strip().splitlines()
        rec = parse_record(record_line)
        assert rec.game == game and rec.dealer == 2
        scores = [float(x) for x in score_line.split()[1:]]
        assert state_from_record(rec).scores() == scores
    res = runner.invoke(cli, ["play", "coinche", "-o", "double_mode=triple"])
    assert res.exit_code != 0


def test_match_plays_to_target():
    for seed in range(5):
        match = coinche.CoincheMatch(seed=seed)
        match.play_random(seed)
        assert match.is_over() and match.winner() in (0, 1)
