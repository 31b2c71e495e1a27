"""Fixtures shared by the test files, and the test-wide Hypothesis settings.

The example positions are read from positions/ (one copy of each, the files the README and
docs/formats.md cite); each fixture gives a fresh dict, so a test may change it. The plain helpers
(the CLI runner `run`, the one-line error check, the equilibrium check, the same examples
for module-level parameters) are in tests/support.py: import them from there.
"""
import pytest
from hypothesis import HealthCheck, settings

from tests.support import load_position_file, spec_position

# No test may fail for being slow on a busy machine: no per-example deadline, no health
# check on the time spent generating data. Budgets are in examples, not in seconds.
settings.register_profile("nimmt", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("nimmt")


@pytest.fixture
def spec_worked_example():
    """positions/spec_worked_example.json: the worked example of docs/formats.md, value 46/17, with its
    "value" and "strategies" (the solution format)."""
    return load_position_file("spec_worked_example.json")


@pytest.fixture
def spec_exchange_example():
    """positions/spec_exchange_example.json: the format's first example, value -4."""
    return load_position_file("spec_exchange_example.json")


@pytest.fixture
def readme_example():
    """positions/example.json: the README example (4 cards, mid-round), value 88/17."""
    return load_position_file("example.json")


@pytest.fixture
def spec_worked_position(spec_worked_example):
    """The worked example as a position only (deck, rows, hands, penalties)."""
    return spec_position(spec_worked_example)


@pytest.fixture
def spec_exchange_position(spec_exchange_example):
    """The format's first example as a position only."""
    return spec_position(spec_exchange_example)
