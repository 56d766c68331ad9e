/*
 * xqbook_pgn.h - a book from games: every move of every game (up to a ply
 * limit) counted with the game's result from the mover's side; a move is
 * kept when it was played in enough games and scored well enough there.
 */
#ifndef XQT_XQBOOK_PGN_H
#define XQT_XQBOOK_PGN_H

#include "xqbook_table.h"

/* What a PGN build keeps. */
typedef struct PgnBookOptions {
    int max_plies;     /* moves after this many plies of a game are not counted */
    int min_games;     /* a move played in fewer games is dropped */
    int min_score;     /* a move that scored less (percent, for its mover) is dropped */
} PgnBookOptions;

/* What reading the games found. */
typedef struct PgnBookStats {
    long games;        /* games counted */
    long skipped;      /* games without a usable result, or with a move that does not replay */
    long moves;        /* moves counted */
} PgnBookStats;

/* Counts the games of one PGN file into t; false if the file cannot be read. */
bool pgn_book_read(BookTable *t, const char *path, const PgnBookOptions *opt, PgnBookStats *stats);
/* Gives each counted move its weight, 2 per win and 1 per draw (at least 1), or 0 when it fails the options'
 * minimums; returns how many moves are kept. */
size_t pgn_book_weigh(BookTable *t, const PgnBookOptions *opt);

#endif
