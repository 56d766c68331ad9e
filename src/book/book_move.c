/* book_move.c - book moves' mirror, the book's random generator and the sorted-record search (see book_move.h). */
#include "book_move.h"

#include "base/bytes.h"

/* The next number of a splitmix64 generator. */
uint64_t book_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The left-right mirror of a move. */
Move book_mirror_move(Move m) { return move_make(sq_mirror(move_from(m)), sq_mirror(move_to(m))); }

/* The key of record i. */
static uint64_t record_key(const uint8_t *records, size_t i, size_t record_bytes, int key_bytes)
{
    return le_get(records + i * record_bytes, key_bytes);
}

/* Binary search for the first record with a key >= key. */
size_t book_records_lower_bound(const uint8_t *records, size_t count, size_t record_bytes, int key_bytes, uint64_t key)
{
    size_t lo = 0, hi = count; /* the first record with a key >= key lies in [lo, hi] */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (record_key(records, mid, record_bytes, key_bytes) < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The first descent of the keys, or 0. */
size_t book_records_unsorted_at(const uint8_t *records, size_t count, size_t record_bytes, int key_bytes)
{
    for (size_t i = 1; i < count; i++)
        if (record_key(records, i, record_bytes, key_bytes) < record_key(records, i - 1, record_bytes, key_bytes))
            return i;
    return 0;
}
