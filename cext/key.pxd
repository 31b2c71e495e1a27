# Keys of states: what the transposition table and the 2-card cache are indexed by.
#
# Invariants:
# - A key is never 0 (a leading 1 bit is shifted in first): 0 marks an empty slot.
# - Canonical key (make_key): two states with the same key have the same future, up to the
#   player swap; `swapped` says the state is the swap of the key's orientation, whose value
#   is then the negation (a stored [lower, upper] reads [-upper, -lower]).
# - Canonical keys of 2-card states fit 64 bits (8 live cards of 4 bits, 4 row sums of 5
#   bits, the leading 1); of up to 10 cards, 128 bits.
# - Exact keys (the ablation) set bit 127 and never swap: they cannot equal a canonical key.

from libc.stdint cimport uint32_t, uint64_t
from state cimport (MAX_RANKS, State, popcount, lowest_bit, count_leading_zeros)

cdef extern from *:
    """
    typedef unsigned __int128 nimmt_u128;
    """
    ctypedef unsigned long long u128 "nimmt_u128"


cdef inline int bull_code(int bulls) noexcept nogil:
    # bullheads 1, 2, 3, 5, 7 -> 0..4
    if bulls <= 3:
        return bulls - 1
    return 3 if bulls == 5 else 4


cdef inline void make_key(const int* bull_code_of, const State* s, u128* key,
                          bint* swapped) noexcept nogil:
    """Canonical key: the live cards (hands and row ends) in ascending order, each as a
    4-bit code (owner and bullheads for a hand card, 10 + length - 1 for a row end), then
    each row's bullhead sum in the same order. Dead cards and card numbers disappear, so
    positions that play the same merge. So do rows whose differences cannot matter: a row
    that cannot get a 6th card even if every card above its end lands on it shows as length
    1; rows ending above every card in hand (they can only be taken, by a too-low card)
    show as one code each, their sums sorted. The player swap (which negates the value) is
    folded in by naming "first player" the holder of the lowest card in hand: a state and
    its swap then have the same key. `bull_code_of[r]`: bull_code of rank r's bullheads."""
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
        code_of[rank] = bull_code_of[rank] + 5 * (second >> rank & 1)
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
