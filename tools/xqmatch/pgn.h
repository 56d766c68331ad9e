/*
 * pgn.h - games as PGN in the xqbase conventions (readable by XiangQi
 * Wizard): [Game "Chinese Chess"], [Red]/[Black], [FEN] for a set-up start,
 * [Format "ICCS"] and moves written "H2-E2".
 */
#ifndef XQM_PGN_H
#define XQM_PGN_H

#include <stdio.h>

#include "game.h"

/* Extra tags of one game. */
typedef struct PgnInfo {
    const char *event;
    const char *site;
    const char *date;          /* "yyyy.mm.dd" */
    int round;                 /* game number in the match */
    const char *time_control;  /* free text, e.g. "10+0.1" */
    const char *annotator;     /* the program that wrote the game and its comments, e.g. "xqmatch (Jiangjun) 1.0.0" */
} PgnInfo;

/* Writes an ICCS move "h2e2" as "H2-E2" into out (6 bytes + NUL). */
char *pgn_iccs(const char *move, char out[8]);
/* Writes one game; returns false on a write error. */
bool pgn_write_game(FILE *f, const GameRecord *rec, const PgnInfo *info);

#endif
