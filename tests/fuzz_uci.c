/* tests/fuzz_uci.c: a libFuzzer target for the UCI loop (`make fuzz`). One input is what a
 * GUI sends on stdin: it goes into a session's input buffer, whole, with the end of input
 * behind it (uci_give), and its lines run through uci_next_line() and uci_execute() as in
 * run_uci(), so that stop, isready, ponderhit and quit also arrive during searches. To keep
 * each input fast, every `go` gets ` 0 nodes 500` appended (the last value counts; the `0`
 * feeds a number-taking word left without one), `go` lines after the 32nd and lines that would
 * run perft deeper than 2 or the bench are skipped, and Hash is at most 4 MB. Beyond the
 * sanitizers it checks that every output line is printable and that each search answers
 * exactly one bestmove (and no `go` more than one). Built with -DFUZZ_REPLAY it runs the files
 * it is given once each (tests/robust.sh replays tests/data/fuzz-corpus/ that way, without
 * libFuzzer). */
#include "../modes/system.h"
#include "../modes/uci.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if HAVE_POSIX
#include <unistd.h>
#endif

enum { FUZZ_HASH_MAX = 4, FUZZ_GO_MAX = 32, FUZZ_LINE_MAX = 1 << 16, FUZZ_WORDS = FUZZ_LINE_MAX / 2 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Splits a copy of line into its words (FUZZ_WORDS holds them all); returns how many. */
static int words_of(const char *line, char *copy, size_t size, char **word)
{
    int n = 0;
    char *p;
    snprintf(copy, size, "%s", line);
    for (p = strtok(copy, " \t\r\n\v\f"); p && n < FUZZ_WORDS; p = strtok(NULL, " \t\r\n\v\f"))
        word[n++] = p;
    return n;
}

/* Returns the index among the n words of the command word, the first the loop knows, or -1. */
static int command_at(char **word, int n)
{
    int i;
    for (i = 0; i < n; i++)
        if (uci_is_command(word[i]))
            return i;
    return -1;
}

/* Returns 1 if text is a depth from 1 to 20 that is deeper than 2. */
static int deep(const char *text)
{
    char *end;
    long depth = strtol(text, &end, 10);
    return *end == '\0' && isdigit((unsigned char)text[0]) && depth > 2 && depth <= 20;
}

/* Returns 1 if the line should be skipped to keep an input fast: perft deeper than 2 (as the
 * command, or anywhere after `go` as `perft N`), and bench. */
static int too_slow(char **word, int n, int at)
{
    int i;
    if (strcmp(word[at], "bench") == 0)
        return 1;
    if (strcmp(word[at], "perft") == 0)
        return at + 1 < n && deep(word[at + 1]);
    for (i = at + 1; strcmp(word[at], "go") == 0 && i + 1 < n; i++)
        if (strcmp(word[i], "perft") == 0 && deep(word[i + 1]))
            return 1;
    return 0;
}

/* Aborts, so that the fuzzer keeps the input, when ok is 0. */
static void expect(int ok, const char *what, const char *line)
{
    if (!ok) {
        fprintf(stderr, "contract broken: %s\nline: %.200s\n", what, line);
        abort();
    }
}

/* Sends stdout to a scratch file, once, and empties it. */
static void fresh_output(void)
{
    static int ready;
    if (!ready) {
        char path[] = "/tmp/boxer-fuzz-uci-XXXXXX";
        int fd = mkstemp(path);
        if (fd < 0 || !freopen(path, "w+", stdout))
            abort();
        close(fd);
        unlink(path);
        ready = 1;
    }
    rewind(stdout);
    if (ftruncate(fileno(stdout), 0) != 0)
        abort();
}

/* Checks what the loop wrote: printable lines, one bestmove per search the session answered,
 * at most one per `go`. */
static void check_output(int searches, int gos, const char *input_start)
{
    static char line[FUZZ_LINE_MAX];
    int bestmoves = 0;
    size_t i;
    fflush(stdout);
    rewind(stdout);
    while (fgets(line, sizeof line, stdout)) {
        for (i = 0; line[i] && line[i] != '\n'; i++)
            expect(isprint((unsigned char)line[i]), "printable output", line);
        bestmoves += strncmp(line, "bestmove ", 9) == 0;
    }
    expect(bestmoves == searches, "one bestmove per search", input_start);
    expect(searches <= gos, "no more searches than go commands", input_start);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Search *context;
    static char line[FUZZ_LINE_MAX + 32], copy[FUZZ_LINE_MAX + 32], *word[FUZZ_WORDS];
    char shown[201];
    int gos = 0;
    Uci *u;
    if (size > FUZZ_LINE_MAX - 1)
        return 0;
    if (!context) {
        engine_init();
        context = search_new();
    }
    memcpy(shown, data, size < 200 ? size : 200);
    shown[size < 200 ? size : 200] = '\0';
    fresh_output();
    search_threads(context, 1);
    if ((u = uci_open(context, FUZZ_HASH_MAX)) == NULL)
        return 0;
    uci_give(u, (const char *)data, size);
    while (!uci_quit(u) && uci_next_line(u, line, FUZZ_LINE_MAX)) {
        int n = words_of(line, copy, sizeof copy, word), at = command_at(word, n);
        if (at >= 0 && too_slow(word, n, at))
            continue;
        if (at >= 0 && strcmp(word[at], "go") == 0) {
            if (++gos > FUZZ_GO_MAX)
                continue;
            strcat(line, " 0 nodes 500");
        }
        uci_execute(u, line);
    }
    check_output(uci_searches(u), gos, shown);
    uci_close(u);
    return 0;
}

#define FUZZ_REPLAY_MAX (FUZZ_LINE_MAX)
#include "fuzz_replay.h"
