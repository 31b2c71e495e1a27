# The limits of a search: nodes, time, a stop asked from outside.
#
# Invariants:
# - 0 means no limit (max_nodes, deadline).
# - max_nodes counts the main thread's matrix nodes, from the start of its statistics (a
#   limit set "from now" is stored as the count now plus the limit).
# - deadline is in monotonic seconds (now()); it is read every 256 nodes only: the clock
#   costs more than a small node.
# - stop_requested only ever goes from 0 to 1 during a search (set from another thread);
#   a search that sees it stops at its next node.

from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

cdef struct Limits:
    long long max_nodes
    double deadline
    int stop_requested


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline bint limit_hit(const Limits* limits, long long nodes, bint count_nodes) noexcept nogil:
    """Must a thread that has searched `nodes` nodes stop? The node limit applies only if
    `count_nodes` (the main thread)."""
    if limits.stop_requested:
        return True
    if count_nodes and limits.max_nodes and nodes > limits.max_nodes:
        return True
    return limits.deadline > 0 and (nodes & 255) == 0 and now() > limits.deadline
