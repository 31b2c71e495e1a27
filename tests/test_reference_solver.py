"""Checks of the slow reference solver itself (tests/reference_solver.py): the worked
example of docs/formats.mds, hand-checked small cases, symmetries, and that its LP gives equilibria."""
import random

import numpy as np
import pytest

from solver.core.position import Position
from solver.core.rules import bullheads, place_card, target_row
from tests import reference_solver as ref
from tests.positions_gen import SMALL_POSITIONS, random_deal, random_midround, small_positions
from tests.support import assert_equilibrium

TOL = 1e-9


def pos(rows, hands, penalties=None):
    return Position.create(rows, hands, penalties, deck=24)


def swapped(p: Position) -> Position:
    """The same position with the players' roles exchanged."""
    return pos([list(r) for r in p.rows], [list(p.hands[1]), list(p.hands[0])],
               [p.penalties[1], p.penalties[0]])


# the worked examples of docs/formats.md -------------------------------------------------
def test_spec_worked_example_matrix_value_and_strategies(spec_worked_position):
    p = Position.from_dict(spec_worked_position)
    M = ref.reference_matrix(p)
    assert M.tolist() == [[-2, 8], [6, -1]]
    assert ref.reference_value(p) == pytest.approx(46 / 17, abs=TOL)
    value, x, y, _ = ref.reference_solution(p)
    assert value == pytest.approx(46 / 17, abs=TOL)
    # Fully mixed 2x2 game: the equilibrium is unique.
    assert x == pytest.approx([7 / 17, 10 / 17], abs=1e-9)
    assert y == pytest.approx([9 / 17, 8 / 17], abs=1e-9)
    assert_equilibrium(M, x, y, value, TOL)


def test_spec_exchange_format_example_is_minus_4(spec_exchange_position):
    p = Position.from_dict(spec_exchange_position)
    assert ref.reference_value(p) == pytest.approx(-4, abs=TOL)


# hand-checked cases ---------------------------------------------------------------------
def test_one_card_each_no_penalty():
    # 10 goes after 8, 20 after 18.
    assert ref.reference_value(pos([[3], [8], [13], [18]], [[10], [20]])) == 0


def test_sixth_card_takes_the_row():
    # 6 is the 6th card of row 0: player 1 takes 1+1+1+1+2 = 6 bullheads.
    assert ref.reference_value(pos([[1, 2, 3, 4, 5], [8], [13], [18]], [[6], [20]])) == -6
    # The same card played by player 2: now player 2 takes the 6 bullheads.
    assert ref.reference_value(pos([[1, 2, 3, 4, 5], [8], [13], [18]], [[22], [6]])) == 6


def test_too_low_card_takes_cheapest_row_when_nothing_else_matters():
    # 1 is too low; rows cost 2, 3, 2, 3: player 1 takes a 2-bullhead row; 22 goes after 20.
    assert ref.reference_value(pos([[5], [10], [15], [20]], [[1], [22]])) == -2
    assert ref.reference_value(pos([[5], [10], [15], [20]], [[22], [1]])) == 2


# Rows: 0 = [4] (1 bullhead), 1 = [10 12 13 14 15] (8, full), 2 = [11 16] (6), 3 = [20] (3).
# Player 1's 1 is too low, player 2's 17 is resolved next. Taking row 2 (6 bullheads) moves
# 17's target to the full row 1, which player 2 then takes (8): +2, while the cheapest row
# (row 0) gives -1.
NOT_CHEAPEST_ROWS = [[4], [10, 12, 13, 14, 15], [11, 16], [20]]


def test_best_row_choice_is_not_the_cheapest():
    values = ref.row_choice_values(NOT_CHEAPEST_ROWS, 1, 0, 17, ([], []))
    assert values == [-1, -8, 2, -3]
    assert ref.reference_value(pos(NOT_CHEAPEST_ROWS, [[1], [17]])) == 2


def test_best_row_choice_is_not_the_cheapest_for_player_2():
    assert ref.row_choice_values(NOT_CHEAPEST_ROWS, 1, 1, 17, ([], [])) == [1, 8, -2, 3]
    assert ref.reference_value(pos(NOT_CHEAPEST_ROWS, [[17], [1]])) == -2


def test_taking_the_dearest_full_row_now_beats_the_cheapest():
    # Player 1's 1 is too low (player 2 plays 2). Row 0 is full (9 bullheads): player 1's
    # last card 16 would be its 6th card next turn anyway, so taking it now (-9) beats the
    # cheapest rows (2 bullheads now, then 9 next turn: -11).
    rows = [[5, 7, 9, 10, 15], [22], [17, 18], [4, 6]]
    assert ref.row_choice_values(rows, 1, 0, 2, ([16], [23])) == [-9, -14, -11, -11]


def test_row_choice_counts_later_turns():
    # Last turn (after this one): player 1 holds 21, player 2 holds 9. Row 3 = [20] is
    # where 21 would go; both players' choices now shape what follows, and the reference
    # must agree with a hand enumeration of the 4 choices then the forced last turn.
    rows = [[5], [10], [15], [20]]
    p = pos(rows, [[1, 21], [9, 24]])
    M = ref.reference_matrix(p)

    def by_hand(c1, c2, rest1, rest2):
        best = None
        for r in range(4):   # player 1's 1 is too low, so player 1 chooses
            rws = [list(x) for x in rows]
            v = -sum(bullheads(c) for c in rws[r])
            rws[r] = [c1]
            v += sum(bullheads(c) for c in place_card(rws, c2))
            v += ref.reference_value(pos(rws, [[rest1], [rest2]]))
            best = v if best is None else max(best, v)
        return best

    assert M[0, 0] == by_hand(1, 9, 21, 24)
    assert M[0, 1] == by_hand(1, 24, 21, 9)


def test_penalties_so_far_do_not_change_the_value():
    for p in SMALL_POSITIONS[:8]:
        q = pos([list(r) for r in p.rows], [list(h) for h in p.hands], [17, 3])
        assert ref.reference_value(q) == ref.reference_value(p)


def test_last_turn_values_are_integers():
    for p in SMALL_POSITIONS:
        if p.hand_size == 1:
            v = ref.reference_value(p)
            assert v == int(v)


# symmetries and equilibria ----------------------------------------------------------------
def test_swapping_the_players_negates_the_value():
    positions = SMALL_POSITIONS + [random_midround(random.Random(5), 5)]
    for p in positions:
        assert ref.reference_value(swapped(p)) == pytest.approx(-ref.reference_value(p), abs=1e-7)


def test_swapping_the_players_transposes_and_negates_the_matrix():
    for p in SMALL_POSITIONS:
        assert np.allclose(ref.reference_matrix(swapped(p)), -ref.reference_matrix(p).T, atol=1e-7)


def test_lp_strategies_are_equilibria_of_root_matrices():
    for p in SMALL_POSITIONS + small_positions(20, seed=7, max_size=4):
        value, x, y, M = ref.reference_solution(p)
        assert value == pytest.approx(ref.reference_value(p), abs=1e-7)
        assert_equilibrium(M, x, y, value, tol=1e-7)


def test_at_least_one_strictly_mixed_root_in_the_samples():
    # Guards against a test set made only of pure saddle points.
    mixed = 0
    for p in small_positions(40, seed=11, max_size=4):
        M = ref.reference_matrix(p)
        if M.max(axis=0).min() - M.min(axis=1).max() > 1e-9:
            mixed += 1
    assert mixed >= 1


@pytest.mark.parametrize("M,value", [
    ([[1, -1], [-1, 1]], 0.0),                                  # matching pennies
    ([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], 0.0),                # rock-paper-scissors
    ([[3, 1], [4, 2]], 2.0),                                    # saddle point
    ([[1, 5, -2]], -2.0),                                       # 1xN
    ([[1], [5], [-2]], 5.0),                                    # Nx1
    ([[2, 2], [2, 2]], 2.0),                                    # all equal
    ([[-2, 8], [6, -1]], 46 / 17),                              # the worked example
])
def test_lp_on_known_games(M, value):
    v, x, y = ref.solve_matrix_lp(M)
    assert v == pytest.approx(value, abs=TOL)
    assert ref.matrix_value(M) == pytest.approx(value, abs=TOL)
    assert_equilibrium(np.asarray(M, float), x, y, v, TOL)


def test_lp_on_random_integer_matrices():
    rng = random.Random(3)
    for _ in range(200):
        m, n = rng.randint(1, 6), rng.randint(1, 6)
        M = np.array([[rng.randint(-3, 3) for _ in range(n)] for _ in range(m)], float)
        v, x, y = ref.solve_matrix_lp(M)
        assert_equilibrium(M, x, y, v, TOL)
        assert ref.matrix_value(M) == pytest.approx(v, abs=TOL)


# the reference's own placement against solver.rules ---------------------------------------
def test_reference_placement_matches_rules():
    rng = random.Random(9)
    for _ in range(300):
        p = random_midround(rng, rng.randint(1, 10))
        rows = tuple(tuple(r) for r in p.rows)
        for card in p.hands[0] + p.hands[1]:
            got = ref._place(rows, card)
            if target_row(rows, card) is None:
                assert got is None
                continue
            work = [list(r) for r in rows]
            taken = place_card(work, card)
            assert got == (tuple(tuple(r) for r in work), sum(bullheads(c) for c in taken))


def test_only_the_lowest_card_can_be_too_low():
    # The rules' claim (docs/rules.md); the reference does not rely on it, but the fast solver may.
    rng = random.Random(4)
    for _ in range(300):
        p = random_deal(rng, rng.randint(1, 10)) if rng.random() < 0.5 else \
            random_midround(rng, rng.randint(1, 10))
        rows = tuple(tuple(r) for r in p.rows)
        for low in p.hands[0]:
            for high in p.hands[1]:
                a, b = sorted((low, high))
                if ref._place(rows, a) is None:
                    for r in range(4):
                        after = rows[:r] + ((a,),) + rows[r + 1:]
                        assert ref._place(after, b) is not None
                else:
                    assert ref._place(ref._place(rows, a)[0], b) is not None


# generators -------------------------------------------------------------------------------
def test_generators_are_deterministic_and_valid():
    a = small_positions(30, seed=1)
    b = small_positions(30, seed=1)
    assert [p.to_text() for p in a] == [p.to_text() for p in b]
    for p in a:
        assert p.deck == 24 and p.players == 2 and 1 <= p.hand_size <= 6
    full = random_deal(random.Random(0), 10)
    cards = sorted(c for part in full.rows + full.hands for c in part)
    assert cards == list(range(1, 25))
    mid = random_midround(random.Random(0), 3)
    assert mid.hand_size == 3 and sum(len(r) for r in mid.rows) >= 4
