/* xqbook_pgn.c - a book from PGN games: counts per move, then weights (see xqbook_pgn.h). */
#include "xqbook_pgn.h"

#include <stdlib.h>

#include "board/move.h"
#include "common/pgn_read.h"

enum { POINTS_WIN = 2, POINTS_DRAW = 1, PERCENT = 100 };

/* One file's reading. */
typedef struct PgnRead {
    BookTable *t;
    const PgnBookOptions *opt;
    PgnBookStats *stats;
    Position *pos;
    bool out_of_memory;
} PgnRead;

/* Counts one game's moves; a game whose moves do not all replay (up to the limit) is skipped whole. */
static bool count_game(void *ctx, const PgnGame *g)
{
    PgnRead *r = ctx;
    double red = pgn_result_value(g);
    XqError err;
    if (red < 0 || !pos_from_fen(r->pos, g->fen, &err)) {
        r->stats->skipped++;
        return true;
    }
    int plies = g->n_moves < r->opt->max_plies ? g->n_moves : r->opt->max_plies;
    Move line[PGN_PLIES_MAX];
    for (int i = 0; i < plies; i++) {
        if (!move_parse_legal(r->pos, g->moves[i], &line[i], &err)) {
            r->stats->skipped++;
            return true;
        }
        pos_make(r->pos, line[i]);
    }
    for (int i = plies - 1; i >= 0; i--) /* back to the start, counting each move in its position */
        pos_unmake(r->pos);
    for (int i = 0; i < plies; i++) {
        double mover = r->pos->side == RED ? red : 1.0 - red;
        BookEntry *e = book_table_move(r->t, r->pos, line[i]);
        if (!e) {
            r->out_of_memory = true;
            return false;
        }
        e->wins += mover == 1.0;
        e->draws += mover == 0.5;
        e->losses += mover == 0.0;
        pos_make(r->pos, line[i]);
    }
    r->stats->games++;
    r->stats->moves += plies;
    return true;
}

/* Counts the games of one PGN file. */
bool pgn_book_read(BookTable *t, const char *path, const PgnBookOptions *opt, PgnBookStats *stats)
{
    PgnRead r = { t, opt, stats, malloc(sizeof(Position)), false };
    if (!r.pos)
        return false;
    bool ok = pgn_read_file(path, count_game, &r) && !r.out_of_memory;
    free(r.pos);
    return ok;
}

/* Gives each counted move its weight, or 0 when it fails the minimums. */
size_t pgn_book_weigh(BookTable *t, const PgnBookOptions *opt)
{
    size_t kept = 0;
    for (size_t i = 0; i < t->cap; i++) {
        BookEntry *e = &t->slot[i];
        if (e->move == MOVE_NONE)
            continue;
        uint64_t games = (uint64_t)e->wins + e->draws + e->losses;
        uint64_t points = POINTS_WIN * (uint64_t)e->wins + POINTS_DRAW * (uint64_t)e->draws; /* half-points */
        bool keep = games > 0 && games >= (uint64_t)opt->min_games
                    && points * PERCENT >= (uint64_t)opt->min_score * POINTS_WIN * games;
        e->weight = keep ? (uint32_t)(points > 0 ? (points > UINT32_MAX ? UINT32_MAX : points) : 1) : 0;
        kept += keep;
    }
    return kept;
}
