/*
 * test_rules_cxa.c - the Chinese (CXA) repetition rules as the rule book
 * defines them (the shared rules notes, section 2.3): each move of a cycle is a check
 * (将), a mate threat (杀), a chase (捉, by material value, by combination,
 * by what a move unmasks), an exchange offer or an idle move (闲), judged by
 * its strictest class; a side's moves over the cycle make 长将, 长杀, 长捉,
 * a forbidden mixture (一将一捉, 一将一杀, 一杀一捉) or an allowed one
 * (一将一闲, 一杀一闲, 一捉一闲); one side at fault loses, both at fault
 * draw unless one checks perpetually (Art. 26).
 *
 * Each case is a cycle of four plies from a legal FEN, played twice so that
 * the start position occurs for the third time exactly at the last move; the
 * test checks the FEN, that no rule ends the game earlier, that the position
 * has occurred three times, the verdict, the reason and each side's kind.
 * Every case is also checked with colours swapped (board mirrored top to
 * bottom, pieces and side to move swapped): the verdict and the kinds swap.
 */
#include "testutil.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "board/move.h"
#include "rules/rules.h"

enum { FEN_CHARS = 128, MOVES_CHARS = 160, CYCLE_REPEATS = 2 };

/* One cycle and its ruling under chinese. */
typedef struct CxaCase {
    const char *what; /* the definition it tests */
    const char *fen;
    const char *cycle; /* the plies of one cycle, played CYCLE_REPEATS times */
    RulesVerdict verdict;
    RulesReason reason;
    int kind[2]; /* KIND_* bits of red's and black's moves */
} CxaCase;

/*
 * Plays the cycle CYCLE_REPEATS times from fen under `set`; no rule may end
 * the game before the last ply, and the last position must be the third
 * occurrence. Returns the ruling with its report.
 */
static RulesVerdict play_cycle(Position *pos, const char *fen, const char *cycle, const RuleSet *set, RulesReport *r)
{
    XqError e;
    /* a legal FEN: pieces on their squares, kings apart, no side in check to move */
    assert_true(pos_from_fen(pos, fen, &e));
    assert_true(pos_is_ok(pos));
    for (int rep = 0; rep < CYCLE_REPEATS; rep++) {
        const char *p = cycle;
        char tok[16];
        while (test_next_token(&p, tok, sizeof tok)) {
            if (rules_game_status(pos, set, r) != RULES_ONGOING)
                fail_msg("%s: a rule ended the game before %s", fen, tok);
            Move m;
            if (!move_parse_legal(pos, tok, &m, &e))
                fail_msg("%s: %s", fen, e.msg);
            pos_make(pos, m);
        }
    }
    const RulesVerdict v = rules_game_status(pos, set, r);
    assert_int_equal(r->occurrences, RULES_REPEAT_LIMIT); /* the cycle really repeats */
    return v;
}

/* The FEN with colours swapped: ranks in reverse order, upper and lower case swapped, the other side to move. */
static void swap_fen(const char *fen, char *out)
{
    char board[FEN_CHARS], rest[FEN_CHARS];
    char side = 'w';
    assert_int_equal(sscanf(fen, "%127s %c %127[^\n]", board, &side, rest), 3);
    const char *rank[10];
    int n = 0;
    for (char *t = strtok(board, "/"); t && n < 10; t = strtok(NULL, "/"))
        rank[n++] = t;
    assert_int_equal(n, 10);
    out[0] = '\0';
    for (int i = n - 1; i >= 0; i--) {
        char row[16];
        size_t k = 0;
        for (; rank[i][k] && k < sizeof row - 1; k++)
            row[k] = (char)(isupper((unsigned char)rank[i][k]) ? tolower((unsigned char)rank[i][k])
                                                                : toupper((unsigned char)rank[i][k]));
        row[k] = '\0';
        strcat(out, row);
        if (i)
            strcat(out, "/");
    }
    const size_t used = strlen(out);
    assert_true(used + strlen(rest) + 4 < FEN_CHARS);
    out[used] = ' ';
    out[used + 1] = side == 'w' ? 'b' : 'w';
    out[used + 2] = ' ';
    strcpy(out + used + 3, rest);
}

/* The moves with colours swapped: every rank r becomes 9 - r. */
static void swap_moves(const char *moves, char *out)
{
    size_t i = 0;
    for (; moves[i]; i++)
        out[i] = isdigit((unsigned char)moves[i]) ? (char)('9' - moves[i] + '0') : moves[i];
    out[i] = '\0';
}

/* The verdict with colours swapped. */
static RulesVerdict swap_verdict(RulesVerdict v)
{
    return v == RULES_RED_LOSES ? RULES_BLACK_LOSES : v == RULES_BLACK_LOSES ? RULES_RED_LOSES : v;
}

/* Rules one case as given and with colours swapped. */
static void check_case(const CxaCase *c)
{
    static Position pos;
    RulesReport r;
    print_message("%s\n", c->what);
    assert_int_equal(play_cycle(&pos, c->fen, c->cycle, &rules_chinese, &r), c->verdict);
    assert_int_equal(r.reason, c->reason);
    for (int s = RED; s <= BLACK; s++)
        assert_int_equal(rules_side_kind(&r.cycle.side[s], r.cycle.level[s]), c->kind[s]);
    char fen[FEN_CHARS], moves[MOVES_CHARS];
    swap_fen(c->fen, fen);
    swap_moves(c->cycle, moves);
    assert_int_equal(play_cycle(&pos, fen, moves, &rules_chinese, &r), swap_verdict(c->verdict));
    assert_int_equal(r.reason, c->reason);
    for (int s = RED; s <= BLACK; s++)
        assert_int_equal(rules_side_kind(&r.cycle.side[s], r.cycle.level[s]), c->kind[s ^ 1]);
}

/* Rules every case of a table. */
static void check_cases(const CxaCase *cases, size_t n)
{
    for (size_t i = 0; i < n; i++)
        check_case(&cases[i]);
}

/* Plays one case again and checks the classes of its cycle's first and third plies. */
static void check_classes(const CxaCase *c, int first, int third)
{
    static Position pos;
    RulesReport r;
    play_cycle(&pos, c->fen, c->cycle, &rules_chinese, &r);
    assert_int_equal(r.cycle.klass[0], first);
    assert_int_equal(r.cycle.klass[2], third);
}

enum {
    K_CHECK = KIND_CHECK,
    K_THREAT = KIND_THREAT,
    K_CHASE = KIND_CHASE,
    K_IDLE = KIND_IDLE,
};

/* 1. A side that alternates check, mate threat and chase (一将一捉, 一将一杀, 一杀一捉) is 长打 and loses. */
static const CxaCase MIXED_ATTACKS_LOSE[] = {
    { "一将一捉: the rook checks on c8, then on c9 attacks the rootless cannon d9 (将, then 捉 by value)",
      "2Rc5/5k3/9/9/9/9/9/9/4K4/9 w - - 0 1", "c9c8 f8f9 c8c9 f9f8", RULES_RED_LOSES, REASON_PERPETUAL_ATTACK,
      { K_CHECK | K_CHASE, K_IDLE } },
    { "一将一杀: the rook checks on a7 and threatens mate from a9 (杀: mate by checks if black passed)",
      "R4a3/4a4/5k2b/9/6b2/9/5Cp2/4K4/9/9 w - - 0 1", "a9a7 e8d7 a7a9 d7e8", RULES_RED_LOSES,
      REASON_PERPETUAL_ATTACK, { K_CHECK | K_THREAT, K_IDLE } },
    { "一杀一捉: the rook threatens Rc9 mate from c1 and attacks the rootless cannon b5 from b1",
      "4k4/R8/9/9/1c7/9/7p1/9/1R7/3K5 w - - 0 1", "b1c1 h3i3 c1b1 i3h3", RULES_RED_LOSES, REASON_PERPETUAL_ATTACK,
      { K_THREAT | K_CHASE, K_IDLE } },
    { "一将一捉 by combination: on e1 the rook backs the horse, which threatens a discovered check from c6 that wins "
      "the rook a7",
      "4k4/9/r8/9/4N4/9/9/9/3R5/5K3 w - - 0 1", "d1e1 e9d9 e1d1 d9e9", RULES_RED_LOSES, REASON_PERPETUAL_ATTACK,
      { K_CHECK | K_CHASE, K_IDLE } },
    { "捉 by a king move: the king's step unmasks a rook on the rootless horse e4, then on the advisor d7",
      "5k3/9/3a5/9/9/4n4/9/9/4K4/3RR4 w - - 0 1", "e1d1 f9f8 d1e1 f8f9", RULES_RED_LOSES,
      REASON_PERPETUAL_CHASE, { K_CHASE, K_IDLE } },
    { "捉 by combination: the rook's check on a8 wins a piece next, on every move (AXF D97-98: a draw there)",
      "C1Na5/3Rak3/4bc3/2p6/n5b2/9/1p6r/4B4/4A4/2B1KA3 w - - 0 1", "a9a8 f8f9 a8a9 f9f8", RULES_RED_LOSES,
      REASON_PERPETUAL_CHASE, { K_CHASE, K_IDLE } },
    { "捉 by combination won by the uncovered checker: on e1 the rook backs the horse e4, whose move checks by "
      "discovery; the king steps aside and the rook takes the horse e9. On d1 it attacks the rootless advisor d9",
      "3ana3/4k4/b8/9/9/4N4/9/9/3R5/5K3 w - - 0 1", "d1e1 a7c9 e1d1 c9a7", RULES_RED_LOSES, REASON_PERPETUAL_CHASE,
      { K_CHASE, K_IDLE } },
    { "捉 by combination won by a third piece: from h6 the horse threatens Ng8+, which drives the king from e9, the "
      "only root of the horse d9, and the rook d0 takes it; from g4 it attacks the rootless cannon e3",
      "3nk4/9/b8/7N1/9/9/4c4/9/9/3R1K3 w - - 0 1", "h6g4 a7c9 g4h6 c9a7", RULES_RED_LOSES, REASON_PERPETUAL_CHASE,
      { K_CHASE, K_IDLE } },
    { "捉 with the king's help (Art. 27): on d1 the king joins the cannon d5 against the horse d2 (its root, the rook "
      "a2, would fall to the king); on e1 it pins the horse e6 (flying general), and the cannon g5 it guarded falls "
      "to the rook g0",
      "4k4/9/b8/4n4/3C2c2/9/3N5/r2n5/4K4/6R2 w - - 0 1", "e1d1 a7c9 d1e1 c9a7", RULES_RED_LOSES,
      REASON_PERPETUAL_CHASE, { K_CHASE, K_IDLE } },
};

/* Rules the cases of MIXED_ATTACKS_LOSE. */
static void test_mixed_attacks_lose(void **state)
{
    (void)state;
    check_cases(MIXED_ATTACKS_LOSE, sizeof MIXED_ATTACKS_LOSE / sizeof MIXED_ATTACKS_LOSE[0]);
}

/*
 * 1 (continued). A chase made real by the parry of the check beside it: the
 * check forces the victim's root off its post (the root interposes, or the
 * king steps away from the piece it guarded), and the next move plays on
 * without taking: it chases (CXA 捉: the capture is possible on the next
 * move). The victim stays where it stood: the parry did not put it into the
 * attack itself.
 */
static const CxaCase PARRY_MAKES_REAL[] = {
    { "一将一捉: the rook checks on e4, black's rook d8 interposes on e8 and leaves the horse d5 rootless under the "
      "rook d1",
      "4ka3/3r5/9/9/3n5/7R1/9/9/9/3R1K3 w - - 0 1", "h4e4 d8e8 e4h4 e8d8", RULES_RED_LOSES,
      REASON_PERPETUAL_ATTACK, { K_CHECK | K_CHASE, K_IDLE } },
    { "一将一捉: the rook checks on i9, the advisor e8 can only block on f9 and leaves the horse d7 rootless under "
      "the rook a7",
      "4k4/4a4/R2n5/9/9/9/9/9/9/3K4R w - - 0 1", "i0i9 e8f9 i9i0 f9e8", RULES_RED_LOSES, REASON_PERPETUAL_ATTACK,
      { K_CHECK | K_CHASE, K_IDLE } },
    { "一将一捉: the rook checks on e4, the horse c7 blocks on e8 and leaves the horse d5 rootless under the rook d1",
      "4ka3/9/2n6/9/3n5/7R1/9/9/9/3R1K3 w - - 0 1", "h4e4 c7e8 e4h4 e8c7", RULES_RED_LOSES, REASON_PERPETUAL_ATTACK,
      { K_CHECK | K_CHASE, K_IDLE } },
    { "一将一捉: the rook checks on i8, the king steps from d8 to d9 and leaves the horse d7 it guarded under the rook a7",
      "9/3k5/R2n5/9/9/9/9/9/9/5K2R w - - 0 1", "i0i8 d8d9 i8i0 d9d8", RULES_RED_LOSES, REASON_PERPETUAL_ATTACK,
      { K_CHECK | K_CHASE, K_IDLE } },
};

/* Rules the cases of PARRY_MAKES_REAL; the chase is the move after the parry (the cycle's third ply). */
static void test_parry_makes_real(void **state)
{
    (void)state;
    check_cases(PARRY_MAKES_REAL, sizeof PARRY_MAKES_REAL / sizeof PARRY_MAKES_REAL[0]);
    check_classes(&PARRY_MAKES_REAL[0], CLASS_CHECK, CLASS_CHASE);
}

/*
 * 1 (continued). A victim that parries a check by stepping into another
 * piece's attack is chased by the checking side's next move if that plays on
 * without taking (since_own): the attack is real once the check has been
 * parried, and the book rules an attack the opponent's move handed over a
 * chase once the attacker plays on (图10: the rook escaping the horse walks
 * into the elephant's attack). This is a choice: 参考图21/22 rule some
 * self-caused attacks idle (a victim's counter-attack on its own chaser).
 */
static const CxaCase STEP_INTO_ATTACK[] = {
    { "一将一捉: the rook checks on e4, the horse c8 blocks on e7 under the rook a7, which then chases it",
      "4ka3/2n6/R8/9/9/7R1/9/9/9/5K3 w - - 0 1", "h4e4 c8e7 e4h4 e7c8", RULES_RED_LOSES, REASON_PERPETUAL_ATTACK,
      { K_CHECK | K_CHASE, K_IDLE } },
    { "一将一闲: the same, the horse guarded on e7 by the elephant c9 (its return to c8 attacks the rook a7)",
      "2b1ka3/2n6/R8/9/9/7R1/9/9/9/5K3 w - - 0 1", "h4e4 c8e7 e4h4 e7c8", RULES_DRAW, REASON_REPETITION,
      { K_CHECK | K_IDLE, K_CHASE | K_IDLE } },
};

/* Rules the cases of STEP_INTO_ATTACK. */
static void test_step_into_attack(void **state)
{
    (void)state;
    check_cases(STEP_INTO_ATTACK, sizeof STEP_INTO_ATTACK / sizeof STEP_INTO_ATTACK[0]);
}

/*
 * 1 (continued). A combination that begins with a sacrificial check (捉
 * "including by continuous checks"): on e4 the horse threatens d8e8+, the
 * king must take the pawn (the horses d9 and f9 hold its other squares),
 * and Nd6+ then forks the king on e8 and the rootless rook f5. The pawn is
 * lost, the rook won: 8 of a horse's 5 at least.
 */
static const CxaCase SACRIFICE_COMBINATION[] = {
    { "一捉一闲 by a pawn-sacrifice combination: d2e4 threatens d8e8+ Kxe8 Nd6+ and Nxf5, e4d2 is idle",
      "3nknc2/3P5/9/9/5r3/4N4/9/4B4/9/4K4 w - - 0 1", "e4d2 g9g8 d2e4 g8g9", RULES_DRAW, REASON_REPETITION,
      { K_CHASE | K_IDLE, K_IDLE } },
    { "长捉: the same combination from e4, and from d2 the horse attacks the rootless cannon b3",
      "3nknc2/3P5/9/9/5r3/4N4/1c7/4B4/9/4K4 w - - 0 1", "e4d2 g9g8 d2e4 g8g9", RULES_RED_LOSES,
      REASON_PERPETUAL_CHASE, { K_CHASE, K_IDLE } },
    { "no combination when the sacrifice need not be taken by the king: the rook a8 takes on e8 instead, idle",
      "3nknc2/r2P5/9/9/5r3/4N4/9/4B4/9/4K4 w - - 0 1", "e4d2 g9g8 d2e4 g8g9", RULES_DRAW, REASON_REPETITION,
      { K_IDLE, K_IDLE } },
};

/* Rules the cases of SACRIFICE_COMBINATION; the combination is the cycle's third ply, a joint chase. */
static void test_sacrifice_combination(void **state)
{
    (void)state;
    check_cases(SACRIFICE_COMBINATION, sizeof SACRIFICE_COMBINATION / sizeof SACRIFICE_COMBINATION[0]);
    check_classes(&SACRIFICE_COMBINATION[0], 0, CLASS_CHASE | CLASS_JOINT);
}

/* 2. Perpetual mate threat (长杀) loses under CXA; a check and a mate threat in turn too, against allowed moves. */
static const CxaCase PERPETUAL_MATE_THREAT_LOSES[] = {
    { "长杀: the rook on g6 or h6 threatens mate on every move (AXF rule 9: a draw there)",
      "3ak1b2/4a4/4b4/r3C2R1/p8/9/P8/4p4/4p4/5K3 w - - 0 1", "h6g6 g9i7 g6h6 i7g9", RULES_RED_LOSES,
      REASON_PERPETUAL_THREAT, { K_THREAT, K_IDLE } },
    { "长杀: the cannon c2 swings to g2 and back, each time threatening mate by checks",
      "3aka3/4n4/4b4/4C4/p3p3p/9/2c6/2C6/4K4/9 w - - 0 1", "c2g2 c3g3 g2c2 g3c3", RULES_RED_LOSES,
      REASON_PERPETUAL_THREAT, { K_THREAT, K_IDLE } },
    { "长杀 against 长兑: the rook threatens Rb9 or Rc9 mate; black's rook faces it each time, an exchange offer "
      "(兑, allowed)",
      "4k4/R8/9/9/1r7/9/9/9/1R7/3K5 w - - 0 1", "b1c1 b5c5 c1b1 c5b5", RULES_RED_LOSES, REASON_PERPETUAL_THREAT,
      { K_THREAT, K_IDLE } },
    { "长杀 against 长拦: the rook threatens Rc9 or Rb9 mate; the horse blocks the file each time (拦, allowed)",
      "4k4/8R/9/9/9/1n7/9/9/1R7/3K5 w - - 0 1", "b1c1 b4c6 c1b1 c6b4", RULES_RED_LOSES, REASON_PERPETUAL_THREAT,
      { K_THREAT, K_IDLE } },
    { "长杀 against 长拦: on c6 the blocking horse also attacks the horse e5, which the pawn e4 guards and which "
      "attacks it back (兑, allowed)",
      "4k4/8R/9/9/4N4/1n2P4/9/9/1R7/3K5 w - - 0 1", "b1c1 b4c6 c1b1 c6b4", RULES_RED_LOSES, REASON_PERPETUAL_THREAT,
      { K_THREAT, K_IDLE } },
    { "一将一杀 against 一杀一闲: red is at fault, black's threats alternate with idle moves (allowed)",
      "5k3/2CPP4/9/9/9/9/9/B3p4/r8/4K4 w - - 0 1", "e8f8 f9e9 e0f0 e2f2 f8e8 e9f9 f0e0 f2e2", RULES_RED_LOSES,
      REASON_PERPETUAL_ATTACK, { K_CHECK | K_THREAT, K_THREAT | K_IDLE } },
};

/* Rules the cases of PERPETUAL_MATE_THREAT_LOSES. */
static void test_perpetual_mate_threat_loses(void **state)
{
    (void)state;
    check_cases(PERPETUAL_MATE_THREAT_LOSES,
                sizeof PERPETUAL_MATE_THREAT_LOSES / sizeof PERPETUAL_MATE_THREAT_LOSES[0]);
}

/* 3. Both sides at fault draw (Art. 26), unless one of them checks perpetually: that side loses. */
static const CxaCase BOTH_AT_FAULT[] = {
    { "长捉 against 长杀: red's rook chases the cannon, black threatens mate on every move: draw",
      "4k4/4a4/4b4/6c2/9/6R2/4c4/4C4/4N4/3AKA3 b - - 0 1", "g6c6 g4c4 c6g6 c4g4", RULES_DRAW,
      REASON_MUTUAL_CHASE, { K_CHASE, K_THREAT } },
    { "一杀一捉 against pawn chases: in a mutual perpetual attack the pawns' attacks are chases (Art. 27): draw",
      "1Pbak2r1/4a4/4b4/2p6/9/3R5/2P6/4p2p1/3CC2N1/5K3 w - - 0 1", "d4e4 e2d2 e4d4 d2e2", RULES_DRAW,
      REASON_MUTUAL_CHASE, { K_THREAT | K_CHASE, K_CHASE } },
    { "长将 against 一将一捉: the side that checks on every move loses (Art. 26)",
      "9/3kc4/3a5/3P5/9/4p4/9/4K4/9/3C5 w - - 0 1", "d6e6 e4d4 e6d6 d4e4", RULES_BLACK_LOSES,
      REASON_PERPETUAL_CHECK, { K_CHECK | K_CHASE, K_CHECK } },
    { "长将 against 长捉: the pawn checks on every move, the cannon chases it: the checker loses",
      "3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1", "f1e1 f2e2 e1f1 e2f2", RULES_BLACK_LOSES, REASON_PERPETUAL_CHECK,
      { K_CHASE, K_CHECK } },
    { "长杀 against 长捉: the horse that blocks the rook's mate threats attacks a rootless cannon from each square "
      "(a block that chases is a chase: the strictest class): draw",
      "4k4/8R/9/9/C8/1n7/9/C8/1R7/3K5 w - - 0 1", "b1c1 b4c6 c1b1 c6b4", RULES_DRAW, REASON_MUTUAL_CHASE,
      { K_THREAT, K_CHASE } },
};

/* Rules the cases of BOTH_AT_FAULT. */
static void test_both_at_fault(void **state)
{
    (void)state;
    check_cases(BOTH_AT_FAULT, sizeof BOTH_AT_FAULT / sizeof BOTH_AT_FAULT[0]);
}

/* 4. Attacks alternating with idle moves are allowed: 一将一闲, 一杀一闲, 一捉一闲. */
static const CxaCase ALTERNATIONS_ALLOWED[] = {
    { "一将一闲: the rook checks from i8 and goes back to i7, where it attacks nothing",
      "9/5k3/8R/9/9/9/9/9/9/3K5 w - - 0 1", "i7i8 f8f9 i8i7 f9f8", RULES_DRAW, REASON_REPETITION,
      { K_CHECK | K_IDLE, K_IDLE } },
    { "一杀一闲: the rook threatens mate from g6 (and chases the elephant: the threat is stricter), h6 is idle",
      "3ak1b2/4a4/4b4/r3C2R1/p8/9/P8/4p4/4p4/5K3 w - - 0 1", "h6g6 a6a7 g6h6 a7a6", RULES_DRAW,
      REASON_REPETITION, { K_THREAT | K_IDLE, K_IDLE } },
    { "一捉一闲 by combination: from f6 the horse threatens Ng8+ and Nxi9 (卧槽 winning the rook), h5 is idle",
      "3ak3r/4a4/9/5N3/9/9/9/c8/9/3K5 w - - 0 1", "f6h5 a2a1 h5f6 a1a2", RULES_DRAW, REASON_REPETITION,
      { K_CHASE | K_IDLE, K_IDLE } },
    { "一捉一闲: on e2 the horse chases the cannon g3; its retreat to c1 takes it out of the cannon's check (the "
      "screen leaves) and keeps red's standing Ra9 mate threat, which it did not make: idle (一将一闲 for black)",
      "5k3/8R/9/4p4/7c1/9/6c2/9/R1N6/4K4 w - - 0 1", "c1e2 h5e5 e2c1 e5h5", RULES_DRAW, REASON_REPETITION,
      { K_CHASE | K_IDLE, K_CHECK | K_IDLE } },
};

/* Rules the cases of ALTERNATIONS_ALLOWED. */
static void test_alternations_allowed(void **state)
{
    (void)state;
    check_cases(ALTERNATIONS_ALLOWED, sizeof ALTERNATIONS_ALLOWED / sizeof ALTERNATIONS_ALLOWED[0]);
    /* the combination is the chase: h5f6 (the cycle's third ply) is one, a joint one (check and capture together) */
    check_classes(&ALTERNATIONS_ALLOWED[2], 0, CLASS_CHASE | CLASS_JOINT);
}

/* 5. Attacks that are idle: a pawn's alone (even on a rook), the king's alone, and attacks on uncrossed pawns. */
static const CxaCase IDLE_ATTACKS[] = {
    { "a pawn attacking a rook is idle (Art. 27): the crossed pawn follows the rook from d8 to e8 and back",
      "4k4/3r5/4P4/9/9/9/9/9/9/5K3 w - - 0 1", "e7d7 d8e8 d7e7 e8d8", RULES_DRAW, REASON_REPETITION,
      { K_IDLE, K_IDLE } },
    { "the king's attacks are idle (Art. 27): it attacks the rootless horse e2, then d2",
      "5k3/9/9/9/9/9/9/3nn4/4K4/9 w - - 0 1", "e1d1 f9f8 d1e1 f8f9", RULES_DRAW, REASON_REPETITION,
      { K_IDLE, K_IDLE } },
    { "uncrossed pawns have no material value: the rook attacking a6 and c6 in turn is idle",
      "5k3/9/9/p1p6/R8/9/9/9/9/4K4 w - - 0 1", "a5c5 f9f8 c5a5 f8f9", RULES_DRAW, REASON_REPETITION,
      { K_IDLE, K_IDLE } },
    { "Art. 27: the rook holds rank 0 against Ra0 mate from the key defensive points c0 and d0; its attacks on the "
      "elephant c5 and the advisor d9 are incidental, idle",
      "3a1k3/9/9/9/2b6/rn7/9/9/5p3/2R1K4 w - - 0 1", "c0d0 f9f8 d0c0 f8f9", RULES_DRAW, REASON_REPETITION,
      { K_IDLE, K_IDLE } },
};

/* 5 (continued). Where Art. 27's advisor/elephant exception does not reach: the same rook shuttle chases. */
static const CxaCase KEY_POINT_LIMITS[] = {
    { "no key point: without the pawn f1, Ra0 is no mate, and the rook chases the elephant and the advisor",
      "3a1k3/9/9/9/2b6/rn7/9/9/9/2R1K4 w - - 0 1", "c0d0 f9f8 d0c0 f8f9", RULES_RED_LOSES, REASON_PERPETUAL_CHASE,
      { K_CHASE, K_IDLE } },
    { "not an advisor or elephant: from the same key points the rook chases the rootless cannons c5 and d9",
      "3c1k3/9/9/9/2c6/rn7/9/9/5p3/2R1K4 w - - 0 1", "c0d0 f9f8 d0c0 f8f9", RULES_RED_LOSES, REASON_PERPETUAL_CHASE,
      { K_CHASE, K_IDLE } },
    { "no simple draw: red threatens mate itself (the rook h7 and the horse h6), so the rook's attacks count",
      "3a1k3/9/7R1/7N1/2b6/rn7/9/9/5p3/2R1K4 w - - 0 1", "c0d0 f9f8 d0c0 f8f9", RULES_RED_LOSES,
      REASON_PERPETUAL_CHASE, { K_CHASE, K_IDLE } },
};

/* Rules the cases of KEY_POINT_LIMITS. */
static void test_key_point_limits(void **state)
{
    (void)state;
    check_cases(KEY_POINT_LIMITS, sizeof KEY_POINT_LIMITS / sizeof KEY_POINT_LIMITS[0]);
}

/* Rules the cases of IDLE_ATTACKS. */
static void test_idle_attacks(void **state)
{
    (void)state;
    check_cases(IDLE_ATTACKS, sizeof IDLE_ATTACKS / sizeof IDLE_ATTACKS[0]);
    /* the pawn's attacks are classed apart: chases only if the other side attacks perpetually too */
    static Position pos;
    RulesReport r;
    play_cycle(&pos, IDLE_ATTACKS[0].fen, IDLE_ATTACKS[0].cycle, &rules_chinese, &r);
    assert_int_equal(r.cycle.klass[0], CLASS_PAWN);
    assert_int_equal(r.cycle.level[RED], LEVEL_IDLE);
}

/* 6. Chasing different pieces in turn is 长捉 (the CXA chase need not be of one piece). */
static const CxaCase CHASE_DIFFERENT_PIECES[] = {
    { "the rook chases the rootless horse a9 from a5 and the crossed pawn b3 from b5 (AXF rule 32: a draw)",
      "n4k3/9/9/9/R8/9/1p7/9/9/4K4 w - - 0 1", "a5b5 f9f8 b5a5 f8f9", RULES_RED_LOSES, REASON_PERPETUAL_CHASE,
      { K_CHASE, K_IDLE } },
    { "the horse attacks the rootless cannon b9 from c7, then the rook a3 (worth more) from b5",
      "1c3k3/9/9/9/1N7/9/r8/9/9/3K5 w - - 0 1", "b5c7 f9f8 c7b5 f8f9", RULES_RED_LOSES,
      REASON_PERPETUAL_CHASE, { K_CHASE, K_IDLE } },
    { "the king's steps unmask two rooks on two pieces in turn (what the king uncovers is no king's attack)",
      "5k3/9/3a5/9/9/4n4/9/9/4K4/3RR4 w - - 0 1", "e1d1 f9f8 d1e1 f8f9", RULES_RED_LOSES,
      REASON_PERPETUAL_CHASE, { K_CHASE, K_IDLE } },
};

/* Rules the cases of CHASE_DIFFERENT_PIECES. */
static void test_chase_different_pieces(void **state)
{
    (void)state;
    check_cases(CHASE_DIFFERENT_PIECES, sizeof CHASE_DIFFERENT_PIECES / sizeof CHASE_DIFFERENT_PIECES[0]);
}

/* A cycle of idle moves is a draw under every rule set, colours swapped too. */
static void test_idle_cycle_draws_everywhere(void **state)
{
    (void)state;
    static Position pos;
    RulesReport r;
    static const char FEN[] = "r2k5/9/9/9/9/9/9/9/9/4K3R w - - 0 1";
    static const char CYCLE[] = "i0i1 a9a8 i1i0 a8a9";
    char fen[FEN_CHARS], moves[MOVES_CHARS];
    swap_fen(FEN, fen);
    swap_moves(CYCLE, moves);
    for (int i = 0; i < rules_count(); i++) {
        assert_int_equal(play_cycle(&pos, FEN, CYCLE, rules_at(i), &r), RULES_DRAW);
        assert_int_equal(r.reason, REASON_REPETITION);
        assert_int_equal(play_cycle(&pos, fen, moves, rules_at(i), &r), RULES_DRAW);
    }
}

/* The colour swap itself: a FEN and moves swapped twice are the originals. */
static void test_swap_is_involution(void **state)
{
    (void)state;
    char once[FEN_CHARS], twice[FEN_CHARS], m1[MOVES_CHARS], m2[MOVES_CHARS];
    static const char FEN[] = "2Rc5/5k3/9/9/9/9/9/9/4K4/9 w - - 0 1";
    swap_fen(FEN, once);
    assert_string_equal(once, "9/4k4/9/9/9/9/9/9/5K3/2rC5 b - - 0 1");
    swap_fen(once, twice);
    assert_string_equal(twice, FEN);
    swap_moves("c9c8 f8f9", m1);
    assert_string_equal(m1, "c0c1 f1f0");
    swap_moves(m1, m2);
    assert_string_equal(m2, "c9c8 f8f9");
}

int main(void)
{
    tables_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_swap_is_involution),
        cmocka_unit_test(test_mixed_attacks_lose),
        cmocka_unit_test(test_parry_makes_real),
        cmocka_unit_test(test_step_into_attack),
        cmocka_unit_test(test_sacrifice_combination),
        cmocka_unit_test(test_perpetual_mate_threat_loses),
        cmocka_unit_test(test_both_at_fault),
        cmocka_unit_test(test_alternations_allowed),
        cmocka_unit_test(test_idle_attacks),
        cmocka_unit_test(test_key_point_limits),
        cmocka_unit_test(test_chase_different_pieces),
        cmocka_unit_test(test_idle_cycle_draws_everywhere),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
