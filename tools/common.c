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

void random_seed(Random *r, uint64_t seed)
{
    r->state = seed * UINT64_C(0x9E3779B97F4A7C15) + UINT64_C(0x2545F4914F6CDD1D);
    if (!r->state)
        r->state = 1;
}

uint64_t random_next(Random *r)
{
    r->state ^= r->state >> 12;
    r->state ^= r->state << 25;
    r->state ^= r->state >> 27;
    return r->state * UINT64_C(0x2545F4914F6CDD1D);
}

double random_unit(Random *r)
{
    return (double)(random_next(r) >> 11) / 9007199254740992.0;
}

double random_normal(Random *r)
{
    double u = random_unit(r), v = random_unit(r);
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
