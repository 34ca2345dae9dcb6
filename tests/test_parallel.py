"""Threads (solver.parallel): PIMC worlds and bid-analysis samples solved in several
threads give exactly the single-thread results, in every game."""

import threading

import pytest

from solver.bidding import Context, evaluate
from solver.cards import DECKS
from solver.errors import OptionError
from solver.parallel import ordered_map, per_thread
from solver.pimc import PimcAgent

GAMES = [("coinche", {}), ("belote", {}), ("tarot", {"players": 3}),
         ("tarot", {"players": 4}), ("tarot", {"players": 5}),
         ("tarocchini", {"game": "ottocento"}), ("tarocchini", {"game": "terziglio"})]


def test_ordered_map_keeps_input_order_and_stops_early():
    assert list(ordered_map(lambda x: x * x, range(20), 3)) == [x * x for x in range(20)]
    started = []

    def slow(x):
        started.append(x)
        return x

    it = ordered_map(slow, range(100), 2)
    assert [next(it) for _ in range(3)] == [0, 1, 2]
    it.close()
    # a consumer that stops early cancels what is queued: a few items per thread ran
    assert len(started) <= 3 + 4 * 2


def test_per_thread_gives_each_thread_its_own_object():
    make = per_thread(lambda key: object())
    assert make(1) is make(1) and make(1) is not make(2)
    other = []
    t = threading.Thread(target=lambda: other.append(make(1)))
    t.start()
    t.join()
    assert other[0] is not make(1)


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "2"])
def test_bad_thread_counts_are_option_errors(bad):
    with pytest.raises(OptionError, match="threads"):
        PimcAgent(worlds=2, threads=bad)
    with pytest.raises(OptionError, match="threads"):
        evaluate(Context("coinche", list(range(8))), samples=1, threads=bad)


def _first_card_choice(game, options, seed):
    """The first state of a heuristic-bid deal where a seat chooses among cards."""
    from solver.games import get_game
    from solver.heuristic import HeuristicAgent
    for s in range(seed, seed + 50):   # skip deals that everybody passes
        st = get_game(game).new_state(options=options, dealer=0, seed=s)
        bidder = HeuristicAgent(seed=s)
        while not st.is_over():
            seat = st.to_act() if callable(st.to_act) else st.to_act
            if st.phase == "play" and sum(m.kind == "card" for m in st.legal_moves()) > 1:
                return st, seat
            st.play(bidder.choose(st, seat))
    raise AssertionError("no deal reached card play")


@pytest.mark.parametrize("game,options", GAMES)
def test_pimc_card_values_are_the_same_with_two_threads(game, options):
    st, seat = _first_card_choice(game, options, seed=11)
    cards = [m for m in st.legal_moves() if m.kind == "card"]
    one = PimcAgent(seed=3, worlds=6).card_values(st, seat, cards)
    two = PimcAgent(seed=3, worlds=6, threads=2).card_values(st, seat, cards)
    assert one is not None and one == two


EVALUATIONS = [  # game, options, hand of seat 0, dealer, auction, extra
    ("coinche", {}, "AS KS QS JS 9H TH 7D 8C", 3, "", {}),
    ("belote", {}, "JH 9H AS TS 7C", 3, "", {"turned": "KH"}),
    ("tarot", {"players": 4}, "T21 T17 T12 T9 T3 EX KS QS 4S KH 7H 2H 1D 9D 10C 8C 5C 1C",
     3, "", {}),
    ("tarocchini", {"game": "terziglio"},
     "ANG MON SOL LUN T16 T15 T14 T13 T12 T11 10S 9S 8S 10B 9B 8B 10C 9C", 2, "", {}),
    ("tarocchini", {"game": "ottocento"}, "ANG MON T11 T6 BAG NS 8S NB AB KC NC 10C ND 7D 6D",
     3, "play play play play discard:? discard:?", {}),
]


@pytest.mark.parametrize("game,options,hand,dealer,auction,extra", EVALUATIONS)
def test_evaluation_is_the_same_with_two_threads(game, options, hand, dealer, auction, extra):
    deck = DECKS[game]
    extra = {k: deck.card(v) for k, v in extra.items()}
    ctx = Context(game, deck.parse_cards(hand), 0, dealer, options, auction.split(), extra)
    one = evaluate(ctx, samples=3, seed=4)
    two = evaluate(ctx, samples=3, seed=4, threads=2)
    assert one.recommended == two.recommended and one.notes == two.notes
    assert [r.to_json(True) for r in one.rows] == [r.to_json(True) for r in two.rows]


def test_cli_evaluate_threads_gives_the_same_table():
    import json

    from click.testing import CliRunner

    from solver.cli import cli

    args = ["evaluate", "coinche", "--hand", "JS 9S AS TS AH 7D 8C 7C", "--samples", "4",
            "--json"]
    out = []
    for extra in ([], ["--threads", "2"]):
        r = CliRunner().invoke(cli, args + extra)
        assert r.exit_code == 0, r.output
        data = json.loads(r.output[r.output.index("{"):])
        out.append((data["recommended"], data["options"]))
    assert out[0] == out[1]
    r = CliRunner().invoke(cli, args + ["--threads", "0"])
    assert r.exit_code == 2 and "--threads" in r.output
