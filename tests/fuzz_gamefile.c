/* tests/fuzz_gamefile.c: a libFuzzer target for the reader of datagen's game records
 * (modes/gamefile.c, `make fuzz`). An input is a file; its first byte chooses how it is read. 0:
 * as it is. 1: with the header's and each block's checksum made right first, so that damage
 * reaches the decoding behind them. Beyond the sanitizers it checks that the reader ends every
 * file, that each game it returns is whole (every move legal, each training position quiet but
 * in a file of lines, the position after the last move a training one only there), and that the
 * writer (version 2) writes it back to a file the reader gives back unchanged. Built with
 * -DFUZZ_REPLAY it runs the files it is given once each instead (tests/robust.sh replays
 * tests/fuzz-corpus/gamefile/ that way, without libFuzzer). */
#include "../modes/gamefile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The format's framing as docs/datagen.md gives it: the header's fixed bytes and where its
 * description's length lies, a block's length and checksum. */
enum { HEADER_FIXED = 12, DESCRIPTION_LENGTH_AT = 10, BLOCK_LENGTH = 4, CHECKSUM = 4 };
enum { FUZZ_MAX = 1 << 20 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Aborts, so that the fuzzer keeps the input, when ok is 0. */
static void expect(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "contract broken: %s\n", what);
        abort();
    }
}

/* zlib's CRC-32, as the format's. */
static uint32_t crc32_of(const uint8_t *bytes, size_t size)
{
    uint32_t crc = 0xFFFFFFFFu;
    size_t i;
    int bit;
    for (i = 0; i < size; i++) {
        crc ^= bytes[i];
        for (bit = 0; bit < 8; bit++)
            crc = crc >> 1 ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

static uint32_t get_u32(const uint8_t *in)
{
    return (uint32_t)in[0] | (uint32_t)in[1] << 8 | (uint32_t)in[2] << 16 | (uint32_t)in[3] << 24;
}

static void put_u32(uint8_t *out, uint32_t value)
{
    int i;
    for (i = 0; i < 4; i++)
        out[i] = (uint8_t)(value >> (8 * i));
}

/* Makes the header's checksum and each whole block's right, in place. */
static void fix_checksums(uint8_t *file, size_t size)
{
    size_t at;
    if (size < HEADER_FIXED)
        return;
    at = HEADER_FIXED + (size_t)(file[DESCRIPTION_LENGTH_AT] | file[DESCRIPTION_LENGTH_AT + 1] << 8);
    if (at + CHECKSUM > size)
        return;
    put_u32(file + at, crc32_of(file, at));
    for (at += CHECKSUM; at + BLOCK_LENGTH <= size;) {
        size_t length = get_u32(file + at);
        if (length > size - at - BLOCK_LENGTH || size - at - BLOCK_LENGTH - length < CHECKSUM)
            return;
        put_u32(file + at + BLOCK_LENGTH + length, crc32_of(file + at + BLOCK_LENGTH, length));
        at += BLOCK_LENGTH + length + CHECKSUM;
    }
}

/* Returns a temporary file holding size bytes, read from its start. */
static FILE *file_of(const uint8_t *bytes, size_t size)
{
    FILE *f = tmpfile();
    expect(f != NULL, "a temporary file");
    expect(size == 0 || fwrite(bytes, size, 1, f) == 1, "the temporary file written");
    rewind(f);
    return f;
}

/* Checks that g, read from a file with these flags, is whole: every training position quiet
 * unless the games are lines joined, which alone may end on one (its moves are legal by decoding). */
static void check_game(const GameRecord *g, int flags)
{
    Board b = g->start;
    int i, lines = (flags & GAMEFILE_LINES) != 0;
    expect(g->ply_count >= 0 && g->ply_count <= GAMEFILE_MAX_PLIES, "a ply count within the format's");
    for (i = 0; i < g->ply_count; i++) {
        Undo u;
        expect(move_is_legal(&b, g->moves[i]), "every move legal");
        expect(!g->training[i] || lines || (!board_in_check(&b) && move_is_quiet(&b, g->moves[i])), "training positions quiet");
        board_make(&b, g->moves[i], &u);
    }
    expect(!g->training[g->ply_count] || lines, "a game ends on a training position in a file of lines alone");
}

/* Writes g to a new file of records with these flags and reads it back: the same game. */
static void check_round_trip(const GameRecord *g, int flags)
{
    static GameRecord back, after;
    GameWriter writer;
    GameReader reader;
    char err[600], fens[2][FEN_MAX];
    int i;
    FILE *f = tmpfile();
    expect(f != NULL, "a temporary file");
    expect(gamefile_create(&writer, f, flags, "fuzz") && gamefile_write(&writer, g) && gamefile_finish(&writer),
           "a decoded game written");
    rewind(f);
    expect(gamefile_open(&reader, f, "round trip", err, sizeof err) && gamefile_next(&reader, &back, err, sizeof err) == 1
           && gamefile_next(&reader, &after, err, sizeof err) == 0, "a written game read back, alone");
    gamefile_close(&reader);
    fclose(f);
    board_to_fen(&g->start, fens[0]);
    board_to_fen(&back.start, fens[1]);
    expect(strcmp(fens[0], fens[1]) == 0 && strcmp(back.start_fen, g->start_fen) == 0 && back.result == g->result
           && back.ply_count == g->ply_count && memcmp(back.moves, g->moves, sizeof g->moves[0] * (size_t)g->ply_count) == 0
           && memcmp(back.training, g->training, (size_t)g->ply_count + 1) == 0, "the game read back unchanged");
    for (i = 0; i <= g->ply_count; i++)
        expect(!g->training[i] || back.scores[i] == g->scores[i], "each training position's score read back unchanged");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t file[FUZZ_MAX];
    static GameRecord g;
    GameReader reader;
    char err[600];
    int got = 1;
    long games = 0;
    FILE *f;
    if (size < 1 || size - 1 > sizeof file)
        return 0;
    movement_init();
    memcpy(file, data + 1, size - 1);
    if (data[0] & 1)
        fix_checksums(file, size - 1);
    f = file_of(file, size - 1);
    if (gamefile_open(&reader, f, "fuzz", err, sizeof err)) {
        while ((got = gamefile_next(&reader, &g, err, sizeof err)) == 1) {
            check_game(&g, reader.flags);
            check_round_trip(&g, reader.flags);
            expect(++games <= (long)size, "the reader ends");
        }
        expect(got == 0 || strncmp(err, "fuzz: game ", 11) == 0, "an error names the file and the game");
        gamefile_close(&reader);
    } else {
        expect(strncmp(err, "fuzz", 4) == 0, "an error names the file");
    }
    fclose(f);
    return 0;
}

#define FUZZ_REPLAY_MAX (FUZZ_MAX + 1)
#include "fuzz_replay.h"
