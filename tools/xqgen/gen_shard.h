/*
 * gen_shard.h - xqgen play -shard I/N and xqgen merge: a run's games cut into
 * N contiguous shares, each played on its own (another machine), and joined
 * back into exactly the bytes of the run without -shard.
 *
 * Shard I of N plays the games [first, first + games) of the run's -games G:
 * the G / N games each, the first G % N shards one more. Contiguous shares
 * make a shard's records one byte range of the unsharded file, so merge is a
 * concatenation (no game boundaries to find, constant memory).
 *
 * A shard file is a record file (either format) inside an envelope
 * (common/rec_file.h): SHARD_SIZE bytes, little-endian:
 *   0    "XQSHARD\1"              8    uint32 SHARD_SIZE
 *   12   uint32 I (1..N)          16   uint32 N
 *   20   uint32 state (ShardState)
 *   24   uint64 G                 32   uint64 first game index
 *   40   uint64 games of the shard
 *   48   uint64 games written     56   uint64 records written
 *   64   the options that decide the bytes, as text (-games, -seed, -nodes, ..., -net as a hash of its
 *        file, -format), NUL-padded to 512 bytes
 *   576  the build (version and git revision), NUL-padded to 128 bytes; then zeros
 * The run writes the envelope first (state "writing") and again at its end.
 */
#ifndef XQG_GEN_SHARD_H
#define XQG_GEN_SHARD_H

#include <stdio.h>

#include "common/rec_file.h"
#include "gen_game.h"

enum { SHARD_SIZE = 1024, SHARD_OPTIONS_MAX = 512, SHARD_BUILD_MAX = 128, SHARD_MAX_COUNT = 1000000 };

/* Where a shard's run got to. */
typedef enum ShardState {
    SHARD_WRITING,  /* the run is going on, or was killed */
    SHARD_COMPLETE, /* every game of the share is written */
    SHARD_STOPPED,  /* stopped early (a signal, an error) */
    SHARD_STATES
} ShardState;

/* One shard: its place in the run, the run's options, and what it wrote. */
typedef struct GenShard {
    uint32_t index, count; /* I (1..N) and N */
    ShardState state;
    uint64_t total_games, first, games;
    uint64_t games_written, records_written;
    char options[SHARD_OPTIONS_MAX];
    char build[SHARD_BUILD_MAX];
} GenShard;

/* What a merge wrote. */
typedef struct MergeStats {
    uint32_t shards;
    uint64_t games, records, bytes;
    RecFormat format;
} MergeStats;

/* The evaluation's name in a shard's options: "hce" (net NULL), else "fnv1a64:" and the 64-bit FNV-1a hash of
 * the net file's bytes (net_arg's file, or the built-in net's when net_arg is NULL or "nnue"), so a net is
 * known by its contents wherever its file lies; false with err if the file cannot be read. */
bool gen_net_identity(const char *net_arg, const void *net, char *out, size_t size, XqError *err);
/* Parses "I/N" (1 <= I <= N <= SHARD_MAX_COUNT); false if it is not that. */
bool gen_shard_parse(const char *text, uint32_t *index, uint32_t *count);
/* Sets up shard I of N of a run of total_games games: its share and the text of the options given
 * (net_id names the evaluation: "hce" or a hash of the net's bytes); false with err if N > total_games. */
bool gen_shard_init(GenShard *s, uint32_t index, uint32_t count, uint64_t total_games, const GenConfig *cfg,
                    RecFormat format, const char *net_id, XqError *err);
/* Writes the envelope at the start of f (then f is at its end); false on a write error. */
bool gen_shard_write(FILE *f, const GenShard *s);
/* Reads and checks the envelope at the start of f; false with err if it is not a sound one. */
bool gen_shard_read(FILE *f, GenShard *s, XqError *err);
/* Joins shard files (given in any order) into out_path: the record header and then every shard's records
 * in shard order. Refuses (err filled, no output) shards of different runs or options, a missing or
 * repeated shard, an unfinished or damaged one; warns on log about shards of different builds. */
bool gen_merge(const char *out_path, char *const *paths, int n, FILE *log, MergeStats *st, XqError *err);

#endif
