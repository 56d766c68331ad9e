/*
 * tb_gen.h - the retrograde generator of version-1 tables (tb_table.h).
 *
 * Passes over the entries with the engine's own legal move generator: pass 0
 * marks broken entries and the positions whose side to move has no move
 * (lost, DTM 0); pass n finds the wins at DTM n (a move to a loss at DTM n-1)
 * and the losses whose moves all reach wins, the longest at DTM n-1. A
 * capture leads into a smaller table, which tb_gen_build solves (or loads)
 * first. What no pass resolves is a draw. Two methods give the same table
 * (test_tb checks it): forward, where every pass tries every unresolved
 * entry (2 bytes of memory per entry), and un-moves (the default, 7 bytes
 * per entry), where pass n tries only the entries one non-capture move
 * before an entry resolved in pass n-1 (tb_unmove.h) and those whose
 * captures reach a DTM that decides them now (found in pass 0). Threads
 * share each pass, taking chunks of entries; progress goes to opt->progress.
 */
#ifndef XQ_TB_GEN_H
#define XQ_TB_GEN_H

#include <stdio.h>

#include "tb_probe.h"

enum { TB_THREADS_MAX = 64 };

typedef struct TbGenOptions {
    int threads;     /* 1..TB_THREADS_MAX */
    FILE *progress;  /* memory figure, passes, positions/s and ETA; NULL for none */
    bool write;      /* write each table generated to the set's directory */
    bool forward;    /* the forward method (every pass tries every unresolved entry) instead of un-moves */
} TbGenOptions;

/* Generates the table of sig (any covered signature) and every table a capture leads to that the set
 * lacks (loading those the set's directory has), adding them to the set; false with err filled. */
bool tb_gen_build(TbSet *set, const TbSig *sig, const TbGenOptions *opt, XqError *err);
/* Solves one table whose sub-tables are all in the set; NULL with err filled. */
TbTable *tb_gen_solve(TbSet *set, const TbSig *sig, const TbGenOptions *opt, XqError *err);

#endif
