/*
 * engine_book.h - the engine's opening book: the files in use, whether it
 * is on, its random generator, and the book move chosen for a `go`.
 * Below the facade: engine.c calls these and keeps the facade's functions for
 * the protocol (engine_set_book_files and the like, declared in engine.h).
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

#include "book/book.h"
#include "search/search.h"

typedef struct EngineBook {
    Book book;                        /* the files in use */
    bool use;                         /* OwnBook / usebook */
    uint64_t seed;                    /* 0: choices seeded from the clock; else the generator restarts here */
    uint64_t rng;                     /* the generator's state */
    int n;                            /* book moves offered at the last go (0: that go searches) */
    BookMove moves[BOOK_MOVES_MAX];
    Move chosen, ponder;              /* the book move and the heaviest book reply to it (or MOVE_NONE) */
    char exe_dir[BOOK_NAME_MAX];      /* the executable's directory: relative net and book names are also looked
                                         for there (datafile.h) */
} EngineBook;

/* Creates the book state with the built-in book (when the build has one) and the book off; NULL if out of memory. */
EngineBook *engine_book_new(void);
/* Frees the book state and its files. */
void engine_book_free(EngineBook *eb);
/* A new game: with a fixed seed the choices start over. */
void engine_book_new_game(EngineBook *eb);
/* Opens the book files of a list in place of those in use; all or nothing. */
bool engine_book_open(EngineBook *eb, const char *list, XqError *err);
/* Seeds the book's choices (0: from the clock: they differ run to run). */
void engine_book_seed(EngineBook *eb, uint64_t seed);
/* Before a search starts (protocol thread): chooses a book move for the root pos (edited and restored) among
 * the moves lim and the banned list allow, or none when !may_play (the go needs a search); true if one. */
bool engine_book_choose(EngineBook *eb, Position *pos, bool may_play, const SearchLimits *lim, const Move *banned,
                        int n_banned);
/* On the search thread: fills out with the chosen book move; false if the go searches. eb->moves[0..n) are
 * the book moves it was chosen from (for the report). */
bool engine_book_deliver(const EngineBook *eb, SearchResult *out);

#endif
