/* book_eleeye.c - ElephantEye's BOOK.DAT: its keys, checking and lookup (see book_eleeye.h). */
#include "book_eleeye.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/bytes.h"

enum {
    RC4_STATE = 256,
    RC4_KEY_BYTES = 4,     /* ElephantEye keys its stream with four zero bytes */
    EE_SQUARES = 256,      /* ElephantEye's 16x16 board */
    EE_FILE_LEFT = 3,      /* its file a */
    EE_RANK_TOP = 3,       /* its row of black's back rank (rank 9) */
    EE_RANK_BOTTOM = 12,   /* its row of red's back rank (rank 0) */
    EE_ROW_SHIFT = 4,
    WORDS_PER_ENTRY = 3,   /* each entry of its table draws key, lock0, lock1 */
    LOCK1_WORD = 2,        /* the book's key is lock1 */
    EE_SIDE_LOCK = ELEEYE_LOCKS - 1,
    MOVE_TO_SHIFT = 8,
};

/* An RC4 generator. */
typedef struct Rc4 {
    uint8_t s[RC4_STATE];
    int x, y;
} Rc4;

/* Keys the generator with four zero bytes. */
static void rc4_init_zero(Rc4 *r)
{
    const uint8_t key[RC4_KEY_BYTES] = { 0 };
    for (int i = 0; i < RC4_STATE; i++)
        r->s[i] = (uint8_t)i;
    for (int i = 0, j = 0; i < RC4_STATE; i++) {
        j = (j + r->s[i] + key[i % RC4_KEY_BYTES]) & (RC4_STATE - 1);
        uint8_t t = r->s[i];
        r->s[i] = r->s[j];
        r->s[j] = t;
    }
    r->x = r->y = 0;
}

/* The next byte of the stream. */
static uint8_t rc4_byte(Rc4 *r)
{
    r->x = (r->x + 1) & (RC4_STATE - 1);
    r->y = (r->y + r->s[r->x]) & (RC4_STATE - 1);
    uint8_t t = r->s[r->x];
    r->s[r->x] = r->s[r->y];
    r->s[r->y] = t;
    return r->s[(r->s[r->x] + r->s[r->y]) & (RC4_STATE - 1)];
}

/* The next 32-bit word of the stream (its bytes little-endian). */
static uint32_t rc4_word(Rc4 *r)
{
    uint32_t w = 0;
    for (int i = 0; i < 4; i++)
        w |= (uint32_t)rc4_byte(r) << (8 * i);
    return w;
}

/* The lock1 of one table entry (drawing its three words). */
static uint32_t next_lock(Rc4 *r)
{
    uint32_t lock = 0;
    for (int w = 0; w < WORDS_PER_ENTRY; w++) {
        uint32_t v = rc4_word(r);
        if (w == LOCK1_WORD)
            lock = v;
    }
    return lock;
}

/* The engine square of an ElephantEye square, or -1 off the board. */
static int from_ee_square(int ee)
{
    int file = (ee & 15) - EE_FILE_LEFT, row = ee >> EE_ROW_SHIFT;
    if (file < 0 || file >= FILES || row < EE_RANK_TOP || row > EE_RANK_BOTTOM)
        return -1;
    return sq_make(file, EE_RANK_BOTTOM - row);
}

/* The ElephantEye square of an engine square. */
static int to_ee_square(int sq)
{
    return (EE_RANK_BOTTOM - sq_rank(sq)) << EE_ROW_SHIFT | (sq_file(sq) + EE_FILE_LEFT);
}

/* Table index of a piece kind on an engine square. */
static int lock_index(int kind, int sq) { return (kind * RANKS + sq_rank(sq)) * FILES + sq_file(sq); }

/* Builds ElephantEye's key table. */
uint32_t *eleeye_lock_table(void)
{
    uint32_t *locks = malloc(ELEEYE_LOCKS * sizeof *locks);
    if (!locks)
        return NULL;
    Rc4 r;
    rc4_init_zero(&r);
    locks[EE_SIDE_LOCK] = next_lock(&r);
    for (int kind = 0; kind < ELEEYE_PIECE_KINDS; kind++)
        for (int ee = 0; ee < EE_SQUARES; ee++) {
            uint32_t lock = next_lock(&r);
            int sq = from_ee_square(ee);
            if (sq >= 0)
                locks[lock_index(kind, sq)] = lock;
        }
    return locks;
}

/* ElephantEye's key of pos or of its mirror. */
uint32_t eleeye_key(const uint32_t *locks, const Position *pos, bool mirrored)
{
    uint32_t key = pos->side == BLACK ? locks[EE_SIDE_LOCK] : 0;
    for (int id = RED_TAG; id < PIECE_IDS; id++) {
        int sq = pos->piece_sq[id];
        if (!sq)
            continue;
        if (mirrored)
            sq = sq_mirror(sq);
        key ^= locks[lock_index(piece_side(id) * PIECE_TYPES + piece_type(id), sq)];
    }
    return key;
}

/* Checks a whole file's bytes: a whole number of records, keys ascending. */
bool eleeye_check(const uint8_t *data, size_t size, size_t *count, XqError *err)
{
    if (size == 0 || size % ELEEYE_RECORD_BYTES != 0) {
        snprintf(err->msg, sizeof err->msg, "not a .xqb book nor a BOOK.DAT (%zu bytes: no whole %d-byte records)",
                 size, ELEEYE_RECORD_BYTES);
        return false;
    }
    size_t n = size / ELEEYE_RECORD_BYTES;
    size_t bad = book_records_unsorted_at(data, n, ELEEYE_RECORD_BYTES, ELEEYE_KEY_BYTES);
    if (bad) {
        snprintf(err->msg, sizeof err->msg, "not a .xqb book nor a BOOK.DAT (records out of order at record %zu)", bad);
        return false;
    }
    *count = n;
    return true;
}

/* Decodes a stored move (MOVE_NONE when a square is off the board). */
static Move decode_move(uint16_t v)
{
    int from = from_ee_square(v & 0xFF), to = from_ee_square(v >> MOVE_TO_SHIFT);
    return from < 0 || to < 0 ? MOVE_NONE : move_make(from, to);
}

/* The moves stored under key, as stored. */
int eleeye_find(const uint8_t *records, size_t count, uint32_t key, BookMove *out, int max)
{
    int n = 0;
    for (size_t i = book_records_lower_bound(records, count, ELEEYE_RECORD_BYTES, ELEEYE_KEY_BYTES, key);
         i < count && n < max; i++) {
        const uint8_t *p = records + i * ELEEYE_RECORD_BYTES;
        if (le32(p) != key)
            break;
        out[n].move = decode_move(le16(p + 4));
        out[n++].weight = le16(p + 6);
    }
    return n;
}

/* Writes one record from an engine move. */
void eleeye_encode(uint8_t out[ELEEYE_RECORD_BYTES], uint32_t key, Move m, uint16_t weight)
{
    unsigned mv = (unsigned)(to_ee_square(move_from(m)) | to_ee_square(move_to(m)) << MOVE_TO_SHIFT);
    for (int i = 0; i < 4; i++)
        out[i] = (uint8_t)(key >> (8 * i));
    out[4] = (uint8_t)mv;
    out[5] = (uint8_t)(mv >> 8);
    out[6] = (uint8_t)weight;
    out[7] = (uint8_t)(weight >> 8);
}
