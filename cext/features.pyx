# cython: language_level=3
"""The network's input features of a batch of views, in C: one pass a view, no Python object
in the loop (solver/learn/features.py says what each feature means and calls `encode_views`).

Every number is computed with the types of the numpy form it replaced (that form, kept in
tests/test_features_c.py, is the reference it is checked against to the bit), except the
binomial risk's powers: numpy's float64 power is not the C library's, and differs between
processors; here p**j is a product of j factors, on every machine the same."""
import numpy as np

from rules cimport N_ROWS, ROW_LIMIT, MAX_CARD, HAND_SIZE
from features cimport (CARD_FEATURES, TABLE_FEATURES, COST_FEATURE, CARDS, encode_view)

# for Python: the feature counts, and the width of an array indexed by card number
FEATURES = (CARD_FEATURES, TABLE_FEATURES, COST_FEATURE, CARDS)


def encode_views(players, deck, hand, rows, seen):
    """For B views (seat counts [B], highest cards [B], hands [B, 10] ascending then 0, rows
    [B, 4, 5] as they lie then 0, seen [B, 105] bool): (cards [B, 10, 17] float32 with the
    sampled cost's column 0, mask [B, 10] bool, table [B, 27] float32, unseen [B, 105] bool),
    the arrays of `solver.learn.features.encode`."""
    cdef const signed char[::1] pl = np.ascontiguousarray(players, dtype=np.int8)
    cdef const signed char[::1] dk = np.ascontiguousarray(deck, dtype=np.int8)
    cdef const signed char[:, ::1] h = np.ascontiguousarray(hand, dtype=np.int8)
    cdef const signed char[:, :, ::1] r = np.ascontiguousarray(rows, dtype=np.int8)
    cdef const unsigned char[:, ::1] s = np.ascontiguousarray(seen, dtype=np.uint8)
    cdef Py_ssize_t b = h.shape[0], v
    if not (pl.shape[0] == dk.shape[0] == r.shape[0] == s.shape[0] == b) \
            or h.shape[1] != HAND_SIZE or r.shape[1] != N_ROWS or r.shape[2] != ROW_LIMIT \
            or s.shape[1] != CARDS:
        raise ValueError("players [B], deck [B], hand [B, 10], rows [B, 4, 5], seen [B, 105]")
    if b and not (0 <= np.min(h) and np.max(h) <= MAX_CARD and 0 <= np.min(r)
                  and np.max(r) <= MAX_CARD and 0 <= np.min(dk) and np.max(dk) <= MAX_CARD):
        raise ValueError("cards are 0..104")
    cards_out = np.empty((b, HAND_SIZE, CARD_FEATURES), dtype=np.float32)
    mask_out = np.empty((b, HAND_SIZE), dtype=np.bool_)
    table_out = np.empty((b, TABLE_FEATURES), dtype=np.float32)
    unseen_out = np.empty((b, CARDS), dtype=np.bool_)
    cdef float[:, :, ::1] fc = cards_out
    cdef unsigned char[:, ::1] m = mask_out.view(np.uint8)
    cdef float[:, ::1] t = table_out
    cdef unsigned char[:, ::1] u = unseen_out.view(np.uint8)
    with nogil:
        for v in range(b):
            encode_view(pl[v], dk[v], &h[v, 0], &r[v, 0, 0], &s[v, 0], &fc[v, 0, 0],
                        &m[v, 0], &t[v, 0], &u[v, 0])
    return cards_out, mask_out, table_out, unseen_out
