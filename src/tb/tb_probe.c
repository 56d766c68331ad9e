/* tb_probe.c - a set of tablebases, loaded on demand, and probing positions in it. */
#ifndef _WIN32
#define _POSIX_C_SOURCE 200809L /* stat under -std=c11 */
#endif
#include "tb_probe.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "board/movegen.h"

#define HASH_MULT 2654435761u /* Knuth's multiplicative hash */

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
    memset(set->hash_table, 0, sizeof set->hash_table);
}

/* The first hash slot of a key. */
static unsigned slot_of(int key) { return ((unsigned)key * HASH_MULT) & (TB_SET_HASH - 1); }

/* Adds a table (the set owns it); false if the set is full. */
bool tb_set_add(TbSet *set, TbTable *t)
{
    if (set->count >= TB_SET_MAX)
        return false;
    set->table[set->count++] = t;
    int key = tb_sig_key(&t->layout.sig);
    if (key < 0 || tb_set_find(set, &t->layout.sig))
        return true;
    unsigned s = slot_of(key);
    while (set->hash_table[s]) /* a free slot exists: at most TB_SET_MAX of TB_SET_HASH are taken */
        s = (s + 1) & (TB_SET_HASH - 1);
    set->hash_key[s] = key;
    set->hash_table[s] = t;
    return true;
}

/* The already loaded table of a canonical signature, or NULL: a direct lookup by its key. */
TbTable *tb_set_find(const TbSet *set, const TbSig *sig)
{
    int key = tb_sig_key(sig);
    if (key < 0)
        return NULL;
    for (unsigned s = slot_of(key); set->hash_table[s]; s = (s + 1) & (TB_SET_HASH - 1))
        if (set->hash_key[s] == key)
            return set->hash_table[s];
    return NULL;
}

/* The set's table of a canonical signature, loaded from the directory if need be; NULL with err filled. */
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
    return count_legal(pos) ? (TbValue){ TB_DRAW, 0, false } : (TbValue){ TB_LOSS, 0, false };
}

/* Probes pos (any side to move, either colour stronger); false with err filled if no table answers. */
bool tb_probe(TbSet *set, Position *pos, TbValue *out, XqError *err)
{
    TbSig sig = tb_sig_of_pos(pos);
    char name[TB_SIG_TEXT];
    if (side_in_check(pos, pos->side ^ 1)) {
        snprintf(err->msg, sizeof err->msg, "illegal position: the side not to move is in check");
        return false;
    }
    if (!tb_sig_attackers(&sig, RED) && !tb_sig_attackers(&sig, BLACK)) {
        *out = tb_value_bare(pos);
        return true;
    }
    const char *why = tb_sig_unsupported(&sig);
    if (why) {
        snprintf(err->msg, sizeof err->msg, "no table for %s: %s", tb_sig_name(&sig, name, sizeof name), why);
        return false;
    }
    TbSig canon = tb_sig_canonical(&sig);
    TbTable *t = tb_set_table(set, &canon, err);
    if (!t)
        return false;
    uint64_t idx = tb_index_of(&t->layout, pos, !tb_sig_is_canonical(&sig));
    if (idx == TB_NO_INDEX) {
        snprintf(err->msg, sizeof err->msg,
                 "%s covers advisors and elephants on their points and pawns on their squares only", t->name);
        return false;
    }
    *out = tb_decode(tb_entry(t, idx));
    return true;
}

/* Probes a legal pos in the tables already loaded, never loading one; false when no loaded table holds pos. */
bool tb_probe_loaded(const TbSet *set, const Position *pos, TbValue *out)
{
    TbSig sig = tb_sig_of_pos(pos);
    if (tb_sig_unsupported(&sig))
        return false;
    TbSig canon = tb_sig_canonical(&sig);
    const TbTable *t = tb_set_find(set, &canon);
    if (!t)
        return false;
    uint64_t idx = tb_index_of(&t->layout, pos, !tb_sig_is_canonical(&sig));
    if (idx == TB_NO_INDEX)
        return false;
    *out = tb_decode(tb_entry(t, idx));
    return true;
}

/* The signature a file name stands for: DIR's "<name>.jjtb" with the name a table is stored under, written
 * as tb_sig_name writes it; false for any other file. */
static bool file_signature(const char *file, TbSig *sig)
{
    size_t len = strlen(file), ext = strlen(TB_FILE_EXT);
    char name[TB_SIG_TEXT], back[TB_SIG_TEXT];
    XqError e;
    if (len <= ext || len - ext >= sizeof name || strcmp(file + len - ext, TB_FILE_EXT) != 0)
        return false;
    memcpy(name, file, len - ext);
    name[len - ext] = '\0';
    return tb_sig_parse(name, sig, &e) && !tb_sig_unsupported(sig) && tb_sig_is_canonical(sig)
           && strcmp(tb_sig_name(sig, back, sizeof back), name) == 0;
}

/* Tries to load the table of sig from the set's directory; returns 1 if loaded. */
static int load_one(TbSet *set, const TbSig *sig, void (*on_error)(void *, const char *), void *ctx)
{
    XqError e;
    if (tb_set_find(set, sig))
        return 0;
    if (tb_set_table(set, sig, &e))
        return 1;
    if (on_error)
        on_error(ctx, e.msg);
    return 0;
}

/* Loads every table file of the set's directory; returns the number loaded. */
int tb_set_load_dir(TbSet *set, void (*on_error)(void *ctx, const char *msg), void *ctx)
{
    DIR *d = opendir(set->dir);
    if (!d)
        return 0;
    int loaded = 0;
    for (struct dirent *f; (f = readdir(d)) != NULL;) {
        TbSig sig;
        if (file_signature(f->d_name, &sig))
            loaded += load_one(set, &sig, on_error, ctx);
    }
    closedir(d);
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

/* Does a move worth `a` to the mover play better than one worth `b`? (a win: faster, then without the
 * rule; a loss: slower.) */
static bool plays_better(TbValue a, TbValue b)
{
    if (a.wdl != b.wdl)
        return a.wdl > b.wdl;
    if (a.wdl == TB_WIN)
        return a.dtm != b.dtm ? a.dtm < b.dtm : !a.rule && b.rule;
    return a.wdl == TB_LOSS && a.dtm > b.dtm;
}

/* Keeps of the root's moves those that play its table value best; returns how many, or -1. */
int tb_root_filter(const TbSet *set, Position *root, Move *moves, int n, TbValue *value)
{
    TbValue mine[MAX_MOVES], best = { TB_LOSS, -1, false };
    bool any_rule = false;
    if (n <= 0 || n > MAX_MOVES)
        return -1;
    for (int i = 0; i < n; i++) {
        TbValue c;
        pos_make(root, moves[i]);
        bool ok = child_value(set, root, &c);
        pos_unmake(root);
        if (!ok)
            return -1;
        mine[i] = (TbValue){ -c.wdl, c.wdl == TB_DRAW ? 0 : c.dtm + 1, c.rule };
        any_rule |= c.rule;
        if (plays_better(mine[i], best))
            best = mine[i];
    }
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (!plays_better(best, mine[i]))
            moves[kept++] = moves[i];
    if (best.wdl == TB_LOSS) /* a loss rests on the rule when any move's win does (tb_gen.h) */
        best.rule = any_rule;
    *value = best;
    return kept;
}
