/* input.c - stdin reader thread and line queue (see input.h). */
#include "input.h"

#include <stdlib.h>
#include <string.h>

enum { INPUT_CHUNK = 256 };

struct InputLine {
    InputLine *next;
    bool overlong;
    char text[];
};

/* Appends a line (or an "overlong" marker) to the queue. */
static void queue_push(InputQueue *q, const char *text, size_t len, bool overlong)
{
    InputLine *l = malloc(sizeof *l + len + 1);
    if (!l)
        return; /* out of memory: the line is lost, the engine lives on */
    l->next = NULL;
    l->overlong = overlong;
    memcpy(l->text, text, len);
    l->text[len] = '\0';
    pthread_mutex_lock(&q->lock);
    if (q->tail)
        q->tail->next = l;
    else
        q->head = l;
    q->tail = l;
    pthread_cond_signal(&q->cond);
    pthread_mutex_unlock(&q->lock);
}

/* Frees the lines nobody took and the queue's lock (no other thread uses q any more). */
static void queue_free(InputQueue *q)
{
    while (q->head) {
        InputLine *l = q->head;
        q->head = l->next;
        free(l);
    }
    q->tail = NULL;
    pthread_cond_destroy(&q->cond);
    pthread_mutex_destroy(&q->lock);
}

/* Reader thread: reads lines until end of input, then flags EOF. */
static void *reader_main(void *arg)
{
    InputQueue *q = arg;
    size_t cap = INPUT_CHUNK, len = 0;
    char *buf = malloc(cap);
    bool overlong = false;
    int c;
    while (buf && (c = getc(q->in)) != EOF) {
        if (c == '\n') {
            queue_push(q, buf, overlong ? 0 : len, overlong);
            len = 0;
            overlong = false;
            continue;
        }
        if (overlong)
            continue;
        if (len + 1 >= cap) {
            if (cap >= INPUT_LINE_MAX) {
                overlong = true;
                continue;
            }
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                overlong = true;
                continue;
            }
            buf = bigger;
            cap *= 2;
        }
        buf[len++] = c == '\0' ? ' ' : (char)c;
    }
    if (buf && (len || overlong))
        queue_push(q, buf, overlong ? 0 : len, overlong);
    free(buf);
    pthread_mutex_lock(&q->lock);
    q->eof = true;
    void (*owner_free)(void *) = q->owner_free; /* set only once the consumer has gone */
    void *owner = q->owner;
    pthread_cond_signal(&q->cond);
    pthread_mutex_unlock(&q->lock);
    if (owner_free) {
        queue_free(q);
        owner_free(owner); /* q lives inside owner: not touched after this */
    }
    return NULL;
}

/* Initialises the queue without a reader. */
void input_open(InputQueue *q)
{
    memset(q, 0, sizeof *q);
    pthread_mutex_init(&q->lock, NULL);
    pthread_cond_init(&q->cond, NULL);
}

/* Frees a queue that has no reader. */
void input_close(InputQueue *q) { queue_free(q); }

/* Initialises the queue and starts the reader. */
bool input_start(InputQueue *q, FILE *in)
{
    input_open(q);
    q->in = in;
    if (pthread_create(&q->thread, NULL, reader_main, q) != 0)
        return false;
    return true;
}

/* Joins the reader and frees the lines nobody took. */
void input_finish(InputQueue *q)
{
    pthread_join(q->thread, NULL);
    queue_free(q);
}

/* Frees the queue if the reader has ended (and its owner); else leaves both for the reader to free. */
void input_release(InputQueue *q, void (*owner_free)(void *), void *owner)
{
    pthread_mutex_lock(&q->lock);
    bool ended = q->eof; /* set just before the reader returns: the join below is prompt */
    pthread_t reader = q->thread; /* q may be freed by the reader once the lock is released */
    if (!ended) {
        q->owner_free = owner_free;
        q->owner = owner;
    }
    pthread_mutex_unlock(&q->lock);
    if (!ended) {
        pthread_detach(reader); /* it may stay blocked in getc until the process exits */
        return;
    }
    input_finish(q);
    owner_free(owner);
}

/* Waits for the next event; a finished search comes before queued lines. */
InputEvent input_next(InputQueue *q, char **line)
{
    InputEvent ev;
    pthread_mutex_lock(&q->lock);
    while (!q->wake && !q->head && !q->eof)
        pthread_cond_wait(&q->cond, &q->lock);
    if (q->wake) {
        q->wake = false;
        ev = INPUT_WAKE;
    } else if (q->head) {
        InputLine *l = q->head;
        q->head = l->next;
        if (!q->head)
            q->tail = NULL;
        ev = l->overlong ? INPUT_OVERLONG : INPUT_LINE;
        *line = NULL;
        if (ev == INPUT_LINE) {
            size_t n = strlen(l->text);
            /* reuse the node's memory as the caller's string */
            memmove(l, l->text, n + 1);
            *line = (char *)l;
        } else {
            free(l);
        }
    } else {
        ev = INPUT_EOF;
    }
    pthread_mutex_unlock(&q->lock);
    return ev;
}

/* Wakes input_next with INPUT_WAKE. */
void input_wake(InputQueue *q)
{
    pthread_mutex_lock(&q->lock);
    q->wake = true;
    pthread_cond_signal(&q->cond);
    pthread_mutex_unlock(&q->lock);
}

/* Waits only for INPUT_WAKE. */
void input_wait_wake(InputQueue *q)
{
    pthread_mutex_lock(&q->lock);
    while (!q->wake)
        pthread_cond_wait(&q->cond, &q->lock);
    q->wake = false;
    pthread_mutex_unlock(&q->lock);
}
