# The network's input features of one view, in C (solver/learn/features.py documents each
# feature and drives this). Invariants: a view's hand is ascending then 0, its rows hold the
# cards as they lie then 0, every card is 0..MAX_CARD; the arithmetic of every feature is that
# of the numpy form it replaced, type for type (float32 where that form was float32, double
# where it was float64, rounded to float32 once at the end), so that a view's numbers do not
# depend on which form computed them.

cdef enum:
    CARD_FEATURES = 17
    TABLE_FEATURES = 27
    COST_FEATURE = 16      # the sampled cost's slot, filled by the caller

from rules cimport N_ROWS, ROW_LIMIT, MAX_CARD, MAX_PLAYERS, HAND_SIZE, bullheads, order_by

cdef enum:
    CARDS = MAX_CARD + 1          # arrays indexed by card number, slot 0 unused

cdef inline double _choose(long m, long j) noexcept nogil:
    """m choose j (exact: small integers)."""
    cdef double c = 1.0
    cdef long i
    for i in range(j):
        c = c * (m - i) / (i + 1)
    return c


cdef inline double _power(double x, int n) noexcept nogil:
    cdef double out = 1.0
    cdef int i
    for i in range(n):
        out = out * x
    return out


cdef inline float _risk(long n, double p, long k) noexcept nogil:
    """P(X >= k) for X ~ Binomial(n, p): 1 - the sum of the terms j < k (k <= 4)."""
    cdef double total = 0.0, q = 1.0 - p
    cdef long j, m = n if n < MAX_PLAYERS else MAX_PLAYERS
    if m < 0:
        m = 0
    for j in range(ROW_LIMIT):
        if j < k and j <= n:
            total += _choose(m, j) * _power(p, j) * _power(q, n - j if n > j else 0)
    total = 1.0 - total
    if total < 0.0:
        total = 0.0
    elif total > 1.0:
        total = 1.0
    return <float>total


cdef inline void encode_view(int players, int deck, const signed char* hand,
                      const signed char* rows, const unsigned char* seen,
                      float* cards, unsigned char* mask, float* table,
                      unsigned char* unseen) noexcept nogil:
    cdef int lengths[N_ROWS]
    cdef int ends[N_ROWS]
    cdef int order[N_ROWS]
    cdef float row_bulls[N_ROWS]
    cdef unsigned char in_hand[CARDS]
    cdef unsigned char on_rows[CARDS]
    cdef int below_unseen[CARDS + 1]
    cdef int below_hand[CARDS + 1]
    cdef int r, c, i, x, target, t_end, t_len, gap_unseen, gap_hand, count, size, lowest_end
    cdef int low_unseen, best, rank
    cdef float t_bulls, tl, ok, risk, cheapest, deck_f, opponents, hand_size, n_unseen
    cdef double p
    cdef float* f

    for c in range(CARDS):
        in_hand[c] = 0
        on_rows[c] = 0
    size = 0
    for i in range(HAND_SIZE):
        mask[i] = hand[i] > 0
        size += mask[i]
        in_hand[hand[i]] = 1
    in_hand[0] = 0
    cheapest = 1e30
    lowest_end = 1 << 30
    for r in range(N_ROWS):
        lengths[r] = 0
        row_bulls[r] = 0.0
        for c in range(ROW_LIMIT):
            x = rows[r * ROW_LIMIT + c]
            on_rows[x] = 1
            if x > 0:
                lengths[r] += 1
                row_bulls[r] += bullheads(x)
        ends[r] = rows[r * ROW_LIMIT + (lengths[r] - 1 if lengths[r] > 0 else 0)]
        if row_bulls[r] < cheapest:
            cheapest = row_bulls[r]
        if ends[r] < lowest_end:
            lowest_end = ends[r]
    count = 0
    below_unseen[0] = 0
    below_hand[0] = 0
    for c in range(CARDS):
        unseen[c] = (not seen[c] and not in_hand[c] and not on_rows[c] and 1 <= c <= deck)
        count += unseen[c]
        below_unseen[c + 1] = below_unseen[c] + unseen[c]
        below_hand[c + 1] = below_hand[c] + in_hand[c]
    deck_f = <float>deck
    opponents = <float>players - 1.0
    hand_size = <float>size
    n_unseen = <float>(count if count > 1 else 1)
    low_unseen = below_unseen[lowest_end]

    rank = -1
    for i in range(HAND_SIZE):
        x = hand[i]
        rank += mask[i]
        # the row the card goes to: the largest end below it (none: too low, row 0 read)
        target = 0
        best = -1
        for r in range(N_ROWS):
            if ends[r] < x and ends[r] > best:
                best = ends[r]
                target = r
        tl = 1.0 if best < 0 else 0.0
        ok = 1.0 - tl
        t_end = ends[target]
        t_len = lengths[target]
        t_bulls = row_bulls[target]
        gap_unseen = below_unseen[x] - below_unseen[t_end + 1]
        gap_hand = below_hand[x] - below_hand[t_end + 1]
        p = gap_unseen / <double>n_unseen
        risk = _risk(<long>opponents, p, ROW_LIMIT - t_len)
        f = cards + i * CARD_FEATURES
        f[0] = <float>(x / <double>deck_f)
        f[1] = <float>bullheads(x) / <float>7.0 if x > 0 else 0.0
        f[2] = tl
        f[3] = <float>(<double>ok * (x - t_end) / <double>deck_f)
        f[4] = <float>(<double>ok * t_len / 5.0)
        f[5] = ok * t_bulls / <float>20.0
        f[6] = <float>(<double>ok * gap_unseen / 10.0)
        f[7] = <float>(<double>ok * p)
        f[8] = <float>(<double>ok * gap_hand / 10.0)
        f[9] = ok * risk
        f[10] = ok * risk * t_bulls / <float>20.0
        f[11] = tl * cheapest / <float>20.0
        f[12] = <float>(below_unseen[x] / <double>n_unseen)
        f[13] = <float>(rank / 10.0)
        f[14] = <float>(<double>tl * low_unseen / <double>n_unseen)
        f[15] = ok * (t_len == ROW_LIMIT)
        f[16] = 0.0
        if not mask[i]:
            for c in range(CARD_FEATURES):
                f[c] = f[c] * <float>0.0

    # the table: rows by their end (a stable order), then the counts
    order_by(ends, N_ROWS, order)
    for c in range(TABLE_FEATURES):
        table[c] = 0.0
    if 2 <= players <= MAX_PLAYERS:
        table[players - 2] = 1.0
    table[9] = <float>(players / 10.0)
    table[10] = hand_size / <float>10.0
    for r in range(N_ROWS):
        table[11 + r] = <float>(ends[order[r]] / <double>deck_f)
        table[15 + r] = <float>(lengths[order[r]] / 5.0)
        table[19 + r] = row_bulls[order[r]] / <float>20.0
    table[23] = n_unseen / <float>104.0
    table[24] = opponents * hand_size / n_unseen
    table[25] = cheapest / <float>20.0
    table[26] = <float>(low_unseen / <double>n_unseen)


