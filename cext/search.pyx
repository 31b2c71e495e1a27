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
child. Transpositions are merged on a canonical key (see key.pxd).

The pieces that do not recurse are headers beside this file, one concern each: state.pxd
(compact states and the rules on them), key.pxd (canonical keys), table.pxd (transposition
table), lastturns.pxd (the last two turns in closed form, the 2-card cache), node.pxd (a
node's entry bounds and guarantees), ordering.pxd (move ordering), clock.pxd (limits),
memory.pxd (raw memory), handoff.pxd (a job from a worker to an idle helper), context.pxd
(what a search and each of its threads hold), and search.pxd (the tuning knobs). What
recurses into the search is here, and the helper threads' loop.
"""
from collections import namedtuple

from libc.string cimport memset, memcpy
from libc.stdint cimport uint32_t, uint64_t
from state cimport (MAX_HAND, MAX_RANKS, State, popcount, hand_cards, resolve, rows_by_bulls,
                    takeable)
from key cimport u128, bull_code, make_key, exact_key
from table cimport TTEntry, SavedEntry, entry_check, tt_find, tt_store
from lastturns cimport (EndgameSlot, last_turn, two_card_matrix, endgame_slot, endgame_probe,
                        endgame_store)
from node cimport (INF, EPS, TINY, Node, NodeReport, low_for, high_for, guarantee_of_x,
                   guarantee_of_y, support, drop_negligible, prefer_one_card, report_bounds,
                   fill_report, on_grid)
from ordering cimport note_killer, strongest, rank_order, order_by_estimate
from clock cimport now, micros_since
from memory cimport (table_size, allocate_table, release_table, allocate_endgame,
                     release_endgame, allocate_workers, release_workers, allocate_log,
                     release_log)
from nodelog cimport NodeLog, log_node
from context cimport (Stats, Shared, Worker, Replies, Entries, Rows, Job, MAX_THREADS,
                     check_limits, Group, group_open, group_next,
                     group_close, span_of, SPANS, GROUP_TESTS, GROUP_REFINES,
                     GROUP_ROWS)
from search cimport (GUESS_FROM, GUESS_DEEPER, SPLIT_FROM, HELP_FROM, SHARE_REFINES, ROWS_FROM,
                     ENDGAME_LOG2,
                     CHECK_TOLERANCE, WIDE_WINDOW, STEP5_MARGIN, STEP5_GROWTH)
from handoff cimport (DONE, fetch_add, atomic_load, atomic_store, handoff_init, handoff_destroy,
                      claim, post, next_job, finish, wait_done, release, tell_quit)
from matgame cimport solve_game
from firstcard cimport (first_card, hand_features, estimate_features, FC_ESTIMATE, FC_FEATURES,
                        FC_INPUTS, FC_HIDDEN)

cdef extern from "<pthread.h>" nogil:
    ctypedef unsigned long pthread_t
    int pthread_create(pthread_t* thread, const void* attr, void* (*start)(void*) noexcept nogil,
                       void* arg)
    int pthread_join(pthread_t thread, void** result)


# ---------------------------------------------------------------------------------------
# the last two turns: 2-card nodes
# ---------------------------------------------------------------------------------------
cdef double two_card_node(Worker* c, const State* s, NodeReport* report) noexcept nogil:
    cdef double m[4]
    cdef double x[2]
    cdef double y[2]
    cdef int i, j
    c.stats.small_nodes += 1
    two_card_matrix(c.shared.bulls, s, m)
    cdef double v = solve_game(m, 2, 2, 2, x, y)
    if report != NULL:
        report.value = report.lower = report.upper = v
        for i in range(2):
            report.x[i] = x[i]
            report.y[i] = y[i]
            for j in range(2):
                report.lo[i][j] = report.hi[i][j] = m[2 * i + j]
    return v


cdef inline double cached_two_card_node(Worker* c, const State* s) noexcept nogil:
    """A 2-card node through the thread's 2-card cache (see lastturns.pxd)."""
    cdef u128 key
    cdef bint swapped
    cdef double v
    if c.shared.no_canonical:
        return two_card_node(c, s, NULL)
    make_key(c.shared.bull_code, s, &key, &swapped)
    cdef EndgameSlot* slot = endgame_slot(&c.endgame, key)
    if endgame_probe(slot, key, &v):
        c.stats.endgame_hits += 1
        return -v if swapped else v
    v = two_card_node(c, s, NULL)
    endgame_store(slot, key, -v if swapped else v)
    return v


# ---------------------------------------------------------------------------------------
# the search
# ---------------------------------------------------------------------------------------
cdef double search(Worker* c, const State* s, int k, double alpha, double beta) noexcept nogil:
    if k <= 0:
        return 0.0
    if k == 1:
        return last_turn(c.shared.bulls, s)
    if k == 2:
        return cached_two_card_node(c, s)
    return matrix_node(c, s, k, alpha, beta, NULL)


cdef double entry_search(Worker* c, const State* s, int k, int a, int b,
                         double alpha, double beta) noexcept nogil:
    """Fail-soft value of the joint move (a, b) at a k-card node: the turn's reward plus the
    child's value, maximized (player 1) or minimized (player 2) over a forced row choice."""
    cdef State t
    cdef int reward, owner, n
    cdef int order[4]
    cdef double v, best
    cdef Group rows
    c.stats.evaluations += 1
    owner = resolve(c.shared.bulls, s, a, b, 0, &t, &reward)
    if owner < 0:
        return child_value(c, &t, k - 1, reward, alpha, beta)
    rows_by_bulls(s, order)
    best = -INF if owner == 0 else INF
    group_open(c, &rows, GROUP_ROWS, k >= SPLIT_FROM)     # the critical path (context.pxd)
    for n in range(4):
        group_next(c, &rows)
        resolve(c.shared.bulls, s, a, b, order[n], &t, &reward)
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
        if n == 0 and k >= ROWS_FROM and c.pool_size > 0 \
                and share_rows(c, s, k, a, b, owner, order, alpha, beta, &best):
            break
    group_close(c, &rows)
    return best


cdef inline double child_value(Worker* c, const State* t, int k, int reward, double alpha,
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


cdef inline void refine(Worker* c, Node* nd, int i, int j, double alpha,
                        double beta) noexcept nogil:
    """Search entry (i, j) with window (alpha, beta) and tighten its interval."""
    cdef double v = entry_search(c, nd.s, nd.k, nd.p[i], nd.q[j], alpha, beta)
    if c.aborted:
        return
    if not nd.seen[i][j]:
        nd.seen[i][j] = 1
        c.stats.children_seen += 1
    if nd.root:
        # a bound is the window's edge, not the child's fail-soft value, which depends on
        # what the table held
        if v < alpha:
            v = alpha
        elif v > beta:
            v = beta
    if v <= alpha:
        if v < nd.hi[i][j]:
            nd.hi[i][j] = v
    elif v >= beta:
        if v > nd.lo[i][j]:
            nd.lo[i][j] = v
    else:
        nd.lo[i][j] = v
        nd.hi[i][j] = v


cdef inline void refine_for(Worker* c, Node* nd, int player, int card, int other,
                            double a, double b) noexcept nogil:
    if player == 0:
        refine(c, nd, card, other, a, b)
    else:
        refine(c, nd, other, card, -b, -a)


cdef inline void settle_for(Worker* c, Node* nd, int player, int card, int other,
                            double a, double b) noexcept nogil:
    """refine_for; if that taught nothing (rounding at the window's edge), search the entry
    exactly, so every call makes progress."""
    cdef double lo = low_for(nd, player, card, other), hi = high_for(nd, player, card, other)
    refine_for(c, nd, player, card, other, a, b)
    if low_for(nd, player, card, other) == lo and high_for(nd, player, card, other) == hi:
        refine_for(c, nd, player, card, other, -INF, INF)


cdef inline bint straddles(const Node* nd, const double* w, int player, int card, int o,
                           double t) noexcept nogil:
    """Is the entry of `card` against the opponent's card o played by w, and its interval
    still across the threshold t (player's own terms)? Then its first pass tests it."""
    return w[o] > 0.0 and low_for(nd, player, card, o) < t \
        and high_for(nd, player, card, o) > t + TINY


cdef inline bint reply_beats(Worker* c, Node* nd, int player, int card, double t) noexcept nogil:
    """Does `card` of `player`, against the opponent's mixed strategy, do better than t (by
    player's own sign: player 1 scores more than t, player 2 less than -t)?

    Entries are searched only as far as needed: each window is the range where that
    entry's value would still leave the answer open."""
    cdef const double* w = &nd.y[0] if player == 0 else &nd.x[0]
    cdef int o, pick
    cdef double low_sum, high_sum, gap, widest, a, b, lo, hi
    cdef Entries first
    cdef Group alone
    # first a cheap null-window test of each entry against t itself: if none exceeds t,
    # neither does their mean
    if c.pool_size == 0 or nd.k < SPLIT_FROM:
        # alone: straight (a hot path, called at every size)
        group_open(c, &alone, GROUP_REFINES, nd.k >= SPLIT_FROM)
        for o in range(nd.k):
            if straddles(nd, w, player, card, o, t) and not c.aborted:
                group_next(c, &alone)
                refine_for(c, nd, player, card, o, t, t + EPS)
        group_close(c, &alone)
    else:
        # the same entries, in player 1's terms (see refine_for), may go to idle helpers
        if player == 0:
            start_entries(&first, t, t + EPS)
        else:
            start_entries(&first, -(t + EPS), -t)
        for o in range(nd.k):
            if straddles(nd, w, player, card, o, t):
                if player == 0:
                    add_entry(&first, card, o)
                else:
                    add_entry(&first, o, card)
        search_entries(c, nd, &first)
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


cdef inline void test_reply(Worker* c, Node* nd, Replies* rp, int i) noexcept nogil:
    if reply_beats(c, nd, rp.player[i], rp.card[i], rp.t[rp.player[i]]):
        rp.beats[i] = 1          # a True is proven even if a limit stopped the search
        atomic_store(&rp.found, 1 + rp.player[i])
    elif not c.aborted:
        rp.beats[i] = 0


cdef void test_replies(Worker* c, Node* nd, Replies* rp) noexcept nogil:
    """Test replies, taken in turn, until one beats its threshold or none is left."""
    cdef int i
    cdef Group tests
    group_open(c, &tests, GROUP_TESTS, nd.k >= SPLIT_FROM and rp.n >= 2)
    while not c.aborted and not atomic_load(&rp.found):
        i = fetch_add(&rp.next, 1)
        if i >= rp.n:
            break
        group_next(c, &tests)
        test_reply(c, nd, rp, i)
    group_close(c, &tests)


cdef void first_beating(Worker* c, Node* nd, Replies* rp, double lo[][MAX_HAND],
                        double hi[][MAX_HAND]) noexcept nogil:
    """At a root, what one thread testing the replies in turn would have found: the first
    reply in order that beats, every reply before it tested to the end (here, if a helper
    stopped it), and nothing learnt from the replies after it (their entries back to lo, hi,
    as before the tests). Which replies threads happen to test first then changes nothing."""
    cdef int i, f = rp.n, o
    for i in range(rp.n):
        if rp.beats[i] == 1:
            f = i
            break
    for i in range(f):
        if c.aborted:
            return
        if rp.beats[i] < 0:
            test_reply(c, nd, rp, i)
            if rp.beats[i] == 1:
                f = i
                break
    for i in range(f + 1, rp.n):
        rp.beats[i] = -1
        for o in range(nd.k):
            if rp.player[i] == 0:
                nd.lo[rp.card[i]][o] = lo[rp.card[i]][o]
                nd.hi[rp.card[i]][o] = hi[rp.card[i]][o]
            else:
                nd.lo[o][rp.card[i]] = lo[o][rp.card[i]]
                nd.hi[o][rp.card[i]] = hi[o][rp.card[i]]
    rp.found = 0 if f == rp.n else 1 + rp.player[f]


cdef int add_beating_replies(Worker* c, Node* nd, uint32_t* rows_in, uint32_t* cols_in,
                             bint test_rows, double t_rows, bint test_cols, double t_cols,
                             bint cols_first) noexcept nogil:
    """Add to the restricted game (`rows_in` x `cols_in`) a card outside it that beats its
    player's threshold (see reply_beats): player 1's cards if `test_rows` and player 2's
    if `test_cols`, player 1's first unless `cols_first`, each in move order. 0 if none
    does, else 1 + the player of a card added. With helpers idle, they and this worker
    test in turn and every card found beating is added (at a root, only the one that one
    thread would have found: first_beating)."""
    cdef Replies rp
    cdef int i
    cdef double lo[MAX_HAND][MAX_HAND]
    cdef double hi[MAX_HAND][MAX_HAND]
    # a root's order is its own (the killers come from the rest of the search)
    cdef int killer_rows = -1 if nd.root else c.killers.beat[nd.k][0]
    cdef int killer_cols = -1 if nd.root else c.killers.beat[nd.k][1]
    rp.n = 0
    rp.next = 0
    rp.found = 0
    if test_rows and not cols_first:
        add_candidates(&rp, nd, 0, rows_in[0], t_rows, killer_rows)
    if test_cols:
        add_candidates(&rp, nd, 1, cols_in[0], t_cols, killer_cols)
    if test_rows and cols_first:
        add_candidates(&rp, nd, 0, rows_in[0], t_rows, killer_rows)
    if nd.root:
        memcpy(lo, nd.lo, sizeof(lo))
        memcpy(hi, nd.hi, sizeof(hi))
    if not (rp.n >= 2 and nd.k >= SPLIT_FROM and share_work(c, nd, &rp, NULL)):
        test_replies(c, nd, &rp)
    if nd.root:
        first_beating(c, nd, &rp, lo, hi)
    for i in range(rp.n):
        if rp.beats[i] == 1:
            if rp.player[i] == 0:
                rows_in[0] |= <uint32_t>1 << rp.card[i]
                c.killers.beat[nd.k][0] = nd.p[rp.card[i]]
            else:
                cols_in[0] |= <uint32_t>1 << rp.card[i]
                c.killers.beat[nd.k][1] = nd.q[rp.card[i]]
    return rp.found


# ---------------------------------------------------------------------------------------
# the pool: the replies of a big node tested by its worker and the idle helpers it claims
# ---------------------------------------------------------------------------------------
cdef void* helper_loop(void* arg) noexcept nogil:
    """A helper thread: does the jobs workers hand it, until told to quit."""
    cdef Worker* h = <Worker*>arg
    cdef double idle = now()
    while next_job(&h.handoff):
        h.stats.wait_us += micros_since(idle)
        if h.job.rp != NULL:
            test_replies(h, &h.job.nd, h.job.rp)
        elif h.job.rw != NULL:
            search_rows(h, h.job.rw)
        else:
            refine_entries(h, &h.job.nd, h.job.es)
        finish(&h.handoff)
        idle = now()
    return NULL


cdef bint start_pool(Worker* c, int k) noexcept nogil:
    """Start the helper threads of a search of a k-card node. False if there are none, or
    if the node is too small for sharing to pay. A helper whose thread does not start is
    left out (the pool is the helpers before it)."""
    cdef int i, started = 0
    cdef Worker* h
    if c.pool == NULL or c.pool_size > 0 or k < HELP_FROM:
        return False
    for i in range(c.shared.threads - 1):
        h = &c.pool[i]
        handoff_init(&h.handoff)
        if pthread_create(&h.thread, NULL, helper_loop, h) != 0:
            handoff_destroy(&h.handoff)
            break
        started += 1
    for i in range(started):
        c.pool[i].pool_size = started
    c.pool_size = started
    return started > 0


cdef void end_pool(Worker* c) noexcept nogil:
    """The search is over (every helper idle): end the helper threads."""
    cdef int i, n = c.pool_size
    for i in range(n):
        tell_quit(&c.pool[i].handoff)
    for i in range(n):
        pthread_join(c.pool[i].thread, NULL)
        handoff_destroy(&c.pool[i].handoff)
        c.pool[i].pool_size = 0
    c.pool_size = 0


cdef int claim_helpers(Worker* c, const Node* nd, Replies* rp, Entries* es, Rows* rw,
                       int tasks, Worker** mine) noexcept nogil:
    """Post the job (rp, es or rw; with a copy of the node nd unless NULL) to idle helpers
    of the pool, at most one fewer than the tasks. Returns how many, listed in mine."""
    cdef Worker* h
    cdef int n = 0, m
    for m in range(c.pool_size):
        if n >= tasks - 1 or n >= 2 * MAX_HAND:
            break
        h = &c.pool[m]
        if claim(&h.handoff):
            if nd != NULL:
                h.job.nd = nd[0]
            h.job.rp = rp
            h.job.es = es
            h.job.rw = rw
            h.parent = c
            h.aborted = 0
            post(&h.handoff)                  # the helper starts
            mine[n] = h
            n += 1
    if n > 0:
        c.stats.shared_nodes += 1
    return n


cdef void join_helpers(Worker* c, Node* nd, Worker** mine, int n, bint stop) noexcept nogil:
    """Wait for the helpers claimed (told to stop if `stop`: their work is no longer
    needed) and free them; their findings on the entries of their copies of nd (unless
    NULL) are merged into it."""
    cdef Worker* h
    cdef int m, i, j
    cdef double start
    if stop:
        for m in range(n):
            atomic_store(&mine[m].aborted, 1)
    for m in range(n):
        h = mine[m]
        start = now() if atomic_load(&h.handoff.state) != DONE else 0.0
        if wait_done(&h.handoff):             # else withdrawn: the helper did nothing
            if start > 0.0:
                c.stats.wait_us += micros_since(start)
            if nd != NULL:
                for i in range(nd.k):
                    for j in range(nd.k):
                        if h.job.nd.lo[i][j] > nd.lo[i][j]:
                            nd.lo[i][j] = h.job.nd.lo[i][j]
                        if h.job.nd.hi[i][j] < nd.hi[i][j]:
                            nd.hi[i][j] = h.job.nd.hi[i][j]
            release(&h.handoff)


cdef bint share_work(Worker* c, Node* nd, Replies* rp, Entries* es) noexcept nogil:
    """Test the replies `rp` (or search the entries `es`, rp NULL) with the idle helpers of
    the pool, each on its own copy of the node, whose findings on the entries are merged
    back. False (nothing done) if no helper is idle."""
    cdef Worker* mine[2 * MAX_HAND]
    cdef int n, i
    n = claim_helpers(c, nd, rp, es, NULL, rp.n if rp != NULL else es.n, mine)
    if n == 0:
        return False
    if rp == NULL:
        refine_entries(c, nd, es)
    else:
        test_replies(c, nd, rp)
    join_helpers(c, nd, mine, n, c.aborted or (rp != NULL and atomic_load(&rp.found)))
    # a reply a helper took but left untested (it stopped first) is tested here: "no reply
    # beats" must never rest on an unfinished test; and an entry is searched to the end
    if rp == NULL:
        for i in range(es.n):
            if not es.done[i] and not c.aborted:
                refine(c, nd, es.i[i], es.j[i], es.a, es.b)
        return True
    for i in range(rp.n):
        if rp.beats[i] < 0 and not c.aborted and not rp.found:
            test_reply(c, nd, rp, i)
    return True


cdef inline double row_value(Worker* c, const Rows* rw, int n) noexcept nogil:
    cdef State t
    cdef int reward
    resolve(c.shared.bulls, rw.s, rw.a, rw.b, rw.row[n], &t, &reward)
    return child_value(c, &t, rw.k - 1, reward, rw.alpha, rw.beta)


cdef inline bint row_cuts(const Rows* rw, double v) noexcept nogil:
    return v >= rw.beta if rw.owner == 0 else v <= rw.alpha


cdef inline void search_row(Worker* c, Rows* rw, int n) noexcept nogil:
    """Row n's value, kept unless a stop made it meaningless; a cut stops the others."""
    cdef double v = row_value(c, rw, n)
    if c.aborted:
        return
    rw.v[n] = v
    rw.done[n] = 1
    if row_cuts(rw, v):
        atomic_store(&rw.found, 1)


cdef void search_rows(Worker* c, Rows* rw) noexcept nogil:
    """Search the rows, taken in turn, until one reaches the cut or none is left."""
    cdef int n
    while not c.aborted and not atomic_load(&rw.found):
        n = fetch_add(&rw.next, 1)
        if n >= rw.n:
            break
        search_row(c, rw, n)


cdef bint share_rows(Worker* c, const State* s, int k, int a, int b, int owner,
                     const int* order, double alpha, double beta, double* best) noexcept nogil:
    """The too-low card's rows after its first (searched: its value in best) with the idle
    helpers of the pool, all in the window that the first row left; best becomes the
    owner's best of the four. False (nothing done) if no helper is idle."""
    cdef Worker* mine[2 * MAX_HAND]
    cdef Rows rw
    cdef int n, i
    rw.s = s
    rw.k = k
    rw.a = a
    rw.b = b
    rw.owner = owner
    rw.n = 3
    rw.alpha = alpha if owner == 1 or alpha > best[0] else best[0]
    rw.beta = beta if owner == 0 or beta < best[0] else best[0]
    rw.next = 0
    rw.found = 0
    for i in range(3):
        rw.row[i] = order[i + 1]
        rw.done[i] = 0
    n = claim_helpers(c, NULL, NULL, NULL, &rw, rw.n, mine)
    if n == 0:
        return False
    search_rows(c, &rw)
    join_helpers(c, NULL, mine, n, c.aborted or atomic_load(&rw.found))
    # a row a helper took but left unfinished (it stopped first) is searched here
    for i in range(rw.n):
        if not rw.done[i] and not c.aborted and not rw.found:
            search_row(c, &rw, i)
    for i in range(rw.n):
        if rw.done[i] and (rw.v[i] > best[0] if owner == 0 else rw.v[i] < best[0]):
            best[0] = rw.v[i]
    return True


cdef inline void add_entry(Entries* es, int i, int j) noexcept nogil:
    es.i[es.n] = i
    es.j[es.n] = j
    es.done[es.n] = 0
    es.n += 1


cdef inline void start_entries(Entries* es, double a, double b) noexcept nogil:
    es.n = 0
    es.next = 0
    es.a = a
    es.b = b


cdef inline void add_open_entries(Entries* es, const Node* nd, uint32_t rows, uint32_t cols,
                                  const double* y_lo, const double* x_hi) noexcept nogil:
    """List the entries of rows x cols not yet exact whose interval still meets the
    window (es.a, es.b); with y_lo and x_hi (not NULL), only those that the equilibria of
    the two bound games play: (x, y_lo) on the lower bounds, (x_hi, y) on the upper."""
    cdef int i, j
    for i in range(nd.k):
        if rows >> i & 1:
            for j in range(nd.k):
                if (cols >> j & 1) and nd.hi[i][j] - nd.lo[i][j] > EPS \
                        and nd.lo[i][j] < es.b and nd.hi[i][j] > es.a \
                        and (y_lo == NULL
                             or (nd.x[i] > 0.0 and y_lo[j] > 0.0)
                             or (x_hi[i] > 0.0 and nd.y[j] > 0.0)):
                    add_entry(es, i, j)


cdef void refine_entries(Worker* c, Node* nd, Entries* es) noexcept nogil:
    """Search the entries, taken in turn, in their window."""
    cdef int x
    cdef Group g
    group_open(c, &g, GROUP_REFINES, nd.k >= SPLIT_FROM)    # the critical path (context.pxd)
    while not c.aborted:
        x = fetch_add(&es.next, 1)
        if x >= es.n:
            break
        group_next(c, &g)
        refine(c, nd, es.i[x], es.j[x], es.a, es.b)
        if not c.aborted:
            es.done[x] = 1
    group_close(c, &g)


cdef inline void search_entries(Worker* c, Node* nd, Entries* es) noexcept nogil:
    """Search the listed entries: with idle helpers if there are some, else alone, in
    order."""
    if not (SHARE_REFINES and es.n >= 2 and nd.k >= SPLIT_FROM
            and share_work(c, nd, NULL, es)):
        refine_entries(c, nd, es)


cdef inline double restricted_game(Worker* c, Node* nd, uint32_t rows, uint32_t cols,
                                   bint upper, double* strategy,
                                   double* other) noexcept nogil:
    """Solve the game restricted to rows x cols, on the lower (or upper) entry bounds.
    Writes player 1's strategy (lower) or player 2's (upper) over all k cards to
    `strategy`, and the other player's strategy in that game to `other`."""
    cdef double m[MAX_HAND * MAX_HAND]
    cdef double xs[MAX_HAND]
    cdef double ys[MAX_HAND]
    cdef int ri[MAX_HAND]
    cdef int ci[MAX_HAND]
    cdef int nr = hand_cards(rows, ri), nc = hand_cards(cols, ci), a, b
    cdef double* xk = other if upper else strategy
    cdef double* yk = strategy if upper else other
    for a in range(nr):
        for b in range(nc):
            m[a * nc + b] = nd.hi[ri[a]][ci[b]] if upper else nd.lo[ri[a]][ci[b]]
            if nd.root:
                m[a * nc + b] = on_grid(m[a * nc + b])
    c.stats.matrix_games += 1
    cdef double v = solve_game(m, nr, nc, nc, xs, ys)
    for a in range(nd.k):
        xk[a] = 0.0
        yk[a] = 0.0
    for a in range(nr):
        xk[ri[a]] = xs[a]
    for b in range(nc):
        yk[ci[b]] = ys[b]
    drop_negligible(xk, nd.k)
    drop_negligible(yk, nd.k)
    return v


cdef inline int estimate_depth(int k) noexcept nogil:
    """Turns the estimate looks ahead at a node of k cards."""
    return 2 if k >= GUESS_DEEPER else 1


cdef void estimate_matrix(const int* bulls, const State* s, int k, int depth,
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
            resolve(bulls, s, p[i], q[j], order[0], &t, &reward)
            m[i * k + j] = reward + guess_value(bulls, &t, k - 1, depth - 1)


cdef double guess_value(const int* bulls, const State* s, int k, int depth) noexcept nogil:
    """The value of the estimated matrix game (see estimate_matrix)."""
    cdef double m[MAX_HAND * MAX_HAND]
    cdef double x[MAX_HAND]
    cdef double y[MAX_HAND]
    if depth <= 0 or k <= 0:
        return 0.0
    estimate_matrix(bulls, s, k, depth, m)
    return solve_game(m, k, k, k, x, y)


cdef void order_moves(const Worker* c, Node* nd, int* i0, int* j0, double* g, double* x,
                      double* y) noexcept nogil:
    """Opening cards of the restricted game (unless the table gave them) and the order in
    which the opponents' replies are tested: the estimate's equilibrium first, then the
    replies that look most dangerous against it (the estimate into g, x, y). Below
    GUESS_FROM cards, in rank order (g, x, y untouched)."""
    cdef int k = nd.k
    if k < GUESS_FROM:
        rank_order(nd)
        i0[0] = 0
        j0[0] = 0
        return
    estimate_matrix(c.shared.bulls, nd.s, k, estimate_depth(k), g)
    solve_game(g, k, k, k, x, y)
    i0[0] = strongest(x, k)
    j0[0] = strongest(y, k)
    order_by_estimate(nd, g, x, y)


cdef int model_card(const Shared* shared, const State* s, const int* mine, const int* other,
                    int k, const double* g, const double* x, const double* y,
                    int player, double f[][FC_FEATURES]) noexcept nogil:
    """`player`'s opening card (index in `mine`) by the opening-card model (firstcard.pxd),
    its features into f; the estimate (g, x, y, as order_moves leaves it) among them from
    GUESS_FROM cards."""
    cdef double scores[MAX_HAND]
    cdef double est[MAX_HAND * FC_ESTIMATE]
    if k >= GUESS_FROM:
        estimate_features(g, x, y, k, player, est)
    hand_features(shared.bulls, s, mine, other, k, est if k >= GUESS_FROM else NULL, f)
    return first_card(&shared.first_card, f, k, scores)


cdef double matrix_node(Worker* c, const State* s, int k, double alpha, double beta,
                        NodeReport* report) noexcept nogil:
    cdef Node nd
    cdef u128 key
    cdef bint swapped
    cdef TTEntry entry
    cdef double known_lo = -INF, known_hi = INF, v_lo = 0.0, v_hi = 0.0, g, a, b
    cdef double y_lo[MAX_HAND]       # player 2's strategy in the game on the lower bounds
    cdef double x_hi[MAX_HAND]       # player 1's in the game on the upper bounds
    cdef double margin = STEP5_MARGIN
    cdef double est_g[MAX_HAND * MAX_HAND]   # the estimate (from GUESS_FROM cards)
    cdef double est_x[MAX_HAND]
    cdef double est_y[MAX_HAND]
    cdef double features[MAX_HAND][FC_FEATURES]
    cdef int i, j, i0, j0, found, cols_first = 0
    cdef uint32_t rows_in = 0, cols_in = 0
    cdef bint changed, solved_once = False
    cdef Entries es

    c.stats.nodes += 1
    c.stats.by_cards[k] += 1
    check_limits(c)
    if c.aborted:
        return 0.0
    if c.shared.no_canonical:
        exact_key(s, &key, &swapped)
    else:
        make_key(c.shared.bull_code, s, &key, &swapped)
    c.stats.tt_probes += 1
    if tt_find(&c.shared.table, key, &entry):
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

    c.stats.expanded_by_cards[k] += 1
    nd.s = s
    nd.k = k
    nd.root = report != NULL
    if nd.root:
        rows_in = 0         # the table's cards depend on what searched the node before
        cols_in = 0
    hand_cards(s.hand[0], nd.p)
    hand_cards(s.hand[1], nd.q)
    cdef double reach = takeable(c.shared.bulls, s, nd.p, nd.q, k)
    for i in range(k):
        for j in range(k):
            nd.lo[i][j] = -reach
            nd.hi[i][j] = reach
            nd.seen[i][j] = 0
    c.stats.children_total += k * k
    order_moves(c, &nd, &i0, &j0, est_g, est_x, est_y)
    if rows_in == 0:
        # a new node: from the opening-card model where it applies, else the killers, else
        # the estimate's equilibrium cards
        if c.log.cap:
            log_node(&c.log, s, key, k)
        if c.shared.first_card.top and c.shared.first_card.low <= k <= c.shared.first_card.high:
            i0 = model_card(c.shared, s, nd.p, nd.q, k, est_g, est_x, est_y, 0, features)
            j0 = model_card(c.shared, s, nd.q, nd.p, k, est_g, est_x, est_y, 1, features)
        elif not nd.root:
            for i in range(k):
                if nd.p[i] == c.killers.proved[k][0]:
                    i0 = i
                if nd.q[i] == c.killers.proved[k][1]:
                    j0 = i
        rows_in = <uint32_t>1 << i0
        cols_in = <uint32_t>1 << j0

    if c.shared.no_pruning:
        return backward_induction(c, &nd, key, swapped, report)

    while not c.aborted:
        if report != NULL and solved_once:
            # what the last strategies secure, the entries of the reply tests included
            report_bounds(report, &nd, reach)
        # 1. the restricted game's entries, as far as the window needs them; in a wide
        # window, once the restricted game has a value, only around that value: step 5
        # makes exact what its equilibria play, the rest stays bounds
        a = alpha
        b = beta
        if solved_once and beta - alpha > WIDE_WINDOW:
            g = v_lo if v_hi - v_lo <= EPS else 0.5 * (v_lo + v_hi)
            if alpha < g < beta:
                if g - EPS > alpha:
                    a = g - EPS
                if g + EPS < beta:
                    b = g + EPS
        start_entries(&es, a, b)
        add_open_entries(&es, &nd, rows_in, cols_in, NULL, NULL)
        search_entries(c, &nd, &es)
        if c.aborted:
            break
        # 2. solve it on both bounds: x from the lower bounds, y from the upper bounds
        v_lo = restricted_game(c, &nd, rows_in, cols_in, False, nd.x, y_lo)
        v_hi = restricted_game(c, &nd, rows_in, cols_in, True, nd.y, x_hi)
        solved_once = True
        if report != NULL:
            report_bounds(report, &nd, reach)
        # 3. fail high: does any card of player 2 bring x below beta?
        if v_lo >= beta:
            prefer_one_card(&nd, rows_in, cols_in, 0, beta)
            changed = add_beating_replies(c, &nd, &rows_in, &cols_in, False, 0.0, True, -beta,
                                          True) != 0
            if c.aborted:
                break
            if not changed:
                g = guarantee_of_x(&nd)
                if g < beta:
                    g = beta            # short of beta by rounding noise only
                if g > known_lo:
                    known_lo = g
                c.stats.fail_highs += 1
                note_killer(&c.killers, &nd, 0)
                store(c, &nd, key, swapped, known_lo, known_hi)
                return g
            continue
        # 4. fail low: does any card of player 1 lift y above alpha?
        if v_hi <= alpha:
            prefer_one_card(&nd, cols_in, rows_in, 1, -alpha)
            changed = add_beating_replies(c, &nd, &rows_in, &cols_in, True, alpha, False, 0.0,
                                          False) != 0
            if c.aborted:
                break
            if not changed:
                g = guarantee_of_y(&nd)
                if g > alpha:
                    g = alpha
                if g < known_hi:
                    known_hi = g
                c.stats.fail_lows += 1
                note_killer(&c.killers, &nd, 1)
                store(c, &nd, key, swapped, known_lo, known_hi)
                return g
            continue
        # 5. bounds too loose to tell: search the entries that the equilibria of both
        # games play (on the lower and on the upper bounds) within a margin around the
        # window, widened while that teaches nothing, up to exact; only when all of those
        # are exact, every restricted entry
        if v_hi - v_lo > EPS:
            c.stats.exact_refines += 1
            while not c.aborted:
                if margin >= 2.0 * reach:
                    a = -INF
                    b = INF
                else:
                    a = alpha - margin
                    b = beta + margin
                start_entries(&es, a, b)
                add_open_entries(&es, &nd, rows_in, cols_in, y_lo, x_hi)
                changed = es.n > 0
                search_entries(c, &nd, &es)
                if changed:
                    break
                if a == -INF:
                    start_entries(&es, -INF, INF)
                    add_open_entries(&es, &nd, rows_in, cols_in, NULL, NULL)
                    search_entries(c, &nd, &es)
                    break
                margin *= STEP5_GROWTH
            continue
        # 6. the restricted value is exact and inside the window: is it the node's value?
        found = add_beating_replies(c, &nd, &rows_in, &cols_in, True, v_lo + EPS,
                                    True, -(v_lo - EPS), cols_first)
        changed = found != 0
        if c.aborted:
            break
        if changed:
            cols_first = found == 2     # the side that just gained a card is tested first
        if not changed:
            c.stats.exact_nodes += 1
            c.stats.exact_by_cards[k] += 1
            note_killer(&c.killers, &nd, 0)
            note_killer(&c.killers, &nd, 1)
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


cdef double backward_induction(Worker* c, Node* nd, u128 key, bint swapped,
                               NodeReport* report) noexcept nogil:
    """Ablation: every entry searched exactly, the whole matrix solved."""
    cdef int i, j
    cdef uint32_t all_cards = (<uint32_t>1 << nd.k) - 1
    for i in range(nd.k):
        for j in range(nd.k):
            refine(c, nd, i, j, -INF, INF)
    if c.aborted:
        return 0.0
    cdef double other[MAX_HAND]
    cdef double v = restricted_game(c, nd, all_cards, all_cards, False, nd.x, other)
    restricted_game(c, nd, all_cards, all_cards, True, nd.y, other)
    store(c, nd, key, swapped, v, v)
    if report != NULL:
        report.lower = report.upper = v
        fill_report(report, nd, v)
    return v


cdef inline void store(Worker* c, Node* nd, u128 key, bint swapped, double lower,
                       double upper) noexcept nogil:
    """Store what the node proved, with the supports of its last restricted game."""
    cdef uint32_t rows = support(nd.x, nd.k), cols = support(nd.y, nd.k)
    if c.checker != NULL:
        self_check(c, nd, lower, upper)
    if swapped:
        tt_store(&c.shared.table, key, -upper, -lower, cols, rows, nd.k)
    else:
        tt_store(&c.shared.table, key, lower, upper, rows, cols, nd.k)


cdef void self_check(Worker* c, Node* nd, double lower, double upper) noexcept nogil:
    """Tests only: the node's value by backward induction (the checker's own search, no
    pruning) must lie in the bounds the search is about to store."""
    cdef double v = search(c.checker, nd.s, nd.k, -INF, INF)
    if v < lower - CHECK_TOLERANCE or v > upper + CHECK_TOLERANCE:
        c.check_failures += 1


# ---------------------------------------------------------------------------------------
# Python-facing owner of the memory
# ---------------------------------------------------------------------------------------
RootResult = namedtuple("RootResult", "value x y lower_entries upper_entries lower upper")
RootResult.__doc__ = """What ExactSearch.solve_root proved about a node.

value: the node's value (meaningless if a limit stopped the search); x, y: player 1's and
player 2's strategies, one probability per card of the ascending hand; lower_entries,
upper_entries: k x k lists of the proven bounds of each entry (player 1's card i, player 2's
card j); lower, upper: the proven bounds of the value (equal to it when solved)."""


cdef class ExactSearch:
    """Owns the transposition table and statistics of one exact search.

    States are given in rank form (see solver/exact.py): `bulls[r]` is the bullheads of
    rank r, hands are bit masks of ranks, rows are (end rank, length, bullhead sum).
    The table is kept between calls, so solving the children of a solved node is cheap.
    """
    cdef Shared shared         # the table, the ranks' bullheads, switches and limits
    cdef Worker ctx            # the main thread
    cdef Worker* helpers       # the pool's helper threads (threads - 1): same Shared, own
    cdef int n_helpers         # statistics and caches; allocated by set_threads
    cdef Shared checker_shared # self-check (tests): backward induction with its own table
    cdef Worker checker
    cdef int endgame_log2      # size of each 2-card cache (the threads', the self-check's)
    cdef NodeReport report     # the root of the solve under way (its bounds are read live)
    cdef readonly long long entries

    def __cinit__(self, bulls, long long table_entries, int endgame_log2=ENDGAME_LOG2):
        cdef bint allocated = allocate_table(&self.shared.table, table_entries)
        self.entries = table_size(&self.shared.table) // sizeof(TTEntry)
        if not allocated:
            raise MemoryError(f"cannot allocate a table of {self.entries} entries")
        if len(bulls) > MAX_RANKS:
            raise ValueError(f"at most {MAX_RANKS} live cards, got {len(bulls)}")
        for r in range(len(bulls)):
            self.shared.bulls[r] = bulls[r]
            self.shared.bull_code[r] = bull_code(bulls[r])
        self.ctx.shared = &self.shared
        memset(&self.ctx.killers, -1, sizeof(self.ctx.killers))
        self.shared.threads = 1
        if not 10 <= endgame_log2 <= 28:
            raise ValueError(f"endgame_log2 must be in 10..28, got {endgame_log2}")
        self.endgame_log2 = endgame_log2
        if not allocate_endgame(&self.ctx.endgame, endgame_log2):
            raise MemoryError("cannot allocate the endgame cache")

    def __dealloc__(self):
        release_table(&self.shared.table)
        release_endgame(&self.ctx.endgame)
        release_workers(self.helpers, self.n_helpers)
        release_log(&self.ctx.log)
        self.release_checker()

    @staticmethod
    def entry_size():
        return sizeof(TTEntry)

    def set_limits(self, long long max_nodes=0, double seconds=0.0):
        """Limits counted from now (0 = none)."""
        self.shared.limits.max_nodes = self.ctx.stats.nodes + max_nodes if max_nodes else 0
        self.shared.limits.budget = max_nodes
        self.shared.limits.pooled_nodes = 0
        self.shared.limits.exhausted = 0
        self.shared.limits.deadline = now() + seconds if seconds > 0 else 0.0
        self.shared.limits.stop_requested = 0
        self.ctx.aborted = 0

    def set_ablation(self, bint no_pruning=False, bint no_canonical=False):
        """Switch off an idea of the search, to measure what it gains (benchmarks only)."""
        self.shared.no_pruning = no_pruning
        self.shared.no_canonical = no_canonical

    def set_first_card(self, w1, b1, w2, int low, int high=MAX_HAND):
        """The opening-card model (solver/exact/firstcard.py): float64 arrays, per hand size
        k, w1[k] (FC_INPUTS x FC_HIDDEN), b1[k] and w2[k] (FC_HIDDEN), used at new nodes of
        `low` cards and more (nodes beyond the last k use its weights); w1 None: no model."""
        cdef const double[:, :, ::1] a
        cdef const double[:, ::1] b, c
        cdef int k, d, u
        if w1 is None:
            self.shared.first_card.top = 0
            return
        a, b, c = w1, b1, w2
        top = a.shape[0] - 1
        if (not 1 <= top <= MAX_HAND or a.shape[1] != FC_INPUTS or a.shape[2] != FC_HIDDEN
                or b.shape[0] != top + 1 or c.shape[0] != top + 1
                or b.shape[1] != FC_HIDDEN or c.shape[1] != FC_HIDDEN):
            raise ValueError(f"weights for 0..k <= {MAX_HAND} cards expected: w1[k]"
                             f" {FC_INPUTS} x {FC_HIDDEN}, b1[k] and w2[k] {FC_HIDDEN}")
        for k in range(top + 1):
            for u in range(FC_HIDDEN):
                self.shared.first_card.b1[k][u] = b[k, u]
                self.shared.first_card.w2[k][u] = c[k, u]
                for d in range(FC_INPUTS):
                    self.shared.first_card.w1[k][d][u] = a[k, d, u]
        self.shared.first_card.low = low
        self.shared.first_card.high = high
        self.shared.first_card.top = top

    def set_node_log(self, long long capacity, int low, int high, int every=1):
        """Keep a sample of the new nodes of `low` to `high` cards the main thread opens
        from now on (1 in `every`, by canonical key), up to `capacity` states (training the
        opening-card model; capacity 0: no log)."""
        release_log(&self.ctx.log)
        if capacity < 0 or every < 1:
            raise ValueError("capacity must be >= 0 and every >= 1")
        if capacity and not allocate_log(&self.ctx.log, capacity):
            raise MemoryError(f"cannot allocate a log of {capacity} nodes")
        self.ctx.log.low = low
        self.ctx.log.high = high
        self.ctx.log.every = every

    def node_log(self):
        """The logged states, in the order met: (hand1, hand2, rows) in rank form, as
        solve_root takes them."""
        cdef long long i
        cdef int r, n
        cdef int p[MAX_HAND]
        cdef int q[MAX_HAND]
        cdef State* s
        out = []
        for i in range(self.ctx.log.n):
            s = &self.ctx.log.states[i]
            n = hand_cards(s.hand[0], p)
            hand_cards(s.hand[1], q)
            out.append((tuple(p[r] for r in range(n)), tuple(q[r] for r in range(n)),
                        tuple((s.rows[r].end, s.rows[r].length, s.rows[r].bulls)
                              for r in range(4))))
        return out

    @staticmethod
    def first_card_shape():
        """(features a card, inputs, hidden units) of the opening-card model."""
        return FC_FEATURES, FC_INPUTS, FC_HIDDEN

    def request_stop(self):
        """Ask a running search (in another thread) to stop at the next node."""
        self.shared.limits.stop_requested = 1

    def enable_self_check(self, long long table_entries):
        """Tests only (one thread): every bound the search stores is checked against the
        node's value by backward induction, in a context of its own; `check_failures`
        counts the bounds that were wrong."""
        if self.ctx.checker != NULL:
            return
        self.checker_shared = self.shared          # the ranks' bullheads
        self.checker = self.ctx
        self.checker.shared = &self.checker_shared
        self.checker.endgame.slots = NULL           # not ctx's: its own, below
        memset(&self.checker.log, 0, sizeof(NodeLog))  # ctx's log is ctx's alone
        if (not allocate_table(&self.checker_shared.table, table_entries)
                or not allocate_endgame(&self.checker.endgame, self.endgame_log2)):
            self.release_checker()
            raise MemoryError("cannot allocate the self-check's table")
        memset(&self.checker.stats, 0, sizeof(Stats))
        self.checker_shared.no_pruning = 1
        self.checker_shared.no_canonical = 0
        memset(&self.checker_shared.limits, 0, sizeof(self.checker_shared.limits))
        self.checker.pool = NULL
        self.checker.pool_size = 0
        self.checker.checker = NULL
        self.ctx.checker = &self.checker

    cdef void release_checker(self):
        """Unmap the self-check's memory, all or what a failed allocation left."""
        release_table(&self.checker_shared.table)
        release_endgame(&self.checker.endgame)

    @property
    def check_failures(self):
        return self.ctx.check_failures

    def set_threads(self, int threads):
        """1: the search alone; more: a pool of threads - 1 helper threads shares the reply
        tests of big nodes. Each helper has its own 2-card cache: the first of the search's
        size, the others of at most 2**20 slots (16 MB), so that many threads stay within
        memory."""
        cdef int i, n = threads - 1
        cdef Worker* h
        if not 1 <= threads <= MAX_THREADS:
            raise ValueError(f"threads must be in 1..{MAX_THREADS}, got {threads}")
        if n != self.n_helpers:
            release_workers(self.helpers, self.n_helpers)
            self.helpers = NULL
            self.n_helpers = 0
            self.ctx.pool = NULL
            self.shared.threads = 1
            if n > 0:
                self.helpers = allocate_workers(n)
                if self.helpers == NULL:
                    raise MemoryError(f"cannot allocate {n} helper threads")
                self.n_helpers = n
                for i in range(n):
                    h = &self.helpers[i]
                    h.shared = &self.shared
                    h.is_helper = 1
                    h.pool = self.helpers
                    memset(&h.killers, -1, sizeof(h.killers))
                    if not allocate_endgame(&h.endgame, self.endgame_log2 if i == 0
                                            else min(self.endgame_log2, 20)):
                        raise MemoryError("cannot allocate a helper's endgame cache")
        self.ctx.pool = self.helpers
        self.shared.threads = threads

    @property
    def helper_stats(self):
        """The helpers' statistics, summed."""
        total = {}
        for i in range(self.n_helpers):
            for key, value in dict(self.helpers[i].stats).items():
                if isinstance(value, list):
                    old = total.get(key, [0] * len(value))
                    total[key] = [a + b for a, b in zip(old, value)]
                else:
                    total[key] = total.get(key, 0) + value
        return total

    @property
    def aborted(self):
        return bool(self.ctx.aborted)

    @property
    def stats(self):
        cdef int v
        for v in range(SPANS):
            self.ctx.stats.span[v] = span_of(&self.ctx, v)
        return dict(self.ctx.stats)

    @property
    def root_bounds(self):
        """(lower, upper): the bounds proven so far on the value of the solve_root under way
        (read while it runs, from another thread), or of the last one."""
        return self.report.lower, self.report.upper

    def solve_root(self, hand1, hand2, rows):
        """Solve a node exactly: a RootResult. On a limit the value is meaningless and
        (lower, upper) are the bounds proven so far."""
        cdef State s = make_state(hand1, hand2, rows)
        cdef NodeReport* report = &self.report
        cdef int k = popcount(s.hand[0])
        if popcount(s.hand[1]) != k or k > MAX_HAND:
            raise ValueError("hands must have the same size, at most 10")
        cdef bint helped
        memset(report, 0, sizeof(NodeReport))
        report.lower = -INF
        report.upper = INF
        with nogil:
            if k == 0:
                report.value = report.lower = report.upper = 0.0
            elif k == 1:
                report.value = report.lower = report.upper = last_turn(self.shared.bulls, &s)
                report.x[0] = report.y[0] = 1.0
                report.lo[0][0] = report.hi[0][0] = report.value
            elif k == 2:
                two_card_node(&self.ctx, &s, report)
            else:
                helped = start_pool(&self.ctx, k)
                matrix_node(&self.ctx, &s, k, -INF, INF, report)
                if helped:
                    end_pool(&self.ctx)
        return RootResult(report.value, [report.x[i] for i in range(k)],
                          [report.y[j] for j in range(k)],
                          [[report.lo[i][j] for j in range(k)] for i in range(k)],
                          [[report.hi[i][j] for j in range(k)] for i in range(k)],
                          report.lower, report.upper)

    def first_card_features(self, hand1, hand2, rows, int player):
        """The opening-card model's features of each card of `player`'s hand, as a new node
        of this state computes them (training, tests)."""
        cdef double f[MAX_HAND][FC_FEATURES]
        cdef int k = self.model_card_of(hand1, hand2, rows, player, f)
        return [[f[i][d] for d in range(FC_FEATURES)] for i in range(k)]

    def first_card_scores(self, hand1, hand2, rows, int player):
        """The opening-card model's score of each card of `player`'s hand (tests)."""
        cdef double f[MAX_HAND][FC_FEATURES]
        cdef double scores[MAX_HAND]
        cdef int k = self.model_card_of(hand1, hand2, rows, player, f)
        first_card(&self.shared.first_card, f, k, scores)
        return [scores[i] for i in range(k)]

    cdef int model_card_of(self, hand1, hand2, rows, int player, double f[][FC_FEATURES]):
        """The features of `player`'s cards in the state into f (the estimate's as a node
        computes it); returns the hand size."""
        cdef State s = make_state(hand1, hand2, rows)
        cdef int p[MAX_HAND]
        cdef int q[MAX_HAND]
        cdef double g[MAX_HAND * MAX_HAND]
        cdef double x[MAX_HAND]
        cdef double y[MAX_HAND]
        cdef int k = hand_cards(s.hand[0], p)
        hand_cards(s.hand[1], q)
        if k >= GUESS_FROM:
            estimate_matrix(self.shared.bulls, &s, k, estimate_depth(k), g)
            solve_game(g, k, k, k, x, y)
        if player == 0:
            model_card(&self.shared, &s, p, q, k, g, x, y, 0, f)
        else:
            model_card(&self.shared, &s, q, p, k, g, x, y, 1, f)
        return k

    def entry_value(self, hand1, hand2, rows, int a, int b):
        """Exact value of the joint move (rank a, rank b), row choices optimal."""
        cdef State s = make_state(hand1, hand2, rows)
        cdef int k = popcount(s.hand[0])
        cdef double v
        cdef bint helped
        with nogil:
            helped = start_pool(&self.ctx, k)
            v = entry_search(&self.ctx, &s, k, a, b, -INF, INF)
            if helped:
                end_pool(&self.ctx)
        return v

    def play_turn(self, hand1, hand2, rows, int a, int b, int choice=0):
        """The search's own rule (state.pxd `resolve`) on a rank-form state: player 1 plays
        rank a, player 2 rank b, a too-low card takes row `choice`. Returns (hand1, hand2,
        rows, reward, chooser): the next state (hands ascending), player 2's bullheads minus
        player 1's, and the owner 0/1 of a too-low card or -1. For tools that walk the tree
        the way the search does."""
        cdef State s = make_state(hand1, hand2, rows)
        cdef State t
        cdef int reward, r
        cdef int chooser = resolve(self.shared.bulls, &s, a, b, choice, &t, &reward)
        return (tuple(x for x in hand1 if x != a), tuple(x for x in hand2 if x != b),
                tuple((t.rows[r].end, t.rows[r].length, t.rows[r].bulls) for r in range(4)),
                reward, chooser)

    def canonical_key(self, hand1, hand2, rows):
        """(key, swapped): the state's canonical key as the table uses it (an int), and
        whether the state is the player swap of the key's orientation (its value then the
        negation). For tools that count states the way the search merges them."""
        cdef State s = make_state(hand1, hand2, rows)
        cdef u128 key
        cdef bint swapped
        make_key(self.shared.bull_code, &s, &key, &swapped)
        return (<object>(<unsigned long long>(key >> 64)) << 64
                | <object>(<unsigned long long>key)), bool(swapped)

    def export_entries(self, int min_cards):
        """The table's entries of `min_cards` cards a hand or more, each checked whole (a
        search may be writing), as packed SavedEntry records (a bytearray): what a stopped
        search keeps of its work. Keys are canonical forms of states, valid for any root."""
        cdef uint64_t i, total = 2 * (self.shared.table.buckets_mask + 1)
        cdef long long n = 0, cap
        cdef TTEntry e
        with nogil:
            for i in range(total):
                e = self.shared.table.entries[i]
                n += kept_entry(&e, min_cards)
        cap = n
        out = bytearray(cap * sizeof(SavedEntry))
        cdef SavedEntry* rec = <SavedEntry*><char*>out
        n = 0
        with nogil:
            for i in range(total):
                if n == cap:       # entries written since the count: the first cap will do
                    break
                e = self.shared.table.entries[i]
                if kept_entry(&e, min_cards):
                    rec[n].key_low = <uint64_t>e.key
                    rec[n].key_high = <uint64_t>(e.key >> 64)
                    rec[n].lower = e.lower
                    rec[n].upper = e.upper
                    rec[n].rows_in = e.cards_in[0]
                    rec[n].cols_in = e.cards_in[1]
                    rec[n].cards = e.cards
                    n += 1
        del out[n * sizeof(SavedEntry):]
        return out

    def import_entries(self, const unsigned char[:] data):
        """Store packed SavedEntry records (from export_entries) in the table; returns how
        many. The caller vouches for them: a wrong bound would make a wrong answer."""
        cdef long long i, n = data.shape[0] // sizeof(SavedEntry)
        cdef const SavedEntry* rec = <const SavedEntry*>&data[0] if n else NULL
        cdef u128 key
        with nogil:
            for i in range(n):
                key = (<u128>rec[i].key_high << 64) | rec[i].key_low
                tt_store(&self.shared.table, key, rec[i].lower, rec[i].upper,
                         rec[i].rows_in, rec[i].cols_in, rec[i].cards)
        return n

    @staticmethod
    def saved_entry_size():
        return sizeof(SavedEntry)

    def value(self, hand1, hand2, rows):
        """Exact value of a state (no strategies)."""
        cdef State s = make_state(hand1, hand2, rows)
        cdef int k = popcount(s.hand[0])
        cdef double v
        cdef bint helped
        with nogil:
            helped = start_pool(&self.ctx, k)
            v = search(&self.ctx, &s, k, -INF, INF)
            if helped:
                end_pool(&self.ctx)
        return v


cdef inline bint kept_entry(const TTEntry* e, int min_cards) noexcept nogil:
    """An entry a progress file keeps: in use, of min_cards or more, whole (not torn)."""
    return e.key != 0 and e.cards >= min_cards and e.check == entry_check(e)


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
