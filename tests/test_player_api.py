"""The Python API of seats and tables: the view at a row choice, the earlier row choices in a
view, integer types a bot may answer, bots of one's own in a tournament, and `play_round`
finishing a position without an rng."""
import dataclasses
import json
import random

import numpy as np
import pytest

from solver import errors
from solver.core.player import Player
from solver.core.position import Position
from solver.core.rules import GameConfig
from solver.play.bots import RandomBot
from solver.play.runner import play_round
from solver.play.tournament import run_tournament

CONFIG = GameConfig(players=2)
# player 1's cards are lower than every row end: played highest first, each takes a row by
# choice (the one taken holds the card after it)
START = Position.create([[50], [60], [70], [80]], [[1, 2, 3], [90, 91, 92]])


class Recorder(Player):
    """Plays its highest card, takes row `row`, and keeps every view it is shown."""
    name = "recorder"

    def __init__(self, row=2):
        self.row, self.card_views, self.row_views = row, [], []

    def choose_card(self, view):
        self.card_views.append(view)
        return max(view.hand)

    def choose_row(self, view, card):
        self.row_views.append((view, card))
        return self.row


class Lowest(Player):
    def choose_card(self, view):
        return min(view.hand)


def test_the_view_at_a_row_choice_no_longer_holds_the_card_played():
    me = Recorder()
    play_round(CONFIG, [me, Lowest()], random.Random(0), start=START)
    view, card = me.row_views[0]
    assert card == 3 and view.revealed == (3, 90)
    assert view.hand == (1, 2) and 3 not in view.hand
    assert view.hand_sizes == (2, 2)
    assert 3 not in view.unseen() and 90 not in view.unseen()
    last_view, last_card = me.row_views[-1]
    assert last_card == 1 and last_view.hand == () and last_view.hand_sizes == (0, 0)
    assert me.card_views[0].hand == (1, 2, 3) and me.card_views[0].hand_sizes == (3, 3)


def test_a_view_holds_the_rows_chosen_in_earlier_turns():
    me, other = Recorder(row=2), Recorder(row=0)      # other's cards are never too low
    play_round(CONFIG, [me, other], random.Random(0), start=START)
    assert len(me.row_views) == 3 and other.row_views == []
    assert me.card_views[0].row_choices == ()
    assert me.card_views[1].row_choices == ((2, None),)
    assert other.card_views[2].row_choices == ((2, None), (2, None))
    assert me.row_views[1][0].row_choices == ((2, None),)      # at a row choice too


class NumpyBot(Player):
    """Answers numpy integers, as a bot computing with numpy would."""
    name = "numpy"

    def choose_card(self, view):
        return np.array(view.hand)[np.argmin(view.hand)]

    def choose_row(self, view, card):
        return np.int8(3)


def test_numpy_integers_are_taken_as_ints():
    result = play_round(CONFIG, [NumpyBot(), Lowest()], random.Random(0), start=START)
    turns = result.record["turns"]
    assert turns[0] == {"cards": [1, 90], "row_choices": [3, None]}
    assert all(type(c) is int for t in turns for c in t["cards"])
    json.dumps(result.record)


@pytest.mark.parametrize("card, row, shown", [
    ("1", 0, "'1'"), (1.0, 0, "1.0"), (None, 0, "None"), (True, 0, "True"),
    (1, "2", "'2'"), (1, 2.0, "2.0"), (1, np.float64(1.0), "1.0"), (1, None, "None")])
def test_other_answers_are_illegal_moves_naming_the_bot_and_value(card, row, shown):
    class Odd(Player):
        name = "odd-bot"

        def choose_card(self, view):
            return card

        def choose_row(self, view, played):
            return row

    with pytest.raises(errors.IllegalMoveError) as caught:
        play_round(CONFIG, [Odd(), Lowest()], random.Random(0), start=START)
    assert "odd-bot" in str(caught.value) and shown in str(caught.value)


class LowestBot(Player):
    """A bot of one's own, defined outside the registry."""
    name = "lowest"

    def __init__(self, seed=None):
        self.seed = seed

    def choose_card(self, view):
        return min(view.hand)


def test_a_tournament_seats_a_bot_of_ones_own():
    config = GameConfig(players=3)
    summary = run_tournament(config, [("lowest", LowestBot), "random"], games=4, seed=1)
    assert [b["name"] for b in summary["bots"]] == ["lowest", "random"]
    assert all(b["seat_games"] > 0 for b in summary["bots"])
    # forked workers take any factory, a lambda too, and give the same result
    again = run_tournament(config, [("lowest", lambda seed: LowestBot(seed)), "random"],
                           games=4, seed=1, jobs=2)
    assert again == summary


def test_a_factory_is_given_a_seed_per_seat_and_game():
    seeds = []

    def factory(seed):
        seeds.append(seed)
        return RandomBot(seed)

    run_tournament(GameConfig(players=2), [("mine", factory)], games=3, seed=7)
    assert len(seeds) == 6 and len(set(seeds)) == 6 and all(isinstance(s, int) for s in seeds)


@pytest.mark.parametrize("bots, words", [
    ([("a", LowestBot), ("a", RandomBot)], "two different bots"),
    ([("a",)], "spec string or a pair"),
    ([("a", "not callable")], "spec string or a pair"),
    ([42], "spec string or a pair"),
    (["nobody"], "unknown bot"),
])
def test_bad_bots_are_refused(bots, words):
    with pytest.raises(errors.ConfigError, match=words):
        run_tournament(GameConfig(players=2), bots, games=1)


def test_play_round_finishes_a_position_without_an_rng():
    result = play_round(CONFIG, [Lowest(), Lowest()], start=START)
    assert result.final.hand_size == 0 and len(result.record["turns"]) == 3
    with pytest.raises(TypeError, match="rng"):
        play_round(CONFIG, [Lowest(), Lowest()])


def test_play_round_plays_given_turns_first_and_shows_them_as_earlier_turns():
    from solver.core.turn import Turn
    me = Recorder(row=1)
    first = Turn((3, 92), (0, None))             # player 1's 3 takes row 0 by choice
    result = play_round(CONFIG, [me, Lowest()], start=START, turns=[first])
    assert result.record["turns"][0] == {"cards": [3, 92], "row_choices": [0, None]}
    assert len(result.record["turns"]) == 3 and len(me.card_views) == 2
    view = me.card_views[0]
    assert view.turn == 1 and view.played == ((3, 92),) and view.row_choices == ((0, None),)
    assert view.hand == (1, 2) and view.start_rows == START.rows
    assert result.penalties == result.final.penalties     # the given turn's bullheads too
    assert result.penalties[0] >= 3                       # 50 (3 bullheads) taken by the 3
    with pytest.raises(errors.ConfigError, match="4 turns given for a round of 3"):
        play_round(CONFIG, [me, Lowest()], start=START, turns=[first] * 4)
    with pytest.raises(errors.TurnFormatError, match="1 row choices for 2 cards"):
        play_round(CONFIG, [me, Lowest()], start=START, turns=[Turn((3, 92), (0,))])


def test_a_later_round_s_record_rebuilds_the_views_its_bots_were_shown():
    from solver.core.record import record_view, replay_steps
    from solver.play.runner import play_game

    class Spy(Recorder):
        def round_over(self, record, penalties):
            self.records = getattr(self, "records", []) + [(record, list(self.card_views))]
            self.card_views.clear()

    spy = Spy()
    play_game(GameConfig(players=3, threshold=30), [spy, RandomBot(1), Lowest()], 7)
    assert len(spy.records) >= 2
    for record, shown in spy.records[1:]:      # rounds after the first: totals not 0
        assert any(record["scores"])
        for t, view in enumerate(shown):
            start, outcomes = replay_steps(dict(record, turns=record["turns"][:t]))
            rebuilt = record_view(start, outcomes, seat=0)     # a record has no threshold
            assert rebuilt == dataclasses.replace(view, config=rebuilt.config)


def test_apply_turn_takes_row_choices_0_to_3_of_any_integer_type_only():
    from solver.core.turn import Turn, apply_turn
    position = Position.from_text("24; 3 10, 7, 12 15 18, 21; 1 2 4, 5 6 8")
    outcome = apply_turn(position, Turn((2, 5), (np.int64(1), None)))
    assert outcome.chosen_rows == (1, None) and type(outcome.chosen_rows[0]) is int
    for bad, shown in ((7, "7"), (True, "true"), (1.0, "1.0")):
        with pytest.raises(errors.RowChoiceError,
                           match=f"turn 1: player 1's row choice must be a row 0..3 or null,"
                                 f" got {shown}"):
            apply_turn(position, Turn((2, 5), (bad, None)))


def test_an_engine_refuses_a_position_outside_its_round_and_a_limit_has_no_fake_bounds():
    from solver.exact import Engine, solve
    from solver.limits import Limit
    root = Position.from_text("24; 3 10, 7, 12 15 18, 21; 1 2 4, 5 6 8")
    with Engine(root) as engine:
        with pytest.raises(errors.NimmtError, match="card 3 .* is not one of the root's"):
            engine.solve(Position.from_text("24; 9, 14, 16, 24; 3 10, 1 11"))
    big = Position.from_text("24; 3 10, 7, 12 15 18, 21; 1 2 4 9 13 16, 5 6 8 11 14 17")
    with pytest.raises(errors.SearchLimitError, match="no bounds proven yet") as stopped:
        solve(big, Limit(nodes=5))
    assert stopped.value.bounds == (None, None)


def test_position_create_takes_tuples_and_numpy_arrays():
    position = Position.create(np.array([[3], [7], [12], [21]]), [np.array([1, 2, 4]), (5, 6, 8)],
                               np.zeros(2, dtype=int), deck=24)
    assert position == Position.from_text("24; 3, 7, 12, 21; 1 2 4, 5 6 8; 0 0")
    assert all(type(c) is int for hand in position.hands for c in hand)
