/* tbtest.c - generating the tablebase tests' tables and the checks every table gets (see tbtest.h). */
#include "tbtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "testutil.h"

enum { AB_MATE = 30000, SAMPLE_SPREAD = 16, GEN_THREADS = 2 };

/* Creates dir and generates the named tables there; the set, or NULL with the reason on stderr. */
TbSet *tbtest_generate(const char *dir, const char *const *names, int n, int threads)
{
    tables_init();
    mkdir(dir, 0777);
    TbSet *set = malloc(sizeof *set);
    if (!set)
        return NULL;
    tb_set_init(set, dir);
    TbGenOptions opt = { .threads = threads, .progress = NULL, .write = true };
    for (int i = 0; i < n; i++) {
        char path[TB_PATH_MAX];
        TbSig sig;
        XqError e;
        if (tb_file_path(dir, names[i], path, sizeof path))
            remove(path);
        if (!tb_sig_parse(names[i], &sig, &e) || !tb_gen_build(set, &sig, &opt, &e)) {
            fprintf(stderr, "%s: %s\n", names[i], e.msg);
            tbtest_free(set);
            return NULL;
        }
    }
    return set;
}

/* Frees a set from tbtest_generate (NULL is fine). */
void tbtest_free(TbSet *set)
{
    if (!set)
        return;
    tb_set_free(set);
    free(set);
}

/* Generates the named tables into tmp/subdir and allocates a scratch position; 0 or -1. */
int tbtest_open(const char *tmp, const char *subdir, const char *const *names, int n, TbSet **set, Position **scratch)
{
    char dir[TB_PATH_MAX];
    snprintf(dir, sizeof dir, "%s/%s", tmp, subdir);
    *scratch = malloc(sizeof **scratch);
    *set = tbtest_generate(dir, names, n, GEN_THREADS);
    return *set && *scratch ? 0 : -1;
}

/* Frees what tbtest_open made. */
int tbtest_close(TbSet *set, Position *scratch)
{
    tbtest_free(set);
    free(scratch);
    return 0;
}

/* Generates t's table again with the forward method and fails the test unless it equals t. */
void tbtest_forward_agrees(TbSet *set, const TbTable *t)
{
    TbGenOptions opt = { .threads = GEN_THREADS, .progress = NULL, .write = false, .forward = true };
    XqError e;
    TbTable *f = tb_gen_solve(set, &t->layout.sig, &opt, &e); /* sub-tables from the un-move set */
    assert_non_null(f);
    for (uint64_t i = 0; i < t->layout.size; i++)
        if (tb_get(f, i) != tb_get(t, i))
            fail_msg("%s entry %llu: forward %u, un-moves %u", t->name, (unsigned long long)i, tb_get(f, i),
                     tb_get(t, i));
    assert_int_equal(f->passes, t->passes);
    assert_int_equal(f->rounds, t->rounds);
    tb_table_free(f);
}

/* The loaded table of a signature name in set; fails the test if there is none. */
TbTable *tbtest_table(const TbSet *set, const char *name)
{
    TbSig sig;
    XqError e;
    assert_true(tb_sig_parse(name, &sig, &e));
    TbTable *t = tb_set_find(set, &sig);
    assert_non_null(t);
    return t;
}

/* Writes the FEN mirrored left-right into out. */
void tbtest_fen_mirror(const char *fen, char *out)
{
    size_t len = strcspn(fen, " ");
    size_t start = 0;
    for (size_t i = 0; i <= len; i++)
        if (i == len || fen[i] == '/') {
            for (size_t j = 0; j < i - start; j++)
                out[start + j] = fen[i - 1 - j];
            out[i] = fen[i];
            start = i + 1;
        }
    strcpy(out + len, fen + len);
}

/* What an entry's moves give under the definition (tbtest.h); *seed_ok says whether a rule seed fits. */
static TbValue value_from_moves(TbSet *set, Position *pos, bool *seed_ok)
{
    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves), best_loss = -1, worst_win = -1;
    bool all_win = true, any_rule = false, loss_rule = true; /* loss_rule: every shortest loss has the flag */
    for (int m = 0; m < n; m++) {
        TbValue c;
        XqError e;
        pos_make(pos, moves[m]);
        if (!tb_probe(set, pos, &c, &e))
            fail_msg("%s", e.msg);
        pos_unmake(pos);
        if (c.wdl == TB_LOSS && (best_loss < 0 || c.dtm <= best_loss)) {
            loss_rule = (c.dtm == best_loss && loss_rule && c.rule) || (c.dtm != best_loss && c.rule);
            best_loss = c.dtm;
        }
        if (c.wdl != TB_WIN) {
            all_win = false;
        } else {
            worst_win = c.dtm > worst_win ? c.dtm : worst_win;
            any_rule |= c.rule;
        }
    }
    *seed_ok = n > 0 && all_win && any_rule && !pos->in_check;
    if (!n)
        return (TbValue){ TB_LOSS, 0, false };
    if (best_loss >= 0)
        return (TbValue){ TB_WIN, best_loss + 1, loss_rule };
    return all_win ? (TbValue){ TB_LOSS, worst_win + 1, any_rule } : (TbValue){ TB_DRAW, 0, false };
}

/* Fails the test unless every legal entry of t equals what its moves give; returns the rule seeds. */
uint64_t tbtest_entries_consistent(TbSet *set, const TbTable *t, Position *scratch)
{
    uint64_t seeds = 0;
    for (uint64_t i = 0; i < t->layout.size; i++) {
        if (!tb_setup(&t->layout, i, scratch))
            continue;
        bool seed_ok;
        TbValue want = value_from_moves(set, scratch, &seed_ok), got = tb_decode(tb_entry(t, i));
        if (got.wdl == want.wdl && got.dtm == want.dtm && got.rule == want.rule)
            continue;
        if (got.wdl != TB_LOSS || !got.rule || !seed_ok)
            fail_msg("%s entry %llu: stored %d/%d/%d, moves give %d/%d/%d", t->name, (unsigned long long)i, got.wdl,
                     got.dtm, got.rule, want.wdl, want.dtm, want.rule);
        seeds++; /* a rule seed: lost at its round's base distance, whatever its moves reach */
    }
    return seeds;
}

/* Is neither side left with a rook, horse, cannon or pawn? */
static bool bare(const Position *pos)
{
    TbSig s = tb_sig_of_pos(pos);
    return !tb_sig_attackers(&s, RED) && !tb_sig_attackers(&s, BLACK);
}

/* Plain alpha-beta without repetition rulings: no move loses, no attacking piece is a draw, the horizon
 * scores 0; returns AB_MATE - plies for a forced win, -(AB_MATE - plies) for a forced loss. */
static int alpha_beta(Position *pos, int depth, int ply, int alpha, int beta)
{
    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves);
    if (!n)
        return -(AB_MATE - ply);
    if (bare(pos) || depth == 0)
        return 0;
    if (alpha >= AB_MATE - ply - 1) /* nothing here can beat a mate at the next ply */
        return alpha;
    for (int i = 0; i < n; i++) {
        pos_make(pos, moves[i]);
        int score = -alpha_beta(pos, depth - 1, ply + 1, -beta, -alpha);
        pos_unmake(pos);
        if (score > alpha) {
            alpha = score;
            if (alpha >= beta)
                break;
        }
    }
    return alpha;
}

/* The score the table's value predicts from a search of depth plies. */
static int expected_score(TbValue v, int depth)
{
    if (v.wdl == TB_WIN && v.dtm <= depth)
        return AB_MATE - v.dtm;
    if (v.wdl == TB_LOSS && v.dtm <= depth)
        return -(AB_MATE - v.dtm);
    return 0;
}

/* Sampled entries without the rule flag agree with a plain alpha-beta searched to their DTM. */
void tbtest_alpha_beta_agrees(const TbTable *t, Position *scratch, int samples, int depth_max, int draw_depth)
{
    int seen[3] = { 0 };
    uint64_t step = t->layout.size / ((uint64_t)SAMPLE_SPREAD * (uint64_t)samples) + 1;
    for (uint64_t i = 0; i < t->layout.size; i += step) {
        if (!tb_setup(&t->layout, i, scratch))
            continue;
        TbValue v = tb_decode(tb_entry(t, i));
        if (v.rule || (v.wdl != TB_DRAW && v.dtm > depth_max) || seen[v.wdl + 1] >= samples)
            continue;
        seen[v.wdl + 1]++;
        int depth = v.wdl == TB_DRAW ? draw_depth : v.dtm;
        int score = alpha_beta(scratch, depth, 0, -AB_MATE - 1, AB_MATE + 1);
        if (score != expected_score(v, depth)) {
            char fen[FEN_MAX];
            fail_msg("%s %s: table wdl %d dtm %d, alpha-beta to %d plies %d", t->name,
                     pos_to_fen(scratch, fen, sizeof fen), v.wdl, v.dtm, depth, score);
        }
    }
    print_message("%s: %d wins, %d draws, %d losses checked\n", t->name, seen[2], seen[1], seen[0]);
}
