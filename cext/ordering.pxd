# Move ordering: which cards a node's restricted game starts from, and in which order the
# replies outside it are tested. Order changes the work, never a value.
#
# Invariants:
# - Killers are per thread (never shared: they are hints, read and written without locks),
#   indexed by cards per hand and player; a killer is a rank, -1 for none. A killer read at a
#   node whose hand lacks that rank is simply not used.
# - An order is a permutation of 0..k-1 (indices in the ascending hand).

from libc.stdint cimport uint32_t
from state cimport MAX_HAND, popcount, lowest_bit
from node cimport Node, support

cdef struct Killers:
    int proved[MAX_HAND + 1][2]    # the card that last proved a node's bound alone
    int beat[MAX_HAND + 1][2]      # the card that last beat a restricted game


cdef inline void note_killer(Killers* killers, Node* nd, int player) noexcept nogil:
    """If player's strategy at this node is one card, it becomes the killer of its size."""
    cdef uint32_t cards = support(&nd.x[0] if player == 0 else &nd.y[0], nd.k)
    cdef int i
    if popcount(cards) == 1:
        i = lowest_bit(cards)
        killers.proved[nd.k][player] = nd.p[i] if player == 0 else nd.q[i]


cdef inline int strongest(const double* strategy, int k) noexcept nogil:
    cdef int i, best = 0
    for i in range(1, k):
        if strategy[i] > strategy[best]:
            best = i
    return best


cdef inline void sort_by_score(int* order, const double* score, int k) noexcept nogil:
    """Insertion sort of order[] by ascending score[order[]] (k <= 10)."""
    cdef int a, b, t
    for a in range(1, k):
        b = a
        while b > 0 and score[order[b]] < score[order[b - 1]]:
            t = order[b]
            order[b] = order[b - 1]
            order[b - 1] = t
            b -= 1


cdef inline void rank_order(Node* nd) noexcept nogil:
    """Replies tested in rank order (small nodes: an estimate costs more than it saves)."""
    cdef int i
    for i in range(nd.k):
        nd.row_order[i] = i
        nd.col_order[i] = i


cdef inline void order_by_estimate(Node* nd, const double* g, const double* x,
                                   const double* y) noexcept nogil:
    """The replies that look most dangerous against the estimate's equilibrium (x, y) of
    the estimated matrix g (k x k) first, for each player."""
    cdef double score[MAX_HAND]
    cdef int i, j, k = nd.k
    # player 1's replies by their estimated score against y, best first
    for i in range(k):
        score[i] = 0.0
        for j in range(k):
            score[i] -= y[j] * g[i * k + j]
        nd.row_order[i] = i
    sort_by_score(nd.row_order, score, k)
    # player 2's replies by their estimated score against x, best (lowest) first
    for j in range(k):
        score[j] = 0.0
        for i in range(k):
            score[j] += x[i] * g[i * k + j]
        nd.col_order[j] = j
    sort_by_score(nd.col_order, score, k)
