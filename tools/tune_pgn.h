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
    long skipped;    /* games without a usable result or with a bad move */
    long positions;  /* lines written */
} PgnExtractStats;

/*
 * Reads every game of the PGN file at path and writes a line per position
 * from ply `skip_plies` on (and after the opening-book plies the PGN notes)
 * to out. Returns false if the file cannot be read.
 */
bool pgn_extract_file(const char *path, FILE *out, int skip_plies, PgnExtractStats *stats);

#endif
