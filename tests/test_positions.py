"""The curated positions of positions/: format, exact value (to 1e-6), equilibrium strategies.

Each file is a position plus "description", "value" (float), optionally "value_fraction"
and "strategies" (the solution format of docs/formats.md). Positions with 9 or more cards take minutes to solve
and are marked `slow` (run them with `-m slow`). A full deal (10 cards) is checked without its
full root matrix, whose 100 exact entries would take hours: the value, and the strategies
the solver proves to be an equilibrium, against the file's.
"""
import os
from fractions import Fraction

import numpy as np
import pytest

from solver.exact import Engine
from solver.core.position import Position
from tests.support import assert_equilibrium, load_position_file, position_files, strategy_vector

TOL = 1e-6
FILES = [str(path) for path in position_files()]
SLOW_HAND = 9          # positions with this many cards or more take more than 30 s
FULL_DEAL = 10


def load(path):
    data = load_position_file(path)
    return data, Position.from_dict(data)


def params(full_deals: bool):
    """The files with (or without) full deals, the slow ones marked."""
    out = []
    for path in FILES:
        size = len(load(path)[0]["hands"][0])
        if (size == FULL_DEAL) == full_deals:
            marks = [pytest.mark.slow] if size >= SLOW_HAND else []
            out.append(pytest.param(path, id=os.path.basename(path), marks=marks))
    return out


def file_strategy(strategy, hand):
    """A strategy of a file: only cards played with a positive probability, summing to 1."""
    assert all(s["probability"] > 0 for s in strategy)
    vector = strategy_vector(strategy, hand)
    assert abs(vector.sum() - 1) <= TOL
    return vector


def assert_bounds_hold(solution, matrix):
    """Each root entry's proven bounds hold its true value; they meet at the entries given
    exactly."""
    lo, hi = solution.matrix_bounds[..., 0], solution.matrix_bounds[..., 1]
    assert (lo <= matrix + TOL).all() and (matrix <= hi + TOL).all()
    exact = ~np.isnan(solution.matrix)
    assert (lo[exact] == hi[exact]).all()
    assert np.allclose(solution.matrix[exact], matrix[exact], rtol=0, atol=TOL)


def test_collection():
    assert len(FILES) >= 30
    names = {os.path.basename(p) for p in FILES}
    assert {"example.json", "spec_worked_example.json", "spec_exchange_example.json"} <= names
    positions = [load(p)[1] for p in FILES]
    assert {p.hand_size for p in positions} >= set(range(1, 11))      # a full deal too
    assert any(len(r) == 5 for p in positions for r in p.rows)


@pytest.mark.parametrize("path", params(full_deals=False))
def test_position(path):
    data, position = load(path)
    assert isinstance(data["description"], str) and data["description"].strip()
    assert isinstance(data["value"], float)
    assert position.deck == 24 and position.players == 2 and position.complete_information
    if "value_fraction" in data:
        assert abs(float(Fraction(data["value_fraction"])) - data["value"]) <= 1e-12

    engine = Engine(position)
    solution = engine.solve(position)
    assert abs(solution.value - data["value"]) <= TOL, f"{path}: solved {solution.value}"

    matrix = engine.full_matrix(position)
    assert_bounds_hold(solution, matrix)
    if position.hand_size >= 3 and position.hand_size < SLOW_HAND:
        assert_bounds_hold(Engine(position).solve(position, card_values=False), matrix)
    h1, h2 = position.hands
    x = strategy_vector(solution.strategies[0], h1)
    y = strategy_vector(solution.strategies[1], h2)
    assert_equilibrium(matrix, x, y, data["value"], TOL, "solver")
    if "strategies" in data:
        assert_equilibrium(matrix, file_strategy(data["strategies"][0], h1),
                           file_strategy(data["strategies"][1], h2), data["value"], TOL, "file")


@pytest.mark.parametrize("path", params(full_deals=True))
def test_full_deal(path):
    data, position = load(path)
    solution = Engine(position, threads=2).solve(position, card_values=False)
    assert abs(solution.value - data["value"]) <= TOL, f"{path}: solved {solution.value}"
    for player in range(2):
        expected = {s["card"]: s["probability"] for s in data["strategies"][player]}
        assert solution.strategies[player].keys() == expected.keys()
        for card, probability in expected.items():
            assert abs(solution.strategies[player][card] - probability) <= TOL
