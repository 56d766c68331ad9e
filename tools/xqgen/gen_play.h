/*
 * gen_play.h - xqgen play: self-play games on several worker threads, written
 * to a record file strictly in game-index order.
 *
 * Workers take game indices from an atomic counter; a finished game waits
 * until every earlier game is written. So the file is byte-identical for the
 * same options whatever the number of threads, and a run stopped early (by a
 * signal, or -positions) writes a prefix of the games a longer run writes.
 * A shard's run plays the game indices of its share (gen_shard.h) the same way.
 */
#ifndef XQG_GEN_PLAY_H
#define XQG_GEN_PLAY_H

#include <signal.h>
#include <stdio.h>

#include "gen_game.h"
#include "gen_shard.h"

enum { GEN_MAX_THREADS = 256 };

/* How a run is stopped, where it writes and how it reports. */
typedef struct GenRunOptions {
    const char *out_path;
    bool append;                         /* add to an existing record file instead of creating it */
    uint64_t games;                      /* games to write; 0 = no limit (then positions must be set) */
    uint64_t positions;                  /* stop with the game that brings the count to this; 0 = none */
    int threads;
    int progress_s;                      /* seconds between progress lines on log; 0 = only the last */
    FILE *log;                           /* progress lines; NULL = silent */
    volatile sig_atomic_t *interrupted;  /* set by a signal handler to stop after the complete games; may be NULL */
    RecFormat format;                    /* of the output (an appended file must have it) */
    const GenShard *shard;               /* play only this shard's games, into a shard file; NULL = all */
} GenRunOptions;

/* What a run wrote. */
typedef struct GenSummary {
    uint64_t games, positions;
    uint64_t results[3];                 /* games won by black, drawn, won by red (winner + 1) */
    uint64_t ends[GEN_ENDS];
    uint64_t in_check, capture, mate;    /* records with each flag */
    uint64_t openings;                   /* openings drawn (a redrawn one counts again) */
    uint64_t plies;                      /* sum over written games of their last record's ply + 1 */
    int64_t ms;
    bool interrupted;
} GenSummary;

/* Plays and writes the games; false with err filled on an I/O or memory failure. */
bool gen_run(const GenConfig *cfg, const GenRunOptions *opt, GenSummary *sum, XqError *err);
/* Prints a summary: counts, rates, average length, results, end reasons and flag fractions. */
void gen_summary_print(FILE *f, const GenSummary *sum);

#endif
