/* tbtest.h - what the tablebase tests share: generating their small tables into a directory, and the
 * checks every table gets (each entry against its moves, a plain alpha-beta on samples). */
#ifndef XQ_TBTEST_H
#define XQ_TBTEST_H

#include "tb/tb_gen.h"

/* Creates dir and generates the tables named there in order (each one's file removed first, so it is
 * generated, not loaded); returns the set holding them, or NULL with the reason on stderr. */
TbSet *tbtest_generate(const char *dir, const char *const *names, int n, int threads);
/* Frees a set from tbtest_generate (NULL is fine). */
void tbtest_free(TbSet *set);
/* A test group's fixture: generates the named tables (tbtest_generate, threads 2) into XQ_TEST_TMP/subdir
 * and allocates a scratch position; 0, or -1 with the reason on stderr. */
int tbtest_open(const char *tmp, const char *subdir, const char *const *names, int n, TbSet **set, Position **scratch);
/* Frees what tbtest_open made; 0. */
int tbtest_close(TbSet *set, Position *scratch);
/* Generates t's table again with the forward method (sub-tables from set) and fails the test unless it
 * equals t entry for entry, passes and rounds alike. */
void tbtest_forward_agrees(TbSet *set, const TbTable *t);
/* The loaded table of a signature name in set; fails the test if there is none. */
TbTable *tbtest_table(const TbSet *set, const char *name);
/* Writes the FEN mirrored left-right (each rank read backwards, digits included) into out (as long as fen). */
void tbtest_fen_mirror(const char *fen, char *out);
/* Fails the test unless every legal entry of t equals what its moves give (children probed through set):
 * no move: lost at 0; a win: 1 + the shortest loss reached, the rule flag only if every such loss has it;
 * a loss: every move reaches a win, 1 + the longest, the rule flag if any has it; a rule seed (a loss with
 * the rule flag at its round's base distance): not in check, and every move reaches a win, one of them with
 * the rule flag; a draw: no move reaches a loss and not every move a win. Returns the rule seeds seen. */
uint64_t tbtest_entries_consistent(TbSet *set, const TbTable *t, Position *scratch);
/* Fails the test unless sampled entries of t without the rule flag (wins and losses of DTM up to depth_max,
 * draws searched draw_depth plies) agree with a plain alpha-beta (no repetition rule) searched to the DTM:
 * value and distance. At most `samples` entries of each class; prints the counts. */
void tbtest_alpha_beta_agrees(const TbTable *t, Position *scratch, int samples, int depth_max, int draw_depth);

#endif
