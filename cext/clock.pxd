# The limits of a search: nodes, time, a stop asked from outside.
#
# Invariants:
# - 0 means no limit (max_nodes, deadline).
# - max_nodes counts the main thread's matrix nodes, from the start of its statistics (a
#   limit set "from now" is stored as the count now plus the limit); budget is that limit
#   from now (0: none).
# - With helper threads (a pool), every thread adds its nodes to pooled_nodes, 256 at a
#   time (atomically); the thread whose addition passes the budget sets `exhausted`, and
#   every thread stops at its next node (a helper claimed again later too): the limit counts
#   every thread's nodes, each lagging by less than 256. pooled_nodes and exhausted are 0
#   when a limit is set. One thread counts exactly, as max_nodes says.
# - deadline is in monotonic seconds (now()); it is read every 256 nodes only: the clock
#   costs more than a small node.
# - stop_requested only ever goes from 0 to 1 during a search (set from another thread);
#   a search that sees it stops at its next node.

from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

cdef struct Limits:
    long long max_nodes
    long long budget
    long long pooled_nodes     # the pool's nodes since the limit was set (atomic)
    int exhausted              # pooled_nodes passed the budget: 0 -> 1 only, during a search
    double deadline
    int stop_requested

cdef extern from *:
    """
    #define nimmt_add_ll(p, v) __atomic_add_fetch((p), (v), __ATOMIC_RELAXED)
    """
    long long add_nodes "nimmt_add_ll" (long long*, long long) nogil


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline long long micros_since(double start) noexcept nogil:
    """Whole microseconds from `start` (a now()) until now."""
    return <long long>((now() - start) * 1e6)


cdef inline bint limit_hit(Limits* limits, long long nodes, bint main,
                           bint pooled) noexcept nogil:
    """Must a thread that has searched `nodes` nodes (its own count) stop? `main`: the main
    thread; `pooled`: helper threads run."""
    if limits.stop_requested or limits.exhausted:
        return True
    if main and limits.max_nodes and nodes > limits.max_nodes:
        return True
    if (nodes & 255) != 0:
        return False
    if pooled and limits.budget and add_nodes(&limits.pooled_nodes, 256) > limits.budget:
        limits.exhausted = 1
        return True
    return limits.deadline > 0 and now() > limits.deadline
