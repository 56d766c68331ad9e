/*
 * tune_pgn.h - turns xqmatch PGN games into labelled positions for the eval
 * tuner: one "FEN;result" line per position played, result 1.0/0.5/0.0 from
 * red's point of view.
 */
#ifndef XQT_TUNE_PGN_H
#define XQT_TUNE_PGN_H

#include <stdbool.h>
#include <stdio.h>

/* Counts of one extraction run. */
typedef struct PgnExtractStats {
    long games;      /* games with a decisive or drawn result that were written */
    long skipped;    /* games without a usable result (or lost on time, crash, ...) or with a bad move */
    long positions;  /* lines written */
    long valid_games;  /* of the games, those written to the validation file */
} PgnExtractStats;

/* Where extracted positions go. */
typedef struct PgnExtractOutput {
    FILE *train;
    FILE *valid;      /* every valid_every-th usable game goes here instead (NULL: none) */
    int valid_every;
    int skip_plies;   /* positions before this ply are left out (besides the book plies) */
} PgnExtractOutput;

/*
 * Reads every game of the PGN file at path and writes a line per position
 * after the opening-book plies the PGN notes. Returns false if the file
 * cannot be read.
 */
bool pgn_extract_file(const char *path, const PgnExtractOutput *out, PgnExtractStats *stats);

#endif
