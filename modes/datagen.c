/* modes/datagen.c: engine datagen (docs/datagen.md): self-play at fixed nodes for training
 * data, one `FEN | SCORE | RESULT` line per quiet position (the format of
 * ../shared/data/labelled, which ../shared/datagen makes with Stockfish), refereed by the
 * match's rules, optionally rescored by a UCI engine. */
#include "common.h"
#include "games.h"
#include "process.h"

#include <stdlib.h>
#include <string.h>

/* datagen: its options. Its games are adjudicated as ../shared/datagen adjudicates them. */
enum { DATAGEN_GAMES_MAX = 100000000, DATAGEN_PROGRESS_GAMES = 100, DATAGEN_SAMPLE_MAX = 1000 };
/* the rescoring engine answers a position within 5 s plus its nodes at 50 k nodes a second; when
 * it has not, it is asked isready (up to 3 times a position), and its readyok within 5 s starts
 * the wait again */
enum { DATAGEN_RESCORE_WAIT_MS = 5000, DATAGEN_RESCORE_NODES_PER_SECOND = 50000, DATAGEN_RESCORE_ASKS = 3 };
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
int run_datagen(Search *s, int argc, char **argv)
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
    uint64_t mix = opt->seed ^ ((uint64_t)number * DATAGEN_GAME_MIX);
    uint64_t state = random_seed(mix), sample_state = random_seed(mix ^ DATAGEN_SAMPLE_MIX);
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
        m = game_search_move(s, &board, keys, game.ply_count + 1, &limits, game.ply_count == random_plies);
        score = search_best_score(s);
        depth = search_completed_depth(s);
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
    char line[CHILD_LINE], err[200];
    double deadline = clock_now() + CHILD_HANDSHAKE_MS / 1000.0;
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
 * (centipawns, white's view); returns 1, 0 for a mate score, or -1 when it does not answer. An
 * engine silent for the whole wait is asked isready: a live one answers at once and gets
 * another wait (this process may have been stopped meanwhile, as by Ctrl-Z, for longer than
 * the wait), a stuck one does not. */
static int datagen_rescore(Child *c, const char *fen, long long nodes, int *white)
{
    char line[CHILD_LINE];
    double wait = DATAGEN_RESCORE_WAIT_MS / 1000.0 + (double)nodes / DATAGEN_RESCORE_NODES_PER_SECOND;
    double deadline = clock_now() + wait;
    int score = 0, found = 0, asked = 0, awaiting_ready = 0, r;
    snprintf(line, sizeof line, "position fen %.*s", FEN_MAX, fen);
    child_send(c, line);
    snprintf(line, sizeof line, "go nodes %lld", nodes);
    child_send(c, line);
    for (;;) {
        const char *at;
        r = child_read_line(c, line, sizeof line, deadline);
        if (r == 0 && !awaiting_ready && asked < DATAGEN_RESCORE_ASKS) {
            child_send(c, "isready");
            asked++;
            awaiting_ready = 1;
            deadline = clock_now() + DATAGEN_RESCORE_WAIT_MS / 1000.0;
            continue;
        }
        if (r != 1 || strncmp(line, "bestmove", 8) == 0)
            break;
        if (strcmp(line, "readyok") == 0) {
            awaiting_ready = 0;
            deadline = clock_now() + wait;
        }
        at = strncmp(line, "info ", 5) == 0 ? strstr(line, " score ") : NULL;
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
