# What a search runs in, split by lifetime: Shared, one per search, read by every thread;
# Worker, one per thread, written by that thread only (but where said).
#
# Invariants:
# - Shared is written only between searches (from Python), except limits.stop_requested
#   (set from another thread to stop), the pool's node count and its exhaustion (clock.pxd)
#   and the table's entries (lock-free, see table.pxd).
# - bulls[r] and bull_code[r] are set for every live rank r < MAX_RANKS before a search.
# - A Worker's aborted only goes 0 -> 1 during a job: once set, everything its search
#   returned since is meaningless and nothing more is stored in the table. A worker that
#   handed a helper a job sets the helper's aborted too when the job is no longer needed,
#   and a helper stops when any worker up its chain of `parent`s is aborted (check_limits).
# - The pool: `pool` is the search's array of pool_size helper Workers (threads - 1), the
#   same in every Worker of the search; pool_size is 0 when no helper thread runs (one
#   thread, a small root). A helper's `job` and `parent` belong to the worker that claimed
#   it (handoff.pxd) from the claim until it releases the helper; `parent` stays valid while
#   the job runs, since the claimer waits for it. `checker` (tests, one thread) is a Worker
#   with its own Shared (own table, no pruning), NULL otherwise.
# - stats.span[v] (one thread only; meaningless with more) is the critical path so far, in
#   matrix nodes: the nodes of the longest chain of dependent work if the tasks of every
#   group that span variant v counts as independent (GROUP_* below) ran at once. It grows
#   with stats.nodes and never changes what the search does (group_* only read and write
#   off_span), so node counts are the same with or without it.

from state cimport MAX_HAND, MAX_RANKS, State
from table cimport Table
from lastturns cimport EndgameCache
from ordering cimport Killers
from firstcard cimport FirstCardModel
from nodelog cimport NodeLog
from clock cimport Limits, limit_hit
from handoff cimport Handoff, atomic_load
from node cimport Node

cdef extern from "<pthread.h>" nogil:
    ctypedef unsigned long pthread_t

cdef enum:
    MAX_THREADS = 1024         # threads of one search, the main thread included

cdef struct Stats:
    long long nodes            # matrix-game nodes searched (3+ cards per hand)
    long long small_nodes      # 2-card nodes solved in closed form
    long long endgame_hits     # 2-card nodes found in the 2-card cache
    long long tt_probes
    long long tt_hits          # probes that found the state
    long long tt_cutoffs       # probes whose bounds settled the node
    long long matrix_games     # restricted matrix games solved
    long long children_total   # joint moves at searched nodes
    long long children_seen    # joint moves evaluated at least once
    long long evaluations      # child searches, re-searches included
    long long by_cards[11]     # matrix-game nodes by cards per hand
    long long expanded_by_cards[11]   # ... not settled by the table: expanded
    long long exact_by_cards[11]      # ... whose exact value was proven
    long long exact_refines    # restricted games whose bounds were too loose (step 5)
    long long fail_highs       # nodes proven >= beta
    long long fail_lows        # nodes proven <= alpha
    long long exact_nodes      # nodes whose exact value was proven
    long long shared_nodes     # groups of tasks shared with helpers (tests, entries, rows)
    long long wait_us          # microseconds waited: for claimed helpers to finish their
                               # jobs; a helper's, also for a job
    long long span[3]          # critical path in nodes (see Group below), one thread only:
                               # filled in when the statistics are read

cdef struct Shared:
    Table table                # the transposition table, one for all threads
    int bulls[MAX_RANKS]       # bullheads of each rank
    int bull_code[MAX_RANKS]   # ... as a key code: 1, 2, 3, 5, 7 -> 0..4
    int no_pruning             # ablation: evaluate every entry exactly (backward induction)
    int no_canonical           # ablation: key on the exact state (no relabelling, no swap)
    int threads                # the main thread and its pool's helpers
    Limits limits
    FirstCardModel first_card  # the opening cards of new nodes (top = 0: none)

cdef struct Replies:
    # the replies outside a node's restricted game to test, in move order, and what came
    # of them; tested by the node's worker and the helpers it claimed, taken in turn
    int n
    int player[2 * MAX_HAND]
    int card[2 * MAX_HAND]
    double t[2]                # each player's threshold (by its own sign, see reply_beats)
    int beats[2 * MAX_HAND]    # 1: beats its threshold; 0: proven not to; -1: not tested
    int next                   # the next one to take (atomic: taken by several threads)
    int found                  # 0, or 1 + the player of a reply found beating: take no
                               # more

cdef struct Entries:
    # restricted entries of a node to search in one window (a, b), in order; searched by the
    # node's worker and the helpers it claimed, taken in turn
    int n
    int i[MAX_HAND * MAX_HAND]
    int j[MAX_HAND * MAX_HAND]
    int done[MAX_HAND * MAX_HAND]   # 1: searched to the end (by some worker)
    double a
    double b
    int next                   # the next one to take (atomic: taken by several threads)

cdef struct Rows:
    # a too-low card's rows after the first (its owner's cheapest): each a child search in
    # one window, taken in turn by the entry's worker and the helpers it claimed
    const State* s             # the node's state (the claimer's: it waits for the job)
    int k                      # cards per hand at the node
    int a                      # player 1's card and player 2's (ranks)
    int b
    int owner                  # the card's owner: 0 takes the largest value, 1 the smallest
    int n
    int row[3]
    double alpha               # the window of every row's search
    double beta
    double v[3]                # each row's fail-soft value, where done
    int done[3]                # 1: searched to the end (by some worker)
    int next                   # the next one to take (atomic: taken by several threads)
    int found                  # 1: a row reached the owner's cut: take no more

cdef struct Job:
    # the claimer's reply tests (rp), entries (es) or rows (rw): one of them, the others
    # NULL; on the claimer's stack: the claimer waits for the job
    Node nd                    # the helper's own copy of the node (tests and entries): it
                               # tightens its entries
    Replies* rp
    Entries* es
    Rows* rw

cdef struct Worker:
    Shared* shared
    Stats stats
    EndgameCache endgame       # the 2-card cache, own to each thread
    Killers killers
    int aborted                # this thread must stop: its results since are meaningless
    int is_helper              # a helper thread (it counts its nodes for the limit only in the pool count, clock.pxd)
    Worker* pool               # the search's helpers (an array), pool_size of them
    int pool_size              # 0: no helper thread runs
    Handoff handoff            # a helper's: its job's state (handoff.pxd)
    Job job                    # a helper's: the job, written by its claimer
    Worker* parent             # a helper's: the worker whose job it runs
    pthread_t thread           # a helper's: its thread, while it runs
    Worker* checker            # tests: verifies every stored bound (see self_check), or NULL
    long long check_failures   # stored bounds the checker found wrong
    long long off_span[3]      # nodes off each critical path (see Group below)
    NodeLog log                # the main thread's: a sample of its new nodes (training)


cdef inline void check_limits(Worker* w) noexcept nogil:
    cdef Worker* p = w.parent
    if limit_hit(&w.shared.limits, w.stats.nodes, not w.is_helper, w.pool_size > 0):
        w.aborted = 1
    while p != NULL and not w.aborted:      # a helper: is its job still needed?
        if atomic_load(&p.aborted):
            w.aborted = 1
        p = p.parent


# The critical path: groups of tasks a pool of threads could run at once, at nodes of
# SPLIT_FROM+ cards. Each span variant counts a kind of group as parallel (its tasks start
# together, the group ends with its longest task) or as sequential (the tasks add up):
#   span[0]: the reply tests of a node only (what the threads share today);
#   span[1]: also the restricted entries of step 1 and 5, and each reply
#           test's first null-window pass;
#   span[2]: also the row choices of a too-low card.
# A group's mask says in which variants it is parallel. What is kept is off_span[v] =
# nodes - span[v], the nodes off the critical path: it changes at big groups only, so a
# node costs nothing more (stats.span is filled in from it when read, span_of).
cdef enum:
    SPANS = 3
    GROUP_TESTS = 7            # parallel in span[0], span[1] and span[2]
    GROUP_REFINES = 6          # ... in span[1] and span[2]
    GROUP_ROWS = 4             # ... in span[2]

cdef struct Group:
    long long start[SPANS]     # the span when the group began: where each task starts
    long long end[SPANS]       # the longest task's end so far
    int mask                   # variants where the tasks run at once; 0: no group


cdef inline long long span_of(const Worker* c, int v) noexcept nogil:
    return c.stats.nodes - c.off_span[v]


cdef inline void group_open(Worker* c, Group* g, int mask, bint big) noexcept nogil:
    """A group of tasks begins (a no-op unless `big`: a node of SPLIT_FROM+ cards)."""
    cdef int v
    g.mask = mask if big else 0
    if g.mask:
        for v in range(SPANS):
            g.start[v] = g.end[v] = span_of(c, v)


cdef inline void group_next(Worker* c, Group* g) noexcept nogil:
    """A task of the group begins (the one before, if any, has ended)."""
    cdef int v
    cdef long long now
    if g.mask:
        for v in range(SPANS):
            now = span_of(c, v)
            if now > g.end[v]:
                g.end[v] = now
            if g.mask >> v & 1:
                c.off_span[v] = c.stats.nodes - g.start[v]


cdef inline void group_close(Worker* c, Group* g) noexcept nogil:
    """The group has ended: the span goes on from its longest task."""
    cdef int v
    if g.mask:
        for v in range(SPANS):
            if span_of(c, v) < g.end[v]:
                c.off_span[v] = c.stats.nodes - g.end[v]
