/*
 * fuzz_move.c - fuzz target for the move parser. Input: a FEN on the first
 * line (the start position if it does not parse), then whitespace-separated
 * move texts. Each text either is rejected with a message and the position
 * unchanged, or names a legal move whose text reads back the same; legal
 * moves are played. The same list then goes through engine_build_position,
 * the protocol's all-or-nothing path, which must agree.
 */
#include <ctype.h>

#include "engine/engine.h"
#include "fuzz.h"
#include "board/move.h"
#include "board/movegen.h"

enum { FUZZ_MAX_PLIES = 1000 }; /* well inside the history a Position keeps */

/* Is m in the list? */
static bool listed(const Move *list, int n, Move m)
{
    for (int i = 0; i < n; i++)
        if (list[i] == m)
            return true;
    return false;
}

/* Parses one token on pos; plays it if legal. Returns whether it was legal. */
static bool try_move(Position *pos, const char *tok)
{
    Move legal[MAX_MOVES], m = MOVE_NONE, raw;
    int n = gen_legal(pos, legal);
    uint64_t key = pos->key;
    uint16_t ply = pos->ply;
    XqError err;
    err.msg[0] = '\0';
    bool parsed = move_from_text(tok, &raw);
    if (!move_parse_legal(pos, tok, &m, &err)) {
        FUZZ_CHECK(err.msg[0] != '\0' && memchr(err.msg, '\0', sizeof err.msg) != NULL);
        FUZZ_CHECK(pos->key == key && pos->ply == ply);
        return false;
    }
    FUZZ_CHECK(parsed && raw == m && strlen(tok) == MOVE_TEXT - 1);
    FUZZ_CHECK(listed(legal, n, m));
    char text[MOVE_TEXT];
    move_to_text(m, text);
    for (int i = 0; i < MOVE_TEXT - 1; i++)
        FUZZ_CHECK(text[i] == tolower((unsigned char)tok[i]));
    pos_make(pos, m);
    FUZZ_CHECK(pos_is_ok(pos));
    return true;
}

/* One input: FEN line, then move texts. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    char *rest = fuzz_first_line(text);
    Position *pos = malloc(sizeof *pos), *built = malloc(sizeof *built);
    char **tok = malloc((strlen(rest) / 2 + 1) * sizeof *tok);
    FUZZ_CHECK(pos && built && tok);
    XqError err;
    const char *fen = text;
    if (!pos_from_fen(pos, fen, &err)) {
        fen = START_FEN;
        FUZZ_CHECK(pos_from_fen(pos, fen, &err));
    }
    int n_tok = 0, n_legal = 0;
    bool all_legal = true;
    for (char *t = strtok(rest, " \t\r\n\v\f"); t && pos->ply < FUZZ_MAX_PLIES; t = strtok(NULL, " \t\r\n\v\f")) {
        tok[n_tok++] = t;
        if (try_move(pos, t))
            n_legal++;
        else
            all_legal = false;
    }
    /* the protocol's path: all or nothing */
    bool ok = engine_build_position(fen, tok, n_tok, built, &err);
    FUZZ_CHECK(ok == (all_legal && n_legal == n_tok));
    if (ok)
        FUZZ_CHECK(built->key == pos->key && memcmp(built->board, pos->board, sizeof pos->board) == 0);
    free(tok);
    free(built);
    free(pos);
    free(text);
    return 0;
}
