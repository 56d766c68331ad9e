/*
 * engine_book.h - the engine's opening book: the files in use, whether it
 * is on, its random generator, and the book move chosen for a `go`.
 * engine.c calls the hooks below; the facade's functions for the protocol
 * (engine_set_book_files and the like) are declared in engine.h.
 *
 * A `go` plays from the book when the book is on and has moves for the root
 * that the go allows (searchmoves, banmoves) and that do not repeat an
 * earlier position of the game; never for a search that waits for stop
 * (infinite, ponder), a mate search, `go depth 0` or an offered draw (its
 * answer needs a searched score). The choice is made on the protocol thread
 * before the search thread starts; that thread then reports the book moves
 * and the choice through the callbacks, as a search would.
 */
#ifndef XQ_ENGINE_BOOK_H
#define XQ_ENGINE_BOOK_H

#include "engine.h"

typedef struct EngineBook {
    Book book;                        /* the files in use */
    bool use;                         /* OwnBook / usebook */
    uint64_t seed;                    /* 0: choices seeded from the clock; else the generator restarts here */
    uint64_t rng;                     /* the generator's state */
    int n;                            /* book moves offered at the last go (0: that go searches) */
    BookMove moves[BOOK_MOVES_MAX];
    Move chosen, ponder;              /* the book move and the heaviest book reply to it (or MOVE_NONE) */
    char exe_dir[BOOK_NAME_MAX];      /* the executable's directory: relative net and book names are also looked for there (datafile.h) */
} EngineBook;

/* Creates the book state with the built-in book (when the build has one) and the book off; NULL if out of memory. */
EngineBook *engine_book_new(void);
/* Frees the book state and its files. */
void engine_book_free(EngineBook *eb);
/* A new game: with a fixed seed the choices start over. */
void engine_book_new_game(EngineBook *eb);
/* Before a search starts (protocol thread): chooses a book move for this go, or none; true if one. */
bool engine_book_choose(Engine *e, const EngineGo *go, const SearchLimits *lim);
/* On the search thread: reports the chosen book move and fills out with it; false if the go searches. */
bool engine_book_deliver(Engine *e, SearchResult *out);

#endif
