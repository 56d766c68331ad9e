/* tune_pgn.c - replays xqmatch PGN games (read by pgn_read.c) with the core and writes "FEN;result" lines. */
#include "tune_pgn.h"

#include <stdlib.h>
#include <string.h>

#include "board/move.h"
#include "board/movegen.h"
#include "common/pgn_read.h"
#include "board/position.h"

/* Replays one game and writes its positions; false when it has no usable result or a move does not replay. */
static bool write_game(const PgnGame *g, FILE *out, int skip_plies, Position *pos, long *written)
{
    double r = pgn_result_value(g);
    XqError err;
    if (r < 0 || !pos_from_fen(pos, g->fen, &err))
        return false;
    int first = skip_plies > g->book_plies ? skip_plies : g->book_plies;
    char fen[FEN_MAX];
    for (int ply = 0; ply < g->n_moves; ply++) {
        if (ply >= first) {
            fprintf(out, "%s;%.1f\n", pos_to_fen(pos, fen, sizeof fen), r);
            (*written)++;
        }
        Move m;
        if (!move_parse_legal(pos, g->moves[ply], &m, &err))
            return false;
        pos_make(pos, m);
        if (pos->ply >= MAX_HISTORY - 1)
            pos_clear_history(pos);
    }
    return true;
}

/* What one extraction run writes to and counts. */
typedef struct Extract {
    const PgnExtractOutput *out;
    PgnExtractStats *stats;
    Position *pos;
} Extract;

/* Per game: writes it to the training or the validation file, or counts it as skipped. */
static bool extract_game(void *ctx, const PgnGame *g)
{
    Extract *x = ctx;
    const PgnExtractOutput *out = x->out;
    bool valid = out->valid && out->valid_every > 0 && x->stats->games % out->valid_every == 0;
    if (write_game(g, valid ? out->valid : out->train, out->skip_plies, x->pos, &x->stats->positions)) {
        x->stats->games++;
        x->stats->valid_games += valid;
    } else {
        x->stats->skipped++;
    }
    return true;
}

/* Reads every game of a PGN file and writes its labelled positions. */
bool pgn_extract_file(const char *path, const PgnExtractOutput *out, PgnExtractStats *stats)
{
    Extract x = { out, stats, malloc(sizeof(Position)) };
    if (!x.pos)
        return false;
    bool ok = pgn_read_file(path, extract_game, &x);
    free(x.pos);
    return ok;
}
