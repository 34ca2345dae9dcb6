"""Deal and record notation: text and JSON round trips, errors naming token and position."""

import json
import random

import pytest

from solver import NotationError
from solver.cards import BELOTE_DECK, TAROT_DECK
from solver.notation import Deal, Record, parse_record
from solver.options import parse_options


def random_tarot_deal(seed):
    cards = list(range(78))
    random.Random(seed).shuffle(cards)
    return Deal([cards[i * 18:(i + 1) * 18] for i in range(4)], {"dog": cards[72:]})


@pytest.mark.parametrize("seed", range(20))
def test_deal_text_round_trip(seed):
    deal = random_tarot_deal(seed)
    text = deal.to_text(TAROT_DECK)
    back = Deal.from_text(text, TAROT_DECK)
    assert [sorted(h) for h in back.hands] == [sorted(h) for h in deal.hands]
    assert back.extras["dog"] == deal.extras["dog"]  # extra piles keep their order
    assert back.to_text(TAROT_DECK) == text


def test_record_round_trip_text_and_json():
    rec = Record("tarot", {"players": 4, "poignee_bonuses": (20, 40, 60)}, 3,
                 random_tarot_deal(1), ["pass", "garde", "pass", "pass"])
    text = rec.to_text()
    assert parse_record(text).to_text() == text
    js = json.dumps(rec.to_json())
    assert parse_record(js).to_text() == text
    assert parse_record(js).to_json() == rec.to_json()


def test_deal_error_names_token_and_position():
    text = "7S 8S / 9S XX"
    with pytest.raises(NotationError) as err:
        Deal.from_text(text, BELOTE_DECK)
    assert "'XX'" in str(err.value)
    assert err.value.position == text.index("XX")


def test_record_error_position_is_in_the_whole_line():
    rec = Record("belote", {}, 0, Deal([[0, 1], [2, 3]], {"stock": [4]}))
    text = rec.to_text().replace("8S", "8Z")
    with pytest.raises(NotationError) as err:
        Record.from_text(text)
    assert err.value.position == text.index("8Z")


def test_card_dealt_twice_is_rejected():
    with pytest.raises(NotationError, match="twice"):
        Deal.from_text("7S 8S / 7S", BELOTE_DECK)


@pytest.mark.parametrize("text", ["", "[Game \"chess\"][Deal \"\"]", "garbage",
                                  "[Game \"tarot\"]", "{\"game\": 3}", "{bad json"])
def test_garbage_records_raise_notation_error(text):
    with pytest.raises(NotationError):
        parse_record(text)


def test_options_text():
    assert parse_options("players=5,poignee_bonuses=[20,40,60],misere=on") == {
        "players": 5, "poignee_bonuses": (20, 40, 60), "misere": "on"}
