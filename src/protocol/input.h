/*
 * input.h - the stdin reader thread and its line queue.
 *
 * A reader thread turns the input into lines (any length up to
 * INPUT_LINE_MAX, any bytes; NUL becomes a space) and queues them, so the
 * protocol thread can answer isready/stop/ponderhit/quit while a search
 * runs. The search thread wakes the protocol thread through the same queue
 * when it has printed its bestmove.
 */
#ifndef XQ_INPUT_H
#define XQ_INPUT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

enum { INPUT_LINE_MAX = 1 << 22 }; /* longer lines are dropped whole */

typedef struct InputLine InputLine;

typedef struct InputQueue {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    InputLine *head, *tail;
    bool eof;        /* the reader hit end of input (after the queued lines) */
    bool wake;       /* the search finished */
    FILE *in;
    pthread_t thread;
    void (*owner_free)(void *); /* set by input_release: the reader frees its owner when it ends */
    void *owner;
} InputQueue;

typedef enum InputEvent { INPUT_LINE, INPUT_OVERLONG, INPUT_WAKE, INPUT_EOF } InputEvent;

/*
 * Initialises the queue and starts the reader thread on `in`; false if the
 * thread cannot start. At the end call input_finish (an input known to end)
 * or input_release (stdin, which may never end).
 */
bool input_start(InputQueue *q, FILE *in);
/* Initialises the queue with no reader thread: only input_wake and input_close are for it (protocol_open's
 * sessions, whose lines come from the caller). */
void input_open(InputQueue *q);
/* Frees a queue made by input_open. */
void input_close(InputQueue *q);
/* Waits for the reader to reach end of input, then frees the queue. */
void input_finish(InputQueue *q);
/*
 * At exit on an input that may never end: hands the queue and the memory
 * holding it (owner, freed by owner_free) over. If the reader has reached end
 * of input, joins it, frees the queue and calls owner_free(owner) now; else
 * detaches the reader, which does both when its input ends (or never, if the
 * process exits first, while it still holds the queue).
 */
void input_release(InputQueue *q, void (*owner_free)(void *), void *owner);
/* Waits for the next event; for INPUT_LINE *line receives a malloc'd string the caller frees. */
InputEvent input_next(InputQueue *q, char **line);
/* Waits only for INPUT_WAKE (after end of input, while a search finishes). */
void input_wait_wake(InputQueue *q);
/* Wakes input_next with INPUT_WAKE (callable from any thread). */
void input_wake(InputQueue *q);

#endif
