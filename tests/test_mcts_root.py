"""`solver.mcts.root_strategies` (the search's root mixed strategies, for the quality
benchmark) and the search's reward option."""
import pytest

from solver._sim import Determinizer, Search
from solver.limits import Limit
from solver.mcts import SearchOptions, Selection, root_strategies
from solver.core.position import Position
from tests.support import assert_equilibrium

POSITION = Position.from_text("24; 3 8 11, 12 15 20 21, 1 2, 22; 14 16 18 19, 5 10 23 24; 5 1")


@pytest.mark.parametrize("reward", ["own", "relative"])
def test_root_strategies_are_distributions_over_each_hand_and_deterministic(reward):
    strategies = root_strategies(POSITION, Limit(iterations=2000), seed=3, options=SearchOptions(reward=reward))
    for strategy, hand in zip(strategies, POSITION.hands):
        assert sorted(strategy) == list(hand)
        assert sum(strategy.values()) == pytest.approx(1.0)
    assert strategies == root_strategies(POSITION, Limit(iterations=2000), seed=3, options=SearchOptions(reward=reward))


def test_hidden_hands_have_no_strategy():
    position = Position.from_text("104; 20, 92, 65, 103; 5 10 11, ?, ?")
    strategies = root_strategies(position, Limit(iterations=300))
    assert strategies[1] is None and strategies[2] is None and sorted(strategies[0]) == [5, 10, 11]


def test_unknown_reward_refused():
    det = Determinizer([[3], [8], [12], [22]], [[1, 2], [5, 6]], [], 2)
    with pytest.raises(ValueError, match="reward"):
        Search(det, 0, reward="difference")


@pytest.mark.parametrize("selection", ["rm", "rm+"])
def test_regret_matching_strategies_are_probability_vectors_and_deterministic(selection):
    strategies = root_strategies(POSITION, Limit(iterations=3000), seed=5, options=SearchOptions(reward="relative", selection=selection))
    for strategy, hand in zip(strategies, POSITION.hands):
        assert sorted(strategy) == list(hand)
        assert all(0.0 <= p <= 1.0 for p in strategy.values())
        assert sum(strategy.values()) == pytest.approx(1.0)
    again = root_strategies(POSITION, Limit(iterations=3000), seed=5, options=SearchOptions(reward="relative", selection=selection))
    assert strategies == again
    other = root_strategies(POSITION, Limit(iterations=3000), seed=6, options=SearchOptions(reward="relative", selection=selection))
    assert other != strategies


def test_regret_matching_on_hidden_hands_and_row_nodes():
    """Subset-armed nodes (hidden hands dealt anew each iteration) and row decisions."""
    position = Position.from_text("104; 20, 92, 65, 103; 5 10 11 21 24 37, ?, ?, ?")
    det = Determinizer([list(r) for r in position.rows], [list(position.hands[0]), None,
                       None, None], [c for c in range(1, 105) if c not in
                       {20, 92, 65, 103, 5, 10, 11, 21, 24, 37}], 6)
    tree = Search(det, 0, seed=2, selection="rm")
    tree.run(4000)
    assert tree.selection == "rm"
    policy = tree.root_policy(0)
    assert sorted(policy) == [5, 10, 11, 21, 24, 37]
    # every iteration adds a probability vector over the viewer's 6 cards at the root
    assert sum(policy.values()) == pytest.approx(4000)
    assert sum(n for n, _, _ in tree.root_stats(0).values()) == 4000


def test_regret_matching_is_near_the_equilibrium_of_a_small_position():
    """What the average strategies lose against a best reply (exact solver), both seats."""
    import numpy as np
    from solver.exact import Engine
    engine = Engine(POSITION)
    value = engine.solve(POSITION).value
    matrix = engine.full_matrix(POSITION)
    x, y = (np.array([s[c] for c in hand]) for s, hand in
            zip(root_strategies(POSITION, Limit(iterations=20000), seed=1, options=SearchOptions(selection="rm+", reward="relative")), POSITION.hands))
    assert_equilibrium(matrix, x, y, value, tol=0.5)      # an equilibrium within 0.5


def test_unknown_selection_or_gamma_refused():
    det = Determinizer([[3], [8], [12], [22]], [[1, 2], [5, 6]], [], 2)
    with pytest.raises(ValueError, match="selection"):
        Search(det, 0, selection="exp3")
    with pytest.raises(ValueError, match="gamma"):
        Search(det, 0, selection="rm", gamma=0.0)


def test_search_player_and_analyse_accept_the_options():
    from solver.play.bots import make_bot, parse_bot_spec
    from solver.errors import ConfigError
    from solver.mcts import analyse
    name, options = parse_bot_spec("mcts:iterations=300:selection=rm:reward=relative:c=8:gamma=0.2")
    assert options == {"iterations": 300, "selection": "rm", "reward": "relative", "c": 8.0,
                       "gamma": 0.2}
    bot = make_bot("mcts:iterations=300:selection=rm+", seed=1)
    assert bot.options.selection is Selection.RM_PLUS
    with pytest.raises(ConfigError):
        make_bot("mcts:selection=best")
    with pytest.raises(ConfigError):
        make_bot("mcts:reward=mine")
    position = Position.from_text("104; 20, 92, 65, 103; 5 10 11 21 24 37, ?, ?")
    a = analyse(position, Limit(iterations=2000), seed=1, options=SearchOptions(selection="rm"))
    assert a.cards == analyse(position, Limit(iterations=2000), seed=1, options=SearchOptions(selection="rm")).cards
    shares = [c.share for c in a.cards]
    assert shares == sorted(shares, reverse=True) and sum(shares) == pytest.approx(1.0)
    assert a.to_dict()["cards"][0]["share"] == shares[0]
    assert "share" not in analyse(position, Limit(iterations=500), seed=1).to_dict()["cards"][0]
