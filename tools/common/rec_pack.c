/* rec_pack.c - the compact record format: building blocks from records and reading them back. */
#include "rec_pack.h"

#include <stdlib.h>
#include <string.h>

#include "board/movegen.h"

enum {
    PLAIN_SQUARES = FILES * RANKS, /* plain square index rank * 9 + file */
    PLY_UNKNOWN = 0xFFFF,          /* a record ply that continues nothing */
    KNOWN_FLAGS = NNUE_REC_IN_CHECK | NNUE_REC_CAPTURE | NNUE_REC_MATE,
    LEB_BITS = 7,
    LEB_MORE = 0x80,
    STEP_BITS_MAX = 7 + 50, /* longest move code (128 moves) and score code (|sum| < 2^17, order 15) */
    EG_ZEROS_MAX = 24,      /* longest run of zeros an Exp-Golomb code of a 32-bit value may start with */
    INITIAL_STEPS = 256,
    INITIAL_BUFFER = 4096,
};

/* Makes room for n more bytes. */
bool pack_buf_reserve(PackBuf *b, size_t n)
{
    if (b->len + n <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : INITIAL_BUFFER;
    while (cap < b->len + n)
        cap *= 2;
    uint8_t *p = realloc(b->data, cap);
    if (!p)
        return false;
    b->data = p;
    b->cap = cap;
    return true;
}

/* Appends n bytes to a buffer. */
bool pack_buf_append(PackBuf *b, const void *data, size_t n)
{
    if (!pack_buf_reserve(b, n))
        return false;
    if (n)
        memcpy(b->data + b->len, data, n);
    b->len += n;
    return true;
}

/* Frees a buffer's bytes. */
void pack_buf_free(PackBuf *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

/* Plain square (rank * 9 + file) of a board square. */
static int plain_of(int sq) { return sq_rank(sq) * FILES + sq_file(sq); }

/* Board square of a plain square. */
static int board_of(int plain) { return sq_make(plain % FILES, plain / FILES); }

/* Canonical record board of a position: scanned in FEN order (rank 9 down, file a to i), each piece in the
 * next free slot of its side and type, as pos_from_fen numbers them. */
void pack_canonical(PackedPos *rec, const Position *pos)
{
    int count[2][PIECE_TYPES] = { { 0 } };
    memset(rec->sq, NNUE_REC_ABSENT, sizeof rec->sq);
    for (int rank = RANKS - 1; rank >= 0; rank--)
        for (int file = 0; file < FILES; file++) {
            int id = pos->board[sq_make(file, rank)];
            if (id == EMPTY)
                continue;
            int side = piece_side(id), type = piece_type(id);
            int slot = side * SIDE_PIECES + TYPE_FIRST[type] + count[side][type]++;
            rec->sq[slot] = (uint8_t)(rank * FILES + file);
        }
    rec->stm = pos->side;
}

/* The legal moves of pos sorted by (from, to) plain square, so codes do not depend on the generator's order. */
static int sorted_legal(Position *pos, Move moves[MAX_MOVES])
{
    enum { MOVE_BITS = 16 };
    int n = gen_legal(pos, moves);
    uint32_t v[MAX_MOVES]; /* sort key above the move */
    for (int i = 0; i < n; i++) {
        uint32_t x = (uint32_t)(plain_of(move_from(moves[i])) * PLAIN_SQUARES + plain_of(move_to(moves[i])))
                         << MOVE_BITS
                     | moves[i];
        int j = i;
        for (; j > 0 && v[j - 1] > x; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
    for (int i = 0; i < n; i++)
        moves[i] = (Move)(v[i] & ((1u << MOVE_BITS) - 1));
    return n;
}

/* Number of bits of v (0 for 0). */
static unsigned bit_length(uint32_t v) { return v ? 32u - (unsigned)__builtin_clz(v) : 0; }

/* Truncated binary code of index in [0, count): its length; *code gets the bits (low bits first in the stream). */
static unsigned move_code(unsigned index, unsigned count, uint32_t *code)
{
    if (count <= 1) {
        *code = 0;
        return 0;
    }
    unsigned b = bit_length(count) - 1, u = (2u << b) - count;
    if (index < u) {
        *code = index;
        return b;
    }
    uint32_t w = index + u; /* b + 1 bits: w >> 1 first (b bits), then w & 1 */
    *code = (w >> 1) | (w & 1) << b;
    return b + 1;
}

/* Length of the Exp-Golomb code of order k of v. */
static unsigned eg_length(uint32_t v, unsigned k)
{
    uint32_t q = (v >> k) + 1;
    return 2 * (bit_length(q) - 1) + 1 + k;
}

/* zigzag: 0, -1, 1, -2, ... to 0, 1, 2, 3, ... */
static uint32_t zigzag(int32_t v) { return v >= 0 ? (uint32_t)v << 1 : ((uint32_t)(-(v + 1)) << 1) | 1; }

/* The inverse of zigzag. */
static int32_t unzigzag(uint32_t z) { return z & 1 ? -(int32_t)(z >> 1) - 1 : (int32_t)(z >> 1); }

/* Writes bits into a byte array that holds enough zeroed room. */
typedef struct BitWriter {
    uint8_t *out;
    size_t bit;
} BitWriter;

/* Writes the low n (<= 32) bits of v, least significant first. */
static void put_bits(BitWriter *w, uint32_t v, unsigned n)
{
    while (n > 0) {
        unsigned off = w->bit & 7, take = 8 - off < n ? 8 - off : n;
        w->out[w->bit >> 3] |= (uint8_t)((v & ((1u << take) - 1)) << off);
        v >>= take;
        n -= take;
        w->bit += take;
    }
}

/* Writes v in the Exp-Golomb code of order k: as many zeros as q = (v >> k) + 1 has bits after its first,
 * a one, those bits of q, then the low k bits of v. */
static void put_eg(BitWriter *w, uint32_t v, unsigned k)
{
    uint32_t q = (v >> k) + 1;
    unsigned nb = bit_length(q) - 1;
    put_bits(w, 1u << nb, nb + 1);
    put_bits(w, q & ((1u << nb) - 1), nb);
    put_bits(w, v & ((1u << k) - 1), k);
}

/* Appends a LEB128 number to a byte array; returns the bytes written. */
static size_t put_leb(uint8_t *p, uint64_t v)
{
    size_t n = 0;
    do {
        uint8_t b = v & 0x7F;
        v >>= LEB_BITS;
        p[n++] = (uint8_t)(b | (v ? LEB_MORE : 0));
    } while (v);
    return n;
}

/* Reads a LEB128 number of at most PACK_LEB_MAX bytes: its length, 0 if avail is too short, -1 if too long. */
static int get_leb(const uint8_t *p, size_t avail, uint64_t *v)
{
    *v = 0;
    for (int i = 0; i < PACK_LEB_MAX; i++) {
        if ((size_t)i >= avail)
            return 0;
        *v |= (uint64_t)(p[i] & 0x7F) << (LEB_BITS * i);
        if (!(p[i] & LEB_MORE))
            return i + 1;
    }
    return -1;
}

/* Sets up an encoder. */
bool pack_encoder_init(PackEncoder *e)
{
    memset(e, 0, sizeof *e);
    e->pos = malloc(sizeof *e->pos);
    e->step = malloc(INITIAL_STEPS * sizeof *e->step);
    e->cap = INITIAL_STEPS;
    if (!e->pos || !e->step) {
        pack_encoder_free(e);
        return false;
    }
    return true;
}

/* Frees an encoder. */
void pack_encoder_free(PackEncoder *e)
{
    free(e->pos);
    free(e->step);
    memset(e, 0, sizeof *e);
}

/* Piece code (1 + side * 7 + type, 0 empty) on each plain square of a record; false if the record is not a board. */
static bool record_grid(const PackedPos *rec, uint8_t grid[PLAIN_SQUARES])
{
    memset(grid, 0, PLAIN_SQUARES);
    for (int i = 0; i < 2 * SIDE_PIECES; i++) {
        int s = rec->sq[i];
        if (s == NNUE_REC_ABSENT)
            continue;
        if (s >= PLAIN_SQUARES || grid[s])
            return false;
        grid[s] = (uint8_t)(1 + (i / SIDE_PIECES) * PIECE_TYPES + ID_TYPE[i % SIDE_PIECES]);
    }
    return true;
}

/* Piece code of a board byte, as record_grid gives it. */
static uint8_t piece_code(int id)
{
    return id == EMPTY ? 0 : (uint8_t)(1 + piece_side(id) * PIECE_TYPES + piece_type(id));
}

/* The move that turns pos into rec's board (one piece of the side to move going from a square left empty to
 * one it now holds), or MOVE_NONE if the boards differ otherwise. Not checked for legality. */
static Move find_move(const Position *pos, const PackedPos *rec)
{
    uint8_t grid[PLAIN_SQUARES];
    if (!record_grid(rec, grid))
        return MOVE_NONE;
    int diff[2], n = 0;
    for (int s = 0; s < PLAIN_SQUARES; s++)
        if (grid[s] != piece_code(pos->board[board_of(s)])) {
            if (n == 2)
                return MOVE_NONE;
            diff[n++] = s;
        }
    if (n != 2)
        return MOVE_NONE;
    int from = grid[diff[0]] == 0 ? diff[0] : diff[1], to = from == diff[0] ? diff[1] : diff[0];
    int id = pos->board[board_of(from)];
    if (grid[from] != 0 || id == EMPTY || piece_side(id) != pos->side || grid[to] != piece_code(id))
        return MOVE_NONE;
    return move_make(board_of(from), board_of(to));
}

/* Plays m on pos, first dropping its history when it is full (the codec needs none). */
static void play(Position *pos, Move m)
{
    if (pos->ply >= MAX_HISTORY - 1)
        pos_clear_history(pos);
    pos_make(pos, m);
}

/* Does rec (bytes raw) continue the open block? If so, plays its move on e->pos and fills *step. */
static bool continues(PackEncoder *e, const uint8_t raw[NNUE_REC_SIZE], const PackedPos *rec, PackStep *step)
{
    const PackedPos *last = &e->last;
    if (!e->has_pos || e->n >= PACK_MAX_FURTHER || raw[NNUE_REC_SIZE - 1] != 0 || (rec->flags & ~KNOWN_FLAGS))
        return false;
    if (rec->ply != last->ply + 1 || rec->ply == PLY_UNKNOWN || last->result < -1 || last->result > 1
        || rec->result != -last->result || rec->stm == last->stm)
        return false;
    if (((rec->flags & NNUE_REC_MATE) != 0) != (abs(rec->score) >= PACK_MATE_SCORE))
        return false;
    Move m = find_move(e->pos, rec);
    if (m == MOVE_NONE)
        return false;
    if (((last->flags & NNUE_REC_CAPTURE) != 0) != (e->pos->board[move_to(m)] != EMPTY))
        return false;
    Move moves[MAX_MOVES];
    int count = sorted_legal(e->pos, moves), index = 0;
    while (index < count && moves[index] != m)
        index++;
    if (index == count)
        return false;
    play(e->pos, m); /* on a failure below the block ends, and the next one sets e->pos afresh */
    PackedPos canon;
    pack_canonical(&canon, e->pos);
    if (memcmp(canon.sq, rec->sq, sizeof canon.sq) != 0
        || ((rec->flags & NNUE_REC_IN_CHECK) != 0) != (e->pos->in_check != 0))
        return false;
    step->index = (uint8_t)index;
    step->count = (uint8_t)count;
    step->zig = zigzag((int32_t)rec->score + last->score);
    return true;
}

/* The Exp-Golomb order that codes the block's scores in the fewest bits; *bits gets the body's length in bits. */
static unsigned best_order(const PackEncoder *e, size_t *bits)
{
    size_t moves = 0, total[PACK_ORDERS] = { 0 };
    for (size_t i = 0; i < e->n; i++) {
        uint32_t code;
        moves += move_code(e->step[i].index, e->step[i].count, &code);
        for (unsigned k = 0; k < PACK_ORDERS; k++)
            total[k] += eg_length(e->step[i].zig, k);
    }
    unsigned best = 0;
    for (unsigned k = 1; k < PACK_ORDERS; k++)
        if (total[k] < total[best])
            best = k;
    *bits = e->n ? moves + total[best] + 1 : 0;
    return best;
}

/* Ends the open block, appending it to out. */
bool pack_encoder_flush(PackEncoder *e, PackBuf *out)
{
    if (!e->open)
        return true;
    e->open = false;
    size_t bits;
    unsigned order = best_order(e, &bits);
    size_t body = (bits + 7) / 8;
    uint8_t header[PACK_HEADER_MAX];
    header[0] = (uint8_t)(PACK_MARKER | order);
    memcpy(header + 1, e->head, NNUE_REC_SIZE);
    size_t h = PACK_HEAD_BYTES;
    h += put_leb(header + h, e->n);
    h += put_leb(header + h, body);
    if (!pack_buf_reserve(out, h + body) || !pack_buf_append(out, header, h))
        return false;
    memset(out->data + out->len, 0, body);
    BitWriter w = { out->data + out->len, 0 };
    for (size_t i = 0; i < e->n; i++) {
        uint32_t code;
        unsigned len = move_code(e->step[i].index, e->step[i].count, &code);
        put_bits(&w, code, len);
        put_eg(&w, e->step[i].zig, order);
    }
    if (e->n)
        put_bits(&w, (e->last.flags & NNUE_REC_CAPTURE) != 0, 1);
    out->len += body;
    return true;
}

/* Adds a record: to the open block if it continues it, else it starts a new block. */
bool pack_encoder_add(PackEncoder *e, const uint8_t raw[NNUE_REC_SIZE], PackBuf *out)
{
    PackedPos rec;
    packed_decode(raw, &rec);
    if (e->open) {
        if (e->n == e->cap) {
            PackStep *s = realloc(e->step, 2 * e->cap * sizeof *s);
            if (!s)
                return false;
            e->step = s;
            e->cap *= 2;
        }
        if (continues(e, raw, &rec, &e->step[e->n])) {
            e->n++;
            e->last = rec;
            return true;
        }
        if (!pack_encoder_flush(e, out))
            return false;
    }
    XqError err;
    memcpy(e->head, raw, NNUE_REC_SIZE);
    e->last = rec;
    e->n = 0;
    e->open = true;
    e->has_pos = packed_to_position(&rec, e->pos, &err);
    return true;
}

/* Parses a block header. */
int pack_block_header(const uint8_t *p, size_t avail, size_t *size, uint32_t *records, XqError *err)
{
    if (avail < 1)
        return 0;
    if ((p[0] & PACK_MARKER_MASK) != PACK_MARKER) {
        snprintf(err->msg, sizeof err->msg, "not a block (first byte 0x%02x)", p[0]);
        return -1;
    }
    if (avail < PACK_HEAD_BYTES)
        return 0;
    uint64_t n, len;
    int a = get_leb(p + PACK_HEAD_BYTES, avail - PACK_HEAD_BYTES, &n);
    int b = a > 0 ? get_leb(p + PACK_HEAD_BYTES + a, avail - PACK_HEAD_BYTES - (size_t)a, &len) : a;
    if (a == 0 || b == 0)
        return 0;
    if (a < 0 || b < 0 || n > PACK_MAX_FURTHER || len > (n * STEP_BITS_MAX + 1 + 7) / 8 || (n == 0) != (len == 0)) {
        snprintf(err->msg, sizeof err->msg, "bad block header");
        return -1;
    }
    *size = PACK_HEAD_BYTES + (size_t)a + (size_t)b + (size_t)len;
    *records = (uint32_t)n + 1;
    return 1;
}

/* Sets up a decoder. */
bool pack_decoder_init(PackDecoder *d)
{
    memset(d, 0, sizeof *d);
    d->pos = malloc(sizeof *d->pos);
    return d->pos != NULL;
}

/* Frees a decoder. */
void pack_decoder_free(PackDecoder *d)
{
    free(d->pos);
    memset(d, 0, sizeof *d);
}

/* Fills err and returns -1 (a corrupt block). */
static int corrupt(XqError *err, const char *why)
{
    snprintf(err->msg, sizeof err->msg, "corrupt block: %s", why);
    return -1;
}

/* Reads n (<= 32) bits; false if the body ends first. */
static bool get_bits(PackDecoder *d, unsigned n, uint32_t *v)
{
    if (d->bit + n > d->body_len * 8)
        return false;
    uint32_t x = 0;
    for (unsigned got = 0; got < n;) {
        unsigned off = d->bit & 7, take = 8 - off < n - got ? 8 - off : n - got;
        x |= (uint32_t)((d->body[d->bit >> 3] >> off) & ((1u << take) - 1)) << got;
        got += take;
        d->bit += take;
    }
    *v = x;
    return true;
}

/* Reads an Exp-Golomb code of order k; false if it is cut off or too long. */
static bool get_eg(PackDecoder *d, unsigned k, uint32_t *v)
{
    unsigned zeros = 0;
    uint32_t bit = 0;
    while (get_bits(d, 1, &bit) && !bit)
        if (++zeros > EG_ZEROS_MAX)
            return false;
    uint32_t rest, low;
    if (!bit || !get_bits(d, zeros, &rest) || !get_bits(d, k, &low))
        return false;
    uint64_t q = ((uint64_t)1 << zeros | rest) - 1;
    uint64_t value = q << k | low;
    if (value > UINT32_MAX)
        return false;
    *v = (uint32_t)value;
    return true;
}

/* Reads the move to the next record from d->pos into d->next; false if the code is cut off or no move. */
static bool read_move(PackDecoder *d)
{
    Move moves[MAX_MOVES];
    int count = sorted_legal(d->pos, moves);
    if (count == 0)
        return false;
    if (count == 1) {
        d->next = moves[0];
        return true;
    }
    unsigned b = bit_length((uint32_t)count) - 1, u = (2u << b) - (unsigned)count;
    uint32_t x, last;
    if (!get_bits(d, b, &x))
        return false;
    if (x >= u) {
        if (!get_bits(d, 1, &last))
            return false;
        x = (x << 1 | last) - u;
    }
    if (x >= (unsigned)count)
        return false;
    d->next = moves[x];
    return true;
}

/* Starts decoding a block. */
bool pack_decoder_start(PackDecoder *d, const uint8_t *block, size_t size, XqError *err)
{
    uint32_t records;
    size_t total;
    if (pack_block_header(block, size, &total, &records, err) != 1 || total != size) {
        corrupt(err, "bad header");
        return false;
    }
    size_t h = PACK_HEAD_BYTES;
    uint64_t n, len;
    h += (size_t)get_leb(block + h, size - h, &n);
    h += (size_t)get_leb(block + h, size - h, &len);
    d->order = block[0] & (PACK_ORDERS - 1);
    memcpy(d->head, block + 1, NNUE_REC_SIZE);
    d->body = block + h;
    d->body_len = (size_t)len;
    d->bit = 0;
    d->n = (uint32_t)n;
    d->done = 0;
    d->head_done = false;
    packed_decode(d->head, &d->cur);
    if (d->n > 0) {
        XqError why;
        if (!packed_to_position(&d->cur, d->pos, &why) || d->cur.result < -1 || d->cur.result > 1
            || (uint32_t)d->cur.ply + d->n >= PLY_UNKNOWN) {
            corrupt(err, "its first record cannot start a game");
            return false;
        }
    }
    return true;
}

/* Next record of the block. */
int pack_decoder_next(PackDecoder *d, uint8_t raw[NNUE_REC_SIZE], XqError *err)
{
    if (!d->head_done) {
        d->head_done = true;
        if (d->n > 0 && !read_move(d))
            return corrupt(err, "bad move code");
        memcpy(raw, d->head, NNUE_REC_SIZE);
        return 1;
    }
    if (d->done == d->n)
        return 0;
    play(d->pos, d->next);
    PackedPos rec;
    memset(&rec, 0, sizeof rec);
    pack_canonical(&rec, d->pos);
    uint32_t zig, capture;
    if (!get_eg(d, d->order, &zig))
        return corrupt(err, "bad score code");
    int32_t score = unzigzag(zig) - d->cur.score;
    if (score < INT16_MIN || score > INT16_MAX)
        return corrupt(err, "score out of range");
    rec.score = (int16_t)score;
    rec.result = (int8_t)-d->cur.result;
    rec.ply = (uint16_t)(d->cur.ply + 1);
    d->done++;
    if (d->done < d->n) {
        if (!read_move(d))
            return corrupt(err, "bad move code");
        capture = d->pos->board[move_to(d->next)] != EMPTY;
    } else {
        if (!get_bits(d, 1, &capture))
            return corrupt(err, "cut off");
        uint32_t pad;
        size_t left = d->body_len * 8 - d->bit;
        if (left >= 8 || !get_bits(d, (unsigned)left, &pad) || pad)
            return corrupt(err, "bits after the last record");
    }
    rec.flags = (uint8_t)((d->pos->in_check ? NNUE_REC_IN_CHECK : 0) | (capture ? NNUE_REC_CAPTURE : 0)
                          | (abs(rec.score) >= PACK_MATE_SCORE ? NNUE_REC_MATE : 0));
    d->cur = rec;
    packed_encode(&rec, raw);
    return 1;
}
