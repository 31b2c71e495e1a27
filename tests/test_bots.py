"""Bots, their registry, and tournaments."""
import pytest

from solver.bots import BOTS, GreedyBot, card_risk, make_bot, parse_bot_names
from solver.errors import ConfigError
from solver.game import PlayerView
from solver.rules import GameConfig, cheapest_row, row_bullheads
from solver.tournament import lineup, mean_ci95, run_tournament


def view(rows, hands, revealed=None, config=GameConfig.variant(2)):
    return PlayerView(config, 0, tuple(map(tuple, rows)), tuple(hands[0]), (), (),
                      (0,) * config.players, (0,) * config.players, 0, revealed)


def test_greedy_row_choice_looks_past_the_cheapest_row():
    # Taking row 0 (2 bullheads) lets 20 make row 1 five long: our 22 would take it next turn.
    # Row 1 (5 bullheads) costs less in all.
    rows = [[4, 16], [1, 6, 15, 18], [2, 8, 23], [9, 12]]
    v = view(rows, [[5, 22], [7, 20]], revealed=(5, 20))
    assert cheapest_row(rows) == 0
    assert GreedyBot().choose_row(v, 5) == 1


def test_greedy_avoids_the_sixth_card():
    rows = [[10, 11, 12, 13, 14], [30], [50], [70]]
    # 15 would surely be the 6th card on row 0 (no unseen card in between can take it first)
    assert card_risk(rows, 15, unseen=[40, 60], opponents=1) == row_bullheads(rows[0])
    assert GreedyBot().choose_card(view(rows, [[15, 31], [40, 60]])) == 31


def test_registry_and_names():
    assert set(BOTS) >= {"random", "greedy"}
    assert parse_bot_names("random, greedy") == ["random", "greedy"]
    with pytest.raises(ConfigError, match="nobody"):
        parse_bot_names("random,nobody")
    assert make_bot("random", 3).choose_card(view([[1], [2], [3], [4]], [[9, 10]])) in (9, 10)


def test_lineup_rotates_seats():
    assert [lineup(["a", "b", "c"], 3, g) for g in range(3)] == [
        ["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"]]
    assert lineup(["a", "b"], 4, 1) == ["b", "a", "b", "a"]


def test_mean_ci95():
    assert mean_ci95([]) == (0.0, 0.0, 0.0)
    assert mean_ci95([3]) == (3, 3, 3)
    mean, lo, hi = mean_ci95([1, 2, 3, 4])
    assert mean == 2.5 and lo < 2.5 < hi and hi - 2.5 == pytest.approx(1.959964 * 1.2909944 / 2)


def test_tournament_is_deterministic_and_greedy_beats_random():
    config = GameConfig(players=4)
    first = run_tournament(config, ["random", "greedy"], 20, seed=1)
    assert first == run_tournament(config, ["random", "greedy"], 20, seed=1)
    random_bot, greedy = first["bots"]
    assert greedy["mean_penalty_per_round"] < random_bot["mean_penalty_per_round"]
    assert greedy["ci95"][1] < random_bot["ci95"][0]
    # with 4 seats, each bot holds 2 seats a game: win rates per seat add up to 1/2 each
    assert random_bot["win_rate"] + greedy["win_rate"] == pytest.approx(0.5)
    assert random_bot["seat_games"] == greedy["seat_games"] == 40


def test_tournament_refuses_bad_arguments():
    with pytest.raises(ConfigError):
        run_tournament(GameConfig(), [], 3)
    with pytest.raises(ConfigError):
        run_tournament(GameConfig(), ["random"], 0)
