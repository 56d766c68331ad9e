/*
 * judge.c - the `judge` subcommand: replays a game from a FEN and reports
 * the first moment a rule ends it (no legal move, third occurrence of a
 * position, a dead position, 120 counted quiet plies) under a rule set
 * chosen by name. The rules module decides; this file only parses arguments
 * and prints. With --explain, a repetition ruling is followed by one line
 * per move of the cycle giving its class (check, mate threat, chase, idle).
 * Under a rule set that mixes attacks (chinese), a repetition ruling names
 * each side's kind: 长将, 长杀, 长捉, the forbidden mixtures 一将一捉,
 * 一将一杀, 一杀一捉, the allowed 一将一闲, 一杀一闲, 一捉一闲, or 闲.
 *
 * The FEN may be one quoted argument or its fields as separate arguments:
 * fields are taken until the first argument that reads as an ICCS move.
 */
#include "judge.h"

#include <stdlib.h>
#include <string.h>

#include "board/move.h"
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

/* What a side did over a cycle under a rule set that mixes attacks (CXA), indexed by KIND_* bits. */
static const char *const KIND_TEXT[KINDS] = {
    [KIND_CHECK] = "checks perpetually (长将)",
    [KIND_THREAT] = "threatens mate perpetually (长杀)",
    [KIND_CHASE] = "chases perpetually (长捉)",
    [KIND_CHECK | KIND_THREAT] = "checks and threatens mate in turn (一将一杀)",
    [KIND_CHECK | KIND_CHASE] = "checks and chases in turn (一将一捉)",
    [KIND_THREAT | KIND_CHASE] = "threatens mate and chases in turn (一杀一捉)",
    [KIND_CHECK | KIND_THREAT | KIND_CHASE] = "checks, threatens mate and chases in turn (长打)",
    [KIND_IDLE] = "plays idle moves (闲)",
    [KIND_IDLE | KIND_CHECK] = "checks and plays idle moves in turn (一将一闲, allowed)",
    [KIND_IDLE | KIND_THREAT] = "threatens mate and plays idle moves in turn (一杀一闲, allowed)",
    [KIND_IDLE | KIND_CHASE] = "chases and plays idle moves in turn (一捉一闲, allowed)",
};
/* The kind text of the mixtures of attacks and idle moves that KIND_TEXT does not name. */
static const char MIXED_IDLE_TEXT[] = "attacks with idle moves between (allowed)";

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

/* Prints a side and what it did over the ruled cycle (CXA kinds); a perpetual chase of one piece names it. */
static void print_kind(FILE *out, const Position *pos, const RulesReport *r, int side)
{
    const int kind = rules_side_kind(&r->cycle.side[side], r->cycle.level[side]);
    if (kind == KIND_CHASE && r->cycle.side[side].common) {
        print_chase(out, pos, r, side);
        fprintf(out, " (长捉)");
    } else if (kind == KIND_CHASE) {
        fprintf(out, "%s chases different pieces in turn (长捉)", SIDE_NAMES[side]);
    } else {
        fprintf(out, "%s %s", SIDE_NAMES[side], KIND_TEXT[kind] ? KIND_TEXT[kind] : MIXED_IDLE_TEXT);
    }
    if (r->cycle.level[side] == LEVEL_JOINT) /* ranks below single chases in a mutual attack */
        fprintf(out, " with joint chases (联合捉子)");
}

/* Prints a repetition ruling that names each side's kind (a rule set with mixed_attacks); false for other reasons. */
static bool print_kinds(FILE *out, const Position *pos, const RulesReport *r, int loser)
{
    switch (r->reason) {
    case REASON_PERPETUAL_CHECK:
    case REASON_PERPETUAL_CHASE:
    case REASON_PERPETUAL_THREAT:
    case REASON_PERPETUAL_ATTACK:
        print_kind(out, pos, r, loser);
        fprintf(out, "; ");
        print_kind(out, pos, r, loser ^ 1);
        return true;
    case REASON_MUTUAL_CHASE:
    case REASON_REPETITION:
        fprintf(out, "%s: ", r->reason == REASON_MUTUAL_CHASE ? "repetition, both sides at fault"
                                                              : "repetition without a forbidden perpetual attack");
        print_kind(out, pos, r, RED);
        fprintf(out, ", ");
        print_kind(out, pos, r, BLACK);
        return true;
    default:
        return false;
    }
}

/* Prints the result line for a report under rule set `set`. */
static void print_report(FILE *out, const Position *pos, const RulesReport *r, const RuleSet *set)
{
    static const char *const RESULTS[] = { "*", "1/2-1/2", "0-1", "1-0" };
    const int loser = r->verdict == RULES_RED_LOSES ? RED : BLACK;
    fprintf(out, "%s ", RESULTS[r->verdict]);
    if (set->mixed_attacks && print_kinds(out, pos, r, loser))
        return;
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
    print_report(out, pos, &report, args.set);
    if (i < argc)
        fprintf(out, " (after move %d; %d later moves not played)", i - first_move, argc - i);
    fprintf(out, "\n");
    if (args.explain && report.cycle.length)
        print_explain(out, pos, &report.cycle);
    free(pos);
    return 0;
}
