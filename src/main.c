/* main.c - entry point: a subcommand from the command line, else the protocol loop. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "judge.h"
#include "square.h"

/* Dispatches `perft` or `judge`, or runs the protocol on stdin/stdout. */
int main(int argc, char **argv)
{
    tables_init();
    if (argc > 1 && strcmp(argv[1], "perft") == 0)
        return cli_perft(argc - 1, argv + 1, stdout, stderr);
    if (argc > 1 && strcmp(argv[1], "judge") == 0)
        return cli_judge(argc - 1, argv + 1, stdout, stderr);
    fprintf(stderr, "usage: jiangjun perft DEPTH [FEN] | jiangjun judge \"<FEN>\" [moves...]\n");
    return 2;
}
