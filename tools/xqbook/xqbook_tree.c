/* xqbook_tree.c - a book from the engine's own analysis of a move tree (see xqbook_tree.h). */
#include "xqbook_tree.h"

#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "board/movegen.h"
#include "base/platform.h"
#include "rules/rules.h"
#include "search/search.h"

enum { QUEUE_MIN = 256, KEYSET_MIN = 1024, MS_PER_S = 1000, S_PER_MIN = 60, S_PER_HOUR = 3600 };

/* One position of the tree: the moves from the root that reach it. */
typedef struct TreeNode {
    int ply;
    Move line[TREE_PLIES_MAX];
} TreeNode;

/* Positions waiting for analysis, in order. */
typedef struct Queue {
    TreeNode *node;
    size_t head, n, cap;
} Queue;

/* Stored keys of the positions already queued (open addressing; 0 marks a free slot). */
typedef struct KeySet {
    uint64_t *slot;
    size_t n, cap;
} KeySet;

/* The walk's working state. */
typedef struct Walk {
    const TreeOptions *opt;
    TreeStats *stats;
    Position *root, *pos;
    SearchThread *st;
    TT tt;
    Queue q;
    KeySet seen;
    long done[TREE_PLIES_MAX + 1], children[TREE_PLIES_MAX + 1], queued[TREE_PLIES_MAX + 1];
    int64_t start_ms, last_report_ms;
    int last_ply;
} Walk;

/* The weight of a move delta below the best. */
uint32_t tree_book_weight(int delta, int margin)
{
    if (margin <= 0 || delta <= 0)
        return TREE_WEIGHT_BEST;
    int w = TREE_WEIGHT_BEST - (TREE_WEIGHT_BEST / 2) * delta / margin;
    return w < 1 ? 1 : (uint32_t)w;
}

/* Adds a key to the set; false if it was there (or out of memory: *oom set). */
static bool keyset_add(KeySet *s, uint64_t key, bool *oom)
{
    key |= 1; /* never 0, the free mark (the low bit lost: a collision chance of 2^-63) */
    if ((s->n + 1) * 2 > s->cap) {
        size_t cap = s->cap ? s->cap * 2 : KEYSET_MIN;
        uint64_t *slot = calloc(cap, sizeof *slot);
        if (!slot) {
            *oom = true;
            return false;
        }
        for (size_t i = 0; i < s->cap; i++)
            if (s->slot[i]) {
                size_t j = (size_t)(s->slot[i] * 0x9E3779B97F4A7C15ULL >> 20) & (cap - 1);
                while (slot[j])
                    j = (j + 1) & (cap - 1);
                slot[j] = s->slot[i];
            }
        free(s->slot);
        s->slot = slot;
        s->cap = cap;
    }
    size_t i = (size_t)(key * 0x9E3779B97F4A7C15ULL >> 20) & (s->cap - 1);
    while (s->slot[i] && s->slot[i] != key)
        i = (i + 1) & (s->cap - 1);
    if (s->slot[i])
        return false;
    s->slot[i] = key;
    s->n++;
    return true;
}

/* The key a position is stored under (the smaller of its own and its mirror's). */
static uint64_t stored_key(const Position *pos)
{
    uint64_t a = xqb_key(pos, false), b = xqb_key(pos, true);
    return a < b ? a : b;
}

/* Appends a node to the queue; false if out of memory. */
static bool queue_push(Queue *q, const TreeNode *node)
{
    if (q->head + q->n == q->cap) {
        size_t cap = q->cap ? q->cap * 2 : QUEUE_MIN;
        TreeNode *bigger = realloc(q->node, cap * sizeof *bigger);
        if (!bigger)
            return false;
        q->node = bigger;
        q->cap = cap;
    }
    q->node[q->head + q->n++] = *node;
    return true;
}

/* Queues the child of a node after move m unless that position (or its mirror) was queued; false if out of memory. */
static bool queue_child(Walk *w, const TreeNode *node, Move m)
{
    if (node->ply + 1 >= w->opt->plies)
        return true; /* the last analysed ply: its moves go into the book, their positions do not */
    bool oom = false;
    pos_make(w->pos, m);
    bool fresh = keyset_add(&w->seen, stored_key(w->pos), &oom);
    pos_unmake(w->pos);
    if (!fresh)
        return !oom;
    TreeNode child = *node;
    child.line[child.ply++] = m;
    w->children[node->ply]++;
    w->queued[child.ply]++;
    return queue_push(&w->q, &child);
}

/* Searches the node's position with the root moves restricted to allowed (n 0: all); the result in *res. */
static void search(Walk *w, const Move *allowed, int n, SearchResult *res)
{
    SearchLimits lim;
    memset(&lim, 0, sizeof lim);
    lim.depth = w->opt->depth;
    lim.nodes = w->opt->nodes;
    lim.n_root_moves = n;
    memcpy(lim.root_moves, allowed, (size_t)n * sizeof *allowed);
    SearchShared shared;
    atomic_init(&shared.pondering, false);
    search_shared_init(&shared, &w->tt, &lim, rules_default(), NULL, NULL);
    shared.net = w->opt->net;
    search_run(w->st, &shared, w->pos, res);
    w->stats->searches++;
}

/* Is m one of the first n moves of list? */
static bool listed(const Move *list, int n, Move m)
{
    for (int i = 0; i < n; i++)
        if (list[i] == m)
            return true;
    return false;
}

/* Analyses one position: the best moves within the margin, into the book and the queue. */
static bool analyse(Walk *w, BookTable *t, const TreeNode *node)
{
    Move legal[MAX_MOVES], excluded[MAX_MOVES], allowed[MAX_MOVES];
    int n_legal = gen_legal(w->pos, legal), n_ex = 0, best = 0;
    bool symmetric = xqb_key(w->pos, false) == xqb_key(w->pos, true);
    for (int k = 0; k < w->opt->width && n_ex < n_legal; k++) {
        int n_allowed = 0;
        for (int i = 0; n_ex > 0 && i < n_legal; i++)
            if (!listed(excluded, n_ex, legal[i]))
                allowed[n_allowed++] = legal[i];
        SearchResult res;
        search(w, allowed, n_allowed, &res);
        if (res.best == MOVE_NONE || (n_ex > 0 && !listed(allowed, n_allowed, res.best)))
            break;
        if (k == 0)
            best = res.score;
        else if (res.score < best - w->opt->margin)
            break;
        uint32_t weight = tree_book_weight(best - res.score, w->opt->margin);
        Move twin = book_mirror_move(res.best);
        bool add_twin = symmetric && twin != res.best && listed(legal, n_legal, twin);
        for (int j = 0; j < 1 + add_twin; j++) {
            Move m = j ? twin : res.best;
            BookEntry *e = book_table_move(t, w->pos, m);
            if (!e)
                return false;
            e->weight = weight;
            excluded[n_ex++] = m;
            w->stats->moves++;
        }
        if (!queue_child(w, node, res.best)) /* a twin's child is the same position mirrored */
            return false;
    }
    return true;
}

/* Writes a duration as "1h02m", "3m05s" or "42s". */
static void duration(int64_t ms, char *out, size_t size)
{
    int64_t s = ms / MS_PER_S;
    if (s >= S_PER_HOUR)
        snprintf(out, size, "%lldh%02lldm", (long long)(s / S_PER_HOUR), (long long)(s % S_PER_HOUR / S_PER_MIN));
    else if (s >= S_PER_MIN)
        snprintf(out, size, "%lldm%02llds", (long long)(s / S_PER_MIN), (long long)(s % S_PER_MIN));
    else
        snprintf(out, size, "%llds", (long long)s);
}

/* Positions still to analyse: each queued one, and the children it should bring (at the branching seen so far). */
static double remaining(const Walk *w)
{
    double subtree[TREE_PLIES_MAX + 1], branching = 0, total = 0;
    int plies = w->opt->plies;
    for (int p = plies - 1; p >= 0; p--) {
        if (w->done[p] > 0 && p + 1 < plies)
            branching = (double)w->children[p] / (double)w->done[p];
        subtree[p] = 1.0 + (p + 1 < plies ? branching * subtree[p + 1] : 0.0);
    }
    for (int p = 0; p < plies; p++)
        total += (double)(w->queued[p] - w->done[p]) * subtree[p];
    return total;
}

/* Prints a progress line with an ETA (every progress_every_s seconds and at each new ply). */
static void progress(Walk *w, int ply, bool last)
{
    int64_t now = now_ms();
    if (!w->opt->progress
        || (!last && ply == w->last_ply && now - w->last_report_ms < (int64_t)w->opt->progress_every_s * MS_PER_S))
        return;
    w->last_report_ms = now;
    w->last_ply = ply;
    char elapsed[32], eta[32];
    int64_t spent = now - w->start_ms;
    duration(spent, elapsed, sizeof elapsed);
    double left = remaining(w);
    duration(w->stats->positions ? (int64_t)((double)spent / (double)w->stats->positions * left) : 0, eta, sizeof eta);
    fprintf(w->opt->progress, "xqbook: ply %d/%d, %ld positions analysed, %zu queued, %ld searches, %ld book moves, "
                              "%s elapsed, ETA %s\n",
            ply, w->opt->plies, w->stats->positions, w->q.n, w->stats->searches, w->stats->moves, elapsed,
            last ? "0s" : eta);
    fflush(w->opt->progress);
}

/* Frees the walk's state. */
static void walk_free(Walk *w)
{
    free(w->root);
    free(w->pos);
    if (w->st)
        search_thread_free(w->st);
    tt_free(&w->tt);
    free(w->q.node);
    free(w->seen.slot);
}

/* Walks the tree and records its moves. */
bool tree_book_build(BookTable *t, const TreeOptions *opt, TreeStats *stats, XqError *err)
{
    Walk w;
    memset(&w, 0, sizeof w);
    memset(stats, 0, sizeof *stats);
    w.opt = opt;
    w.stats = stats;
    w.root = malloc(sizeof *w.root);
    w.pos = malloc(sizeof *w.pos);
    w.st = search_thread_new();
    bool ok = w.root && w.pos && w.st && tt_resize(&w.tt, (size_t)opt->hash_mb);
    if (!ok)
        snprintf(err->msg, sizeof err->msg, "out of memory");
    else if (opt->plies < 1 || opt->plies > TREE_PLIES_MAX || opt->width < 1 || opt->depth < 1) {
        snprintf(err->msg, sizeof err->msg, "plies must be 1..%d, width and depth at least 1", TREE_PLIES_MAX);
        ok = false;
    } else {
        ok = engine_build_position(opt->fen, opt->moves, opt->n_moves, w.root, err);
    }
    TreeNode first = { 0, { 0 } };
    bool oom = false;
    if (ok) {
        keyset_add(&w.seen, stored_key(w.root), &oom);
        w.queued[0] = 1;
        ok = !oom && queue_push(&w.q, &first);
        if (!ok)
            snprintf(err->msg, sizeof err->msg, "out of memory");
    }
    w.start_ms = w.last_report_ms = now_ms();
    w.last_ply = -1;
    while (ok && w.q.n > 0) {
        TreeNode node = w.q.node[w.q.head++];
        w.q.n--;
        progress(&w, node.ply, false);
        memcpy(w.pos, w.root, sizeof *w.pos);
        for (int i = 0; i < node.ply; i++)
            pos_make(w.pos, node.line[i]);
        ok = analyse(&w, t, &node);
        if (!ok)
            snprintf(err->msg, sizeof err->msg, "out of memory");
        w.done[node.ply]++;
        stats->positions++;
    }
    stats->ms = now_ms() - w.start_ms;
    if (ok)
        progress(&w, opt->plies, true);
    walk_free(&w);
    return ok;
}
