/* tests/fuzz_oneshot.c: a libFuzzer target for the one-shot decision (`make fuzz`). One input
 * holds the three arguments of `engine FEN MOVES SECONDS`, separated by NUL bytes (which no
 * argument can contain); the time goes through main's parser and the decision through
 * decide() with a small node budget. Beyond the sanitizers it checks the contract: exit
 * status 0, 3 or 4; an index names a token that is a legal move, its first listing; the
 * warning is printable. Built with -DFUZZ_REPLAY it runs the files it is given once each
 * instead (tests/robust.sh replays tests/data/fuzz-corpus/ that way, without libFuzzer). */
#include "../modes/common.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

enum { FUZZ_NODES = 1000 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Copies the whitespace-separated token number k of moves into token (cut to size); returns
 * 0 if there are not that many. */
static int nth_token(const char *moves, int k, char *token, size_t size)
{
    const char *p = moves;
    for (;;) {
        const char *start;
        size_t len;
        while (*p && isspace((unsigned char)*p))
            p++;
        if (!*p)
            return 0;
        start = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        if (k-- == 0) {
            len = (size_t)(p - start) < size - 1 ? (size_t)(p - start) : size - 1;
            memcpy(token, start, len);
            token[len] = '\0';
            return 1;
        }
    }
}

/* Aborts, so that the fuzzer keeps the input, when ok is 0. */
static void expect(int ok, const char *what, const char *fen, const char *moves)
{
    if (!ok) {
        fprintf(stderr, "contract broken: %s\nFEN: %s\nmoves: %.200s\n", what, fen, moves);
        abort();
    }
}

/* Checks the answer of decide() for fen and moves against the one-shot contract. */
static void check_answer(const char *fen, const char *moves, int status, int index, const char *err, const char *warning)
{
    Board b;
    char token[64], other[64], e[200];
    Move m, first;
    const char *p;
    int i;
    if (status != 0) {
        expect(status == EXIT_BAD_FEN || status == EXIT_BAD_MOVES, "exit status 3 or 4", fen, moves);
        expect(err[0] != '\0', "a reason for the error", fen, moves);
        return;
    }
    for (p = warning; *p; p++)
        expect(isprint((unsigned char)*p), "a printable warning", fen, moves);
    expect(board_from_fen(&b, fen, e, sizeof e), "a valid FEN when an index is given", fen, moves);
    expect(index >= 0 && nth_token(moves, index, token, sizeof token), "an index into the list", fen, moves);
    expect(move_from_text(&b, token, &m) == PARSE_OK, "the index names a legal move", fen, moves);
    for (i = 0; i < index; i++) { /* no earlier token is the same move */
        nth_token(moves, i, other, sizeof other);
        expect(strlen(other) >= 32 || move_from_text(&b, other, &first) != PARSE_OK || first != m,
               "the index names the first listing of its move", fen, moves);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Search *context;
    static FILE *null_out;
    char *copy, *field[3];
    char err[200], warning[WARNING_MAX + 100];
    size_t i;
    int fields = 1, index = -1, status;
    double seconds;
    Limits limits;

    if (!context) {
        engine_init();
        context = search_new();
        null_out = fopen("/dev/null", "w");
    }
    copy = malloc(size + 1);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    copy[size] = '\0';
    field[0] = copy;
    for (i = 0; i < size; i++) {
        if (copy[i] == '\0' && fields == 3) /* a fourth argument: the usage error */
            break;
        if (copy[i] == '\0')
            field[fields++] = copy + i + 1;
    }
    if (fields < 3 || i < size || !parse_seconds(field[2], &seconds)) {
        free(copy);
        return 0;
    }
    /* at most 0.09 s: the smallest table (4 MB), cleared for each input */
    if (seconds > 0.09)
        seconds = 0.09;
    memset(&limits, 0, sizeof limits);
    limits.node_limit = FUZZ_NODES;
    limits.start = clock_now();
    status = decide(context, field[0], field[1], seconds, &limits, &index, err, sizeof err, warning, sizeof warning);
    check_answer(field[0], field[1], status, index, err, warning);
    if (null_out && status != 0)
        print_line(null_out, "error: %s", err);
    free(copy);
    return 0;
}

#define FUZZ_REPLAY_MAX (1 << 20)
#include "fuzz_replay.h"
