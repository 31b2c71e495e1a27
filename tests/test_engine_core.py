"""The C rules core and random-play simulator against the pure-Python reference."""
import random

import numpy as np
import pytest

from solver._rules import c_bullheads, c_play_turn, c_random_turn, play_turns, random_rounds
from solver.errors import ConfigError
from solver.play.runner import random_round_penalties
from solver.core.rules import GameConfig, bullheads, fewest_bullheads_chooser, play_turn, row_bullheads


def test_c_bullheads_table_matches_the_rule():
    assert [c_bullheads(c) for c in range(1, 105)] == [bullheads(c) for c in range(1, 105)]
    assert sum(c_bullheads(c) for c in range(1, 105)) == 171


def random_rounds_of_turns(rng, rounds):
    """Random rounds (2..10 players, both decks): every turn with random cards and random
    row choices, as (rows, cards, choices)."""
    for _ in range(rounds):
        players = rng.randint(2, 10)
        deck = rng.choice([104, 10 * players + 4])
        cards = rng.sample(range(1, deck + 1), 10 * players + 4)
        hands = [cards[k * 10:(k + 1) * 10] for k in range(players)]
        rows = [[c] for c in cards[10 * players:]]
        for turn in range(10):
            played = [hand.pop(rng.randrange(len(hand))) for hand in hands]
            choices = [rng.choice([None, 0, 1, 2, 3]) for _ in played]
            yield rows, played, choices
            rows, _ = play_turn(rows, played, lambda k, rows, card: chosen(choices[k], rows))


def chosen(choice, rows):
    return fewest_bullheads_chooser(0, rows, 0) if choice is None else choice


def test_c_core_matches_reference_on_10000_random_turns():
    rng = random.Random(2024)
    turns = too_low = 0
    for rows, cards, choices in random_rounds_of_turns(rng, 1000):
        expected_rows, taken = play_turn(rows, cards, lambda k, rows, card: chosen(choices[k], rows))
        assert c_play_turn(rows, cards, choices) == (expected_rows, [row_bullheads(t) for t in taken])
        turns += 1
        too_low += min(cards) < min(r[-1] for r in rows)
    assert turns == 10000 and too_low > 500   # row choices really were exercised


def test_play_turns_is_the_reference_turn_on_many_tables():
    """The batch form (rows as [P, 4, 5] arrays, changed in place; a too-low card takes
    the cheapest row, or the row of `choices`) resolves every table as the Python rules do,
    seat counts 2..10 by groups; bad tables are refused with a ValueError."""
    by_players = {}
    for rows, cards, choices in random_rounds_of_turns(random.Random(7), 600):
        by_players.setdefault(len(cards), []).append((rows, cards, choices))
    for players, turns in by_players.items():
        for given in (False, True):
            table = np.zeros((len(turns), 4, 5), dtype=np.int8)
            for i, (rows, _, _) in enumerate(turns):
                for r, row in enumerate(rows):
                    table[i, r, :len(row)] = row
            cards = np.array([cards for _, cards, _ in turns])
            rows_chosen = np.array([[-1 if c is None else c for c in choices]
                                    for _, _, choices in turns])
            taken = (play_turns(table, cards, rows_chosen) if given
                     else play_turns(table, cards))
            for i, (rows, cards, choices) in enumerate(turns):
                expected_rows, took = play_turn(
                    rows, cards, lambda k, rows, card: chosen(choices[k] if given else None,
                                                              rows))
                assert [[int(c) for c in row if c] for row in table[i]] == expected_rows
                assert taken[i].tolist() == [row_bullheads(t) for t in took]
    good = np.array([[[1, 0, 0, 0, 0], [20, 0, 0, 0, 0], [30, 0, 0, 0, 0], [40, 0, 0, 0, 0]]],
                    dtype=np.int8)
    for rows, cards in ((good, [[0, 5]]), (good, [[105, 5]]), (good, [[5] * 11]),
                        (good[:, :3].copy(), [[5, 6]]), (np.zeros_like(good), [[5, 6]]),
                        (good, [[5, 6], [7, 8]])):
        with pytest.raises(ValueError):
            play_turns(rows, np.array(cards))
    for choices in ([[4, -1]], [[-2, 0]], [[0, 0, 0]]):
        with pytest.raises(ValueError):
            play_turns(good.copy(), np.array([[5, 6]]), np.array(choices))


@pytest.mark.parametrize("players", range(2, 11))
def test_c_random_turn_matches_reference(players):
    rng = random.Random(players)
    for _ in range(200):
        cards = rng.sample(range(1, 105), 10 * players + 4)
        size = rng.randint(1, 10)
        hands = [cards[k * 10:k * 10 + size] for k in range(players)]
        rows = [[c] for c in cards[10 * players:]]
        played, rows_after, taken = c_random_turn(rows, hands, rng.getrandbits(64))
        assert all(card in hand for card, hand in zip(played, hands))
        expected_rows, expected_taken = play_turn(rows, played, fewest_bullheads_chooser)
        assert rows_after == expected_rows
        assert taken == [row_bullheads(t) for t in expected_taken]


def test_random_rounds_are_deterministic_and_seeded():
    first = random_rounds(3, 1000, seed=5)
    assert first.dtype == np.int64 and first.shape == (3,)
    assert list(first) == list(random_rounds(3, 1000, seed=5))
    assert list(first) != list(random_rounds(3, 1000, seed=6))
    assert list(random_rounds(2, 0, seed=1)) == [0, 0]


@pytest.mark.parametrize("players, deck", [(2, 104), (2, 24), (5, 104), (10, 104)])
def test_simulator_agrees_in_law_with_the_python_random_round(players, deck):
    """Same random play in C and in Python: mean bullheads per round agree statistically."""
    config = GameConfig(players=players, deck=deck)
    rounds = 600
    rng = random.Random(1)
    python_totals = [sum(random_round_penalties(config, rng)) for _ in range(rounds)]
    c_mean = random_rounds(players, 100_000, seed=1, deck=deck).sum() / 100_000
    py_mean = sum(python_totals) / rounds
    sd = np.std(python_totals)
    assert abs(c_mean - py_mean) < 4.5 * sd / rounds ** 0.5


def test_simulator_refuses_bad_configurations():
    with pytest.raises(ConfigError):
        random_rounds(1, 10)
    with pytest.raises(ConfigError):
        random_rounds(11, 10)
    with pytest.raises(ConfigError):
        random_rounds(3, 10, deck=30)
    with pytest.raises(ValueError):
        random_rounds(2, -1)
