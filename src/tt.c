/* tt.c - bucketed transposition table with depth/age replacement. */
#include "tt.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "score.h"

_Static_assert(sizeof(TTBucket) == TT_LINE, "a bucket must fill exactly one cache line");

enum { GEN_SHIFT = 2, BOUND_MASK = 3, GEN_STEP = 1 << GEN_SHIFT, MB = 1 << 20, HASHFULL_SAMPLE = 1000 };

/* Allocates the table; on failure keeps the old one and returns false. */
bool tt_resize(TT *tt, size_t mb)
{
    if (mb == 0 || mb > TT_MAX_MB)
        return false;
    size_t bytes = mb * (size_t)MB, buckets = 1;
    while (buckets * 2 * sizeof(TTBucket) <= bytes)
        buckets *= 2;
    void *raw = calloc(buckets * sizeof(TTBucket) + TT_LINE, 1); /* aligned by hand: MinGW has no aligned_alloc */
    if (!raw)
        return false;
    free(tt->raw);
    tt->raw = raw;
    tt->table = (TTBucket *)(((uintptr_t)raw + TT_LINE - 1) & ~(uintptr_t)(TT_LINE - 1));
    tt->buckets = buckets;
    tt->generation = GEN_STEP;
    tt->mb = buckets * sizeof(TTBucket) / MB; /* what the table really uses (a power of two) */
    return true;
}

/* Frees the table. */
void tt_free(TT *tt)
{
    free(tt->raw);
    tt->raw = NULL;
    tt->table = NULL;
    tt->buckets = 0;
}

/* Zeroes every entry. */
void tt_clear(TT *tt)
{
    if (tt->table)
        memset(tt->table, 0, tt->buckets * sizeof(TTBucket));
    tt->generation = GEN_STEP;
}

/* Advances the generation so older entries are replaced first. */
void tt_new_search(TT *tt)
{
    tt->generation = (uint8_t)(tt->generation + GEN_STEP);
    if (!tt->generation) /* generation 0 is reserved: gen_bound 0 marks an empty entry */
        tt->generation = GEN_STEP;
}

/* Converts a root-relative mate score to node-relative for storage. */
static int score_to_tt(int score, int ply)
{
    if (score >= SCORE_MATE_MIN)
        return score + ply;
    if (score <= -SCORE_MATE_MIN)
        return score - ply;
    return score;
}

/* Converts a stored node-relative mate score back to root-relative. A mate too far from the root for
 * the band (node distance + ply > MAX_PLY) is clamped to the band's edge, never left between the mate
 * and the ban bands. */
static int score_from_tt(int score, int ply)
{
    if (score >= SCORE_MATE_MIN)
        return score - ply >= SCORE_MATE_MIN ? score - ply : SCORE_MATE_MIN;
    if (score <= -SCORE_MATE_MIN)
        return score + ply <= -SCORE_MATE_MIN ? score + ply : -SCORE_MATE_MIN;
    return score;
}

/* First entry of key's bucket. */
static TTEntry *bucket_of(const TT *tt, uint64_t key) { return tt->table[key & (tt->buckets - 1)].entry; }

/* Asks the CPU to start loading key's bucket. */
void tt_prefetch(const TT *tt, uint64_t key)
{
#if defined(__GNUC__)
    if (tt->table)
        __builtin_prefetch(bucket_of(tt, key));
#else
    (void)tt;
    (void)key;
#endif
}

/* Looks up a position. */
bool tt_probe(const TT *tt, uint64_t key, int ply, TTEntry *out)
{
    if (!tt->table)
        return false;
    const TTEntry *e = bucket_of(tt, key);
    const uint32_t k = (uint32_t)(key >> 32);
    for (int i = 0; i < TT_BUCKET; i++) {
        if (e[i].key32 == k && e[i].gen_bound) {
            *out = e[i];
            out->score = (int16_t)score_from_tt(e[i].score, ply);
            return true;
        }
    }
    return false;
}

/* Stores a search result; repetition-ban scores are kept as a move hint only. */
void tt_store(TT *tt, uint64_t key, int ply, Move move, int score, int eval, int depth, int bound)
{
    if (!tt->table)
        return;
    TTEntry *e = bucket_of(tt, key), *victim = e;
    const uint32_t k = (uint32_t)(key >> 32);
    int worst = 1 << 30;
    for (int i = 0; i < TT_BUCKET; i++) {
        if (e[i].key32 == k || !e[i].gen_bound) {
            victim = &e[i];
            break;
        }
        int age = (uint8_t)(tt->generation - (e[i].gen_bound & ~BOUND_MASK)) / GEN_STEP;
        int worth = e[i].depth - 8 * age;
        if (worth < worst) {
            worst = worth;
            victim = &e[i];
        }
    }
    if (victim->key32 == k && move == MOVE_NONE)
        move = victim->move; /* keep the old best move */
    if (victim->key32 == k && bound != BOUND_EXACT && depth + 2 < victim->depth
        && (victim->gen_bound & ~BOUND_MASK) == tt->generation)
        return; /* a much deeper result of this search is worth more */
    if (score_is_ban(score) || score == SCORE_NONE) {
        bound = 0; /* path-dependent: never reuse the value */
        score = 0;
    }
    victim->key32 = k;
    victim->move = move;
    victim->score = (int16_t)score_to_tt(score, ply);
    victim->eval = (int16_t)eval;
    victim->depth = (uint8_t)(depth < 0 ? 0 : depth);
    victim->gen_bound = (uint8_t)(tt->generation | bound);
}

/* Fill estimate: used entries of the current generation among the first 1000. */
int tt_hashfull(const TT *tt)
{
    if (!tt->table)
        return 0;
    size_t n = tt->buckets * TT_BUCKET < HASHFULL_SAMPLE ? tt->buckets * TT_BUCKET : HASHFULL_SAMPLE;
    int used = 0;
    for (size_t i = 0; i < n; i++) {
        const TTEntry *e = &tt->table[i / TT_BUCKET].entry[i % TT_BUCKET];
        used += e->gen_bound && (e->gen_bound & ~BOUND_MASK) == tt->generation;
    }
    return (int)(used * 1000 / (n ? n : 1));
}
