/* tb_pack.c - compressing a table into blocks, checking and reading them (format in tb_pack.h). */
#include "tb_pack.h"

#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"

enum {
    WDL_CONST = 0,
    WDL_PACKED = 1,
    WDL_RUNS = 2, /* WDL block modes */
    SYM_DRAW = 0,
    SYM_WIN = 1,
    SYM_LOSS = 2,
    SYM_BROKEN = 3, /* symbols (BROKEN only while packing) */
    FLAGS_NONE = 0,
    FLAGS_ALL = 1,
    FLAGS_EACH = 2,    /* DTM block flag modes */
    DTM_HEAD = 4,      /* u16 base, u8 bits, u8 flag mode */
    DTM_BITS_MAX = 15, /* k - base fits 15 bits: k <= K_MAX */
    K_MAX = (TB_DTM_MAX - 1) / 2,
    VARINT_MAX = 4,    /* bytes of a run's varint: (65536 - 1) << 2 | 3 needs 3 */
    BLOCK_MAX = 65536, /* entries per block a file may have */
    INDEX_ENTRY = 8,
    RUN_BITS = 12, /* about what one more run costs in a WDL block (a varint of one or two bytes) */
};

/* A growing byte buffer; failed once memory ran short. */
typedef struct Buf {
    uint8_t *p;
    size_t len, cap;
    bool failed;
} Buf;

/* Makes room for n more bytes; false (and failed) if memory is short. */
static bool buf_room(Buf *b, size_t n)
{
    if (b->failed)
        return false;
    if (b->len + n <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 1 << 16;
    while (cap < b->len + n)
        cap *= 2;
    uint8_t *p = realloc(b->p, cap);
    if (!p) {
        b->failed = true;
        return false;
    }
    b->p = p;
    b->cap = cap;
    return true;
}

/* Appends n bytes. */
static void buf_put(Buf *b, const void *data, size_t n)
{
    if (buf_room(b, n)) {
        memcpy(b->p + b->len, data, n);
        b->len += n;
    }
}

/* Appends a LEB128 varint. */
static void buf_varint(Buf *b, uint32_t v)
{
    uint8_t out[VARINT_MAX + 1];
    size_t n = 0;
    do {
        out[n++] = (uint8_t)((v & 0x7F) | (v >= 0x80 ? 0x80 : 0));
        v >>= 7;
    } while (v);
    buf_put(b, out, n);
}

/* Bytes of v as a varint. */
static size_t varint_size(uint32_t v)
{
    size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

/* The symbol of a generated entry. */
static int symbol_of(unsigned v)
{
    return v == TB_V_BROKEN              ? SYM_BROKEN
           : tb_decode(v).wdl == TB_WIN  ? SYM_WIN
           : tb_decode(v).wdl == TB_LOSS ? SYM_LOSS
                                         : SYM_DRAW;
}

/* The runs' fill of a block's symbols: each stretch of broken entries takes the symbol before it, the one
 * after it, or draw, whichever costs the fewest bits (a run boundary about RUN_BITS, a won or lost entry w
 * bits in the DTM block). */
static void fill_runs(const uint8_t *sym, int n, unsigned w, uint8_t *dec)
{
    for (int j = 0; j < n;) {
        if (sym[j] != SYM_BROKEN) {
            dec[j] = sym[j];
            j++;
            continue;
        }
        const int start = j;
        while (j < n && sym[j] == SYM_BROKEN)
            j++;
        const int left = start > 0 ? dec[start - 1] : -1, right = j < n ? sym[j] : -1;
        const int cand[3] = { left, right, SYM_DRAW };
        int best = SYM_DRAW;
        uint64_t best_cost = UINT64_MAX;
        for (int c = 0; c < 3; c++) {
            if (cand[c] < 0)
                continue;
            uint64_t cost = (cand[c] != SYM_DRAW ? (uint64_t)(j - start) * w : 0)
                            + RUN_BITS * ((left >= 0 && left != cand[c]) + (right >= 0 && right != cand[c]));
            if (cost < best_cost) {
                best_cost = cost;
                best = cand[c];
            }
        }
        memset(dec + start, best, (size_t)(j - start));
    }
}

/* Bytes of a block's runs (mode byte included). */
static size_t runs_size(const uint8_t *dec, int n)
{
    size_t size = 1;
    for (int j = 0, start = 0; j < n; j++)
        if (j == n - 1 || dec[j + 1] != dec[j]) {
            size += varint_size((uint32_t)(j - start) << 2 | dec[j]);
            start = j + 1;
        }
    return size;
}

/* Bytes of the DTM block of `slots` won and lost entries of w bits each. */
static size_t dtm_size(size_t slots, unsigned w) { return slots ? DTM_HEAD + (slots * w + 7) / 8 : 0; }

/* Won and lost entries among dec[0..n). */
static size_t count_slots(const uint8_t *dec, int n)
{
    size_t count = 0;
    for (int j = 0; j < n; j++)
        count += dec[j] != SYM_DRAW;
    return count;
}

/* Writes one WDL block of symbols sym[0..n), in the mode whose WDL and DTM blocks together are shortest (a
 * DTM value takes w bits); dec gets the symbols a probe will read (the broken entries' fill). */
static void put_wdl_block(Buf *b, const uint8_t *sym, int n, unsigned w, uint8_t *dec)
{
    int common = -1; /* the legal entries' one symbol, or -2 if they differ */
    for (int j = 0; j < n && common != -2; j++)
        if (sym[j] != SYM_BROKEN)
            common = common == -1 || common == sym[j] ? sym[j] : -2;
    const uint8_t constant = (uint8_t)(common < 0 ? SYM_DRAW : common);
    size_t legal = 0;
    for (int j = 0; j < n; j++)
        legal += sym[j] != SYM_BROKEN && sym[j] != SYM_DRAW;
    const size_t packed = 1 + ((size_t)n + 3) / 4 + dtm_size(legal, w);
    const size_t whole = common == -2 ? SIZE_MAX : 2 + dtm_size(constant != SYM_DRAW ? (size_t)n : 0, w);
    fill_runs(sym, n, w, dec);
    const size_t runs = runs_size(dec, n) + dtm_size(count_slots(dec, n), w);
    uint8_t head[2] = { WDL_CONST, constant };
    if (whole <= packed && whole <= runs) {
        memset(dec, constant, (size_t)n);
        buf_put(b, head, sizeof head);
    } else if (runs < packed) {
        head[0] = WDL_RUNS;
        buf_put(b, head, 1);
        for (int j = 0, start = 0; j < n; j++)
            if (j == n - 1 || dec[j + 1] != dec[j]) {
                buf_varint(b, (uint32_t)(j - start) << 2 | dec[j]);
                start = j + 1;
            }
    } else {
        head[0] = WDL_PACKED;
        buf_put(b, head, 1);
        const size_t bytes = ((size_t)n + 3) / 4;
        if (!buf_room(b, bytes))
            return;
        uint8_t *out = b->p + b->len;
        memset(out, 0, bytes);
        for (int j = 0; j < n; j++) {
            dec[j] = sym[j] == SYM_BROKEN ? SYM_DRAW : sym[j];
            out[j / 4] |= (uint8_t)(dec[j] << (2 * (j % 4)));
        }
        b->len += bytes;
    }
}

/* Bits needed for values 0..v. */
static unsigned width_of(unsigned v)
{
    unsigned w = 0;
    while (v >> w)
        w++;
    return w;
}

/* How a block's distances are stored: base, bits, flag mode, and the bits per value. */
typedef struct DtmShape {
    unsigned lo, bits, mode, w;
} DtmShape;

/* The DTM shape of a block's legal won and lost entries val[0..n). */
static DtmShape dtm_shape(const _Atomic uint16_t *val, int n)
{
    unsigned lo = K_MAX, hi = 0, rules = 0, legal = 0;
    for (int j = 0; j < n; j++) {
        unsigned v = atomic_load_explicit(&val[j], memory_order_relaxed);
        if (v == TB_V_BROKEN || v == TB_V_DRAW)
            continue;
        TbValue r = tb_decode(v);
        unsigned k = (unsigned)r.dtm >> 1;
        lo = k < lo ? k : lo;
        hi = k > hi ? k : hi;
        rules += r.rule;
        legal++;
    }
    if (!legal)
        lo = hi = 0;
    DtmShape d = { lo, width_of(hi - lo), !rules ? FLAGS_NONE : rules == legal ? FLAGS_ALL : FLAGS_EACH, 0 };
    d.w = d.bits + (d.mode == FLAGS_EACH);
    return d;
}

/* Writes the DTM block of entries val[0..n) whose decoded symbols are dec (broken ones: don't-cares, stored
 * as the base). */
static void put_dtm_block(Buf *b, const _Atomic uint16_t *val, const uint8_t *dec, int n, DtmShape d)
{
    const size_t slots = count_slots(dec, n), bytes = dtm_size(slots, d.w);
    if (!slots || !buf_room(b, bytes))
        return;
    uint8_t *out = b->p + b->len;
    memset(out, 0, bytes);
    le_put(out, d.lo, 2);
    out[2] = (uint8_t)d.bits;
    out[3] = (uint8_t)d.mode;
    uint64_t pos = 0;
    for (int j = 0; j < n; j++) {
        if (dec[j] == SYM_DRAW)
            continue;
        unsigned v = atomic_load_explicit(&val[j], memory_order_relaxed), x = 0;
        if (v != TB_V_BROKEN) {
            TbValue r = tb_decode(v);
            x = ((unsigned)r.dtm >> 1) - d.lo;
            x = d.mode == FLAGS_EACH ? x << 1 | r.rule : x;
        }
        for (unsigned i = 0; i < d.w; i++, pos++)
            out[DTM_HEAD + pos / 8] |= (uint8_t)(((x >> i) & 1) << (pos % 8));
    }
    b->len += bytes;
}

/* Frees what tb_pack_build made. */
void tb_pack_out_free(TbPackOut *out)
{
    free(out->wdl);
    free(out->dtm);
    memset(out, 0, sizeof *out);
}

/* Compresses a generated table into out, in blocks of `block` entries; false if memory is short. */
bool tb_pack_build(const _Atomic uint16_t *val, uint64_t entries, uint32_t block, TbPackOut *out)
{
    const uint64_t size = entries, blocks = (size + block - 1) / block;
    Buf wdl = { 0 }, dtm = { 0 };
    uint8_t *sym = malloc(block), *dec = malloc(block);
    size_t index = (size_t)(blocks + 1) * INDEX_ENTRY;
    bool ok = sym && dec && buf_room(&wdl, index) && buf_room(&dtm, index);
    wdl.len = dtm.len = ok ? index : 0;
    for (uint64_t b = 0; ok && b < blocks; b++) {
        const uint64_t lo = b * block;
        const int n = (int)(size - lo < block ? size - lo : block);
        for (int j = 0; j < n; j++)
            sym[j] = (uint8_t)symbol_of(atomic_load_explicit(&val[lo + j], memory_order_relaxed));
        le_put(wdl.p + b * INDEX_ENTRY, wdl.len, INDEX_ENTRY);
        le_put(dtm.p + b * INDEX_ENTRY, dtm.len, INDEX_ENTRY);
        const DtmShape shape = dtm_shape(val + lo, n);
        put_wdl_block(&wdl, sym, n, shape.w, dec);
        put_dtm_block(&dtm, val + lo, dec, n, shape);
        ok = !wdl.failed && !dtm.failed;
    }
    if (ok) {
        le_put(wdl.p + blocks * INDEX_ENTRY, wdl.len, INDEX_ENTRY);
        le_put(dtm.p + blocks * INDEX_ENTRY, dtm.len, INDEX_ENTRY);
    }
    free(sym);
    free(dec);
    *out = (TbPackOut){ wdl.p, dtm.p, wdl.len, dtm.len };
    if (!ok)
        tb_pack_out_free(out);
    return ok;
}

/* Entries in block b. */
static int block_entries(const TbPacked *p, uint64_t b)
{
    uint64_t lo = b * p->block;
    return (int)(p->entries - lo < p->block ? p->entries - lo : p->block);
}

/* Nonzero 2-bit fields among the first n fields of bytes p (packed symbols: the won and lost entries). */
static int count_decided(const uint8_t *p, int n)
{
    int count = 0, i = 0;
    for (; i + 32 <= n; i += 32, p += 8) {
        uint64_t w = le64(p);
        count += __builtin_popcountll((w | w >> 1) & 0x5555555555555555ULL);
    }
    for (; i + 4 <= n; i += 4, p++)
        count += __builtin_popcount((unsigned)(*p | *p >> 1) & 0x55u);
    if (i < n) {
        unsigned x = (unsigned)(*p | *p >> 1) & 0x55u & ((1u << (2 * (n - i))) - 1);
        count += __builtin_popcount(x);
    }
    return count;
}

/* Reads a varint at *p (before end); false if it runs past end or is too long. */
static bool get_varint(const uint8_t **p, const uint8_t *end, uint32_t *v)
{
    uint32_t x = 0;
    for (int i = 0; i < VARINT_MAX && *p < end; i++) {
        uint8_t c = *(*p)++;
        x |= (uint32_t)(c & 0x7F) << (7 * i);
        if (!(c & 0x80)) {
            *v = x;
            return true;
        }
    }
    return false;
}

/* The symbol of entry j of a checked WDL block [blk, end), and in *rank the won and lost entries before it. */
static int symbol_at(const uint8_t *blk, const uint8_t *end, int j, int *rank)
{
    if (blk[0] == WDL_CONST) {
        *rank = blk[1] ? j : 0;
        return blk[1];
    }
    if (blk[0] == WDL_PACKED) {
        *rank = count_decided(blk + 1, j);
        return (blk[1 + j / 4] >> (2 * (j % 4))) & 3;
    }
    const uint8_t *p = blk + 1;
    int start = 0;
    *rank = 0;
    uint32_t v;
    while (get_varint(&p, end, &v)) {
        int len = (int)(v >> 2) + 1, s = (int)(v & 3);
        if (j < start + len) {
            *rank += s ? j - start : 0;
            return s;
        }
        *rank += s ? len : 0;
        start += len;
    }
    return SYM_DRAW; /* not reached in a checked block */
}

/* Reads w (<= 16) bits at bit pos of p, low bit first. */
static unsigned get_bits(const uint8_t *p, uint64_t pos, unsigned w)
{
    unsigned x = 0;
    for (unsigned got = 0; got < w;) {
        unsigned shift = (unsigned)(pos % 8), take = 8 - shift < w - got ? 8 - shift : w - got;
        x |= ((unsigned)(p[pos / 8] >> shift) & ((1u << take) - 1)) << got;
        got += take;
        pos += take;
    }
    return x;
}

/* Entry idx (tb_table.h's encoding). */
unsigned tb_pack_entry(const TbPacked *p, uint64_t idx)
{
    const uint64_t b = idx / p->block;
    const int j = (int)(idx % p->block);
    int rank;
    int sym =
        symbol_at(p->wdl + le64(p->wdl + b * INDEX_ENTRY), p->wdl + le64(p->wdl + (b + 1) * INDEX_ENTRY), j, &rank);
    if (sym == SYM_DRAW)
        return TB_V_DRAW;
    const uint8_t *d = p->dtm + le64(p->dtm + b * INDEX_ENTRY);
    const unsigned base = le16(d), bits = d[2], mode = d[3], w = bits + (mode == FLAGS_EACH);
    unsigned x = get_bits(d + DTM_HEAD, (uint64_t)rank * w, w);
    bool rule = mode == FLAGS_ALL || (mode == FLAGS_EACH && (x & 1));
    unsigned k = base + (mode == FLAGS_EACH ? x >> 1 : x);
    return tb_encode((int)(2 * k + (sym == SYM_WIN)), rule);
}

/* Checks block b's index entries of a section of `bytes`; *blk, *end the block. */
static const char *block_bounds(const uint8_t *sec, uint64_t bytes, uint64_t b, const uint8_t **blk,
                                const uint8_t **end)
{
    uint64_t lo = le64(sec + b * INDEX_ENTRY), hi = le64(sec + (b + 1) * INDEX_ENTRY);
    if (lo > hi || hi > bytes)
        return "a block index points outside its section";
    *blk = sec + lo;
    *end = sec + hi;
    return NULL;
}

/* Checks one WDL block of n entries; *decided gets its won and lost entries. */
static const char *check_wdl(const uint8_t *blk, const uint8_t *end, int n, int *decided)
{
    size_t len = (size_t)(end - blk);
    if (len < 1)
        return "an empty WDL block";
    if (blk[0] == WDL_CONST) {
        if (len != 2 || blk[1] > SYM_LOSS)
            return "a bad constant WDL block";
        *decided = blk[1] ? n : 0;
        return NULL;
    }
    if (blk[0] == WDL_PACKED) {
        if (len != 1 + ((size_t)n + 3) / 4)
            return "a packed WDL block of the wrong length";
        for (int j = 0; j < n; j++)
            if (((blk[1 + j / 4] >> (2 * (j % 4))) & 3) == SYM_BROKEN)
                return "a bad symbol in a WDL block";
        *decided = count_decided(blk + 1, n);
        return NULL;
    }
    if (blk[0] != WDL_RUNS)
        return "an unknown WDL block mode";
    const uint8_t *p = blk + 1;
    int total = 0;
    *decided = 0;
    while (p < end) {
        uint32_t v;
        if (!get_varint(&p, end, &v) || (v & 3) == SYM_BROKEN || (v >> 2) >= (uint32_t)(n - total))
            return "a bad run in a WDL block";
        total += (int)(v >> 2) + 1;
        *decided += (v & 3) ? (int)(v >> 2) + 1 : 0;
    }
    return total == n ? NULL : "WDL runs that do not fill their block";
}

/* Checks one DTM block holding `decided` values. */
static const char *check_dtm(const uint8_t *blk, const uint8_t *end, int decided)
{
    size_t len = (size_t)(end - blk);
    if (!decided)
        return len ? "a DTM block where none belongs" : NULL;
    if (len < DTM_HEAD)
        return "a truncated DTM block";
    const unsigned base = le16(blk), bits = blk[2], mode = blk[3];
    if (bits > DTM_BITS_MAX || mode > FLAGS_EACH)
        return "a bad DTM block header";
    const unsigned w = bits + (mode == FLAGS_EACH);
    if (len != DTM_HEAD + ((size_t)decided * w + 7) / 8)
        return "a DTM block of the wrong length";
    for (int r = 0; r < decided; r++) {
        unsigned x = get_bits(blk + DTM_HEAD, (uint64_t)r * w, w);
        if (base + (mode == FLAGS_EACH ? x >> 1 : x) > K_MAX)
            return "a distance out of range";
    }
    return NULL;
}

/* Checks a file's sections; NULL if sound, else why. */
const char *tb_pack_check(const TbPacked *p)
{
    if (p->block < 1 || p->block > BLOCK_MAX || p->blocks != (p->entries + p->block - 1) / p->block)
        return "a bad block size";
    const uint64_t index = (p->blocks + 1) * INDEX_ENTRY;
    if (p->wdl_bytes < index || p->dtm_bytes < index)
        return "a section shorter than its index";
    for (uint64_t b = 0; b < p->blocks; b++) {
        const uint8_t *w, *w_end, *d, *d_end;
        int decided = 0;
        const char *why = block_bounds(p->wdl, p->wdl_bytes, b, &w, &w_end);
        if (!why)
            why = block_bounds(p->dtm, p->dtm_bytes, b, &d, &d_end);
        if (!why && (w < p->wdl + index || d < p->dtm + index))
            why = "a block inside its section's index";
        if (!why)
            why = check_wdl(w, w_end, block_entries(p, b), &decided);
        if (!why)
            why = check_dtm(d, d_end, decided);
        if (why)
            return why;
    }
    return NULL;
}
