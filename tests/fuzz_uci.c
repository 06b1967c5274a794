/* tests/fuzz_uci.c: a libFuzzer target for the UCI loop (`make fuzz`). One input is what a
 * GUI sends on stdin: it goes into the loop's input buffer, whole, with the end of input
 * behind it, and its lines run through uci_read_line() and uci_execute() as in uci_loop(),
 * so that stop, isready, ponderhit and quit also arrive during searches. To keep each input
 * fast, every `go` gets ` 0 nodes 500` appended (the last value counts; the `0` feeds a
 * number-taking word left without one), `go` lines after the 32nd and lines that would run
 * perft deeper than 2 or the bench are skipped, and Hash is at most 4 MB. Beyond the sanitizers it checks that every
 * output line is printable and that each search answers exactly one bestmove. Built with
 * -DFUZZ_REPLAY it runs the files it is given once each (tests/robust.sh replays
 * tests/fuzz-corpus/ that way, without libFuzzer). */
#define ENGINE_NO_MAIN /* engine.c without its main: this file brings its own */
#include "../engine.c"

#include <stdint.h>

enum { FUZZ_HASH_MAX = 4, FUZZ_GO_MAX = 32 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Returns the command word of a line as uci_execute() finds it (the first known one), with
 * the text after it in *args, or NULL. Works on a copy: the line is left as it was. */
static const char *command_of(const char *line, char *copy, size_t size, char **args)
{
    char *rest = copy, *word;
    size_t i;
    snprintf(copy, size, "%s", line);
    while ((word = uci_word(&rest)) != NULL)
        for (i = 0; i < sizeof UCI_COMMANDS / sizeof UCI_COMMANDS[0]; i++)
            if (strcmp(word, UCI_COMMANDS[i].name) == 0) {
                *args = rest;
                return UCI_COMMANDS[i].name;
            }
    return NULL;
}

/* Returns 1 if args (of `perft`, or of `go` when is_go) may ask for a perft deeper than 2:
 * for `go`, any word `perft` followed by such a depth, whatever uci_parse_go() makes of it. */
static int deep_perft(char *args, int is_go)
{
    char *word;
    long long depth;
    if (!is_go) {
        word = uci_word(&args);
        return word && parse_integer(word, 1, 20, &depth) && depth > 2;
    }
    while ((word = uci_word(&args)) != NULL)
        if (strcmp(word, "perft") == 0 && (word = uci_word(&args)) != NULL && parse_integer(word, 1, 20, &depth) && depth > 2)
            return 1;
    return 0;
}

/* Returns 1 if bench would search (its argument is missing or a valid depth). */
static int bench_searches(char *args)
{
    char *word = uci_word(&args);
    long long depth;
    return !word || parse_integer(word, 1, MAX_DEPTH, &depth);
}

/* Aborts, so that the fuzzer keeps the input, when ok is 0. */
static void expect(int ok, const char *what, const char *line)
{
    if (!ok) {
        fprintf(stderr, "contract broken: %s\nline: %.200s\n", what, line);
        abort();
    }
}

/* The state uci_loop() starts from, with a small table; stdout goes to a scratch file. */
static void fuzz_reset(void)
{
    static Search context;
    static int ready;
    int i;
    if (!ready) {
        char path[] = "/tmp/boxer-fuzz-uci-XXXXXX";
        int fd = mkstemp(path);
        if (fd < 0 || !freopen(path, "w+", stdout))
            abort();
        close(fd);
        unlink(path);
        uci_options[OPT_HASH].max = FUZZ_HASH_MAX;
        uci_options[OPT_HASH].initial = 1;
        ready = 1;
    }
    for (i = 0; i < OPT_NB; i++)
        uci_options[i].value = uci_options[i].initial;
    uci.search = &context;
    search_set_table(&context, (size_t)uci_options[OPT_HASH].value);
    uci_start_position();
    uci.quit = 0;
    input.len = 0;
    input.skipping = 0;
    input.eof = 1;
    rewind(stdout);
    if (ftruncate(fileno(stdout), 0) != 0)
        abort();
}

/* Checks what the loop wrote: printable lines, one bestmove per search. */
static void check_output(int searches, const char *input_start)
{
    static char line[INPUT_MAX];
    int bestmoves = 0;
    size_t i;
    fflush(stdout);
    rewind(stdout);
    while (fgets(line, sizeof line, stdout)) {
        for (i = 0; line[i] && line[i] != '\n'; i++)
            expect(isprint((unsigned char)line[i]), "printable output", line);
        bestmoves += strncmp(line, "bestmove ", 9) == 0;
    }
    expect(bestmoves == searches, "one bestmove per go", input_start);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char line[INPUT_MAX + 32], copy[INPUT_MAX + 32];
    char shown[201];
    int searches = 0, gos = 0;
    if (size > INPUT_MAX - 1)
        return 0;
    memcpy(shown, data, size < 200 ? size : 200);
    shown[size < 200 ? size : 200] = '\0';
    fuzz_reset();
    memcpy(input.data, data, size);
    input.len = size;
    if (size == 0 || input.data[size - 1] != '\n')
        input.data[input.len++] = '\n';
    while (!uci.quit && uci_read_line(line, INPUT_MAX)) {
        char *args = NULL;
        const char *command = command_of(line, copy, sizeof copy, &args);
        if (command && strcmp(command, "go") == 0) {
            if (++gos > FUZZ_GO_MAX || deep_perft(args, 1))
                continue;
            strcat(line, " 0 nodes 500");
            uci_execute(line);
            searches += uci.go.number[GO_PERFT] <= 0;
            continue;
        } else if (command && strcmp(command, "perft") == 0 && deep_perft(args, 0)) {
            continue;
        } else if (command && strcmp(command, "bench") == 0 && bench_searches(args)) {
            continue;
        }
        uci_execute(line);
    }
    check_output(searches, shown);
    return 0;
}

#define FUZZ_REPLAY_MAX (INPUT_MAX)
#include "fuzz_replay.h"
