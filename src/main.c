/* main.c - entry point: a subcommand from the command line, else the protocol loop. */
#include <stdio.h>
#include <string.h>

#include "engine/bench.h"
#include "cli.h"
#include "rules/judge.h"
#include "protocol/protocol.h"
#include "board/square.h"
#include "tb/tb_cli.h"
#include "engine/version.h"

enum { EXIT_USAGE = 2 };

/* Dispatches `perft`, `bench`, `judge` or `tb`, --help or --version, or runs the protocol on stdin/stdout. */
int main(int argc, char **argv)
{
    tables_init();
    if (argc == 1)
        return protocol_run(stdin, stdout);
    if (strcmp(argv[1], "perft") == 0)
        return cli_perft(argc - 1, argv + 1, stdout, stderr);
    if (strcmp(argv[1], "bench") == 0)
        return cli_bench(argc - 1, argv + 1, stdout, stderr);
    if (strcmp(argv[1], "judge") == 0)
        return cli_judge(argc - 1, argv + 1, stdout, stderr);
    if (strcmp(argv[1], "tb") == 0)
        return tb_cli(argc - 1, argv + 1, stdout, stderr);
    if (argc == 2 && cli_common_arg(argv[1], stdout))
        return 0;
    fprintf(stderr, "jiangjun: unknown argument '%.60s'\n\n", argv[1]);
    cli_usage(stderr);
    return EXIT_USAGE;
}
