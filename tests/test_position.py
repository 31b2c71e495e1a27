"""Positions: every invalid input refused with its own exception class; JSON and notation."""
import json

import pytest
from hypothesis import given, strategies as st

from solver import errors
from solver.core.position import Position
from tests.support import load_position_file, spec_position

GOOD = spec_position(load_position_file("spec_exchange_example.json"))


def changed(**changes):
    data = json.loads(json.dumps(GOOD))
    data.update(changes)
    return data


@pytest.mark.parametrize("data, error", [
    ("rows", errors.JsonFormatError),
    ({"hands": GOOD["hands"]}, errors.MissingKeyError),
    ({"rows": GOOD["rows"]}, errors.MissingKeyError),
    (changed(rows=GOOD["rows"] + [[22]]), errors.RowCountError),
    (changed(rows=GOOD["rows"][:3]), errors.RowCountError),
    (changed(rows=[[3, 10], [7], [9, 11, 12, 15, 16, 18], [21]]), errors.RowLengthError),
    (changed(rows=[[3, 10], [], [12, 15, 18], [21]]), errors.RowLengthError),
    (changed(rows=[[10, 3], [7], [12, 15, 18], [21]]), errors.RowOrderError),
    (changed(rows=[[3, 3], [7], [12, 15, 18], [21]]), errors.RowOrderError),
    (changed(hands=[[0, 2, 4], [5, 6, 8]]), errors.CardError),
    (changed(deck=104, hands=[[105, 2, 4], [5, 6, 8]]), errors.CardError),
    (changed(hands=[["x", 2, 4], [5, 6, 8]]), errors.CardError),
    (changed(hands=[[1.5, 2, 4], [5, 6, 8]]), errors.CardError),
    (changed(hands=[[True, 2, 4], [5, 6, 8]]), errors.CardError),
    (changed(hands=[[1, 2, 4], [5, 6, 21]]), errors.DuplicateCardError),
    (changed(hands=[[1, 2, 4], [5, 6]]), errors.HandSizeError),
    (changed(deck=104, hands=[list(range(30, 41)), list(range(41, 52))]), errors.HandSizeError),
    (changed(hands=[[1, 2, 4]], penalties=[0]), errors.PlayerCountError),
    (changed(deck=104, hands=[[30 + k] for k in range(11)], penalties=[0] * 11),
     errors.PlayerCountError),
    (changed(penalties=[0, -1]), errors.PenaltyError),
    (changed(penalties=[0]), errors.PenaltyError),
    (changed(penalties=[0, 1_000_001]), errors.PenaltyError),
    (changed(penalties=[2 ** 31, 0]), errors.PenaltyError),
    (changed(deck=3), errors.DeckError),
    (changed(played="x"), errors.PositionError),
    (changed(played=[[9, 30]]), errors.CardError),
    (changed(played=[[9, 11], [13, 1]]), errors.DuplicateCardError),      # 1 is in a hand
    (changed(played=[9, 11, 9]), errors.DuplicateCardError),
])
def test_invalid_positions_raise_their_class(data, error):
    with pytest.raises(error):
        Position.from_dict(data)
    assert issubclass(error, ValueError)


def test_a_deeply_nested_value_is_quoted_short():
    deep = 1
    for _ in range(100_000):           # far deeper than json.dumps can write
        deep = [deep]
    with pytest.raises(errors.CardError) as info:
        Position.from_dict(changed(rows=[[deep], [7], [12, 15, 18], [21]]))
    assert "card [[[[" in str(info.value) and len(str(info.value)) < 100


def test_an_optional_key_json_cannot_write_is_refused_not_written_otherwise():
    deep = 1
    for _ in range(100_000):
        deep = [deep]
    for value, words in ((float("inf"), "number beyond"), (deep, "nested too deeply")):
        with pytest.raises(errors.JsonFormatError, match=words):
            Position.from_dict(changed(description=value)).to_json()


def test_bad_json_and_notation():
    with pytest.raises(errors.JsonFormatError):
        Position.from_json("{")
    with pytest.raises(errors.NotationError):
        Position.from_text("24; 3 10, 7")


@pytest.mark.parametrize("text, words", [
    ("24; 3, 7, 12, 21; ,", "hand 1 is blank"),
    ("24; 3, 7, 12, 21; 1 2 4, 5 6 8,", "hand 3 is blank"),
    ("24; 3,, 12, 21; 1, 2", "row 1 is blank"),
])
def test_nothing_between_commas_is_refused(text, words):
    with pytest.raises(errors.NotationError, match=words):
        Position.from_text(text)
    assert Position.from_text("24; 3, 7, 12, 21; -, -").hands == ((), ())


def test_a_key_twice_is_refused():
    with pytest.raises(errors.JsonFormatError, match="'deck' given twice"):
        Position.from_json('{"deck": 24, "rows": [[3], [7], [12], [21]], "hands": [[1], [2]],'
                           ' "deck": 30}')


def test_played_cards_flat_or_by_turn():
    assert Position.from_dict(changed(played=[[9, 11], [13, 14]])).played == (9, 11, 13, 14)
    assert Position.from_dict(changed(played=[9, 11])).played == (9, 11)
    assert Position.from_dict(GOOD).played == ()


def test_json_and_notation_round_trip():
    position = Position.from_dict(GOOD)
    assert Position.from_json(position.to_json()) == position
    assert position.to_text() == "24; 3 10, 7, 12 15 18, 21; 1 2 4, 5 6 8; 0 0"
    assert Position.from_text(position.to_text()) == position


@given(st.randoms(use_true_random=False), st.integers(2, 10), st.integers(0, 10),
       st.booleans())
def test_notation_round_trips_random_positions(rng, players, size, hide):
    size = min(size, (104 - 12) // players)
    cards = rng.sample(range(1, 105), players * size + 12)
    base = players * size
    rows = [sorted(cards[base + 3 * r:base + 3 * r + rng.randint(1, 3)]) for r in range(4)]
    hands = [cards[k * size:(k + 1) * size] for k in range(players)]
    if hide:
        hands[-1] = None
    position = Position.create(rows, hands, [rng.randint(0, 30) for _ in hands])
    assert Position.from_text(position.to_text()) == position
    assert Position.from_json(position.to_json()) == position


def test_a_played_card_on_a_row_is_refused():
    data = {"deck": 24, "rows": [[3, 10], [7], [12, 15, 18], [21]],
            "hands": [[1, 2, 4], [5, 6, 8]], "played": [3]}
    with pytest.raises(errors.DuplicateCardError, match="card 3 is both played and on a row"):
        Position.from_dict(data)
