"""The node matrix-game solver against SciPy's HiGHS LP, on random and degenerate matrices."""
import numpy as np
import pytest
from scipy.optimize import linprog

from solver._matgame import certify, solve_matrix
from tests.support import assert_equilibrium


def lp_value(a):
    """Row player's maximin by LP: max v s.t. x A >= v, sum x = 1, x >= 0."""
    m, n = a.shape
    cost = np.zeros(m + 1)
    cost[-1] = -1.0
    a_ub = np.hstack([-a.T, np.ones((n, 1))])
    a_eq = np.zeros((1, m + 1))
    a_eq[0, :m] = 1.0
    res = linprog(cost, A_ub=a_ub, b_ub=np.zeros(n), A_eq=a_eq, b_eq=[1.0],
                  bounds=[(0, None)] * m + [(None, None)], method="highs")
    return res.x[-1]


def check(a):
    value, x, y = solve_matrix(a)
    assert value == pytest.approx(lp_value(a), abs=1e-9)
    for s in (x, y):
        assert s.min() >= -1e-12 and abs(s.sum() - 1.0) < 1e-12
    assert abs(certify(a, x, y)) < 1e-9
    assert min(x @ a) == pytest.approx(value, abs=1e-9)
    assert_equilibrium(a, x, y, value, tol=1e-9)


def test_spec_example():
    value, x, y = solve_matrix(np.array([[-2.0, 8.0], [6.0, -1.0]]))
    assert value == pytest.approx(46 / 17, abs=1e-12)
    assert x == pytest.approx([7 / 17, 10 / 17]) and y == pytest.approx([9 / 17, 8 / 17])


@pytest.mark.parametrize("seed", range(4))
def test_random_integer_matrices(seed):
    rng = np.random.default_rng(seed)
    for _ in range(300):
        m, n = rng.integers(1, 11, 2)
        check(rng.integers(-3, 4, (m, n)).astype(float))


def test_random_real_matrices():
    rng = np.random.default_rng(7)
    for _ in range(200):
        m, n = rng.integers(1, 11, 2)
        check(rng.normal(size=(m, n)) * 20)


@pytest.mark.parametrize("a", [
    np.zeros((10, 10)),
    np.ones((3, 7)) * 5,
    np.array([[1.0, 2.0, 3.0]]),
    np.array([[1.0], [-2.0], [3.0]]),
    np.tile([[0.0, 1.0], [1.0, 0.0]], (5, 5)),         # repeated rows and columns
    np.eye(10) - np.eye(10)[::-1],
    np.array([[0, 1, -1], [-1, 0, 1], [1, -1, 0]], dtype=float),  # rock paper scissors
])
def test_degenerate_matrices(a):
    check(a)


def test_refuses_bad_sizes():
    with pytest.raises(ValueError):
        solve_matrix(np.zeros((11, 2)))
    with pytest.raises(ValueError):
        solve_matrix(np.array([[np.nan]]))
