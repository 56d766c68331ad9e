/*
 * test_rules.c - the repetition rules of every rule set, the 60-move limit,
 * stalemate, dead positions, rule-set names and the search's repetition scan.
 *
 * The main tests are table-driven: tests/data/rulings.txt (AXF, under asian)
 * and tests/data/rulings_cxa.txt (the CXA rule book, under chinese). Every
 * case is replayed with rules_game_status() after each move; no rule may end
 * the game before the last move, and the ruling at the last move must be the
 * expected one. A case where our ruling differs from the data carries, at the
 * end of its source field, "Jiangjun (SET) rules VERDICT: why"; such a case
 * must still be ruled VERDICT (so a change in either direction is noticed),
 * and is counted and reported apart.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval/eval.h"
#include "board/move.h"
#include "rules/rules.h"
#include "rules/rules_cxa.h"

/* Parses "red_loses" / "black_loses" / "draw". */
static RulesVerdict parse_expected(const char *text)
{
    if (strncmp(text, "red_loses", 9) == 0)
        return RULES_RED_LOSES;
    if (strncmp(text, "black_loses", 11) == 0)
        return RULES_BLACK_LOSES;
    if (strncmp(text, "draw", 4) == 0)
        return RULES_DRAW;
    fail_msg("bad expected field '%s'", text);
    return RULES_ONGOING;
}

/* Replays one case; returns the verdict, or RULES_ONGOING with *early set if a rule fired before the last move. */
static RulesVerdict replay_case(Position *pos, const char *fen, const char *moves, const RuleSet *set, bool *early)
{
    char tok[16];
    RulesReport report;
    test_setup(pos, fen);
    *early = false;
    while (test_next_token(&moves, tok, sizeof tok)) {
        if (rules_game_status(pos, set, &report) != RULES_ONGOING) {
            *early = true;
            return RULES_ONGOING;
        }
        Move m;
        XqError e;
        if (!move_parse_legal(pos, tok, &m, &e))
            fail_msg("%s: %s", fen, e.msg);
        pos_make(pos, m);
    }
    return rules_game_status(pos, set, &report);
}

/* Splits a rulings.txt line into its fields (in place): FEN, moves, expected, source. */
static void split_case(char *line, char **fen, char **moves, char **expected, char **source)
{
    char *field[4] = { NULL, NULL, NULL, NULL };
    int n = 0;
    field[n++] = line;
    for (char *p = line; *p && n < 4; p++) {
        if (*p == '|') {
            *p = '\0';
            field[n++] = p + 1;
        }
    }
    assert_int_equal(n, 4);
    for (int i = 0; i < 3; i++) { /* trim */
        while (*field[i] == ' ')
            field[i]++;
        size_t len = strlen(field[i]);
        while (len && field[i][len - 1] == ' ')
            field[i][--len] = '\0';
    }
    *fen = field[0];
    *moves = field[1];
    *expected = strstr(field[2], "expected: ") ? strstr(field[2], "expected: ") + 10 : field[2];
    *source = field[3];
}

/* Our documented different ruling of a case under `set` ("Jiangjun (SET) rules VERDICT:" in its source), or
 * RULES_ONGOING. */
static RulesVerdict documented_ruling(const char *source, const RuleSet *set)
{
    char tag[64];
    snprintf(tag, sizeof tag, "Jiangjun (%s) rules ", set->name);
    const char *at = strstr(source, tag);
    return at ? parse_expected(at + strlen(tag)) : RULES_ONGOING;
}

/* Replays every case of a rulings file under `set`; returns how many agree, *documented gets the documented
 * differences. */
static int check_table(const char *file, const RuleSet *set, int *documented)
{
    static Position pos;
    TestLines lines;
    int agree = 0, wrong = 0;
    *documented = 0;
    test_read_lines(file, &lines);
    for (int i = 0; i < lines.count; i++) {
        char *fen, *moves, *expected, *source;
        split_case(lines.line[i], &fen, &moves, &expected, &source);
        const RulesVerdict want = parse_expected(expected), ours = documented_ruling(source, set);
        bool early;
        const RulesVerdict got = replay_case(&pos, fen, moves, set, &early);
        if (!early && ours != RULES_ONGOING && got == ours) {
            (*documented)++;
        } else if (!early && ours == RULES_ONGOING && got == want) {
            agree++;
        } else {
            wrong++;
            print_error("%s case %d: expected %d, got %d%s\n", file, i + 1, ours != RULES_ONGOING ? ours : want, got,
                        early ? " (a rule ended the game before the last move)" : "");
        }
    }
    print_message("%s under %s: %d/%d as the data has it, %d documented differences, %d wrong\n", file, set->name,
                  agree, lines.count, *documented, wrong);
    assert_int_equal(wrong, 0);
    assert_int_equal(agree + *documented, lines.count);
    test_free_lines(&lines);
    return agree;
}

/* Every AXF case of rulings.txt is ruled as expected under asian, at its last move and not before. */
static void test_rulings_table(void **state)
{
    (void)state;
    int documented;
    assert_int_equal(check_table("rulings.txt", &rules_asian, &documented), 100);
    assert_int_equal(documented, 0);
}

/* The CXA rule book's cases under chinese: all 51 agree. */
static void test_rulings_cxa_table(void **state)
{
    (void)state;
    int documented;
    assert_int_equal(check_table("rulings_cxa.txt", &rules_chinese, &documented), 51);
    assert_int_equal(documented, 0);
}

/* Identity bit (1 << (id & 15)) of the piece on an ICCS square ("c5"). */
static uint16_t bit_on(const Position *pos, const char *square)
{
    return (uint16_t)(1u << (pos->board[sq_parse(square)] & 15));
}

/* Identity index (id & 15) of the piece on an ICCS square. */
static int index_on(const Position *pos, const char *square)
{
    return pos->board[sq_parse(square)] & 15;
}

/*
 * CXA roots (24.15): a protected cannon that two rooks win by the complete
 * exchange is chased by both, jointly (少根子, 图23); a second root holds
 * it; and when the victim can trade itself off against an attacker of its
 * own type the joint attack is an exchange offer (兑, 图21). A root whose
 * recapture walks into a bigger loss is no root: that attack is single.
 */
static void test_cxa_outnumbered_root(void **state)
{
    (void)state;
    static Position pos;
    RulesThreats t;
    test_setup(&pos, "2rk5/9/9/9/R1c6/9/9/9/9/2R1K4 w - - 0 1"); /* rooks a5, c0 on the cannon c5; rook c9 its root */
    rules_cxa_threats(&pos, RED, &t);
    const int cannon = index_on(&pos, "c5");
    const uint16_t rooks = (uint16_t)(bit_on(&pos, "a5") | bit_on(&pos, "c0"));
    assert_int_equal(t.by[cannon], rooks);
    assert_int_equal(t.joint[cannon], rooks);
    assert_int_equal(t.real[cannon], rooks);
    test_setup(&pos, "2rk5/9/1n7/9/R1c6/9/9/9/9/2R1K4 w - - 0 1"); /* the horse b7 a second root */
    rules_cxa_threats(&pos, RED, &t);
    assert_int_equal(t.by[index_on(&pos, "c5")], 0);
    test_setup(&pos, "2rk5/9/9/9/2n6/N8/9/9/9/2R1K4 w - - 0 1"); /* horses a4 and c5 attack each other */
    rules_cxa_threats(&pos, RED, &t);
    assert_int_equal(t.by[index_on(&pos, "c5")], 0);
    test_setup(&pos, "2rk5/9/9/9/1Pn6/N8/9/9/9/2R1K4 w - - 0 1"); /* the pawn b5 blocks the black horse's leg */
    rules_cxa_threats(&pos, RED, &t);
    const int horse = index_on(&pos, "c5");
    assert_int_equal(t.by[horse], bit_on(&pos, "a4") | bit_on(&pos, "c0"));
    assert_int_equal(t.joint[horse], bit_on(&pos, "c0")); /* the rook c9 would recapture the horse into a loss */
}

/*
 * CXA: the other side's standing threat does not make a capture unreal
 * (each takes a piece), unless the capture gives check: then the reply
 * answers the check, and taking the checking rook is a consequence of the
 * capture (图9). The cannon g0 takes the advisor d0 uncovering the rook's
 * check; with the rook en prise to the horse h2 the capture is not real.
 */
static void test_cxa_check_capture(void **state)
{
    (void)state;
    static Position pos;
    RulesThreats t;
    static const struct {
        const char *fen;
        bool real;
    } CASES[] = {
        { "4k4/9/9/9/9/9/9/7N1/4A4/1cBAK1c1r b - - 0 1", false }, /* discovered check by the rook i0, en prise */
        { "4k4/9/9/9/9/9/9/7N1/4A4/1cBAK1cr1 b - - 0 1", true },  /* the rook h0 out of the horse's reach */
        { "4k4/9/9/9/8r/6N2/9/9/4A4/1cBAK1c2 b - - 0 1", true },  /* no check: the rook i5 en prise elsewhere */
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        test_setup(&pos, CASES[i].fen);
        rules_cxa_threats(&pos, BLACK, &t);
        const int advisor = index_on(&pos, "d0");
        assert_int_equal(t.by[advisor], bit_on(&pos, "g0"));
        assert_int_equal(t.real[advisor] != 0, CASES[i].real);
    }
}

/*
 * CXA 24.4: an exchange that allows mate is no exchange. The cannons g8 and
 * d8 attack each other, but the cannon d8 taking g8 walks into Hd7 mate
 * (参考图49, 50), so g8 chases it; without the advisor f9 the king escapes
 * and the mutual attack is an exchange offer (兑). A mate the attacker's
 * side threatens anyway does not count: the horses a4 and c5 of
 * test_cxa_outnumbered_root still offer an exchange (red has Rd0 mate).
 */
static void test_cxa_exchange_into_mate(void **state)
{
    (void)state;
    static Position pos;
    RulesThreats t;
    test_setup(&pos, "3akab2/3cn1C2/9/1N7/8r/9/9/9/9/4K4 w - - 0 1");
    rules_cxa_threats(&pos, RED, &t);
    assert_int_equal(t.by[index_on(&pos, "d8")], bit_on(&pos, "g8"));
    assert_int_equal(t.real[index_on(&pos, "d8")], bit_on(&pos, "g8"));
    test_setup(&pos, "3ak1b2/3cn1C2/9/1N7/8r/9/9/9/9/4K4 w - - 0 1");
    rules_cxa_threats(&pos, RED, &t);
    assert_int_equal(t.by[index_on(&pos, "d8")], 0);
}

/* 120 quiet plies draw; one fewer does not. */
static void test_quiet_limit_draw(void **state)
{
    (void)state;
    static Position pos;
    RulesReport r;
    test_setup(&pos, "4k4/8R/9/9/9/9/9/9/R8/3K5 w - - 118 60");
    test_play(&pos, "i8i7");
    assert_int_equal(rules_game_status(&pos, &rules_asian, &r), RULES_ONGOING);
    assert_int_equal(r.quiet_plies, 119);
    test_play(&pos, "e9e8");
    assert_int_equal(rules_game_status(&pos, &rules_asian, &r), RULES_DRAW);
    assert_int_equal(r.reason, REASON_QUIET_LIMIT);
}

/* Mate on the 120th quiet ply wins; the 60-move rule does not save the mated side. */
static void test_mate_beats_quiet_limit(void **state)
{
    (void)state;
    static Position pos;
    RulesReport r;
    test_setup(&pos, "4k4/8R/9/9/9/9/9/9/R8/3K5 w - - 119 60");
    test_play(&pos, "a1a9");
    assert_int_equal(pos.rule60, RULES_QUIET_LIMIT);
    assert_int_equal(rules_game_status(&pos, &rules_asian, &r), RULES_BLACK_LOSES);
    assert_int_equal(r.reason, REASON_NO_LEGAL_MOVE);
    assert_true(pos.in_check);
}

/* A capture resets the count. */
static void test_capture_resets_quiet_count(void **state)
{
    (void)state;
    static Position pos;
    RulesReport r;
    test_setup(&pos, "3k5/9/9/9/9/9/9/9/r8/R3K4 w - - 110 60");
    test_play(&pos, "a0a1");
    assert_int_equal(rules_game_status(&pos, &rules_asian, &r), RULES_ONGOING);
    assert_int_equal(r.quiet_plies, 0);
}

/* A side's checks beyond ten, and the replies to them, are not counted. */
static void test_quiet_limit_checks(void **state)
{
    (void)state;
    static Position pos;
    test_setup(&pos, "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1");
    test_play(&pos, "a1e1 e9f9"); /* check 1 */
    for (int checks = 1; checks < 12; checks++) {
        /* the rook and the king alternate between the e and f files */
        test_play(&pos, checks % 2 ? "e1f1 f9e9" : "f1e1 e9f9");
        if (checks + 1 <= RULES_COUNTED_CHECKS)
            assert_int_equal(rules_quiet_plies(&pos, &rules_asian), pos.rule60);
    }
    assert_int_equal(pos.rule60, 24);
    /* 12 checks by red: two are void, with their replies: 24 - 4 plies. */
    assert_int_equal(rules_quiet_plies(&pos, &rules_asian), 20);
}

/* A side with no legal move loses even when not in check (stalemate). */
static void test_stalemate_loses(void **state)
{
    (void)state;
    static Position pos;
    RulesReport r;
    test_setup(&pos, "5k3/R8/9/9/9/9/9/9/9/4K4 b - - 0 1");
    assert_false(pos.in_check);
    assert_int_equal(rules_game_status(&pos, &rules_asian, &r), RULES_BLACK_LOSES);
    assert_int_equal(r.reason, REASON_NO_LEGAL_MOVE);
    test_setup(&pos, "4k4/9/9/9/9/9/9/9/r8/3K5 w - - 0 1");
    assert_int_equal(rules_game_status(&pos, &rules_check_only, &r), RULES_RED_LOSES);
}

/* Cycle used by several tests: red's cannon chases the black rook on every move. */
static const char CHASE_FEN[] = "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1";
static const char CHASE_MOVES[] = "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2";
/* Black checks with a pawn on every move. */
static const char CHECK_FEN[] = "3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1";
static const char CHECK_MOVES[] = "f1e1 f2e2 e1f1 e2f2 f1e1 f2e2 e1f1 e2f2";

/* check-only: perpetual chase is a draw, perpetual check still loses. */
static void test_check_only_rule_set(void **state)
{
    (void)state;
    static Position pos;
    RulesReport r;
    bool early;
    assert_int_equal(replay_case(&pos, CHASE_FEN, CHASE_MOVES, &rules_asian, &early), RULES_RED_LOSES);
    assert_int_equal(rules_game_status(&pos, &rules_asian, &r), RULES_RED_LOSES);
    assert_int_equal(r.reason, REASON_PERPETUAL_CHASE);
    const unsigned rooks = 3u << TYPE_FIRST[ROOK];
    assert_true(r.cycle.side[RED].common != 0 && (r.cycle.side[RED].common & ~rooks) == 0); /* a black rook */
    assert_int_equal(replay_case(&pos, CHASE_FEN, CHASE_MOVES, &rules_check_only, &early), RULES_DRAW);
    assert_false(early);
    assert_int_equal(rules_game_status(&pos, &rules_check_only, &r), RULES_DRAW);
    assert_int_equal(r.reason, REASON_REPETITION);
    assert_int_equal(replay_case(&pos, CHECK_FEN, CHECK_MOVES, &rules_check_only, &early), RULES_BLACK_LOSES);
    assert_int_equal(rules_game_status(&pos, &rules_check_only, &r), RULES_BLACK_LOSES);
    assert_int_equal(r.reason, REASON_PERPETUAL_CHECK);
}

/* Replays moves (the cycle, repeated until the third occurrence) and returns the ruling; *reason gets its reason. */
static RulesVerdict rule_cycle(const char *fen, const char *cycle, const RuleSet *set, RulesReason *reason)
{
    static Position pos;
    char moves[256];
    RulesReport r;
    bool early;
    snprintf(moves, sizeof moves, "%s %s", cycle, cycle);
    assert_int_not_equal(replay_case(&pos, fen, moves, set, &early), RULES_ONGOING);
    assert_false(early);
    const RulesVerdict v = rules_game_status(&pos, set, &r);
    *reason = r.reason;
    return v;
}

/* The three kinds of cycle that AXF draws and CXA forbids: perpetual mate threat, check + threat, check + chase. */
static void test_axf_cxa_differ(void **state)
{
    (void)state;
    static const struct {
        const char *fen, *cycle;
        RulesReason cxa;
    } CASES[] = {
        /* 长杀: red's rook shuttles on the 6th rank with a mate threat on every move (rulings.txt line 34, AXF rule 9) */
        { "3ak1b2/4a4/4b4/r3C2R1/p8/9/P8/4p4/4p4/5K3 w - - 0 1", "h6g6 g9i7 g6h6 i7g9", REASON_PERPETUAL_THREAT },
        /* 一将一杀: check on a7, mate threat from a9 (rulings.txt line 100, AXF rules 9 and 13) */
        { "R4a3/4a4/5k2b/9/6b2/9/5Cp2/4K4/9/9 w - - 0 1", "a9a7 e8d7 a7a9 d7e8", REASON_PERPETUAL_ATTACK },
        /* 一将一捉: check on c8, then the rook on c9 attacks the unprotected advisor d9 (AXF rule 12) */
        { "2Ra5/5k3/9/9/N8/4p4/9/9/4K4/9 w - - 0 1", "c9c8 f8f9 c8c9 f9f8", REASON_PERPETUAL_ATTACK },
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        RulesReason why;
        assert_int_equal(rule_cycle(CASES[i].fen, CASES[i].cycle, &rules_asian, &why), RULES_DRAW);
        assert_int_equal(why, REASON_REPETITION);
        assert_int_equal(rule_cycle(CASES[i].fen, CASES[i].cycle, &rules_check_only, &why), RULES_DRAW);
        assert_int_equal(rule_cycle(CASES[i].fen, CASES[i].cycle, &rules_chinese, &why), RULES_RED_LOSES);
        assert_int_equal(why, CASES[i].cxa);
    }
    /* precedence (CXA Art. 26): perpetual check against another forbidden kind loses; mutual 长打 draws */
    RulesSide check = { 2, 2, 0, 0, 2, 0, 0, 0 }, attack = { 2, 1, 1, 0, 2, 0, 0, 0 },
              idle = { 2, 1, 0, 0, 1, 0, 0, 0 };
    assert_int_equal(rules_chinese.level(&check, &attack), LEVEL_CHECK);
    assert_int_equal(rules_chinese.level(&attack, &check), LEVEL_CHASE);
    assert_int_equal(rules_chinese.level(&idle, &check), LEVEL_IDLE);
    /* a perpetual attack with a joint chase (图26: 一捉无根子一捉少根子) ranks below single chases, above idle */
    RulesSide joint = { 2, 0, 0, 2, 2, 0, 1, 0 }, chase = { 2, 0, 0, 2, 2, 0, 0, 0 };
    assert_int_equal(rules_chinese.level(&joint, &chase), LEVEL_JOINT);
    assert_true(rules_chinese.level(&chase, &joint) > LEVEL_JOINT && LEVEL_JOINT > LEVEL_IDLE);
    assert_int_equal(rules_asian.level(&attack, &idle), LEVEL_IDLE); /* AXF: one check one kill is allowed */
}

/*
 * CXA: a move that holds a victim for another attacker chases it (参考图49,
 * 50, 不能离线). The horse shuttling b6-c8 keeps the cannon d8 from leaving:
 * on c8 it pins it (the horse's leg), on b6 the cannon taking the cannon g8
 * walks into Hd7 mate, so the mutual attack is no exchange offer (24.4).
 * Both horse moves chase the rootless cannon; holding a victim with a root
 * (the elephant c9 pinned for the rook e5, 图11) is a joint chase. Not a
 * hold: without the advisor f9 the king escapes Hd7 (an exchange offer from
 * b6), a piece whose absence changes nothing, the attacker itself moving on.
 */
static void test_cxa_held_chase(void **state)
{
    (void)state;
    static Position pos;
    static const struct {
        const char *fen, *cycle;
        RulesVerdict verdict;
        int klass[2]; /* red's two moves */
    } CASES[] = {
        { "3akab2/3cn1C2/9/1N7/8r/9/9/9/9/4K4 w - - 0 1", "b6c8 i5i4 c8b6 i4i5", RULES_RED_LOSES,
          { CLASS_CHASE, CLASS_CHASE } },
        { "3ak1b2/3cn1C2/9/1N7/8r/9/9/9/9/4K4 w - - 0 1", "b6c8 i5i4 c8b6 i4i5", RULES_DRAW, { CLASS_CHASE, 0 } },
        { "3akab2/2Ncn1C2/9/9/8r/9/9/9/9/R3K4 w - - 0 1", "a0a1 i5i4 a1a0 i4i5", RULES_DRAW, { 0, 0 } },
        { "3akab2/2Ncn1C2/9/9/8r/9/9/9/9/4K4 w - - 0 1", "g8h8 i5i4 h8g8 i4i5", RULES_DRAW, { 0, 0 } },
        { "1Cbak4/9/4b4/9/4R4/9/9/8r/9/4K4 w - - 0 1", "b9a9 i2i1 a9b9 i1i2", RULES_RED_LOSES,
          { CLASS_CHASE | CLASS_JOINT, CLASS_CHASE | CLASS_JOINT } },
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        char moves[64];
        RulesReport r;
        bool early;
        snprintf(moves, sizeof moves, "%s %s", CASES[i].cycle, CASES[i].cycle);
        assert_int_equal(replay_case(&pos, CASES[i].fen, moves, &rules_chinese, &early), CASES[i].verdict);
        assert_false(early);
        rules_game_status(&pos, &rules_chinese, &r);
        assert_int_equal(r.cycle.klass[0], CASES[i].klass[0]);
        assert_int_equal(r.cycle.klass[2], CASES[i].klass[1]);
        assert_int_equal(replay_case(&pos, CASES[i].fen, moves, &rules_asian, &early), RULES_DRAW);
    }
    /* roots: none for the cannon d8; the pinned elephant c9 is a fake root of the elephant e7 */
    RulesThreats t;
    test_setup(&pos, "3akab2/3cn1C2/9/1N7/8r/9/9/9/9/4K4 w - - 0 1");
    rules_cxa_threats(&pos, RED, &t);
    assert_int_equal(t.rooted[index_on(&pos, "d8")], 0);
    test_setup(&pos, "1Cbak4/9/4b4/9/4R4/9/9/8r/9/4K4 w - - 0 1");
    rules_cxa_threats(&pos, RED, &t);
    assert_int_equal(t.by[index_on(&pos, "e7")], bit_on(&pos, "e5"));
    assert_int_equal(t.rooted[index_on(&pos, "e7")], bit_on(&pos, "e5"));
}

/*
 * CXA: a move that removes the last root of a victim already outnumbered (a
 * joint pair before, a single one after) chases it: the red cannon leaving
 * e6 for d6 attacks the black cannon c5 anew (a protector removed), as it
 * did before joint chases were modelled; its return chases the advisor.
 */
static void test_cxa_root_removed(void **state)
{
    (void)state;
    static Position pos;
    static const char FEN[] = "5k2r/4a4/3nP4/4C4/2c6/N8/1N7/9/9/3K5 w - - 0 1";
    static const char MOVES[] = "e6d6 i9i8 d6e6 i8i9 e6d6 i9i8 d6e6 i8i9";
    RulesReport r;
    bool early;
    assert_int_equal(replay_case(&pos, FEN, MOVES, &rules_chinese, &early), RULES_RED_LOSES);
    assert_false(early);
    rules_game_status(&pos, &rules_chinese, &r);
    assert_int_equal(r.cycle.klass[0], CLASS_CHASE);
    assert_int_equal(r.cycle.klass[2], CLASS_CHASE);
}

/* Dead material: drawn under every rule set, for both colours and both sides to move; live material is not. */
static void test_dead_positions(void **state)
{
    (void)state;
    static const char *const DEAD[] = {
        "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",             /* bare kings (the example) */
        "3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1",
        "2bak1b2/4a4/9/9/9/9/9/9/9/2BAKAB2 w - - 0 1",   /* advisors and elephants only */
        "2bak1b2/4a4/9/9/9/9/9/9/9/2BAKAB2 b - - 0 1",
        "3k5/9/9/9/9/9/9/4C4/9/4K4 w - - 0 1",           /* a red cannon with no possible screen */
        "3k5/9/9/9/9/9/9/4C4/9/4K4 b - - 0 1",
        "3k5/9/4c4/9/9/9/9/9/9/4K4 w - - 0 1",           /* a black one */
        "3k5/9/4c4/9/9/9/9/9/9/4K4 b - - 0 1",
    };
    static const char *const LIVE[] = {
        "3k5/9/9/9/9/9/9/4C4/9/3AK4 w - - 0 1",          /* the advisor can screen the cannon */
        "3k5/9/4c4/9/9/9/9/4C4/9/4K4 w - - 0 1",         /* two cannons screen each other */
        "3k5/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1",           /* a red pawn (it wins by stalemate if nothing else) */
        "3k5/9/9/9/9/9/9/9/2p6/4K4 b - - 0 1",           /* a black pawn on red's back rank can still check */
        "2bak1b2/4a4/9/9/9/9/9/9/9/2BAK1BN1 w - - 0 1",  /* a horse */
        "2bak1b2/4a4/9/9/9/9/9/9/9/r1BAKAB2 w - - 0 1",  /* a rook */
    };
    static Position pos;
    RulesReport r;
    for (int i = 0; i < rules_count(); i++) {
        for (size_t k = 0; k < sizeof DEAD / sizeof DEAD[0]; k++) {
            test_setup(&pos, DEAD[k]);
            assert_true(rules_dead_position(&pos));
            assert_int_equal(rules_game_status(&pos, rules_at(i), &r), RULES_DRAW);
            assert_int_equal(r.reason, REASON_DEAD_POSITION);
        }
        for (size_t k = 0; k < sizeof LIVE / sizeof LIVE[0]; k++) {
            test_setup(&pos, LIVE[k]);
            assert_false(rules_dead_position(&pos));
            assert_int_equal(rules_game_status(&pos, rules_at(i), &r), RULES_ONGOING);
        }
    }
    /* the capture that takes the last attacking piece ends the game at once */
    test_setup(&pos, "4k4/9/9/9/9/9/9/9/4n4/3AK4 w - - 0 1");
    assert_int_equal(rules_game_status(&pos, &rules_asian, &r), RULES_ONGOING);
    test_play(&pos, "d0e1");
    assert_int_equal(rules_game_status(&pos, &rules_asian, &r), RULES_DRAW);
    assert_int_equal(r.reason, REASON_DEAD_POSITION);
}

/* Names map to rule sets and back, case-insensitively; unknown names give NULL. */
static void test_rule_set_names(void **state)
{
    (void)state;
    assert_ptr_equal(rules_find("asian"), &rules_asian);
    assert_ptr_equal(rules_find("Chinese"), &rules_chinese);
    assert_ptr_equal(rules_find("check-only"), &rules_check_only);
    assert_ptr_equal(rules_default(), &rules_asian);
    assert_null(rules_find("cxa"));
    assert_null(rules_find(""));
    assert_null(rules_find(NULL));
    assert_null(rules_at(rules_count()));
    for (int i = 0; i < rules_count(); i++) {
        assert_non_null(RULES_NAMES[i]);
        assert_ptr_equal(rules_find(RULES_NAMES[i]), rules_at(i));
        assert_int_equal(rules_index(rules_at(i)), i);
        assert_non_null(strstr(rules_names_text(), rules_at(i)->name));
    }
    assert_null(RULES_NAMES[rules_count()]);
}

/* The key scan finds the latest earlier occurrence, and stops at captures and null moves. */
static void test_fast_scan(void **state)
{
    (void)state;
    static Position pos;
    test_setup(&pos, "1nbak4/4a4/9/p8/9/9/P8/9/4A4/1NBAK4 w - - 0 1");
    test_play(&pos, "b0c2 b9c7 c2b0");
    assert_int_equal(rules_find_repetition(&pos), -1);
    test_play(&pos, "c7b9");
    assert_int_equal(rules_find_repetition(&pos), 0);
    test_play(&pos, "b0c2");
    assert_int_equal(rules_find_repetition(&pos), 1);
    test_play(&pos, "b9c7 c2b0 c7b9");
    assert_int_equal(rules_find_repetition(&pos), 4); /* the latest, not the first */
    int first;
    assert_int_equal(rules_count_occurrences(&pos, &first), 3);
    assert_int_equal(first, 0);
    assert_int_equal(rules_search_repetition(&pos, &rules_asian), RULES_DRAW);

    /* A null move in between hides the earlier position. */
    test_setup(&pos, "1nbak4/4a4/9/p8/9/9/P8/9/4A4/1NBAK4 w - - 0 1");
    test_play(&pos, "b0c2 b9c7");
    pos_make_null(&pos);
    pos_make_null(&pos);
    test_play(&pos, "c2b0 c7b9");
    assert_int_equal(rules_find_repetition(&pos), -1);
    assert_int_equal(rules_search_repetition(&pos, &rules_asian), RULES_ONGOING);

    /* The window starts after the last capture. */
    test_setup(&pos, "3k5/9/9/9/9/9/9/9/r8/R3K4 w - - 0 1");
    test_play(&pos, "a0a1 d9d8 a1b1 d8d9");
    assert_int_equal(rules_find_repetition(&pos), -1);
    test_play(&pos, "b1a1");
    assert_int_equal(pos.rule60, 4);
    assert_int_equal(rules_find_repetition(&pos), 1);
}

/* Checks one side's verdict of a material.epd field ("red 0 black 1"): has_mating == !want_insufficient. */
static bool material_side(const Position *pos, const char *value, const char *side_name, int side, bool insufficient,
                          const char *line)
{
    const char *at = strstr(value, side_name);
    int want;
    if (!at)
        return false;
    if (sscanf(at + strlen(side_name), " %d", &want) != 1)
        fail_msg("material.epd: bad value '%s'", value);
    bool mating = eval_has_mating_material(pos, side);
    if (mating != (insufficient ? want == 0 : want == 1))
        fail_msg("material.epd: %s can%s mate by our rules, the source says %s %d: %s", side_name,
                 mating ? "" : "not", side_name, want, line);
    return true;
}

/* tests/data/material.epd, the verdicts of three other engines: Pikafish's mating material per side and
 * Fairy-Stockfish's insufficient material per side (eval_has_mating_material, and a position dead when both
 * sides lack it), xiangqi.js's draw by material (rules_dead_position). The two lines whose kings face each
 * other (marked "not a legal game position" in the data) are refused by the FEN parser, as every such FEN is. */
static void test_material_epd(void **state)
{
    (void)state;
    TestLines lines;
    test_read_lines("material.epd", &lines);
    static Position pos;
    int checked = 0, refused = 0;
    for (int i = 0; i < lines.count; i++) {
        const char *line = lines.line[i];
        char fen[LINE_MAX_TEST], value[64];
        epd_fen(line, fen, sizeof fen);
        XqError err;
        if (!pos_from_fen(&pos, fen, &err)) { /* kings facing: the source says it is no game position */
            if (!strstr(line, "not a legal"))
                fail_msg("material.epd: %s: %s", err.msg, line);
            refused++;
            continue;
        }
        bool insufficient = epd_field(line, "insufficient", value, sizeof value);
        if (insufficient || epd_field(line, "mating_material", value, sizeof value)) {
            bool red = material_side(&pos, value, "red", RED, insufficient, line);
            bool black = material_side(&pos, value, "black", BLACK, insufficient, line);
            assert_true(red || black);
            if (red && black) /* both verdicts known: dead exactly when neither side can mate */
                assert_int_equal(rules_dead_position(&pos),
                                 !eval_has_mating_material(&pos, RED) && !eval_has_mating_material(&pos, BLACK));
            checked++;
        } else if (epd_field(line, "draw_by_material", value, sizeof value)) {
            if (rules_dead_position(&pos) != (atoi(value) == 1))
                fail_msg("material.epd: dead %d, the source says draw_by_material %s: %s", rules_dead_position(&pos),
                         value, line);
            checked++;
        } else {
            fail_msg("material.epd: no verdict in %s", line);
        }
    }
    assert_int_equal(checked + refused, lines.count);
    assert_true(checked >= 19 && refused <= 2);
    test_free_lines(&lines);
}

/* The search hook rules a 2-fold and leaves the position exactly as it was. */
static void test_search_hook(void **state)
{
    (void)state;
    static Position pos, copy;
    test_setup(&pos, CHASE_FEN);
    test_play(&pos, "c2a2 a7b7 a2b2 b7a7 b2a2");
    assert_int_equal(rules_find_repetition(&pos), 1);
    memcpy(&copy, &pos, sizeof pos);
    assert_int_equal(rules_search_repetition(&pos, &rules_asian), RULES_RED_LOSES);
    assert_memory_equal(&copy, &pos, offsetof(Position, hist) + pos.ply * sizeof(Undo));
    assert_int_equal(rules_verdict_for_side(RULES_RED_LOSES, RED), -1);
    assert_int_equal(rules_verdict_for_side(RULES_RED_LOSES, BLACK), 1);
    assert_int_equal(rules_verdict_for_side(RULES_DRAW, BLACK), 0);

    test_setup(&pos, CHECK_FEN);
    test_play(&pos, "f1e1 f2e2 e1f1 e2f2");
    assert_int_equal(rules_search_repetition(&pos, &rules_asian), RULES_BLACK_LOSES);
}

int main(void)
{
    tables_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rulings_table),
        cmocka_unit_test(test_rulings_cxa_table),
        cmocka_unit_test(test_axf_cxa_differ),
        cmocka_unit_test(test_cxa_outnumbered_root),
        cmocka_unit_test(test_cxa_check_capture),
        cmocka_unit_test(test_cxa_exchange_into_mate),
        cmocka_unit_test(test_cxa_held_chase),
        cmocka_unit_test(test_cxa_root_removed),
        cmocka_unit_test(test_dead_positions),
        cmocka_unit_test(test_material_epd),
        cmocka_unit_test(test_quiet_limit_draw),
        cmocka_unit_test(test_mate_beats_quiet_limit),
        cmocka_unit_test(test_capture_resets_quiet_count),
        cmocka_unit_test(test_quiet_limit_checks),
        cmocka_unit_test(test_stalemate_loses),
        cmocka_unit_test(test_check_only_rule_set),
        cmocka_unit_test(test_rule_set_names),
        cmocka_unit_test(test_fast_scan),
        cmocka_unit_test(test_search_hook),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
