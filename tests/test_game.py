"""Round and game runners: hypothesis properties over random rounds, determinism, game end."""
import random
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from solver.play.bots import GreedyBot, RandomBot, make_bot
from solver.core.player import Player
from solver.errors import IllegalMoveError
from solver.play.runner import GameResult, deal, game_over, play_game, play_round
from solver.core.record import replay, replay_steps
from solver.core.rules import GameConfig, bullheads, row_bullheads


class AnyRowBot(RandomBot):
    """Random card, random row: exercises every row choice."""

    def choose_row(self, view, card):
        assert view.revealed is not None and card == min(view.revealed)
        return self.rng.randrange(4)


configs = st.integers(2, 10).flatmap(lambda n: st.sampled_from(
    [GameConfig(players=n), GameConfig.variant(n)]))


def all_cards(position):
    return Counter(c for r in position.rows for c in r) + Counter(
        c for h in position.hands for c in h)


@settings(max_examples=60, deadline=None)
@given(configs, st.integers(0, 2 ** 32), st.lists(st.booleans(), min_size=10, max_size=10))
def test_round_properties(config, seed, greedy_seats):
    rng = random.Random(seed)
    players = [GreedyBot() if greedy_seats[k] else AnyRowBot(rng.random())
               for k in range(config.players)]
    result = play_round(config, players, rng)
    start, outcomes = replay_steps(result.record)
    assert len(outcomes) == 10
    before, taken_so_far = start, Counter()
    for outcome in outcomes:
        after = outcome.position
        assert len(after.rows) == 4 and all(1 <= len(r) <= 5 for r in after.rows)
        assert all(list(r) == sorted(set(r)) for r in after.rows)
        for k, cards in enumerate(outcome.taken):   # a penalty is the bullheads of the cards taken
            assert after.penalties[k] - before.penalties[k] == row_bullheads(cards)
            taken_so_far.update(cards)
        assert all_cards(after) + taken_so_far == all_cards(start)   # cards are conserved
        assert at_most_one_row_choice(outcome)
        before = after
    assert replay(result.record) == result.final                      # replay reproduces it
    assert all(len(h) == 0 for h in result.final.hands)
    assert sum(result.penalties) == sum(bullheads(c) for c in taken_so_far)


def at_most_one_row_choice(outcome):
    return sum(c is not None for c in outcome.chosen_rows) <= 1


def test_deal_uses_distinct_cards_of_the_deck():
    for config in (GameConfig(players=10), GameConfig.variant(3)):
        position = deal(config, random.Random(1))
        cards = all_cards(position)
        assert sum(cards.values()) == 10 * config.players + 4 and max(cards.values()) == 1
        assert set(cards) <= set(range(1, config.deck + 1))


def _game(seed, threshold=66):
    config = GameConfig(players=4, threshold=threshold)
    bots = [make_bot(name, k) for k, name in enumerate(["random", "greedy", "random", "greedy"])]
    return play_game(config, bots, seed)


def test_games_are_deterministic_for_a_seed():
    first, again, other = _game(7), _game(7), _game(8)
    assert [r.record for r in first.rounds] == [r.record for r in again.rounds]
    assert first.scores == again.scores
    assert [r.record for r in first.rounds] != [r.record for r in other.rounds]


@pytest.mark.parametrize("threshold", [1, 44, 66, 100])
def test_game_stops_when_a_total_reaches_the_threshold(threshold):
    result = _game(3, threshold)
    totals = [0] * 4
    for r in result.rounds[:-1]:
        totals = [t + p for t, p in zip(totals, r.penalties)]
        assert max(totals) < threshold
    assert max(result.scores) >= threshold
    assert result.winners == [k for k, s in enumerate(result.scores) if s == min(result.scores)]


def test_views_hide_the_other_hands():
    seen = []

    class Spy(RandomBot):
        def choose_card(self, view):
            seen.append(view)
            return super().choose_card(view)

    config = GameConfig(players=3)
    play_round(config, [Spy(1), RandomBot(2), RandomBot(3)], random.Random(5))
    first, last = seen[0], seen[-1]
    assert first.revealed is None and len(first.hand) == 10 and first.played == ()
    assert len(first.unseen()) == 104 - 10 - 4
    assert len(last.played) == 9 and len(last.unseen()) == 104 - 1 - 4 - 27


def test_illegal_moves_are_refused():
    class Cheat(Player):
        def choose_card(self, view):
            return 200

    with pytest.raises(IllegalMoveError, match="200"):
        play_round(GameConfig(players=2), [Cheat(), RandomBot()], random.Random(1))


def test_seed_scoring_example():
    # Alice 7 + 9, Bruno 15 + 21, Chloe 4 + 11: nobody has 66, the game goes on, Chloe leads
    scores = tuple(a + b for a, b in [(7, 9), (15, 21), (4, 11)])
    assert scores == (16, 36, 15) and not game_over(scores, 66)
    assert GameResult(scores=scores).winners == [2]
    assert game_over((66, 0), 66) and game_over((70, 0), 66) and not game_over((65, 65), 66)
    assert GameResult(scores=(30, 70, 30)).winners == [0, 2]      # equal lowest share the win
