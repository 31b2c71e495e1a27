# The exhaustive reference: every canonical state reachable from a 2-player root, solved
# level by level with one certified matrix game each. Written apart from the search: its own
# state, key and placement code (nothing here cimports state.pxd, key.pxd or rules.pxd).
#
# Invariants:
# - An XState holds both hands as masks over ranks 0..31 and 4 rows as (end rank, length
#   1..5, bullhead sum 0..63); the cards under a row's end never matter again, and neither do
#   the row end's own bullheads (they are in the row's sum). Beside it (not in it, to keep
#   the copies of the inner loops at 20 bytes) goes a `bulls` array: bulls[r] is the
#   bullheads (0..7) of rank r when r is a hand card; other entries are never read. A
#   state's children keep its ranks, so one array serves a state and everything below it
#   (the root's is given at construction; unpack_key writes a key's). Both hands have the
#   same size k: the state's level. The 4 row ends are distinct and never in a hand. Ranks
#   only order the cards: a state's ranks may be any increasing labels of its live cards.
# - The key relabels the state's own live cards (both hands and the 4 row ends, n = 2k + 4
#   <= 24 of them) 0..n-1 in ascending order and packs, in three 64-bit words: `hands` =
#   hand 1's relabelled mask in bits 0..23 and hand 2's in bits 24..47, or the two swapped
#   (see below); `rows` = the 4 rows as end | length << 5 | bulls << 8 with the end
#   relabelled (14 bits, disjoint fields, each within its range), sorted ascending, at bits
#   0, 14, 28, 42; `bulls` = the bullheads of the hand cards (both hands together) in
#   ascending order, 3 bits each (the i-th at bit 3i; 2k <= 20 cards, 60 bits).
#   unpack_key reads the three words back field by field into a state on ranks 0..n-1 (its
#   row ends' bulls left 0: never read).
# - States sharing a key share a value (up to the swap's sign). The rules read a state only
#   through: which of two cards is lower (the lower played card goes first; a card goes on
#   the row whose end is the highest below it, or is too low), the row lengths (a 6th card
#   takes the row), the row sums (what a taken row costs) and the bullheads of a played card
#   (what it adds to its row, or is worth as a row of its own); who holds which card; and
#   row order not at all (placement looks at row ends only; a too-low card's owner tries
#   every row). An increasing relabelling of the live cards keeps all of these, and the
#   children of the relabelled state are the relabelled children (their live cards are a
#   subset of the parent's, so the same relabelling is increasing on them, and relabelling
#   a child again 0..m-1 gives the same key either way). By induction on the level, a state
#   and unpack_key(make_key(state)) have the same game and the same value.
# - The player swap: exchanging the two hands maps entry (a, b) of the game to entry (b, a)
#   negated (the cards land in the same places, the bullheads taken change owner, and a
#   too-low card's owner, who picks the best row for themselves, picks the same row; by
#   induction the children are the swapped children, their values negated): the game is
#   -M transposed and its value is -v. make_key keeps, of the two `hands` words, the smaller
#   and returns sign -1 when it swapped (the other words do not change: rows and hand
#   bullheads do not depend on who holds a card); the two words differ whenever k >= 1, as
#   the hands are disjoint. A stored value is the value of the unpacked (canonical) state; a
#   state's value is sign * that.
# - A Level holds the distinct keys of one hand size in insertion order, an open-addressing
#   table (linear probing, at most half full, slot = index + 1, 0 empty) from key to index,
#   and the value of each state once that level is solved (NaN before).
# - Level k's children are level k-1 states, each looked up by its own key (its own live
#   cards relabelled). Levels from the root's down to a lowest one are stored; a state below
#   it is solved in place from its parent, each time it is met (level 0, the end of the
#   round, is worth 0).
# - A game's answer counts only once certified: x guarantees >= v - 1e-9 against every
#   column, y concedes <= v + 1e-9 against every row, both probability vectors.
# - Every malloc and free of a Level is in exhaustive.pyx's "memory" section, which counts
#   the bytes held and their peak.

from libc.stdint cimport uint32_t, uint64_t

cdef extern from *:
    int x_lowest_bit "__builtin_ctz" (unsigned int) nogil        # undefined for 0
    int x_count_bits "__builtin_popcount" (unsigned int) nogil

cdef enum:
    X_MAX_HAND = 10
    X_MAX_RANK = 32
    X_MAX_CARD_BULLS = 7
    X_MAX_ROW_BULLS = 63
    X_ROW_BITS = 14
    X_HAND_BITS = 24       # a relabelled hand mask: at most 2 * 10 + 4 live cards
    X_CARD_BULLS_BITS = 3

cdef struct XRow:
    unsigned char end      # rank of the row's last card
    unsigned char length   # 1..5
    unsigned char bulls    # bullheads of the whole row

cdef struct XState:
    uint32_t hand[2]   # bit r: the player holds rank r
    XRow rows[4]

cdef struct XKey:
    uint64_t hands     # relabelled hand 1 | hand 2 << 24, or the two swapped
    uint64_t rows      # 4 sorted packed rows, 14 bits each, ends relabelled
    uint64_t bulls     # the hand cards' bullheads in ascending order, 3 bits each

cdef struct Level:
    XKey* keys         # count keys, in insertion order
    double* values     # count values (NaN until solved)
    uint32_t* slots    # mask + 1 slots: index + 1, or 0 for empty
    uint64_t count
    uint64_t capacity  # keys and values allocated
    uint64_t mask      # slots - 1 (a power of two minus one)


# the key -------------------------------------------------------------------------------------
cdef inline XKey make_key(const XState* s, const unsigned char* bulls, int* sign) noexcept nogil:
    """The state's key (its live cards relabelled 0..n-1); `sign` is -1 when the key is the
    swapped state's (the state's value is then minus the key's), else +1."""
    cdef uint32_t live = s.hand[0] | s.hand[1], rest
    cdef uint64_t p[4]
    cdef uint64_t t, h0 = 0, h1 = 0, held_bulls = 0, straight, swapped
    cdef int i, j, r, card, held = 0
    cdef XKey key
    for i in range(4):
        live |= <uint32_t>1 << s.rows[i].end
    for i in range(4):         # a row end's new rank: the live cards below it
        p[i] = (<uint64_t>x_count_bits(live & ((<uint32_t>1 << s.rows[i].end) - 1))
                | (<uint64_t>s.rows[i].length << 5) | (<uint64_t>s.rows[i].bulls << 8))
    for i in range(1, 4):      # insertion sort of 4 numbers
        j = i
        while j > 0 and p[j] < p[j - 1]:
            t = p[j]
            p[j] = p[j - 1]
            p[j - 1] = t
            j -= 1
    rest = live
    r = 0                      # the new rank of `card`
    while rest:
        card = x_lowest_bit(rest)
        rest &= rest - 1
        if (s.hand[0] >> card) & 1:
            h0 |= <uint64_t>1 << r
        if (s.hand[1] >> card) & 1:
            h1 |= <uint64_t>1 << r
        if ((s.hand[0] | s.hand[1]) >> card) & 1:
            held_bulls |= <uint64_t>bulls[card] << (X_CARD_BULLS_BITS * held)
            held += 1
        r += 1
    straight = h0 | (h1 << X_HAND_BITS)
    swapped = h1 | (h0 << X_HAND_BITS)
    key.hands = straight if straight <= swapped else swapped
    sign[0] = 1 if straight <= swapped else -1
    key.rows = p[0] | (p[1] << X_ROW_BITS) | (p[2] << (2 * X_ROW_BITS)) | (p[3] << (3 * X_ROW_BITS))
    key.bulls = held_bulls
    return key


cdef inline void unpack_key(XKey key, XState* s, unsigned char* bulls) noexcept nogil:
    """The canonical state of a key, on ranks 0..n-1, and its hand cards' bullheads into
    bulls[0..31] (row ends' 0: never read)."""
    cdef int i, card, held = 0
    cdef uint64_t p
    cdef uint32_t rest
    s.hand[0] = <uint32_t>(key.hands & ((1 << X_HAND_BITS) - 1))
    s.hand[1] = <uint32_t>(key.hands >> X_HAND_BITS)
    for i in range(4):
        p = (key.rows >> (i * X_ROW_BITS)) & ((1 << X_ROW_BITS) - 1)
        s.rows[i].end = <unsigned char>(p & 31)
        s.rows[i].length = <unsigned char>((p >> 5) & 7)
        s.rows[i].bulls = <unsigned char>(p >> 8)
    for i in range(X_MAX_RANK):
        bulls[i] = 0
    rest = s.hand[0] | s.hand[1]
    while rest:
        card = x_lowest_bit(rest)
        rest &= rest - 1
        bulls[card] = <unsigned char>((key.bulls >> (X_CARD_BULLS_BITS * held)) & X_MAX_CARD_BULLS)
        held += 1


cdef inline bint same_key(const XKey* a, XKey b) noexcept nogil:
    return a.hands == b.hands and a.rows == b.rows and a.bulls == b.bulls


cdef inline uint64_t hash_key(XKey key) noexcept nogil:
    cdef uint64_t z = (key.hands * <uint64_t>0x9E3779B97F4A7C15 ^ key.rows) * <uint64_t>0xD6E8FEB86659FD93 ^ key.bulls
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
        if same_key(&level.keys[at - 1], key):
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


cdef inline int start_row(XState* s, const unsigned char* bulls, int i, int card) noexcept nogil:
    """`card` takes row i: returns the bullheads taken; the row is the card alone."""
    cdef int taken = s.rows[i].bulls
    s.rows[i].end = card
    s.rows[i].length = 1
    s.rows[i].bulls = bulls[card]
    return taken


cdef inline int add_card(XState* s, const unsigned char* bulls, int card) noexcept nogil:
    """`card`, not too low, goes on its row: appended, or as the 6th card it takes the
    row. Returns the bullheads taken."""
    cdef int i = row_below(s, card)
    if s.rows[i].length == 5:
        return start_row(s, bulls, i, card)
    s.rows[i].end = card
    s.rows[i].length += 1
    s.rows[i].bulls += bulls[card]
    return 0


cdef inline int joint_play(const XState* s, const unsigned char* bulls, int a, int b,
                           XState* out, int* reward) noexcept nogil:
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


cdef inline int row_below_but(const XState* s, int card, int skip) noexcept nogil:
    """row_below without row `skip`."""
    cdef int i, found = -1
    for i in range(4):
        if i != skip and s.rows[i].end < card and (found < 0 or s.rows[i].end > s.rows[found].end):
            found = i
    return found


cdef inline double last_turn(const XState* s, const unsigned char* bulls) noexcept nogil:
    """The value of a 1-card state: the last turn's bullheads, player 2's minus player 1's, a
    too-low card's owner taking the row best for them. joint_play's rewards, worked out on the
    rows before the turn instead of on copies (the innermost, most frequent case)."""
    cdef int a = x_lowest_bit(s.hand[0]), b = x_lowest_bit(s.hand[1])
    cdef int low = a if a < b else b, high = b if a < b else a
    cdef int sign = 1 if a < b else -1      # +1: the low card is player 1's
    cdef int i = row_below(s, low), j, r, taken_low, taken_high, length, row_bulls
    cdef double v, best = 0.0
    if i >= 0:
        if s.rows[i].length == 5:          # low, the 6th card, takes row i
            taken_low, length, row_bulls = s.rows[i].bulls, 1, bulls[low]
        else:
            taken_low, length, row_bulls = 0, s.rows[i].length + 1, s.rows[i].bulls + bulls[low]
        j = row_below(s, high)             # j >= 0: row i's end was below low < high
        if j == i or s.rows[j].end < low:  # row i, now ending in low, is high's row
            taken_high = row_bulls if length == 5 else 0
        else:
            taken_high = s.rows[j].bulls if s.rows[j].length == 5 else 0
        return sign * (taken_high - taken_low)
    for r in range(4):                     # low takes row r and is its only card
        j = row_below_but(s, high, r)      # every other end is above low
        taken_high = s.rows[j].bulls if j >= 0 and s.rows[j].length == 5 else 0
        v = sign * (taken_high - s.rows[r].bulls)
        if r == 0 or (a < b and v > best) or (a > b and v < best):
            best = v       # the low card's owner: player 1 maximizes, player 2 minimizes
    return best
