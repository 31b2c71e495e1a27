"""`solver.mcts.root_strategies` (the search's root mixed strategies, for the quality
benchmark) and the search's reward option."""
import pytest

from solver._sim import Determinizer, Search
from solver.mcts import root_strategies
from solver.position import Position

POSITION = Position.from_text("24; 3 8 11, 12 15 20 21, 1 2, 22; 14 16 18 19, 5 10 23 24; 5 1")


@pytest.mark.parametrize("reward", ["own", "relative"])
def test_root_strategies_are_distributions_over_each_hand_and_deterministic(reward):
    strategies = root_strategies(POSITION, iterations=2000, seed=3, reward=reward)
    for strategy, hand in zip(strategies, POSITION.hands):
        assert sorted(strategy) == list(hand)
        assert sum(strategy.values()) == pytest.approx(1.0)
    assert strategies == root_strategies(POSITION, iterations=2000, seed=3, reward=reward)


def test_hidden_hands_have_no_strategy():
    position = Position.from_text("104; 20, 92, 65, 103; 5 10 11, ?, ?")
    strategies = root_strategies(position, iterations=300)
    assert strategies[1] is None and strategies[2] is None and sorted(strategies[0]) == [5, 10, 11]


def test_unknown_reward_refused():
    det = Determinizer([[3], [8], [12], [22]], [[1, 2], [5, 6]], [], 2)
    with pytest.raises(ValueError, match="reward"):
        Search(det, 0, reward="difference")
