/*
 * tt.h - the transposition table: buckets of entries, depth/age
 * replacement, mate scores stored relative to the node, size in MB.
 *
 * Concurrency: every search thread reads and writes the table without locks.
 * A slot is two 64-bit words written and read as relaxed atomics: the packed
 * entry (data) and key ^ data (check). A probe accepts a slot only when
 * check ^ data gives back its key, so an entry torn by two threads writing
 * at once reads as a miss, never as a mix of two entries. A hit can still be
 * a (rare) key collision: every user validates the move (move_is_pseudo_legal
 * + legality). The generation changes only between searches (tt_new_search,
 * called by search_shared_init), resizing and clearing only while no search
 * runs.
 */
#ifndef XQ_TT_H
#define XQ_TT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "base/types.h"

/* One entry as tt_probe hands it out (unpacked from its slot). */
typedef struct TTEntry {
    Move move;
    int16_t score;
    int16_t eval;
    uint8_t depth;
    uint8_t gen_bound; /* generation << 2 | bound */
} TTEntry;

/* A stored entry: data packs a TTEntry (tt.c), check is key ^ data (0 and 0 = empty). */
typedef struct TTSlot {
    _Atomic uint64_t check;
    _Atomic uint64_t data;
} TTSlot;

/* Bound of a stored (or reported) score; BOUND_NONE keeps only the move. */
enum { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

enum { TT_BUCKET = 4, TT_DEFAULT_MB = 16, TT_MAX_MB = 65536, TT_LINE = 64 };

/* One bucket fills one 64-byte cache line, so a probe touches a single line. */
typedef struct TTBucket {
    TTSlot slot[TT_BUCKET];
} TTBucket;

typedef struct TT {
    TTBucket *table;    /* cache-line aligned buckets */
    void *raw;          /* the allocation table points into */
    size_t buckets;     /* a power of two */
    uint8_t generation;
    size_t mb;          /* size in use: the asked size rounded down to a power of two */
} TT;

/* Allocates mb megabytes (rounded down to a power of two of buckets); false if impossible (tt unchanged). */
bool tt_resize(TT *tt, size_t mb);
/* Frees the table. */
void tt_free(TT *tt);
/* Zeroes every entry. */
void tt_clear(TT *tt);
/* Advances the generation (once per search, before any thread searches: search_shared_init does it). */
void tt_new_search(TT *tt);
/* Starts loading key's bucket into the cache (a hint; no effect on results). */
void tt_prefetch(const TT *tt, uint64_t key);
/* Looks up key; on a hit copies the entry (score adjusted to ply) and returns true. */
bool tt_probe(const TT *tt, uint64_t key, int ply, TTEntry *out);
/* Stores a result for key (score given relative to the root at ply). */
void tt_store(TT *tt, uint64_t key, int ply, Move move, int score, int eval, int depth, int bound);
/* Per-mille fill estimate from the first 1000 entries of this generation. */
int tt_hashfull(const TT *tt);

#endif
