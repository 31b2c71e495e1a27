# A matrix-game node being solved: its entries' proven intervals and what strategies
# guarantee on them.
#
# Invariants:
# - Entry (i, j) is player 1 playing p[i] and player 2 q[j] (each hand ascending); its value
#   lies in [lo[i][j], hi[i][j]], from the start (+-takeable) to exact (lo == hi). Bounds only
#   tighten, and only from finished searches: they stay proven when a limit stops the search.
# - x and y are probability vectors over all k cards (0 outside the restricted game).
# - A guarantee computed on lower bounds (for x) or upper bounds (for y) is itself proven.
# - Values are player 2's bullheads minus player 1's; "by player's sign" turns player 2's
#   entries around (negated) so one routine serves both players.
# - At a root (`root`), an entry's bounds are the edges of the windows it was searched in,
#   never a child's fail-soft bound, and its restricted games are solved on entries put on a
#   grid (`on_grid`), not on the last bits of a float: both depend on what the shared table
#   held, so on the threads' timing. Every decision of the root is then a function of the
#   position alone.

from libc.math cimport nearbyint
from libc.stdint cimport uint32_t
from state cimport MAX_HAND, State

cdef extern from *:
    """
    static const double NIMMT_INF = 1e18;    /* beyond any window */
    static const double NIMMT_EPS = 1e-9;    /* two values closer than this are equal */
    static const double NIMMT_TINY = 1e-12;  /* rounding noise of a sum of products */
    """
    const double INF "NIMMT_INF"
    const double EPS "NIMMT_EPS"
    const double TINY "NIMMT_TINY"

cdef struct Node:
    const State* s
    int k
    int p[MAX_HAND]            # player 1's ranks, ascending
    int q[MAX_HAND]            # player 2's ranks
    double lo[MAX_HAND][MAX_HAND]
    double hi[MAX_HAND][MAX_HAND]
    int seen[MAX_HAND][MAX_HAND]
    double x[MAX_HAND]
    double y[MAX_HAND]
    int row_order[MAX_HAND]    # the order in which player 1's replies are tested
    int col_order[MAX_HAND]
    bint root                  # a root: its answer must not depend on the threads' timing

cdef extern from *:
    """
    /* 2^-34, about 5.8e-11: an exact value's last bits (its rounding depends on the path
       that computed it) never cross a grid line but by a chance of about 1e-5 */
    static const double NIMMT_GRID = 17179869184.0;
    """
    const double GRID "NIMMT_GRID"


cdef inline double on_grid(double v) noexcept nogil:
    return nearbyint(v * GRID) / GRID


cdef struct NodeReport:
    # what a root search gives back (and shows, live, to another thread)
    double value
    double lower               # proven bounds (meaningful if aborted)
    double upper
    double x[MAX_HAND]
    double y[MAX_HAND]
    double lo[MAX_HAND][MAX_HAND]
    double hi[MAX_HAND][MAX_HAND]


cdef inline double low_for(const Node* nd, int player, int card, int other) noexcept nogil:
    return nd.lo[card][other] if player == 0 else -nd.hi[other][card]


cdef inline double high_for(const Node* nd, int player, int card, int other) noexcept nogil:
    return nd.hi[card][other] if player == 0 else -nd.lo[other][card]


cdef inline double guarantee_of_x(const Node* nd) noexcept nogil:
    """What player 1's x secures against every card of player 2 (by the lower bounds)."""
    cdef int i, j
    cdef double s, worst = INF
    for j in range(nd.k):
        s = 0.0
        for i in range(nd.k):
            if nd.x[i] > 0.0:
                s += nd.x[i] * nd.lo[i][j]
        if s < worst:
            worst = s
    return worst


cdef inline double guarantee_of_y(const Node* nd) noexcept nogil:
    """What player 2's y concedes at most against every card of player 1 (upper bounds)."""
    cdef int i, j
    cdef double s, worst = -INF
    for i in range(nd.k):
        s = 0.0
        for j in range(nd.k):
            if nd.y[j] > 0.0:
                s += nd.y[j] * nd.hi[i][j]
        if s > worst:
            worst = s
    return worst


cdef inline uint32_t support(const double* strategy, int k) noexcept nogil:
    """The cards a strategy plays, as a mask: where a new search of the node starts (the
    cards the restricted game took in on the way are mostly not needed again)."""
    cdef uint32_t cards = 0
    cdef int i
    for i in range(k):
        if strategy[i] > 0.0:
            cards |= <uint32_t>1 << i
    return cards


cdef inline void drop_negligible(double* strategy, int k) noexcept nogil:
    """Zero the probabilities that are rounding noise, and renormalize."""
    cdef int i
    cdef double total = 0.0
    for i in range(k):
        if strategy[i] < 1e-12:
            strategy[i] = 0.0
        total += strategy[i]
    for i in range(k):
        strategy[i] /= total


cdef inline void prefer_one_card(Node* nd, uint32_t mine, uint32_t theirs, int player,
                                 double t) noexcept nogil:
    """If one of player's cards in the restricted game secures t by itself against every
    card of the other side in it (by player's sign), player plays it alone: a reply is then
    tested on one entry, not on one per card of a mixed strategy."""
    cdef double* strategy = &nd.x[0] if player == 0 else &nd.y[0]
    cdef int a, o, pick = -1
    cdef double worst, best = t
    for a in range(nd.k):
        if mine >> a & 1:
            worst = INF
            for o in range(nd.k):
                if (theirs >> o & 1) and low_for(nd, player, a, o) < worst:
                    worst = low_for(nd, player, a, o)
            if worst >= best:
                best = worst
                pick = a
    if pick >= 0:
        for a in range(nd.k):
            strategy[a] = 1.0 if a == pick else 0.0


cdef inline void report_bounds(NodeReport* report, const Node* nd, double reach) noexcept nogil:
    """Tighten the root's proven bounds by what its strategies guarantee on the entry bounds
    (still proven when a limit stopped the search: entries only take finished searches).
    A guarantee no tighter than +-reach, what can still be taken, says nothing: left out."""
    cdef double g = guarantee_of_x(nd)
    if g > report.lower and g > -reach + EPS:
        report.lower = g
    g = guarantee_of_y(nd)
    if g < report.upper and g < reach - EPS:
        report.upper = g


cdef inline void fill_report(NodeReport* report, const Node* nd, double value) noexcept nogil:
    cdef int i, j
    report.value = value
    for i in range(nd.k):
        report.x[i] = nd.x[i]
        report.y[i] = nd.y[i]
        for j in range(nd.k):
            report.lo[i][j] = nd.lo[i][j]
            report.hi[i][j] = nd.hi[i][j]
