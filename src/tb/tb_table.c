/* tb_table.c - a tablebase in memory: allocation and statistics. */
#include "tb_table.h"

#include <stdlib.h>

/* A zeroed table for sig (red attacking); NULL if memory is short. */
TbTable *tb_table_new(const TbSig *sig)
{
    TbTable *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    tb_layout_init(&t->layout, sig);
    tb_sig_name(sig, t->name, sizeof t->name);
    t->val = calloc((size_t)t->layout.size, sizeof *t->val);
    if (!t->val) {
        free(t);
        return NULL;
    }
    return t;
}

/* Frees a table (NULL is fine). */
void tb_table_free(TbTable *t)
{
    if (!t)
        return;
    free((void *)t->val);
    free(t);
}

/* Counts wins, draws, losses and the longest distances into t->stats. */
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
            if ((unsigned)r.dtm > s.longest_win)
                s.longest_win = (unsigned)r.dtm;
        } else if (r.wdl == TB_LOSS) {
            s.losses++;
            if ((unsigned)r.dtm > s.longest_loss)
                s.longest_loss = (unsigned)r.dtm;
        } else {
            s.draws++;
        }
    }
    t->stats = s;
}
