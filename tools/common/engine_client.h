/*
 * protocol.h - talking to an engine in UCCI, in the xiangqi UCI dialect
 * (ranks 0-9, as Pikafish) or in plain UCI with ranks 1-10 (as
 * Fairy-Stockfish after `UCI_Variant xiangqi`). Moves cross this interface
 * as ICCS text with ranks 0-9 ("h2e2"); the adapter converts.
 */
#ifndef XQM_PROTOCOL_H
#define XQM_PROTOCOL_H

#include "engine_proc.h"

typedef enum Protocol { PROTO_UCCI, PROTO_UCI, PROTO_UCI10 } Protocol;

enum {
    ENGINE_OPTIONS_MAX = 32,
    ENGINE_NAME_MAX = 64,
    ENGINE_CMD_MAX = 1024,
    ENGINE_DIR_MAX = 512,
    OPTION_TEXT_MAX = 256,
    MOVE_TEXT_MAX = 8,         /* "a10a9" plus terminator */
    SCORE_MATE = 30000,        /* |score| of a mate as stored in EngineReply */
    STOP_GRACE_MS = 200,       /* how long a stopped engine may take to answer */
};

/* A `setoption` to send after the handshake. */
typedef struct EngineOption {
    char name[OPTION_TEXT_MAX];
    char value[OPTION_TEXT_MAX];
} EngineOption;

/* How to run one engine (from the command line). */
typedef struct EngineConfig {
    char name[ENGINE_NAME_MAX];
    char cmd[ENGINE_CMD_MAX];
    char dir[ENGINE_DIR_MAX];
    Protocol proto;
    int option_count;
    EngineOption options[ENGINE_OPTIONS_MAX];
} EngineConfig;

/* A started engine. */
typedef struct Engine {
    const EngineConfig *cfg;
    EngineProc proc;
    bool millisec;  /* UCCI: the engine takes times in milliseconds */
} Engine;

/* The search limit of one `go`. */
typedef enum GoKind { GO_CLOCK, GO_DEPTH, GO_NODES, GO_MOVETIME } GoKind;

typedef struct GoParams {
    GoKind kind;
    int side;                   /* side to move (RED/BLACK), for wtime/btime */
    int64_t own_ms, opp_ms;     /* GO_CLOCK: remaining time */
    int64_t own_inc, opp_inc;   /* GO_CLOCK: increment per move */
    int movestogo;              /* GO_CLOCK: moves to the next period (0 = none) */
    int opp_movestogo;
    int depth;                  /* GO_DEPTH */
    int64_t nodes;              /* GO_NODES */
    int64_t movetime;           /* GO_MOVETIME (ms) */
    bool draw_offered;          /* UCCI: the opponent offered a draw ("go draw ...") */
} GoParams;

/* The game so far, as the adapter needs it for `position`. */
typedef struct GameMoves {
    const char *start_fen;      /* the game's first position */
    const char *irrev_fen;      /* position after the last capture (UCCI) */
    int irrev_index;            /* index in moves[] of the first move after irrev_fen */
    int count;
    const char (*moves)[MOVE_TEXT_MAX]; /* ICCS, ranks 0-9 */
} GameMoves;

typedef enum ReplyKind {
    REPLY_MOVE,      /* bestmove with a move (not yet checked for legality) */
    REPLY_NOMOVE,    /* nobestmove / bestmove (none) */
    REPLY_TIMEOUT,   /* no bestmove before the deadline */
    REPLY_CRASH,     /* the engine's output closed */
} ReplyKind;

/* What an engine answered to `go`. */
typedef struct EngineReply {
    ReplyKind kind;
    char move[MOVE_TEXT_MAX];   /* converted to ranks 0-9 (or the raw text if unconvertible) */
    char raw[64];               /* the move as the engine wrote it */
    bool resign;                /* UCCI "bestmove m resign" */
    bool draw_offer;            /* UCCI "bestmove m draw" */
    bool has_score;
    int score;                  /* last reported score, mover's view, cp (mates ±(SCORE_MATE - n)) */
    int depth;
    int64_t elapsed_ms;         /* from sending go to the reply */
    char detail[128];           /* crash description etc. */
} EngineReply;

/* Parses "ucci", "uci" or "uci10"; false if unknown. */
bool protocol_parse(const char *text, Protocol *out);
/* Name of a protocol as accepted by protocol_parse. */
const char *protocol_name(Protocol p);

/* Converts "h2e2" to ranks 1-10 ("h3e3"); returns out. */
char *move_to_uci10(const char *iccs, char *out, size_t size);
/* Converts ranks 1-10 text ("a10a9") to ranks 0-9 ("a9a8"); false if malformed. */
bool move_from_uci10(const char *text, char out[MOVE_TEXT_MAX]);

/* Starts the engine, does the handshake and sends its options. */
bool engine_start(Engine *e, const EngineConfig *cfg, const ProcLog *log, int64_t timeout_ms,
                  char *msg, size_t msg_size);
/* Tells the engine a new game starts and waits until it is ready. */
bool engine_new_game(Engine *e, int64_t timeout_ms, char *msg, size_t msg_size);
/* Sends the position and `go`, then collects the reply before deadline_ms (monotonic). */
void engine_think(Engine *e, const GameMoves *gm, const GoParams *go, int64_t deadline_ms,
                  EngineReply *reply);
/* Quits the engine politely (or kills it at once if `kill_now`, e.g. after a hang). */
void engine_quit(Engine *e, bool kill_now);
/* Parses the score of an `info` line into *score (mover's view); false if none. */
bool protocol_parse_score(const char *line, int *score, int *depth);

#endif
