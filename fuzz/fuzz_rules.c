/*
 * fuzz_rules.c - fuzz target for the rules adjudicator. Input: a FEN on the
 * first line (the start position if it does not parse), then tokens: a token
 * that is a legal ICCS move is played; any other token plays one move per
 * byte (the byte picks among the legal moves), so random bytes make long
 * games with repetitions. After each ply rules_game_status and the search's
 * repetition hook run under every rule set; they must leave the position
 * unchanged and give coherent verdicts. The game goes on past a ruling (the
 * rules must cope with a 4th occurrence too). Past FUZZ_DENSE_PLIES plies
 * the checks run every FUZZ_SPARSE_STRIDE plies and at the game's end, so
 * that a long input stays within libFuzzer's timeout. Last, the same game
 * goes through the `judge` subcommand (which rules it ply by ply up to its
 * first verdict).
 */
#include <stddef.h>

#include "fuzz.h"
#include "rules/judge.h"
#include "board/move.h"
#include "board/movegen.h"
#include "rules/rules.h"

enum {
    FUZZ_MAX_PLIES = 1000,
    JUDGE_FIXED_ARGS = 4,
    FUZZ_DENSE_PLIES = 64, /* every ply up to here gets check_rules; later plies one in FUZZ_SPARSE_STRIDE */
    FUZZ_SPARSE_STRIDE = 8, /* (a CXA ruling on a long cycle costs ~10 ms, ~25 times that instrumented) */
};

/* Bytes of pos that a rules call may read: everything up to the last history record. */
static size_t used_bytes(const Position *pos)
{
    return offsetof(Position, hist) + (size_t)pos->ply * sizeof pos->hist[0];
}

/* Checks that a report is coherent for pos under set. */
static void check_report(Position *pos, const RuleSet *set, RulesVerdict v, const RulesReport *r)
{
    FUZZ_CHECK(r->verdict == v);
    FUZZ_CHECK((v == RULES_ONGOING) == (r->reason == REASON_NONE));
    FUZZ_CHECK(r->occurrences >= 1 && r->quiet_plies >= 0 && r->quiet_plies <= pos->rule60);
    FUZZ_CHECK(rules_verdict_for_side(v, RED) == -rules_verdict_for_side(v, BLACK));
    bool loss = v == RULES_RED_LOSES || v == RULES_BLACK_LOSES;
    switch (r->reason) {
    case REASON_NONE: break;
    case REASON_NO_LEGAL_MOVE:
        FUZZ_CHECK(count_legal(pos) == 0);
        FUZZ_CHECK(rules_verdict_for_side(v, pos->side) == -1);
        break;
    case REASON_PERPETUAL_CHASE:
    case REASON_PERPETUAL_THREAT:
    case REASON_PERPETUAL_ATTACK: FUZZ_CHECK(set->threats != NULL); /* fall through */
    case REASON_PERPETUAL_CHECK: FUZZ_CHECK(loss && r->occurrences >= RULES_REPEAT_LIMIT); break;
    case REASON_MUTUAL_CHECK:
    case REASON_MUTUAL_CHASE:
    case REASON_REPETITION: FUZZ_CHECK(v == RULES_DRAW && r->occurrences >= RULES_REPEAT_LIMIT); break;
    case REASON_QUIET_LIMIT: FUZZ_CHECK(v == RULES_DRAW && r->quiet_plies >= set->quiet_limit); break;
    case REASON_DEAD_POSITION: FUZZ_CHECK(v == RULES_DRAW && rules_dead_position(pos)); break;
    default: FUZZ_CHECK(false);
    }
    if (r->reason != REASON_NO_LEGAL_MOVE)
        FUZZ_CHECK(count_legal(pos) > 0);
}

/* Runs every rules entry point on pos under every rule set; pos must come back unchanged. */
static void check_rules(Position *pos, Position *copy)
{
    size_t used = used_bytes(pos);
    memcpy(copy, pos, used);
    for (int i = 0; i < rules_count(); i++) {
        const RuleSet *set = rules_at(i);
        RulesReport report;
        RulesVerdict v = rules_game_status(pos, set, &report);
        FUZZ_CHECK(memcmp(copy, pos, used) == 0);
        check_report(pos, set, v, &report);
        RulesVerdict s = rules_search_repetition(pos, set);
        FUZZ_CHECK(memcmp(copy, pos, used) == 0);
        FUZZ_CHECK((s == RULES_ONGOING) == (rules_find_repetition(pos) < 0));
    }
    int first = -1;
    FUZZ_CHECK(rules_count_occurrences(pos, &first) >= 1);
    FUZZ_CHECK(rules_quiet_plies(pos, rules_default()) >= 0);
}

/* Runs check_rules at the plies chosen for it (see the header). */
static void check_rules_sparse(Position *pos, Position *copy)
{
    if (pos->ply <= FUZZ_DENSE_PLIES || pos->ply % FUZZ_SPARSE_STRIDE == 0)
        check_rules(pos, copy);
}

/* Plays move m and records its text for the judge. */
static void play(Position *pos, Move m, char *moves_text, size_t *len)
{
    move_to_text(m, moves_text + *len);
    *len += MOVE_TEXT;
    moves_text[*len - 1] = '\0';
    pos_make(pos, m);
}

/* Replays the game through `judge` (output discarded; only crashes matter, and the exit status). */
static void run_judge(const char *fen, char *moves_text, int n_moves, bool check_only)
{
    char **argv = malloc((size_t)(n_moves + JUDGE_FIXED_ARGS + 1) * sizeof *argv);
    FILE *null_out = fopen("/dev/null", "w");
    FUZZ_CHECK(argv && null_out);
    int argc = 0;
    char judge[] = "judge", opt[] = "--rules", set[] = "check-only";
    char fen_copy[FEN_MAX];
    snprintf(fen_copy, sizeof fen_copy, "%s", fen);
    argv[argc++] = judge;
    if (check_only) {
        argv[argc++] = opt;
        argv[argc++] = set;
    }
    argv[argc++] = fen_copy;
    for (int i = 0; i < n_moves; i++)
        argv[argc++] = moves_text + (size_t)i * MOVE_TEXT;
    argv[argc] = NULL;
    FUZZ_CHECK(cli_judge(argc, argv, null_out, null_out) == 0);
    fclose(null_out);
    free(argv);
}

/* One input: FEN line, then tokens choosing moves. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    char *rest = fuzz_first_line(text);
    Position *pos = malloc(sizeof *pos), *copy = malloc(sizeof *copy);
    char *moves_text = malloc((size_t)FUZZ_MAX_PLIES * MOVE_TEXT);
    FUZZ_CHECK(pos && copy && moves_text);
    XqError err;
    if (!pos_from_fen(pos, text, &err))
        FUZZ_CHECK(pos_from_fen(pos, START_FEN, &err));
    char start_fen[FEN_MAX];
    pos_to_fen(pos, start_fen, sizeof start_fen);
    size_t len = 0;
    Move legal[MAX_MOVES];
    int n = gen_legal(pos, legal);
    check_rules(pos, copy);
    for (char *t = strtok(rest, " \t\r\n"); t && n > 0 && pos->ply < FUZZ_MAX_PLIES; t = strtok(NULL, " \t\r\n")) {
        Move m;
        if (move_parse_legal(pos, t, &m, NULL)) {
            play(pos, m, moves_text, &len);
            n = gen_legal(pos, legal);
            check_rules_sparse(pos, copy);
            continue;
        }
        for (const char *b = t; *b && n > 0 && pos->ply < FUZZ_MAX_PLIES; b++) {
            play(pos, legal[(unsigned char)*b % n], moves_text, &len);
            n = gen_legal(pos, legal);
            check_rules_sparse(pos, copy);
        }
    }
    check_rules(pos, copy); /* the final position, whatever ended the game */
    run_judge(start_fen, moves_text, pos->ply, size > 0 && (data[0] & 1));
    free(moves_text);
    free(copy);
    free(pos);
    free(text);
    return 0;
}
