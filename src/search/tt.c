/* tt.c - bucketed, lock-free transposition table with depth/age replacement (see tt.h). */
#include "tt.h"

#include <stdint.h>
#include <string.h>

#include "base/platform.h"
#include "eval/score.h"

_Static_assert(sizeof(TTBucket) == TT_LINE, "a bucket must fill exactly one cache line");
_Static_assert(PLATFORM_TABLE_ALIGN % TT_LINE == 0, "tables must start on a cache line");

enum { GEN_SHIFT = 2, BOUND_MASK = 3, GEN_STEP = 1 << GEN_SHIFT, MB = 1 << 20, HASHFULL_SAMPLE = 1000 };

/* Bit positions of the fields packed into a slot's data word. */
enum { SHIFT_SCORE = 16, SHIFT_EVAL = 32, SHIFT_DEPTH = 48, SHIFT_GEN_BOUND = 56 };

/* Allocates the table; on failure keeps the old one and returns false. */
bool tt_resize(TT *tt, size_t mb)
{
    /* a size_t of 32 bits (wasm32) holds no table of 2 GiB or more: mb * MB would wrap around */
    if (mb == 0 || mb > TT_MAX_MB || mb > SIZE_MAX / 2 / MB)
        return false;
    size_t bytes = mb * (size_t)MB, buckets = 1;
    while (buckets <= bytes / (2 * sizeof(TTBucket)))
        buckets *= 2;
    /* a large table on huge pages spares the search a TLB miss on nearly every probe */
    const size_t table_bytes = buckets * sizeof(TTBucket);
    void *raw, *table = platform_table_alloc(table_bytes, &raw);
    if (!table)
        return false;
    platform_table_free(tt->raw, tt->buckets * sizeof(TTBucket));
    tt->raw = raw;
    tt->table = table;
    tt->buckets = buckets;
    tt->generation = GEN_STEP;
    tt->mb = buckets * sizeof(TTBucket) / MB; /* what the table really uses (a power of two) */
    return true;
}

/* Frees the table. */
void tt_free(TT *tt)
{
    platform_table_free(tt->raw, tt->buckets * sizeof(TTBucket));
    tt->raw = NULL;
    tt->table = NULL;
    tt->buckets = 0;
}

/* Zeroes every entry. */
void tt_clear(TT *tt)
{
    if (tt->table)
        platform_table_zero(tt->table, tt->buckets * sizeof(TTBucket));
    tt->generation = GEN_STEP;
}

/* Advances the generation so older entries are replaced first. */
void tt_new_search(TT *tt)
{
    tt->generation = (uint8_t)(tt->generation + GEN_STEP);
    if (!tt->generation) /* generation 0 is reserved: gen_bound 0 marks an empty entry */
        tt->generation = GEN_STEP;
}

/* Converts a root-relative mate or tablebase score to node-relative for storage. */
static int score_to_tt(int score, int ply)
{
    if (score >= SCORE_MATE_MIN)
        return score + ply;
    if (score <= -SCORE_MATE_MIN)
        return score - ply;
    if (score_is_tb(score))
        return score > 0 ? score + ply : score - ply;
    return score;
}

/* Converts a stored node-relative mate or tablebase score back to root-relative. A mate too far from the root for
 * the band (node distance + ply > MAX_PLY) is clamped to the band's edge, never left between the mate
 * and the ban bands. */
static int score_from_tt(int score, int ply)
{
    if (score >= SCORE_MATE_MIN)
        return score - ply >= SCORE_MATE_MIN ? score - ply : SCORE_MATE_MIN;
    if (score <= -SCORE_MATE_MIN)
        return score + ply <= -SCORE_MATE_MIN ? score + ply : -SCORE_MATE_MIN;
    if (score_is_tb(score) && score > 0)
        return score - ply >= SCORE_TB_WIN_MIN ? score - ply : SCORE_TB_WIN_MIN;
    if (score_is_tb(score))
        return score + ply <= -SCORE_TB_WIN_MIN ? score + ply : -SCORE_TB_WIN_MIN;
    return score;
}

/* Packs an entry into a slot's data word. */
static uint64_t pack(const TTEntry *e)
{
    return (uint64_t)e->move | (uint64_t)(uint16_t)e->score << SHIFT_SCORE | (uint64_t)(uint16_t)e->eval << SHIFT_EVAL
         | (uint64_t)e->depth << SHIFT_DEPTH | (uint64_t)e->gen_bound << SHIFT_GEN_BOUND;
}

/* Unpacks a slot's data word. */
static TTEntry unpack(uint64_t d)
{
    TTEntry e;
    e.move = (Move)d;
    e.score = (int16_t)(uint16_t)(d >> SHIFT_SCORE);
    e.eval = (int16_t)(uint16_t)(d >> SHIFT_EVAL);
    e.depth = (uint8_t)(d >> SHIFT_DEPTH);
    e.gen_bound = (uint8_t)(d >> SHIFT_GEN_BOUND);
    return e;
}

/* Reads a slot once: its data word, and whether it holds key (false for a torn or foreign slot). */
static inline bool slot_read(const TTSlot *s, uint64_t key, uint64_t *data)
{
    uint64_t d = atomic_load_explicit(&s->data, memory_order_relaxed);
    uint64_t c = atomic_load_explicit(&s->check, memory_order_relaxed);
    *data = d;
    return (c ^ d) == key;
}

/* Writes a slot: the data word and its key check. */
static inline void slot_write(TTSlot *s, uint64_t key, uint64_t data)
{
    atomic_store_explicit(&s->data, data, memory_order_relaxed);
    atomic_store_explicit(&s->check, key ^ data, memory_order_relaxed);
}

/* First slot of key's bucket. */
static TTSlot *bucket_of(const TT *tt, uint64_t key) { return tt->table[key & (tt->buckets - 1)].slot; }

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
    const TTSlot *s = bucket_of(tt, key);
    for (int i = 0; i < TT_BUCKET; i++) {
        uint64_t d;
        if (slot_read(&s[i], key, &d) && (uint8_t)(d >> SHIFT_GEN_BOUND)) {
            *out = unpack(d);
            out->score = (int16_t)score_from_tt(out->score, ply);
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
    TTSlot *s = bucket_of(tt, key), *victim = s;
    TTEntry old = { 0 };
    bool same = false;
    int worst = 1 << 30;
    for (int i = 0; i < TT_BUCKET; i++) {
        uint64_t d;
        bool mine = slot_read(&s[i], key, &d);
        TTEntry e = unpack(d);
        if (mine || !e.gen_bound) {
            victim = &s[i];
            old = e;
            same = mine;
            break;
        }
        int age = (uint8_t)(tt->generation - (e.gen_bound & ~BOUND_MASK)) / GEN_STEP;
        int worth = e.depth - 8 * age;
        if (worth < worst) {
            worst = worth;
            victim = &s[i];
            old = e;
        }
    }
    if (same && move == MOVE_NONE)
        move = old.move; /* keep the old best move */
    if (same && bound != BOUND_EXACT && depth + 2 < old.depth && (old.gen_bound & ~BOUND_MASK) == tt->generation)
        return; /* a much deeper result of this search is worth more */
    if (score_is_ban(score) || score == SCORE_NONE) {
        bound = 0; /* path-dependent: never reuse the value */
        score = 0;
    }
    TTEntry e;
    e.move = move;
    e.score = (int16_t)score_to_tt(score, ply);
    e.eval = (int16_t)eval;
    e.depth = (uint8_t)(depth < 0 ? 0 : depth);
    e.gen_bound = (uint8_t)(tt->generation | bound);
    slot_write(victim, key, pack(&e));
}

/* Fill estimate: used entries of the current generation among the first 1000. */
int tt_hashfull(const TT *tt)
{
    if (!tt->table)
        return 0;
    size_t n = tt->buckets * TT_BUCKET < HASHFULL_SAMPLE ? tt->buckets * TT_BUCKET : HASHFULL_SAMPLE;
    int used = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t d = atomic_load_explicit(&tt->table[i / TT_BUCKET].slot[i % TT_BUCKET].data, memory_order_relaxed);
        uint8_t gb = (uint8_t)(d >> SHIFT_GEN_BOUND);
        used += gb && (gb & ~BOUND_MASK) == tt->generation;
    }
    return (int)(used * 1000 / (n ? n : 1));
}
