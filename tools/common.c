/* tools/common.c: labelled positions in (lines or game records, plain or through xz, with
 * their files' SHA-256), generated tables out, and a seeded generator, for tools/tune.c and
 * tools/train.c. POSIX for popen. */
#define _POSIX_C_SOURCE 200809L
#include "common.h"
#include "../modes/gamefile.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { LINE_MAX_BYTES = 512, PATH_MAX_BYTES = 4096 };

/* The training positions of a file of game records on their way to a LabelledVisit. */
typedef struct {
    LabelledVisit visit;
    void *context;
    int held_out;
    long limit;
    LabelledCount *count;
} RecordVisit;

/* Where each game of a file goes (game_choose): every hold_out-th game is held out (none when
 * hold_out is 0); of the others, a share (at most 1) is trained on, spread evenly through the
 * file, the rest passed over. */
typedef struct {
    int hold_out;
    double share;
    long games, trained;    /* games seen, and training games among them */
} GameChoice;
enum { GAME_TRAINED, GAME_HELD_OUT, GAME_PASSED };

/* A SHA-256 in progress: the state, the block being filled and the bytes taken so far. */
typedef struct {
    uint32_t state[8];
    uint8_t block[64];
    uint64_t bytes;
} Sha256;

/* prototypes */
static char *trim(char *s);
static int parse_line(char *line, Board *b, int *score, double *result, char *why, size_t why_size);
static FILE *input_open(const char *path, int *piped, char *err, size_t err_size);
static int input_close(FILE *f, int piped);
static int game_choose(GameChoice *c);
static int lines_read(FILE *f, const char *path, LabelledVisit visit, void *context, long limit, GameChoice *choice,
                      LabelledCount *count, char *err, size_t err_size);
static int records_read(FILE *f, const char *path, LabelledVisit visit, void *context, long limit, GameChoice *choice,
                        LabelledCount *count, char *err, size_t err_size);
static int record_position(void *context, const Board *b, const char *fen, int score, int result);
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

/* labelled_read's lines. */
static int lines_read(FILE *f, const char *path, LabelledVisit visit, void *context, long limit, GameChoice *choice,
                      LabelledCount *count, char *err, size_t err_size)
{
    char line[LINE_MAX_BYTES], why[300];
    long number = 0;
    int stopped = 0, last_fullmove = 0, last_pieces = 0, game = GAME_TRAINED;
    double last_result = -1;
    while (!stopped && (limit <= 0 || number < limit) && fgets(line, sizeof line, f)) {
        Board b;
        int score, pieces, too_long = strchr(line, '\n') == NULL && !feof(f);
        double result;
        number++;
        if (too_long) {
            int c;
            while ((c = fgetc(f)) != EOF && c != '\n')
                ;
            snprintf(why, sizeof why, "longer than %d bytes", LINE_MAX_BYTES - 2);
        }
        if (!too_long && *trim(line) == '\0')
            continue;
        count->lines++;
        if (too_long || !parse_line(line, &b, &score, &result, why, sizeof why)) {
            if (count->malformed++ == 0)
                fprintf(stderr, "warning: %s line %ld skipped: %s (later malformed lines are only counted)\n",
                        path, number, why);
            continue;
        }
        pieces = bit_count(b.occupied[WHITE] | b.occupied[BLACK]);
        if (result != last_result || b.fullmove < last_fullmove || pieces > last_pieces)
            game = game_choose(choice);
        last_result = result;
        last_fullmove = b.fullmove;
        last_pieces = pieces;
        if (game == GAME_PASSED) {
            count->passed++;
            continue;
        }
        count->good++;
        stopped = visit(context, &b, score, result, game == GAME_HELD_OUT) != 0;
    }
    count->cut = limit > 0 && number >= limit && !feof(f);
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
    static GameRecord record;
    GameReader reader;
    RecordVisit each;
    int got = 0, stopped = 0;
    each.visit = visit;
    each.context = context;
    each.limit = limit;
    each.count = count;
    if (!gamefile_open(&reader, f, path, err, err_size))
        return 0;
    while (!stopped && (limit <= 0 || count->good < limit) && (got = gamefile_next(&reader, &record, err, err_size)) == 1) {
        int game = game_choose(choice);
        count->lines++;
        if (game == GAME_PASSED) {
            int ply;
            for (ply = 0; ply < record.ply_count; ply++)
                count->passed += record.training[ply] != 0;
            continue;
        }
        each.held_out = game == GAME_HELD_OUT;
        stopped = gamefile_visit(&record, record_position, &each) < 0;
    }
    gamefile_close(&reader);
    count->cut = got == 1 && limit > 0 && count->good >= limit;
    if (stopped)
        snprintf(err, err_size, "%s: stopped at game %ld", path, count->lines);
    else if (got >= 0 && count->good == 0)
        snprintf(err, err_size, "%s holds no training position (%ld games)", path, count->lines);
    return !stopped && got >= 0 && count->good > 0;
}

/* Hands one training position of a record to the LabelledVisit (a TrainingVisit): returns 1 at
 * the limit, -1 when the visitor stops. */
static int record_position(void *context, const Board *b, const char *fen, int score, int result)
{
    RecordVisit *each = context;
    (void)fen;
    if (each->limit > 0 && each->count->good >= each->limit)
        return 1;
    each->count->good++;
    return each->visit(each->context, b, score, result / 2.0, each->held_out) != 0 ? -1 : 0;
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
    uint32_t w[64], v[8], t1, t2;
    int i;
    for (i = 0; i < 16; i++)
        w[i] = (uint32_t)block[4 * i] << 24 | (uint32_t)block[4 * i + 1] << 16 | (uint32_t)block[4 * i + 2] << 8 | block[4 * i + 3];
    for (i = 16; i < 64; i++)
        w[i] = w[i - 16] + (ROTATE(w[i - 15], 7) ^ ROTATE(w[i - 15], 18) ^ w[i - 15] >> 3) + w[i - 7]
             + (ROTATE(w[i - 2], 17) ^ ROTATE(w[i - 2], 19) ^ w[i - 2] >> 10);
    memcpy(v, state, sizeof v);
    for (i = 0; i < 64; i++) {
        t1 = v[7] + (ROTATE(v[4], 6) ^ ROTATE(v[4], 11) ^ ROTATE(v[4], 25)) + ((v[4] & v[5]) ^ (~v[4] & v[6])) + SHA256_K[i] + w[i];
        t2 = (ROTATE(v[0], 2) ^ ROTATE(v[0], 13) ^ ROTATE(v[0], 22)) + ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
        memmove(v + 1, v, 7 * sizeof v[0]);
        v[4] += t1;
        v[0] = t1 + t2;
    }
    for (i = 0; i < 8; i++)
        state[i] += v[i];
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
    if (strcmp(key, "--out") == 0) {
        o->out = value;
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
    char err[400];
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
        o->data_positions[d] = count.good;
        printf("%s: %ld %s, %ld positions, %ld malformed", o->data[d], count.lines, gamefile_named(o->data[d]) ? "games" : "lines",
               count.good, count.malformed);
        if (added)
            printf(", all trained on (--add)");
        else if (o->train_share < 1)
            printf(", %ld passed over (--train-share)", count.passed);
        printf("\n");
    }
    return 1;
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
    for (i = 1; i < argc && used < size - 200; i++)
        used += (size_t)snprintf(summary + used, size - used, " %s", base_name(argv[i]));
    if (start)
        used += (size_t)snprintf(summary + used, size - used, "\n%s", start);
    for (i = 0; i < o->data_count && used < size - 200; i++)
        used += (size_t)snprintf(summary + used, size - used, "\n * Data: %s, SHA-256 %s, %ld positions", base_name(o->data[i]),
                                 o->data_sha256[i], o->data_positions[i]);
    return used;
}
