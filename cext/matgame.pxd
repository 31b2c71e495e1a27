# Exact solver for small zero-sum matrix games (at most MAX_ACTIONS x MAX_ACTIONS), in C.
#
# solve_game: pure saddle point check, iterated weak dominance, then a dense simplex with
# Bland's rule (no cycling on degenerate integer matrices). The row player maximizes.
# Inline nogil functions in this .pxd so the search module cimports them without a runtime
# import (the modules are built as solver._NAME, see setup.py).

from libc.math cimport fabs

cdef enum:
    MAX_ACTIONS = 10
    TABLEAU_COLS = 2 * MAX_ACTIONS + 1

cdef extern from *:
    """
    #define NIMMT_PIVOT_TOL 1e-12
    #define NIMMT_CERTIFY_TOL 1e-9
    """
    const double PIVOT_TOL "NIMMT_PIVOT_TOL"      # smallest usable pivot
    const double CERTIFY_TOL "NIMMT_CERTIFY_TOL"  # guarantees meet within this


cdef inline double saddle_point(const double* a, int m, int n, int stride,
                                double* x, double* y) noexcept nogil:
    """If the game has a pure saddle point, write it to x, y and return the value; else NaN."""
    cdef int i, j, best_i = 0, best_j = 0
    cdef double row_min, col_max, maximin = -1e300, minimax = 1e300
    for i in range(m):
        row_min = a[i * stride]
        for j in range(1, n):
            if a[i * stride + j] < row_min:
                row_min = a[i * stride + j]
        if row_min > maximin:
            maximin = row_min
            best_i = i
    for j in range(n):
        col_max = a[j]
        for i in range(1, m):
            if a[i * stride + j] > col_max:
                col_max = a[i * stride + j]
        if col_max < minimax:
            minimax = col_max
            best_j = j
    if maximin < minimax - CERTIFY_TOL:
        return 0.0 / 0.0
    for i in range(m):
        x[i] = 0.0
    for j in range(n):
        y[j] = 0.0
    x[best_i] = 1.0
    y[best_j] = 1.0
    return maximin


cdef inline bint row_dominated(const double* a, int stride, const int* cols, int n,
                               int i, int k) noexcept nogil:
    """Row i is weakly dominated by row k (k is at least as good for the maximizer)."""
    cdef int c
    for c in range(n):
        if a[k * stride + cols[c]] < a[i * stride + cols[c]]:
            return False
    return True


cdef inline bint col_dominated(const double* a, int stride, const int* rows, int m,
                               int j, int k) noexcept nogil:
    """Column j is weakly dominated by column k (k is at least as good for the minimizer)."""
    cdef int r
    for r in range(m):
        if a[rows[r] * stride + k] > a[rows[r] * stride + j]:
            return False
    return True


cdef inline void eliminate_dominated(const double* a, int stride, int* rows, int* m,
                                     int* cols, int* n) noexcept nogil:
    """Iterated weak dominance: keeps the value and at least one equilibrium."""
    cdef bint changed = True
    cdef int p, q, t
    while changed:
        changed = False
        p = 0
        while p < m[0] and m[0] > 1:
            for q in range(m[0]):
                if q != p and row_dominated(a, stride, cols, n[0], rows[p], rows[q]):
                    for t in range(p, m[0] - 1):
                        rows[t] = rows[t + 1]
                    m[0] -= 1
                    changed = True
                    break
            else:
                p += 1
        p = 0
        while p < n[0] and n[0] > 1:
            for q in range(n[0]):
                if q != p and col_dominated(a, stride, rows, m[0], cols[p], cols[q]):
                    for t in range(p, n[0] - 1):
                        cols[t] = cols[t + 1]
                    n[0] -= 1
                    changed = True
                    break
            else:
                p += 1


cdef inline double simplex_game(const double* a, int stride, const int* rows, int m,
                                const int* cols, int n, double* x, double* y) noexcept nogil:
    """Value and optimal strategies of the sub-game rows x cols, by the simplex method.

    Shift the matrix positive (value > 0), then player 2's problem is
    max sum(u) s.t. A u <= 1, u >= 0, with y = u / sum(u), value = 1 / sum(u);
    player 1's strategy is read from the dual (the reduced costs of the slacks).
    x and y are indexed by position in rows / cols.
    """
    cdef double t[MAX_ACTIONS + 1][TABLEAU_COLS]
    cdef int basis[MAX_ACTIONS]
    cdef int i, j, r, e, leave, rhs = n + m
    cdef double shift, lowest = 1e300, ratio, best_ratio, piv, f, total
    for i in range(m):
        for j in range(n):
            if a[rows[i] * stride + cols[j]] < lowest:
                lowest = a[rows[i] * stride + cols[j]]
    shift = 1.0 - lowest
    for i in range(m):
        for j in range(n):
            t[i][j] = a[rows[i] * stride + cols[j]] + shift
        for j in range(m):
            t[i][n + j] = 1.0 if i == j else 0.0
        t[i][rhs] = 1.0
        basis[i] = n + i
    for j in range(rhs + 1):
        t[m][j] = -1.0 if j < n else 0.0
    while True:
        e = -1
        for j in range(rhs):                      # Bland: lowest index that improves
            if t[m][j] < -PIVOT_TOL:
                e = j
                break
        if e < 0:
            break
        leave = -1
        best_ratio = 1e300
        for i in range(m):
            if t[i][e] > PIVOT_TOL:
                ratio = t[i][rhs] / t[i][e]
                if ratio < best_ratio - PIVOT_TOL or (
                        ratio <= best_ratio + PIVOT_TOL and leave >= 0 and basis[i] < basis[leave]):
                    best_ratio = ratio
                    leave = i
        if leave < 0:
            break                                  # unbounded: impossible for a positive matrix
        piv = t[leave][e]
        for j in range(rhs + 1):
            t[leave][j] /= piv
        for r in range(m + 1):
            if r != leave and t[r][e] != 0.0:
                f = t[r][e]
                for j in range(rhs + 1):
                    t[r][j] -= f * t[leave][j]
        basis[leave] = e
    total = t[m][rhs]
    for j in range(n):
        y[j] = 0.0
    for i in range(m):
        if basis[i] < n:
            y[basis[i]] = t[i][rhs] / total
        x[i] = t[m][n + i] / total
    return 1.0 / total - shift


cdef inline double solve_game(const double* a, int m, int n, int stride,
                              double* x, double* y) noexcept nogil:
    """Value of the zero-sum game a (m x n, row-major with `stride`), row player maximizing.

    Writes optimal mixed strategies to x (m) and y (n).
    """
    cdef double v = saddle_point(a, m, n, stride, x, y)
    if v == v:
        return v
    cdef int rows[MAX_ACTIONS]
    cdef int cols[MAX_ACTIONS]
    cdef double xs[MAX_ACTIONS]
    cdef double ys[MAX_ACTIONS]
    cdef int i, j, mm = m, nn = n
    for i in range(m):
        rows[i] = i
    for j in range(n):
        cols[j] = j
    eliminate_dominated(a, stride, rows, &mm, cols, &nn)
    v = simplex_game(a, stride, rows, mm, cols, nn, xs, ys)
    for i in range(m):
        x[i] = 0.0
    for j in range(n):
        y[j] = 0.0
    for i in range(mm):
        x[rows[i]] = xs[i]
    for j in range(nn):
        y[cols[j]] = ys[j]
    return v


cdef inline double guarantee_gap(const double* a, int m, int n, int stride,
                                 const double* x, const double* y) noexcept nogil:
    """max_i (a y)_i - min_j (x a)_j: 0 for an exact equilibrium."""
    cdef int i, j
    cdef double s, best_row = -1e300, worst_col = 1e300
    for i in range(m):
        s = 0.0
        for j in range(n):
            s += a[i * stride + j] * y[j]
        if s > best_row:
            best_row = s
    for j in range(n):
        s = 0.0
        for i in range(m):
            s += a[i * stride + j] * x[i]
        if s < worst_col:
            worst_col = s
    return best_row - worst_col
