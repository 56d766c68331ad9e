/*
 * protocol_out.h - serialised, flushed output of the protocol and search threads,
 * with the one sanitiser of echoed text.
 */
#ifndef XQ_PROTOCOL_OUT_H
#define XQ_PROTOCOL_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include "proto.h"

/* Writes one formatted line (a newline is added) and flushes. */
void out_line(Output *out, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The one sanitiser of echoed text: copies src into dst with control characters escaped as \xHH (TAB kept
 * when keep_tab); out_line and out_info_string pass everything they print through it. */
void out_clean(char *dst, size_t size, const char *src, bool keep_tab);
/* Masks each of the lowercase words (NULL-terminated list), in any case, in free text ("d*aw"). */
void out_mask_words(char *s, const char *const *words);
/* Prints a notice or error for the user through the current front-end ("info string ..." and the like). */
void out_info_string(Proto *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Appends formatted text to buf at *n (truncating safely). */
void out_append(char *buf, size_t size, size_t *n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Search-thread callback of UCI and UCCI: "info currmove M currmovenumber N". */
void out_currmove(Proto *p, Move move, int number);
/* Writes " m1 m2 ..." (the checked PV of a report) into buf; "" for an empty PV. */
void out_pv_text(const SearchReport *r, char *buf, size_t size);
/* Prints the board, FEN and key of a position (`d`). */
void out_board(Proto *p, const Position *pos);

#endif
