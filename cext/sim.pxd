# The n-player simulation core: a small copyable state and fast playouts, on the one rules core
# of cext/rules.pxd (placement, resolve_turn, the SplitMix64 generator). Everything here is
# inline and nogil, so other modules may cimport it by plain name (`from sim cimport ...`).
from libc.stdint cimport uint64_t
from libc.string cimport memcpy
from rules cimport (Row, N_ROWS, ROW_LIMIT, MAX_CARD, MAX_PLAYERS, HAND_SIZE, CHEAPEST,
                    bullheads, target_row, cheapest_row, resolve_turn, random_below)

cdef enum:
    POLICY_RANDOM = 0      # uniformly random card, a too-low card takes the cheapest row
    POLICY_HEURISTIC = 1   # the safe-card heuristic below, with a little randomness

cdef struct State:
    Row rows[N_ROWS]
    unsigned char hands[MAX_PLAYERS][HAND_SIZE]   # hands[k][0..hand_size-1], in any order
    int hand_size                                  # every hand has the same size
    int players
    int penalties[MAX_PLAYERS]                     # bullheads taken so far, by seat


cdef inline void state_copy(State* dst, const State* src) noexcept nogil:
    memcpy(dst, src, sizeof(State))


cdef inline int state_take_card(State* s, int k, int i) noexcept nogil:
    """Remove hands[k][i] (order is not kept) and return it; hand_size is not changed here:
    every seat takes one card, then `state_apply` shrinks the hands together."""
    cdef int card = s.hands[k][i]
    s.hands[k][i] = s.hands[k][s.hand_size - 1]
    s.hands[k][s.hand_size - 1] = card
    return card


cdef inline int state_apply(State* s, const int* cards, const int* choices) noexcept nogil:
    """Resolve a turn: seat k has moved cards[k] to the end of its hand (`state_take_card`).
    choices[k]: row seat k takes if its card is too low (CHEAPEST: the fewest bullheads).
    Returns the seat that took a row of its choice, or -1."""
    s.hand_size -= 1
    return resolve_turn(s.rows, cards, choices, s.players, s.penalties)


cdef inline double card_danger(const Row* rows, int card) noexcept nogil:
    """A cheap score of the danger of `card` on these rows (lower is safer), the playout
    heuristic: a too-low card costs the cheapest row; a 6th card costs its row; otherwise the
    risk grows with the gap to the row end and with the row's length."""
    cdef int r = target_row(rows, card)
    cdef int length, gap
    if r < 0:
        return rows[cheapest_row(rows)].bulls + 0.5
    length = rows[r].length
    if length == ROW_LIMIT:
        return rows[r].bulls + 0.25
    gap = card - rows[r].cards[length - 1]
    return 0.01 * gap * (length * length) / 16.0


cdef inline int heuristic_index(const State* s, int k, uint64_t* rng, int explore) noexcept nogil:
    """Index in hands[k] of the least dangerous card; one time in `explore` a random card."""
    cdef int i, best = 0
    cdef double d, best_d = 1e300
    if explore > 0 and random_below(rng, explore) == 0:
        return random_below(rng, s.hand_size)
    for i in range(s.hand_size):
        d = card_danger(s.rows, s.hands[k][i])
        if d < best_d:
            best_d = d
            best = i
    return best


cdef inline void playout(State* s, uint64_t* rng, int policy) noexcept nogil:
    """Play the round to its end: each seat by `policy`, a too-low card takes the cheapest
    row. Penalties are added to s.penalties."""
    cdef int cards[MAX_PLAYERS]
    cdef int choices[MAX_PLAYERS]
    cdef int k, i
    for k in range(s.players):
        choices[k] = CHEAPEST
    while s.hand_size > 0:
        for k in range(s.players):
            if policy == POLICY_HEURISTIC:
                i = heuristic_index(s, k, rng, 5)
            else:
                i = random_below(rng, s.hand_size)
            cards[k] = state_take_card(s, k, i)
        state_apply(s, cards, choices)


cdef inline void shuffle_prefix(int* pool, int size, int count, uint64_t* rng) noexcept nogil:
    """Partial Fisher-Yates: pool[0..count-1] becomes a uniform random draw without
    replacement from pool[0..size-1] (any prior order of pool keeps it uniform)."""
    cdef int i, j, swap
    for i in range(count):
        j = i + random_below(rng, size - i)
        swap = pool[i]
        pool[i] = pool[j]
        pool[j] = swap
