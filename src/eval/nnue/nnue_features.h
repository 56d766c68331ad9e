/*
 * nnue_features.h - the network's input features, shared by the engine's
 * inference (nnue.c) and the trainer (tools/xqtrain), so both index alike.
 *
 * Each side ("perspective") sees the board from its own end: ranks flip for
 * black, and files are mirrored when that side's king stands on the right
 * half (files f-i), so its king is always on file d or e. A piece is one
 * feature per perspective: (own or theirs, type, oriented square), 2 x 7 x 90
 * = 1260 inputs. A king move across file e changes the mirror and refreshes
 * that perspective (nnue_needs_refresh).
 *
 * Squares here are plain indices rank * 9 + file (0..89, red's back rank 0).
 */
#ifndef XQ_NNUE_FEATURES_H
#define XQ_NNUE_FEATURES_H

#include "base/types.h"

enum {
    NNUE_SQUARES = 90,
    NNUE_FEATURES = 2 * PIECE_TYPES * NNUE_SQUARES, /* 1260 */
    NNUE_MAX_ACTIVE = 32,                           /* pieces on a board, so features per perspective */
    NNUE_MIRROR_FILE = 4,                           /* a king on a file above this mirrors its view */
};

/* Plain square index (0..89) of a file and rank. */
static inline int nnue_sq(int file, int rank) { return rank * 9 + file; }

/* Does a perspective whose king stands on plain square king_sq see the board mirrored? */
static inline bool nnue_mirrored(int king_sq) { return king_sq % 9 > NNUE_MIRROR_FILE; }

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

/* Does a king move between these plain squares change its side's view (a full refresh)? */
static inline bool nnue_needs_refresh(int king_from, int king_to) { return nnue_mirrored(king_from) != nnue_mirrored(king_to); }

#endif
