/*
 * gen_play.c - the worker threads of xqgen play, the in-order writer, and
 * the progress lines.
 */
#include "gen_play.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/platform.h"

enum { POLL_MS = 100, MS_PER_S = 1000, NS_PER_MS = 1000000, SECONDS_PER_MINUTE = 60, SECONDS_PER_HOUR = 3600 };

/* State shared by the workers and the writer. Fields marked (lock) are read and written under lock. */
typedef struct RunState {
    const GenConfig *cfg;
    const GenRunOptions *opt;
    FILE *out;
    RecWriter writer;              /* (lock) the output's records */
    pthread_mutex_t lock;
    _Atomic uint64_t next_index;   /* next game index a worker takes */
    _Atomic uint64_t limit;        /* games from this index on are not played or written */
    atomic_bool failed;            /* an I/O or memory error: everyone stops */
    atomic_int running;            /* workers not yet finished */
    uint64_t next_write;           /* (lock) index of the next game to write */
    GenGame **pending;             /* (lock) finished games waiting for an earlier one */
    size_t n_pending, cap_pending; /* (lock) */
    GenSummary sum;                /* (lock) */
    XqError err;                   /* (lock) the first error */
} RunState;

/* One worker thread: its engine state and the run it works for. */
typedef struct WorkerArg {
    RunState *rs;
    GenWorker w;
    pthread_t thread;
} WorkerArg;

/* Has the run been interrupted by a signal? */
static bool interrupted(const RunState *rs) { return rs->opt->interrupted && *rs->opt->interrupted; }

/* Should game `index` be given up (or not started)? The GenCancelFn of the workers. */
static bool game_cancelled(void *ctx, uint64_t index)
{
    RunState *rs = ctx;
    return atomic_load(&rs->failed) || interrupted(rs) || index >= atomic_load(&rs->limit);
}

/* Records the first error (under lock) and stops the run. */
static void fail_locked(RunState *rs, const char *msg)
{
    if (!atomic_load(&rs->failed))
        snprintf(rs->err.msg, sizeof rs->err.msg, "%s", msg);
    atomic_store(&rs->failed, true);
}

/* Writes one game's records (a block of its own in the compact format); false on a write error. */
static bool write_game(RecWriter *w, const GenGame *g)
{
    for (int i = 0; i < g->count; i++) {
        uint8_t bytes[NNUE_REC_SIZE];
        packed_encode(&g->rec[i], bytes);
        if (!rec_writer_put(w, bytes))
            return false;
    }
    return rec_writer_end_game(w);
}

/* Adds a written game to the summary. */
static void count_game(GenSummary *sum, const GenGame *g)
{
    sum->games++;
    sum->positions += (uint64_t)g->count;
    sum->results[g->winner + 1]++;
    sum->ends[g->end]++;
    sum->openings += (uint64_t)g->openings;
    if (g->count)
        sum->plies += (uint64_t)g->rec[g->count - 1].ply + 1;
    for (int i = 0; i < g->count; i++) {
        sum->in_check += (g->rec[i].flags & NNUE_REC_IN_CHECK) != 0;
        sum->capture += (g->rec[i].flags & NNUE_REC_CAPTURE) != 0;
        sum->mate += (g->rec[i].flags & NNUE_REC_MATE) != 0;
    }
}

/* Frees a game and its records. */
static void drop_game(GenGame *g)
{
    gen_game_free(g);
    free(g);
}

/* Position of the pending game with this index, or n_pending if none (under lock). */
static size_t find_pending(const RunState *rs, uint64_t index)
{
    size_t i = 0;
    while (i < rs->n_pending && rs->pending[i]->index != index)
        i++;
    return i;
}

/* Drops every pending game (under lock): none of them can be written any more. */
static void drop_pending(RunState *rs)
{
    for (size_t i = 0; i < rs->n_pending; i++)
        drop_game(rs->pending[i]);
    rs->n_pending = 0;
}

/* Writes the pending games that are next in index order (under lock); applies the positions limit. */
static void flush_in_order(RunState *rs)
{
    for (;;) {
        size_t i = find_pending(rs, rs->next_write);
        if (i == rs->n_pending)
            return;
        GenGame *g = rs->pending[i];
        rs->pending[i] = rs->pending[--rs->n_pending];
        if (!write_game(&rs->writer, g)) {
            fail_locked(rs, "write error on the output file");
            drop_game(g);
            return;
        }
        count_game(&rs->sum, g);
        drop_game(g);
        rs->next_write++;
        if (rs->opt->positions && rs->sum.positions >= rs->opt->positions) {
            atomic_store(&rs->limit, rs->next_write);
            drop_pending(rs);
            return;
        }
    }
}

/* Hands a finished game to the writer: written now if all earlier ones are, else kept until they are. */
static void deliver(RunState *rs, GenGame *g)
{
    pthread_mutex_lock(&rs->lock);
    if (g->index >= atomic_load(&rs->limit) || atomic_load(&rs->failed)) {
        drop_game(g);
    } else {
        if (rs->n_pending == rs->cap_pending) {
            size_t cap = rs->cap_pending ? 2 * rs->cap_pending : 16;
            GenGame **p = realloc(rs->pending, cap * sizeof *p);
            if (!p) {
                fail_locked(rs, "out of memory for finished games");
                drop_game(g);
                pthread_mutex_unlock(&rs->lock);
                return;
            }
            rs->pending = p;
            rs->cap_pending = cap;
        }
        rs->pending[rs->n_pending++] = g;
        flush_in_order(rs);
    }
    pthread_mutex_unlock(&rs->lock);
}

/* A worker: takes the next game index, plays it, hands it over, until the run stops. */
static void *worker_main(void *arg)
{
    WorkerArg *wa = arg;
    RunState *rs = wa->rs;
    for (;;) {
        uint64_t index = atomic_fetch_add(&rs->next_index, 1);
        if (game_cancelled(rs, index))
            break;
        GenGame *g = malloc(sizeof *g);
        bool ok = g && gen_play_game(&wa->w, rs->cfg, index, game_cancelled, rs, g);
        if (!ok) {
            free(g);
            if (!game_cancelled(rs, index)) {
                pthread_mutex_lock(&rs->lock);
                fail_locked(rs, "out of memory for a game's records");
                pthread_mutex_unlock(&rs->lock);
            }
            break;
        }
        deliver(rs, g);
    }
    atomic_fetch_sub(&rs->running, 1);
    return NULL;
}

/* Opens an existing record file to append to (its format, header and whole records or blocks checked, positioned
 * at its end); NULL if it is missing (err->msg empty) or unusable (err filled). An empty file gets its header. */
static FILE *open_existing(const GenRunOptions *opt, XqError *err)
{
    const char *path = opt->out_path;
    err->msg[0] = '\0';
    FILE *f = fopen(path, "r+b");
    if (!f) {
        if (errno != ENOENT)
            snprintf(err->msg, sizeof err->msg, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    bool ok = size >= 0;
    if (size == 0) {
        ok = rec_write_header(f, opt->format);
    } else if (ok) {
        RecReader r;
        RecScan scan;
        XqError why;
        if (!rec_reader_open(&r, path, &why)) {
            snprintf(err->msg, sizeof err->msg, "%.40s: %.110s", path, why.msg);
        } else if (r.start != REC_FILE_HEADER) {
            snprintf(err->msg, sizeof err->msg, "%.60s is a shard: not appending to it (merge the shards)", path);
        } else if (r.format != opt->format) {
            snprintf(err->msg, sizeof err->msg, "%.60s is a %s file, not %s (-format)", path, rec_format_name(r.format),
                     rec_format_name(opt->format));
        } else if (!rec_reader_scan(&r, &scan, &why)) {
            snprintf(err->msg, sizeof err->msg, "%.40s: %.110s", path, why.msg);
        } else if (scan.tail) {
            snprintf(err->msg, sizeof err->msg, "%s ends in a partial %s: not appending to it", path,
                     r.format == REC_PLAIN ? "record" : "block");
        }
        if (r.f)
            rec_reader_close(&r);
        ok = !err->msg[0];
    }
    if (ok)
        ok = fseek(f, 0, SEEK_END) == 0;
    if (!ok) {
        if (!err->msg[0])
            snprintf(err->msg, sizeof err->msg, "cannot append to %s", path);
        fclose(f);
        return NULL;
    }
    return f;
}

/* Opens the output: (append) an existing record file at its end, else a new file with its header (after the
 * shard envelope, for a shard). */
static FILE *open_output(const GenRunOptions *opt, XqError *err)
{
    if (opt->append) {
        FILE *f = open_existing(opt, err);
        if (f || err->msg[0])
            return f;
    }
    FILE *f = fopen(opt->out_path, "wb");
    if (!f || (opt->shard && !gen_shard_write(f, opt->shard)) || !rec_write_header(f, opt->format)) {
        snprintf(err->msg, sizeof err->msg, "cannot write %s", opt->out_path);
        if (f)
            fclose(f);
        return NULL;
    }
    return f;
}

/* Closes the output; a shard's envelope first gets what the run wrote. False on a write error. */
static bool close_output(RunState *rs)
{
    bool ok = true;
    if (rs->opt->shard) {
        GenShard s = *rs->opt->shard;
        s.games_written = rs->sum.games;
        s.records_written = rs->sum.positions;
        s.state = !atomic_load(&rs->failed) && s.games_written == s.games ? SHARD_COMPLETE : SHARD_STOPPED;
        ok = fflush(rs->out) == 0 && gen_shard_write(rs->out, &s);
    }
    return (fclose(rs->out) == 0) && ok;
}

/* Writes "1h02m03s"-style text for a number of seconds. */
static void format_duration(double s, char *out, size_t size)
{
    long t = s > 0 && s < 1e9 ? (long)(s + 0.5) : 0;
    if (t >= SECONDS_PER_HOUR)
        snprintf(out, size, "%ldh%02ldm%02lds", t / SECONDS_PER_HOUR, t % SECONDS_PER_HOUR / SECONDS_PER_MINUTE,
                 t % SECONDS_PER_MINUTE);
    else
        snprintf(out, size, "%ldm%02lds", t / SECONDS_PER_MINUTE, t % SECONDS_PER_MINUTE);
}

/* Prints one progress line: games and positions written, rates and the time left. */
static void print_progress(RunState *rs, int64_t ms)
{
    pthread_mutex_lock(&rs->lock);
    GenSummary s = rs->sum;
    pthread_mutex_unlock(&rs->lock);
    const GenRunOptions *opt = rs->opt;
    double secs = ms > 0 ? (double)ms / MS_PER_S : 1e-3;
    double gps = (double)s.games / secs, pps = (double)s.positions / secs, eta = -1;
    if (opt->games && gps > 0)
        eta = (double)(opt->games - s.games) / gps;
    if (opt->positions && pps > 0) {
        double e = s.positions < opt->positions ? (double)(opt->positions - s.positions) / pps : 0;
        eta = eta < 0 || e < eta ? e : eta;
    }
    char total[32] = "", eta_text[32] = "?";
    if (opt->games)
        snprintf(total, sizeof total, "/%" PRIu64, opt->games);
    if (eta >= 0)
        format_duration(eta, eta_text, sizeof eta_text);
    fprintf(opt->log, "xqgen: games %" PRIu64 "%s, positions %" PRIu64 ", %.0f positions/s, %.2f games/s, ETA %s\n",
            s.games, total, s.positions, pps, gps, eta_text);
    fflush(opt->log);
}

/* Sleeps for a number of milliseconds. */
static void sleep_ms(int ms)
{
    struct timespec ts = { ms / MS_PER_S, (long)(ms % MS_PER_S) * NS_PER_MS };
    nanosleep(&ts, NULL);
}

/* Starts the workers, reports progress until they finish, and closes the output. */
static void run_workers(RunState *rs, WorkerArg *wa, int threads, int64_t t0)
{
    int started = 0;
    for (; started < threads; started++) {
        wa[started].rs = rs;
        atomic_fetch_add(&rs->running, 1);
        if (pthread_create(&wa[started].thread, NULL, worker_main, &wa[started]) != 0) {
            atomic_fetch_sub(&rs->running, 1);
            pthread_mutex_lock(&rs->lock);
            fail_locked(rs, "cannot start a worker thread");
            pthread_mutex_unlock(&rs->lock);
            break;
        }
    }
    int64_t last = t0;
    while (atomic_load(&rs->running) > 0) {
        sleep_ms(POLL_MS);
        int64_t now = now_ms();
        if (rs->opt->log && rs->opt->progress_s > 0 && now - last >= (int64_t)rs->opt->progress_s * MS_PER_S) {
            print_progress(rs, now - t0);
            last = now;
        }
    }
    for (int i = 0; i < started; i++)
        pthread_join(wa[i].thread, NULL);
}

/* Plays and writes the games. */
bool gen_run(const GenConfig *cfg, const GenRunOptions *opt, GenSummary *sum, XqError *err)
{
    memset(sum, 0, sizeof *sum);
    if (!gen_config_check(cfg, err))
        return false;
    if (opt->threads < 1 || opt->threads > GEN_MAX_THREADS || (!opt->games && !opt->positions)) {
        snprintf(err->msg, sizeof err->msg, "need 1 to %d threads and a number of games or positions",
                 GEN_MAX_THREADS);
        return false;
    }
    if (opt->shard && (opt->positions || opt->append || opt->games != opt->shard->games)) {
        snprintf(err->msg, sizeof err->msg, "a shard plays its share of -games: not with -positions or -append");
        return false;
    }
    tables_init(); /* before the threads: pos_from_fen would otherwise race to initialise the tables */
    WorkerArg *wa = calloc((size_t)opt->threads, sizeof *wa);
    RunState *rs = calloc(1, sizeof *rs);
    bool ok = wa && rs;
    for (int i = 0; ok && i < opt->threads; i++)
        ok = gen_worker_init(&wa[i].w, cfg->hash_mb);
    if (!ok) {
        snprintf(err->msg, sizeof err->msg, "out of memory for %d workers with %zu MB hash each", opt->threads,
                 cfg->hash_mb);
    } else if (!(rs->out = open_output(opt, err))) {
        ok = false;
    } else {
        rs->cfg = cfg;
        rs->opt = opt;
        pthread_mutex_init(&rs->lock, NULL);
        uint64_t first = opt->shard ? opt->shard->first : 0;
        rs->next_write = first;
        atomic_init(&rs->next_index, first);
        atomic_init(&rs->limit, opt->games ? first + opt->games : UINT64_MAX);
        atomic_init(&rs->failed, false);
        atomic_init(&rs->running, 0);
        int64_t t0 = now_ms();
        if (rec_writer_init(&rs->writer, rs->out, opt->format))
            run_workers(rs, wa, opt->threads, t0);
        else
            fail_locked(rs, "out of memory for the output");
        rec_writer_free(&rs->writer);
        drop_pending(rs);
        if (!close_output(rs))
            fail_locked(rs, "write error on closing the output file");
        rs->sum.ms = now_ms() - t0;
        rs->sum.interrupted = interrupted(rs);
        if (opt->log)
            print_progress(rs, rs->sum.ms);
        *sum = rs->sum;
        ok = !atomic_load(&rs->failed);
        if (!ok)
            *err = rs->err;
        free(rs->pending);
        pthread_mutex_destroy(&rs->lock);
    }
    for (int i = 0; wa && i < opt->threads; i++)
        gen_worker_free(&wa[i].w);
    free(wa);
    free(rs);
    return ok;
}

/* Share of n in total, in percent. */
static double percent(uint64_t n, uint64_t total) { return total ? 100.0 * (double)n / (double)total : 0.0; }

/* Prints a summary of a run. */
void gen_summary_print(FILE *f, const GenSummary *s)
{
    double secs = s->ms > 0 ? (double)s->ms / MS_PER_S : 1e-3;
    fprintf(f, "games %" PRIu64 ", positions %" PRIu64 " in %.1f s: %.0f positions/s, %.2f games/s%s\n", s->games,
            s->positions, secs, (double)s->positions / secs, (double)s->games / secs,
            s->interrupted ? " (interrupted)" : "");
    if (!s->games)
        return;
    fprintf(f, "per game: %.1f positions, %.1f plies with the opening; openings drawn %" PRIu64 "\n",
            (double)s->positions / (double)s->games, (double)s->plies / (double)s->games, s->openings);
    fprintf(f, "results: red wins %" PRIu64 " (%.1f%%), draws %" PRIu64 " (%.1f%%), black wins %" PRIu64 " (%.1f%%)\n",
            s->results[2], percent(s->results[2], s->games), s->results[1], percent(s->results[1], s->games),
            s->results[0], percent(s->results[0], s->games));
    fprintf(f, "endings:");
    for (int e = 1; e < GEN_ENDS; e++)
        if (s->ends[e])
            fprintf(f, " %s %" PRIu64 ",", gen_end_name((GenEnd)e), s->ends[e]);
    fprintf(f, "\nflags: in check %.2f%%, capture %.2f%%, mate %.2f%%\n", percent(s->in_check, s->positions),
            percent(s->capture, s->positions), percent(s->mate, s->positions));
}
