/* modes/engine.h: the engine's API, the one door through which the front ends (the files of
 * modes/ and web/wasm.c) reach engine.c, which includes it too. The engine searches in a Search its
 * caller makes (search_new) and owns; the Search's fields are the engine's own, read through
 * the accessors below. The search reads no input and prints nothing: it reports through the
 * callbacks its caller puts in the Limits, and its caller changes a running search only
 * through search_stop and search_ponderhit. It lives here, beside its callers, because the
 * project's top level holds only the files the design card names (modes/README.md). */
#ifndef ENGINE_H
#define ENGINE_H

#include "../extra.h"
#include "../movement.h"

#define ENGINE_NAME "Boxer"
#define ENGINE_VERSION "1.0"
#define ENGINE_AUTHOR "the Boxer developers"

enum { MAX_PLY = 100, MAX_DEPTH = 64 };
enum { SCORE_INF = 32000, SCORE_MATE = 31000, SCORE_MATE_BOUND = SCORE_MATE - MAX_PLY - 1, SCORE_DRAW = 0 };
enum { BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT };
/* The game's positions a search is given for repetitions: at most this many are kept. */
enum { KEY_HISTORY_MAX = 1024 + MAX_PLY };
enum { HASH_DEFAULT_MB = 16 };   /* the UCI Hash option's default, also the table of a match game at fixed nodes */
enum { THREADS_MAX = 256 };
enum { BENCH_DEPTH = 9 };        /* the bench signature's depth */
/* Levels: 0 (weakest) to LEVEL_MAX (full strength); UCI_Elo from LEVEL_ELO_MIN to LEVEL_ELO_MAX
 * picks one (level_for_elo). */
enum { LEVEL_MAX = 20, LEVEL_ELO_MIN = 530, LEVEL_ELO_MAX = 2550 };
/* search_pv's notations, and the room its text needs: MAX_PLY + 1 moves of at most 7
 * characters (exd8=Q+, e7e8q) and a space each */
enum { PV_SAN, PV_COORDINATES };
enum { PV_TEXT = 8 * (MAX_PLY + 1) };

typedef struct Search Search;

/* Called by the search after each iteration (for each line under MultiPV: search_report_line),
 * and after each aspiration-window fail with the bound the score is (BOUND_LOWER or
 * BOUND_UPPER; BOUND_EXACT for an iteration). */
typedef void (*SearchReport)(const Search *s, int depth, int score, int bound);
/* Called by the search every few hundred nodes, for its caller's input: it may stop the search
 * (search_stop) or give it deadlines (search_ponderhit). */
typedef void (*SearchPoll)(Search *s);

/* What a caller asks of one search; zeroed, it asks for nothing: no limit, one line, full
 * strength, fresh history, no report. */
typedef struct {
    double start;           /* clock_now() when the clock started: process start, or UCI `go` */
    double soft_deadline;   /* clock_now() after which no new iteration starts; 0: none */
    double hard_deadline;   /* clock_now() at which the search stops; 0: none */
    double stall_before;    /* one-shot: seconds the process waited for a processor before the search */
    double exit_cost;       /* one-shot: seconds the call needs after its search before it exits */
    int depth_limit;        /* 0: none */
    uint64_t node_limit;    /* 0: none */
    int infinite;           /* UCI go infinite / ponder: a proven mate does not end the deepening */
    int keep_history;       /* 1: start from the history of the last search (a game's, a table file's) */
    int multipv;            /* the best this many root moves searched to full depth (0 or 1: one) */
    int level;              /* with level_set, a weaker engine: 0 to LEVEL_MAX (full strength) */
    int level_set;
    SearchReport report;    /* NULL: no report */
    SearchPoll poll;        /* NULL: nothing to poll */
    void *caller;           /* the caller's own, for its report and poll (search_caller) */
} Limits;

/* Fills the tables of the rules, the evaluation and the search: called once, before any
 * other call of the engine's and before any thread starts (again, it does nothing). Returns
 * 1, or 0 when memory is short (then it may be called again). */
int engine_init(void);
/* Returns 1 if this build can search on several threads, else 0. */
int engine_has_threads(void);

/* A search parameter: a margin of the search that the command line may set (--param) and
 * tools/spsa.mjs tunes, with the range it may take and its tuning step. */
typedef struct {
    const char *name;
    int value, min, max, step;
} SearchParam;
enum { PARAM_SET, PARAM_UNKNOWN, PARAM_OUT_OF_RANGE };
/* Returns the i-th search parameter (from 0), or NULL past the last. */
const SearchParam *search_param_at(int i);
/* Sets the search parameter called name to value, for every search from now on, before any
 * starts; returns PARAM_SET, PARAM_UNKNOWN or PARAM_OUT_OF_RANGE (then nothing changes). */
int search_param_set(const char *name, int value);

/* Seconds on a monotonic wall clock (POSIX), processor time where there is none; in
 * WebAssembly the page's clock, or 0 in the course's module, which imports none. */
double clock_now(void);
/* The part of a one-shot limit of seconds that the search may use on an idle machine, after
 * exit_cost seconds of the call's own work (a table file written back). */
double move_budget(double seconds, double exit_cost);
/* Splits a real clock (seconds left and increment for the side to move, moves to the next time
 * control or 0 for sudden death) into a soft budget and a hard one, keeping overhead back. */
void time_for_clock(double left, double inc, int moves_to_go, double overhead, double *soft, double *hard);

/* A new search context, with no table (NULL when memory is short); search_free releases it. */
Search *search_new(void);
void search_free(Search *s);
/* Gives s count threads in all (1 to THREADS_MAX); returns how many it has: 1 in a build
 * without threads, fewer than count when memory runs short. */
int search_threads(Search *s, int count);
/* Gives s an empty table of about megabytes (its own, cleared, when it has that size). */
void search_set_table(Search *s, size_t megabytes);
/* The megabytes of s's table as asked for (0: none). */
size_t search_table_megabytes(const Search *s);
/* Forgets the game: an empty table and history. */
void search_new_game(Search *s);

/* Searches board within limits, its root moves being moves (count of them, all legal) or, with
 * moves NULL, every legal move (one at least); keys holds the game's positions before it, for
 * repetitions. What it found is read through the accessors below. */
void search_run(Search *s, const Board *board, const uint64_t *keys, int key_count, const Move *moves, int count,
                const Limits *limits);
/* The one-shot search behind the command line, batch, match moves at a time and the course's
 * module: board's moves (count of them, all legal) within seconds counted from limits->start
 * with a one-shot's reserves and table; returns the move chosen, at once when there is one. */
Move search_one_shot(Search *s, const Board *board, const Move *moves, int count, const uint64_t *keys, int key_count,
                     double seconds, const Limits *limits);

/* Stops the search of s (a caller's poll, or another thread); it unwinds and returns. */
void search_stop(Search *s);
/* Returns 1 once the search of s is stopping. */
int search_stopping(const Search *s);
/* Ends a search's infinite mode (UCI ponderhit): from now it ends by itself at these deadlines
 * (clock_now() times; 0: none), or at once if it is past them. */
void search_ponderhit(Search *s, double soft_deadline, double hard_deadline);

/* What a search found, and what it is doing (for a report). */
Move search_best_move(const Search *s);
int search_best_score(const Search *s);          /* side to move's view */
int search_completed_depth(const Search *s);     /* 0: no iteration finished */
int search_seldepth(const Search *s);
uint64_t search_nodes(const Search *s);          /* its threads' together */
uint64_t search_helper_nodes(const Search *s);   /* its helper threads' alone (0 with one thread) */
double search_elapsed(const Search *s);          /* seconds since limits.start */
void *search_caller(const Search *s);            /* limits.caller */
int search_multipv(const Search *s);             /* the lines it is asked for (MultiPV, a level's) */
int search_line_count(const Search *s);          /* the lines of its last finished iteration */
int search_report_line(const Search *s);         /* the line a report is about, 0: the best */
/* The first move of line number `line` of the search as it stands (0: the best), MOVE_NONE if
 * it has none. */
Move search_line_move(const Search *s, int line);
/* Writes line number `line` of the search in SAN (PV_SAN) or coordinates (PV_COORDINATES),
 * the moves separated by spaces, as far as it stays legal and fits in size. */
void search_pv(const Search *s, int line, int notation, char *out, size_t size);
/* The reply the last search expects after its best move (after is the board once it is
 * made): MOVE_NONE when none is known or legal there. UCI ponders on it. */
Move search_expected_reply(const Search *s, Board *after);
/* How full s's table is, in permille: of the entries written by this search (UCI hashfull),
 * or of those holding a position of any search. */
int search_hashfull(const Search *s);
int search_table_filled(const Search *s);

/* A table kept outside the engine between searches (the table file of modes/tablefile.c):
 * its buckets of table_bucket_size() bytes and the search's history of table_history_size()
 * bytes, whose meaning table_format() names; written marks, when not NULL, a bit for each
 * bucket this search stores into. */
size_t table_bucket_size(void);
size_t table_history_size(void);
uint32_t table_format(void);
/* Makes buckets (count of them, a power of two) s's table, its entries of age `age`, and
 * history (table_history_size() bytes, clamped to the ranges the search keeps) its history. */
void search_use_table(Search *s, void *buckets, uint64_t count, int age, const void *history, unsigned char *written);
/* Writes s's history into history and lets the table go (s is then without one); returns the
 * age of the next search. */
int search_release_table(Search *s, void *history);
/* Zeroed memory of size bytes for a table (on huge pages where the system gives them), NULL
 * when memory is short; freed with table_memory_free and the same size. */
void *table_memory(size_t size);
void table_memory_free(void *memory, size_t size);

/* Scores. */
int score_is_mate(int score);
/* A mate score as UCI's `score mate N` counts it (negative when mated); 0 for another score. */
int score_mate_moves(int score);

/* The strongest level whose strength is at most UCI_Elo elo (level 0 below all). */
int level_for_elo(int elo);

/* Searches the bench positions to depth in s, each with fresh tables; returns the nodes (the
 * bench signature) and sets positions to their number. */
uint64_t bench_run(Search *s, int depth, int *positions);

/* The natural logarithm (without libm), for the reduction table and the match's Elo and SPRT.
 * The pseudo-random generator the front ends share is the rules' (random_next, movement.h). */
double ln(double x);

#endif
