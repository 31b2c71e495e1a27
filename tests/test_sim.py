"""The simulation core (solver._sim): playouts, determinization, the search tree."""
import random

import pytest
from hypothesis import given, settings, strategies as st

from solver._rules import random_rounds
from solver._sim import Determinizer, Search, finish_round, heuristic_card, playout_rounds
from solver.core.rules import bullheads, row_bullheads


def test_playouts_are_deterministic_and_match_the_random_simulator_on_average():
    a = playout_rounds(4, 2000, seed=3)
    assert list(a) == list(playout_rounds(4, 2000, seed=3))
    assert list(a) != list(playout_rounds(4, 2000, seed=4))
    # same game as solver._rules.random_rounds (another generator): same mean within noise
    ours, theirs = a.sum() / 8000, random_rounds(4, 2000, 5).sum() / 8000
    assert abs(ours - theirs) < 0.6
    assert list(playout_rounds(10, 10, seed=1, policy="heuristic")) == list(
        playout_rounds(10, 10, seed=1, policy="heuristic"))
    with pytest.raises(ValueError):
        playout_rounds(4, 1, policy="clever")


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 10), st.integers(1, 10), st.integers(0, 2**32), st.sampled_from(["random", "heuristic"]))
def test_a_finished_round_keeps_every_bullhead(players, size, seed, policy):
    rng = random.Random(seed)
    cards = rng.sample(range(1, 105), players * size + 4)
    hands = [cards[k * size:(k + 1) * size] for k in range(players)]
    rows = [[c] for c in cards[players * size:]]
    rows_after, penalties = finish_round(rows, hands, seed, policy)
    assert len(rows_after) == 4 and all(1 <= len(r) <= 5 for r in rows_after)
    assert all(r == sorted(r) for r in rows_after)
    assert sum(penalties) + sum(map(row_bullheads, rows_after)) == sum(map(bullheads, cards))


def test_heuristic_playout_card():
    rows = [[10, 11, 12, 13, 14], [30], [50], [70]]
    assert heuristic_card(rows, [15, 31, 5]) == 31      # not the 6th card, nor a row to take
    assert heuristic_card(rows, [15, 5]) == 5           # a row of 1 bullhead beats 5 of them


def test_search_runs_in_chunks_like_in_one_go():
    rows = [[20], [92], [65], [103]]
    hand = [5, 10, 11, 21, 24, 37, 40, 53, 85, 101]
    pool = sorted(set(range(1, 105)) - set(hand) - {20, 92, 65, 103})
    one = Search(Determinizer(rows, [hand, None, None], pool, 10), 0, seed=9)
    one.run(iterations=600)
    two = Search(Determinizer(rows, [hand, None, None], pool, 10), 0, seed=9)
    for _ in range(3):
        two.run(iterations=200)
    assert one.root_stats() == two.root_stats()
    assert set(one.root_stats()) == set(hand)
    assert sum(n for n, _, _ in one.root_stats().values()) == 600
    # a hidden hand's arms are only cards of the pool
    assert set(one.root_stats(1)) <= set(pool)


@pytest.mark.parametrize("seconds", [float("nan"), float("inf"), -1.0])
def test_a_search_time_that_is_no_time_is_refused(seconds):
    """nan seconds ran a loop without nogil's way out: no Ctrl-C, no end."""
    rows = [[20], [92], [65], [103]]
    hand = [5, 10, 11, 21, 24, 37, 40, 53, 85, 101]
    pool = sorted(set(range(1, 105)) - set(hand) - {20, 92, 65, 103})
    search = Search(Determinizer(rows, [hand, None, None], pool, 10), 0, seed=9)
    with pytest.raises(ValueError, match="seconds must be a finite number"):
        search.run(seconds=seconds)
