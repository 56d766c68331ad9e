/* nnue.c - net files, the lazily updated accumulator stack, and the network's evaluation (see nnue.h). */
#include "nnue.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes.h"
#include "base/fileload.h"
#include "nnue_embed.h"

enum { EVAL_LIMIT = SCORE_KNOWN_WIN - 1 };

/* Reads a little-endian int16. */
static int16_t get16(const uint8_t *p) { return (int16_t)le16(p); }

/* Fills err with a message about a net file and returns false. */
static bool net_fail(XqError *err, const char *what, long long got, long long want)
{
    if (want >= 0)
        snprintf(err->msg, sizeof err->msg, "bad net file: %s is %lld, this engine needs %lld", what, got, want);
    else
        snprintf(err->msg, sizeof err->msg, "bad net file: %s", what);
    return false;
}

/* The checksum a net file image should store, by its version's definition. */
uint32_t nnue_file_checksum(const uint8_t *file, size_t size)
{
    if (le32(file + NNUE_OFF_VERSION) == NNUE_VERSION_PAYLOAD_SUM)
        return nnue_fnv1a(file + NNUE_HEADER_SIZE, size - NNUE_HEADER_SIZE);
    uint32_t h = nnue_fnv1a(file, NNUE_OFF_CHECKSUM);
    return nnue_fnv1a_more(h, file + NNUE_OFF_CHECKSUM + 4, size - NNUE_OFF_CHECKSUM - 4);
}

/* Checks the header fields against this engine's architecture. */
static bool check_header(const uint8_t *h, size_t size, XqError *err)
{
    static const struct {
        int offset;
        const char *what;
        uint32_t want;
    } FIELDS[] = {
        { NNUE_OFF_FEATURE_SET, "feature set", NNUE_FEATURE_SET },
        { NNUE_OFF_INPUTS, "input count", NNUE_FEATURES },
        { NNUE_OFF_HIDDEN, "hidden size", NNUE_HIDDEN },
        { NNUE_OFF_BUCKETS, "output buckets", NNUE_OUTPUT_BUCKETS },
        { NNUE_OFF_QA, "QA", NNUE_QA },
        { NNUE_OFF_QB, "QB", NNUE_QB },
        { NNUE_OFF_SCALE, "SCALE", NNUE_SCALE },
        { NNUE_OFF_PAYLOAD, "payload size", NNUE_PAYLOAD_SIZE },
    };
    if (size < NNUE_HEADER_SIZE)
        return net_fail(err, "shorter than its 128-byte header", 0, -1);
    if (memcmp(h, NNUE_MAGIC, NNUE_MAGIC_SIZE) != 0)
        return net_fail(err, "no JJNNUE magic (not a Jiangjun net)", 0, -1);
    uint32_t version = le32(h + NNUE_OFF_VERSION);
    if (version != NNUE_VERSION && version != NNUE_VERSION_PAYLOAD_SUM)
        return net_fail(err, "version", version, NNUE_VERSION);
    for (size_t i = 0; i < sizeof FIELDS / sizeof *FIELDS; i++)
        if (le32(h + FIELDS[i].offset) != FIELDS[i].want)
            return net_fail(err, FIELDS[i].what, le32(h + FIELDS[i].offset), FIELDS[i].want);
    if (size != NNUE_FILE_SIZE)
        return net_fail(err, size < NNUE_FILE_SIZE ? "truncated: file size" : "trailing bytes: file size",
                        (long long)size, NNUE_FILE_SIZE);
    if (nnue_file_checksum(h, size) != le32(h + NNUE_OFF_CHECKSUM))
        return net_fail(err, "checksum mismatch (corrupt file)", 0, -1);
    return true;
}

/* Checks a net file image and fills the arrays; on error fills err and writes nothing. */
bool nnue_parse_arrays(const uint8_t *data, size_t size, const NnueArrays *to, XqError *err)
{
    if (!check_header(data, size, err))
        return false;
    const uint8_t *p = data + NNUE_HEADER_SIZE + 2 * (NNUE_FEATURES * NNUE_HIDDEN + NNUE_HIDDEN);
    for (int i = 0; i < NNUE_OUTPUT_BUCKETS * 2 * NNUE_HIDDEN; i++) {
        int w = get16(p + 2 * i);
        if (w > NNUE_OUT_WEIGHT_MAX || w < -NNUE_OUT_WEIGHT_MAX)
            return net_fail(err, "an output weight beyond +-127 (the kernels' 16-bit product would overflow)", 0, -1);
    }
    p = data + NNUE_HEADER_SIZE;
    for (int i = 0; i < NNUE_FEATURES * NNUE_HIDDEN; i++, p += 2)
        to->ft_weight[i] = get16(p);
    for (int i = 0; i < NNUE_HIDDEN; i++, p += 2)
        to->ft_bias[i] = get16(p);
    for (int b = 0; b < NNUE_OUTPUT_BUCKETS; b++)
        for (int i = 0; i < 2 * NNUE_HIDDEN; i++, p += 2)
            to->out_weight[b][i] = get16(p);
    for (int b = 0; b < NNUE_OUTPUT_BUCKETS; b++, p += 4)
        to->out_bias[b] = (int32_t)le32(p);
    memcpy(to->desc, data + NNUE_DESC_OFFSET, NNUE_DESC_SIZE);
    to->desc[NNUE_DESC_SIZE] = '\0';
    return true;
}

/* Parses a net file image; on error fills err and leaves net untouched. */
bool nnue_parse(Network *net, const uint8_t *data, size_t size, XqError *err)
{
    const NnueArrays to = { net->ft_weight, net->ft_bias, net->out_weight, net->out_bias, net->desc };
    return nnue_parse_arrays(data, size, &to, err);
}

/* Writes a net's arrays and description as a net file image. */
void nnue_serialise_arrays(const int16_t *ft_weight, const int16_t *ft_bias, const int16_t (*out_weight)[2 * NNUE_HIDDEN],
                           const int32_t *out_bias, const char *desc, uint8_t *out)
{
    memset(out, 0, NNUE_HEADER_SIZE);
    memcpy(out, NNUE_MAGIC, NNUE_MAGIC_SIZE);
    const uint32_t fields[] = { NNUE_VERSION, NNUE_FEATURE_SET, NNUE_FEATURES, NNUE_HIDDEN, NNUE_OUTPUT_BUCKETS,
                                NNUE_QA,      NNUE_QB,          NNUE_SCALE,    NNUE_PAYLOAD_SIZE };
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
        le_put(out + NNUE_OFF_VERSION + 4 * i, fields[i], 4); /* the fields are consecutive */
    size_t len = 0; /* the description's bytes, at most the field's (NUL-padded, not always NUL-terminated) */
    while (desc && len < NNUE_DESC_SIZE && desc[len])
        len++;
    memcpy(out + NNUE_DESC_OFFSET, desc ? desc : "", len);
    uint8_t *p = out + NNUE_HEADER_SIZE;
    for (int i = 0; i < NNUE_FEATURES * NNUE_HIDDEN; i++, p += 2)
        le_put(p, (uint16_t)ft_weight[i], 2);
    for (int i = 0; i < NNUE_HIDDEN; i++, p += 2)
        le_put(p, (uint16_t)ft_bias[i], 2);
    for (int b = 0; b < NNUE_OUTPUT_BUCKETS; b++)
        for (int i = 0; i < 2 * NNUE_HIDDEN; i++, p += 2)
            le_put(p, (uint16_t)out_weight[b][i], 2);
    for (int b = 0; b < NNUE_OUTPUT_BUCKETS; b++, p += 4)
        le_put(p, (uint32_t)out_bias[b], 4);
    le_put(out + NNUE_OFF_CHECKSUM, nnue_file_checksum(out, NNUE_FILE_SIZE), 4); /* the field's bytes are not hashed */
}

/* Writes net in the file format into out. */
void nnue_serialise(const Network *net, uint8_t *out)
{
    nnue_serialise_arrays(net->ft_weight, net->ft_bias, net->out_weight, net->out_bias, net->desc, out);
}

/* Loads a net file (fileload.h's rule: a regular file only, a relative name also beside exe_dir); on error
 * fills err and leaves net untouched. */
bool nnue_load_file(Network *net, const char *path, const char *exe_dir, XqError *err)
{
    uint8_t *buf;
    size_t n;
    XqError why;
    /* one byte more than a net may pass the cap, so that the parser names a longer file's trailing bytes */
    if (!file_load(path, exe_dir, NNUE_FILE_SIZE + 1, &buf, &n, &why)) {
        snprintf(err->msg, sizeof err->msg, "net file '%.50s': %.90s", path, why.msg);
        return false;
    }
    bool ok = nnue_parse(net, buf, n, err);
    free(buf);
    return ok;
}

static Network *default_net;            /* written once, under default_once */
static pthread_once_t default_once = PTHREAD_ONCE_INIT;

/* Parses the embedded net (run once). */
static void load_default(void)
{
    XqError err;
    Network *n = embedded_net_size() ? malloc(sizeof *n) : NULL;
    if (n && nnue_parse(n, embedded_net_data(), embedded_net_size(), &err))
        default_net = n;
    else
        free(n);
}

/* The embedded net, parsed on first use. */
const Network *nnue_default(void)
{
    pthread_once(&default_once, load_default);
    return default_net;
}

/* Adds a perspective's feature rows for every piece of pos, on top of the bias. */
static void refresh(const Network *net, const NnueKernels *k, const Position *pos, int persp, int16_t *out)
{
    const int16_t *rows[NNUE_MAX_ACTIVE];
    int n = 0;
    const int ksq = pos_king_sq(pos, persp);
    const bool mirrored = nnue_mirrored(nnue_sq(sq_file(ksq), sq_rank(ksq)));
    for (int id = RED_TAG; id < RED_TAG + 2 * SIDE_PIECES; id++) {
        int sq = pos->piece_sq[id];
        if (!sq)
            continue;
        int f = nnue_feature(persp, mirrored, piece_side(id), piece_type(id), nnue_sq(sq_file(sq), sq_rank(sq)));
        rows[n++] = net->ft_weight + (size_t)f * NNUE_HIDDEN;
    }
    k->update(out, net->ft_bias, rows, n, NULL, 0);
}

/* Plain square of a board square. */
static inline uint8_t plain_sq(int sq) { return (uint8_t)nnue_sq(sq_file(sq), sq_rank(sq)); }

/* Starts a stack at pos with one fully computed entry. */
void nnue_reset(NnueStack *s, const Network *net, const Position *pos, const NnueKernels *k)
{
    s->k = k ? k : nnue_best_kernels();
    s->top = 0;
    NnueAccum *a = &s->acc[0];
    for (int persp = RED; persp <= BLACK; persp++) {
        refresh(net, s->k, pos, persp, a->v[persp]);
        a->computed[persp] = true;
        a->king_sq[persp] = plain_sq(pos_king_sq(pos, persp));
    }
    a->n_dirty = 0;
}

/* Pushes an entry that inherits the king squares and has no accumulator yet. */
static NnueAccum *push_entry(NnueStack *s)
{
    NnueAccum *prev = &s->acc[s->top], *a = &s->acc[++s->top];
    a->computed[RED] = a->computed[BLACK] = false;
    a->king_sq[RED] = prev->king_sq[RED];
    a->king_sq[BLACK] = prev->king_sq[BLACK];
    a->n_dirty = 0;
    return a;
}

/* Records move m, about to be played on pos. */
void nnue_push(NnueStack *s, const Position *pos, Move m)
{
    NnueAccum *a = push_entry(s);
    const int from = move_from(m), to = move_to(m);
    const int mover = pos->board[from], victim = pos->board[to];
    a->dirty[a->n_dirty++] = (NnueDirty){ (uint8_t)piece_side(mover), (uint8_t)piece_type(mover), plain_sq(from),
                                          plain_sq(to) };
    if (victim)
        a->dirty[a->n_dirty++] = (NnueDirty){ (uint8_t)piece_side(victim), (uint8_t)piece_type(victim), plain_sq(to),
                                              NNUE_NO_SQ };
    if (piece_type(mover) == KING)
        a->king_sq[piece_side(mover)] = plain_sq(to);
}

/* Records a null move: the board, so every accumulator, stays as it was. */
void nnue_push_null(NnueStack *s) { push_entry(s); }

/* Brings entry i's perspective up to date from entry i - 1's (which is computed). */
static void apply_dirty(const Network *net, NnueStack *s, int i, int persp)
{
    const NnueAccum *prev = &s->acc[i - 1];
    NnueAccum *a = &s->acc[i];
    const bool mirrored = nnue_mirrored(a->king_sq[persp]);
    const int16_t *add[NNUE_MAX_DIRTY], *sub[NNUE_MAX_DIRTY];
    int n_add = 0, n_sub = 0;
    for (int d = 0; d < a->n_dirty; d++) {
        const NnueDirty *dp = &a->dirty[d];
        if (dp->from != NNUE_NO_SQ)
            sub[n_sub++] = net->ft_weight + (size_t)nnue_feature(persp, mirrored, dp->side, dp->type, dp->from) * NNUE_HIDDEN;
        if (dp->to != NNUE_NO_SQ)
            add[n_add++] = net->ft_weight + (size_t)nnue_feature(persp, mirrored, dp->side, dp->type, dp->to) * NNUE_HIDDEN;
    }
    s->k->update(a->v[persp], prev->v[persp], add, n_add, sub, n_sub);
    a->computed[persp] = true;
    s->updates++;
}

/* Makes the top entry's accumulator of a perspective current: replays moves from the nearest computed
 * ancestor, unless that perspective's mirror changed on the way, then refreshes from the board. */
static void update_perspective(const Network *net, NnueStack *s, const Position *pos, int persp)
{
    int i = s->top;
    while (!s->acc[i].computed[persp]) {
        if (nnue_mirrored(s->acc[i].king_sq[persp]) != nnue_mirrored(s->acc[i - 1].king_sq[persp])) {
            refresh(net, s->k, pos, persp, s->acc[s->top].v[persp]);
            s->acc[s->top].computed[persp] = true;
            s->refreshes++;
            return;
        }
        i--;
    }
    for (i++; i <= s->top; i++)
        apply_dirty(net, s, i, persp);
}

/* Pieces on the board besides the two kings. */
static int count_pieces(const Position *pos)
{
    int n = 0;
    for (int id = RED_TAG; id < RED_TAG + 2 * SIDE_PIECES; id++)
        n += pos->piece_sq[id] != 0;
    return n - 2;
}

/* The output layer on a pair of current accumulators, clamped below the known-win band. */
static int output(const Network *net, const NnueKernels *k, const int16_t *stm, const int16_t *other, int pieces)
{
    const int bucket = nnue_output_bucket(pieces);
    int64_t sum = k->output(stm, other, net->out_weight[bucket]);
    int64_t v = (sum / NNUE_QA + net->out_bias[bucket]) * NNUE_SCALE / (NNUE_QA * NNUE_QB);
    return (int)(v > EVAL_LIMIT ? EVAL_LIMIT : (v < -EVAL_LIMIT ? -EVAL_LIMIT : v));
}

/* Evaluates the stack's top position for the side to move. */
int nnue_evaluate(const Network *net, NnueStack *s, const Position *pos)
{
    update_perspective(net, s, pos, RED);
    update_perspective(net, s, pos, BLACK);
    const NnueAccum *a = &s->acc[s->top];
    return output(net, s->k, a->v[pos->side], a->v[pos->side ^ 1], count_pieces(pos));
}

/* Evaluates pos from scratch. */
int nnue_evaluate_fresh(const Network *net, const Position *pos, const NnueKernels *k)
{
    int16_t acc[2][NNUE_HIDDEN];
    if (!k)
        k = nnue_best_kernels();
    refresh(net, k, pos, RED, acc[RED]);
    refresh(net, k, pos, BLACK, acc[BLACK]);
    return output(net, k, acc[pos->side], acc[pos->side ^ 1], count_pieces(pos));
}
