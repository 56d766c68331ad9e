/* tbtest.h - what the tablebase tests share: generating their small tables into a directory. */
#ifndef XQ_TBTEST_H
#define XQ_TBTEST_H

#include "tb/tb_gen.h"

/* Creates dir and generates the tables named there in order (each one's file removed first, so it is
 * generated, not loaded); returns the set holding them, or NULL with the reason on stderr. */
TbSet *tbtest_generate(const char *dir, const char *const *names, int n, int threads);
/* Frees a set from tbtest_generate (NULL is fine). */
void tbtest_free(TbSet *set);

#endif
