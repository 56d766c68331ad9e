/* book_xqb.c - Jiangjun's own book format (.xqb): keys, checking, lookup, writing (see book_xqb.h). */
#include "book_xqb.h"

#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"

enum {
    KEY_SIDE_INDEX = 0,  /* key number of "black to move" */
    KEY_PIECE_BASE = 1,  /* key number of (colour, type, square) = 1 + (colour * 7 + type) * 90 + square */
    MAGIC_BYTES = 8,
    MOVE_TO_SHIFT = 8,
};

/* The seed of the key numbers ("Jiangjun" in ASCII) and splitmix64's increment. */
static const uint64_t XQB_KEY_SEED = 0x4A69616E676A756EULL;
static const uint64_t SPLITMIX_GAMMA = 0x9E3779B97F4A7C15ULL;

/* Key number i: output i (from 0) of splitmix64 started at XQB_KEY_SEED. */
static uint64_t key_number(uint64_t i)
{
    uint64_t state = XQB_KEY_SEED + i * SPLITMIX_GAMMA;
    return book_random(&state);
}

/* The file's number of an engine square (rank * 9 + file). */
static int square_index(int sq) { return sq_rank(sq) * FILES + sq_file(sq); }

/* The book key of pos, or of its left-right mirror. */
uint64_t xqb_key(const Position *pos, bool mirrored)
{
    uint64_t key = pos->side == BLACK ? key_number(KEY_SIDE_INDEX) : 0;
    for (int id = RED_TAG; id < PIECE_IDS; id++) {
        int sq = pos->piece_sq[id];
        if (!sq)
            continue;
        if (mirrored)
            sq = sq_mirror(sq);
        uint64_t piece = (uint64_t)(piece_side(id) * PIECE_TYPES + piece_type(id));
        key ^= key_number(KEY_PIECE_BASE + piece * XQB_SQUARES + (uint64_t)square_index(sq));
    }
    return key;
}

/* Move m of pos as stored: under the smaller key of pos and its mirror. */
XqbRecord xqb_record(const Position *pos, Move m, uint16_t weight)
{
    uint64_t own = xqb_key(pos, false), mirror = xqb_key(pos, true);
    XqbRecord r = { own, m, weight };
    if (mirror < own) {
        r.key = mirror;
        r.move = book_mirror_move(m);
    }
    return r;
}

/* Is this the start of a .xqb file? */
bool xqb_is_xqb(const uint8_t *data, size_t size)
{
    return size >= MAGIC_BYTES && memcmp(data, XQB_MAGIC, MAGIC_BYTES) == 0;
}

/* Checks a whole file's bytes: magic, version, size and key order. */
bool xqb_check(const uint8_t *data, size_t size, size_t *count, XqError *err)
{
    if (size < XQB_HEADER_BYTES || !xqb_is_xqb(data, size)) {
        snprintf(err->msg, sizeof err->msg, "not a Jiangjun book (no " XQB_MAGIC " header)");
        return false;
    }
    uint32_t version = le32(data + MAGIC_BYTES), n = le32(data + MAGIC_BYTES + 4);
    if (version != XQB_VERSION) {
        snprintf(err->msg, sizeof err->msg, "Jiangjun book version %u is not supported (this engine reads %d)",
                 (unsigned)version, XQB_VERSION);
        return false;
    }
    if ((size - XQB_HEADER_BYTES) / XQB_RECORD_BYTES != n || (size - XQB_HEADER_BYTES) % XQB_RECORD_BYTES != 0) {
        snprintf(err->msg, sizeof err->msg, "truncated or padded: the header says %u records, the file has %zu bytes",
                 (unsigned)n, size);
        return false;
    }
    size_t bad = book_records_unsorted_at(data + XQB_HEADER_BYTES, n, XQB_RECORD_BYTES, XQB_KEY_BYTES);
    if (bad) {
        snprintf(err->msg, sizeof err->msg, "records out of order at record %zu (the keys must ascend)", bad);
        return false;
    }
    *count = n;
    return true;
}

/* Decodes a stored move (MOVE_NONE when a square is outside the board). */
static Move decode_move(uint16_t v)
{
    int from = v & 0xFF, to = v >> MOVE_TO_SHIFT;
    if (from >= XQB_SQUARES || to >= XQB_SQUARES)
        return MOVE_NONE;
    return move_make(sq_make(from % FILES, from / FILES), sq_make(to % FILES, to / FILES));
}

/* Encodes a move of on-board squares for the file. */
static uint16_t encode_move(Move m)
{
    return (uint16_t)(square_index(move_from(m)) | square_index(move_to(m)) << MOVE_TO_SHIFT);
}

/* Reads record i of a checked file's records. */
XqbRecord xqb_read(const uint8_t *records, size_t i)
{
    const uint8_t *p = records + i * XQB_RECORD_BYTES;
    XqbRecord r = { le64(p), decode_move(le16(p + 8)), le16(p + 10) };
    return r;
}

/* The moves stored under key, as stored. */
int xqb_find(const uint8_t *records, size_t count, uint64_t key, BookMove *out, int max)
{
    int n = 0;
    for (size_t i = book_records_lower_bound(records, count, XQB_RECORD_BYTES, XQB_KEY_BYTES, key);
         i < count && n < max; i++) {
        XqbRecord r = xqb_read(records, i);
        if (r.key != key)
            break;
        out[n].move = r.move;
        out[n++].weight = r.weight;
    }
    return n;
}

/* qsort order: key, then the stored move. */
static int record_cmp(const void *a, const void *b)
{
    const XqbRecord *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    uint16_t mx = encode_move(x->move), my = encode_move(y->move);
    return (mx > my) - (mx < my);
}

/* Sorts records by key, then move. */
void xqb_sort(XqbRecord *r, size_t n)
{
    if (n > 1)
        qsort(r, n, sizeof *r, record_cmp);
}

/* Writes a book file of sorted records. */
bool xqb_write(FILE *f, const XqbRecord *r, size_t n)
{
    uint8_t head[XQB_HEADER_BYTES];
    if (n > UINT32_MAX)
        return false;
    memcpy(head, XQB_MAGIC, MAGIC_BYTES);
    le_put(head + MAGIC_BYTES, XQB_VERSION, 4);
    le_put(head + MAGIC_BYTES + 4, n, 4);
    if (fwrite(head, sizeof head, 1, f) != 1)
        return false;
    for (size_t i = 0; i < n; i++) {
        uint8_t rec[XQB_RECORD_BYTES];
        le_put(rec, r[i].key, 8);
        le_put(rec + 8, encode_move(r[i].move), 2);
        le_put(rec + 10, r[i].weight, 2);
        if (fwrite(rec, sizeof rec, 1, f) != 1)
            return false;
    }
    return fflush(f) == 0;
}
