"""The search player (solver/mcts.py): determinization, determinism, strength, hand-over."""
import random
import time

import pytest
from hypothesis import given, settings, strategies as st

from solver import errors
from solver._sim import Determinizer, immediate_costs
from solver.core.player import PlayerView
from solver.core.deal import deal
from solver.limits import Limit
from solver.mcts import Opponents, Policy, Reward, SearchOptions, Selection, SearchPlayer, analyse
from solver.mcts.player import careful_costs
from solver.core.position import Position
from solver.core.rules import GameConfig, play_turn, fewest_bullheads_chooser, row_bullheads
from solver.play.tournament import run_tournament


def random_view(players, deck, turns, seed):
    """A seat's view after `turns` random turns of a random deal."""
    config = GameConfig(players=players, deck=deck)
    rng = random.Random(seed)
    position = deal(config, rng)
    rows = [list(r) for r in position.rows]
    hands = [list(h) for h in position.hands]
    played = []
    for _ in range(turns):
        cards = [h.pop(rng.randrange(len(h))) for h in hands]
        rows, _ = play_turn(rows, cards, fewest_bullheads_chooser)
        played.append(tuple(cards))
    seat = rng.randrange(players)
    view = PlayerView(config, seat, tuple(map(tuple, rows)), tuple(sorted(hands[seat])),
                      position.rows, tuple(played), (0,) * players, (0,) * players, turns)
    return view, hands


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 10), st.booleans(), st.integers(0, 9), st.integers(0, 2**40))
def test_determinization_never_invents_a_visible_card_and_respects_hand_sizes(
        players, variant, turns, seed):
    deck = 10 * players + 4 if variant else 104
    view, true_hands = random_view(players, deck, turns, seed)
    pool = view.unseen()
    hands = [list(view.hand) if k == view.seat else None for k in range(players)]
    det = Determinizer([list(r) for r in view.rows], hands, pool, len(view.hand))
    visible = set(view.hand) | {c for r in view.rows for c in r} | {
        c for cards in view.played for c in cards} | {c for r in view.start_rows for c in r}
    # the true hands are one of the possible deals
    assert set(c for k, h in enumerate(true_hands) if k != view.seat for c in h) <= set(pool)
    for draw in range(3):
        dealt = det.draw(seed + draw)
        assert dealt[view.seat] == list(view.hand)
        others = [c for k, h in enumerate(dealt) if k != view.seat for c in h]
        assert all(len(h) == len(view.hand) for h in dealt)
        assert len(set(others)) == len(others)             # no card twice
        assert not set(others) & visible                   # nothing visible is dealt
        assert set(others) <= set(range(1, deck + 1))


def test_a_position_pool_excludes_rows_visible_hands_and_played_cards():
    position = Position.from_dict({"deck": 104, "rows": [[1], [2], [3], [4]],
                                   "hands": [[10, 11], None, None], "played": [[5, 6, 7]]})
    pool = position.unseen_cards()
    assert not set(pool) & {1, 2, 3, 4, 5, 6, 7, 10, 11} and len(pool) == 104 - 9


def four_player_position():
    return Position.from_dict({"deck": 104, "rows": [[20], [92], [65], [103]],
                               "hands": [[5, 10, 11, 21, 24, 37, 40, 53, 85, 101], None, None, None]})


def test_analysis_is_deterministic_for_a_seed_and_ranks_every_card():
    position = four_player_position()
    a = analyse(position, Limit(iterations=2000), seed=4)
    assert a.to_dict()["cards"] == analyse(position, Limit(iterations=2000), seed=4).to_dict()["cards"]
    assert sorted(c.card for c in a.cards) == list(position.hands[0])
    assert sum(c.visits for c in a.cards) == a.iterations == 2000
    for c in a.cards:
        assert c.ci95[0] <= c.mean <= c.ci95[1]
    two = analyse(position, Limit(iterations=2000), seed=4, options=SearchOptions(jobs=2))
    assert two.to_dict()["cards"] == analyse(position, Limit(iterations=2000), seed=4, options=SearchOptions(jobs=2)).to_dict()["cards"]
    assert two.stats["trees"] == 2


def test_a_timed_analysis_is_complete():        # how long it takes: the timing tests below
    position = Position.from_dict({"deck": 104, "rows": [[20], [92], [65], [103]],
                                   "hands": [list(range(30, 40))] + [None] * 9})
    a = analyse(position, Limit(seconds=0.2))
    assert a.iterations > 0 and a.seconds > 0
    assert sorted(c.card for c in a.cards) == list(range(30, 40))


def test_a_ten_player_decision_keeps_its_iteration_budget():
    view, _ = random_view(10, 104, 1, seed=3)
    player = SearchPlayer(seed=1, limit=Limit(iterations=300))
    card = player.choose_card(view)
    assert card in view.hand and player.last.iterations == 300


@pytest.mark.timing
def test_timed_analysis_stays_near_its_budget():
    position = Position.from_dict({"deck": 104, "rows": [[20], [92], [65], [103]],
                                   "hands": [list(range(30, 40))] + [None] * 9})
    a = analyse(position, Limit(seconds=0.3))
    assert a.seconds < 0.5 and a.iterations > 100


@pytest.mark.timing
def test_a_ten_player_decision_stays_within_its_budget():
    view, _ = random_view(10, 104, 1, seed=3)
    player = SearchPlayer(seed=1, limit=Limit(seconds=0.3))
    start = time.perf_counter()
    card = player.choose_card(view)
    assert time.perf_counter() - start < 0.45 and card in view.hand
    assert player.last.iterations > 100


def test_auto_options_are_regret_matching_at_two_players_and_ucb_beyond(spec_exchange_position):
    two_seats = SearchOptions().settled(2)
    assert (two_seats.selection, two_seats.reward, two_seats.policy) == (
        Selection.RM_PLUS, Reward.RELATIVE, Policy.HEURISTIC)
    four_seats = SearchOptions().settled(4)
    assert (four_seats.selection, four_seats.reward, four_seats.policy) == (
        Selection.UCB, Reward.OWN, Policy.RANDOM)
    given = SearchOptions(selection="ucb", reward="own", policy="random").settled(2)
    assert (given.selection, given.reward, given.policy) == (
        Selection.UCB, Reward.OWN, Policy.RANDOM)
    two = analyse(Position.from_dict(spec_exchange_position), Limit(iterations=500), seed=1)
    assert two.stats["selection"] == "rm+" and all(c.share is not None for c in two.cards)
    assert two.stats["policy"] == "heuristic"


def test_careful_opponents_are_the_default_under_ucb_only():
    def opponents(selection, opponents):
        return SearchOptions(selection=selection, opponents=opponents).settled(4).opponents

    assert opponents("ucb", "auto") is Opponents.CAREFUL
    assert opponents("ucb", "bandit") is Opponents.BANDIT
    assert opponents("rm+", "auto") is opponents("rm", "careful") is Opponents.BANDIT
    position = four_player_position()
    assert analyse(position, Limit(iterations=500), seed=1).stats["opponents"] == "careful"
    assert analyse(position, Limit(iterations=500), seed=1, options=SearchOptions(opponents="bandit")).stats["opponents"] == "bandit"
    with pytest.raises(errors.ConfigError, match="'clever'"):
        analyse(position, Limit(iterations=500), options=SearchOptions(opponents="clever"))


def test_careful_costs_cover_every_card_another_seat_may_hold():
    rows = [[20], [92], [65], [103]]
    hands = [[5, 10, 11], [30, 40, 50], None]
    costs = careful_costs(rows, hands, [60, 70, 80, 1], viewer=0, seed=2)
    assert sorted(costs) == [1, 30, 40, 50, 60, 70, 80]      # never the viewer's own cards
    assert costs[1] == 1           # too low for every row: takes the cheapest (1 bullhead)


def test_an_unknown_playout_policy_is_a_config_error():
    with pytest.raises(errors.ConfigError, match="'clever'"):
        SearchPlayer(options=SearchOptions(policy="clever"))


def test_immediate_costs_resolve_the_turn_by_the_rules():
    rows = [[1, 2, 3, 4, 10], [30], [50], [70]]
    others = [c for c in range(6, 105) if c not in (10, 11, 30, 31, 50, 70)]
    costs = immediate_costs(rows, [11, 5, 31], others, 4, 64, seed=1)
    assert costs[11] == 7.0      # the 6th card of the full row, whatever the others play
    assert costs[5] == 3.0       # the lowest card, too low: the cheapest row (3 bullheads)
    assert 0 < costs[31] < 7     # safe on row [30] unless the others' cards move rows first
    assert costs == immediate_costs(rows, [11, 5, 31], others, 4, 64, seed=1)
    with pytest.raises(ValueError, match="at most 104 other cards, got 208"):
        immediate_costs(rows, [11], list(range(1, 105)) * 2, 4, 64)


def test_immediate_costs_are_the_mean_over_the_others_draws():
    # every pair of two others' cards, resolved by the Python rules: the sampled mean of
    # the C routine (which resolves only the cards below the card) converges to it
    import itertools
    rows = [[3, 12], [20, 21, 22, 23], [40], [60, 66]]
    others = [1, 2, 5, 13, 15, 24, 41, 44, 55, 61, 67, 70]
    for card in (4, 14, 25, 45, 68, 2):
        pool = [c for c in others if c != card]
        total = 0
        pairs = list(itertools.permutations(pool, 2))
        for a, b in pairs:
            _, taken = play_turn(rows, [card, a, b], fewest_bullheads_chooser)
            total += row_bullheads(taken[0])
        got = immediate_costs(rows, [card], others, 2, 20000, seed=3)[card]
        assert abs(got - total / len(pairs)) < 0.1, card


def test_careful_opponents_are_an_option_of_the_player():
    with pytest.raises(errors.ConfigError, match="'clever'"):
        SearchPlayer(options=SearchOptions(opponents="clever"))
    view, _ = random_view(5, 104, 3, seed=12)
    picks = [SearchPlayer(seed=5, limit=Limit(iterations=500), options=SearchOptions(opponents="careful")).choose_card(view)
             for _ in range(2)]
    assert picks[0] == picks[1] and picks[0] in view.hand


def test_the_player_is_deterministic_for_a_seed():
    view, _ = random_view(4, 104, 2, seed=11)
    picks = [SearchPlayer(seed=5, limit=Limit(iterations=500)).choose_card(view) for _ in range(2)]
    assert picks[0] == picks[1] and picks[0] in view.hand


def test_row_choice_on_the_last_card_is_the_cheapest_row():
    rows = ((30, 31), (40, 55), (60,), (70,))
    config = GameConfig(players=2)
    view = PlayerView(config, 0, rows, (), rows, (), (0, 0), (0, 0), 9, revealed=(5, 80))
    assert SearchPlayer(seed=1, limit=Limit(iterations=200)).choose_row(view, 5) == 2


def test_row_choice_looks_ahead():
    # taking row 2 (1 bullhead) leaves our 50 as the 6th card of row 0; row 0 (5) is better
    rows = ((41, 42, 43, 44, 45), (80,), (90,), (100,))
    config = GameConfig(players=2)
    view = PlayerView(config, 0, rows, (50,), rows, (), (0, 0), (0, 0), 8,
                      revealed=(3, 101))
    assert SearchPlayer(seed=1, limit=Limit(iterations=400)).choose_row(view, 3) == 0


def test_exact_handover_for_a_complete_information_two_player_view():
    from solver.exact import solve
    config = GameConfig.variant(2)
    rows = ((2, 3, 7, 10, 14), (6, 8, 11, 12, 13), (20, 21), (24,))
    played = ((1, 4), (9, 15), (16, 18), (23, 21))      # the other cards of the 24
    view = PlayerView(config, 0, rows, (19, 22), rows, played, (0, 0), (0, 0), 8)
    assert sorted(view.unseen()) == [5, 17]
    position = Position.create([list(r) for r in rows], [[19, 22], [5, 17]], deck=24)
    support = set(solve(position).strategies[0])
    picks = {SearchPlayer(seed=s).choose_card(view) for s in range(20)}
    assert picks == support == {19, 22}          # mixed: both cards get played
    search = SearchPlayer(seed=1, exact_handover=False, limit=Limit(iterations=300))
    assert search.choose_card(view) in (19, 22) and search.last is not None


def test_search_player_beats_random_by_a_wide_margin():
    summary = run_tournament(GameConfig(players=4), ["mcts:iterations=2000", "random"], 3, seed=7,
                             jobs=2)
    mcts, rnd = summary["bots"]
    assert mcts["mean_penalty_per_round"] < 0.6 * rnd["mean_penalty_per_round"]
    assert mcts["ci95"][1] < rnd["ci95"][0]


def test_exact_handover_picks_the_exact_solvers_row():
    """In the 24-card 2-player game, small hands: a too-low card's row is the exact solver's
    best row (the cheapest among the best), from the position before the turn."""
    import random as random_module
    from solver.exact import Engine
    from tests.positions_gen import random_midround
    rng = random_module.Random(5)
    checked = not_cheapest = 0
    while checked < 12:
        position = random_midround(rng, rng.choice([3, 4, 5, 6]))
        hand, other = position.hands
        low = [a for a in hand if a < min(row[-1] for row in position.rows)]
        if not low or not [b for b in other if b > low[0]]:
            continue
        a, b = low[0], max(other)
        with Engine(position) as engine:
            best = engine.row_choice(position, (a, b))
        rows = tuple(tuple(r) for r in position.rows)
        in_play = set(hand) | set(other) | {c for r in rows for c in r}
        played = (tuple(c for c in range(1, 25) if c not in in_play),)
        view = PlayerView(GameConfig.variant(2), 0, rows, tuple(c for c in hand if c != a),
                          rows, played, (0, 0), (0, 0), 10 - len(hand), revealed=(a, b))
        assert sorted(view.unseen()) == sorted(c for c in other if c != b)
        assert SearchPlayer(seed=1).choose_row(view, a) == best.row
        checked += 1
        not_cheapest += best.row != best.cheapest_row
    assert not_cheapest > 0          # some of them are not the cheapest row
