/*
 * protocol_options.c - the option table of both dialects and `setoption`.
 *
 * Every option has a UCI name (Pikafish style, NULL if UCCI only), a UCCI
 * name (one lower-case word, NULL if UCI only) and aliases; names match
 * case-insensitively with spaces and underscores ignored, so "Clear Hash",
 * "Clear_Hash" and "clearhash" are one option, and TCHESS's `setoption
 * Threads 4` in UCCI form works. No UCCI option name contains the words a
 * GUI scans for (draw, resign, nobestmove).
 */
#include "protocol_options.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rules.h"
#include "search/strength.h"
#include "protocol_out.h"
#include "protocol_session.h"
#include "protocol_tok.h"

typedef enum OptType { OT_SPIN, OT_CHECK, OT_BUTTON, OT_COMBO, OT_STRING } OptType;

enum { BOOK_SEED_MAX = INT32_MAX }; /* Book Seed: 0 = from the clock */
enum {
    THREADS_MAX = ENGINE_THREADS_MAX,
    OVERHEAD_MAX = 5000,
    OVERHEAD_DEFAULT = 10,
    MULTIPV_MAX = ENGINE_MULTIPV_MAX,
    NAME_MAX_NORM = 64,
};

static const char *const LEVELS[] = { "none", "small", "medium", "large", NULL };
static const char *const RANDOM_LEVELS[] = { "none", "tiny", "small", "medium", "large", "huge", NULL };
static const char *const VARIANTS[] = { "xiangqi", NULL }; /* UCI_Variant: how UCI GUIs tell a xiangqi engine */

typedef struct OptDef {
    OptId id;
    const char *uci;          /* UCI display name, NULL = not shown in UCI */
    const char *ucci;         /* UCCI display name, NULL = not shown in UCCI */
    const char *aliases;      /* more normalised names, space separated */
    OptType type;
    int64_t min, max, def;    /* spin range / check default / combo default index */
    const char *const *vars;  /* combo values */
} OptDef;

static const OptDef OPTIONS[OPT_SEARCH_FIRST] = {
    [OPT_HASH] = { OPT_HASH, "Hash", "hashsize", "hash", OT_SPIN, 1, TT_MAX_MB, TT_DEFAULT_MB, NULL },
    [OPT_THREADS] = { OPT_THREADS, "Threads", "threads", "", OT_SPIN, 1, THREADS_MAX, 1, NULL },
    [OPT_CLEAR_HASH] = { OPT_CLEAR_HASH, "Clear Hash", NULL, "", OT_BUTTON, 0, 0, 0, NULL },
    [OPT_PONDER] = { OPT_PONDER, "Ponder", "ponder", "", OT_CHECK, 0, 1, 0, NULL },
    [OPT_MULTIPV] = { OPT_MULTIPV, "MultiPV", "multipv", "", OT_SPIN, 1, MULTIPV_MAX, 1, NULL },
    [OPT_MOVE_OVERHEAD] = { OPT_MOVE_OVERHEAD, "Move Overhead", NULL, "", OT_SPIN, 0, OVERHEAD_MAX, OVERHEAD_DEFAULT,
                            NULL },
    [OPT_RULES] = { OPT_RULES, "Repetition Rule", "rules", "rule repetition", OT_COMBO, 0, 0, 0, RULES_NAMES },
    [OPT_USEMILLISEC] = { OPT_USEMILLISEC, NULL, "usemillisec", "", OT_CHECK, 0, 1, 1, NULL },
    [OPT_BATCH] = { OPT_BATCH, NULL, "batch", "", OT_CHECK, 0, 1, 0, NULL },
    [OPT_DEBUG] = { OPT_DEBUG, NULL, "debug", "", OT_CHECK, 0, 1, 0, NULL },
    [OPT_USEBOOK] = { OPT_USEBOOK, "OwnBook", "usebook", "", OT_CHECK, 0, 1, 0, NULL },
    [OPT_BOOKFILES] = { OPT_BOOKFILES, "BookFile", "bookfiles", "", OT_STRING, 0, 0, 0, NULL },
    [OPT_BOOK_SEED] = { OPT_BOOK_SEED, "Book Seed", "bookseed", "", OT_SPIN, 0, BOOK_SEED_MAX, 0, NULL },
    [OPT_IDLE] = { OPT_IDLE, NULL, "idle", "", OT_COMBO, 0, 3, 0, LEVELS },
    [OPT_PRUNING] = { OPT_PRUNING, NULL, "pruning", "", OT_COMBO, 0, 3, 3, LEVELS },
    [OPT_KNOWLEDGE] = { OPT_KNOWLEDGE, NULL, "knowledge", "", OT_COMBO, 0, 3, 3, LEVELS },
    [OPT_RANDOMNESS] = { OPT_RANDOMNESS, NULL, "randomness", "", OT_COMBO, 0, 5, 0, RANDOM_LEVELS },
    [OPT_PROMOTION] = { OPT_PROMOTION, NULL, "promotion", "", OT_CHECK, 0, 1, 0, NULL },
    [OPT_NEWGAME] = { OPT_NEWGAME, NULL, "newgame", "", OT_BUTTON, 0, 0, 0, NULL },
    [OPT_EVALFILE] = { OPT_EVALFILE, "EvalFile", "evalfile", "", OT_STRING, 0, 0, 0, NULL },
    [OPT_USE_NNUE] = { OPT_USE_NNUE, "Use NNUE", "usennue", "", OT_CHECK, 0, 1, 1, NULL },
    [OPT_UCI_VARIANT] = { OPT_UCI_VARIANT, "UCI_Variant", NULL, "", OT_COMBO, 0, 0, 0, VARIANTS },
    [OPT_SHOW_WDL] = { OPT_SHOW_WDL, "UCI_ShowWDL", NULL, "", OT_CHECK, 0, 1, 0, NULL },
    [OPT_LIMIT_STRENGTH] = { OPT_LIMIT_STRENGTH, "UCI_LimitStrength", "limitstrength", "", OT_CHECK, 0, 1, 0, NULL },
    [OPT_ELO] = { OPT_ELO, "UCI_Elo", "elo", "", OT_SPIN, STRENGTH_ELO_MIN, STRENGTH_ELO_MAX, STRENGTH_ELO_DEFAULT,
                  NULL },
    [OPT_SKILL] = { OPT_SKILL, "Skill Level", "skilllevel", "skill", OT_SPIN, 0, SKILL_MAX, SKILL_MAX, NULL },
    /* endgame tablebases: ElephantEye's UCCI names, the UCI names of the issue (Stockfish's Syzygy* in spirit) */
    [OPT_EGTB_PATH] = { OPT_EGTB_PATH, "EGTBPath", "egtbpaths", "egtbpath", OT_STRING, 0, 0, 0, NULL },
    [OPT_USE_EGTB] = { OPT_USE_EGTB, NULL, "useegtb", "", OT_CHECK, 0, 1, 1, NULL },
    [OPT_EGTB_PROBE_LIMIT] = { OPT_EGTB_PROBE_LIMIT, "EGTBProbeLimit", NULL, "", OT_SPIN, 0, ENGINE_TB_PIECES_MAX,
                               ENGINE_TB_PIECES_MAX, NULL },
};

/* A tuning build's options: each tunable constant of the search under its own name in every dialect (one
 * lower-case word, as UCCI wants; the UCI name matches it without the underscores too). */
static const OptDef SEARCH_OPTIONS[SEARCH_PARAM_COUNT] = {
#define XQ_SP_OPTION(name, def, lo, hi, step)                                                                          \
    { (OptId)(OPT_SEARCH_FIRST + SPI_##name), #name, #name, "", OT_SPIN, lo, hi, def, NULL },
    SEARCH_PARAMS(XQ_SP_OPTION)
#undef XQ_SP_OPTION
};

/* Option number i (0..OPT_COUNT-1), or NULL when this build has no such option (a normal build's search
 * constants). */
static const OptDef *opt_def(int i)
{
    if (i < OPT_SEARCH_FIRST)
        return &OPTIONS[i];
    return search_params_tunable() ? &SEARCH_OPTIONS[i - OPT_SEARCH_FIRST] : NULL;
}

/* Lower-cases a name and drops spaces and underscores. */
static void normalise(const char *in, char out[NAME_MAX_NORM])
{
    size_t n = 0;
    for (; *in && n + 1 < NAME_MAX_NORM; in++)
        if (*in != ' ' && *in != '_' && *in != '\t')
            out[n++] = (char)tolower((unsigned char)*in);
    out[n] = '\0';
}

/* Does normalised name match the option's names or aliases? */
static bool opt_matches(const OptDef *d, const char *name)
{
    char norm[NAME_MAX_NORM];
    if (d->uci) {
        normalise(d->uci, norm);
        if (strcmp(norm, name) == 0)
            return true;
    }
    if (d->ucci && strcmp(d->ucci, name) == 0)
        return true;
    size_t len = strlen(name);
    for (const char *a = d->aliases; *a;) {
        const char *end = strchr(a, ' ');
        size_t alen = end ? (size_t)(end - a) : strlen(a);
        if (alen == len && strncmp(a, name, len) == 0)
            return true;
        a += alen + (end ? 1 : 0);
    }
    return false;
}

/* Pushes an option's value to the engine where the engine uses it. */
static void opt_apply(Proto *p, OptId id)
{
    Engine *e = p->engine;
    int64_t v = p->value[id];
    switch (id) {
    case OPT_HASH: {
        int64_t asked = p->lim.max_hash_mb && v > (int64_t)p->lim.max_hash_mb ? (int64_t)p->lim.max_hash_mb : v;
        int64_t got = (int64_t)engine_set_hash(e, (size_t)asked), pow2 = 1;
        while (pow2 * 2 <= asked)
            pow2 *= 2;
        if (got != v && asked == v && got == pow2)
            out_info_string(p, "hash: %lld MB rounded down to %lld MB (the table's size is a power of two)",
                            (long long)v, (long long)got);
        else if (got != v)
            out_info_string(p, "hash of %lld MB not available, using %lld MB", (long long)v, (long long)got);
        p->value[id] = got;
        break;
    }
    case OPT_THREADS: {
        if (p->lim.max_threads && v > p->lim.max_threads)
            v = p->lim.max_threads;
        int got = engine_set_threads(e, (int)v);
        if (got < 0)
            out_info_string(p, "error: Threads cannot change during a search; kept %d", engine_options(e)->threads);
        else if (got != v)
            out_info_string(p, "only %d search threads could be started (asked for %lld)", got, (long long)v);
        p->value[id] = engine_options(e)->threads;
        break;
    }
    case OPT_PONDER: engine_set_ponder(e, v != 0); break;
    case OPT_MULTIPV: engine_set_multipv(e, (int)v); break;
    case OPT_MOVE_OVERHEAD: engine_set_move_overhead(e, (int)v); break;
    case OPT_RULES: engine_set_rules(e, rules_at((int)v)); break;
    case OPT_USE_NNUE: {
        XqError err;
        if (!engine_set_use_nnue(e, v != 0, &err)) {
            out_info_string(p, "error: %s; kept Use NNUE false", err.msg);
            p->value[id] = 0;
        }
        break;
    }
    case OPT_LIMIT_STRENGTH:
    case OPT_ELO:
    case OPT_SKILL:
    case OPT_RANDOMNESS:
        /* UCI_LimitStrength picks the level from UCI_Elo; otherwise Skill Level does (Stockfish's rule) */
        engine_set_strength(e, p->value[OPT_LIMIT_STRENGTH] ? strength_level_for_elo((int)p->value[OPT_ELO])
                                                            : (int)p->value[OPT_SKILL] * SKILL_CENTI,
                            (int)p->value[OPT_RANDOMNESS]);
        break;
    case OPT_USE_EGTB: engine_set_tb_use(e, v != 0); break;
    case OPT_EGTB_PROBE_LIMIT: engine_set_tb_probe_limit(e, (int)v); break;
    case OPT_USEBOOK: engine_set_use_book(e, v != 0); break;
    case OPT_BOOK_SEED: engine_set_book_seed(e, (uint64_t)v); break;
    case OPT_CLEAR_HASH:
    case OPT_NEWGAME: proto_new_game(p); break;
    default:
        if (id >= OPT_SEARCH_FIRST) /* in range: parse_spin checked it */
            engine_set_search_param(e, id - OPT_SEARCH_FIRST, (int)v);
        break;
    }
}

/* Sets every option to its default. */
void opt_init(Proto *p)
{
    for (int i = 0; i < OPT_SEARCH_FIRST; i++)
        p->value[i] = OPTIONS[i].def;
    for (int i = 0; i < SEARCH_PARAM_COUNT; i++) {
        p->value[OPT_SEARCH_FIRST + i] = SEARCH_PARAM_INFO[i].def;
        engine_set_search_param(p->engine, i, SEARCH_PARAM_INFO[i].def);
    }
    p->value[OPT_USE_NNUE] = engine_options(p->engine)->use_nnue; /* on when the build has a net */
    snprintf(p->bookfiles, sizeof p->bookfiles, "%s", book_embedded_size() ? BOOK_EMBEDDED_NAME : "");
    p->evalfile[0] = '\0';
    engine_set_threads(p->engine, 1);
    engine_set_ponder(p->engine, false);
    engine_set_multipv(p->engine, 1);
    engine_set_strength(p->engine, SKILL_MAX * SKILL_CENTI, 0);
    engine_set_move_overhead(p->engine, OVERHEAD_DEFAULT);
    engine_set_rules(p->engine, rules_at(0));
}

/* Describes option i as shown in dialect d; false when d does not show it. */
bool opt_view(int i, Dialect d, OptView *out)
{
    static const char *const TYPE_NAME[] = { "spin", "check", "button", "combo", "string" };
    const OptDef *def = opt_def(i);
    const char *name = !def ? NULL : d == DIALECT_UCCI ? def->ucci : def->uci;
    if (!name)
        return false;
    /* CECP shows the UCI names, less what its own commands set (memory, cores, hard/easy, variant) */
    if (d == DIALECT_CECP
        && (def->id == OPT_HASH || def->id == OPT_THREADS || def->id == OPT_PONDER || strncmp(name, "UCI_", 4) == 0))
        return false;
    memset(out, 0, sizeof *out);
    out->id = def->id;
    out->name = name;
    out->type = TYPE_NAME[def->type];
    out->min = def->min;
    out->max = def->max;
    out->def = def->def;
    out->vars = def->vars;
    switch (def->type) {
    case OT_CHECK:
        out->def = def->id == OPT_USE_NNUE ? nnue_default() != NULL : def->def;
        out->def_text = out->def ? "true" : "false";
        break;
    case OT_COMBO: out->def_text = def->vars[def->def]; break;
    case OT_STRING:
        out->def_text =
            (def->id == OPT_EVALFILE && nnue_default()) || (def->id == OPT_BOOKFILES && book_embedded_size())
                ? "<embedded>"
                : "<empty>";
        break;
    default: out->def_text = ""; break;
    }
    return true;
}

/* Appends " var V" for each value of a combo option, the default first. */
void opt_append_vars(const OptView *v, char *line, size_t size, size_t *n)
{
    /* the default first: UCI2WB loses the default, and XBoard then sets the first value */
    out_append(line, size, n, " var %s", v->def_text);
    for (int k = 0; v->vars[k]; k++)
        if (strcmp(v->vars[k], v->def_text) != 0)
            out_append(line, size, n, " var %s", v->vars[k]);
}

/* The name an option goes by in messages of the current dialect. */
static const char *shown_name(const Proto *p, const OptDef *d)
{
    if (p->fe->dialect == DIALECT_UCCI)
        return d->ucci ? d->ucci : d->uci;
    return d->uci ? d->uci : d->ucci;
}

/* Parses a boolean word; NULL (no value) counts as true. */
static bool parse_bool(const char *v, bool *out)
{
    static const char *const YES[] = { "true", "on", "1", "yes" }, *const NO[] = { "false", "off", "0", "no" };
    if (!v || !*v) {
        *out = true;
        return true;
    }
    for (int i = 0; i < 4; i++) {
        if (str_ieq(v, YES[i]))
            return (*out = true);
        if (str_ieq(v, NO[i]))
            return !(*out = false);
    }
    return false;
}

/* EvalFile: loads the net (or the built-in one); on error the evaluation in use stays. */
static void set_eval_file(Proto *p, const char *value)
{
    XqError err;
    const char *path = value ? value : "";
    if (strlen(path) >= EVALFILE_MAX) {
        out_info_string(p, "error: EvalFile path longer than %d bytes; kept the net in use", EVALFILE_MAX - 1);
        return;
    }
    /* the default this build advertises, handed back (UCI2WB and GUIs send every option at start):
     * no built-in net and no file loaded, so there is nothing to change */
    if (!nnue_default() && !p->evalfile[0] && (!*path || strcmp(path, "<empty>") == 0))
        return;
    if (!engine_set_eval_file(p->engine, path, &err)) {
        out_info_string(p, "error: EvalFile: %s; kept the evaluation in use", err.msg);
        return;
    }
    snprintf(p->evalfile, sizeof p->evalfile, "%s", path);
    out_info_string(p, "net loaded: %s (%s)%s", *path ? path : "<embedded>", p->engine->net->desc,
                    engine_options(p->engine)->use_nnue ? "" : "; Use NNUE is off");
}

/* BookFile / bookfiles: opens the list's files (all or nothing); on error the engine plays without a book. */
static void set_book_files(Proto *p, const char *value)
{
    XqError err;
    const char *list = value ? value : "";
    snprintf(p->bookfiles, sizeof p->bookfiles, "%s", list);
    if (!engine_set_book_files(p->engine, list, &err)) {
        out_info_string(p, "error: %s; playing without a book", err.msg);
        return;
    }
    BookMove moves[BOOK_MOVES_MAX];
    int n = engine_book_moves(p->engine, 0, moves);
    if (*list && strcmp(list, "<empty>") != 0)
        out_info_string(p, "book opened: %.200s (%d book moves in the current position)%s%s", list, n,
                        p->value[OPT_USEBOOK] ? "" : "; it is used once ",
                        p->value[OPT_USEBOOK]            ? ""
                        : p->fe->dialect == DIALECT_UCCI ? "usebook is true"
                                                         : "OwnBook is true");
}

/* Reports a tablebase file the engine refused (ctx: the Proto). */
static void tb_refused(void *ctx, const char *msg)
{
    out_info_string(ctx, "error: %s; skipped", msg);
}

/* EGTBPath / egtbpaths / CECP egtpath: loads the directory's tablebases ("" or "<empty>": none). */
void opt_set_tb_path(Proto *p, const char *value)
{
    const char *dir = value ? value : "";
    int n = engine_set_tb_path(p->engine, dir, tb_refused, p);
    if (n < 0)
        out_info_string(p, "error: the tablebase path cannot change during a search; kept the tables loaded");
    else if (n == 0 && *dir && strcmp(dir, "<empty>") != 0)
        out_info_string(p, "error: no tablebase in %.200s; playing without tablebases", dir);
    else if (n > 0)
        out_info_string(p, "tablebases: %d loaded from %.200s", n, dir);
}

/* The option a normalised name names, or NULL. */
static const OptDef *opt_find(const char *norm)
{
    for (int i = 0; i < OPT_COUNT; i++)
        if (opt_def(i) && opt_matches(opt_def(i), norm))
            return opt_def(i);
    return NULL;
}

/* Is there an option of this name? */
bool opt_exists(const char *name)
{
    char norm[NAME_MAX_NORM];
    normalise(name, norm);
    return opt_find(norm) != NULL;
}

/* Options whose numbers out of range are clamped into it (with an info string) rather than refused. */
static bool opt_clamps(OptId id)
{
    return id == OPT_THREADS || id == OPT_MULTIPV || id == OPT_ELO || id == OPT_SKILL;
}

/* Parses a whole number of any size: one beyond int64 counts as INT64_MIN or INT64_MAX; false if no number. */
static bool parse_wide(const char *value, int64_t *v)
{
    if (parse_i64(value, INT64_MIN, INT64_MAX, v))
        return true;
    const char *digits = value + (*value == '-' || *value == '+');
    if (!*digits || strspn(digits, "0123456789") != strlen(digits))
        return false;
    *v = *value == '-' ? INT64_MIN : INT64_MAX;
    return true;
}

/* Brings a spin option's number into its range, saying so (with the value as typed) when it was outside. */
static int64_t clamp_spin(Proto *p, const OptDef *d, const char *value, int64_t v)
{
    if (v >= d->min && v <= d->max)
        return v;
    int64_t c = v < d->min ? d->min : d->max;
    out_info_string(p, "%s %.40s is out of range %lld..%lld: using %lld", shown_name(p, d), value,
                    (long long)d->min, (long long)d->max, (long long)c);
    return c;
}

/* Parses a spin value; a clamping option's number outside the range is brought into it, saying so. */
static bool parse_spin(Proto *p, const OptDef *d, const char *value, int64_t *v)
{
    /* UCCI: hashsize 0 = let the engine decide; UCI and CECP offer 1..max, so a 0 there is refused */
    bool zero_default = d->id == OPT_HASH && p->fe->dialect == DIALECT_UCCI;
    if (!value)
        return false;
    if (!opt_clamps(d->id)) {
        if (!parse_i64(value, zero_default ? 0 : d->min, d->max, v))
            return false;
        if (*v == 0 && zero_default)
            *v = d->def;
        return true;
    }
    if (!parse_wide(value, v))
        return false;
    *v = clamp_spin(p, d, value, *v);
    return true;
}

/* A copy of text (malloc'd) without the blanks around it; NULL for NULL text (or when out of memory). */
static char *dup_trimmed(const char *text)
{
    if (!text)
        return NULL;
    while (isspace((unsigned char)*text))
        text++;
    size_t len = strlen(text);
    while (len > 0 && isspace((unsigned char)text[len - 1]))
        len--;
    char *s = malloc(len + 1);
    if (s) {
        memcpy(s, text, len);
        s[len] = '\0';
    }
    return s;
}

/* Applies a value to a spin, check, button or combo option. */
static void set_typed(Proto *p, const OptDef *d, const char *value)
{
    int64_t v = 0;
    bool ok = true;
    switch (d->type) {
    case OT_BUTTON: break;
    case OT_CHECK: {
        bool b = false;
        ok = parse_bool(value, &b);
        v = b;
        break;
    }
    case OT_SPIN: ok = parse_spin(p, d, value, &v); break;
    case OT_COMBO:
        ok = false;
        for (int k = 0; value && d->vars[k]; k++)
            if (str_ieq(value, d->vars[k])) {
                v = k;
                ok = true;
            }
        break;
    case OT_STRING: return; /* opt_set handles them */
    }
    if (!ok && d->id == OPT_UCI_VARIANT) {
        out_info_string(p, "error: UCI_Variant %.40s is not supported: Jiangjun plays xiangqi only; kept xiangqi",
                        value ? value : "(none)");
        return;
    }
    if (!ok) {
        const char *shown = shown_name(p, d);
        if (d->type == OT_COMBO) {
            char allowed[256];
            size_t n = 0;
            allowed[0] = '\0';
            for (int k = 0; d->vars[k]; k++)
                out_append(allowed, sizeof allowed, &n, "%s%s", k ? ", " : "", d->vars[k]);
            out_info_string(p, "error: bad value '%.40s' for option %s (allowed: %s); kept %s", value ? value : "",
                            shown, allowed, d->vars[p->value[d->id]]);
        } else if (d->type == OT_SPIN)
            out_info_string(p, "error: bad value '%.40s' for option %s (allowed %lld..%lld); kept %lld",
                            value ? value : "", shown, (long long)d->min, (long long)d->max,
                            (long long)p->value[d->id]);
        else
            out_info_string(p, "error: bad value '%.40s' for option %s; kept the old value", value ? value : "",
                            shown);
        return;
    }
    if (d->id == OPT_PROMOTION && v) {
        out_info_string(p, "promotion is not supported; kept false");
        return;
    }
    p->value[d->id] = v;
    opt_apply(p, d->id);
}

/* Sets spin option id from a number clamped into its range, with setoption's notice when it is (CECP's memory
 * and cores); false, nothing changed, when the text is no number. */
bool opt_set_clamped(Proto *p, OptId id, const char *value)
{
    const OptDef *d = opt_def(id);
    int64_t v;
    if (!value || !parse_wide(value, &v))
        return false;
    p->value[id] = clamp_spin(p, d, value, v);
    opt_apply(p, id);
    return true;
}

/* Applies `setoption`: a string option takes the value as typed (a file name may hold any blanks), the others
 * take it without the blanks around it. */
bool opt_set(Proto *p, const char *name, const char *value)
{
    char norm[NAME_MAX_NORM];
    normalise(name, norm);
    const OptDef *d = NULL;
    if (value) {
        /* UCCI form of a name of several words ("setoption Skill Level 5"): its later words came first in
         * the value; the longer name wins */
        char joined[NAME_MAX_NORM * 2];
        const char *first = value;
        while (isspace((unsigned char)*first))
            first++;
        size_t word = strcspn(first, " \t");
        snprintf(joined, sizeof joined, "%s%.*s", name, (int)(word < NAME_MAX_NORM ? word : NAME_MAX_NORM), first);
        char norm2[NAME_MAX_NORM];
        normalise(joined, norm2);
        if ((d = opt_find(norm2)) != NULL)
            value = first[word] ? first + word + 1 : NULL;
    }
    if (!d)
        d = opt_find(norm);
    if (!d)
        return false; /* not an error (UCCI 5.7): the caller says it was ignored */
    if (d->type == OT_STRING) {
        if (value && strlen(value) >= sizeof p->bookfiles) {
            out_info_string(p, "error: value of option %s longer than %d bytes; kept the old value", shown_name(p, d),
                            (int)sizeof p->bookfiles - 1);
            return true;
        }
        if (d->id == OPT_EVALFILE)
            set_eval_file(p, value);
        else if (d->id == OPT_EGTB_PATH)
            opt_set_tb_path(p, value);
        else
            set_book_files(p, value);
        return true;
    }
    char *trimmed = dup_trimmed(value);
    if (value && !trimmed) {
        out_info_string(p, "error: out of memory; option %s kept", shown_name(p, d));
        return true;
    }
    set_typed(p, d, trimmed);
    free(trimmed);
    return true;
}
