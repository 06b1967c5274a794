/* web/wasm.c: the WebAssembly entry points (web/README.md): the course's choose_move, the rules
 * for web/index.html and the bench, and in the page's own build (ENGINE_WASM_PAGE) the engine's
 * thinking with its score and principal variation. JavaScript writes NUL-terminated strings
 * into web_input() and reads JSON from the result. Built only by `make web`, with the engine
 * and the front ends' shared helpers (modes/common.c). */
#include "../modes/common.h"

#include <stdarg.h>
#include <string.h>

/* The course's module has no imports (web/README.md): without a clock it budgets by nodes.
 * Nodes per second: under a third of the ~0.5 M measured in Node and Chromium with the network
 * (tests/web/calibrate.js). */
enum { WASM_NODES_PER_SECOND = 150000 };

enum { WEB_BUFFER = 32768 };
static char web_in[WEB_BUFFER];  /* arguments, written by JavaScript */
static char web_out[WEB_BUFFER]; /* results, as JSON or text */
static size_t web_used;          /* bytes of web_out in use, always below WEB_BUFFER */

static void web_append(const char *format, ...);

static const char *web_error(const char *reason);
static const char *web_status(Board *b);
static const char *web_describe(Board *b, const char *san, const char *coords);
static Search *web_search(int page);

char *web_input(void);
const char *web_state(const char *fen);
const char *web_play(const char *fen, const char *move);
const char *web_bench(int depth);
int choose_move(char *fen, char *moves, int timeout);

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

/* The module has no main: each entry point starts with engine_init (which does nothing but the
 * first time; here for those that search), and the search contexts are made by the first call
 * that needs one: choose_move's (page 0), and web_think's (page 1), whose table stays from move
 * to move; NULL when memory is short. */
static Search *web_search(int page)
{
    static Search *searches[2];
    if (!searches[page] && engine_init())
        searches[page] = search_new();
    return searches[page];
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
    if (!engine_init())
        return web_error("out of memory");
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
    if (!engine_init())
        return web_error("out of memory");
    if (!board_from_fen(&b, fen, err, sizeof err))
        return web_error(err);
    if (move_from_text(&b, move, &m) != PARSE_OK)
        return web_error("not a legal move in this position");
    move_to_san(&b, m, san);
    move_to_uci(m, coords);
    board_make(&b, m, &u);
    return web_describe(&b, san, coords);
}

/* Runs the bench at depth (0: BENCH_DEPTH) and returns its last line, `N nodes N nps`, as
 * `engine bench` prints it (nps 0 in the course's module, which has no clock). */
const char *web_bench(int depth)
{
    Search *s; /* its own, so that web_think's table stays as it is */
    char signature[BENCH_LINE];
    int positions;
    uint64_t nodes;
    double start;
    if (!engine_init() || (s = search_new()) == NULL)
        return web_error("out of memory");
    start = clock_now();
    nodes = bench_run(s, depth > 0 && depth <= MAX_DEPTH ? depth : BENCH_DEPTH, &positions);
    bench_signature(signature, sizeof signature, nodes, clock_now() - start);
    search_free(s);
    web_used = 0;
    web_append("%s\n", signature);
    return web_out;
}

/* The course's WebAssembly entry point: the index of the chosen move, or -1 on bad input. */
int choose_move(char *fen, char *moves, int timeout)
{
    Search *s;
    Limits limits;
    char err[200], warning[WARNING_MAX + 100];
    int index = -1;
    s = web_search(0);
    memset(&limits, 0, sizeof limits);
    limits.start = clock_now();
    if (timeout <= 0 || !s)
        return -1;
    limits.node_limit = (uint64_t)(WASM_NODES_PER_SECOND * move_budget(timeout, 0));
    if (decide(s, fen, moves, (double)timeout, &limits, &index, err, sizeof err, warning, sizeof warning) != 0)
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
    int score = s ? search_best_score(s) : 0, played = 0, found = 0, i;
    move_to_san(&b, best, san);
    move_to_uci(best, coords);
    for (i = 0; i < web_line_count && !played; i++)
        if (web_lines[i].move == best)
            played = i + 1;
    /* the search's own line for the move (newer when a move proved better late), else the
     * iteration's, else the move alone */
    for (i = 0; s && i < search_line_count(s) && !found; i++)
        if (search_line_move(s, i) == best) {
            search_pv(s, i, PV_SAN, pv, sizeof pv);
            found = 1;
        }
    if (!found)
        snprintf(pv, sizeof pv, "%s", played ? web_lines[played - 1].pv : san);
    web_used = 0;
    web_append("{\"move\":\"%s\",\"san\":\"%s\",\"score\":%d,\"mate\":%d,\"depth\":%d,\"nodes\":%llu,"
              "\"ms\":%.0f,\"pv\":\"%s\",\"line\":%d,\"lines\":[", coords, san, score, score_mate_moves(score),
              s ? search_completed_depth(s) : 0, (unsigned long long)(s ? search_nodes(s) : 0), seconds * 1000, pv, played);
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
    static uint64_t keys[KEY_HISTORY_MAX];
    Search *s;
    Board b;
    MoveList list;
    Limits limits;
    char err[200];
    int key_count, bad;
    double start = clock_now(), budget;
    if ((s = web_search(1)) == NULL)
        return web_error("out of memory");
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
    if (search_table_megabytes(s) != WEB_TT_MB)
        search_set_table(s, WEB_TT_MB);
    budget = move_budget(seconds, 0);
    memset(&limits, 0, sizeof limits);
    limits.start = start;
    limits.hard_deadline = start + budget;
    limits.soft_deadline = start + budget;
    limits.multipv = lines;
    limits.level = level;
    limits.level_set = 1;
    limits.report = web_report;
    search_run(s, &b, keys, key_count, list.moves, list.count, &limits);
    return web_answer(s, search_best_move(s), &b, lines, clock_now() - start);
}

/* The search's report in the page's build: each line to the page (env.web_progress), and each
 * line of a finished iteration kept in web_lines for the answer. */
static void web_report(const Search *s, int depth, int score, int bound)
{
    char line[REPORT_LINE];
    int k = search_report_line(s);
    report_text(s, depth, score, bound, line, sizeof line);
    web_progress(line);
    if (bound == BOUND_EXACT && k < WEB_LINES_MAX) {
        web_lines[k].move = search_line_move(s, k);
        web_lines[k].score = score;
        search_pv(s, k, PV_SAN, web_lines[k].pv, sizeof web_lines[k].pv);
        web_line_count = k + 1;
    }
}
#endif
