# cython: language_level=3
"""The exhaustive reference solver (cext/exhaustive.pxd): every canonical state reachable
from a 2-player root, level by level, one certified matrix game per state.

Forward pass: from the root (level k = its hand size) every joint play, and every row a
too-low card may take, gives the states of level k-1, kept once each by canonical key (the
state's own live cards relabelled, a state and its player swap sharing one key).
Backward pass: level 1 first (its children are worth 0), then each level up to the root,
each state's k x k game solved by `solve_game` and its strategies certified. A level is
freed as soon as the level above it is solved.
"""
from time import perf_counter

from libc.stdlib cimport malloc, free
from libc.string cimport memset
from libc.stdint cimport uint32_t, uint64_t
from libc.math cimport NAN
from cython.parallel cimport prange

from matgame cimport MAX_ACTIONS, solve_game
from exhaustive cimport (X_MAX_HAND, X_MAX_RANK, X_MAX_CARD_BULLS, X_MAX_ROW_BULLS, XRow,
                         XState, XKey, Level, make_key, unpack_key, same_key, hash_key,
                         find_key, ranks_of, joint_play, last_turn)

CERTIFY_TOL = 1e-9              # the strategies' guarantees meet the value within this
cdef double C_CERTIFY_TOL = 1e-9
cdef enum:
    FIRST_CAPACITY = 1024       # keys of a fresh level; doubled as it fills
    OUT_OF_MEMORY = -2


cdef struct Memory:
    uint64_t held      # bytes allocated now
    uint64_t peak      # the most ever held at once


# memory: every malloc and free of the module ------------------------------------------------
cdef void* take(Memory* memory, size_t size) noexcept nogil:
    cdef void* p = malloc(size)
    if p != NULL:
        memory.held += size
        if memory.held > memory.peak:
            memory.peak = memory.held
    return p


cdef void give_back(Memory* memory, void* p, size_t size) noexcept nogil:
    if p != NULL:
        free(p)
        memory.held -= size


cdef void level_close(Memory* memory, Level* level) noexcept nogil:
    """Free a level's arrays; a closed (or never opened) level is all NULL and zero."""
    give_back(memory, level.keys, level.capacity * sizeof(XKey))
    give_back(memory, level.values, level.capacity * sizeof(double))
    give_back(memory, level.slots, (level.mask + 1) * sizeof(uint32_t) if level.slots else 0)
    memset(level, 0, sizeof(Level))


cdef int level_open(Memory* memory, Level* level, uint64_t capacity) noexcept nogil:
    """Empty arrays for `capacity` keys (a power of two) and twice as many slots. 0, or
    OUT_OF_MEMORY (the level is then closed)."""
    cdef uint64_t i
    memset(level, 0, sizeof(Level))
    level.capacity = capacity
    level.mask = 2 * capacity - 1
    level.keys = <XKey*>take(memory, capacity * sizeof(XKey))
    level.values = <double*>take(memory, capacity * sizeof(double))
    level.slots = <uint32_t*>take(memory, 2 * capacity * sizeof(uint32_t))
    if level.keys == NULL or level.values == NULL or level.slots == NULL:
        level_close(memory, level)
        return OUT_OF_MEMORY
    memset(level.slots, 0, 2 * capacity * sizeof(uint32_t))
    for i in range(capacity):
        level.values[i] = NAN
    return 0


cdef int level_grow(Memory* memory, Level* level) noexcept nogil:
    """Twice the capacity, the keys copied and the table rebuilt. 0 or OUT_OF_MEMORY."""
    cdef Level bigger
    cdef uint64_t i, slot
    if level.capacity >= (<uint64_t>1 << 31):          # slots hold index + 1 in 32 bits
        return OUT_OF_MEMORY
    if level_open(memory, &bigger, 2 * level.capacity) != 0:
        return OUT_OF_MEMORY
    for i in range(level.count):
        bigger.keys[i] = level.keys[i]
        bigger.values[i] = level.values[i]
        slot = hash_key(level.keys[i]) & bigger.mask
        while bigger.slots[slot] != 0:
            slot = (slot + 1) & bigger.mask
        bigger.slots[slot] = <uint32_t>(i + 1)
    bigger.count = level.count
    level_close(memory, level)
    level[0] = bigger
    return 0


# the levels ----------------------------------------------------------------------------------
cdef long long insert_key(Memory* memory, Level* level, XKey key) noexcept nogil:
    """Index of `key` in the level, added if new. OUT_OF_MEMORY if the level cannot grow."""
    cdef uint64_t slot
    cdef uint32_t at
    if level.count == level.capacity and level_grow(memory, level) != 0:
        return OUT_OF_MEMORY
    slot = hash_key(key) & level.mask
    while True:
        at = level.slots[slot]
        if at == 0:
            level.keys[level.count] = key
            level.slots[slot] = <uint32_t>(level.count + 1)
            level.count += 1
            return level.count - 1
        if same_key(&level.keys[at - 1], key):
            return at - 1
        slot = (slot + 1) & level.mask


cdef int expand(Memory* memory, const Level* up, Level* down) noexcept nogil:
    """Every child of every state of `up` into `down`. 0 or OUT_OF_MEMORY."""
    cdef XState s
    cdef XState out[4]
    cdef int reward[4]
    cdef int p[X_MAX_HAND]
    cdef int q[X_MAX_HAND]
    cdef unsigned char bulls[X_MAX_RANK]
    cdef int k, i, j, c, n, sign
    cdef uint64_t t
    for t in range(up.count):
        unpack_key(up.keys[t], &s, bulls)
        k = ranks_of(s.hand[0], p)
        ranks_of(s.hand[1], q)
        for i in range(k):
            for j in range(k):
                n = joint_play(&s, bulls, p[i], q[j], out, reward)
                for c in range(n):
                    if insert_key(memory, down, make_key(&out[c], bulls, &sign)) == OUT_OF_MEMORY:
                        return OUT_OF_MEMORY
    return 0


cdef struct Counts:
    long long missing      # children not found in the level below (a bug if any)
    long long retried      # games whose first solution failed its certificate, solved again
    long long failed       # games with no certified solution (a bug if any)


cdef double entry(const Level* below, const XState* s, const unsigned char* bulls, int a,
                  int b, Counts* counts) noexcept nogil:
    """Entry (a, b) of the state's game: this turn's reward plus the child's value, a too-low
    card's owner taking the row best for them. The child's value is looked up in `below` by
    the child's own key, with the key's sign (a child not found counts as missing), or, with
    `below` NULL, solved in place."""
    cdef XState out[4]
    cdef int reward[4]
    cdef int n = joint_play(s, bulls, a, b, out, reward), c, sign
    cdef long long at
    cdef double v, best = 0.0
    cdef XKey key
    for c in range(n):
        v = reward[c]
        if below != NULL:
            key = make_key(&out[c], bulls, &sign)
            at = find_key(below, key)
            if at < 0:
                counts.missing += 1
            else:
                v += sign * below.values[at]
        elif out[c].hand[0] != 0:
            v += in_place(&out[c], bulls, counts)
        if c == 0 or (a < b and v > best) or (a > b and v < best):
            best = v           # the low card's owner: player 1 maximizes, player 2 minimizes
    return best


cdef bint certified(const double* m, int k, double v, const double* x,
                    const double* y) noexcept nogil:
    """x guarantees >= v - tol against every column, y concedes <= v + tol against every
    row, and both are probability vectors."""
    cdef int i, j
    cdef double s, sx = 0.0, sy = 0.0
    for i in range(k):
        if x[i] < -C_CERTIFY_TOL or y[i] < -C_CERTIFY_TOL:
            return False
        sx += x[i]
        sy += y[i]
    if not (-C_CERTIFY_TOL <= sx - 1.0 <= C_CERTIFY_TOL and -C_CERTIFY_TOL <= sy - 1.0 <= C_CERTIFY_TOL):
        return False
    for j in range(k):
        s = 0.0
        for i in range(k):
            s += x[i] * m[i * k + j]
        if not s >= v - C_CERTIFY_TOL:
            return False
    for i in range(k):
        s = 0.0
        for j in range(k):
            s += m[i * k + j] * y[j]
        if not s <= v + C_CERTIFY_TOL:
            return False
    return True


FAILED_GAMES = []              # the first games that failed their certificate, for the message


cdef void keep_failed(const double* m, int k, double v, const double* x,
                      const double* y) noexcept with gil:
    """Keep a game with no certified solution (never seen: the GIL costs nothing here)."""
    if len(FAILED_GAMES) < 5:
        FAILED_GAMES.append({"matrix": [[m[i * k + j] for j in range(k)] for i in range(k)],
                             "value": v, "x": [x[i] for i in range(k)],
                             "y": [y[j] for j in range(k)]})


cdef double certified_game(const double* m, int k, double* x, double* y,
                           Counts* counts) noexcept nogil:
    """The value of the k x k game m (row-major) and certified strategies in x, y. When
    solve_game's first answer fails its certificate (on entries equal but for rounding it
    has returned a row strategy summing to 1.0008), the game is solved again from player 2's
    side, as -m transposed, and that answer certified instead (counted as retried); when both
    fail, the game counts as failed."""
    cdef double mt[MAX_ACTIONS * MAX_ACTIONS]
    cdef int i, j
    cdef double v = solve_game(m, k, k, k, x, y)
    if certified(m, k, v, x, y):
        return v
    counts.retried += 1
    for i in range(k):
        for j in range(k):
            mt[j * k + i] = -m[i * k + j]
    v = -solve_game(mt, k, k, k, y, x)
    if not certified(m, k, v, x, y):
        counts.failed += 1
        keep_failed(m, k, v, x, y)
    return v


cdef double in_place(const XState* s, const unsigned char* bulls, Counts* counts) noexcept nogil:
    """The value of a state of a level below the stored ones, solved from scratch: its
    game's entries solved in place down to the end, each game certified."""
    cdef double m[MAX_ACTIONS * MAX_ACTIONS]
    cdef double x[MAX_ACTIONS]
    cdef double y[MAX_ACTIONS]
    cdef int p[X_MAX_HAND]
    cdef int q[X_MAX_HAND]
    cdef int k = ranks_of(s.hand[0], p), i, j
    ranks_of(s.hand[1], q)
    if k == 1:
        return last_turn(s, bulls)
    for i in range(k):
        for j in range(k):
            m[i * k + j] = entry(NULL, s, bulls, p[i], q[j], counts)
    return certified_game(m, k, x, y, counts)


cdef double state_game(const Level* below, const XState* s, const unsigned char* bulls,
                       double* m, double* x, double* y, Counts* counts) noexcept nogil:
    """The state's k x k matrix into m (row-major), solved into certified x, y. Returns the
    value."""
    cdef int p[X_MAX_HAND]
    cdef int q[X_MAX_HAND]
    cdef int k, i, j
    k = ranks_of(s.hand[0], p)
    ranks_of(s.hand[1], q)
    for i in range(k):
        for j in range(k):
            m[i * k + j] = entry(below, s, bulls, p[i], q[j], counts)
    return certified_game(m, k, x, y, counts)


cdef Counts solve_state(const Level* below, Level* level, uint64_t t) noexcept nogil:
    """Solve state t of the level (its key's canonical state) into its value; returns what
    went wrong."""
    cdef double m[MAX_ACTIONS * MAX_ACTIONS]
    cdef double x[MAX_ACTIONS]
    cdef double y[MAX_ACTIONS]
    cdef Counts counts
    cdef XState s
    cdef unsigned char bulls[X_MAX_RANK]
    counts.missing = counts.retried = counts.failed = 0
    unpack_key(level.keys[t], &s, bulls)
    level.values[t] = state_game(below, &s, bulls, m, x, y, &counts)
    return counts


cdef void solve_level(const Level* below, Level* level, int threads,
                      Counts* total) noexcept nogil:
    """Every state of the level, each an independent game, on `threads` threads; adds
    what went wrong to `total`."""
    cdef long long t, missing = 0, retried = 0, failed = 0
    cdef Counts counts
    for t in prange(<long long>level.count, nogil=True, num_threads=threads,
                    schedule="dynamic", chunksize=64):
        counts = solve_state(below, level, <uint64_t>t)
        missing += counts.missing
        retried += counts.retried
        failed += counts.failed
    total.missing += missing
    total.retried += retried
    total.failed += failed


# Python --------------------------------------------------------------------------------------
def check_state(bulls, hand1, hand2, rows):
    """Refuse a state this solver cannot represent (ValueError)."""
    if not 1 <= len(bulls) <= X_MAX_RANK:
        raise ValueError(f"1..{X_MAX_RANK} ranks needed, got {len(bulls)}")
    if any(not 0 <= b <= X_MAX_CARD_BULLS for b in bulls):
        raise ValueError(f"bullheads of a rank are 0..{X_MAX_CARD_BULLS}, got {list(bulls)}")
    if len(hand1) != len(hand2) or not 1 <= len(hand1) <= min(X_MAX_HAND, MAX_ACTIONS):
        raise ValueError(f"two hands of 1..{X_MAX_HAND} cards needed, got {len(hand1)} and {len(hand2)}")
    if len(rows) != 4:
        raise ValueError(f"4 rows needed, got {len(rows)}")
    ends = [row[0] for row in rows]
    cards = list(hand1) + list(hand2) + ends
    if len(set(cards)) != len(cards) or any(not 0 <= c < len(bulls) for c in cards):
        raise ValueError(f"hands and row ends must be distinct ranks below {len(bulls)}")
    for end, length, row_bulls in rows:
        if not 1 <= length <= 5 or not bulls[end] <= row_bulls <= X_MAX_ROW_BULLS:
            raise ValueError(f"a row is (end, length 1..5, bullheads {bulls[end]}..63), "
                             f"got {(end, length, row_bulls)}")


def solve_levels(bulls, hand1, hand2, rows, int lowest=1, int threads=1):
    """Solve the root (hands as rank lists, rows as (end rank, length, bullheads); `bulls`
    the bullheads of each rank) through every canonical state below it.

    Returns a dict: value, x and y (the root's certified strategies, over each hand in
    ascending rank order), matrix (the root's k x k entries), states ({level: canonical
    states}, for the stored levels), forward_seconds, backward_seconds, peak_bytes,
    retried_games (games whose first solution failed its certificate, solved again).
    Levels `lowest` to k are stored, each solved on `threads` threads; the states below
    `lowest` are solved in place, from their parent, each time one is met. Raises MemoryError when a level
    does not fit, RuntimeError when a child is missing or a game fails its certificate.
    """
    check_state(bulls, hand1, hand2, rows)
    del FAILED_GAMES[:]
    if lowest < 1 or threads < 1:
        raise ValueError(f"lowest level and threads are at least 1, got {lowest} and {threads}")
    cdef int k = len(hand1), level_k, i, j, root_sign
    cdef int low = min(lowest, k)

    cdef Level levels[X_MAX_HAND + 1]
    cdef Memory memory
    cdef XState root
    cdef unsigned char root_bulls[X_MAX_RANK]
    cdef XKey root_key
    cdef Counts counts
    cdef int status = 0
    cdef double m[MAX_ACTIONS * MAX_ACTIONS]
    cdef double x[MAX_ACTIONS]
    cdef double y[MAX_ACTIONS]
    cdef double value
    memset(levels, 0, sizeof(levels))
    memset(&memory, 0, sizeof(Memory))
    memset(&counts, 0, sizeof(Counts))
    memset(&root, 0, sizeof(XState))
    memset(root_bulls, 0, sizeof(root_bulls))
    for i in range(len(bulls)):
        root_bulls[i] = bulls[i]
    for c in hand1:
        root.hand[0] |= <uint32_t>1 << <int>c
    for c in hand2:
        root.hand[1] |= <uint32_t>1 << <int>c
    for i in range(4):
        root.rows[i].end = rows[i][0]
        root.rows[i].length = rows[i][1]
        root.rows[i].bulls = rows[i][2]
    root_key = make_key(&root, root_bulls, &root_sign)
    states = {}
    try:
        start = perf_counter()
        if level_open(&memory, &levels[k], 1) != 0 or insert_key(&memory, &levels[k], root_key) < 0:
            raise MemoryError("the exhaustive solver's root level does not fit")
        states[k] = 1
        for level_k in range(k, low, -1):
            with nogil:
                status = level_open(&memory, &levels[level_k - 1], FIRST_CAPACITY)
                if status == 0:
                    status = expand(&memory, &levels[level_k], &levels[level_k - 1])
            if status != 0:
                raise MemoryError(f"level {level_k - 1} of the exhaustive solve does not fit"
                                  f" ({memory.held / 2**20:.0f} MB held)")
            states[level_k - 1] = levels[level_k - 1].count
        forward = perf_counter() - start
        start = perf_counter()
        for level_k in range(low, k + 1):
            with nogil:
                solve_level(&levels[level_k - 1] if level_k > low else NULL,
                            &levels[level_k], threads, &counts)
                if low < level_k < k:    # the root's game below needs level k-1 again
                    level_close(&memory, &levels[level_k - 1])
            if counts.missing or counts.failed:
                raise RuntimeError(f"exhaustive solve, level {level_k}: {counts.missing} children"
                                   f" not found, {counts.failed} matrix games with no certified"
                                   f" solution"
                                   f" (the first: {FAILED_GAMES[:1]})")
        # the root's own game (its key's may be the swapped one): x and y over its hands
        value = state_game(&levels[k - 1] if k > low else NULL, &root, root_bulls, m, x, y,
                           &counts)
        backward = perf_counter() - start
        if (counts.missing or counts.failed
                or not abs(value - root_sign * levels[k].values[0]) <= 2 * C_CERTIFY_TOL):
            raise RuntimeError("exhaustive solve: the root's game does not repeat its value")
        return {"value": value,
                "x": [x[i] for i in range(k)], "y": [y[j] for j in range(k)],
                "matrix": [[m[i * k + j] for j in range(k)] for i in range(k)],
                "states": states, "forward_seconds": forward, "backward_seconds": backward,
                "peak_bytes": memory.peak, "retried_games": counts.retried}
    finally:
        for i in range(X_MAX_HAND + 1):
            level_close(&memory, &levels[i])


def certified_solution(matrix):
    """The value, certified strategies x and y, and whether the game was solved again from
    player 2's side, of a square game of 1..10 actions (a list of rows): the routine every
    state's game goes through. RuntimeError if no solution certifies."""
    cdef int k = len(matrix), i, j
    cdef double m[MAX_ACTIONS * MAX_ACTIONS]
    cdef double x[MAX_ACTIONS]
    cdef double y[MAX_ACTIONS]
    cdef Counts counts
    if not 1 <= k <= MAX_ACTIONS or any(len(row) != k for row in matrix):
        raise ValueError(f"a square game of 1..{MAX_ACTIONS} actions needed")
    memset(&counts, 0, sizeof(Counts))
    for i in range(k):
        for j in range(k):
            m[i * k + j] = matrix[i][j]
    del FAILED_GAMES[:]
    v = certified_game(m, k, x, y, &counts)
    if counts.failed:
        raise RuntimeError(f"no certified solution of {FAILED_GAMES[:1]}")
    return v, [x[i] for i in range(k)], [y[j] for j in range(k)], counts.retried > 0
