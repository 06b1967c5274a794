/* tools/common.c: labelled positions in, generated tables out, and a seeded generator,
 * for tools/tune.c and tools/train.c. */
#include "common.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { LINE_MAX_BYTES = 512, PATH_MAX_BYTES = 4096 };

/* prototypes */
static char *trim(char *s);
static int parse_line(char *line, Board *b, int *score, double *result, char *why, size_t why_size);
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

int labelled_read(const char *path, LabelledVisit visit, void *context, long limit, LabelledCount *count,
                  char *err, size_t err_size)
{
    char line[LINE_MAX_BYTES], why[300];
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    long number = 0, games = 0;
    int stopped = 0, last_fullmove = 0, last_pieces = 0;
    double last_result = -1;
    memset(count, 0, sizeof *count);
    if (!f) {
        snprintf(err, err_size, "cannot read %s: %s", path, strerror(errno));
        return 0;
    }
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
        count->good++;
        pieces = bit_count(b.occupied[WHITE] | b.occupied[BLACK]);
        if (result != last_result || b.fullmove < last_fullmove || pieces > last_pieces)
            games++;
        last_result = result;
        last_fullmove = b.fullmove;
        last_pieces = pieces;
        stopped = visit(context, &b, score, result, games % VALIDATION_EVERY == 0) != 0;
    }
    if (f != stdin)
        fclose(f);
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

char *read_text_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL, *grown;
    long capacity = 0, length = 0;
    size_t got = 1;
    if (!f)
        return NULL;
    while (got > 0) {
        if (!(grown = grow_array(text, &capacity, length + 65536, 1, 65536))) {
            free(text);
            fclose(f);
            return NULL;
        }
        text = grown;
        got = fread(text + length, 1, (size_t)(capacity - length - 1), f);
        length += (long)got;
    }
    if (ferror(f)) {
        free(text);
        text = NULL;
    } else {
        text[length] = '\0';
    }
    fclose(f);
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
    char *end;
    if (strcmp(key, "--data") == 0) {
        if (o->data_count == DATA_FILES_MAX)
            return -1;
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
            { "--epochs", &o->epochs, NULL }, { "--batch", &o->batch, NULL },
            { "--rate", NULL, &o->rate }, { "--lambda", NULL, &o->lambda },
        };
        return take_number(numbers, (int)(sizeof numbers / sizeof numbers[0]), key, value);
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

int tool_read_data(const ToolOptions *o, LabelledVisit visit, void *context, const char *const *failure)
{
    LabelledCount count;
    char err[400];
    int d;
    for (d = 0; d < o->data_count; d++) {
        if (!labelled_read(o->data[d], visit, context, o->limit, &count, err, sizeof err)) {
            fprintf(stderr, "error: %s\n", *failure ? *failure : err);
            return 0;
        }
        printf("%s: %ld lines, %ld positions, %ld malformed\n", o->data[d], count.lines, count.good, count.malformed);
    }
    return 1;
}

size_t tool_command(char *summary, size_t size, const char *tool, int argc, char **argv)
{
    size_t used = (size_t)snprintf(summary, size, " * Command: %s", tool);
    int i;
    for (i = 1; i < argc && used < size - 200; i++)
        used += (size_t)snprintf(summary + used, size - used, " %s", argv[i]);
    return used;
}
