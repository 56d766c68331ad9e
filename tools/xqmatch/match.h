/*
 * match.h - a match or tournament: the schedule (gauntlet or round robin,
 * each opening played twice with colours swapped), worker threads playing
 * games concurrently, PGN output, progress, summary and SPRT stopping.
 */
#ifndef XQM_MATCH_H
#define XQM_MATCH_H

#include <stdio.h>

#include "openings.h"
#include "stats.h"

enum { MATCH_ENGINES_MAX = 16 };

typedef enum Tournament { TOURNAMENT_GAUNTLET, TOURNAMENT_ROUND_ROBIN } Tournament;

/* Everything a match needs (filled by the command line). */
typedef struct MatchConfig {
    int engine_count;
    EngineConfig engines[MATCH_ENGINES_MAX];
    Tournament tournament;
    int rounds;                 /* game pairs per pairing (each opening twice, colours swapped) */
    int concurrency;
    TimeControl tc;
    AdjudicationConfig adj;
    OpeningBook book;
    unsigned opening_seed;      /* 0 = openings in file order, else a shuffled order */
    const char *pgn_path;       /* NULL = no PGN */
    const char *log_path;       /* NULL = no engine transcript */
    const char *event;
    const char *tb_dir;         /* -tb DIR: tablebases that adjudicate (NULL = none) */
    bool sprt;
    SprtParams sprt_params;
    int64_t init_timeout_ms;
    bool quiet;                 /* no per-game lines */
} MatchConfig;

/* The outcome of a match, per pairing (from the first-named engine's view). */
typedef struct PairResult {
    int a, b;                   /* engine indices */
    Score score;
    int reasons[END_REASONS];
} PairResult;

typedef struct MatchResult {
    int pair_count;
    PairResult pairs[MATCH_ENGINES_MAX * MATCH_ENGINES_MAX / 2];
    int games_played;
    int games_scheduled;
    bool sprt_stopped;
    SprtStatus sprt;
    int errors;                 /* games that could not be played at all */
} MatchResult;

/* Runs the match; progress and per-game lines go to `out`. Returns false on a setup error. */
bool match_run(const MatchConfig *cfg, MatchResult *res, FILE *out);
/* Prints the final summary. */
void match_print_summary(const MatchConfig *cfg, const MatchResult *res, FILE *out);
/* Prints a result's Elo line: "  Elo difference: E +/- ERR (95%), LOS L%" (one-sided results: +inf or -inf). */
void match_print_elo(Score s, FILE *out);
/* Prints the SPRT line of a test's status: LLR, bounds and the decision. */
void match_print_sprt(const SprtParams *p, SprtStatus st, FILE *out);
/* Formats a time control for the PGN ("60+0.5", "40/60", "depth 8", ...). */
void match_tc_text(const TimeControl *tc, char *out, size_t size);

#endif
