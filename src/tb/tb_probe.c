/* tb_probe.c - a set of tablebases, loaded on demand, and probing positions in it. */
#include "tb_probe.h"

#include <stdio.h>
#include <string.h>

#include "movegen.h"

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
}

/* Adds a table (the set owns it); false if the set is full. */
bool tb_set_add(TbSet *set, TbTable *t)
{
    if (set->count >= TB_SET_MAX)
        return false;
    set->table[set->count++] = t;
    return true;
}

/* The already loaded table of a red-attacking signature, or NULL. */
TbTable *tb_set_find(const TbSet *set, const TbSig *sig)
{
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
