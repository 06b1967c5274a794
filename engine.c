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
#define _DEFAULT_SOURCE 1       /* glibc: MAP_ANONYMOUS and madvise's MADV_HUGEPAGE as well */
#endif

#include "extra.h"
#include "movement.h"

#include <assert.h>
#include <ctype.h>
#include <float.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if !defined(ENGINE_NO_POSIX) && defined(__unix__)
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#define HAVE_POSIX 1
#else
#define HAVE_POSIX 0
#endif

/* Threads: POSIX threads, and GCC's and Clang's atomic built-ins for the few words threads
 * share (C99 has neither); without them a search runs on one thread. glibc before 2.34 keeps
 * its threads in a library of their own, linked only with -pthread (which defines _REENTRANT):
 * the plain `cc -std=c99 -O2 engine.c movement.c extra.c` then builds a one-thread engine. */
#if HAVE_POSIX && defined(__GLIBC__) && (__GLIBC__ < 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ < 34)) && !defined(_REENTRANT)
#define ENGINE_NO_THREADS
#endif
#if HAVE_POSIX && (defined(__GNUC__) || defined(__clang__)) && !defined(ENGINE_NO_THREADS)
#include <pthread.h>
#define HAVE_THREADS 1
#else
#define HAVE_THREADS 0
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
/* The engine. Its entry points, which the front ends call: the search (search_run, and
 * search_one_shot and search_game_move built on it; search_stop, search_stopping and
 * search_nodes for a caller's poll and report), its context (search_set_table, search_new_game,
 * search_threads, search_free), what it found (search_pv, search_expected_reply, score_is_mate,
 * score_mate_moves; best_move, best_score and completed_depth are read once it has returned),
 * the table (tt_hashfull, tt_filled) and its file (table_file_attach, table_file_detach), the
 * levels (level_for_elo), bench_run; the clock and time budgets (clock_now, move_budget,
 * time_for_clock); and two numbers the front ends share, random_next and ln.
 * ######################################################################## */

enum { MAX_PLY = 100, MAX_DEPTH = 64 };
enum { SCORE_INF = 32000, SCORE_MATE = 31000, SCORE_MATE_BOUND = SCORE_MATE - MAX_PLY - 1, SCORE_DRAW = 0 };
enum { BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT };
enum { KEY_HISTORY_MAX = 1024 + MAX_PLY };
enum { HASH_DEFAULT_MB = 16 };   /* the UCI Hash option's default, also the table of a match game at fixed nodes */
enum { HISTORY_MAX = 16384 };     /* history heuristic values stay within +-HISTORY_MAX */
/* Correction history: CORRECTION_SIZE entries a table (a power of two), in 1/CORRECTION_GRAIN
 * centipawns, within +-CORRECTION_MAX; a result moves its entry by depth + 1 (at most
 * CORRECTION_WEIGHT_MAX) parts in CORRECTION_WEIGHT_SCALE toward it. */
enum {
    CORRECTION_SIZE = 16384, CORRECTION_GRAIN = 256, CORRECTION_MAX = 64 * CORRECTION_GRAIN,
    CORRECTION_WEIGHT_SCALE = 256, CORRECTION_WEIGHT_MAX = 16
};
enum { BENCH_DEPTH = 9, BENCH_HASH_MB = 16 };   /* the bench signature's depth and table */
/* Levels: 0 to LEVEL_MAX (full strength); below it LEVEL_LINES lines, a ply at least, and
 * a choice LEVEL_MARGIN_PER_LEVEL centipawns a level below LEVEL_MAX wide (level_limits) */
enum { LEVEL_MAX = 20, LEVEL_LINES = 4, LEVEL_MIN_DEPTH = 1, LEVEL_MARGIN_PER_LEVEL = 8 };
enum { LEVEL_ELO_MIN = 530, LEVEL_ELO_MAX = 2550 };    /* LEVEL_ELO's first and last */
/* search_pv's notations, and the room its text needs: MAX_PLY + 1 moves of at most 7
 * characters (exd8=Q+, e7e8q) and a space each */
enum { PV_SAN, PV_COORDINATES };
enum { PV_TEXT = 8 * (MAX_PLY + 1) };

/* A table entry: its data packed in one word (TT_DATA_* below: the move in 16 bits, score,
 * static evaluation, depth, bound, age), and the position's key XOR that word. Threads or
 * processes sharing the table may tear an entry by writing its two words at once; a torn
 * entry no longer matches its key (Robert Hyatt and Tim Mann, "A lockless transposition
 * table implementation for parallel search", ICGA Journal 2002). */
typedef struct {
    uint64_t check;
    uint64_t data;
} TTEntry;

/* An entry unpacked. */
typedef struct {
    Move move;
    int score;      /* as stored: a mate score counts from the node (score_from_tt) */
    int eval;
    int depth;
    int bound;
    int age;
} TTData;

enum { TT_BUCKET = 4 };
typedef struct {
    TTEntry entry[TT_BUCKET];
} TTBucket;

typedef struct {
    TTBucket *buckets;
    size_t count;       /* a power of two, or 0 when there is no table */
    size_t megabytes;   /* the size asked for (a failed allocation gives less) */
    int age;            /* the current search's, from 0 to TT_AGE_MASK */
    int external;       /* 1: the buckets are a table file's, not to be freed or resized */
    unsigned char *written; /* a table file's: a bit for each bucket stored into by this call */
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

/* A history table indexed by the piece that moves and its destination. */
typedef int16_t PieceToHistory[PIECE_NB][64];

/* What a search learns of moves and evaluations beyond its table: a search starts from these,
 * emptied (search_reset) or kept from an earlier one (a game's moves, a table file). A table
 * file keeps the fields before cont (HISTORY_FILE_SIZE bytes, a quarter of a megabyte): the
 * 2 MB of continuation history would cost a one-shot call more to copy in and out than it
 * brings (every page a page fault, about 10 ms each way at 0.1 s on our machines). */
typedef struct {
    int16_t main[2][64][64];                 /* quiet moves by side, from and to */
    Move counter[PIECE_NB][64];              /* the counter-move to the move of piece p to t */
    /* capture history: captures and promotions by the moving piece, destination and the type
     * taken (EMPTY for a promotion that takes nothing) */
    int16_t capture[PIECE_NB][64][KING + 1];
    /* correction history: what searches found beyond the static evaluation, for the side to
     * move, by the pawns' structure and by each colour's other pieces (CORRECTION_GRAIN units) */
    int16_t pawn_correction[2][CORRECTION_SIZE];
    int16_t piece_correction[2][2][CORRECTION_SIZE];
    /* continuation history: a quiet move's record after the move that moved piece p to square
     * t (one or two plies before), at [p][t]; [0][0] stands for a null move or none */
    PieceToHistory cont[PIECE_NB][64];
} SearchHistory;

#define HISTORY_FILE_SIZE offsetof(SearchHistory, cont)

/* A line of the root's search (one for each MultiPV line): its moves, score and bound. */
typedef struct {
    Move pv[MAX_PLY + 1];
    int pv_len;
    int score;
    int bound;
} PvLine;

typedef struct Search Search;

/* Called by the search after each iteration, and after each aspiration-window fail with the
 * bound the score is (BOUND_LOWER or BOUND_UPPER; BOUND_EXACT for an iteration). */
typedef void (*SearchReport)(const Search *s, int depth, int score, int bound);
/* Called by the search every few hundred nodes, for its caller's input: it may stop the
 * search (search_stop) or change its limits. */
typedef void (*SearchPoll)(Search *s);

/* What one search may use, and whom it tells: the search itself neither reads nor prints. */
typedef struct {
    double start;           /* clock_now() when the clock started: process start, or UCI `go` */
    double hard_deadline;   /* abort here */
    double soft_deadline;   /* start no new iteration after this */
    int stall_guard;        /* 1: stop earlier by the longest stall seen (stall_before, then the search's own) */
    double stall_before;    /* seconds the process waited for a processor before the search (one-shot) */
    double busy_cut;        /* one-shot: both deadlines this much earlier while the machine is busy (machine_busy) */
    double exit_cost;       /* one-shot: seconds the call needs after its search before it exits (a table file's) */
    int depth_limit;
    uint64_t node_limit;
    int infinite;           /* UCI go infinite / ponder: a proven mate does not end the search */
    int keep_history;       /* 1: start from the history of the last search (a game's moves) */
    int multipv;            /* the best this many root moves searched to full depth (0 or 1: one) */
    int level;              /* a weaker engine: 0 to LEVEL_MAX - 1 (level_limits); LEVEL_MAX or 0 unset: full */
    int level_set;          /* 1: level applies */
    int min_depth;          /* the node limit stops no search before this depth is complete */
    SearchReport report;    /* NULL: no report */
    SearchPoll poll;        /* NULL: nothing to poll */
} Limits;

/* One search context, with its transposition table: its caller owns it and hands it to the
 * engine's entry points (search_run and those built on it, bench_run). A zeroed Search is
 * ready, without a table; search_free releases its table. */
struct Search {
    Board board;
    Limits limits;
    TransTable tt;          /* the table this context owns (a main thread's) */
    TransTable *table;      /* the table its search uses: tt, or its main thread's */
    Search *main_search;    /* a helper thread's main thread; NULL in a main one */
    Search **helpers;       /* a main thread's helper threads' contexts */
    int helper_count;
#if HAVE_THREADS
    pthread_t thread;       /* a helper's thread, while running is 1 */
#endif
    int running;
    uint64_t nodes;
    double last_poll;       /* clock_now() at the last poll of the clock */
    double longest_stall;   /* the longest time between two polls so far, or stall_before */
    double next_load_look;  /* clock_now() of the next look at the machine's load (look_at_load) */
    int load_looks;         /* looks at the machine's load so far in this search */
    int busy_looks;         /* those that found another task running (or could not tell) */
    int stop;
    int seldepth;
    int key_count;
    uint64_t keys[KEY_HISTORY_MAX];
    Move killers[MAX_PLY + 1][2];
    SearchHistory hist;
    Move move_stack[MAX_PLY + 1];
    Move excluded[MAX_PLY + 1];            /* the move a singular extension's search leaves out, at each ply */
    int double_extensions[MAX_PLY + 1];    /* double extensions on the path to each ply */
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
    PvLine lines[MAX_MOVES];    /* the lines of the running iteration, or of the last one once it ends (MultiPV) */
    PvLine done_lines[MAX_MOVES]; /* the lines of the last finished iteration, best first */
    int line_count;             /* how many lines done_lines holds */
    int report_line;            /* the line a report is about */
    uint64_t random_state;      /* a level's choice of move (random_next) */
    Move best_move;
    int best_score;
    int completed_depth;
    int tables_used;        /* the history tables hold values (a static Search starts at zero) */
    int keep_history;       /* 1: a search starts from the history as it is (a table file's) */
    int history_used;       /* the history holds values (a static Search starts at zero) */
};

/* prototypes */
static double clock_now(void);
static void *table_memory(size_t size);
static void table_memory_free(void *memory, size_t size);
static int running_tasks(void);
static int search_threads(Search *s, int count);
static void threads_start(Search *s);
static void threads_stop(Search *s);
static void search_stop(Search *s);
static int search_stopping(const Search *s);
static uint64_t search_nodes(const Search *s);
static int shared_load(const int *p);
static void shared_store(int *p, int value);
static uint64_t shared_load64(const uint64_t *p);
static void shared_store64(uint64_t *p, uint64_t value);
static void shared_set_bit(unsigned char *bits, size_t index);
static double move_budget(double seconds, double exit_cost);
static void time_for_clock(double left, double inc, int moves_to_go, double overhead, double *soft, double *hard);
static int time_is_up(Search *s);
static double stall_guard(const Search *s);
static double deadline_margin(const Search *s);
static void look_at_load(Search *s, double now);
static int machine_busy(const Search *s);
static double busy_cut_for(double seconds);
static void tt_init(TransTable *tt, size_t megabytes);
static size_t tt_megabytes_for(double budget);
static void tt_free(TransTable *tt);
static void tt_clear(TransTable *tt);
static void tt_prefetch(const TransTable *tt, uint64_t key);
static int tt_probe(const TransTable *tt, uint64_t key, TTData *out);
static uint64_t tt_pack(const TTData *d);
static void tt_unpack(uint64_t data, TTData *d);
static int tt_hashfull(const TransTable *tt);
static int tt_filled(const TransTable *tt);
static void tt_store(TransTable *tt, uint64_t key, Move move, int score, int eval, int depth, int bound, int ply);
static int score_to_tt(int score, int ply);
static int score_from_tt(int score, int ply);
static void search_set_table(Search *s, size_t megabytes);
static void search_free(Search *s);
static void search_new_game(Search *s);
static void search_clear_history(Search *s);
static void search_run(Search *s, const Board *board, const uint64_t *keys, int key_count, const Move *moves, int count, const Limits *limits);
static void level_limits(Limits *limits);
static int level_for_elo(int elo);
static int level_margin(int level);
static void level_choose(Search *s);
static uint64_t random_next(uint64_t *state);
static Move search_one_shot(Search *s, const Board *board, const Move *moves, int count, const uint64_t *keys, int key_count, double seconds, Limits *limits);
static Move search_game_move(Search *s, const Board *board, const uint64_t *keys, int key_count, const Limits *limits, int new_game);
static void search_pv(const Search *s, int line, int notation, char *out, size_t size);
static Move search_expected_reply(const Search *s, Board *after);
static int score_is_mate(int score);
static int score_mate_moves(int score);
static void iterate(Search *s);
static void report_iteration(Search *s, int depth, int score, int bound);
static void search_reset(Search *s, const Board *board, const uint64_t *keys, int key_count);
static int search_root(Search *s, int alpha, int beta, int depth, int first);
static int search_line(Search *s, int line, int depth);
static void note_line(Search *s, int line, int score, int bound);
static void sort_lines(Search *s, int count);
static int search(Search *s, int alpha, int beta, int depth, int ply, int cut_node);
static int qsearch(Search *s, int alpha, int beta, int ply, int checks);
static void update_quiet_stats(Search *s, int ply, Move best, const Move *quiets, int quiet_count, int depth);
static void update_capture_stats(Search *s, Move best, const Move *noisy, int noisy_count, int depth);
static int16_t *capture_history_at(Search *s, Move m);
static int history_bonus(int depth);
static PieceToHistory *cont_history_at(Search *s, int ply, int back);
static void history_add(int16_t *h, int delta, int bonus);
static int evaluate(Search *s, int ply);
static uint64_t pieces_hash(const Board *b, int color, int first, int last);
static void correction_entries(Search *s, int16_t *entry[3]);
static int corrected_eval(int16_t *const entry[3], int raw);
static void correction_update(int16_t *const entry[3], int depth, int diff);
static void correction_entry_update(int16_t *e, int diff, int weight);
static void push_move(Search *s, Move m, Undo *u, int ply);
static void pop_move(Search *s, Move m, const Undo *u);
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

/* The tasks (threads) running or ready to run on the machine at this moment, ours included,
 * from /proc/loadavg's fourth field (Linux); -1 where the machine does not say. */
static int running_tasks(void)
{
#if HAVE_POSIX && defined(__linux__)
    FILE *f = fopen("/proc/loadavg", "r");
    int running = -1;
    if (f) {
        if (fscanf(f, "%*f %*f %*f %d/", &running) != 1)
            running = -1;
        fclose(f);
    }
    return running;
#else
    return -1;
#endif
}

/* ============================================================ table memory */

/* The tables (the transposition table, a table file's contents) go on huge pages where the
 * system gives them (Linux's transparent huge pages, asked for with madvise): every first
 * touch of a 4 KB page is a page fault, and on our virtual machines a fault costs about 15 us
 * under load, so that reading a 2.3 MB table file took 9.5 ms and a cold call's 2 MB table cost
 * a quarter of its nodes; a 2 MB page is one fault. Measured at 0.1 s, two games at a time:
 * 90,700 nodes a call against 69,600 with 4 KB pages. */
enum { HUGE_PAGE = 2 << 20, SMALL_PAGE = 4096 };

/* Zeroed memory of size bytes for a table, on huge pages when it is large enough and the system
 * can; NULL when memory is short. Freed with table_memory_free and the same size. */
static void *table_memory(size_t size)
{
#if HAVE_POSIX && defined(MAP_ANONYMOUS) && defined(MADV_HUGEPAGE)
    if (size >= HUGE_PAGE) {
        size_t length = (size + SMALL_PAGE - 1) & ~(size_t)(SMALL_PAGE - 1), span = length + HUGE_PAGE;
        unsigned char *start = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), *aligned;
        if (start == MAP_FAILED)
            return NULL;
        /* a huge page must start on a multiple of its size: map more, keep the aligned part */
        aligned = start + ((HUGE_PAGE - (uintptr_t)start % HUGE_PAGE) % HUGE_PAGE);
        if (aligned > start)
            munmap(start, (size_t)(aligned - start));
        if (start + span > aligned + length)
            munmap(aligned + length, (size_t)(start + span - (aligned + length)));
        madvise(aligned, length, MADV_HUGEPAGE);
        return aligned;
    }
#endif
    return calloc(1, size);
}

/* Frees memory of size bytes from table_memory. */
static void table_memory_free(void *memory, size_t size)
{
    if (!memory)
        return;
#if HAVE_POSIX && defined(MAP_ANONYMOUS) && defined(MADV_HUGEPAGE)
    if (size >= HUGE_PAGE) {
        munmap(memory, (size + SMALL_PAGE - 1) & ~(size_t)(SMALL_PAGE - 1));
        return;
    }
#endif
    (void)size;
    free(memory);
}

/* ================================================================= threads */

/* Lazy SMP (Dan Homan's name for it, the scheme of Stockfish and Ethereal): helper threads
 * search the same root with boards, stacks and histories of their own, sharing the main
 * thread's table; the main thread decides, reports and stops them. The words they share are
 * read and written through shared_load and shared_store: the stop flag, the node counts and
 * the table's entries (whose torn writes the table rejects by itself). */

enum { THREADS_MAX = 256 };

#if HAVE_THREADS
/* A helper thread's life: it searches in its context until its main thread stops it. */
static void *helper_run(void *context)
{
    iterate(context);
    return NULL;
}
#endif

/* Gives s count threads in all (itself and count - 1 helpers, at most THREADS_MAX); returns how
 * many it has: 1 in a build without threads, fewer than count when memory runs short. */
static int search_threads(Search *s, int count)
{
    int want = !HAVE_THREADS || count < 1 ? 1 : count > THREADS_MAX ? THREADS_MAX : count;
    while (s->helper_count > want - 1) {
        Search *h = s->helpers[--s->helper_count];
        free(h);
    }
    if (want > 1 && !s->helpers)
        s->helpers = calloc(THREADS_MAX - 1, sizeof *s->helpers);
    while (s->helpers && s->helper_count < want - 1) {
        Search *h = calloc(1, sizeof *h);
        if (!h)
            break;
        h->main_search = s;
        s->helpers[s->helper_count++] = h;
    }
    if (s->helper_count == 0) {
        free(s->helpers);
        s->helpers = NULL;
    }
    return 1 + s->helper_count;
}

/* Starts the helper threads of s on the search s has just set up: each gets the root, the
 * game's keys and the limits without a clock, a report or a poll (its main thread has those). */
static void threads_start(Search *s)
{
#if HAVE_THREADS
    int i;
    /* all set up before any starts: a running helper reads the others' node counts */
    for (i = 0; i < s->helper_count; i++) {
        Search *h = s->helpers[i];
        h->limits = s->limits;
        h->limits.report = NULL;
        h->limits.poll = NULL;
        h->limits.node_limit = 0;
        h->limits.hard_deadline = h->limits.soft_deadline = 0;
        h->limits.stall_guard = 0;
        h->limits.multipv = 1;
        search_reset(h, &s->board, s->keys, s->key_count);
        h->root_count = s->root_count;
        memcpy(h->root_moves, s->root_moves, sizeof(Move) * (size_t)s->root_count);
    }
    for (i = 0; i < s->helper_count; i++)
        s->helpers[i]->running = pthread_create(&s->helpers[i]->thread, NULL, helper_run, s->helpers[i]) == 0;
#else
    (void)s;
#endif
}

/* Stops the helper threads of s and waits for them. */
static void threads_stop(Search *s)
{
#if HAVE_THREADS
    int i;
    search_stop(s);
    for (i = 0; i < s->helper_count; i++)
        if (s->helpers[i]->running) {
            pthread_join(s->helpers[i]->thread, NULL);
            s->helpers[i]->running = 0;
        }
#else
    (void)s;
#endif
}

/* Returns 1 once the search of s is stopping (its own flag; a helper's follows its main's). */
static int search_stopping(const Search *s)
{
    return shared_load(&s->stop);
}

/* Stops the search of s (a main thread), and with it its helper threads. */
static void search_stop(Search *s)
{
    shared_store(&s->stop, 1);
}

/* The nodes searched so far by s and its helper threads. */
static uint64_t search_nodes(const Search *s)
{
    uint64_t total = shared_load64(&s->nodes);
    int i;
    for (i = 0; i < s->helper_count; i++)
        total += shared_load64(&s->helpers[i]->nodes);
    return total;
}

/* Reads a word another thread may write (relaxed: no order beyond the word itself). */
static int shared_load(const int *p)
{
#if HAVE_THREADS
    return __atomic_load_n(p, __ATOMIC_RELAXED);
#else
    return *p;
#endif
}

/* Writes a word another thread may read. */
static void shared_store(int *p, int value)
{
#if HAVE_THREADS
    __atomic_store_n(p, value, __ATOMIC_RELAXED);
#else
    *p = value;
#endif
}

/* Reads a 64-bit word another thread may write. */
static uint64_t shared_load64(const uint64_t *p)
{
#if HAVE_THREADS
    return __atomic_load_n(p, __ATOMIC_RELAXED);
#else
    return *p;
#endif
}

/* Sets bit index of bits, which other threads may set too. */
static void shared_set_bit(unsigned char *bits, size_t index)
{
#if HAVE_THREADS
    __atomic_fetch_or(&bits[index >> 3], (unsigned char)(1u << (index & 7)), __ATOMIC_RELAXED);
#else
    bits[index >> 3] |= (unsigned char)(1u << (index & 7));
#endif
}

/* Writes a 64-bit word another thread may read. */
static void shared_store64(uint64_t *p, uint64_t value)
{
#if HAVE_THREADS
    __atomic_store_n(p, value, __ATOMIC_RELAXED);
#else
    *p = value;
#endif
}

/* ==================================================================== time */

/* A one-shot call keeps back ONE_SHOT_RESERVE seconds plus ONE_SHOT_RESERVE_SHARE of its limit
 * for its caller's spawn, its own exit and the caller's notice of it, and searches at least
 * ONE_SHOT_MIN_SHARE of it. It also keeps back the longest stall it has seen (time waiting for
 * a processor), up to STALL_GUARD_MAX_SHARE of its budget: a stall as long may come after its
 * last look at the clock. While the machine is busy (another task running beside the search:
 * the caller's other games, a build) the caller itself is slower to start the call and to see
 * it end: at 0.1 s, two games at a time with both engines one-shot calls, the caller's wall
 * time exceeded the call's own clock by a median of 1 ms, 12 ms at the 99.9th percentile and
 * at most 18 ms in 25,790 calls (docs/figures.md). The call then keeps back BUSY_RESERVE plus
 * BUSY_RESERVE_SHARE instead, ten milliseconds above the worst seen at 0.1 s (docs/engine.md,
 * "Time"). The machine's load is looked at every LOAD_LOOK_INTERVAL
 * seconds from LOAD_LOOK_DELAY into the search (the caller that started the call is still
 * running at first). */
static const double ONE_SHOT_RESERVE = 0.010, ONE_SHOT_RESERVE_SHARE = 0.02, ONE_SHOT_MIN_SHARE = 0.2;
static const double BUSY_RESERVE = 0.025, BUSY_RESERVE_SHARE = 0.03;
static const double LOAD_LOOK_DELAY = 0.002, LOAD_LOOK_INTERVAL = 0.002;
/* Busy: another task seen at one look in BUSY_LOOK_ONE_IN or more. What shares the machine
 * for long is seen at nearly every look: at 0.1 s, two games at a time, 27,867 of 28,095
 * calls that looked saw it at nine looks in ten or more, the rest at four in ten or fewer. An idle
 * machine's short tasks were seen at up to four looks in ten by a call on two threads (both
 * cores taken, a task that wakes waits for one), which a quarter took for busy. */
enum { BUSY_LOOK_ONE_IN = 2 };
static const double STALL_GUARD_MAX_SHARE = 0.5;
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

/* The part of a one-shot limit the search may use on an idle machine: the rest covers
 * start-up, exit and the caller's notice of it, and exit_cost seconds of the call's own work
 * after the search (a table file written back). */
static double move_budget(double seconds, double exit_cost)
{
    double budget = seconds - (ONE_SHOT_RESERVE + ONE_SHOT_RESERVE_SHARE * seconds) - exit_cost;
    return budget > ONE_SHOT_MIN_SHARE * seconds ? budget : ONE_SHOT_MIN_SHARE * seconds;
}

/* How much less of a one-shot limit the search may use while the machine is busy. */
static double busy_cut_for(double seconds)
{
    double busy = seconds - (BUSY_RESERVE + BUSY_RESERVE_SHARE * seconds);
    busy = busy > ONE_SHOT_MIN_SHARE * seconds ? busy : ONE_SHOT_MIN_SHARE * seconds;
    return move_budget(seconds, 0) - busy;
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

/* Checks the clock, node limit and the caller's poll every POLL_NODES nodes; notes the
 * longest time between two such checks (a stall, on a loaded machine). */
static int time_is_up(Search *s)
{
    double now;
    if (search_stopping(s))
        return 1;
    if ((s->nodes & (POLL_NODES - 1)) != 0)
        return 0;
    if (s->main_search) {
        /* a helper thread stops when its main thread does, and stops it at the node limit */
        Search *main_search = s->main_search;
        if (main_search->limits.node_limit && search_nodes(main_search) >= main_search->limits.node_limit
            && shared_load(&main_search->completed_depth) >= main_search->limits.min_depth)
            search_stop(main_search);
        if (shared_load(&main_search->stop))
            shared_store(&s->stop, 1);
        return search_stopping(s);
    }
    now = clock_now();
    if (now - s->last_poll > s->longest_stall)
        s->longest_stall = now - s->last_poll;
    s->last_poll = now;
    if (s->limits.busy_cut > 0 && now >= s->next_load_look)
        look_at_load(s, now);
    if (s->limits.node_limit && search_nodes(s) >= s->limits.node_limit && s->completed_depth >= s->limits.min_depth)
        search_stop(s);
    else if (s->limits.hard_deadline > 0 && now >= s->limits.hard_deadline - deadline_margin(s))
        search_stop(s);
    if (s->limits.poll)
        s->limits.poll(s);
    return search_stopping(s);
}

/* How much before its deadlines a search stops: the stall guard, and the busy cut while the
 * machine is busy. */
static double deadline_margin(const Search *s)
{
    return stall_guard(s) + (machine_busy(s) ? s->limits.busy_cut : 0);
}

/* The time kept back before the hard deadline against a stall after the last check of the
 * clock: the longest stall seen, at most STALL_GUARD_MAX_SHARE of the time from the start to
 * that deadline; 0 unless the limits ask for it. */
static double stall_guard(const Search *s)
{
    double cap = STALL_GUARD_MAX_SHARE * (s->limits.hard_deadline - s->limits.start);
    if (!s->limits.stall_guard)
        return 0;
    return s->longest_stall < cap ? s->longest_stall : cap;
}

/* Looks at what the machine runs besides this search's threads, and when to look next. */
static void look_at_load(Search *s, double now)
{
    int running = running_tasks();
    s->next_load_look = now + LOAD_LOOK_INTERVAL;
    s->load_looks++;
    s->busy_looks += running < 0 || running > 1 + s->helper_count;
}

/* Returns 1 if the machine looks busy: another task ran beside the search at one look in
 * BUSY_LOOK_ONE_IN or more (a machine that cannot say counts as busy); 0 before the first look. */
static int machine_busy(const Search *s)
{
    return s->load_looks > 0 && BUSY_LOOK_ONE_IN * s->busy_looks >= s->load_looks;
}

/* ===================================================== transposition table */

/* Replacement: an entry counts TT_AGE_PLIES plies shallower for each search since it was
 * written (ages count modulo TT_AGE_MASK + 1); within a search, an inexact result does not
 * replace an entry more than TT_KEEP_DEPTH plies deeper. */
enum { TT_AGE_PLIES = 8, TT_KEEP_DEPTH = 2, TT_AGE_MASK = 63 };
/* An entry's data word: the move in 16 bits (from, to, kind, promotion less KNIGHT), score and
 * evaluation 16 bits each, depth 8, bound 2, age 6. */
enum {
    TT_DATA_SCORE_SHIFT = 16, TT_DATA_EVAL_SHIFT = 32, TT_DATA_DEPTH_SHIFT = 48, TT_DATA_BOUND_SHIFT = 56,
    TT_DATA_AGE_SHIFT = 58, TT_MOVE_KIND_SHIFT = 12, TT_MOVE_PROMO_SHIFT = 14, TT_DEPTH_MAX = 255
};
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
    while (count >= 1 && !(tt->buckets = table_memory(count * sizeof(TTBucket))))
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
    if (!tt->external)
        table_memory_free(tt->buckets, tt->count * sizeof(TTBucket));
    tt->external = 0;
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

/* Packs d into an entry's data word. */
static uint64_t tt_pack(const TTData *d)
{
    Move m = d->move;
    uint64_t move = (uint64_t)(move_from(m) | move_to(m) << 6 | move_kind(m) << TT_MOVE_KIND_SHIFT
                               | (move_kind(m) == KIND_PROMOTION ? move_promo(m) - KNIGHT : 0) << TT_MOVE_PROMO_SHIFT);
    return move | (uint64_t)(uint16_t)d->score << TT_DATA_SCORE_SHIFT | (uint64_t)(uint16_t)d->eval << TT_DATA_EVAL_SHIFT
           | (uint64_t)d->depth << TT_DATA_DEPTH_SHIFT | (uint64_t)d->bound << TT_DATA_BOUND_SHIFT
           | (uint64_t)d->age << TT_DATA_AGE_SHIFT;
}

/* Unpacks an entry's data word into d. Any word gives values in range: the move is only a
 * candidate (checked legal before use), the scores 16-bit. */
static void tt_unpack(uint64_t data, TTData *d)
{
    int from = (int)(data & 63), to = (int)(data >> 6 & 63), kind = (int)(data >> TT_MOVE_KIND_SHIFT & 3);
    int promo = kind == KIND_PROMOTION ? KNIGHT + (int)(data >> TT_MOVE_PROMO_SHIFT & 3) : 0;
    d->move = (data & 0xFFFF) ? make_move(from, to, promo, kind) : MOVE_NONE;
    d->score = (int16_t)(uint16_t)(data >> TT_DATA_SCORE_SHIFT);
    d->eval = (int16_t)(uint16_t)(data >> TT_DATA_EVAL_SHIFT);
    d->depth = (int)(data >> TT_DATA_DEPTH_SHIFT & 0xFF);
    d->bound = (int)(data >> TT_DATA_BOUND_SHIFT & 3);
    d->age = (int)(data >> TT_DATA_AGE_SHIFT & TT_AGE_MASK);
}

/* Looks key up: returns 1 with its entry unpacked in out, else 0. */
static int tt_probe(const TransTable *tt, uint64_t key, TTData *out)
{
    const TTBucket *bucket;
    int i;
    if (!tt->count)
        return 0;
    bucket = &tt->buckets[key & (tt->count - 1)];
    for (i = 0; i < TT_BUCKET; i++) {
        uint64_t data = shared_load64(&bucket->entry[i].data);
        if ((shared_load64(&bucket->entry[i].check) ^ data) == key) {
            tt_unpack(data, out);
            /* a file's table may hold anything: scores beyond the search's range are refused */
            if (out->bound != BOUND_NONE && abs(out->score) < SCORE_INF && abs(out->eval) < SCORE_INF)
                return 1;
        }
    }
    return 0;
}

/* Returns the share in permille of the first 1000 entries that hold a position, of any search. */
static int tt_filled(const TransTable *tt)
{
    size_t i, used = 0, seen = 0;
    int j;
    for (i = 0; i < tt->count && seen < 1000; i++)
        for (j = 0; j < TT_BUCKET; j++, seen++)
            used += (shared_load64(&tt->buckets[i].entry[j].data) >> TT_DATA_BOUND_SHIFT & 3) != BOUND_NONE;
    return seen ? (int)(used * 1000 / seen) : 0;
}

/* Returns how full the table is in permille (UCI hashfull): the share of the first 1000
 * entries written by the current search, as Stockfish counts it. */
static int tt_hashfull(const TransTable *tt)
{
    size_t i, used = 0, seen = 0;
    int j;
    for (i = 0; i < tt->count && seen < 1000; i++) {
        for (j = 0; j < TT_BUCKET; j++, seen++) {
            TTData d;
            tt_unpack(shared_load64(&tt->buckets[i].entry[j].data), &d);
            used += d.bound != BOUND_NONE && d.age == tt->age;
        }
    }
    return seen ? (int)(used * 1000 / seen) : 0;
}

/* Stores a node's result at ply (its move, score, static evaluation, depth and bound), unless
 * a deeper entry of this search is worth keeping; a result without a move keeps the old one.
 * The entry replaced is key's own, else the shallowest, preferring those of older searches. */
static void tt_store(TransTable *tt, uint64_t key, Move move, int score, int eval, int depth, int bound, int ply)
{
    TTBucket *bucket;
    TTEntry *victim = NULL;
    TTData d;
    uint64_t data;
    int i, victim_worth = INT_MAX;
    if (!tt->count)
        return;
    bucket = &tt->buckets[key & (tt->count - 1)];
    for (i = 0; i < TT_BUCKET; i++) {
        TTEntry *e = &bucket->entry[i];
        int old_depth, old_age, worth;
        data = shared_load64(&e->data);
        old_depth = (int)(data >> TT_DATA_DEPTH_SHIFT & 0xFF);
        old_age = (int)(data >> TT_DATA_AGE_SHIFT & TT_AGE_MASK);
        if ((shared_load64(&e->check) ^ data) == key && (data >> TT_DATA_BOUND_SHIFT & 3) != BOUND_NONE) {
            if (move == MOVE_NONE) {
                tt_unpack(data, &d);
                move = d.move;
            }
            if (bound != BOUND_EXACT && depth + TT_KEEP_DEPTH < old_depth && old_age == tt->age)
                return;
            victim = e;
            break;
        }
        worth = old_depth - TT_AGE_PLIES * ((tt->age - old_age) & TT_AGE_MASK);
        if (worth < victim_worth) {
            victim = e;
            victim_worth = worth;
        }
    }
    d.move = move;
    d.score = score_to_tt(score, ply);
    d.eval = eval;
    d.depth = depth < TT_DEPTH_MAX ? depth : TT_DEPTH_MAX;
    d.bound = bound;
    d.age = tt->age;
    data = tt_pack(&d);
    shared_store64(&victim->data, data);
    shared_store64(&victim->check, key ^ data);
    if (tt->written)
        shared_set_bit(tt->written, key & (tt->count - 1));
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

/* ============================================================= table file */

/* A table kept in a file between one-shot calls (--hash-file, docs/command-line.md): a header,
 * the transposition table's buckets, then the search's history (SearchHistory). The file is read
 * whole into memory of the call's own at the start and written back whole at the end: in place
 * with POSIX (pread, pwrite), elsewhere through a temporary file renamed over it. A mapping of
 * the file was tried and dropped: every first write to one of its pages is a page fault that
 * copies or dirties a page of the file, and on a busy virtual machine those made the search
 * five to ten times slower. Calls at once share the file (table_file_merge); an entry torn
 * between two writers fails its key check, and a move from the table is checked legal.
 * Whatever the file holds, the header is checked before use, the histories are clamped to
 * their ranges, and a file that is not ours is never written. */

/* The file's header. TABLE_FILE_VERSION changes with the meaning of what the file holds
 * (the entry's packing, what a score or an evaluation in it means, SearchHistory's fields);
 * the signature ties it to the evaluation that filled it (eval_signature). */
enum { TABLE_FILE_VERSION = 2, TABLE_FILE_ENDIAN = 0x01020304 };
static const char TABLE_FILE_MAGIC[8] = { 'B', 'o', 'x', 'e', 'r', 'T', 'T', '\n' };
typedef struct {
    char magic[8];
    uint32_t version;
    uint32_t endian;            /* TABLE_FILE_ENDIAN as this machine writes it */
    uint64_t signature;         /* eval_signature() */
    uint64_t bucket_count;      /* a power of two */
    uint32_t bucket_size;       /* sizeof(TTBucket) */
    uint32_t history_size;      /* HISTORY_FILE_SIZE */
    uint32_t age;               /* the age of the next search */
    uint32_t reserved[5];
} TableFileHeader;

/* A table file in use: its contents as read, size and path. */
typedef struct {
    unsigned char *base;    /* NULL when none is in use */
    size_t size;
    int in_place;           /* 1: written back in place through fd (POSIX); 0: through a renamed copy */
    int fd;                 /* in place: the file, open */
    unsigned char *written; /* in place: the buckets this call stored into (TransTable.written) */
    char path[4096];
} TableFile;

/* prototypes */
static int table_file_attach(TableFile *f, const char *path, size_t megabytes, Search *s, char *warning, size_t size);
static void table_file_detach(TableFile *f, Search *s, char *warning, size_t size);
static int table_file_release(TableFile *f);
static void table_file_warn(char *warning, size_t size, const char *path, const char *reason, int cold);
static size_t table_file_size(uint64_t bucket_count);
static void table_file_header(TableFileHeader *h, uint64_t bucket_count);
static int table_file_valid(const TableFileHeader *h, size_t file_size);
static void table_file_use(TableFile *f, Search *s);
static void history_clamp(SearchHistory *h);
static void clamp_values(int16_t *values, size_t count, int limit);
static int table_file_open(TableFile *f, const char *path, uint64_t bucket_count, char *warning, size_t size);
static int table_file_read(TableFile *f, const char *path, uint64_t bucket_count, char *warning, size_t size);
#if HAVE_POSIX
static int table_file_create(TableFile *f, const char *path, uint64_t bucket_count, const char *note, char *warning, size_t size);
static void table_file_merge(TableFile *f);
#endif

/* Makes the table file at path s's table and history, creating it with a table of about
 * megabytes (a power of two of buckets) when it does not exist or holds an older table of ours.
 * Returns 1, or 0 with s untouched and a reason in warning (empty when the file simply cannot
 * serve, which never happens quietly: every 0 sets one). */
static int table_file_attach(TableFile *f, const char *path, size_t megabytes, Search *s, char *warning, size_t size)
{
    uint64_t count = 1;
    int ok;
    warning[0] = '\0';
    while (count * 2 * sizeof(TTBucket) <= megabytes * 1024 * 1024)
        count *= 2;
    if (strlen(path) >= sizeof f->path) {
        table_file_warn(warning, size, path, "is too long a path", 1);
        return 0;
    }
    snprintf(f->path, sizeof f->path, "%s", path);
    ok = HAVE_POSIX ? table_file_open(f, path, count, warning, size) : table_file_read(f, path, count, warning, size);
    if (ok)
        table_file_use(f, s);
    return ok;
}

/* Gives s the table and history of the file f holds. */
static void table_file_use(TableFile *f, Search *s)
{
    TableFileHeader *h = (TableFileHeader *)f->base;
    tt_free(&s->tt);
    s->tt.buckets = (TTBucket *)(f->base + sizeof *h);
    s->tt.count = (size_t)h->bucket_count;
    s->tt.megabytes = 0;
    s->tt.external = 1;
    s->tt.age = (int)(h->age & TT_AGE_MASK);
    f->written = f->in_place ? calloc((size_t)(h->bucket_count + 7) / 8, 1) : NULL;
    s->tt.written = f->written;
    memcpy(&s->hist, f->base + sizeof *h + h->bucket_count * sizeof(TTBucket), HISTORY_FILE_SIZE);
    history_clamp(&s->hist);
    s->keep_history = 1;
}

/* Gives the file s's history and the age of its next search, and lets it go, written back; s
 * is left without a table. A file that could not be written back leaves a warning. */
static void table_file_detach(TableFile *f, Search *s, char *warning, size_t size)
{
    TableFileHeader *h = (TableFileHeader *)f->base;
    if (!f->base)
        return;
    memcpy(f->base + sizeof *h + h->bucket_count * sizeof(TTBucket), &s->hist, HISTORY_FILE_SIZE);
    h->age = (uint32_t)((s->tt.age + 1) & TT_AGE_MASK);
    s->tt.buckets = NULL;
    s->tt.count = 0;
    s->tt.external = 0;
    s->tt.written = NULL;
    s->keep_history = 0;
    warning[0] = '\0';
    if (table_file_release(f) != 0)
        table_file_warn(warning, size, f->path, "could not be written; it is as it was", 0);
}

/* The size of a table file whose table has bucket_count buckets. */
static size_t table_file_size(uint64_t bucket_count)
{
    return sizeof(TableFileHeader) + (size_t)bucket_count * sizeof(TTBucket) + HISTORY_FILE_SIZE;
}

/* Fills the header of a new table file of bucket_count buckets. */
static void table_file_header(TableFileHeader *h, uint64_t bucket_count)
{
    memset(h, 0, sizeof *h);
    memcpy(h->magic, TABLE_FILE_MAGIC, sizeof h->magic);
    h->version = TABLE_FILE_VERSION;
    h->endian = TABLE_FILE_ENDIAN;
    h->signature = eval_signature();
    h->bucket_count = bucket_count;
    h->bucket_size = sizeof(TTBucket);
    h->history_size = HISTORY_FILE_SIZE;
}

/* Returns 1 if h heads a table file this build can use whose size is file_size, 0 if it is a
 * table file of ours it cannot use (another version, evaluation or size), -1 if it is not
 * ours at all. */
static int table_file_valid(const TableFileHeader *h, size_t file_size)
{
    uint64_t count = h->bucket_count;
    if (memcmp(h->magic, TABLE_FILE_MAGIC, sizeof h->magic) != 0)
        return -1;
    return h->version == TABLE_FILE_VERSION && h->endian == TABLE_FILE_ENDIAN && h->signature == eval_signature()
           && h->bucket_size == sizeof(TTBucket) && h->history_size == HISTORY_FILE_SIZE && count > 0
           && (count & (count - 1)) == 0 && count <= (SIZE_MAX - sizeof(TableFileHeader)) / sizeof(TTBucket) / 2
           && table_file_size(count) == file_size;
}

/* Clamps every value of a history read from a file (the fields a file keeps) to the range the
 * search keeps it in. */
static void history_clamp(SearchHistory *h)
{
    clamp_values(&h->main[0][0][0], sizeof h->main / sizeof(int16_t), HISTORY_MAX);
    clamp_values(&h->capture[0][0][0], sizeof h->capture / sizeof(int16_t), HISTORY_MAX);
    clamp_values(&h->pawn_correction[0][0], sizeof h->pawn_correction / sizeof(int16_t), CORRECTION_MAX);
    clamp_values(&h->piece_correction[0][0][0], sizeof h->piece_correction / sizeof(int16_t), CORRECTION_MAX);
}

/* Clamps count values to +-limit. */
static void clamp_values(int16_t *values, size_t count, int limit)
{
    size_t i;
    for (i = 0; i < count; i++)
        values[i] = (int16_t)(values[i] > limit ? limit : values[i] < -limit ? -limit : values[i]);
}

/* Reads the table file at path whole (POSIX), keeping it open for the write back, creating it
 * with bucket_count buckets when it is missing, empty, or an older or damaged table of ours (a
 * file that is not ours is never touched). Returns 1, or 0 with a warning. */
static int table_file_open(TableFile *f, const char *path, uint64_t bucket_count, char *warning, size_t size)
{
#if HAVE_POSIX
    TableFileHeader h;
    struct stat st;
    int fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC), valid;
    void *base;
    if (fd < 0 && errno == ENOENT)
        return table_file_create(f, path, bucket_count, "", warning, size);
    if (fd < 0) {
        table_file_warn(warning, size, path, errno == ELOOP ? "is a symbolic link, which is never followed" : strerror(errno), 1);
        return 0;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        table_file_warn(warning, size, path, "is not a regular file", 1);
        return 0;
    }
    if (st.st_size == 0) {
        close(fd);
        return table_file_create(f, path, bucket_count, "", warning, size);
    }
    memset(&h, 0, sizeof h);
    valid = pread(fd, &h, sizeof h, 0) > 0 ? table_file_valid(&h, (size_t)st.st_size) : -1;
    if (valid <= 0) {
        close(fd);
        if (valid < 0) {
            table_file_warn(warning, size, path, "is not a Boxer table file, so it is left as it is", 1);
            return 0;
        }
        return table_file_create(f, path, bucket_count, "held a table of another build or size, now replaced by an empty one",
                                 warning, size);
    }
    base = table_memory((size_t)st.st_size);
    if (!base || pread(fd, base, (size_t)st.st_size, 0) != (ssize_t)st.st_size) {
        table_file_warn(warning, size, path, base ? "could not be read whole" : "does not fit in memory", 1);
        table_memory_free(base, (size_t)st.st_size);
        close(fd);
        return 0;
    }
    f->base = base;
    f->size = (size_t)st.st_size;
    f->in_place = 1;
    f->fd = fd;
    return 1;
#else
    (void)f;
    (void)path;
    (void)bucket_count;
    snprintf(warning, size, "hash file: this build cannot open files in place");
    return 0;
#endif
}

/* Creates the table file at path with bucket_count empty buckets and keeps it open with an
 * empty table in memory (POSIX): written under a temporary name beside it, then renamed over
 * it, so that no call ever sees it half made. note, when not empty, becomes the warning of a
 * success. Returns 1, or 0 with a warning. */
#if HAVE_POSIX
static int table_file_create(TableFile *f, const char *path, uint64_t bucket_count, const char *note, char *warning,
                             size_t size)
{
    char tmp[sizeof f->path + 32];
    TableFileHeader h;
    size_t total = table_file_size(bucket_count);
    unsigned char *base = NULL;
    int fd, error;
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) {
        table_file_warn(warning, size, path, strerror(errno), 1);
        return 0;
    }
    table_file_header(&h, bucket_count);
    /* the whole file's room is taken now: a full disk fails here, not in the middle of a search;
     * a file size limit (ulimit -f) fails too, and must not end the process with SIGXFSZ */
    signal(SIGXFSZ, SIG_IGN);
    error = posix_fallocate(fd, 0, (off_t)total);
    if (error == 0 && pwrite(fd, &h, sizeof h, 0) != (ssize_t)sizeof h)
        error = errno ? errno : EIO;
    if (error == 0 && (base = table_memory(total)) == NULL)
        error = ENOMEM;
    if (error == 0 && rename(tmp, path) != 0)
        error = errno;
    if (error != 0) {
        close(fd);
        table_memory_free(base, total);
        unlink(tmp);
        table_file_warn(warning, size, path, strerror(error), 1);
        return 0;
    }
    memcpy(base, &h, sizeof h);
    f->base = base;
    f->size = total;
    f->in_place = 1;
    f->fd = fd;
    if (note[0])
        table_file_warn(warning, size, path, note, 0);
    return 1;
}

/* Before a table written in place goes back: the buckets this call did not store into are
 * taken from the file as it is now, so that the entries of calls that ran at the same time
 * (another game's, sharing the file) stay; those this call wrote win. The few milliseconds
 * between this read and the write back are left to chance. */
static void table_file_merge(TableFile *f)
{
    const TableFileHeader *h = (const TableFileHeader *)f->base;
    size_t bytes = (size_t)h->bucket_count * sizeof(TTBucket), i;
    TTBucket *mine = (TTBucket *)(f->base + sizeof *h), *now;
    if (!f->written || (now = table_memory(bytes)) == NULL)
        return;
    if (pread(f->fd, now, bytes, sizeof *h) == (ssize_t)bytes)
        for (i = 0; i < h->bucket_count; i++)
            if (!(f->written[i >> 3] & (1u << (i & 7))))
                mine[i] = now[i];
    table_memory_free(now, bytes);
}
#endif

/* Reads the table file at path whole (without POSIX), or starts an empty table of bucket_count
 * buckets when there is none yet or it holds an older or damaged table of ours; it is written
 * back at table_file_detach. C99 cannot tell a regular file from a device, so anything that
 * opens and is not a table of ours, an empty file included (/dev/null reads as one), is left
 * alone. Returns 1, or 0 with a warning. */
static int table_file_read(TableFile *f, const char *path, uint64_t bucket_count, char *warning, size_t size)
{
    TableFileHeader h;
    FILE *in = fopen(path, "rb");
    long length = -1;
    int valid = 0;
    if (in && fseek(in, 0, SEEK_END) == 0)
        length = ftell(in);
    if (in && length > 0 && fseek(in, 0, SEEK_SET) == 0 && fread(&h, sizeof h, 1, in) == 1)
        valid = table_file_valid(&h, (size_t)length);
    else if (in)
        valid = -1;
    if (valid < 0) {
        fclose(in);
        table_file_warn(warning, size, path, "is not a Boxer table file, so it is left as it is", 1);
        return 0;
    }
    f->size = valid ? (size_t)length : table_file_size(bucket_count);
    f->base = table_memory(f->size);
    f->in_place = 0;
    if (f->base && valid && (fseek(in, 0, SEEK_SET) != 0 || fread(f->base, 1, f->size, in) != f->size)) {
        table_memory_free(f->base, f->size);
        f->base = NULL;
    }
    if (in)
        fclose(in);
    if (!f->base) {
        table_file_warn(warning, size, path, "cannot be read", 1);
        return 0;
    }
    if (!valid)
        table_file_header((TableFileHeader *)f->base, bucket_count);
    if (!valid && length > 0)
        table_file_warn(warning, size, path, "held a table of another build or size, now replaced by an empty one", 0);
    return 1;
}

/* Lets the table file go: written back in place (POSIX) or through a temporary file renamed
 * over it, and freed. Returns 0, or -1 when it could not be written (the file is then as it was). */
static int table_file_release(TableFile *f)
{
    char tmp[sizeof f->path + 16];
    FILE *out;
    int ok;
    if (f->in_place) {
        ok = 0;
#if HAVE_POSIX
        table_file_merge(f);
        ok = pwrite(f->fd, f->base, f->size, 0) == (ssize_t)f->size;
        close(f->fd);
#endif
        free(f->written);
        f->written = NULL;
        table_memory_free(f->base, f->size);
        f->base = NULL;
        return ok ? 0 : -1;
    }
    /* a name of its own for each process (its stack's address differs where addresses are
     * randomized, the clock elsewhere), so that calls at once do not write one file */
    snprintf(tmp, sizeof tmp, "%s.%lx.tmp", f->path, (unsigned long)((uintptr_t)&out ^ (uintptr_t)clock()) & 0xFFFFFFUL);
#ifdef SIGXFSZ
    signal(SIGXFSZ, SIG_IGN); /* a file size limit fails the write, not the process */
#endif
    out = fopen(tmp, "wb");
    ok = out && fwrite(f->base, 1, f->size, out) == f->size;
    ok = out && fclose(out) == 0 && ok;
    if (ok && rename(tmp, f->path) != 0)
        ok = remove(f->path) == 0 && rename(tmp, f->path) == 0;
    if (!ok)
        remove(tmp);
    table_memory_free(f->base, f->size);
    f->base = NULL;
    return ok ? 0 : -1;
}

/* Writes "hash file 'PATH': REASON" into warning, and "; searching without it" when the call
 * searches cold (the path cut to 200 bytes). */
static void table_file_warn(char *warning, size_t size, const char *path, const char *reason, int cold)
{
    snprintf(warning, size, "hash file '%.200s': %s%s", path, reason, cold ? "; searching without it" : "");
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
    SE_DEPTH = 6,               /* singular extensions from this depth on, of a hash move stored */
    SE_TT_DEPTH_SLACK = 3,      /* at most this many plies shallower, when the other moves searched */
    SE_MARGIN_PER_PLY = 2,      /* to half the depth stay this much a ply below its score; */
    SE_DOUBLE_MARGIN = 20,      /* twice, when this much further below (outside PV nodes), */
    SE_DOUBLE_MAX = 6,          /* at most this many times on a path */
    LMR_DEPTH = 3,              /* late move reductions of quiet moves from this depth on, */
    LMR_HISTORY_DIVISOR = 10000, /* a ply less for every this much history (more when it is negative) */
    ROOT_LMR_DEPTH = 3,         /* at the root from this depth on, quiet moves after the first */
    ROOT_LMR_MOVES = 4,         /* ROOT_LMR_MOVES are searched a ply shallower first */
    DELTA_MARGIN = 200,         /* the quiescence search skips a capture that, even this much ahead, stays below alpha */
    MATE_SLACK_PLIES = 4,       /* a proven mate stops the deepening this many plies past its distance */
    HISTORY_BONUS_SCALE = 16,   /* a quiet move's history changes by HISTORY_BONUS_SCALE * depth^2, */
    HISTORY_BONUS_MAX = 1600,   /* at most this */
    MVV_LVA_SCALE = 16,         /* captures order by the victim's value times this, less the attacker's type, */
    CAPTURE_HISTORY_DIVISOR = 8, /* plus their capture history divided by this */
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
static void search_set_table(Search *s, size_t megabytes)
{
    if (s->tt.megabytes == megabytes) {
        tt_clear(&s->tt);
    } else {
        tt_free(&s->tt);
        tt_init(&s->tt, megabytes);
    }
}

/* Forgets the game: an empty table and history, as at a new game. */
static void search_new_game(Search *s)
{
    tt_clear(&s->tt);
    search_clear_history(s);
}

/* Empties the history of moves and evaluations. */
static void search_clear_history(Search *s)
{
    memset(&s->hist, 0, sizeof s->hist);
    s->history_used = 0;
}

/* Releases s's table and helper threads. */
static void search_free(Search *s)
{
    search_threads(s, 1);
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
    level_limits(&s->limits);
    search_reset(s, board, keys, key_count);
    if (!moves) {
        gen_legal(&s->board, &list, GEN_ALL);
        moves = list.moves;
        count = list.count;
    }
    s->root_count = count;
    memcpy(s->root_moves, moves, sizeof(Move) * (size_t)count);
    if (s->helper_count > 0)
        eval_init(); /* before any thread evaluates */
    threads_start(s);
    iterate(s);
    threads_stop(s);
    if (s->limits.level_set && s->limits.level < LEVEL_MAX)
        level_choose(s);
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

/* Levels (UCI's Skill Level, --level): LEVEL_MAX plays at full strength; a level below it
 * searches at most LEVEL_NODES[level] nodes (but always a ply, whose quiescence search sees a
 * piece left hanging; the clock is looked at every POLL_NODES nodes), LEVEL_LINES lines, and
 * plays one of those at most level_margin(level) centipawns below the best, the nearer the
 * likelier: weaker by searching less and by choosing among near-best moves, never by a blunder
 * the search sees (a free queen is 900 above any other move). Strength of each level against
 * the ladder's engines: docs/uci.md. */
static const int LEVEL_NODES[LEVEL_MAX] = {
    50, 80, 120, 180, 270, 400, 600, 900, 1400, 2000, 3000, 4500, 7000, 10000, 15000, 23000, 35000, 50000, 80000, 120000
};

/* The strength of each level below LEVEL_MAX in Elo, on the ladder of docs/uci.md (Fairy-Max at
 * 2000, one-shot games at 0.1 s a move): levels 8, 12, 16 and 19 measured there, those between
 * them in proportion, those below 8 (which lost every game to Fairy-Max) 100 a level lower
 * each; UCI_Elo from LEVEL_ELO_MIN (level 0) to LEVEL_ELO_MAX (level LEVEL_MAX - 1) picks the
 * strongest level at or below it. */
static const int LEVEL_ELO[LEVEL_MAX] = {
    530, 630, 730, 830, 930, 1030, 1130, 1230, 1330, 1490, 1650, 1810, 1970, 2060, 2150, 2240, 2330, 2405, 2480, 2550
};

/* The level for UCI_Elo elo: the strongest whose strength is at most elo (level 0 below all). */
static int level_for_elo(int elo)
{
    int level = 0;
    while (level + 1 < LEVEL_MAX && LEVEL_ELO[level + 1] <= elo)
        level++;
    return level;
}

/* Narrows limits to a level below LEVEL_MAX: its nodes, its lines, and a ply at least. */
static void level_limits(Limits *limits)
{
    uint64_t nodes;
    if (!limits->level_set || limits->level >= LEVEL_MAX)
        return;
    nodes = (uint64_t)LEVEL_NODES[limits->level < 0 ? 0 : limits->level];
    if (!limits->node_limit || limits->node_limit > nodes)
        limits->node_limit = nodes;
    if (limits->multipv < LEVEL_LINES)
        limits->multipv = LEVEL_LINES;
    limits->min_depth = LEVEL_MIN_DEPTH;
}

/* The centipawns below the best line that a level's choice may go. */
static int level_margin(int level)
{
    return LEVEL_MARGIN_PER_LEVEL * (LEVEL_MAX - level);
}

/* After a level's search: draws the move to play among the lines of the last iteration within
 * the level's margin of the best, each weighted by how near it is; a mate found is played, a
 * line that is mated is never chosen. Sets best_move and best_score. */
static void level_choose(Search *s)
{
    const PvLine *lines = s->done_lines;
    int margin = level_margin(s->limits.level), best = lines[0].score, total = 0, i, pick;
    if (s->line_count < 2 || score_is_mate(best))
        return;
    if (!s->random_state)
        s->random_state = (uint64_t)(clock_now() * 1e9) ^ (uint64_t)(uintptr_t)s;
    for (i = 0; i < s->line_count && best - lines[i].score <= margin && lines[i].score > -SCORE_MATE_BOUND; i++)
        total += margin - (best - lines[i].score) + 1;
    pick = (int)(random_next(&s->random_state) % (uint64_t)total);
    for (i = 0; pick >= margin - (best - lines[i].score) + 1; i++)
        pick -= margin - (best - lines[i].score) + 1;
    s->best_move = lines[i].pv[0];
    s->best_score = lines[i].score;
}

/* Searches board's moves (count of them, all legal) in s within seconds counted from
 * limits->start, keys being the game's earlier positions for repetitions; returns the move
 * chosen, at once when there is one. The search behind one-shot, batch and match moves. */
static Move search_one_shot(Search *s, const Board *board, const Move *moves, int count, const uint64_t *keys,
                            int key_count, double seconds, Limits *limits)
{
    double budget = move_budget(seconds, limits->exit_cost);
    if (count == 1)
        return moves[0];
    limits->hard_deadline = limits->start + budget;
    limits->soft_deadline = limits->start + budget;
    limits->stall_guard = 1;
    limits->busy_cut = busy_cut_for(seconds);
    /* the size a one-shot call would use, so that batch lines answer as one-shot calls do; a
     * table file's table as it is */
    if (!s->tt.external)
        search_set_table(s, tt_megabytes_for(budget));
    search_run(s, board, keys, key_count, moves, count, limits);
    return s->best_move;
}

/* Searches every legal move of board (one at least) in s within limits as the UCI engine does
 * in a game, so that a fixed-node match against our own UCI build is between equals: a table
 * of the UCI default size and the history kept from move to move and cleared when new_game is
 * set, keys being
 * the game's positions so far. Returns the move; its score (side to move's view) is in
 * s->best_score and the depth completed in s->completed_depth (0: no score). */
static Move search_game_move(Search *s, const Board *board, const uint64_t *keys, int key_count, const Limits *limits,
                             int new_game)
{
    Limits game = *limits;
    if (s->tt.megabytes != HASH_DEFAULT_MB)
        search_set_table(s, HASH_DEFAULT_MB);
    if (new_game)
        search_new_game(s);
    game.keep_history = 1;
    search_run(s, board, keys, key_count, NULL, 0, &game);
    return s->best_move;
}

/* Writes line number `line` of the last search (0: the best; s->report_line in a report) in SAN
 * (PV_SAN) or coordinates (PV_COORDINATES), the moves separated by spaces, as far as it stays
 * legal and fits in size (PV_TEXT holds it all). */
static void search_pv(const Search *s, int line, int notation, char *out, size_t size)
{
    const PvLine *l = &s->lines[line];
    Board b = s->board;
    Undo u;
    int i;
    size_t used = 0;
    out[0] = '\0';
    for (i = 0; i < l->pv_len && move_is_legal(&b, l->pv[i]); i++) {
        char move[SAN_MAX];
        if (notation == PV_SAN)
            move_to_san(&b, l->pv[i], move);
        else
            move_to_coords(&b, l->pv[i], b.chess960, move);
        if (used + strlen(move) + 2 > size)
            break;
        used += (size_t)snprintf(out + used, size - used, "%s%s", i ? " " : "", move);
        board_make(&b, l->pv[i], &u);
    }
}

/* The reply the last search expects in after (its board once the best move is made): the
 * principal variation's second move, else the table's move there (a search stopped early may
 * leave a one-move PV); MOVE_NONE when neither is legal there. UCI ponders on it. */
static Move search_expected_reply(const Search *s, Board *after)
{
    TTData entry;
    const PvLine *line = &s->lines[0];
    if (line->pv_len >= 2 && line->pv[0] == s->best_move && move_is_legal(after, line->pv[1]))
        return line->pv[1];
    return tt_probe(&s->tt, after->key, &entry) && entry.move != MOVE_NONE && move_is_legal(after, entry.move)
               ? entry.move : MOVE_NONE;
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
    int depth, max_depth = s->limits.depth_limit ? s->limits.depth_limit : MAX_DEPTH, line, lines;
    lines = s->limits.multipv > 1 ? (s->limits.multipv < s->root_count ? s->limits.multipv : s->root_count) : 1;
    s->best_move = s->root_moves[0];
    s->eval_stack[0] = s->in_check[0] ? -SCORE_INF : evaluate(s, 0);
    s->line_count = 0;
    for (depth = 1; depth <= max_depth; depth++) {
        for (line = 0; line < lines && !search_stopping(s); line++)
            search_line(s, line, depth);
        if (search_stopping(s))
            break;
        sort_lines(s, lines);
        memcpy(s->done_lines, s->lines, sizeof(PvLine) * (size_t)lines);
        s->line_count = lines;
        shared_store(&s->completed_depth, depth);
        s->best_move = s->root_moves[0];
        s->best_score = s->lines[0].score;
        for (line = 0; line < lines; line++) {
            s->report_line = line;
            report_iteration(s, depth, s->lines[line].score, BOUND_EXACT);
        }
        if (s->limits.soft_deadline > 0 && clock_now() >= s->limits.soft_deadline - deadline_margin(s))
            break;
        if (score_is_mate(s->best_score) && depth >= 2 * (SCORE_MATE - abs(s->best_score)) + MATE_SLACK_PLIES
            && !s->limits.infinite)
            break;
    }
}

/* Searches line number `line` (from 0) of the root to depth with aspiration windows around its
 * last score: the best of the root moves after the lines before it, which it leaves in
 * root_moves[line], its line noted and each aspiration fail reported. */
static int search_line(Search *s, int line, int depth)
{
    int last = s->line_count > line ? s->lines[line].score : 0;
    int delta = ASPIRATION_DELTA, alpha = -SCORE_INF, beta = SCORE_INF;
    if (depth >= ASPIRATION_DEPTH) {
        alpha = last - delta > -SCORE_INF ? last - delta : -SCORE_INF;
        beta = last + delta < SCORE_INF ? last + delta : SCORE_INF;
    }
    s->report_line = line;
    for (;;) {
        int result = search_root(s, alpha, beta, depth, line);
        if (search_stopping(s))
            return 0;
        if (result <= alpha) {
            /* no move beat alpha, so no new principal variation: the line keeps its last one */
            s->lines[line].score = result;
            s->lines[line].bound = BOUND_UPPER;
            report_iteration(s, depth, result, BOUND_UPPER);
            beta = (alpha + beta) / 2;
            alpha = result - delta > -SCORE_INF ? result - delta : -SCORE_INF;
        } else if (result >= beta) {
            note_line(s, line, result, BOUND_LOWER);
            report_iteration(s, depth, result, BOUND_LOWER);
            beta = result + delta < SCORE_INF ? result + delta : SCORE_INF;
        } else {
            note_line(s, line, result, BOUND_EXACT);
            return result;
        }
        delta += delta / 2;
    }
}

/* Keeps the principal variation just found as line `line`, with its score and bound. */
static void note_line(Search *s, int line, int score, int bound)
{
    PvLine *l = &s->lines[line];
    l->pv_len = s->pv_len[0];
    memcpy(l->pv, s->pv[0], sizeof(Move) * (size_t)l->pv_len);
    l->score = score;
    l->bound = bound;
}

/* Sorts the first count lines best first (stable), and the root moves they start with. */
static void sort_lines(Search *s, int count)
{
    int i, j;
    for (i = 1; i < count; i++) {
        PvLine line = s->lines[i];
        Move m = s->root_moves[i];
        for (j = i; j > 0 && s->lines[j - 1].score < line.score; j--) {
            s->lines[j] = s->lines[j - 1];
            s->root_moves[j] = s->root_moves[j - 1];
        }
        s->lines[j] = line;
        s->root_moves[j] = m;
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
    shared_store64(&s->nodes, 0);
    s->last_poll = clock_now();
    s->longest_stall = s->limits.stall_before;
    s->next_load_look = s->last_poll + LOAD_LOOK_DELAY;
    s->load_looks = s->busy_looks = 0;
    shared_store(&s->stop, 0);
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
    /* a one-shot call skips these: clearing zero pages would only fault them in */
    if (s->tables_used)
        memset(s->killers, 0, sizeof s->killers);
    if (s->history_used && !s->keep_history && !s->limits.keep_history)
        search_clear_history(s);
    s->tables_used = s->history_used = 1;
    memset(s->move_stack, 0, sizeof s->move_stack);
    memset(s->excluded, 0, sizeof s->excluded);
    memset(s->double_extensions, 0, sizeof s->double_extensions);
    s->best_move = MOVE_NONE;
    s->best_score = 0;
    s->completed_depth = 0;
    s->table = s->main_search ? &s->main_search->tt : &s->tt;
    if (!s->main_search)
        s->tt.age = (s->tt.age + 1) & TT_AGE_MASK;
}

/* Searches the root moves from number first on (those before are the lines found already),
 * best first, within (alpha, beta); a move that beats alpha goes to root_moves[first]. */
static int search_root(Search *s, int alpha, int beta, int depth, int first)
{
    int i, best = -SCORE_INF, score;
    for (i = first; i < s->root_count; i++) {
        Move m = s->root_moves[i];
        Undo u;
        int new_depth = depth - 1, quiet = !move_is_capture(&s->board, m) && move_kind(m) != KIND_PROMOTION;
        push_move(s, m, &u, 0);
        if (s->in_check[1])
            new_depth++;
        if (i == first) {
            score = -search(s, -beta, -alpha, new_depth, 1, 0);
        } else {
            int r = depth >= ROOT_LMR_DEPTH && i - first >= ROOT_LMR_MOVES && quiet ? 1 : 0;
            score = -search(s, -alpha - 1, -alpha, new_depth - r, 1, 1);
            if (score > alpha && score < beta)
                score = -search(s, -beta, -alpha, new_depth, 1, 0);
        }
        pop_move(s, m, &u);
        if (search_stopping(s))
            break;
        if (score > best) {
            best = score;
            if (score > alpha) {
                int j;
                alpha = score;
                s->pv[0][0] = m;
                for (j = 1; j < s->pv_len[1]; j++)
                    s->pv[0][j] = s->pv[1][j];
                s->pv_len[0] = s->pv_len[1] > 1 ? s->pv_len[1] : 1;
                if (first == 0) {
                    /* a move that beat the first one is proven better: keep it even if time runs out */
                    s->best_move = m;
                    s->best_score = score;
                    note_line(s, 0, score, BOUND_LOWER);
                }
                memmove(&s->root_moves[first + 1], &s->root_moves[first], sizeof(Move) * (size_t)(i - first));
                s->root_moves[first] = m;
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
    TTData entry;
    Move m, best_move = MOVE_NONE, tt_move = MOVE_NONE, quiets[MAX_MOVES], noisy[MAX_MOVES];
    int hit, in_check, eval, best = -SCORE_INF, score, moves_tried = 0, quiet_count = 0, noisy_count = 0;
    int old_alpha = alpha, improving, order, tt_depth = 0, tt_bound = BOUND_NONE, tt_score = 0, raw_eval = 0;
    int pieces; /* the side to move has more than pawns: no zugzwang feared */
    int bound;
    int16_t *corrections[3]; /* the position's correction entries, when not in check */
    CheckSquares cs;
    int cs_ready = 0; /* cs is found at the first pruning that needs it */
    Move excluded = s->excluded[ply];

    /* Step 1. Leaves go to the quiescence search, which makes no line: this node's is empty
     * until a move raises alpha (else its parent copies what an earlier search left here). */
    s->pv_len[ply] = ply;
    if (depth <= 0)
        return qsearch(s, alpha, beta, ply, 1);
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
    hit = tt_probe(s->table, b->key, &entry);
    if (hit) {
        tt_move = entry.move;
        tt_depth = entry.depth;
        tt_bound = entry.bound;
        tt_score = score_from_tt(entry.score, ply);
        if (!pv_node && tt_depth >= depth && excluded == MOVE_NONE
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
        raw_eval = hit ? entry.eval : evaluate(s, ply);
        correction_entries(s, corrections);
        eval = s->eval_stack[ply] = corrected_eval(corrections, raw_eval);
        if (hit && tt_bound != BOUND_NONE
            && (tt_bound == BOUND_EXACT || (tt_bound == BOUND_LOWER) == (tt_score > eval)))
            eval = tt_score;
        improving = ply >= 2 && s->eval_stack[ply] > s->eval_stack[ply - 2];
    }

    if (!pv_node && !in_check && excluded == MOVE_NONE) {
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
            pop_move(s, MOVE_NONE, &u);
            if (search_stopping(s))
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
    if (tt_move != MOVE_NONE && (tt_move == excluded || !move_is_legal(b, tt_move)))
        tt_move = MOVE_NONE;
    mp.count = -1;
    while ((m = next_move(s, &mp, &list, tt_move, ply, &order)) != MOVE_NONE) {
        Undo u;
        int quiet = !move_is_capture(b, m) && move_kind(m) != KIND_PROMOTION;
        int new_depth = depth - 1, gives_check, r = 0, extension = 0;

        if (m == excluded)
            continue;

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

        /* Step 10. Singular extension: the hash move, when no other move comes near its score
         * in a shallower search without it; else a multi-cut, or a negative extension. */
        if (m == tt_move && ply > 0 && depth >= SE_DEPTH && excluded == MOVE_NONE && tt_depth >= depth - SE_TT_DEPTH_SLACK
            && (tt_bound == BOUND_LOWER || tt_bound == BOUND_EXACT) && !score_is_mate(tt_score)) {
            int singular_beta = tt_score - SE_MARGIN_PER_PLY * depth;
            s->excluded[ply] = m;
            score = search(s, singular_beta - 1, singular_beta, (depth - 1) / 2, ply, cut_node);
            s->excluded[ply] = MOVE_NONE;
            if (search_stopping(s))
                return 0;
            if (score < singular_beta) {
                extension = 1;
                if (!pv_node && score < singular_beta - SE_DOUBLE_MARGIN && s->double_extensions[ply] < SE_DOUBLE_MAX)
                    extension = 2;
            } else if (singular_beta >= beta) {
                return singular_beta;
            } else if (tt_score >= beta) {
                extension = -1;
            }
        }
        s->double_extensions[ply + 1 <= MAX_PLY ? ply + 1 : MAX_PLY] = s->double_extensions[ply] + (extension == 2);

        push_move(s, m, &u, ply);
        gives_check = s->in_check[ply + 1];
        moves_tried++;
        if (quiet)
            quiets[quiet_count++] = m;
        else
            noisy[noisy_count++] = m;

        /* Step 10b. Check extension. */
        if (gives_check && extension == 0)
            extension = 1;
        new_depth += extension;

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
        pop_move(s, m, &u);
        if (search_stopping(s))
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
                    update_capture_stats(s, m, noisy, noisy_count, depth);
                    break;
                }
            }
        }
    }
    if (moves_tried == 0 && mp.count == 0)
        return in_check ? -SCORE_MATE + ply : SCORE_DRAW;
    if (moves_tried == 0)
        return alpha; /* everything was pruned: fail low */

    /* Step 12. Store the result, and what it says of the static evaluation: a quiet or no
     * best move, and a bound that lies on the far side of the evaluation. */
    bound = best >= beta ? BOUND_LOWER : alpha > old_alpha ? BOUND_EXACT : BOUND_UPPER;
    if (excluded != MOVE_NONE)
        return best;
    tt_store(s->table, b->key, best_move, best, raw_eval, depth, bound, ply);
    if (!in_check && (best_move == MOVE_NONE || (!move_is_capture(b, best_move) && move_kind(best_move) != KIND_PROMOTION))
        && !score_is_mate(best) && !(bound == BOUND_LOWER && best <= s->eval_stack[ply])
        && !(bound == BOUND_UPPER && best >= s->eval_stack[ply]))
        correction_update(corrections, depth, best - s->eval_stack[ply]);
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
    TTData entry;
    Move m, best_move = MOVE_NONE, tt_move = MOVE_NONE;
    int in_check, stand_pat, best, hit, score, old_alpha = alpha, order, raw_eval = 0;

    if (ply > s->seldepth)
        s->seldepth = ply;
    if (time_is_up(s))
        return 0;
    if (ply >= MAX_PLY)
        return evaluate(s, ply);
    if (board_drawn_by_rule(b, s->keys, s->key_count, 1))
        return SCORE_DRAW;

    hit = tt_probe(s->table, b->key, &entry);
    if (hit) {
        int tt_score = score_from_tt(entry.score, ply);
        tt_move = entry.move;
        if ((entry.bound == BOUND_EXACT) || (entry.bound == BOUND_LOWER && tt_score >= beta)
            || (entry.bound == BOUND_UPPER && tt_score <= alpha))
            return tt_score;
    }
    in_check = s->in_check[ply];
    assert(in_check == board_in_check(b));
    if (in_check) {
        best = stand_pat = -SCORE_INF;
    } else {
        int16_t *corrections[3];
        raw_eval = hit ? entry.eval : evaluate(s, ply);
        correction_entries(s, corrections);
        stand_pat = best = corrected_eval(corrections, raw_eval);
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
        pop_move(s, m, &u);
        if (search_stopping(s))
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
    tt_store(s->table, b->key, best_move, best, raw_eval, 0,
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
 * before, a history bonus for it and a malus for the quiet moves tried before it, in the
 * history of the side and in the continuation histories of the last two moves. */
static void update_quiet_stats(Search *s, int ply, Move best, const Move *quiets, int quiet_count, int depth)
{
    const Board *b = &s->board;
    PieceToHistory *ch1 = cont_history_at(s, ply, 1), *ch2 = cont_history_at(s, ply, 2);
    int side = b->side, i, bonus = history_bonus(depth);
    if (s->killers[ply][0] != best) {
        s->killers[ply][1] = s->killers[ply][0];
        s->killers[ply][0] = best;
    }
    if (ply > 0 && s->move_stack[ply - 1] != MOVE_NONE)
        s->hist.counter[s->piece_stack[ply - 1]][move_to(s->move_stack[ply - 1])] = best;
    for (i = 0; i < quiet_count; i++) {
        int delta = quiets[i] == best ? bonus : -bonus, piece = b->squares[move_from(quiets[i])], to = move_to(quiets[i]);
        history_add(&s->hist.main[side][move_from(quiets[i])][to], delta, bonus);
        history_add(&(*ch1)[piece][to], delta, bonus);
        history_add(&(*ch2)[piece][to], delta, bonus);
    }
}

/* After the move best cut off at depth: a capture history bonus for it if it is a capture or
 * promotion, and a malus for those tried before it (noisy_count of them, best among them). */
static void update_capture_stats(Search *s, Move best, const Move *noisy, int noisy_count, int depth)
{
    int bonus = history_bonus(depth), i;
    for (i = 0; i < noisy_count; i++)
        history_add(capture_history_at(s, noisy[i]), noisy[i] == best ? bonus : -bonus, bonus);
}

/* The capture history entry of the capture or promotion m in the position at hand. */
static int16_t *capture_history_at(Search *s, Move m)
{
    const Board *b = &s->board;
    int taken = move_kind(m) == KIND_EN_PASSANT ? PAWN : piece_type(b->squares[move_to(m)]);
    return &s->hist.capture[b->squares[move_from(m)]][move_to(m)][taken];
}

/* The history bonus of a cut-off at depth: HISTORY_BONUS_SCALE * depth^2, at most HISTORY_BONUS_MAX. */
static int history_bonus(int depth)
{
    return depth * depth * HISTORY_BONUS_SCALE > HISTORY_BONUS_MAX ? HISTORY_BONUS_MAX : depth * depth * HISTORY_BONUS_SCALE;
}

/* The continuation history row of the move made `back` plies before ply (1: the move into
 * ply), by its piece and destination; the null move's row [0][0] before the root. */
static PieceToHistory *cont_history_at(Search *s, int ply, int back)
{
    int p = ply - back;
    return p >= 0 ? &s->hist.cont[s->piece_stack[p]][move_to(s->move_stack[p])] : &s->hist.cont[0][0];
}

/* Adds delta (of size bonus) to a history value, with gravity: it stays within +-HISTORY_MAX. */
static void history_add(int16_t *h, int delta, int bonus)
{
    *h = (int16_t)(*h + delta - *h * bonus / HISTORY_MAX);
}

/* Asserts that the accumulator brought up to date move by move equals one computed from
 * the board; like check_board in movement.c, only debug builds (ENGINE_DEBUG) pay for it. */
static void check_accumulator(const Search *s, int ply)
{
#ifdef ENGINE_DEBUG
    Accumulator fresh;
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

/* A hash of the squares of color's pieces of types first to last (PAWN ... KING). */
static uint64_t pieces_hash(const Board *b, int color, int first, int last)
{
    uint64_t h = (uint64_t)color + 1;
    int type;
    for (type = first; type <= last; type++)
        h = (h ^ b->pieces[make_piece(color, type)]) * UINT64_C(0x9E3779B97F4A7C15);
    return h ^ (h >> 29);
}

/* The position's correction entries for the side to move: its pawn structure's, then white's
 * and black's other pieces'; all NULL when the evaluation is knowledge (eval_by_knowledge), whose
 * scores stay as they are (a correction learnt in one K+B+N v K position blurs the gradient
 * toward the right corner that mates). */
static void correction_entries(Search *s, int16_t *entry[3])
{
    const Board *b = &s->board;
    uint64_t mask = CORRECTION_SIZE - 1;
    int side = b->side, c;
    if (eval_by_knowledge(b)) {
        entry[0] = entry[1] = entry[2] = NULL;
        return;
    }
    entry[0] = &s->hist.pawn_correction[side][(pieces_hash(b, WHITE, PAWN, PAWN) ^ 3 * pieces_hash(b, BLACK, PAWN, PAWN)) & mask];
    for (c = WHITE; c <= BLACK; c++)
        entry[1 + c] = &s->hist.piece_correction[side][c][pieces_hash(b, c, KNIGHT, KING) & mask];
}

/* The static evaluation raw of a position corrected by its correction entries
 * (correction_entries): the pawn structure's and each colour's other pieces' (half weight each). */
static int corrected_eval(int16_t *const entry[3], int raw)
{
    int eval;
    if (!entry[0])
        return raw;
    eval = raw + (*entry[0] + (*entry[1] + *entry[2]) / 2) / CORRECTION_GRAIN;
    return eval > EVAL_LIMIT ? EVAL_LIMIT : eval < -EVAL_LIMIT ? -EVAL_LIMIT : eval;
}

/* After a search to depth found diff more than the corrected static evaluation: each of the
 * position's correction entries (correction_entries) moves toward it. */
static void correction_update(int16_t *const entry[3], int depth, int diff)
{
    int weight = depth + 1 < CORRECTION_WEIGHT_MAX ? depth + 1 : CORRECTION_WEIGHT_MAX, i;
    if (!entry[0])
        return;
    for (i = 0; i < 3; i++)
        correction_entry_update(entry[i], diff, weight);
}

/* Moves a correction entry weight parts in CORRECTION_WEIGHT_SCALE toward diff centipawns. */
static void correction_entry_update(int16_t *e, int diff, int weight)
{
    int target = diff * CORRECTION_GRAIN, value;
    value = (*e * (CORRECTION_WEIGHT_SCALE - weight) + target * weight) / CORRECTION_WEIGHT_SCALE;
    *e = (int16_t)(value > CORRECTION_MAX ? CORRECTION_MAX : value < -CORRECTION_MAX ? -CORRECTION_MAX : value);
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
    shared_store64(&s->nodes, s->nodes + 1);
    tt_prefetch(s->table, s->board.key);
}

/* Unmakes m as push_move made it. The caller then asks search_stopping: once the search is
 * stopping, the score just found means nothing and the caller unwinds at once. */
static void pop_move(Search *s, Move m, const Undo *u)
{
    s->key_count--;
    if (m == MOVE_NONE)
        board_unmake_null(&s->board, u);
    else
        board_unmake(&s->board, m, u);
}

/* Scores the moves of list for ordering at ply: the hash move, captures by MVV-LVA (losing
 * ones and under-promotions last) and capture history, killers, the counter-move, then quiet
 * moves by history: the side's, and the continuation histories after the last two moves. */
static void picker_init(Search *s, MovePicker *mp, MoveList *list, Move tt_move, int ply)
{
    const Board *b = &s->board;
    PieceToHistory *ch1 = cont_history_at(s, ply, 1), *ch2 = cont_history_at(s, ply, 2);
    int16_t(*main_history)[64] = s->hist.main[b->side];
    Move counter = MOVE_NONE;
    int i;
    if (ply > 0 && s->move_stack[ply - 1] != MOVE_NONE)
        counter = s->hist.counter[s->piece_stack[ply - 1]][move_to(s->move_stack[ply - 1])];
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
            score = (!under && (cheap || see(b, m) >= 0) ? ORDER_GOOD_CAPTURE : ORDER_BAD_CAPTURE) + mvv_lva
                    + *capture_history_at(s, m) / CAPTURE_HISTORY_DIVISOR;
        } else if (m == s->killers[ply][0]) {
            score = ORDER_KILLER + 1;
        } else if (m == s->killers[ply][1]) {
            score = ORDER_KILLER;
        } else if (m == counter) {
            score = ORDER_COUNTER;
        } else {
            int piece = b->squares[move_from(m)], to = move_to(m);
            score = main_history[move_from(m)][to] + (*ch1)[piece][to] + (*ch2)[piece][to];
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

    /* a castling takes nothing (a Chess960 king may land on its own rook's square) and lands
     * on a square the other side does not attack */
    if (move_kind(m) == KIND_CASTLE)
        return 0;
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

/* Natural logarithm without libm: for the reduction table, and the match's Elo and SPRT. */
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
    search_set_table(s, BENCH_HASH_MB);
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

/* What the front ends share: words and numbers read from text, one-line messages, the report
 * line of a search, the one-shot decision, the diagnostics (board, perft, eval, bench). */

enum { EXIT_USAGE = 2, EXIT_BAD_FEN = 3, EXIT_BAD_MOVES = 4 };
enum { WARNING_MAX = 400 };        /* bytes of the warning line about ignored tokens */
enum { REPORT_LINE = PV_TEXT + 160 };  /* report_text's line: the PV and at most 150 bytes */

/* The legal moves a one-shot move list names (read_move_list), each once, with the index of
 * the token that first names it. */
typedef struct {
    Move moves[MAX_MOVES];
    int first_index[MAX_MOVES];
    int count;              /* legal moves */
    int tokens;             /* tokens in the list, legal or not */
} ListedMoves;

/* prototypes */
static void print_line(FILE *out, const char *format, ...);
static const char *next_token(const char **text, size_t *len);
static int parse_real(const char *s, const char **end, double *out);
static int parse_integer(const char *s, long long min, long long max, long long *out);
static int parse_seconds(const char *s, double *out);
static int parse_options(int argc, char **argv, const char *mode, const char *const *flags, int (*take)(void *options, const char *key, const char *value), void *options);
static void report_text(const Search *s, int depth, int score, int bound, char *out, size_t size);
static void report_verbose(const Search *s, int depth, int score, int bound);
static int decide(Search *s, const char *fen, const char *moves, double seconds, Limits *limits, int *index, char *err, size_t err_size, char *warning, size_t warning_size);
static void read_move_list(Board *board, const char *moves, ListedMoves *listed, char *warning, size_t warning_size);
static ParseResult move_from_token(Board *board, const char *token, size_t len, Move *m);
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

/* Returns the next token of *text, a run of bytes other than whitespace, with its length in
 * *len, and moves *text past it; NULL when only whitespace is left. The one rule by which the
 * front ends split words: one-shot and batch move lists, UCI lines, openings lines, the page's
 * moves. */
static const char *next_token(const char **text, size_t *len)
{
    const char *p = *text, *start;
    while (isspace((unsigned char)*p))
        p++;
    for (start = p; *p && !isspace((unsigned char)*p); p++)
        ;
    *text = p;
    *len = (size_t)(p - start);
    return *len ? start : NULL;
}

/* Parses a decimal number written as an optional '-', digits and an optional fraction (-5,
 * 0.05, .5, 3.) with strtod, up to the first other character, left in *end. Returns 0 for text
 * without a digit, and for text that strtod would read further: an exponent (1e3) or
 * hexadecimal (0x10); strtod's inf and nan have no digit. */
static int parse_real(const char *s, const char **end, double *out)
{
    const char *p = s + (*s == '-');
    size_t whole = strspn(p, "0123456789"), fraction = 0;
    char *read;
    p += whole;
    if (*p == '.') {
        fraction = strspn(p + 1, "0123456789");
        p += 1 + fraction;
    }
    if (whole + fraction == 0)
        return 0;
    *out = strtod(s, &read);
    *end = p;
    return read == p;
}

/* Parses a whole number from min to max written as an optional '-' and decimal digits, the
 * whole of s (strtoll; no whitespace, '+', fraction or hexadecimal). */
static int parse_integer(const char *s, long long min, long long max, long long *out)
{
    char *end;
    long long value;
    if (!isdigit((unsigned char)s[*s == '-']))
        return 0;
    value = strtoll(s, &end, 10); /* beyond the range of long long: LLONG_MAX or LLONG_MIN */
    if (*end != '\0' || value < min || value > max)
        return 0;
    *out = value;
    return 1;
}

/* Parses a positive number of seconds (parse_real), at most a day, with any whitespace around
 * it (" 1 ", "3\n", as shell variables and files give it). */
static int parse_seconds(const char *s, double *out)
{
    const char *end;
    double value;
    while (isspace((unsigned char)*s))
        s++;
    if (!parse_real(s, &end, &value))
        return 0;
    while (isspace((unsigned char)*end))
        end++;
    if (*end != '\0' || !(value > 0 && value <= 86400))
        return 0;
    *out = value;
    return 1;
}

/* Reads a mode's options from argv[2] on: `--key value` pairs, and the flags named in flags (a
 * NULL-ended list, or NULL), which take no value; hands each to take (with "" for a flag),
 * which returns 1 if it knows the key and the value is good, with options. Returns 0, or
 * EXIT_USAGE after one error line naming the first option refused. */
static int parse_options(int argc, char **argv, const char *mode, const char *const *flags,
                         int (*take)(void *options, const char *key, const char *value), void *options)
{
    int i, k;
    for (i = 2; i < argc; i++) {
        const char *key = argv[i], *value;
        for (k = 0; flags && flags[k] && strcmp(flags[k], key) != 0; k++)
            ;
        if (flags && flags[k])
            value = "";
        else
            value = i + 1 < argc ? argv[++i] : NULL;
        if (!value || !take(options, key, value)) {
            print_line(stderr, "error: %s: bad option '%.60s%s%.60s' (see --help)", mode, key, value && value[0] ? " " : "",
                       value ? value : "");
            return EXIT_USAGE;
        }
    }
    return 0;
}

/* Writes an iteration's report as --verbose shows it (and the page reads it, web/boxer.js):
 * depth, the line's number when there are several (MultiPV), score (cp, or mate in moves),
 * nodes, time, the principal variation in SAN, and the bound of an aspiration fail. */
static void report_text(const Search *s, int depth, int score, int bound, char *out, size_t size)
{
    double elapsed = clock_now() - s->limits.start;
    char pv[PV_TEXT], value[32], line[24] = "";
    search_pv(s, s->report_line, PV_SAN, pv, sizeof pv);
    if (score_is_mate(score))
        snprintf(value, sizeof value, "mate %3d", score_mate_moves(score));
    else
        snprintf(value, sizeof value, "cp %5d", score);
    if (s->limits.multipv > 1)
        snprintf(line, sizeof line, "  line %d", s->report_line + 1);
    snprintf(out, size, "depth %2d%s  score %s  nodes %10llu  time %6lld ms  pv %s%s", depth, line, value,
             (unsigned long long)search_nodes(s), (long long)(elapsed * 1000 + 0.5), pv,
             bound == BOUND_LOWER ? " (lower bound)" : bound == BOUND_UPPER ? " (upper bound)" : "");
}

/* --verbose: each report on one line of stderr. */
static void report_verbose(const Search *s, int depth, int score, int bound)
{
    char line[REPORT_LINE];
    report_text(s, depth, score, bound, line, sizeof line);
    fprintf(stderr, "%s\n", line);
}

/* The decision behind the one-shot call, batch lines and choose_move(): reads the position
 * and the move list (read_move_list), then searches in s within seconds from limits->start;
 * returns 0 with the index, or an exit status with the reason in err. */
static int decide(Search *s, const char *fen, const char *moves, double seconds, Limits *limits, int *index,
                  char *err, size_t err_size, char *warning, size_t warning_size)
{
    Board board;
    ListedMoves listed;
    MoveList all;
    Move best;
    int i;

    warning[0] = '\0';
    if (!board_from_fen(&board, fen, err, err_size))
        return EXIT_BAD_FEN;
    read_move_list(&board, moves, &listed, warning, warning_size);
    if (listed.tokens == 0) {
        snprintf(err, err_size, "the move list is empty");
        return EXIT_BAD_MOVES;
    }
    if (listed.count == 0) {
        if (gen_legal(&board, &all, GEN_ALL) == 0)
            snprintf(err, err_size, "no move is legal: the position is %s", game_status_name(board_status(&board, NULL, 0)));
        else { /* the ignored tokens, as many as fit */
            snprintf(err, err_size, "no token of the move list is a legal move in this position; ");
            strncat(err, warning, err_size - strlen(err) - 1);
        }
        return EXIT_BAD_MOVES;
    }
    best = search_one_shot(s, &board, listed.moves, listed.count, NULL, 0, seconds, limits);
    *index = listed.first_index[0];
    for (i = 0; i < listed.count; i++)
        if (listed.moves[i] == best)
            *index = listed.first_index[i];
    return 0;
}

/* Reads a one-shot move list in board: each token (next_token) that is a legal move, with the
 * index of its first listing, into listed; every other token (not a move, not legal here,
 * ambiguous, listed twice) is named in the warning line. */
static void read_move_list(Board *board, const char *moves, ListedMoves *listed, char *warning, size_t warning_size)
{
    const char *token;
    size_t len;
    int i;
    listed->count = listed->tokens = 0;
    while ((token = next_token(&moves, &len)) != NULL) {
        Move m;
        ParseResult r = move_from_token(board, token, len, &m);
        if (r != PARSE_OK) {
            warn_token(warning, warning_size, token, len,
                       r == PARSE_AMBIGUOUS ? "ambiguous" : r == PARSE_ILLEGAL ? "not legal here" : "not a move");
        } else {
            for (i = 0; i < listed->count && listed->moves[i] != m; i++)
                ;
            if (i < listed->count) {
                warn_token(warning, warning_size, token, len, "listed twice");
            } else {
                listed->moves[listed->count] = m;
                listed->first_index[listed->count++] = listed->tokens;
            }
        }
        listed->tokens++;
    }
}

/* move_from_text for a token of len bytes (next_token's); one too long for any move form is
 * PARSE_MALFORMED. */
static ParseResult move_from_token(Board *board, const char *token, size_t len, Move *m)
{
    char text[32];
    if (len >= sizeof text)
        return PARSE_MALFORMED;
    memcpy(text, token, len);
    text[len] = '\0';
    return move_from_text(board, text, m);
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

/* ================================================================= numbers */

/* e^x and the square root for the match's Elo and SPRT, kept by hand so that the plain build
 * needs no -lm (cc -std=c99 engine.c movement.c extra.c). The third such function, ln, lives
 * in the engine section (the reduction table needs it) and the front ends share it. */

/* prototypes */
static double math_exp(double x);
static double math_sqrt(double x);

/* e^x, halving x below 1/16 for a short Taylor sum and squaring back. */
static double math_exp(double x)
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

/* The square root of x (0 for x <= 0), by Newton's method. */
static double math_sqrt(double x)
{
    double r = x > 1 ? x : 1;
    int i;
    if (x <= 0)
        return 0;
    for (i = 0; i < 64; i++)
        r = (r + x / r) / 2;
    return r;
}

/* ============================================================ command line */

/* The program: the one-shot call, --batch, the subcommands (perft, eval, d, bench), and the
 * other front ends started from main. */

enum { BATCH_LINE_MAX = 1 << 16 };

/* The options of the one-shot call and --batch, before the three arguments. */
typedef struct {
    Limits limits;          /* --depth, --nodes, --multipv, --level, --verbose (its report) */
    const char *hash_file;  /* --hash-file, else BOXER_HASH_FILE, else NULL */
    int threads;            /* --threads (0: one) */
    int batch;              /* --batch */
} CallOptions;
/* --hash-file: the environment variable that names it when the option does not, and the size of
 * the table in a new file: what a one-shot call at 0.1 s allocates for itself (every page a
 * call touches costs it a page fault, slow on virtual machines, so a larger one costs more
 * than it brings at short limits) */
#define HASH_FILE_VARIABLE "BOXER_HASH_FILE"
enum { HASH_FILE_MB = 2 };

/* prototypes (with the entry points of the front ends below, which main starts) */
static void uci_loop(Search *s);
static int run_match(Search *s, int argc, char **argv);
static int run_datagen(Search *s, int argc, char **argv);
static double time_before_main(double *stall);
static void print_usage(FILE *out);
static int asks_help(int argc, char **argv);
static int read_call_options(int argc, char **argv, CallOptions *o, int *next);
static int run_one_shot(Search *s, const char *fen, const char *moves, double seconds, CallOptions *o);
static int run_batch(Search *s, CallOptions *o);
static void use_threads(Search *s, int threads);
static int hash_file_attach(TableFile *f, Search *s, const char *path, int verbose);
static void hash_file_detach(TableFile *f, Search *s);
static int batch_read_line(char *line, size_t size);
static int batch_answer(Search *s, char *line, const Limits *options, long number);
static int run_perft(int argc, char **argv);
static int board_from_argument(int argc, char **argv, int at, const char *usage, Board *b);
static int run_show(int argc, char **argv, void (*show)(const Board *b));

/* Seconds since the kernel created this process (Linux): the time the caller's fork, the
 * exec, the dynamic loader or a busy machine took before main; *stall is how much of it the
 * process spent waiting for a processor. The kernel's start time (/proc/self/stat) counts in
 * clock ticks of 10 ms, so alone it makes the process up to a tick older than it is, which
 * errs on the safe side. A process that has not slept yet (no voluntary context switch in
 * /proc/self/status) has lived exactly its processor time plus its waits for a processor
 * (/proc/self/schedstat): then that sum, with START_SLACK for the fork, is the tighter
 * reading. 0 and 0 where there are no such files, or when a reading is implausible. */
static double time_before_main(double *stall)
{
#if HAVE_POSIX && defined(__linux__) && defined(CLOCK_BOOTTIME) && defined(CLOCK_PROCESS_CPUTIME_ID)
    static const double START_SLACK = 0.0005, START_MAX = 0.5;
    char line[1024], *field;
    struct timespec now, cpu;
    unsigned long long start_ticks, run_ns, wait_ns;
    long ticks_per_second = sysconf(_SC_CLK_TCK), voluntary = -1;
    double elapsed, lived;
    int i;
    FILE *f = fopen("/proc/self/stat", "r");
    *stall = 0;
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
    if (!(elapsed >= 0 && elapsed < START_MAX))
        return 0;
    if ((f = fopen("/proc/self/schedstat", "r")) == NULL)
        return elapsed;
    i = fscanf(f, "%llu %llu", &run_ns, &wait_ns);
    fclose(f);
    if (i != 2)
        return elapsed;
    *stall = (double)wait_ns * 1e-9;
    if ((f = fopen("/proc/self/status", "r")) != NULL) {
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "voluntary_ctxt_switches: %ld", &voluntary) == 1)
                break;
        fclose(f);
    }
    if (voluntary != 0 || clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu) != 0)
        return elapsed;
    lived = (double)cpu.tv_sec + (double)cpu.tv_nsec * 1e-9 + *stall + START_SLACK;
    return lived < elapsed ? lived : elapsed;
#else
    *stall = 0;
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
        "       engine [options] --batch    (stdin lines FEN<TAB>moves<TAB>seconds)\n"
        "       engine match --opponent \"COMMAND\"|random --games N --time SECONDS|--nodes N\n"
        "                    [--concurrency K] [--threads T] [--chess960]\n"
        "                    [--sprt ELO0,ELO1 [--alpha A] [--beta B]] [--openings FILE] [--pgn FILE]\n"
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
        "  --threads N   search with N threads (1 to 256)\n"
        "  --multipv N   search the best N moves to full depth (--verbose shows each line)\n"
        "  --level N     a weaker engine: 0 (weakest) to 20 (full strength, the default)\n"
        "  --hash-file FILE  keep the table and the search's history in FILE between calls\n"
        "                (also BOXER_HASH_FILE=FILE; off by default)\n"
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
    CallOptions options;
    int i = 1, status;
    memset(&options, 0, sizeof options);
    options.limits.start = clock_now() - time_before_main(&options.limits.stall_before);
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
        if (argc > 3 || (argc == 3 && !parse_integer(argv[2], 1, MAX_DEPTH, &depth))) {
            fprintf(stderr, "error: usage: engine bench [DEPTH from 1 to %d]\n", MAX_DEPTH);
            return EXIT_USAGE;
        }
        return run_bench(&context, (int)depth);
    }
    status = read_call_options(argc, argv, &options, &i);
    if (status != 0)
        return status;
    if (options.batch) {
        if (argc - i == 0)
            return run_batch(&context, &options);
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
        return run_one_shot(&context, argv[i], argv[i + 1], seconds, &options);
    }
}
#endif

/* Reads the options of the one-shot call and --batch from argv[*next] on into o, leaving *next
 * at the first argument after them; returns 0, or EXIT_USAGE after one error line. */
static int read_call_options(int argc, char **argv, CallOptions *o, int *next)
{
    static const struct {
        const char *name;
        long long min, max;
        const char *max_text;
    } NUMBERS[] = {
        { "--depth", 1, MAX_DEPTH, "64" }, { "--nodes", 1, 1000000000000000LL, "10^15" },
        { "--threads", 1, THREADS_MAX, "256" }, { "--multipv", 1, MAX_MOVES, "256" }, { "--level", 0, LEVEL_MAX, "20" },
    };
    int i = *next;
    o->hash_file = getenv(HASH_FILE_VARIABLE);
    for (; i < argc && strncmp(argv[i], "--", 2) == 0 && argv[i][2] != '\0'; i++) {
        long long n;
        size_t k;
        for (k = 0; k < sizeof NUMBERS / sizeof NUMBERS[0] && strcmp(argv[i], NUMBERS[k].name) != 0; k++)
            ;
        if (k < sizeof NUMBERS / sizeof NUMBERS[0]) {
            if (i + 1 >= argc || !parse_integer(argv[i + 1], NUMBERS[k].min, NUMBERS[k].max, &n)) {
                fprintf(stderr, "error: %s needs a whole number from %lld to %s\n", argv[i], NUMBERS[k].min,
                        NUMBERS[k].max_text);
                return EXIT_USAGE;
            }
            i++;
            if (k == 0)
                o->limits.depth_limit = (int)n;
            else if (k == 1)
                o->limits.node_limit = (uint64_t)n;
            else if (k == 2)
                o->threads = (int)n;
            else if (k == 3)
                o->limits.multipv = (int)n;
            else
                o->limits.level = (int)n, o->limits.level_set = 1;
        } else if (strcmp(argv[i], "--verbose") == 0) {
            o->limits.report = report_verbose;
        } else if (strcmp(argv[i], "--batch") == 0) {
            o->batch = 1;
        } else if (strcmp(argv[i], "--hash-file") == 0) {
            if (i + 1 >= argc || !argv[i + 1][0]) {
                fprintf(stderr, "error: --hash-file needs a file name\n");
                return EXIT_USAGE;
            }
            o->hash_file = argv[++i];
        } else {
            print_line(stderr, "error: unknown option '%.40s' (see --help)", argv[i]);
            return EXIT_USAGE;
        }
    }
    *next = i;
    return 0;
}

/* Gives s the threads asked for (0: one), saying on stderr when fewer could be had. */
static void use_threads(Search *s, int threads)
{
    int got = search_threads(s, threads > 0 ? threads : 1);
    if (threads > got)
        fprintf(stderr, "warning: %d threads asked for, %d in use (%s)\n", threads, got,
                HAVE_THREADS ? "memory is short" : "this build has no threads");
}

/* The one-shot call, searched in s as o asks (with its table file, if any): the index on stdout,
 * or one error line and the exit status. */
static int run_one_shot(Search *s, const char *fen, const char *moves, double seconds, CallOptions *o)
{
    char err[200], warning[WARNING_MAX + 100];
    TableFile file;
    Limits *limits = &o->limits;
    int index = -1, status, attached;
    double attach_start;
    use_threads(s, o->threads);
    attach_start = clock_now();
    attached = o->hash_file && hash_file_attach(&file, s, o->hash_file, limits->report != NULL);
    /* letting the file go costs about what taking it did (the history copied, the pages touched) */
    limits->exit_cost = attached ? clock_now() - attach_start : 0;
    status = decide(s, fen, moves, seconds, limits, &index, err, sizeof err, warning, sizeof warning);
    if (status != 0) {
        print_line(stderr, "error: %s", err);
    } else {
        if (warning[0])
            fprintf(stderr, "warning: %s\n", warning);
        printf("%d\n", index);
        fflush(stdout);
    }
    if (attached)
        hash_file_detach(&file, s);
    return status;
}

/* Makes the table file at path s's table (table_file_attach), printing its warning if any, and
 * with verbose the table's size and how much of it earlier calls filled; returns 1 if it did. */
static int hash_file_attach(TableFile *f, Search *s, const char *path, int verbose)
{
    char warning[400];
    int attached = table_file_attach(f, path, HASH_FILE_MB, s, warning, sizeof warning);
    if (warning[0])
        print_line(stderr, "warning: %s", warning);
    if (attached && verbose)
        print_line(stderr, "hash file '%.200s': a table of %zu MB, %d per mille of it filled", path,
                   s->tt.count * sizeof(TTBucket) >> 20, tt_filled(&s->tt));
    return attached;
}

/* Lets the table file go (table_file_detach), printing its warning if any. */
static void hash_file_detach(TableFile *f, Search *s)
{
    char warning[400];
    table_file_detach(f, s, warning, sizeof warning);
    if (warning[0])
        print_line(stderr, "warning: %s", warning);
}

/* engine --batch: one decision per stdin line `FEN<TAB>moves<TAB>seconds`, each answered on its
 * own stdout line as soon as it is found; a summary goes to stderr. Returns 0. */
static int run_batch(Search *s, CallOptions *o)
{
    static char line[BATCH_LINE_MAX];
    long count = 0, errors = 0;
    double start = clock_now();
    TableFile file;
    const Limits *options = &o->limits;
    int r, attached;
    use_threads(s, o->threads);
    attached = o->hash_file && hash_file_attach(&file, s, o->hash_file, options->report != NULL);
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
    if (attached)
        hash_file_detach(&file, s);
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
    if (argc < 3 || !parse_integer(argv[2], 1, 20, &depth)) {
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
enum {
    OPT_HASH, OPT_THREADS, OPT_MULTIPV, OPT_MOVE_OVERHEAD, OPT_CLEAR_HASH, OPT_PONDER, OPT_CHESS960,
    OPT_LIMIT_STRENGTH, OPT_ELO, OPT_SKILL, OPT_NB
};

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
static void uci_append(char *buf, size_t size, const char *word);
static void uci_execute(char *line);
static void uci_cmd_uci(char *args);
static void uci_cmd_isready(char *args);
static void uci_cmd_ucinewgame(char *args);
static void uci_cmd_setoption(char *args);
static void uci_option_set(int id, const char *value);
static int uci_level(void);
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
static void print_search_total(const Search *s);
static void uci_cmd_idle(char *args);
static void uci_cmd_quit(char *args);
static void uci_cmd_d(char *args);
static void uci_cmd_perft(char *args);
static void uci_cmd_eval(char *args);
static void uci_cmd_bench(char *args);

static UciOption uci_options[OPT_NB] = {
    { "Hash", OPTION_SPIN, HASH_DEFAULT_MB, 1, 1024, HASH_DEFAULT_MB },
    { "Threads", OPTION_SPIN, 1, 1, THREADS_MAX, 1 },
    { "MultiPV", OPTION_SPIN, 1, 1, MAX_MOVES, 1 },
    { "Move Overhead", OPTION_SPIN, 20, 0, 5000, 20 },
    { "Clear Hash", OPTION_BUTTON, 0, 0, 0, 0 },
    { "Ponder", OPTION_CHECK, 0, 0, 1, 0 },
    { "UCI_Chess960", OPTION_CHECK, 0, 0, 1, 0 },
    { "UCI_LimitStrength", OPTION_CHECK, 0, 0, 1, 0 },
    { "UCI_Elo", OPTION_SPIN, LEVEL_ELO_MAX, LEVEL_ELO_MIN, LEVEL_ELO_MAX, LEVEL_ELO_MAX },
    { "Skill Level", OPTION_SPIN, LEVEL_MAX, 0, LEVEL_MAX, LEVEL_MAX },
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

/* Bytes read from stdin and not yet used: whole lines, then perhaps the start of one. Only
 * input_fill adds to it, at the end (a line longer than the buffer is dropped, and the end of
 * the input gets a last newline), and two readers take whole lines from it: between searches
 * the loop (uci_read_line) takes the first line, in order; during a search uci_poll takes the
 * lines it acts on at once (stop, quit, isready, ponderhit) wherever they stand before the first
 * `go`, and leaves every other line where it is, for the loop after the search. */
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
    search_set_table(s, (size_t)uci_options[OPT_HASH].value);
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

/* Returns the next word of *rest (next_token), cut in place, or NULL at the end. */
static char *uci_word(char **rest)
{
    const char *after = *rest, *token;
    size_t len;
    char *word, *end;
    token = next_token(&after, &len);
    word = token ? *rest + (token - *rest) : NULL;
    end = *rest + (after - *rest);
    *rest = *end ? end + 1 : end;
    *end = '\0';
    return word;
}

/* Returns 1 if a and b are the same text but for case (UCI option names and values). */
static int uci_same_text(const char *a, const char *b)
{
    for (; *a && tolower((unsigned char)*a) == tolower((unsigned char)*b); a++, b++)
        ;
    return *a == '\0' && *b == '\0';
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
    search_new_game(uci.search);
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
        if (!parse_integer(value, o->min, o->max, &n)) {
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
    if (id == OPT_HASH) {
        search_set_table(uci.search, (size_t)o->value);
    } else if (id == OPT_CLEAR_HASH) {
        search_new_game(uci.search);
    } else if (id == OPT_THREADS) {
        int got = search_threads(uci.search, o->value);
        if (got < o->value)
            printf("info string setoption: %d threads in use, not %d (%s)\n", got, o->value,
                   HAVE_THREADS ? "memory is short" : "this build has no threads");
        o->value = got;
    }
}

/* The level UCI asks for: UCI_Elo's under UCI_LimitStrength, else Skill Level (LEVEL_MAX: full
 * strength). */
static int uci_level(void)
{
    if (uci_options[OPT_LIMIT_STRENGTH].value)
        return level_for_elo(uci_options[OPT_ELO].value);
    return uci_options[OPT_SKILL].value;
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
    int chess960 = uci_options[OPT_CHESS960].value;
    if (word && strcmp(word, "startpos") == 0) {
        board_from_fen_960(&b, START_FEN, chess960, err, sizeof err);
        word = uci_word(&args);
    } else if (word && strcmp(word, "fen") == 0) {
        while ((word = uci_word(&args)) != NULL && strcmp(word, "moves") != 0)
            uci_append(fen, sizeof fen, word);
        if (!board_from_fen_960(&b, fen, chess960, err, sizeof err)) {
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
            if (value && parse_integer(value, GO_WORDS[i].min, GO_WORDS[i].max, &n))
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
    l->keep_history = 1;
    l->multipv = uci_options[OPT_MULTIPV].value;
    l->level = uci_level();
    l->level_set = l->level < LEVEL_MAX;
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
    while (s->limits.infinite && !search_stopping(s)) {
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
    while (!search_stopping(s) && (len = input_line_length(from)) > 0) {
        char word[16];
        input_first_word(word, sizeof word, from, len);
        if (strcmp(word, "go") == 0)
            break;
        if (strcmp(word, "isready") == 0) {
            printf("readyok\n");
        } else if (strcmp(word, "ponderhit") == 0) {
            uci_ponderhit(s);
        } else if (strcmp(word, "stop") == 0 || strcmp(word, "quit") == 0) {
            search_stop(s);
            uci.quit = word[0] == 'q';
        } else {
            from += len;
            continue;
        }
        input_remove(from, len);
    }
    if (input.eof && s->limits.infinite)
        search_stop(s);
}

/* The search's report in UCI: the info line of an iteration, or of an aspiration fail with its bound. */
static void uci_print_info(const Search *s, int depth, int score, int bound)
{
    double elapsed = clock_now() - s->limits.start;
    uint64_t nodes = search_nodes(s);
    char pv[PV_TEXT];
    search_pv(s, s->report_line, PV_COORDINATES, pv, sizeof pv);
    printf("info depth %d seldepth %d multipv %d score %s %d%s nodes %llu nps %.0f hashfull %d time %.0f pv%s%s\n",
           depth, s->seldepth, s->report_line + 1, score_is_mate(score) ? "mate" : "cp",
           score_is_mate(score) ? score_mate_moves(score) : score,
           bound == BOUND_LOWER ? " lowerbound" : bound == BOUND_UPPER ? " upperbound" : "",
           (unsigned long long)nodes, elapsed > 0 ? nodes / elapsed : 0.0, tt_hashfull(&s->tt), elapsed * 1000,
           pv[0] ? " " : "", pv);
}

/* The search's totals as an info line: every thread's nodes, the speed, the table's use, the time
 * (a search stopped inside an iteration has searched more than its last report says). */
static void print_search_total(const Search *s)
{
    double elapsed = clock_now() - s->limits.start;
    uint64_t nodes = search_nodes(s);
    printf("info nodes %llu nps %.0f hashfull %d time %.0f\n", (unsigned long long)nodes, elapsed > 0 ? nodes / elapsed : 0.0,
           tt_hashfull(&s->tt), elapsed * 1000);
}

/* Answers bestmove, with a ponder move when there is one. */
static void uci_print_bestmove(Search *s)
{
    Board b = s->board;
    Undo u;
    Move reply;
    char best[6], ponder[6];
    print_search_total(s);
    move_to_coords(&b, s->best_move, b.chess960, best);
    board_make(&b, s->best_move, &u);
    reply = search_expected_reply(s, &b);
    if (reply != MOVE_NONE) {
        move_to_coords(&b, reply, b.chess960, ponder);
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
    if (!word || !parse_integer(word, 1, 20, &depth)) {
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
    if (word && !parse_integer(word, 1, MAX_DEPTH, &depth)) {
        printf("info string bench takes a depth from 1 to %d\n", MAX_DEPTH);
        return;
    }
    run_bench(&bench, (int)depth);
    search_free(&bench);
}

/* =================================================================== games */

/* A game as match and datagen play it: its record, its end by the rules, openings from a
 * file, a random mover. */

enum { GAME_MAX_PLIES = 400 };        /* a game still running after it is adjudicated a draw */
enum { CHESS960_POSITIONS = 960 };    /* the start positions of Chess960 (chess960_position) */

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
static int game_referee(Game *g, Board *b, const uint64_t *keys);
static int game_end(Game *g, const char *result, const char *termination, const char *reason);
static int openings_load(const char *path, int chess960, Board **openings, int *count);
static void chess960_position(int number, Board *b);
static int openings_add(Board **openings, int *count, int *capacity, const Board *b);
static int opening_fen(const char *line, char *fen, size_t size);
static Move random_move(Board *b, uint64_t *state);

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

/* Referees the game after its last move: if it is over, by the rules (board_status, keys
 * holding every position of the game) or after GAME_MAX_PLIES plies (adjudicated a draw),
 * records the result (game_end) and returns 1; else returns 0. */
static int game_referee(Game *g, Board *b, const uint64_t *keys)
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
static int openings_load(const char *path, int chess960, Board **openings, int *count)
{
    char line[1024], fen[FEN_MAX + 100], err[200];
    int number = 0, capacity = 0, status = 0;
    FILE *f = path ? fopen(path, "r") : NULL;
    Board b;
    *openings = NULL;
    *count = 0;
    if (!path && chess960) {
        for (number = 0; number < CHESS960_POSITIONS && status == 0; number++) {
            chess960_position(number, &b);
            status = openings_add(openings, count, &capacity, &b);
        }
        return status;
    }
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
        if (board_from_fen_960(&b, fen, chess960, err, sizeof err))
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

/* Sets b to Chess960 start position `number` (0 to 959) in Reinhard Scharnagl's numbering (518 is
 * the standard one): the light-squared bishop on file b, d, f or h by number % 4, then the
 * dark-squared one on a, c, e or g, the queen on one of the six squares left, the knights on two
 * of the five left (CHESS960_KNIGHTS), and rook, king, rook on the last three. */
static void chess960_position(int number, Board *b)
{
    static const char CHESS960_KNIGHTS[10][2] = {
        { 0, 1 }, { 0, 2 }, { 0, 3 }, { 0, 4 }, { 1, 2 }, { 1, 3 }, { 1, 4 }, { 2, 3 }, { 2, 4 }, { 3, 4 }
    };
    char rank[9] = "        ", fen[FEN_MAX], err[80];
    const char *pair;
    int free_index, file, i, left;
    rank[2 * (number % 4) + 1] = 'B';
    number /= 4;
    rank[2 * (number % 4)] = 'B';
    number /= 4;
    /* the queen, the knights, then R K R, each on the n-th of the files still free */
    for (i = 0; i < 3; i++) {
        int nth = i == 0 ? number % 6 : CHESS960_KNIGHTS[number / 6][i - 1] - (i - 1);
        for (file = 0, free_index = -1; file < 8; file++)
            if (rank[file] == ' ' && ++free_index == nth)
                break;
        rank[file] = i == 0 ? 'Q' : 'N';
    }
    for (file = 0, left = 0, pair = "RKR"; file < 8; file++)
        if (rank[file] == ' ')
            rank[file] = pair[left++];
    snprintf(fen, sizeof fen, "%s/pppppppp/8/8/8/8/PPPPPPPP/%s w KQkq - 0 1", rank, rank);
    for (i = 0; i < 8; i++)
        fen[i] = (char)tolower((unsigned char)fen[i]);
    board_from_fen_960(b, fen, 1, err, sizeof err);
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
static int opening_fen(const char *line, char *fen, size_t size)
{
    const char *field[6];
    size_t len[6], used = 0;
    int n = 0, keep, i;
    while (n < 6 && (field[n] = next_token(&line, &len[n])) != NULL && field[n][0] != '#')
        n++;
    for (keep = n < 4 ? n : 4; keep < n && strspn(field[keep], "0123456789") == len[keep]; keep++)
        ;
    fen[0] = '\0';
    for (i = 0; i < keep && used < size; i++)
        used += (size_t)snprintf(fen + used, size - used, "%s%.*s", i ? " " : "", (int)len[i], field[i]);
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

/* =================================================================== match */

/* engine match: our search against a UCI engine run as a child process (or the built-in
 * random mover), refereed by our rules, with a running score on stderr and a PGN; several
 * games at once in worker processes, and an SPRT that stops the match at its verdict. */

enum { MATCH_WORKERS_MAX = 64 };   /* games at once, at most: a worker process each */
/* match: its options, the opponent, a worker's report of one game, and the tally of the games
 * so far. */
enum { MATCH_GAMES_MAX = 100000, MATCH_LINE = 4096 };
/* finished games wait in a window for those before them, so that they count in their order */
enum { MATCH_WINDOW = 4 * MATCH_WORKERS_MAX };
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
/* --sprt's hypotheses are at most this many Elo either way */
static const double MATCH_ELO_MAX = 1e6;
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
    int chess960;           /* 1: Chess960 (the openings read as such, else a start position drawn per pair) */
    int threads;            /* our search's threads (0: one) */
} MatchOptions;
/* match's options that take no value */
static const char *const MATCH_FLAGS[] = { "--chess960", NULL };

/* An engine run as a child process and spoken to through pipes (match mode). */
typedef struct {
    long pid;               /* 0 when no process runs */
    int to_child;           /* our end of its stdin */
    int from_child;         /* our end of its stdout */
    size_t used;            /* bytes waiting in buf */
    char buf[4096];
} Child;

/* A copy of this process that plays match games for it, with a pipe each way. Each side
 * reads from its `in` and writes to its `out`. */
typedef struct {
    long pid;               /* in the parent: the worker's; 0 when none runs (and in the worker) */
    int in;
    int out;
} MatchWorker;

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
static void match_worker_run(Search *s, const MatchOptions *opt, const Board *openings, int count, const MatchWorker *w);
static int match_finish_game(MatchTally *t, const MatchOptions *opt, const Game *g, const char *opponent);
static int match_tally(MatchTally *t, const MatchOptions *opt, const Game *g, const char *opponent);
static void match_print_score(const MatchTally *t, const MatchOptions *opt, const Game *g, const char *opponent);
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
static void match_write_pgn(FILE *out, const Game *g, int round, const char *opponent, const MatchOptions *opt);
static void match_limits_text(const MatchOptions *opt, char *out, size_t size);
static void match_pgn_tag(FILE *out, const char *name, const char *value);
static void match_pgn_token(FILE *out, int *column, const char *token);
static int child_start(Child *c, const char *command, char *err, size_t err_size);
static int child_send(Child *c, const char *line);
static int child_read_line(Child *c, char *line, size_t size, double deadline);
static void child_stop(Child *c, char *how, size_t how_size);
static int match_worker_start(MatchWorker *workers, int index, char *err, size_t err_size);
static int match_worker_send(const MatchWorker *w, void *data, size_t size);
static int match_worker_receive(const MatchWorker *w, void *data, size_t size);
static int match_worker_wait(const MatchWorker *workers, int count);
static void match_worker_stop(MatchWorker *w, int now);
static void match_worker_exit(int status);
static int pipe_transfer(int fd, void *data, size_t size, int writing);
#if HAVE_POSIX
static long fork_with_pipes(int *in, int *out, const char *what, char *err, size_t err_size);
static void match_worker_on_signal(int signal_number);
#endif

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
        status = openings_load(opt.openings, opt.chess960, &openings, &count);
    if (status == 0)
        use_threads(s, opt.threads);
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
        stop = match_finish_game(t, opt, &game, opponent.name);
    }
    return 0;
}

/* Plays the games in opt->concurrency worker processes, each sent the next game when it is
 * free, and counts them in their order; when the match may stop, the games still being played
 * are abandoned (their workers killed) and not counted. Returns 0, or 1 after an error line. */
static int match_run_workers(Search *s, const MatchOptions *opt, const Board *openings, int count, MatchTally *t)
{
    static MatchWorker workers[MATCH_WORKERS_MAX];
    static MatchReport report;
    MatchReport *window = malloc(sizeof(MatchReport) * MATCH_WINDOW); /* not static: 0.5 MB */
    int playing[MATCH_WORKERS_MAX]; /* each worker's game, -1 when it waits */
    int n = opt->concurrency < opt->games ? opt->concurrency : opt->games, next = 0, stop = 0, status = 0, k;
    char err[200];
    if (!window) {
        fprintf(stderr, "error: out of memory for the match\n");
        return 1;
    }
    for (k = 0; k < MATCH_WINDOW; k++)
        window[k].number = -1;
    for (k = 0; k < n && status == 0; k++) {
        int started = match_worker_start(workers, k, err, sizeof err);
        if (started == 0)
            match_worker_run(s, opt, openings, count, &workers[k]);
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
                && match_worker_send(&workers[k], &next, sizeof next))
                playing[k] = next++;
        k = match_worker_wait(workers, n);
        if (k < 0 || !match_worker_receive(&workers[k], &report, sizeof report) || report.number != playing[k]) {
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
            stop = match_finish_game(t, opt, &r->game, r->opponent);
        }
    }
    for (k = 0; k < n; k++)
        match_worker_stop(&workers[k], playing[k] >= 0);
    free(window);
    return status;
}

/* A worker's life: plays each game whose number the parent sends and sends back its report,
 * until the parent closes the pipe; then ends the process. */
static void match_worker_run(Search *s, const MatchOptions *opt, const Board *openings, int count, const MatchWorker *w)
{
    static MatchReport report;
    MatchOpponent opponent;
    int number;
    while (match_worker_receive(w, &number, sizeof number)) {
        memset(&report, 0, sizeof report);
        report.number = number;
        report.status = match_play_game(s, opt, openings, count, number, &report.game, &opponent);
        snprintf(report.opponent, sizeof report.opponent, "%s", opponent.name);
        if (!match_worker_send(w, &report, sizeof report))
            break;
    }
    match_worker_exit(0);
}

/* Counts a finished game, the games coming in their order: tallies it (match_tally), prints
 * the running score line and appends the game to the PGN. Returns 1 once the SPRT has its
 * verdict, else 0. */
static int match_finish_game(MatchTally *t, const MatchOptions *opt, const Game *g, const char *opponent)
{
    int stop = match_tally(t, opt, g, opponent);
    match_print_score(t, opt, g, opponent);
    if (t->pgn) {
        match_write_pgn(t->pgn, g, t->played, opponent, opt);
        fflush(t->pgn);
    }
    return stop;
}

/* Adds a finished game to the tally: the opponent's name, the score, the game pair it closes
 * and, under --sprt, the LLR and the verdict (match_sprt_update); returns 1 once the SPRT has
 * its verdict, else 0. */
static int match_tally(MatchTally *t, const MatchOptions *opt, const Game *g, const char *opponent)
{
    int outcome = match_outcome(g);
    snprintf(t->opponent, sizeof t->opponent, "%s", opponent);
    t->score[outcome]++;
    t->played++;
    if (t->played % 2 == 1) {
        t->half_points = 2 - outcome;
        return 0;
    }
    t->pairs[t->half_points + 2 - outcome]++;
    return opt->sprt && match_sprt_update(t, opt);
}

/* Prints the running score line of the game just tallied on stderr: the game, its result
 * and reason, the score and Elo so far, and the LLR under --sprt. */
static void match_print_score(const MatchTally *t, const MatchOptions *opt, const Game *g, const char *opponent)
{
    char elo[100], llr[80] = "";
    double lower, upper;
    if (opt->sprt) {
        match_sprt_bounds(opt, &lower, &upper);
        snprintf(llr, sizeof llr, ", LLR %.2f (%.2f..%.2f)", t->llr, lower, upper);
    }
    match_elo_text(t->score, GAME_SCORES, 3, 0, elo, sizeof elo);
    fprintf(stderr, "game %d/%d: %s %s %s (%s) | %s +%d =%d -%d, %s%s\n", t->played, opt->games,
            g->engine_white ? ENGINE_NAME : opponent, g->result, g->engine_white ? opponent : ENGINE_NAME,
            g->reason, ENGINE_NAME, t->score[0], t->score[1], t->score[2], elo, llr);
}

/* Reads match's options into opt; returns 0, or EXIT_USAGE after one error line. */
static int match_parse_options(int argc, char **argv, MatchOptions *opt)
{
    int status;
    memset(opt, 0, sizeof *opt);
    opt->alpha = opt->beta = 0.05;
    opt->concurrency = 1;
    status = parse_options(argc, argv, "match", MATCH_FLAGS, match_option, opt);
    if (status != 0)
        return status;
    if (!HAVE_POSIX)
        opt->concurrency = 1; /* workers are processes */
    if (!opt->opponent || !opt->games || (opt->seconds <= 0 && !opt->nodes)) {
        fprintf(stderr, "error: usage: engine match --opponent \"COMMAND\"|random --games N --time SECONDS|--nodes N"
                        " [--concurrency K] [--threads T] [--chess960] [--sprt ELO0,ELO1 [--alpha A] [--beta B]]"
                        " [--openings FILE] [--pgn FILE]\n");
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
        if (!parse_integer(value, 1, games ? MATCH_GAMES_MAX : MATCH_WORKERS_MAX, &n))
            return 0;
        *(games ? &opt->games : &opt->concurrency) = (int)n;
    } else if (strcmp(key, "--time") == 0) {
        return parse_seconds(value, &opt->seconds);
    } else if (strcmp(key, "--nodes") == 0) {
        return parse_integer(value, 1, (long long)1e12, &opt->nodes);
    } else if (strcmp(key, "--sprt") == 0) {
        return opt->sprt = parse_real(value, &end, &opt->elo0) && *end == ',' && parse_real(end + 1, &end, &opt->elo1)
                           && *end == '\0' && opt->elo0 < opt->elo1 && opt->elo0 >= -MATCH_ELO_MAX && opt->elo1 <= MATCH_ELO_MAX;
    } else if (strcmp(key, "--chess960") == 0) {
        opt->chess960 = 1;
    } else if (strcmp(key, "--threads") == 0) {
        if (!parse_integer(value, 1, THREADS_MAX, &n))
            return 0;
        opt->threads = (int)n;
    } else if (strcmp(key, "--alpha") == 0 || strcmp(key, "--beta") == 0) {
        return parse_real(value, &end, key[2] == 'a' ? &opt->alpha : &opt->beta) && *end == '\0'
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
    uint64_t pair_state = MATCH_RANDOM_SEED ^ (uint64_t)(number / 2);
    /* the listed openings in turn; the 960 start positions of --chess960 without a list drawn per pair */
    Board board = openings[opt->chess960 && !opt->openings ? (int)(random_next(&pair_state) % (uint64_t)count)
                                                           : (number / 2) % count];
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
    while (playing && !game_referee(game, &board, keys)) {
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
    if (opt->chess960)
        child_send(&o->child, "setoption name UCI_Chess960 value true");
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
        move_to_coords(&g->start, g->moves[i], g->start.chess960, played);
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
        move_to_coords(&now, *m, now.chess960, answer);
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
        limits.hard_deadline = limits.soft_deadline = limits.start + move_budget(seconds, 0);
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
    double se = math_sqrt(variance / n), low = s - MATCH_Z95 * se, high = s + MATCH_Z95 * se;
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
    return 1 / (1 + math_exp(-elo * ln(10) / 400));
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
    if (b.chess960)
        match_pgn_tag(out, "Variant", "Chess960");
    if (strcmp(fen, text) != 0 || b.chess960) {
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
 * copies of this process that play games for it. First what needs no system call, then one
 * block with POSIX (fork, exec, pipe, poll, signals) and one without, where no process starts. */

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

/* Writes size bytes to the other side; returns 1, or 0 if it is gone. */
static int match_worker_send(const MatchWorker *w, void *data, size_t size)
{
    return pipe_transfer(w->out, data, size, 1);
}

/* Reads exactly size bytes from the other side, waiting for them; returns 1, or 0 if it is
 * gone (or closed its end) first. */
static int match_worker_receive(const MatchWorker *w, void *data, size_t size)
{
    return pipe_transfer(w->in, data, size, 0);
}

#if HAVE_POSIX

/* The process group of the running child, which a match worker's signal handler kills. */
static volatile sig_atomic_t child_group;

/* Forks this process with a pipe each way (close-on-exec, so that no program started later
 * inherits them): returns the new process's pid here and 0 in the new process, each keeping
 * its own two ends, `in` to read and `out` to write; or -1 with a reason, what could not
 * start being `what`. Here, a dead process no longer kills us on the next write (SIGPIPE is
 * ignored). */
static long fork_with_pipes(int *in, int *out, const char *what, char *err, size_t err_size)
{
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
}

/* Starts `command` through /bin/sh in its own process group, its stdin and stdout on pipes
 * and its stderr on /dev/null; returns 1, or 0 with a reason. */
static int child_start(Child *c, const char *command, char *err, size_t err_size)
{
    int in, out;
    long pid = fork_with_pipes(&in, &out, "a process", err, err_size);
    c->pid = 0;
    c->used = 0;
    if (pid < 0)
        return 0;
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
    c->pid = pid;
    c->to_child = out;
    c->from_child = in;
    return 1;
}

/* Reads one line from the child into line (without its newline, cut to size), waiting until
 * clock_now() reaches deadline; returns 1, 0 on timeout, -1 when its output is closed. */
static int child_read_line(Child *c, char *line, size_t size, double deadline)
{
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
}

/* Ends the child: closes its input, gives it 0.2 s to exit, then kills its process group,
 * reaps it and describes how it ended in how ("exited with status 0", "killed by signal 9"). */
static void child_stop(Child *c, char *how, size_t how_size)
{
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
}

/* Forks workers[index] with its two pipes (fork_with_pipes); returns 1 in the parent, 0 in the
 * worker (which closes the parent's ends to the earlier workers, so that each sees the end of
 * its own input), -1 with a reason if it cannot. */
static int match_worker_start(MatchWorker *workers, int index, char *err, size_t err_size)
{
    MatchWorker *w = &workers[index];
    long pid = fork_with_pipes(&w->in, &w->out, "a worker process", err, err_size);
    int i;
    if (pid < 0)
        return -1;
    w->pid = pid;
    if (pid > 0)
        return 1;
    for (i = 0; i < index; i++) {
        close(workers[i].in);
        close(workers[i].out);
    }
    signal(SIGTERM, match_worker_on_signal);
    signal(SIGINT, match_worker_on_signal);
    return 0;
}

/* A worker's SIGTERM and SIGINT: kills and reaps its opponent's process group, then ends. */
static void match_worker_on_signal(int signal_number)
{
    (void)signal_number;
    if (child_group) {
        kill(-(pid_t)child_group, SIGKILL);
        waitpid((pid_t)child_group, NULL, 0);
    }
    _exit(1);
}

/* Writes size bytes of data to fd (writing), or reads exactly size bytes from it into data,
 * waiting for them and going on after a signal; returns 1, or 0 if the other side is gone (or
 * closed its end) first. */
static int pipe_transfer(int fd, void *data, size_t size, int writing)
{
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
}

/* Waits until one of the count workers has written something (or ended); returns its index,
 * or -1 if waiting fails. */
static int match_worker_wait(const MatchWorker *workers, int count)
{
    struct pollfd p[MATCH_WORKERS_MAX];
    int i, n = count < MATCH_WORKERS_MAX ? count : MATCH_WORKERS_MAX;
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
}

/* Ends a worker and reaps it: closing its input ends an idle one; a busy one (now) first
 * gets SIGTERM, on which it kills its opponent. */
static void match_worker_stop(MatchWorker *w, int now)
{
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
}

/* Ends this process at once, as a worker does: its parent owns the files and buffers. */
static void match_worker_exit(int status)
{
    _exit(status);
}

#else /* no POSIX: no process starts, so there is no child, worker or pipe to speak to */

/* Returns 0 with the reason: no process can start. */
static int child_start(Child *c, const char *command, char *err, size_t err_size)
{
    (void)command;
    c->pid = 0;
    c->used = 0;
    snprintf(err, err_size, "this build cannot start a process (no POSIX fork, exec, pipe)");
    return 0;
}

/* Returns -1: there is no child to read from. */
static int child_read_line(Child *c, char *line, size_t size, double deadline)
{
    (void)c;
    (void)line;
    (void)size;
    (void)deadline;
    return -1;
}

/* Says that no child runs. */
static void child_stop(Child *c, char *how, size_t how_size)
{
    (void)c;
    snprintf(how, how_size, "not running");
}

/* Returns -1 with the reason: no worker can start. */
static int match_worker_start(MatchWorker *workers, int index, char *err, size_t err_size)
{
    workers[index].pid = 0;
    snprintf(err, err_size, "this build cannot start a worker process (no POSIX fork, exec, pipe)");
    return -1;
}

/* Returns 0: there is no pipe. */
static int pipe_transfer(int fd, void *data, size_t size, int writing)
{
    (void)fd;
    (void)data;
    (void)size;
    (void)writing;
    return 0;
}

/* Returns -1: there is no worker to wait for. */
static int match_worker_wait(const MatchWorker *workers, int count)
{
    (void)workers;
    (void)count;
    return -1;
}

/* Nothing to stop. */
static void match_worker_stop(MatchWorker *w, int now)
{
    (void)w;
    (void)now;
}

/* Ends this process (never called: no worker starts). */
static void match_worker_exit(int status)
{
    exit(status);
}

#endif

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
        status = openings_load(opt.openings, 0, &openings, &count);
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
    status = parse_options(argc, argv, "datagen", NULL, datagen_option, opt);
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
        if (!parse_integer(value, 1, DATAGEN_GAMES_MAX, &n))
            return 0;
        opt->games = (int)n;
    } else if (strcmp(key, "--nodes") == 0) {
        return parse_integer(value, 1, (long long)1e9, &opt->nodes);
    } else if (strcmp(key, "--seed") == 0) {
        if (!parse_integer(value, 0, (long long)1e18, &n))
            return 0;
        opt->seed = (uint64_t)n;
        opt->seeded = 1;
    } else if (strcmp(key, "--out") == 0) {
        opt->out = value;
    } else if (strcmp(key, "--openings") == 0) {
        opt->openings = value;
    } else if (strcmp(key, "--sample") == 0) {
        if (!parse_integer(value, 1, DATAGEN_SAMPLE_MAX, &n))
            return 0;
        opt->sample = (int)n;
    } else if (strcmp(key, "--rescore") == 0) {
        opt->rescore = value;
    } else if (strcmp(key, "--rescore-nodes") == 0) {
        return parse_integer(value, 1, (long long)1e9, &opt->rescore_nodes);
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
        if (game_referee(&game, &board, keys))
            return 0;
        game_play(&game, &board, keys, random_move(&board, &state));
    }
    while (!game_referee(&game, &board, keys)) {
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
/* The most lines web_think searches and answers with: the page shows three; five keep the
 * answer (each line's PV at most PV_TEXT) well within WEB_BUFFER. */
enum { WEB_LINES_MAX = 5 };

/* A line of the search's last finished iteration, as its report gave it: the move it starts
 * with, its score and its principal variation in SAN. The search's own lines (Search.lines)
 * may change after the iteration, when it is stopped during the next one. */
typedef struct {
    Move move;
    int score;
    char pv[PV_TEXT];
} WebLine;
static WebLine web_lines[WEB_LINES_MAX];
static int web_line_count;       /* lines of the iteration in web_lines; 0: none yet */

static int web_replay(Board *b, const char *moves, uint64_t *keys, int *key_count);
static const char *web_answer(const Search *s, Move best, const Board *root, int lines, double seconds);
static void web_report(const Search *s, int depth, int score, int bound);

void web_progress(const char *line);  /* imported from env: one line of the search's report (report_text) */
const char *web_think(const char *fen, const char *moves, double seconds, int level, int lines);
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
    limits.node_limit = (uint64_t)(WASM_NODES_PER_SECOND * move_budget(timeout, 0));
    if (decide(&context, fen, moves, (double)timeout, &limits, &index, err, sizeof err, warning, sizeof warning) != 0)
        return -1;
    return index;
}

#ifdef ENGINE_WASM_PAGE
/* Plays moves (coordinates or SAN, separated by whitespace) from b, keeping in keys the positions
 * since the last irreversible move, the one reached last included (at most KEY_HISTORY_MAX);
 * returns 0, or the number of the first move that is not legal (1 for the first). */
static int web_replay(Board *b, const char *moves, uint64_t *keys, int *key_count)
{
    const char *token;
    size_t len;
    int number = 0;
    *key_count = 0;
    keys[(*key_count)++] = b->key;
    while ((token = next_token(&moves, &len)) != NULL) {
        Move m;
        Undo u;
        number++;
        if (move_from_token(b, token, len, &m) != PARSE_OK)
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

/* Returns the choice best as JSON: the move in coordinates and SAN, the score in centipawns
 * and the mate distance in moves (0: none), both for the side to move, the depth completed,
 * nodes, milliseconds, the principal variation in SAN that starts with the move, and the best
 * `lines` lines of the last finished iteration (web_lines), best first, each with its score,
 * mate and principal variation, with the number of the one played (1: the best; a level may
 * play another; 0: none of them). s is the search that chose it, or NULL when the only legal
 * move was played at once (score 0, depth 0, no line). */
static const char *web_answer(const Search *s, Move best, const Board *root, int lines, double seconds)
{
    Board b = *root;
    char san[SAN_MAX], coords[8], pv[PV_TEXT];
    int score = s ? s->best_score : 0, played = 0, found = 0, i;
    move_to_san(&b, best, san);
    move_to_uci(best, coords);
    for (i = 0; i < web_line_count && !played; i++)
        if (web_lines[i].move == best)
            played = i + 1;
    /* the search's own line for the move (newer when a move proved better late), else the
     * iteration's, else the move alone */
    for (i = 0; s && i < s->line_count && !found; i++)
        if (s->lines[i].pv_len > 0 && s->lines[i].pv[0] == best) {
            search_pv(s, i, PV_SAN, pv, sizeof pv);
            found = 1;
        }
    if (!found)
        snprintf(pv, sizeof pv, "%s", played ? web_lines[played - 1].pv : san);
    web_used = 0;
    web_append("{\"move\":\"%s\",\"san\":\"%s\",\"score\":%d,\"mate\":%d,\"depth\":%d,\"nodes\":%llu,"
              "\"ms\":%.0f,\"pv\":\"%s\",\"line\":%d,\"lines\":[", coords, san, score, score_mate_moves(score),
              s ? s->completed_depth : 0, (unsigned long long)(s ? search_nodes(s) : 0), seconds * 1000, pv, played);
    for (i = 0; i < web_line_count && i < lines; i++)
        web_append("%s{\"score\":%d,\"mate\":%d,\"pv\":\"%s\"}", i ? "," : "", web_lines[i].score,
                  score_mate_moves(web_lines[i].score), web_lines[i].pv);
    web_append("]}");
    return web_out;
}

/* The page's engine: searches the position reached from fen by moves (as web_replay takes
 * them; the earlier positions count for repetitions) for about seconds on the page's clock, as
 * a one-shot call would (search_one_shot), at level (0 to LEVEL_MAX, full strength; see
 * level_limits) with the best `lines` root moves searched to full depth (1 to WEB_LINES_MAX,
 * MultiPV), handing each iteration's line to web_progress. Its table is allocated by the first
 * call (the worker makes a short one when it starts, so that zeroing it takes none of a move's
 * time) and kept from move to move, as a UCI engine keeps its hash table. Returns web_answer's
 * JSON, or {"error": ...}. */
const char *web_think(const char *fen, const char *moves, double seconds, int level, int lines)
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
    if (level < 0 || level > LEVEL_MAX) {
        snprintf(err, sizeof err, "the level must be 0 to %d", LEVEL_MAX);
        return web_error(err);
    }
    if (lines < 1 || lines > WEB_LINES_MAX) {
        snprintf(err, sizeof err, "the lines must be 1 to %d", WEB_LINES_MAX);
        return web_error(err);
    }
    web_line_count = 0;
    if (list.count == 1) /* played at once, as search_one_shot does */
        return web_answer(NULL, list.moves[0], &b, lines, clock_now() - start);
    if (s.tt.megabytes != WEB_TT_MB)
        search_set_table(&s, WEB_TT_MB);
    budget = move_budget(seconds, 0);
    memset(&limits, 0, sizeof limits);
    limits.start = start;
    limits.hard_deadline = start + budget;
    limits.soft_deadline = start + budget;
    limits.multipv = lines;
    limits.level = level;
    limits.level_set = 1;
    limits.report = web_report;
    search_run(&s, &b, keys, key_count, list.moves, list.count, &limits);
    return web_answer(&s, s.best_move, &b, lines, clock_now() - start);
}

/* The search's report in the page's build: each line to the page (env.web_progress), and each
 * line of a finished iteration kept in web_lines for the answer. */
static void web_report(const Search *s, int depth, int score, int bound)
{
    char line[REPORT_LINE];
    int k = s->report_line;
    report_text(s, depth, score, bound, line, sizeof line);
    web_progress(line);
    if (bound == BOUND_EXACT && k < WEB_LINES_MAX) {
        web_lines[k].move = s->lines[k].pv_len > 0 ? s->lines[k].pv[0] : MOVE_NONE;
        web_lines[k].score = score;
        search_pv(s, k, PV_SAN, web_lines[k].pv, sizeof web_lines[k].pv);
        web_line_count = k + 1;
    }
}
#endif

#endif
