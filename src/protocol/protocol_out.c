/*
 * protocol_out.c - output every front-end uses: whole lines written under a
 * lock and flushed (the protocol and search threads both write), notices
 * through the current front-end, PV text and the board for `d`. Every line
 * stays below LINE_MAX_OUT bytes (UCI2WB's buffer).
 */
#include "protocol_out.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "board/move.h"
#include "eval/wdl.h"

enum { LINE_BUF = LINE_MAX_OUT + 24, ESCAPE_LEN = 4 /* "\xHH" */ };

/* Copies src into dst (size bytes, always NUL-terminated, cut before an escape that would not fit) with each
 * control character (0x00-0x1F, 0x7F) ESCAPED as \xHH, not dropped, so that the user sees what a file or an
 * input held and the text stays on one line; TAB is kept when keep_tab. A backslash is copied as it is (Windows
 * paths stay readable), so "\x0a" typed by the user and an escaped newline look alike. */
void out_clean(char *dst, size_t size, const char *src, bool keep_tab)
{
    static const char HEX[] = "0123456789abcdef";
    size_t n = 0;
    for (; *src; src++) {
        unsigned char ch = (unsigned char)*src;
        bool control = (ch < 0x20 || ch == 0x7F) && !(keep_tab && ch == '\t');
        if (n + (control ? ESCAPE_LEN : 1) >= size)
            break;
        if (control) {
            dst[n++] = '\\';
            dst[n++] = 'x';
            dst[n++] = HEX[ch >> 4];
            dst[n++] = HEX[ch & 0xF];
        } else {
            dst[n++] = (char)ch;
        }
    }
    if (size)
        dst[n] = '\0';
}

/* Masks each of the lowercase words (NULL-terminated), in any case, in free text by its second letter
 * ("d*aw", "r*sign"): GUIs act on some words wherever they appear. */
void out_mask_words(char *s, const char *const *words)
{
    for (char *c = s; *c; c++)
        for (int w = 0; words[w]; w++) {
            size_t n = strlen(words[w]), k = 0;
            while (k < n && c[k] && (c[k] | 0x20) == words[w][k])
                k++;
            if (k == n)
                c[1] = '*';
        }
}

/* Writes one formatted line and flushes; control characters in it are escaped (out_clean; TAB is kept, CECP's
 * thinking output needs it), so no text can end the line early or start another. */
void out_line(Output *out, const char *fmt, ...)
{
    char buf[LINE_BUF], clean[LINE_BUF];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    out_clean(clean, sizeof clean, buf, true);
    pthread_mutex_lock(&out->lock);
    fputs(clean, out->f);
    fputc('\n', out->f);
    fflush(out->f);
    pthread_mutex_unlock(&out->lock);
}

/* Prints a notice or error for the user through the current front-end; what it quotes (file names, a net's
 * description, option values, FENs, input) has every control character escaped, TAB too (out_clean). */
void out_info_string(Proto *p, const char *fmt, ...)
{
    char buf[LINE_MAX_OUT - 16], clean[LINE_MAX_OUT - 16];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    out_clean(clean, sizeof clean, buf, false);
    p->fe->message(p, clean);
}

/* Appends formatted text to buf at *n (truncating safely). */
void out_append(char *buf, size_t size, size_t *n, const char *fmt, ...)
{
    if (*n >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *n, size - *n, fmt, ap);
    va_end(ap);
    if (w > 0)
        *n += (size_t)w;
}

/* Search-thread callback of UCI and UCCI: the root move being searched. */
void out_currmove(Proto *p, Move move, int number)
{
    char m[MOVE_TEXT];
    out_line(&p->out, "info currmove %s currmovenumber %d", move_to_text(move, m), number);
}

/* Writes " m1 m2 ..." for a PV into buf. */
void out_pv_text(const SearchReport *r, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < r->pv_len && n + MOVE_TEXT + 1 < size; i++) {
        char m[MOVE_TEXT];
        buf[n++] = ' ';
        memcpy(buf + n, move_to_text(r->pv[i], m), MOVE_TEXT);
        n += MOVE_TEXT - 1;
    }
}

/* Prints the board, FEN and key of a position. */
void out_board(Proto *p, const Position *pos)
{
    static const char LETTER[PIECE_TYPES] = { 'k', 'a', 'b', 'n', 'r', 'c', 'p' };
    const char *rule = " +---+---+---+---+---+---+---+---+---+";
    out_line(&p->out, "%s", rule);
    for (int rank = RANKS - 1; rank >= 0; rank--) {
        char line[64];
        size_t n = 0;
        line[n++] = ' ';
        for (int file = 0; file < FILES; file++) {
            int id = pos->board[sq_make(file, rank)];
            char c = ' ';
            if (id != EMPTY) {
                c = LETTER[piece_type(id)];
                if (piece_side(id) == RED)
                    c = (char)(c - 'a' + 'A');
            }
            n += (size_t)snprintf(line + n, sizeof line - n, "| %c ", c);
        }
        snprintf(line + n, sizeof line - n, "| %d", rank);
        out_line(&p->out, "%s", line);
        out_line(&p->out, "%s", rule);
    }
    out_line(&p->out, "   a   b   c   d   e   f   g   h   i");
    char fen[FEN_MAX];
    out_line(&p->out, "Fen: %s", pos_to_fen(pos, fen, sizeof fen));
    out_line(&p->out, "Key: %016" PRIX64, pos->key);
    out_line(&p->out, "In check: %s", pos->in_check ? "yes" : "no");
    out_line(&p->out, "History plies: %u", (unsigned)pos->ply);
    out_line(&p->out, "Static eval (side to move): %d (%s)", engine_static_eval(p->engine, pos),
             engine_options(p->engine)->use_nnue ? "network" : "hand-crafted");
}
