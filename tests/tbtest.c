/* tbtest.c - generating the tablebase tests' tables (see tbtest.h). */
#include "tbtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

/* Creates dir and generates the named tables there; the set, or NULL with the reason on stderr. */
TbSet *tbtest_generate(const char *dir, const char *const *names, int n, int threads)
{
    tables_init();
    mkdir(dir, 0777);
    TbSet *set = malloc(sizeof *set);
    if (!set)
        return NULL;
    tb_set_init(set, dir);
    TbGenOptions opt = { .threads = threads, .progress = NULL, .write = true };
    for (int i = 0; i < n; i++) {
        char path[TB_PATH_MAX];
        TbSig sig;
        XqError e;
        if (tb_file_path(dir, names[i], path, sizeof path))
            remove(path);
        if (!tb_sig_parse(names[i], &sig, &e) || !tb_gen_build(set, &sig, &opt, &e)) {
            fprintf(stderr, "%s: %s\n", names[i], e.msg);
            tbtest_free(set);
            return NULL;
        }
    }
    return set;
}

/* Frees a set from tbtest_generate (NULL is fine). */
void tbtest_free(TbSet *set)
{
    if (!set)
        return;
    tb_set_free(set);
    free(set);
}
