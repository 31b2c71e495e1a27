# The exhaustive reference: every canonical state reachable from a 2-player root, solved
# level by level with one certified matrix game each. Written apart from the search: its own
# state, key and placement code (nothing here cimports state.pxd, key.pxd or rules.pxd).
#
# Invariants:
# - Cards are ranks 0..31 of the root's live cards (both hands and the 4 row ends) in
#   ascending order; `bulls[r]` is the bullheads of rank r, given at construction.
# - An XState holds both hands as rank masks and 4 rows as (end rank 0..31, length 1..5,
#   bullhead sum 0..63); the cards under a row's end never matter again. Both hands have
#   the same size k: the state's level. The 4 row ends are distinct and never in a hand.
# - The key packs a state into 128 bits: `hands` = hand 1's mask in bits 0..31 and hand 2's
#   in bits 32..63; `rows` = the 4 rows, each packed as end | length << 5 | bulls << 8
#   (14 bits, fields in disjoint bit ranges, every field within its range), sorted
#   ascending and placed at bits 0, 14, 28, 42. Injective on states up to row order: the
#   masks are the hands bit for bit, and the sorted list of the 4 packed rows is the multiset
#   of rows, each row read back field by field (unpack_key is its inverse). Row order never
#   changes the value (placement looks at row ends only, and a too-low card's owner tries
#   every row), so states sharing a key share a value. No player swap: keys stay obvious.
# - A Level holds the distinct keys of one hand size in insertion order, an open-addressing
#   table (linear probing, at most half full, slot = index + 1, 0 empty) from key to index,
#   and the value of each state once that level is solved (NaN before).
# - Level k's children are level k-1 states. Levels from the root's down to a lowest one
#   are stored; a state below it is solved in place from its parent, each time it is met
#   (level 0, the end of the round, is worth 0).
# - A game's answer counts only once certified: x guarantees >= v - 1e-9 against every
#   column, y concedes <= v + 1e-9 against every row, both probability vectors.
# - Every malloc and free of a Level is in exhaustive.pyx's "memory" section, which counts
#   the bytes held and their peak.

from libc.stdint cimport uint32_t, uint64_t

cdef extern from *:
    int x_lowest_bit "__builtin_ctz" (unsigned int) nogil        # undefined for 0

cdef enum:
    X_MAX_HAND = 10
    X_MAX_RANK = 32
    X_MAX_ROW_BULLS = 63
    X_ROW_BITS = 14

cdef struct XRow:
    int end            # rank of the row's last card
    int length         # 1..5
    int bulls          # bullheads of the whole row

cdef struct XState:
    uint32_t hand[2]   # bit r: the player holds rank r
    XRow rows[4]

cdef struct XKey:
    uint64_t hands     # hand 1 | hand 2 << 32
    uint64_t rows      # 4 sorted packed rows, 14 bits each

cdef struct Level:
    XKey* keys         # count keys, in insertion order
    double* values     # count values (NaN until solved)
    uint32_t* slots    # mask + 1 slots: index + 1, or 0 for empty
    uint64_t count
    uint64_t capacity  # keys and values allocated
    uint64_t mask      # slots - 1 (a power of two minus one)


# the key -------------------------------------------------------------------------------------
cdef inline uint64_t pack_row(const XRow* row) noexcept nogil:
    return <uint64_t>row.end | (<uint64_t>row.length << 5) | (<uint64_t>row.bulls << 8)


cdef inline XKey make_key(const XState* s) noexcept nogil:
    cdef uint64_t p[4]
    cdef uint64_t t
    cdef int i, j
    cdef XKey key
    for i in range(4):
        p[i] = pack_row(&s.rows[i])
    for i in range(1, 4):              # insertion sort of 4 numbers
        j = i
        while j > 0 and p[j] < p[j - 1]:
            t = p[j]
            p[j] = p[j - 1]
            p[j - 1] = t
            j -= 1
    key.hands = <uint64_t>s.hand[0] | (<uint64_t>s.hand[1] << 32)
    key.rows = p[0] | (p[1] << X_ROW_BITS) | (p[2] << (2 * X_ROW_BITS)) | (p[3] << (3 * X_ROW_BITS))
    return key


cdef inline void unpack_key(XKey key, XState* s) noexcept nogil:
    cdef int i
    cdef uint64_t p
    s.hand[0] = <uint32_t>(key.hands & 0xFFFFFFFFu)
    s.hand[1] = <uint32_t>(key.hands >> 32)
    for i in range(4):
        p = (key.rows >> (i * X_ROW_BITS)) & ((1 << X_ROW_BITS) - 1)
        s.rows[i].end = <int>(p & 31)
        s.rows[i].length = <int>((p >> 5) & 7)
        s.rows[i].bulls = <int>(p >> 8)


cdef inline uint64_t hash_key(XKey key) noexcept nogil:
    cdef uint64_t z = key.hands * <uint64_t>0x9E3779B97F4A7C15 ^ key.rows
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline long long find_key(const Level* level, XKey key) noexcept nogil:
    """Index of `key` in the level, or -1."""
    cdef uint64_t slot = hash_key(key) & level.mask
    cdef uint32_t at
    while True:
        at = level.slots[slot]
        if at == 0:
            return -1
        if level.keys[at - 1].hands == key.hands and level.keys[at - 1].rows == key.rows:
            return at - 1
        slot = (slot + 1) & level.mask


# the rules on an XState ----------------------------------------------------------------------
cdef inline int ranks_of(uint32_t mask, int* out) noexcept nogil:
    """Ranks of a hand, ascending. Returns how many."""
    cdef int n = 0
    while mask:
        out[n] = x_lowest_bit(mask)
        mask &= mask - 1
        n += 1
    return n


cdef inline int row_below(const XState* s, int card) noexcept nogil:
    """The row whose end is the highest one below `card`; -1 when the card is too low."""
    cdef int i, found = -1
    for i in range(4):
        if s.rows[i].end < card and (found < 0 or s.rows[i].end > s.rows[found].end):
            found = i
    return found


cdef inline int start_row(XState* s, const int* bulls, int i, int card) noexcept nogil:
    """`card` takes row i: returns the bullheads taken; the row is the card alone."""
    cdef int taken = s.rows[i].bulls
    s.rows[i].end = card
    s.rows[i].length = 1
    s.rows[i].bulls = bulls[card]
    return taken


cdef inline int add_card(XState* s, const int* bulls, int card) noexcept nogil:
    """`card`, not too low, goes on its row: appended, or as the 6th card it takes the
    row. Returns the bullheads taken."""
    cdef int i = row_below(s, card)
    if s.rows[i].length == 5:
        return start_row(s, bulls, i, card)
    s.rows[i].end = card
    s.rows[i].length += 1
    s.rows[i].bulls += bulls[card]
    return 0


cdef inline int joint_play(const XState* s, const int* bulls, int a, int b, XState* out,
                           int* reward) noexcept nogil:
    """Player 1 plays rank a, player 2 rank b. Writes to out[0..n-1] the n states after the
    turn and to reward[0..n-1] (player 2's bullheads minus player 1's) this turn: n = 1, or
    n = 4 when the lower card is too low (out[r]: it takes row r). Returns n; the owner of
    the lower card is player 1 when a < b."""
    cdef int low = a if a < b else b, high = b if a < b else a
    cdef int sign = 1 if a < b else -1      # +1: the low card is player 1's
    cdef int n, r, taken_low, taken_high
    cdef XState base = s[0]
    base.hand[0] &= ~(<uint32_t>1 << a)
    base.hand[1] &= ~(<uint32_t>1 << b)
    if row_below(&base, low) >= 0:
        n = 1
        out[0] = base
        taken_low = add_card(&out[0], bulls, low)
        taken_high = add_card(&out[0], bulls, high)
        reward[0] = sign * (taken_high - taken_low)
        return n
    for r in range(4):
        out[r] = base
        taken_low = start_row(&out[r], bulls, r, low)
        taken_high = add_card(&out[r], bulls, high)
        reward[r] = sign * (taken_high - taken_low)
    return 4
