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


# A card is seen from its player's side: player 2 minimizes, so its entries are negated and
# one routine serves both players.
cdef inline double payoff_for(const double* a, int stride, int player, int card,
                              int other) noexcept nogil:
    return a[card * stride + other] if player == 0 else -a[other * stride + card]


cdef inline bint dominated(const double* a, int stride, int player, const int* others, int n,
                           int i, int k) noexcept nogil:
    """Card i of `player` is weakly dominated by card k (k at least as good for it against
    every card of the other player's `others`)."""
    cdef int o
    for o in range(n):
        if payoff_for(a, stride, player, k, others[o]) < payoff_for(a, stride, player, i, others[o]):
            return False
    return True


cdef inline bint drop_dominated(const double* a, int stride, int player, int* cards, int* count,
                                const int* others, int n) noexcept nogil:
    """Remove from `cards` every card of `player` dominated by another one left (never the
    last). True if any went."""
    cdef int p = 0, q, t
    cdef bint dropped = False
    while p < count[0] and count[0] > 1:
        for q in range(count[0]):
            if q != p and dominated(a, stride, player, others, n, cards[p], cards[q]):
                for t in range(p, count[0] - 1):
                    cards[t] = cards[t + 1]
                count[0] -= 1
                dropped = True
                break
        else:
            p += 1
    return dropped


cdef inline void eliminate_dominated(const double* a, int stride, int* rows, int* m,
                                     int* cols, int* n) noexcept nogil:
    """Iterated weak dominance: keeps the value and at least one equilibrium."""
    cdef bint changed = True
    while changed:
        changed = drop_dominated(a, stride, 0, rows, m, cols, n[0])
        changed = drop_dominated(a, stride, 1, cols, n, rows, m[0]) or changed


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
