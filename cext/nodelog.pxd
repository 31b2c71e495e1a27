# A sample of the new nodes a search opens, for training the opening-card model on the
# nodes the search really meets (solver/exact/firstcard_train.py), not only on roots.
#
# Invariants:
# - Only the main thread logs (a helper's log has cap 0), so no locking.
# - states[0..n) are copies of states at nodes the table knew nothing of, with low..high
#   cards a hand, in the order met; once n == cap, nothing more is kept.
# - Whether a node is kept depends on its canonical key only (1 in `every`): a state met
#   twice is kept twice or never, and the sample is the same on every run.
# - The buffer is owned by memory.pxd (allocate_log / release_log); cap 0: no buffer.

from libc.stdint cimport uint64_t
from state cimport State
from key cimport u128


cdef struct NodeLog:
    State* states
    long long n
    long long cap
    int low
    int high
    uint64_t every


cdef inline void log_node(NodeLog* log, const State* s, u128 key, int k) noexcept nogil:
    cdef uint64_t h
    if log.n >= log.cap or k < log.low or k > log.high:
        return
    h = (<uint64_t>key ^ <uint64_t>(key >> 64)) * <uint64_t>0x9E3779B97F4A7C15
    if (h >> 32) % log.every == 0:
        log.states[log.n] = s[0]
        log.n += 1
