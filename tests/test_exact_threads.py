"""The exact search on several threads (from 7-card roots on, a pool of helper threads shares
the reply tests of nodes of 5+ cards): the same values as one thread, equilibrium strategies,
limits that stop every thread. More threads than cores (3 and 4 here) must be as correct,
only slower."""
import random

import pytest

import solver.exact.engine
from solver.core.position import Position
from solver.errors import NimmtError, SearchLimitError
from solver.exact import Engine, solve
from solver.limits import Limit
from tests.positions_gen import random_deal, random_midround
from tests.support import assert_equilibrium, strategy_vector

TOL = 1e-6


def positions(count: int, seed: int):
    """Mid-round positions and fresh deals of 5 to 7 cards: big enough to be shared out."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        k = rng.choice([5, 6, 6, 7])
        out.append(random_midround(rng, k) if rng.random() < 0.7 else random_deal(rng, k))
    return out


@pytest.mark.parametrize("position", positions(12, seed=2026), ids=lambda p: p.to_text())
def test_two_threads_give_the_value_and_equilibria(position):
    one = solve(position, card_values=False)
    two = solve(position, threads=2)
    assert two.value == pytest.approx(one.value, abs=1e-9)
    assert (two.stats.helper_nodes > 0) == (position.hand_size >= 7)
    # the strategies are an equilibrium of the whole root matrix (every entry exact)
    matrix = Engine(position).full_matrix(position)
    h1, h2 = position.hands
    x = strategy_vector(two.strategies[0], h1)
    y = strategy_vector(two.strategies[1], h2)
    assert_equilibrium(matrix, x, y, two.value, TOL)
    # and every card's value is its entries against the opponent's strategy
    for i, card in enumerate(h1):
        assert two.card_values[0][card] == pytest.approx(matrix[i] @ y, abs=TOL)
    for j, card in enumerate(h2):
        assert two.card_values[1][card] == pytest.approx(x @ matrix[:, j], abs=TOL)


def answer(solution):
    """What a user reads of a solution, to 9 decimals: the last bits of a float depend on the
    path that computed it, which threads change."""
    def r(v):
        return None if v is None else round(v, 9)
    return (r(solution.value),
            [{c: r(p) for c, p in s.items()} for s in solution.strategies],
            [{c: r(v) for c, v in d.items()} for d in solution.card_values],
            [(line.cards, r(line.probability), line.row_choice, line.penalties)
             for line in solution.principal_line])


# an 8-card position where two threads used to report another equilibrium than one thread
# (player 2's card 2 in place of 3, as good); and two 7-card ones
SAME_ANSWER = ["24; 10, 1 8 9, 12, 14 15; 4 5 6 11 17 21 22 24, 2 3 7 13 16 19 20 23; 0 1",
               *[p.to_text() for p in positions(20, seed=5) if p.hand_size == 7][:2]]


@pytest.mark.parametrize("threads", [2, 4])
@pytest.mark.parametrize("text", SAME_ANSWER)
def test_the_answer_does_not_depend_on_the_threads(text, threads, monkeypatch):
    """Node counts vary with the threads' timing; the root's answer must not: its decisions
    read only the window edges and grid-rounded entries (cext/node.pxd), it tests replies as
    one thread would, and it ignores the table's cards and the killers."""
    monkeypatch.setattr(solver.exact.engine, "max_threads", lambda: 8)
    position = Position.from_text(text)
    assert answer(solve(position, threads=threads)) == answer(solve(position))


@pytest.fixture
def many_cores(monkeypatch):
    """Let an engine take more threads than this machine has cores."""
    monkeypatch.setattr(solver.exact.engine, "max_threads", lambda: 8)


@pytest.mark.parametrize("threads", [3, 4])
@pytest.mark.parametrize("position", positions(16, seed=77), ids=lambda p: p.to_text())
def test_more_threads_than_cores_give_the_same_value(position, threads, many_cores):
    one = solve(position, card_values=False, principal_line=False)
    many = solve(position, threads=threads, card_values=False, principal_line=False)
    assert many.value == pytest.approx(one.value, abs=1e-9)
    assert (many.stats.helper_nodes is not None) and many.stats.helper_nodes >= 0


@pytest.mark.parametrize("threads", [2, 4])
@pytest.mark.parametrize("limit", [Limit(nodes=20_000), Limit(seconds=0.02)])
def test_a_limit_stops_every_thread_with_true_bounds(limit, threads, many_cores):
    position = random_midround(random.Random(3), 7)
    value = 1.3996526801747238               # this position's value (one thread)
    with pytest.raises(SearchLimitError) as stopped:
        solve(position, limit, threads=threads, card_values=False)
    lower, upper = stopped.value.bounds
    if lower is not None:
        assert lower - 1e-9 <= value <= upper + 1e-9
    # the same engine solves it afterwards: nothing left running or half-written
    engine = Engine(position, threads=threads)
    with pytest.raises(SearchLimitError):
        engine.solve(position, limit, card_values=False)
    assert engine.solve(position, card_values=False).value == pytest.approx(value, abs=1e-9)


@pytest.mark.parametrize("threads", [2, 4])
def test_the_node_limit_counts_every_thread(threads, many_cores):
    """--max-nodes bounds the work of all threads together (each helper's count may lag by
    less than 256 nodes), not the main thread's alone."""
    position = random_midround(random.Random(8), 8)
    limit = 200_000
    with pytest.raises(SearchLimitError) as stopped:
        solve(position, Limit(nodes=limit), threads=threads, card_values=False)
    stats = stopped.value.stats
    assert stats.helper_nodes > 0
    assert stats.nodes + stats.helper_nodes <= limit + 256 * threads + 1


def test_four_threads_solve_an_eight_card_position(many_cores):
    """Deep enough for helpers to hand work on to other helpers."""
    position = random_midround(random.Random(8), 8)
    one = solve(position, card_values=False, principal_line=False)
    four = solve(position, threads=4, card_values=False, principal_line=False)
    assert four.value == pytest.approx(one.value, abs=1e-9)
    assert four.stats.helper_nodes > 0


def test_no_more_threads_than_cores():
    position = random_midround(random.Random(3), 7)
    most = solver.exact.engine.max_threads()
    with pytest.raises(NimmtError, match=f"threads must be in 1..{most}"):
        Engine(position, threads=most + 1)
    with pytest.raises(NimmtError):
        Engine(position, threads=0)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_critical_path_is_within_the_work(seed):
    """One thread measures the span: never more than the work, shorter as more groups are
    counted parallel, the whole work where no node is big enough to share (4 cards)."""
    rng = random.Random(seed)
    for position in (random_midround(rng, 7), random_deal(rng, 4)):
        engine = Engine(position)
        engine.solve(position, card_values=False)
        stats = engine.search.stats
        tests, refines, rows = stats["span"]
        assert 0 < rows <= refines <= tests <= stats["nodes"]
        if position.hand_size < 5:
            assert tests == rows == stats["nodes"]
