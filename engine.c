/* engine.c: the engine: its clock and the machine's load, table memory, threads, time, the
 * transposition table, the search and the bench, on a Search its caller owns. It reads no
 * input and prints nothing, and calls none of its front ends: they call it, through its API
 * (modes/engine.h), and it reports through the callbacks they put in the Limits.
 * Sections, in order, by their banners: initialisation, clock, table memory, threads, time,
 * transposition table, search context, a table kept outside (the table file's view of the
 * table and history), entry points (search_run, search_one_shot), levels, search parameters,
 * search (root, nodes, quiescence, history, the evaluation, move ordering, exchanges), numbers
 * (the logarithm and the reduction table), bench. */
#include "modes/system.h"
#include "modes/engine.h"

#include <assert.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if HAVE_POSIX
#include <sys/mman.h>
#endif
#if HAVE_THREADS
#include <pthread.h>
#endif

#ifdef ENGINE_WASM_PAGE
double web_now(void);   /* imported from env: the page's performance.now(), in milliseconds */
#endif

enum { SCORE_NONE = SCORE_INF + 1 };  /* no score */
enum { HISTORY_MAX = 16384 };     /* history heuristic values stay within +-HISTORY_MAX */
/* what a cut-off's history bonus loses from P_HISTORY_BONUS_PER_PLY a ply of depth (history_bonus) */
enum { HISTORY_BONUS_OFFSET = 200 };
/* The history of the opponent's quiet move into a node, by what it did to the static evaluation
 * (judge_prior_quiet): this much a centipawn it gained them, within the bounds; a gain counts
 * twice, a loss half (Stockfish 16.1's -14 a unit, -1723 to 1455, in centipawns and our
 * history's scale). */
enum { EVAL_SWING_HISTORY_PER_CP = 96, EVAL_SWING_HISTORY_MIN = -3900, EVAL_SWING_HISTORY_MAX = 3300 };
/* The correction history (correction_entries, correction_update). */
enum {
    CORRECTION_SIZE = 16384,        /* the entries of each correction table (a power of two) */
    CORRECTION_GRAIN = 256,         /* a correction entry counts in 1/CORRECTION_GRAIN centipawns */
    CORRECTION_MAX = 64 * CORRECTION_GRAIN, /* a correction entry stays within +-CORRECTION_MAX */
    CORRECTION_WEIGHT_SCALE = 256,  /* a search to depth moves a correction entry depth + 1 parts in this toward
                                     * its result */
    CORRECTION_WEIGHT_MAX = 16,     /* the most parts in CORRECTION_WEIGHT_SCALE a result moves a correction entry */
    /* a position's correction entries: its pawn structure's, white's and black's other pieces',
     * and that of the move into it (CORRECTION_PRIOR_MOVE, NULL after a null move or at the root) */
    CORRECTION_ENTRIES = 4,
    CORRECTION_PRIOR_MOVE = 3
};
enum { BENCH_HASH_MB = 16 };   /* the bench signature's table */
/* A level below LEVEL_MAX (level_limits, level_choose). */
enum {
    LEVEL_LINES = 4,            /* a level searches this many lines (MultiPV) at least, to choose among */
    LEVEL_MIN_DEPTH = 1,        /* a level's node limit stops no search before this depth is complete */
    LEVEL_MARGIN_PER_LEVEL = 8  /* a level plays a line at most this many centipawns below the best for each
                                 * level it is under LEVEL_MAX */
};

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

enum { TT_BUCKET = 4 };   /* the entries of a bucket: 64 bytes, a cache line */
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

/* What a move from the picker is: the hash move, a capture or promotion that does not lose
 * material (static exchange), a killer, the counter-move, another quiet move (ordered by its
 * history), a losing capture or an under-promotion. */
enum { PICK_TT, PICK_GOOD_NOISY, PICK_KILLER, PICK_COUNTER, PICK_QUIET, PICK_BAD_NOISY };

typedef struct {
    Move move;
    int score;      /* its order within its kind, the higher the sooner */
    int kind;       /* PICK_* */
} ScoredMove;

/* The moves of a node, in order, generated and scored only as the search gets to them
 * (picker_next): the hash move, the good captures and promotions, the killers, the
 * counter-move, the other quiet moves, the losing captures; or, for a node in check and the
 * quiescence search, a whole list scored at once. */
typedef struct {
    ScoredMove moves[MAX_MOVES];   /* a stage's moves from the start; the losing noisy ones from the end */
    int next, end;          /* the stage's moves not yet picked: moves[next .. end) */
    int bad;                /* the losing noisy moves: moves[bad .. MAX_MOVES) */
    int stage;
    int ply;
    Move tt_move, killers[2], counter;
    int killer;             /* the next killer to try */
    int kind, score;        /* the kind and score of the move picked last */
    int picked;             /* moves picked so far */
} MovePicker;

/* A history table indexed by the piece that moves and its destination. */
typedef int16_t PieceToHistory[PIECE_NB][64];
/* The continuation histories that order a quiet move: those after the move one and two plies
 * before it (Stockfish's first and second tables). */
enum { CONT_PLIES = 2 };
static const int CONT_BACK[CONT_PLIES] = { 1, 2 };
/* The low-ply history (Stockfish 17.1's): quiet moves by from and to at each of the first plies
 * of a search, which weighs in their order LOW_PLY_WEIGHT / (2 ply + 1) times. */
enum { LOW_PLY_PLIES = 4, LOW_PLY_WEIGHT = 8 };

/* What a search learns of moves and evaluations beyond its table: a search starts from these,
 * emptied (search_reset) or kept from an earlier one (a game's moves, a table file). A table
 * file keeps the fields before cont (HISTORY_FILE_SIZE bytes, a quarter of a megabyte): the
 * 2 MB of continuation history would cost a one-shot call more to copy in and out than it
 * brings (docs/engine.md, "Measurements behind the constants"). */
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
    int16_t move_correction[PIECE_NB][64];  /* and by the move into the position: its piece and destination */
    /* continuation history: a quiet move's record after the move that moved piece p to square
     * t (one or two plies before: CONT_BACK), at [p][t]; [0][0] stands for a null move or none */
    PieceToHistory cont[PIECE_NB][64];
    int16_t low_ply[LOW_PLY_PLIES][64][64];  /* the low-ply history, emptied at each search's start */
} SearchHistory;

#define HISTORY_FILE_SIZE offsetof(SearchHistory, cont)

/* What orders a node's quiet moves: the histories (quiet_histories) and, found only where
 * quiet moves are scored, the squares where a piece of each type is attacked by a lesser one
 * of the opponent (find_threats). */
typedef struct {
    int16_t (*main)[64];            /* the side's, by from and to */
    int16_t (*low_ply)[64];         /* the low-ply history's at the node's ply, by from and to (NULL beyond) */
    int low_ply_divisor;            /* what the low-ply history's weight is divided by at that ply */
    PieceToHistory *cont[CONT_PLIES]; /* after the move one and two plies before (CONT_BACK) */
    uint64_t threatened[KING + 1];  /* by piece type; none for pawns and the king */
} QuietHistories;


/* A line of the root's search (one for each MultiPV line): its moves, score and bound. */
typedef struct {
    Move pv[MAX_PLY + 1];
    int pv_len;
    int score;
    int bound;
} PvLine;

/* What the search keeps for each ply of the path from the root, on a stack that starts
 * STACK_BEFORE_ROOT plies before it: those entries say "no move, never improved on", so that
 * no step needs a guard for the first plies. */
typedef struct {
    Move move;              /* the move made from this ply (MOVE_NONE: the null move, or none yet) */
    int piece;              /* the piece that made it (0: none) */
    int quiet;              /* the move was quiet (not the null move) */
    int static_eval;        /* corrected; -SCORE_INF in check, SCORE_INF before the root */
    Move excluded;          /* the move a singular extension's search leaves out */
    int double_extensions;  /* double extensions on the path to this ply */
    int in_check;           /* the side to move is in check */
    int reduction;          /* the late move reduction of the move made from here, while its reduced search runs */
    Move killers[2];
} Ply;
enum { STACK_BEFORE_ROOT = 2 };

/* The network's accumulators along the path: each ply's, brought up to date from the last one
 * that is only when a position is evaluated (evaluate). */
typedef struct {
    Accumulator acc[MAX_PLY + 2];       /* the hidden layer at each ply */
    NetworkDelta delta[MAX_PLY + 2];    /* the move into each ply, as the network sees it */
    uint8_t ready[MAX_PLY + 2];         /* 1: acc[ply] is up to date */
} NetworkStack;

/* The principal variation found at each ply (triangular: ply's from moves[ply][ply] to
 * moves[ply][length[ply] - 1]). */
typedef struct {
    Move moves[MAX_PLY + 1][MAX_PLY + 1];
    int length[MAX_PLY + 1];
} PvTable;

/* A main thread's look at its clock and at the machine's load, for a one-shot call's margins. */
typedef struct {
    int stall_guard;        /* 1: stop earlier by the longest stall seen (stall_before, then the search's own) */
    double busy_cut;        /* both deadlines this much earlier while the machine is busy (machine_busy) */
    double last_poll;       /* clock_now() at the last look at the clock */
    double longest_stall;   /* the longest time between two looks so far, or stall_before */
    double next_load_look;  /* clock_now() of the next look at the machine's load (look_at_load) */
    int load_looks;         /* looks at the machine's load so far in this search */
    int busy_looks;         /* those that found another task running (or could not tell) */
} Watch;

/* Lazy SMP's threads: a main thread's helpers, or a helper's own thread and main thread. */
typedef struct {
    Search *main_search;    /* a helper's main thread; NULL in a main one */
    Search **helpers;       /* a main thread's helpers' contexts */
    int helper_count;
    int helpers_running;    /* those whose thread started */
#if HAVE_THREADS
    pthread_t thread;       /* a helper's thread, while running is 1 */
#endif
    int running;            /* a helper's thread runs */
} Threads;

/* One search context, with its transposition table: its caller makes it (search_new), hands it
 * to the engine's entry points (search_run and those built on it, bench_run) and frees it
 * (search_free). A zeroed Search is ready, without a table. */
struct Search {
    /* what the search is asked, and its tables */
    Board board;            /* the root, then the position at hand as the search walks */
    Limits limits;
    int min_depth;          /* the node limit stops no search before this depth is complete (a level's) */
    TransTable tt;          /* the table this context owns (a main thread's) */
    TransTable *table;      /* the table its search uses: tt, or its main thread's */
    SearchHistory hist;
    int history_used;       /* the history holds values (a new Search's is zero, untouched) */
    Threads threads;
    Watch watch;
    /* the search as it runs */
    uint64_t nodes;
    int stop;
    int seldepth;
    int root_depth;         /* the depth of the iteration under way */
    int key_count;
    uint64_t keys[KEY_HISTORY_MAX];     /* the game's positions, then the path's */
    Ply stack[STACK_BEFORE_ROOT + MAX_PLY + 2];
    NetworkStack net;
    PvTable pv;
    /* the root's moves and lines */
    Move root_moves[MAX_MOVES];
    int root_count;
    PvLine lines[MAX_MOVES];    /* the lines of the running iteration, or of the last one once it ends (MultiPV) */
    PvLine done_lines[MAX_MOVES]; /* the lines of the last finished iteration, best first */
    int line_count;             /* how many lines done_lines holds */
    int report_line;            /* the line a report is about */
    uint64_t random_state;      /* a level's choice of move (random_next) */
    /* what it found */
    Move best_move;
    int best_score;
    int completed_depth;
};

/* A node of the search as its steps see it: where it stands, what the table knows of it, its
 * static evaluation (search and qsearch fill what they use). */
typedef struct {
    int ply;
    int pv_node, cut_node;
    int in_check;
    int has_non_pawn_piece; /* the side to move has a piece besides its pawns and king: no zugzwang feared */
    int improving;          /* the static evaluation is above ours two plies before */
    int opponent_worsening; /* the opponent's move into the node cost them by the two static evaluations */
    int eval;               /* the static evaluation, or the table's score where it bounds it better */
    int raw_eval;           /* the network's, as the table keeps it (0 in check) */
    int16_t *corrections[CORRECTION_ENTRIES]; /* the position's correction entries, when not in check */
    int hit;                /* the table has the position: entry */
    TTData entry;
    Move tt_move;
    int tt_score;           /* the entry's score, mates counted from the root */
    CheckSquares cs;        /* found at the first pruning that needs it */
    int cs_ready;
} Node;

/* prototypes */
static int running_tasks(void);
#if HAVE_THREADS
static void *helper_run(void *context);
#endif
static void threads_start(Search *s);
static void threads_stop(Search *s);
static int shared_load(const int *p);
static void shared_store(int *p, int value);
static uint64_t shared_load64(const uint64_t *p);
static void shared_store64(uint64_t *p, uint64_t value);
static void shared_set_bit(unsigned char *bits, size_t index);
static double busy_cut_for(double seconds);
static int time_is_up(Search *s);
static int follow_main(Search *s);
static void check_limits(Search *s, double now);
static double deadline_margin(const Search *s);
static double stall_guard(const Search *s);
static void look_at_load(Search *s, double now);
static int machine_busy(const Search *s);
static void tt_init(TransTable *tt, size_t megabytes);
static size_t tt_megabytes_for(double budget, uint64_t node_limit);
static void tt_free(TransTable *tt);
static void tt_clear(TransTable *tt);
static void tt_prefetch(const TransTable *tt, uint64_t key);
static uint64_t tt_pack(const TTData *d);
static void tt_unpack(uint64_t data, TTData *d);
static int tt_probe(const TransTable *tt, uint64_t key, TTData *out);
static int tt_filled(const TransTable *tt);
static int tt_hashfull(const TransTable *tt);
static void tt_store(TransTable *tt, uint64_t key, Move move, int score, int eval, int depth, int bound, int ply);
static int score_to_tt(int score, int ply);
static int score_from_tt(int score, int ply);
static void search_clear_history(Search *s);
static void history_clamp(SearchHistory *h);
static void clamp_values(int16_t *values, size_t count, int limit);
static void run(Search *s, const Board *board, const uint64_t *keys, int key_count, const Move *moves, int count, const Limits *limits, int stall_guard, double busy_cut);
static void level_limits(Search *s);
static int level_margin(int level);
static void level_choose(Search *s);
static void iterate(Search *s);
static int mate_settled(const Search *s, int depth, int *streak);
static int search_line(Search *s, int line, int depth);
static void note_line(Search *s, int line, int score, int bound);
static void sort_lines(Search *s, int count);
static void report_iteration(Search *s, int depth, int score, int bound);
static void search_reset(Search *s, const Board *board, const uint64_t *keys, int key_count);
static int search_root(Search *s, int alpha, int beta, int depth, int first);
static int search(Search *s, int alpha, int beta, int depth, int ply, int cut_node);
static int search_made_move(Search *s, const Node *n, const MovePicker *mp, int quiet, int moves_tried, int depth,
                            int new_depth, int alpha, int beta, int best);
static int research_depth_change(int score, int alpha, int best, int r, int new_depth);
static inline int node_probe(Search *s, Node *n);
static int bound_decides(int bound, int score, int alpha, int beta);
static int bound_bounds(int bound, int score, int eval);
static inline void node_evaluate(Search *s, Node *n);
static int prune_node(Search *s, Node *n, int alpha, int beta, int depth, int *score);
static void keep_eval(Search *s, const Node *n);
static int hindsight_depth_change(Search *s, const Node *n, int depth);
static int prunes_move(Search *s, const Node *n, Move m, const MovePicker *mp, int quiet_count, int depth, int alpha);
static int move_gives_check(Board *b, Node *n, Move m);
static int singular_extension(Search *s, Node *n, Move m, int depth, int alpha, int beta, int *cut);
static int reduction(Search *s, const Node *n, int depth, int moves_tried, const MovePicker *mp, int new_depth);
static inline int raises(int score, Move m, int *best, int *alpha, Move *best_move);
static void update_pv(Search *s, int ply, Move m);
static int qsearch(Search *s, int alpha, int beta, int ply, int checks);
static void keep_noisy_and_checks(Board *b, MoveList *list);
static void update_quiet_stats(Search *s, int ply, Move best, const Move *quiets, int quiet_count, int depth);
static void update_capture_stats(Search *s, Move best, const Move *noisy, int noisy_count, int depth);
static void reward_prior_move(Search *s, const Node *n, int depth, int far_below);
static void judge_prior_quiet(Search *s, const Node *n);
static void cont_histories_add(Search *s, int ply, int piece, int to, int delta, int bonus);
static int cont_histories_sum(Search *s, int ply, int piece, int to);
static int16_t *capture_history_at(Search *s, Move m);
static int history_bonus(int depth);
static PieceToHistory *cont_history_at(Search *s, int ply, int back);
static void history_add(int16_t *h, int delta, int bonus);
static void check_accumulator(const Search *s, int ply);
static inline int evaluate(Search *s, int ply);
static uint64_t pieces_hash(const Board *b, int color, int first, int last);
static void correction_entries(Search *s, int ply, int16_t *entry[CORRECTION_ENTRIES]);
static int corrected_eval(int16_t *const entry[CORRECTION_ENTRIES], int raw);
static void correction_update(int16_t *const entry[CORRECTION_ENTRIES], int depth, int diff);
static void correction_entry_update(int16_t *e, int diff, int weight);
static void push_move(Search *s, Move m, Undo *u, int ply);
static void pop_move(Search *s, Move m, const Undo *u);
static void picker_start(Search *s, MovePicker *mp, Move tt_move, int ply);
static void picker_start_list(Search *s, MovePicker *mp, const MoveList *list, Move tt_move, int ply);
static Move picker_next(Search *s, MovePicker *mp);
static void generate(Search *s, MovePicker *mp);
static Move picked(MovePicker *mp, Move m, int kind, int score);
static Move pick_best(MovePicker *mp);
static int quiet_candidate(const MovePicker *mp, Board *b, Move m);
static void score_moves(Search *s, MovePicker *mp, const MoveList *list);
static void add_noisy(Search *s, MovePicker *mp, Move m);
static void add_quiet(MovePicker *mp, const Board *b, const QuietHistories *h, Move m);
static void sort_moves(ScoredMove *moves, int count);
static void add_listed(Search *s, MovePicker *mp, const QuietHistories *h, Move m);
static int noisy_score(Search *s, Move m, int *good);
static void quiet_histories(Search *s, int ply, QuietHistories *h);
static void find_threats(const Board *b, QuietHistories *h);
static int has_quiet_move(const Board *b, const MoveList *list);
static uint64_t attacked_by(const Board *b, int color, int type, uint64_t occupied);
static inline int quiet_score(const Board *b, const QuietHistories *h, Move m);
static int see_ge(const Board *b, Move m, int threshold);
static void lmr_init(void);

/* ========================================================== initialisation */

static int engine_ready;

/* Fills the tables of the rules, the evaluation and the search, once, before any search and any
 * thread: nothing fills a table lazily, so a thread never finds one half made. The network's
 * weights go to a huge page where the system gives one (table_memory). Returns 0 when memory
 * is short. */
int engine_init(void)
{
    void *weights;
    if (engine_ready)
        return 1;
    if ((weights = table_memory(eval_weights_size())) == NULL)
        return 0;
    eval_init_in(weights);
    lmr_init();
    engine_ready = 1;
    return 1;
}

/* Returns 1 if this build searches on several threads (HAVE_THREADS). */
int engine_has_threads(void)
{
    return HAVE_THREADS;
}

/* =================================================================== clock */

/* Seconds on a monotonic wall clock (POSIX), or processor time where there is none; in
 * WebAssembly the page's clock (its own build) or 0 (the course's, which imports nothing). */
double clock_now(void)
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

/* The large regions (the transposition table, a table file's contents, the search's contexts
 * and the network's unpacked weights) go on huge pages where the system gives them (Linux's
 * transparent huge pages, asked for with madvise): every first touch of a 4 KB page is a page
 * fault, dear on a loaded virtual machine, where a 2 MB page is one fault (what it gained:
 * docs/engine.md, "Measurements behind the constants"). */
enum {
    HUGE_PAGE = 2 << 20,            /* the size of a huge page */
    HUGE_PAGE_MIN = HUGE_PAGE / 4   /* a region from this many bytes takes whole huge pages, the end of its last one unused */
};

#if HAVE_POSIX && defined(MAP_ANONYMOUS) && defined(MADV_HUGEPAGE)
/* The length of a region of size bytes in whole huge pages. */
static size_t huge_length(size_t size)
{
    return (size + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
}
#endif

/* Zeroed memory of size bytes for a table, on huge pages from HUGE_PAGE_MIN bytes when the
 * system can; NULL when memory is short. Freed with table_memory_free and the same size. */
void *table_memory(size_t size)
{
#if HAVE_POSIX && defined(MAP_ANONYMOUS) && defined(MADV_HUGEPAGE)
    if (size >= HUGE_PAGE_MIN) {
        size_t length = huge_length(size), span = length + HUGE_PAGE;
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
void table_memory_free(void *memory, size_t size)
{
    if (!memory)
        return;
#if HAVE_POSIX && defined(MAP_ANONYMOUS) && defined(MADV_HUGEPAGE)
    if (size >= HUGE_PAGE_MIN) {
        munmap(memory, huge_length(size));
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
int search_threads(Search *s, int count)
{
    int want = HAVE_THREADS ? int_clamp(count, 1, THREADS_MAX) : 1;
    while (s->threads.helper_count > want - 1)
        table_memory_free(s->threads.helpers[--s->threads.helper_count], sizeof(Search));
    if (want > 1 && !s->threads.helpers)
        s->threads.helpers = calloc(THREADS_MAX - 1, sizeof *s->threads.helpers);
    while (s->threads.helpers && s->threads.helper_count < want - 1) {
        Search *h = table_memory(sizeof *h);
        if (!h)
            break;
        h->threads.main_search = s;
        s->threads.helpers[s->threads.helper_count++] = h;
    }
    if (s->threads.helper_count == 0) {
        free(s->threads.helpers);
        s->threads.helpers = NULL;
    }
    return 1 + s->threads.helper_count;
}

/* Starts the helper threads of s on the search s has just set up: each gets the root, the
 * game's keys and the limits without a clock, a report or a poll (its main thread has those). */
static void threads_start(Search *s)
{
#if HAVE_THREADS
    int i;
    /* all set up before any starts: a running helper reads the others' node counts */
    for (i = 0; i < s->threads.helper_count; i++) {
        Search *h = s->threads.helpers[i];
        h->limits = s->limits;
        h->limits.report = NULL;
        h->limits.poll = NULL;
        h->limits.node_limit = 0;
        h->limits.hard_deadline = h->limits.soft_deadline = 0;
        h->limits.multipv = 1;
        search_reset(h, &s->board, s->keys, s->key_count);
        h->root_count = s->root_count;
        memcpy(h->root_moves, s->root_moves, sizeof(Move) * (size_t)s->root_count);
    }
    s->threads.helpers_running = 0;
    for (i = 0; i < s->threads.helper_count; i++) {
        s->threads.helpers[i]->threads.running = pthread_create(&s->threads.helpers[i]->threads.thread, NULL, helper_run, s->threads.helpers[i]) == 0;
        s->threads.helpers_running += s->threads.helpers[i]->threads.running;
    }
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
    for (i = 0; i < s->threads.helper_count; i++)
        if (s->threads.helpers[i]->threads.running) {
            pthread_join(s->threads.helpers[i]->threads.thread, NULL);
            s->threads.helpers[i]->threads.running = 0;
        }
    s->threads.helpers_running = 0;
#else
    (void)s;
#endif
}

/* Returns 1 once the search of s is stopping (its own flag; a helper's follows its main's). */
int search_stopping(const Search *s)
{
    return shared_load(&s->stop);
}

/* Stops the search of s (a main thread), and with it its helper threads. */
void search_stop(Search *s)
{
    shared_store(&s->stop, 1);
}

/* The nodes searched so far by s and its helper threads. */
uint64_t search_nodes(const Search *s)
{
    uint64_t total = shared_load64(&s->nodes);
    int i;
    for (i = 0; i < s->threads.helper_count; i++)
        total += shared_load64(&s->threads.helpers[i]->nodes);
    return total;
}

/* The nodes searched so far by the helper threads of s alone (0 with one thread). */
uint64_t search_helper_nodes(const Search *s)
{
    uint64_t total = 0;
    int i;
    for (i = 0; i < s->threads.helper_count; i++)
        total += shared_load64(&s->threads.helpers[i]->nodes);
    return total;
}

/* The words threads share, each read and written whole: relaxed atomics (no order beyond the
 * word itself), or plain reads and writes in a build without threads. */
#if HAVE_THREADS
#define SHARED_LOAD(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define SHARED_STORE(p, value) __atomic_store_n((p), (value), __ATOMIC_RELAXED)
#define SHARED_OR(p, value) __atomic_fetch_or((p), (value), __ATOMIC_RELAXED)
#else
#define SHARED_LOAD(p) (*(p))
#define SHARED_STORE(p, value) (*(p) = (value))
#define SHARED_OR(p, value) (*(p) |= (value))
#endif

/* Reads a word another thread may write. */
static int shared_load(const int *p) { return SHARED_LOAD(p); }
/* Writes a word another thread may read. */
static void shared_store(int *p, int value) { SHARED_STORE(p, value); }
/* The same for 64-bit words. */
static uint64_t shared_load64(const uint64_t *p) { return SHARED_LOAD(p); }
static void shared_store64(uint64_t *p, uint64_t value) { SHARED_STORE(p, value); }
/* Sets bit index of bits, which other threads may set too. */
static void shared_set_bit(unsigned char *bits, size_t index) { SHARED_OR(&bits[index >> 3], (unsigned char)(1u << (index & 7))); }

/* ==================================================================== time */

/* A one-shot call's reserves: what it keeps back of its limit for its caller's spawn, its own
 * exit and the caller's notice of it, on an idle machine and on a busy one (another task beside
 * the search: the caller's other games, a build), where the caller itself is slower; and the
 * stall guard, the longest stall seen (time waiting for a processor), since one as long may come
 * after the last look at the clock. How the values were set: docs/command-line.md, "Time". */
static const double ONE_SHOT_RESERVE = 0.010;       /* seconds of a one-shot limit kept back on an idle machine */
static const double ONE_SHOT_RESERVE_SHARE = 0.02;  /* the share of a one-shot limit kept back besides ONE_SHOT_RESERVE */
static const double ONE_SHOT_MIN_SHARE = 0.2;       /* the share of a one-shot limit searched at least */
static const double BUSY_RESERVE = 0.030;           /* seconds of a one-shot limit kept back on a busy machine */
static const double BUSY_RESERVE_SHARE = 0.03;      /* the share of a one-shot limit kept back besides BUSY_RESERVE */
/* seconds into the search of the first look at the machine's load (the caller that started the
 * call is still running before it) */
static const double LOAD_LOOK_DELAY = 0.002;
static const double LOAD_LOOK_INTERVAL = 0.002;     /* seconds between two looks at the machine's load */
/* the machine is busy when another task ran beside the search at one look in this many or more:
 * what shares the machine for long is seen at nearly every look, an idle machine's short tasks at
 * few (docs/engine.md, "Measurements behind the constants") */
enum { BUSY_LOOK_ONE_IN = 2 };
/* the stall guard is at most this share of the time from the search's start to its hard deadline */
static const double STALL_GUARD_MAX_SHARE = 0.5;
/* A real clock's split (time_for_clock). */
enum {
    CLOCK_MOVES_TO_GO = 40,     /* a real clock's time left is spread over this many moves in sudden death */
    CLOCK_HARD_FACTOR = 4       /* a real clock's hard budget is this many times its soft one, before the caps */
};
static const double CLOCK_INCREMENT_SHARE = 0.75;   /* the share of the increment a real clock's move adds to its budget */
static const double CLOCK_CAP_SHARE = 0.5;          /* a real clock's budgets stay below this share of the time left */
static const double CLOCK_LAST_MOVE_CAP_SHARE = 0.9; /* the same cap on the last move before a new time control */
static const double CLOCK_MIN_LEFT = 0.001;         /* the least time left, in seconds, that the split counts with */
/* the search looks at the clock, its node limit and its caller's poll every this many nodes (a
 * power of two) */
enum { POLL_NODES = 256 };

/* The part of a one-shot limit the search may use on an idle machine: the rest covers
 * start-up, exit and the caller's notice of it, and exit_cost seconds of the call's own work
 * after the search (a table file written back). */
double move_budget(double seconds, double exit_cost)
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
void time_for_clock(double left, double inc, int moves_to_go, double overhead, double *soft, double *hard)
{
    double usable = left - overhead > CLOCK_MIN_LEFT ? left - overhead : CLOCK_MIN_LEFT;
    double cap = usable * (moves_to_go == 1 ? CLOCK_LAST_MOVE_CAP_SHARE : CLOCK_CAP_SHARE);
    double target = usable / (moves_to_go > 0 && moves_to_go < CLOCK_MOVES_TO_GO ? moves_to_go : CLOCK_MOVES_TO_GO)
                    + CLOCK_INCREMENT_SHARE * inc;
    *soft = target < cap ? target : cap;
    *hard = CLOCK_HARD_FACTOR * target < cap ? CLOCK_HARD_FACTOR * target : cap;
}

/* Returns 1 once the search of s must unwind: it is stopping, or, every POLL_NODES nodes, it
 * stops at one of its limits (follow_main, check_limits) or by its caller's poll. */
static int time_is_up(Search *s)
{
    if (search_stopping(s))
        return 1;
    if ((s->nodes & (POLL_NODES - 1)) != 0)
        return 0;
    if (s->threads.main_search)
        return follow_main(s);
    check_limits(s, clock_now());
    if (s->limits.poll)
        s->limits.poll(s);
    return search_stopping(s);
}

/* A helper thread's look at its main thread: it stops when its main thread does, and stops it
 * at the node limit. Returns 1 once it is stopping. */
static int follow_main(Search *s)
{
    Search *main_search = s->threads.main_search;
    if (main_search->limits.node_limit && search_nodes(main_search) >= main_search->limits.node_limit
        && shared_load(&main_search->completed_depth) >= main_search->min_depth)
        search_stop(main_search);
    if (shared_load(&main_search->stop))
        shared_store(&s->stop, 1);
    return search_stopping(s);
}

/* A main thread's look at the clock at now: notes the longest time since the last look (a stall,
 * on a loaded machine), looks at the machine's load when it is due, and stops the search at its
 * node limit or its hard deadline. */
static void check_limits(Search *s, double now)
{
    if (now - s->watch.last_poll > s->watch.longest_stall)
        s->watch.longest_stall = now - s->watch.last_poll;
    s->watch.last_poll = now;
    if (s->watch.busy_cut > 0 && now >= s->watch.next_load_look)
        look_at_load(s, now);
    if (s->limits.node_limit && search_nodes(s) >= s->limits.node_limit && s->completed_depth >= s->min_depth)
        search_stop(s);
    else if (s->limits.hard_deadline > 0 && now >= s->limits.hard_deadline - deadline_margin(s))
        search_stop(s);
}

/* How much before its deadlines a search stops: the stall guard, and the busy cut while the
 * machine is busy. */
static double deadline_margin(const Search *s)
{
    return stall_guard(s) + (machine_busy(s) ? s->watch.busy_cut : 0);
}

/* The time kept back before the hard deadline against a stall after the last check of the
 * clock: the longest stall seen, at most STALL_GUARD_MAX_SHARE of the time from the start to
 * that deadline; 0 unless the limits ask for it. */
static double stall_guard(const Search *s)
{
    double cap = STALL_GUARD_MAX_SHARE * (s->limits.hard_deadline - s->limits.start);
    if (!s->watch.stall_guard)
        return 0;
    return s->watch.longest_stall < cap ? s->watch.longest_stall : cap;
}

/* Looks at what the machine runs besides this search's threads, and when to look next. */
static void look_at_load(Search *s, double now)
{
    int running = running_tasks();
    s->watch.next_load_look = now + LOAD_LOOK_INTERVAL;
    s->watch.load_looks++;
    s->watch.busy_looks += running < 0 || running > 1 + s->threads.helpers_running;
}

/* Returns 1 if the machine looks busy: another task ran beside the search at one look in
 * BUSY_LOOK_ONE_IN or more (a machine that cannot say counts as busy); 0 before the first look. */
static int machine_busy(const Search *s)
{
    return s->watch.load_looks > 0 && BUSY_LOOK_ONE_IN * s->watch.busy_looks >= s->watch.load_looks;
}

/* ===================================================== transposition table */

/* Replacement (tt_store). */
enum {
    TT_AGE_PLIES = 8,   /* an entry counts this many plies shallower for each search since it was written */
    TT_KEEP_DEPTH = 2,  /* within a search, an inexact result does not replace an entry more than this many plies deeper */
    TT_AGE_MASK = 63    /* a search's age counts modulo TT_AGE_MASK + 1 (6 bits of an entry) */
};
/* An entry's data word: the move in 16 bits (from, to, kind, promotion less KNIGHT), score and
 * evaluation 16 bits each, depth 8, bound 2, age 6. */
enum {
    TT_DATA_SCORE_SHIFT = 16, TT_DATA_EVAL_SHIFT = 32, TT_DATA_DEPTH_SHIFT = 48, TT_DATA_BOUND_SHIFT = 56,
    TT_DATA_AGE_SHIFT = 58, TT_MOVE_KIND_SHIFT = 12, TT_MOVE_PROMO_SHIFT = 14, TT_DEPTH_MAX = 255
};
/* A one-shot call's table (tt_megabytes_for). */
enum {
    TT_NODES_PER_SECOND = 1200000, /* the speed a one-shot table is sized for */
    TT_NODES_PER_MB = 30000, /* a one-shot table's megabytes: one for this many nodes, two entries a node */
    TT_MIN_MB = 1,          /* a one-shot table's least size, in megabytes */
    TT_MAX_MB = 64          /* a one-shot table's largest size, in megabytes */
};

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

/* The table a search of budget seconds fills (TT_NODES_PER_SECOND, TT_NODES_PER_MB), or of
 * node_limit nodes when that comes first (0: none), as a fixed-node match's calls stand for
 * timed ones. A larger one only costs time, since each first touch of one of its pages is a
 * page fault (docs/engine.md, "Measurements behind the constants"). */
static size_t tt_megabytes_for(double budget, uint64_t node_limit)
{
    double nodes = budget * TT_NODES_PER_SECOND, megabytes;
    if (node_limit > 0 && (double)node_limit < nodes)
        nodes = (double)node_limit;
    megabytes = nodes / TT_NODES_PER_MB;
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
    d.depth = int_min(depth, TT_DEPTH_MAX);
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

/* ========================================================= search context */

/* A new, zeroed context, on huge pages where the system gives them (table_memory): its
 * history, stack and accumulators are 2.8 MB that a search writes. */
Search *search_new(void)
{
    assert(engine_ready);
    return table_memory(sizeof(Search));
}

/* Releases s, its table and its helper threads. */
void search_free(Search *s)
{
    if (!s)
        return;
    search_threads(s, 1);
    tt_free(&s->tt);
    table_memory_free(s, sizeof(Search));
}

/* Gives s an empty table of about megabytes: its own, cleared, when it has that size already. */
void search_set_table(Search *s, size_t megabytes)
{
    if (s->tt.megabytes == megabytes) {
        tt_clear(&s->tt);
    } else {
        tt_free(&s->tt);
        tt_init(&s->tt, megabytes);
    }
}

/* The size of s's table as asked for. */
size_t search_table_megabytes(const Search *s)
{
    return s->tt.megabytes;
}

/* Forgets the game: an empty table and history, as at a new game. */
void search_new_game(Search *s)
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

/* What a search found and is doing. */
Move search_best_move(const Search *s) { return s->best_move; }
int search_best_score(const Search *s) { return s->best_score; }
int search_completed_depth(const Search *s) { return s->completed_depth; }
int search_seldepth(const Search *s) { return s->seldepth; }
double search_elapsed(const Search *s) { return clock_now() - s->limits.start; }
void *search_caller(const Search *s) { return s->limits.caller; }
int search_report_line(const Search *s) { return s->report_line; }
int search_hashfull(const Search *s) { return tt_hashfull(&s->tt); }
int search_table_filled(const Search *s) { return tt_filled(&s->tt); }

/* The lines a search of s is asked for (MultiPV, or a level's), and those of its last finished
 * iteration (0 before one finishes). */
int search_multipv(const Search *s) { return s->limits.multipv; }
int search_line_count(const Search *s) { return s->line_count; }

/* The first move of line number `line` of the search as it stands. */
Move search_line_move(const Search *s, int line)
{
    assert(line >= 0 && line < MAX_MOVES);
    return s->lines[line].pv_len > 0 ? s->lines[line].pv[0] : MOVE_NONE;
}

/* Writes line number `line` of the last search (0: the best; search_report_line in a report) in
 * SAN (PV_SAN) or coordinates (PV_COORDINATES), the moves separated by spaces, as far as it
 * stays legal and fits in size (PV_TEXT holds it all). */
void search_pv(const Search *s, int line, int notation, char *out, size_t size)
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
Move search_expected_reply(const Search *s, Board *after)
{
    TTData entry;
    const PvLine *line = &s->lines[0];
    if (line->pv_len >= 2 && line->pv[0] == s->best_move && move_is_legal(after, line->pv[1]))
        return line->pv[1];
    return tt_probe(&s->tt, after->key, &entry) && entry.move != MOVE_NONE && move_is_legal(after, entry.move)
               ? entry.move : MOVE_NONE;
}

/* Returns 1 if score announces a mate, for either side. */
int score_is_mate(int score)
{
    return abs(score) >= SCORE_MATE_BOUND;
}

/* Returns a mate score as the moves to mate, as UCI's `score mate N` counts them: positive
 * when the side to move mates, negative when it is mated (a mate score is SCORE_MATE less
 * the plies to mate); 0 for any other score. */
int score_mate_moves(int score)
{
    if (!score_is_mate(score))
        return 0;
    return score > 0 ? (SCORE_MATE - score + 1) / 2 : -(SCORE_MATE + score) / 2;
}

/* ======================================================= a table kept outside */

/* What the table file (modes/tablefile.c) keeps: TABLE_FORMAT changes with the meaning of the
 * buckets and the history it holds (the entry's packing, what a score or an evaluation in it
 * means, SearchHistory's fields up to HISTORY_FILE_SIZE). */
enum { TABLE_FORMAT = 2 };

size_t table_bucket_size(void) { return sizeof(TTBucket); }
size_t table_history_size(void) { return HISTORY_FILE_SIZE; }
uint32_t table_format(void) { return TABLE_FORMAT; }

/* Makes a table kept outside s's table and history (the history clamped, since a file may hold
 * anything); the next searches keep the history only when their limits say keep_history. */
void search_use_table(Search *s, void *buckets, uint64_t count, int age, const void *history, unsigned char *written)
{
    tt_free(&s->tt);
    s->tt.buckets = buckets;
    s->tt.count = (size_t)count;
    s->tt.megabytes = 0;
    s->tt.external = 1;
    s->tt.age = age & TT_AGE_MASK;
    s->tt.written = written;
    memcpy(&s->hist, history, HISTORY_FILE_SIZE);
    history_clamp(&s->hist);
    s->history_used = 1;
}

/* Writes s's history (the fields a table kept outside keeps) into history and lets the table go;
 * returns the age of the next search. */
int search_release_table(Search *s, void *history)
{
    int next_age = (s->tt.age + 1) & TT_AGE_MASK;
    memcpy(history, &s->hist, HISTORY_FILE_SIZE);
    s->tt.buckets = NULL;
    s->tt.count = 0;
    s->tt.external = 0;
    s->tt.written = NULL;
    return next_age;
}

/* Clamps every value of a history read from outside (the fields a file keeps) to the range the
 * search keeps it in. */
static void history_clamp(SearchHistory *h)
{
    clamp_values(&h->main[0][0][0], sizeof h->main / sizeof(int16_t), HISTORY_MAX);
    clamp_values(&h->capture[0][0][0], sizeof h->capture / sizeof(int16_t), HISTORY_MAX);
    clamp_values(&h->pawn_correction[0][0], sizeof h->pawn_correction / sizeof(int16_t), CORRECTION_MAX);
    clamp_values(&h->piece_correction[0][0][0], sizeof h->piece_correction / sizeof(int16_t), CORRECTION_MAX);
    clamp_values(&h->move_correction[0][0], sizeof h->move_correction / sizeof(int16_t), CORRECTION_MAX);
}

/* Clamps count values to +-limit. */
static void clamp_values(int16_t *values, size_t count, int limit)
{
    size_t i;
    for (i = 0; i < count; i++)
        values[i] = (int16_t)int_clamp(values[i], -limit, limit);
}

/* ========================================================== entry points */

/* Searches board within limits, its root moves being moves (count of them, all legal) or, with
 * moves NULL, every legal move (one at least); keys holds the game's positions before it, for
 * repetitions. */
void search_run(Search *s, const Board *board, const uint64_t *keys, int key_count, const Move *moves, int count,
                const Limits *limits)
{
    run(s, board, keys, key_count, moves, count, limits, 0, 0);
}

/* Searches board's moves (count of them, all legal) in s within seconds counted from
 * limits->start, keys being the game's earlier positions for repetitions; returns the move
 * chosen, at once when there is one. The search behind one-shot, batch and match moves. */
Move search_one_shot(Search *s, const Board *board, const Move *moves, int count, const uint64_t *keys, int key_count,
                     double seconds, const Limits *limits)
{
    Limits one_shot = *limits;
    double budget = move_budget(seconds, limits->exit_cost);
    if (count == 1)
        return moves[0];
    one_shot.hard_deadline = limits->start + budget;
    one_shot.soft_deadline = limits->start + budget;
    /* the size a one-shot call would use, so that batch lines answer as one-shot calls do; a
     * table kept outside as it is */
    if (!s->tt.external)
        search_set_table(s, tt_megabytes_for(budget, limits->node_limit));
    run(s, board, keys, key_count, moves, count, &one_shot, 1, busy_cut_for(seconds));
    return s->best_move;
}

/* The search behind the entry points: search_run's, and with stall_guard (stop earlier by the
 * longest stall seen) and busy_cut (both deadlines that much earlier while the machine is busy)
 * a one-shot call's. */
static void run(Search *s, const Board *board, const uint64_t *keys, int key_count, const Move *moves, int count,
                const Limits *limits, int stall_guard, double busy_cut)
{
    MoveList list;
    s->limits = *limits;
    s->watch.stall_guard = stall_guard;
    s->watch.busy_cut = busy_cut;
    s->min_depth = 0;
    level_limits(s);
    search_reset(s, board, keys, key_count);
    if (!moves) {
        gen_legal(&s->board, &list, GEN_ALL);
        moves = list.moves;
        count = list.count;
    }
    s->root_count = count;
    memcpy(s->root_moves, moves, sizeof(Move) * (size_t)count);
    threads_start(s);
    iterate(s);
    threads_stop(s);
    if (s->limits.level_set && s->limits.level < LEVEL_MAX)
        level_choose(s);
}

/* Ends the infinite mode of a search (UCI's ponderhit): from now it stops at these deadlines. */
void search_ponderhit(Search *s, double soft_deadline, double hard_deadline)
{
    s->limits.infinite = 0;
    s->limits.soft_deadline = soft_deadline;
    s->limits.hard_deadline = hard_deadline;
}

/* ================================================================== levels */

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
    LEVEL_ELO_MIN, 630, 730, 830, 930, 1030, 1130, 1230, 1330, 1490, 1650, 1810, 1970, 2060, 2150, 2240, 2330, 2405, 2480,
    LEVEL_ELO_MAX
};

/* The level for UCI_Elo elo: the strongest whose strength is at most elo (level 0 below all). */
int level_for_elo(int elo)
{
    int level = 0;
    while (level + 1 < LEVEL_MAX && LEVEL_ELO[level + 1] <= elo)
        level++;
    return level;
}

/* Narrows the limits of s to a level below LEVEL_MAX: its nodes, its lines, and a ply at least. */
static void level_limits(Search *s)
{
    Limits *limits = &s->limits;
    uint64_t nodes;
    if (!limits->level_set || limits->level >= LEVEL_MAX)
        return;
    nodes = (uint64_t)LEVEL_NODES[int_max(limits->level, 0)];
    if (!limits->node_limit || limits->node_limit > nodes)
        limits->node_limit = nodes;
    limits->multipv = int_max(limits->multipv, LEVEL_LINES);
    s->min_depth = LEVEL_MIN_DEPTH;
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
        s->random_state = random_seed((uint64_t)(clock_now() * 1e9) ^ (uint64_t)(uintptr_t)s);
    for (i = 0; i < s->line_count && best - lines[i].score <= margin && lines[i].score > -SCORE_MATE_BOUND; i++)
        total += margin - (best - lines[i].score) + 1;
    pick = (int)(random_next(&s->random_state) % (uint64_t)total);
    for (i = 0; pick >= margin - (best - lines[i].score) + 1; i++)
        pick -= margin - (best - lines[i].score) + 1;
    s->best_move = lines[i].pv[0];
    s->best_score = lines[i].score;
}

/* ======================================================= search parameters */

/* The search parameters: every margin, depth and weight of the search that a command line may
 * set (--param NAME=VALUE, through search_param_set) and tools/spsa.mjs tunes, each with the
 * range it may take and its tuning step (how far SPSA moves it either way to compare). Which
 * values SPSA found and a fixed-node match confirmed: docs/tuning.md. Scores are in
 * centipawns and depths in plies. The shapes follow Stockfish, Ethereal and the Chess
 * Programming Wiki. A margin on the evaluation taken from Stockfish is converted from its
 * internal units, 361 to a pawn in 15.1 (NormalizeToPawnValue, the scale of the centipawns
 * it prints, which our network learned), and one on material from its piece values (208 to
 * a pawn). */
enum {
    P_ASPIRATION_DELTA,     /* an aspiration window this far either side of the last score, widened by half on a fail */
    P_RFP_MARGIN,           /* reverse futility: the evaluation beats beta by this much a ply (a ply fewer when improving,
                             * a third of a ply more when the opponent's move worsened their position) */
    P_RAZOR_MARGIN,         /* razoring: the evaluation stays this much a ply below alpha */
    P_NMP_EVAL_DIVISOR,     /* the null move reduces a ply more for every this much the evaluation beats beta by */
    P_FUTILITY_MARGIN,      /* futility: a quiet move is pruned when the evaluation plus this, plus
                             * P_FUTILITY_PER_PLY a ply of depth, is at most alpha */
    P_FUTILITY_PER_PLY,     /* futility: the margin's growth a ply of depth, beyond P_FUTILITY_MARGIN */
    P_SEE_PRUNE_PER_PLY,    /* a losing capture pruned when it loses more than this a ply (static exchange) */
    P_SEE_QUIET_PER_PLY,    /* a quiet move pruned when it loses more than this a ply (the piece is left to be
                             * taken), while the opponent has a piece: against a lone king or pawns every move
                             * is searched (K+B+N against K needs them) */
    P_LMR_BASE,             /* the reduction table's constant term, in hundredths of a ply (lmr_init) */
    P_LMR_DIVISOR,          /* the reduction table divides ln(depth) ln(move number) by this, in hundredths (lmr_init) */
    P_LMR_HISTORY_DIVISOR,  /* a late move is reduced a ply less for every this much history (more when it is negative) */
    P_HISTORY_BONUS_PER_PLY, /* a cut-off's history bonus grows by this a ply of depth (history_bonus) */
    P_HISTORY_BONUS_MAX,    /* the largest history bonus of a cut-off (history_bonus) */
    P_DELTA_MARGIN,         /* the quiescence search skips a capture that, even this much ahead, stays below alpha */
    P_ASPIRATION_DEPTH,     /* aspiration windows (P_ASPIRATION_DELTA wide) from this depth on */
    P_HINDSIGHT_MARGIN,     /* a node reduced 2 plies or more whose move cost its side more than this is searched
                             * a ply shallower (hindsight_depth_change) */
    P_RFP_DEPTH,            /* reverse futility pruning up to this depth (P_RFP_MARGIN) */
    P_RAZOR_DEPTH,          /* razoring up to this depth (P_RAZOR_MARGIN) */
    P_NMP_DEPTH,            /* null move pruning from this depth on */
    P_NMP_REDUCTION,        /* the null move's reduction in plies, before depth and evaluation add to it */
    P_NMP_DEPTH_DIVISOR,    /* the null move reduces a ply more for every this many plies of depth */
    P_NMP_EVAL_MAX,         /* the most plies the evaluation's lead over beta adds to the null move's reduction */
    P_IIR_DEPTH,            /* internal iterative reduction from this depth on */
    P_LMP_DEPTH,            /* late move pruning of quiet moves up to this depth */
    P_LMP_BASE,             /* late move pruning prunes the quiet moves from the (P_LMP_BASE + depth^2) / 2-th move
                             * of the node on (twice as far when improving; Stockfish's) */
    P_FUTILITY_DEPTH,       /* futility pruning of quiet moves up to this reduced depth (P_FUTILITY_*) */
    P_FUTILITY_HISTORY_DIVISOR, /* futility's margin grows by a quiet move's histories divided by this (Stockfish's 52
                                 * in its units and history scales) */
    P_CAPTURE_FUTILITY_DEPTH, /* a capture is pruned below this reduced depth when the evaluation, its victim, the
                               * margin and the margin a ply, and its capture history divided by the divisor, stay at
                               * most alpha (Stockfish's 180, 201 and 6 in its units) */
    P_CAPTURE_FUTILITY_MARGIN, /* capture futility's margin (P_CAPTURE_FUTILITY_DEPTH) */
    P_CAPTURE_FUTILITY_PER_PLY, /* capture futility's margin a ply of reduced depth */
    P_CAPTURE_FUTILITY_HISTORY_DIVISOR, /* capture futility's margin grows by the capture history divided by this */
    P_SEE_PRUNE_DEPTH,      /* losing captures pruned up to this depth (P_SEE_PRUNE_PER_PLY) */
    P_SEE_QUIET_DEPTH,      /* quiet moves that lose material pruned up to this reduced depth (P_SEE_QUIET_PER_PLY) */
    P_SE_DEPTH,             /* singular extensions from this depth on */
    P_SE_TT_DEPTH_SLACK,    /* a singular extension's hash entry is at most this many plies shallower than the node */
    P_SE_MARGIN_PER_PLY,    /* a hash move is singular when the other moves, searched to half the depth, stay
                             * this much a ply of depth below its score */
    P_SE_DOUBLE_MARGIN,     /* a singular move is extended twice (outside PV nodes) when the other moves stay
                             * this much further below */
    P_SE_TRIPLE_MARGIN,     /* a singular quiet move is extended three times (outside PV nodes) when the other
                             * moves stay this much below */
    P_SE_DOUBLE_MAX,        /* at most this many double or triple extensions on a path */
    P_PRIOR_BONUS_DEPTH,    /* a fail low rewards the quiet move into it from this depth on (at any depth at a PV node) */
    P_PRIOR_BONUS_MARGIN,   /* a fail low more than this a ply of depth below alpha rewards the quiet move into
                             * it at any depth, and twice */
    P_LMR_DEPTH,            /* late move reductions from this depth on: of quiet moves, and outside PV nodes of
                             * noisy moves that lose material (PICK_BAD_NOISY) */
    P_LMR_DEEPER_MARGIN,    /* a reduced search that beats alpha by more than this, plus P_LMR_DEEPER_PER_PLY a
                             * ply of its reduction, is searched again a ply deeper */
    P_LMR_DEEPER_PER_PLY,   /* the margin a reduced search beats alpha by to go a ply deeper grows by this a ply of
                             * its reduction (P_LMR_DEEPER_MARGIN) */
    P_LMR_SHALLOWER_PER_PLY, /* a reduced search that beat alpha but not the node's best by this many hundredths of
                              * a centipawn a ply of its new depth is searched again a ply shallower */
    P_ROOT_LMR_DEPTH,       /* at the root, late quiet moves are searched a ply shallower first from this depth on */
    P_ROOT_LMR_MOVES,       /* at the root, the first this many moves of a line are searched at full depth */
    P_MVV_LVA_SCALE,        /* a capture's order: its victim's value times this, less its attacker's type, plus its
                             * capture history, which may then outweigh some 14 pawns of victim at most, as in
                             * Stockfish 15.1's order (six times the victim's value, plus the history) */
    P_THREAT_ESCAPE_BONUS,  /* a quiet move's order rises by this much when its piece leaves a square where a
                             * lesser piece attacks it, and falls as much when it goes to one (Stockfish's
                             * threat-aware ordering): in a cold one-shot call the histories are still nearly empty,
                             * and this orders the moves */
    SEARCH_PARAM_NB
};

static SearchParam search_params[SEARCH_PARAM_NB] = {
    [P_ASPIRATION_DELTA] = { "aspiration_delta", 11, 8, 60, 4 },
    [P_RFP_MARGIN] = { "rfp_margin", 80, 30, 150, 8 },
    [P_RAZOR_MARGIN] = { "razor_margin", 229, 100, 500, 25 },
    [P_NMP_EVAL_DIVISOR] = { "nmp_eval_divisor", 200, 80, 400, 20 },
    [P_FUTILITY_MARGIN] = { "futility_margin", 112, 30, 250, 12 },
    [P_FUTILITY_PER_PLY] = { "futility_per_ply", 68, 30, 200, 10 },
    [P_SEE_PRUNE_PER_PLY] = { "see_prune_per_ply", 100, 40, 200, 10 },
    [P_SEE_QUIET_PER_PLY] = { "see_quiet_per_ply", 54, 20, 150, 8 },
    [P_LMR_BASE] = { "lmr_base", 75, 20, 150, 8 },
    [P_LMR_DIVISOR] = { "lmr_divisor", 225, 150, 400, 15 },
    [P_LMR_HISTORY_DIVISOR] = { "lmr_history_divisor", 10000, 3000, 30000, 1000 },
    /* at least HISTORY_BONUS_OFFSET + 50, so that a cut-off at depth 1 still raises its move */
    [P_HISTORY_BONUS_PER_PLY] = { "history_bonus_per_ply", 300, 250, 600, 30 },
    [P_HISTORY_BONUS_MAX] = { "history_bonus_max", 1600, 400, 4000, 150 },
    [P_DELTA_MARGIN] = { "delta_margin", 241, 50, 400, 20 },
    [P_ASPIRATION_DEPTH] = { "aspiration_depth", 5, 2, 10, 1 },
    [P_HINDSIGHT_MARGIN] = { "hindsight_margin", 90, 0, 200, 8 },
    [P_RFP_DEPTH] = { "rfp_depth", 8, 3, 14, 1 },
    [P_RAZOR_DEPTH] = { "razor_depth", 2, 1, 5, 1 },
    [P_NMP_DEPTH] = { "nmp_depth", 3, 1, 6, 1 },
    [P_NMP_REDUCTION] = { "nmp_reduction", 4, 2, 7, 1 },
    [P_NMP_DEPTH_DIVISOR] = { "nmp_depth_divisor", 3, 2, 8, 1 },
    [P_NMP_EVAL_MAX] = { "nmp_eval_max", 3, 0, 8, 1 },
    [P_IIR_DEPTH] = { "iir_depth", 4, 2, 10, 1 },
    [P_LMP_DEPTH] = { "lmp_depth", 10, 3, 16, 1 },
    [P_LMP_BASE] = { "lmp_base", 3, 1, 8, 1 },
    [P_FUTILITY_DEPTH] = { "futility_depth", 6, 2, 14, 1 },
    [P_FUTILITY_HISTORY_DIVISOR] = { "futility_history_divisor", 100, 30, 400, 10 },
    [P_CAPTURE_FUTILITY_DEPTH] = { "capture_futility_depth", 7, 1, 12, 1 },
    [P_CAPTURE_FUTILITY_MARGIN] = { "capture_futility_margin", 50, 0, 200, 8 },
    [P_CAPTURE_FUTILITY_PER_PLY] = { "capture_futility_per_ply", 56, 10, 200, 8 },
    [P_CAPTURE_FUTILITY_HISTORY_DIVISOR] = { "capture_futility_history_divisor", 33, 8, 100, 4 },
    [P_SEE_PRUNE_DEPTH] = { "see_prune_depth", 6, 2, 12, 1 },
    [P_SEE_QUIET_DEPTH] = { "see_quiet_depth", 8, 2, 14, 1 },
    [P_SE_DEPTH] = { "se_depth", 6, 4, 10, 1 },
    [P_SE_TT_DEPTH_SLACK] = { "se_tt_depth_slack", 3, 1, 6, 1 },
    [P_SE_MARGIN_PER_PLY] = { "se_margin_per_ply", 2, 0, 6, 1 },
    [P_SE_DOUBLE_MARGIN] = { "se_double_margin", 20, 0, 60, 3 },
    [P_SE_TRIPLE_MARGIN] = { "se_triple_margin", 72, 4, 160, 6 },
    [P_SE_DOUBLE_MAX] = { "se_double_max", 6, 0, 16, 1 },
    [P_PRIOR_BONUS_DEPTH] = { "prior_bonus_depth", 5, 1, 10, 1 },
    [P_PRIOR_BONUS_MARGIN] = { "prior_bonus_margin", 62, 0, 150, 6 },
    [P_LMR_DEPTH] = { "lmr_depth", 3, 1, 6, 1 },
    [P_LMR_DEEPER_MARGIN] = { "lmr_deeper_margin", 64, 0, 150, 6 },
    [P_LMR_DEEPER_PER_PLY] = { "lmr_deeper_per_ply", 11, 0, 30, 1 },
    [P_LMR_SHALLOWER_PER_PLY] = { "lmr_shallower_per_ply", 100, 0, 300, 10 },
    [P_ROOT_LMR_DEPTH] = { "root_lmr_depth", 3, 3, 8, 1 },
    [P_ROOT_LMR_MOVES] = { "root_lmr_moves", 4, 1, 12, 1 },
    [P_MVV_LVA_SCALE] = { "mvv_lva_scale", 12, 4, 32, 1 },
    [P_THREAT_ESCAPE_BONUS] = { "threat_escape_bonus", 10000, 0, 20000, 1000 },
};

/* Returns the value of the search parameter id (P_*). */
static inline int param(int id)
{
    return search_params[id].value;
}

/* Returns the i-th search parameter (from 0), or NULL past the last. */
const SearchParam *search_param_at(int i)
{
    return i >= 0 && i < SEARCH_PARAM_NB ? &search_params[i] : NULL;
}

/* Sets the search parameter called name to value (the reduction table made again when it
 * depends on it); returns PARAM_SET, PARAM_UNKNOWN or PARAM_OUT_OF_RANGE. */
int search_param_set(const char *name, int value)
{
    int i;
    for (i = 0; i < SEARCH_PARAM_NB && strcmp(search_params[i].name, name) != 0; i++)
        ;
    if (i == SEARCH_PARAM_NB)
        return PARAM_UNKNOWN;
    if (value < search_params[i].min || value > search_params[i].max)
        return PARAM_OUT_OF_RANGE;
    search_params[i].value = value;
    if (i == P_LMR_BASE || i == P_LMR_DIVISOR)
        lmr_init();
    return PARAM_SET;
}

/* ================================================================== search */
/* The search's fixed constants: guards and units, which no tuning moves. */
enum {
    SE_PLY_FACTOR = 2,          /* no singular extension beyond this many times the iteration's depth (Stockfish's) */
    MATE_SLACK_PLIES = 4,       /* a proven mate stops the deepening this many plies past its distance */
    MATE_CONFIRM_ITERATIONS = 3, /* a timed search ends after this many iterations in a row that mate (mate_settled) */
    OPPONENT_WORSENING_MARGIN = 2, /* the two static evaluations sum to more: the opponent's move cost them
                                    * (Stockfish 17's) */
    TT_CUT_HALFMOVE_MAX = 90,   /* no table cut-off once this many plies have passed without a capture or pawn move
                                 * (Stockfish's) */
    LMR_TABLE = 64,             /* the reduction table's depths and move numbers */
    LMR_UNIT = 1024             /* a reduction is summed in 1/LMR_UNIT plies, then rounded down */
};

static int reductions[LMR_TABLE][LMR_TABLE]; /* in 1/LMR_UNIT plies */

/* The move picker's stages, in order: a STAGE_GENERATE_* stage generates and scores a kind of
 * move, the stage after it picks them. A node in check goes from the hash move to its evasions;
 * the quiescence search hands its whole list to STAGE_LIST. */
enum {
    STAGE_TT,                   /* the hash move, before any move is generated */
    STAGE_GENERATE_NOISY,       /* captures and promotions: those that keep their material for now, the rest for later */
    STAGE_GOOD_NOISY,           /* the captures and promotions that keep their material, best first */
    STAGE_KILLERS,              /* the two killers, each if quiet and legal here */
    STAGE_COUNTER,              /* the counter-move, if quiet, legal here and not a killer */
    STAGE_GENERATE_QUIET,       /* the other quiet moves, sorted by their histories */
    STAGE_QUIET,                /* those quiet moves, in order */
    STAGE_BAD_NOISY,            /* the losing captures and the under-promotions, best first */
    STAGE_GENERATE_EVASIONS,    /* in check: every move, scored as a whole list (STAGE_LIST) */
    STAGE_LIST,                 /* a whole list scored at once, best first */
    STAGE_DONE
};
/* Within a whole list (STAGE_LIST), the kinds in their order: the hash move, good noisy moves,
 * the killers, the counter-move, quiet moves by history, losing noisy moves. */
enum {
    LIST_TT = 2000000000, LIST_GOOD_NOISY = 1000000000, LIST_KILLER = 900000000, LIST_COUNTER = 800000000,
    LIST_BAD_NOISY = -1000000000
};

/* Returns the entry of ply on the search's stack (ply from -STACK_BEFORE_ROOT). */
static inline Ply *ply_at(Search *s, int ply)
{
    assert(ply >= -STACK_BEFORE_ROOT && ply <= MAX_PLY + 1);
    return &s->stack[ply + STACK_BEFORE_ROOT];
}

/* Iterative deepening with aspiration windows. */
static void iterate(Search *s)
{
    int depth, max_depth = s->limits.depth_limit ? s->limits.depth_limit : MAX_DEPTH, line, lines, mate_streak = 0;
    Ply *root = ply_at(s, 0);
    lines = int_clamp(s->limits.multipv, 1, s->root_count);
    s->best_move = s->root_moves[0];
    root->static_eval = root->in_check ? -SCORE_INF : evaluate(s, 0);
    s->line_count = 0;
    for (depth = 1; depth <= max_depth; depth++) {
        s->root_depth = depth;
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
        if (mate_settled(s, depth, &mate_streak))
            break;
    }
}

/* A timed search's settled mate, after the iteration to depth: counts in *streak the iterations
 * in a row whose best line mates for the side to move in fewer moves than their depth, and
 * returns 1 once MATE_CONFIRM_ITERATIONS have, in a search with a deadline and no node or depth
 * limit (its time is an upper bound, and deeper iterations could only find a shorter mate).
 * Engines of Stockfish's family stop on a found mate in their ways (YaneuraOu once the depth
 * passes 2.5 times its plies); this one is issue 70's. A search to a depth or a node count keeps
 * only the rule of iterate, so that it plays the same at any speed. */
static int mate_settled(const Search *s, int depth, int *streak)
{
    int moves = score_mate_moves(s->best_score);
    *streak = moves > 0 && moves < depth ? *streak + 1 : 0;
    return *streak >= MATE_CONFIRM_ITERATIONS && s->limits.hard_deadline > 0 && !s->limits.infinite
           && !s->limits.node_limit && (!s->limits.depth_limit || s->limits.depth_limit >= MAX_DEPTH);
}

/* Searches line number `line` (from 0) of the root to depth with aspiration windows around its
 * last score: the best of the root moves after the lines before it, which it leaves in
 * root_moves[line], its line noted and each aspiration fail reported. */
static int search_line(Search *s, int line, int depth)
{
    int last = s->line_count > line ? s->lines[line].score : 0;
    int delta = param(P_ASPIRATION_DELTA), alpha = -SCORE_INF, beta = SCORE_INF;
    if (depth >= param(P_ASPIRATION_DEPTH)) {
        alpha = int_max(last - delta, -SCORE_INF);
        beta = int_min(last + delta, SCORE_INF);
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
            alpha = int_max(result - delta, -SCORE_INF);
        } else if (result >= beta) {
            note_line(s, line, result, BOUND_LOWER);
            report_iteration(s, depth, result, BOUND_LOWER);
            beta = int_min(result + delta, SCORE_INF);
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
    l->pv_len = s->pv.length[0];
    memcpy(l->pv, s->pv.moves[0], sizeof(Move) * (size_t)l->pv_len);
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
 * MAX_PLY - 2 of them, board's own added), the stack, empty history tables unless the limits
 * keep them, the table a search older. */
static void search_reset(Search *s, const Board *board, const uint64_t *keys, int key_count)
{
    s->board = *board;
    nnue_refresh(&s->net.acc[0], board);
    s->net.ready[0] = 1;
    shared_store64(&s->nodes, 0);
    s->watch.last_poll = clock_now();
    s->watch.longest_stall = s->limits.stall_before;
    s->watch.next_load_look = s->watch.last_poll + LOAD_LOOK_DELAY;
    s->watch.load_looks = s->watch.busy_looks = 0;
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
    /* a new context's history is zero: clearing its pages would only fault them in */
    if (s->history_used && !s->limits.keep_history)
        search_clear_history(s);
    else if (s->history_used)
        memset(s->hist.low_ply, 0, sizeof s->hist.low_ply); /* its plies counted from the last search's root */
    s->history_used = 1;
    memset(s->stack, 0, sizeof s->stack);
    ply_at(s, -2)->static_eval = ply_at(s, -1)->static_eval = SCORE_INF; /* never improved on */
    ply_at(s, 0)->in_check = board_in_check(board);
    s->best_move = MOVE_NONE;
    s->best_score = 0;
    s->completed_depth = 0;
    s->table = s->threads.main_search ? &s->threads.main_search->tt : &s->tt;
    if (!s->threads.main_search)
        s->tt.age = (s->tt.age + 1) & TT_AGE_MASK;
}

/* Searches the root moves from number first on (those before are the lines found already),
 * best first, within (alpha, beta); a move that beats alpha goes to root_moves[first]. A late
 * move whose reduced search beats beta goes there too, so that the aspiration's next window
 * searches it first at full depth, but it is not the best move until that search proves it. */
static int search_root(Search *s, int alpha, int beta, int depth, int first)
{
    int i, best = -SCORE_INF, score;
    for (i = first; i < s->root_count; i++) {
        Move m = s->root_moves[i];
        Undo u;
        int new_depth = depth - 1, quiet = move_is_quiet(&s->board, m), reduced_only = 0;
        push_move(s, m, &u, 0);
        if (ply_at(s, 1)->in_check)
            new_depth++;
        if (i == first) {
            score = -search(s, -beta, -alpha, new_depth, 1, 0);
        } else {
            int r = depth >= param(P_ROOT_LMR_DEPTH) && i - first >= param(P_ROOT_LMR_MOVES) && quiet ? 1 : 0;
            score = -search(s, -alpha - 1, -alpha, new_depth - r, 1, 1);
            if (score > alpha && score < beta)
                score = -search(s, -beta, -alpha, new_depth, 1, 0);
            else
                reduced_only = r > 0;
        }
        pop_move(s, m, &u);
        if (search_stopping(s))
            break;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                update_pv(s, 0, m);
                if (first == 0 && !reduced_only) {
                    /* a move that beat the first one at full depth is proven better: keep it even if
                     * time runs out */
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

/* The principal variation search of the position at ply (1 or deeper: the root is
 * search_root's), to depth, within (alpha, beta); cut_node: a node expected to fail high.
 * As Stockfish has it, the children searched with a null window are expected to fail high,
 * but those of a cut node searched to the full depth, which are expected to fail low. Returns
 * its score for the side to move (0 once the search stops). */
static int search(Search *s, int alpha, int beta, int depth, int ply, int cut_node)
{
    Board *b = &s->board;
    Ply *here = ply_at(s, ply);
    Node n;
    MovePicker mp;
    Move m, best_move = MOVE_NONE, quiets[MAX_MOVES], noisy[MAX_MOVES];
    int best = -SCORE_INF, score, moves_tried = 0, quiet_count = 0, noisy_count = 0, old_alpha = alpha, bound;

    assert(ply >= 1);
    /* Step 1. Leaves go to the quiescence search. */
    if (depth <= 0)
        return qsearch(s, alpha, beta, ply, 1);
    s->pv.length[ply] = ply;
    if (ply > s->seldepth)
        s->seldepth = ply;
    if (time_is_up(s))
        return 0;

    /* Step 2. Draws by rule (a position seen once before is a draw: the side that can repeat it
     * can do so again), the last ply, and mate distance pruning. */
    if (board_drawn_by_rule(b, s->keys, s->key_count, 1))
        return SCORE_DRAW;
    if (ply >= MAX_PLY)
        return evaluate(s, ply);
    alpha = int_max(alpha, -SCORE_MATE + ply);
    beta = int_min(beta, SCORE_MATE - ply - 1);
    if (alpha >= beta)
        return alpha;

    /* Step 3. Transposition table: cut off in non-PV nodes with a deep enough entry, unless the
     * fifty-move rule draws near, which the entry's score may not have seen (a quiet hash move
     * that beats beta earns its cut-off's histories, as if searched). */
    n.ply = ply;
    n.pv_node = beta - alpha > 1;
    n.cut_node = cut_node;
    if (node_probe(s, &n) && !n.pv_node && n.entry.depth >= depth && here->excluded == MOVE_NONE
        && b->halfmove < TT_CUT_HALFMOVE_MAX && bound_decides(n.entry.bound, n.tt_score, alpha, beta)) {
        if (n.tt_score >= beta && n.tt_move != MOVE_NONE && move_is_quiet(b, n.tt_move) && move_is_legal(b, n.tt_move))
            update_quiet_stats(s, ply, n.tt_move, &n.tt_move, 1, depth);
        return n.tt_score;
    }

    /* Step 4. Static evaluation (kept in the table if it had none), whether it improves on
     * ours two plies before, and what it says of the opponent's move into the node. */
    node_evaluate(s, &n);
    if (!n.in_check && n.hit && bound_bounds(n.entry.bound, n.tt_score, n.eval))
        n.eval = n.tt_score;
    if (here->excluded == MOVE_NONE)
        keep_eval(s, &n);
    n.improving = !n.in_check && here->static_eval > ply_at(s, ply - 2)->static_eval;
    n.opponent_worsening = !n.in_check && here->static_eval + ply_at(s, ply - 1)->static_eval > OPPONENT_WORSENING_MARGIN;
    if (here->excluded == MOVE_NONE)
        judge_prior_quiet(s, &n);
    depth += hindsight_depth_change(s, &n, depth);
    n.has_non_pawn_piece = board_has_pieces(b, b->side);
    n.cs_ready = 0;

    /* Steps 5 and 6. Reverse futility pruning, razoring, null move pruning. */
    if (!n.pv_node && !n.in_check && here->excluded == MOVE_NONE && prune_node(s, &n, alpha, beta, depth, &score))
        return score;

    /* Step 7. Internal iterative reduction: without a hash move, search shallower. */
    if (depth >= param(P_IIR_DEPTH) && n.tt_move == MOVE_NONE && (n.pv_node || cut_node))
        depth--;

    /* Step 8. The move loop: the hash move first, then the generated moves in order. */
    ply_at(s, ply + 1)->killers[0] = ply_at(s, ply + 1)->killers[1] = MOVE_NONE;
    if (n.tt_move != MOVE_NONE && (n.tt_move == here->excluded || !move_is_legal(b, n.tt_move)))
        n.tt_move = MOVE_NONE;
    picker_start(s, &mp, n.tt_move, ply);
    while ((m = picker_next(s, &mp)) != MOVE_NONE) {
        Undo u;
        int quiet = move_is_quiet(b, m), new_depth = depth - 1, extension = 0;

        if (m == here->excluded)
            continue;

        /* Step 9. Prune late quiet moves, losing quiet moves and losing captures at low depth,
         * never checks. */
        if (best > -SCORE_MATE_BOUND && !n.in_check && n.has_non_pawn_piece
            && prunes_move(s, &n, m, &mp, quiet_count, depth, alpha) && !move_gives_check(b, &n, m))
            continue;

        /* Step 10. Singular extension: the hash move, when no other move comes near its score
         * in a shallower search without it; else a multi-cut, or a negative extension. Not
         * past twice the iteration's depth, where extensions would feed on themselves. */
        if (m == n.tt_move && depth >= param(P_SE_DEPTH) && here->excluded == MOVE_NONE && ply < SE_PLY_FACTOR * s->root_depth) {
            extension = singular_extension(s, &n, m, depth, alpha, beta, &score);
            if (search_stopping(s))
                return 0;
            if (score != SCORE_NONE)
                return score;
        }
        ply_at(s, ply + 1)->double_extensions = here->double_extensions + (extension >= 2);

        push_move(s, m, &u, ply);
        moves_tried++;
        if (quiet)
            quiets[quiet_count++] = m;
        else
            noisy[noisy_count++] = m;

        /* Step 10b. Check extension, only against a lone king, where checks are the mating
         * technique: elsewhere it cost more than it found at the depth we play (Stockfish 16
         * has none; issue 68's second screening). */
        if (ply_at(s, ply + 1)->in_check && extension == 0 && eval_by_knowledge(b))
            extension = 1;
        new_depth += extension;

        /* Step 11. Late move reductions, then the principal variation search. */
        score = search_made_move(s, &n, &mp, quiet, moves_tried, depth, new_depth, alpha, beta, best);
        pop_move(s, m, &u);
        if (search_stopping(s))
            return 0;

        /* Step 12. A new best move: the principal variation, and at a cut-off the histories. */
        if (raises(score, m, &best, &alpha, &best_move)) {
            update_pv(s, ply, m);
            if (score >= beta) {
                if (quiet)
                    update_quiet_stats(s, ply, m, quiets, quiet_count, depth);
                update_capture_stats(s, m, noisy, noisy_count, depth);
                break;
            }
        }
    }
    if (mp.picked == 0)
        return n.in_check ? -SCORE_MATE + ply : SCORE_DRAW;
    if (moves_tried == 0)
        return alpha; /* the only move was the excluded one (pruning needs a move searched): fail low */

    /* Step 13. Store the result, and what it says of the static evaluation: a quiet or no
     * best move, and a bound that lies on the far side of the evaluation. */
    bound = best >= beta ? BOUND_LOWER : alpha > old_alpha ? BOUND_EXACT : BOUND_UPPER;
    if (here->excluded != MOVE_NONE)
        return best;
    tt_store(s->table, b->key, best_move, best, n.raw_eval, depth, bound, ply);
    if (bound == BOUND_UPPER)
        reward_prior_move(s, &n, depth, best < alpha - param(P_PRIOR_BONUS_MARGIN) * depth);
    if (!n.in_check && (best_move == MOVE_NONE || move_is_quiet(b, best_move)) && !score_is_mate(best)
        && !(bound == BOUND_LOWER && best <= here->static_eval) && !(bound == BOUND_UPPER && best >= here->static_eval))
        correction_update(n.corrections, depth, best - here->static_eval);
    return best;
}

/* Step 11 of search: searches the move just made, the node's moves_tried-th, to new_depth and
 * returns its score. The first move gets the whole window; a later one a null window, a late one
 * (quiet, or outside PV nodes any) reduced first (late move reductions) and searched again
 * deeper when the reduced search beats alpha; in a PV node a score inside the window is
 * searched again with the whole window. */
static int search_made_move(Search *s, const Node *n, const MovePicker *mp, int quiet, int moves_tried, int depth,
                            int new_depth, int alpha, int beta, int best)
{
    Ply *here = ply_at(s, n->ply);
    int ply = n->ply, r = 0, score;
    if (moves_tried == 1)
        return -search(s, -beta, -alpha, new_depth, ply + 1, !n->pv_node && !n->cut_node);
    if (depth >= param(P_LMR_DEPTH) && moves_tried > 1 + n->pv_node && !n->in_check
        && (quiet || !n->pv_node))
        r = reduction(s, n, depth, moves_tried, mp, new_depth);
    here->reduction = r;
    score = -search(s, -alpha - 1, -alpha, new_depth - r, ply + 1, r > 0 || !n->cut_node);
    here->reduction = 0;
    if (r > 0 && score > alpha) {
        int reduced = new_depth - r;
        if (!eval_by_knowledge(&s->board))
            new_depth += research_depth_change(score, alpha, best, r, new_depth);
        if (new_depth > reduced)
            score = -search(s, -alpha - 1, -alpha, new_depth, ply + 1, !n->cut_node);
    }
    if (n->pv_node && score > alpha && score < beta)
        score = -search(s, -beta, -alpha, new_depth, ply + 1, 0);
    return score;
}

/* How many plies deeper than new_depth a reduced search (by r plies) that beat alpha with score
 * is searched again, best being the node's best score before it (Stockfish's): a ply more
 * when it beat alpha by far, a ply less when it barely came above the best. The search asks
 * it only where the evaluation is the network's: against a lone king (the evaluation's
 * knowledge) tests/endgame's K+B+N mate needs the plain depth. */
static int research_depth_change(int score, int alpha, int best, int r, int new_depth)
{
    return (score > alpha + param(P_LMR_DEEPER_MARGIN) + param(P_LMR_DEEPER_PER_PLY) * r) - (100 * (score - best) < param(P_LMR_SHALLOWER_PER_PLY) * new_depth);
}

/* Probes the table for the node at n->ply: whether it hit, its entry, its move and its score
 * relative to the root. Returns n->hit. */
static inline int node_probe(Search *s, Node *n)
{
    n->hit = tt_probe(s->table, s->board.key, &n->entry);
    n->tt_move = n->hit ? n->entry.move : MOVE_NONE;
    n->tt_score = n->hit ? score_from_tt(n->entry.score, n->ply) : 0;
    return n->hit;
}

/* Returns 1 if a table score of this bound decides a search within (alpha, beta): exact, or a
 * bound on the side of the window it proves. */
static int bound_decides(int bound, int score, int alpha, int beta)
{
    return bound == BOUND_EXACT || (bound == BOUND_LOWER && score >= beta) || (bound == BOUND_UPPER && score <= alpha);
}

/* Returns 1 if a table score of this bound is a better estimate than the static evaluation
 * eval: exact, or a bound on eval's far side. */
static int bound_bounds(int bound, int score, int eval)
{
    return bound != BOUND_NONE && (bound == BOUND_EXACT || (bound == BOUND_LOWER) == (score > eval));
}

/* The node's static evaluation (search and quiescence alike): whether it is in check (then
 * -SCORE_INF), else the network's (the table's, when it has one) corrected by the correction
 * history, kept on the stack. */
static inline void node_evaluate(Search *s, Node *n)
{
    Ply *here = ply_at(s, n->ply);
    n->in_check = here->in_check;
    assert(n->in_check == board_in_check(&s->board));
    n->raw_eval = 0;
    if (n->in_check) {
        n->eval = here->static_eval = -SCORE_INF;
        return;
    }
    n->raw_eval = n->hit ? n->entry.eval : evaluate(s, n->ply);
    correction_entries(s, n->ply, n->corrections);
    n->eval = here->static_eval = corrected_eval(n->corrections, n->raw_eval);
}

/* Keeps a node's static evaluation in the table when it had no entry for the node, so that a
 * later visit skips the network even where the node returns before storing its result (a
 * stand pat, a pruned node): as a lower bound at depth 0, which it is, since the quiescence
 * search never returns below its stand pat (Stockfish keeps the evaluation so too). */
static void keep_eval(Search *s, const Node *n)
{
    if (!n->hit && !n->in_check)
        tt_store(s->table, s->board.key, MOVE_NONE, n->eval, n->raw_eval, 0, BOUND_LOWER, n->ply);
}

/* Step 4b. Hindsight (Stockfish's): a node its parent reduced by 3 plies or more is searched a
 * ply deeper when the two static evaluations say the move into it cost the side that made it
 * nothing; one reduced by 2 or more a ply shallower when it cost that side more than
 * param(P_HINDSIGHT_MARGIN) (the two evaluations, each for its side to move, sum to more). The parent's
 * reduction is read once: a singular search at this node sees none. Not against a lone king,
 * where the evaluation is knowledge (K+B+N v K went unmated within 100 plies with it). */
static int hindsight_depth_change(Search *s, const Node *n, int depth)
{
    Ply *parent = ply_at(s, n->ply - 1);
    int prior = parent->reduction, here_eval = ply_at(s, n->ply)->static_eval;
    parent->reduction = 0;
    if (prior == 0 || n->in_check || parent->in_check || eval_by_knowledge(&s->board))
        return 0;
    if (prior >= 3 && here_eval <= -parent->static_eval)
        return 1;
    return prior >= 2 && depth >= 2 && here_eval + parent->static_eval > param(P_HINDSIGHT_MARGIN) ? -1 : 0;
}

/* Steps 5 and 6 at a node outside the principal variation and not in check: returns 1 with its
 * score in *score when the node needs no move loop. */
static int prune_node(Search *s, Node *n, int alpha, int beta, int depth, int *score)
{
    /* Step 5. Reverse futility pruning: far above beta at low depth; a ply nearer when
     * improving, a third of a ply further when the opponent's move into the node cost them by
     * the two evaluations (the reverse of Stockfish 17's deduction, as issue 68's third screening
     * measured it). */
    int rfp_margin = param(P_RFP_MARGIN) * (depth - n->improving) + n->opponent_worsening * param(P_RFP_MARGIN) / 3;
    if (depth <= param(P_RFP_DEPTH) && n->eval - rfp_margin >= beta && abs(beta) < SCORE_MATE_BOUND) {
        *score = n->eval;
        return 1;
    }

    /* Step 5b. Razoring: far below alpha near the leaves, the quiescence search decides. */
    if (depth <= param(P_RAZOR_DEPTH) && n->eval + param(P_RAZOR_MARGIN) * depth <= alpha) {
        *score = qsearch(s, alpha, alpha + 1, n->ply, 1);
        if (*score <= alpha)
            return 1;
    }

    /* Step 6. Null move pruning, not in pawn endings (zugzwang), nor twice in a row. */
    if (depth >= param(P_NMP_DEPTH) && n->eval >= beta && ply_at(s, n->ply - 1)->move != MOVE_NONE && n->has_non_pawn_piece) {
        Undo u;
        int r = param(P_NMP_REDUCTION) + depth / param(P_NMP_DEPTH_DIVISOR) + int_min((n->eval - beta) / param(P_NMP_EVAL_DIVISOR), param(P_NMP_EVAL_MAX));
        push_move(s, MOVE_NONE, &u, n->ply);
        *score = -search(s, -beta, -beta + 1, depth - r, n->ply + 1, !n->cut_node);
        pop_move(s, MOVE_NONE, &u);
        if (search_stopping(s)) {
            *score = 0;
            return 1;
        }
        if (*score >= beta) {
            *score = *score >= SCORE_MATE_BOUND ? beta : *score;
            return 1;
        }
    }
    return 0;
}

/* Step 9: returns 1 if move m, the picker's last (mp), after quiet_count quiet moves searched at
 * its node, may be pruned unless it gives check. Most tests look at the depth the move would be
 * searched to after its expected late move reduction (lmr_depth, Stockfish's lmrDepth, here
 * with the quiet moves searched for the move number): a capture that cannot reach alpha
 * with its victim, a losing capture; a late quiet move, one that cannot reach alpha with its
 * histories' help (futility) or loses material (static exchange). Only late move pruning
 * prunes quiet moves against a lone king (or pawns): there the quiet moves are the mating
 * technique, scored by knowledge, not the network. */
static int prunes_move(Search *s, const Node *n, Move m, const MovePicker *mp, int quiet_count, int depth, int alpha)
{
    Board *b = &s->board;
    int to = move_to(m), piece = b->squares[move_from(m)], history;
    int lmr_depth = int_max(depth - 1 - reductions[int_min(depth, LMR_TABLE - 1)][int_min(quiet_count, LMR_TABLE - 1)] / LMR_UNIT, 0);
    if (!move_is_quiet(b, m)) {
        int victim = move_kind(m) == KIND_EN_PASSANT ? PAWN : piece_type(b->squares[to]);
        if (!n->pv_node && lmr_depth < param(P_CAPTURE_FUTILITY_DEPTH) && move_kind(m) != KIND_PROMOTION
            && n->eval + param(P_CAPTURE_FUTILITY_MARGIN) + param(P_CAPTURE_FUTILITY_PER_PLY) * lmr_depth + eval_piece_value(victim)
                   + *capture_history_at(s, m) / param(P_CAPTURE_FUTILITY_HISTORY_DIVISOR) <= alpha)
            return 1;
        return depth <= param(P_SEE_PRUNE_DEPTH) && mp->kind == PICK_BAD_NOISY && !see_ge(b, m, -param(P_SEE_PRUNE_PER_PLY) * depth);
    }
    if (!n->pv_node && depth <= param(P_LMP_DEPTH) && quiet_count >= (param(P_LMP_BASE) + depth * depth) / (2 - n->improving))
        return 1;
    if (!board_has_pieces(b, !b->side))
        return 0;
    history = cont_histories_sum(s, n->ply, piece, to) + 2 * s->hist.main[b->side][move_from(m)][to];
    if (!n->pv_node && lmr_depth <= param(P_FUTILITY_DEPTH) && mp->kind == PICK_QUIET
        && n->eval + param(P_FUTILITY_MARGIN) + param(P_FUTILITY_PER_PLY) * lmr_depth + history / param(P_FUTILITY_HISTORY_DIVISOR) <= alpha)
        return 1;
    return lmr_depth <= param(P_SEE_QUIET_DEPTH) && !see_ge(b, m, -param(P_SEE_QUIET_PER_PLY) * lmr_depth);
}

/* Returns 1 if the legal move m gives check, the node's check squares found at its first ask. */
static int move_gives_check(Board *b, Node *n, Move m)
{
    if (!n->cs_ready) {
        check_squares(b, &n->cs);
        n->cs_ready = 1;
    }
    return move_checks(b, &n->cs, m);
}

/* Step 10: the extension of the hash move m at depth when the table's bound on it is deep and
 * low enough, as Stockfish 15.1 and 16 have it: 1 when a shallower search of the other moves
 * stays below its score less a margin (singular), outside PV nodes 2 when far below and 3 for a
 * quiet move further still (while the path has had few of those); when they reach beta even so
 * (a multi-cut) *cut is the node's score, else SCORE_NONE; -2 when the hash move's score
 * reaches beta (others might too), -1 when it is at most alpha and what the others reached. */
static int singular_extension(Search *s, Node *n, Move m, int depth, int alpha, int beta, int *cut)
{
    Ply *here = ply_at(s, n->ply);
    int singular_beta, score;
    *cut = SCORE_NONE;
    if (n->entry.depth < depth - param(P_SE_TT_DEPTH_SLACK) || (n->entry.bound != BOUND_LOWER && n->entry.bound != BOUND_EXACT)
        || score_is_mate(n->tt_score))
        return 0;
    singular_beta = n->tt_score - param(P_SE_MARGIN_PER_PLY) * depth;
    here->excluded = m;
    score = search(s, singular_beta - 1, singular_beta, (depth - 1) / 2, n->ply, n->cut_node);
    here->excluded = MOVE_NONE;
    if (search_stopping(s))
        return 0;
    if (score < singular_beta) {
        if (n->pv_node || here->double_extensions >= param(P_SE_DOUBLE_MAX) || score >= singular_beta - param(P_SE_DOUBLE_MARGIN))
            return 1;
        return score < singular_beta - param(P_SE_TRIPLE_MARGIN) && move_is_quiet(&s->board, m) ? 3 : 2;
    }
    if (singular_beta >= beta)
        *cut = singular_beta;
    if (n->tt_score >= beta)
        return -2;
    return n->tt_score <= alpha && n->tt_score <= score ? -1 : 0;
}

/* Step 11: the late move reduction of the move just made (number moves_tried, as the picker mp
 * gave it; quiet, or outside PV nodes any) at depth, searched to new_depth: the table's; less
 * for a move the picker did not give among the other quiet moves (the hash move, a killer,
 * the counter-move, a capture), for a check and for a good history; more outside the
 * principal variation and when not improving; summed in fractions of a ply (LMR_UNIT) and
 * rounded down, from 0 to new_depth - 1. */
static int reduction(Search *s, const Node *n, int depth, int moves_tried, const MovePicker *mp, int new_depth)
{
    int r = reductions[int_min(depth, LMR_TABLE - 1)][int_min(moves_tried, LMR_TABLE - 1)];
    r += LMR_UNIT * (!n->pv_node + !n->improving - (mp->kind != PICK_QUIET) - ply_at(s, n->ply + 1)->in_check);
    if (mp->kind == PICK_QUIET)
        r -= mp->score * LMR_UNIT / param(P_LMR_HISTORY_DIVISOR); /* fits: |score| <= 11 * HISTORY_MAX + 20000 */
    return int_min(int_max(r / LMR_UNIT, 0), new_depth - 1);
}

/* Takes the score of move m at a node: the best score rises to it, and when it beats alpha, so
 * do alpha and the best move. Returns 1 if it beat alpha. */
static inline int raises(int score, Move m, int *best, int *alpha, Move *best_move)
{
    if (score <= *best)
        return 0;
    *best = score;
    if (score <= *alpha)
        return 0;
    *alpha = score;
    *best_move = m;
    return 1;
}

/* The principal variation at ply becomes m and the one found after it. */
static void update_pv(Search *s, int ply, Move m)
{
    PvTable *pv = &s->pv;
    int i;
    pv->moves[ply][ply] = m;
    for (i = ply + 1; i < pv->length[ply + 1]; i++)
        pv->moves[ply][i] = pv->moves[ply + 1][i];
    pv->length[ply] = int_max(pv->length[ply + 1], ply + 1);
}

/* the quiet evasions the quiescence search tries in check once a move has escaped mate
 * (Stockfish 16's) */
enum { QS_QUIET_EVASIONS_MAX = 2 };

/* The quiescence search at ply: the static evaluation (stand pat) against captures and
 * promotions, and with `checks` (its first ply) quiet checks that do not lose material by
 * SEE; when in check every move, but no more than QS_QUIET_EVASIONS_MAX quiet ones once a
 * move has escaped mate. Returns the score for the side to move. */
static int qsearch(Search *s, int alpha, int beta, int ply, int checks)
{
    Board *b = &s->board;
    Node n;
    MoveList list;
    MovePicker mp;
    Move m, best_move = MOVE_NONE;
    int best, score, old_alpha = alpha, quiet_evasions = 0;

    s->pv.length[ply] = ply;
    if (ply > s->seldepth)
        s->seldepth = ply;
    if (time_is_up(s))
        return 0;
    if (ply >= MAX_PLY)
        return evaluate(s, ply);
    if (board_drawn_by_rule(b, s->keys, s->key_count, 1))
        return SCORE_DRAW;

    n.ply = ply;
    if (node_probe(s, &n) && bound_decides(n.entry.bound, n.tt_score, alpha, beta))
        return n.tt_score;
    node_evaluate(s, &n);
    if (!n.in_check && n.hit && bound_bounds(n.entry.bound, n.tt_score, n.eval))
        n.eval = n.tt_score; /* the table's bound says more than the evaluation (Stockfish's) */
    best = n.eval; /* stand pat, or -SCORE_INF in check */
    if (!n.in_check && best >= beta) {
        keep_eval(s, &n);
        return best;
    }
    if (best > alpha)
        alpha = best;
    gen_legal(b, &list, n.in_check || checks ? GEN_ALL : GEN_NOISY);
    if (n.in_check && list.count == 0)
        return -SCORE_MATE + ply;
    if (!n.in_check && checks)
        keep_noisy_and_checks(b, &list);
    picker_start_list(s, &mp, &list, n.tt_move, ply);
    while ((m = picker_next(s, &mp)) != MOVE_NONE) {
        Undo u;
        if (n.in_check && move_is_quiet(b, m)) {
            if (best > -SCORE_MATE_BOUND && quiet_evasions >= QS_QUIET_EVASIONS_MAX)
                continue;
            quiet_evasions++;
        } else if (!n.in_check && checks && move_is_quiet(b, m)) {
            /* a quiet check (the list keeps no other quiet move) that does not lose material */
            if (!see_ge(b, m, 0))
                continue;
        } else if (!n.in_check) {
            /* skip losing captures, those that cannot reach alpha (delta pruning), and those
             * whose exchange cannot win what the stand pat and the margin leave short of alpha
             * (Stockfish's) */
            if (mp.kind == PICK_BAD_NOISY)
                continue;
            if (move_kind(m) != KIND_PROMOTION
                && n.eval + eval_piece_value(piece_type(b->squares[move_to(m)])) + param(P_DELTA_MARGIN) <= alpha
                && move_kind(m) != KIND_EN_PASSANT)
                continue;
            if (move_kind(m) != KIND_PROMOTION && !see_ge(b, m, alpha - n.eval - param(P_DELTA_MARGIN)))
                continue;
        }
        push_move(s, m, &u, ply);
        score = -qsearch(s, -beta, -alpha, ply + 1, 0);
        pop_move(s, m, &u);
        if (search_stopping(s))
            return 0;
        if (raises(score, m, &best, &alpha, &best_move) && score >= beta)
            break;
    }
    tt_store(s->table, b->key, best_move, best, n.raw_eval, 0,
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
        if (!move_is_quiet(b, m) || move_checks(b, &cs, m))
            list->moves[kept++] = m;
    }
    list->count = kept;
}

/* After the quiet move best cut off at ply and depth: a killer, the counter-move of the move
 * before, a history bonus for it and a malus for the quiet moves tried before it, in the
 * history of the side and in the continuation histories (cont_histories_add). */
static void update_quiet_stats(Search *s, int ply, Move best, const Move *quiets, int quiet_count, int depth)
{
    const Board *b = &s->board;
    Ply *here = ply_at(s, ply), *before = ply_at(s, ply - 1);
    int side = b->side, i, bonus = history_bonus(depth);
    if (here->killers[0] != best) {
        here->killers[1] = here->killers[0];
        here->killers[0] = best;
    }
    if (before->move != MOVE_NONE)
        s->hist.counter[before->piece][move_to(before->move)] = best;
    for (i = 0; i < quiet_count; i++) {
        int delta = quiets[i] == best ? bonus : -bonus, piece = b->squares[move_from(quiets[i])], to = move_to(quiets[i]);
        history_add(&s->hist.main[side][move_from(quiets[i])][to], delta, bonus);
        cont_histories_add(s, ply, piece, to, delta, bonus);
        if (ply < LOW_PLY_PLIES)
            history_add(&s->hist.low_ply[ply][move_from(quiets[i])][to], delta, bonus);
    }
}

/* The sum of the continuation histories of a quiet move at ply, by its piece and destination. */
static int cont_histories_sum(Search *s, int ply, int piece, int to)
{
    int i, sum = 0;
    for (i = 0; i < CONT_PLIES; i++)
        sum += (*cont_history_at(s, ply, CONT_BACK[i]))[piece][to];
    return sum;
}

/* Adds delta (of size bonus) to the entries of a quiet move at ply, by its piece and
 * destination, in the continuation histories of the moves CONT_BACK plies before it. */
static void cont_histories_add(Search *s, int ply, int piece, int to, int delta, int bonus)
{
    int i;
    for (i = 0; i < CONT_PLIES; i++)
        history_add(&(*cont_history_at(s, ply, CONT_BACK[i]))[piece][to], delta, bonus);
}

/* After the node at n->ply failed low at depth: the opponent's quiet move into it held, and
 * earns a continuation history bonus, twice as large at a PV or cut node or when the node
 * fell far below alpha (far_below); only from depth param(P_PRIOR_BONUS_DEPTH) on unless the node is
 * a PV node or fell far below (Stockfish 15.1's). */
static void reward_prior_move(Search *s, const Node *n, int depth, int far_below)
{
    const Ply *before = ply_at(s, n->ply - 1);
    int bonus;
    if (!before->quiet || (depth < param(P_PRIOR_BONUS_DEPTH) && !n->pv_node && !far_below))
        return;
    bonus = history_bonus(depth) * (1 + (n->pv_node || n->cut_node || far_below));
    cont_histories_add(s, n->ply - 1, before->piece, move_to(before->move), bonus, bonus);
}

/* The opponent's quiet move into the node at n->ply, out of a position not in check, earns in
 * their history what it gained them by the static evaluations before and after it (Stockfish
 * 16.1's). */
static void judge_prior_quiet(Search *s, const Node *n)
{
    const Ply *before = ply_at(s, n->ply - 1);
    int swing, bonus;
    if (n->in_check || !before->quiet || before->static_eval == -SCORE_INF)
        return;
    swing = -(before->static_eval + ply_at(s, n->ply)->static_eval); /* their gain */
    bonus = int_clamp(swing * EVAL_SWING_HISTORY_PER_CP, EVAL_SWING_HISTORY_MIN, EVAL_SWING_HISTORY_MAX);
    bonus = bonus > 0 ? 2 * bonus : bonus / 2;
    history_add(&s->hist.main[!s->board.side][move_from(before->move)][move_to(before->move)], bonus, abs(bonus));
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

/* The history bonus of a cut-off at depth: P_HISTORY_BONUS_PER_PLY * depth less
 * HISTORY_BONUS_OFFSET, at most P_HISTORY_BONUS_MAX (Stockfish's shape: a cold call's
 * cut-offs are mostly shallow, and a bonus by depth^2 left them next to nothing). */
static int history_bonus(int depth)
{
    return int_min(param(P_HISTORY_BONUS_PER_PLY) * depth - HISTORY_BONUS_OFFSET, param(P_HISTORY_BONUS_MAX));
}

/* The continuation history row of the move made `back` plies before ply (1: the move into
 * ply), by its piece and destination: row [0][0] for a null move, and for none before the root. */
static PieceToHistory *cont_history_at(Search *s, int ply, int back)
{
    const Ply *p = ply_at(s, ply - back);
    return &s->hist.cont[p->piece][move_to(p->move)];
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
    assert(memcmp(&fresh, &s->net.acc[ply], sizeof fresh) == 0);
#else
    (void)s;
    (void)ply;
#endif
}

/* Returns the evaluation at ply for the side to move, bringing the network's accumulator
 * up to date first: moves only record what they change, and the accumulators are updated
 * from the last one that is ready when a position is evaluated. */
static inline int evaluate(Search *s, int ply)
{
    NetworkStack *net = &s->net;
    int k = ply;
    while (k > 0 && !net->ready[k])
        k--;
    assert(net->ready[k]); /* the root's is, from search_reset */
    for (; k < ply; k++) {
        nnue_apply(&net->acc[k + 1], &net->acc[k], &net->delta[k + 1]);
        net->ready[k + 1] = 1;
    }
    check_accumulator(s, ply);
    return eval_network(&s->board, &net->acc[ply]);
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

/* The correction entries for the side to move of the position at ply: its pawn structure's,
 * then white's and black's other pieces', then that of the move into it by its piece and
 * destination (Stockfish 17.1's continuation correction history, one move deep; NULL after a
 * null move or at the root); all NULL when the evaluation is knowledge (eval_by_knowledge), whose scores stay
 * as they are (a correction learnt in one K+B+N v K position blurs the gradient toward the
 * right corner that mates). */
static void correction_entries(Search *s, int ply, int16_t *entry[CORRECTION_ENTRIES])
{
    const Board *b = &s->board;
    const Ply *before = ply_at(s, ply - 1);
    uint64_t mask = CORRECTION_SIZE - 1;
    int side = b->side, c;
    if (eval_by_knowledge(b)) {
        for (c = 0; c < CORRECTION_ENTRIES; c++)
            entry[c] = NULL;
        return;
    }
    entry[0] = &s->hist.pawn_correction[side][(pieces_hash(b, WHITE, PAWN, PAWN) ^ 3 * pieces_hash(b, BLACK, PAWN, PAWN)) & mask];
    for (c = WHITE; c <= BLACK; c++)
        entry[1 + c] = &s->hist.piece_correction[side][c][pieces_hash(b, c, KNIGHT, KING) & mask];
    entry[CORRECTION_PRIOR_MOVE] = before->move != MOVE_NONE ? &s->hist.move_correction[before->piece][move_to(before->move)] : NULL;
}

/* The static evaluation raw of a position corrected by its correction entries
 * (correction_entries): the pawn structure's, and half of each of the others'. */
static int corrected_eval(int16_t *const entry[CORRECTION_ENTRIES], int raw)
{
    int prior;
    if (!entry[0])
        return raw;
    prior = entry[CORRECTION_PRIOR_MOVE] ? *entry[CORRECTION_PRIOR_MOVE] : 0;
    return int_clamp(raw + (*entry[0] + (*entry[1] + *entry[2] + prior) / 2) / CORRECTION_GRAIN, -EVAL_LIMIT, EVAL_LIMIT);
}

/* After a search to depth found diff more than the corrected static evaluation: each of the
 * position's correction entries (correction_entries) moves toward it. */
static void correction_update(int16_t *const entry[CORRECTION_ENTRIES], int depth, int diff)
{
    int weight = int_min(depth + 1, CORRECTION_WEIGHT_MAX), i;
    for (i = 0; i < CORRECTION_ENTRIES; i++)
        if (entry[i])
            correction_entry_update(entry[i], diff, weight);
}

/* Moves a correction entry weight parts in CORRECTION_WEIGHT_SCALE toward diff centipawns. */
static void correction_entry_update(int16_t *e, int diff, int weight)
{
    int target = diff * CORRECTION_GRAIN;
    int value = (*e * (CORRECTION_WEIGHT_SCALE - weight) + target * weight) / CORRECTION_WEIGHT_SCALE;
    *e = (int16_t)int_clamp(value, -CORRECTION_MAX, CORRECTION_MAX);
}

/* Makes m (MOVE_NONE: the null move) at ply: the board, the path's moves and keys, what it
 * changes for the network, whether it gives check, the node count; starts loading the new
 * position's table bucket. */
static void push_move(Search *s, Move m, Undo *u, int ply)
{
    Ply *here = ply_at(s, ply);
    /* the child's bucket loads while the move is made; the prefetch after board_make repeats
     * it (nearly free) for the null move and the moves whose key board_key_after only guesses */
    if (m != MOVE_NONE)
        tt_prefetch(s->table, board_key_after(&s->board, m));
    nnue_delta(&s->board, m, &s->net.delta[ply + 1]);
    s->net.ready[ply + 1] = 0;
    here->move = m;
    here->piece = m == MOVE_NONE ? 0 : s->board.squares[move_from(m)];
    here->quiet = m != MOVE_NONE && move_is_quiet(&s->board, m);
    if (m == MOVE_NONE)
        board_make_null(&s->board, u);
    else
        board_make(&s->board, m, u);
    if (s->net.delta[ply + 1].rebuild) /* a king turned its side's view: from the board */
        nnue_rebuild(&s->net.acc[ply + 1], &s->board, &s->net.delta[ply + 1]);
    s->keys[s->key_count++] = s->board.key;
    /* found once per node here, read by the node and by its parent (a null move never checks) */
    ply_at(s, ply + 1)->in_check = m != MOVE_NONE && board_in_check(&s->board);
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

/* Starts picking the moves of the search's node at ply: the hash move tt_move (legal, or
 * MOVE_NONE) first; then, in check, every evasion by its score, else the stages in turn. */
static void picker_start(Search *s, MovePicker *mp, Move tt_move, int ply)
{
    const Ply *here = ply_at(s, ply), *before = ply_at(s, ply - 1);
    int after_tt = here->in_check ? STAGE_GENERATE_EVASIONS : STAGE_GENERATE_NOISY;
    mp->ply = ply;
    mp->tt_move = tt_move;
    mp->killers[0] = here->killers[0];
    mp->killers[1] = here->killers[1];
    mp->counter = before->move != MOVE_NONE ? s->hist.counter[before->piece][move_to(before->move)] : MOVE_NONE;
    mp->killer = 0;
    mp->picked = 0;
    mp->next = mp->end = 0;
    mp->bad = MAX_MOVES;
    mp->stage = tt_move != MOVE_NONE ? STAGE_TT : after_tt;
}

/* Starts picking the moves of list (all legal) at ply, scored at once as a whole (STAGE_LIST,
 * the quiescence search's): tt_move first if it is among them. */
static void picker_start_list(Search *s, MovePicker *mp, const MoveList *list, Move tt_move, int ply)
{
    picker_start(s, mp, tt_move, ply);
    mp->stage = STAGE_LIST;
    score_moves(s, mp, list);
}

/* Returns the next move of the node (MOVE_NONE at the end), its kind and score in mp->kind
 * and mp->score. */
static Move picker_next(Search *s, MovePicker *mp)
{
    Board *b = &s->board;
    for (;;) {
        switch (mp->stage) {
        case STAGE_TT:
            mp->stage = ply_at(s, mp->ply)->in_check ? STAGE_GENERATE_EVASIONS : STAGE_GENERATE_NOISY;
            return picked(mp, mp->tt_move, PICK_TT, 0);
        case STAGE_GENERATE_NOISY:
        case STAGE_GENERATE_QUIET:
        case STAGE_GENERATE_EVASIONS:
            generate(s, mp);
            break;
        case STAGE_GOOD_NOISY:
            if (mp->next < mp->end)
                return pick_best(mp);
            mp->stage = STAGE_KILLERS;
            break;
        case STAGE_KILLERS:
            while (mp->killer < 2) {
                Move m = mp->killers[mp->killer++];
                if (quiet_candidate(mp, b, m))
                    return picked(mp, m, PICK_KILLER, 0);
            }
            mp->stage = STAGE_COUNTER;
            break;
        case STAGE_COUNTER:
            mp->stage = STAGE_GENERATE_QUIET;
            if (mp->counter != mp->killers[0] && mp->counter != mp->killers[1] && quiet_candidate(mp, b, mp->counter))
                return picked(mp, mp->counter, PICK_COUNTER, 0);
            break;
        case STAGE_QUIET:
            if (mp->next < mp->end) {
                ScoredMove sm = mp->moves[mp->next++];
                return picked(mp, sm.move, sm.kind, sm.score);
            }
            mp->next = mp->bad;
            mp->end = MAX_MOVES;
            mp->stage = STAGE_BAD_NOISY;
            break;
        case STAGE_BAD_NOISY:
        case STAGE_LIST:
            if (mp->next < mp->end)
                return pick_best(mp);
            mp->stage = STAGE_DONE;
            break;
        default:
            return MOVE_NONE;
        }
    }
}

/* Generates and scores the moves of the stage at hand (the noisy moves, the quiet ones, or every
 * evasion), and moves on to picking them. */
static void generate(Search *s, MovePicker *mp)
{
    MoveList list;
    int noisy = mp->stage == STAGE_GENERATE_NOISY, quiet = mp->stage == STAGE_GENERATE_QUIET;
    gen_legal(&s->board, &list, noisy ? GEN_NOISY : quiet ? GEN_QUIET : GEN_ALL);
    score_moves(s, mp, &list);
    mp->stage = noisy ? STAGE_GOOD_NOISY : quiet ? STAGE_QUIET : STAGE_LIST;
}

/* Returns m as the move picked, of this kind and score. */
static Move picked(MovePicker *mp, Move m, int kind, int score)
{
    mp->kind = kind;
    mp->score = score;
    mp->picked++;
    return m;
}

/* Returns the best of the stage's moves not yet picked (a selection sort's step). */
static Move pick_best(MovePicker *mp)
{
    int best = mp->next, i;
    ScoredMove chosen;
    for (i = mp->next + 1; i < mp->end; i++)
        if (mp->moves[i].score > mp->moves[best].score)
            best = i;
    chosen = mp->moves[best];
    mp->moves[best] = mp->moves[mp->next];
    mp->moves[mp->next++] = chosen;
    return picked(mp, chosen.move, chosen.kind, chosen.score);
}

/* Returns 1 if m, a killer or the counter-move of another position, is a quiet legal move
 * here that the picker has not given already (the hash move). */
static int quiet_candidate(const MovePicker *mp, Board *b, Move m)
{
    return m != MOVE_NONE && m != mp->tt_move && move_is_quiet(b, m) && move_is_legal(b, m);
}

/* Scores the moves of list for the stage at hand (add_noisy, add_quiet, add_listed), and sorts
 * the quiet ones once. */
static void score_moves(Search *s, MovePicker *mp, const MoveList *list)
{
    QuietHistories h;
    int i;
    quiet_histories(s, mp->ply, &h);
    if (mp->stage != STAGE_GENERATE_NOISY && has_quiet_move(&s->board, list))
        find_threats(&s->board, &h);
    mp->next = mp->end = 0;
    for (i = 0; i < list->count; i++) {
        if (mp->stage == STAGE_GENERATE_NOISY)
            add_noisy(s, mp, list->moves[i]);
        else if (mp->stage == STAGE_GENERATE_QUIET)
            add_quiet(mp, &s->board, &h, list->moves[i]);
        else
            add_listed(s, mp, &h, list->moves[i]);
    }
    if (mp->stage == STAGE_GENERATE_QUIET)
        sort_moves(mp->moves, mp->end);
}

/* Adds the noisy move m (but the hash move): one that keeps its material (static exchange;
 * never an under-promotion) to the stage's moves, another to the end of the array, which waits
 * for the last stage; each ordered by its victim and attacker, and its capture history. */
static void add_noisy(Search *s, MovePicker *mp, Move m)
{
    int good, score;
    if (m == mp->tt_move)
        return;
    score = noisy_score(s, m, &good);
    if (good) {
        tt_prefetch(s->table, board_key_after(&s->board, m));
        mp->moves[mp->end++] = (ScoredMove){ m, score, PICK_GOOD_NOISY };
    } else
        mp->moves[--mp->bad] = (ScoredMove){ m, score, PICK_BAD_NOISY };
}

/* Adds the quiet move m of b (but those given already: the hash move, the killers, the
 * counter-move), ordered by its histories h. */
static void add_quiet(MovePicker *mp, const Board *b, const QuietHistories *h, Move m)
{
    if (m == mp->tt_move || m == mp->killers[0] || m == mp->killers[1] || m == mp->counter)
        return;
    mp->moves[mp->end++] = (ScoredMove){ m, quiet_score(b, h, m), PICK_QUIET };
}

/* Sorts count moves best first, those of equal scores in their order (insertion sort: the
 * lists are short). */
static void sort_moves(ScoredMove *moves, int count)
{
    int i, j;
    for (i = 1; i < count; i++) {
        ScoredMove sm = moves[i];
        for (j = i; j > 0 && moves[j - 1].score < sm.score; j--)
            moves[j] = moves[j - 1];
        moves[j] = sm;
    }
}

/* Adds m to a whole list scored at once (STAGE_LIST), by its kind first (LIST_*), then within
 * it: the hash move (unless given already), good noisy moves, the killers, the counter-move,
 * quiet moves by their histories h, losing noisy moves. */
static void add_listed(Search *s, MovePicker *mp, const QuietHistories *h, Move m)
{
    const Board *b = &s->board;
    ScoredMove *sm = &mp->moves[mp->end];
    int good;
    sm->move = m;
    if (m == mp->tt_move) {
        if (mp->picked > 0)
            return; /* given already */
        sm->kind = PICK_TT, sm->score = LIST_TT;
    } else if (!move_is_quiet(b, m)) {
        sm->score = noisy_score(s, m, &good);
        sm->kind = good ? PICK_GOOD_NOISY : PICK_BAD_NOISY;
        if (good)
            tt_prefetch(s->table, board_key_after(b, m));
        sm->score += good ? LIST_GOOD_NOISY : LIST_BAD_NOISY;
    } else if (m == mp->killers[0] || m == mp->killers[1]) {
        sm->kind = PICK_KILLER, sm->score = LIST_KILLER + (m == mp->killers[0]);
    } else if (m == mp->counter) {
        sm->kind = PICK_COUNTER, sm->score = LIST_COUNTER;
    } else {
        sm->kind = PICK_QUIET, sm->score = quiet_score(b, h, m);
    }
    mp->end++;
}

/* The order of a capture or promotion m: the victim's value (and the promotion's) less the
 * attacker's type, plus its capture history (param(P_MVV_LVA_SCALE) says how they weigh); *good says whether it keeps its material
 * (a victim worth its attacker, or a static exchange that does not lose; never an
 * under-promotion, which goes with the losing ones: the quiescence search skips those). */
static int noisy_score(Search *s, Move m, int *good)
{
    const Board *b = &s->board;
    int attacker = piece_type(b->squares[move_from(m)]);
    int victim = move_kind(m) == KIND_EN_PASSANT ? PAWN : piece_type(b->squares[move_to(m)]);
    int under = move_kind(m) == KIND_PROMOTION && move_promo(m) != QUEEN;
    *good = !under && (eval_piece_value(victim) >= eval_piece_value(attacker) || see_ge(b, m, 0));
    return eval_piece_value(victim) * param(P_MVV_LVA_SCALE) - attacker
           + (move_kind(m) == KIND_PROMOTION ? eval_piece_value(move_promo(m)) * param(P_MVV_LVA_SCALE) : 0)
           + *capture_history_at(s, m);
}

/* Finds the histories that order the quiet moves at ply: the side's, and the continuation
 * histories after the moves one and two plies before (CONT_BACK). */
static void quiet_histories(Search *s, int ply, QuietHistories *h)
{
    h->main = s->hist.main[s->board.side];
    int i;
    h->low_ply = ply < LOW_PLY_PLIES ? s->hist.low_ply[ply] : NULL;
    h->low_ply_divisor = 2 * ply + 1;
    for (i = 0; i < CONT_PLIES; i++)
        h->cont[i] = cont_history_at(s, ply, CONT_BACK[i]);
}

/* Finds the squares where each type of piece of b's side to move is attacked by a lesser piece
 * of the opponent: a knight or a bishop by a pawn, a rook by a minor piece too, a queen by a
 * rook too. */
static void find_threats(const Board *b, QuietHistories *h)
{
    int them = !b->side;
    uint64_t occupied = b->occupied[WHITE] | b->occupied[BLACK];
    h->threatened[PAWN] = h->threatened[KING] = 0;
    h->threatened[KNIGHT] = h->threatened[BISHOP] = attacked_by(b, them, PAWN, occupied);
    h->threatened[ROOK] = h->threatened[BISHOP] | attacked_by(b, them, KNIGHT, occupied)
                          | attacked_by(b, them, BISHOP, occupied);
    h->threatened[QUEEN] = h->threatened[ROOK] | attacked_by(b, them, ROOK, occupied);
}

/* Returns 1 if list holds a quiet move of b. */
static int has_quiet_move(const Board *b, const MoveList *list)
{
    int i;
    for (i = 0; i < list->count; i++)
        if (move_is_quiet(b, list->moves[i]))
            return 1;
    return 0;
}

/* Returns the squares that the pieces of this colour and type attack. */
static uint64_t attacked_by(const Board *b, int color, int type, uint64_t occupied)
{
    uint64_t set = b->pieces[make_piece(color, type)], attacked = 0;
    for (; set; set &= set - 1)
        attacked |= attacks_from(type, color, bit_first(set), occupied);
    return attacked;
}

/* The order of a quiet move m of b: its histories h summed, and its piece's escape from a
 * threat or walk into one. */
static inline int quiet_score(const Board *b, const QuietHistories *h, Move m)
{
    int piece = b->squares[move_from(m)], from = move_from(m), to = move_to(m);
    uint64_t threatened = h->threatened[piece_type(piece)];
    return h->main[from][to] + (*h->cont[0])[piece][to] + (*h->cont[1])[piece][to]
           + (h->low_ply ? LOW_PLY_WEIGHT * h->low_ply[from][to] / h->low_ply_divisor : 0)
           + param(P_THREAT_ESCAPE_BONUS) * ((int)(threatened >> from & 1) - (int)(threatened >> to & 1));
}

/* Static exchange evaluation, as a question: does m win at least threshold, when both sides
 * then capture on its square with their least valuable piece for as long as it pays (either
 * may stop), a king never capturing into a defended square? The exchange is followed only as
 * far as the answer needs (the threshold form of Stockfish's see_ge). A castling takes
 * nothing and lands on a square the other side does not attack. */
static int see_ge(const Board *b, Move m, int threshold)
{
    int from = move_from(m), to = move_to(m), side = b->side, attacker = piece_type(b->squares[from]), answer = 1;
    int balance; /* what the side that would capture next must win back, for the answer to turn */
    uint64_t occ = b->occupied[WHITE] | b->occupied[BLACK], att, queens, diagonal, straight;
    if (move_kind(m) == KIND_CASTLE)
        return threshold <= 0;
    balance = (move_kind(m) == KIND_EN_PASSANT ? VALUE_PAWN : eval_piece_value(piece_type(b->squares[to]))) - threshold;
    if (move_kind(m) == KIND_PROMOTION) {
        balance += eval_piece_value(move_promo(m)) - VALUE_PAWN;
        attacker = move_promo(m);
    }
    if (balance < 0)
        return 0; /* not even if the other side lets it be */
    balance = eval_piece_value(attacker) - balance;
    if (balance <= 0)
        return 1; /* even if the piece is lost */
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
        if (type == KING && (attackers_to(b, to, occ & ~((uint64_t)1 << sq)) & b->occupied[!side] & occ))
            break; /* the king may not capture into a defended square */
        answer ^= 1;
        balance = eval_piece_value(type) - balance;
        if (balance < answer)
            break;
        occ &= ~((uint64_t)1 << sq);
        /* only a slider behind the piece that left can join in (an x-ray) */
        if (type == PAWN || type == BISHOP || type == QUEEN)
            att |= slider_attacks(BISHOP, to, occ) & diagonal;
        if (type == ROOK || type == QUEEN)
            att |= slider_attacks(ROOK, to, occ) & straight;
    }
    return answer;
}

/* ================================================================= numbers */

/* Natural logarithm without libm: for the reduction table, and the match's Elo and SPRT. */
double ln(double x)
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

/* Fills the reduction table: the late move reduction of move number m at depth d is
 * P_LMR_BASE / 100 + ln(d) ln(m) / (P_LMR_DIVISOR / 100) plies (the Stockfish shape). */
static void lmr_init(void)
{
    double base = param(P_LMR_BASE) / 100.0, divisor = param(P_LMR_DIVISOR) / 100.0, logs[LMR_TABLE];
    int d, m;
    for (d = 1; d < LMR_TABLE; d++)
        logs[d] = ln(d); /* each logarithm once: a call starts its search that much sooner */
    for (d = 1; d < LMR_TABLE; d++)
        for (m = 1; m < LMR_TABLE; m++)
            reductions[d][m] = (int)(LMR_UNIT * (base + logs[d] * logs[m] / divisor));
}

/* =================================================================== bench */

/* Searches the bench positions to depth in s, each with fresh tables (a table of BENCH_HASH_MB);
 * returns the nodes searched (the bench signature) and sets positions to their number. */
uint64_t bench_run(Search *s, int depth, int *positions)
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
