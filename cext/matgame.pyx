# cython: language_level=3
"""Python access to the node matrix-game solver of cext/matgame.pxd."""
import numpy as np
from matgame cimport MAX_ACTIONS, solve_game, guarantee_gap


def solve_matrix(matrix):
    """Value and optimal mixed strategies (x for the maximizing row player, y for the
    minimizing column player) of a zero-sum matrix game of at most 10 x 10 actions.

    Raises ValueError for an empty or too large matrix, or one with non-finite entries.
    """
    cdef double[:, ::1] a = np.ascontiguousarray(matrix, dtype=np.float64)
    cdef int m = a.shape[0], n = a.shape[1]
    if not (1 <= m <= MAX_ACTIONS and 1 <= n <= MAX_ACTIONS):
        raise ValueError(f"matrix games of 1..10 actions per player only, got {m}x{n}")
    if not np.all(np.isfinite(np.asarray(a))):
        raise ValueError("matrix has non-finite entries")
    x = np.zeros(m)
    y = np.zeros(n)
    cdef double[::1] xv = x, yv = y
    cdef double value
    with nogil:
        value = solve_game(&a[0, 0], m, n, n, &xv[0], &yv[0])
    return value, x, y


def certify(matrix, x, y):
    """Gap between the two strategies' guarantees (max_i (A y)_i - min_j (x A)_j)."""
    cdef double[:, ::1] a = np.ascontiguousarray(matrix, dtype=np.float64)
    cdef double[::1] xv = np.ascontiguousarray(x, dtype=np.float64)
    cdef double[::1] yv = np.ascontiguousarray(y, dtype=np.float64)
    return guarantee_gap(&a[0, 0], a.shape[0], a.shape[1], a.shape[1], &xv[0], &yv[0])


def time_solve_batch(matrices, int repeats=1):
    """Seconds per solve of the C routine itself (no Python call per matrix), over a batch
    of equally shaped matrices (a 3-D array): what the search pays for a node's game."""
    from time import perf_counter
    cdef double[:, :, ::1] a = np.ascontiguousarray(matrices, dtype=np.float64)
    cdef int count = a.shape[0], m = a.shape[1], n = a.shape[2], r, t
    if count == 0 or not (1 <= m <= MAX_ACTIONS and 1 <= n <= MAX_ACTIONS):
        raise ValueError(f"a non-empty batch of 1..10 x 1..10 matrices needed, got {a.shape}")
    cdef double x[MAX_ACTIONS]
    cdef double y[MAX_ACTIONS]
    cdef double sink = 0.0
    start = perf_counter()
    with nogil:
        for r in range(repeats):
            for t in range(count):
                sink += solve_game(&a[t, 0, 0], m, n, n, x, y)
    return (perf_counter() - start) / (count * repeats)
