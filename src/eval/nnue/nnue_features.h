/*
 * nnue_features.h - the network's input features, shared by the engine's
 * inference (nnue.c) and the trainer (tools/xqtrain), so both index alike.
 *
 * Each side ("perspective") sees the board from its own end: ranks flip for
 * black, and files are mirrored when that side's king stands on the right
 * half (files f-i), so its king is always on file d or e. A piece is one
 * piece-square feature per perspective: (own or theirs, type, oriented
 * square), 2 x 7 x 90 = 1260.
 *
 * Feature set 1 (NNUE_FEATURE_SET_PSQ) is those 1260 inputs. Feature set 2
 * (NNUE_FEATURE_SET_KING) repeats them for each of NNUE_KING_BUCKETS king
 * buckets, the perspective's king's palace square as it sees it (rank 0-2
 * from its own end, file d or e after the mirror): 6 x 1260 = 7560 inputs, so
 * the first layer learns what a piece is worth with the king here or there.
 *
 * A perspective's view (which inputs its pieces light up) depends on its
 * king alone: in set 1 a king move across file e changes it (the mirror), in
 * set 2 every king move does (the bucket or the mirror). Such a move
 * refreshes that perspective (nnue_view_changes).
 *
 * Squares here are plain indices rank * 9 + file (0..89, red's back rank 0).
 */
#ifndef XQ_NNUE_FEATURES_H
#define XQ_NNUE_FEATURES_H

#include "base/types.h"

enum {
    NNUE_SQUARES = 90,
    NNUE_FEATURES = 2 * PIECE_TYPES * NNUE_SQUARES, /* 1260: the piece-square inputs of one view */
    NNUE_MAX_ACTIVE = 32,                           /* pieces on a board, so features per perspective */
    NNUE_MIRROR_FILE = 4,                           /* a king on a file above this mirrors its view */
    NNUE_FEATURE_SET_PSQ = 1,                       /* 1260 piece-square inputs */
    NNUE_FEATURE_SET_KING = 2,                      /* 1260 per king bucket */
    NNUE_KING_BUCKETS = 6,                          /* palace ranks 3 x files (d, e) after the mirror */
    NNUE_PALACE_FIRST_FILE = 3,                     /* file d */
    NNUE_KING_SLOTS = 9,                            /* palace squares: a king's square as nnue_king_slot numbers it */
};

/* Plain square index (0..89) of a file and rank. */
static inline int nnue_sq(int file, int rank) { return rank * 9 + file; }

/* Does a perspective whose king stands on plain square king_sq see the board mirrored? */
static inline bool nnue_mirrored(int king_sq) { return king_sq % 9 > NNUE_MIRROR_FILE; }

/* Input count of a feature set (0 for an unknown one). */
static inline int nnue_feature_count(int feature_set)
{
    return feature_set == NNUE_FEATURE_SET_PSQ ? NNUE_FEATURES
         : feature_set == NNUE_FEATURE_SET_KING ? NNUE_KING_BUCKETS * NNUE_FEATURES : 0;
}

/* Input index of a piece (side, type, plain square) seen by perspective persp whose view is mirrored or not. */
static inline int nnue_feature(int persp, bool mirrored, int side, int type, int sq)
{
    int rank = sq / 9, file = sq % 9;
    if (persp == BLACK)
        rank = 9 - rank;
    if (mirrored)
        file = 8 - file;
    return ((side != persp) * PIECE_TYPES + type) * NNUE_SQUARES + rank * 9 + file;
}

/* King bucket (0..NNUE_KING_BUCKETS-1) of perspective persp's king on plain square king_sq (in its palace). */
static inline int nnue_king_bucket(int persp, int king_sq)
{
    int rank = king_sq / 9, file = king_sq % 9;
    if (persp == BLACK)
        rank = 9 - rank;
    if (file > NNUE_MIRROR_FILE)
        file = 8 - file;
    rank = rank < 2 ? rank : 2;               /* a king never leaves its palace; clamped against bad input */
    file = file > NNUE_PALACE_FIRST_FILE ? 1 : 0;
    return rank * 2 + file;
}

/* A perspective's view: the first input of its bucket and whether files are mirrored. */
typedef struct NnueView {
    int base;
    bool mirrored;
} NnueView;

/* The view of perspective persp with its king on plain square king_sq, in a feature set. */
static inline NnueView nnue_view(int feature_set, int persp, int king_sq)
{
    NnueView v = { 0, nnue_mirrored(king_sq) };
    if (feature_set == NNUE_FEATURE_SET_KING)
        v.base = nnue_king_bucket(persp, king_sq) * NNUE_FEATURES;
    return v;
}

/* Input index of a piece in a view. */
static inline int nnue_view_feature(NnueView v, int persp, int side, int type, int sq)
{
    return v.base + nnue_feature(persp, v.mirrored, side, type, sq);
}

/* Does a king move between these plain squares change its side's view (a refresh)? */
static inline bool nnue_view_changes(int feature_set, int king_from, int king_to)
{
    return feature_set == NNUE_FEATURE_SET_KING ? king_from != king_to
                                                : nnue_mirrored(king_from) != nnue_mirrored(king_to);
}

/* Slot 0..8 of a king's plain square among its palace's nine (the accumulator cache's index). */
static inline int nnue_king_slot(int king_sq)
{
    int rank = king_sq / 9, file = king_sq % 9 - NNUE_PALACE_FIRST_FILE;
    rank = rank < 3 ? rank : 9 - rank; /* red's palace ranks 0-2, black's 7-9 */
    rank = rank < 0 ? 0 : (rank > 2 ? 2 : rank);
    file = file < 0 ? 0 : (file > 2 ? 2 : file);
    return rank * 3 + file;
}

#endif
