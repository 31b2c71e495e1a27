"""Exact rational equilibria of a root matrix game, for clean, reproducible output.

The search returns floating point strategies (8/17 may come out as 0.4705882352941176, one
unit in the last place away from 0.47058823529411764). Matrix entries are rationals (sums of
bullheads, or values of smaller games), so once the supports are known the equilibrium is the
solution of a small linear system, which `exact_equilibrium` solves in fractions. The result
is used only when it is certified: non-negative probabilities, a value within 1e-9 of the
search's, and no pure reply of either player better than the value by more than 1e-9.
"""
from fractions import Fraction
from typing import List, Optional, Sequence, Tuple

import numpy as np

MAX_DENOMINATOR = 10 ** 6
SNAP_TOLERANCE = 1e-10      # a float is read as a fraction only if this close to it
CERTIFY_TOLERANCE = 1e-9
PROBABILITY_FLOOR = 1e-12

Refined = Tuple[float, List[float], List[float], List[float], List[float]]


def rational(v: float) -> Fraction:
    """The simple fraction a float stands for (46/17 for 2.7058823529411766)."""
    f = Fraction(float(v)).limit_denominator(MAX_DENOMINATOR)
    return f if abs(float(f) - v) <= SNAP_TOLERANCE else Fraction(float(v))


def solve_linear(a: List[List[Fraction]], b: List[Fraction]) -> Optional[List[Fraction]]:
    """Gauss-Jordan elimination in fractions; None if the system is singular."""
    n = len(a)
    m = [row[:] + [rhs] for row, rhs in zip(a, b)]
    for col in range(n):
        pivot = next((r for r in range(col, n) if m[r][col] != 0), None)
        if pivot is None:
            return None
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[r][col] != 0:
                factor = m[r][col] / m[col][col]
                m[r] = [u - factor * w for u, w in zip(m[r], m[col])]
    return [m[i][n] / m[i][i] for i in range(n)]


def support_strategy(game: List[List[Fraction]]) -> Optional[List[Fraction]]:
    """Mixed strategy of the row player of a square `game` making every column worth the
    same, and that common value (last element)."""
    k = len(game)
    a = [[game[i][j] for i in range(k)] + [Fraction(-1)] for j in range(k)]
    a.append([Fraction(1)] * k + [Fraction(0)])
    return solve_linear(a, [Fraction(0)] * k + [Fraction(1)])


def exact_equilibrium(matrix: np.ndarray, x: Sequence[float], y: Sequence[float],
                      value: float) -> Optional[Refined]:
    """(value, x, y, row card values, column card values) in exact arithmetic, rounded once
    to floats; None when the supports do not give a certified equilibrium."""
    if matrix.ndim != 2 or not len(x):
        return None
    rows = [i for i, p in enumerate(x) if p > PROBABILITY_FLOOR]
    cols = [j for j, p in enumerate(y) if p > PROBABILITY_FLOOR]
    if len(rows) != len(cols) or np.isnan(matrix[np.ix_(rows, cols)]).any():
        return None
    game = [[rational(matrix[i, j]) for j in cols] for i in rows]
    sx = support_strategy(game)
    sy = support_strategy([[-game[i][j] for i in range(len(rows))] for j in range(len(cols))])
    if sx is None or sy is None or min(sx[:-1] + sy[:-1]) < 0 or sx[-1] != -sy[-1]:
        return None
    exact_value = sx[-1]
    if abs(float(exact_value) - value) > CERTIFY_TOLERANCE:
        return None
    xs = dict(zip(rows, sx[:-1]))
    ys = dict(zip(cols, sy[:-1]))
    # a card outside the support whose entries were not all computed (card values skipped
    # or stopped by a limit) stays unknown: the search has proven it does no better
    row_values = [expectation(matrix[i, cols], [ys[j] for j in cols]) for i in range(len(x))]
    col_values = [expectation(matrix[rows, j], [xs[i] for i in rows]) for j in range(len(y))]
    known_rows = [v for v in row_values if v is not None]
    known_cols = [v for v in col_values if v is not None]
    if max(known_rows) > exact_value + CERTIFY_TOLERANCE or \
            min(known_cols) < exact_value - CERTIFY_TOLERANCE:
        return None
    return (float(exact_value), [float(xs.get(i, 0)) for i in range(len(x))],
            [float(ys.get(j, 0)) for j in range(len(y))],
            [as_float(v) for v in row_values], [as_float(v) for v in col_values])


def as_float(v: Optional[Fraction]) -> float:
    return float("nan") if v is None else float(v)


def expectation(entries: Sequence[float], probabilities: Sequence[Fraction]) -> Optional[Fraction]:
    """Exact expected entry; None if an entry needed is unknown (NaN)."""
    if any(np.isnan(e) for e in entries):
        return None
    return sum((rational(e) * p for e, p in zip(entries, probabilities)), Fraction(0))
