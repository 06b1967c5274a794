/* modes/match.c: engine match (docs/match.md): our search against a UCI engine run as a child
 * process (or the built-in random mover), refereed by our rules, with a running score on
 * stderr and a PGN; several games at once in worker processes, and an SPRT that stops the
 * match at its verdict. */
#include "system.h"
#include "common.h"
#include "games.h"
#include "process.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* engine match: our search against a UCI engine run as a child process (or the built-in
 * random mover), refereed by our rules, with a running score on stderr and a PGN; several
 * games at once in worker processes, and an SPRT that stops the match at its verdict. */

/* match: its options, the opponent, a worker's report of one game, and the tally of the games
 * so far. */
enum { MATCH_GAMES_MAX = 100000 };
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
/* --sprt's hypotheses are at most this many Elo either way */
static const double MATCH_ELO_MAX = 1e6;
/* the two-sided 95% quantile of the normal distribution */
static const double MATCH_Z95 = 1.959964;
/* the score of a game for us by match_outcome (win, draw, loss), and of a pair by half points */
static const double GAME_SCORES[3] = { 1, 0.5, 0 };
static const double PAIR_SCORES[PAIR_OUTCOMES] = { 0, 0.25, 0.5, 0.75, 1 };
enum { MATCH_SLACK_MS = 250 };
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

typedef struct {
    Child child;            /* its process (pid 0 for the random mover) */
    char name[64];          /* its `id name`, else the command */
    int moved;              /* 1 once it has played a legal move in a game of this process */
} MatchOpponent;

/* the room for the error line of an opponent that fails before its first move (print_line's
 * line holds 511 bytes) */
enum { MATCH_ERROR_MAX = 500 };

typedef struct {
    int number;             /* the game's number from 0; -1 for an empty slot of the window */
    int status;             /* 0, or 1 if the game could not be played (error, the line to print) */
    char opponent[64];      /* its name */
    char error[MATCH_ERROR_MAX]; /* with status 1, the error line (without "error: "), or "" */
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
static double math_exp(double x);
static double math_sqrt(double x);
static void match_summary(const MatchOptions *opt, const MatchTally *t);
static int match_run_serial(Search *s, const MatchOptions *opt, const Board *openings, int count, MatchTally *t);
static int match_run_workers(Search *s, const MatchOptions *opt, const Board *openings, int count, MatchTally *t);
static void match_worker_run(Search *s, const MatchOptions *opt, const Board *openings, int count, const Worker *w);
static int match_finish_game(MatchTally *t, const MatchOptions *opt, const Game *g, const char *opponent);
static int match_tally(MatchTally *t, const MatchOptions *opt, const Game *g, const char *opponent);
static void match_print_score(const MatchTally *t, const MatchOptions *opt, const Game *g, const char *opponent);
static int match_parse_options(int argc, char **argv, MatchOptions *opt);
static int match_option(void *options, const char *key, const char *value);
static int match_play_game(Search *s, const MatchOptions *opt, const Board *openings, int count, int number, Game *game,
                           MatchOpponent *o, char *error, size_t error_size);
static void match_opponent_failed(const MatchOpponent *o, const MatchOptions *opt, const Game *g, char *error, size_t error_size);
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
/* engine match --opponent CMD --games N --time S|--nodes N [--concurrency K] [--sprt E0,E1
 * [--alpha A] [--beta B]] [--openings FILE] [--pgn FILE]: plays the games and prints the final
 * score; returns 0, or an exit status after one error line. */
int run_match(Search *s, int argc, char **argv)
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
    char error[MATCH_ERROR_MAX];
    int number, stop = 0;
    opponent.moved = 0;
    for (number = 0; number < opt->games && !stop; number++) {
        if (match_play_game(s, opt, openings, count, number, &game, &opponent, error, sizeof error) != 0) {
            if (error[0])
                print_line(stderr, "error: %s", error);
            return 1;
        }
        stop = match_finish_game(t, opt, &game, opponent.name);
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
    int n = int_min(opt->concurrency, opt->games), next = 0, stop = 0, status = 0, k;
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
                && worker_send(&workers[k], &next, sizeof next))
                playing[k] = next++;
        k = worker_wait(workers, n);
        if (k < 0 || !worker_receive(&workers[k], &report, sizeof report) || report.number != playing[k]) {
            fprintf(stderr, "error: match: a worker process ended unexpectedly\n");
            status = 1;
            break;
        }
        playing[k] = -1;
        if ((status = report.status) != 0) {
            if (report.error[0])
                print_line(stderr, "error: %s", report.error);
            break;
        }
        window[report.number % MATCH_WINDOW] = report;
        while (!stop && window[t->played % MATCH_WINDOW].number == t->played) {
            MatchReport *r = &window[t->played % MATCH_WINDOW];
            r->number = -1;
            stop = match_finish_game(t, opt, &r->game, r->opponent);
        }
    }
    for (k = 0; k < n; k++)
        worker_stop(&workers[k], playing[k] >= 0);
    free(window);
    return status;
}

/* A worker's life: plays each game whose number the parent sends and sends back its report,
 * until the parent closes the pipe; then ends the process. */
static void match_worker_run(Search *s, const MatchOptions *opt, const Board *openings, int count, const Worker *w)
{
    static MatchReport report;
    MatchOpponent opponent;
    int number;
    opponent.moved = 0;
    while (worker_receive(w, &number, sizeof number)) {
        memset(&report, 0, sizeof report);
        report.number = number;
        report.status = match_play_game(s, opt, openings, count, number, &report.game, &opponent, report.error,
                                        sizeof report.error);
        snprintf(report.opponent, sizeof report.opponent, "%s", opponent.name);
        if (!worker_send(w, &report, sizeof report))
            break;
    }
    worker_exit(0);
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
        if (!parse_integer(value, 1, games ? MATCH_GAMES_MAX : WORKERS_MAX, &n))
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
 * moves and the result. Returns 0, or 1 if the game cannot count: the opponent's process cannot
 * be started (after an error line), or it failed before its first legal move in this process
 * (o->moved), with the error line to print in error (else error is ""). */
static int match_play_game(Search *s, const MatchOptions *opt, const Board *openings, int count, int number,
                           Game *game, MatchOpponent *o, char *error, size_t error_size)
{
    static uint64_t keys[GAME_MAX_PLIES + 1];
    uint64_t pair_state = random_seed(MATCH_RANDOM_SEED ^ (uint64_t)(number / 2));
    /* the listed openings in turn; the 960 start positions of --chess960 without a list drawn per pair */
    Board board = openings[opt->chess960 && !opt->openings ? (int)(random_next(&pair_state) % (uint64_t)count)
                                                           : (number / 2) % count];
    uint64_t random_state = random_seed(MATCH_RANDOM_SEED ^ (uint64_t)number);
    char how[100];
    int random = strcmp(opt->opponent, "random") == 0, playing, engine_moves = 0;
    game_begin(game, &board, keys);
    game->engine_white = number % 2 == 0;
    error[0] = '\0';
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
        else if ((playing = match_opponent_move(o, game, &board, opt->seconds, nodes, &m)) != 0)
            o->moved = 1;
        if (playing)
            game_play(game, &board, keys, m);
    }
    if (o->child.pid)
        child_send(&o->child, "quit");
    child_stop(&o->child, how, sizeof how);
    if (playing || random || o->moved)
        return 0;
    match_opponent_failed(o, opt, game, error, error_size);
    return 1;
}

/* The error line of an opponent that failed before its first legal move, in game g which it
 * forfeited (its process stopped): the command, what went wrong (the forfeit's reason) and the
 * start of what it wrote on stderr. A failure then means that it never played: a wrong command,
 * an engine that does not speak UCI or cannot find its files, not a game lost. */
static void match_opponent_failed(const MatchOpponent *o, const MatchOptions *opt, const Game *g, char *error, size_t error_size)
{
    static const char FORFEITS[] = "opponent forfeits: ";
    char errors[CHILD_STDERR_KEPT + 64];
    const char *reason = strncmp(g->reason, FORFEITS, strlen(FORFEITS)) == 0 ? g->reason + strlen(FORFEITS) : g->reason;
    child_stderr_text(&o->child, errors, sizeof errors);
    snprintf(error, error_size, "match: the opponent '%.120s' failed before its first move: %.120s; %s%.180s", opt->opponent,
             reason, errors[0] ? "on stderr: " : "nothing on stderr", errors);
}

/* Starts the opponent and runs the UCI handshake (uci, isready, ucinewgame, isready); returns 1,
 * 0 after forfeiting the game for it, or -1 after an error line if no process can be started. */
static int match_opponent_start(MatchOpponent *o, const MatchOptions *opt, Game *g)
{
    char command[CHILD_LINE], line[CHILD_LINE], err[200];
    double wait = 3 * opt->seconds > CHILD_HANDSHAKE_MS / 1000.0 ? 3 * opt->seconds : CHILD_HANDSHAKE_MS / 1000.0;
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
    char line[CHILD_LINE], fen[FEN_MAX], token[16] = "", answer[8] = "", played[8];
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
    return game_search_move(s, b, keys, key_count, &limits, new_game);
}

/* The nodes of both sides for the move at ply of game `number` (0 without --nodes): --nodes on
 * the first pass over the openings. At fixed nodes an opening played again would replay the
 * same game, so later passes draw each move's nodes from 0.75 to 1.25 times --nodes, seeded
 * by the game pair and the ply: both games of a pair get the same draws. */
static long long match_move_nodes(const MatchOptions *opt, int count, int number, int ply)
{
    uint64_t state = random_seed(MATCH_RANDOM_SEED ^ ((uint64_t)(number / 2) << 16) ^ (uint64_t)ply);
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

/* ================================================================= numbers */

/* e^x and the square root for the match's Elo and SPRT, kept by hand so that the plain build
 * needs no -lm. The third such function, ln, is the engine's (its reduction table needs it). */

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
