/* modes/datagen.c: engine datagen (docs/datagen.md): self-play at fixed nodes for training
 * data on every core, refereed by the match's rules, optionally rescored by a UCI engine, kept
 * as game records (modes/gamefile.c) or as `FEN | SCORE | RESULT` lines (the format of
 * ../shared/data/labelled); `datagen --read`, which prints a file of records as such lines; and
 * `datagen --pack` (modes/pack.c), which keeps such lines as records without loss. */
#include "system.h"
#include "common.h"
#include "gamefile.h"
#include "games.h"
#include "pack.h"
#include "process.h"

#include <stdlib.h>
#include <string.h>

#include <signal.h>
#if HAVE_POSIX
#include <time.h>
#include <unistd.h>
#endif
#if HAVE_THREADS
#include <pthread.h>
#endif

/* datagen: its options. Its games are adjudicated as ../shared/datagen adjudicates them. */
enum { DATAGEN_GAMES_MAX = 100000000, DATAGEN_SAMPLE_MAX = 1000, DATAGEN_THREADS_MAX = WORKERS_MAX };
enum { DATAGEN_HOURS_MAX = 24 * 365 };
#define DATAGEN_NODES_MAX 1000000000LL
#define DATAGEN_SEED_MAX 1000000000000000000LL
enum { DATAGEN_PROGRESS_SECONDS = 10 };                              /* a progress line this often */
/* the finished games kept waiting for an earlier one, so that they are written in order */
enum { DATAGEN_WINDOW = 4 * DATAGEN_THREADS_MAX };
/* the rescoring engine answers a position within 5 s plus its nodes at 50 k nodes a second; when
 * it has not, it is asked isready (up to 3 times a position), and its readyok within 5 s starts
 * the wait again */
enum { DATAGEN_RESCORE_WAIT_MS = 5000, DATAGEN_RESCORE_NODES_PER_SECOND = 50000, DATAGEN_RESCORE_ASKS = 3 };
enum { DATAGEN_RANDOM_PLIES = 6, DATAGEN_RANDOM_PLIES_SPAN = 4 };    /* 6 to 9 random plies first */
enum { DATAGEN_MIN_PLY = 8 };                                         /* no position kept before it */
enum { DATAGEN_WIN_SCORE = 1000, DATAGEN_WIN_PLIES = 6 };             /* a win: beyond 1000 cp for 6 plies */
enum { DATAGEN_DRAW_SCORE = 10, DATAGEN_DRAW_PLIES = 16, DATAGEN_DRAW_AFTER = 100 }; /* a draw: within 10 cp for 16 plies after ply 100 */
/* What playing a game came to: its record, none (its random plies ended it), or neither because
 * the run is stopping or the rescoring engine failed. */
enum { PLAYED, DROPPED, ABANDONED, RESCORER_FAILED };
enum { RELEASE, HOLD };              /* run_lock's */
/* mixes the game's number into the seed; sets the sampling generator apart from the game's */
#define DATAGEN_GAME_MIX UINT64_C(0xD1B54A32D192ED03)
#define DATAGEN_SAMPLE_MIX UINT64_C(0x8CB92BA72F3D8DD7)
#define SECONDS_PER_HOUR 3600.0

typedef struct {
    int games;              /* stop after this many game numbers */
    double hours;           /* or after this long (0: no limit) */
    long long nodes;        /* about this many a move: drawn from 0.75 to 1.25 times it */
    uint64_t seed;
    int seeded;             /* 1 once --seed is given */
    const char *out;        /* the file, or NULL for stdout */
    const char *openings;   /* a FEN/EPD file, or NULL for the start position */
    int sample;             /* keep about one quiet position in `sample` (1: every one) */
    const char *rescore;    /* a UCI engine that scores the kept positions instead, or NULL */
    long long rescore_nodes;/* its nodes a position */
    int threads;            /* games played at once */
    const char *read;       /* --read: the file of records to print, or NULL */
    const char *pack;       /* --pack: the lines or records to rewrite as records, or NULL */
    int others;             /* options given besides --pack, --out and --threads */
} DatagenOptions;

/* A finished game waiting for its turn to be written: its record (NULL for one dropped). */
typedef struct {
    int ready;
    GameRecord *record;
} Finished;

/* The run its threads share; its fields after `lock` change under it. */
typedef struct {
    const DatagenOptions *opt;
    const Board *openings;
    int opening_count;
    int binary;             /* 1: game records; 0: text lines */
    FILE *out;
    GameWriter writer;      /* the records' */
    double start, deadline; /* clock_now() times; deadline 0: none */
#if HAVE_THREADS
    pthread_mutex_t lock;
#endif
    int next_game;          /* the next game number to play */
    int next_write;         /* the next game number to write */
    int failed;             /* 1 once a rescoring engine fails */
    int write_failed;
    double shown;           /* clock_now() of the last progress line */
    long games_written;
    long long positions_written;
    Finished window[DATAGEN_WINDOW];
} DatagenRun;

/* A thread's own: its search, its rescorer, and the game at hand. */
typedef struct {
    DatagenRun *run;
    Search *search;
    Child rescorer;
    Game game;
    uint64_t keys[GAME_MAX_PLIES + 1];
    GameRecord record;
#if HAVE_THREADS
    pthread_t thread;
    int started;
#endif
} DatagenWorker;

/* The signal that stops the run (SIGINT, SIGTERM), 0 until one comes. */
static volatile sig_atomic_t datagen_signal;

/* prototypes */
static int datagen_parse_options(int argc, char **argv, DatagenOptions *opt);
static int datagen_option(void *options, const char *key, const char *value);
static int datagen_read(const char *path);
static int names_records(const char *path);
static int run_open(DatagenRun *run, const DatagenOptions *opt, char *tmp, size_t tmp_size);
static int run_close(DatagenRun *run, int status, const char *tmp);
static int workers_start(DatagenRun *run, DatagenWorker *workers, int count, Search *first);
static void workers_stop(DatagenWorker *workers, int count, Search *first);
static void run_games(DatagenRun *run, DatagenWorker *workers, int count);
static void *worker_main(void *arg);
static int run_take(DatagenRun *run, int *number);
static void run_give(DatagenRun *run, int number, const GameRecord *record);
static void run_write_ready(DatagenRun *run, int skip_gaps);
static int run_stopping(const DatagenRun *run);
static void run_lock(DatagenRun *run, int hold);
static void run_progress(DatagenRun *run, int last);
static int game_play_record(DatagenWorker *w, int number);
static int game_rescore(DatagenWorker *w);
static int rescorer_start(Child *c, const char *command);
static int rescore_position(Child *c, const char *fen, long long nodes, int *white);
static void signals_catch(int on);
static void on_signal(int signal_number);
static void pause_briefly(void);
static int processors(void);

/* engine datagen --games N | --hours H, --nodes N --seed S [--threads N] [--openings FILE]
 * [--out FILE] [--sample K] [--rescore COMMAND --rescore-nodes N]: plays the games on the
 * threads and writes them in the order of their numbers to stdout, or to FILE.tmp renamed FILE
 * at the end (also when stopped by SIGINT or SIGTERM: the games finished are kept); a progress
 * line on stderr every few seconds. Or engine datagen --read FILE, or engine datagen --pack
 * FILE --out FILE.games [--threads N]. Returns 0, or an exit status after one error line. */
int run_datagen(Search *s, int argc, char **argv)
{
    DatagenOptions opt;
    DatagenRun run;
    DatagenWorker *workers = NULL;
    Board *openings = NULL;
    char tmp[4096] = "";
    int count = 0, status = datagen_parse_options(argc, argv, &opt);
    if (status == 0 && opt.read)
        return datagen_read(opt.read);
    if (status == 0 && opt.pack)
        return pack_run(opt.pack, opt.out, opt.threads);
    if (status == 0 && opt.openings)
        status = openings_load(opt.openings, 0, &openings, &count);
    memset(&run, 0, sizeof run);
    run.openings = openings;
    run.opening_count = count;
    if (status == 0)
        status = run_open(&run, &opt, tmp, sizeof tmp);
    if (status == 0 && !(workers = calloc((size_t)opt.threads, sizeof *workers))) {
        fprintf(stderr, "error: datagen: out of memory for %d threads\n", opt.threads);
        status = EXIT_FAILURE;
    }
    if (status == 0 && (status = workers_start(&run, workers, opt.threads, s)) == 0) {
        signals_catch(1);
        run_games(&run, workers, opt.threads);
        signals_catch(0);
        if (run.failed)
            status = EXIT_FAILURE;
    }
    if (workers)
        workers_stop(workers, opt.threads, s);
    if (run.out)
        status = run_close(&run, status, tmp);
    free(workers);
    free(openings);
    return status;
}

/* Reads datagen's options into opt; returns 0, or EXIT_USAGE after one error line. */
static int datagen_parse_options(int argc, char **argv, DatagenOptions *opt)
{
    int status, playing;
    memset(opt, 0, sizeof *opt);
    opt->sample = 1;
    opt->threads = processors();
    status = parse_options(argc, argv, "datagen", NULL, datagen_option, opt);
    playing = (opt->games || opt->hours > 0) && opt->nodes && opt->seeded && (opt->rescore != NULL) == (opt->rescore_nodes > 0);
    if (status == 0 && (opt->read ? argc != 4 : opt->pack ? opt->others || !opt->out || !names_records(opt->out) : !playing)) {
        fprintf(stderr, "error: usage: engine datagen --games N | --hours H, --nodes N --seed S [--threads N] "
                        "[--openings FILE] [--out FILE] [--sample K] [--rescore COMMAND --rescore-nodes N]; "
                        "engine datagen --read FILE.games; engine datagen --pack FILE --out FILE.games [--threads N]\n");
        status = EXIT_USAGE;
    }
    if (!opt->games)
        opt->games = DATAGEN_GAMES_MAX;
    if (!HAVE_THREADS)
        opt->threads = 1;
    return status;
}

/* Takes one of datagen's options into options (a DatagenOptions); returns 1, or 0 for an
 * unknown key or a bad value. */
static int datagen_option(void *options, const char *key, const char *value)
{
    DatagenOptions *opt = options;
    const struct { const char *key; int *to; int most; } counts[] = {
        { "--games", &opt->games, DATAGEN_GAMES_MAX }, { "--sample", &opt->sample, DATAGEN_SAMPLE_MAX },
        { "--threads", &opt->threads, DATAGEN_THREADS_MAX },
    };
    const struct { const char *key; const char **to; } texts[] = {
        { "--out", &opt->out }, { "--openings", &opt->openings }, { "--rescore", &opt->rescore }, { "--read", &opt->read },
        { "--pack", &opt->pack },
    };
    long long n = 0;
    const char *end;
    size_t i;
    opt->others += strcmp(key, "--pack") != 0 && strcmp(key, "--out") != 0 && strcmp(key, "--threads") != 0;
    for (i = 0; i < sizeof counts / sizeof counts[0]; i++)
        if (strcmp(key, counts[i].key) == 0) {
            if (!parse_integer(value, 1, counts[i].most, &n))
                return 0;
            *counts[i].to = (int)n;
            return 1;
        }
    for (i = 0; i < sizeof texts / sizeof texts[0]; i++)
        if (strcmp(key, texts[i].key) == 0) {
            *texts[i].to = value;
            return 1;
        }
    if (strcmp(key, "--hours") == 0)
        return parse_real(value, &end, &opt->hours) && *end == '\0' && opt->hours > 0 && opt->hours <= DATAGEN_HOURS_MAX;
    if (strcmp(key, "--nodes") == 0)
        return parse_integer(value, 1, DATAGEN_NODES_MAX, &opt->nodes);
    if (strcmp(key, "--rescore-nodes") == 0)
        return parse_integer(value, 1, DATAGEN_NODES_MAX, &opt->rescore_nodes);
    if (strcmp(key, "--seed") == 0 && parse_integer(value, 0, DATAGEN_SEED_MAX, &n)) {
        opt->seed = (uint64_t)n;
        opt->seeded = 1;
        return 1;
    }
    return 0;
}

/* engine datagen --read FILE: prints each training position of FILE's records as a line, a game
 * only once the whole of it has been read and checked. Returns 0, or 1 after one error line at
 * the first damaged game (the games before it printed). */
static int datagen_read(const char *path)
{
    static GameRecord record;
    GameReader reader;
    char err[600];
    int got = -1;
    FILE *f = fopen(path, "rb");
    if (!f) {
        print_line(stderr, "error: datagen: cannot read %s", path);
        return EXIT_FAILURE;
    }
    if (gamefile_open(&reader, f, path, err, sizeof err))
        while ((got = gamefile_next(&reader, &record, err, sizeof err)) == 1)
            gamefile_print(&record, stdout);
    gamefile_close(&reader);
    fclose(f);
    if (got != 0)
        print_line(stderr, "error: datagen: %s", err);
    if (got == 0 && (fflush(stdout) != 0 || ferror(stdout))) {
        fprintf(stderr, "error: datagen: cannot write stdout\n");
        got = -1;
    }
    return got == 0 ? 0 : EXIT_FAILURE;
}

/* Returns 1 if path ends in ".games", the name of a file of records --pack writes. */
static int names_records(const char *path)
{
    size_t n = strlen(path);
    return n > 6 && strcmp(path + n - 6, ".games") == 0;
}

/* Opens the run's output (FILE.tmp for --out FILE, with the records' header), its clock and
 * its lock; returns 0, or an exit status after one error line. */
static int run_open(DatagenRun *run, const DatagenOptions *opt, char *tmp, size_t tmp_size)
{
    char description[GAMEFILE_DESCRIPTION_MAX + 1];
#if HAVE_THREADS
    pthread_mutex_init(&run->lock, NULL);
#endif
    run->opt = opt;
    run->binary = opt->out && gamefile_named(opt->out);
    run->start = run->shown = clock_now();
    run->deadline = opt->hours > 0 ? run->start + opt->hours * SECONDS_PER_HOUR : 0;
    run->out = stdout;
    if (opt->out) {
        snprintf(tmp, tmp_size, "%s.tmp", opt->out);
        if (!(run->out = fopen(tmp, run->binary ? "wb" : "w"))) {
            print_line(stderr, "error: cannot write %s", tmp);
            return EXIT_USAGE;
        }
    }
    snprintf(description, sizeof description, "%s %s datagen: nodes %lld seed %llu openings %.300s sample %d rescore %.300s %lld",
             ENGINE_NAME, ENGINE_VERSION, opt->nodes, (unsigned long long)opt->seed, opt->openings ? opt->openings : "start",
             opt->sample, opt->rescore ? opt->rescore : "none", opt->rescore_nodes);
    if (run->binary && !gamefile_create(&run->writer, run->out, opt->rescore ? GAMEFILE_RESCORED : 0, description)) {
        print_line(stderr, "error: cannot write %s", tmp);
        return EXIT_FAILURE;
    }
    return 0;
}

/* Ends the records (run_games wrote the last games), closes the output and names it FILE (not
 * made when the run failed before a game was finished); returns the run's exit status, status
 * unless writing failed. */
static int run_close(DatagenRun *run, int status, const char *tmp)
{
    const char *name = run->opt->out ? tmp : "stdout";
    if (run->binary)
        run->write_failed |= !gamefile_finish(&run->writer);
    if (fflush(run->out) != 0 || ferror(run->out) || run->write_failed) {
        fprintf(stderr, "error: cannot write %s\n", name);
        status = EXIT_FAILURE;
    }
    if (run->opt->out) {
        if (fclose(run->out) != 0 && status == 0) {
            fprintf(stderr, "error: cannot write %s\n", name);
            status = EXIT_FAILURE;
        }
        if (status != 0 && run->games_written == 0)
            remove(tmp);
        else if (rename(tmp, run->opt->out) != 0) {
            fprintf(stderr, "error: cannot rename %s to %s\n", tmp, run->opt->out);
            status = EXIT_FAILURE;
        }
    }
#if HAVE_THREADS
    pthread_mutex_destroy(&run->lock);
#endif
    return status;
}

/* Gives each worker its search (the first s, the others new ones) and its rescoring engine,
 * started here, one after the other, before any thread runs; returns 0, or an exit status after
 * one error line. */
static int workers_start(DatagenRun *run, DatagenWorker *workers, int count, Search *first)
{
    int i;
    for (i = 0; i < count; i++) {
        workers[i].run = run;
        workers[i].search = i == 0 ? first : search_new();
        if (!workers[i].search) {
            fprintf(stderr, "error: datagen: out of memory for %d searches\n", count);
            return EXIT_FAILURE;
        }
        if (run->opt->rescore && !rescorer_start(&workers[i].rescorer, run->opt->rescore))
            return EXIT_FAILURE;
    }
    return 0;
}

/* Ends the workers' rescoring engines and frees their searches (not the first, the caller's). */
static void workers_stop(DatagenWorker *workers, int count, Search *first)
{
    char how[100];
    int i;
    for (i = 0; i < count; i++) {
        child_stop(&workers[i].rescorer, how, sizeof how);
        if (workers[i].search != first)
            search_free(workers[i].search);
    }
}

/* Plays the run's games on the workers' threads, this one the first's; once all are done,
 * writes the finished games not yet written (those after one left unfinished) and says how
 * the run ended. */
static void run_games(DatagenRun *run, DatagenWorker *workers, int count)
{
#if HAVE_THREADS
    int i;
    for (i = 1; i < count; i++)
        workers[i].started = pthread_create(&workers[i].thread, NULL, worker_main, &workers[i]) == 0;
#endif
    (void)count;
    worker_main(&workers[0]);
#if HAVE_THREADS
    for (i = 1; i < count; i++)
        if (workers[i].started)
            pthread_join(workers[i].thread, NULL);
#endif
    run_write_ready(run, 1);
    run_progress(run, 1);
    if (run->failed)
        fprintf(stderr, "error: datagen: the rescoring engine stopped answering\n");
    else if (datagen_signal)
        fprintf(stderr, "datagen: stopped by signal %d; the %ld games finished are kept\n", (int)datagen_signal,
                run->games_written);
}

/* A worker's thread: plays the games it takes until none is left, handing each to the run. */
static void *worker_main(void *arg)
{
    DatagenWorker *w = arg;
    int number = 0, played = PLAYED;
    while (played != ABANDONED && played != RESCORER_FAILED && run_take(w->run, &number)) {
        played = game_play_record(w, number);
        if (played == PLAYED || played == DROPPED)
            run_give(w->run, number, played == PLAYED ? &w->record : NULL);
        if (played == RESCORER_FAILED) {
            run_lock(w->run, HOLD);
            w->run->failed = 1;
            run_lock(w->run, RELEASE);
        }
    }
    return NULL;
}

/* Gives the next game's number to play in *number; returns 0 when the run is over (every game
 * given, the hours up, a signal or a failure). Waits while the games finished ahead of the
 * next to be written fill the window. */
static int run_take(DatagenRun *run, int *number)
{
    int taken = -1;
    while (taken < 0) {
        run_lock(run, HOLD);
        if (run_stopping(run) || run->next_game >= run->opt->games || (run->deadline > 0 && clock_now() >= run->deadline))
            taken = 0;
        else if (run->next_game < run->next_write + DATAGEN_WINDOW)
            taken = 1;
        if (taken == 1)
            *number = run->next_game++;
        run_lock(run, RELEASE);
        if (taken < 0)
            pause_briefly();
    }
    return taken;
}

/* Takes a copy of game `number`'s record (NULL: the game was dropped), writes every game now
 * ready in order, and shows the progress when it is due. */
static void run_give(DatagenRun *run, int number, const GameRecord *record)
{
    Finished *f = &run->window[number % DATAGEN_WINDOW];
    GameRecord *copy = record ? malloc(sizeof *copy) : NULL;
    if (copy)
        *copy = *record;
    run_lock(run, HOLD);
    run->write_failed |= record && !copy;
    f->ready = 1;
    f->record = copy;
    run_write_ready(run, 0);
    if (clock_now() - run->shown >= DATAGEN_PROGRESS_SECONDS)
        run_progress(run, 0);
    run_lock(run, RELEASE);
}

/* Writes the finished games from the next to be written on, while they are ready; with
 * skip_gaps (once every worker is done), past those that were not finished too. */
static void run_write_ready(DatagenRun *run, int skip_gaps)
{
    while (run->next_write < run->next_game) {
        Finished *f = &run->window[run->next_write % DATAGEN_WINDOW];
        const GameRecord *g = f->record;
        int i;
        if (!f->ready && !skip_gaps)
            break;
        if (g && run->binary)
            run->write_failed |= !gamefile_write(&run->writer, g);
        else if (g)
            gamefile_print(g, run->out);
        for (i = 0; g && i < g->ply_count; i++)
            run->positions_written += g->training[i];
        run->games_written += g != NULL;
        free(f->record);
        memset(f, 0, sizeof *f);
        run->next_write++;
    }
}

/* Returns 1 once the games at hand are to be left: a signal came or a rescoring engine failed. */
static int run_stopping(const DatagenRun *run)
{
    return datagen_signal != 0 || run->failed;
}

/* Takes the run's lock (HOLD) or lets it go (RELEASE); a build without threads has none. */
static void run_lock(DatagenRun *run, int hold)
{
#if HAVE_THREADS
    if (hold == HOLD)
        pthread_mutex_lock(&run->lock);
    else
        pthread_mutex_unlock(&run->lock);
#else
    (void)run;
    (void)hold;
#endif
}

/* Prints a progress line on stderr: games done (of how many), training positions written, their
 * rate and the time left (the hours', or the games' at the rate so far); `last` after the run. */
static void run_progress(DatagenRun *run, int last)
{
    double now = clock_now(), elapsed = now - run->start, left = -1;
    long done = run->next_write; /* numbers done, kept or dropped */
    char of[32] = "", remaining[48] = "";
    if (run->opt->games < DATAGEN_GAMES_MAX) {
        snprintf(of, sizeof of, "/%d", run->opt->games);
        if (done > 0)
            left = elapsed * (double)(run->opt->games - done) / (double)done;
    }
    if (run->deadline > 0 && (left < 0 || run->deadline - now < left))
        left = run->deadline - now > 0 ? run->deadline - now : 0;
    if (!last && left >= 0)
        snprintf(remaining, sizeof remaining, ", %d:%02d:%02d left", (int)(left / 3600), (int)(left / 60) % 60, (int)left % 60);
    fprintf(stderr, "datagen: %ld%s games, %lld positions, %.0f positions an hour, %.1f s%s\n", run->games_written, of,
            run->positions_written, elapsed > 0 ? (double)run->positions_written * SECONDS_PER_HOUR / elapsed : 0.0,
            elapsed, remaining);
    run->shown = now;
}

/* Plays game `number` of the run into the worker's record: returns PLAYED, DROPPED when its
 * random plies end it, ABANDONED when the run stops first, RESCORER_FAILED. The game's generator,
 * seeded by the seed and number, picks the opening (the start position without a file), 6 to 9
 * random plies and each move's nodes; then our search plays both sides, its table kept for the
 * game, as in a UCI game. A position is marked for training when quiet: not in check, the move
 * chosen neither a capture nor a promotion, its score not a mate, at ply 8 or later; with a
 * sample of K, one such position in about K, drawn by a generator of its own so that the games
 * stay the same. Adjudicated as ../shared/datagen: a win once |score| stays beyond 1000 cp for
 * 6 plies, a draw after ply 100 once it stays within 10 cp for 16 (the last ply recorded is then
 * the move chosen, not played). */
static int game_play_record(DatagenWorker *w, int number)
{
    const DatagenOptions *opt = w->run->opt;
    GameRecord *g = &w->record;
    uint64_t mix = opt->seed ^ ((uint64_t)number * DATAGEN_GAME_MIX);
    uint64_t state = random_seed(mix), sample_state = random_seed(mix ^ DATAGEN_SAMPLE_MIX);
    Board board;
    int random_plies, win_streak = 0, draw_streak = 0, i;
    if (w->run->opening_count)
        board = w->run->openings[random_next(&state) % (uint64_t)w->run->opening_count];
    else
        board_start(&board);
    random_plies = DATAGEN_RANDOM_PLIES + (int)(random_next(&state) % DATAGEN_RANDOM_PLIES_SPAN);
    g->start = board;
    board_to_fen(&board, g->start_fen);
    g->ply_count = 0;
    game_begin(&w->game, &board, w->keys);
    for (i = 0; i < random_plies; i++) {
        if (game_referee(&w->game, &board, w->keys))
            return DROPPED;
        g->moves[g->ply_count] = random_move(&board, &state);
        g->scores[g->ply_count] = 0;
        g->training[g->ply_count] = 0;
        game_play(&w->game, &board, w->keys, g->moves[g->ply_count++]);
    }
    while (!game_referee(&w->game, &board, w->keys)) {
        Limits limits;
        int score, white, n = g->ply_count;
        if (run_stopping(w->run))
            return ABANDONED;
        memset(&limits, 0, sizeof limits);
        limits.start = clock_now();
        limits.node_limit = (uint64_t)(opt->nodes * 3 / 4) + random_next(&state) % (uint64_t)(opt->nodes / 2 + 1);
        if (limits.node_limit == 0)
            limits.node_limit = 1;
        g->moves[n] = game_search_move(w->search, &board, w->keys, w->game.ply_count + 1, &limits,
                                       w->game.ply_count == random_plies);
        score = search_best_score(w->search);
        white = board.side == WHITE ? score : -score;
        g->scores[n] = (int16_t)white;
        g->training[n] = search_completed_depth(w->search) > 0 && !board_in_check(&board)
                         && move_is_quiet(&board, g->moves[n]) && !score_is_mate(score) && n >= DATAGEN_MIN_PLY
                         && (opt->sample == 1 || random_next(&sample_state) % (uint64_t)opt->sample == 0);
        g->ply_count++;
        win_streak = abs(score) > DATAGEN_WIN_SCORE ? win_streak + 1 : 0;
        draw_streak = abs(score) <= DATAGEN_DRAW_SCORE ? draw_streak + 1 : 0;
        if (win_streak >= DATAGEN_WIN_PLIES) {
            game_end(&w->game, white > 0 ? "1-0" : "0-1", "adjudication", "win");
            break;
        }
        if (n >= DATAGEN_DRAW_AFTER && draw_streak >= DATAGEN_DRAW_PLIES) {
            game_end(&w->game, "1/2-1/2", "adjudication", "draw");
            break;
        }
        game_play(&w->game, &board, w->keys, g->moves[n]);
    }
    g->training[g->ply_count] = 0; /* the position after the last move is none */
    g->result = strcmp(w->game.result, "1-0") == 0 ? GAME_WHITE_WON : strcmp(w->game.result, "0-1") == 0 ? GAME_BLACK_WON
              : GAME_DRAWN;
    return opt->rescore ? game_rescore(w) : PLAYED;
}

/* Has the worker's rescoring engine score each training position of its record (from a new
 * game, so that its scores depend on this game alone): its score replaces ours, and a position it
 * scores as a mate is no longer one for training. Returns PLAYED, ABANDONED or RESCORER_FAILED. */
static int game_rescore(DatagenWorker *w)
{
    GameRecord *g = &w->record;
    Board b = g->start;
    int i, asked = 0;
    for (i = 0; i < g->ply_count; i++) {
        Undo u;
        if (g->training[i]) {
            char fen[FEN_MAX];
            int white, scored;
            if (run_stopping(w->run))
                return ABANDONED;
            if (!asked++)
                child_send(&w->rescorer, "ucinewgame");
            board_to_fen(&b, fen);
            scored = rescore_position(&w->rescorer, fen, w->run->opt->rescore_nodes, &white);
            if (scored < 0)
                return RESCORER_FAILED;
            g->training[i] = (uint8_t)scored;
            if (scored)
                g->scores[i] = (int16_t)(white > INT16_MAX ? INT16_MAX : white < -INT16_MAX ? -INT16_MAX : white);
        }
        board_make(&b, g->moves[i], &u);
    }
    return PLAYED;
}

/* Starts the rescoring engine and waits for its uciok and readyok; returns 1, or 0 after an
 * error line (with the start of what it wrote on stderr, once it is stopped). */
static int rescorer_start(Child *c, const char *command)
{
    char line[CHILD_LINE], err[200], errors[CHILD_STDERR_KEPT + 64];
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
    if (r == 1)
        return 1;
    child_stop(c, err, sizeof err);
    child_stderr_text(c, errors, sizeof errors);
    print_line(stderr, "error: datagen: '%.120s' does not speak UCI (no uciok and readyok); %s%.200s", command,
               errors[0] ? "on stderr: " : "nothing on stderr", errors);
    return 0;
}

/* Asks the rescoring engine for its score of the position fen at `nodes` nodes, into white
 * (centipawns, white's view); returns 1, 0 for a mate score, or -1 when it does not answer. An
 * engine silent for the whole wait is asked isready: a live one answers at once and gets
 * another wait (this process may have been stopped meanwhile, as by Ctrl-Z, for longer than
 * the wait), a stuck one does not. */
static int rescore_position(Child *c, const char *fen, long long nodes, int *white)
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

/* Catches SIGINT and SIGTERM (on), each once: the first stops the run cleanly, a second ends the
 * process as it would have; or lets them go (off). */
static void signals_catch(int on)
{
#if HAVE_POSIX
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on ? on_signal : SIG_DFL;
    action.sa_flags = on ? SA_RESETHAND : 0;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
#else
    signal(SIGINT, on ? on_signal : SIG_DFL); /* C99's signal: the handler may be reset once it runs */
    signal(SIGTERM, on ? on_signal : SIG_DFL);
#endif
}

static void on_signal(int signal_number)
{
    datagen_signal = signal_number;
}

/* Waits a millisecond (a worker ahead of the window). */
static void pause_briefly(void)
{
#if HAVE_POSIX
    struct timespec pause = { 0, 1000000 };
    nanosleep(&pause, NULL);
#endif
}

/* Returns the processors online (1 where the system cannot tell, or a build has no threads). */
static int processors(void)
{
#if HAVE_THREADS && defined(_SC_NPROCESSORS_ONLN)
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > DATAGEN_THREADS_MAX ? DATAGEN_THREADS_MAX : (int)n;
#else
    return 1;
#endif
}
