/* protocol_ucci_out.c - UCCI's forms of scores and of the hash probe (see protocol_ucci_out.h). */
#include "protocol_ucci_out.h"

#include <stdio.h>

#include "board/move.h"
#include "protocol_out.h"

enum {
    UCCI_MATE = 10000,     /* ElephantEye's MATE_VALUE */
    UCCI_BAN = 9900,       /* ElephantEye's BAN_VALUE */
    UCCI_EVAL_MAX = 9799,  /* ordinary scores stay below the ban band */
};

/* Converts an engine score to the UCCI convention. */
int score_to_ucci(int s)
{
    int sign = s < 0 ? -1 : 1, a = s < 0 ? -s : s;
    if (score_is_mate(s))
        return sign * (UCCI_MATE - (SCORE_MATE - a));
    if (score_is_ban(s))
        return sign * (UCCI_BAN - (SCORE_BAN - a));
    return a > UCCI_EVAL_MAX ? sign * UCCI_EVAL_MAX : s;
}

/* Prints a pophash line for `probe`. */
void out_pophash(Proto *p, bool found, const TTEntry *entry)
{
    if (!found) {
        out_line(&p->out, "pophash");
        return;
    }
    char line[160], m[MOVE_TEXT];
    size_t n = (size_t)snprintf(line, sizeof line, "pophash");
    int bound = entry->gen_bound & 3, score = score_to_ucci(entry->score);
    if (entry->move != MOVE_NONE)
        n += (size_t)snprintf(line + n, sizeof line - n, " bestmove %s", move_to_text(entry->move, m));
    if (bound & BOUND_LOWER)
        n += (size_t)snprintf(line + n, sizeof line - n, " lowerbound %d depth %d", score, entry->depth);
    if (bound & BOUND_UPPER)
        snprintf(line + n, sizeof line - n, " upperbound %d depth %d", score, entry->depth);
    out_line(&p->out, "%s", line);
}
