# The one owner of the exact search's raw memory: every mmap and munmap of it is here.
#
# Invariants:
# - Memory comes zeroed (anonymous pages mapped on first touch), so a new table or cache is
#   all empty slots (key 0) without a pass over it.
# - A table's size is a power of two of 2-entry buckets, at most the entries asked for (at
#   least one bucket); a 2-card cache's is a power of two of slots.
# - A released table or cache has its pointer NULL, and releasing it again does nothing:
#   every owner frees through release_table / release_endgame whatever it holds.
# - The pool's helper Workers are one array (allocate_workers), released with the 2-card
#   caches they hold (release_workers).
# - A node log's buffer (nodelog.pxd) is NULL with cap 0 when released.

from posix.mman cimport (mmap, munmap, madvise, PROT_READ, PROT_WRITE, MAP_PRIVATE,
                         MAP_ANONYMOUS, MAP_FAILED, MADV_HUGEPAGE)
from libc.stdint cimport uint64_t
from table cimport TTEntry, Table
from lastturns cimport EndgameSlot, EndgameCache
from context cimport Worker
from nodelog cimport NodeLog
from state cimport State


cdef inline void* zeroed_pages(size_t size) noexcept nogil:
    """Zeroed memory mapped on first touch, NULL if refused. Huge pages: a random probe
    into a big table would otherwise miss the TLB too."""
    cdef void* memory = mmap(NULL, size, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
    if memory == MAP_FAILED:
        return NULL
    madvise(memory, size, MADV_HUGEPAGE)
    return memory


cdef inline size_t table_bytes(long long entries) noexcept nogil:
    """Bytes of a table of at most `entries` entries: a power of two of 2-entry buckets."""
    cdef long long buckets = 1, most = entries // 2
    if most < 1:
        most = 1
    while buckets * 2 <= most:
        buckets *= 2
    return 2 * buckets * sizeof(TTEntry)


cdef inline size_t table_size(const Table* t) noexcept nogil:
    return 2 * (t.buckets_mask + 1) * sizeof(TTEntry)


cdef inline bint allocate_table(Table* t, long long entries) noexcept nogil:
    """A table of at most `entries` entries (table_bytes), empty. False if refused."""
    cdef size_t size = table_bytes(entries)
    t.entries = <TTEntry*>zeroed_pages(size)
    t.buckets_mask = size // sizeof(TTEntry) // 2 - 1
    return t.entries != NULL


cdef inline void release_table(Table* t) noexcept nogil:
    if t.entries != NULL:
        munmap(t.entries, table_size(t))
    t.entries = NULL


cdef inline bint allocate_endgame(EndgameCache* cache, int log2) noexcept nogil:
    """A 2-card cache of 2**log2 slots, empty. False if refused."""
    cache.mask = (<uint64_t>1 << log2) - 1
    cache.slots = <EndgameSlot*>zeroed_pages((cache.mask + 1) * sizeof(EndgameSlot))
    return cache.slots != NULL


cdef inline void release_endgame(EndgameCache* cache) noexcept nogil:
    if cache.slots != NULL:
        munmap(cache.slots, (cache.mask + 1) * sizeof(EndgameSlot))
    cache.slots = NULL


cdef inline Worker* allocate_workers(int n) noexcept nogil:
    """n Workers, zeroed (no cache yet). NULL if refused."""
    return <Worker*>zeroed_pages(n * sizeof(Worker))


cdef inline void release_workers(Worker* workers, int n) noexcept nogil:
    """The array and each Worker's 2-card cache (those allocated: the others are NULL)."""
    cdef int i
    if workers == NULL:
        return
    for i in range(n):
        release_endgame(&workers[i].endgame)
    munmap(workers, n * sizeof(Worker))


cdef inline bint allocate_log(NodeLog* log, long long cap) noexcept nogil:
    """A node log of `cap` states, empty. False if refused."""
    log.n = 0
    log.cap = 0
    log.states = <State*>zeroed_pages(cap * sizeof(State)) if cap > 0 else NULL
    if log.states != NULL:
        log.cap = cap
    return log.states != NULL


cdef inline void release_log(NodeLog* log) noexcept nogil:
    if log.states != NULL:
        munmap(log.states, log.cap * sizeof(State))
    log.states = NULL
    log.n = 0
    log.cap = 0
