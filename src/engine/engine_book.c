/* engine_book.c - the engine's opening book: files, on/off, seed, and the book move of a go (see engine_book.h). */
#include "engine_book.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/platform.h"

/* Restarts the generator: from the fixed seed, or from the clock and this object's address. */
static void reseed(EngineBook *eb)
{
    uint64_t s = eb->seed;
    if (!s)
        s = (uint64_t)now_us() ^ (uint64_t)time(NULL) << 32 ^ (uint64_t)(uintptr_t)eb;
    eb->rng = s;
    book_random(&eb->rng); /* one step mixes a poor clock seed */
}

/* Creates the book state with the built-in book and the book off. */
EngineBook *engine_book_new(void)
{
    EngineBook *eb = calloc(1, sizeof *eb);
    if (!eb)
        return NULL;
    platform_exe_dir(eb->exe_dir, sizeof eb->exe_dir);
    XqError err;
    if (book_embedded_size() > 0)
        book_open_list(&eb->book, BOOK_EMBEDDED_NAME, NULL, &err); /* built and checked with the build */
    reseed(eb);
    return eb;
}

/* Frees the book state and its files. */
void engine_book_free(EngineBook *eb)
{
    if (!eb)
        return;
    book_close(&eb->book);
    free(eb);
}

/* A new game: with a fixed seed the choices start over. */
void engine_book_new_game(EngineBook *eb)
{
    if (eb->seed)
        reseed(eb);
}

/* Opens the book files of a list in place of those in use; all or nothing. */
bool engine_book_open(EngineBook *eb, const char *list, XqError *err)
{
    return book_open_list(&eb->book, list, eb->exe_dir, err);
}

/* Seeds the book's choices (0: from the clock). */
void engine_book_seed(EngineBook *eb, uint64_t seed)
{
    eb->seed = seed;
    reseed(eb);
}

/* Does this go allow root move m (searchmoves and banmoves as the search would take them)? */
static bool allowed(const SearchLimits *lim, const Move *banned, int n_banned, Move m)
{
    if (lim->n_root_moves > 0)
        return move_listed(lim->root_moves, lim->n_root_moves, m);
    return !move_listed(banned, n_banned, m);
}

/* Does legal move m lead to a position the game had before (since the last capture)? */
static bool repeats(Position *pos, Move m)
{
    if (pos->ply >= MAX_HISTORY - 1)
        return true; /* no room to look: leave it to the search */
    pos_make(pos, m);
    bool seen = false;
    int oldest = pos->ply > pos->rule60 ? pos->ply - pos->rule60 : 0;
    for (int i = pos->ply - 1; i >= oldest && !seen; i--)
        seen = pos->hist[i].key == pos->key;
    pos_unmake(pos);
    return seen;
}

/* Before a search starts: chooses a book move for this go, or none. */
bool engine_book_choose(EngineBook *eb, Position *pos, bool may_play, const SearchLimits *lim, const Move *banned,
                        int n_banned)
{
    eb->n = 0;
    eb->chosen = eb->ponder = MOVE_NONE;
    if (!eb->use || eb->book.n == 0 || !may_play)
        return false;
    BookMove found[BOOK_MOVES_MAX];
    int n = book_probe(&eb->book, pos, found);
    for (int i = 0; i < n; i++)
        if (allowed(lim, banned, n_banned, found[i].move) && !repeats(pos, found[i].move))
            eb->moves[eb->n++] = found[i];
    int pick = book_pick(eb->moves, eb->n, &eb->rng);
    if (pick < 0) {
        eb->n = 0;
        return false;
    }
    eb->chosen = eb->moves[pick].move;
    pos_make(pos, eb->chosen); /* room: repeats() checked it */
    BookMove replies[BOOK_MOVES_MAX];
    if (book_probe(&eb->book, pos, replies) > 0)
        eb->ponder = replies[0].move;
    pos_unmake(pos);
    return true;
}

/* On the search thread: fills out with the chosen book move, if this go has one. */
bool engine_book_deliver(const EngineBook *eb, SearchResult *out)
{
    if (eb->chosen == MOVE_NONE)
        return false;
    memset(out, 0, sizeof *out);
    out->best = eb->chosen;
    out->ponder = eb->ponder;
    return true;
}
