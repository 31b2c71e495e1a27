"""A search stopped by a limit reports the bounds proven so far: they always hold the value,
a bigger node budget never proves less (one thread: the search is deterministic), and the
reply tests under way count: stopped at its last node, a search has proven one side."""
import random

import pytest

from solver.errors import SearchLimitError
from solver.exact import solve
from solver.limits import Limit
from solver.exact.engine import UNBOUNDED
from tests.positions_gen import random_deal, random_midround

FRACTIONS = (0.1, 0.3, 0.5, 0.7, 0.9, 0.99)


def positions():
    rng = random.Random(77)
    out = [random_midround(rng, 6) for _ in range(3)] + [random_midround(rng, 7) for _ in range(2)]
    return out + [random_deal(rng, 6)]


def bounds_at(position, max_nodes):
    """(lower, upper) proven within max_nodes, None if the search finished."""
    try:
        solve(position, Limit(nodes=max_nodes), card_values=False)
    except SearchLimitError as stopped:
        lower, upper = stopped.bounds          # beyond UNBOUNDED: the search's infinities
        return (-UNBOUNDED if lower is None else max(lower, -UNBOUNDED),
                UNBOUNDED if upper is None else min(upper, UNBOUNDED))
    return None


@pytest.mark.parametrize("position", positions(), ids=lambda p: p.to_text())
def test_stopped_bounds_hold_the_value_and_only_tighten(position):
    full = solve(position, card_values=False)
    lower, upper = -UNBOUNDED, UNBOUNDED
    for fraction in FRACTIONS:
        found = bounds_at(position, int(full.stats.nodes * fraction))
        if found is None:
            break
        assert found[0] - 1e-9 <= full.value <= found[1] + 1e-9
        assert found[0] >= lower - 1e-9 and found[1] <= upper + 1e-9
        lower, upper = found


@pytest.mark.parametrize("position", positions(), ids=lambda p: p.to_text())
def test_a_search_stopped_at_its_last_node_has_proven_one_side(position):
    # the root's last round tests player 1's replies (which prove the upper bound) before
    # player 2's (the lower bound); the last node is in the second batch
    full = solve(position, card_values=False)
    lower, upper = bounds_at(position, full.stats.nodes - 1)
    assert min(full.value - lower, upper - full.value) < 1e-6


ROWS_POSITION = ("24; 2, 5 11 13 15 17, 18 22, 23 24; 1 3 7 10 12 14 16,"
                 " 4 6 8 9 19 20 21; 0 0")


def test_a_limit_that_stops_the_row_advice_never_names_a_row():
    """`nimmt best` searches each too-low card's rows after the solve, under its limits: a
    limit hit there leaves the row advice out (None), never a row from a stopped search."""
    from solver.advice import exact_advice
    from solver.core.position import Position
    position = Position.from_text(ROWS_POSITION)
    full = exact_advice(position)
    assert any(p["row_choices"] for p in full["players"])
    solved_at = solve(position, card_values=True).stats.nodes
    outcomes = set()
    for extra in (0, 1, 5, 10, 10_000_000):
        advice = exact_advice(position, Limit(nodes=solved_at + extra))
        assert advice["value"] == full["value"]
        for player, whole in zip(advice["players"], full["players"]):
            assert player["row_choices"] in (None, whole["row_choices"])
            outcomes.add(player["row_choices"] is None)
    assert outcomes == {True, False}
