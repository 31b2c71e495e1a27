"""The seeds' worked examples and the bullhead table."""
from solver.core.rules import bullheads, play_turn, target_row, fewest_bullheads_chooser
from solver._rules import c_bullheads, c_play_turn


def test_bullhead_total_is_171():
    assert sum(bullheads(c) for c in range(1, 105)) == 171
    assert [bullheads(c) for c in (1, 5, 10, 11, 55, 100, 104)] == [1, 2, 3, 5, 7, 3, 1]


def test_c_bullheads_match():
    assert all(c_bullheads(c) == bullheads(c) for c in range(1, 105))


def test_seed_example_29_goes_after_24():
    rows = [[8], [24], [69], [81]]
    assert target_row(rows, 29) == 1
    new_rows, taken = play_turn(rows, [29], fewest_bullheads_chooser)
    assert new_rows == [[8], [24, 29], [69], [81]] and taken == [[]]


def test_seed_example_3_takes_the_row_of_its_choice():
    rows = [[8], [24], [69], [81]]
    assert target_row(rows, 3) is None
    new_rows, taken = play_turn(rows, [3], lambda player, rows, card: 2)
    assert new_rows == [[8], [24], [3], [81]] and taken == [[69]]
    assert c_play_turn(rows, [3], [2]) == ([[8], [24], [3], [81]], [1])


def test_the_rows_taken_by_choice_and_by_a_sixth_card():
    # 2 is too low and takes row 1 by choice; 45 and 65 are the sixth cards of rows 0 and 2
    rows = [[10, 20, 30, 40, 44], [50], [60, 61, 62, 63, 64], [90]]
    taken_rows = [None] * 4
    new_rows, taken = play_turn(rows, [2, 45, 65, 91], lambda player, rows, card: 1, taken_rows)
    assert taken_rows == [1, 0, 2, None]
    assert taken == [[50], [10, 20, 30, 40, 44], [60, 61, 62, 63, 64], []]
    # a row that a sixth card starts, taken again by a later sixth card of the same turn
    rows = [[10, 20, 30, 40, 44], [1], [2], [3]]
    taken_rows = [None] * 7
    _, taken = play_turn(rows, [45, 46, 47, 48, 49, 50, 51], fewest_bullheads_chooser,
                         taken_rows)
    assert taken_rows == [0, None, None, None, None, 0, None]
    assert taken[5] == [45, 46, 47, 48, 49]
