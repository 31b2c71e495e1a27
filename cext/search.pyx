# cython: language_level=3
"""Exact equilibrium search for 2-player 6 nimmt! (complete information, simultaneous moves).

Value = bullheads player 2 takes - bullheads player 1 takes, from now to the end of the round.
Each node is a zero-sum matrix game over the two hands; an entry is the turn's penalties plus
the child's value, with a too-low card's row chosen by its owner (max for player 1, min for
player 2).

search(alpha, beta) is fail-soft: a result <= alpha is an upper bound, >= beta a lower bound,
anything between is exact. A node is solved by a double-oracle loop (Bosansky et al. 2016):
a restricted game over a few cards of each hand is solved exactly; the opponents' replies
outside it are then tested with narrow windows, and a reply that does better joins the
restricted game. Entries carry proven intervals [lo, hi], so a test rarely needs an exact
child. Transpositions are merged on a canonical key (see make_key).
"""
from libc.stdlib cimport calloc, free
from posix.mman cimport (mmap, munmap, madvise, PROT_READ, PROT_WRITE, MAP_PRIVATE,
                         MAP_ANONYMOUS, MAP_FAILED, MADV_HUGEPAGE)
from libc.string cimport memset, memcpy
from libc.stdint cimport uint16_t, uint32_t, uint64_t, int8_t
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from search cimport (u128, MAX_HAND, MAX_RANKS, NO_MOVE, SRow, State, LastRows, TTEntry,
                     Stats, EndgameSlot, Context, NodeReport)
from matgame cimport solve_game

cdef extern from *:
    """
    #define nimmt_fetch_add(p, v) __atomic_fetch_add((p), (v), __ATOMIC_SEQ_CST)
    #define nimmt_load(p) __atomic_load_n((p), __ATOMIC_SEQ_CST)
    #define nimmt_store(p, v) __atomic_store_n((p), (v), __ATOMIC_SEQ_CST)
    #if defined(__x86_64__) || defined(__i386__)
    #define nimmt_relax() __builtin_ia32_pause()
    #else
    #define nimmt_relax() ((void)0)
    #endif
    """
    int popcount "__builtin_popcount" (unsigned int) nogil
    int lowest_bit "__builtin_ctz" (unsigned int) nogil
    int count_leading_zeros "__builtin_clz" (unsigned int) nogil
    int fetch_add "nimmt_fetch_add" (int*, int) nogil
    int atomic_load "nimmt_load" (int*) nogil
    void atomic_store "nimmt_store" (int*, int) nogil
    void* load_ptr "nimmt_load" (void**) nogil
    void store_ptr "nimmt_store" (void**, void*) nogil
    void relax "nimmt_relax" () nogil

cdef extern from "<pthread.h>" nogil:
    ctypedef unsigned long pthread_t
    int pthread_create(pthread_t* thread, const void* attr, void* (*start)(void*) noexcept nogil,
                       void* arg)
    int pthread_join(pthread_t thread, void** result)

cdef double INF = 1e18
cdef double EPS = 1e-9          # two values closer than this are equal
cdef int GUESS_FROM = 5         # smaller nodes skip the estimate: killers and the table order
                                # them about as well, at a fraction of the cost
cdef int GUESS_DEEPER = 7       # nodes with this many cards look two turns ahead to order moves
cdef int SPLIT_FROM = 5          # nodes with this many cards share their tests with an idle helper
cdef int HELP_FROM = 7           # searches of smaller roots take no helper: too few nodes to share
cdef int EXACT_BELOW = 2         # nodes with this many cards or fewer are solved exactly
cdef int ENDGAME_LOG2 = 20      # 2-card cache: 2**20 slots, 16 MB per thread (by default)
cdef double TINY = 1e-12        # rounding noise of a sum of products
cdef double CHECK_TOLERANCE = 1e-7  # self-check: a stored bound may be off by rounding only
cdef double BIG = 1000.0        # beyond any value (a round holds at most 171 bullheads)


# ---------------------------------------------------------------------------------------
# rules on compact states
# ---------------------------------------------------------------------------------------
cdef inline int target_row(const State* s, int card) noexcept nogil:
    """The row whose end is the highest below `card`; -1 if the card is too low."""
    cdef int r, best = -1, best_end = -1
    for r in range(4):
        if s.rows[r].end < card and s.rows[r].end > best_end:
            best = r
            best_end = s.rows[r].end
    return best


cdef inline int take_row(State* s, const Context* c, int r, int card) noexcept nogil:
    cdef int taken = s.rows[r].bulls
    s.rows[r].end = card
    s.rows[r].length = 1
    s.rows[r].bulls = c.bulls[card]
    return taken


cdef inline int place_on(State* s, const Context* c, int r, int card) noexcept nogil:
    if s.rows[r].length == 5:
        return take_row(s, c, r, card)
    s.rows[r].end = card
    s.rows[r].length += 1
    s.rows[r].bulls += c.bulls[card]
    return 0


cdef inline int resolve(const Context* c, const State* s, int a, int b, int choice,
                        State* out, int* reward) noexcept nogil:
    """Player 1 plays rank a, player 2 rank b. The lower card goes first; if it is too low
    its owner takes row `choice`. Writes the next state and the reward (player 2's penalty
    minus player 1's). Returns the owner (0 or 1) who had to choose a row, or -1."""
    cdef int low = a, high = b, low_owner = 0, chooser = -1, r, pen_low, pen_high
    if b < a:
        low = b
        high = a
        low_owner = 1
    out[0] = s[0]
    out.hand[0] &= ~(<uint32_t>1 << a)
    out.hand[1] &= ~(<uint32_t>1 << b)
    r = target_row(out, low)
    if r < 0:
        pen_low = take_row(out, c, choice, low)
        chooser = low_owner
    else:
        pen_low = place_on(out, c, r, low)
    # the higher card always has a row: at worst the one the lower card just started
    pen_high = place_on(out, c, target_row(out, high), high)
    reward[0] = pen_high - pen_low if low_owner == 0 else pen_low - pen_high
    return chooser


cdef inline int hand_cards(uint32_t mask, int* out) noexcept nogil:
    """Ranks of a hand, ascending. Returns how many."""
    cdef int n = 0
    while mask:
        out[n] = lowest_bit(mask)
        mask &= mask - 1
        n += 1
    return n


cdef inline void rows_by_bulls(const State* s, int* order) noexcept nogil:
    """Row indices, fewest bullheads first: the usual best row to take comes first."""
    cdef int i, j, t
    for i in range(4):
        order[i] = i
    for i in range(1, 4):
        j = i
        while j > 0 and s.rows[order[j]].bulls < s.rows[order[j - 1]].bulls:
            t = order[j]
            order[j] = order[j - 1]
            order[j - 1] = t
            j -= 1


# ---------------------------------------------------------------------------------------
# canonical key and transposition table
# ---------------------------------------------------------------------------------------
cdef inline int bull_code(int bulls) noexcept nogil:
    # bullheads 1, 2, 3, 5, 7 -> 0..4
    if bulls <= 3:
        return bulls - 1
    return 3 if bulls == 5 else 4


cdef inline void make_key(const Context* c, const State* s, u128* key,
                          bint* swapped) noexcept nogil:
    """Canonical key: the live cards (hands and row ends) in ascending order, each as a
    4-bit code (owner and bullheads for a hand card, 10 + length - 1 for a row end), then
    each row's bullhead sum in the same order. Dead cards and card numbers disappear, so
    positions that play the same merge. So do rows whose differences cannot matter: a row
    that cannot get a 6th card even if every card above its end lands on it shows as length
    1; rows ending above every card in hand (they can only be taken, by a too-low card)
    show as one code each, their sums sorted. The player swap (which negates the value) is
    folded in by naming "first player" the holder of the lowest card in hand: a state and
    its swap then have the same key."""
    cdef uint32_t hands = s.hand[0] | s.hand[1], inner = 0, live, bits
    cdef bint swap = s.hand[1] >> lowest_bit(hands) & 1
    cdef uint32_t second = s.hand[1 - swap]
    cdef uint32_t up_to_top = (<uint32_t>2 << (31 - count_leading_zeros(hands))) - 1
    cdef int code_of[MAX_RANKS]       # each live card's 4-bit code, by rank
    cdef int bulls_of[MAX_RANKS]      # each row end's row sum, by rank
    cdef int above[4]
    cdef int r, rank, end, length, n_above = 0, i, bulls
    cdef u128 k = 1
    cdef u128 bulls_part = 0
    # codes first, by rank, so the walk in rank order below has no branch per card
    bits = hands
    while bits:
        rank = lowest_bit(bits)
        bits &= bits - 1
        code_of[rank] = c.bull_code[rank] + 5 * (second >> rank & 1)
    for r in range(4):
        end = s.rows[r].end
        length = s.rows[r].length
        bulls = s.rows[r].bulls
        if up_to_top >> end & 1:
            inner |= <uint32_t>1 << end
            # a row that cannot get a 6th card even if every card above it lands there
            # plays the same whatever its length
            code_of[end] = 10 + (length - 1) * (length + popcount(hands >> end) > 5)
            bulls_of[end] = bulls
        else:
            # beyond every card in hand: collected, sorted
            i = n_above
            while i > 0 and above[i - 1] > bulls:
                above[i] = above[i - 1]
                i -= 1
            above[i] = bulls
            n_above += 1
    live = hands | inner
    while live:
        rank = lowest_bit(live)
        live &= live - 1
        k = k << 4 | <u128>code_of[rank]
    bits = inner
    while bits:
        rank = lowest_bit(bits)
        bits &= bits - 1
        bulls_part = bulls_part << 5 | <u128>bulls_of[rank]
    for i in range(n_above):
        k = k << 4 | <u128>15
        bulls_part = bulls_part << 5 | <u128>above[i]
    key[0] = k << 20 | bulls_part
    swapped[0] = swap


cdef inline void exact_key(const State* s, u128* key, bint* swapped) noexcept nogil:
    """Ablation key: the state as it is (ranks, rows in place), no player swap."""
    cdef u128 k = <u128>s.hand[0] << 32 | <u128>s.hand[1]
    cdef int r
    for r in range(4):
        k = k << 13 | <u128>(s.rows[r].end << 8 | s.rows[r].length << 5 | s.rows[r].bulls)
    key[0] = k | (<u128>1 << 127)
    swapped[0] = False


cdef inline uint64_t key_hash(u128 key) noexcept nogil:
    cdef uint64_t h = <uint64_t>key ^ (<uint64_t>(key >> 64) * 0x9E3779B97F4A7C15ULL)
    h ^= h >> 31
    h *= 0xBF58476D1CE4E5B9ULL
    h ^= h >> 29
    return h


cdef inline uint64_t entry_check(const TTEntry* e) noexcept nogil:
    cdef uint64_t lower_bits, upper_bits
    memcpy(&lower_bits, &e.lower, 8)
    memcpy(&upper_bits, &e.upper, 8)
    cdef uint64_t h = key_hash(e.key) ^ lower_bits * 0xD6E8FEB86659FD93ULL
    h ^= upper_bits * 0xA0761D6478BD642FULL
    h ^= <uint64_t>e.cards_in[0] << 24 | <uint64_t>e.cards_in[1] << 8 | <uint64_t>e.cards
    h ^= h >> 32
    h *= 0xE7037ED1A0B428DBULL
    return h ^ (h >> 29)


cdef inline bint tt_find(Context* c, u128 key, TTEntry* found) noexcept nogil:
    """Copy the entry of `key` into found. The copy is checked whole, since another thread
    may be writing the slot while we read it."""
    cdef TTEntry* bucket = c.table + 2 * (key_hash(key) & c.buckets_mask)
    cdef int slot
    c.stats.tt_probes += 1
    for slot in range(2):
        found[0] = bucket[slot]
        if found.key == key and found.check == entry_check(found):
            return True
    return False


cdef inline void tt_store(Context* c, u128 key, double lower, double upper,
                          uint32_t rows_in, uint32_t cols_in, int cards) noexcept nogil:
    """Two slots per bucket: slot 0 keeps the deeper entry, slot 1 always takes the new."""
    cdef TTEntry* bucket = c.table + 2 * (key_hash(key) & c.buckets_mask)
    cdef TTEntry entry
    entry.key = key
    entry.lower = lower
    entry.upper = upper
    entry.cards_in[0] = <uint16_t>rows_in
    entry.cards_in[1] = <uint16_t>cols_in
    entry.cards = cards
    entry.check = entry_check(&entry)
    if bucket[0].key == key:
        bucket[0] = entry
    elif bucket[1].key == key:
        bucket[1] = entry
    elif bucket[0].key == 0 or cards >= bucket[0].cards:
        bucket[1] = bucket[0]
        bucket[0] = entry
    else:
        bucket[1] = entry


# ---------------------------------------------------------------------------------------
# limits
# ---------------------------------------------------------------------------------------
cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline void check_limits(Context* c) noexcept nogil:
    if c.stop_requested:
        c.aborted = 1
    elif c.max_nodes and c.stats.nodes > c.max_nodes:
        c.aborted = 1
    elif c.deadline > 0 and (c.stats.nodes & 255) == 0 and now() > c.deadline:
        c.aborted = 1


# ---------------------------------------------------------------------------------------
# the last two turns, in closed form
# ---------------------------------------------------------------------------------------
cdef inline void load_rows(const State* s, LastRows* rows, int* row_of) noexcept nogil:
    cdef int r
    rows.ends = 0
    for r in range(4):
        rows.end[r] = s.rows[r].end
        rows.length[r] = s.rows[r].length
        rows.bulls[r] = s.rows[r].bulls
        rows.ends |= <uint32_t>1 << rows.end[r]
        row_of[rows.end[r]] = r


cdef inline int row_below(uint32_t ends, const int* row_of, int card) noexcept nogil:
    """The row whose end is the highest of `ends` below `card`; -1 if none."""
    cdef uint32_t below = ends & ((<uint32_t>1 << card) - 1)
    if below == 0:
        return -1
    return row_of[31 - count_leading_zeros(below)]


cdef inline int put_card(const Context* c, LastRows* rows, int* row_of, int r, int card,
                         bint take) noexcept nogil:
    """`card` ends row r, taking it if `take` (a too-low card) or if it is full. Returns the
    bullheads taken."""
    cdef int taken = 0
    rows.ends = (rows.ends & ~(<uint32_t>1 << rows.end[r])) | (<uint32_t>1 << card)
    row_of[card] = r          # a hand card's rank: no row end of the node is overwritten
    rows.end[r] = card
    if take or rows.length[r] == 5:
        taken = rows.bulls[r]
        rows.length[r] = 1
        rows.bulls[r] = c.bulls[card]
    else:
        rows.length[r] += 1
        rows.bulls[r] += c.bulls[card]
    return taken


cdef inline int last_reward(const Context* c, const LastRows* rows, const int* row_of, int a,
                            int b) noexcept nogil:
    """The last turn, player 1 playing a and player 2 b: the reward, a too-low card's row
    chosen by its owner. No next state is built."""
    cdef int low = a if a < b else b, high = b if a < b else a
    cdef int sign = 1 if a < b else -1           # reward = sign * (pen_high - pen_low)
    cdef int r = row_below(rows.ends, row_of, low), t, pen_low, pen_high, choice, reward
    cdef int best = 0
    if r >= 0:
        # no row end lies between row r's and low: placing low leaves high's row as it was
        t = row_below(rows.ends, row_of, high)
        if t != r:
            pen_high = rows.bulls[t] if rows.length[t] == 5 else 0
            pen_low = rows.bulls[r] if rows.length[r] == 5 else 0
        elif rows.length[r] == 5:            # low took the row and starts it again
            pen_low = rows.bulls[r]
            pen_high = 0
        else:
            pen_low = 0
            pen_high = rows.bulls[r] + c.bulls[low] if rows.length[r] == 4 else 0
        return sign * (pen_high - pen_low)
    # low starts the chosen row alone; high goes on another row if one is below it
    for choice in range(4):
        t = row_below(rows.ends & ~(<uint32_t>1 << rows.end[choice]), row_of, high)
        pen_high = rows.bulls[t] if t >= 0 and rows.length[t] == 5 else 0
        reward = sign * (pen_high - rows.bulls[choice])
        if choice == 0 or sign * reward > sign * best:
            best = reward
    return best


cdef double last_turn(const Context* c, const State* s) noexcept nogil:
    """One card each: the turn's reward, with the best row choice for the chooser."""
    cdef LastRows rows
    cdef int row_of[MAX_RANKS]
    load_rows(s, &rows, row_of)
    return last_reward(c, &rows, row_of, lowest_bit(s.hand[0]), lowest_bit(s.hand[1]))


cdef double entry_before_last(const Context* c, const LastRows* rows, int* row_of, int a,
                              int b, int a_last, int b_last) noexcept nogil:
    """Two cards each: the entry (a, b), then the last turn (a_last, b_last)."""
    cdef int low = a if a < b else b, high = b if a < b else a
    cdef int sign = 1 if a < b else -1
    cdef int r = row_below(rows.ends, row_of, low), r_high, pen_low, pen_high, choice
    cdef LastRows t
    cdef double v, best = 0.0
    if r >= 0:
        t = rows[0]
        # as in last_reward, high's row is the one it had before low was placed
        r_high = row_below(rows.ends, row_of, high)
        pen_low = put_card(c, &t, row_of, r, low, False)
        pen_high = put_card(c, &t, row_of, r_high, high, False)
        return sign * (pen_high - pen_low) + last_reward(c, &t, row_of, a_last, b_last)
    # the owner of the too-low card takes the row that serves it best
    for choice in range(4):
        t = rows[0]
        pen_low = put_card(c, &t, row_of, choice, low, True)
        pen_high = put_card(c, &t, row_of, row_below(t.ends, row_of, high), high, False)
        v = sign * (pen_high - pen_low) + last_reward(c, &t, row_of, a_last, b_last)
        if choice == 0 or sign * v > sign * best:
            best = v
    return best


cdef double two_card_node(Context* c, const State* s, NodeReport* report) noexcept nogil:
    cdef LastRows rows
    cdef int row_of[MAX_RANKS]
    cdef double m[4]
    cdef double x[2]
    cdef double y[2]
    cdef int i, j
    cdef int p0 = lowest_bit(s.hand[0]), p1 = 31 - count_leading_zeros(s.hand[0])
    cdef int q0 = lowest_bit(s.hand[1]), q1 = 31 - count_leading_zeros(s.hand[1])
    c.stats.small_nodes += 1
    load_rows(s, &rows, row_of)
    m[0] = entry_before_last(c, &rows, row_of, p0, q0, p1, q1)
    m[1] = entry_before_last(c, &rows, row_of, p0, q1, p1, q0)
    m[2] = entry_before_last(c, &rows, row_of, p1, q0, p0, q1)
    m[3] = entry_before_last(c, &rows, row_of, p1, q1, p0, q0)
    cdef double v = solve_game(m, 2, 2, 2, x, y)
    if report != NULL:
        report.value = report.lower = report.upper = v
        for i in range(2):
            report.x[i] = x[i]
            report.y[i] = y[i]
            for j in range(2):
                report.lo[i][j] = report.hi[i][j] = m[2 * i + j]
    return v


cdef inline double cached_two_card_node(Context* c, const State* s) noexcept nogil:
    """A 2-card node through a direct-mapped cache: its canonical key fits 64 bits
    (8 live cards of 4 bits, 4 row sums of 5 bits, a sentinel)."""
    cdef u128 key
    cdef bint swapped
    cdef double v
    if c.no_canonical:
        return two_card_node(c, s, NULL)
    make_key(c, s, &key, &swapped)
    cdef EndgameSlot* slot = c.endgame + (key_hash(key) & c.endgame_mask)
    if slot.key == <uint64_t>key:
        c.stats.endgame_hits += 1
        return -slot.value if swapped else slot.value
    v = two_card_node(c, s, NULL)
    slot.key = <uint64_t>key
    slot.value = -v if swapped else v
    return v


# ---------------------------------------------------------------------------------------
# the search
# ---------------------------------------------------------------------------------------
cdef double search(Context* c, const State* s, int k, double alpha, double beta) noexcept nogil:
    if k <= 0:
        return 0.0
    if k == 1:
        return last_turn(c, s)
    if k == 2:
        return cached_two_card_node(c, s)
    if k <= EXACT_BELOW:
        # small nodes are solved exactly once: every later probe is a table hit
        return matrix_node(c, s, k, -INF, INF, NULL)
    return matrix_node(c, s, k, alpha, beta, NULL)


cdef double entry_search(Context* c, const State* s, int k, int a, int b,
                         double alpha, double beta) noexcept nogil:
    """Fail-soft value of the joint move (a, b) at a k-card node: the turn's reward plus the
    child's value, maximized (player 1) or minimized (player 2) over a forced row choice."""
    cdef State t
    cdef int reward, owner, n
    cdef int order[4]
    cdef double v, best
    c.stats.evaluations += 1
    owner = resolve(c, s, a, b, 0, &t, &reward)
    if owner < 0:
        return child_value(c, &t, k - 1, reward, alpha, beta)
    rows_by_bulls(s, order)
    best = -INF if owner == 0 else INF
    for n in range(4):
        resolve(c, s, a, b, order[n], &t, &reward)
        if owner == 0:
            v = child_value(c, &t, k - 1, reward, alpha if alpha > best else best, beta)
            if v > best:
                best = v
            if best >= beta:
                break
        else:
            v = child_value(c, &t, k - 1, reward, alpha, beta if beta < best else best)
            if v < best:
                best = v
            if best <= alpha:
                break
        if c.aborted:
            break
    return best


cdef inline double child_value(Context* c, const State* t, int k, int reward, double alpha,
                               double beta) noexcept nogil:
    """reward + the child's fail-soft value, searched in the window (alpha, beta) less the
    reward. Shifting the window and the value back can round across an edge of the window (a
    bound would then pass for an exact value): the result stays on the side of the window
    where the child's was."""
    cdef double child_alpha = alpha - reward, child_beta = beta - reward
    cdef double v = search(c, t, k, child_alpha, child_beta)
    if v <= child_alpha and reward + v > alpha:
        return alpha
    if v >= child_beta and reward + v < beta:
        return beta
    return reward + v


cdef struct Node:
    # one matrix-game node being solved
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


cdef inline void refine(Context* c, Node* nd, int i, int j, double alpha,
                        double beta) noexcept nogil:
    """Search entry (i, j) with window (alpha, beta) and tighten its interval."""
    cdef double v = entry_search(c, nd.s, nd.k, nd.p[i], nd.q[j], alpha, beta)
    if c.aborted:
        return
    if not nd.seen[i][j]:
        nd.seen[i][j] = 1
        c.stats.children_seen += 1
    if v <= alpha:
        if v < nd.hi[i][j]:
            nd.hi[i][j] = v
    elif v >= beta:
        if v > nd.lo[i][j]:
            nd.lo[i][j] = v
    else:
        nd.lo[i][j] = v
        nd.hi[i][j] = v


# A reply is seen from its player's side: for player 2 (who minimizes) entries are negated,
# so that one routine serves both players: "does this card do better than t?"
cdef inline double low_for(Node* nd, int player, int card, int other) noexcept nogil:
    return nd.lo[card][other] if player == 0 else -nd.hi[other][card]


cdef inline double high_for(Node* nd, int player, int card, int other) noexcept nogil:
    return nd.hi[card][other] if player == 0 else -nd.lo[other][card]


cdef inline void refine_for(Context* c, Node* nd, int player, int card, int other,
                            double a, double b) noexcept nogil:
    if player == 0:
        refine(c, nd, card, other, a, b)
    else:
        refine(c, nd, other, card, -b, -a)


cdef inline void settle_for(Context* c, Node* nd, int player, int card, int other,
                            double a, double b) noexcept nogil:
    """refine_for; if that taught nothing (rounding at the window's edge), search the entry
    exactly, so every call makes progress."""
    cdef double lo = low_for(nd, player, card, other), hi = high_for(nd, player, card, other)
    refine_for(c, nd, player, card, other, a, b)
    if low_for(nd, player, card, other) == lo and high_for(nd, player, card, other) == hi:
        refine_for(c, nd, player, card, other, -INF, INF)


cdef inline bint reply_beats(Context* c, Node* nd, int player, int card, double t) noexcept nogil:
    """Does `card` of `player`, against the opponent's mixed strategy, do better than t (by
    player's own sign: player 1 scores more than t, player 2 less than -t)?

    Entries are searched only as far as needed: each window is the range where that
    entry's value would still leave the answer open."""
    cdef const double* w = &nd.y[0] if player == 0 else &nd.x[0]
    cdef int o, pick
    cdef double low_sum, high_sum, gap, widest, a, b, lo, hi
    # first a cheap null-window test of each entry against t itself: if none exceeds t,
    # neither does their mean
    for o in range(nd.k):
        if w[o] > 0.0 and low_for(nd, player, card, o) < t \
                and high_for(nd, player, card, o) > t + TINY and not c.aborted:
            refine_for(c, nd, player, card, o, t, t + EPS)
    while not c.aborted:
        low_sum = 0.0
        high_sum = 0.0
        pick = -1
        widest = 0.0
        for o in range(nd.k):
            if w[o] > 0.0:
                lo = low_for(nd, player, card, o)
                hi = high_for(nd, player, card, o)
                low_sum += w[o] * lo
                high_sum += w[o] * hi
                gap = w[o] * (hi - lo)
                if gap > widest:
                    widest = gap
                    pick = o
        if high_sum <= t + TINY:
            return False            # proven: the card scores at most t
        if low_sum >= t or pick < 0:
            return True             # a tie counts as beating: it only enlarges the game
        # value of entry pick that makes high_sum <= t, and that makes low_sum > t
        a = (t - (high_sum - w[pick] * high_for(nd, player, card, pick))) / w[pick]
        b = (t - (low_sum - w[pick] * low_for(nd, player, card, pick))) / w[pick]
        if not b > a + EPS:
            b = a + EPS
        if not b > a:           # window lost to rounding: settle this entry exactly
            a = -INF
            b = INF
        settle_for(c, nd, player, card, pick, a, b)
    return False


cdef void prefer_one_card(Node* nd, uint32_t mine, uint32_t theirs, int player,
                          double t) noexcept nogil:
    """If one of player's cards in the restricted game secures t by itself against every
    card of the other side in it (by player's sign, see reply_beats), player plays it alone:
    a reply is then tested on one entry, not on one per card of a mixed strategy."""
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


cdef struct Replies:
    # the replies outside the restricted game to test, in move order, and what came of them
    int n
    int player[2 * MAX_HAND]
    int card[2 * MAX_HAND]
    double t[2]                # each player's threshold (by its own sign, see reply_beats)
    int beats[2 * MAX_HAND]    # 1: beats its threshold; 0: proven not to; -1: not tested
    int next                   # the next one to take (taken by two threads at once)
    int found                  # one beats: take no more


cdef inline void add_candidates(Replies* rp, Node* nd, int player, uint32_t cards_in,
                                double t, int killer) noexcept nogil:
    """player's cards outside the restricted game: the killer (the card that last beat a
    restricted game at this hand size) first, then in move order."""
    cdef int* order = &nd.row_order[0] if player == 0 else &nd.col_order[0]
    cdef int* ranks = &nd.p[0] if player == 0 else &nd.q[0]
    cdef int a, i, first = rp.n
    rp.t[player] = t
    for a in range(nd.k):
        if not (cards_in >> order[a] & 1):
            rp.player[rp.n] = player
            rp.beats[rp.n] = -1
            i = rp.n
            if ranks[order[a]] == killer:
                while i > first:
                    rp.card[i] = rp.card[i - 1]
                    i -= 1
            rp.card[i] = order[a]
            rp.n += 1


cdef void test_replies(Context* c, Node* nd, Replies* rp) noexcept nogil:
    """Test replies, taken in turn, until one beats its threshold or none is left."""
    cdef int i
    while not c.aborted and not atomic_load(&rp.found):
        i = fetch_add(&rp.next, 1)
        if i >= rp.n:
            return
        if reply_beats(c, nd, rp.player[i], rp.card[i], rp.t[rp.player[i]]):
            rp.beats[i] = 1          # a True is proven even if a limit stopped the search
            atomic_store(&rp.found, 1)
        elif not c.aborted:
            rp.beats[i] = 0


cdef bint add_beating_replies(Context* c, Node* nd, uint32_t* rows_in, uint32_t* cols_in,
                              bint test_rows, double t_rows, bint test_cols,
                              double t_cols) noexcept nogil:
    """Add to the restricted game (`rows_in` x `cols_in`) a card outside it that beats its
    player's threshold (see reply_beats): player 1's cards first if `test_rows`, then player
    2's if `test_cols`, in move order. False if none does. With a second thread idle, the
    two threads test in turn and every card found beating is added."""
    cdef Replies rp
    cdef int i
    rp.n = 0
    rp.next = 0
    rp.found = 0
    if test_rows:
        add_candidates(&rp, nd, 0, rows_in[0], t_rows, c.reply_killer[nd.k][0])
    if test_cols:
        add_candidates(&rp, nd, 1, cols_in[0], t_cols, c.reply_killer[nd.k][1])
    if not (rp.n >= 2 and nd.k >= SPLIT_FROM and share_tests(c, nd, &rp)):
        test_replies(c, nd, &rp)
    for i in range(rp.n):
        if rp.beats[i] == 1:
            if rp.player[i] == 0:
                rows_in[0] |= <uint32_t>1 << rp.card[i]
                c.reply_killer[nd.k][0] = nd.p[rp.card[i]]
            else:
                cols_in[0] |= <uint32_t>1 << rp.card[i]
                c.reply_killer[nd.k][1] = nd.q[rp.card[i]]
    return rp.found


# ---------------------------------------------------------------------------------------
# two threads: the replies of a big node tested by both
# ---------------------------------------------------------------------------------------
cdef struct HelperJob:
    Node nd                    # the helper's own copy of the node: it tightens its entries
    Replies* rp


cdef void* helper_loop(void* arg) noexcept nogil:
    """The helper thread: waits (spinning: a job must start at once to pay) for a job from
    the main thread, does it, says so by clearing it; until told to quit."""
    cdef Context* h = <Context*>arg
    cdef HelperJob* job
    while not atomic_load(&h.quit):
        job = <HelperJob*>load_ptr(&h.job)
        if job == NULL:
            relax()
        else:
            test_replies(h, &job.nd, job.rp)
            store_ptr(&h.job, NULL)
    return NULL


cdef bint start_helper(Context* c, int k, pthread_t* thread) noexcept nogil:
    """Start the helper thread of a 2-thread search of a k-card node. False if there is none,
    or if the node is too small for sharing to pay."""
    if c.helper == NULL or k < HELP_FROM:
        return False
    c.helper.quit = 0
    c.helper.job = NULL
    c.helper.running = pthread_create(thread, NULL, helper_loop, c.helper) == 0
    return c.helper.running


cdef void end_helper(Context* c, pthread_t thread) noexcept nogil:
    atomic_store(&c.helper.quit, 1)
    pthread_join(thread, NULL)
    c.helper.running = 0


cdef bint share_tests(Context* c, Node* nd, Replies* rp) noexcept nogil:
    """Test the replies with the helper thread, if it is idle; its findings on the node's
    entries are merged back. False (nothing done) if there is no idle helper."""
    cdef Context* h = c.helper
    cdef HelperJob job
    cdef int i, j
    if h == NULL or not h.running or load_ptr(&h.job) != NULL:
        return False
    job.nd = nd[0]
    job.rp = rp
    h.aborted = 0
    h.stop_requested = c.stop_requested
    h.deadline = c.deadline
    store_ptr(&h.job, &job)                   # the helper starts
    c.stats.shared_nodes += 1
    test_replies(c, nd, rp)
    if c.aborted or atomic_load(&rp.found):
        atomic_store(&h.stop_requested, 1)    # its work is no longer needed
    while load_ptr(&h.job) != NULL:
        relax()
    for i in range(nd.k):
        for j in range(nd.k):
            if job.nd.lo[i][j] > nd.lo[i][j]:
                nd.lo[i][j] = job.nd.lo[i][j]
            if job.nd.hi[i][j] < nd.hi[i][j]:
                nd.hi[i][j] = job.nd.hi[i][j]
    return True


cdef inline double restricted_game(Context* c, Node* nd, uint32_t rows, uint32_t cols,
                                   bint upper, double* strategy) noexcept nogil:
    """Solve the game restricted to rows x cols, on the lower (or upper) entry bounds.
    Writes player 1's strategy (lower) or player 2's (upper) over all k cards."""
    cdef double m[MAX_HAND * MAX_HAND]
    cdef double xs[MAX_HAND]
    cdef double ys[MAX_HAND]
    cdef int ri[MAX_HAND]
    cdef int ci[MAX_HAND]
    cdef int nr = hand_cards(rows, ri), nc = hand_cards(cols, ci), a, b
    for a in range(nr):
        for b in range(nc):
            m[a * nc + b] = nd.hi[ri[a]][ci[b]] if upper else nd.lo[ri[a]][ci[b]]
    c.stats.matrix_games += 1
    cdef double v = solve_game(m, nr, nc, nc, xs, ys)
    for a in range(nd.k):
        strategy[a] = 0.0
    if upper:
        for b in range(nc):
            strategy[ci[b]] = ys[b]
    else:
        for a in range(nr):
            strategy[ri[a]] = xs[a]
    drop_negligible(strategy, nd.k)
    return v


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


cdef inline double guarantee_of_x(Node* nd) noexcept nogil:
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


cdef inline double guarantee_of_y(Node* nd) noexcept nogil:
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


cdef inline int strongest(const double* strategy, int k) noexcept nogil:
    cdef int i, best = 0
    for i in range(1, k):
        if strategy[i] > strategy[best]:
            best = i
    return best


cdef void estimate_matrix(Context* c, const State* s, int k, int depth,
                          double* m) noexcept nogil:
    """A cheap estimate of a node's matrix (k x k into m): this turn's penalties plus the
    estimated value `depth - 1` turns deeper (0 beyond), a too-low card taking its
    cheapest row."""
    cdef State t
    cdef int i, j, reward
    cdef int p[MAX_HAND]
    cdef int q[MAX_HAND]
    cdef int order[4]
    hand_cards(s.hand[0], p)
    hand_cards(s.hand[1], q)
    rows_by_bulls(s, order)
    for i in range(k):
        for j in range(k):
            resolve(c, s, p[i], q[j], order[0], &t, &reward)
            m[i * k + j] = reward + guess_value(c, &t, k - 1, depth - 1)


cdef double guess_value(Context* c, const State* s, int k, int depth) noexcept nogil:
    """The value of the estimated matrix game (see estimate_matrix)."""
    cdef double m[MAX_HAND * MAX_HAND]
    cdef double x[MAX_HAND]
    cdef double y[MAX_HAND]
    if depth <= 0 or k <= 0:
        return 0.0
    estimate_matrix(c, s, k, depth, m)
    return solve_game(m, k, k, k, x, y)


cdef void order_moves(Context* c, Node* nd, int* i0, int* j0) noexcept nogil:
    """Opening cards of the restricted game (unless the table gave them) and the order in
    which the opponents' replies are tested: the estimate's equilibrium first, then the
    replies that look most dangerous against it. Below GUESS_FROM cards, in rank order."""
    cdef double g[MAX_HAND * MAX_HAND]
    cdef double x[MAX_HAND]
    cdef double y[MAX_HAND]
    cdef double score[MAX_HAND]
    cdef int i, j, a, t
    cdef int k = nd.k
    if k < GUESS_FROM:
        for i in range(k):
            nd.row_order[i] = i
            nd.col_order[i] = i
        i0[0] = 0
        j0[0] = 0
        return
    estimate_matrix(c, nd.s, k, 2 if k >= GUESS_DEEPER else 1, g)
    solve_game(g, k, k, k, x, y)
    i0[0] = strongest(x, k)
    j0[0] = strongest(y, k)
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


cdef inline double takeable(const Context* c, const State* s, const int* p, const int* q,
                            int k) noexcept nogil:
    """Most bullheads the players can still take between them: everything on the table and
    in the hands, but the 4 cards (at least 1 bullhead each) left on the table at the end.
    No entry of the node is beyond this, either way."""
    cdef int r, i, total = -4
    for r in range(4):
        total += s.rows[r].bulls
    for i in range(k):
        total += c.bulls[p[i]] + c.bulls[q[i]]
    return total


cdef double matrix_node(Context* c, const State* s, int k, double alpha, double beta,
                        NodeReport* report) noexcept nogil:
    cdef Node nd
    cdef u128 key
    cdef bint swapped
    cdef TTEntry entry
    cdef double known_lo = -INF, known_hi = INF, v_lo, v_hi, g
    cdef double y_hi[MAX_HAND]
    cdef int i, j, a, i0 = NO_MOVE, j0 = NO_MOVE
    cdef uint32_t rows_in = 0, cols_in = 0
    cdef bint changed, solved_once = False

    c.stats.nodes += 1
    c.stats.by_cards[k] += 1
    check_limits(c)
    if c.aborted:
        return 0.0
    if c.no_canonical:
        exact_key(s, &key, &swapped)
    else:
        make_key(c, s, &key, &swapped)
    if tt_find(c, key, &entry):
        c.stats.tt_hits += 1
        if swapped:
            known_lo, known_hi = -entry.upper, -entry.lower
            rows_in, cols_in = entry.cards_in[1], entry.cards_in[0]
        else:
            known_lo, known_hi = entry.lower, entry.upper
            rows_in, cols_in = entry.cards_in[0], entry.cards_in[1]
        if report == NULL:
            if known_lo >= beta or known_hi - known_lo <= EPS:
                c.stats.tt_cutoffs += 1
                return known_lo
            if known_hi <= alpha:
                c.stats.tt_cutoffs += 1
                return known_hi

    nd.s = s
    nd.k = k
    hand_cards(s.hand[0], nd.p)
    hand_cards(s.hand[1], nd.q)
    cdef double reach = takeable(c, s, nd.p, nd.q, k)
    for i in range(k):
        for j in range(k):
            nd.lo[i][j] = -reach
            nd.hi[i][j] = reach
            nd.seen[i][j] = 0
    c.stats.children_total += k * k
    order_moves(c, &nd, &i0, &j0)
    if rows_in == 0:
        # a new node: start from the killers, else from the estimate's equilibrium cards
        for i in range(k):
            if nd.p[i] == c.killer[k][0]:
                i0 = i
            if nd.q[i] == c.killer[k][1]:
                j0 = i
        rows_in = <uint32_t>1 << i0
        cols_in = <uint32_t>1 << j0

    if c.no_pruning:
        return backward_induction(c, &nd, key, swapped, report)

    while not c.aborted:
        if report != NULL and solved_once:
            # what the last strategies secure, the entries of the reply tests included
            report_bounds(report, &nd, reach)
        # 1. the restricted game's entries, as far as the window needs them
        for i in range(k):
            if rows_in >> i & 1:
                for j in range(k):
                    if (cols_in >> j & 1) and nd.lo[i][j] < beta and nd.hi[i][j] > alpha \
                            and nd.hi[i][j] - nd.lo[i][j] > EPS:
                        refine(c, &nd, i, j, alpha, beta)
        if c.aborted:
            break
        # 2. solve it on both bounds: x from the lower bounds, y from the upper bounds
        v_lo = restricted_game(c, &nd, rows_in, cols_in, False, nd.x)
        v_hi = restricted_game(c, &nd, rows_in, cols_in, True, nd.y)
        solved_once = True
        if report != NULL:
            report_bounds(report, &nd, reach)
        # 3. fail high: does any card of player 2 bring x below beta?
        if v_lo >= beta:
            prefer_one_card(&nd, rows_in, cols_in, 0, beta)
            changed = add_beating_replies(c, &nd, &rows_in, &cols_in, False, 0.0, True, -beta)
            if c.aborted:
                break
            if not changed:
                g = guarantee_of_x(&nd)
                if g < beta:
                    g = beta            # short of beta by rounding noise only
                if g > known_lo:
                    known_lo = g
                c.stats.fail_highs += 1
                note_killer(c, &nd, 0)
                store(c, &nd, key, swapped, known_lo, known_hi)
                return g
            continue
        # 4. fail low: does any card of player 1 lift y above alpha?
        if v_hi <= alpha:
            prefer_one_card(&nd, cols_in, rows_in, 1, -alpha)
            changed = add_beating_replies(c, &nd, &rows_in, &cols_in, True, alpha, False, 0.0)
            if c.aborted:
                break
            if not changed:
                g = guarantee_of_y(&nd)
                if g > alpha:
                    g = alpha
                if g < known_hi:
                    known_hi = g
                c.stats.fail_lows += 1
                note_killer(c, &nd, 1)
                store(c, &nd, key, swapped, known_lo, known_hi)
                return g
            continue
        # 5. bounds too loose to tell: make the restricted entries exact
        if v_hi - v_lo > EPS:
            c.stats.exact_refines += 1
            for i in range(k):
                if rows_in >> i & 1:
                    for j in range(k):
                        if (cols_in >> j & 1) and nd.hi[i][j] - nd.lo[i][j] > EPS:
                            refine(c, &nd, i, j, -INF, INF)
            continue
        # 6. the restricted value is exact and inside the window: is it the node's value?
        changed = add_beating_replies(c, &nd, &rows_in, &cols_in, True, v_lo + EPS,
                                      True, -(v_lo - EPS))
        if c.aborted:
            break
        if not changed:
            c.stats.exact_nodes += 1
            note_killer(c, &nd, 0)
            note_killer(c, &nd, 1)
            store(c, &nd, key, swapped, v_lo, v_lo)
            if report != NULL:
                report.lower = report.upper = v_lo
                fill_report(report, &nd, v_lo)
            return v_lo
    if report != NULL:
        if solved_once:
            report_bounds(report, &nd, reach)     # the entries the reply tests proved count too
        fill_report(report, &nd, report.value)
    return 0.0


cdef inline void report_bounds(NodeReport* report, Node* nd, double reach) noexcept nogil:
    """Tighten the root's proven bounds by what its strategies guarantee on the entry bounds
    (still proven when a limit stopped the search: entries only take finished searches).
    A guarantee no tighter than +-reach, what can still be taken, says nothing: left out."""
    cdef double g = guarantee_of_x(nd)
    if g > report.lower and g > -reach + EPS:
        report.lower = g
    g = guarantee_of_y(nd)
    if g < report.upper and g < reach - EPS:
        report.upper = g


cdef inline uint32_t support(const double* strategy, int k) noexcept nogil:
    """The cards a strategy plays, as a mask: where a new search of the node starts (the
    cards the restricted game took in on the way are mostly not needed again)."""
    cdef uint32_t cards = 0
    cdef int i
    for i in range(k):
        if strategy[i] > 0.0:
            cards |= <uint32_t>1 << i
    return cards


cdef inline void note_killer(Context* c, Node* nd, int player) noexcept nogil:
    """If player's strategy at this node is one card, it becomes the killer of its size."""
    cdef uint32_t cards = support(&nd.x[0] if player == 0 else &nd.y[0], nd.k)
    cdef int i
    if popcount(cards) == 1:
        i = lowest_bit(cards)
        c.killer[nd.k][player] = nd.p[i] if player == 0 else nd.q[i]


cdef double backward_induction(Context* c, Node* nd, u128 key, bint swapped,
                               NodeReport* report) noexcept nogil:
    """Ablation: every entry searched exactly, the whole matrix solved."""
    cdef int i, j
    cdef uint32_t all_cards = (<uint32_t>1 << nd.k) - 1
    for i in range(nd.k):
        for j in range(nd.k):
            refine(c, nd, i, j, -INF, INF)
    if c.aborted:
        return 0.0
    cdef double v = restricted_game(c, nd, all_cards, all_cards, False, nd.x)
    restricted_game(c, nd, all_cards, all_cards, True, nd.y)
    store(c, nd, key, swapped, v, v)
    if report != NULL:
        report.lower = report.upper = v
        fill_report(report, nd, v)
    return v


cdef inline void store(Context* c, Node* nd, u128 key, bint swapped, double lower,
                       double upper) noexcept nogil:
    """Store what the node proved, with the supports of its last restricted game."""
    cdef uint32_t rows = support(nd.x, nd.k), cols = support(nd.y, nd.k)
    if c.checker != NULL:
        self_check(c, nd, lower, upper)
    if swapped:
        tt_store(c, key, -upper, -lower, cols, rows, nd.k)
    else:
        tt_store(c, key, lower, upper, rows, cols, nd.k)


cdef void self_check(Context* c, Node* nd, double lower, double upper) noexcept nogil:
    """Tests only: the node's value by backward induction (the checker's own search, no
    pruning) must lie in the bounds the search is about to store."""
    cdef double v = search(c.checker, nd.s, nd.k, -INF, INF)
    if v < lower - CHECK_TOLERANCE or v > upper + CHECK_TOLERANCE:
        c.check_failures += 1


cdef inline void fill_report(NodeReport* report, Node* nd, double value) noexcept nogil:
    cdef int i, j
    report.value = value
    for i in range(nd.k):
        report.x[i] = nd.x[i]
        report.y[i] = nd.y[i]
        for j in range(nd.k):
            report.lo[i][j] = nd.lo[i][j]
            report.hi[i][j] = nd.hi[i][j]


# ---------------------------------------------------------------------------------------
# Python-facing owner of the memory
# ---------------------------------------------------------------------------------------
cdef class ExactSearch:
    """Owns the transposition table and statistics of one exact search.

    States are given in rank form (see solver/exact.py): `bulls[r]` is the bullheads of
    rank r, hands are bit masks of ranks, rows are (end rank, length, bullhead sum).
    The table is kept between calls, so solving the children of a solved node is cheap.
    """
    cdef Context ctx
    cdef Context helper        # the helper thread's context: same table, own statistics
    cdef Context checker       # self-check (tests): backward induction with its own table
    cdef size_t checker_size
    cdef size_t size
    cdef size_t endgame_size   # bytes of each 2-card cache (the threads', the self-check's)
    cdef NodeReport report     # the root of the solve under way (its bounds are read live)
    cdef readonly long long entries

    def __cinit__(self, bulls, long long table_entries, int endgame_log2=ENDGAME_LOG2):
        self.size = table_bytes(table_entries)
        self.entries = self.size // sizeof(TTEntry)
        self.ctx.table = <TTEntry*>zeroed_pages(self.size)
        if self.ctx.table == NULL:
            raise MemoryError(f"cannot allocate a table of {self.entries} entries")
        memset(&self.ctx.stats, 0, sizeof(Stats))
        self.ctx.buckets_mask = self.entries // 2 - 1
        if len(bulls) > MAX_RANKS:
            raise ValueError(f"at most {MAX_RANKS} live cards, got {len(bulls)}")
        for r in range(len(bulls)):
            self.ctx.bulls[r] = bulls[r]
            self.ctx.bull_code[r] = bull_code(bulls[r])
        memset(self.ctx.killer, -1, sizeof(self.ctx.killer))
        memset(self.ctx.reply_killer, -1, sizeof(self.ctx.reply_killer))
        self.helper = self.ctx
        self.helper.helper = NULL
        if not 10 <= endgame_log2 <= 28:
            raise ValueError(f"endgame_log2 must be in 10..28, got {endgame_log2}")
        self.endgame_size = (<size_t>1 << endgame_log2) * sizeof(EndgameSlot)
        self.ctx.endgame = <EndgameSlot*>zeroed_pages(self.endgame_size)
        self.helper.endgame = <EndgameSlot*>zeroed_pages(self.endgame_size)
        self.ctx.endgame_mask = self.helper.endgame_mask = (<uint64_t>1 << endgame_log2) - 1
        if self.ctx.endgame == NULL or self.helper.endgame == NULL:
            raise MemoryError("cannot allocate the endgame cache")

    def __dealloc__(self):
        if self.ctx.table != NULL:
            munmap(self.ctx.table, self.size)
        self.release_checker()
        if self.ctx.endgame != NULL:
            munmap(self.ctx.endgame, self.endgame_size)
        if self.helper.endgame != NULL:
            munmap(self.helper.endgame, self.endgame_size)

    @staticmethod
    def entry_size():
        return sizeof(TTEntry)

    def set_limits(self, long long max_nodes=0, double seconds=0.0):
        """Limits counted from now (0 = none)."""
        self.ctx.max_nodes = self.ctx.stats.nodes + max_nodes if max_nodes else 0
        self.ctx.deadline = now() + seconds if seconds > 0 else 0.0
        self.ctx.aborted = 0
        self.ctx.stop_requested = 0

    def set_ablation(self, bint no_pruning=False, bint no_canonical=False):
        """Switch off an idea of the search, to measure what it gains (benchmarks only)."""
        self.ctx.no_pruning = self.helper.no_pruning = no_pruning
        self.ctx.no_canonical = self.helper.no_canonical = no_canonical

    def request_stop(self):
        """Ask a running search (in another thread) to stop at the next node."""
        self.ctx.stop_requested = 1
        self.helper.stop_requested = 1

    def enable_self_check(self, long long table_entries):
        """Tests only (one thread): every bound the search stores is checked against the
        node's value by backward induction, in a context of its own; `check_failures`
        counts the bounds that were wrong."""
        if self.ctx.checker != NULL:
            return
        self.checker = self.ctx
        self.checker_size = table_bytes(table_entries)
        self.checker.table = <TTEntry*>zeroed_pages(self.checker_size)
        self.checker.buckets_mask = self.checker_size // sizeof(TTEntry) // 2 - 1
        self.checker.endgame = <EndgameSlot*>zeroed_pages(self.endgame_size)   # ctx's mask
        if self.checker.table == NULL or self.checker.endgame == NULL:
            self.release_checker()
            raise MemoryError("cannot allocate the self-check's table")
        memset(&self.checker.stats, 0, sizeof(Stats))
        self.checker.no_pruning = 1
        self.checker.no_canonical = 0
        self.checker.helper = self.checker.checker = NULL
        self.checker.max_nodes = 0
        self.checker.deadline = 0.0
        self.ctx.checker = &self.checker

    cdef void release_checker(self):
        """Unmap the self-check's memory, all or what a failed allocation left."""
        if self.checker.table != NULL:
            munmap(self.checker.table, self.checker_size)
        if self.checker.endgame != NULL:
            munmap(self.checker.endgame, self.endgame_size)
        self.checker.table = NULL
        self.checker.endgame = NULL

    @property
    def check_failures(self):
        return self.ctx.check_failures

    def set_threads(self, int threads):
        """1: the search alone; 2: a helper thread shares the reply tests of big nodes."""
        self.ctx.helper = &self.helper if threads == 2 else NULL

    @property
    def helper_stats(self):
        return dict(self.helper.stats)

    @property
    def aborted(self):
        return bool(self.ctx.aborted)

    @property
    def stats(self):
        return dict(self.ctx.stats)

    @property
    def root_bounds(self):
        """(lower, upper): the bounds proven so far on the value of the solve_root under way
        (read while it runs, from another thread), or of the last one."""
        return self.report.lower, self.report.upper

    def solve_root(self, hand1, hand2, rows):
        """Solve a node exactly. Returns (value, x, y, lo, hi, lower, upper); on a limit the
        value is meaningless and (lower, upper) are the bounds proven so far."""
        cdef State s = make_state(hand1, hand2, rows)
        cdef NodeReport* report = &self.report
        cdef int k = popcount(s.hand[0])
        if popcount(s.hand[1]) != k or k > MAX_HAND:
            raise ValueError("hands must have the same size, at most 10")
        cdef pthread_t thread
        cdef bint helped
        memset(report, 0, sizeof(NodeReport))
        report.lower = -INF
        report.upper = INF
        with nogil:
            if k == 0:
                report.value = report.lower = report.upper = 0.0
            elif k == 1:
                report.value = report.lower = report.upper = last_turn(&self.ctx, &s)
                report.x[0] = report.y[0] = 1.0
                report.lo[0][0] = report.hi[0][0] = report.value
            elif k == 2:
                two_card_node(&self.ctx, &s, report)
            else:
                helped = start_helper(&self.ctx, k, &thread)
                matrix_node(&self.ctx, &s, k, -INF, INF, report)
                if helped:
                    end_helper(&self.ctx, thread)
        return (report.value, [report.x[i] for i in range(k)], [report.y[j] for j in range(k)],
                [[report.lo[i][j] for j in range(k)] for i in range(k)],
                [[report.hi[i][j] for j in range(k)] for i in range(k)],
                report.lower, report.upper)

    def entry_value(self, hand1, hand2, rows, int a, int b):
        """Exact value of the joint move (rank a, rank b), row choices optimal."""
        cdef State s = make_state(hand1, hand2, rows)
        cdef int k = popcount(s.hand[0])
        cdef double v
        cdef pthread_t thread
        cdef bint helped
        with nogil:
            helped = start_helper(&self.ctx, k, &thread)
            v = entry_search(&self.ctx, &s, k, a, b, -INF, INF)
            if helped:
                end_helper(&self.ctx, thread)
        return v

    def value(self, hand1, hand2, rows):
        """Exact value of a state (no strategies)."""
        cdef State s = make_state(hand1, hand2, rows)
        cdef int k = popcount(s.hand[0])
        cdef double v
        cdef pthread_t thread
        cdef bint helped
        with nogil:
            helped = start_helper(&self.ctx, k, &thread)
            v = search(&self.ctx, &s, k, -INF, INF)
            if helped:
                end_helper(&self.ctx, thread)
        return v


cdef size_t table_bytes(long long entries):
    """Bytes of a table of at most `entries` entries: a power of two of 2-entry buckets."""
    cdef long long buckets = 1
    while buckets * 2 <= max(entries // 2, 1):
        buckets *= 2
    return 2 * buckets * sizeof(TTEntry)


cdef void* zeroed_pages(size_t size) noexcept nogil:
    """Zeroed memory mapped on first touch, NULL if refused. Huge pages: a random probe
    into a big table would otherwise miss the TLB too."""
    cdef void* memory = mmap(NULL, size, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
    if memory == MAP_FAILED:
        return NULL
    madvise(memory, size, MADV_HUGEPAGE)
    return memory


cdef State make_state(hand1, hand2, rows) except *:
    cdef State s
    cdef int r
    s.hand[0] = 0
    s.hand[1] = 0
    for a in hand1:
        s.hand[0] |= <uint32_t>1 << a
    for b in hand2:
        s.hand[1] |= <uint32_t>1 << b
    for r in range(4):
        s.rows[r].end, s.rows[r].length, s.rows[r].bulls = rows[r]
    return s
