# The last two turns in closed form, and the cache of 2-card nodes.
#
# Invariants:
# - LastRows holds the same rows as a State, laid out for these turns: `ends` has bit r set
#   iff rank r ends a row, and `row_of[r]` (an array beside it, indexed by rank) is that row.
#   row_of is only read at ranks in `ends`; put_card writes it at the card's rank, a hand
#   card's, so no entry of another row end is overwritten.
# - A too-low card's row is chosen by its owner, best for the owner: the result is the exact
#   value of the node (one card each: the turn; two cards each: the 2x2 matrix game's entries).
# - Values are player 2's bullheads minus player 1's, read from `bulls[rank]`.
# - Cache: direct-mapped, one slot per hash of the canonical 2-card key (64 bits, never 0):
#   key 0 = empty slot, a new key replaces the old one. The value is for the key's
#   orientation: a swapped state reads -value. Each thread owns its cache (no locking).

from libc.stdint cimport uint32_t, uint64_t
from state cimport MAX_RANKS, State, lowest_bit, count_leading_zeros
from key cimport u128, key_hash

cdef struct LastRows:
    # the rows of the last two turns, as their closed form reads them fastest
    uint32_t ends      # bit r set: rank r ends a row (the row is found in a rank -> row map)
    int end[4]
    int length[4]
    int bulls[4]

cdef struct EndgameSlot:
    uint64_t key       # canonical key of a 2-card node (it fits 64 bits); 0 = empty
    double value       # for the canonical orientation

cdef struct EndgameCache:
    EndgameSlot* slots  # mask + 1 slots, a power of two, from memory.pxd
    uint64_t mask


cdef inline void last_rows_of(const State* s, LastRows* rows, int* row_of) noexcept nogil:
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


cdef inline int put_card(const int* bulls, LastRows* rows, int* row_of, int r, int card,
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
        rows.bulls[r] = bulls[card]
    else:
        rows.length[r] += 1
        rows.bulls[r] += bulls[card]
    return taken


cdef inline int last_reward(const int* bulls, const LastRows* rows, const int* row_of, int a,
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
            pen_high = rows.bulls[r] + bulls[low] if rows.length[r] == 4 else 0
        return sign * (pen_high - pen_low)
    # low starts the chosen row alone; high goes on another row if one is below it
    for choice in range(4):
        t = row_below(rows.ends & ~(<uint32_t>1 << rows.end[choice]), row_of, high)
        pen_high = rows.bulls[t] if t >= 0 and rows.length[t] == 5 else 0
        reward = sign * (pen_high - rows.bulls[choice])
        if choice == 0 or sign * reward > sign * best:
            best = reward
    return best


cdef inline double last_turn(const int* bulls, const State* s) noexcept nogil:
    """One card each: the turn's reward, with the best row choice for the chooser."""
    cdef LastRows rows
    cdef int row_of[MAX_RANKS]
    last_rows_of(s, &rows, row_of)
    return last_reward(bulls, &rows, row_of, lowest_bit(s.hand[0]), lowest_bit(s.hand[1]))


cdef inline double entry_before_last(const int* bulls, const LastRows* rows, int* row_of,
                                     int a, int b, int a_last, int b_last) noexcept nogil:
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
        pen_low = put_card(bulls, &t, row_of, r, low, False)
        pen_high = put_card(bulls, &t, row_of, r_high, high, False)
        return sign * (pen_high - pen_low) + last_reward(bulls, &t, row_of, a_last, b_last)
    # the owner of the too-low card takes the row that serves it best
    for choice in range(4):
        t = rows[0]
        pen_low = put_card(bulls, &t, row_of, choice, low, True)
        pen_high = put_card(bulls, &t, row_of, row_below(t.ends, row_of, high), high, False)
        v = sign * (pen_high - pen_low) + last_reward(bulls, &t, row_of, a_last, b_last)
        if choice == 0 or sign * v > sign * best:
            best = v
    return best


cdef inline void two_card_matrix(const int* bulls, const State* s, double* m) noexcept nogil:
    """Two cards each: the 2x2 matrix (row-major, each hand's cards ascending) of the node's
    game, every entry exact."""
    cdef LastRows rows
    cdef int row_of[MAX_RANKS]
    cdef int p0 = lowest_bit(s.hand[0]), p1 = 31 - count_leading_zeros(s.hand[0])
    cdef int q0 = lowest_bit(s.hand[1]), q1 = 31 - count_leading_zeros(s.hand[1])
    last_rows_of(s, &rows, row_of)
    m[0] = entry_before_last(bulls, &rows, row_of, p0, q0, p1, q1)
    m[1] = entry_before_last(bulls, &rows, row_of, p0, q1, p1, q0)
    m[2] = entry_before_last(bulls, &rows, row_of, p1, q0, p0, q1)
    m[3] = entry_before_last(bulls, &rows, row_of, p1, q1, p0, q0)


cdef inline EndgameSlot* endgame_slot(const EndgameCache* cache, u128 key) noexcept nogil:
    """The cache slot of a 2-card node's canonical key."""
    return cache.slots + (key_hash(key) & cache.mask)


cdef inline bint endgame_probe(const EndgameSlot* slot, u128 key,
                               double* value) noexcept nogil:
    """The value held for `key` (the key's orientation), if its slot holds it."""
    if slot.key == <uint64_t>key:
        value[0] = slot.value
        return True
    return False


cdef inline void endgame_store(EndgameSlot* slot, u128 key, double value) noexcept nogil:
    slot.key = <uint64_t>key
    slot.value = value
