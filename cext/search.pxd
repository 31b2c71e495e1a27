# Exact simultaneous-move search for 2-player 6 nimmt! with complete information.
#
# Cards are relabelled at the root by rank among the live cards (hands and row ends), so a
# state fits in two 32-bit hand masks and 4 compact rows whatever the deck. Only what matters
# for the future is kept: a row is (end rank, length, bullhead sum).

from libc.stdint cimport uint16_t, uint32_t, uint64_t, int8_t

cdef extern from *:
    """
    typedef unsigned __int128 nimmt_u128;
    """
    ctypedef unsigned long long u128 "nimmt_u128"

cdef enum:
    MAX_HAND = 10
    MAX_RANKS = 32
    NO_MOVE = -1

cdef struct SRow:
    int end            # rank of the row's last card
    int length         # 1..5
    int bulls          # bullheads of the whole row

cdef struct State:
    uint32_t hand[2]   # bit r set: the player holds the card of rank r
    SRow rows[4]

cdef struct LastRows:
    # the rows of the last two turns, as their closed form reads them fastest
    uint32_t ends      # bit r set: rank r ends a row (the row is found in a rank -> row map)
    int end[4]
    int length[4]
    int bulls[4]

cdef struct TTEntry:
    u128 key           # canonical key; 0 = empty slot
    double lower       # proven bounds of the value, for the canonical orientation
    double upper
    uint16_t cards_in[2]  # each player's cards (indices in the sorted hand) in the support
                          # of the last restricted game: where a new search of the node starts
    int8_t cards       # cards per hand: the work this entry saves
    uint64_t check     # hash of all the fields: a torn entry (threads writing at once) fails it

cdef struct Stats:
    long long nodes            # matrix-game nodes searched (3+ cards per hand)
    long long small_nodes      # 2-card nodes solved in closed form
    long long endgame_hits     # 2-card nodes found in the endgame cache
    long long tt_probes
    long long tt_hits          # probes that found the state
    long long tt_cutoffs       # probes whose bounds settled the node
    long long matrix_games     # restricted matrix games solved
    long long children_total   # joint moves at searched nodes
    long long children_seen    # joint moves evaluated at least once
    long long evaluations      # child searches, re-searches included
    long long by_cards[11]     # matrix-game nodes by cards per hand
    long long exact_refines    # restricted games whose bounds were too loose (step 5)
    long long fail_highs       # nodes proven >= beta
    long long fail_lows        # nodes proven <= alpha
    long long exact_nodes      # nodes whose exact value was proven
    long long shared_nodes     # nodes whose reply tests the two threads shared

cdef struct EndgameSlot:
    uint64_t key               # canonical key of a 2-card node (it fits 64 bits); 0 = empty
    double value               # for the canonical orientation

cdef struct Context:
    TTEntry* table
    uint64_t buckets_mask      # number of 2-entry buckets - 1
    int bulls[MAX_RANKS]       # bullheads of each rank
    int bull_code[MAX_RANKS]   # ... as a key code: 1, 2, 3, 5, 7 -> 0..4
    Stats stats
    long long max_nodes        # 0 = no limit
    double deadline            # monotonic seconds; 0 = no limit
    int aborted                # set when a limit is hit: results are then meaningless
    int stop_requested         # set from outside (Ctrl-C) to stop cleanly
    int no_pruning             # ablation: evaluate every entry exactly (backward induction)
    int no_canonical           # ablation: key on the exact state (no relabelling, no swap)
    EndgameSlot* endgame       # a small cache of 2-card nodes, own to each thread
    uint64_t endgame_mask
    int killer[MAX_HAND + 1][2]        # per hand size and player: the card that last proved a
                                       # node's bound alone (-1: none); siblings often share it
    int reply_killer[MAX_HAND + 1][2]  # ... the card that last beat a restricted game
    Context* helper            # a second thread's context (same table), NULL for one thread
    void* job                  # a helper's: the tests it is doing, NULL when idle
    int running                # a helper's: its thread is running
    int quit                   # a helper's: the search is over, end the thread
    Context* checker           # tests: verifies every stored bound (see self_check), or NULL
    long long check_failures   # stored bounds the checker found wrong

cdef struct NodeReport:
    double value
    double lower               # proven bounds (meaningful if aborted)
    double upper
    double x[MAX_HAND]
    double y[MAX_HAND]
    double lo[MAX_HAND][MAX_HAND]
    double hi[MAX_HAND][MAX_HAND]
