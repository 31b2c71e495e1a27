"""The exact engine owns its table: `close()` and `with` free it, and a `Solution` is plain
data that keeps no search (and so no table) alive."""
import gc
import types

import pytest

from solver import errors
from solver._search import ExactSearch
from solver.core.position import Position
from solver.exact import Engine, solve
from solver.exact.solution import SearchStats

POSITION = Position.from_text("24; 2 3 7 10 14, 6 8 11 12 13, 20 21, 24; 19 22, 5 17")


def holds_a_search(root) -> bool:
    """Whether an Engine or a C search can be reached from `root` by its references."""
    seen, todo = set(), [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (type, types.ModuleType)):
            continue
        seen.add(id(obj))
        if isinstance(obj, (Engine, ExactSearch)):
            return True
        todo.extend(gc.get_referents(obj))
    return False


def test_a_solution_keeps_no_search_alive():
    with Engine(POSITION) as engine:
        solution = engine.solve(POSITION, principal_line=True)
        assert holds_a_search({"kept": [engine]})          # the check sees one when it is there
        assert not holds_a_search(solution)
    assert solution.value == pytest.approx(46 / 17)
    assert solution.principal_line and isinstance(solution.stats, SearchStats)
    assert not holds_a_search(solve(POSITION))


def test_a_closed_engine_frees_its_table_and_refuses_work():
    with Engine(POSITION) as engine:
        solution = engine.solve(POSITION)
        assert isinstance(engine.search, ExactSearch)
    assert not holds_a_search(engine.__dict__)             # the table went with the search
    with pytest.raises(errors.NimmtError, match="closed"):
        engine.solve(POSITION)
    engine.close()                                   # twice is harmless
    assert solution.to_dict()["value"] == pytest.approx(46 / 17)


def test_the_stats_are_a_documented_type_with_the_json_keys():
    stats = solve(POSITION, principal_line=False).stats
    data = stats.to_dict()
    assert list(data)[:3] == ["nodes", "small_nodes", "endgame_hits"]
    assert data["small_nodes"] == stats.small_nodes == 1 and len(data["by_cards"]) == 11
    assert "helper_nodes" not in data and data["card_values_complete"] is True


def test_wrong_arguments_get_the_project_s_errors():
    """Arguments a Python caller can get wrong are refused with a NimmtError that says what
    was wanted, not an AttributeError from deep inside."""
    position = Position.from_text("24; 3, 7, 12, 21; 1, 2")
    with pytest.raises(errors.NotSolvableError, match="takes a Position"):
        solve("24; 3, 7, 12, 21; 1, 2")
    for tt_mb in (-5, 0, True, "8", 10 ** 6):
        with pytest.raises(errors.NimmtError, match="tt_mb must be in"):
            Engine(position, tt_mb=tt_mb)
    with pytest.raises(errors.NotationError, match="a string, got NoneType"):
        Position.from_text(None)
    with pytest.raises(errors.JsonFormatError, match="JSON is text"):
        Position.from_json(None)
    # player 2's hand is the four cards nobody else holds
    hidden = Position.from_text("24; 3 10 11 13, 7 9 14 16, 12 15 17 18, 19 20 21 22; 1 2 4 24, ?")
    with pytest.raises(errors.NotSolvableError, match=r"determine it: position.deduced\(\)"):
        solve(hidden)
    known, seat = hidden.deduced()
    assert seat == 1 and known.hands[1] == (5, 6, 8, 23)
    assert solve(known).value == pytest.approx(-15.2468, abs=1e-4)
