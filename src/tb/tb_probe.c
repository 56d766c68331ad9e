/* tb_probe.c - a set of tablebases, loaded on demand, and probing positions in it. */
#ifndef _WIN32
#define _POSIX_C_SOURCE 200809L /* stat under -std=c11 */
#endif
#include "tb_probe.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "board/movegen.h"

/* An empty set reading from dir (NULL or "" = the current directory). */
void tb_set_init(TbSet *set, const char *dir)
{
    memset(set, 0, sizeof *set);
    snprintf(set->dir, sizeof set->dir, "%s", dir && *dir ? dir : ".");
}

/* Frees every table of the set. */
void tb_set_free(TbSet *set)
{
    for (int i = 0; i < set->count; i++)
        tb_table_free(set->table[i]);
    set->count = 0;
    memset(set->by_key, 0, sizeof set->by_key);
}

/* Adds a table (the set owns it); false if the set is full. */
bool tb_set_add(TbSet *set, TbTable *t)
{
    if (set->count >= TB_SET_MAX)
        return false;
    set->table[set->count++] = t;
    int key = tb_sig_key(&t->layout.sig);
    if (key >= 0 && !set->by_key[key])
        set->by_key[key] = t;
    return true;
}

/* The already loaded table of a red-attacking signature, or NULL: a direct lookup by its key (a signature
 * without one, outside version 1, is looked for in the list). */
TbTable *tb_set_find(const TbSet *set, const TbSig *sig)
{
    int key = tb_sig_key(sig);
    if (key >= 0)
        return set->by_key[key];
    for (int i = 0; i < set->count; i++)
        if (tb_sig_equal(&set->table[i]->layout.sig, sig))
            return set->table[i];
    return NULL;
}

/* The set's table of a red-attacking signature, loaded from the directory if need be; NULL with err filled. */
TbTable *tb_set_table(TbSet *set, const TbSig *sig, XqError *err)
{
    TbTable *t = tb_set_find(set, sig);
    if (t)
        return t;
    char name[TB_SIG_TEXT], path[TB_PATH_MAX];
    tb_sig_name(sig, name, sizeof name);
    if (!tb_file_path(set->dir, name, path, sizeof path)) {
        snprintf(err->msg, sizeof err->msg, "tablebase path too long");
        return NULL;
    }
    t = tb_file_read(path, err);
    if (t && !tb_sig_equal(&t->layout.sig, sig)) {
        snprintf(err->msg, sizeof err->msg, "%.80s: holds %.31s, not %.31s", path, t->name, name);
        tb_table_free(t);
        return NULL;
    }
    if (t && !tb_set_add(set, t)) {
        snprintf(err->msg, sizeof err->msg, "too many tablebases loaded (at most %d)", TB_SET_MAX);
        tb_table_free(t);
        return NULL;
    }
    return t;
}

/* The value of a position that needs no table: neither side has an attacking piece. */
TbValue tb_value_bare(Position *pos)
{
    return count_legal(pos) ? (TbValue){ TB_DRAW, 0 } : (TbValue){ TB_LOSS, 0 };
}

/* Probes pos (any side to move; either colour attacking); false with err filled if no table answers. */
bool tb_probe(TbSet *set, Position *pos, TbValue *out, XqError *err)
{
    TbSig sig = tb_sig_of_pos(pos);
    if (!tb_sig_attackers(&sig, RED) && !tb_sig_attackers(&sig, BLACK)) {
        *out = tb_value_bare(pos);
        return true;
    }
    const char *why = tb_sig_unsupported(&sig);
    char name[TB_SIG_TEXT];
    if (why) {
        snprintf(err->msg, sizeof err->msg, "no table for %s: %s", tb_sig_name(&sig, name, sizeof name), why);
        return false;
    }
    bool flip = !tb_sig_attackers(&sig, RED);
    TbSig canon = tb_sig_canonical(&sig);
    TbTable *t = tb_set_table(set, &canon, err);
    if (!t)
        return false;
    uint64_t idx = tb_index_of(&t->layout, pos, flip);
    unsigned v = idx == TB_NO_INDEX ? TB_V_BROKEN : tb_get(t, idx);
    if (v == TB_V_BROKEN) {
        snprintf(err->msg, sizeof err->msg, "%s covers advisors and elephants on their points only", t->name);
        return false;
    }
    *out = tb_decode(v);
    return true;
}

/* Probes pos in the tables already loaded, never loading one; false when no loaded table holds pos. */
bool tb_probe_loaded(const TbSet *set, const Position *pos, TbValue *out)
{
    TbSig sig = tb_sig_of_pos(pos);
    if (tb_sig_unsupported(&sig))
        return false;
    bool flip = !tb_sig_attackers(&sig, RED);
    TbSig canon = tb_sig_canonical(&sig);
    const TbTable *t = tb_set_find(set, &canon);
    if (!t)
        return false;
    uint64_t idx = tb_index_of(&t->layout, pos, flip);
    unsigned v = idx == TB_NO_INDEX ? TB_V_BROKEN : tb_get(t, idx);
    if (v == TB_V_BROKEN)
        return false;
    *out = tb_decode(v);
    return true;
}

/* Tries to load the table of sig from the set's directory (if its file exists); returns 1 if loaded. */
static int load_one(TbSet *set, const TbSig *sig, void (*on_error)(void *, const char *), void *ctx)
{
    char name[TB_SIG_TEXT], path[TB_PATH_MAX];
    if (tb_set_find(set, sig) || !tb_file_path(set->dir, tb_sig_name(sig, name, sizeof name), path, sizeof path))
        return 0;
    struct stat st;
    if (stat(path, &st) != 0) /* no such file: nothing to say (stat, unlike opening, never blocks on a FIFO) */
        return 0;
    XqError e;
    if (tb_set_table(set, sig, &e))
        return 1;
    if (on_error)
        on_error(ctx, e.msg);
    return 0;
}

/* Loads every version-1 table the set's directory holds; returns the number loaded. */
int tb_set_load_dir(TbSet *set, void (*on_error)(void *ctx, const char *msg), void *ctx)
{
    TbSig all[TB_SIG_V1];
    tb_sig_list_v1(all);
    int loaded = 0;
    for (int i = 0; i < TB_SIG_V1; i++)
        loaded += load_one(set, &all[i], on_error, ctx);
    return loaded;
}

/* The value of the position after a root move; false if the loaded tables do not answer it. */
static bool child_value(const TbSet *set, Position *pos, TbValue *v)
{
    TbSig sig = tb_sig_of_pos(pos);
    if (!tb_sig_attackers(&sig, RED) && !tb_sig_attackers(&sig, BLACK)) {
        *v = tb_value_bare(pos);
        return true;
    }
    return tb_probe_loaded(set, pos, v);
}

/* Keeps of the root's moves those that play its table value best; returns how many, or -1. */
int tb_root_filter(const TbSet *set, Position *root, Move *moves, int n, TbValue *value)
{
    TbValue child[MAX_MOVES], best = { TB_LOSS, -1 };
    if (n <= 0 || n > MAX_MOVES)
        return -1;
    for (int i = 0; i < n; i++) {
        pos_make(root, moves[i]);
        bool ok = child_value(set, root, &child[i]);
        pos_unmake(root);
        if (!ok)
            return -1;
        TbValue mine = { -child[i].wdl, child[i].wdl == TB_DRAW ? 0 : child[i].dtm + 1 };
        bool better = mine.wdl > best.wdl || (mine.wdl == best.wdl && mine.wdl == TB_WIN && mine.dtm < best.dtm)
                   || (mine.wdl == best.wdl && mine.wdl == TB_LOSS && mine.dtm > best.dtm);
        if (better)
            best = mine;
    }
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (-child[i].wdl == best.wdl && (best.wdl == TB_DRAW || child[i].dtm + 1 == best.dtm))
            moves[kept++] = moves[i];
    *value = best;
    return kept;
}
