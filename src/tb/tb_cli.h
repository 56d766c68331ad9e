/* tb_cli.h - the `jiangjun tb` subcommands: gen, probe, info. */
#ifndef XQ_TB_CLI_H
#define XQ_TB_CLI_H

#include <stdio.h>

/* Runs `tb gen SIG... -dir DIR [-threads N]`, `tb probe "<FEN>" [-dir DIR]` or `tb info FILE` (argv[0] is
 * "tb"); results on out, progress and usage on err. Returns an exit status. */
int tb_cli(int argc, char **argv, FILE *out, FILE *err);

#endif
