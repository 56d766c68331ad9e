/*
 * adjudicate.h - when is a game over, and who won: no legal move (mate or
 * stalemate: the side to move loses), threefold repetition (perpetual check
 * and chase ruled by the engine's rules module, src/rules/rules.h), the 60-move
 * rule (120 counted plies without capture), dead positions (neither side
 * can mate), a maximum length and, opt-in, a loaded tablebase's value.
 */
#ifndef XQM_ADJUDICATE_H
#define XQM_ADJUDICATE_H

#include <stddef.h>

#include "board/position.h"
#include "rules/rules.h"
#include "tb/tb_probe.h"

typedef enum GameResult { RESULT_NONE, RESULT_RED_WINS, RESULT_BLACK_WINS, RESULT_DRAW } GameResult;

/* Why a game ended. */
typedef enum EndReason {
    END_NONE,
    END_MATE,            /* the side to move is checkmated */
    END_STALEMATE,       /* the side to move has no legal move and is not in check */
    END_PERPETUAL,       /* repetition ruled a loss (perpetual check or chase) */
    END_REPETITION,      /* repetition ruled a draw */
    END_RULE60,          /* 120 plies without capture */
    END_DEAD,            /* neither side can ever mate */
    END_MAX_LENGTH,      /* the runner's length limit */
    END_ILLEGAL_MOVE,
    END_CRASH,           /* the engine process died or closed its output */
    END_HANG,            /* no answer within the hang timeout (fixed depth/nodes) */
    END_TIME,            /* lost on time */
    END_NO_MOVE,         /* the engine answered "no move" while it had legal moves */
    END_RESIGN,          /* the engine resigned (UCCI bestmove ... resign) */
    END_ADJ_RESIGN,      /* both engines' scores agreed the game was lost */
    END_ADJ_DRAW,        /* both engines' scores agreed the game was drawn */
    END_DRAW_AGREED,     /* UCCI: an engine accepted the other's draw offer (bestmove ... draw after go draw) */
    END_START_FAILURE,   /* the engine did not start or answer the handshake */
    END_TABLEBASE,       /* the position is in a loaded tablebase (-tb DIR): its value decides */
    END_REASONS
} EndReason;

/* A game's outcome with a short text for the PGN and the log. */
typedef struct Verdict {
    GameResult result;
    EndReason reason;
    char text[160];
} Verdict;

/* Stable short name of a reason ("mate", "time", ...). */
const char *end_reason_name(EndReason r);
/* PGN result string ("1-0", "0-1", "1/2-1/2", "*"). */
const char *result_pgn(GameResult r);
/* The result in which `side` loses. */
GameResult result_loss_for(int side);

/*
 * Is the game over in this position? pos holds the whole game since its
 * start position in hist[]; `max_plies` (0 = none) caps pos->ply; `rules`
 * selects the repetition rules. Fills *v and returns true if it is over.
 */
bool adjudicate_position(Position *pos, int max_plies, const RuleSet *rules, Verdict *v);

/*
 * Is the position in one of the loaded tables of tb (NULL = no tables), with a value the game's rules
 * cannot overturn? A table draw ends the game drawn; a table win ends it for the side to move only when
 * the mate (the table's DTM) comes before the quiet-move limit of `rules` could draw it, else play goes
 * on. Fills *v (reason END_TABLEBASE) and returns true if the table decides.
 */
bool adjudicate_tablebase(const Position *pos, const TbSet *tb, const RuleSet *rules, Verdict *v);

#endif
