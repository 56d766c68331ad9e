/*
 * tb_probe.h - a set of tablebases and probing a position in it.
 *
 * A TbSet holds the tables of one directory, loaded on first use (or added by
 * the generator), found by signature key through a small hash. A position whose
 * material no table covers gets an error; a position where neither side has a
 * rook, horse, cannon or pawn needs no table (a draw, or a loss when the side
 * to move has no move). A set is not safe for concurrent use while tables are
 * being loaded; once loading is over its tables are read-only and any number of
 * threads probe them (tb_probe_loaded, tb_root_filter).
 */
#ifndef XQ_TB_PROBE_H
#define XQ_TB_PROBE_H

#include "tb_file.h"

enum {
    TB_SET_MAX = 1024,  /* tables one set holds */
    TB_SET_HASH = 2048, /* slots of the lookup by signature key (a power of two, twice TB_SET_MAX) */
};

/* The tables in the order added, and the same tables by signature key (tb_sig_key) for a direct lookup. */
typedef struct TbSet {
    char dir[TB_PATH_MAX];
    int count;
    TbTable *table[TB_SET_MAX];
    int hash_key[TB_SET_HASH];        /* the key in each slot (where hash_table is not NULL) */
    TbTable *hash_table[TB_SET_HASH]; /* NULL: an empty slot */
} TbSet;

/* An empty set reading from dir (NULL or "" = the current directory). */
void tb_set_init(TbSet *set, const char *dir);
/* Frees every table of the set. */
void tb_set_free(TbSet *set);
/* Adds a table (the set owns it); false if the set is full. */
bool tb_set_add(TbSet *set, TbTable *t);
/* The set's table of a canonical signature, loaded from the directory if need be; NULL with err filled if
 * there is none or its file is refused. */
TbTable *tb_set_table(TbSet *set, const TbSig *sig, XqError *err);
/* The already loaded table of a canonical signature, or NULL. */
TbTable *tb_set_find(const TbSet *set, const TbSig *sig);
/* Probes pos (any side to move, either colour stronger); false with err filled if no table answers. */
bool tb_probe(TbSet *set, Position *pos, TbValue *out, XqError *err);
/* The value of a position that needs no table: neither side has an attacking piece. */
TbValue tb_value_bare(Position *pos);
/* Probes a legal pos in the tables already loaded, never loading one (safe from many threads at once once
 * loading is over); false when no loaded table holds pos (bare positions included). */
bool tb_probe_loaded(const TbSet *set, const Position *pos, TbValue *out);
/* Loads every table file of the set's directory (DIR/<signature>.jjtb, the signature in its stored form);
 * a file refused is reported through on_error(ctx, message) and skipped. Returns the number loaded. */
int tb_set_load_dir(TbSet *set, void (*on_error)(void *ctx, const char *msg), void *ctx);
/* Keeps of the root's moves[0..n) those that play its table value best (a win: the fastest, a mate before
 * a win by the rule at the same distance; a draw: every drawing move; a loss: the slowest), in order; *value gets the
 * root's value. Returns how many were kept, or -1 (moves untouched) when the loaded tables do not answer
 * the root and every move. */
int tb_root_filter(const TbSet *set, Position *root, Move *moves, int n, TbValue *value);

#endif
