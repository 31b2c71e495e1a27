"""Every bound the exact search stores on its way is true, not only the root's value.

The search is run in self-check mode (`ExactSearch.enable_self_check`): each time a node
stores what it proved (an exact value, or a bound outside its window), a second context
solves the same node by backward induction (no pruning, canonical keys, its own table) and
counts a failure when the value is outside the stored bounds. Pruning bugs that the root's
value hides (a wrong bound that a later search happens not to use, or uses under another
search order) show here, in both key modes. This is how a rounding of shifted windows was
found (see test_exact_vs_reference.test_window_shift_rounding).
"""
import random

import pytest

from solver.exact import Engine
from solver.core.position import Position
from tests.positions_gen import WINDOW_SHIFT_ROUNDING, random_midround, small_positions

CHECKER_ENTRIES = 1 << 20
# the last one stored wrong bounds with exact keys before the window-shift rounding fix
POSITIONS = (small_positions(24, seed=77, max_size=6, weights=[0, 0, 4, 6, 8, 6])
             + [random_midround(random.Random(seed), 7) for seed in range(2)]
             + [Position.from_text(WINDOW_SHIFT_ROUNDING)])


@pytest.mark.parametrize("no_canonical", [False, True], ids=["canonical", "exact-keys"])
@pytest.mark.parametrize("k", range(len(POSITIONS)))
def test_every_stored_bound_is_true(k, no_canonical):
    position = POSITIONS[k]
    engine = Engine(position, no_canonical=no_canonical)
    engine.search.enable_self_check(CHECKER_ENTRIES)
    engine.solve(position)             # the card values too: more searches, other windows
    stats = engine.search.stats
    assert stats["exact_nodes"] + stats["fail_highs"] + stats["fail_lows"] > 0   # were checked
    assert engine.search.check_failures == 0, position.to_text()


def test_a_big_2card_cache_changes_nothing_but_speed(monkeypatch):
    """Full deals get a bigger 2-card cache; forced onto small positions, the values are the
    same and the self-check (whose cache has the same size) still passes."""
    import solver.exact.engine as exact
    positions = POSITIONS[:6] + [POSITIONS[-1]]
    default = [Engine(p).solve(p, card_values=False).value for p in positions]
    monkeypatch.setattr(exact, "ENDGAME_LOG2_BY_HAND", {k: 24 for k in range(1, 11)})
    for position, value in zip(positions, default):
        engine = Engine(position)
        engine.search.enable_self_check(CHECKER_ENTRIES)
        assert engine.solve(position, card_values=False).value == pytest.approx(value, abs=1e-9)
        assert engine.search.check_failures == 0


@pytest.mark.parametrize("log2", [9, 29])
def test_2card_cache_size_out_of_range_refused(log2):
    from solver._search import ExactSearch
    with pytest.raises(ValueError, match=str(log2)):
        ExactSearch([1] * 24, 1024, log2)
