"""The curated positions of positions/: format, exact value (to 1e-6), equilibrium strategies.

Each file is a SPEC position plus "description", "value" (float), optionally "value_fraction"
and "strategies" (SPEC solution format). Positions with 9 or more cards take minutes to solve
and are marked `slow` (run them with `-m slow`). A full deal (10 cards) is checked without its
full root matrix, whose 100 exact entries would take hours: the value, and the strategies
the solver proves to be an equilibrium, against the file's.
"""
import glob
import json
import os
from fractions import Fraction

import numpy as np
import pytest

from solver.exact import Engine
from solver.core.position import Position

TOL = 1e-6
HERE = os.path.dirname(os.path.abspath(__file__))
FILES = sorted(glob.glob(os.path.join(HERE, "..", "positions", "*.json")))
SLOW_HAND = 9          # positions with this many cards or more take more than 30 s
FULL_DEAL = 10


def load(path):
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
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


def strategy_vector(strategy, hand):
    probabilities = {s["card"]: s["probability"] for s in strategy}
    assert set(probabilities) <= set(hand)
    assert all(p > 0 for p in probabilities.values())
    vector = np.array([probabilities.get(c, 0.0) for c in hand])
    assert abs(vector.sum() - 1) <= TOL
    return vector


def assert_equilibrium(matrix, x, y, value, what):
    assert (x @ matrix).min() >= value - TOL, f"{what}: player 1's strategy guarantees less"
    assert (matrix @ y).max() <= value + TOL, f"{what}: player 2's strategy concedes more"


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
    h1, h2 = position.hands
    x = np.array([solution.strategies[0].get(c, 0.0) for c in h1])
    y = np.array([solution.strategies[1].get(c, 0.0) for c in h2])
    assert_equilibrium(matrix, x, y, data["value"], "solver")
    if "strategies" in data:
        assert_equilibrium(matrix, strategy_vector(data["strategies"][0], h1),
                           strategy_vector(data["strategies"][1], h2), data["value"], "file")


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
