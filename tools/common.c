/* tools/common.c: labelled positions in (lines or game records, plain or through xz, with
 * their files' SHA-256), generated tables out, and a seeded generator, for tools/tune.c and
 * tools/train.c. POSIX for popen. */
#define _POSIX_C_SOURCE 200809L
#include "common.h"
#include "../modes/gamefile.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { LINE_MAX_BYTES = 512, PATH_MAX_BYTES = 4096 };

/* A SHA-256 in progress: the state, the block being filled and the bytes taken so far. */
typedef struct {
    uint32_t state[8];
    uint8_t block[64];
    uint64_t bytes;
} Sha256;

/* Where each game of a file goes (game_choose): every hold_out-th game is held out (none when
 * hold_out is 0); of the others, a share (at most 1) is trained on, spread evenly through the
 * file, the rest passed over. */
typedef struct {
    int hold_out;
    double share;
    long games, trained;    /* games seen, and training games among them */
} GameChoice;
enum { GAME_TRAINED, GAME_HELD_OUT, GAME_PASSED };

/* How a run of lines is cut into games (line_game): the last line's result, move number and
 * pieces, and where its game goes (GAME_*). */
typedef struct {
    double result;
    int fullmove, pieces, game;
} LineGames;

/* The training positions of a file of game records on their way to a LabelledVisit: where the
 * record at hand goes (GAME_*), or, in a file of lines, where each position's line goes as if it
 * were read as a line; the counts and the lines' SHA-256. */
typedef struct {
    LabelledVisit visit;
    void *context;
    int game, by_line;
    LineGames games;
    GameChoice *choice;
    long limit;
    LabelledCount *count;
    Sha256 *lines;
} RecordVisit;

/* A file of records being read: its blocks taken in turn (gamefile_take_block) by RECORD_DECODERS
 * threads, each decoding its block's games into one of RECORD_SLOTS slots, which the caller's
 * thread takes in the blocks' order to replay, count and visit (taken and consumed count blocks;
 * `ended` once a block was the file's end or damaged, `stop` once the caller wants no more,
 * `waiting`: threads asleep on `changed`). */
enum { RECORD_DECODERS = 2, RECORD_SLOTS = 4 };
typedef struct {
    GameRecord games[GAMEFILE_BLOCK_GAMES];
    long number;        /* the block's in the file */
    int count;          /* its games decoded */
    int got;            /* 1: all of them; 0: the file ended before it; -1: damaged after `count` games */
    int ready;
    char err[600];
} DecodedBlock;
typedef struct {
    GameReader reader;
    DecodedBlock slots[RECORD_SLOTS];
    long taken, consumed;
    int ended, stop, waiting;
    pthread_mutex_t lock;
    pthread_cond_t changed;
} RecordQueue;

/* A file of lines read in large pieces, each byte taken into the lines' SHA-256 as it is read. */
typedef struct {
    FILE *file;
    Sha256 lines;
    size_t at, filled;
    uint8_t buffer[1 << 16];
} TextSource;

/* prototypes */
static char *trim(char *s);
static int parse_line(char *line, Board *b, int *score, double *result, char *why, size_t why_size);
static FILE *input_open(const char *path, int *piped, char *err, size_t err_size);
static int input_close(FILE *f, int piped);
static int game_choose(GameChoice *c);
static int line_game(LineGames *g, const Board *b, double result, GameChoice *choice);
static int source_line(TextSource *source, char *line, size_t size, int *too_long);
static int source_more(TextSource *source);
static int lines_read(FILE *f, const char *path, LabelledVisit visit, void *context, long limit, GameChoice *choice,
                      LabelledCount *count, char *err, size_t err_size);
static int records_read(FILE *f, const char *path, LabelledVisit visit, void *context, long limit, GameChoice *choice,
                        LabelledCount *count, char *err, size_t err_size);
static void *records_decode(void *arg);
static void queue_wait(RecordQueue *q);
static int record_position(void *context, const Board *b, const char *fen, int score, int result);
static int lineage_check(const ToolOptions *o, char *err, size_t err_size);
static int lineage_line(const char *line, char *name, size_t name_size, char *sha, char *lines_sha);
static size_t name_stem(const char *name);
static void sha256_block(uint32_t *state, const uint8_t *block);
static void sha256_start(Sha256 *h);
static void sha256_add(Sha256 *h, const uint8_t *data, size_t size);
static void sha256_end(Sha256 *h, char hex[65]);
static char *read_stream(FILE *f, size_t *length);
static const char *base_name(const char *path);
static void temporary_name(const char *path, char *out, size_t size);

/* Returns s without leading and trailing white space (cut in place). */
static char *trim(char *s)
{
    char *end;
    while (isspace((unsigned char)*s))
        s++;
    end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        *--end = '\0';
    return s;
}

/* Parses `FEN | SCORE | RESULT`; returns 1, or 0 with what is wrong in why. */
static int parse_line(char *line, Board *b, int *score, double *result, char *why, size_t why_size)
{
    char *fields[3], *p = line, *end, err[200];
    long value;
    int n;
    for (n = 0; n < 3; n++) {
        fields[n] = p;
        p = strchr(p, '|');
        if (!p)
            break;
        *p++ = '\0';
    }
    if (n != 2) {
        snprintf(why, why_size, "expected 3 fields separated by '|', found %d", n + (n < 3));
        return 0;
    }
    if (!board_from_fen(b, trim(fields[0]), err, sizeof err)) {
        snprintf(why, why_size, "bad FEN: %s", err);
        return 0;
    }
    errno = 0;
    value = strtol(trim(fields[1]), &end, 10);
    if (end == fields[1] || *end || errno || value < -100000 || value > 100000) {
        snprintf(why, why_size, "score '%.20s' is not a whole number of centipawns", fields[1]);
        return 0;
    }
    *score = (int)value;
    *result = strtod(trim(fields[2]), &end);
    if (end == fields[2] || *end || !(*result == 0 || *result == 0.5 || *result == 1)) {
        snprintf(why, why_size, "result '%.20s' is not 1.0, 0.5 or 0.0", fields[2]);
        return 0;
    }
    return 1;
}

int labelled_read(const char *path, LabelledVisit visit, void *context, long limit, int hold_out, double share,
                  LabelledCount *count, char *err, size_t err_size)
{
    int piped, ok;
    GameChoice choice = { 0, 0, 0, 0 };
    FILE *f = input_open(path, &piped, err, err_size);
    memset(count, 0, sizeof *count);
    choice.hold_out = hold_out;
    choice.share = share;
    if (!f)
        return 0;
    if (gamefile_named(path))
        ok = records_read(f, path, visit, context, limit, &choice, count, err, err_size);
    else
        ok = lines_read(f, path, visit, context, limit, &choice, count, err, err_size);
    /* xz, cut off by a limit, is stopped by its broken pipe: its status says nothing then */
    if (!input_close(f, piped) && ok && !count->cut) {
        snprintf(err, err_size, "%s: xz could not decompress it", path);
        ok = 0;
    }
    return ok;
}

/* Opens path for reading: "-" is standard input, a name ending in .xz is read through `xz -dc`
 * (*piped set); returns NULL with a reason in err. */
static FILE *input_open(const char *path, int *piped, char *err, size_t err_size)
{
    size_t n = strlen(path);
    FILE *f;
    *piped = n > 3 && strcmp(path + n - 3, ".xz") == 0;
    if (strcmp(path, "-") == 0)
        return stdin;
    if (!(f = fopen(path, "rb"))) {
        snprintf(err, err_size, "cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    if (*piped) {
        char command[PATH_MAX_BYTES + 32] = "exec xz -dc -- '";
        size_t used = strlen(command), i;
        fclose(f);
        for (i = 0; i < n && used + 6 < sizeof command; i++)
            used += (size_t)snprintf(command + used, sizeof command - used, path[i] == '\'' ? "'\\''" : "%c", path[i]);
        snprintf(command + used, sizeof command - used, "'");
        if (!(f = popen(command, "r")))
            snprintf(err, err_size, "cannot start xz to read %s", path);
    }
    return f;
}

/* Closes what input_open opened; returns 0 if it was xz and it failed. */
static int input_close(FILE *f, int piped)
{
    if (f == stdin)
        return 1;
    if (piped)
        return pclose(f) == 0;
    fclose(f);
    return 1;
}

/* Says where the next game goes (GAME_TRAINED, GAME_HELD_OUT or GAME_PASSED): the k-th training
 * game (from 0) is trained on when floor((k + 1) * share) passes floor(k * share). */
static int game_choose(GameChoice *c)
{
    long k;
    c->games++;
    if (c->hold_out > 0 && c->games % c->hold_out == 0)
        return GAME_HELD_OUT;
    k = c->trained++;
    return floor((double)(k + 1) * c->share) > floor((double)k * c->share) ? GAME_TRAINED : GAME_PASSED;
}

/* Reads the next line of source into line, with its newline (at most size - 1 bytes; a longer
 * line is read to its end, dropped, and *too_long set); returns 0 at the end of the file. */
static int source_line(TextSource *source, char *line, size_t size, int *too_long)
{
    size_t kept = 0;
    *too_long = 0;
    for (;;) {
        const uint8_t *end;
        size_t take, keep;
        if (source->at == source->filled && !source_more(source)) {
            line[kept] = '\0';
            return kept > 0 || *too_long;
        }
        end = memchr(source->buffer + source->at, '\n', source->filled - source->at);
        take = (end ? (size_t)(end - source->buffer) + 1 : source->filled) - source->at;
        keep = take < size - 1 - kept ? take : size - 1 - kept;
        *too_long |= keep < take;
        memcpy(line + kept, source->buffer + source->at, keep);
        kept += keep;
        source->at += take;
        if (end) {
            line[kept] = '\0';
            return 1;
        }
    }
}

/* Reads the next piece of the file into source's buffer (taking it into the lines' SHA-256);
 * returns 0 at the end of the file. */
static int source_more(TextSource *source)
{
    source->at = 0;
    source->filled = fread(source->buffer, 1, sizeof source->buffer, source->file);
    sha256_add(&source->lines, source->buffer, source->filled);
    return source->filled > 0;
}

/* Returns where the line of board b with this result goes (GAME_*), its game's: a new game begins
 * where the result changes, the move number falls or the pieces grow in number. */
static int line_game(LineGames *g, const Board *b, double result, GameChoice *choice)
{
    int pieces = bit_count(b->occupied[WHITE] | b->occupied[BLACK]);
    if (result != g->result || b->fullmove < g->fullmove || pieces > g->pieces)
        g->game = game_choose(choice);
    g->result = result;
    g->fullmove = b->fullmove;
    g->pieces = pieces;
    return g->game;
}

/* labelled_read's lines. */
static int lines_read(FILE *f, const char *path, LabelledVisit visit, void *context, long limit, GameChoice *choice,
                      LabelledCount *count, char *err, size_t err_size)
{
    static TextSource source;
    char line[LINE_MAX_BYTES], why[300];
    long number = 0;
    int stopped = 0, too_long;
    LineGames games = { -1, 0, 0, GAME_TRAINED };
    source.file = f;
    source.at = source.filled = 0;
    sha256_start(&source.lines);
    while (!stopped && (limit <= 0 || number < limit) && source_line(&source, line, sizeof line, &too_long)) {
        Board b;
        int score, game;
        double result;
        number++;
        if (too_long)
            snprintf(why, sizeof why, "longer than %d bytes", LINE_MAX_BYTES - 2);
        if (!too_long && *trim(line) == '\0')
            continue;
        count->lines++;
        if (too_long || !parse_line(line, &b, &score, &result, why, sizeof why)) {
            if (count->malformed++ == 0)
                fprintf(stderr, "warning: %s line %ld skipped: %s (later malformed lines are only counted)\n",
                        path, number, why);
            continue;
        }
        game = line_game(&games, &b, result, choice);
        if (game == GAME_PASSED) {
            count->passed++;
            continue;
        }
        count->good++;
        stopped = visit(context, &b, score, result, game == GAME_HELD_OUT) != 0;
    }
    count->cut = limit > 0 && number >= limit && (source.at < source.filled || source_more(&source));
    if (!count->cut)
        sha256_end(&source.lines, count->lines_sha256);
    if (stopped) {
        snprintf(err, err_size, "%s: stopped at line %ld", path, number);
        return 0;
    }
    if (count->good == 0) {
        snprintf(err, err_size, "%s holds no position (%ld lines, %ld malformed)", path, count->lines, count->malformed);
        return 0;
    }
    return 1;
}

/* labelled_read's game records: every training position of each game kept (game_choose says
 * which are held out or passed over); a damaged file is an error (its first bad game named), not
 * a warning. */
static int records_read(FILE *f, const char *path, LabelledVisit visit, void *context, long limit, GameChoice *choice,
                        LabelledCount *count, char *err, size_t err_size)
{
    static RecordQueue queue;
    RecordQueue *q = &queue;
    RecordVisit each;
    Sha256 lines;
    pthread_t threads[RECORD_DECODERS];
    int started = 0, stopped = 0, got = 1, i;
    long number;
    LineGames games = { -1, 0, 0, GAME_TRAINED };
    if (!gamefile_open(&q->reader, f, path, err, err_size))
        return 0;
    q->taken = q->consumed = 0;
    q->ended = q->stop = q->waiting = 0;
    for (i = 0; i < RECORD_SLOTS; i++)
        q->slots[i].ready = 0;
    pthread_mutex_init(&q->lock, NULL);
    pthread_cond_init(&q->changed, NULL);
    while (started < RECORD_DECODERS && pthread_create(&threads[started], NULL, records_decode, q) == 0)
        started++;
    each.visit = visit;
    each.context = context;
    each.games = games;
    each.choice = choice;
    each.limit = limit;
    each.count = count;
    each.lines = &lines;
    each.by_line = (q->reader.flags & GAMEFILE_LINES) != 0;
    sha256_start(&lines);
    for (number = 0; started > 0 && got == 1 && !stopped && (limit <= 0 || count->good < limit); number++) {
        DecodedBlock *block = &q->slots[number % RECORD_SLOTS];
        pthread_mutex_lock(&q->lock);
        while (!(block->ready && block->number == number))
            queue_wait(q);
        pthread_mutex_unlock(&q->lock);
        for (i = 0; i < block->count && !stopped && (limit <= 0 || count->good < limit); i++) {
            count->lines++;
            if (!each.by_line)
                each.game = game_choose(choice);
            stopped = gamefile_visit(&block->games[i], record_position, &each) < 0;
        }
        got = i < block->count ? 1 : block->got;
        if (got < 0)
            snprintf(err, err_size, "%s", block->err);
        pthread_mutex_lock(&q->lock);
        block->ready = 0;
        q->consumed++;
        if (q->waiting)
            pthread_cond_broadcast(&q->changed);
        pthread_mutex_unlock(&q->lock);
    }
    pthread_mutex_lock(&q->lock);
    q->stop = 1;
    pthread_cond_broadcast(&q->changed);
    pthread_mutex_unlock(&q->lock);
    for (i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    gamefile_close(&q->reader);
    pthread_mutex_destroy(&q->lock);
    pthread_cond_destroy(&q->changed);
    count->cut = got == 1 && !stopped;
    if (got == 0)
        sha256_end(&lines, count->lines_sha256);
    if (started == 0)
        snprintf(err, err_size, "cannot start a thread to read %s", path);
    else if (stopped)
        snprintf(err, err_size, "%s: stopped at game %ld", path, count->lines);
    else if (got >= 0 && count->good == 0)
        snprintf(err, err_size, "%s holds no training position (%ld games)", path, count->lines);
    return started > 0 && !stopped && got >= 0 && count->good > 0;
}

/* A thread that decodes a file of records (arg: the RecordQueue): it takes the next block in
 * turn, once a slot is free, and decodes its games into the slot, until the file ends or is
 * damaged or the caller stops. */
static void *records_decode(void *arg)
{
    RecordQueue *q = arg;
    GameReader block;
    memset(&block, 0, sizeof block);
    for (;;) {
        DecodedBlock *slot;
        int got, next = 1;
        pthread_mutex_lock(&q->lock);
        while (!q->stop && !q->ended && q->taken - q->consumed == RECORD_SLOTS)
            queue_wait(q);
        if (q->stop || q->ended) {
            pthread_mutex_unlock(&q->lock);
            break;
        }
        slot = &q->slots[q->taken % RECORD_SLOTS];
        slot->number = q->taken++;
        slot->err[0] = '\0';
        got = gamefile_take_block(&q->reader, &block, slot->err, sizeof slot->err);
        q->ended = got <= 0;
        pthread_mutex_unlock(&q->lock);
        for (slot->count = 0; got == 1 && (next = gamefile_next(&block, &slot->games[slot->count], slot->err, sizeof slot->err)) == 1;)
            slot->count++;
        slot->got = got == 1 ? (next < 0 ? -1 : 1) : got;
        pthread_mutex_lock(&q->lock);
        q->ended |= slot->got < 0;
        slot->ready = 1;
        if (q->waiting)
            pthread_cond_broadcast(&q->changed);
        pthread_mutex_unlock(&q->lock);
    }
    gamefile_close(&block);
    return NULL;
}

/* Sleeps on the queue's `changed` (its lock held), counted among the waiting. */
static void queue_wait(RecordQueue *q)
{
    q->waiting++;
    pthread_cond_wait(&q->changed, &q->lock);
    q->waiting--;
}

/* Takes one training position of a record (a TrainingVisit) into the lines' SHA-256, as the line
 * `datagen --read` prints, and hands it to the LabelledVisit unless its game is passed over (in a
 * file of lines, its line's game as lines_read would cut them): returns 1 at the limit, -1 when
 * the visitor stops. */
static int record_position(void *context, const Board *b, const char *fen, int score, int result)
{
    RecordVisit *each = context;
    char line[FEN_MAX + 32];
    int game = each->by_line ? line_game(&each->games, b, result / 2.0, each->choice) : each->game;
    if (game != GAME_PASSED && each->limit > 0 && each->count->good >= each->limit)
        return 1;
    sha256_add(each->lines, (const uint8_t *)line, (size_t)gamefile_line(line, sizeof line, fen, score, result));
    if (game == GAME_PASSED) {
        each->count->passed++;
        return 0;
    }
    each->count->good++;
    return each->visit(each->context, b, score, result / 2.0, game == GAME_HELD_OUT) != 0 ? -1 : 0;
}

/* SHA-256 (FIPS 180-4): the round constants and one 64-byte block into the state. */
static const uint32_t SHA256_K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROTATE(x, n) ((x) >> (n) | (x) << (32 - (n)))

static void sha256_block(uint32_t *state, const uint8_t *block)
{
    uint32_t w[64], a = state[0], b = state[1], c = state[2], d = state[3], e = state[4], f = state[5], g = state[6], h = state[7];
    uint32_t t1, t2;
    int i;
    for (i = 0; i < 16; i++)
        w[i] = (uint32_t)block[4 * i] << 24 | (uint32_t)block[4 * i + 1] << 16 | (uint32_t)block[4 * i + 2] << 8 | block[4 * i + 3];
    for (i = 16; i < 64; i++)
        w[i] = w[i - 16] + (ROTATE(w[i - 15], 7) ^ ROTATE(w[i - 15], 18) ^ w[i - 15] >> 3) + w[i - 7]
             + (ROTATE(w[i - 2], 17) ^ ROTATE(w[i - 2], 19) ^ w[i - 2] >> 10);
    for (i = 0; i < 64; i++) {
        t1 = h + (ROTATE(e, 6) ^ ROTATE(e, 11) ^ ROTATE(e, 25)) + ((e & f) ^ (~e & g)) + SHA256_K[i] + w[i];
        t2 = (ROTATE(a, 2) ^ ROTATE(a, 13) ^ ROTATE(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
}

static void sha256_start(Sha256 *h)
{
    static const uint32_t START[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
    memcpy(h->state, START, sizeof h->state);
    h->bytes = 0;
}

static void sha256_add(Sha256 *h, const uint8_t *data, size_t size)
{
    while (size > 0) {
        size_t fill = (size_t)(h->bytes % 64), take = 64 - fill < size ? 64 - fill : size;
        memcpy(h->block + fill, data, take);
        h->bytes += take;
        data += take;
        size -= take;
        if (fill + take == 64)
            sha256_block(h->state, h->block);
    }
}

/* The padding (a one bit, zeros, and the length in bits, in one block or two), then the digest
 * as 64 hexadecimal digits. */
static void sha256_end(Sha256 *h, char hex[65])
{
    uint64_t bits = h->bytes * 8;
    uint8_t one = 0x80, zero = 0, length[8];
    int i;
    sha256_add(h, &one, 1);
    while (h->bytes % 64 != 56)
        sha256_add(h, &zero, 1);
    for (i = 0; i < 8; i++)
        length[i] = (uint8_t)(bits >> (56 - 8 * i));
    sha256_add(h, length, sizeof length);
    for (i = 0; i < 8; i++)
        snprintf(hex + 8 * i, 9, "%08lx", (unsigned long)h->state[i]);
}

int file_sha256(const char *path, char hex[65])
{
    static uint8_t chunk[1 << 16];
    Sha256 h;
    size_t got;
    int ok;
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    sha256_start(&h);
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        sha256_add(&h, chunk, got);
    ok = !ferror(f);
    fclose(f);
    sha256_end(&h, hex);
    return ok;
}

void text_sha256(const char *text, size_t size, char hex[65])
{
    Sha256 h;
    sha256_start(&h);
    sha256_add(&h, (const uint8_t *)text, size);
    sha256_end(&h, hex);
}

double random_unit(uint64_t *state)
{
    return (double)(random_next(state) >> 11) / 9007199254740992.0;
}

double random_normal(uint64_t *state)
{
    double u = random_unit(state), v = random_unit(state);
    return sqrt(-2 * log(1 - u)) * cos(6.283185307179586 * v);
}

double sigmoid(double x)
{
    return 1 / (1 + exp(-x));
}

static void temporary_name(const char *path, char *out, size_t size)
{
    snprintf(out, size, "%s.tmp", path);
}

FILE *begin_output(const char *path, char *err, size_t err_size)
{
    char tmp[PATH_MAX_BYTES];
    FILE *f;
    temporary_name(path, tmp, sizeof tmp);
    f = fopen(tmp, "w");
    if (!f)
        snprintf(err, err_size, "cannot write %s: %s", tmp, strerror(errno));
    return f;
}

int commit_output(FILE *f, const char *path, char *err, size_t err_size)
{
    char tmp[PATH_MAX_BYTES];
    int bad = ferror(f);
    temporary_name(path, tmp, sizeof tmp);
    if (fclose(f) != 0 || bad) {
        snprintf(err, err_size, "cannot finish writing %s", tmp);
        remove(tmp);
        return 0;
    }
    if (rename(tmp, path) != 0) {
        snprintf(err, err_size, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
        remove(tmp);
        return 0;
    }
    return 1;
}

void abandon_output(FILE *f, const char *path)
{
    char tmp[PATH_MAX_BYTES];
    temporary_name(path, tmp, sizeof tmp);
    fclose(f);
    remove(tmp);
}

/* Reads the rest of f into a string of *length bytes and a '\\0' (NULL on a read error or when
 * memory is short). */
static char *read_stream(FILE *f, size_t *length)
{
    char *text = NULL, *grown;
    long capacity = 0, used = 0;
    size_t got = 1;
    while (got > 0) {
        if (!(grown = grow_array(text, &capacity, used + 65536, 1, 65536))) {
            free(text);
            return NULL;
        }
        text = grown;
        got = fread(text + used, 1, (size_t)(capacity - used - 1), f);
        used += (long)got;
    }
    if (ferror(f)) {
        free(text);
        return NULL;
    }
    text[used] = '\0';
    *length = (size_t)used;
    return text;
}

char *read_text_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *text;
    size_t length;
    if (!f)
        return NULL;
    text = read_stream(f, &length);
    fclose(f);
    return text;
}

char *command_output(const char *command, size_t *length)
{
    FILE *f = popen(command, "r");
    char *text;
    if (!f)
        return NULL;
    text = read_stream(f, length);
    if (pclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

void *grow_array(void *array, long *capacity, long need, size_t item, long first)
{
    long more = *capacity ? *capacity : first;
    void *grown;
    if (need <= *capacity)
        return array;
    while (more < need)
        more *= 2;
    if ((grown = realloc(array, item * (size_t)more)) != NULL)
        *capacity = more;
    return grown;
}

void tool_defaults(ToolOptions *o, const char *out, int epochs, double rate, double lambda)
{
    memset(o, 0, sizeof *o);
    o->out = out;
    o->epochs = epochs;
    o->batch = 16384;
    o->rate = rate;
    o->lambda = lambda;
    o->seed = 1;
    o->hold_out = VALIDATION_EVERY;
    o->train_share = 1;
}

int take_number(const NumberOption *table, int count, const char *key, const char *value)
{
    char *end;
    int i;
    for (i = 0; i < count && strcmp(table[i].name, key) != 0; i++)
        ;
    if (i == count)
        return 0;
    errno = 0;
    if (table[i].real) {
        *table[i].real = strtod(value, &end);
    } else {
        long n = strtol(value, &end, 10);
        if (errno || n < -2147483647L || n > 2147483647L)
            return -1;
        *table[i].whole = (int)n;
    }
    return end != value && !*end ? 1 : -1;
}

/* Takes one of the options both tools share; returns 1, 0 when key is not one, -1 when the
 * value is bad. */
static int shared_option(ToolOptions *o, const char *key, const char *value)
{
    int added = strcmp(key, "--add") == 0;
    char *end;
    if (added || strcmp(key, "--data") == 0) {
        if (o->data_count == DATA_FILES_MAX)
            return -1;
        o->data_added[o->data_count] = added;
        o->data[o->data_count++] = value;
        return 1;
    }
    if (strcmp(key, "--out") == 0 || strcmp(key, "--lineage") == 0) {
        *(key[2] == 'o' ? &o->out : &o->lineage) = value;
        return 1;
    }
    if (strcmp(key, "--seed") == 0 || strcmp(key, "--limit") == 0) {
        unsigned long long n = strtoull(value, &end, 10);
        if (end == value || *end || value[0] == '-')
            return -1;
        if (key[2] == 's')
            o->seed = n;
        else
            o->limit = (long)n;
        return 1;
    }
    {
        const NumberOption numbers[] = {
            { "--epochs", &o->epochs, NULL }, { "--batch", &o->batch, NULL }, { "--hold-out", &o->hold_out, NULL },
            { "--rate", NULL, &o->rate }, { "--lambda", NULL, &o->lambda }, { "--train-share", NULL, &o->train_share },
        };
        int taken = take_number(numbers, (int)(sizeof numbers / sizeof numbers[0]), key, value);
        return taken == 1 && !(o->train_share > 0 && o->train_share <= 1) ? -1 : taken;
    }
}

int tool_options(int argc, char **argv, ToolOptions *o, void (*usage)(FILE *out), OptionTake take, void *own)
{
    int i;
    for (i = 1; i < argc; i++) {
        const char *key = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        int taken;
        if (strcmp(key, "--help") == 0) {
            usage(stdout);
            exit(0);
        }
        if (!value) {
            fprintf(stderr, "error: %s needs a value (see --help)\n", key);
            return 0;
        }
        i++;
        taken = shared_option(o, key, value);
        if (taken == 0 && take)
            taken = take(own, key, value);
        if (taken == 0) {
            fprintf(stderr, "error: unknown option '%s' (see --help)\n", key);
            return 0;
        }
        if (taken < 0) {
            fprintf(stderr, "error: %s '%s' is not a good value (see --help)\n", key, value);
            return 0;
        }
    }
    return 1;
}

int tool_read_data(ToolOptions *o, LabelledVisit visit, void *context, const char *const *failure)
{
    LabelledCount count;
    char err[800];
    int d;
    for (d = 0; d < o->data_count; d++) {
        int added = o->data_added[d];
        int hold_out = added ? 0 : o->hold_out;
        double share = added ? 1 : o->train_share;
        if (!labelled_read(o->data[d], visit, context, o->limit, hold_out, share, &count, err, sizeof err)) {
            fprintf(stderr, "error: %s\n", *failure ? *failure : err);
            return 0;
        }
        if (strcmp(o->data[d], "-") == 0)
            snprintf(o->data_sha256[d], sizeof o->data_sha256[d], "(standard input)");
        else if (!file_sha256(o->data[d], o->data_sha256[d]))
            snprintf(o->data_sha256[d], sizeof o->data_sha256[d], "(unreadable)");
        snprintf(o->data_lines_sha256[d], sizeof o->data_lines_sha256[d], "%s", count.cut ? "(not taken: --limit)" : count.lines_sha256);
        o->data_positions[d] = count.good;
        printf("%s: %ld %s, %ld positions, %ld malformed", o->data[d], count.lines, gamefile_named(o->data[d]) ? "games" : "lines",
               count.good, count.malformed);
        if (added)
            printf(", all trained on (--add)");
        else if (o->train_share < 1)
            printf(", %ld passed over (--train-share)", count.passed);
        printf("\n");
    }
    if (o->lineage && !lineage_check(o, err, sizeof err)) {
        fprintf(stderr, "error: %s\n", err);
        return 0;
    }
    return 1;
}

/* Checks each data file against the Data lines of the table o->lineage that name it by its stem:
 * its lines' SHA-256 must be the line's (its file's, for a line without one); prints a line for
 * each file checked. Returns 1, or 0 with the first mismatch in err. */
static int lineage_check(const ToolOptions *o, char *err, size_t err_size)
{
    char *table = read_text_file(o->lineage), *line, *next;
    int d;
    if (!table) {
        snprintf(err, err_size, "--lineage: cannot read %s", o->lineage);
        return 0;
    }
    for (line = table; line && *line; line = next) {
        char name[PATH_MAX_BYTES], sha[65], lines_sha[65];
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (!lineage_line(line, name, sizeof name, sha, lines_sha))
            continue;
        for (d = 0; d < o->data_count; d++) {
            const char *base = base_name(o->data[d]);
            size_t stem = name_stem(base);
            const char *want = lines_sha[0] ? lines_sha : sha, *have = lines_sha[0] ? o->data_lines_sha256[d] : o->data_sha256[d];
            if (stem != name_stem(name) || strncmp(base, name, stem) != 0 || (!lines_sha[0] && strcmp(base, name) != 0))
                continue;
            if (strcmp(have, want) != 0 && strcmp(o->data_lines_sha256[d], "(not taken: --limit)") != 0) {
                snprintf(err, err_size, "%.100s is not the data %.100s names as %.100s: %s SHA-256 %s, not %s", base, o->lineage,
                         name, lines_sha[0] ? "lines" : "file", have, want);
                free(table);
                return 0;
            }
            printf("%s: %s, as %s names %s\n", base, strcmp(have, want) == 0 ? "the same lines" : "not checked (--limit)",
                   o->lineage, name);
        }
    }
    free(table);
    return 1;
}

/* Reads a table's line " * Data: NAME, SHA-256 HEX[, lines SHA-256 HEX], N positions" into name,
 * sha and lines_sha ("" when it has none); returns 0 for any other line. */
static int lineage_line(const char *line, char *name, size_t name_size, char *sha, char *lines_sha)
{
    static const char DATA[] = " * Data: ";
    const char *comma = strstr(line, ", SHA-256 "), *lines = strstr(line, ", lines SHA-256 ");
    size_t length;
    if (strncmp(line, DATA, sizeof DATA - 1) != 0 || !comma)
        return 0;
    length = (size_t)(comma - line) - (sizeof DATA - 1);
    if (length >= name_size || sscanf(comma, ", SHA-256 %64[0-9a-f]", sha) != 1)
        return 0;
    memcpy(name, line + sizeof DATA - 1, length);
    name[length] = '\0';
    lines_sha[0] = '\0';
    return !lines || sscanf(lines, ", lines SHA-256 %64[0-9a-f]", lines_sha) == 1;
}

/* Returns the length of name's stem: the name less ".xz" at its end, then less ".txt" or ".games". */
static size_t name_stem(const char *name)
{
    static const char *const KINDS[] = { ".txt", ".games" };
    size_t n = strlen(name), i;
    if (n > 3 && strcmp(name + n - 3, ".xz") == 0)
        n -= 3;
    for (i = 0; i < sizeof KINDS / sizeof KINDS[0]; i++) {
        size_t k = strlen(KINDS[i]);
        if (n > k && strncmp(name + n - k, KINDS[i], k) == 0)
            return n - k;
    }
    return n;
}

/* Returns the part of path after its last '/'. */
static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

size_t tool_command(char *summary, size_t size, const char *tool, const ToolOptions *o, int argc, char **argv,
                    const char *start)
{
    size_t used = (size_t)snprintf(summary, size, " * Command: %s", tool);
    int i;
    for (i = 1; i < argc && used < size - 200; i++) {
        if (strcmp(argv[i], "--lineage") == 0 && i + 1 < argc) {
            i++;
            continue;
        }
        used += (size_t)snprintf(summary + used, size - used, " %s", base_name(argv[i]));
    }
    if (start)
        used += (size_t)snprintf(summary + used, size - used, "\n%s", start);
    for (i = 0; i < o->data_count && used < size - 200; i++)
        used += (size_t)snprintf(summary + used, size - used, "\n * Data: %s, SHA-256 %s, lines SHA-256 %s, %ld positions",
                                 base_name(o->data[i]), o->data_sha256[i], o->data_lines_sha256[i], o->data_positions[i]);
    return used;
}
