/*
 * tb_table.h - one tablebase in memory: its layout and its entries, generated
 * (one 16-bit entry each, tb_value.h's encoding) or read from a file (its
 * compressed blocks, tb_pack.h), and the counts over its entries.
 */
#ifndef XQ_TB_TABLE_H
#define XQ_TB_TABLE_H

#include <stdatomic.h>

#include "tb_index.h"
#include "tb_pack.h"

/* Counts over a table's legal entries. */
typedef struct TbStats {
    uint64_t positions, wins, draws, losses;
    uint64_t rule_wins, rule_losses;    /* the wins and losses that rest on the perpetual-check rule */
    unsigned longest_win, longest_loss; /* plies */
} TbStats;

/* A table: generated (val, one atomic entry each: the generator's threads read what others write, relaxed
 * order) or read from a file (packed, in the file's bytes, mapped or copied; read-only). */
typedef struct TbTable {
    TbLayout layout;
    char name[TB_SIG_TEXT];
    _Atomic uint16_t *val; /* NULL for a table read from a file */
    TbPacked packed;
    void *file; /* the file's bytes (tb_file.c maps or copies them), or NULL */
    size_t file_size;
    bool mapped; /* file is a memory mapping (else a heap copy) */
    TbStats stats;
    int passes; /* passes the generator ran, all rounds (0 for a table read from a file) */
    int rounds; /* rounds of the perpetual-check rule that found rule seeds (tb_gen.h) */
} TbTable;

/* Reads entry idx of a generated table. */
static inline unsigned tb_get(const TbTable *t, uint64_t idx)
{
    return atomic_load_explicit(&t->val[idx], memory_order_relaxed);
}
/* Reads entry idx of any table (a file's table decodes it; a broken entry of a file's table reads as some
 * value: only legal positions are asked for). */
unsigned tb_entry(const TbTable *t, uint64_t idx);

/* A zeroed generated table for sig (canonical); NULL if memory is short. */
TbTable *tb_table_new(const TbSig *sig);
/* A table without entries for sig (canonical), for a file's sections; NULL if memory is short. */
TbTable *tb_table_shell(const TbSig *sig);
/* Frees a table and its entries or file bytes (NULL is fine). */
void tb_table_free(TbTable *t);
/* Counts wins, draws, losses and the longest distances of a generated table into t->stats. */
void tb_table_count(TbTable *t);

#endif
