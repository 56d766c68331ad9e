/* cli.h - command-line subcommands (perft, and more as they arrive). */
#ifndef XQ_CLI_H
#define XQ_CLI_H

#include <stdio.h>

/* Runs `perft D [FEN...]`: prints "move: count" per root move and "Nodes searched: N". Returns an exit status. */
int cli_perft(int argc, char **argv, FILE *out, FILE *err);

#endif
