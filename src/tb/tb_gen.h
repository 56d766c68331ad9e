/*
 * tb_gen.h - the retrograde generator (semantics in tb_table.h).
 *
 * Rounds of passes with the engine's own legal move generator. Round 1:
 * pass 0 marks broken entries and the positions whose side to move has no
 * move (lost, DTM 0); pass n finds the wins at distance n (a move to a loss
 * at n-1; of several, one without the rule flag) and the losses whose moves
 * all reach wins, the longest at n-1 (rule flag if any move's has it). A
 * capture leads into a smaller table, which tb_gen_build solves (or loads)
 * first. When a pass finds nothing beyond every distance the table and its
 * sub-tables hold, the perpetual-check rule (tb_rule.h) looks for rule seeds
 * in what is unresolved; if it marks any, another round of passes (from pass
 * 1) resolves what they decide, and so on until a round's rule finds no seed.
 * What stays unresolved is a draw. Two methods give the same table (test_tb
 * checks it): forward, where every pass tries every unresolved entry, and
 * un-moves (the default), where pass n tries only the entries one non-capture
 * move before an entry of distance n-1 (tb_unmove.h) and those whose captures
 * reach a distance that decides them now (a 16-bit trigger per entry, found in
 * pass 0). Memory per entry of the table being solved, at the peak: 2 bytes
 * (its value) + 1 bit (a mark) + 2 bytes (the trigger, un-moves only) during
 * the passes, or + 1 byte (the rule's region state, in the triggers' place)
 * between rounds: 4.125 bytes with un-moves, 3.125 forward (tb gen prints
 * the figure first); the sub-tables a capture reaches are read from their
 * files (memory-mapped). Threads share each pass (tb_work.h); progress goes to
 * opt->progress.
 */
#ifndef XQ_TB_GEN_H
#define XQ_TB_GEN_H

#include <stdio.h>

#include "tb_probe.h"
#include "tb_work.h"

typedef struct TbGenOptions {
    int threads;     /* 1..TB_THREADS_MAX */
    FILE *progress;  /* memory figure, passes, positions/s and ETA; NULL for none */
    bool write;      /* write each table generated to the set's directory */
    bool reload;     /* with write: keep the file's compressed copy in the set, not the generated entries */
    bool forward;    /* the forward method (every pass tries every unresolved entry) instead of un-moves */
    bool no_rule;    /* skip the perpetual-check rule (what never resolves is a draw): for comparison only */
} TbGenOptions;

/* Generates the table of sig (any covered signature, either colour stronger) and every table a capture
 * leads to that the set lacks (loading those the set's directory has), adding them to the set; false with
 * err filled. */
bool tb_gen_build(TbSet *set, const TbSig *sig, const TbGenOptions *opt, XqError *err);
/* Solves one table (sig canonical) whose sub-tables are all in the set; NULL with err filled. */
TbTable *tb_gen_solve(TbSet *set, const TbSig *sig, const TbGenOptions *opt, XqError *err);

#endif
