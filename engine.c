/* engine.c: the engine, then its front ends. The engine (time, transposition table,
 * search, bench) works on a Search context its caller owns, reads no input and prints
 * nothing: it reports through the callbacks its caller puts in the Limits. The front ends
 * call only the engine's entry points (and the helpers they share): the command line
 * (one-shot, batch, perft, eval, d, bench), UCI, match and datagen (with the games they
 * share), and the WebAssembly exports.
 * Sections, in order: the engine: clock, time, transposition table, search, bench; the
 * front ends: shared, command line, UCI, games, match, datagen, web. */
#if !defined(_POSIX_C_SOURCE) && !defined(ENGINE_NO_POSIX)
#define _POSIX_C_SOURCE 200809L
#endif

#include "extra.h"
#include "movement.h"

#include <assert.h>
#include <ctype.h>
#include <float.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if !defined(ENGINE_NO_POSIX) && defined(__unix__)
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/select.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#define HAVE_POSIX 1
#else
#define HAVE_POSIX 0
#endif

#ifdef ENGINE_WASM
/* The course's WebAssembly build has no imports (web/README.md): without a clock it budgets
 * by nodes, and it has no output: the search reports only to the callback its caller gives.
 * Nodes per second: under a third of the ~0.5 M measured in Node and Chromium with the network
 * (tests/web/calibrate.js).
 * The page's own build (ENGINE_WASM_PAGE, web/boxer.wasm) imports the page's clock instead. */
enum { WASM_NODES_PER_SECOND = 150000 };
#ifdef ENGINE_WASM_PAGE
double web_now(void);   /* imported from env: the page's performance.now(), in milliseconds */
#endif
#endif

#define ENGINE_NAME "Boxer"
#define ENGINE_VERSION "1.0"
#define ENGINE_AUTHOR "the Boxer developers"

/* ######################################################################## */
/* The engine. Its entry points: search_run (and search_one_shot, search_game_move built on
 * it), search_table, search_free, search_pv, score_is_mate, score_mate_moves, bench_run; the
 * clock and time budgets
 * (clock_now, move_budget, time_for_clock, tt_megabytes_for); tt_clear and tt_hashfull.
 * ######################################################################## */

enum { MAX_PLY = 100, MAX_DEPTH = 64 };
enum { SCORE_INF = 32000, SCORE_MATE = 31000, SCORE_MATE_BOUND = SCORE_MATE - MAX_PLY - 1, SCORE_DRAW = 0 };
enum { BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT };
enum { KEY_HISTORY_MAX = 1024 + MAX_PLY };
enum { HASH_DEFAULT_MB = 16 };   /* the UCI Hash option's default, also the table of a match game at fixed nodes */
enum { HISTORY_MAX = 16384 };     /* history heuristic values stay within +-HISTORY_MAX */
enum { BENCH_DEPTH = 9, BENCH_HASH_MB = 16 };   /* the bench signature's depth and table */
/* search_pv's notations, and the room its text needs: MAX_PLY + 1 moves of at most 7
 * characters (exd8=Q+, e7e8q) and a space each */
enum { PV_SAN, PV_COORDINATES };
enum { PV_TEXT = 8 * (MAX_PLY + 1) };

typedef struct {
    uint32_t key;
    Move move;
    int16_t score;
    int16_t eval;
    uint8_t depth;
    uint8_t bound;
    uint8_t age;
    uint8_t pad;
} TTEntry;

enum { TT_BUCKET = 4 };
typedef struct {
    TTEntry entry[TT_BUCKET];
} TTBucket;

typedef struct {
    TTBucket *buckets;
    size_t count;       /* a power of two, or 0 when there is no table */
    size_t megabytes;   /* the size asked for (a failed allocation gives less) */
    uint8_t age;
} TransTable;

typedef struct {
    Move move;
    int score;
} ScoredMove;

typedef struct {
    ScoredMove moves[MAX_MOVES];
    int count;
    int next;
} MovePicker;

typedef struct Search Search;

/* Called by the search after each iteration, and after each aspiration-window fail with the
 * bound the score is (BOUND_LOWER or BOUND_UPPER; BOUND_EXACT for an iteration). */
typedef void (*SearchReport)(const Search *s, int depth, int score, int bound);
/* Called by the search every few hundred nodes, for its caller's input: it may stop the
 * search (s->stop = 1) or change its limits. */
typedef void (*SearchPoll)(Search *s);

/* What one search may use, and whom it tells: the search itself neither reads nor prints. */
typedef struct {
    double start;           /* clock_now() when the clock started: process start, or UCI `go` */
    double hard_deadline;   /* abort here */
    double soft_deadline;   /* start no new iteration after this */
    int depth_limit;
    uint64_t node_limit;
    int infinite;           /* UCI go infinite / ponder: a proven mate does not end the search */
    SearchReport report;    /* NULL: no report */
    SearchPoll poll;        /* NULL: nothing to poll */
} Limits;

/* One search context, with its transposition table: its caller owns it and hands it to the
 * engine's entry points (search_run and those built on it, bench_run). A zeroed Search is
 * ready, without a table; search_free releases its table. */
struct Search {
    Board board;
    Limits limits;
    TransTable tt;
    uint64_t nodes;
    int stop;
    int seldepth;
    int key_count;
    uint64_t keys[KEY_HISTORY_MAX];
    Move killers[MAX_PLY + 1][2];
    int history[2][64][64];
    Move counter[PIECE_NB][64];
    Move move_stack[MAX_PLY + 1];
    int piece_stack[MAX_PLY + 1];
    int eval_stack[MAX_PLY + 1];
    uint8_t in_check[MAX_PLY + 2];         /* the side to move at each ply is in check */
    Accumulator acc[MAX_PLY + 2];           /* the network's hidden layer at each ply */
    NetworkDelta acc_delta[MAX_PLY + 2];    /* the move into each ply, as the network sees it */
    uint8_t acc_ready[MAX_PLY + 2];         /* 1: acc[ply] is up to date */
    Move pv[MAX_PLY + 1][MAX_PLY + 1];
    int pv_len[MAX_PLY + 1];
    Move root_moves[MAX_MOVES];
    int root_count;
    Move best_move;
    int best_score;
    int completed_depth;
    int tables_used;        /* the history tables hold values (a static Search starts at zero) */
};

/* prototypes */
static double clock_now(void);
static double move_budget(double seconds);
static void time_for_clock(double left, double inc, int moves_to_go, double overhead, double *soft, double *hard);
static int time_is_up(Search *s);
static void tt_init(TransTable *tt, size_t megabytes);
static size_t tt_megabytes_for(double budget);
static void tt_free(TransTable *tt);
static void tt_clear(TransTable *tt);
static void tt_prefetch(const TransTable *tt, uint64_t key);
static TTEntry *tt_probe(TransTable *tt, uint64_t key, int *hit);
static int tt_hashfull(const TransTable *tt);
static void tt_store(TransTable *tt, uint64_t key, Move move, int score, int eval, int depth, int bound, int ply);
static int score_to_tt(int score, int ply);
static int score_from_tt(int score, int ply);
static void search_table(Search *s, size_t megabytes);
static void search_free(Search *s);
static void search_run(Search *s, const Board *board, const uint64_t *keys, int key_count, const Move *moves, int count, const Limits *limits);
static Move search_one_shot(Search *s, const Board *board, const Move *moves, int count, const uint64_t *keys, int key_count, double seconds, Limits *limits);
static Move search_game_move(Search *s, const Board *board, const uint64_t *keys, int key_count, const Limits *limits, int new_game);
static void search_pv(const Search *s, int notation, char *out, size_t size);
static int score_is_mate(int score);
static int score_mate_moves(int score);
static void iterate(Search *s);
static void report_iteration(Search *s, int depth, int score, int bound);
static void search_reset(Search *s, const Board *board, const uint64_t *keys, int key_count);
static int search_root(Search *s, int alpha, int beta, int depth);
static int search(Search *s, int alpha, int beta, int depth, int ply, int cut_node);
static int qsearch(Search *s, int alpha, int beta, int ply, int checks);
static void update_quiet_stats(Search *s, int ply, Move best, const Move *quiets, int quiet_count, int depth);
static int evaluate(Search *s, int ply);
static void push_move(Search *s, Move m, Undo *u, int ply);
static int pop_move(Search *s, Move m, const Undo *u);
static void picker_init(Search *s, MovePicker *mp, MoveList *list, Move tt_move, int ply);
static Move picker_next(MovePicker *mp, int *score);
static Move next_move(Search *s, MovePicker *mp, MoveList *list, Move tt_move, int ply, int *order);
static int see(const Board *b, Move m);
static void keep_noisy_and_checks(Board *b, MoveList *list);
static double ln(double x);
static void lmr_init(void);
static uint64_t bench_run(Search *s, int depth, int *positions);

/* =================================================================== clock */

/* Seconds on a monotonic wall clock (POSIX), or processor time where there is none; in
 * WebAssembly the page's clock (its own build) or 0 (the course's, which imports nothing). */
static double clock_now(void)
{
#ifdef ENGINE_WASM_PAGE
    return web_now() / 1000;
#elif defined(ENGINE_WASM)
    return 0;
#else
#if HAVE_POSIX && defined(CLOCK_MONOTONIC)
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) == 0)
        return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
#endif
    return (double)clock() / CLOCKS_PER_SEC;
#endif
}

/* ==================================================================== time */

/* A one-shot call keeps back ONE_SHOT_RESERVE seconds plus ONE_SHOT_RESERVE_SHARE of its limit
 * for start-up, exit and a loaded machine, and searches at least ONE_SHOT_MIN_SHARE of it. */
static const double ONE_SHOT_RESERVE = 0.035, ONE_SHOT_RESERVE_SHARE = 0.05, ONE_SHOT_MIN_SHARE = 0.2;
/* A real clock: the time left is spread over the moves to go (CLOCK_MOVES_TO_GO in sudden
 * death) plus CLOCK_INCREMENT_SHARE of the increment, the hard budget CLOCK_HARD_FACTOR times
 * that, neither above CLOCK_CAP_SHARE of what is left (CLOCK_LAST_MOVE_CAP_SHARE on the last
 * move before a new control). */
enum { CLOCK_MOVES_TO_GO = 40, CLOCK_HARD_FACTOR = 4 };
static const double CLOCK_INCREMENT_SHARE = 0.75, CLOCK_CAP_SHARE = 0.5, CLOCK_LAST_MOVE_CAP_SHARE = 0.9;
/* The smallest time left that the split counts with, in seconds. */
static const double CLOCK_MIN_LEFT = 0.001;
/* The search checks the clock, its node limit and its caller's poll every POLL_NODES nodes
 * (a power of two). */
enum { POLL_NODES = 256 };

/* The part of a one-shot limit the search may use: the rest covers start-up,
 * exit and a loaded machine. */
static double move_budget(double seconds)
{
    double budget = seconds - (ONE_SHOT_RESERVE + ONE_SHOT_RESERVE_SHARE * seconds);
    return budget > ONE_SHOT_MIN_SHARE * seconds ? budget : ONE_SHOT_MIN_SHARE * seconds;
}

/* Splits a real clock (seconds left and increment for the side to move, moves to the next
 * time control or 0 for sudden death) into a soft budget (no new iteration after it) and a
 * hard one, keeping overhead in reserve. The usual shape (chessprogramming.org "Time
 * Management"): the time left spread over the moves to go (40 in sudden death) plus most
 * of the increment; the hard budget four times that; neither above half of what is left
 * (nine tenths on the last move before a new control), so the clock shrinks geometrically. */
static void time_for_clock(double left, double inc, int moves_to_go, double overhead, double *soft, double *hard)
{
    double usable = left - overhead > CLOCK_MIN_LEFT ? left - overhead : CLOCK_MIN_LEFT;
    double cap = usable * (moves_to_go == 1 ? CLOCK_LAST_MOVE_CAP_SHARE : CLOCK_CAP_SHARE);
    double target = usable / (moves_to_go > 0 && moves_to_go < CLOCK_MOVES_TO_GO ? moves_to_go : CLOCK_MOVES_TO_GO)
                    + CLOCK_INCREMENT_SHARE * inc;
    *soft = target < cap ? target : cap;
    *hard = CLOCK_HARD_FACTOR * target < cap ? CLOCK_HARD_FACTOR * target : cap;
}

/* Checks the clock, node limit and the caller's poll every POLL_NODES nodes. */
static int time_is_up(Search *s)
{
    if (s->stop)
        return 1;
    if ((s->nodes & (POLL_NODES - 1)) != 0)
        return 0;
    if (s->limits.node_limit && s->nodes >= s->limits.node_limit)
        s->stop = 1;
    else if (s->limits.hard_deadline > 0 && clock_now() >= s->limits.hard_deadline)
        s->stop = 1;
    if (s->limits.poll)
        s->limits.poll(s);
    return s->stop;
}

/* ===================================================== transposition table */

/* Replacement: an entry counts TT_AGE_PLIES plies shallower for each search since it was
 * written; within a search, an inexact result does not replace an entry more than
 * TT_KEEP_DEPTH plies deeper. */
enum { TT_AGE_PLIES = 8, TT_KEEP_DEPTH = 2 };
/* A one-shot table: TT_MB_PER_SECOND megabytes per second of budget (two entries per node at
 * 1.2 M nodes/s), from TT_MIN_MB to TT_MAX_MB. */
enum { TT_MB_PER_SECOND = 40, TT_MIN_MB = 1, TT_MAX_MB = 64 };

/* Allocates an empty table of at most megabytes (a power of two of buckets), smaller when
 * memory is short, none at worst. */
static void tt_init(TransTable *tt, size_t megabytes)
{
    size_t count = 1;
    while (count * 2 * sizeof(TTBucket) <= megabytes * 1024 * 1024)
        count *= 2;
    tt->buckets = NULL;
    /* a failed allocation only makes the table smaller */
    while (count >= 1 && !(tt->buckets = calloc(count, sizeof(TTBucket))))
        count /= 2;
    tt->count = tt->buckets ? count : 0;
    tt->megabytes = megabytes;
    tt->age = 0;
}

/* The table a search of budget seconds fills: about 40 MB per second (two entries per
 * node at 1.2 M nodes/s). A larger one only costs time, since each first touch of one of
 * its pages is a page fault (about 9 us on our machines, a quarter of a 0.1 s move at 8 MB). */
static size_t tt_megabytes_for(double budget)
{
    double megabytes = budget * TT_MB_PER_SECOND;
    return megabytes < TT_MIN_MB ? TT_MIN_MB : megabytes > TT_MAX_MB ? TT_MAX_MB : (size_t)megabytes;
}

/* Releases the table; it is then empty, of no size. */
static void tt_free(TransTable *tt)
{
    free(tt->buckets);
    tt->buckets = NULL;
    tt->count = 0;
    tt->megabytes = 0;
}

/* Empties the table, keeping its size. */
static void tt_clear(TransTable *tt)
{
    if (tt->buckets)
        memset(tt->buckets, 0, tt->count * sizeof(TTBucket));
    tt->age = 0;
}

/* Starts loading key's bucket into the cache while the caller does other work. */
static void tt_prefetch(const TransTable *tt, uint64_t key)
{
#if defined(__GNUC__) || defined(__clang__)
    if (tt->count)
        __builtin_prefetch(&tt->buckets[key & (tt->count - 1)]);
#else
    (void)tt;
    (void)key;
#endif
}

/* Returns the entry for key (hit = 1) or the entry to replace (hit = 0). */
static TTEntry *tt_probe(TransTable *tt, uint64_t key, int *hit)
{
    static TTEntry scratch;
    TTBucket *bucket;
    TTEntry *victim;
    uint32_t check = (uint32_t)(key >> 32);
    int i;
    *hit = 0;
    if (!tt->count) {
        memset(&scratch, 0, sizeof scratch);
        return &scratch;
    }
    bucket = &tt->buckets[key & (tt->count - 1)];
    victim = &bucket->entry[0];
    for (i = 0; i < TT_BUCKET; i++) {
        TTEntry *e = &bucket->entry[i];
        if (e->key == check && e->bound != BOUND_NONE) {
            *hit = 1;
            return e;
        }
        /* replace the shallowest entry, preferring those from older searches */
        if (e->depth - TT_AGE_PLIES * (uint8_t)(tt->age - e->age)
            < victim->depth - TT_AGE_PLIES * (uint8_t)(tt->age - victim->age))
            victim = e;
    }
    return victim;
}

/* Returns how full the table is in permille (UCI hashfull): the share of the first 1000
 * entries written by the current search, as Stockfish counts it. */
static int tt_hashfull(const TransTable *tt)
{
    size_t i, used = 0, seen = 0;
    int j;
    for (i = 0; i < tt->count && seen < 1000; i++) {
        for (j = 0; j < TT_BUCKET; j++, seen++)
            used += tt->buckets[i].entry[j].bound != BOUND_NONE && tt->buckets[i].entry[j].age == tt->age;
    }
    return seen ? (int)(used * 1000 / seen) : 0;
}

/* Stores a node's result at ply (its move, score, static evaluation, depth and bound), unless
 * a deeper entry of this search is worth keeping; a result without a move keeps the old one. */
static void tt_store(TransTable *tt, uint64_t key, Move move, int score, int eval, int depth, int bound, int ply)
{
    int hit;
    TTEntry *e;
    if (!tt->count)
        return;
    e = tt_probe(tt, key, &hit);
    if (hit && move == MOVE_NONE)
        move = e->move;
    if (hit && bound != BOUND_EXACT && depth + TT_KEEP_DEPTH < e->depth && e->age == tt->age)
        return;
    e->key = (uint32_t)(key >> 32);
    e->move = move;
    e->score = (int16_t)score_to_tt(score, ply);
    e->eval = (int16_t)eval;
    e->depth = (uint8_t)depth;
    e->bound = (uint8_t)bound;
    e->age = tt->age;
}

/* Mate scores are stored relative to the node, not the root. */
static int score_to_tt(int score, int ply)
{
    return score >= SCORE_MATE_BOUND ? score + ply : score <= -SCORE_MATE_BOUND ? score - ply : score;
}

/* The reverse of score_to_tt: a stored mate score made relative to the root again. */
static int score_from_tt(int score, int ply)
{
    return score >= SCORE_MATE_BOUND ? score - ply : score <= -SCORE_MATE_BOUND ? score + ply : score;
}

/* ================================================================== search */

/* The search's margins, scores in centipawns and depths in plies. Their shapes follow
 * Stockfish, Ethereal and the Chess Programming Wiki; the values were set by hand. */
enum {
    ASPIRATION_DEPTH = 5,       /* aspiration windows from this depth on, */
    ASPIRATION_DELTA = 25,      /* this far either side of the last score, widened by half on a fail */
    RFP_DEPTH = 8,              /* reverse futility pruning up to this depth, when the evaluation */
    RFP_MARGIN = 80,            /* beats beta by this much a ply (a ply fewer when improving) */
    RAZOR_DEPTH = 2,            /* razoring up to this depth, when the evaluation stays this much */
    RAZOR_MARGIN = 250,         /* a ply below alpha */
    NMP_DEPTH = 3,              /* null move pruning from this depth on, reducing by NMP_REDUCTION */
    NMP_REDUCTION = 3,          /* plies, plus one every NMP_DEPTH_DIVISOR plies of depth, */
    NMP_DEPTH_DIVISOR = 4,
    NMP_EVAL_DIVISOR = 200,     /* plus one for every this much the evaluation beats beta by, */
    NMP_EVAL_MAX = 3,           /* that part at most this */
    IIR_DEPTH = 4,              /* internal iterative reduction from this depth on */
    LMP_DEPTH = 8,              /* late move pruning up to this depth: quiet moves after */
    LMP_BASE = 3,               /* (LMP_BASE + depth^2) / 2 of them (twice as many when improving) */
    FUTILITY_DEPTH = 6,         /* futility pruning of quiet moves up to this depth, when */
    FUTILITY_MARGIN = 100,      /* eval + FUTILITY_MARGIN + FUTILITY_PER_PLY * depth cannot reach alpha */
    FUTILITY_PER_PLY = 90,
    SEE_PRUNE_DEPTH = 6,        /* losing captures pruned up to this depth, when they lose more */
    SEE_PRUNE_PER_PLY = 100,    /* than this a ply (static exchange evaluation) */
    SEE_QUIET_DEPTH = 8,        /* quiet moves pruned up to this depth, when they lose more */
    SEE_QUIET_PER_PLY = 64,     /* than this a ply (the piece is left to be taken), while the
                                 * opponent has a piece: against a lone king or pawns every
                                 * move is searched (K+B+N against K needs them) */
    LMR_DEPTH = 3,              /* late move reductions of quiet moves from this depth on, */
    LMR_HISTORY_DIVISOR = 6000, /* a ply less for every this much history (more when it is negative) */
    ROOT_LMR_DEPTH = 3,         /* at the root from this depth on, quiet moves after the first */
    ROOT_LMR_MOVES = 4,         /* ROOT_LMR_MOVES are searched a ply shallower first */
    DELTA_MARGIN = 200,         /* the quiescence search skips a capture that, even this much ahead, stays below alpha */
    MATE_SLACK_PLIES = 4,       /* a proven mate stops the deepening this many plies past its distance */
    HISTORY_BONUS_SCALE = 16,   /* a quiet move's history changes by HISTORY_BONUS_SCALE * depth^2, */
    HISTORY_BONUS_MAX = 1600,   /* at most this */
    MVV_LVA_SCALE = 16,         /* captures order by the victim's value times this, less the attacker's type */
    SEE_MAX_CAPTURES = 32,      /* exchanges longer than this are cut */
    LMR_TABLE = 64              /* the reduction table's depths and move numbers */
};
/* The late move reduction of move number m at depth d: LMR_BASE + ln(d) ln(m) / LMR_DIVISOR. */
static const double LMR_BASE = 0.75, LMR_DIVISOR = 2.25;

static int reductions[LMR_TABLE][LMR_TABLE];

/* Move ordering: the hash move, good captures, the killers, the counter-move, then quiet
 * moves by history (below ORDER_COUNTER), losing captures last. */
enum {
    ORDER_TT = 2000000000, ORDER_GOOD_CAPTURE = 1000000000, ORDER_KILLER = 900000000,
    ORDER_COUNTER = 800000000, ORDER_BAD_CAPTURE = -1000000000
};

/* Gives s an empty table of about megabytes: its own, cleared, when it has that size already. */
static void search_table(Search *s, size_t megabytes)
{
    if (s->tt.megabytes == megabytes) {
        tt_clear(&s->tt);
    } else {
        tt_free(&s->tt);
        tt_init(&s->tt, megabytes);
    }
}

/* Releases s's table. */
static void search_free(Search *s)
{
    tt_free(&s->tt);
}

/* Searches board within limits, its root moves being moves (count of them, all legal) or, with
 * moves NULL, every legal move (one at least); keys holds the game's positions before it, for
 * repetitions. The result is in s: best_move, best_score, completed_depth, nodes, pv. */
static void search_run(Search *s, const Board *board, const uint64_t *keys, int key_count, const Move *moves, int count,
                       const Limits *limits)
{
    MoveList list;
    s->limits = *limits;
    search_reset(s, board, keys, key_count);
    if (!moves) {
        gen_legal(&s->board, &list, GEN_ALL);
        moves = list.moves;
        count = list.count;
    }
    s->root_count = count;
    memcpy(s->root_moves, moves, sizeof(Move) * (size_t)count);
    iterate(s);
}

/* Searches board's moves (count of them, all legal) in s within seconds counted from
 * limits->start, keys being the game's earlier positions for repetitions; returns the move
 * chosen, at once when there is one. The search behind one-shot, batch and match moves. */
static Move search_one_shot(Search *s, const Board *board, const Move *moves, int count, const uint64_t *keys,
                            int key_count, double seconds, Limits *limits)
{
    double budget = move_budget(seconds);
    if (count == 1)
        return moves[0];
    limits->hard_deadline = limits->start + budget;
    limits->soft_deadline = limits->start + budget;
    /* the size a one-shot call would use, so that batch lines answer as one-shot calls do */
    search_table(s, tt_megabytes_for(budget));
    search_run(s, board, keys, key_count, moves, count, limits);
    return s->best_move;
}

/* Searches every legal move of board (one at least) in s within limits as the UCI engine does
 * in a game, so that a fixed-node match against our own UCI build is between equals: a table
 * of the UCI default size kept from move to move and cleared when new_game is set, keys being
 * the game's positions so far. Returns the move; its score (side to move's view) is in
 * s->best_score and the depth completed in s->completed_depth (0: no score). */
static Move search_game_move(Search *s, const Board *board, const uint64_t *keys, int key_count, const Limits *limits,
                             int new_game)
{
    if (new_game || s->tt.megabytes != HASH_DEFAULT_MB)
        search_table(s, HASH_DEFAULT_MB);
    search_run(s, board, keys, key_count, NULL, 0, limits);
    return s->best_move;
}

/* Writes the principal variation in SAN (PV_SAN) or coordinates (PV_COORDINATES), the moves
 * separated by spaces, as far as it stays legal and fits in size (PV_TEXT holds it all). */
static void search_pv(const Search *s, int notation, char *out, size_t size)
{
    Board b = s->board;
    Undo u;
    int i;
    size_t used = 0;
    out[0] = '\0';
    for (i = 0; i < s->pv_len[0] && move_is_legal(&b, s->pv[0][i]); i++) {
        char move[SAN_MAX];
        if (notation == PV_SAN)
            move_to_san(&b, s->pv[0][i], move);
        else
            move_to_uci(s->pv[0][i], move);
        if (used + strlen(move) + 2 > size)
            break;
        used += (size_t)snprintf(out + used, size - used, "%s%s", i ? " " : "", move);
        board_make(&b, s->pv[0][i], &u);
    }
}

/* Returns 1 if score announces a mate, for either side. */
static int score_is_mate(int score)
{
    return abs(score) >= SCORE_MATE_BOUND;
}

/* Returns a mate score as the moves to mate, as UCI's `score mate N` counts them: positive
 * when the side to move mates, negative when it is mated (a mate score is SCORE_MATE less
 * the plies to mate); 0 for any other score. */
static int score_mate_moves(int score)
{
    if (!score_is_mate(score))
        return 0;
    return score > 0 ? (SCORE_MATE - score + 1) / 2 : -(SCORE_MATE + score) / 2;
}

/* Iterative deepening with aspiration windows. */
static void iterate(Search *s)
{
    int depth, score = 0, max_depth = s->limits.depth_limit ? s->limits.depth_limit : MAX_DEPTH;
    s->best_move = s->root_moves[0];
    s->eval_stack[0] = s->in_check[0] ? -SCORE_INF : evaluate(s, 0);
    for (depth = 1; depth <= max_depth; depth++) {
        int delta = ASPIRATION_DELTA, alpha = -SCORE_INF, beta = SCORE_INF;
        if (depth >= ASPIRATION_DEPTH) {
            alpha = score - delta > -SCORE_INF ? score - delta : -SCORE_INF;
            beta = score + delta < SCORE_INF ? score + delta : SCORE_INF;
        }
        for (;;) {
            int result = search_root(s, alpha, beta, depth);
            if (s->stop)
                break;
            if (result <= alpha) {
                report_iteration(s, depth, result, BOUND_UPPER);
                beta = (alpha + beta) / 2;
                alpha = result - delta > -SCORE_INF ? result - delta : -SCORE_INF;
            } else if (result >= beta) {
                report_iteration(s, depth, result, BOUND_LOWER);
                beta = result + delta < SCORE_INF ? result + delta : SCORE_INF;
            } else {
                score = result;
                break;
            }
            delta += delta / 2;
        }
        if (s->stop)
            break;
        s->completed_depth = depth;
        s->best_move = s->root_moves[0];
        s->best_score = score;
        report_iteration(s, depth, score, BOUND_EXACT);
        if (s->limits.soft_deadline > 0 && clock_now() >= s->limits.soft_deadline)
            break;
        if (score_is_mate(score) && depth >= 2 * (SCORE_MATE - abs(score)) + MATE_SLACK_PLIES
            && !s->limits.infinite)
            break;
    }
}

/* Reports an iteration, or an aspiration fail with its bound, to the caller's report if any. */
static void report_iteration(Search *s, int depth, int score, int bound)
{
    if (s->limits.report)
        s->limits.report(s, depth, score, bound);
}

/* Starts a search of board in s: the counters, the game's keys (the last KEY_HISTORY_MAX -
 * MAX_PLY - 2 of them, board's own added), empty history tables, the table a search older. */
static void search_reset(Search *s, const Board *board, const uint64_t *keys, int key_count)
{
    static int lmr_ready;
    if (!lmr_ready) {
        lmr_init();
        lmr_ready = 1;
    }
    s->board = *board;
    s->in_check[0] = board_in_check(board);
    nnue_refresh(&s->acc[0], board);
    s->acc_ready[0] = 1;
    s->nodes = 0;
    s->stop = 0;
    s->seldepth = 0;
    if (key_count > KEY_HISTORY_MAX - MAX_PLY - 2) {
        keys += key_count - (KEY_HISTORY_MAX - MAX_PLY - 2);
        key_count = KEY_HISTORY_MAX - MAX_PLY - 2;
    }
    if (keys && key_count > 0)
        memcpy(s->keys, keys, sizeof(uint64_t) * (size_t)key_count);
    s->key_count = key_count;
    if (s->key_count == 0 || s->keys[s->key_count - 1] != board->key)
        s->keys[s->key_count++] = board->key;
    if (s->tables_used) {
        /* a one-shot call skips this: clearing zero pages would only fault them in */
        memset(s->killers, 0, sizeof s->killers);
        memset(s->history, 0, sizeof s->history);
        memset(s->counter, 0, sizeof s->counter);
    }
    s->tables_used = 1;
    memset(s->move_stack, 0, sizeof s->move_stack);
    s->best_move = MOVE_NONE;
    s->best_score = 0;
    s->completed_depth = 0;
    s->tt.age++;
}

/* Searches the root moves (those the caller listed), best first, within (alpha, beta). */
static int search_root(Search *s, int alpha, int beta, int depth)
{
    int i, best = -SCORE_INF, score;
    for (i = 0; i < s->root_count; i++) {
        Move m = s->root_moves[i];
        Undo u;
        int new_depth = depth - 1, quiet = !move_is_capture(&s->board, m) && move_kind(m) != KIND_PROMOTION;
        push_move(s, m, &u, 0);
        if (s->in_check[1])
            new_depth++;
        if (i == 0) {
            score = -search(s, -beta, -alpha, new_depth, 1, 0);
        } else {
            int r = depth >= ROOT_LMR_DEPTH && i >= ROOT_LMR_MOVES && quiet ? 1 : 0;
            score = -search(s, -alpha - 1, -alpha, new_depth - r, 1, 1);
            if (score > alpha && score < beta)
                score = -search(s, -beta, -alpha, new_depth, 1, 0);
        }
        if (pop_move(s, m, &u))
            break;
        if (score > best) {
            best = score;
            if (score > alpha) {
                int j;
                alpha = score;
                /* a move that beat the first one is proven better: keep it even if time runs out */
                s->best_move = m;
                s->best_score = score;
                s->pv[0][0] = m;
                for (j = 1; j < s->pv_len[1]; j++)
                    s->pv[0][j] = s->pv[1][j];
                s->pv_len[0] = s->pv_len[1] > 1 ? s->pv_len[1] : 1;
                memmove(&s->root_moves[1], &s->root_moves[0], sizeof(Move) * (size_t)i);
                s->root_moves[0] = m;
                if (score >= beta)
                    break;
            }
        }
    }
    return best;
}

/* The principal variation search of the position at ply, to depth, within (alpha, beta);
 * cut_node: a node expected to fail high. Returns its score for the side to move (0 once the
 * search stops). */
static int search(Search *s, int alpha, int beta, int depth, int ply, int cut_node)
{
    Board *b = &s->board;
    int pv_node = beta - alpha > 1;
    MoveList list;
    MovePicker mp;
    TTEntry *entry;
    Move m, best_move = MOVE_NONE, tt_move = MOVE_NONE, quiets[MAX_MOVES];
    int hit, in_check, eval, best = -SCORE_INF, score, moves_tried = 0, quiet_count = 0;
    int old_alpha = alpha, improving, order, tt_depth = 0, tt_bound = BOUND_NONE, tt_score = 0;
    int pieces; /* the side to move has more than pawns: no zugzwang feared */
    CheckSquares cs;
    int cs_ready = 0; /* cs is found at the first pruning that needs it */

    /* Step 1. Leaves go to the quiescence search. */
    if (depth <= 0)
        return qsearch(s, alpha, beta, ply, 1);
    s->pv_len[ply] = ply;
    if (ply > s->seldepth)
        s->seldepth = ply;
    if (time_is_up(s))
        return 0;

    /* Step 2. Draws by rule, and mate distance pruning. */
    if (ply > 0) {
        /* a position seen once before is a draw: the side that can repeat it can do so again */
        if (board_drawn_by_rule(b, s->keys, s->key_count, 1))
            return SCORE_DRAW;
        if (ply >= MAX_PLY)
            return evaluate(s, ply);
        if (alpha < -SCORE_MATE + ply)
            alpha = -SCORE_MATE + ply;
        if (beta > SCORE_MATE - ply - 1)
            beta = SCORE_MATE - ply - 1;
        if (alpha >= beta)
            return alpha;
    }

    /* Step 3. Transposition table: cut off in non-PV nodes with a deep enough entry. */
    entry = tt_probe(&s->tt, b->key, &hit);
    if (hit) {
        tt_move = entry->move;
        tt_depth = entry->depth;
        tt_bound = entry->bound;
        tt_score = score_from_tt(entry->score, ply);
        if (!pv_node && tt_depth >= depth
            && ((tt_bound == BOUND_EXACT) || (tt_bound == BOUND_LOWER && tt_score >= beta)
                || (tt_bound == BOUND_UPPER && tt_score <= alpha)))
            return tt_score;
    }

    /* Step 4. Static evaluation. */
    in_check = s->in_check[ply];
    assert(in_check == board_in_check(b));
    pieces = board_has_pieces(b, b->side);
    if (in_check) {
        eval = s->eval_stack[ply] = -SCORE_INF;
        improving = 0;
    } else {
        eval = s->eval_stack[ply] = hit ? entry->eval : evaluate(s, ply);
        if (hit && tt_bound != BOUND_NONE
            && (tt_bound == BOUND_EXACT || (tt_bound == BOUND_LOWER) == (tt_score > eval)))
            eval = tt_score;
        improving = ply >= 2 && s->eval_stack[ply] > s->eval_stack[ply - 2];
    }

    if (!pv_node && !in_check) {
        /* Step 5. Reverse futility pruning: far above beta at low depth. */
        if (depth <= RFP_DEPTH && eval - RFP_MARGIN * (depth - improving) >= beta && abs(beta) < SCORE_MATE_BOUND)
            return eval;

        /* Step 5b. Razoring: far below alpha near the leaves, the quiescence search decides. */
        if (depth <= RAZOR_DEPTH && eval + RAZOR_MARGIN * depth <= alpha) {
            score = qsearch(s, alpha, alpha + 1, ply, 1);
            if (score <= alpha)
                return score;
        }

        /* Step 6. Null move pruning, not in pawn endings (zugzwang). */
        if (depth >= NMP_DEPTH && eval >= beta && s->move_stack[ply - 1 >= 0 ? ply - 1 : 0] != MOVE_NONE
            && pieces && ply > 0) {
            Undo u;
            int r = NMP_REDUCTION + depth / NMP_DEPTH_DIVISOR
                    + ((eval - beta) / NMP_EVAL_DIVISOR < NMP_EVAL_MAX ? (eval - beta) / NMP_EVAL_DIVISOR : NMP_EVAL_MAX);
            push_move(s, MOVE_NONE, &u, ply);
            score = -search(s, -beta, -beta + 1, depth - r, ply + 1, !cut_node);
            if (pop_move(s, MOVE_NONE, &u))
                return 0;
            if (score >= beta)
                return score >= SCORE_MATE_BOUND ? beta : score;
        }
    }

    /* Step 7. Internal iterative reduction: without a hash move, search shallower. */
    if (depth >= IIR_DEPTH && tt_move == MOVE_NONE && (pv_node || cut_node))
        depth--;

    /* Step 8. The move loop: the hash move first, then the generated moves in order. */
    if (ply + 1 <= MAX_PLY)
        s->killers[ply + 1][0] = s->killers[ply + 1][1] = MOVE_NONE;
    if (tt_move != MOVE_NONE && !move_is_legal(b, tt_move))
        tt_move = MOVE_NONE;
    mp.count = -1;
    while ((m = next_move(s, &mp, &list, tt_move, ply, &order)) != MOVE_NONE) {
        Undo u;
        int quiet = !move_is_capture(b, m) && move_kind(m) != KIND_PROMOTION;
        int new_depth = depth - 1, gives_check, r = 0;

        /* Step 9. Prune late quiet moves, losing quiet moves and losing captures at low depth,
         * never checks. */
        if (best > -SCORE_MATE_BOUND && ply > 0 && !in_check && pieces) {
            int prune = 0;
            if (quiet && !pv_node && depth <= LMP_DEPTH && quiet_count >= (LMP_BASE + depth * depth) / (2 - improving))
                prune = 1;
            else if (quiet && !pv_node && depth <= FUTILITY_DEPTH
                     && eval + FUTILITY_MARGIN + FUTILITY_PER_PLY * depth <= alpha && order < ORDER_COUNTER)
                prune = 1;
            else if (quiet && depth <= SEE_QUIET_DEPTH && board_has_pieces(b, !b->side)
                     && see(b, m) < -SEE_QUIET_PER_PLY * depth)
                prune = 1;
            else if (!quiet && depth <= SEE_PRUNE_DEPTH && order < ORDER_GOOD_CAPTURE && order != ORDER_TT
                     && see(b, m) < -SEE_PRUNE_PER_PLY * depth)
                prune = 1;
            if (prune) {
                if (!cs_ready) {
                    check_squares(b, &cs);
                    cs_ready = 1;
                }
                if (!move_checks(b, &cs, m))
                    continue;
            }
        }

        push_move(s, m, &u, ply);
        gives_check = s->in_check[ply + 1];
        moves_tried++;
        if (quiet)
            quiets[quiet_count++] = m;

        /* Step 10. Check extension. */
        if (gives_check)
            new_depth++;

        /* Step 11. Late move reductions, then the principal variation search. */
        if (depth >= LMR_DEPTH && moves_tried > 1 + pv_node && quiet && !in_check) {
            r = reductions[depth < LMR_TABLE ? depth : LMR_TABLE - 1][moves_tried < LMR_TABLE ? moves_tried : LMR_TABLE - 1];
            r += !pv_node + !improving - (order >= ORDER_COUNTER) - gives_check;
            if (order < ORDER_COUNTER)
                r -= order / LMR_HISTORY_DIVISOR;
            if (r < 0)
                r = 0;
            if (r > new_depth - 1)
                r = new_depth - 1;
        }
        if (moves_tried == 1) {
            score = -search(s, -beta, -alpha, new_depth, ply + 1, 0);
        } else {
            score = -search(s, -alpha - 1, -alpha, new_depth - r, ply + 1, 1);
            if (r > 0 && score > alpha)
                score = -search(s, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
            if (pv_node && score > alpha && score < beta)
                score = -search(s, -beta, -alpha, new_depth, ply + 1, 0);
        }
        if (pop_move(s, m, &u))
            return 0;

        if (score > best) {
            best = score;
            if (score > alpha) {
                int i;
                best_move = m;
                alpha = score;
                s->pv[ply][ply] = m;
                for (i = ply + 1; i < s->pv_len[ply + 1]; i++)
                    s->pv[ply][i] = s->pv[ply + 1][i];
                s->pv_len[ply] = s->pv_len[ply + 1] > ply + 1 ? s->pv_len[ply + 1] : ply + 1;
                if (score >= beta) {
                    if (quiet)
                        update_quiet_stats(s, ply, m, quiets, quiet_count, depth);
                    break;
                }
            }
        }
    }
    if (moves_tried == 0 && mp.count == 0)
        return in_check ? -SCORE_MATE + ply : SCORE_DRAW;
    if (moves_tried == 0)
        return alpha; /* everything was pruned: fail low */

    /* Step 12. Store the result. */
    tt_store(&s->tt, b->key, best_move, best, in_check ? 0 : s->eval_stack[ply], depth,
             best >= beta ? BOUND_LOWER : alpha > old_alpha ? BOUND_EXACT : BOUND_UPPER, ply);
    return best;
}

/* The quiescence search at ply: the static evaluation (stand pat) against captures and
 * promotions, and with `checks` (its first ply) quiet checks that do not lose material by
 * SEE; every move when in check. Returns the score for the side to move. */
static int qsearch(Search *s, int alpha, int beta, int ply, int checks)
{
    Board *b = &s->board;
    MoveList list;
    MovePicker mp;
    TTEntry *entry;
    Move m, best_move = MOVE_NONE, tt_move = MOVE_NONE;
    int in_check, stand_pat, best, hit, score, old_alpha = alpha, order;

    if (ply > s->seldepth)
        s->seldepth = ply;
    if (time_is_up(s))
        return 0;
    if (ply >= MAX_PLY)
        return evaluate(s, ply);
    if (board_drawn_by_rule(b, s->keys, s->key_count, 1))
        return SCORE_DRAW;

    entry = tt_probe(&s->tt, b->key, &hit);
    if (hit) {
        int tt_score = score_from_tt(entry->score, ply);
        tt_move = entry->move;
        if ((entry->bound == BOUND_EXACT) || (entry->bound == BOUND_LOWER && tt_score >= beta)
            || (entry->bound == BOUND_UPPER && tt_score <= alpha))
            return tt_score;
    }
    in_check = s->in_check[ply];
    assert(in_check == board_in_check(b));
    if (in_check) {
        best = stand_pat = -SCORE_INF;
    } else {
        stand_pat = best = hit ? entry->eval : evaluate(s, ply);
        if (best >= beta)
            return best;
        if (best > alpha)
            alpha = best;
    }
    gen_legal(b, &list, in_check || checks ? GEN_ALL : GEN_NOISY);
    if (in_check && list.count == 0)
        return -SCORE_MATE + ply;
    if (!in_check && checks)
        keep_noisy_and_checks(b, &list);
    picker_init(s, &mp, &list, tt_move, ply);
    while ((m = picker_next(&mp, &order)) != MOVE_NONE) {
        Undo u;
        if (!in_check && checks && !move_is_capture(b, m) && move_kind(m) != KIND_PROMOTION) {
            /* a quiet check (the list keeps no other quiet move) that does not lose material */
            if (see(b, m) < 0)
                continue;
        } else if (!in_check) {
            /* skip losing captures and those that cannot reach alpha (delta pruning) */
            if (order < ORDER_GOOD_CAPTURE && order != ORDER_TT)
                continue;
            if (move_kind(m) != KIND_PROMOTION
                && stand_pat + eval_piece_value(piece_type(b->squares[move_to(m)])) + DELTA_MARGIN <= alpha
                && move_kind(m) != KIND_EN_PASSANT)
                continue;
        }
        push_move(s, m, &u, ply);
        score = -qsearch(s, -beta, -alpha, ply + 1, 0);
        if (pop_move(s, m, &u))
            return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                alpha = score;
                if (score >= beta)
                    break;
            }
        }
    }
    tt_store(&s->tt, b->key, best_move, best, stand_pat == -SCORE_INF ? 0 : stand_pat, 0,
             best >= beta ? BOUND_LOWER : alpha > old_alpha ? BOUND_EXACT : BOUND_UPPER, ply);
    return best;
}

/* Keeps in list its captures, promotions and checks, in their order. */
static void keep_noisy_and_checks(Board *b, MoveList *list)
{
    CheckSquares cs;
    int i, kept = 0;
    check_squares(b, &cs);
    for (i = 0; i < list->count; i++) {
        Move m = list->moves[i];
        if (move_is_capture(b, m) || move_kind(m) == KIND_PROMOTION || move_checks(b, &cs, m))
            list->moves[kept++] = m;
    }
    list->count = kept;
}

/* After the quiet move best cut off at ply and depth: a killer, the counter-move of the move
 * before, a history bonus for it and a malus for the quiet moves tried before it. */
static void update_quiet_stats(Search *s, int ply, Move best, const Move *quiets, int quiet_count, int depth)
{
    int side = s->board.side, i;
    int bonus = depth * depth * HISTORY_BONUS_SCALE > HISTORY_BONUS_MAX ? HISTORY_BONUS_MAX : depth * depth * HISTORY_BONUS_SCALE;
    if (s->killers[ply][0] != best) {
        s->killers[ply][1] = s->killers[ply][0];
        s->killers[ply][0] = best;
    }
    if (ply > 0 && s->move_stack[ply - 1] != MOVE_NONE)
        s->counter[s->piece_stack[ply - 1]][move_to(s->move_stack[ply - 1])] = best;
    for (i = 0; i < quiet_count; i++) {
        int *h = &s->history[side][move_from(quiets[i])][move_to(quiets[i])];
        int delta = quiets[i] == best ? bonus : -bonus;
        /* history gravity keeps values within +-HISTORY_MAX */
        *h += delta - *h * bonus / HISTORY_MAX;
    }
}

/* Asserts that the accumulator brought up to date move by move equals one computed from
 * the board; like check_board in movement.c, only debug builds (ENGINE_DEBUG) pay for it. */
static void check_accumulator(const Search *s, int ply)
{
#ifdef ENGINE_DEBUG
    static Accumulator fresh;
    nnue_refresh(&fresh, &s->board);
    assert(memcmp(&fresh, &s->acc[ply], sizeof fresh) == 0);
#else
    (void)s;
    (void)ply;
#endif
}

/* Returns the evaluation at ply for the side to move, bringing the network's accumulator
 * up to date first: moves only record what they change, and the accumulators are updated
 * from the last one that is ready when a position is evaluated. */
static int evaluate(Search *s, int ply)
{
    int k = ply;
    while (!s->acc_ready[k])
        k--;
    for (; k < ply; k++) {
        nnue_apply(&s->acc[k + 1], &s->acc[k], &s->acc_delta[k + 1]);
        s->acc_ready[k + 1] = 1;
    }
    check_accumulator(s, ply);
    return eval_network(&s->board, &s->acc[ply]);
}

/* Makes m (MOVE_NONE: the null move) at ply: the board, the path's moves and keys, what it
 * changes for the network, whether it gives check, the node count; starts loading the new
 * position's table bucket. */
static void push_move(Search *s, Move m, Undo *u, int ply)
{
    nnue_delta(&s->board, m, &s->acc_delta[ply + 1]);
    s->acc_ready[ply + 1] = 0;
    s->move_stack[ply] = m;
    s->piece_stack[ply] = m == MOVE_NONE ? 0 : s->board.squares[move_from(m)];
    if (m == MOVE_NONE)
        board_make_null(&s->board, u);
    else
        board_make(&s->board, m, u);
    s->keys[s->key_count++] = s->board.key;
    /* found once per node here, read by the node and by its parent (a null move never checks) */
    s->in_check[ply + 1] = m != MOVE_NONE && board_in_check(&s->board);
    s->nodes++;
    tt_prefetch(&s->tt, s->board.key);
}

/* Unmakes m as push_move made it; returns 1 if the search is stopping (s->stop), when the
 * score just found means nothing and the caller unwinds at once. */
static int pop_move(Search *s, Move m, const Undo *u)
{
    s->key_count--;
    if (m == MOVE_NONE)
        board_unmake_null(&s->board, u);
    else
        board_unmake(&s->board, m, u);
    return s->stop;
}

/* Scores the moves of list for ordering at ply: the hash move, captures by MVV-LVA (losing
 * ones and under-promotions last), killers, the counter-move, then quiet moves by history. */
static void picker_init(Search *s, MovePicker *mp, MoveList *list, Move tt_move, int ply)
{
    const Board *b = &s->board;
    Move counter = MOVE_NONE;
    int i;
    if (ply > 0 && s->move_stack[ply - 1] != MOVE_NONE)
        counter = s->counter[s->piece_stack[ply - 1]][move_to(s->move_stack[ply - 1])];
    mp->count = list->count;
    mp->next = 0;
    for (i = 0; i < list->count; i++) {
        Move m = list->moves[i];
        int score;
        if (m == tt_move) {
            score = ORDER_TT;
        } else if (move_is_capture(b, m) || move_kind(m) == KIND_PROMOTION) {
            int victim = move_kind(m) == KIND_EN_PASSANT ? PAWN : piece_type(b->squares[move_to(m)]);
            int mvv_lva = eval_piece_value(victim) * MVV_LVA_SCALE - piece_type(b->squares[move_from(m)])
                        + (move_kind(m) == KIND_PROMOTION ? eval_piece_value(move_promo(m)) * MVV_LVA_SCALE : 0);
            int cheap = eval_piece_value(victim) >= eval_piece_value(piece_type(b->squares[move_from(m)]));
            /* under-promotions go last, with the losing captures (the quiescence search skips them) */
            int under = move_kind(m) == KIND_PROMOTION && move_promo(m) != QUEEN;
            score = (!under && (cheap || see(b, m) >= 0) ? ORDER_GOOD_CAPTURE : ORDER_BAD_CAPTURE) + mvv_lva;
        } else if (m == s->killers[ply][0]) {
            score = ORDER_KILLER + 1;
        } else if (m == s->killers[ply][1]) {
            score = ORDER_KILLER;
        } else if (m == counter) {
            score = ORDER_COUNTER;
        } else {
            score = s->history[b->side][move_from(m)][move_to(m)];
        }
        mp->moves[i].move = m;
        mp->moves[i].score = score;
    }
}

/* Returns the best remaining move (selection sort step), or MOVE_NONE. */
static Move picker_next(MovePicker *mp, int *score)
{
    int best = mp->next, i;
    ScoredMove tmp;
    if (mp->next >= mp->count)
        return MOVE_NONE;
    for (i = mp->next + 1; i < mp->count; i++)
        if (mp->moves[i].score > mp->moves[best].score)
            best = i;
    tmp = mp->moves[best];
    mp->moves[best] = mp->moves[mp->next];
    mp->moves[mp->next++] = tmp;
    if (score)
        *score = tmp.score;
    return tmp.move;
}

/* Returns the hash move first (mp->count is -1 until then), then the generated moves
 * best first without the hash move; MOVE_NONE at the end. */
static Move next_move(Search *s, MovePicker *mp, MoveList *list, Move tt_move, int ply, int *order)
{
    Move m;
    if (mp->count < 0) {
        mp->count = 0;
        mp->next = 0;
        if (tt_move != MOVE_NONE) {
            *order = ORDER_TT;
            return tt_move;
        }
    }
    if (mp->next == 0 && mp->count == 0) {
        gen_legal(&s->board, list, GEN_ALL);
        picker_init(s, mp, list, tt_move, ply);
    }
    while ((m = picker_next(mp, order)) == tt_move && m != MOVE_NONE)
        ;
    return m;
}

/* Static exchange evaluation of a capture: the material balance after the best
 * sequence of recaptures on the target square. */
static int see(const Board *b, Move m)
{
    int gain[SEE_MAX_CAPTURES], n = 0, from = move_from(m), to = move_to(m), side = b->side;
    int attacker = piece_type(b->squares[from]);
    uint64_t occ = b->occupied[WHITE] | b->occupied[BLACK], att, queens, diagonal, straight;

    gain[0] = move_kind(m) == KIND_EN_PASSANT ? VALUE_PAWN : eval_piece_value(piece_type(b->squares[to]));
    if (move_kind(m) == KIND_PROMOTION) {
        gain[0] += eval_piece_value(move_promo(m)) - VALUE_PAWN;
        attacker = move_promo(m);
    }
    occ &= ~((uint64_t)1 << from);
    if (move_kind(m) == KIND_EN_PASSANT)
        occ &= ~((uint64_t)1 << (side == WHITE ? to - 8 : to + 8));
    att = attackers_to(b, to, occ);
    queens = b->pieces[make_piece(WHITE, QUEEN)] | b->pieces[make_piece(BLACK, QUEEN)];
    diagonal = b->pieces[make_piece(WHITE, BISHOP)] | b->pieces[make_piece(BLACK, BISHOP)] | queens;
    straight = b->pieces[make_piece(WHITE, ROOK)] | b->pieces[make_piece(BLACK, ROOK)] | queens;
    for (;;) {
        int type, sq = NO_SQUARE;
        uint64_t mine;
        side = !side;
        mine = att & b->occupied[side] & occ;
        if (!mine)
            break;
        for (type = PAWN; type <= KING; type++)
            if (mine & b->pieces[make_piece(side, type)]) {
                sq = bit_first(mine & b->pieces[make_piece(side, type)]);
                break;
            }
        n++;
        gain[n] = eval_piece_value(attacker) - gain[n - 1];
        if (type == KING && (attackers_to(b, to, occ & ~((uint64_t)1 << sq)) & b->occupied[!side] & occ)) {
            n--; /* the king may not capture into a defended square */
            break;
        }
        attacker = type;
        occ &= ~((uint64_t)1 << sq);
        /* only a slider behind the piece that left can join in (an x-ray) */
        if (type == PAWN || type == BISHOP || type == QUEEN)
            att |= slider_attacks(BISHOP, to, occ) & diagonal;
        if (type == ROOK || type == QUEEN)
            att |= slider_attacks(ROOK, to, occ) & straight;
        if (n >= SEE_MAX_CAPTURES - 1)
            break;
    }
    while (n > 0) {
        if (-gain[n] < gain[n - 1])
            gain[n - 1] = -gain[n];
        n--;
    }
    return gain[0];
}

/* Natural logarithm for the reduction table, without libm. */
static double ln(double x)
{
    double z, z2, sum = 0, term;
    int k = 0, i;
    while (x >= 2) {
        x /= 2;
        k++;
    }
    z = (x - 1) / (x + 1);
    z2 = z * z;
    term = z;
    for (i = 1; i < 40; i += 2) {
        sum += term / i;
        term *= z2;
    }
    return 2 * sum + k * 0.69314718055994531;
}

/* Late move reductions grow with log(depth) * log(move number) (the Stockfish shape). */
static void lmr_init(void)
{
    int d, m;
    for (d = 1; d < LMR_TABLE; d++)
        for (m = 1; m < LMR_TABLE; m++)
            reductions[d][m] = (int)(LMR_BASE + ln(d) * ln(m) / LMR_DIVISOR);
}

/* =================================================================== bench */

/* Searches the bench positions to depth in s, each with fresh tables (a table of BENCH_HASH_MB);
 * returns the nodes searched (the bench signature) and sets positions to their number. */
static uint64_t bench_run(Search *s, int depth, int *positions)
{
    static const char *const POSITIONS[] = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "2r3k1/pp3ppp/2n1b3/3p4/3P4/2PB1N2/P4PPP/R5K1 w - - 0 20",
        "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
        "8/8/1p1k4/p1p5/P1P5/1P1K4/8/8 w - - 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        "8/8/8/4k3/8/8/8/4KQ2 w - - 0 1",
        "3r1rk1/p5pp/bpp1pp2/8/q1PP1P2/b3P3/P2NQRPP/1R2B1K1 b - - 6 22",
        "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 7",
        "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
        "8/5pk1/6p1/7p/3R4/6PP/r4P1K/8 b - - 0 40",
    };
    Limits limits;
    uint64_t total = 0;
    size_t i;
    memset(&limits, 0, sizeof limits);
    limits.depth_limit = depth;
    search_table(s, BENCH_HASH_MB);
    for (i = 0; i < sizeof POSITIONS / sizeof POSITIONS[0]; i++) {
        Board b;
        char err[200];
        int ok = board_from_fen(&b, POSITIONS[i], err, sizeof err);
        assert(ok);
        (void)ok;
        tt_clear(&s->tt);
        search_run(s, &b, NULL, 0, NULL, 0, &limits);
        total += s->nodes;
    }
    *positions = (int)(sizeof POSITIONS / sizeof POSITIONS[0]);
    return total;
}

/* ######################################################################## */
/* The front ends: each calls the engine's entry points above, never the reverse.
 * ######################################################################## */

/* ================================================================== shared */

/* What the front ends share: number parsing, one-line messages, the report line of a search,
 * the one-shot decision, the diagnostics (board, perft, eval, bench). */

enum { EXIT_USAGE = 2, EXIT_BAD_FEN = 3, EXIT_BAD_MOVES = 4 };
enum { WARNING_MAX = 400 };        /* bytes of the warning line about ignored tokens */
enum { REPORT_LINE = PV_TEXT + 100 };  /* report_text's line: the PV and some 80 bytes */

/* prototypes */
static void print_line(FILE *out, const char *format, ...);
static int parse_seconds(const char *s, double *out);
static int parse_count(const char *s, long long max, long long *out);
static int parse_decimal(const char *s, const char **end, double *out);
static int parse_options(int argc, char **argv, const char *mode, int (*take)(void *options, const char *key, const char *value), void *options);
static void report_text(const Search *s, int depth, int score, int bound, char *out, size_t size);
static void report_verbose(const Search *s, int depth, int score, int bound);
static int decide(Search *s, const char *fen, const char *moves, double seconds, Limits *limits, int *index, char *err, size_t err_size, char *warning, size_t warning_size);
static void warn_token(char *warning, size_t size, const char *token, size_t len, const char *why);
static void show_board(const Board *b);
static void show_perft(Board *b, int depth);
static void show_eval(const Board *b);
static int run_bench(Search *s, int depth);

/* Prints one line to out: the formatted text, cut to 511 bytes, each byte that is not
 * printable ASCII (a newline, escape or UTF-8 byte quoted from the input) as '?'. */
static void print_line(FILE *out, const char *format, ...)
{
    char line[512];
    va_list ap;
    size_t i;
    va_start(ap, format);
    vsnprintf(line, sizeof line, format, ap);
    va_end(ap);
    for (i = 0; line[i]; i++)
        if (!isprint((unsigned char)line[i]))
            line[i] = '?';
    fprintf(out, "%s\n", line);
}

/* Parses a positive decimal number of seconds, at most a day, with any whitespace around it
 * (" 1 ", "3\n", as shell variables and files give it). */
static int parse_seconds(const char *s, double *out)
{
    double value = 0, scale = 1;
    int digits = 0;
    while (isspace((unsigned char)*s))
        s++;
    for (; isdigit((unsigned char)*s); s++, digits++) {
        value = value * 10 + (*s - '0');
        if (value > 86400)
            return 0;
    }
    if (*s == '.') {
        for (s++; isdigit((unsigned char)*s); s++, digits++) {
            scale /= 10;
            value += (*s - '0') * scale;
        }
    }
    while (isspace((unsigned char)*s))
        s++;
    if (*s != '\0' || digits == 0 || value <= 0 || value > 86400)
        return 0;
    *out = value;
    return 1;
}

/* Parses a decimal count from 1 to max. */
static int parse_count(const char *s, long long max, long long *out)
{
    long long value = 0;
    if (!*s)
        return 0;
    for (; *s; s++) {
        if (!isdigit((unsigned char)*s))
            return 0;
        value = value * 10 + (*s - '0');
        if (value > max)
            return 0;
    }
    if (value < 1)
        return 0;
    *out = value;
    return 1;
}

/* Reads a mode's options, `--key value` pairs from argv[2] on, handing each to take (which
 * returns 1 if it knows the key and the value is good) with options; returns 0, or EXIT_USAGE
 * after one error line naming the first pair refused. */
static int parse_options(int argc, char **argv, const char *mode, int (*take)(void *options, const char *key, const char *value),
                         void *options)
{
    int i;
    for (i = 2; i < argc; i += 2) {
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (!value || !take(options, argv[i], value)) {
            print_line(stderr, "error: %s: bad option '%.60s%s%.60s' (see --help)", mode, argv[i], value ? " " : "",
                       value ? value : "");
            return EXIT_USAGE;
        }
    }
    return 0;
}

/* Parses a decimal number with an optional sign and fraction (-5, 0.05, +2.5), at most a
 * million in size, up to the first other character (left in *end). */
static int parse_decimal(const char *s, const char **end, double *out)
{
    double value = 0, scale = 1;
    int negative = *s == '-', digits = 0;
    if (*s == '-' || *s == '+')
        s++;
    for (; isdigit((unsigned char)*s) && value <= 1e6; s++, digits++)
        value = value * 10 + (*s - '0');
    if (*s == '.')
        for (s++; isdigit((unsigned char)*s); s++, digits++)
            value += (*s - '0') * (scale /= 10);
    *end = s;
    *out = negative ? -value : value;
    return digits > 0 && value <= 1e6;
}

/* Writes an iteration's report as --verbose shows it (and the page reads it, web/boxer.js):
 * depth, score (cp, or mate in moves), nodes, time, the principal variation in SAN, and the
 * bound of an aspiration fail. */
static void report_text(const Search *s, int depth, int score, int bound, char *out, size_t size)
{
    double elapsed = clock_now() - s->limits.start;
    char pv[PV_TEXT], value[32];
    search_pv(s, PV_SAN, pv, sizeof pv);
    if (score_is_mate(score))
        snprintf(value, sizeof value, "mate %3d", score_mate_moves(score));
    else
        snprintf(value, sizeof value, "cp %5d", score);
    snprintf(out, size, "depth %2d  score %s  nodes %10llu  time %6.0f ms  pv %s%s", depth, value,
             (unsigned long long)s->nodes, elapsed * 1000, pv,
             bound == BOUND_LOWER ? " (lower bound)" : bound == BOUND_UPPER ? " (upper bound)" : "");
}

/* --verbose: each report on one line of stderr. */
static void report_verbose(const Search *s, int depth, int score, int bound)
{
    char line[REPORT_LINE];
    report_text(s, depth, score, bound, line, sizeof line);
    fprintf(stderr, "%s\n", line);
}

/* The decision behind the one-shot call, batch lines and choose_move(): parses, searches in s
 * within seconds from limits->start, and returns 0 with the index, or an exit status with a reason. */
static int decide(Search *s, const char *fen, const char *moves, double seconds, Limits *limits, int *index,
                  char *err, size_t err_size, char *warning, size_t warning_size)
{
    Board board;
    int first_index[MAX_MOVES], legal_count = 0, token_index = 0, i;
    Move legal[MAX_MOVES], best;
    MoveList all;
    const char *p = moves;

    warning[0] = '\0';
    if (!board_from_fen(&board, fen, err, err_size))
        return EXIT_BAD_FEN;
    gen_legal(&board, &all, GEN_ALL);
    while (*p) {
        const char *start;
        size_t len;
        char token[32];
        Move m;
        ParseResult r;
        while (*p && isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        start = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        len = (size_t)(p - start);
        r = PARSE_MALFORMED;
        if (len < sizeof token) {
            memcpy(token, start, len);
            token[len] = '\0';
            r = move_from_text(&board, token, &m);
        }
        if (r != PARSE_OK) {
            warn_token(warning, warning_size, start, len,
                       r == PARSE_AMBIGUOUS ? "ambiguous" : r == PARSE_ILLEGAL ? "not legal here" : "not a move");
        } else {
            for (i = 0; i < legal_count && legal[i] != m; i++)
                ;
            if (i < legal_count) {
                warn_token(warning, warning_size, start, len, "listed twice");
            } else {
                legal[legal_count] = m;
                first_index[legal_count++] = token_index;
            }
        }
        token_index++;
    }
    if (token_index == 0) {
        snprintf(err, err_size, "the move list is empty");
        return EXIT_BAD_MOVES;
    }
    if (legal_count == 0) {
        if (all.count == 0)
            snprintf(err, err_size, "no move is legal: the position is %s", game_status_name(board_status(&board, NULL, 0)));
        else { /* the ignored tokens, as many as fit */
            snprintf(err, err_size, "no token of the move list is a legal move in this position; ");
            strncat(err, warning, err_size - strlen(err) - 1);
        }
        return EXIT_BAD_MOVES;
    }
    best = search_one_shot(s, &board, legal, legal_count, NULL, 0, seconds, limits);
    for (i = 0; i < legal_count; i++)
        if (legal[i] == best)
            *index = first_index[i];
    if (*index < 0)
        *index = first_index[0];
    return 0;
}

/* Appends a note about a rejected token to the warning line, within its size. */
static void warn_token(char *warning, size_t size, const char *token, size_t len, const char *why)
{
    size_t used = strlen(warning);
    char shown[40];
    size_t n = len < 32 ? len : 32, i;
    if (used >= WARNING_MAX) {
        if (strstr(warning, ", ...") == NULL && used + 6 < size)
            strcat(warning, ", ...");
        return;
    }
    for (i = 0; i < n; i++)
        shown[i] = isprint((unsigned char)token[i]) ? token[i] : '?';
    shown[n] = '\0';
    snprintf(warning + used, size - used, "%s'%s%s' (%s)", used ? ", " : "ignored tokens: ",
             shown, len > n ? "..." : "", why);
}

/* Prints b as a diagram (rank 8 at the top, black in lower case), then its FEN and key. */
static void show_board(const Board *b)
{
    char fen[FEN_MAX];
    int rank, file;
    for (rank = 7; rank >= 0; rank--) {
        printf("%d ", rank + 1);
        for (file = 0; file < 8; file++) {
            int piece = b->squares[make_square(file, rank)];
            int letter = ".PNBRQK"[piece_type(piece)];
            printf(" %c", piece_color(piece) == BLACK ? tolower(letter) : letter);
        }
        printf("\n");
    }
    board_to_fen(b, fen);
    printf("   a b c d e f g h\nfen %s\nkey %016llx\n", fen, (unsigned long long)b->key);
}

/* Prints perft's divide: one line per root move (SAN count), then `nodes N`, and the speed on stderr. */
static void show_perft(Board *b, int depth)
{
    MoveList list;
    char san[SAN_MAX];
    uint64_t total = 0;
    double t0 = clock_now(), elapsed;
    int i;
    gen_legal(b, &list, GEN_ALL);
    for (i = 0; i < list.count; i++) {
        Undo u;
        uint64_t n;
        move_to_san(b, list.moves[i], san);
        board_make(b, list.moves[i], &u);
        n = perft(b, depth - 1);
        board_unmake(b, list.moves[i], &u);
        total += n;
        printf("%s %llu\n", san, (unsigned long long)n);
    }
    elapsed = clock_now() - t0;
    printf("nodes %llu\n", (unsigned long long)total);
    fprintf(stderr, "time %.3f s, %.0f nodes per second\n", elapsed, elapsed > 0 ? (double)total / elapsed : 0.0);
}

/* Prints the evaluation the search uses for b and the network's raw score, then the
 * hand-written evaluation term by term (middlegame and endgame, per side). */
static void show_eval(const Board *b)
{
    static Accumulator acc;
    EvalTrace tr;
    int t, hand = eval_position(b, &tr), score;
    nnue_refresh(&acc, b);
    score = eval_network(b, &acc);
    printf("evaluation     %d (side to move), %d (white's view)\n", score, b->side == WHITE ? score : -score);
    printf("network        %d (side to move, before the fifty-move fade)\n", nnue_evaluate(&acc, b));
    printf("\nhand-written evaluation (the search asks it only to mate a bare king):\n");
    printf("%-14s %17s %17s %17s\n", "term", "white (mg eg)", "black (mg eg)", "total (mg eg)");
    for (t = 0; t < TERM_NB; t++)
        printf("%-14s %8d %8d %8d %8d %8d %8d\n", eval_term_name(t), tr.mg[t][WHITE], tr.eg[t][WHITE],
               tr.mg[t][BLACK], tr.eg[t][BLACK], tr.mg[t][WHITE] - tr.mg[t][BLACK], tr.eg[t][WHITE] - tr.eg[t][BLACK]);
    printf("phase %d/%d, endgame scale %d/%d, fifty-move clock %d\n", tr.phase, PHASE_MAX, tr.scale, SCALE_NORMAL, b->halfmove);
    printf("score %d (white's view), %d (side to move)\n", tr.white_score, hand);
}

/* engine bench [DEPTH] (0: BENCH_DEPTH), searched in s: the bench signature `nodes N`, its
 * speed on stderr. */
static int run_bench(Search *s, int depth)
{
    double start = clock_now(), elapsed;
    int positions;
    uint64_t nodes = bench_run(s, depth > 0 ? depth : BENCH_DEPTH, &positions);
    elapsed = clock_now() - start;
    fprintf(stderr, "%d positions, depth %d, %.3f s, %.0f nodes per second\n", positions, depth > 0 ? depth : BENCH_DEPTH,
            elapsed, elapsed > 0 ? (double)nodes / elapsed : 0.0);
    printf("nodes %llu\n", (unsigned long long)nodes);
    return 0;
}

/* ============================================================ command line */

/* The program: the one-shot call, --batch, the subcommands (perft, eval, d, bench), and the
 * other front ends started from main. */

enum { BATCH_LINE_MAX = 1 << 16 };

/* prototypes (with the entry points of the front ends below, which main starts) */
static void uci_loop(Search *s);
static int run_match(Search *s, int argc, char **argv);
static int run_datagen(Search *s, int argc, char **argv);
static double time_before_main(void);
static void print_usage(FILE *out);
static int asks_help(int argc, char **argv);
static int run_one_shot(Search *s, const char *fen, const char *moves, double seconds, Limits *limits);
static int run_batch(Search *s, const Limits *options);
static int batch_read_line(char *line, size_t size);
static int batch_answer(Search *s, char *line, const Limits *options, long number);
static int run_perft(int argc, char **argv);
static int board_from_argument(int argc, char **argv, int at, const char *usage, Board *b);
static int run_show(int argc, char **argv, void (*show)(const Board *b));

/* Seconds since the kernel created this process, from /proc/self/stat (Linux): the time an
 * exec, the dynamic loader or a busy machine took before main. Its start time counts in clock
 * ticks, so the answer is up to one tick (10 ms) early, which errs on the safe side.
 * 0 where there is no such file, or when the reading is implausible. */
static double time_before_main(void)
{
#if HAVE_POSIX && defined(__linux__) && defined(CLOCK_BOOTTIME)
    char line[1024], *field;
    struct timespec now;
    unsigned long long start_ticks;
    long ticks_per_second = sysconf(_SC_CLK_TCK);
    double elapsed;
    int i;
    FILE *f = fopen("/proc/self/stat", "r");
    if (!f)
        return 0;
    field = fgets(line, sizeof line, f) ? strrchr(line, ')') : NULL;
    fclose(f);
    if (!field || ticks_per_second <= 0 || clock_gettime(CLOCK_BOOTTIME, &now) != 0)
        return 0;
    /* the command name may hold spaces: count fields after its ')'; the start time is field 22 */
    for (i = 2; i < 22 && field; i++)
        field = strchr(field + 1, ' ');
    if (!field || sscanf(field, "%llu", &start_ticks) != 1)
        return 0;
    elapsed = (double)now.tv_sec + (double)now.tv_nsec * 1e-9 - (double)start_ticks / (double)ticks_per_second;
    return elapsed >= 0 && elapsed < 0.5 ? elapsed : 0;
#else
    return 0;
#endif
}

/* Prints the usage, the exit statuses and examples (--help). */
static void print_usage(FILE *out)
{
    fprintf(out,
        "usage: engine [options] \"<FEN>\" \"<moves>\" <seconds>\n"
        "       engine perft DEPTH [FEN] | eval [FEN] | d [FEN] | bench [DEPTH] | uci\n"
        "       engine            (no arguments: speak UCI on stdin/stdout)\n"
        "       engine [--depth N] [--nodes N] --batch    (stdin lines FEN<TAB>moves<TAB>seconds)\n"
        "       engine match --opponent \"COMMAND\"|random --games N --time SECONDS|--nodes N\n"
        "                    [--concurrency K] [--sprt ELO0,ELO1 [--alpha A] [--beta B]]\n"
        "                    [--openings FILE] [--pgn FILE]\n"
        "       engine datagen --games N --nodes N --seed S [--openings FILE] [--out FILE]\n"
        "                      [--sample K] [--rescore COMMAND --rescore-nodes N]\n"
        "\n"
        "Prints the 0-based index, into <moves>, of the move it chooses, then a newline.\n"
        "<moves> holds the legal moves in SAN separated by spaces, in any order; check marks\n"
        "are optional, and 0-0, e8Q, exd6e.p., Ng1f3 and coordinates (e2e4, e7e8q) are accepted.\n"
        "Tokens that are not legal moves are named in one warning on stderr and never chosen.\n"
        "<seconds> is a positive decimal number (3, 0.5); the answer comes within it.\n"
        "\n"
        "options:\n"
        "  --depth N     search at most N plies (deterministic)\n"
        "  --nodes N     search at most about N nodes (deterministic)\n"
        "  --verbose     one line per iteration on stderr: depth, score, nodes, time, PV\n"
        "  --batch       answer each stdin line FEN<TAB>moves<TAB>seconds with one line:\n"
        "                the index, or error: <message>\n"
        "  --help        this text\n"
        "  --version     the version\n"
        "\n"
        "exit status:\n"
        "  0  an index was printed\n"
        "  2  usage: wrong argument count, unknown option, time not a positive number\n"
        "  3  invalid FEN\n"
        "  4  invalid move list: empty, or no token is a legal move in the position\n"
        "\n"
        "examples:\n"
        "  engine \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\" \"e4 d4 Nf3\" 1\n"
        "  engine --depth 8 --verbose \"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\" \"Rd8# Kf1 h3\" 2\n"
        "  engine perft 5\n"
        "  engine match --opponent ./base --games 20000 --nodes 20000 --concurrency 2 --sprt 0,5\n"
        "  engine datagen --games 1000 --nodes 5000 --seed 1 --out data.txt\n");
}

/* Returns 1 for `engine --help` and for a subcommand's (`engine datagen --help`). */
static int asks_help(int argc, char **argv)
{
    static const char *const SUBCOMMANDS[] = { "perft", "eval", "d", "bench", "match", "datagen" };
    size_t i;
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
        return 1;
    if (argc != 3 || (strcmp(argv[2], "--help") != 0 && strcmp(argv[2], "-h") != 0))
        return 0;
    for (i = 0; i < sizeof SUBCOMMANDS / sizeof SUBCOMMANDS[0]; i++)
        if (strcmp(argv[1], SUBCOMMANDS[i]) == 0)
            return 1;
    return 0;
}

#ifndef ENGINE_NO_MAIN
/* The program: UCI without arguments, else a subcommand or the one-shot call. Left out when
 * built with -DENGINE_NO_MAIN (the tests that include this file bring their own main). */
int main(int argc, char **argv)
{
    static Search context; /* the program's one search context */
    Limits limits;
    int i = 1, batch = 0;
    memset(&limits, 0, sizeof limits);
    limits.start = clock_now() - time_before_main();
    setvbuf(stdout, NULL, _IOLBF, 0);

    if (argc == 1 || (argc == 2 && strcmp(argv[1], "uci") == 0)) {
        uci_loop(&context);
        return 0;
    }
    if (asks_help(argc, argv)) {
        print_usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("%s %s\n", ENGINE_NAME, ENGINE_VERSION);
        return 0;
    }
    if (strcmp(argv[1], "perft") == 0)
        return run_perft(argc, argv);
    if (strcmp(argv[1], "eval") == 0)
        return run_show(argc, argv, show_eval);
    if (strcmp(argv[1], "d") == 0)
        return run_show(argc, argv, show_board);
    if (strcmp(argv[1], "match") == 0)
        return run_match(&context, argc, argv);
    if (strcmp(argv[1], "datagen") == 0)
        return run_datagen(&context, argc, argv);
    if (strcmp(argv[1], "bench") == 0) {
        long long depth = 0;
        if (argc > 3 || (argc == 3 && !parse_count(argv[2], MAX_DEPTH, &depth))) {
            fprintf(stderr, "error: usage: engine bench [DEPTH from 1 to %d]\n", MAX_DEPTH);
            return EXIT_USAGE;
        }
        return run_bench(&context, (int)depth);
    }
    for (; i < argc && strncmp(argv[i], "--", 2) == 0 && argv[i][2] != '\0'; i++) {
        long long n;
        if (strcmp(argv[i], "--verbose") == 0) {
            limits.report = report_verbose;
        } else if (strcmp(argv[i], "--batch") == 0) {
            batch = 1;
        } else if (strcmp(argv[i], "--depth") == 0 || strcmp(argv[i], "--nodes") == 0) {
            int is_depth = argv[i][2] == 'd';
            if (i + 1 >= argc || !parse_count(argv[i + 1], is_depth ? MAX_DEPTH : (long long)1e15, &n)) {
                fprintf(stderr, "error: %s needs a whole number from 1 to %s\n", argv[i],
                        is_depth ? "64" : "10^15");
                return EXIT_USAGE;
            }
            if (is_depth)
                limits.depth_limit = (int)n;
            else
                limits.node_limit = (uint64_t)n;
            i++;
        } else {
            print_line(stderr, "error: unknown option '%.40s' (see --help)", argv[i]);
            return EXIT_USAGE;
        }
    }
    if (batch) {
        if (argc - i == 0)
            return run_batch(&context, &limits);
        fprintf(stderr, "error: --batch reads stdin and takes no arguments after the options, got %d\n", argc - i);
        return EXIT_USAGE;
    }
    if (argc - i != 3) {
        fprintf(stderr, "error: expected 3 arguments (FEN, moves, seconds) after the options, got %d (see --help)\n", argc - i);
        return EXIT_USAGE;
    }
    {
        double seconds;
        if (!parse_seconds(argv[i + 2], &seconds)) {
            print_line(stderr, "error: time '%.40s' is not a positive number of seconds (at most 86400)", argv[i + 2]);
            return EXIT_USAGE;
        }
        return run_one_shot(&context, argv[i], argv[i + 1], seconds, &limits);
    }
}
#endif

/* The one-shot call, searched in s: the index on stdout, or one error line and the exit status. */
static int run_one_shot(Search *s, const char *fen, const char *moves, double seconds, Limits *limits)
{
    char err[200], warning[WARNING_MAX + 100];
    int index = -1;
    int status = decide(s, fen, moves, seconds, limits, &index, err, sizeof err, warning, sizeof warning);
    if (status != 0) {
        print_line(stderr, "error: %s", err);
        return status;
    }
    if (warning[0])
        fprintf(stderr, "warning: %s\n", warning);
    printf("%d\n", index);
    fflush(stdout);
    return 0;
}

/* engine --batch: one decision per stdin line `FEN<TAB>moves<TAB>seconds`, each answered on its
 * own stdout line as soon as it is found; a summary goes to stderr. Returns 0. */
static int run_batch(Search *s, const Limits *options)
{
    static char line[BATCH_LINE_MAX];
    long count = 0, errors = 0;
    double start = clock_now();
    int r;
    while ((r = batch_read_line(line, sizeof line)) >= 0) {
        count++;
        if (r == 0) {
            printf("error: the line is longer than %d bytes\n", BATCH_LINE_MAX - 2);
            errors++;
        } else {
            errors += batch_answer(s, line, options, count);
        }
        fflush(stdout);
    }
    fprintf(stderr, "batch: %ld lines, %ld errors, %.3f s\n", count, errors, clock_now() - start);
    return 0;
}

/* Reads one line of stdin without its line end; returns 1, 0 for a line too long for size
 * (skipped to its end), -1 at the end of input. */
static int batch_read_line(char *line, size_t size)
{
    size_t len;
    int c;
    if (!fgets(line, (int)size, stdin))
        return -1;
    len = strlen(line);
    if (len > 0 && line[len - 1] == '\n') {
        line[--len] = '\0';
    } else if (len == size - 1) {
        while ((c = getchar()) != EOF && c != '\n')
            ;
        return 0;
    }
    if (len > 0 && line[len - 1] == '\r')
        line[--len] = '\0';
    return 1;
}

/* Answers batch line `number` on stdout, its clock started now: the index, or `error: reason`
 * (warnings go to stderr); returns 1 after an error, else 0. */
static int batch_answer(Search *s, char *line, const Limits *options, long number)
{
    char *field[3], *tab = line, err[200], warning[WARNING_MAX + 100];
    Limits limits = *options;
    double seconds;
    int fields = 1, index = -1;
    limits.start = clock_now();
    field[0] = line;
    while (fields < 3 && (tab = strchr(tab, '\t')) != NULL) {
        *tab++ = '\0';
        field[fields++] = tab;
    }
    if (fields < 3 || strchr(field[2], '\t'))
        snprintf(err, sizeof err, "expected 3 fields separated by tabs (FEN, moves, seconds)");
    else if (!parse_seconds(field[2], &seconds))
        snprintf(err, sizeof err, "time '%.40s' is not a positive number of seconds (at most 86400)", field[2]);
    else if (decide(s, field[0], field[1], seconds, &limits, &index, err, sizeof err, warning, sizeof warning) == 0) {
        if (warning[0])
            fprintf(stderr, "warning: line %ld: %s\n", number, warning);
        printf("%d\n", index);
        return 0;
    }
    print_line(stdout, "error: %s", err);
    return 1;
}

/* engine perft DEPTH [FEN]: the divide of the position (the start position without a FEN). */
static int run_perft(int argc, char **argv)
{
    static const char USAGE[] = "perft DEPTH [FEN], DEPTH from 1 to 20";
    Board b;
    long long depth;
    int status;
    if (argc < 3 || !parse_count(argv[2], 20, &depth)) {
        fprintf(stderr, "error: usage: engine %s\n", USAGE);
        return EXIT_USAGE;
    }
    status = board_from_argument(argc, argv, 3, USAGE, &b);
    if (status == 0)
        show_perft(&b, (int)depth);
    return status;
}

/* Sets b from a subcommand's optional last argument, the FEN at argv[at] (the start position
 * without one); returns 0, or the exit status after one error line (with usage, the
 * subcommand's own, when there are more arguments). */
static int board_from_argument(int argc, char **argv, int at, const char *usage, Board *b)
{
    char err[200];
    if (argc > at + 1) {
        fprintf(stderr, "error: usage: engine %s\n", usage);
        return EXIT_USAGE;
    }
    if (argc == at + 1 ? !board_from_fen(b, argv[at], err, sizeof err) : (board_start(b), 0)) {
        print_line(stderr, "error: %s", err);
        return EXIT_BAD_FEN;
    }
    return 0;
}

/* engine eval [FEN], engine d [FEN]: show's display of the position (the start position
 * without a FEN): the evaluation term by term, or the board. */
static int run_show(int argc, char **argv, void (*show)(const Board *b))
{
    char usage[64];
    Board b;
    int status;
    snprintf(usage, sizeof usage, "%s [FEN] (quote the FEN)", argv[1]);
    status = board_from_argument(argc, argv, 2, usage, &b);
    if (status == 0)
        show(&b);
    return status;
}

/* ===================================================================== UCI */

/* The Universal Chess Interface (Stefan Meyer-Kahlen, April 2004 text): one command a line
 * on stdin, answers on stdout. Words it cannot use are named in an `info string` and skipped. */

enum { INPUT_MAX = 1 << 16 };
enum { OPT_HASH, OPT_MOVE_OVERHEAD, OPT_CLEAR_HASH, OPT_PONDER, OPT_NB };

/* A UCI option: one table drives both the `uci` listing and `setoption` (as Fruit's option.cpp). */
enum { OPTION_SPIN, OPTION_CHECK, OPTION_BUTTON };
typedef struct {
    const char *name;
    int type;
    int initial, min, max;  /* spin bounds; a check is 0 or 1; a button has no value */
    int value;
} UciOption;

/* The numbers a UCI `go` may carry, in the order of GO_WORDS; -1 when absent. */
enum { GO_WTIME, GO_BTIME, GO_WINC, GO_BINC, GO_MOVESTOGO, GO_MOVETIME, GO_DEPTH, GO_NODES, GO_MATE, GO_PERFT, GO_NUMBER_NB };
typedef struct {
    long long number[GO_NUMBER_NB];
    int infinite;
    int ponder;
    int search_count;       /* 0: every legal move */
    Move search_moves[MAX_MOVES];
} UciGo;

/* prototypes */
static int input_waiting(void);
static size_t input_read(char *buf, size_t size);
static int input_is_terminal(void);
static size_t input_line_length(size_t from);
static void input_remove(size_t from, size_t n);
static int input_fill(int wait);
static void input_first_word(char *word, size_t size, size_t from, size_t line_length);
static int uci_read_line(char *line, size_t size);
static char *uci_word(char **rest);
static int uci_same_text(const char *a, const char *b);
static int uci_number(const char *s, long long *out);
static void uci_append(char *buf, size_t size, const char *word);
static void uci_execute(char *line);
static void uci_cmd_uci(char *args);
static void uci_cmd_isready(char *args);
static void uci_cmd_ucinewgame(char *args);
static void uci_cmd_setoption(char *args);
static void uci_option_set(int id, const char *value);
static void uci_start_position(void);
static void uci_push_key(uint64_t key);
static void uci_cmd_position(char *args);
static void uci_cmd_go(char *args);
static void uci_parse_go(char *args, UciGo *go);
static void uci_search(double start);
static void uci_set_limits(Limits *l, const UciGo *go, double start);
static void uci_set_deadlines(Limits *l, const UciGo *go, double base);
static void uci_wait_for_stop(Search *s);
static void uci_ponderhit(Search *s);
static void uci_poll(Search *s);
static void uci_print_info(const Search *s, int depth, int score, int bound);
static void uci_print_bestmove(Search *s);
static Move uci_ponder_move(Search *s, Board *after);
static void uci_cmd_idle(char *args);
static void uci_cmd_quit(char *args);
static void uci_cmd_d(char *args);
static void uci_cmd_perft(char *args);
static void uci_cmd_eval(char *args);
static void uci_cmd_bench(char *args);

static UciOption uci_options[OPT_NB] = {
    { "Hash", OPTION_SPIN, HASH_DEFAULT_MB, 1, 1024, HASH_DEFAULT_MB },
    { "Move Overhead", OPTION_SPIN, 20, 0, 5000, 20 },
    { "Clear Hash", OPTION_BUTTON, 0, 0, 0, 0 },
    { "Ponder", OPTION_CHECK, 0, 0, 1, 0 },
};

/* The words of `go` that take a number, with the values accepted (a negative clock or
 * increment, as some GUIs send after a flag fall, reads as 0). */
static const struct {
    const char *word;
    long long min, max;
} GO_WORDS[GO_NUMBER_NB] = {
    { "wtime", -1000000000000LL, 1000000000000LL }, { "btime", -1000000000000LL, 1000000000000LL },
    { "winc", -1000000000000LL, 1000000000000LL }, { "binc", -1000000000000LL, 1000000000000LL },
    { "movestogo", 0, 1000 }, { "movetime", 0, 1000000000000LL }, { "depth", 1, MAX_DEPTH },
    { "nodes", 1, 1000000000000000LL }, { "mate", 1, MAX_DEPTH }, { "perft", 1, 20 },
};

/* The commands of the loop: UCI's, then the debugging ones. */
static const struct {
    const char *name;
    void (*run)(char *args);
} UCI_COMMANDS[] = {
    { "uci", uci_cmd_uci }, { "isready", uci_cmd_isready }, { "ucinewgame", uci_cmd_ucinewgame },
    { "setoption", uci_cmd_setoption }, { "position", uci_cmd_position }, { "go", uci_cmd_go },
    { "stop", uci_cmd_idle }, { "ponderhit", uci_cmd_idle }, { "quit", uci_cmd_quit },
    { "d", uci_cmd_d }, { "perft", uci_cmd_perft }, { "eval", uci_cmd_eval }, { "bench", uci_cmd_bench },
};

/* Bytes read from stdin and not yet used: whole lines, then perhaps the start of one. */
static struct {
    char data[INPUT_MAX];
    size_t len;
    int eof;
    int skipping;   /* dropping the rest of a line longer than the buffer */
} input;

/* The engine between commands: the game as the GUI set it, the search (its table kept across
 * the game's moves) and the last `go` (for ponderhit). */
static struct {
    Board board;
    uint64_t keys[KEY_HISTORY_MAX];  /* positions since the last irreversible move, the board's last */
    int key_count;
    Search *search;
    UciGo go;
    int quit;
} uci;

/* Returns 1 if a line of input is waiting on stdin (POSIX select), else 0. */
static int input_waiting(void)
{
#if HAVE_POSIX
    fd_set set;
    struct timeval tv = { 0, 0 };
    FD_ZERO(&set);
    FD_SET(0, &set);
    return select(1, &set, NULL, NULL, &tv) > 0;
#else
    return 0;
#endif
}

/* Reads at most size bytes of stdin into buf, blocking until some come (POSIX read, else
 * one fgets line); returns how many, 0 at the end of input. */
static size_t input_read(char *buf, size_t size)
{
#if HAVE_POSIX
    ssize_t n;
    do
        n = read(0, buf, size);
    while (n < 0 && errno == EINTR);
    return n > 0 ? (size_t)n : 0;
#else
    return fgets(buf, (int)size, stdin) ? strlen(buf) : 0;
#endif
}

/* Returns 1 if stdin is a terminal (a person typing), else 0. */
static int input_is_terminal(void)
{
#if HAVE_POSIX
    return isatty(0);
#else
    return 0;
#endif
}

/* Speaks UCI on stdin/stdout until `quit` or the end of the input, searching in s. */
static void uci_loop(Search *s)
{
    static char line[INPUT_MAX];
    if (input_is_terminal())
        fprintf(stderr, "%s %s speaks UCI: try uci, d, go depth 10, quit (engine --help for the rest)\n",
                ENGINE_NAME, ENGINE_VERSION);
    uci.search = s;
    search_table(s, (size_t)uci_options[OPT_HASH].value);
    uci_start_position();
    while (!uci.quit && uci_read_line(line, sizeof line))
        uci_execute(line);
    search_free(s);
}

/* Returns the length with its newline of the buffered line that starts at from, or 0 if
 * that line is not whole yet. */
static size_t input_line_length(size_t from)
{
    const char *newline = memchr(input.data + from, '\n', input.len - from);
    return newline ? (size_t)(newline - input.data) + 1 - from : 0;
}

/* Removes n buffered bytes from offset from. */
static void input_remove(size_t from, size_t n)
{
    memmove(input.data + from, input.data + from + n, input.len - from - n);
    input.len -= n;
}

/* Reads what stdin holds into the buffer; with wait, blocks until something comes.
 * Returns 0 once the input has ended (a last line without newline gets one). */
static int input_fill(int wait)
{
    size_t n, skipped;
    if (input.eof)
        return 0;
    if (!wait && !input_waiting())
        return 1;
    if (input.len == sizeof input.data && input_line_length(0) > 0)
        return 1; /* full of whole lines that wait their turn */
    if (input.len == sizeof input.data) {
        printf("info string ignored a line longer than %d bytes\n", INPUT_MAX - 1);
        input.len = 0;
        input.skipping = 1;
    }
    n = input_read(input.data + input.len, sizeof input.data - input.len);
    input.len += n;
    input.eof = n == 0;
    if (input.eof && input.len > 0 && input.data[input.len - 1] != '\n')
        input.data[input.len++] = '\n';
    if (input.skipping) {
        skipped = input_line_length(0);
        input_remove(0, skipped ? skipped : input.len);
        input.skipping = !skipped;
    }
    return !input.eof;
}

/* Copies the first word of the buffered line at offset from (line_length bytes) into word. */
static void input_first_word(char *word, size_t size, size_t from, size_t line_length)
{
    const char *p = input.data + from, *end = p + line_length;
    size_t n = 0;
    while (p < end && isspace((unsigned char)*p))
        p++;
    while (p < end && !isspace((unsigned char)*p) && n + 1 < size)
        word[n++] = *p++;
    word[n] = '\0';
}

/* Waits for the next line of input and copies it without its newline, unprintable bytes
 * as '?' (so that echoing a word back cannot garble the GUI's view); returns 0 at the end. */
static int uci_read_line(char *line, size_t size)
{
    size_t len, i;
    while ((len = input_line_length(0)) == 0)
        if (!input_fill(1) && input_line_length(0) == 0)
            return 0;
    for (i = 0; i + 1 < len && i + 1 < size; i++)
        line[i] = isprint((unsigned char)input.data[i]) || isspace((unsigned char)input.data[i]) ? input.data[i] : '?';
    line[i] = '\0';
    input_remove(0, len);
    return 1;
}

/* Returns the next whitespace-separated word of *rest, cut in place, or NULL at the end. */
static char *uci_word(char **rest)
{
    char *p = *rest, *start;
    while (*p && isspace((unsigned char)*p))
        p++;
    if (!*p) {
        *rest = p;
        return NULL;
    }
    start = p;
    while (*p && !isspace((unsigned char)*p))
        p++;
    if (*p)
        *p++ = '\0';
    *rest = p;
    return start;
}

/* Returns 1 if a and b are the same text but for case (UCI option names and values). */
static int uci_same_text(const char *a, const char *b)
{
    for (; *a && tolower((unsigned char)*a) == tolower((unsigned char)*b); a++, b++)
        ;
    return *a == '\0' && *b == '\0';
}

/* Parses a decimal integer with an optional sign and at most 18 digits. */
static int uci_number(const char *s, long long *out)
{
    long long value = 0;
    int negative = *s == '-', digits = 0;
    if (*s == '-' || *s == '+')
        s++;
    for (; isdigit((unsigned char)*s); s++) {
        if (++digits > 18)
            return 0;
        value = value * 10 + (*s - '0');
    }
    if (*s || digits == 0)
        return 0;
    *out = negative ? -value : value;
    return 1;
}

/* Appends word to the text in buf, a space between words; what does not fit is cut. */
static void uci_append(char *buf, size_t size, const char *word)
{
    size_t used = strlen(buf);
    snprintf(buf + used, size - used, "%s%s", used ? " " : "", word);
}

/* Runs one line: the first known command word, with the rest of the line (the protocol
 * says to skip unknown words before it). */
static void uci_execute(char *line)
{
    char *rest = line, *word, *skipped = NULL;
    size_t i;
    while ((word = uci_word(&rest)) != NULL) {
        for (i = 0; i < sizeof UCI_COMMANDS / sizeof UCI_COMMANDS[0]; i++) {
            if (strcmp(word, UCI_COMMANDS[i].name) == 0) {
                if (skipped)
                    printf("info string skipped unknown '%.40s' before '%s'\n", skipped, word);
                UCI_COMMANDS[i].run(rest);
                return;
            }
        }
        if (!skipped)
            skipped = word;
    }
    if (skipped)
        printf("info string unknown command '%.40s', line ignored (commands: uci isready ucinewgame "
               "setoption position go stop ponderhit quit d perft eval bench)\n", skipped);
}

/* uci: names the engine, lists the options, then uciok. */
static void uci_cmd_uci(char *args)
{
    int i;
    (void)args;
    printf("id name %s %s\nid author %s\n", ENGINE_NAME, ENGINE_VERSION, ENGINE_AUTHOR);
    for (i = 0; i < OPT_NB; i++) {
        const UciOption *o = &uci_options[i];
        if (o->type == OPTION_SPIN)
            printf("option name %s type spin default %d min %d max %d\n", o->name, o->initial, o->min, o->max);
        else if (o->type == OPTION_CHECK)
            printf("option name %s type check default %s\n", o->name, o->initial ? "true" : "false");
        else
            printf("option name %s type button\n", o->name);
    }
    printf("uciok\n");
}

/* isready: everything before it is done. */
static void uci_cmd_isready(char *args)
{
    (void)args;
    printf("readyok\n");
}

/* ucinewgame: forgets the last game (hash table, position). */
static void uci_cmd_ucinewgame(char *args)
{
    (void)args;
    tt_clear(&uci.search->tt);
    uci_start_position();
}

/* setoption name NAME [value VALUE], the name in any case. */
static void uci_cmd_setoption(char *args)
{
    char name[64] = "", value[64] = "", *word = uci_word(&args), *target = name;
    int i;
    if (!word || strcmp(word, "name") != 0) {
        printf("info string setoption: expected 'setoption name NAME [value VALUE]'\n");
        return;
    }
    while ((word = uci_word(&args)) != NULL) {
        if (target == name && strcmp(word, "value") == 0)
            target = value;
        else
            uci_append(target, sizeof name, word);
    }
    for (i = 0; i < OPT_NB; i++) {
        if (uci_same_text(name, uci_options[i].name)) {
            uci_option_set(i, value);
            return;
        }
    }
    printf("info string setoption: no option named '%s' (see uci)\n", name);
}

/* Gives option id the value text if its type and bounds allow, and applies it. */
static void uci_option_set(int id, const char *value)
{
    UciOption *o = &uci_options[id];
    long long n;
    if (o->type == OPTION_SPIN) {
        if (!uci_number(value, &n) || n < o->min || n > o->max) {
            printf("info string setoption: %s takes a whole number from %d to %d, not '%s'\n", o->name, o->min, o->max, value);
            return;
        }
        o->value = (int)n;
    } else if (o->type == OPTION_CHECK) {
        if (!uci_same_text(value, "true") && !uci_same_text(value, "false")) {
            printf("info string setoption: %s takes true or false, not '%s'\n", o->name, value);
            return;
        }
        o->value = uci_same_text(value, "true");
    }
    if (id == OPT_HASH)
        search_table(uci.search, (size_t)o->value);
    else if (id == OPT_CLEAR_HASH)
        tt_clear(&uci.search->tt);
}

/* Sets the game to the start position. */
static void uci_start_position(void)
{
    board_start(&uci.board);
    uci.key_count = 0;
    uci_push_key(uci.board.key);
}

/* Appends a position to the game's key history, dropping the older half when it is full. */
static void uci_push_key(uint64_t key)
{
    if (uci.key_count == KEY_HISTORY_MAX) {
        memmove(uci.keys, uci.keys + KEY_HISTORY_MAX / 2, sizeof(uint64_t) * (KEY_HISTORY_MAX - KEY_HISTORY_MAX / 2));
        uci.key_count -= KEY_HISTORY_MAX / 2;
    }
    uci.keys[uci.key_count++] = key;
}

/* position startpos | fen FEN, then optionally moves M1 M2 ... (e2e4, e1g1, e7e8q). A bad
 * FEN leaves the position as it was; the moves are played up to the first illegal one. */
static void uci_cmd_position(char *args)
{
    Board b;
    char fen[2 * FEN_MAX] = "", err[200], *word = uci_word(&args);
    if (word && strcmp(word, "startpos") == 0) {
        board_start(&b);
        word = uci_word(&args);
    } else if (word && strcmp(word, "fen") == 0) {
        while ((word = uci_word(&args)) != NULL && strcmp(word, "moves") != 0)
            uci_append(fen, sizeof fen, word);
        if (!board_from_fen(&b, fen, err, sizeof err)) {
            printf("info string position: %s; the position is unchanged\n", err);
            return;
        }
    } else {
        printf("info string position: expected 'startpos' or 'fen FEN'; the position is unchanged\n");
        return;
    }
    if (word && strcmp(word, "moves") != 0) {
        printf("info string position: expected 'moves', not '%.40s'; the position is unchanged\n", word);
        return;
    }
    uci.board = b;
    uci.key_count = 0;
    uci_push_key(b.key);
    while ((word = uci_word(&args)) != NULL) {
        Move m;
        Undo u;
        if (move_from_text(&uci.board, word, &m) != PARSE_OK) {
            board_to_fen(&uci.board, fen);
            printf("info string position: '%.40s' is not a legal move in %s; it and the moves after it are ignored\n", word, fen);
            return;
        }
        board_make(&uci.board, m, &u);
        if (uci.board.halfmove == 0)
            uci.key_count = 0;
        uci_push_key(uci.board.key);
    }
}

/* go [wtime btime winc binc movestogo movetime depth nodes mate N...] [infinite] [ponder]
 * [searchmoves M...]: searches and answers bestmove; go perft N counts moves instead. */
static void uci_cmd_go(char *args)
{
    double start = clock_now();
    uci_parse_go(args, &uci.go);
    if (uci.go.number[GO_PERFT] > 0)
        show_perft(&uci.board, (int)uci.go.number[GO_PERFT]);
    else
        uci_search(start);
}

/* Reads the words of `go`; one it cannot use is named in an info string and skipped. */
static void uci_parse_go(char *args, UciGo *go)
{
    char *word;
    int i, in_search_moves = 0;
    memset(go, 0, sizeof *go);
    for (i = 0; i < GO_NUMBER_NB; i++)
        go->number[i] = -1;
    while ((word = uci_word(&args)) != NULL) {
        Move m;
        for (i = 0; i < GO_NUMBER_NB && strcmp(word, GO_WORDS[i].word) != 0; i++)
            ;
        if (i < GO_NUMBER_NB) {
            char *value = uci_word(&args);
            long long n;
            in_search_moves = 0;
            if (value && uci_number(value, &n) && n >= GO_WORDS[i].min && n <= GO_WORDS[i].max)
                go->number[i] = n > 0 ? n : 0;
            else
                printf("info string go: %s takes a whole number from %lld to %lld; ignored\n", word,
                       GO_WORDS[i].min > 0 ? GO_WORDS[i].min : 0, GO_WORDS[i].max);
        } else if (strcmp(word, "infinite") == 0) {
            go->infinite = 1;
            in_search_moves = 0;
        } else if (strcmp(word, "ponder") == 0) {
            go->ponder = 1;
            in_search_moves = 0;
        } else if (strcmp(word, "searchmoves") == 0) {
            in_search_moves = 1;
        } else if (in_search_moves && move_from_text(&uci.board, word, &m) == PARSE_OK) {
            for (i = 0; i < go->search_count && go->search_moves[i] != m; i++)
                ;
            if (i == go->search_count) /* each legal move once, so they fit in MAX_MOVES */
                go->search_moves[go->search_count++] = m;
        } else {
            printf("info string go: '%.40s' ignored\n", word);
        }
    }
}

/* Searches the position as uci.go asks, from start, then answers bestmove (after stop or
 * ponderhit when the search is infinite or pondering, as the protocol wants). */
static void uci_search(double start)
{
    Search *s = uci.search;
    const UciGo *go = &uci.go;
    Limits limits;
    MoveList list;
    int count;
    uci_set_limits(&limits, go, start);
    gen_legal(&uci.board, &list, GEN_ALL);
    count = go->search_count ? go->search_count : list.count;
    if (count == 0) {
        printf("info depth 0 score %s\nbestmove (none)\n", board_in_check(&uci.board) ? "mate 0" : "cp 0");
        return;
    }
    if (count == 1 && limits.soft_deadline > 0)
        limits.soft_deadline = start; /* a forced move needs one iteration, for the ponder move */
    search_run(s, &uci.board, uci.keys, uci.key_count, go->search_count ? go->search_moves : list.moves, count, &limits);
    uci_wait_for_stop(s);
    uci_print_bestmove(s);
}

/* Sets the limits of a search from `go`, received at start. A mate in N moves is 2N-1
 * plies: `go mate N` searches to depth 2N+4 at most, the slack for reductions. */
static void uci_set_limits(Limits *l, const UciGo *go, double start)
{
    memset(l, 0, sizeof *l);
    l->start = start;
    l->report = uci_print_info;
    l->poll = uci_poll;
    l->infinite = go->infinite || go->ponder;
    l->depth_limit = (int)(go->number[GO_DEPTH] > 0 ? go->number[GO_DEPTH] : MAX_DEPTH);
    if (go->number[GO_MATE] > 0 && 2 * go->number[GO_MATE] + 4 < l->depth_limit)
        l->depth_limit = (int)(2 * go->number[GO_MATE] + 4);
    l->node_limit = (uint64_t)(go->number[GO_NODES] > 0 ? go->number[GO_NODES] : 0);
    if (!l->infinite)
        uci_set_deadlines(l, go, start);
}

/* Sets the deadlines of a timed `go`, counted from base: movetime, or the clock of the side
 * to move, each less Move Overhead (a movetime keeps at least half its time). */
static void uci_set_deadlines(Limits *l, const UciGo *go, double base)
{
    int white = uci.board.side == WHITE;
    long long left = go->number[white ? GO_WTIME : GO_BTIME], inc = go->number[white ? GO_WINC : GO_BINC];
    long long movetime = go->number[GO_MOVETIME], moves_to_go = go->number[GO_MOVESTOGO];
    double overhead = uci_options[OPT_MOVE_OVERHEAD].value / 1000.0, soft = DBL_MAX, hard = DBL_MAX;
    if (left >= 0)
        time_for_clock(left / 1000.0, inc > 0 ? inc / 1000.0 : 0, (int)(moves_to_go > 0 ? moves_to_go : 0), overhead, &soft, &hard);
    if (movetime >= 0) {
        double t = movetime / 1000.0, budget = t - overhead > t / 2 ? t - overhead : t / 2;
        soft = budget < soft ? budget : soft;
        hard = budget < hard ? budget : hard;
    }
    if (hard < DBL_MAX) {
        l->soft_deadline = base + soft;
        l->hard_deadline = base + hard;
    }
}

/* When an infinite or ponder search has ended by itself, waits for stop, quit or ponderhit. */
static void uci_wait_for_stop(Search *s)
{
    while (s->limits.infinite && !s->stop) {
        input_fill(1);
        uci_poll(s);
    }
}

/* ponderhit: the opponent played the expected move, so the ponder search goes on as a timed
 * one, on our clock that starts now. */
static void uci_ponderhit(Search *s)
{
    if (!uci.go.ponder)
        return;
    uci.go.ponder = 0;
    s->limits.infinite = uci.go.infinite;
    if (!s->limits.infinite)
        uci_set_deadlines(&s->limits, &uci.go, clock_now());
}

/* The search's poll in UCI: acts on the commands that came during the search: stop, quit,
 * isready and ponderhit at once; others wait in the buffer for the loop, and a `go` waits for
 * this search to end, with whatever follows it (as Stockfish's input thread does). At the
 * end of the input an infinite or ponder search stops: nothing else could stop it. */
static void uci_poll(Search *s)
{
    size_t from = 0, len;
    input_fill(0);
    while (!s->stop && (len = input_line_length(from)) > 0) {
        char word[16];
        input_first_word(word, sizeof word, from, len);
        if (strcmp(word, "go") == 0)
            break;
        if (strcmp(word, "isready") == 0) {
            printf("readyok\n");
        } else if (strcmp(word, "ponderhit") == 0) {
            uci_ponderhit(s);
        } else if (strcmp(word, "stop") == 0 || strcmp(word, "quit") == 0) {
            s->stop = 1;
            uci.quit = word[0] == 'q';
        } else {
            from += len;
            continue;
        }
        input_remove(from, len);
    }
    if (input.eof && s->limits.infinite)
        s->stop = 1;
}

/* The search's report in UCI: the info line of an iteration, or of an aspiration fail with its bound. */
static void uci_print_info(const Search *s, int depth, int score, int bound)
{
    double elapsed = clock_now() - s->limits.start;
    char pv[PV_TEXT];
    search_pv(s, PV_COORDINATES, pv, sizeof pv);
    printf("info depth %d seldepth %d multipv 1 score %s %d%s nodes %llu nps %.0f hashfull %d time %.0f pv%s%s\n",
           depth, s->seldepth, score_is_mate(score) ? "mate" : "cp", score_is_mate(score) ? score_mate_moves(score) : score,
           bound == BOUND_LOWER ? " lowerbound" : bound == BOUND_UPPER ? " upperbound" : "",
           (unsigned long long)s->nodes, elapsed > 0 ? s->nodes / elapsed : 0.0, tt_hashfull(&s->tt), elapsed * 1000,
           pv[0] ? " " : "", pv);
}

/* The reply to ponder on in after (the board once the best move is made): the PV's second
 * move, else the table's move there (a search stopped early may leave a one-move PV). */
static Move uci_ponder_move(Search *s, Board *after)
{
    TTEntry *entry;
    int hit;
    if (s->pv_len[0] >= 2 && s->pv[0][0] == s->best_move && move_is_legal(after, s->pv[0][1]))
        return s->pv[0][1];
    entry = tt_probe(&s->tt, after->key, &hit);
    return hit && entry->move != MOVE_NONE && move_is_legal(after, entry->move) ? entry->move : MOVE_NONE;
}

/* Answers bestmove, with a ponder move when there is one. */
static void uci_print_bestmove(Search *s)
{
    Board b = s->board;
    Undo u;
    Move reply;
    char best[6], ponder[6];
    move_to_uci(s->best_move, best);
    board_make(&b, s->best_move, &u);
    reply = uci_ponder_move(s, &b);
    if (reply != MOVE_NONE) {
        move_to_uci(reply, ponder);
        printf("bestmove %s ponder %s\n", best, ponder);
    } else {
        printf("bestmove %s\n", best);
    }
}

/* stop and ponderhit between searches: there is nothing to stop. */
static void uci_cmd_idle(char *args)
{
    (void)args;
}

/* quit: leaves the loop. */
static void uci_cmd_quit(char *args)
{
    (void)args;
    uci.quit = 1;
}

/* d: the board diagram, FEN and key of the current position. */
static void uci_cmd_d(char *args)
{
    (void)args;
    show_board(&uci.board);
}

/* perft N: the move-generation count of the current position, as `engine perft`. */
static void uci_cmd_perft(char *args)
{
    char *word = uci_word(&args);
    long long depth;
    if (!word || !parse_count(word, 20, &depth)) {
        printf("info string perft takes a depth from 1 to 20\n");
        return;
    }
    show_perft(&uci.board, (int)depth);
}

/* eval: the static evaluation of the current position, term by term, as `engine eval`. */
static void uci_cmd_eval(char *args)
{
    (void)args;
    show_eval(&uci.board);
}

/* bench [DEPTH]: the bench signature, as `engine bench`, in a search of its own (the game's
 * table stays as it is). */
static void uci_cmd_bench(char *args)
{
    static Search bench;
    char *word = uci_word(&args);
    long long depth = 0;
    if (word && !parse_count(word, MAX_DEPTH, &depth)) {
        printf("info string bench takes a depth from 1 to %d\n", MAX_DEPTH);
        return;
    }
    run_bench(&bench, (int)depth);
    search_free(&bench);
}

/* =================================================================== games */

/* A game as match and datagen play it: its record, its end by the rules, openings from a
 * file, a random mover. */

enum { GAME_MAX_PLIES = 400 };    /* a game still running after it is adjudicated a draw */

typedef struct {
    Board start;
    Move moves[GAME_MAX_PLIES];
    int ply_count;
    int engine_white;       /* 1 if our search plays white */
    char result[8];         /* "1-0", "0-1" or "1/2-1/2"; empty while the game runs */
    char termination[24];   /* the PGN Termination tag: normal, adjudication, time forfeit, ... */
    char reason[200];       /* checkmate, threefold repetition, or why the opponent forfeits */
} Game;                /* no pointers: a worker sends it through a pipe as it is */

/* prototypes */
static void game_begin(Game *g, const Board *b, uint64_t *keys);
static void game_play(Game *g, Board *b, uint64_t *keys, Move m);
static int game_over(Board *b, const uint64_t *keys, Game *g);
static int game_end(Game *g, const char *result, const char *termination, const char *reason);
static int openings_load(const char *path, Board **openings, int *count);
static int openings_add(Board **openings, int *count, int *capacity, const Board *b);
static int opening_fen(char *line, char *fen, size_t size);
static Move random_move(Board *b, uint64_t *state);
static uint64_t random_next(uint64_t *state);

/* Starts g from the position start, b, whose key is the first of keys; no result yet. */
static void game_begin(Game *g, const Board *b, uint64_t *keys)
{
    g->start = *b;
    g->ply_count = 0;
    g->result[0] = '\0';
    keys[0] = b->key;
}

/* Plays m in the game: the move recorded, the board moved on, its key kept. */
static void game_play(Game *g, Board *b, uint64_t *keys, Move m)
{
    Undo u;
    g->moves[g->ply_count++] = m;
    board_make(b, m, &u);
    keys[g->ply_count] = b->key;
}

/* Returns 1 and records the result if the game is over: by the rules (board_status, keys
 * holding every position of the game), or after GAME_MAX_PLIES plies (adjudicated a draw). */
static int game_over(Board *b, const uint64_t *keys, Game *g)
{
    GameStatus status = board_status(b, keys, g->ply_count + 1);
    if (status == STATUS_CHECKMATE)
        return game_end(g, b->side == WHITE ? "0-1" : "1-0", "normal", game_status_name(status));
    if (status != STATUS_PLAY)
        return game_end(g, "1/2-1/2", "normal", game_status_name(status));
    if (g->ply_count >= GAME_MAX_PLIES)
        return game_end(g, "1/2-1/2", "adjudication", "ply limit reached");
    return 0;
}

/* Records how the game ended; returns 1. */
static int game_end(Game *g, const char *result, const char *termination, const char *reason)
{
    snprintf(g->result, sizeof g->result, "%s", result);
    snprintf(g->termination, sizeof g->termination, "%s", termination);
    snprintf(g->reason, sizeof g->reason, "%s", reason);
    return 1;
}

/* Reads the openings file (one FEN or EPD line each) into a new array, or makes the start
 * position the only opening without a file; returns 0, or an exit status after one error line. */
static int openings_load(const char *path, Board **openings, int *count)
{
    char line[1024], fen[FEN_MAX + 100], err[200];
    int number = 0, capacity = 0, status = 0;
    FILE *f = path ? fopen(path, "r") : NULL;
    Board b;
    *openings = NULL;
    *count = 0;
    if (!path) {
        board_start(&b);
        return openings_add(openings, count, &capacity, &b);
    }
    if (!f) {
        fprintf(stderr, "error: cannot read %s\n", path);
        return EXIT_USAGE;
    }
    while (status == 0 && fgets(line, sizeof line, f)) {
        number++;
        if (!opening_fen(line, fen, sizeof fen))
            continue;
        if (board_from_fen(&b, fen, err, sizeof err))
            status = openings_add(openings, count, &capacity, &b);
        else if ((status = EXIT_BAD_FEN) != 0)
            fprintf(stderr, "error: %s line %d: %s\n", path, number, err);
    }
    fclose(f);
    if (status == 0 && *count == 0) {
        fprintf(stderr, "error: %s holds no position\n", path);
        status = EXIT_USAGE;
    }
    return status;
}

/* Appends b to the openings, growing the array; returns 0, or EXIT_FAILURE after an error line. */
static int openings_add(Board **openings, int *count, int *capacity, const Board *b)
{
    if (*count == *capacity) {
        int more = *capacity ? 2 * *capacity : 16;
        Board *grown = realloc(*openings, sizeof(Board) * (size_t)more);
        if (!grown) {
            fprintf(stderr, "error: out of memory for the openings\n");
            return EXIT_FAILURE;
        }
        *openings = grown;
        *capacity = more;
    }
    (*openings)[(*count)++] = *b;
    return 0;
}

/* Writes an openings line as FEN: its first four fields, and the clocks when the next fields
 * are numbers (EPD operations and # comments are dropped); returns 0 for a line with nothing. */
static int opening_fen(char *line, char *fen, size_t size)
{
    char *field[6], *p = line;
    int n = 0, keep, i;
    size_t used = 0;
    while (n < 6) {
        while (isspace((unsigned char)*p))
            p++;
        if (!*p || *p == '#')
            break;
        field[n++] = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        if (*p)
            *p++ = '\0';
    }
    for (keep = n < 4 ? n : 4; keep < n && strspn(field[keep], "0123456789") == strlen(field[keep]); keep++)
        ;
    fen[0] = '\0';
    for (i = 0; i < keep && used < size; i++)
        used += (size_t)snprintf(fen + used, size - used, "%s%s", i ? " " : "", field[i]);
    return n > 0;
}

/* The built-in opponent: a legal move drawn at random from the game's generator (seeded by
 * the game's number, so a game against it repeats as far as our search does). */
static Move random_move(Board *b, uint64_t *state)
{
    MoveList list;
    gen_legal(b, &list, GEN_ALL);
    return list.moves[random_next(state) % (uint64_t)list.count];
}

/* The next number of the generator whose state is *state: SplitMix64 (Sebastiano Vigna,
 * prng.di.unimi.it), any seed being good. */
static uint64_t random_next(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* =================================================================== match */

/* engine match: our search against a UCI engine run as a child process (or the built-in
 * random mover), refereed by our rules, with a running score on stderr and a PGN; several
 * games at once in worker processes, and an SPRT that stops the match at its verdict. */

enum { WORKERS_MAX = 64 };   /* games at once, at most: a worker process each */
/* match: its options, the opponent, a worker's report of one game, and the tally of the games
 * so far. */
enum { MATCH_GAMES_MAX = 100000, MATCH_LINE = 4096 };
/* finished games wait in a window for those before them, so that they count in their order */
enum { MATCH_WINDOW = 4 * WORKERS_MAX };
/* the built-in random mover's seed, mixed with the game's number */
#define MATCH_RANDOM_SEED UINT64_C(0x9E3779B97F4A7C15)
/* game pairs score 0, 1/2, 1, 3/2 or 2 points: the pentanomial model's five outcomes */
enum { PAIR_OUTCOMES = 5 };
/* the count given to a pair outcome not seen yet, so that the variance is never 0 (fishtest's
 * regularization of the pentanomial frequencies) */
static const double MATCH_SPRT_PRIOR = 1e-3;
/* no verdict before this many pairs: the variance of a few pairs is too often near 0 (one pair
 * won and drawn, with every other outcome at the prior, gave an LLR of 3.74) */
enum { MATCH_SPRT_MIN_PAIRS = 20 };
/* the two-sided 95% quantile of the normal distribution */
static const double MATCH_Z95 = 1.959964;
/* the score of a game for us by match_outcome (win, draw, loss), and of a pair by half points */
static const double GAME_SCORES[3] = { 1, 0.5, 0 };
static const double PAIR_SCORES[PAIR_OUTCOMES] = { 0, 0.25, 0.5, 0.75, 1 };
enum { MATCH_HANDSHAKE_MS = 5000, MATCH_SLACK_MS = 250 };
/* at fixed nodes the opponent answers within 5 s plus its nodes at 50 k nodes a second, so that a
 * loaded machine never makes it forfeit (a UCI engine searches millions a second) */
enum { MATCH_NODES_WAIT_MS = 5000, MATCH_SLOW_NODES_PER_SECOND = 50000 };
typedef struct {
    const char *opponent;   /* a UCI engine's command line, or "random" */
    const char *openings;   /* a FEN/EPD file, or NULL for the start position */
    const char *pgn;        /* where the games go, or NULL */
    int games;
    double seconds;         /* per move, for both sides, or 0 */
    long long nodes;        /* per move, for both sides, or 0 */
    int concurrency;        /* games at once, each in a worker process when more than 1 */
    int sprt;               /* 1: stop at the SPRT's verdict on elo0 against elo1 */
    double elo0, elo1;      /* the hypotheses H0 and H1, logistic Elo */
    double alpha, beta;     /* the error rates: false H1, false H0 */
} MatchOptions;

/* An engine run as a child process and spoken to through pipes (match mode). */
typedef struct {
    long pid;               /* 0 when no process runs */
    int to_child;           /* our end of its stdin */
    int from_child;         /* our end of its stdout */
    size_t used;            /* bytes waiting in buf */
    char buf[4096];
} Child;

#if HAVE_POSIX
/* The process group of the running child, which a match worker's signal handler kills. */
static volatile sig_atomic_t child_group;
#endif

/* A copy of this process that plays match games for it, with a pipe each way. Each side
 * reads from its `in` and writes to its `out`. */
typedef struct {
    long pid;               /* in the parent: the worker's; 0 when none runs (and in the worker) */
    int in;
    int out;
} Worker;

#if HAVE_POSIX
/* A worker's SIGTERM and SIGINT: kills and reaps its opponent's process group, then ends. */
static void worker_on_signal(int signal_number)
{
    (void)signal_number;
    if (child_group) {
        kill(-(pid_t)child_group, SIGKILL);
        waitpid((pid_t)child_group, NULL, 0);
    }
    _exit(1);
}
#endif

typedef struct {
    Child child;            /* its process (pid 0 for the random mover) */
    char name[64];          /* its `id name`, else the command */
} MatchOpponent;

typedef struct {
    int number;             /* the game's number from 0; -1 for an empty slot of the window */
    int status;             /* 0, or 1 if the opponent's process could not be started */
    char opponent[64];      /* its name */
    Game game;
} MatchReport;

typedef struct {
    FILE *pgn;              /* where the games go, or NULL */
    char opponent[64];      /* its name, from the last game */
    int played;             /* games counted, which are the first ones */
    int score[3];           /* our wins, draws, losses */
    int pairs[PAIR_OUTCOMES]; /* game pairs (2k, 2k+1) by our half points: 0 to 4 */
    int half_points;        /* ours in the first game of a pair still open */
    double llr;             /* the SPRT's log-likelihood ratio after the last pair */
    int verdict;            /* 1: H1 accepted, -1: H0 accepted, 0: none yet */
} MatchTally;

/* prototypes */
static void match_summary(const MatchOptions *opt, const MatchTally *t);
static int match_run_serial(Search *s, const MatchOptions *opt, const Board *openings, int count, MatchTally *t);
static int match_run_workers(Search *s, const MatchOptions *opt, const Board *openings, int count, MatchTally *t);
static void match_worker(Search *s, const MatchOptions *opt, const Board *openings, int count, const Worker *w);
static int match_record(MatchTally *t, const MatchOptions *opt, const Game *g, const char *opponent);
static int match_parse_options(int argc, char **argv, MatchOptions *opt);
static int match_option(void *options, const char *key, const char *value);
static int match_play_game(Search *s, const MatchOptions *opt, const Board *openings, int count, int number, Game *game, MatchOpponent *o);
static int match_opponent_start(MatchOpponent *o, const MatchOptions *opt, Game *g);
static int match_expect(MatchOpponent *o, const char *word, double wait, char *line, size_t size, Game *g);
static int match_opponent_move(MatchOpponent *o, Game *g, const Board *b, double seconds, long long nodes, Move *m);
static Move match_engine_move(Search *s, Board *b, const uint64_t *keys, int key_count, double seconds, long long nodes, int new_game);
static long long match_move_nodes(const MatchOptions *opt, int count, int number, int ply);
static int match_forfeit(Game *g, const char *termination, const char *format, ...);
static int match_outcome(const Game *g);
static int match_sprt_update(MatchTally *t, const MatchOptions *opt);
static void match_sprt_bounds(const MatchOptions *opt, double *lower, double *upper);
static double match_moments(const int *count, const double *value, int outcomes, double prior, double *variance, double *n);
static void match_elo_text(const int *count, const double *value, int outcomes, int decimals, char *out, size_t size);
static double match_elo(double s);
static double match_logistic(double elo);
static double match_exp(double x);
static double match_sqrt(double x);
static void match_write_pgn(FILE *out, const Game *g, int round, const char *opponent, const MatchOptions *opt);
static void match_limits_text(const MatchOptions *opt, char *out, size_t size);
static void match_pgn_tag(FILE *out, const char *name, const char *value);
static void match_pgn_token(FILE *out, int *column, const char *token);
static long fork_with_pipes(int *in, int *out, const char *what, char *err, size_t err_size);
static int child_start(Child *c, const char *command, char *err, size_t err_size);
static int child_send(Child *c, const char *line);
static int child_read_line(Child *c, char *line, size_t size, double deadline);
static void child_stop(Child *c, char *how, size_t how_size);
static int worker_start(Worker *workers, int index, char *err, size_t err_size);
static int pipe_transfer(int fd, void *data, size_t size, int writing);
static int worker_write(const Worker *w, void *data, size_t size);
static int worker_read(const Worker *w, void *data, size_t size);
static int worker_wait(const Worker *workers, int count);
static void worker_stop(Worker *w, int now);
static void worker_exit(int status);

/* engine match --opponent CMD --games N --time S|--nodes N [--concurrency K] [--sprt E0,E1
 * [--alpha A] [--beta B]] [--openings FILE] [--pgn FILE]: plays the games and prints the final
 * score; returns 0, or an exit status after one error line. */
static int run_match(Search *s, int argc, char **argv)
{
    MatchOptions opt;
    MatchTally tally;
    Board *openings = NULL;
    int count = 0;
    int status = match_parse_options(argc, argv, &opt);
    memset(&tally, 0, sizeof tally);
    if (status == 0)
        status = openings_load(opt.openings, &openings, &count);
    if (status == 0 && opt.pgn && !(tally.pgn = fopen(opt.pgn, "w"))) {
        fprintf(stderr, "error: cannot write %s\n", opt.pgn);
        status = EXIT_USAGE;
    }
    if (status == 0)
        status = opt.concurrency > 1 ? match_run_workers(s, &opt, openings, count, &tally)
                                     : match_run_serial(s, &opt, openings, count, &tally);
    if (status == 0)
        match_summary(&opt, &tally);
    if (tally.pgn)
        fclose(tally.pgn);
    free(openings);
    return status;
}

/* Prints the final score on stdout; with --sprt also the pentanomial Elo, then the verdict. */
static void match_summary(const MatchOptions *opt, const MatchTally *t)
{
    const int *score = t->score, *pairs = t->pairs;
    double lower, upper;
    char elo[100];
    match_elo_text(score, GAME_SCORES, 3, 0, elo, sizeof elo);
    printf("%s %s vs %s: %d games, +%d =%d -%d, score %.1f%%, %s\n", ENGINE_NAME, ENGINE_VERSION, t->opponent,
           t->played, score[0], score[1], score[2], 100.0 * (score[0] + score[1] / 2.0) / t->played, elo);
    if (!opt->sprt)
        return;
    match_elo_text(pairs, PAIR_SCORES, PAIR_OUTCOMES, 1, elo, sizeof elo);
    printf("pentanomial %d %d %d %d %d (pairs scoring 0, 1/2, 1, 3/2, 2), %s\n", pairs[0], pairs[1], pairs[2],
           pairs[3], pairs[4], elo);
    match_sprt_bounds(opt, &lower, &upper);
    printf("SPRT [%g,%g]: %s (LLR %.2f, bounds %.2f..%.2f)\n", opt->elo0, opt->elo1,
           t->verdict > 0 ? "H1 accepted" : t->verdict < 0 ? "H0 accepted" : "inconclusive", t->llr, lower, upper);
}

/* Plays the games one after the other in this process, counting each; returns 0, or 1 after an
 * error line. */
static int match_run_serial(Search *s, const MatchOptions *opt, const Board *openings, int count, MatchTally *t)
{
    static Game game;
    MatchOpponent opponent;
    int number, stop = 0;
    for (number = 0; number < opt->games && !stop; number++) {
        if (match_play_game(s, opt, openings, count, number, &game, &opponent) != 0)
            return 1;
        stop = match_record(t, opt, &game, opponent.name);
    }
    return 0;
}

/* Plays the games in opt->concurrency worker processes, each sent the next game when it is
 * free, and counts them in their order; when the match may stop, the games still being played
 * are abandoned (their workers killed) and not counted. Returns 0, or 1 after an error line. */
static int match_run_workers(Search *s, const MatchOptions *opt, const Board *openings, int count, MatchTally *t)
{
    static Worker workers[WORKERS_MAX];
    static MatchReport report;
    MatchReport *window = malloc(sizeof(MatchReport) * MATCH_WINDOW); /* not static: 0.5 MB */
    int playing[WORKERS_MAX]; /* each worker's game, -1 when it waits */
    int n = opt->concurrency < opt->games ? opt->concurrency : opt->games, next = 0, stop = 0, status = 0, k;
    char err[200];
    if (!window) {
        fprintf(stderr, "error: out of memory for the match\n");
        return 1;
    }
    for (k = 0; k < MATCH_WINDOW; k++)
        window[k].number = -1;
    for (k = 0; k < n && status == 0; k++) {
        int started = worker_start(workers, k, err, sizeof err);
        if (started == 0)
            match_worker(s, opt, openings, count, &workers[k]);
        if (started < 0) {
            fprintf(stderr, "error: match: %s\n", err);
            status = 1;
            n = k;
        }
        playing[k] = -1;
    }
    while (status == 0 && !stop && t->played < opt->games) {
        for (k = 0; k < n; k++)
            if (playing[k] < 0 && next < opt->games && next < t->played + MATCH_WINDOW
                && worker_write(&workers[k], &next, sizeof next))
                playing[k] = next++;
        k = worker_wait(workers, n);
        if (k < 0 || !worker_read(&workers[k], &report, sizeof report) || report.number != playing[k]) {
            fprintf(stderr, "error: match: a worker process ended unexpectedly\n");
            status = 1;
            break;
        }
        playing[k] = -1;
        status = report.status;
        window[report.number % MATCH_WINDOW] = report;
        while (!stop && window[t->played % MATCH_WINDOW].number == t->played) {
            MatchReport *r = &window[t->played % MATCH_WINDOW];
            r->number = -1;
            stop = match_record(t, opt, &r->game, r->opponent);
        }
    }
    for (k = 0; k < n; k++)
        worker_stop(&workers[k], playing[k] >= 0);
    free(window);
    return status;
}

/* A worker's life: plays each game whose number the parent sends and sends back its report,
 * until the parent closes the pipe; then ends the process. */
static void match_worker(Search *s, const MatchOptions *opt, const Board *openings, int count, const Worker *w)
{
    static MatchReport report;
    MatchOpponent opponent;
    int number;
    while (worker_read(w, &number, sizeof number)) {
        memset(&report, 0, sizeof report);
        report.number = number;
        report.status = match_play_game(s, opt, openings, count, number, &report.game, &opponent);
        snprintf(report.opponent, sizeof report.opponent, "%s", opponent.name);
        if (!worker_write(w, &report, sizeof report))
            break;
    }
    worker_exit(0);
}

/* Counts a finished game, the games coming in their order: the running score line on stderr
 * (with the LLR under --sprt), the game appended to the PGN. Returns 1 once the SPRT has its
 * verdict, else 0. */
static int match_record(MatchTally *t, const MatchOptions *opt, const Game *g, const char *opponent)
{
    char elo[100], llr[80] = "";
    int outcome = match_outcome(g), stop = 0;
    double lower, upper;
    snprintf(t->opponent, sizeof t->opponent, "%s", opponent);
    t->score[outcome]++;
    t->played++;
    if (t->played % 2 == 1) {
        t->half_points = 2 - outcome;
    } else {
        t->pairs[t->half_points + 2 - outcome]++;
        stop = opt->sprt && match_sprt_update(t, opt);
    }
    if (opt->sprt) {
        match_sprt_bounds(opt, &lower, &upper);
        snprintf(llr, sizeof llr, ", LLR %.2f (%.2f..%.2f)", t->llr, lower, upper);
    }
    match_elo_text(t->score, GAME_SCORES, 3, 0, elo, sizeof elo);
    fprintf(stderr, "game %d/%d: %s %s %s (%s) | %s +%d =%d -%d, %s%s\n", t->played, opt->games,
            g->engine_white ? ENGINE_NAME : opponent, g->result, g->engine_white ? opponent : ENGINE_NAME,
            g->reason, ENGINE_NAME, t->score[0], t->score[1], t->score[2], elo, llr);
    if (t->pgn) {
        match_write_pgn(t->pgn, g, t->played, opponent, opt);
        fflush(t->pgn);
    }
    return stop;
}

/* Reads match's options into opt; returns 0, or EXIT_USAGE after one error line. */
static int match_parse_options(int argc, char **argv, MatchOptions *opt)
{
    int status;
    memset(opt, 0, sizeof *opt);
    opt->alpha = opt->beta = 0.05;
    opt->concurrency = 1;
    status = parse_options(argc, argv, "match", match_option, opt);
    if (status != 0)
        return status;
    if (!HAVE_POSIX)
        opt->concurrency = 1; /* workers are processes */
    if (!opt->opponent || !opt->games || (opt->seconds <= 0 && !opt->nodes)) {
        fprintf(stderr, "error: usage: engine match --opponent \"COMMAND\"|random --games N --time SECONDS|--nodes N"
                        " [--concurrency K] [--sprt ELO0,ELO1 [--alpha A] [--beta B]] [--openings FILE] [--pgn FILE]\n");
        return EXIT_USAGE;
    }
    if (opt->sprt && opt->games % 2 != 0) {
        fprintf(stderr, "error: match: --sprt counts game pairs, so --games must be even\n");
        return EXIT_USAGE;
    }
    return 0;
}

/* Takes one of match's options into options (a MatchOptions); returns 1, or 0 for an unknown
 * key or a bad value. */
static int match_option(void *options, const char *key, const char *value)
{
    MatchOptions *opt = options;
    const char *end;
    long long n;
    if (strcmp(key, "--opponent") == 0) {
        opt->opponent = value;
    } else if (strcmp(key, "--openings") == 0) {
        opt->openings = value;
    } else if (strcmp(key, "--pgn") == 0) {
        opt->pgn = value;
    } else if (strcmp(key, "--games") == 0 || strcmp(key, "--concurrency") == 0) {
        int games = key[2] == 'g';
        if (!parse_count(value, games ? MATCH_GAMES_MAX : WORKERS_MAX, &n))
            return 0;
        *(games ? &opt->games : &opt->concurrency) = (int)n;
    } else if (strcmp(key, "--time") == 0) {
        return parse_seconds(value, &opt->seconds);
    } else if (strcmp(key, "--nodes") == 0) {
        return parse_count(value, (long long)1e12, &opt->nodes);
    } else if (strcmp(key, "--sprt") == 0) {
        return opt->sprt = parse_decimal(value, &end, &opt->elo0) && *end == ',' && parse_decimal(end + 1, &end, &opt->elo1)
                           && *end == '\0' && opt->elo0 < opt->elo1;
    } else if (strcmp(key, "--alpha") == 0 || strcmp(key, "--beta") == 0) {
        return parse_decimal(value, &end, key[2] == 'a' ? &opt->alpha : &opt->beta) && *end == '\0'
               && opt->alpha > 0 && opt->alpha < 0.5 && opt->beta > 0 && opt->beta < 0.5;
    } else {
        return 0;
    }
    return 1;
}

/* Plays game `number` (from 0) of the match, our search against the opponent, from opening
 * number / 2 (wrapping around the count of them), ours white when number is even; records the
 * moves and the result. Returns 0, or 1 after an error line if the opponent's process cannot
 * be started. */
static int match_play_game(Search *s, const MatchOptions *opt, const Board *openings, int count, int number,
                           Game *game, MatchOpponent *o)
{
    static uint64_t keys[GAME_MAX_PLIES + 1];
    Board board = openings[(number / 2) % count];
    uint64_t random_state = MATCH_RANDOM_SEED ^ (uint64_t)number;
    char how[100];
    int random = strcmp(opt->opponent, "random") == 0, playing, engine_moves = 0;
    game_begin(game, &board, keys);
    game->engine_white = number % 2 == 0;
    o->child.pid = 0;
    snprintf(o->name, sizeof o->name, "%s", opt->opponent);
    playing = random ? 1 : match_opponent_start(o, opt, game);
    if (playing < 0)
        return 1;
    while (playing && !game_over(&board, keys, game)) {
        Move m = MOVE_NONE;
        long long nodes = match_move_nodes(opt, count, number, game->ply_count);
        if ((board.side == WHITE) == game->engine_white)
            m = match_engine_move(s, &board, keys, game->ply_count + 1, opt->seconds, nodes, engine_moves++ == 0);
        else if (random)
            m = random_move(&board, &random_state);
        else
            playing = match_opponent_move(o, game, &board, opt->seconds, nodes, &m);
        if (playing)
            game_play(game, &board, keys, m);
    }
    if (o->child.pid)
        child_send(&o->child, "quit");
    child_stop(&o->child, how, sizeof how);
    return 0;
}

/* Starts the opponent and runs the UCI handshake (uci, isready, ucinewgame, isready); returns 1,
 * 0 after forfeiting the game for it, or -1 after an error line if no process can be started. */
static int match_opponent_start(MatchOpponent *o, const MatchOptions *opt, Game *g)
{
    char command[MATCH_LINE], line[MATCH_LINE], err[200];
    double wait = 3 * opt->seconds > MATCH_HANDSHAKE_MS / 1000.0 ? 3 * opt->seconds : MATCH_HANDSHAKE_MS / 1000.0;
    snprintf(command, sizeof command, "exec %s", opt->opponent);
    if (!child_start(&o->child, command, err, sizeof err)) {
        fprintf(stderr, "error: match: cannot start the opponent: %s\n", err);
        return -1;
    }
    child_send(&o->child, "uci");
    if (!match_expect(o, "uciok", wait, line, sizeof line, g))
        return 0;
    child_send(&o->child, "isready");
    if (!match_expect(o, "readyok", wait, line, sizeof line, g))
        return 0;
    child_send(&o->child, "ucinewgame");
    child_send(&o->child, "isready");
    return match_expect(o, "readyok", wait, line, sizeof line, g);
}

/* Reads the opponent's lines until one starts with the word `word` (left in line), noting its
 * `id name`; returns 1, or 0 after forfeiting the game for it (silent too long, or crashed). */
static int match_expect(MatchOpponent *o, const char *word, double wait, char *line, size_t size, Game *g)
{
    double deadline = clock_now() + wait;
    size_t len = strlen(word);
    char how[100];
    int r;
    while ((r = child_read_line(&o->child, line, size, deadline)) == 1) {
        if (strncmp(line, "id name ", 8) == 0)
            snprintf(o->name, sizeof o->name, "%s", line + 8);
        if (strncmp(line, word, len) == 0 && (line[len] == '\0' || line[len] == ' '))
            return 1;
    }
    if (r == 0)
        return match_forfeit(g, "time forfeit", "no '%s' within %.2f s", word, wait);
    child_stop(&o->child, how, sizeof how);
    return match_forfeit(g, "abandoned", "crashed (%s) before '%s'", how, word);
}

/* Asks the opponent for its move in the game so far (position fen ... moves ..., then go nodes
 * and/or movetime); returns 1 with the move in m, or 0 after forfeiting the game for it. */
static int match_opponent_move(MatchOpponent *o, Game *g, const Board *b, double seconds, long long nodes, Move *m)
{
    static char command[FEN_MAX + 32 + 6 * GAME_MAX_PLIES];
    char line[MATCH_LINE], fen[FEN_MAX], token[16] = "", answer[8] = "", played[8];
    Board now = *b;
    double wait = 0;
    size_t used;
    int i;
    if (seconds > 0)
        wait = 3 * seconds > seconds + MATCH_SLACK_MS / 1000.0 ? 3 * seconds : seconds + MATCH_SLACK_MS / 1000.0;
    if (nodes && wait < MATCH_NODES_WAIT_MS / 1000.0 + (double)nodes / MATCH_SLOW_NODES_PER_SECOND)
        wait = MATCH_NODES_WAIT_MS / 1000.0 + (double)nodes / MATCH_SLOW_NODES_PER_SECOND;
    board_to_fen(&g->start, fen);
    used = (size_t)snprintf(command, sizeof command, "position fen %s%s", fen, g->ply_count ? " moves" : "");
    for (i = 0; i < g->ply_count; i++) {
        move_to_uci(g->moves[i], played);
        used += (size_t)snprintf(command + used, sizeof command - used, " %s", played);
    }
    child_send(&o->child, command);
    used = (size_t)snprintf(line, sizeof line, "go");
    if (nodes)
        used += (size_t)snprintf(line + used, sizeof line - used, " nodes %lld", nodes);
    if (seconds > 0)
        snprintf(line + used, sizeof line - used, " movetime %.0f", seconds * 1000 > 1 ? seconds * 1000 : 1);
    child_send(&o->child, line);
    if (!match_expect(o, "bestmove", wait, line, sizeof line, g))
        return 0;
    sscanf(line + 8, "%15s", token);
    if (move_from_text(&now, token, m) == PARSE_OK)
        move_to_uci(*m, answer);
    if (!token[0] || strcmp(token, answer) != 0)
        return match_forfeit(g, "rules infraction", "illegal move '%s'", token);
    return 1;
}

/* Our move, searched in s with the game's position keys so that the search sees repetitions,
 * its clock started now: at fixed nodes the search of a UCI game (new_game on our first move),
 * also stopped by the one-shot budget of seconds if any; with seconds alone the one-shot search. */
static Move match_engine_move(Search *s, Board *b, const uint64_t *keys, int key_count, double seconds, long long nodes,
                              int new_game)
{
    Limits limits;
    MoveList list;
    memset(&limits, 0, sizeof limits);
    limits.start = clock_now();
    if (!nodes) {
        gen_legal(b, &list, GEN_ALL);
        return search_one_shot(s, b, list.moves, list.count, keys, key_count, seconds, &limits);
    }
    limits.node_limit = (uint64_t)nodes;
    if (seconds > 0)
        limits.hard_deadline = limits.soft_deadline = limits.start + move_budget(seconds);
    return search_game_move(s, b, keys, key_count, &limits, new_game);
}

/* The nodes of both sides for the move at ply of game `number` (0 without --nodes): --nodes on
 * the first pass over the openings. At fixed nodes an opening played again would replay the
 * same game, so later passes draw each move's nodes from 0.75 to 1.25 times --nodes, seeded
 * by the game pair and the ply: both games of a pair get the same draws. */
static long long match_move_nodes(const MatchOptions *opt, int count, int number, int ply)
{
    uint64_t state = MATCH_RANDOM_SEED ^ ((uint64_t)(number / 2) << 16) ^ (uint64_t)ply;
    if (!opt->nodes || number / 2 < count)
        return opt->nodes;
    return opt->nodes * 3 / 4 + (long long)(random_next(&state) % (uint64_t)(opt->nodes / 2 + 1));
}

/* Records that the opponent loses the game, the reason printf-style; returns 0. */
static int match_forfeit(Game *g, const char *termination, const char *format, ...)
{
    va_list ap;
    char *p;
    snprintf(g->result, sizeof g->result, "%s", g->engine_white ? "1-0" : "0-1");
    snprintf(g->termination, sizeof g->termination, "%s", termination);
    strcpy(g->reason, "opponent forfeits: ");
    va_start(ap, format);
    vsnprintf(g->reason + strlen(g->reason), sizeof g->reason - strlen(g->reason), format, ap);
    va_end(ap);
    for (p = g->reason; *p; p++)
        if (strchr("{}\"\\", *p) || !isprint((unsigned char)*p))
            *p = '?'; /* the reason goes into a PGN comment and tag */
    return 0;
}

/* Returns 0, 1 or 2 if the game was a win, a draw or a loss for our engine. */
static int match_outcome(const Game *g)
{
    if (strcmp(g->result, "1/2-1/2") == 0)
        return 1;
    return (strcmp(g->result, "1-0") == 0) == g->engine_white ? 0 : 2;
}

/* Updates the LLR after a game pair and, from MATCH_SPRT_MIN_PAIRS pairs on, the verdict once
 * the LLR crosses a bound; returns 1 then.
 * The GSPRT of fishtest for logistic Elo on pentanomial pair scores (Michel Van den Bergh,
 * "A GSPRT approximation", hardy.uhasselt.be/Fishtest): with N pairs of mean score s and
 * variance v (per pair, scores on the per-game scale), and s0, s1 the scores that ELO0 and
 * ELO1 expect, LLR = N (s1 - s0) (2 s - s0 - s1) / (2 v). */
static int match_sprt_update(MatchTally *t, const MatchOptions *opt)
{
    double variance, n, lower, upper;
    double s = match_moments(t->pairs, PAIR_SCORES, PAIR_OUTCOMES, MATCH_SPRT_PRIOR, &variance, &n);
    double s0 = match_logistic(opt->elo0), s1 = match_logistic(opt->elo1);
    match_sprt_bounds(opt, &lower, &upper);
    t->llr = n * (s1 - s0) * (2 * s - s0 - s1) / (2 * variance);
    if (t->played / 2 < MATCH_SPRT_MIN_PAIRS)
        return 0;
    t->verdict = t->llr >= upper ? 1 : t->llr <= lower ? -1 : 0;
    return t->verdict != 0;
}

/* The SPRT's bounds (Wald): ln(beta / (1 - alpha)) and ln((1 - beta) / alpha). */
static void match_sprt_bounds(const MatchOptions *opt, double *lower, double *upper)
{
    *lower = -ln((1 - opt->alpha) / opt->beta); /* ln() is most precise above 1 */
    *upper = ln((1 - opt->beta) / opt->alpha);
}

/* Returns the mean score of outcomes worth value[i] seen count[i] times (an outcome never seen
 * counts prior times) and sets their variance and total count. */
static double match_moments(const int *count, const double *value, int outcomes, double prior, double *variance, double *n)
{
    double mean = 0, sum = 0;
    int i;
    *n = 0;
    for (i = 0; i < outcomes; i++) {
        double c = count[i] ? count[i] : prior;
        *n += c;
        sum += c * value[i];
    }
    mean = sum / *n;
    *variance = 0;
    for (i = 0; i < outcomes; i++)
        *variance += (count[i] ? count[i] : prior) * (value[i] - mean) * (value[i] - mean);
    *variance /= *n;
    return mean;
}

/* Writes the Elo difference of a score with its 95% margin (decimals after the point), the score
 * counted over outcomes worth value[i] seen count[i] times: games (trinomial, the model the
 * referee uses) or game pairs (pentanomial, which also sees what an opening gives both sides).
 * inf where the score is 0 or 1, n/a where the interval reaches them. */
static void match_elo_text(const int *count, const double *value, int outcomes, int decimals, char *out, size_t size)
{
    double variance, n, s = match_moments(count, value, outcomes, 0, &variance, &n);
    double se = match_sqrt(variance / n), low = s - MATCH_Z95 * se, high = s + MATCH_Z95 * se;
    if (s <= 0 || s >= 1)
        snprintf(out, size, "Elo %cinf", s <= 0 ? '-' : '+');
    else if (low <= 0 || high >= 1)
        snprintf(out, size, "Elo %+.*f +/- n/a", decimals, match_elo(s));
    else
        snprintf(out, size, "Elo %+.*f +/- %.*f", decimals, match_elo(s), decimals, (match_elo(high) - match_elo(low)) / 2);
}

/* The Elo difference that expects the score s (0 < s < 1): 400 log10(s / (1 - s)). */
static double match_elo(double s)
{
    double x = s / (1 - s);
    return 400 * (x < 1 ? -ln(1 / x) : ln(x)) / ln(10); /* ln() is most precise above 1 */
}

/* The score that an Elo difference expects: 1 / (1 + 10^(-elo / 400)). */
static double match_logistic(double elo)
{
    return 1 / (1 + match_exp(-elo * ln(10) / 400));
}

/* e^x, halving x below 1/16 for a short Taylor sum and squaring back (without libm). */
static double match_exp(double x)
{
    double sum = 1, term = 1;
    int halvings = 0, i;
    for (; x > 0.0625 || x < -0.0625; halvings++)
        x /= 2;
    for (i = 1; i < 12; i++) {
        term *= x / i;
        sum += term;
    }
    while (halvings-- > 0)
        sum *= sum;
    return sum;
}

/* Square root by Newton's method (the engine links without libm). */
static double match_sqrt(double x)
{
    double r = x > 1 ? x : 1;
    int i;
    if (x <= 0)
        return 0;
    for (i = 0; i < 64; i++)
        r = (r + x / r) / 2;
    return r;
}

/* Appends one game as PGN: the tags, the moves in SAN, the reason in a comment, the result. */
static void match_write_pgn(FILE *out, const Game *g, int round, const char *opponent, const MatchOptions *opt)
{
    Board b = g->start, standard;
    char fen[FEN_MAX], text[sizeof g->reason + 2];
    time_t now = time(NULL);
    int i, column = 0;
    board_start(&standard);
    match_limits_text(opt, fen, sizeof fen);
    snprintf(text, sizeof text, "%s match, %s per move", ENGINE_NAME, fen);
    match_pgn_tag(out, "Event", text);
    match_pgn_tag(out, "Site", "?");
    strftime(text, sizeof text, "%Y.%m.%d", localtime(&now));
    match_pgn_tag(out, "Date", text);
    snprintf(text, sizeof text, "%d", round);
    match_pgn_tag(out, "Round", text);
    match_pgn_tag(out, "White", g->engine_white ? ENGINE_NAME " " ENGINE_VERSION : opponent);
    match_pgn_tag(out, "Black", g->engine_white ? opponent : ENGINE_NAME " " ENGINE_VERSION);
    match_pgn_tag(out, "Result", g->result);
    board_to_fen(&b, fen);
    board_to_fen(&standard, text);
    if (strcmp(fen, text) != 0) {
        match_pgn_tag(out, "SetUp", "1");
        match_pgn_tag(out, "FEN", fen);
    }
    match_pgn_tag(out, "Termination", g->termination);
    match_pgn_tag(out, "TerminationDetails", g->reason);
    snprintf(text, sizeof text, "%d", g->ply_count);
    match_pgn_tag(out, "PlyCount", text);
    fputc('\n', out);
    for (i = 0; i < g->ply_count; i++) {
        Undo u;
        if (b.side == WHITE || i == 0) {
            snprintf(text, sizeof text, "%d.%s", b.fullmove, b.side == WHITE ? "" : "..");
            match_pgn_token(out, &column, text);
        }
        move_to_san(&b, g->moves[i], text);
        match_pgn_token(out, &column, text);
        board_make(&b, g->moves[i], &u);
    }
    snprintf(text, sizeof text, "{%s}", g->reason);
    match_pgn_token(out, &column, text);
    match_pgn_token(out, &column, g->result);
    fputs("\n\n", out);
}

/* Writes the limits of a move: "0.1 s", "20000 nodes" or "20000 nodes and 0.1 s". */
static void match_limits_text(const MatchOptions *opt, char *out, size_t size)
{
    if (opt->nodes && opt->seconds > 0)
        snprintf(out, size, "%lld nodes and %g s", opt->nodes, opt->seconds);
    else if (opt->nodes)
        snprintf(out, size, "%lld nodes", opt->nodes);
    else
        snprintf(out, size, "%g s", opt->seconds);
}

/* Writes a PGN tag pair; quotes and backslashes in the value become apostrophes and slashes. */
static void match_pgn_tag(FILE *out, const char *name, const char *value)
{
    fprintf(out, "[%s \"", name);
    for (; *value; value++)
        fputc(*value == '"' ? '\'' : *value == '\\' ? '/' : *value, out);
    fputs("\"]\n", out);
}

/* Writes a movetext token, starting a new line where this one would pass 79 columns. */
static void match_pgn_token(FILE *out, int *column, const char *token)
{
    int len = (int)strlen(token);
    if (*column > 0 && *column + 1 + len > 79) {
        fputc('\n', out);
        *column = 0;
    } else if (*column > 0) {
        fputc(' ', out);
        (*column)++;
    }
    fputs(token, out);
    *column += len;
}

/* The processes of a match: the opponent, a child spoken to through pipes, and the workers,
 * copies of this process that play games for it (POSIX; without it, none start). */

/* Forks this process with a pipe each way (close-on-exec, so that no program started later
 * inherits them): returns the new process's pid here and 0 in the new process, each keeping
 * its own two ends, `in` to read and `out` to write; or -1 with a reason, what could not
 * start being `what` (always -1 without POSIX). Here, a dead process no longer kills us on
 * the next write (SIGPIPE is ignored). */
static long fork_with_pipes(int *in, int *out, const char *what, char *err, size_t err_size)
{
#if HAVE_POSIX
    int down[2] = { -1, -1 }, up[2] = { -1, -1 }, i; /* down: to the new process; up: back */
    pid_t pid = -1;
    if (pipe(down) != 0 || pipe(up) != 0 || (pid = fork()) < 0) {
        snprintf(err, err_size, "cannot start %s: %s", what, strerror(errno));
        for (i = 0; i < 2; i++) {
            if (down[i] >= 0)
                close(down[i]);
            if (up[i] >= 0)
                close(up[i]);
        }
        return -1;
    }
    for (i = 0; i < 2; i++) {
        fcntl(down[i], F_SETFD, FD_CLOEXEC);
        fcntl(up[i], F_SETFD, FD_CLOEXEC);
    }
    close(pid == 0 ? down[1] : down[0]);
    close(pid == 0 ? up[0] : up[1]);
    *in = pid == 0 ? down[0] : up[0];
    *out = pid == 0 ? up[1] : down[1];
    if (pid != 0)
        signal(SIGPIPE, SIG_IGN);
    return (long)pid;
#else
    (void)in;
    (void)out;
    snprintf(err, err_size, "this build cannot start %s (no POSIX fork, exec, pipe)", what);
    return -1;
#endif
}

/* Starts `command` through /bin/sh in its own process group, its stdin and stdout on pipes
 * and its stderr on /dev/null; returns 1, or 0 with a reason (always 0 without POSIX). */
static int child_start(Child *c, const char *command, char *err, size_t err_size)
{
    int in, out;
    long pid = fork_with_pipes(&in, &out, "a process", err, err_size);
    c->pid = 0;
    c->used = 0;
    if (pid < 0)
        return 0;
#if HAVE_POSIX
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        setpgid(0, 0);
        dup2(in, 0);
        dup2(out, 1);
        if (null >= 0)
            dup2(null, 2);
        signal(SIGPIPE, SIG_DFL); /* undo our SIG_IGN, which exec would pass on */
        execl("/bin/sh", "sh", "-c", command, (char *)NULL);
        _exit(127);
    }
    setpgid((pid_t)pid, (pid_t)pid);
    child_group = (sig_atomic_t)pid;
#else
    (void)command;
#endif
    c->pid = pid;
    c->to_child = out;
    c->from_child = in;
    return 1;
}

/* Writes line and its newline to the child in one write, as a GUI does; returns 0 if the
 * child cannot take them or the line is too long. */
static int child_send(Child *c, const char *line)
{
    char buf[8192];
    size_t len = strlen(line);
    if (!c->pid || len + 1 > sizeof buf)
        return 0;
    memcpy(buf, line, len);
    buf[len++] = '\n';
    return pipe_transfer(c->to_child, buf, len, 1);
}

/* Reads one line from the child into line (without its newline, cut to size), waiting until
 * clock_now() reaches deadline; returns 1, 0 on timeout, -1 when its output is closed. */
static int child_read_line(Child *c, char *line, size_t size, double deadline)
{
#if HAVE_POSIX
    for (;;) {
        char *end = memchr(c->buf, '\n', c->used);
        struct pollfd p;
        ssize_t n;
        double wait = deadline - clock_now();
        if (end) {
            size_t len = (size_t)(end - c->buf), keep = len < size - 1 ? len : size - 1;
            memcpy(line, c->buf, keep);
            line[keep > 0 && line[keep - 1] == '\r' ? keep - 1 : keep] = '\0';
            c->used -= len + 1;
            memmove(c->buf, end + 1, c->used);
            return 1;
        }
        if (c->used == sizeof c->buf)
            c->used = 0; /* a line longer than the buffer is dropped */
        if (!c->pid || wait <= 0)
            return c->pid ? 0 : -1;
        p.fd = c->from_child;
        p.events = POLLIN;
        if (poll(&p, 1, (int)(wait * 1000) + 1) <= 0)
            continue; /* timeout or signal: the clock decides */
        n = read(c->from_child, c->buf + c->used, sizeof c->buf - c->used);
        if (n == 0 || (n < 0 && errno != EINTR))
            return -1;
        c->used += n > 0 ? (size_t)n : 0;
    }
#else
    (void)c;
    (void)line;
    (void)size;
    (void)deadline;
    return -1;
#endif
}

/* Ends the child: closes its input, gives it 0.2 s to exit, then kills its process group,
 * reaps it and describes how it ended in how ("exited with status 0", "killed by signal 9"). */
static void child_stop(Child *c, char *how, size_t how_size)
{
#if HAVE_POSIX
    int status = 0, i;
    pid_t done = 0;
    snprintf(how, how_size, "not running");
    if (!c->pid)
        return;
    close(c->to_child);
    for (i = 0; i < 20 && (done = waitpid((pid_t)c->pid, &status, WNOHANG)) == 0; i++)
        poll(NULL, 0, 10);
    kill(-(pid_t)c->pid, SIGKILL); /* also whatever it started */
    child_group = 0;
    if (done <= 0)
        while (waitpid((pid_t)c->pid, &status, 0) < 0 && errno == EINTR)
            ;
    close(c->from_child);
    c->pid = 0;
    if (WIFSIGNALED(status))
        snprintf(how, how_size, "killed by signal %d", WTERMSIG(status));
    else
        snprintf(how, how_size, "exited with status %d", WEXITSTATUS(status));
#else
    (void)c;
    snprintf(how, how_size, "not running");
#endif
}

/* Forks workers[index] with its two pipes (fork_with_pipes); returns 1 in the parent, 0 in the
 * worker (which closes the parent's ends to the earlier workers, so that each sees the end of
 * its own input), -1 with a reason if it cannot. */
static int worker_start(Worker *workers, int index, char *err, size_t err_size)
{
    Worker *w = &workers[index];
    long pid = fork_with_pipes(&w->in, &w->out, "a worker process", err, err_size);
    int i;
    if (pid < 0)
        return -1;
    w->pid = pid;
    if (pid > 0)
        return 1;
#if HAVE_POSIX
    for (i = 0; i < index; i++) {
        close(workers[i].in);
        close(workers[i].out);
    }
    signal(SIGTERM, worker_on_signal);
    signal(SIGINT, worker_on_signal);
#else
    (void)i;
#endif
    return 0;
}

/* Writes size bytes of data to fd (writing), or reads exactly size bytes from it into data,
 * waiting for them and going on after a signal; returns 1, or 0 if the other side is gone (or
 * closed its end) first. Always 0 without POSIX. */
static int pipe_transfer(int fd, void *data, size_t size, int writing)
{
#if HAVE_POSIX
    char *p = data;
    while (size > 0) {
        ssize_t n = writing ? write(fd, p, size) : read(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return 0;
        p += n;
        size -= (size_t)n;
    }
    return 1;
#else
    (void)fd;
    (void)data;
    (void)size;
    (void)writing;
    return 0;
#endif
}

/* Writes size bytes to the other side; returns 1, or 0 if it is gone. */
static int worker_write(const Worker *w, void *data, size_t size)
{
    return pipe_transfer(w->out, data, size, 1);
}

/* Reads exactly size bytes from the other side, waiting for them; returns 1, or 0 if it is
 * gone (or closed its end) first. */
static int worker_read(const Worker *w, void *data, size_t size)
{
    return pipe_transfer(w->in, data, size, 0);
}

/* Waits until one of the count workers has written something (or ended); returns its index,
 * or -1 if waiting fails. */
static int worker_wait(const Worker *workers, int count)
{
#if HAVE_POSIX
    struct pollfd p[WORKERS_MAX];
    int i, n = count < WORKERS_MAX ? count : WORKERS_MAX;
    for (i = 0; i < n; i++) {
        p[i].fd = workers[i].in;
        p[i].events = POLLIN;
        p[i].revents = 0;
    }
    while (poll(p, (nfds_t)n, -1) < 0)
        if (errno != EINTR)
            return -1;
    for (i = 0; i < n; i++)
        if (p[i].revents)
            return i;
    return -1;
#else
    (void)workers;
    (void)count;
    return -1;
#endif
}

/* Ends a worker and reaps it: closing its input ends an idle one; a busy one (now) first
 * gets SIGTERM, on which it kills its opponent. */
static void worker_stop(Worker *w, int now)
{
#if HAVE_POSIX
    int status;
    if (!w->pid)
        return;
    if (now)
        kill((pid_t)w->pid, SIGTERM);
    close(w->out);
    close(w->in);
    while (waitpid((pid_t)w->pid, &status, 0) < 0 && errno == EINTR)
        ;
    w->pid = 0;
#else
    (void)w;
    (void)now;
#endif
}

/* Ends this process at once, as a worker does: its parent owns the files and buffers. */
static void worker_exit(int status)
{
#if HAVE_POSIX
    _exit(status);
#else
    exit(status);
#endif
}

/* ================================================================= datagen */

/* engine datagen: self-play at fixed nodes for training data, one `FEN | SCORE | RESULT` line
 * per quiet position (the format of ../shared/data/labelled, which ../shared/datagen makes
 * with Stockfish), refereed by the match's rules. */

/* datagen: its options. Its games are adjudicated as ../shared/datagen adjudicates them. */
enum { DATAGEN_GAMES_MAX = 100000000, DATAGEN_PROGRESS_GAMES = 100, DATAGEN_SAMPLE_MAX = 1000 };
/* the rescoring engine answers a position within 5 s plus its nodes at 50 k nodes a second */
enum { DATAGEN_RESCORE_WAIT_MS = 5000, DATAGEN_RESCORE_NODES_PER_SECOND = 50000 };
enum { DATAGEN_RANDOM_PLIES = 6, DATAGEN_RANDOM_PLIES_SPAN = 4 };    /* 6 to 9 random plies first */
enum { DATAGEN_MIN_PLY = 8 };                                         /* no position kept before it */
enum { DATAGEN_WIN_SCORE = 1000, DATAGEN_WIN_PLIES = 6 };             /* a win: beyond 1000 cp for 6 plies */
enum { DATAGEN_DRAW_SCORE = 10, DATAGEN_DRAW_PLIES = 16, DATAGEN_DRAW_AFTER = 100 }; /* a draw: within 10 cp for 16 plies after ply 100 */
/* mixes the game's number into the seed; sets the sampling generator apart from the game's */
#define DATAGEN_GAME_MIX UINT64_C(0xD1B54A32D192ED03)
#define DATAGEN_SAMPLE_MIX UINT64_C(0x8CB92BA72F3D8DD7)
typedef struct {
    int games;
    long long nodes;        /* about this many a move: drawn from 0.75 to 1.25 times it */
    uint64_t seed;
    int seeded;             /* 1 once --seed is given */
    const char *out;        /* the file, or NULL for stdout */
    const char *openings;   /* a FEN/EPD file, or NULL for the start position */
    int sample;             /* keep about one quiet position in `sample` (1: every one) */
    const char *rescore;    /* a UCI engine that scores the kept positions instead, or NULL */
    long long rescore_nodes;/* its nodes a position */
} DatagenOptions;

/* prototypes */
static int datagen_parse_options(int argc, char **argv, DatagenOptions *opt);
static int datagen_option(void *options, const char *key, const char *value);
static int datagen_game(Search *s, const DatagenOptions *opt, const Board *openings, int count, int number,
                        Child *rescorer, FILE *out);
static int datagen_rescorer_start(Child *c, const char *command);
static int datagen_rescore(Child *c, const char *fen, long long nodes, int *white);

/* engine datagen --games N --nodes N --seed S [--openings FILE] [--out FILE] [--sample K]
 * [--rescore COMMAND --rescore-nodes N]: plays the games and writes their lines to stdout, or
 * to FILE.tmp renamed FILE at the end; a progress line on stderr every 100 games. Returns 0, or
 * an exit status after one error line. */
static int run_datagen(Search *s, int argc, char **argv)
{
    DatagenOptions opt;
    Board *openings = NULL;
    FILE *out = stdout;
    char tmp[4096];
    long long positions = 0;
    double start = clock_now();
    Child rescorer;
    char how[100];
    int count = 0, g, status = datagen_parse_options(argc, argv, &opt);
    rescorer.pid = 0;
    if (status == 0 && opt.openings)
        status = openings_load(opt.openings, &openings, &count);
    if (status == 0 && opt.rescore && !datagen_rescorer_start(&rescorer, opt.rescore))
        status = EXIT_FAILURE;
    if (status == 0 && opt.out) {
        snprintf(tmp, sizeof tmp, "%s.tmp", opt.out);
        if (!(out = fopen(tmp, "w"))) {
            fprintf(stderr, "error: cannot write %s\n", tmp);
            status = EXIT_USAGE;
        }
    }
    for (g = 0; status == 0 && g < opt.games; g++) {
        int kept = datagen_game(s, &opt, openings, count, g, opt.rescore ? &rescorer : NULL, out);
        if (kept < 0) {
            fprintf(stderr, "error: datagen: the rescoring engine stopped answering\n");
            status = EXIT_FAILURE;
            break;
        }
        positions += kept;
        if ((g + 1) % DATAGEN_PROGRESS_GAMES == 0 || g + 1 == opt.games)
            fprintf(stderr, "datagen: %d/%d games, %lld positions, %.1f s\n", g + 1, opt.games, positions, clock_now() - start);
    }
    if (status == 0 && (fflush(out) != 0 || ferror(out))) {
        fprintf(stderr, "error: cannot write %s\n", opt.out ? tmp : "stdout");
        status = EXIT_FAILURE;
    }
    if (opt.out && out) {
        fclose(out);
        if (status == 0 && rename(tmp, opt.out) != 0) {
            fprintf(stderr, "error: cannot rename %s to %s\n", tmp, opt.out);
            status = EXIT_FAILURE;
        }
    }
    child_stop(&rescorer, how, sizeof how);
    free(openings);
    return status;
}

/* Reads datagen's options into opt; returns 0, or EXIT_USAGE after one error line. */
static int datagen_parse_options(int argc, char **argv, DatagenOptions *opt)
{
    int status;
    memset(opt, 0, sizeof *opt);
    opt->sample = 1;
    status = parse_options(argc, argv, "datagen", datagen_option, opt);
    if (status == 0 && (!opt->games || !opt->nodes || !opt->seeded || (opt->rescore != NULL) != (opt->rescore_nodes > 0))) {
        fprintf(stderr, "error: usage: engine datagen --games N --nodes N --seed S [--openings FILE] [--out FILE] "
                        "[--sample K] [--rescore COMMAND --rescore-nodes N]\n");
        status = EXIT_USAGE;
    }
    return status;
}

/* Takes one of datagen's options into options (a DatagenOptions); returns 1, or 0 for an
 * unknown key or a bad value. */
static int datagen_option(void *options, const char *key, const char *value)
{
    DatagenOptions *opt = options;
    long long n = 0;
    if (strcmp(key, "--games") == 0) {
        if (!parse_count(value, DATAGEN_GAMES_MAX, &n))
            return 0;
        opt->games = (int)n;
    } else if (strcmp(key, "--nodes") == 0) {
        return parse_count(value, (long long)1e9, &opt->nodes);
    } else if (strcmp(key, "--seed") == 0) {
        if (strcmp(value, "0") != 0 && !parse_count(value, (long long)1e18, &n))
            return 0;
        opt->seed = (uint64_t)n;
        opt->seeded = 1;
    } else if (strcmp(key, "--out") == 0) {
        opt->out = value;
    } else if (strcmp(key, "--openings") == 0) {
        opt->openings = value;
    } else if (strcmp(key, "--sample") == 0) {
        if (!parse_count(value, DATAGEN_SAMPLE_MAX, &n))
            return 0;
        opt->sample = (int)n;
    } else if (strcmp(key, "--rescore") == 0) {
        opt->rescore = value;
    } else if (strcmp(key, "--rescore-nodes") == 0) {
        return parse_count(value, (long long)1e9, &opt->rescore_nodes);
    } else {
        return 0;
    }
    return 1;
}

/* Plays game `number` of the run and writes its kept positions to out; returns how many, or
 * -1 when the rescoring engine fails. The game's generator, seeded by the seed and number,
 * picks the opening (the start position without a file), 6 to 9 random plies (a game they end
 * is dropped) and each move's nodes; then our search plays both sides, its table kept for the
 * game, as in a UCI game. A position is kept when quiet: not in check, the move chosen neither
 * a capture nor a promotion, its score not a mate, at ply 8 or later; with a sample of K, one
 * such position in about K, drawn by a generator of its own so that the games stay the same.
 * Adjudicated as ../shared/datagen: a win once |score| stays beyond 1000 cp for 6 plies, a
 * draw after ply 100 once it stays within 10 cp for 16. With a rescorer its score replaces
 * ours, and a position it scores as a mate is dropped. */
static int datagen_game(Search *s, const DatagenOptions *opt, const Board *openings, int count, int number,
                        Child *rescorer, FILE *out)
{
    static Game game;
    static uint64_t keys[GAME_MAX_PLIES + 1];
    static char fens[GAME_MAX_PLIES][FEN_MAX];
    static int scores[GAME_MAX_PLIES];
    uint64_t state = opt->seed ^ ((uint64_t)number * DATAGEN_GAME_MIX), sample_state = state ^ DATAGEN_SAMPLE_MIX;
    Board board;
    int kept = 0, written = 0, random_plies, win_streak = 0, draw_streak = 0, i;
    const char *result;
    if (count)
        board = openings[random_next(&state) % (uint64_t)count];
    else
        board_start(&board);
    random_plies = DATAGEN_RANDOM_PLIES + (int)(random_next(&state) % DATAGEN_RANDOM_PLIES_SPAN);
    game_begin(&game, &board, keys);
    for (i = 0; i < random_plies; i++) {
        if (game_over(&board, keys, &game))
            return 0;
        game_play(&game, &board, keys, random_move(&board, &state));
    }
    while (!game_over(&board, keys, &game)) {
        Limits limits;
        int score, depth, white;
        Move m;
        memset(&limits, 0, sizeof limits);
        limits.start = clock_now();
        limits.node_limit = (uint64_t)(opt->nodes * 3 / 4) + random_next(&state) % (uint64_t)(opt->nodes / 2 + 1);
        if (limits.node_limit == 0)
            limits.node_limit = 1;
        m = search_game_move(s, &board, keys, game.ply_count + 1, &limits, game.ply_count == random_plies);
        score = s->best_score;
        depth = s->completed_depth;
        white = board.side == WHITE ? score : -score;
        if (depth > 0 && !board_in_check(&board) && !move_is_capture(&board, m) && move_kind(m) != KIND_PROMOTION
            && !score_is_mate(score) && game.ply_count >= DATAGEN_MIN_PLY
            && (opt->sample == 1 || random_next(&sample_state) % (uint64_t)opt->sample == 0)) {
            board_to_fen(&board, fens[kept]);
            scores[kept++] = white;
        }
        win_streak = abs(score) > DATAGEN_WIN_SCORE ? win_streak + 1 : 0;
        draw_streak = abs(score) <= DATAGEN_DRAW_SCORE ? draw_streak + 1 : 0;
        if (win_streak >= DATAGEN_WIN_PLIES) {
            game_end(&game, white > 0 ? "1-0" : "0-1", "adjudication", "win");
            break;
        }
        if (game.ply_count >= DATAGEN_DRAW_AFTER && draw_streak >= DATAGEN_DRAW_PLIES) {
            game_end(&game, "1/2-1/2", "adjudication", "draw");
            break;
        }
        game_play(&game, &board, keys, m);
    }
    result = strcmp(game.result, "1-0") == 0 ? "1.0" : strcmp(game.result, "0-1") == 0 ? "0.0" : "0.5";
    for (i = 0; i < kept; i++) {
        int rescored = rescorer ? datagen_rescore(rescorer, fens[i], opt->rescore_nodes, &scores[i]) : 1;
        if (rescored < 0)
            return -1;
        if (rescored == 1) {
            fprintf(out, "%s | %d | %s\n", fens[i], scores[i], result);
            written++;
        }
    }
    return written;
}

/* Starts the rescoring engine and waits for its uciok and readyok; returns 1, or 0 after an
 * error line. */
static int datagen_rescorer_start(Child *c, const char *command)
{
    char line[MATCH_LINE], err[200];
    double deadline = clock_now() + MATCH_HANDSHAKE_MS / 1000.0;
    int r = 0;
    snprintf(line, sizeof line, "exec %.4000s", command);
    if (!child_start(c, line, err, sizeof err)) {
        fprintf(stderr, "error: datagen: cannot start the rescoring engine: %s\n", err);
        return 0;
    }
    child_send(c, "uci");
    while ((r = child_read_line(c, line, sizeof line, deadline)) == 1 && strcmp(line, "uciok") != 0)
        ;
    child_send(c, "isready");
    while (r == 1 && (r = child_read_line(c, line, sizeof line, deadline)) == 1 && strcmp(line, "readyok") != 0)
        ;
    if (r != 1)
        print_line(stderr, "error: datagen: '%.200s' does not speak UCI (no uciok and readyok)", command);
    return r == 1;
}

/* Asks the rescoring engine for its score of the position fen at `nodes` nodes, into white
 * (centipawns, white's view); returns 1, 0 for a mate score, or -1 when it does not answer. */
static int datagen_rescore(Child *c, const char *fen, long long nodes, int *white)
{
    char line[MATCH_LINE];
    double deadline = clock_now() + DATAGEN_RESCORE_WAIT_MS / 1000.0 + (double)nodes / DATAGEN_RESCORE_NODES_PER_SECOND;
    int score = 0, found = 0, r;
    snprintf(line, sizeof line, "position fen %.*s", FEN_MAX, fen);
    child_send(c, line);
    snprintf(line, sizeof line, "go nodes %lld", nodes);
    child_send(c, line);
    while ((r = child_read_line(c, line, sizeof line, deadline)) == 1 && strncmp(line, "bestmove", 8) != 0) {
        const char *at = strncmp(line, "info ", 5) == 0 ? strstr(line, " score ") : NULL;
        if (at && sscanf(at, " score cp %d", &score) == 1)
            found = 1;
        else if (at && strncmp(at, " score mate", 11) == 0)
            found = 0;
    }
    if (r != 1)
        return -1;
    *white = strstr(fen, " w ") ? score : -score;
    return found;
}

/* ===================================================================== web */

/* The browser's side of the WebAssembly build: the rules for web/index.html and the bench,
 * and in the page's own build (ENGINE_WASM_PAGE) the engine's thinking with its score and
 * principal variation. JavaScript writes NUL-terminated strings into web_input() and reads
 * JSON from the result. */
#ifdef ENGINE_WASM

enum { WEB_BUFFER = 32768 };
static char web_in[WEB_BUFFER];  /* arguments, written by JavaScript */
static char web_out[WEB_BUFFER]; /* results, as JSON or text */
static size_t web_used;          /* bytes of web_out in use, always below WEB_BUFFER */

static void web_append(const char *format, ...);

static const char *web_error(const char *reason);
static const char *web_status(Board *b);
static const char *web_describe(Board *b, const char *san, const char *coords);

char *web_input(void);
const char *web_state(const char *fen);
const char *web_play(const char *fen, const char *move);
const char *web_bench(int depth);

#ifdef ENGINE_WASM_PAGE
enum { WEB_TT_MB = 64 };         /* the page's table: the largest a one-shot call uses (tt_megabytes_for) */

static int web_replay(Board *b, const char *moves, uint64_t *keys, int *key_count);
static const char *web_answer(Search *s, const Board *root, int legal_count, double seconds);
static void web_report(const Search *s, int depth, int score, int bound);

void web_progress(const char *line);  /* imported from env: one line of the search's report (report_text) */
const char *web_think(const char *fen, const char *moves, double seconds);
#endif

/* Appends printf-style output to web_out, cut short when it is full. */
static void web_append(const char *format, ...)
{
    va_list ap;
    int n;
    va_start(ap, format);
    n = vsnprintf(web_out + web_used, sizeof web_out - web_used, format, ap);
    va_end(ap);
    if (n > 0)
        web_used += (size_t)n < sizeof web_out - web_used ? (size_t)n : sizeof web_out - web_used - 1;
}

/* Returns {"error": reason} as JSON, with quotes and control characters made safe. */
static const char *web_error(const char *reason)
{
    web_used = 0;
    web_append("{\"error\":\"");
    for (; *reason; reason++) {
        unsigned char c = (unsigned char)*reason;
        web_append(c == '"' || c == '\\' ? "\\%c" : "%c", c < ' ' ? ' ' : c);
    }
    web_append("\"}");
    return web_out;
}

/* Names the state of the game for the page (board_status without a history): checkmate,
 * stalemate, a draw by rule ("material", "fifty"), or "play" on. */
static const char *web_status(Board *b)
{
    static const char *const CODES[] = { "play", "checkmate", "stalemate", "material", "repetition", "fifty" };
    return CODES[board_status(b, NULL, 0)]; /* in GameStatus order */
}

/* Returns the position as JSON: FEN, side to move, check, status and the legal moves in SAN
 * and coordinates, with the move that led here when san and coords are given. */
static const char *web_describe(Board *b, const char *san, const char *coords)
{
    MoveList list;
    char fen[FEN_MAX], move_san[SAN_MAX], move_uci[8];
    int in_check = board_in_check(b), i;
    gen_legal(b, &list, GEN_ALL);
    board_to_fen(b, fen);
    web_used = 0;
    web_append("{\"fen\":\"%s\",\"turn\":\"%c\",\"check\":%s,\"status\":\"%s\"", fen,
              b->side == WHITE ? 'w' : 'b', in_check ? "true" : "false", web_status(b));
    if (san && coords)
        web_append(",\"san\":\"%s\",\"uci\":\"%s\"", san, coords);
    web_append(",\"moves\":[");
    for (i = 0; i < list.count; i++) {
        move_to_san(b, list.moves[i], move_san);
        move_to_uci(list.moves[i], move_uci);
        web_append("%s{\"san\":\"%s\",\"uci\":\"%s\"}", i ? "," : "", move_san, move_uci);
    }
    web_append("]}");
    return web_out;
}

/* Returns the address of the argument buffer (WEB_BUFFER bytes). */
char *web_input(void)
{
    return web_in;
}

/* Returns the position given as FEN described as JSON, or {"error": ...}. */
const char *web_state(const char *fen)
{
    Board b;
    char err[200];
    if (!board_from_fen(&b, fen, err, sizeof err))
        return web_error(err);
    return web_describe(&b, NULL, NULL);
}

/* Plays a move (SAN or coordinates) in the position and returns the new one as JSON. */
const char *web_play(const char *fen, const char *move)
{
    Board b;
    Undo u;
    Move m;
    char err[200], san[SAN_MAX], coords[8];
    if (!board_from_fen(&b, fen, err, sizeof err))
        return web_error(err);
    if (move_from_text(&b, move, &m) != PARSE_OK)
        return web_error("not a legal move in this position");
    move_to_san(&b, m, san);
    move_to_uci(m, coords);
    board_make(&b, m, &u);
    return web_describe(&b, san, coords);
}

/* Runs the bench at depth (0: BENCH_DEPTH) and returns its signature, `nodes N`, as
 * `engine bench` prints it. */
const char *web_bench(int depth)
{
    static Search s; /* its own, so that web_think's table stays as it is */
    int positions;
    uint64_t nodes = bench_run(&s, depth > 0 && depth <= MAX_DEPTH ? depth : BENCH_DEPTH, &positions);
    search_free(&s);
    web_used = 0;
    web_append("nodes %llu\n", (unsigned long long)nodes);
    return web_out;
}

/* The course's WebAssembly entry point: the index of the chosen move, or -1 on bad input. */
int choose_move(char *fen, char *moves, int timeout);
int choose_move(char *fen, char *moves, int timeout)
{
    static Search context; /* the module's one search context */
    Limits limits;
    char err[200], warning[WARNING_MAX + 100];
    int index = -1;
    memset(&limits, 0, sizeof limits);
    limits.start = clock_now();
    if (timeout <= 0)
        return -1;
    limits.node_limit = (uint64_t)(WASM_NODES_PER_SECOND * move_budget(timeout));
    if (decide(&context, fen, moves, (double)timeout, &limits, &index, err, sizeof err, warning, sizeof warning) != 0)
        return -1;
    return index;
}

#ifdef ENGINE_WASM_PAGE
/* Plays moves (coordinates or SAN, separated by spaces) from b, keeping in keys the positions
 * since the last irreversible move, the one reached last included (at most KEY_HISTORY_MAX);
 * returns 0, or the number of the first move that is not legal (1 for the first). */
static int web_replay(Board *b, const char *moves, uint64_t *keys, int *key_count)
{
    int number = 0;
    *key_count = 0;
    keys[(*key_count)++] = b->key;
    while (*moves) {
        char token[32];
        size_t len = 0;
        Move m;
        Undo u;
        while (*moves == ' ')
            moves++;
        if (!*moves)
            break;
        while (moves[len] && moves[len] != ' ')
            len++;
        number++;
        if (len >= sizeof token)
            return number;
        memcpy(token, moves, len);
        token[len] = '\0';
        moves += len;
        if (move_from_text(b, token, &m) != PARSE_OK)
            return number;
        board_make(b, m, &u);
        if (b->halfmove == 0)
            *key_count = 0;  /* a capture or pawn move: no earlier position can come back */
        if (*key_count == KEY_HISTORY_MAX) {
            memmove(keys, keys + 1, sizeof(uint64_t) * (KEY_HISTORY_MAX - 1));
            (*key_count)--;
        }
        keys[(*key_count)++] = b->key;
    }
    return 0;
}

/* Returns the search's choice as JSON: the move in coordinates and SAN, the score in
 * centipawns and the mate distance in moves (0: none), both for the side to move, the depth
 * completed (0 when the only legal move was played at once), nodes, milliseconds and the
 * principal variation in SAN. */
static const char *web_answer(Search *s, const Board *root, int legal_count, double seconds)
{
    Board b = *root;
    char san[SAN_MAX], coords[8], pv[PV_TEXT];
    int score = s->best_score;
    move_to_san(&b, s->best_move, san);
    move_to_uci(s->best_move, coords);
    if (legal_count > 1)
        search_pv(s, PV_SAN, pv, sizeof pv);
    else
        snprintf(pv, sizeof pv, "%s", san);
    web_used = 0;
    web_append("{\"move\":\"%s\",\"san\":\"%s\",\"score\":%d,\"mate\":%d,\"depth\":%d,\"nodes\":%llu,"
              "\"ms\":%.0f,\"pv\":\"%s\"}", coords, san, score, score_mate_moves(score), s->completed_depth,
              (unsigned long long)s->nodes, seconds * 1000, pv);
    return web_out;
}

/* The page's engine: searches the position reached from fen by moves (as web_replay takes
 * them; the earlier positions count for repetitions) for about seconds on the page's clock, as
 * a one-shot call would (search_one_shot), handing each iteration's line to web_progress. Its
 * table is allocated by the first call (the worker makes a short one when it starts, so that
 * zeroing it takes none of a move's time) and kept from move to move, as a UCI engine keeps
 * its hash table. Returns web_answer's JSON, or {"error": ...}. */
const char *web_think(const char *fen, const char *moves, double seconds)
{
    static Search s;
    static uint64_t keys[KEY_HISTORY_MAX];
    Board b;
    MoveList list;
    Limits limits;
    char err[200];
    int key_count, bad;
    double start = clock_now(), budget;
    if (!board_from_fen(&b, fen, err, sizeof err))
        return web_error(err);
    bad = web_replay(&b, moves, keys, &key_count);
    if (bad) {
        snprintf(err, sizeof err, "move %d of the list is not legal", bad);
        return web_error(err);
    }
    gen_legal(&b, &list, GEN_ALL);
    if (list.count == 0) {
        snprintf(err, sizeof err, "no move is legal: the position is %s", game_status_name(board_status(&b, NULL, 0)));
        return web_error(err);
    }
    if (!(seconds > 0 && seconds <= 3600))
        return web_error("the seconds must be above 0 and at most 3600");
    if (list.count == 1) {
        /* played at once, as decide_search does: no score, depth 0 */
        s.best_move = list.moves[0];
        s.best_score = 0;
        s.completed_depth = 0;
        s.nodes = 0;
        return web_answer(&s, &b, list.count, clock_now() - start);
    }
    if (s.tt.megabytes != WEB_TT_MB)
        search_table(&s, WEB_TT_MB);
    budget = move_budget(seconds);
    memset(&limits, 0, sizeof limits);
    limits.start = start;
    limits.hard_deadline = start + budget;
    limits.soft_deadline = start + budget;
    limits.report = web_report;
    search_run(&s, &b, keys, key_count, list.moves, list.count, &limits);
    return web_answer(&s, &b, list.count, clock_now() - start);
}

/* The search's report in the page's build: each line to the page (env.web_progress). */
static void web_report(const Search *s, int depth, int score, int bound)
{
    char line[REPORT_LINE];
    report_text(s, depth, score, bound, line, sizeof line);
    web_progress(line);
}
#endif

#endif
