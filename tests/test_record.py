"""Game records: the format's example, every kind of invalid record, replay of played rounds."""
import copy
import random

import pytest

from solver import errors
from solver.core.player import Player
from solver.play.bots import GreedyBot, RandomBot
from solver.play.runner import play_round
from solver.core.record import record_view, replay, replay_steps
from solver.errors import CardNotInHandError, RowChoiceError, TooManyTurnsError, TurnFormatError
from solver.core.position import Position
from solver.core.rules import GameConfig
from tests.support import RECORD_EXAMPLE


def test_spec_record_replays():
    final = replay(RECORD_EXAMPLE)
    assert final.to_dict() == {
        "deck": 24,
        "rows": [[5, 14], [3, 12, 13], [17], [20]],
        "hands": [[1, 2, 4, 6, 7, 8, 9, 10], [15, 16, 18, 19, 21, 22, 23, 24]],
        "penalties": [5, 0],
    }


def test_missing_row_choice_takes_cheapest_row_lowest_index():
    record = copy.deepcopy(RECORD_EXAMPLE)
    del record["turns"][0]["row_choices"]
    # rows 5 (2 bullheads), 11 (5), 17 (1), 20 (3): the cheapest is row 2
    start, outcomes = replay_steps(record)
    assert outcomes[0].chosen_rows == (2, None)
    assert outcomes[0].taken == ((17,), ())
    record["rows"] = [[5], [11], [17], [21]]   # 17 and 21 both 1 bullhead: row 2, the lowest
    record["hands"][1][record["hands"][1].index(21)] = 20
    assert replay_steps(record)[1][0].chosen_rows == (2, None)


def test_starting_penalties_are_kept():
    record = dict(RECORD_EXAMPLE, penalties=[3, 4])
    assert replay(record).penalties == (8, 4)


def test_empty_record_is_the_start():
    record = dict(RECORD_EXAMPLE, turns=[])
    assert replay(record).rows == ((5,), (11,), (17,), (20,))


def _with_turns(*turns):
    return dict(RECORD_EXAMPLE, turns=list(turns))


def _hidden(seat, *turns):
    """The example record as the other player saw it: seat `seat`'s hand hidden."""
    hands = [None if k == seat else hand for k, hand in enumerate(RECORD_EXAMPLE["hands"])]
    return dict(RECORD_EXAMPLE, hands=hands, turns=list(turns))


@pytest.mark.parametrize("record, error, words", [
    (_with_turns({"cards": [5, 14]}), CardNotInHandError, "5"),
    (_with_turns({"cards": [3, 14]}, {"cards": [3, 13]}), CardNotInHandError, "3"),
    (_with_turns({"cards": [14, 3]}), CardNotInHandError, "14"),
    (_with_turns({"cards": [3, 14], "row_choices": [1, 2]}), RowChoiceError, "row choice 2"),
    (_with_turns({"cards": [12, 14], "row_choices": [0, None]}), RowChoiceError, "12"),
    (_with_turns({"cards": [3, 14], "row_choices": [4, None]}), RowChoiceError, "4"),
    (_with_turns({"cards": [3, 14], "row_choices": ["1", None]}), RowChoiceError, '"1"'),
    (_with_turns({"cards": [3, 14], "row_choices": [1]}), TurnFormatError, "row_choices"),
    (_with_turns({"cards": [3]}), TurnFormatError, "[3]"),
    (_with_turns({"cards": [3, 14, 15]}), TurnFormatError, "2 cards"),
    (_with_turns({"cards": 3}), TurnFormatError, "3"),
    (_with_turns({"card": [3, 14]}), TurnFormatError, "cards"),
    (_with_turns({"cards": [3, 14], "row_choice": [1, None]}), TurnFormatError,
     'unknown key "row_choice" in turn 1 (did you mean "row_choices"?)'),
    (_with_turns([3, 14]), TurnFormatError, "[3, 14]"),
    (_with_turns({"cards": [3, "x"]}), errors.CardError, '"x"'),
    (_with_turns({"cards": [3, True]}), errors.CardError, "true"),
    (dict(RECORD_EXAMPLE, turns={"cards": [3, 14]}), TurnFormatError, "list"),
    (_with_turns(*[{"cards": [1, 13]}] * 11), TooManyTurnsError, "11 turns"),
    ({k: v for k, v in RECORD_EXAMPLE.items() if k != "turns"}, errors.MissingKeyError, "turns"),
    ({k: v for k, v in RECORD_EXAMPLE.items() if k != "rows"}, errors.MissingKeyError, "rows"),
    (_hidden(1, {"cards": [3, 4]}), CardNotInHandError, "4, which is in the hand of player 1"),
    (_hidden(1, {"cards": [3, 11]}), CardNotInHandError, "11, which is in row 1"),
    (_hidden(1, {"cards": [3, 14]}, {"cards": [12, 17]}), CardNotInHandError,
     "17, which is out of play"),
    (_hidden(1, {"cards": [3, 25]}), CardNotInHandError, "25, which is outside the deck"),
    (_hidden(0, {"cards": [15, 15]}), CardNotInHandError, "15, which is in the hand of player 2"),
    (dict(_hidden(1, {"cards": [3, 14]}), played=[14]), CardNotInHandError, "14, which is out"),
    (dict(RECORD_EXAMPLE, hands=[[1, 2], [13]]), errors.HandSizeError, "sizes"),
    ([1, 2], errors.JsonFormatError, "object"),
    (dict(RECORD_EXAMPLE, penalty=[0, 0]), errors.UnknownKeyError,
     'unknown key "penalty" in record (did you mean "penalties"?); the keys are deck, rows,'
     ' hands, penalties, turns'),
])
def test_invalid_records_are_refused(record, error, words):
    with pytest.raises(error) as info:
        replay(record)
    assert words in str(info.value)
    assert isinstance(info.value, errors.NimmtError)


@pytest.mark.parametrize("players", range(2, 11))
def test_played_rounds_replay_to_the_same_table(players):
    rng = random.Random(players)
    for deck in (104, 10 * players + 4):
        config = GameConfig(players=players, deck=deck)
        bots = [GreedyBot() if k % 2 else RandomBot(rng.random()) for k in range(players)]
        result = play_round(config, bots, rng)
        assert replay(result.record) == result.final
        assert sum(result.final.penalties) == sum(result.penalties)


def test_hidden_hand_record_replays_to_the_visible_part_of_the_full_one():
    full = replay(RECORD_EXAMPLE)
    seen_by_1 = replay(_hidden(1, *RECORD_EXAMPLE["turns"]))
    assert seen_by_1.hands == (full.hands[0], None)
    assert (seen_by_1.rows, seen_by_1.penalties) == (full.rows, full.penalties)
    # row 1 (11) was taken by 3: the cards out of play are known, so they are never dealt
    assert seen_by_1.played == (11,)
    seen_by_2 = replay(dict(_hidden(0, *RECORD_EXAMPLE["turns"]), viewer=2, scores=[7, 9]))
    assert seen_by_2.hands == (None, full.hands[1])
    assert seen_by_2.extra == {"viewer": 2, "scores": [7, 9], "played": [11]}


def test_record_notes_are_not_carried_to_the_position_after():
    after = replay(dict(RECORD_EXAMPLE, description="a note", value=1.0, scores=[1, 2]))
    assert after.extra == {"scores": [1, 2]}


def test_another_tools_keys_are_notes_in_a_record_and_its_turns():
    """The format lets files add keys: a record from another engine may carry its own."""
    turns = [dict(turn, note="x", taken=[0, 0]) for turn in RECORD_EXAMPLE["turns"]]
    noted = dict(RECORD_EXAMPLE, turns=turns, engine="another", seed=3, names=["a", "b"])
    assert replay(noted) == replay(RECORD_EXAMPLE)


class _Watcher(Player):
    """Plays like `inner` and keeps every view it is shown before a card."""

    def __init__(self, inner):
        self.inner, self.views = inner, []

    def choose_card(self, view):
        self.views.append(view)
        return self.inner.choose_card(view)

    def choose_row(self, view, card):
        return self.inner.choose_row(view, card)


@pytest.mark.parametrize("players", [2, 4, 10])
def test_record_view_is_the_view_the_game_showed(players):
    """The view rebuilt from a record with the other hands hidden, turn by turn, is the one
    the game gave the seat: every card, rows, penalties, row choices, turn."""
    rng = random.Random(players)
    config = GameConfig(players=players)
    seat = players - 1
    bots = [RandomBot(rng.random()) for _ in range(players)]
    bots[seat] = _Watcher(GreedyBot())
    record = play_round(config, bots, rng).record
    hands = [hand if k == seat else None for k, hand in enumerate(record["hands"])]
    for t, shown in enumerate(bots[seat].views):
        start, outcomes = replay_steps(dict(record, hands=hands, turns=record["turns"][:t]))
        assert record_view(start, outcomes) == shown
        assert record_view(start, outcomes, seat) == shown


def test_record_view_of_a_hidden_hand_is_refused():
    start, outcomes = replay_steps(_hidden(1, *RECORD_EXAMPLE["turns"]))
    with pytest.raises(errors.RecordError, match="player 2's hand is hidden"):
        record_view(start, outcomes, 1)


@pytest.mark.parametrize("key", ["row", "rows", "chosen_rows"])
def test_a_row_choice_under_another_name_is_refused_not_ignored(key):
    turns = [dict(RECORD_EXAMPLE["turns"][0])] + list(RECORD_EXAMPLE["turns"][1:])
    turns[0][key] = turns[0].pop("row_choices", [None, None])
    with pytest.raises(TurnFormatError, match=f'unknown key "{key}" in turn 1 .*row_choices'):
        replay(dict(RECORD_EXAMPLE, turns=turns))


def test_penalties_at_the_limit_are_read_and_turns_may_pass_it():
    """1,000,000 is the most a position read may give; its turns add to it (a round holds at
    most 171 bullheads), so a record or solve from there plays on."""
    record = dict(RECORD_EXAMPLE, penalties=[1_000_000] * len(RECORD_EXAMPLE["hands"]))
    after = replay(record)
    assert min(after.penalties) >= 1_000_000 and max(after.penalties) > 1_000_000
    with pytest.raises(errors.PenaltyError, match="penalty 1000001 is more than 1,000,000"):
        replay(dict(record, penalties=[1_000_001] * len(RECORD_EXAMPLE["hands"])))
    with pytest.raises(errors.PenaltyError, match="is more than 1,000,000"):
        Position.from_json(after.to_json())           # read back: the limit of a position read


def test_a_record_s_notes_never_reach_the_position_after_it():
    """Keys a record does not read are not carried, whether it replays turns or none."""
    from solver.core.record import position_after, replay_steps
    record = {"deck": 24, "rows": [[3], [7], [12], [21]], "hands": [[1], [4]], "engine": "x",
              "scores": [3, 4]}
    for turns in ([], [{"cards": [1, 4]}]):
        after = position_after(*replay_steps(dict(record, turns=turns)))
        assert "engine" not in after.extra and after.extra["scores"] == [3, 4]
