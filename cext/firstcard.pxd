# The opening card of a new node's restricted game: each card of a hand scored by a small
# network of its features (trained by solver/exact/firstcard_train.py to put the card of the
# largest margin first: the card whose worst entry is highest). Order changes the work,
# never a value.
#
# Invariants:
# - FirstCardModel's weights for nodes of k cards per hand are at index k (w1[k]: FC_INPUTS x
#   FC_HIDDEN, the inputs' normalisation folded in); a node of more cards than `top` uses
#   w1[top]; top = 0: no model. A card's score is w2 . relu(b1 + w1 . inputs), its inputs its
#   FC_FEATURES features then the mean of its hand's.
# - The features read the live cards only (both hands and the row ends), never a rank's
#   value, so a root's fresh ranks and a deep node's old ones give the same features.
# - Features FC_OWN.. come from the node's estimate (estimate_features) and are 0 when the
#   node has none (below GUESS_FROM cards), as in the training examples.
# - Everything here is a read: the model is written once, before a search, by
#   ExactSearch.set_first_card.

from libc.math cimport fmax
from state cimport MAX_HAND, State, target_row, play_pair, rows_by_bulls

cdef enum:
    FC_OWN = 22                # features computed here
    FC_ESTIMATE = 3            # from the node's estimate (0 below GUESS_FROM)
    FC_FEATURES = 25
    FC_INPUTS = 50             # a card's features, then the mean of its hand's
    FC_HIDDEN = 32

cdef struct FirstCardModel:
    double w1[MAX_HAND + 1][FC_INPUTS][FC_HIDDEN]
    double b1[MAX_HAND + 1][FC_HIDDEN]
    double w2[MAX_HAND + 1][FC_HIDDEN]
    int top                    # the largest k with weights (0: no model)
    int low                    # the smallest k the model is used at
    int high                   # the largest


cdef inline void turn_penalties(const int* bulls, const State* s, int mine, int other,
                                int cheapest, int* pen_mine, int* pen_other) noexcept nogil:
    """Both players' bullheads this turn when `mine` meets `other` (too low: the row of
    fewest bullheads)."""
    cdef State t = s[0]
    if mine < other:
        play_pair(bulls, &t, mine, other, cheapest, pen_mine, pen_other)
    else:
        play_pair(bulls, &t, other, mine, cheapest, pen_other, pen_mine)


cdef inline void estimate_features(const double* g, const double* x, const double* y,
                                   int k, int player, double* out) noexcept nogil:
    """Each card's estimate features (FC_ESTIMATE a card, into out[i * FC_ESTIMATE]) from
    the estimated matrix g (player 1's payoff) and its equilibrium (x, y), from `player`'s
    side: its worst entry and its value against the other's strategy, both less the
    estimated value, and its own probability."""
    cdef int i, j
    cdef double v = 0.0, worst, against
    for i in range(k):
        for j in range(k):
            v += x[i] * g[i * k + j] * y[j]
    for i in range(k):
        worst = 1e300
        against = 0.0
        for j in range(k):
            if player == 0:
                worst = g[i * k + j] if g[i * k + j] < worst else worst
                against += g[i * k + j] * y[j]
            else:
                worst = -g[j * k + i] if -g[j * k + i] < worst else worst
                against -= x[j] * g[j * k + i]
        out[i * FC_ESTIMATE] = worst - (v if player == 0 else -v)
        out[i * FC_ESTIMATE + 1] = against - (v if player == 0 else -v)
        out[i * FC_ESTIMATE + 2] = x[i] if player == 0 else y[i]


cdef inline void card_features(const int* bulls, const State* s, const int* mine,
                               const int* other, const int* other_row, int k, int i,
                               int cheapest, int minb, double* f) noexcept nogil:
    """The features of mine[i] (solver/exact/firstcard_train.py trains on the same);
    other_row[j]: the row other[j] goes to (target_row)."""
    cdef int j, r, t, c = mine[i], pm, po, n_pos = 0
    cdef double sum_m = 0.0, sum_o = 0.0, max_m = 0.0, max_o = 0.0
    for j in range(FC_OWN):
        f[j] = 0.0
    for j in range(k):
        turn_penalties(bulls, s, c, other[j], cheapest, &pm, &po)
        sum_m += pm
        sum_o += po
        if pm > max_m:
            max_m = pm
        if po > max_o:
            max_o = po
        if pm > 0:
            n_pos += 1
    f[0] = sum_m / k
    f[1] = max_m
    f[2] = <double>n_pos / k
    f[3] = sum_o / k
    f[4] = max_o
    f[5] = bulls[c]
    t = target_row(s, c)
    if t < 0:
        f[6] = 1.0
        f[7] = minb
    else:
        f[8 + s.rows[t].length - 1] = 1.0
        f[13] = s.rows[t].bulls
        for j in range(k):
            if s.rows[t].end < other[j] < c:
                f[14] += 1.0
            if s.rows[t].end < mine[j] < c:
                f[15] += 1.0
    for r in range(4):
        if s.rows[r].end < c:
            f[16] += 1.0
    f[17] = <double>i / (k - 1 if k > 1 else 1)
    for j in range(k):
        if other[j] < c:
            f[18] += 1.0
        if t >= 0 and other[j] > c and other_row[j] == t:
            f[21] += 1.0
    f[18] /= k
    f[21] /= k
    f[19] = 1.0 if i == 0 else 0.0
    f[20] = 1.0 if i == k - 1 else 0.0


cdef inline void hand_features(const int* bulls, const State* s, const int* mine,
                               const int* other, int k, const double* estimate,
                               double f[][FC_FEATURES]) noexcept nogil:
    """The features of every card of `mine` (ascending ranks, k cards) into f[i];
    `estimate`: estimate_features of `mine`, or NULL (below GUESS_FROM)."""
    cdef int order[4]
    cdef int other_row[MAX_HAND]
    cdef int i, d
    rows_by_bulls(s, order)
    for i in range(k):
        other_row[i] = target_row(s, other[i])
    for i in range(k):
        card_features(bulls, s, mine, other, other_row, k, i, order[0],
                      s.rows[order[0]].bulls, f[i])
        for d in range(FC_ESTIMATE):
            f[i][FC_OWN + d] = estimate[i * FC_ESTIMATE + d] if estimate != NULL else 0.0


cdef inline int first_card(const FirstCardModel* model, double f[][FC_FEATURES], int k,
                           double* scores) noexcept nogil:
    """Index of the card the model scores highest among a hand of k cards of features f;
    every card's score into `scores`."""
    cdef double mean[FC_FEATURES]
    cdef double base[FC_HIDDEN]
    cdef double h[FC_HIDDEN]
    cdef int m = k if k <= model.top else model.top
    cdef int i, d, u, best = 0
    cdef double score, best_score = -1e300
    for d in range(FC_FEATURES):
        mean[d] = 0.0
        for i in range(k):
            mean[d] += f[i][d]
        mean[d] /= k
    for u in range(FC_HIDDEN):
        base[u] = model.b1[m][u]
    for d in range(FC_FEATURES):
        for u in range(FC_HIDDEN):
            base[u] += mean[d] * model.w1[m][FC_FEATURES + d][u]
    for i in range(k):
        for u in range(FC_HIDDEN):
            h[u] = base[u]
        for d in range(FC_FEATURES):
            if f[i][d] != 0.0:
                for u in range(FC_HIDDEN):
                    h[u] += f[i][d] * model.w1[m][d][u]
        score = 0.0
        for u in range(FC_HIDDEN):
            score += model.w2[m][u] * fmax(h[u], 0.0)
        scores[i] = score
        if score > best_score:
            best_score = score
            best = i
    return best
