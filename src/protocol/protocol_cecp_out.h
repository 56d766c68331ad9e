/*
 * protocol_cecp_out.h - what the CECP front-end writes: features, thinking output,
 * notices, book lines and the reasons of results.
 */
#ifndef XQ_PROTOCOL_CECP_OUT_H
#define XQ_PROTOCOL_CECP_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include "proto.h"

/* Initialises the CECP state (the session's start: force mode, level 40 5 0, post off). */
void cecp_init(Cecp *c);
/* Prints the feature lines of `protover` (features, the options, done=1). */
void cecp_features(Proto *p);
/* Search-thread callback: thinking output "ply score time nodes seldepth nps tbhits<TAB>pv". */
void cecp_report(Proto *p, const Position *root, const SearchReport *r);
/* A notice ("# text") or an error ("tellusererror text" for text starting "error: "). */
void cecp_message(Proto *p, const char *text);
/* Search-thread callback: a thinking line "0 weight 0 0 0 0 0<TAB>move" per book move, while post is on. */
void cecp_book(Proto *p, const BookMove *moves, int n, Move chosen);
/* `bk`: the book moves of the game's position with their shares, then an empty line. */
void cecp_bk(Proto *p);
/* Writes why the rules ended the game ("red is checkmated", "black checks perpetually") into buf. */
void cecp_reason(const RulesReport *r, int loser, bool in_check, char *buf, size_t size);

#endif
