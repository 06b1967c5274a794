/* modes/cli.c: the program's command line: main, the one-shot call (docs/command-line.md),
 * --batch, the subcommands (perft, eval, d, bench), and the modes main starts (UCI, match,
 * datagen). */
#include "system.h"
#include "common.h"
#include "tablefile.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if HAVE_POSIX
#include <unistd.h>
#endif

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


/* prototypes */
static double time_before_main(double *stall);
static int print_help(const char *mode);
static const char *asks_help(int argc, char **argv);
static int run_command(Search *s, int argc, char **argv, CallOptions *options);
static int read_call_options(int argc, char **argv, CallOptions *o, int *next);
static int run_one_shot(Search *s, const char *fen, const char *moves, double seconds, CallOptions *o);
static int run_batch(Search *s, CallOptions *o);
static int hash_file_attach(TableFile *f, Search *s, const char *path, int verbose);
static void hash_file_detach(TableFile *f, Search *s);
static int batch_read_line(char *line, size_t size);
static int batch_answer(Search *s, char *line, const Limits *options, long number);
static int set_param(const char *assignment);
static int print_params(void);
static int run_perft(int argc, char **argv);
static int board_from_argument(int argc, char **argv, int at, const char *usage, Board *b);
static int run_show(int argc, char **argv, void (*show)(const Board *b));

/* The program: UCI without arguments, else a subcommand or the one-shot call, in one search
 * context made here and freed at the end. */
int main(int argc, char **argv)
{
    CallOptions options;
    Search *s;
    int status;
    memset(&options, 0, sizeof options);
    options.limits.start = clock_now() - time_before_main(&options.limits.stall_before);
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (!engine_init() || (s = search_new()) == NULL) {
        fprintf(stderr, "error: out of memory\n");
        return EXIT_FAILURE;
    }
    status = run_command(s, argc, argv, &options);
    search_free(s);
    return status;
}

/* Runs what the arguments ask for in s: UCI, a subcommand, --batch or the one-shot call;
 * returns the exit status. */
static int run_command(Search *s, int argc, char **argv, CallOptions *options)
{
    int i = 1, status;
    double seconds;
    const char *help;
    if (argc == 1 || (argc == 2 && strcmp(argv[1], "uci") == 0))
        return run_uci(s);
    if ((help = asks_help(argc, argv)) != NULL) {
        if (argc > 3 && (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0)) {
            fprintf(stderr, "error: usage: engine help [MODE]\n");
            return EXIT_USAGE;
        }
        return print_help(help[0] ? help : NULL);
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
        return run_match(s, argc, argv);
    if (strcmp(argv[1], "datagen") == 0)
        return run_datagen(s, argc, argv);
    if (strncmp(argv[1], "genfens", 7) == 0 && (argv[1][7] == ' ' || argv[1][7] == '\0')) {
        if (argc == 2 || (argc == 3 && strcmp(argv[2], "quit") == 0))
            return run_genfens(s, argv[1]);
        fprintf(stderr, "error: usage: engine \"genfens N seed S book FILE|None\" [quit]\n");
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "params") == 0 && argc == 2)
        return print_params();
    if (strcmp(argv[1], "bench") == 0) {
        long long depth = 0;
        if (argc > 3 || (argc == 3 && !parse_integer(argv[2], 1, MAX_DEPTH, &depth))) {
            fprintf(stderr, "error: usage: engine bench [DEPTH from 1 to %d]\n", MAX_DEPTH);
            return EXIT_USAGE;
        }
        return run_bench(s, (int)depth);
    }
    status = read_call_options(argc, argv, options, &i);
    if (status != 0)
        return status;
    if (options->batch) {
        if (argc - i == 0)
            return run_batch(s, options);
        fprintf(stderr, "error: --batch reads stdin and takes no arguments after the options, got %d\n", argc - i);
        return EXIT_USAGE;
    }
    if (argc - i != 3) {
        fprintf(stderr, "error: expected 3 arguments (FEN, moves, seconds) after the options, got %d (see --help)\n", argc - i);
        return EXIT_USAGE;
    }
    if (!parse_seconds(argv[i + 2], &seconds)) {
        print_line(stderr, "error: time '%.40s' is not a positive number of seconds (at most 86400)", argv[i + 2]);
        return EXIT_USAGE;
    }
    return run_one_shot(s, argv[i], argv[i + 1], seconds, options);
}

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

/* The help, one part a mode, each with its usage line: `engine help` and `engine --help`
 * print the overview and every part, `engine help MODE` and `engine MODE --help` the mode's
 * own. Every mode and option here is in docs/command-line.md, and every option there is here
 * (tests/cli.sh checks both ways). */
typedef struct {
    const char *mode;       /* the name `engine help MODE` takes */
    const char *text;
} HelpPart;

static const char HELP_OVERVIEW[] =
    ENGINE_NAME " " ENGINE_VERSION ", a chess engine: one decision per call, UCI, matches, training data.\n"
    "\n"
    "usage: engine [options] \"<FEN>\" \"<moves>\" <seconds>   call: the index of the move it chooses\n"
    "       engine [options] --batch                      batch: a call per stdin line\n"
    "       engine [uci]                                  uci: the UCI protocol, for chess GUIs\n"
    "       engine match --opponent COMMAND|random ...    match: games against a UCI engine\n"
    "       engine datagen --games N|--hours H ...        datagen: training data by self-play\n"
    "       engine \"genfens N seed S book FILE|None\"      genfens: openings for OpenBench\n"
    "       engine perft DEPTH [FEN]                      perft: the move-generation count\n"
    "       engine eval [FEN] | d [FEN]                   eval, d: the evaluation, the board\n"
    "       engine bench [DEPTH] | params                 bench, params: the bench, the search parameters\n"
    "       engine help [MODE] | MODE --help | --version  help: this text, or a mode's part of it\n"
    "\n"
    "The documents: README.md, docs/command-line.md (all of this), docs/uci.md, docs/match.md,\n"
    "docs/datagen.md.\n";

static const HelpPart HELP_PARTS[] = {
    { "call",
      "usage: engine [options] \"<FEN>\" \"<moves>\" <seconds>\n"
      "\n"
      "Prints the 0-based index, into <moves>, of the move it chooses, then a newline.\n"
      "<FEN> has 4 to 6 fields. <moves> holds the legal moves separated by whitespace, in any\n"
      "order, in SAN (check marks optional; 0-0, e8Q, exd6e.p. and Ng1f3 accepted) or in\n"
      "coordinates (e2e4, e7e8q); tokens that are not legal moves are named in one warning on\n"
      "stderr and never chosen. <seconds> is a positive decimal number up to 86400 (3, 0.5): the\n"
      "answer comes within it, counted from the process's start, and sooner when it cannot\n"
      "change (one legal move, a mate found and confirmed).\n"
      "\n"
      "options, before the three arguments:\n"
      "  --depth N           search at most N plies, 1 to 64 (deterministic)\n"
      "  --nodes N           search at most about N nodes (deterministic)\n"
      "  --verbose           one line per iteration on stderr: depth, score, nodes, time, PV\n"
      "  --threads N         search with N threads, 1 to 256\n"
      "  --multipv N         search the best N moves to full depth (--verbose shows each line)\n"
      "  --level N           a weaker engine: 0 (weakest) to 20 (full strength, the default)\n"
      "  --param NAME=VALUE  set a search parameter (engine params lists them, with their ranges)\n"
      "  --hash-file FILE    keep the table and the search's history in FILE between calls\n"
      "                      (also BOXER_HASH_FILE=FILE; off by default)\n"
      "  --batch             read the calls from stdin instead (engine help batch)\n"
      "  --help              the help (engine help MODE: a mode's part of it)\n"
      "  --version           the version\n"
      "\n"
      "exit status:\n"
      "  0  an index was printed\n"
      "  2  usage: wrong argument count, unknown option, bad option value, time not a positive\n"
      "     number of seconds up to 86400\n"
      "  3  invalid FEN\n"
      "  4  invalid move list: empty, or no token is a legal move in the position\n"
      "\n"
      "examples:\n"
      "  engine \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\" \"e4 d4 Nf3\" 1\n"
      "  engine --depth 8 --verbose \"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\" \"Rd8# Kf1 h3\" 2\n" },
    { "batch",
      "usage: engine [options] --batch\n"
      "\n"
      "Each stdin line FEN<TAB>moves<TAB>seconds gets one stdout line: the index the one-shot call\n"
      "would print, or error: <message>; its clock starts when the line is read. The call's options\n"
      "hold for every line. At the end a summary line goes to stderr; exit status 0 (2: usage).\n"
      "  printf 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\\te4 d4\\t0.5\\n' | engine --batch\n" },
    { "uci",
      "usage: engine [uci]\n"
      "\n"
      "With no arguments, or uci, the engine speaks the Universal Chess Interface on stdin and\n"
      "stdout, for chess GUIs and tournament managers: uci, isready, setoption (Hash, Threads,\n"
      "MultiPV, Move Overhead, Clear Hash, Ponder, UCI_Chess960, UCI_LimitStrength, UCI_Elo, Skill\n"
      "Level), ucinewgame, position, go (wtime btime winc binc movestogo movetime depth nodes mate\n"
      "infinite ponder searchmoves), stop, ponderhit, quit, and d, eval, perft N and bench.\n" },
    { "match",
      "usage: engine match --opponent COMMAND|random --games N --time SECONDS|--nodes N [options]\n"
      "\n"
      "Plays games between our search and a UCI engine (COMMAND, run by /bin/sh) or a random\n"
      "mover, refereed by our rules: a score line a game on stderr, the result on stdout. An\n"
      "opponent that fails later forfeits the game; before its first move, it is an error.\n"
      "  --opponent COMMAND  a UCI engine's command line, or random\n"
      "  --games N           1 to 100000; games 2k+1 and 2k+2 play one opening, colours swapped\n"
      "  --time SECONDS      per move, for both sides\n"
      "  --nodes N           per move, for both sides (with --time, both limits hold)\n"
      "  --concurrency K     K games at once, 1 to 64 (default 1)\n"
      "  --threads T         our search's threads in each game, 1 to 256\n"
      "  --chess960          Chess960\n"
      "  --sprt ELO0,ELO1    stop at the verdict of an SPRT of ELO0 against ELO1 (--games even)\n"
      "  --alpha A, --beta B the SPRT's error rates, above 0 and below 0.5 (0.05 each)\n"
      "  --openings FILE     a FEN or EPD opening a line, in turn (default: the start position)\n"
      "  --pgn FILE          the games as PGN\n"
      "exit status: 0 played; 1 a process failed, or the opponent before its first move;\n"
      "  2 usage; 3 an openings line is not a valid FEN\n"
      "  engine match --opponent ./base --games 20000 --nodes 20000 --concurrency 2 --sprt 0,5\n" },
    { "datagen",
      "usage: engine datagen --games N|--hours H --nodes N --seed S [options]\n"
      "       engine datagen --read FILE.games\n"
      "       engine datagen --pack FILE|- --out FILE.games [--threads N]\n"
      "\n"
      "Self-play on every core at 0.75 N to 1.25 N nodes a move, the same for a seed with any\n"
      "number of threads; Ctrl-C stops it, the finished games kept.\n"
      "  --games N           stop after N games\n"
      "  --hours H           stop once H hours have passed (the games under way finished)\n"
      "  --nodes N           nodes a move\n"
      "  --seed S            the run's seed\n"
      "  --threads N         games at once, a thread each (default: one a processor)\n"
      "  --openings FILE     start from its FEN or EPD lines (default: the start position)\n"
      "  --out FILE          FILE.games: game records; else FEN | SCORE | RESULT lines (default:\n"
      "                      those on stdout)\n"
      "  --sample K          keep about one training position in K\n"
      "  --rescore COMMAND --rescore-nodes N  score the kept positions with a UCI engine at N nodes\n"
      "  --read FILE         print the training positions of game records as lines\n"
      "  --pack FILE|-       keep FEN | SCORE | RESULT lines (a file, or - for stdin) as records\n"
      "                      that --read gives back byte for byte\n"
      "exit status: 0 done; 1 a failure (the rescoring engine, a file); 2 usage\n"
      "  engine datagen --games 1000 --nodes 5000 --seed 1 --out run.games\n" },
    { "genfens",
      "usage: engine \"genfens N seed S book FILE|None\" [quit]\n"
      "\n"
      "OpenBench's request, one argument: N lines `info string genfens FEN`, each a legal, roughly\n"
      "balanced opening, the same N for a seed; from the start position (None) or an EPD or FEN\n"
      "book. Exit status 0; 1 a book none of whose positions stays balanced; 2 a bad request.\n" },
    { "perft",
      "usage: engine perft DEPTH [FEN]\n"
      "\n"
      "The move-generation count to DEPTH (1 to 20): a line per root move, `SAN count`, then\n"
      "`nodes N`; the start position without a FEN.\n" },
    { "eval",
      "usage: engine eval [FEN]\n"
      "\n"
      "The static evaluation, term by term; the start position without a FEN.\n" },
    { "d",
      "usage: engine d [FEN]\n"
      "\n"
      "The board, its FEN and key; the start position without a FEN.\n" },
    { "bench",
      "usage: engine bench [DEPTH]\n"
      "\n"
      "Searches 16 fixed positions to depth 9 (or DEPTH, 1 to 64) with fresh tables; its last line,\n"
      "`N nodes M nps`, is the bench signature N and the speed M.\n" },
    { "params",
      "usage: engine params\n"
      "\n"
      "The search parameters that --param sets, a line each: name, value, least and greatest\n"
      "value, tuning step.\n" },
};

/* Prints the help of mode (the overview and every part when mode is NULL); returns 0, or
 * EXIT_USAGE after one error line for a mode it does not know. */
static int print_help(const char *mode)
{
    size_t i, count = sizeof HELP_PARTS / sizeof HELP_PARTS[0];
    const char *name = mode && strcmp(mode, "--batch") == 0 ? "batch" : mode;
    if (!mode)
        fputs(HELP_OVERVIEW, stdout);
    for (i = 0; i < count; i++)
        if (!name || strcmp(name, HELP_PARTS[i].mode) == 0)
            printf("%s%s", name ? "" : "\n", HELP_PARTS[i].text);
    for (i = 0; name && i < count && strcmp(name, HELP_PARTS[i].mode) != 0; i++)
        ;
    if (i < count || !name)
        return 0;
    print_line(stderr, "error: help: no mode '%.40s' (call, batch, uci, match, datagen, genfens, perft, eval, d, bench, "
                       "params)", mode);
    return EXIT_USAGE;
}

/* Returns the mode whose help the arguments ask for: "" for all of it (help, --help, -h), the
 * mode of `help MODE`, `--help MODE` or `MODE ... --help` (batch for --batch, genfens for its
 * request, call for the one-shot call's options), NULL when they ask for none. */
static const char *asks_help(int argc, char **argv)
{
    static const char *const MODES[] = { "uci", "match", "datagen", "perft", "eval", "d", "bench", "params", "--batch" };
    int i;
    size_t k;
    if (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
        return argc >= 3 ? argv[2] : "";
    for (i = 2; i < argc && strcmp(argv[i], "--help") != 0 && strcmp(argv[i], "-h") != 0; i++)
        ;
    if (i == argc)
        return NULL;
    if (strncmp(argv[1], "genfens", 7) == 0 && (argv[1][7] == ' ' || argv[1][7] == '\0'))
        return "genfens";
    for (k = 0; k < sizeof MODES / sizeof MODES[0]; k++)
        if (strcmp(argv[1], MODES[k]) == 0)
            return MODES[k];
    return argv[1][0] == '-' ? "call" : NULL; /* among the one-shot call's options */
}

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
        } else if (strcmp(argv[i], "--param") == 0) {
            if (i + 1 >= argc || !set_param(argv[i + 1]))
                return EXIT_USAGE;
            i++;
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

/* Sets a search parameter from NAME=VALUE; returns 1, or 0 after one error line. */
static int set_param(const char *assignment)
{
    const char *equals = strchr(assignment, '=');
    const SearchParam *p;
    long long value;
    int i;
    if (!equals || !parse_integer(equals + 1, INT_MIN, INT_MAX, &value)) {
        print_line(stderr, "error: --param needs NAME=VALUE with a whole number, got '%.40s'", assignment);
        return 0;
    }
    for (i = 0; (p = search_param_at(i)) != NULL; i++)
        if (strlen(p->name) == (size_t)(equals - assignment) && strncmp(p->name, assignment, strlen(p->name)) == 0)
            break;
    if (!p) {
        print_line(stderr, "error: --param: no search parameter '%.*s' (engine params lists them)",
                   (int)(equals - assignment < 40 ? equals - assignment : 40), assignment);
        return 0;
    }
    if (search_param_set(p->name, (int)value) != PARAM_SET) {
        print_line(stderr, "error: --param: %s must be from %d to %d", p->name, p->min, p->max);
        return 0;
    }
    return 1;
}

/* `engine params`: one line for each search parameter, its name, value, range and tuning step. */
static int print_params(void)
{
    const SearchParam *p;
    int i;
    for (i = 0; (p = search_param_at(i)) != NULL; i++)
        printf("%s %d %d %d %d\n", p->name, p->value, p->min, p->max, p->step);
    return 0;
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
    limits->keep_history = attached;
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
        print_line(stderr, "hash file '%.200s': a table of %lu MB, %d per mille of it filled", path,
                   (unsigned long)(((const TableFileHeader *)f->base)->bucket_count * table_bucket_size() >> 20),
                   search_table_filled(s));
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
    o->limits.keep_history = attached;
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
