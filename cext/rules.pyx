# cython: language_level=3
"""Python access to the C rules core (cext/rules.pxd): used to check it against the
pure-Python reference, and the fast random-play simulator."""
import numpy as np

from libc.stdint cimport int64_t, uint64_t
from rules cimport (Row, N_ROWS, ROW_LIMIT, MAX_CARD, MAX_PLAYERS, HAND_SIZE, CHEAPEST, bullheads,
                    resolve_turn, splitmix64, random_below, load_rows, dump_rows,
                    rows_from_cells, rows_to_cells)

from solver.core.rules import GameConfig

SEED_MASK = (1 << 64) - 1


def c_bullheads(int card):
    return bullheads(card)


def c_play_turn(rows, cards, choices):
    """Resolve a turn with the C core. `choices[k]`: row taken by player k if their card is
    too low (None: the cheapest row). Returns (rows, bullheads taken per player)."""
    cdef Row table[N_ROWS]
    cdef int played[MAX_PLAYERS]
    cdef int chosen[MAX_PLAYERS]
    cdef int taken[MAX_PLAYERS]
    cdef int k, n = len(cards)
    if not 1 <= n <= MAX_PLAYERS:
        raise ValueError(f"a turn has 1..{MAX_PLAYERS} cards, got {n}")
    load_rows(table, rows)
    for k in range(n):
        played[k] = cards[k]
        chosen[k] = CHEAPEST if choices[k] is None else choices[k]
        taken[k] = 0
    resolve_turn(table, played, chosen, n, taken)
    return dump_rows(table), [taken[k] for k in range(n)]


def play_turns(signed char[:, :, ::1] rows, cards, choices=None):
    """Resolve one turn on each of P tables at once: rows [P, 4, 5] int8 (the rows as they
    lie, 0 after each row's end), changed in place; cards [P, n], each table's cards by
    seat; choices [P, n] (optional): the row 0..3 a too-low card takes, -1 (or no choices)
    the cheapest row. Returns the bullheads taken [P, n] int64. The same C turn as
    `c_play_turn`, without Python objects in the loop."""
    cdef const int64_t[:, ::1] c = np.ascontiguousarray(cards, dtype=np.int64)
    cdef const int64_t[:, ::1] ch = np.ascontiguousarray(
        np.full(np.shape(cards), CHEAPEST) if choices is None else choices, dtype=np.int64)
    cdef Row table[N_ROWS]
    cdef int played[MAX_PLAYERS]
    cdef int chosen[MAX_PLAYERS]
    cdef int got[MAX_PLAYERS]
    cdef Py_ssize_t p
    cdef int k, r, n = c.shape[1]
    if c.shape[0] != rows.shape[0] or rows.shape[1] != N_ROWS or rows.shape[2] != ROW_LIMIT:
        raise ValueError("rows [P, 4, 5] and cards [P, n] needed")
    if not 1 <= n <= MAX_PLAYERS:
        raise ValueError(f"a turn has 1..{MAX_PLAYERS} cards, got {n}")
    if ch.shape[0] != c.shape[0] or ch.shape[1] != n:
        raise ValueError("choices [P, n] needed, as the cards")
    result = np.zeros((c.shape[0], n), dtype=np.int64)
    cdef int64_t[:, ::1] taken = result
    for p in range(c.shape[0]):
        for k in range(n):
            if not 1 <= c[p, k] <= MAX_CARD:
                raise ValueError(f"card {c[p, k]} is not 1..{MAX_CARD}")
            if not CHEAPEST <= ch[p, k] < N_ROWS:
                raise ValueError(f"row choice {ch[p, k]} is not -1..{N_ROWS - 1}")
        for r in range(N_ROWS):
            if not 1 <= rows[p, r, 0] <= MAX_CARD:
                raise ValueError(f"table {p}: row {r + 1} is empty")
    with nogil:
        for p in range(c.shape[0]):
            rows_from_cells(table, &rows[p, 0, 0])
            for k in range(n):
                played[k] = <int>c[p, k]
                chosen[k] = <int>ch[p, k]
                got[k] = 0
            resolve_turn(table, played, chosen, n, got)
            rows_to_cells(table, &rows[p, 0, 0])
            for k in range(n):
                taken[p, k] = got[k]
    return result


# random play -------------------------------------------------------------------------------
cdef struct Table:
    int deck[MAX_CARD]                       # cards 1..D, a permutation reshuffled each round
    int hands[MAX_PLAYERS][HAND_SIZE]
    int hand_size
    Row rows[N_ROWS]


cdef inline int pick_random_card(int* hand, int size, uint64_t* rng) noexcept nogil:
    """Remove a uniformly random card of hand[0..size-1] and return it."""
    cdef int i = random_below(rng, size)
    cdef int card = hand[i]
    hand[i] = hand[size - 1]
    return card


cdef void deal(Table* t, int players, int deck_size, uint64_t* rng) noexcept nogil:
    """Partial Fisher-Yates: the first 10n+4 cards of t.deck become a uniform random draw
    (reshuffling any permutation keeps it uniform, so t.deck is never reset)."""
    cdef int i, j, swap, k, r, dealt = players * HAND_SIZE + N_ROWS
    for i in range(dealt):
        j = i + random_below(rng, deck_size - i)
        swap = t.deck[i]
        t.deck[i] = t.deck[j]
        t.deck[j] = swap
    for k in range(players):
        for i in range(HAND_SIZE):
            t.hands[k][i] = t.deck[k * HAND_SIZE + i]
    for r in range(N_ROWS):
        t.rows[r].cards[0] = t.deck[players * HAND_SIZE + r]
        t.rows[r].length = 1
        t.rows[r].bulls = bullheads(t.rows[r].cards[0])
    t.hand_size = HAND_SIZE


cdef void play_random_round(Table* t, int players, int deck_size, uint64_t* rng,
                            int* penalties) noexcept nogil:
    """Deal, then 10 turns of uniformly random cards; a too-low card takes the cheapest row."""
    cdef int cards[MAX_PLAYERS]
    cdef int choices[MAX_PLAYERS]
    cdef int k, turn
    deal(t, players, deck_size, rng)
    for k in range(players):
        choices[k] = CHEAPEST
    for turn in range(HAND_SIZE):
        for k in range(players):
            cards[k] = pick_random_card(t.hands[k], t.hand_size, rng)
        t.hand_size -= 1
        resolve_turn(t.rows, cards, choices, players, penalties)


cdef void init_deck(Table* t, int deck_size) noexcept nogil:
    cdef int c
    for c in range(deck_size):
        t.deck[c] = c + 1


def random_rounds(int players, long long rounds, seed=0, deck=None):
    """Play `rounds` random rounds (n players, deck 104 or 10n+4..104) with the C core;
    return the total bullheads taken by each player, as a numpy int64 array.

    Deterministic for a seed (its own SplitMix64 generator, not Python's).
    """
    config = GameConfig(players=players, deck=104 if deck is None else deck)
    if rounds < 0:
        raise ValueError(f"rounds must be >= 0, got {rounds}")
    cdef Table table
    cdef int penalties[MAX_PLAYERS]
    cdef int k, deck_size = config.deck
    cdef long long i
    cdef uint64_t rng = <uint64_t>(hash_seed(seed))
    totals = np.zeros(players, dtype=np.int64)
    cdef int64_t[:] out = totals
    init_deck(&table, deck_size)
    with nogil:
        for i in range(rounds):
            for k in range(players):
                penalties[k] = 0
            play_random_round(&table, players, deck_size, &rng, penalties)
            for k in range(players):
                out[k] += penalties[k]
    return totals


def c_random_turn(rows, hands, seed):
    """One random turn with the C core, as the simulator plays it: each player plays a random
    card of their hand (C generator), a too-low card takes the cheapest row.
    Returns (cards played, rows after, bullheads taken per player)."""
    cdef uint64_t rng = <uint64_t>(hash_seed(seed))
    cdef int hand[HAND_SIZE]
    cdef int i, size
    cards = []
    for cards_in_hand in hands:
        size = len(cards_in_hand)
        if not 1 <= size <= HAND_SIZE:
            raise ValueError(f"a hand holds 1..{HAND_SIZE} cards, got {list(cards_in_hand)}")
        for i in range(size):
            hand[i] = cards_in_hand[i]
        cards.append(pick_random_card(hand, size, &rng))
    rows_after, taken = c_play_turn(rows, cards, [None] * len(cards))
    return cards, rows_after, taken


def hash_seed(seed):
    """Any integer seed -> the 64-bit state of the C generator."""
    return int(seed) & SEED_MASK
