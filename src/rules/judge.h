/* judge.h - the `judge` subcommand: adjudicates a game given as a FEN and moves. */
#ifndef XQ_JUDGE_H
#define XQ_JUDGE_H

#include <stdio.h>

/*
 * Runs `judge [--rules NAME] "<FEN>" [m1 m2 ...]` (argv[0] is "judge"):
 * replays the moves and prints one line whose first token is the PGN result
 * (1-0, 0-1, 1/2-1/2, or * when no rule has ended the game), then the reason.
 * Returns 0, or 2 with a message on err for a bad FEN, an illegal move or bad usage.
 */
int cli_judge(int argc, char **argv, FILE *out, FILE *err);

#endif
