/*
 * xqbook_tree.h - a book from Jiangjun's own analysis: a breadth-first walk
 * of the move tree from a root, where each position before the ply limit is
 * searched to a fixed depth, then again without the moves found so far,
 * and every move scoring within a margin of the best (up to a width) goes
 * into the book and, before the limit, into the tree. A position and its
 * mirror, and transpositions, are analysed once. The walk is deterministic:
 * one search thread, fixed depths, a fixed order.
 */
#ifndef XQT_XQBOOK_TREE_H
#define XQT_XQBOOK_TREE_H

#include <stdio.h>

#include "eval/nnue/nnue.h"
#include "xqbook_table.h"

enum { TREE_PLIES_MAX = 40, TREE_WEIGHT_BEST = 100 };

/* What to analyse and how. */
typedef struct TreeOptions {
    const char *fen;          /* the root (NULL: the start position) */
    char *const *moves;       /* moves from it to the root */
    int n_moves;
    int plies;                /* positions up to this many plies past the root are analysed (1..TREE_PLIES_MAX) */
    int depth;                /* search depth per search */
    uint64_t nodes;           /* node cap per search (0: none) */
    int margin;               /* a move scoring at most this much below the best is kept */
    int width;                /* at most this many moves per position (a mirror twin not counted) */
    int hash_mb;
    const Network *net;       /* the evaluation (NULL: the hand-crafted one) */
    FILE *progress;           /* progress and ETA lines (NULL: none) */
    int progress_every_s;
} TreeOptions;

/* What the walk did. */
typedef struct TreeStats {
    long positions;           /* positions analysed */
    long searches;
    long moves;               /* book moves recorded */
    int64_t ms;
} TreeStats;

/* Walks the tree and records its moves into t; false with err filled on a bad root or out of memory. */
bool tree_book_build(BookTable *t, const TreeOptions *opt, TreeStats *stats, XqError *err);
/* The weight of a move delta below the best (margin > 0): TREE_WEIGHT_BEST for the best, about half at the margin. */
uint32_t tree_book_weight(int delta, int margin);

#endif
