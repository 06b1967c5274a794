/* modes/uci.c: the Universal Chess Interface (Stefan Meyer-Kahlen, April 2004 text), docs/uci.md:
 * one command a line on stdin, answers on stdout. Words it cannot use are named in an `info
 * string` and skipped. A session (Uci) holds everything the loop knows between commands: its
 * input, the game as the GUI set it, the options, the search (its table kept across the game's
 * moves) and the last `go`. */
#include "system.h"
#include "common.h"
#include "uci.h"

#include <ctype.h>
#include <float.h>
#include <stdlib.h>
#include <string.h>

#if HAVE_POSIX
#include <errno.h>
#include <sys/select.h>
#include <sys/types.h>
#include <unistd.h>
#endif

enum { INPUT_MAX = 1 << 16 };
enum {
    OPT_HASH, OPT_THREADS, OPT_MULTIPV, OPT_MOVE_OVERHEAD, OPT_CLEAR_HASH, OPT_PONDER, OPT_CHESS960,
    OPT_LIMIT_STRENGTH, OPT_ELO, OPT_SKILL, OPT_NB
};
enum { HASH_MAX_MB = 1024 };

/* A UCI option: one table drives both the `uci` listing and `setoption` (as Fruit's option.cpp). */
enum { OPTION_SPIN, OPTION_CHECK, OPTION_BUTTON };
typedef struct {
    const char *name;
    int type;
    int initial, min, max;  /* spin bounds; a check is 0 or 1; a button has no value */
} UciOption;

/* The numbers a UCI `go` may carry, in the order of GO_WORDS; -1 when absent. */
enum { GO_WTIME, GO_BTIME, GO_WINC, GO_BINC, GO_MOVESTOGO, GO_MOVETIME, GO_DEPTH, GO_NODES, GO_MATE, GO_PERFT, GO_NUMBER_NB };
typedef struct {
    long long number[GO_NUMBER_NB];
    int infinite;
    int ponder;             /* 1 until ponderhit */
    int search_count;       /* 0: every legal move */
    Move search_moves[MAX_MOVES];
} UciGo;

/* Bytes read from the input and not yet used: whole lines, then perhaps the start of one. Only
 * input_fill adds to it, at the end (a line longer than the buffer is dropped, and the end of
 * the input gets a last newline), and two readers take whole lines from it: between searches
 * the loop (uci_read_line) takes the first line, in order; during a search the poll takes the
 * lines it acts on at once (stop, quit, isready, ponderhit) wherever they stand before the first
 * `go`, and leaves every other line where it is, for the loop after the search. */
typedef struct {
    char data[INPUT_MAX];
    size_t len;
    int eof;
    int skipping;   /* dropping the rest of a line longer than the buffer */
} UciInput;

struct Uci {
    Search *search;
    Board board;
    uint64_t keys[KEY_HISTORY_MAX];  /* positions since the last irreversible move, the board's last */
    int key_count;
    int option[OPT_NB];     /* each option's value */
    int hash_max;           /* Hash's maximum */
    UciGo go;               /* the last `go` */
    int stopped;            /* stop or quit came during the last search */
    int quit;
    int searches;           /* searches answered with a bestmove */
    UciInput input;
};

/* prototypes */
static Uci *uci_new(Search *s, int hash_max, int from_stdin);
static int input_waiting(void);
static size_t input_read(char *buf, size_t size);
static int input_is_terminal(void);
static size_t input_line_length(const UciInput *in, size_t from);
static void input_remove(UciInput *in, size_t from, size_t n);
static int input_fill(UciInput *in, int wait);
static void input_first_word(const UciInput *in, char *word, size_t size, size_t from, size_t line_length);
static int uci_read_line(UciInput *in, char *line, size_t size);
static char *uci_word(char **rest);
static int uci_same_text(const char *a, const char *b);
static void uci_append(char *buf, size_t size, const char *word);
static void uci_cmd_uci(Uci *u, char *args);
static void uci_cmd_isready(Uci *u, char *args);
static void uci_cmd_ucinewgame(Uci *u, char *args);
static void uci_cmd_setoption(Uci *u, char *args);
static void uci_option_set(Uci *u, int id, const char *value);
static int uci_level(const Uci *u);
static void uci_start_position(Uci *u);
static void uci_push_key(Uci *u, uint64_t key);
static void uci_cmd_position(Uci *u, char *args);
static void uci_cmd_go(Uci *u, char *args);
static void uci_parse_go(Uci *u, char *args, UciGo *go);
static void uci_search(Uci *u, double start);
static void uci_set_limits(Uci *u, Limits *l, double start);
static int uci_budget(const Uci *u, double *soft, double *hard);
static void uci_wait(Uci *u);
static void uci_ponderhit(Uci *u);
static int uci_take_commands(Uci *u);
static void uci_poll(Search *s);
static void uci_print_info(const Search *s, int depth, int score, int bound);
static void uci_print_bestmove(Uci *u);
static void print_search_total(const Search *s, int threads);
static void uci_cmd_idle(Uci *u, char *args);
static void uci_cmd_quit(Uci *u, char *args);
static void uci_cmd_d(Uci *u, char *args);
static void uci_cmd_perft(Uci *u, char *args);
static void uci_cmd_eval(Uci *u, char *args);
static void uci_cmd_bench(Uci *u, char *args);

static const UciOption UCI_OPTIONS[OPT_NB] = {
    { "Hash", OPTION_SPIN, HASH_DEFAULT_MB, 1, HASH_MAX_MB },
    { "Threads", OPTION_SPIN, 1, 1, THREADS_MAX },
    { "MultiPV", OPTION_SPIN, 1, 1, MAX_MOVES },
    { "Move Overhead", OPTION_SPIN, 20, 0, 5000 },
    { "Clear Hash", OPTION_BUTTON, 0, 0, 0 },
    { "Ponder", OPTION_CHECK, 0, 0, 1 },
    { "UCI_Chess960", OPTION_CHECK, 0, 0, 1 },
    { "UCI_LimitStrength", OPTION_CHECK, 0, 0, 1 },
    { "UCI_Elo", OPTION_SPIN, LEVEL_ELO_MAX, LEVEL_ELO_MIN, LEVEL_ELO_MAX },
    { "Skill Level", OPTION_SPIN, LEVEL_MAX, 0, LEVEL_MAX },
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
    void (*run)(Uci *u, char *args);
} UCI_COMMANDS[] = {
    { "uci", uci_cmd_uci }, { "isready", uci_cmd_isready }, { "ucinewgame", uci_cmd_ucinewgame },
    { "setoption", uci_cmd_setoption }, { "position", uci_cmd_position }, { "go", uci_cmd_go },
    { "stop", uci_cmd_idle }, { "ponderhit", uci_cmd_idle }, { "quit", uci_cmd_quit },
    { "d", uci_cmd_d }, { "perft", uci_cmd_perft }, { "eval", uci_cmd_eval }, { "bench", uci_cmd_bench },
};

/* ================================================================ sessions */

/* Speaks UCI on stdin and stdout until `quit` or the end of the input, searching in s; returns
 * the exit status. */
int run_uci(Search *s)
{
    static char line[INPUT_MAX];
    Uci *u = uci_new(s, HASH_MAX_MB, 1);
    if (!u) {
        fprintf(stderr, "error: out of memory\n");
        return EXIT_FAILURE;
    }
    if (input_is_terminal())
        fprintf(stderr, "%s %s speaks UCI: try uci, d, go depth 10, quit (engine --help for the rest)\n",
                ENGINE_NAME, ENGINE_VERSION);
    while (!u->quit && uci_read_line(&u->input, line, sizeof line))
        uci_execute(u, line);
    uci_close(u);
    return 0;
}

/* A session for a harness: its input is only what uci_give hands it. */
Uci *uci_open(Search *s, int hash_max)
{
    return uci_new(s, hash_max, 0);
}

/* A new session searching in s, its input stdin (from_stdin) or what uci_give hands it. */
static Uci *uci_new(Search *s, int hash_max, int from_stdin)
{
    Uci *u = calloc(1, sizeof *u);
    int i;
    if (!u)
        return NULL;
    u->search = s;
    u->hash_max = int_clamp(hash_max, 1, HASH_MAX_MB);
    for (i = 0; i < OPT_NB; i++)
        u->option[i] = UCI_OPTIONS[i].initial;
    if (u->option[OPT_HASH] > u->hash_max)
        u->option[OPT_HASH] = u->hash_max;
    u->input.eof = !from_stdin;
    search_set_table(s, (size_t)u->option[OPT_HASH]);
    uci_start_position(u);
    return u;
}

/* Frees a session (its search stays its caller's). */
void uci_close(Uci *u)
{
    free(u);
}

/* Hands the session its whole input, a newline added at its end if it has none, and ends it
 * there; a longer input than the buffer is cut. */
void uci_give(Uci *u, const char *data, size_t size)
{
    UciInput *in = &u->input;
    size = size < sizeof in->data - 1 ? size : sizeof in->data - 1;
    memcpy(in->data, data, size);
    in->len = size;
    if (size == 0 || in->data[size - 1] != '\n')
        in->data[in->len++] = '\n';
    in->eof = 1;
}

/* The next line of input, as the loop reads it. */
int uci_next_line(Uci *u, char *line, size_t size)
{
    return uci_read_line(&u->input, line, size);
}

int uci_quit(const Uci *u) { return u->quit; }
int uci_searches(const Uci *u) { return u->searches; }

/* Returns 1 if word is one of UCI_COMMANDS. */
int uci_is_command(const char *word)
{
    size_t i;
    for (i = 0; i < sizeof UCI_COMMANDS / sizeof UCI_COMMANDS[0]; i++)
        if (strcmp(word, UCI_COMMANDS[i].name) == 0)
            return 1;
    return 0;
}

/* =================================================================== input */

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

/* Returns the length with its newline of the buffered line that starts at from, or 0 if
 * that line is not whole yet. */
static size_t input_line_length(const UciInput *in, size_t from)
{
    const char *newline = memchr(in->data + from, '\n', in->len - from);
    return newline ? (size_t)(newline - in->data) + 1 - from : 0;
}

/* Removes n buffered bytes from offset from. */
static void input_remove(UciInput *in, size_t from, size_t n)
{
    memmove(in->data + from, in->data + from + n, in->len - from - n);
    in->len -= n;
}

/* Reads what stdin holds into the buffer; with wait, blocks until something comes.
 * Returns 0 once the input has ended (a last line without newline gets one). */
static int input_fill(UciInput *in, int wait)
{
    size_t n, skipped;
    if (in->eof)
        return 0;
    if (!wait && !input_waiting())
        return 1;
    if (in->len == sizeof in->data && input_line_length(in, 0) > 0)
        return 1; /* full of whole lines that wait their turn */
    if (in->len == sizeof in->data) {
        printf("info string ignored a line longer than %d bytes\n", INPUT_MAX - 1);
        in->len = 0;
        in->skipping = 1;
    }
    n = input_read(in->data + in->len, sizeof in->data - in->len);
    in->len += n;
    in->eof = n == 0;
    if (in->eof && in->len > 0 && in->data[in->len - 1] != '\n')
        in->data[in->len++] = '\n';
    if (in->skipping) {
        skipped = input_line_length(in, 0);
        input_remove(in, 0, skipped ? skipped : in->len);
        in->skipping = !skipped;
    }
    return !in->eof;
}

/* Copies the first word of the buffered line at offset from (line_length bytes) into word. */
static void input_first_word(const UciInput *in, char *word, size_t size, size_t from, size_t line_length)
{
    const char *p = in->data + from, *end = p + line_length;
    size_t n = 0;
    while (p < end && isspace((unsigned char)*p))
        p++;
    while (p < end && !isspace((unsigned char)*p) && n + 1 < size)
        word[n++] = *p++;
    word[n] = '\0';
}

/* Waits for the next line of input and copies it without its newline, unprintable bytes
 * as '?' (so that echoing a word back cannot garble the GUI's view); returns 0 at the end. */
static int uci_read_line(UciInput *in, char *line, size_t size)
{
    size_t len, i;
    while ((len = input_line_length(in, 0)) == 0)
        if (!input_fill(in, 1) && input_line_length(in, 0) == 0)
            return 0;
    for (i = 0; i + 1 < len && i + 1 < size; i++)
        line[i] = isprint((unsigned char)in->data[i]) || isspace((unsigned char)in->data[i]) ? in->data[i] : '?';
    line[i] = '\0';
    input_remove(in, 0, len);
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

/* ================================================================ commands */

/* Runs one line: the first known command word, with the rest of the line (the protocol
 * says to skip unknown words before it). */
void uci_execute(Uci *u, char *line)
{
    char *rest = line, *word, *skipped = NULL;
    size_t i;
    while ((word = uci_word(&rest)) != NULL) {
        for (i = 0; i < sizeof UCI_COMMANDS / sizeof UCI_COMMANDS[0]; i++) {
            if (strcmp(word, UCI_COMMANDS[i].name) == 0) {
                if (skipped)
                    printf("info string skipped unknown '%.40s' before '%s'\n", skipped, word);
                UCI_COMMANDS[i].run(u, rest);
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
static void uci_cmd_uci(Uci *u, char *args)
{
    int i;
    (void)args;
    printf("id name %s %s\nid author %s\n", ENGINE_NAME, ENGINE_VERSION, ENGINE_AUTHOR);
    for (i = 0; i < OPT_NB; i++) {
        const UciOption *o = &UCI_OPTIONS[i];
        int max = i == OPT_HASH ? u->hash_max : o->max, initial = int_min(o->initial, max);
        if (o->type == OPTION_SPIN)
            printf("option name %s type spin default %d min %d max %d\n", o->name, initial, o->min, max);
        else if (o->type == OPTION_CHECK)
            printf("option name %s type check default %s\n", o->name, o->initial ? "true" : "false");
        else
            printf("option name %s type button\n", o->name);
    }
    printf("uciok\n");
}

/* isready: everything before it is done. */
static void uci_cmd_isready(Uci *u, char *args)
{
    (void)u;
    (void)args;
    printf("readyok\n");
}

/* ucinewgame: forgets the last game (hash table, position). */
static void uci_cmd_ucinewgame(Uci *u, char *args)
{
    (void)args;
    search_new_game(u->search);
    uci_start_position(u);
}

/* setoption name NAME [value VALUE], the name in any case. */
static void uci_cmd_setoption(Uci *u, char *args)
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
        if (uci_same_text(name, UCI_OPTIONS[i].name)) {
            uci_option_set(u, i, value);
            return;
        }
    }
    printf("info string setoption: no option named '%s' (see uci)\n", name);
}

/* Gives option id the value text if its type and bounds allow, and applies it. */
static void uci_option_set(Uci *u, int id, const char *value)
{
    const UciOption *o = &UCI_OPTIONS[id];
    int max = id == OPT_HASH ? u->hash_max : o->max;
    long long n;
    if (o->type == OPTION_SPIN) {
        if (!parse_integer(value, o->min, max, &n)) {
            printf("info string setoption: %s takes a whole number from %d to %d, not '%s'\n", o->name, o->min, max, value);
            return;
        }
        u->option[id] = (int)n;
    } else if (o->type == OPTION_CHECK) {
        if (!uci_same_text(value, "true") && !uci_same_text(value, "false")) {
            printf("info string setoption: %s takes true or false, not '%s'\n", o->name, value);
            return;
        }
        u->option[id] = uci_same_text(value, "true");
    }
    if (id == OPT_HASH) {
        search_set_table(u->search, (size_t)u->option[id]);
    } else if (id == OPT_CLEAR_HASH) {
        search_new_game(u->search);
    } else if (id == OPT_THREADS) {
        int got = search_threads(u->search, u->option[id]);
        if (got < u->option[id])
            printf("info string setoption: %d threads in use, not %d (%s)\n", got, u->option[id],
                   engine_has_threads() ? "memory is short" : "this build has no threads");
        u->option[id] = got;
    }
}

/* The level UCI asks for: UCI_Elo's under UCI_LimitStrength, else Skill Level (LEVEL_MAX: full
 * strength). */
static int uci_level(const Uci *u)
{
    if (u->option[OPT_LIMIT_STRENGTH])
        return level_for_elo(u->option[OPT_ELO]);
    return u->option[OPT_SKILL];
}

/* Sets the game to the start position. */
static void uci_start_position(Uci *u)
{
    board_start(&u->board);
    u->key_count = 0;
    uci_push_key(u, u->board.key);
}

/* Appends a position to the game's key history, dropping the older half when it is full. */
static void uci_push_key(Uci *u, uint64_t key)
{
    if (u->key_count == KEY_HISTORY_MAX) {
        memmove(u->keys, u->keys + KEY_HISTORY_MAX / 2, sizeof(uint64_t) * (KEY_HISTORY_MAX - KEY_HISTORY_MAX / 2));
        u->key_count -= KEY_HISTORY_MAX / 2;
    }
    u->keys[u->key_count++] = key;
}

/* position startpos | fen FEN, then optionally moves M1 M2 ... (e2e4, e1g1, e7e8q). A bad
 * FEN leaves the position as it was; the moves are played up to the first illegal one. */
static void uci_cmd_position(Uci *u, char *args)
{
    Board b;
    char fen[2 * FEN_MAX] = "", err[200], *word = uci_word(&args);
    int chess960 = u->option[OPT_CHESS960];
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
    u->board = b;
    u->key_count = 0;
    uci_push_key(u, b.key);
    while ((word = uci_word(&args)) != NULL) {
        Move m;
        Undo undo;
        if (move_from_text(&u->board, word, &m) != PARSE_OK) {
            board_to_fen(&u->board, fen);
            printf("info string position: '%.40s' is not a legal move in %s; it and the moves after it are ignored\n", word, fen);
            return;
        }
        board_make(&u->board, m, &undo);
        if (u->board.halfmove == 0)
            u->key_count = 0;
        uci_push_key(u, u->board.key);
    }
}

/* go [wtime btime winc binc movestogo movetime depth nodes mate N...] [infinite] [ponder]
 * [searchmoves M...]: searches and answers bestmove; go perft N counts moves instead. */
static void uci_cmd_go(Uci *u, char *args)
{
    double start = clock_now();
    uci_parse_go(u, args, &u->go);
    if (u->go.number[GO_PERFT] > 0)
        show_perft(&u->board, (int)u->go.number[GO_PERFT]);
    else
        uci_search(u, start);
}

/* Reads the words of `go`; one it cannot use is named in an info string and skipped. */
static void uci_parse_go(Uci *u, char *args, UciGo *go)
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
        } else if (in_search_moves && move_from_text(&u->board, word, &m) == PARSE_OK) {
            for (i = 0; i < go->search_count && go->search_moves[i] != m; i++)
                ;
            if (i == go->search_count) /* each legal move once, so they fit in MAX_MOVES */
                go->search_moves[go->search_count++] = m;
        } else {
            printf("info string go: '%.40s' ignored\n", word);
        }
    }
}

/* ================================================================ searches */

/* Searches the position as u->go asks, from start, then answers bestmove: a search that is
 * infinite or pondering answers only after stop, quit or ponderhit, whatever ended it (a mate
 * found, a depth or node limit, the last ply), as the protocol wants. */
static void uci_search(Uci *u, double start)
{
    Search *s = u->search;
    const UciGo *go = &u->go;
    Limits limits;
    MoveList list;
    int count;
    uci_set_limits(u, &limits, start);
    gen_legal(&u->board, &list, GEN_ALL);
    count = go->search_count ? go->search_count : list.count;
    u->stopped = 0;
    if (count == 0) {
        uci_wait(u);
        printf("info depth 0 score %s\nbestmove (none)\n", board_in_check(&u->board) ? "mate 0" : "cp 0");
        u->searches++;
        return;
    }
    if (count == 1 && limits.soft_deadline > 0)
        limits.soft_deadline = start; /* a forced move needs one iteration, for the ponder move */
    search_run(s, &u->board, u->keys, u->key_count, go->search_count ? go->search_moves : list.moves, count, &limits);
    uci_wait(u);
    uci_print_bestmove(u);
}

/* Sets the limits of a search from u->go, received at start. A mate in N moves is 2N-1
 * plies: `go mate N` searches to depth 2N+4 at most, the slack for reductions. */
static void uci_set_limits(Uci *u, Limits *l, double start)
{
    const UciGo *go = &u->go;
    double soft, hard;
    memset(l, 0, sizeof *l);
    l->start = start;
    l->report = uci_print_info;
    l->poll = uci_poll;
    l->caller = u;
    l->infinite = go->infinite || go->ponder;
    l->keep_history = 1;
    l->multipv = u->option[OPT_MULTIPV];
    l->level = uci_level(u);
    l->level_set = l->level < LEVEL_MAX;
    l->depth_limit = (int)(go->number[GO_DEPTH] > 0 ? go->number[GO_DEPTH] : MAX_DEPTH);
    if (go->number[GO_MATE] > 0 && 2 * go->number[GO_MATE] + 4 < l->depth_limit)
        l->depth_limit = (int)(2 * go->number[GO_MATE] + 4);
    l->node_limit = (uint64_t)(go->number[GO_NODES] > 0 ? go->number[GO_NODES] : 0);
    if (!l->infinite && uci_budget(u, &soft, &hard)) {
        l->soft_deadline = start + soft;
        l->hard_deadline = start + hard;
    }
}

/* The budgets in seconds of a timed `go`: movetime, or the clock of the side to move, each less
 * Move Overhead (a movetime keeps at least half its time). Returns 0 when the go is not timed. */
static int uci_budget(const Uci *u, double *soft, double *hard)
{
    const UciGo *go = &u->go;
    int white = u->board.side == WHITE;
    long long left = go->number[white ? GO_WTIME : GO_BTIME], inc = go->number[white ? GO_WINC : GO_BINC];
    long long movetime = go->number[GO_MOVETIME], moves_to_go = go->number[GO_MOVESTOGO];
    double overhead = u->option[OPT_MOVE_OVERHEAD] / 1000.0;
    *soft = *hard = DBL_MAX;
    if (left >= 0)
        time_for_clock(left / 1000.0, inc > 0 ? inc / 1000.0 : 0, (int)(moves_to_go > 0 ? moves_to_go : 0), overhead, soft, hard);
    if (movetime >= 0) {
        double t = movetime / 1000.0, budget = t - overhead > t / 2 ? t - overhead : t / 2;
        *soft = budget < *soft ? budget : *soft;
        *hard = budget < *hard ? budget : *hard;
    }
    return *hard < DBL_MAX;
}

/* After a search that is infinite or pondering has ended by itself: waits for stop, quit or
 * ponderhit (a timed ponderhit finds the search done and answers at once), or for what ends
 * the wait of a GUI that breaks the protocol: a new `go`, or the end of the input. */
static void uci_wait(Uci *u)
{
    while (!u->stopped && (u->go.infinite || u->go.ponder)) {
        if (uci_take_commands(u) || u->stopped || !(u->go.infinite || u->go.ponder))
            break;
        if (!input_fill(&u->input, 1))
            break;
    }
}

/* ponderhit: the opponent played the expected move, so the ponder search goes on as a timed
 * one, on our clock that starts now (or as the infinite one it was asked to be). */
static void uci_ponderhit(Uci *u)
{
    double soft, hard, now = clock_now();
    if (!u->go.ponder)
        return;
    u->go.ponder = 0;
    if (u->go.infinite)
        return;
    if (uci_budget(u, &soft, &hard))
        search_ponderhit(u->search, now + soft, now + hard);
    else
        search_ponderhit(u->search, 0, 0);
}

/* Acts on the commands that came during a search: stop, quit, isready and ponderhit at once;
 * others wait in the buffer for the loop, and a `go` waits for this search to end, with
 * whatever follows it (as Stockfish's input thread does). Returns 1 if a `go` waits. */
static int uci_take_commands(Uci *u)
{
    UciInput *in = &u->input;
    size_t from = 0, len;
    input_fill(in, 0);
    while (!u->stopped && (len = input_line_length(in, from)) > 0) {
        char word[16];
        input_first_word(in, word, sizeof word, from, len);
        if (strcmp(word, "go") == 0)
            return 1;
        if (strcmp(word, "isready") == 0) {
            printf("readyok\n");
        } else if (strcmp(word, "ponderhit") == 0) {
            uci_ponderhit(u);
        } else if (strcmp(word, "stop") == 0 || strcmp(word, "quit") == 0) {
            search_stop(u->search);
            u->stopped = 1;
            u->quit = word[0] == 'q';
        } else {
            from += len;
            continue;
        }
        input_remove(in, from, len);
    }
    return 0;
}

/* The search's poll in UCI: the commands that came (uci_take_commands). At the end of the
 * input an infinite or ponder search stops: nothing else could stop it. */
static void uci_poll(Search *s)
{
    Uci *u = search_caller(s);
    (void)uci_take_commands(u);
    if (u->input.eof && (u->go.infinite || u->go.ponder))
        search_stop(s);
}

/* The search's report in UCI: the info line of an iteration, or of an aspiration fail with its bound. */
static void uci_print_info(const Search *s, int depth, int score, int bound)
{
    double elapsed = search_elapsed(s);
    uint64_t nodes = search_nodes(s);
    char pv[PV_TEXT];
    search_pv(s, search_report_line(s), PV_COORDINATES, pv, sizeof pv);
    printf("info depth %d seldepth %d multipv %d score %s %d%s nodes %llu nps %.0f hashfull %d time %.0f pv%s%s\n",
           depth, search_seldepth(s), search_report_line(s) + 1, score_is_mate(score) ? "mate" : "cp",
           score_is_mate(score) ? score_mate_moves(score) : score,
           bound == BOUND_LOWER ? " lowerbound" : bound == BOUND_UPPER ? " upperbound" : "",
           (unsigned long long)nodes, elapsed > 0 ? nodes / elapsed : 0.0, search_hashfull(s), elapsed * 1000,
           pv[0] ? " " : "", pv);
}

/* The search's totals as an info line: every thread's nodes, the speed, the table's use, the time
 * (a search stopped inside an iteration has searched more than its last report says); on
 * several threads, an info string with the nodes the helper threads searched. */
static void print_search_total(const Search *s, int threads)
{
    double elapsed = search_elapsed(s);
    uint64_t nodes = search_nodes(s);
    printf("info nodes %llu nps %.0f hashfull %d time %.0f\n", (unsigned long long)nodes, elapsed > 0 ? nodes / elapsed : 0.0,
           search_hashfull(s), elapsed * 1000);
    if (threads > 1)
        printf("info string threads %d, helper nodes %llu\n", threads, (unsigned long long)search_helper_nodes(s));
}

/* Answers bestmove, with a ponder move when there is one. */
static void uci_print_bestmove(Uci *u)
{
    const Search *s = u->search;
    Board b = u->board;
    Undo undo;
    Move reply, best = search_best_move(s);
    char text[6], ponder[6];
    print_search_total(s, u->option[OPT_THREADS]);
    move_to_coords(&b, best, b.chess960, text);
    board_make(&b, best, &undo);
    reply = search_expected_reply(s, &b);
    if (reply != MOVE_NONE) {
        move_to_coords(&b, reply, b.chess960, ponder);
        printf("bestmove %s ponder %s\n", text, ponder);
    } else {
        printf("bestmove %s\n", text);
    }
    u->searches++;
}

/* ============================================================== diagnostics */

/* stop and ponderhit between searches: there is nothing to stop. */
static void uci_cmd_idle(Uci *u, char *args)
{
    (void)u;
    (void)args;
}

/* quit: leaves the loop. */
static void uci_cmd_quit(Uci *u, char *args)
{
    (void)args;
    u->quit = 1;
}

/* d: the board diagram, FEN and key of the current position. */
static void uci_cmd_d(Uci *u, char *args)
{
    (void)args;
    show_board(&u->board);
}

/* perft N: the move-generation count of the current position, as `engine perft`. */
static void uci_cmd_perft(Uci *u, char *args)
{
    char *word = uci_word(&args);
    long long depth;
    if (!word || !parse_integer(word, 1, 20, &depth)) {
        printf("info string perft takes a depth from 1 to 20\n");
        return;
    }
    show_perft(&u->board, (int)depth);
}

/* eval: the static evaluation of the current position, term by term, as `engine eval`. */
static void uci_cmd_eval(Uci *u, char *args)
{
    (void)args;
    show_eval(&u->board);
}

/* bench [DEPTH]: the bench signature, as `engine bench`, in a search of its own (the game's
 * table stays as it is). */
static void uci_cmd_bench(Uci *u, char *args)
{
    Search *bench;
    char *word = uci_word(&args);
    long long depth = 0;
    (void)u;
    if (word && !parse_integer(word, 1, MAX_DEPTH, &depth)) {
        printf("info string bench takes a depth from 1 to %d\n", MAX_DEPTH);
        return;
    }
    if ((bench = search_new()) == NULL) {
        printf("info string bench: out of memory\n");
        return;
    }
    run_bench(bench, (int)depth);
    search_free(bench);
}
