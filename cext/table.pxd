# The transposition table: proven bounds of searched nodes, shared by the search's threads.
#
# Invariants:
# - The table is buckets of 2 entries; the number of buckets is a power of two, and a key's
#   bucket is key_hash(key) & buckets_mask.
# - key 0 = empty slot (no key is 0, see key.pxd); memory comes zeroed (memory.pxd).
# - Slot 0 of a bucket keeps the entry of the most cards (the most work saved), slot 1 takes
#   whatever else comes.
# - lower <= value <= upper, for the canonical orientation of the key: a swapped state reads
#   -upper <= value <= -lower, and its players' cards_in swapped.
# - check = a hash of all the other fields. Threads write entries without locks; a reader
#   copies the entry and a torn copy (two writes mixed) fails the check: it reads as a miss.

from libc.stdint cimport uint16_t, uint32_t, uint64_t, int8_t
from libc.string cimport memcpy
from key cimport u128, key_hash

cdef struct TTEntry:
    u128 key           # canonical key; 0 = empty slot
    double lower       # proven bounds of the value, for the canonical orientation
    double upper
    uint16_t cards_in[2]  # each player's cards (indices in the sorted hand) in the support
                          # of the last restricted game: where a new search of the node starts
    int8_t cards       # cards per hand: the work this entry saves
    uint64_t check     # hash of all the fields: a torn entry (threads writing at once) fails it

cdef packed struct SavedEntry:   # an entry as a file keeps it (export_entries, search.pyx)
    uint64_t key_low
    uint64_t key_high
    double lower
    double upper
    uint16_t rows_in
    uint16_t cols_in
    int8_t cards

cdef struct Table:
    TTEntry* entries   # 2 * (buckets_mask + 1) entries, from memory.pxd
    uint64_t buckets_mask


cdef inline uint64_t entry_check(const TTEntry* e) noexcept nogil:
    cdef uint64_t lower_bits, upper_bits
    memcpy(&lower_bits, &e.lower, 8)
    memcpy(&upper_bits, &e.upper, 8)
    cdef uint64_t h = key_hash(e.key) ^ lower_bits * 0xD6E8FEB86659FD93ULL
    h ^= upper_bits * 0xA0761D6478BD642FULL
    h ^= <uint64_t>e.cards_in[0] << 24 | <uint64_t>e.cards_in[1] << 8 | <uint64_t>e.cards
    h ^= h >> 32
    h *= 0xE7037ED1A0B428DBULL
    return h ^ (h >> 29)


cdef inline bint tt_find(const Table* t, u128 key, TTEntry* found) noexcept nogil:
    """Copy the entry of `key` into found. The copy is checked whole, since another thread
    may be writing the slot while we read it."""
    cdef const TTEntry* bucket = t.entries + 2 * (key_hash(key) & t.buckets_mask)
    cdef int slot
    for slot in range(2):
        found[0] = bucket[slot]
        if found.key == key and found.check == entry_check(found):
            return True
    return False


cdef inline void tt_store(Table* t, u128 key, double lower, double upper,
                          uint32_t rows_in, uint32_t cols_in, int cards) noexcept nogil:
    """Two slots per bucket: slot 0 keeps the deeper entry, slot 1 always takes the new."""
    cdef TTEntry* bucket = t.entries + 2 * (key_hash(key) & t.buckets_mask)
    cdef TTEntry entry
    entry.key = key
    entry.lower = lower
    entry.upper = upper
    entry.cards_in[0] = <uint16_t>rows_in
    entry.cards_in[1] = <uint16_t>cols_in
    entry.cards = cards
    entry.check = entry_check(&entry)
    if bucket[0].key == key:
        bucket[0] = entry
    elif bucket[1].key == key:
        bucket[1] = entry
    elif bucket[0].key == 0 or cards >= bucket[0].cards:
        bucket[1] = bucket[0]
        bucket[0] = entry
    else:
        bucket[1] = entry
