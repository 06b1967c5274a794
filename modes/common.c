/* modes/common.c: what the front ends share: words and numbers read from text, one-line
 * messages, the report line of a search, the one-shot decision (the move list read and the
 * index found), the diagnostics (board, perft, eval, bench). */
#include "common.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The legal moves a one-shot move list names (read_move_list), each once, with the index of
 * the token that first names it. */
typedef struct {
    Move moves[MAX_MOVES];
    int first_index[MAX_MOVES];
    int count;              /* legal moves */
    int tokens;             /* tokens in the list, legal or not */
} ListedMoves;

/* prototypes */
static void read_move_list(Board *board, const char *moves, ListedMoves *listed, char *warning, size_t warning_size);
static void warn_token(char *warning, size_t size, const char *token, size_t len, const char *why);

/* Prints one line to out: the formatted text, cut to 511 bytes, each byte that is not
 * printable ASCII (a newline, escape or UTF-8 byte quoted from the input) as '?'. */
void print_line(FILE *out, const char *format, ...)
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
const char *next_token(const char **text, size_t *len)
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
int parse_real(const char *s, const char **end, double *out)
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
int parse_integer(const char *s, long long min, long long max, long long *out)
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
int parse_seconds(const char *s, double *out)
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
int parse_options(int argc, char **argv, const char *mode, const char *const *flags,
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
void report_text(const Search *s, int depth, int score, int bound, char *out, size_t size)
{
    double elapsed = search_elapsed(s);
    char pv[PV_TEXT], value[32], line[24] = "";
    search_pv(s, search_report_line(s), PV_SAN, pv, sizeof pv);
    if (score_is_mate(score))
        snprintf(value, sizeof value, "mate %3d", score_mate_moves(score));
    else
        snprintf(value, sizeof value, "cp %5d", score);
    if (search_multipv(s) > 1)
        snprintf(line, sizeof line, "  line %d", search_report_line(s) + 1);
    snprintf(out, size, "depth %2d%s  score %s  nodes %10llu  time %6lld ms  pv %s%s", depth, line, value,
             (unsigned long long)search_nodes(s), (long long)(elapsed * 1000 + 0.5), pv,
             bound == BOUND_LOWER ? " (lower bound)" : bound == BOUND_UPPER ? " (upper bound)" : "");
}

/* --verbose: each report on one line of stderr. */
void report_verbose(const Search *s, int depth, int score, int bound)
{
    char line[REPORT_LINE];
    report_text(s, depth, score, bound, line, sizeof line);
    fprintf(stderr, "%s\n", line);
}

/* The decision behind the one-shot call, batch lines and choose_move(): reads the position
 * and the move list (read_move_list), then searches in s within seconds from limits->start;
 * returns 0 with the index, or an exit status with the reason in err. */
int decide(Search *s, const char *fen, const char *moves, double seconds, const Limits *limits, int *index, char *err,
           size_t err_size, char *warning, size_t warning_size)
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
ParseResult move_from_token(Board *board, const char *token, size_t len, Move *m)
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
void show_board(const Board *b)
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
void show_perft(Board *b, int depth)
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
void show_eval(const Board *b)
{
    Accumulator acc;
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
int run_bench(Search *s, int depth)
{
    double start = clock_now(), elapsed;
    char signature[BENCH_LINE];
    int positions;
    uint64_t nodes = bench_run(s, depth > 0 ? depth : BENCH_DEPTH, &positions);
    elapsed = clock_now() - start;
    fprintf(stderr, "%d positions, depth %d, %.3f s\n", positions, depth > 0 ? depth : BENCH_DEPTH, elapsed);
    bench_signature(signature, sizeof signature, nodes, elapsed);
    printf("%s\n", signature);
    return 0;
}

/* Writes the bench's last line, `N nodes N nps`: the signature and the speed, in the form
 * OpenBench's client reads (a number before `nodes`, and one before `nps`). */
void bench_signature(char *out, size_t size, uint64_t nodes, double seconds)
{
    snprintf(out, size, "%llu nodes %.0f nps", (unsigned long long)nodes, seconds > 0 ? (double)nodes / seconds : 0.0);
}

/* Gives s the threads asked for (0: one), saying on stderr when fewer could be had. */
void use_threads(Search *s, int threads)
{
    int got = search_threads(s, threads > 0 ? threads : 1);
    if (threads > got)
        fprintf(stderr, "warning: %d threads asked for, %d in use (%s)\n", threads, got,
                engine_has_threads() ? "memory is short" : "this build has no threads");
}

