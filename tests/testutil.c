/* testutil.c - data-file and EPD helpers for the tests. */
#include "testutil.h"
#include "testnet.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/move.h"
#include "board/movegen.h"

enum { MOVE_TEXT_MAX_TEST = 32 };

/* Reads the non-comment lines of tests/data/<name>. */
void test_read_lines(const char *name, TestLines *out)
{
    char path[1024], buf[LINE_MAX_TEST];
    snprintf(path, sizeof path, "%s/%s", XQ_TEST_DATA, name);
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    out->count = 0;
    while (fgets(buf, sizeof buf, f)) {
        buf[strcspn(buf, "\r\n")] = '\0';
        if (!buf[0] || buf[0] == '#')
            continue;
        assert_true(out->count < LINES_MAX_TEST);
        out->line[out->count] = malloc(strlen(buf) + 1);
        strcpy(out->line[out->count++], buf);
    }
    fclose(f);
}

/* Frees the lines. */
void test_free_lines(TestLines *lines)
{
    for (int i = 0; i < lines->count; i++)
        free(lines->line[i]);
    lines->count = 0;
}

/* FEN part of an EPD line. */
void epd_fen(const char *line, char *out, size_t size)
{
    size_t n = strcspn(line, ";");
    while (n > 0 && line[n - 1] == ' ')
        n--;
    snprintf(out, size, "%.*s", (int)n, line);
}

/* Value of an EPD opcode. */
bool epd_field(const char *line, const char *opcode, char *out, size_t size)
{
    size_t len = strlen(opcode);
    for (const char *p = strchr(line, ';'); p; p = strchr(p + 1, ';')) {
        const char *q = p + 1;
        while (*q == ' ')
            q++;
        if (strncmp(q, opcode, len) != 0 || q[len] != ' ')
            continue;
        q += len + 1;
        if (*q == '"') {
            q++;
            size_t n = strcspn(q, "\"");
            snprintf(out, size, "%.*s", (int)n, q);
        } else {
            size_t n = strcspn(q, " ;");
            snprintf(out, size, "%.*s", (int)n, q);
        }
        return true;
    }
    return false;
}

/* Sets up a position or fails. */
void test_setup(Position *pos, const char *fen)
{
    XqError err;
    if (!pos_from_fen(pos, fen, &err))
        fail_msg("FEN rejected: %s (%s)", err.msg, fen);
}

/* Plays a move list onto pos. */
void test_play(Position *pos, const char *moves)
{
    const char *rest = moves ? moves : "";
    char text[MOVE_TEXT_MAX_TEST];
    while (test_next_token(&rest, text, sizeof text)) {
        Move m;
        XqError err;
        if (!move_parse_legal(pos, text, &m, &err))
            fail_msg("test setup: %s", err.msg);
        pos_make(pos, m);
    }
}

/* Sets up a FEN and plays a move list onto it. */
void test_setup_moves(Position *pos, const char *fen, const char *moves)
{
    test_setup(pos, fen ? fen : START_FEN);
    test_play(pos, moves);
}

/* Expected rejection text for the data lines no game can reach, else NULL. */
const char *test_known_invalid(const char *line)
{
    char id[64];
    if (!epd_field(line, "id", id, sizeof id))
        return NULL;
    if (strcmp(id, "mate_palace") == 0)
        return "too many red rooks";
    if (strcmp(id, "redvbird-m3-01") == 0)
        return "black pawn on e8 is on a square no pawn can reach";
    return NULL;
}

/* A seeded test net of a shape, not trained (the accumulators land around the clamp range); nnue_net_free it. */
Network *test_net_shaped(uint64_t seed, const NnueShape *shape)
{
    Network *net = nnue_net_new(shape);
    assert_non_null(net);
    const size_t h = (size_t)shape->hidden;
    for (size_t i = 0; i < (size_t)shape->inputs * h; i++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        net->ft_weight[i] = (int16_t)((int)(seed >> 33) % 41);
    }
    for (size_t i = 0; i < h; i++)
        net->ft_bias[i] = (int16_t)(i % 97);
    for (int b = 0; b < NNUE_OUTPUT_BUCKETS; b++)
        for (size_t i = 0; i < 2 * h; i++)
            nnue_out_row(net, b)[i] = (int16_t)((int)(i * 37 + (size_t)b) % 255 - NNUE_OUT_WEIGHT_MAX);
    snprintf(net->desc, sizeof net->desc, "test net");
    return net;
}

/* A seeded test net of the version 1 shape; nnue_net_free it. */
Network *test_net(uint64_t seed) { return test_net_shaped(seed, &NNUE_SHAPE_V1); }

/* Writes the colour-flipped FEN of pos (ranks reversed, colours swapped, the other side to move). */
void test_flip_colours(const Position *pos, char *out, size_t size)
{
    char fen[FEN_MAX];
    pos_to_fen(pos, fen, sizeof fen);
    fen[strcspn(fen, " ")] = '\0'; /* the board; the flipped one's top rank is our bottom one */
    size_t len = 0;
    for (char *end = fen + strlen(fen); end > fen && len + 1 < size;) {
        char *start = end;
        while (start > fen && start[-1] != '/')
            start--;
        for (const char *c = start; c < end && len + 1 < size; c++)
            out[len++] = (char)(isupper((unsigned char)*c) ? tolower((unsigned char)*c) : toupper((unsigned char)*c));
        if (start > fen && len + 1 < size)
            out[len++] = '/';
        end = start > fen ? start - 1 : fen;
    }
    snprintf(out + len, size - len, " %c - - 0 1", pos->side == RED ? 'b' : 'w');
}

/* Copies the next space-separated token of *text into out; false at the end. */
bool test_next_token(const char **text, char *out, size_t size)
{
    const char *p = *text;
    while (*p == ' ')
        p++;
    size_t n = 0;
    while (p[n] && p[n] != ' ')
        n++;
    if (n == 0)
        return false;
    snprintf(out, size, "%.*s", (int)n, p);
    *text = p + n;
    return true;
}

/* Sets pos to each perft position, its children and every reply_step-th grandchild, calling check() on each. */
void test_walk_perft(Position *pos, void (*check)(void), int reply_step)
{
    TestLines lines;
    test_read_lines("perft.epd", &lines);
    for (int i = 0; i < lines.count; i++) {
        char fen[LINE_MAX_TEST];
        Move moves[MAX_MOVES], replies[MAX_MOVES];
        epd_fen(lines.line[i], fen, sizeof fen);
        test_setup(pos, fen);
        check();
        const int n = gen_legal(pos, moves);
        for (int j = 0; j < n; j++) {
            pos_make(pos, moves[j]);
            check();
            const int r = gen_legal(pos, replies);
            for (int k = 0; k < r; k += reply_step) {
                pos_make(pos, replies[k]);
                check();
                pos_unmake(pos);
            }
            pos_unmake(pos);
        }
    }
    test_free_lines(&lines);
}

/* The next of the tests' deterministic random numbers from *state (xorshift64*; state must not be 0). */
uint64_t test_random(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717ULL;
}
