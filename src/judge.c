/*
 * judge.c - the `judge` subcommand: replays a game from a FEN and reports
 * the first moment a rule ends it (no legal move, third occurrence of a
 * position, a dead position, 120 counted quiet plies) under a rule set
 * chosen by name. The rules module decides; this file only parses arguments
 * and prints. With --explain, a repetition ruling is followed by one line
 * per move of the cycle giving its class (check, mate threat, chase, idle).
 *
 * The FEN may be one quoted argument or its fields as separate arguments:
 * fields are taken until the first argument that reads as an ICCS move.
 */
#include "judge.h"

#include <stdlib.h>
#include <string.h>

#include "move.h"
#include "rules.h"

enum { JUDGE_FEN_MAX = 512, JUDGE_EXIT_ERROR = 2 };

/* Piece type names for messages, indexed by PieceType. */
static const char *const TYPE_NAMES[PIECE_TYPES] = { "king", "advisor", "elephant", "horse",
                                                     "rook", "cannon", "pawn" };
/* Side names for messages. */
static const char *const SIDE_NAMES[2] = { "red", "black" };
/* Level names for --explain, indexed by LEVEL_*. */
static const char *const LEVEL_NAMES[] = { "idle", "joint chase", "chase", "check" };
_Static_assert(sizeof LEVEL_NAMES / sizeof LEVEL_NAMES[0] == LEVEL_CHECK + 1, "a name for every level");

/* Does text look like an ICCS move ("h2e2")? */
static bool looks_like_move(const char *text)
{
    Move m;
    return strlen(text) == MOVE_TEXT - 1 && move_from_text(text, &m);
}

/* Appends argv[i] to buf with a separating space; false if it does not fit. */
static bool append_arg(char *buf, size_t size, const char *arg)
{
    size_t n = strlen(buf), len = strlen(arg);
    if (n + len + 2 > size)
        return false;
    if (n)
        buf[n++] = ' ';
    memcpy(buf + n, arg, len + 1);
    return true;
}

/* Prints the reason for a perpetual chase: the loser and the first piece it chased on every move. */
static void print_chase(FILE *out, const Position *pos, const RulesReport *r, int loser)
{
    const uint16_t victims = r->cycle.side[loser].common;
    if (!victims) { /* CXA: a chase on every move, of different pieces */
        fprintf(out, "%s chases perpetually (different pieces in turn)", SIDE_NAMES[loser]);
        return;
    }
    int index = 0;
    while (!(victims & (1u << index)))
        index++;
    const int id = side_tag(loser ^ 1) + index;
    char square[3];
    fprintf(out, "%s perpetually chases the %s on %s", SIDE_NAMES[loser], TYPE_NAMES[piece_type(id)],
            sq_name(pos->piece_sq[id], square));
    if (victims & (victims - 1))
        fprintf(out, " (and other pieces)");
}

/* Prints the result line for a report. */
static void print_report(FILE *out, const Position *pos, const RulesReport *r)
{
    static const char *const RESULTS[] = { "*", "1/2-1/2", "0-1", "1-0" };
    const int loser = r->verdict == RULES_RED_LOSES ? RED : BLACK;
    fprintf(out, "%s ", RESULTS[r->verdict]);
    switch (r->reason) {
    case REASON_NO_LEGAL_MOVE:
        fprintf(out, "%s %s", SIDE_NAMES[loser], pos->in_check ? "is checkmated" : "has no legal move (stalemate)");
        break;
    case REASON_PERPETUAL_CHECK:
        fprintf(out, "%s checks perpetually", SIDE_NAMES[loser]);
        break;
    case REASON_PERPETUAL_CHASE:
        print_chase(out, pos, r, loser);
        break;
    case REASON_PERPETUAL_THREAT:
        fprintf(out, "%s threatens mate perpetually", SIDE_NAMES[loser]);
        break;
    case REASON_PERPETUAL_ATTACK:
        fprintf(out, "%s attacks perpetually (checks, mate threats and chases)", SIDE_NAMES[loser]);
        break;
    case REASON_DEAD_POSITION:
        fprintf(out, "dead position: neither side can mate");
        break;
    case REASON_MUTUAL_CHECK:
        fprintf(out, "repetition: both sides check perpetually");
        break;
    case REASON_MUTUAL_CHASE:
        fprintf(out, "repetition: both sides attack perpetually");
        break;
    case REASON_REPETITION:
        fprintf(out, "repetition without perpetual check or chase");
        break;
    case REASON_QUIET_LIMIT:
        fprintf(out, "60-move rule: %d counted plies without a capture", r->quiet_plies);
        break;
    default:
        fprintf(out, "game goes on");
        break;
    }
}

/* Prints the class of every move of the ruled cycle (the first RULES_EXPLAIN_MAX), replaying it on a copy. */
static void print_explain(FILE *out, const Position *pos, const RulesCycle *c)
{
    char klass[32], text[MOVE_TEXT];
    const int shown = c->length < RULES_EXPLAIN_MAX ? c->length : RULES_EXPLAIN_MAX;
    for (int k = 0; k < shown; k++) {
        const int mover = (pos->side + c->length - k) & 1;
        fprintf(out, "  %s %s: %s", SIDE_NAMES[mover], move_to_text(pos->hist[c->start + k].move, text),
                rules_class_text(c->klass[k], klass));
        for (int v = 0; v < SIDE_PIECES; v++)
            if (c->victims[k] & (1u << v))
                fprintf(out, " %s", TYPE_NAMES[piece_type(v)]);
        fprintf(out, "\n");
    }
    fprintf(out, "  levels: red %s, black %s\n", LEVEL_NAMES[c->level[RED]], LEVEL_NAMES[c->level[BLACK]]);
}

/* Options of the judge command. */
typedef struct JudgeArgs {
    const RuleSet *set;
    bool explain;
} JudgeArgs;

/* Parses the options and the FEN; returns the index of the first move argument, or -1 after printing an error. */
static int parse_args(int argc, char **argv, JudgeArgs *a, char *fen, size_t size, FILE *err)
{
    int i = 1;
    a->set = rules_default();
    a->explain = false;
    for (;;) {
        if (i + 1 < argc && strcmp(argv[i], "--rules") == 0) {
            a->set = rules_find(argv[i + 1]);
            if (!a->set) {
                fprintf(err, "error: unknown rule set '%.40s' (%s)\n", argv[i + 1], rules_names_text());
                return -1;
            }
            i += 2;
        } else if (i < argc && strcmp(argv[i], "--explain") == 0) {
            a->explain = true;
            i++;
        } else {
            break;
        }
    }
    if (i >= argc) {
        fprintf(err, "usage: jiangjun judge [--rules %s] [--explain] \"<FEN>\" [moves...]\n", rules_names_text());
        return -1;
    }
    fen[0] = '\0';
    do {
        if (!append_arg(fen, size, argv[i])) {
            fprintf(err, "error: FEN too long\n");
            return -1;
        }
        i++;
    } while (i < argc && !looks_like_move(argv[i]));
    return i;
}

/* judge [--rules NAME] FEN [moves...]: argv[0] is "judge". */
int cli_judge(int argc, char **argv, FILE *out, FILE *err)
{
    char fen[JUDGE_FEN_MAX];
    JudgeArgs args;
    const int first_move = parse_args(argc, argv, &args, fen, sizeof fen, err);
    if (first_move < 0)
        return JUDGE_EXIT_ERROR;
    if (argc - first_move >= MAX_HISTORY) {
        fprintf(err, "error: too many moves (at most %d)\n", MAX_HISTORY - 1);
        return JUDGE_EXIT_ERROR;
    }
    Position *pos = malloc(sizeof *pos);
    if (!pos) {
        fprintf(err, "error: out of memory\n");
        return JUDGE_EXIT_ERROR;
    }
    XqError e;
    if (!pos_from_fen(pos, fen, &e)) {
        fprintf(err, "error: %s\n", e.msg);
        free(pos);
        return JUDGE_EXIT_ERROR;
    }
    RulesReport report;
    rules_game_status(pos, args.set, &report);
    int i = first_move;
    for (; i < argc && report.verdict == RULES_ONGOING; i++) {
        Move m;
        if (!move_parse_legal(pos, argv[i], &m, &e)) {
            fprintf(err, "error: move %d: %s\n", i - first_move + 1, e.msg);
            free(pos);
            return JUDGE_EXIT_ERROR;
        }
        pos_make(pos, m);
        rules_game_status(pos, args.set, &report);
    }
    print_report(out, pos, &report);
    if (i < argc)
        fprintf(out, " (after move %d; %d later moves not played)", i - first_move, argc - i);
    fprintf(out, "\n");
    if (args.explain && report.cycle.length)
        print_explain(out, pos, &report.cycle);
    free(pos);
    return 0;
}
