"""The exhaustive reference (solver.exact.exhaustive, cext/exhaustive.pyx) against the plain
reference solver on small positions and against the search on 4-7 cards; its state counts
against a plain-Python enumeration with the same key (each state's live cards renumbered, a
state and its player swap alike), and fewer than the absolute-card key's; the player swap
negates the value; bad input refused."""
import random

import numpy as np
import pytest

from benchmarks.bench_solver import positions
from solver._exhaustive import solve_levels
from solver.core.position import Position
from solver.core.rules import bullheads, play_turn
from solver.errors import NotSolvableError
from solver.exact import solve
from solver.exact.exhaustive import rank_form, solve_exhaustive
from tests.positions_gen import random_deal, random_midround, small_positions
from tests.reference_solver import reference_solution
from tests.support import assert_equilibrium, strategy_vector

SMALL = small_positions(60, seed=31, max_size=4)
TOL = 1e-9


@pytest.mark.parametrize("index", range(len(SMALL)))
def test_small_positions_agree_with_the_reference(index):
    position = SMALL[index]
    value, _, _, matrix = reference_solution(position)
    for lowest in (1, 3):                     # every level stored; levels 1-2 in place
        result = solve_exhaustive(position, lowest=lowest)
        assert abs(result.value - value) <= TOL, (position.to_text(), lowest)
        assert np.allclose(result.matrix, matrix, rtol=0, atol=TOL)
        x, y = (strategy_vector(s, sorted(h)) for s, h in zip(result.strategies, position.hands))
        assert_equilibrium(result.matrix, x, y, result.value, tol=TOL, what=position.to_text())


# 5-7 cards: the search's value, and its root strategies an equilibrium of this matrix
LARGER = [random_midround(random.Random(70 + k), size) for k, size in
          enumerate([5, 5, 5, 6, 6])] + [random_deal(random.Random(76), 7)]   # 4 s at 7 cards


@pytest.mark.parametrize("index", range(len(LARGER)))
def test_larger_positions_agree_with_the_search(index):
    position = LARGER[index]
    result = solve_exhaustive(position, threads=2)
    searched = solve(position, card_values=False, principal_line=False)
    assert abs(result.value - searched.value) <= TOL, position.to_text()
    hands = [sorted(h) for h in position.hands]
    for strategies in (searched.strategies, result.strategies):
        x, y = (strategy_vector(s, h) for s, h in zip(strategies, hands))
        assert_equilibrium(result.matrix, x, y, result.value, tol=TOL, what=position.to_text())
    assert result.states_per_level[position.hand_size] == 1
    assert list(result.states_per_level) == list(range(position.hand_size, 2, -1))


# state counts ------------------------------------------------------------------------------
def absolute_key(rows, hands):
    """A state on its cards as they are: both hands and the set of rows as (last card,
    length, bullheads): the reference's key before it relabelled each state."""
    return (tuple(sorted(hands[0])), tuple(sorted(hands[1])),
            tuple(sorted((r[-1], len(r), sum(bullheads(c) for c in r)) for r in rows)))


def relabelled_key(rows, hands):
    """A state's live cards renumbered 0..n-1: each as its holder (0, 1, or None for a row
    end) and, in a hand, its bullheads; the rows as (end's number, length, bullheads); a
    state and its player swap alike."""
    live = sorted([c for hand in hands for c in hand] + [r[-1] for r in rows])
    number = {card: i for i, card in enumerate(live)}
    holder = {card: player for player, hand in enumerate(hands) for card in hand}
    row_key = tuple(sorted((number[r[-1]], len(r), sum(bullheads(c) for c in r)) for r in rows))
    sides = [tuple((holder.get(c) if swap == 0 or c not in holder else 1 - holder[c],
                    bullheads(c) if c in holder else None) for c in live) for swap in (0, 1)]
    return frozenset(sides), row_key


def plain_levels(position: Position, key=relabelled_key, lowest: int = 1) -> dict:
    """States per level, down to `lowest` cards, by plain enumeration on cards, one per
    `key`."""
    level = {key(position.rows, position.hands): (position.rows, position.hands)}
    counts = {position.hand_size: 1}
    for k in range(position.hand_size, lowest, -1):
        below = {}
        for rows, hands in level.values():
            for a in hands[0]:
                for b in hands[1]:
                    for choice in range(4):   # the row a too-low card takes (else ignored)
                        new_rows, _ = play_turn([list(r) for r in rows], [a, b],
                                                lambda player, r, card: choice)
                        new_hands = ([c for c in hands[0] if c != a], [c for c in hands[1] if c != b])
                        below.setdefault(key(new_rows, new_hands), (new_rows, new_hands))
        counts[k - 1] = len(below)
        level = below
    return counts


def test_state_counts_by_hand():
    # no card too low: the 4 joint plays give 4 states (their hands differ)
    plain = Position.create([[5], [10], [15], [20]], [[6, 11], [7, 12]], deck=24)
    assert solve_exhaustive(plain, lowest=1).states_per_level == {2: 1, 1: 4}
    # player 1's 1 is too low: against 7 and 12, 4 rows each, 8 distinct states; 11: 1 each.
    # Relabelled, some of the 10 merge
    low = Position.create([[5], [10], [15], [20]], [[1, 11], [7, 12]], deck=24)
    assert plain_levels(plain) == plain_levels(plain, absolute_key) == {2: 1, 1: 4}
    assert plain_levels(low, absolute_key) == {2: 1, 1: 10}
    assert solve_exhaustive(low, lowest=1).states_per_level == plain_levels(low)


@pytest.mark.parametrize("index", range(6))
def test_state_counts_match_a_plain_enumeration(index):
    position = random_midround(random.Random(500 + index), 3 + index % 2)
    assert solve_exhaustive(position, lowest=1).states_per_level == plain_levels(position)


def test_relabelling_merges_states_the_absolute_key_kept_apart():
    # 5 cards, down to 3: the plain enumeration's counts with either key
    position = random_midround(random.Random(9), 5)
    absolute = plain_levels(position, absolute_key, lowest=3)
    relabelled = plain_levels(position, lowest=3)
    assert solve_exhaustive(position).states_per_level == relabelled
    assert relabelled[4] <= absolute[4] and relabelled[3] < absolute[3]     # 1,188 < 1,767
    # 6 cards: the absolute key's counts (levels 6 to 3) as measured before the change
    six = positions(0, 6, 1)[0]
    result = solve_exhaustive(six)
    before = {6: 1, 5: 72, 4: 2265, 3: 46461}
    after = result.states_per_level
    assert after[5] <= before[5] and after[4] < before[4] and after[3] < before[3], after
    assert abs(result.value - solve(six, card_values=False, principal_line=False).value) <= TOL


# many random positions of 4-7 cards against the search
RANDOM = [(random_deal if k % 2 else random_midround)(random.Random(900 + k), 4 + k % 3)
          for k in range(31)] + [random_midround(random.Random(951), 7)]     # 6 s at 7 cards


@pytest.mark.parametrize("index", range(len(RANDOM)))
def test_random_positions_agree_with_the_search(index):
    position = RANDOM[index]
    result = solve_exhaustive(position, lowest=1 + index % 3)    # every lowest level stored
    searched = solve(position, card_values=False, principal_line=False)
    assert abs(result.value - searched.value) <= TOL, position.to_text()


@pytest.mark.parametrize("index", range(4))
def test_the_player_swap_negates_the_value(index):
    position = RANDOM[index]
    swapped = Position.create([list(r) for r in position.rows],
                              [list(position.hands[1]), list(position.hands[0])], deck=24)
    result, other = solve_exhaustive(position), solve_exhaustive(swapped)
    assert abs(result.value + other.value) <= TOL
    assert np.allclose(other.matrix, -result.matrix.T, rtol=0, atol=TOL)


# bad input ---------------------------------------------------------------------------------
def test_refuses_positions_it_cannot_solve():
    three = Position.create([[1], [2], [3], [4]], [[5, 6], [7, 8], [9, 10]], deck=34)
    with pytest.raises(NotSolvableError, match="2 players"):
        solve_exhaustive(three)
    hidden = Position.create([[1], [2], [3], [4]], [[5, 6], None], deck=24)
    with pytest.raises(NotSolvableError, match="hand of player 2"):
        solve_exhaustive(hidden)


def test_refuses_bad_states_and_options():
    bulls, hand1, hand2, rows = rank_form(SMALL[0])
    with pytest.raises(ValueError, match="two hands"):
        solve_levels(bulls, hand1, hand2[:-1], rows)
    with pytest.raises(ValueError, match="distinct"):
        solve_levels(bulls, hand1, hand1, rows)
    with pytest.raises(ValueError, match="4 rows"):
        solve_levels(bulls, hand1, hand2, rows[:3])
    with pytest.raises(ValueError, match="at least 1"):
        solve_levels(bulls, hand1, hand2, rows, lowest=0)
    with pytest.raises(ValueError, match="at least 1"):
        solve_levels(bulls, hand1, hand2, rows, threads=0)


def test_an_empty_hand_is_worth_nothing():
    done = Position.create([[1], [2], [3], [4]], [[], []], deck=24)
    result = solve_exhaustive(done)
    assert result.value == 0.0 and result.states_per_level == {}


# a game of an 8-card position whose first solution fails its certificate -------------------
NEAR_TIES = [[-2.0, -4.755102040816327, -4.462332301341589, -3.63265306122449, -1.0],
             [-2.0, -4.1000000000000005, -4.190552441953562, -3.636363636363635, -1.0],
             [-2.0, -4.1, -4.184971098265896, -3.6363636363636367, -2.0],
             [-6.0, -3.818181818181818, -3.5, -4.0, -4.0],
             [-6.0, -5.428571428571429, -4.571428571428571, -5.0, -5.0]]


def test_a_failed_certificate_is_solved_again_from_the_other_side():
    from solver._exhaustive import certified_solution
    from solver._matgame import solve_matrix
    _, x, _ = solve_matrix(np.array(NEAR_TIES))
    assert abs(x.sum() - 1) > 1e-4                 # rows 1 and 2 equal but for rounding
    value, x, y, retried = certified_solution(NEAR_TIES)
    assert retried
    assert abs(value - reference_solution_value(NEAR_TIES)) <= TOL
    assert_equilibrium(NEAR_TIES, x, y, value, tol=TOL)


def reference_solution_value(matrix) -> float:
    from tests.reference_solver import solve_matrix_lp
    return solve_matrix_lp(matrix)[0]

