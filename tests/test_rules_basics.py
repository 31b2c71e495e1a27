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
