/* cli.h - the engine's command line: its usage, --help and --version, and the perft subcommand. */
#ifndef XQ_CLI_H
#define XQ_CLI_H

#include <stdbool.h>
#include <stdio.h>

/* Prints the engine's usage: protocols, subcommands, where nets and books are looked for. */
void cli_usage(FILE *out);
/* Handles --help / -h / help (the usage) and --version on out; true if arg was one of them. */
bool cli_common_arg(const char *arg, FILE *out);
/* Runs `perft D [FEN...]`: prints "move: count" per root move and "Nodes searched: N". Returns an exit status. */
int cli_perft(int argc, char **argv, FILE *out, FILE *err);

#endif
