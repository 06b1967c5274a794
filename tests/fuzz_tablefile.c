/* tests/fuzz_tablefile.c: a libFuzzer target for the table file of --hash-file (`make fuzz`).
 * An input makes a file: its first byte chooses how, the rest is the material. 0: the rest is
 * the file; 1: a good header for a 1 MB table, the rest tiled over the table and histories;
 * 2: the same with the header's bytes XORed by the rest's first ones. The file is attached, a
 * position searched for a few thousand nodes and the file detached. Beyond the sanitizers it
 * checks that the search answers a legal move and that a file refused as not ours is left as
 * it was. Built with -DFUZZ_REPLAY it runs the files it is given once each instead
 * (tests/robust.sh replays tests/data/fuzz-corpus/tablefile/ that way, without libFuzzer). */
#include "../modes/system.h"
#include "../modes/tablefile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if HAVE_POSIX
#include <unistd.h>
#endif

enum { FUZZ_NODES = 3000, FUZZ_TABLE_MB = 1 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Aborts, so that the fuzzer keeps the input, when ok is 0. */
static void expect(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "contract broken: %s\n", what);
        abort();
    }
}

/* Writes the file an input describes to path (perhaps empty); returns 1, or 0 if it cannot. */
static int make_file(const char *path, const uint8_t *data, size_t size)
{
    static unsigned char file[1 << 22];
    size_t length = size - 1, i;
    int mode = data[0] % 3;
    FILE *out;
    data++;
    if (mode == 0) {
        length = length < sizeof file ? length : sizeof file;
        memcpy(file, data, length);
    } else {
        uint64_t count = (uint64_t)FUZZ_TABLE_MB * 1024 * 1024 / table_bucket_size();
        TableFileHeader h;
        length = table_file_size(count);
        if (length > sizeof file)
            return 0;
        table_file_header(&h, count);
        for (i = sizeof h; i < length; i++)
            file[i] = size > 1 ? data[i % (size - 1)] : 0;
        for (i = 0; mode == 2 && i < sizeof h && i < size - 1; i++)
            ((unsigned char *)&h)[i] ^= data[i];
        memcpy(file, &h, sizeof h);
    }
    out = fopen(path, "wb");
    if (!out)
        return 0;
    i = fwrite(file, 1, length, out);
    return fclose(out) == 0 && i == length;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Search *context;
    static char path[64], before[80];
    static const char FEN[] = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    char warning[400], err[200];
    TableFile file;
    Limits limits;
    Board b;
    int attached;
    if (size == 0)
        return 0;
    if (!context) {
        engine_init();
        context = search_new();
#if HAVE_POSIX
        snprintf(path, sizeof path, "/tmp/boxer-fuzz-table.%ld", (long)getpid());
#else
        snprintf(path, sizeof path, "/tmp/boxer-fuzz-table");
#endif
        snprintf(before, sizeof before, "%s.before", path);
    }
    if (!make_file(path, data, size) || !make_file(before, data, size)) {
        remove(path);
        remove(before);
        return 0;
    }
    attached = table_file_attach(&file, path, FUZZ_TABLE_MB, context, warning, sizeof warning);
    expect(attached || warning[0], "a refused file gives a warning");
    memset(&limits, 0, sizeof limits);
    limits.node_limit = FUZZ_NODES;
    limits.start = clock_now();
    limits.keep_history = attached; /* as a one-shot call with a table file searches */
    board_from_fen(&b, FEN, err, sizeof err);
    if (!attached)
        search_set_table(context, FUZZ_TABLE_MB);
    search_run(context, &b, NULL, 0, NULL, 0, &limits);
    expect(move_is_legal(&b, search_best_move(context)), "a legal move");
    if (attached) {
        table_file_detach(&file, context, warning, sizeof warning);
    } else if (strstr(warning, "not a Boxer table file")) {
        /* a file not ours is left as it was */
        char command[200];
        snprintf(command, sizeof command, "cmp -s %s %s", path, before);
        expect(system(command) == 0, "a file not ours is left as it was");
    }
    remove(path);
    remove(before);
    return 0;
}

#define FUZZ_REPLAY_MAX (1 << 20)
#include "fuzz_replay.h"
