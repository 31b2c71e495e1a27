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
    POLICY_OWN_RISK = 2    # the searching seat plays risk_index, the others random cards

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


cdef inline void count_below(const State* s, int* below) noexcept nogil:
    """below[c] = number of cards in all hands lower than or equal to c (c = 0..MAX_CARD)."""
    cdef int k, i, c
    for c in range(MAX_CARD + 1):
        below[c] = 0
    for k in range(s.players):
        for i in range(s.hand_size):
            below[s.hands[k][i]] += 1
    for c in range(1, MAX_CARD + 1):
        below[c] += below[c - 1]


cdef inline double take_chance(int others, double p, int free) noexcept nogil:
    """The chance that exactly `free` of `others` seats play a card in the gap (each with
    chance p): then the card after them is the row's 6th."""
    cdef double chance = 1.0
    cdef int i
    if free > others:
        return 0.0
    for i in range(free):
        chance *= p * (others - i) / (i + 1)
    for i in range(others - free):
        chance *= 1.0 - p
    return chance


cdef inline int risk_index(const State* s, int k, const int* below, uint64_t* rng,
                           int explore) noexcept nogil:
    """Index in hands[k] of the card with the fewest expected bullheads this turn if every
    other seat plays a random card of its hand (the greedy bot's rule, on the determinized
    hands: the card is the 6th when exactly its row's free places are filled from its gap);
    a too-low card costs the cheapest row. Ties: the smallest gap. One time in `explore`
    (if > 0) a random card."""
    cdef int i, j, card, r, end, gap_cards, best = 0, others = s.players - 1
    cdef double risk, best_risk = 1e300, p
    if explore > 0 and random_below(rng, explore) == 0:
        return random_below(rng, s.hand_size)
    for i in range(s.hand_size):
        card = s.hands[k][i]
        r = target_row(s.rows, card)
        if r < 0:
            risk = s.rows[cheapest_row(s.rows)].bulls + 0.001 * card
        else:
            end = s.rows[r].cards[s.rows[r].length - 1]
            gap_cards = below[card - 1] - below[end]
            for j in range(s.hand_size):
                if end < s.hands[k][j] < card:
                    gap_cards -= 1
            p = gap_cards / (<double>others * s.hand_size) if others > 0 else 0.0
            risk = (take_chance(others, p if p < 1.0 else 1.0, ROW_LIMIT - s.rows[r].length)
                    * s.rows[r].bulls + 0.001 * (card - end))
        if risk < best_risk:
            best_risk = risk
            best = i
    return best


cdef inline void playout(State* s, uint64_t* rng, int policy, int viewer=-1) noexcept nogil:
    """Play the round to its end: each seat by `policy` (POLICY_OWN_RISK: seat `viewer` by
    risk_index, the others random), a too-low card takes the cheapest row. Penalties are
    added to s.penalties."""
    cdef int cards[MAX_PLAYERS]
    cdef int choices[MAX_PLAYERS]
    cdef int below[MAX_CARD + 1]
    cdef int k, i
    for k in range(s.players):
        choices[k] = CHEAPEST
    while s.hand_size > 0:
        for k in range(s.players):
            if policy == POLICY_OWN_RISK and k == viewer:
                count_below(s, below)
                i = risk_index(s, k, below, rng, 0)
            elif policy == POLICY_HEURISTIC:
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
