# cython: language_level=3
"""The n-player simulation engine: fast playouts, determinization, and the search tree of the
information-set Monte Carlo tree search player (solver/mcts.py drives it).

The rules are those of cext/rules.pxd (one implementation); the state and playouts are in
cext/sim.pxd. Everything is deterministic for a seed (SplitMix64, not Python's generator).

The search (`Search`) is single-observer information-set MCTS with determinization and
decoupled selection for the simultaneous moves:
- each iteration deals the unseen cards at random to the hidden hands (uniformly, consistent
  with everything public: rows, cards played, hand sizes; see `Determinizer`);
- a tree node is a public history (the joint cards of each turn and the row chosen by a
  too-low card); at a node each seat picks its card with its own UCB1 bandit over the cards of
  its (determinized) hand, with availability counts in place of the parent's visits, since a
  hidden hand's cards differ between iterations (subset-armed bandits);
- a too-low card's row (0..3) is a decision too: a UCB1 bandit of its owner at an intermediate
  node keyed by the node and the turn's cards (the owner sees every card of the turn);
- one node is added per iteration, then a playout (random or heuristic) ends the round;
- each seat's reward is minus the bullheads it takes from the root to the end of the round
  (`reward="own"`), or minus that less the mean of the other seats' (`reward="relative"`:
  for 2 players, the zero-sum game of the exact solver, player 2's bullheads minus player
  1's). The root statistics (`root_stats`) are always of the seat's own bullheads.

Selection (`selection=`):
- "ucb" (default): UCB1 as above; the search's strategy is the share of the visits.
- "rm": regret matching (SM-MCTS with regret matching, Lanctot, Lisy & Winands 2013): at
  each node each seat keeps a cumulative regret per card (per row at a row node); it plays
  sigma = the positive regrets normalized (uniform if none), mixed with `gamma` uniform
  exploration: p = (1 - gamma) sigma + gamma / K. After the playout, with u the sampled
  reward (minus the cost), a its card and b a baseline (the mean reward of that seat at that
  node so far, a control variate: the estimates stay unbiased), every available card i gets
  regret b - u, and a gets (u - b) / p_a more (the importance-sampled estimate of a's reward
  minus u). The search's strategy is the AVERAGE strategy: sigma summed over the iterations
  (`root_policy`), not the visits.
- "rm+": the same with regret matching+ (Tammelin 2014): after each update a negative
  regret is set to 0, and the average strategy weighs sigma by the seat's visit count t at
  the node (linear averaging), so the noisy early iterations count less.
"""
import numpy as np

from libc.math cimport log, sqrt
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset, memcpy
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from rules cimport (Row, N_ROWS, ROW_LIMIT, MAX_CARD, MAX_PLAYERS, HAND_SIZE, CHEAPEST, bullheads,
                    row_end, target_row, take_row, place_on, cheapest_row, resolve_turn,
                    splitmix64, random_below, load_rows,
                    dump_rows, rows_from_cells)
from sim cimport (State, POLICY_RANDOM, POLICY_HEURISTIC, state_copy, state_take_card,
                  state_apply, playout, shuffle_prefix, heuristic_index)
from tree cimport Arm, Tree, mix64, arm_key, table_slot, tree_init, tree_free, tree_arm, tree_child

SEED_MASK = (1 << 64) - 1
POLICIES = {"random": POLICY_RANDOM, "heuristic": POLICY_HEURISTIC}
REWARDS = ("own", "relative")
SELECTIONS = ("ucb", "rm", "rm+")


def policy_code(policy):
    if policy not in POLICIES:
        raise ValueError(f"unknown playout policy {policy!r} (random or heuristic)")
    return POLICIES[policy]


cdef double now() noexcept nogil:
    cdef timespec t
    clock_gettime(CLOCK_MONOTONIC, &t)
    return t.tv_sec + 1e-9 * t.tv_nsec


# determinization -----------------------------------------------------------------------------
cdef class Determinizer:
    """A state template (rows, known hands, penalties) and the pool of unseen cards that the
    hidden hands are dealt from, uniformly at random, each iteration. A hidden hand gets
    `hand_size` cards of the pool: never a card of a row, a known hand or the cards played."""
    cdef State template
    cdef int hidden[MAX_PLAYERS]
    cdef int n_hidden
    cdef int* pool
    cdef int pool_size

    def __cinit__(self, rows, hands, pool, int hand_size, penalties=None):
        cdef int k, i, players = len(hands)
        if not 1 <= players <= MAX_PLAYERS:
            raise ValueError(f"1..{MAX_PLAYERS} seats needed, got {players}")
        if not 0 <= hand_size <= HAND_SIZE:
            raise ValueError(f"hand size must be 0..{HAND_SIZE}, got {hand_size}")
        memset(&self.template, 0, sizeof(State))
        load_rows(self.template.rows, rows)
        self.template.players = players
        self.template.hand_size = hand_size
        self.n_hidden = 0
        for k in range(players):
            self.template.penalties[k] = 0 if penalties is None else penalties[k]
            if hands[k] is None:
                self.hidden[self.n_hidden] = k
                self.n_hidden += 1
            else:
                if len(hands[k]) != hand_size:
                    raise ValueError(f"hand of seat {k} has {len(hands[k])} cards,"
                                     f" expected {hand_size}")
                for i in range(hand_size):
                    self.template.hands[k][i] = hands[k][i]
        self.pool_size = len(pool)
        if self.pool_size < self.n_hidden * hand_size:
            raise ValueError(f"{self.n_hidden} hidden hands of {hand_size} cards need"
                             f" {self.n_hidden * hand_size} unseen cards, only {self.pool_size}")
        self.pool = <int*>malloc(max(1, self.pool_size) * sizeof(int))
        for i in range(self.pool_size):
            self.pool[i] = pool[i]

    def __dealloc__(self):
        free(self.pool)

    cdef void sample(self, State* s, uint64_t* rng) noexcept nogil:
        cdef int j, i, k, hs = self.template.hand_size
        state_copy(s, &self.template)
        if self.n_hidden == 0:
            return
        shuffle_prefix(self.pool, self.pool_size, self.n_hidden * hs, rng)
        for j in range(self.n_hidden):
            k = self.hidden[j]
            for i in range(hs):
                s.hands[k][i] = self.pool[j * hs + i]

    def draw(self, seed):
        """One determinization, as Python lists of hands (for tests)."""
        cdef State s
        cdef uint64_t rng = <uint64_t>(int(seed) & SEED_MASK)
        self.sample(&s, &rng)
        return [[s.hands[k][i] for i in range(s.hand_size)] for k in range(s.players)]


# playouts for the benchmark ----------------------------------------------------------------
cdef void deal_state(State* s, int* deck, int deck_size, int players, uint64_t* rng) noexcept nogil:
    cdef int k, i, r
    shuffle_prefix(deck, deck_size, players * HAND_SIZE + N_ROWS, rng)
    s.players = players
    s.hand_size = HAND_SIZE
    for k in range(players):
        s.penalties[k] = 0
        for i in range(HAND_SIZE):
            s.hands[k][i] = deck[k * HAND_SIZE + i]
    for r in range(N_ROWS):
        s.rows[r].cards[0] = deck[players * HAND_SIZE + r]
        s.rows[r].length = 1
        s.rows[r].bulls = bullheads(s.rows[r].cards[0])


def playout_rounds(int players, long long rounds, seed=0, int deck=104, policy="random"):
    """Deal and play `rounds` whole rounds with the simulation core (`policy`: random or
    heuristic); the total bullheads of each seat, a numpy int64 array. Deterministic."""
    if not 2 <= players <= MAX_PLAYERS or not players * HAND_SIZE + N_ROWS <= deck <= MAX_CARD:
        raise ValueError(f"bad players/deck: {players}/{deck}")
    cdef int code = policy_code(policy)
    cdef int cards[MAX_CARD]
    cdef State s
    cdef long long i
    cdef int k
    cdef uint64_t rng = <uint64_t>(int(seed) & SEED_MASK)
    totals = np.zeros(players, dtype=np.int64)
    cdef int64_t[:] out = totals
    for k in range(deck):
        cards[k] = k + 1
    with nogil:
        for i in range(rounds):
            deal_state(&s, cards, deck, players, &rng)
            playout(&s, &rng, code)
            for k in range(players):
                out[k] += s.penalties[k]
    return totals


def finish_round(rows, hands, seed=0, policy="random"):
    """Play a position with every hand known to the end of the round: (rows, penalties)."""
    cdef State s
    cdef uint64_t rng = <uint64_t>(int(seed) & SEED_MASK)
    d = Determinizer(rows, hands, [], len(hands[0]))
    d.sample(&s, &rng)
    playout(&s, &rng, policy_code(policy))
    return dump_rows(s.rows), [s.penalties[k] for k in range(s.players)]


def heuristic_card(rows, hand):
    """The card the heuristic playout policy plays from `hand` (no randomness)."""
    cdef State s
    cdef uint64_t rng = 0
    d = Determinizer(rows, [list(hand)], [], len(hand))
    d.sample(&s, &rng)
    return s.hands[0][heuristic_index(&s, 0, &rng, 0)]


# the search --------------------------------------------------------------------------------
cdef enum:
    MAX_PATH = HAND_SIZE * (MAX_PLAYERS + 1)
    MAX_OPTIONS = HAND_SIZE + N_ROWS     # at least max(HAND_SIZE, N_ROWS)
    ROW_ARM = 200          # arm "card" of row r: ROW_ARM + r
    BASE_ARM = 255         # regret matching: the baseline (mean reward) of a seat at a node
    ROW_NODE_TAG = 7


cdef class Search:
    """The ISMCTS tree of one observer (see the module docstring). `run` adds iterations;
    statistics accumulate across calls, so running in chunks gives the same result.
    `c`: UCB1 exploration in bullheads; `reward`: own or relative (module docstring);
    `max_arms`: the memory cap (48 bytes an arm): once reached, iterations stop descending
    below the root's children. `selection`: "ucb" or "rm" (regret matching, exploration
    `gamma`; module docstring).

    Node keys of children are 64-bit hashes of (parent, the turn's cards, the row taken): a
    collision (odds about 2**-64 per pair of nodes) would merge two histories."""
    cdef Determinizer det
    cdef int viewer
    cdef uint64_t rng
    cdef double c
    cdef int policy
    cdef Tree tree             # nodes and arms (tree.pxd)
    cdef int relative
    cdef int rm
    cdef double gamma
    cdef readonly long long iterations
    cdef int max_arms
    cdef double opponent_cost[MAX_CARD + 1]   # the careful-opponent model (set_careful_opponents)
    cdef double careful_margin                # < 0: the other seats' root cards by their bandits

    def __cinit__(self, Determinizer det, int viewer, seed=0, double c=4.0, policy="heuristic",
                  int max_arms=2000000, reward="own", selection="ucb", double gamma=0.1):
        self.det = det
        if not 0 <= viewer < det.template.players:
            raise ValueError(f"viewer {viewer} is not a seat of {det.template.players}")
        self.viewer = viewer
        self.rng = <uint64_t>(int(seed) & SEED_MASK)
        self.c = c
        self.policy = policy_code(policy)
        if reward not in REWARDS:
            raise ValueError(f"unknown reward {reward!r} (own or relative)")
        self.relative = reward == "relative"
        if selection not in SELECTIONS:
            raise ValueError(f"unknown selection {selection!r} (ucb, rm or rm+)")
        self.rm = SELECTIONS.index(selection)     # 0 ucb, 1 rm, 2 rm+
        if not 0.0 < gamma <= 1.0:
            raise ValueError(f"gamma must be in (0, 1], got {gamma}")
        self.gamma = gamma
        if tree_init(&self.tree) < 0:
            raise MemoryError()
        self.iterations = 0
        self.max_arms = max_arms     # memory cap: past it, no new node below the root
        self.careful_margin = -1.0

    def set_careful_opponents(self, costs, double margin):
        """Model the other seats as careful players at the root: each plays, uniformly at
        random, one of the cards of its (determinized) hand whose cost (`costs`: {card: the
        bullheads it takes this turn, see `immediate_costs`}) is within `margin` of the
        cheapest; below the root they keep their bandits."""
        if not margin >= 0:
            raise ValueError(f"margin must be >= 0, got {margin}")
        for card in range(MAX_CARD + 1):
            self.opponent_cost[card] = costs.get(card, 0.0)
        self.careful_margin = margin

    def __dealloc__(self):
        tree_free(&self.tree)

    cdef int offered_arms(self, int node, int player, const int* options, int count,
                          int* ids) noexcept nogil:
        """The arms of `options` at `node` into ids (created if new), each counted as
        available once more. -1: no memory."""
        cdef int i
        for i in range(count):
            ids[i] = tree_arm(&self.tree, arm_key(node, player, options[i]))
            if ids[i] < 0:
                return -1
            self.tree.arms[ids[i]].avail += 1
        return 0

    cdef int select(self, int node, int player, const int* options, int count,
                    int* chosen_arm) noexcept nogil:
        """UCB1 with availability counts over `options` (cards, or ROW_ARM + r): the index
        chosen; the first unvisited option if any. -1: no memory."""
        cdef int i, a, best = -1, best_arm = -1
        cdef int ids[MAX_CARD]
        cdef double score, best_score = -1e300, n
        if self.offered_arms(node, player, options, count, ids) < 0:
            return -1
        for i in range(count):
            a = ids[i]
            if self.tree.arms[a].n == 0:
                chosen_arm[0] = a
                return i
            n = self.tree.arms[a].n
            score = -self.tree.arms[a].cost / n + self.c * sqrt(log(<double>self.tree.arms[a].avail) / n)
            if score > best_score:
                best_score = score
                best = i
                best_arm = a
        chosen_arm[0] = best_arm
        return best

    cdef int select_rm(self, int node, int player, const int* options, int count,
                       int* ids, double* prob, int* base) noexcept nogil:
        """Regret matching over `options`: the index sampled from (1 - gamma) sigma +
        gamma / count; ids[0..count-1] receive the arms, prob[0] the chosen one's
        probability, base[0] the arm holding the baseline. sigma is added to the arms'
        average strategy. -1: no memory."""
        cdef int i, a, chosen = -1
        cdef double positive = 0.0, sigma, p = 0.0, x, acc = 0.0
        base[0] = tree_arm(&self.tree, arm_key(node, player, BASE_ARM))
        if base[0] < 0 or self.offered_arms(node, player, options, count, ids) < 0:
            return -1
        for i in range(count):
            if self.tree.arms[ids[i]].regret > 0:
                positive += self.tree.arms[ids[i]].regret
        x = (splitmix64(&self.rng) >> 11) * (1.0 / 9007199254740992.0)
        for i in range(count):
            a = ids[i]
            if positive > 0:
                sigma = (self.tree.arms[a].regret / positive) if self.tree.arms[a].regret > 0 else 0.0
            else:
                sigma = 1.0 / count
            if self.rm == 2:     # regret matching+: linear averaging (weight t at the node)
                self.tree.arms[a].avg += sigma * (self.tree.arms[base[0]].n + 1)
            else:
                self.tree.arms[a].avg += sigma
            p = (1.0 - self.gamma) * sigma + self.gamma / count
            acc += p
            if chosen < 0 and x < acc:
                chosen = i
                prob[0] = p
        if chosen < 0:               # x beyond the rounded sum: the last card
            chosen = count - 1
            prob[0] = p
        return chosen

    cdef int careful_index(self, const int* options, int count) noexcept nogil:
        """Index of a card drawn uniformly among `options` costing at most the cheapest's
        cost plus careful_margin."""
        cdef int i, eligible = 0
        cdef double limit = self.opponent_cost[options[0]]
        for i in range(1, count):
            if self.opponent_cost[options[i]] < limit:
                limit = self.opponent_cost[options[i]]
        limit += self.careful_margin
        for i in range(count):
            if self.opponent_cost[options[i]] <= limit:
                eligible += 1
        eligible = random_below(&self.rng, eligible)
        for i in range(count):
            if self.opponent_cost[options[i]] <= limit:
                if eligible == 0:
                    return i
                eligible -= 1
        return 0

    cdef int iterate(self) noexcept nogil:
        cdef State s
        cdef int path_arm[MAX_PATH]
        cdef int path_player[MAX_PATH]
        cdef int path_ids[MAX_PATH][MAX_OPTIONS]   # regret matching: the arms available
        cdef int path_count[MAX_PATH]
        cdef int path_base[MAX_PATH]
        cdef double path_prob[MAX_PATH]
        cdef int cards[MAX_PLAYERS]
        cdef int choices[MAX_PLAYERS]
        cdef int options[HAND_SIZE]
        cdef int rows_opt[N_ROWS]
        cdef int depth = 0, node = 0, k, i, low, r, a, rownode, created
        cdef uint64_t h
        cdef double pen, total, cost, u, b
        cdef int j
        self.det.sample(&s, &self.rng)
        for r in range(N_ROWS):
            rows_opt[r] = ROW_ARM + r
        while s.hand_size > 0:
            if node != 0 and self.tree.arm_count >= self.max_arms:
                break                # the tree is full: a playout from here
            h = mix64((<uint64_t>node + 1) * <uint64_t>0x9E3779B97F4A7C15)
            for k in range(s.players):
                for i in range(s.hand_size):
                    options[i] = s.hands[k][i]
                if self.rm:
                    i = self.select_rm(node, k, options, s.hand_size, path_ids[depth],
                                       &path_prob[depth], &path_base[depth])
                    if i < 0:
                        return -1
                    path_count[depth] = s.hand_size
                    a = path_ids[depth][i]
                elif node == 0 and k != self.viewer and self.careful_margin >= 0:
                    i = self.careful_index(options, s.hand_size)
                    a = tree_arm(&self.tree, arm_key(node, k, options[i]))
                    if a < 0:
                        return -1
                    self.tree.arms[a].avail += 1
                else:
                    i = self.select(node, k, options, s.hand_size, &a)
                    if i < 0:
                        return -1
                path_arm[depth] = a
                path_player[depth] = k
                depth += 1
                cards[k] = state_take_card(&s, k, i)
                choices[k] = CHEAPEST
                h = mix64(h ^ <uint64_t>cards[k])
            low = 0
            for k in range(1, s.players):
                if cards[k] < cards[low]:
                    low = k
            r = -1
            if target_row(s.rows, cards[low]) < 0:
                rownode = tree_child(&self.tree, mix64(h ^ ROW_NODE_TAG), &created)
                if rownode < 0:
                    return -1
                if self.rm:
                    r = self.select_rm(rownode, low, rows_opt, N_ROWS, path_ids[depth],
                                       &path_prob[depth], &path_base[depth])
                    if r < 0:
                        return -1
                    path_count[depth] = N_ROWS
                    a = path_ids[depth][r]
                else:
                    r = self.select(rownode, low, rows_opt, N_ROWS, &a)
                    if r < 0:
                        return -1
                path_arm[depth] = a
                path_player[depth] = low
                depth += 1
                choices[low] = r
            state_apply(&s, cards, choices)
            node = tree_child(&self.tree, mix64(h + <uint64_t>(r + 2)), &created)
            if node < 0:
                return -1
            if created:
                break
        playout(&s, &self.rng, self.policy)
        total = 0.0
        for k in range(s.players):
            total += s.penalties[k] - self.det.template.penalties[k]
        for i in range(depth):
            k = path_player[i]
            a = path_arm[i]
            pen = s.penalties[k] - self.det.template.penalties[k]
            self.tree.arms[a].n += 1
            self.tree.arms[a].sum += pen
            self.tree.arms[a].sumsq += pen * pen
            if self.relative and s.players > 1:
                cost = pen - (total - pen) / (s.players - 1)
            else:
                cost = pen
            self.tree.arms[a].cost += cost
            if self.rm:
                u = -cost
                j = path_base[i]
                b = -self.tree.arms[j].cost / self.tree.arms[j].n if self.tree.arms[j].n > 0 else u
                self.tree.arms[a].regret += (u - b) / path_prob[i]
                for r in range(path_count[i]):
                    self.tree.arms[path_ids[i][r]].regret += b - u
                    if self.rm == 2 and self.tree.arms[path_ids[i][r]].regret < 0:
                        self.tree.arms[path_ids[i][r]].regret = 0     # regret matching+
                self.tree.arms[j].n += 1
                self.tree.arms[j].cost += cost
        return 0

    def run(self, long long iterations=0, double seconds=0.0):
        """Add `iterations` iterations (0: no limit), or stop after `seconds` (0: no limit).
        Returns the number of iterations done by this call."""
        if not (0 <= seconds < 1e300):      # nan or inf: a loop without nogil's way out
            raise ValueError(f"seconds must be a finite number of 0 or more, got {seconds}")
        if iterations <= 0 and seconds <= 0:
            raise ValueError("give iterations or seconds")
        cdef long long done = 0
        cdef double deadline = now() + seconds
        cdef int failed = 0
        with nogil:
            while iterations <= 0 or done < iterations:
                if self.iterate() < 0:
                    failed = 1
                    break
                done += 1
                if seconds > 0 and (done & 15) == 0 and now() >= deadline:
                    break
        self.iterations += done
        if failed:
            raise MemoryError("search tree: out of memory")
        return done

    def root_stats(self, player=None):
        """{card: (visits, sum of bullheads, sum of squares)} of `player`'s arms at the root
        (default: the viewer); for a hidden hand, every card it was dealt in some iteration."""
        return {card: (self.tree.arms[a].n, self.tree.arms[a].sum, self.tree.arms[a].sumsq)
                for card, a in self.root_arms(player).items()}

    def root_policy(self, player=None):
        """{card: sum over the iterations of its probability} of `player`'s root strategy
        (default: the viewer) under regret matching: normalized, the average strategy.
        Under UCB selection: the visits."""
        return {card: (self.tree.arms[a].avg if self.rm else <double>self.tree.arms[a].n)
                for card, a in self.root_arms(player).items()}

    cdef dict root_arms(self, player):
        """{card: arm index} of `player`'s root arms (default: the viewer)."""
        cdef int k = self.viewer if player is None else player
        cdef int card, a
        cdef long long slot
        arms = {}
        for card in range(1, MAX_CARD + 1):
            slot = table_slot(&self.tree.arm_ids, arm_key(0, k, card))
            a = self.tree.arm_ids.values[slot]
            if a >= 0:
                arms[card] = a
        return arms

    @property
    def selection(self):
        return SELECTIONS[self.rm]

    @property
    def node_count(self):
        return self.tree.node_count

    @property
    def memory_bytes(self):
        return (self.tree.arm_cap * sizeof(Arm) + (self.tree.arm_ids.mask + 1) * 12
                + (self.tree.nodes.mask + 1) * 12)


# the row choice of a too-low card -------------------------------------------------------------
def row_values(Determinizer det, cards, int chooser, long long iterations, seed=0,
               policy="heuristic"):
    """Bullheads `chooser` takes from this turn to the end of the round for each row it may
    take with its too-low card: (visits, sums, sums of squares), one entry per row.

    `det` holds the rows before the turn and the hands after it (each seat's card of the turn
    removed; the chooser's known, the hidden hands dealt from the unseen pool); `cards` are
    the turn's cards by seat. Every row is tried on the same determinizations and the same
    playout random numbers (common random numbers: the differences are measured precisely).
    """
    cdef State s0, s
    cdef int played[MAX_PLAYERS]
    cdef int choices[MAX_PLAYERS]
    cdef int k, r, code = policy_code(policy), players = det.template.players
    cdef long long i
    cdef uint64_t rng = <uint64_t>(int(seed) & SEED_MASK), playout_rng, rng_copy
    cdef double pen
    sums = np.zeros(N_ROWS)
    squares = np.zeros(N_ROWS)
    cdef double[:] sm = sums
    cdef double[:] sq = squares
    if len(cards) != players or not 0 <= chooser < players:
        raise ValueError("one card per seat and a chooser seat needed")
    for k in range(players):
        played[k] = cards[k]
        choices[k] = CHEAPEST
    with nogil:
        for i in range(iterations):
            det.sample(&s0, &rng)
            playout_rng = splitmix64(&rng)
            for r in range(N_ROWS):
                state_copy(&s, &s0)
                choices[chooser] = r
                resolve_turn(s.rows, played, choices, players, s.penalties)
                rng_copy = playout_rng
                playout(&s, &rng_copy, code)
                pen = s.penalties[chooser] - s0.penalties[chooser]
                sm[r] += pen
                sq[r] += pen * pen
    return [(iterations, sums[r], squares[r]) for r in range(N_ROWS)]


# the careful-opponent model ------------------------------------------------------------------
cdef struct CostCard:
    int card
    int alone          # what it takes when no drawn card is below it
    int row            # its row (-1: too low)
    int end            # that row's end (0 when too low)
    int lowest         # the lowest row end


cdef void cost_card(const Row* start, int card, CostCard* cc) noexcept nogil:
    cdef Row table[N_ROWS]
    cdef int choices[1]
    cdef int taken[1]
    cdef int k
    choices[0] = CHEAPEST
    taken[0] = 0
    memcpy(table, start, N_ROWS * sizeof(Row))
    resolve_turn(table, &card, choices, 1, taken)
    cc.card = card
    cc.alone = taken[0]
    cc.row = target_row(start, card)
    cc.lowest = row_end(&start[0])
    for k in range(1, N_ROWS):
        cc.lowest = min(cc.lowest, row_end(&start[k]))
    cc.end = row_end(&start[cc.row]) if cc.row >= 0 else 0


cdef int drawn_cost(const Row* start, const CostCard* cc, const int* drawn,
                    int opponents) noexcept nogil:
    """What the card takes this turn on the rows `start` against the others' cards
    drawn[0..opponents-1], a too-low card taking the cheapest row. Only the drawn cards
    below the card can change what it takes (the higher ones are placed after it). When
    neither the card nor any of those is too low, the ones below its row's end go to other
    rows, and the ones above it (the gap) onto its row, in ascending order: only that row is
    followed. Otherwise the turn is resolved."""
    cdef Row table[N_ROWS]
    cdef int played[MAX_PLAYERS]
    cdef int choices[MAX_PLAYERS]
    cdef int taken[MAX_PLAYERS]
    cdef int gap[MAX_PLAYERS]
    cdef int k, j, low = 0, in_gap = 0, x, length, bulls
    cdef bint fast = cc.row >= 0
    for k in range(opponents):
        x = drawn[k]
        if x < cc.card:
            played[low] = x
            low += 1
            if x < cc.lowest:
                fast = 0
            elif x > cc.end:
                j = in_gap                  # insertion: the gap ascending
                while j > 0 and gap[j - 1] > x:
                    gap[j] = gap[j - 1]
                    j -= 1
                gap[j] = x
                in_gap += 1
    if low == 0:
        return cc.alone
    if fast:
        length = start[cc.row].length
        bulls = start[cc.row].bulls
        for j in range(in_gap):
            if length == ROW_LIMIT:         # the 6th card takes the row
                length = 1
                bulls = bullheads(gap[j])
            else:
                length += 1
                bulls += bullheads(gap[j])
        return bulls if length == ROW_LIMIT else 0
    played[low] = cc.card
    for k in range(low + 1):
        taken[k] = 0
        choices[k] = CHEAPEST
    memcpy(table, start, N_ROWS * sizeof(Row))
    resolve_turn(table, played, choices, low + 1, taken)
    return taken[low]


cdef double mean_cost(const Row* start, int card, int* pool, int n, int opponents,
                      int samples, uint64_t* rng) noexcept nogil:
    """`card`'s mean bullheads this turn on the rows `start` against `opponents` cards drawn
    `samples` times from pool[0..n-1] (reordered in place), a too-low card taking the
    cheapest row."""
    cdef CostCard cc
    cdef int t
    cdef double total = 0.0
    cost_card(start, card, &cc)
    for t in range(samples):
        shuffle_prefix(pool, n, opponents, rng)
        total += drawn_cost(start, &cc, pool, opponents)
    return total / samples


def immediate_costs(rows, cards, others, int opponents, int samples, seed=0):
    """{card: mean bullheads it takes this turn} for each of `cards`, played against
    `opponents` cards drawn at random (distinct, never the card itself) from `others`, each
    draw resolved by the rules (a too-low card takes the cheapest row): what `sampler`
    measures, for every card a hidden hand may hold. Deterministic for a seed."""
    cdef Row start[N_ROWS]
    cdef int pool[MAX_CARD]
    cdef int n, card
    cdef uint64_t rng = <uint64_t>(int(seed) & SEED_MASK)
    if not 1 <= opponents < MAX_PLAYERS or samples < 1:
        raise ValueError(f"1..{MAX_PLAYERS - 1} opponents and 1+ samples needed")
    if len(others) > MAX_CARD:          # they are copied into `pool`, MAX_CARD long
        raise ValueError(f"at most {MAX_CARD} other cards, got {len(others)}")
    load_rows(start, rows)
    costs = {}
    for card in cards:
        n = 0
        for other in others:
            if other != card:
                pool[n] = other
                n += 1
        if n < opponents:
            raise ValueError(f"{opponents} opponents need {opponents} other cards, got {n}")
        costs[card] = mean_cost(start, card, pool, n, opponents, samples, &rng)
    return costs


cdef extern from *:
    int lowest_bit64 "__builtin_ctzll" (unsigned long long) nogil      # undefined for 0


cdef void add_drawn_costs(const Row* start, const int* slot_of, const uint64_t* hand_bits,
                          int count, const int* drawn, int opponents,
                          double* totals) noexcept nogil:
    """totals[slot_of[card]] += what each of the `count` hand cards (the set bits of
    hand_bits[0..1]: cards below 128) takes this turn against the others' cards
    drawn[0..opponents-1], as drawn_cost measures it, in one pass for all of them: a card's
    take depends only on the drawn cards below it, placed in ascending order before it, so
    the drawn and the hand cards are walked once in ascending order on a bitmap of both, the
    drawn ones placed and each hand card looked at on the rows as they lie (not placed)."""
    cdef Row table[N_ROWS]
    cdef uint64_t bits[2]
    cdef uint64_t word
    cdef int i, w, card, r, left = count
    bits[0] = hand_bits[0]
    bits[1] = hand_bits[1]
    for i in range(opponents):
        bits[drawn[i] >> 6] |= (<uint64_t>1) << (drawn[i] & 63)
    memcpy(table, start, N_ROWS * sizeof(Row))
    for w in range(2):
        word = bits[w]
        while word:
            card = (w << 6) | lowest_bit64(word)
            word &= word - 1
            r = target_row(table, card)
            if (hand_bits[w] >> (card & 63)) & 1:
                if r < 0:
                    totals[slot_of[card]] += table[cheapest_row(table)].bulls
                elif table[r].length == ROW_LIMIT:
                    totals[slot_of[card]] += table[r].bulls
                left -= 1
                if left == 0:
                    return
            elif r < 0:
                take_row(table, cheapest_row(table), card)
            else:
                place_on(table, r, card)


cdef void batch_costs(const signed char[:, :, ::1] rows, const signed char[:, ::1] hands,
                      const unsigned char[:, ::1] unseen, const signed char[::1] players,
                      int samples, float[:, ::1] out) noexcept nogil:
    """Each hand card's mean bullheads this turn against the others' cards drawn from the
    view's unseen cards (`immediate_costs`' measure), into out[b, slot]. The cards of a
    view share their draws (seed 0 each view): one draw a sample serves them all."""
    cdef Row start[N_ROWS]
    cdef int slot_of[MAX_CARD + 1]
    cdef uint64_t hand_bits[2]
    cdef double totals[HAND_SIZE]
    cdef int pool[MAX_CARD + 1]
    cdef int b, slot, n, opponents, k, card, count, t
    cdef uint64_t rng
    for b in range(hands.shape[0]):
        opponents = players[b] - 1
        n = 0
        for card in range(1, unseen.shape[1]):
            if unseen[b, card] and n <= MAX_CARD:
                n += 1
        if hands[b, 0] <= 0 or n < opponents + 1 or not 1 <= opponents < MAX_PLAYERS:
            continue
        rows_from_cells(start, &rows[b, 0, 0])
        count = 0
        hand_bits[0] = 0
        hand_bits[1] = 0
        for slot in range(hands.shape[1]):
            card = hands[b, slot]
            if card <= 0:
                break
            if not hand_bits[card >> 6] >> (card & 63) & 1:   # a card twice counts once
                count += 1
            hand_bits[card >> 6] |= (<uint64_t>1) << (card & 63)
            slot_of[card] = slot
            totals[slot] = 0.0
        n = 0                               # the unseen cards but the hand's, ascending
        for k in range(1, unseen.shape[1]):
            if unseen[b, k] and not (hand_bits[k >> 6] >> (k & 63)) & 1:
                pool[n] = k
                n += 1
        if n < opponents:
            continue
        rng = 0
        for t in range(samples):
            shuffle_prefix(pool, n, opponents, &rng)
            add_drawn_costs(start, slot_of, hand_bits, count, pool, opponents, totals)
        for slot in range(hands.shape[1]):
            card = hands[b, slot]
            if card <= 0:
                break
            out[b, slot] = <float>(totals[slot_of[card]] / samples)


def sampled_costs(rows, hands, unseen, players, int samples):
    """[B, 10] float32: for a batch of views (rows [B, 4, 5], hands [B, 10] ascending then 0,
    unseen [B, 105] bool, seat counts [B], all int8 but unseen), each hand card's mean
    bullheads this turn against `samples` draws of the others' cards from the view's unseen
    cards, as `immediate_costs` measures it, in one call without Python objects in the loop;
    the cards of a view share the draws (seed 0 a view). Views without enough unseen cards
    stay 0."""
    cdef const signed char[:, :, ::1] r = np.ascontiguousarray(rows, dtype=np.int8)
    cdef const signed char[:, ::1] h = np.ascontiguousarray(hands, dtype=np.int8)
    cdef const unsigned char[:, ::1] u = np.ascontiguousarray(unseen, dtype=np.uint8)
    cdef const signed char[::1] p = np.ascontiguousarray(players, dtype=np.int8)
    if samples < 1:
        raise ValueError("1+ samples needed")
    if not (r.shape[0] == h.shape[0] == u.shape[0] == p.shape[0]) or r.shape[1] != N_ROWS \
            or r.shape[2] != ROW_LIMIT or h.shape[1] > HAND_SIZE or u.shape[1] > MAX_CARD + 1:
        raise ValueError("rows [B, 4, 5], hands [B, <=10], unseen [B, <=105], players [B]")
    result = np.zeros((h.shape[0], h.shape[1]), dtype=np.float32)
    cdef float[:, ::1] out = result
    with nogil:
        batch_costs(r, h, u, p, samples, out)
    return result
