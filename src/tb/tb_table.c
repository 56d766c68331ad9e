/* tb_table.c - a tablebase in memory: allocation, reading entries, statistics. */
#include "tb_table.h"

#include <stdlib.h>

#include "base/platform.h"
#include "tb_pack.h"

/* A table without entries for sig (canonical); NULL if memory is short. */
TbTable *tb_table_shell(const TbSig *sig)
{
    TbTable *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    tb_layout_init(&t->layout, sig);
    tb_sig_name(sig, t->name, sizeof t->name);
    return t;
}

/* A zeroed generated table for sig (canonical); NULL if memory is short. */
TbTable *tb_table_new(const TbSig *sig)
{
    TbTable *t = tb_table_shell(sig);
    if (!t)
        return NULL;
    t->val = calloc((size_t)t->layout.size, sizeof *t->val);
    if (!t->val) {
        free(t);
        return NULL;
    }
    return t;
}

/* Frees a table and its entries or file bytes (NULL is fine). */
void tb_table_free(TbTable *t)
{
    if (!t)
        return;
    free((void *)t->val);
    if (t->mapped)
        platform_file_unmap(t->file, t->file_size);
    else
        free(t->file);
    free(t);
}

/* Reads entry idx of any table. */
unsigned tb_entry(const TbTable *t, uint64_t idx) { return t->val ? tb_get(t, idx) : tb_pack_entry(&t->packed, idx); }

/* Counts wins, draws, losses and the longest distances of a generated table into t->stats. */
void tb_table_count(TbTable *t)
{
    TbStats s = { 0 };
    for (uint64_t i = 0; i < t->layout.size; i++) {
        unsigned v = tb_get(t, i);
        if (v == TB_V_BROKEN)
            continue;
        s.positions++;
        TbValue r = tb_decode(v);
        if (r.wdl == TB_WIN) {
            s.wins++;
            s.rule_wins += r.rule;
            if ((unsigned)r.dtm > s.longest_win)
                s.longest_win = (unsigned)r.dtm;
        } else if (r.wdl == TB_LOSS) {
            s.losses++;
            s.rule_losses += r.rule;
            if ((unsigned)r.dtm > s.longest_loss)
                s.longest_loss = (unsigned)r.dtm;
        } else {
            s.draws++;
        }
    }
    t->stats = s;
}
