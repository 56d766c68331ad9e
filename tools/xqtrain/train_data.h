/*
 * train_data.h - the trainer's positions: loading record files of either
 * format (plain 40-byte records, src/eval/nnue/nnue_data.h, or compact
 * blocks of games, tools/common/rec_pack.h) with filters and a held-out validation block, the
 * network's input features of a position, the training target and the fit
 * of the sigmoid scale K.
 */
#ifndef XQ_TRAIN_DATA_H
#define XQ_TRAIN_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "common/rec_file.h"
#include "eval/nnue/nnue_arch.h"
#include "eval/nnue/nnue_data.h"

enum {
    TRAIN_PLY_UNKNOWN = 0xFFFF, /* a record ply that says "not known" (never filtered by ply) */
    TRAIN_DEFAULT_MIN_PLY = 16,
    TRAIN_DEFAULT_MAX_SCORE = 3000,
};

/* One kept position in memory (36 bytes): what the trainer needs of a record. */
typedef struct TrainPos {
    uint8_t sq[2 * SIDE_PIECES]; /* plain square per identity, NNUE_REC_ABSENT if captured */
    uint8_t stm;
    int8_t result;               /* side to move's view: 1 win, 0 draw, -1 loss */
    int16_t score;               /* centipawns, side to move's view */
} TrainPos;

/* A growable array of positions. */
typedef struct TrainSet {
    TrainPos *pos;
    size_t count, cap;
} TrainSet;

/* Which records are skipped. */
typedef struct TrainFilter {
    bool keep_check, keep_capture, keep_mate; /* false: skip records with that flag */
    int min_ply;                              /* skip plies below this (0: no ply filter) */
    int max_score;                            /* skip |score| above this */
} TrainFilter;

/* Why a record was kept or skipped; a record counts under the first reason that applies. */
enum TrainReason {
    REASON_KEPT, REASON_BAD, REASON_CHECK, REASON_CAPTURE, REASON_MATE, REASON_PLY, REASON_SCORE, REASON_COUNT
};

/* Records per reason. */
typedef struct TrainCounts {
    uint64_t n[REASON_COUNT];
} TrainCounts;

/* The input features of one position: index 0 is the side to move's perspective, 1 the other's. */
typedef struct TrainFeatures {
    int count[2];
    uint16_t index[2][NNUE_MAX_ACTIVE];
    int bucket;
} TrainFeatures;

extern const char *const TRAIN_REASON_NAME[REASON_COUNT];

/* The default filter: skip check, capture and mate records, ply < 16, |score| > 3000. */
TrainFilter train_filter_default(void);
/* Appends one position; false if out of memory. */
bool train_set_push(TrainSet *s, const TrainPos *p);
/* Frees a set's array. */
void train_set_free(TrainSet *s);
/* Is a decoded record a sound board (squares on the board and distinct, both kings, side 0/1, result -1..1)? */
bool train_record_ok(const PackedPos *rec);
/*
 * Loads a record file, plain or compact (common/rec_file.h; told by its magic): the last valid_frac of its
 * records (moved forward to the next game's start when plies tell games apart) go to valid, the rest to train,
 * each through the filter.
 * A file with no ply in 1..0xFFFE has unknown plies and is not filtered by ply (*unknown_ply set).
 */
bool train_load_file(const char *path, const TrainFilter *filter, double valid_frac, TrainSet *train,
                     TrainSet *valid, TrainCounts *train_counts, TrainCounts *valid_counts, bool *unknown_ply,
                     XqError *err);
/* The trainer's view of a FEN (result and score 0); false with err filled if the FEN is not a legal position. */
bool train_pos_from_fen(const char *fen, TrainPos *p, XqError *err);
/* The left-right mirror of a position (file f -> 8 - f for every piece): the same value, other features. */
void train_mirror(const TrainPos *p, TrainPos *out);
/* Computes the features of a feature set (nnue_features.h: view base + piece-square index) and the output bucket
 * of a position. */
void train_features(const TrainPos *p, int feature_set, TrainFeatures *f);
/* The logistic function. */
double train_sigmoid(double x);
/* Training target: lambda * result01 + (1 - lambda) * sigmoid(score / k). */
double train_target(const TrainPos *p, double k, double lambda);
/* Fits K by golden-section search, minimising mean (sigmoid(score / K) - result01)^2 over s. */
double train_fit_k(const TrainSet *s);

#endif
