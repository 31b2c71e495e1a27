# The exact search's state and the rules on it.
#
# Invariants:
# - Cards are ranks 0..31: the live cards (both hands and the row ends) relabelled at the root
#   in ascending order, so a hand is a 32-bit mask and bit r is the card of rank r.
# - A State is complete for the rest of the round: a row is kept as (end rank, length 1..5,
#   bullhead sum); the cards under its end never matter again.
# - Both hands have the same number of cards (one card each per turn).
# - `bulls[r]` is the bullheads of rank r (the search's shared table of them); every rule
#   below reads bullheads from it, never from card numbers.
# - A row end is never a card in hand, and the 4 row ends are distinct.

from libc.stdint cimport uint32_t

cdef extern from *:
    int popcount "__builtin_popcount" (unsigned int) nogil
    int lowest_bit "__builtin_ctz" (unsigned int) nogil           # undefined for 0
    int count_leading_zeros "__builtin_clz" (unsigned int) nogil  # undefined for 0

cdef enum:
    MAX_HAND = 10
    MAX_RANKS = 32

cdef struct SRow:
    int end            # rank of the row's last card
    int length         # 1..5
    int bulls          # bullheads of the whole row

cdef struct State:
    uint32_t hand[2]   # bit r set: the player holds the card of rank r
    SRow rows[4]


cdef inline int hand_cards(uint32_t mask, int* out) noexcept nogil:
    """Ranks of a hand, ascending. Returns how many."""
    cdef int n = 0
    while mask:
        out[n] = lowest_bit(mask)
        mask &= mask - 1
        n += 1
    return n


cdef inline int target_row(const State* s, int card) noexcept nogil:
    """The row whose end is the highest below `card`; -1 if the card is too low."""
    cdef int r, best = -1, best_end = -1
    for r in range(4):
        if s.rows[r].end < card and s.rows[r].end > best_end:
            best = r
            best_end = s.rows[r].end
    return best


cdef inline int take_row(State* s, const int* bulls, int r, int card) noexcept nogil:
    cdef int taken = s.rows[r].bulls
    s.rows[r].end = card
    s.rows[r].length = 1
    s.rows[r].bulls = bulls[card]
    return taken


cdef inline int place_on(State* s, const int* bulls, int r, int card) noexcept nogil:
    if s.rows[r].length == 5:
        return take_row(s, bulls, r, card)
    s.rows[r].end = card
    s.rows[r].length += 1
    s.rows[r].bulls += bulls[card]
    return 0


cdef inline bint play_pair(const int* bulls, State* t, int low, int high, int choice,
                           int* pen_low, int* pen_high) noexcept nogil:
    """The turn's two cards on the rows of t, in place (the hands untouched): the lower card
    first, taking row `choice` if it is too low; each card's bullheads taken. Returns
    whether the lower card was too low."""
    cdef int r = target_row(t, low)
    cdef bint too_low = r < 0
    if too_low:
        pen_low[0] = take_row(t, bulls, choice, low)
    else:
        pen_low[0] = place_on(t, bulls, r, low)
    # the higher card always has a row: at worst the one the lower card just started
    pen_high[0] = place_on(t, bulls, target_row(t, high), high)
    return too_low


cdef inline int resolve(const int* bulls, const State* s, int a, int b, int choice,
                        State* out, int* reward) noexcept nogil:
    """Player 1 plays rank a, player 2 rank b. The lower card goes first; if it is too low
    its owner takes row `choice`. Writes the next state and the reward (player 2's penalty
    minus player 1's). Returns the owner (0 or 1) who had to choose a row, or -1."""
    cdef int low = a, high = b, low_owner = 0, pen_low, pen_high
    cdef bint too_low
    if b < a:
        low = b
        high = a
        low_owner = 1
    out[0] = s[0]
    out.hand[0] &= ~(<uint32_t>1 << a)
    out.hand[1] &= ~(<uint32_t>1 << b)
    too_low = play_pair(bulls, out, low, high, choice, &pen_low, &pen_high)
    reward[0] = pen_high - pen_low if low_owner == 0 else pen_low - pen_high
    return low_owner if too_low else -1


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


cdef inline double takeable(const int* bulls, const State* s, const int* p, const int* q,
                            int k) noexcept nogil:
    """Most bullheads the players can still take between them: everything on the table and
    in the hands, but the 4 cards (at least 1 bullhead each) left on the table at the end.
    No entry of a node is beyond this, either way."""
    cdef int r, i, total = -4
    for r in range(4):
        total += s.rows[r].bulls
    for i in range(k):
        total += bulls[p[i]] + bulls[q[i]]
    return total
