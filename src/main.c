/* main.c - entry point: a subcommand from the command line, else the protocol loop. */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "judge.h"
#include "protocol.h"
#include "square.h"
#include "tb/tb_cli.h"

/* Dispatches `perft`, `bench`, `judge` or `tb`, or runs the protocol on stdin/stdout. */
int main(int argc, char **argv)
{
    tables_init();
    if (argc == 1)
        return protocol_run(stdin, stdout);
    if (argc > 1 && strcmp(argv[1], "perft") == 0)
        return cli_perft(argc - 1, argv + 1, stdout, stderr);
    if (argc > 1 && strcmp(argv[1], "bench") == 0)
        return cli_bench(argc - 1, argv + 1, stdout, stderr);
    if (argc > 1 && strcmp(argv[1], "judge") == 0)
        return cli_judge(argc - 1, argv + 1, stdout, stderr);
    if (argc > 1 && strcmp(argv[1], "tb") == 0)
        return tb_cli(argc - 1, argv + 1, stdout, stderr);
    fprintf(stderr, "usage: jiangjun perft DEPTH [FEN] | jiangjun bench [DEPTH] | jiangjun judge \"<FEN>\" [moves...]"
                    " | jiangjun tb gen|probe|info ...\n");
    return 2;
}
