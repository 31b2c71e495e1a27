# What a search runs in, split by lifetime: Shared, one per search, read by every thread;
# Worker, one per thread, written by that thread only (but where said).
#
# Invariants:
# - Shared is written only between searches (from Python), except limits.stop_requested
#   (set from another thread to stop) and the table's entries (lock-free, see table.pxd).
# - bulls[r] and bull_code[r] are set for every live rank r < MAX_RANKS before a search.
# - A Worker's aborted only goes 0 -> 1 during a job: once set, everything its search
#   returned since is meaningless and nothing more is stored in the table. The main thread
#   sets its helper's aborted too, when the helper's work is no longer needed.
# - The main thread's Worker has `helper` (the second thread's Worker, or NULL); a helper's
#   own `helper` is NULL. `checker` (tests) is a Worker with its own Shared (own table, no
#   pruning), NULL otherwise.

from state cimport MAX_HAND, MAX_RANKS
from table cimport Table
from lastturns cimport EndgameCache
from ordering cimport Killers
from clock cimport Limits, limit_hit
from handoff cimport Handoff

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
    long long shared_nodes     # nodes whose reply tests the two threads shared

cdef struct Shared:
    Table table                # the transposition table, one for all threads
    int bulls[MAX_RANKS]       # bullheads of each rank
    int bull_code[MAX_RANKS]   # ... as a key code: 1, 2, 3, 5, 7 -> 0..4
    int no_pruning             # ablation: evaluate every entry exactly (backward induction)
    int no_canonical           # ablation: key on the exact state (no relabelling, no swap)
    Limits limits

cdef struct Worker:
    Shared* shared
    Stats stats
    EndgameCache endgame       # the 2-card cache, own to each thread
    Killers killers
    int aborted                # this thread must stop: its results since are meaningless
    int is_helper              # the helper thread: the node limit is the main thread's
    Worker* helper             # the main thread's: the second thread, NULL for one thread
    Handoff handoff            # a helper's: its job from the main thread (handoff.pxd)
    int running                # a helper's: its thread is running
    Worker* checker            # tests: verifies every stored bound (see self_check), or NULL
    long long check_failures   # stored bounds the checker found wrong


cdef inline void check_limits(Worker* w) noexcept nogil:
    if limit_hit(&w.shared.limits, w.stats.nodes, not w.is_helper):
        w.aborted = 1
