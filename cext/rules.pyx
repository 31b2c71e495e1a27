# cython: language_level=3
"""Python access to the C rules core (cext/rules.pxd): used to check it against the
pure-Python reference, and by the fast simulators."""
from rules cimport Row, N_ROWS, bullheads, target_row, take_row, place_on, cheapest_row


cdef void load_rows(Row* out, rows) except *:
    cdef int r, i
    for r in range(N_ROWS):
        out[r].length = len(rows[r])
        out[r].bulls = 0
        for i in range(out[r].length):
            out[r].cards[i] = rows[r][i]
            out[r].bulls += bullheads(rows[r][i])


cdef list dump_rows(const Row* rows):
    return [[rows[r].cards[i] for i in range(rows[r].length)] for r in range(N_ROWS)]


def c_bullheads(int card):
    return bullheads(card)


def c_play_turn(rows, cards, choices):
    """Resolve a turn with the C core. `choices[k]`: row taken by player k if their card is
    too low (None: the cheapest row). Returns (rows, bullheads taken per player)."""
    cdef Row table[4]
    cdef int k, r, card
    load_rows(table, rows)
    penalties = [0] * len(cards)
    for k in sorted(range(len(cards)), key=lambda p: cards[p]):
        card = cards[k]
        r = target_row(table, card)
        if r < 0:
            r = cheapest_row(table) if choices[k] is None else choices[k]
            penalties[k] += take_row(table, r, card)
        else:
            penalties[k] += place_on(table, r, card)
    return dump_rows(table), penalties
