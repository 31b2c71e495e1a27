# The rules core in C: one implementation shared by every Cython module (rules engine,
# exact search, simulation). Inline nogil functions so other modules cimport them freely.

cdef enum:
    N_ROWS = 4
    ROW_LIMIT = 5      # the 6th card takes the row
    MAX_CARD = 104

cdef struct Row:
    int cards[5]       # cards[0..length-1], the last one is the row end
    int length         # 1..5
    int bulls          # bullheads of the cards in the row

cdef inline int bullheads(int card) noexcept nogil:
    if card == 55:
        return 7
    if card % 11 == 0:
        return 5
    if card % 10 == 0:
        return 3
    if card % 5 == 0:
        return 2
    return 1

cdef inline int row_end(const Row* row) noexcept nogil:
    return row.cards[row.length - 1]

cdef inline int target_row(const Row* rows, int card) noexcept nogil:
    """Index of the row whose end is the highest below `card`; -1 if the card is too low."""
    cdef int r, best = -1, best_end = 0, end
    for r in range(N_ROWS):
        end = rows[r].cards[rows[r].length - 1]
        if end < card and end > best_end:
            best = r
            best_end = end
    return best

cdef inline int take_row(Row* rows, int r, int card) noexcept nogil:
    """`card` takes row r: returns the bullheads taken; the row becomes [card]."""
    cdef int taken = rows[r].bulls
    rows[r].cards[0] = card
    rows[r].length = 1
    rows[r].bulls = bullheads(card)
    return taken

cdef inline int place_on(Row* rows, int r, int card) noexcept nogil:
    """Put `card` on its target row r: appended, or the 6th card takes the row."""
    if rows[r].length == ROW_LIMIT:
        return take_row(rows, r, card)
    rows[r].cards[rows[r].length] = card
    rows[r].length += 1
    rows[r].bulls += bullheads(card)
    return 0

cdef inline int cheapest_row(const Row* rows) noexcept nogil:
    """The row with the fewest bullheads, the lowest index among equals."""
    cdef int r, best = 0
    for r in range(1, N_ROWS):
        if rows[r].bulls < rows[best].bulls:
            best = r
    return best
