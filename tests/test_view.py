"""A seat's view as the input of ``move`` (solver/view.py): for every game and phase the
view rebuilds a state with the seat's observation, so the move equals the one from the
full record for the same seed; inconsistent views are one-line errors."""

import json

import pytest

from solver.agents import make_agent
from solver.errors import AtoutError
from solver.games import get_game
from solver.protocol import handle_line
from solver.view import View, parse_view, state_from_view, view_of

GAMES = [("tarot", {}), ("tarot", {"players": 3}), ("tarot", {"players": 5}),
         ("belote", {}), ("coinche", {}), ("tarocchini", {}),
         ("tarocchini", {"game": "terziglio"})]


def played(game, options, seed):
    """A whole deal played by the heuristic (a Tarot deal where someone takes)."""
    for s in range(seed, seed + 20):
        state = get_game(game).new_state(options=options, seed=s, dealer=s % 3)
        agent = make_agent("heuristic", seed=s)
        while not state.is_over():
            state.play(agent.choose(state, state.to_act))
        rec = state.to_record()
        if len(rec.moves) > 20:
            return rec
    raise AssertionError("no played deal")


# seed 1 of every game, and deals with a Coinche announce, Tarot poignées (4p, 5p)
DEALS = [(g, o, 1) for g, o in GAMES] + [("coinche", {}, 2), ("tarot", {}, 27),
                                           ("tarot", {"players": 5}, 6)]


@pytest.fixture(scope="module", params=DEALS, ids=lambda g: f"{g[0]}{g[1] or ''}-{g[2]}")
def record(request):
    game, options, seed = request.param
    return played(game, options, seed=seed)


def test_view_same_observation_and_move(record):
    state = get_game(record.game).new_state(options=record.options, dealer=record.dealer,
                                            deal=record.deal)
    phases = set()
    for i, tok in enumerate(record.moves):
        seat = state.to_act
        if i % 2 == 0 or state.phase not in phases:
            phases.add(state.phase)
            view = view_of(record, seat, i)
            assert parse_view(view.to_text()) == view
            assert View.from_json(json.loads(json.dumps(view.to_json()))) == view
            world = state_from_view(view, seed=i)
            assert world.observation(seat) == state.observation(seat), (i, tok)
            a = make_agent("heuristic", seed=7).choose(state, seat)
            b = make_agent("heuristic", seed=7).choose(world, seat)
            assert a == b, (i, tok)
        state.play(tok)


@pytest.mark.parametrize("game,options", GAMES, ids=lambda g: str(g))
def test_pimc_move_from_view_equals_record(game, options):
    """The protocol's ``move``: a view and the full record give the same reply."""
    rec = played(game, options, seed=2)
    n = len(rec.moves)
    for at in (n // 2, n - 3):
        state = get_game(game).new_state(options=rec.options, dealer=rec.dealer,
                                         deal=rec.deal)
        for tok in rec.moves[:at]:
            state.play(tok)
        view = view_of(rec, state.to_act, at)
        common = {"cmd": "move", "agent": "pimc:worlds=4", "seed": 3}
        full = handle_line(json.dumps(common | {"record": rec.to_text(), "at": at}))
        mine = handle_line(json.dumps(common | {"view": view.to_text()}))
        assert full["ok"] and mine["ok"], (full, mine)
        assert full["move"] == mine["move"]


def _belote_view():
    return played("belote", {}, seed=1)


def test_inconsistent_views_are_one_line_errors():
    rec = played("tarot", {}, seed=1)
    seat = 0
    view = view_of(rec, seat, 30)
    bad = [
        (View(view.game, view.options, view.dealer, seat, view.hand[:-1], view.piles,
              view.received, view.moves), "the hand has 17 cards"),
        (View(view.game, view.options, view.dealer, seat, view.hand,
              {"dog": view.hand[:6]}, [], view.moves), "seen twice"),
        (View(view.game, view.options, view.dealer, 9, view.hand, {}, [], []), "seat 9"),
    ]
    for v, words in bad:
        with pytest.raises(AtoutError, match=words) as e:
            state_from_view(v)
        assert "\n" not in str(e.value)
    # a card of the seat's own hand played by another seat
    other = next(i for i, _ in enumerate(view.moves) if i > 10)
    moves = list(view.moves)
    state = get_game("tarot").new_state(options=rec.options, dealer=rec.dealer, deal=rec.deal)
    for tok in rec.moves[:other]:
        state.play(tok)
    if state.to_act != seat:
        moves[other] = state.deck.token(view.hand[0])
        with pytest.raises(AtoutError, match="own hand|seen twice|illegal|cannot"):
            state_from_view(View("tarot", {}, rec.dealer, seat, view.hand, view.piles,
                                 [], moves[:other + 1]))


def test_void_contradicted():
    """A seat that did not follow a suit cannot play that suit later: one-line error."""
    rec = played("coinche", {}, seed=1)
    state = get_game("coinche").new_state(options=rec.options, dealer=rec.dealer,
                                          deal=rec.deal)
    plays = []  # (move index, seat, token) of the card plays
    for i, tok in enumerate(rec.moves):
        seat = state.to_act
        if state.parse_move(tok).kind in ("card", "belote"):
            plays.append((i, seat, tok))
        state.play(tok)
    tricks = [plays[k:k + 4] for k in range(0, 32, 4)]
    observer = None
    for t, trick in enumerate(tricks[:-1]):
        led = trick[0][2][-1]
        for _i, seat, tok in trick[1:]:
            if tok[-1] != led:  # seat is void in `led` from here on
                later = [(j, s2, tk) for tr in tricks[t + 1:] for j, s2, tk in tr if s2 == seat]
                rest = [tk for tr in tricks[t + 1:] for _, _, tk in tr
                        if tk[-1] == led]
                if later and rest:
                    observer = next(o for o in range(4) if o != seat
                                    and rest[0] not in rec.deal.to_text(rec.deck)
                                    .split("/")[o])
                    j = later[0][0]
                    break
        if observer is not None:
            break
    assert observer is not None
    view = view_of(rec, observer, j + 1)
    assert view.moves[j] != rest[0]
    view.moves[j] = rest[0]
    reply = handle_line(json.dumps({"cmd": "legal", "view": view.to_text()}))
    assert reply["ok"] is False and "\n" not in reply["error"]
    assert "cannot hold" in reply["error"] and "void" in reply["error"], reply


def test_protocol_view_errors():
    assert "[Deal " not in view_of(played("coinche", {}, seed=1), 2).to_text()
    reply = handle_line(json.dumps({"cmd": "legal", "view": {"game": "coinche", "seat": 0,
                                                              "hand": ["JH"]}}))
    assert reply["ok"] is False and "hand has 1 cards" in reply["error"]
    reply = handle_line(json.dumps({"cmd": "legal", "view": "[Game \"coinche\"]"}))
    assert reply["ok"] is False and "Seat" in reply["error"]


def test_a_view_where_a_record_goes(tmp_path):
    """``atout move FILE`` (the protocol's ``record``) takes a view file as well."""
    from solver.cli import main

    text = ('[Game "coinche"][Dealer "0"][Seat "1"][Hand "KH QH TH AD JD 8D KC 9C"]'
            '[Moves "pass bid:80:S pass pass"]')
    reply = handle_line(json.dumps({"cmd": "move", "record": text, "agent": "heuristic"}))
    assert reply["ok"] and reply["seat"] == 1, reply
    path = tmp_path / "view.txt"
    path.write_text(text)
    main(["move", str(path), "--agent", "heuristic", "--json"])
