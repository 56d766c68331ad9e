/* gen_text.c - text lines to records and back, record files, and record statistics. */
#include "gen_text.h"

#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "gen_game.h"

enum {
    FIELDS_LABELLED = 3, /* FEN;result;cp */
    FIELDS_DUMP = 5,     /* FEN;result;cp;ply;flags */
    FIELDS_MAX = 6,
    KNOWN_FLAGS = NNUE_REC_IN_CHECK | NNUE_REC_CAPTURE | NNUE_REC_MATE,
    PLY_MAX = 0xFFFF,
    SCORE_LIMIT = 32767, /* a red-view cp both views can store in an int16 */
    PERCENT = 100,
};

/* Lower edges of the stats score ranges after the first (side to move's view); the last bucket holds the mates. */
static const int SCORE_EDGES[GEN_SCORE_BUCKETS - 2] = { -1000, -300, -100, -30, 31, 101, 301, 1001 };
static const char *const SCORE_RANGE_NAMES[GEN_SCORE_BUCKETS] = {
    "< -1000", "-1000..-301", "-300..-101", "-100..-31", "-30..30", "31..100", "101..300", "301..1000", "> 1000",
    "mate",
};

/* Fills err with a message and returns false. */
static bool fail(XqError *err, const char *msg)
{
    snprintf(err->msg, sizeof err->msg, "%s", msg);
    return false;
}

/* Parses a whole field as an integer in [lo, hi] (spaces around allowed). */
static bool parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s)
        return false;
    while (*end == ' ' || *end == '\t')
        end++;
    *out = v;
    return !*end && v >= lo && v <= hi;
}

/* Parses a red's-view result 1 / 0.5 / 0 into +1 / 0 / -1. */
static bool parse_result(const char *s, int *red)
{
    char *end;
    double r = strtod(s, &end);
    if (end == s)
        return false;
    while (*end == ' ' || *end == '\t')
        end++;
    if (*end || (r != 0.0 && r != 0.5 && r != 1.0))
        return false;
    *red = r == 1.0 ? 1 : r == 0.5 ? 0 : -1;
    return true;
}

/* Splits buf in place at each ';' into at most FIELDS_MAX fields; returns how many. */
static int split_fields(char *buf, char *field[FIELDS_MAX])
{
    int n = 0;
    char *s = buf;
    for (;;) {
        if (n == FIELDS_MAX)
            return FIELDS_MAX + 1;
        field[n++] = s;
        s = strchr(s, ';');
        if (!s)
            return n;
        *s++ = '\0';
    }
}

/* Parses one text line into a record. */
bool gen_parse_line(const char *line, PackedPos *rec, XqError *err)
{
    char buf[GEN_TEXT_MAX];
    size_t len = strlen(line);
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' '))
        len--;
    if (len >= sizeof buf)
        return fail(err, "line too long");
    memcpy(buf, line, len);
    buf[len] = '\0';
    char *field[FIELDS_MAX];
    int n = split_fields(buf, field);
    if (n != FIELDS_LABELLED && n != FIELDS_DUMP)
        return fail(err, "want FEN;result;cp or FEN;result;cp;ply;flags");
    Position *pos = malloc(sizeof *pos);
    if (!pos)
        return fail(err, "out of memory");
    bool ok = pos_from_fen(pos, field[0], err);
    int red_result = 0;
    long cp = 0, ply = GEN_PLY_UNKNOWN, flags = 0;
    if (ok && !parse_result(field[1], &red_result))
        ok = fail(err, "result is not 1, 0.5 or 0");
    else if (ok && !parse_long(field[2], -SCORE_LIMIT, SCORE_LIMIT, &cp))
        ok = fail(err, "score is not an integer from -32767 to 32767");
    else if (ok && n == FIELDS_DUMP && !parse_long(field[3], 0, PLY_MAX, &ply))
        ok = fail(err, "ply is not an integer from 0 to 65535");
    else if (ok && n == FIELDS_DUMP && (!parse_long(field[4], 0, KNOWN_FLAGS, &flags)))
        ok = fail(err, "flags are not an integer from 0 to 7");
    else if (ok && n == FIELDS_DUMP && ((flags & NNUE_REC_IN_CHECK) != 0) != (pos->in_check != 0))
        ok = fail(err, "the in-check flag disagrees with the position");
    if (ok) {
        if (n == FIELDS_LABELLED) {
            bool mate = cp >= GEN_MATE_SCORE || cp <= -GEN_MATE_SCORE;
            flags = (pos->in_check ? NNUE_REC_IN_CHECK : 0) | (mate ? NNUE_REC_MATE : 0);
            if (mate)
                cp = cp > 0 ? GEN_MATE_SCORE : -GEN_MATE_SCORE;
        }
        const int sign = pos->side == RED ? 1 : -1;
        memset(rec, 0, sizeof *rec);
        packed_from_position(rec, pos);
        rec->result = (int8_t)(red_result * sign);
        rec->score = (int16_t)(cp * sign);
        rec->ply = (uint16_t)ply;
        rec->flags = (uint8_t)flags;
    }
    free(pos);
    return ok;
}

/* Writes a record as a dump line. */
bool gen_format_record(const PackedPos *rec, char *out, size_t size, XqError *err)
{
    if (rec->result < -1 || rec->result > 1)
        return fail(err, "bad record: result outside -1..1");
    Position *pos = malloc(sizeof *pos);
    if (!pos)
        return fail(err, "out of memory");
    bool ok = packed_to_position(rec, pos, err);
    if (ok) {
        const int sign = rec->stm == RED ? 1 : -1;
        const int red = rec->result * sign;
        char fen[FEN_MAX];
        snprintf(out, size, "%s;%s;%d;%u;%u", pos_to_fen(pos, fen, sizeof fen), red > 0 ? "1" : red < 0 ? "0" : "0.5",
                 rec->score * sign, (unsigned)rec->ply, (unsigned)rec->flags);
    }
    free(pos);
    return ok;
}

/* Is a line empty but for spaces, or a '#' comment? */
static bool skip_line(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
        s++;
    return !*s || *s == '#';
}

/* Notes a bad line: counted, and its number and reason kept if it is among the first. */
static void note_bad(ConvertStats *st, const char *why)
{
    if (st->bad < GEN_BAD_SHOWN) {
        st->bad_line[st->bad] = st->lines;
        snprintf(st->bad_why[st->bad].msg, sizeof st->bad_why[st->bad].msg, "%s", why);
    }
    st->bad++;
}

/* Converts text lines to records. */
bool gen_convert(FILE *in, FILE *out, RecFormat format, ConvertStats *st, XqError *err)
{
    memset(st, 0, sizeof *st);
    RecWriter w;
    if (!rec_write_header(out, format))
        return fail(err, "write error on the output file");
    if (!rec_writer_init(&w, out, format))
        return fail(err, "out of memory");
    char *line = NULL;
    size_t line_cap = 0;
    ssize_t len;
    bool ok = true;
    while (ok && (len = getline(&line, &line_cap, in)) >= 0) {
        st->lines++;
        if (len >= GEN_TEXT_MAX || strlen(line) != (size_t)len) {
            note_bad(st, len >= GEN_TEXT_MAX ? "line too long" : "NUL byte in the line");
            continue;
        }
        if (skip_line(line))
            continue;
        PackedPos rec;
        XqError why;
        if (!gen_parse_line(line, &rec, &why)) {
            note_bad(st, why.msg);
            continue;
        }
        uint8_t bytes[NNUE_REC_SIZE];
        packed_encode(&rec, bytes);
        ok = rec_writer_put(&w, bytes);
        st->records += ok;
    }
    ok = ok && rec_writer_end_game(&w);
    rec_writer_free(&w);
    free(line);
    if (!ok)
        return fail(err, "write error on the output file");
    if (ferror(in))
        return fail(err, "read error on the input file");
    return true;
}

/* Stats bucket of a record's score. */
static int score_bucket(const PackedPos *rec)
{
    if (rec->flags & NNUE_REC_MATE)
        return GEN_SCORE_BUCKETS - 1;
    int b = 0;
    while (b < GEN_SCORE_BUCKETS - 2 && rec->score >= SCORE_EDGES[b])
        b++;
    return b;
}

/* Adds one record to the statistics. */
void gen_stats_add(RecordStats *st, const PackedPos *rec)
{
    st->count++;
    Position *pos = malloc(sizeof *pos);
    XqError err;
    bool legal = pos && packed_to_position(rec, pos, &err);
    free(pos);
    if (!legal || rec->result < -1 || rec->result > 1) {
        st->bad++;
        return;
    }
    st->in_check += (rec->flags & NNUE_REC_IN_CHECK) != 0;
    st->capture += (rec->flags & NNUE_REC_CAPTURE) != 0;
    st->mate += (rec->flags & NNUE_REC_MATE) != 0;
    st->result[rec->result + 1]++;
    st->red_result[(rec->stm == RED ? rec->result : -rec->result) + 1]++;
    st->score_bucket[score_bucket(rec)]++;
    if (rec->ply != GEN_PLY_UNKNOWN) {
        if (!st->ply_known || rec->ply < st->ply_min)
            st->ply_min = rec->ply;
        if (!st->ply_known || rec->ply > st->ply_max)
            st->ply_max = rec->ply;
        st->ply_known++;
        st->ply_sum += rec->ply;
    }
}

/* Share of n in total, in percent. */
static double share(uint64_t n, uint64_t total) { return total ? PERCENT * (double)n / (double)total : 0.0; }

/* Prints the statistics. */
void gen_stats_print(FILE *f, const RecordStats *st)
{
    uint64_t good = st->count - st->bad;
    fprintf(f, "records %llu (bad %llu)\n", (unsigned long long)st->count, (unsigned long long)st->bad);
    fprintf(f, "flags: in check %.2f%%, capture %.2f%%, mate %.2f%%\n", share(st->in_check, good),
            share(st->capture, good), share(st->mate, good));
    fprintf(f, "result (side to move): win %.1f%%, draw %.1f%%, loss %.1f%%\n", share(st->result[2], good),
            share(st->result[1], good), share(st->result[0], good));
    fprintf(f, "result (red): win %.1f%%, draw %.1f%%, loss %.1f%%\n", share(st->red_result[2], good),
            share(st->red_result[1], good), share(st->red_result[0], good));
    fprintf(f, "score (side to move):");
    for (int b = 0; b < GEN_SCORE_BUCKETS; b++)
        fprintf(f, " %s %.1f%%%s", SCORE_RANGE_NAMES[b], share(st->score_bucket[b], good),
                b + 1 < GEN_SCORE_BUCKETS ? "," : "\n");
    if (st->ply_known)
        fprintf(f, "ply: %u to %u, mean %.1f", st->ply_min, st->ply_max, st->ply_sum / (double)st->ply_known);
    else
        fprintf(f, "ply: none known");
    if (st->ply_known < good)
        fprintf(f, " (%llu records with unknown ply)", (unsigned long long)(good - st->ply_known));
    fprintf(f, "\n");
}
