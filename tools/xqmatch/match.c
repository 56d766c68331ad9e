/*
 * match.c - scheduling and running the games of a match on worker threads,
 * with PGN output, progress lines, the summary and SPRT stopping.
 */
#include "match.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pgn.h"
#include "engine/version.h"

/* One scheduled game. */
typedef struct Job {
    int pair;
    bool a_is_red;
    int opening;
    int number;     /* 1-based game number */
} Job;

/* State shared by the workers (guarded by mutex). */
typedef struct MatchShared {
    const MatchConfig *cfg;
    MatchResult *res;
    FILE *out;
    FILE *pgn;
    pthread_mutex_t mutex;
    pthread_mutex_t log_mutex;
    ProcLog log;
    Job *jobs;
    int job_count;
    int next_job;
    bool stop;
    char date[16];
    char tc_text[64];
} MatchShared;

/* Formats the time control. */
void match_tc_text(const TimeControl *tc, char *out, size_t size)
{
    switch (tc->kind) {
    case TC_DEPTH: snprintf(out, size, "depth %d", tc->depth); return;
    case TC_NODES: snprintf(out, size, "nodes %lld", (long long)tc->nodes); return;
    case TC_MOVETIME: snprintf(out, size, "%g s/move", tc->movetime_ms / 1000.0); return;
    case TC_CLOCK: break;
    }
    if (tc->moves_per_period > 0)
        snprintf(out, size, "%d/%g%s", tc->moves_per_period, tc->base_ms / 1000.0, tc->inc_ms ? "+inc" : "");
    else
        snprintf(out, size, "%g+%g", tc->base_ms / 1000.0, tc->inc_ms / 1000.0);
}

/* A small local generator for shuffling openings (xorshift32). */
static unsigned next_random(unsigned *state)
{
    unsigned x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return x;
}

/* Builds the pairings and the job list. */
static bool match_schedule(const MatchConfig *cfg, MatchShared *sh)
{
    MatchResult *res = sh->res;
    res->pair_count = 0;
    for (int a = 0; a < cfg->engine_count; a++) {
        for (int b = a + 1; b < cfg->engine_count; b++) {
            if (cfg->tournament == TOURNAMENT_GAUNTLET && a != 0)
                continue;
            PairResult *p = &res->pairs[res->pair_count++];
            p->a = a;
            p->b = b;
        }
    }
    int n = cfg->book.count;
    int *order = malloc((size_t)n * sizeof *order);
    sh->job_count = res->pair_count * cfg->rounds * 2;
    sh->jobs = malloc((size_t)(sh->job_count > 0 ? sh->job_count : 1) * sizeof *sh->jobs);
    if (!order || !sh->jobs) {
        free(order);
        return false;
    }
    for (int i = 0; i < n; i++)
        order[i] = i;
    if (cfg->opening_seed) {
        unsigned state = cfg->opening_seed;
        for (int i = n - 1; i > 0; i--) {
            int j = (int)(next_random(&state) % (unsigned)(i + 1));
            int t = order[i]; order[i] = order[j]; order[j] = t;
        }
    }
    int k = 0;
    for (int r = 0; r < cfg->rounds; r++) {
        for (int p = 0; p < res->pair_count; p++) {
            for (int c = 0; c < 2; c++) {
                Job *j = &sh->jobs[k];
                j->pair = p;
                j->a_is_red = c == 0;
                j->opening = order[r % n];
                j->number = ++k;
            }
        }
    }
    free(order);
    res->games_scheduled = sh->job_count;
    return true;
}

/* Prints the running score of a pairing (called with the mutex held). */
static void match_progress(const MatchShared *sh, const PairResult *p)
{
    const MatchConfig *cfg = sh->cfg;
    EloEstimate e = stats_elo(p->score);
    int n = p->score.wins + p->score.losses + p->score.draws;
    fprintf(sh->out, "Score of %s vs %s: %d - %d - %d  [%.3f] %d  Elo %.1f +/- %.1f",
            cfg->engines[p->a].name, cfg->engines[p->b].name, p->score.wins, p->score.losses, p->score.draws,
            e.score, n, e.elo, e.error95);
    if (cfg->sprt) {
        SprtStatus st = stats_sprt(p->score, &cfg->sprt_params);
        fprintf(sh->out, "  LLR %.2f (%.2f, %.2f)", st.llr, st.lower, st.upper);
    }
    fprintf(sh->out, "  (%d/%d games)\n", sh->res->games_played, sh->res->games_scheduled);
    fflush(sh->out);
}

/* Records a finished game (called with the mutex held). */
static void match_record(MatchShared *sh, const Job *job, const GameRecord *rec)
{
    const MatchConfig *cfg = sh->cfg;
    MatchResult *res = sh->res;
    PairResult *p = &res->pairs[job->pair];
    GameResult r = rec->verdict.result;
    if (r == RESULT_NONE) {
        res->errors++;
        fprintf(sh->out, "Game %d could not be played: %s\n", job->number, rec->verdict.text);
        return;
    }
    res->games_played++;
    p->reasons[rec->verdict.reason]++;
    if (r == RESULT_DRAW)
        p->score.draws++;
    else if ((r == RESULT_RED_WINS) == job->a_is_red)
        p->score.wins++;
    else
        p->score.losses++;
    if (!cfg->quiet)
        fprintf(sh->out, "Finished game %d (%s vs %s): %s {%s}\n", job->number, rec->names[RED],
                rec->names[BLACK], result_pgn(r), rec->verdict.text);
    if (sh->pgn) {
        char annotator[64];
        snprintf(annotator, sizeof annotator, "xqmatch (" XQ_NAME ") %s", version_number());
        PgnInfo info = { cfg->event, "xqmatch", sh->date, job->number, sh->tc_text, annotator };
        pgn_write_game(sh->pgn, rec, &info);
        fflush(sh->pgn);
    }
    match_progress(sh, p);
    if (cfg->sprt && res->pair_count == 1) {
        res->sprt = stats_sprt(p->score, &cfg->sprt_params);
        if (res->sprt.state != SPRT_CONTINUE && !sh->stop) {
            sh->stop = true;
            res->sprt_stopped = true;
            fprintf(sh->out, "SPRT: %s accepted after %d games; stopping\n",
                    res->sprt.state == SPRT_ACCEPT_H1 ? "H1" : "H0", res->games_played);
        }
    }
}

/* Worker thread: plays jobs until none are left or the match stops. */
static void *match_worker(void *arg)
{
    MatchShared *sh = arg;
    const MatchConfig *cfg = sh->cfg;
    GameRecord *rec = malloc(sizeof *rec);
    if (!rec)
        return NULL;
    for (;;) {
        pthread_mutex_lock(&sh->mutex);
        if (sh->stop || sh->next_job >= sh->job_count) {
            pthread_mutex_unlock(&sh->mutex);
            break;
        }
        Job job = sh->jobs[sh->next_job++];
        pthread_mutex_unlock(&sh->mutex);
        const PairResult *p = &sh->res->pairs[job.pair];
        const Opening *op = &cfg->book.items[job.opening];
        GameSetup setup;
        setup.engine[RED] = &cfg->engines[job.a_is_red ? p->a : p->b];
        setup.engine[BLACK] = &cfg->engines[job.a_is_red ? p->b : p->a];
        setup.fen = op->fen;
        setup.open_moves = (const char (*)[MOVE_TEXT_MAX])op->moves;
        setup.open_count = op->count;
        setup.tc = &cfg->tc;
        setup.adj = &cfg->adj;
        setup.log = &sh->log;
        setup.init_timeout_ms = cfg->init_timeout_ms;
        game_play(&setup, rec);
        pthread_mutex_lock(&sh->mutex);
        match_record(sh, &job, rec);
        pthread_mutex_unlock(&sh->mutex);
    }
    free(rec);
    return NULL;
}

/* Runs the whole match. */
bool match_run(const MatchConfig *cfg, MatchResult *res, FILE *out)
{
    memset(res, 0, sizeof *res);
    MatchShared sh;
    memset(&sh, 0, sizeof sh);
    sh.cfg = cfg;
    sh.res = res;
    sh.out = out;
    if (!match_schedule(cfg, &sh)) {
        fprintf(out, "error: out of memory\n");
        return false;
    }
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(sh.date, sizeof sh.date, "%Y.%m.%d", &tm);
    match_tc_text(&cfg->tc, sh.tc_text, sizeof sh.tc_text);
    if (cfg->pgn_path) {
        sh.pgn = fopen(cfg->pgn_path, "w");
        if (!sh.pgn) {
            fprintf(out, "error: cannot write PGN file '%s'\n", cfg->pgn_path);
            free(sh.jobs);
            return false;
        }
    }
    FILE *log = NULL;
    if (cfg->log_path) {
        log = fopen(cfg->log_path, "w");
        if (!log) {
            fprintf(out, "error: cannot write log file '%s'\n", cfg->log_path);
            if (sh.pgn)
                fclose(sh.pgn);
            free(sh.jobs);
            return false;
        }
    }
    pthread_mutex_init(&sh.mutex, NULL);
    pthread_mutex_init(&sh.log_mutex, NULL);
    sh.log.file = log;
    sh.log.mutex = &sh.log_mutex;
    int workers = cfg->concurrency > 0 ? cfg->concurrency : 1;
    if (workers > sh.job_count)
        workers = sh.job_count > 0 ? sh.job_count : 1;
    pthread_t *threads = calloc((size_t)workers, sizeof *threads);
    int started = 0;
    for (int i = 0; threads && i < workers; i++)
        if (pthread_create(&threads[i], NULL, match_worker, &sh) == 0)
            started++;
    if (started == 0)
        match_worker(&sh);
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    free(threads);
    pthread_mutex_destroy(&sh.mutex);
    pthread_mutex_destroy(&sh.log_mutex);
    if (sh.pgn)
        fclose(sh.pgn);
    if (log)
        fclose(log);
    free(sh.jobs);
    return true;
}

/* Prints a result's Elo line (match.h). */
void match_print_elo(Score s, FILE *out)
{
    EloEstimate e = stats_elo(s);
    if (isfinite(e.elo))
        fprintf(out, "  Elo difference: %.1f +/- %.1f (95%%), LOS %.1f%%\n", e.elo, e.error95, 100.0 * e.los);
    else
        fprintf(out, "  Elo difference: %s (one-sided result), LOS %.1f%%\n", e.elo > 0 ? "+inf" : "-inf",
                100.0 * e.los);
}

/* Prints the SPRT line of a result (match.h). */
void match_print_sprt(const SprtParams *p, SprtStatus st, FILE *out)
{
    fprintf(out, "SPRT (elo0 %.1f, elo1 %.1f, alpha %.3f, beta %.3f): LLR %.3f, bounds [%.3f, %.3f] -> %s\n", p->elo0,
            p->elo1, p->alpha, p->beta, st.llr, st.lower, st.upper,
            st.state == SPRT_ACCEPT_H1 ? "H1 accepted" : st.state == SPRT_ACCEPT_H0 ? "H0 accepted" : "undecided");
}

/* Prints one pairing's statistics. */
static void print_pair(const MatchConfig *cfg, const PairResult *p, FILE *out)
{
    EloEstimate e = stats_elo(p->score);
    int n = p->score.wins + p->score.losses + p->score.draws;
    fprintf(out, "%s vs %s: %d games, W %d L %d D %d, score %.1f%%\n", cfg->engines[p->a].name,
            cfg->engines[p->b].name, n, p->score.wins, p->score.losses, p->score.draws, 100.0 * e.score);
    match_print_elo(p->score, out);
    fprintf(out, "  endings:");
    const char *sep = " ";
    for (int r = 1; r < END_REASONS; r++)
        if (p->reasons[r]) {
            fprintf(out, "%s%s %d", sep, end_reason_name((EndReason)r), p->reasons[r]);
            sep = ", ";
        }
    fprintf(out, "\n");
}

/* Prints the summary. */
void match_print_summary(const MatchConfig *cfg, const MatchResult *res, FILE *out)
{
    char tc[64];
    match_tc_text(&cfg->tc, tc, sizeof tc);
    fprintf(out, "\n=== xqmatch summary: %d games played of %d scheduled, time control %s ===\n",
            res->games_played, res->games_scheduled, tc);
    for (int i = 0; i < res->pair_count; i++)
        print_pair(cfg, &res->pairs[i], out);
    if (cfg->engine_count > 2) {
        double points[MATCH_ENGINES_MAX] = { 0 };
        int games[MATCH_ENGINES_MAX] = { 0 };
        for (int i = 0; i < res->pair_count; i++) {
            const PairResult *p = &res->pairs[i];
            int n = p->score.wins + p->score.losses + p->score.draws;
            points[p->a] += p->score.wins + 0.5 * p->score.draws;
            points[p->b] += p->score.losses + 0.5 * p->score.draws;
            games[p->a] += n;
            games[p->b] += n;
        }
        fprintf(out, "Standings:\n");
        for (int e = 0; e < cfg->engine_count; e++)
            fprintf(out, "  %-24s %6.1f / %d\n", cfg->engines[e].name, points[e], games[e]);
    }
    if (cfg->sprt) {
        SprtStatus st = res->pair_count == 1 ? stats_sprt(res->pairs[0].score, &cfg->sprt_params) : res->sprt;
        match_print_sprt(&cfg->sprt_params, st, out);
    }
    if (res->errors)
        fprintf(out, "%d game(s) could not be played\n", res->errors);
}
