# The memory of the ISMCTS search tree (sim.pyx's Search): its nodes, its arms and the hash
# tables that find them. One struct owns it all; tree_init and tree_free are its one
# allocation and its one free path.
#
# Invariants:
# - A node is an id (0 = the root, then in order of creation); a child's id is found by a
#   64-bit key (see sim.pyx: a hash of the parent, the turn's cards and the row taken).
# - An arm is the statistics of one player's option (a card, or ROW_ARM + r) at one node:
#   an index into `arms`, found by arm_key(node, player, option). An arm is created zeroed.
# - Hash tables are open addressing with linear probing, a power-of-two size, at most half
#   full (they double before that); value -1 = empty slot. Nothing is ever removed.
# - On no memory a function returns -1 and the tree stays valid (arms and tables unchanged,
#   or grown whole): the caller stops, nothing leaks, tree_free frees everything.

from libc.stdint cimport uint64_t
from libc.stdlib cimport malloc, realloc, free

cdef struct Table:
    uint64_t* keys
    int* values          # -1: empty slot
    uint64_t mask        # size - 1
    long long count

cdef struct Arm:         # 48 bytes
    int n                # visits
    int avail            # iterations in which the option was available
    double sum           # bullheads of the player, summed over the visits
    double sumsq         # ... of their squares
    double cost          # what selection minimizes (own bullheads, or relative)
    double regret        # regret matching: cumulative regret
    double avg           # regret matching: sum of the arm's probability in sigma

cdef struct Tree:
    Table nodes          # node key -> node id
    Table arm_ids        # arm key -> index in arms
    Arm* arms
    int arm_count
    int arm_cap
    int node_count


cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    """A bijective 64-bit finalizer (SplitMix64's)."""
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline uint64_t arm_key(int node, int player, int option) noexcept nogil:
    return mix64(((<uint64_t>node) << 16) | (<uint64_t>player << 8) | <uint64_t>option)


cdef inline int table_init(Table* t, int log2) noexcept nogil:
    cdef uint64_t size = (<uint64_t>1) << log2, i
    t.keys = <uint64_t*>malloc(size * sizeof(uint64_t))
    t.values = <int*>malloc(size * sizeof(int))
    if t.keys == NULL or t.values == NULL:
        table_free(t)
        return -1
    for i in range(size):
        t.values[i] = -1
    t.mask = size - 1
    t.count = 0
    return 0


cdef inline void table_free(Table* t) noexcept nogil:
    free(t.keys)
    free(t.values)
    t.keys = NULL
    t.values = NULL


cdef inline long long table_slot(const Table* t, uint64_t key) noexcept nogil:
    cdef uint64_t i = key & t.mask
    while t.values[i] >= 0 and t.keys[i] != key:
        i = (i + 1) & t.mask
    return i


cdef inline int table_grow(Table* t) noexcept nogil:
    cdef Table bigger
    cdef uint64_t i, size = t.mask + 1
    cdef long long slot
    cdef int log2 = 0
    while ((<uint64_t>1) << log2) < 2 * size:
        log2 += 1
    if table_init(&bigger, log2) < 0:
        return -1
    for i in range(size):
        if t.values[i] >= 0:
            slot = table_slot(&bigger, t.keys[i])
            bigger.keys[slot] = t.keys[i]
            bigger.values[slot] = t.values[i]
    bigger.count = t.count
    table_free(t)
    t[0] = bigger
    return 0


cdef inline int table_insert(Table* t, uint64_t key, int value, long long* slot) noexcept nogil:
    """Set key -> value at slot[0], the key's empty slot (table_slot), growing the table
    first if it would be more than half full. -1: no memory (nothing changed)."""
    if 2 * (t.count + 1) > <long long>(t.mask + 1):
        if table_grow(t) < 0:
            return -1
        slot[0] = table_slot(t, key)
    t.keys[slot[0]] = key
    t.values[slot[0]] = value
    t.count += 1
    return 0


cdef inline int tree_init(Tree* tree) noexcept nogil:
    """An empty tree: the root alone, no arm. -1: no memory (tree_free still frees it)."""
    tree.arm_cap = 1 << 12
    tree.arm_count = 0
    tree.node_count = 1
    tree.arms = <Arm*>malloc(tree.arm_cap * sizeof(Arm))
    tree.nodes.keys = tree.arm_ids.keys = NULL
    tree.nodes.values = tree.arm_ids.values = NULL
    if (tree.arms == NULL or table_init(&tree.nodes, 12) < 0
            or table_init(&tree.arm_ids, 13) < 0):
        return -1
    return 0


cdef inline void tree_free(Tree* tree) noexcept nogil:
    table_free(&tree.nodes)
    table_free(&tree.arm_ids)
    free(tree.arms)
    tree.arms = NULL


cdef inline int tree_arm(Tree* tree, uint64_t key) noexcept nogil:
    """The arm of `key` (arm_key), created if new; -1: no memory."""
    cdef long long slot = table_slot(&tree.arm_ids, key)
    cdef int a = tree.arm_ids.values[slot]
    cdef Arm* grown
    if a >= 0:
        return a
    if tree.arm_count == tree.arm_cap:
        grown = <Arm*>realloc(tree.arms, 2 * tree.arm_cap * sizeof(Arm))
        if grown == NULL:
            return -1
        tree.arms = grown
        tree.arm_cap *= 2
    a = tree.arm_count
    if table_insert(&tree.arm_ids, key, a, &slot) < 0:
        return -1
    tree.arm_count += 1
    tree.arms[a].n = 0
    tree.arms[a].avail = 0
    tree.arms[a].sum = 0.0
    tree.arms[a].sumsq = 0.0
    tree.arms[a].cost = 0.0
    tree.arms[a].regret = 0.0
    tree.arms[a].avg = 0.0
    return a


cdef inline int tree_child(Tree* tree, uint64_t key, int* created) noexcept nogil:
    """The node of `key`, created if new (created[0] = 1 then); -1: no memory."""
    cdef long long slot = table_slot(&tree.nodes, key)
    cdef int v = tree.nodes.values[slot]
    created[0] = 0
    if v >= 0:
        return v
    v = tree.node_count
    if table_insert(&tree.nodes, key, v, &slot) < 0:
        return -1
    tree.node_count += 1
    created[0] = 1
    return v
