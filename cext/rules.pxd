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

cdef extern from *:
    """
    /* bullheads of cards 1..104 (index 0: no card); tests check it against the rule */
    static const unsigned char NIMMT_BULLHEADS[105] = {
        0, 1, 1, 1, 1, 2, 1, 1, 1, 1, 3, 5, 1, 1, 1, 2, 1, 1, 1, 1, 3,
        1, 5, 1, 1, 2, 1, 1, 1, 1, 3, 1, 1, 5, 1, 2, 1, 1, 1, 1, 3, 1,
        1, 1, 5, 2, 1, 1, 1, 1, 3, 1, 1, 1, 1, 7, 1, 1, 1, 1, 3, 1, 1,
        1, 1, 2, 5, 1, 1, 1, 3, 1, 1, 1, 1, 2, 1, 5, 1, 1, 3, 1, 1, 1,
        1, 2, 1, 1, 5, 1, 3, 1, 1, 1, 1, 2, 1, 1, 1, 5, 3, 1, 1, 1, 1};
    """
    const unsigned char NIMMT_BULLHEADS[105]

cdef inline int bullheads(int card) noexcept nogil:
    # the table above (the hot path: 5x faster than the divisions); 0 for no card. The rule
    # itself is solver.core.rules.bullheads, the one the tests hold the table to
    if <unsigned int>card <= MAX_CARD:
        return NIMMT_BULLHEADS[card]
    return 0

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

# A turn and the random-play simulator ---------------------------------------------------------
from libc.stdint cimport uint32_t, uint64_t

cdef enum:
    MAX_PLAYERS = 10
    HAND_SIZE = 10
    CHEAPEST = -1      # row choice: the row with the fewest bullheads (the default row choice)

cdef inline void order_by(const int* keys, int n, int* order) noexcept nogil:
    """order[0..n-1]: the indices 0..n-1 by ascending key, equal keys in index order
    (insertion sort: n is at most 10 here)."""
    cdef int i, j
    for i in range(n):
        j = i
        while j > 0 and keys[order[j - 1]] > keys[i]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i

cdef inline int resolve_turn(Row* rows, const int* cards, const int* choices, int players,
                             int* penalties) noexcept nogil:
    """Resolve a turn in place: player k plays cards[k]; choices[k] is the row k takes if their
    card is too low (CHEAPEST: the fewest bullheads). Adds the bullheads taken to penalties[k].
    Returns the player who chose a row, or -1."""
    cdef int order[MAX_PLAYERS]
    cdef int i, k, r, card, chooser = -1
    order_by(cards, players, order)    # the players by card
    for i in range(players):
        k = order[i]
        card = cards[k]
        r = target_row(rows, card)
        if r < 0:
            r = choices[k]
            if r == CHEAPEST:
                r = cheapest_row(rows)
            penalties[k] += take_row(rows, r, card)
            chooser = k
        else:
            penalties[k] += place_on(rows, r, card)
    return chooser

cdef inline uint64_t splitmix64(uint64_t* state) noexcept nogil:
    """Next 64 random bits (SplitMix64: fast, seedable from any value, passes BigCrush)."""
    state[0] += <uint64_t>0x9E3779B97F4A7C15
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)

cdef inline uint32_t random_below(uint64_t* state, uint32_t n) noexcept nogil:
    """Uniform in 0..n-1 (multiply-shift; the bias, below n / 2**32, is negligible here)."""
    return <uint32_t>(((splitmix64(state) >> 32) * <uint64_t>n) >> 32)


# conversions between Python rows (lists of cards) and C rows, for the modules' wrappers
cdef inline void load_rows(Row* out, rows) except *:
    cdef int r, i
    if len(rows) != N_ROWS:
        raise ValueError(f"exactly {N_ROWS} rows needed, got {len(rows)}")
    for r in range(N_ROWS):
        if not 1 <= len(rows[r]) <= ROW_LIMIT:
            raise ValueError(f"a row holds 1..5 cards, got {list(rows[r])}")
        out[r].length = len(rows[r])
        out[r].bulls = 0
        for i in range(out[r].length):
            out[r].cards[i] = rows[r][i]
            out[r].bulls += bullheads(rows[r][i])


cdef inline list dump_rows(const Row* rows):
    return [[rows[r].cards[i] for i in range(rows[r].length)] for r in range(N_ROWS)]


# conversions between rows as arrays (4 x 5 cells of int8, each row's cards then 0) and C rows
cdef inline void rows_from_cells(Row* out, const signed char* cells) noexcept nogil:
    """out[0..3] from the 4 x 5 cells (the 0 cells are skipped)."""
    cdef int r, i, card
    for r in range(N_ROWS):
        out[r].length = 0
        out[r].bulls = 0
        for i in range(ROW_LIMIT):
            card = cells[r * ROW_LIMIT + i]
            if card > 0:
                out[r].cards[out[r].length] = card
                out[r].length += 1
                out[r].bulls += bullheads(card)

cdef inline void rows_to_cells(const Row* rows, signed char* cells) noexcept nogil:
    """The 4 x 5 cells of rows[0..3]: each row's cards, then 0."""
    cdef int r, i
    for r in range(N_ROWS):
        for i in range(ROW_LIMIT):
            cells[r * ROW_LIMIT + i] = rows[r].cards[i] if i < rows[r].length else 0
