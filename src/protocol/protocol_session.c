/* protocol_session.c - what every dialect does about the game and the session (see protocol_session.h). */
#include "protocol_session.h"
#include "protocol_out.h"


enum {
    RESIGN_SCORE = 1500,    /* resign below -this ... */
    RESIGN_DEPTH = 8,       /* ... once the search has seen this deep ... */
    RESIGN_STREAK = 3,      /* ... in this many searches in a row (a mate found resigns at once) */
    DRAW_ACCEPT_SCORE = 10, /* accept an offered draw when we stand no better than this */
};

/* Asks the loop to switch dialects after the current line. */
void proto_switch(Proto *p, Dialect d)
{
    p->switch_to = d;
    p->switch_pending = true;
}

/* Starts a new game: the engine forgets the old one and the resign count restarts. */
void proto_new_game(Proto *p)
{
    engine_new_game(p->engine);
    atomic_store(&p->hopeless, 0);
}

/* Stops the search, waits for its result and says goodbye. */
void proto_quit(Proto *p)
{
    engine_stop(p->engine);
    engine_wait(p->engine);
    if (p->fe->bye)
        out_line(&p->out, "%s", p->fe->bye);
    p->quit = true;
}

/* Should the side to move resign after this result? Updates the lost-search streak. */
bool proto_resign_due(Proto *p, const EngineResult *res)
{
    bool lost = res->score <= -RESIGN_SCORE && res->depth >= RESIGN_DEPTH && !score_is_ban(res->score);
    int streak = lost ? atomic_fetch_add(&p->hopeless, 1) + 1 : 0;
    if (!lost)
        atomic_store(&p->hopeless, 0);
    return res->score <= -SCORE_MATE_MIN || streak >= RESIGN_STREAK;
}

/* Would the side to move accept an offered draw after this result? */
bool proto_draw_acceptable(const EngineResult *res) { return res->score <= DRAW_ACCEPT_SCORE; }
