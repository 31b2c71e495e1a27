"""A long exact solve (9+ cards a hand) first says roughly how long it takes, then shows a
provisional answer on stderr, marked as not proven, with the bounds proven so far; stdout
keeps the exact answer only, and --exact-only keeps the solve silent."""
import pytest

from solver import cli
from solver.cli import analysis
from solver.advice import PROVISIONAL_FROM, provisional_strategies
from solver.core.position import Position
from tests.support import run

NINE_CARDS = "positions/09_nine_cards_midround.json"


@pytest.fixture
def at_once(monkeypatch):
    monkeypatch.setattr(analysis, "PROVISIONAL_AFTER", 0.0)     # at the first progress report


@pytest.mark.parametrize("command", ["solve", "best"])
def test_a_long_solve_shows_a_provisional_answer_first(command, at_once):
    result = run([command, NINE_CARDS, "--max-nodes", "400000"])
    assert result.exit_code == cli.ExitStatus.NOT_PROVEN and result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[0].startswith("solving a 9-card position exactly: about a minute on one core")
    assert lines[0].endswith("--progress-file FILE would keep the work of a stopped solve for"
                             " the next run")
    assert lines[1].startswith("provisional answer after 0 s, NOT proven")
    assert "player 1: " in lines[1] and "player 2: " in lines[1]
    assert lines[-1].startswith("nimmt: error: value NOT proven")


def test_exact_only_and_small_positions_have_none(at_once):
    result = run(["solve", NINE_CARDS, "--max-nodes", "400000", "--exact-only"])
    assert result.exit_code == cli.ExitStatus.NOT_PROVEN
    assert len(result.stderr.splitlines()) == 1
    small = run(["solve", "positions/07_seven_cards_deal_mixed.json"])
    assert small.exit_code == 0 and small.stderr == ""
    assert 7 < PROVISIONAL_FROM


def test_the_provisional_strategies_are_reproducible_strategies():
    position = Position.from_json(open(NINE_CARDS).read())
    first = provisional_strategies(position)
    assert first == provisional_strategies(position)
    for hand, strategy in zip(position.hands, first):
        assert sorted(strategy) == list(hand) and sum(strategy.values()) == pytest.approx(1)


def test_exact_only_is_refused_where_the_search_answers():
    result = run(["best", "104; 20, 92, 65, 103; 5 10 11 21 24 37 40 53 85 101, ?, ?, ?",
                  "--exact-only"])
    assert result.exit_code == 2 and "--exact-only cannot be used here" in result.stderr
