/* train_data.c - loading and filtering training records (plain or compact files), features, targets and the fit
 * of K. */
#include "train_data.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum {
    K_FIT_MAX = 1 << 20,     /* positions the fit of K looks at (evenly spaced) */
    K_FIT_ITERATIONS = 60,   /* golden-section steps: the bracket shrinks by 0.618^60 */
    BOARD_FILES = 9,         /* files of a plain square index rank * 9 + file */
};
static const double K_FIT_LO = 10.0, K_FIT_HI = 2000.0;

const char *const TRAIN_REASON_NAME[REASON_COUNT] = {
    "kept", "bad record", "in check", "capture", "mate score", "ply < min-ply", "|score| > max-score",
};

/* The default filter. */
TrainFilter train_filter_default(void)
{
    TrainFilter f = { false, false, false, TRAIN_DEFAULT_MIN_PLY, TRAIN_DEFAULT_MAX_SCORE };
    return f;
}

/* Makes room for at least `more` further positions; false if out of memory. */
static bool train_set_reserve(TrainSet *s, size_t more)
{
    if (s->count + more <= s->cap)
        return true;
    size_t cap = s->cap ? s->cap : 1024;
    while (cap < s->count + more)
        cap *= 2;
    TrainPos *p = realloc(s->pos, cap * sizeof *p);
    if (!p)
        return false;
    s->pos = p;
    s->cap = cap;
    return true;
}

/* Appends one position. */
bool train_set_push(TrainSet *s, const TrainPos *p)
{
    if (!train_set_reserve(s, 1))
        return false;
    s->pos[s->count++] = *p;
    return true;
}

/* Frees a set's array. */
void train_set_free(TrainSet *s)
{
    free(s->pos);
    memset(s, 0, sizeof *s);
}

/* Is a decoded record a sound board? */
bool train_record_ok(const PackedPos *rec)
{
    uint8_t taken[NNUE_SQUARES] = { 0 };
    if (rec->stm > BLACK || rec->result < -1 || rec->result > 1)
        return false;
    if (rec->sq[0] == NNUE_REC_ABSENT || rec->sq[SIDE_PIECES] == NNUE_REC_ABSENT)
        return false;
    for (int i = 0; i < 2 * SIDE_PIECES; i++) {
        int s = rec->sq[i];
        if (s == NNUE_REC_ABSENT)
            continue;
        if (s >= NNUE_SQUARES || taken[s])
            return false;
        taken[s] = 1;
    }
    return true;
}

/* Why a record is skipped (or REASON_KEPT). */
static int classify(const PackedPos *rec, const TrainFilter *f, bool unknown_ply)
{
    if (!train_record_ok(rec))
        return REASON_BAD;
    if (!f->keep_check && (rec->flags & NNUE_REC_IN_CHECK))
        return REASON_CHECK;
    if (!f->keep_capture && (rec->flags & NNUE_REC_CAPTURE))
        return REASON_CAPTURE;
    if (!f->keep_mate && (rec->flags & NNUE_REC_MATE))
        return REASON_MATE;
    if (!unknown_ply && rec->ply != TRAIN_PLY_UNKNOWN && rec->ply < f->min_ply)
        return REASON_PLY;
    if (abs(rec->score) > f->max_score)
        return REASON_SCORE;
    return REASON_KEPT;
}

/* Does a record with this ply, after one with ply prev, start a new game? */
static bool starts_game(unsigned ply, unsigned prev)
{
    return ply != TRAIN_PLY_UNKNOWN && prev != TRAIN_PLY_UNKNOWN && ply <= prev;
}

/* Opens a record file of either format (told by its magic) and counts its records. */
static bool open_records(const char *path, RecReader *r, size_t *records, XqError *err)
{
    XqError e;
    RecScan scan;
    if (!rec_reader_open(r, path, &e)) {
        snprintf(err->msg, sizeof err->msg, "%s: %.100s", path, e.msg);
        return false;
    }
    if (!rec_reader_scan(r, &scan, &e))
        snprintf(err->msg, sizeof err->msg, "%s: %.100s", path, e.msg);
    else if (scan.tail && r->format == REC_PLAIN)
        snprintf(err->msg, sizeof err->msg, "%s: truncated (size %llu is not 16 + 40 * n)", path,
                 (unsigned long long)scan.bytes);
    else if (scan.tail)
        snprintf(err->msg, sizeof err->msg, "%s: truncated (its last %ld bytes are a cut-off block)", path, scan.tail);
    else {
        *records = (size_t)scan.records;
        return true;
    }
    rec_reader_close(r);
    return false;
}

/* Reads the next record; false (with err) if the file ends early or is corrupt. */
static bool read_record(RecReader *r, const char *path, uint8_t raw[NNUE_REC_SIZE], XqError *err)
{
    if (rec_reader_next(r, raw))
        return true;
    snprintf(err->msg, sizeof err->msg, "%s: %.100s", path, r->failed ? r->err.msg : "read error");
    return false;
}

/*
 * First pass: are the plies unknown (none in 1..0xFFFE), and where does the validation block start?
 * The cut is the first game start at or after the nominal cut, else the last one before it; with
 * unknown plies (or no game start at all) it is the nominal cut.
 */
static bool scan_plies(RecReader *r, const char *path, size_t n, double valid_frac, bool *unknown, size_t *cut,
                       XqError *err)
{
    size_t nominal = n - (size_t)llround(valid_frac * (double)n);
    size_t after = n + 1, before = 0;
    unsigned prev = TRAIN_PLY_UNKNOWN;
    *unknown = true;
    for (size_t at = 0; at < n;) {
        unsigned first;
        uint32_t run;
        if (!rec_reader_next_plies(r, &first, &run) || run > n - at) {
            snprintf(err->msg, sizeof err->msg, "%s: %.100s", path, r->failed ? r->err.msg : "read error");
            return false;
        }
        for (uint32_t j = 0; j < run; j++, at++) { /* the plies of a run are consecutive */
            unsigned ply = first + j;
            if (ply != 0 && ply != TRAIN_PLY_UNKNOWN)
                *unknown = false;
            if (at > 0 && starts_game(ply, prev)) {
                if (at >= nominal && after > n)
                    after = at;
                if (at < nominal)
                    before = at;
            }
            prev = ply;
        }
    }
    if (valid_frac <= 0)
        *cut = n;
    else if (valid_frac >= 1)
        *cut = 0;
    else if (*unknown)
        *cut = nominal;
    else if (after <= n)
        *cut = after;
    else
        *cut = before ? before : nominal;
    if (rec_reader_rewind(r))
        return true;
    snprintf(err->msg, sizeof err->msg, "%s: cannot seek", path);
    return false;
}

/* Loads a record file (either format) into train and valid through the filter. */
bool train_load_file(const char *path, const TrainFilter *filter, double valid_frac, TrainSet *train,
                     TrainSet *valid, TrainCounts *train_counts, TrainCounts *valid_counts, bool *unknown_ply,
                     XqError *err)
{
    size_t n, cut;
    RecReader r;
    if (!open_records(path, &r, &n, err))
        return false;
    bool ok = scan_plies(&r, path, n, valid_frac, unknown_ply, &cut, err);
    if (ok && (!train_set_reserve(train, cut) || !train_set_reserve(valid, n - cut))) {
        snprintf(err->msg, sizeof err->msg, "%s: out of memory for %zu records", path, n);
        ok = false;
    }
    for (size_t i = 0; ok && i < n; i++) {
        uint8_t raw[NNUE_REC_SIZE];
        PackedPos rec;
        if (!read_record(&r, path, raw, err)) {
            ok = false;
            break;
        }
        packed_decode(raw, &rec);
        bool to_valid = i >= cut;
        int why = classify(&rec, filter, *unknown_ply);
        (to_valid ? valid_counts : train_counts)->n[why]++;
        if (why != REASON_KEPT)
            continue;
        TrainPos p;
        memcpy(p.sq, rec.sq, sizeof p.sq);
        p.stm = rec.stm;
        p.result = rec.result;
        p.score = rec.score;
        train_set_push(to_valid ? valid : train, &p); /* room was reserved */
    }
    rec_reader_close(&r);
    return ok;
}

/* nnue_feature() of each perspective, mirroring, piece identity (0..31) and plain square. */
static uint16_t feature_of[2][2][2 * SIDE_PIECES][NNUE_SQUARES];
static pthread_once_t feature_once = PTHREAD_ONCE_INIT;

/* Fills feature_of. */
static void feature_table_init(void)
{
    for (int persp = 0; persp < 2; persp++)
        for (int m = 0; m < 2; m++)
            for (int i = 0; i < 2 * SIDE_PIECES; i++)
                for (int s = 0; s < NNUE_SQUARES; s++)
                    feature_of[persp][m][i][s] =
                        (uint16_t)nnue_feature(persp, m, i / SIDE_PIECES, ID_TYPE[i % SIDE_PIECES], s);
}

/* The trainer's view of a FEN. */
bool train_pos_from_fen(const char *fen, TrainPos *p, XqError *err)
{
    Position *pos = malloc(sizeof *pos);
    if (!pos) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return false;
    }
    bool ok = pos_from_fen(pos, fen, err);
    if (ok) {
        PackedPos rec;
        packed_from_position(&rec, pos);
        memset(p, 0, sizeof *p);
        memcpy(p->sq, rec.sq, sizeof p->sq);
        p->stm = rec.stm;
    }
    free(pos);
    return ok;
}

/* The left-right mirror of a position. */
void train_mirror(const TrainPos *p, TrainPos *out)
{
    *out = *p;
    for (int i = 0; i < 2 * SIDE_PIECES; i++) {
        int s = p->sq[i];
        if (s != NNUE_REC_ABSENT)
            out->sq[i] = (uint8_t)(s - s % BOARD_FILES + (BOARD_FILES - 1 - s % BOARD_FILES));
    }
}

/* Computes the features of a feature set and the output bucket of a position (squares are checked by
 * train_record_ok). */
void train_features(const TrainPos *p, int feature_set, TrainFeatures *f)
{
    pthread_once(&feature_once, feature_table_init);
    for (int k = 0; k < 2; k++) {
        int persp = k == 0 ? p->stm : !p->stm;
        NnueView view = nnue_view(feature_set, persp, p->sq[persp * SIDE_PIECES]);
        uint16_t(*table)[NNUE_SQUARES] = feature_of[persp][view.mirrored];
        int c = 0;
        for (int i = 0; i < 2 * SIDE_PIECES; i++) {
            int s = p->sq[i];
            if (s != NNUE_REC_ABSENT)
                f->index[k][c++] = (uint16_t)(view.base + table[i][s]);
        }
        f->count[k] = c;
    }
    f->bucket = nnue_output_bucket(f->count[0] - 2);
}

/* The logistic function. */
double train_sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

/* Training target: a blend of the game result and the score's win probability. */
double train_target(const TrainPos *p, double k, double lambda)
{
    return lambda * (p->result + 1) * 0.5 + (1.0 - lambda) * train_sigmoid(p->score / k);
}

/* Mean (sigmoid(score / k) - result01)^2 over evenly spaced positions of s. */
static double k_error(const TrainSet *s, size_t step, double k)
{
    double sum = 0;
    size_t n = 0;
    for (size_t i = 0; i < s->count; i += step, n++) {
        double d = train_sigmoid(s->pos[i].score / k) - (s->pos[i].result + 1) * 0.5;
        sum += d * d;
    }
    return n ? sum / (double)n : 0;
}

/* Fits K by golden-section search on [10, 2000]. */
double train_fit_k(const TrainSet *s)
{
    const double inv_phi = (sqrt(5.0) - 1) / 2;
    size_t step = s->count > K_FIT_MAX ? s->count / K_FIT_MAX : 1;
    double a = K_FIT_LO, b = K_FIT_HI;
    double c = b - inv_phi * (b - a), d = a + inv_phi * (b - a);
    double fc = k_error(s, step, c), fd = k_error(s, step, d);
    for (int i = 0; i < K_FIT_ITERATIONS; i++) {
        if (fc < fd) {
            b = d;
            d = c;
            fd = fc;
            c = b - inv_phi * (b - a);
            fc = k_error(s, step, c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + inv_phi * (b - a);
            fd = k_error(s, step, d);
        }
    }
    return (a + b) / 2;
}
