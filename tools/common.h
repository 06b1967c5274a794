/* tools/common.h: what the tuner and the trainer share: reading labelled positions
 * (`FEN | SCORE | RESULT` lines, or the training positions of datagen's game records; plain or
 * xz-compressed) with a held-out tenth and each file's SHA-256, uniform and normal random draws, and
 * writing a generated table so that an interrupted run leaves the old one whole. */
#ifndef TOOLS_COMMON_H
#define TOOLS_COMMON_H

#include "../movement.h"

#include <stdio.h>

/* Every VALIDATION_EVERY-th game of each file (the last of each ten; --hold-out N: of each N) is
 * held out, whole:
 * the positions of one game are so alike that a held-out line beside its neighbours in
 * training would measure memory, not judgement. A game is a run of lines with one RESULT
 * whose move numbers never fall and whose pieces never grow in number (as datagen writes
 * them); the lines of a shuffled file are then held out about one in ten. */
enum { VALIDATION_EVERY = 10 };

/* Called for each well-formed line: its position, SCORE (centipawns, white's view),
 * RESULT (1, 0.5 or 0, white's view) and whether it is held out. Returns 0 to go on. */
typedef int (*LabelledVisit)(void *context, const Board *b, int score, double result, int held_out);

typedef struct {
    long lines;         /* every line read, blank ones included; or every game of a file of records */
    long good;          /* handed to the visitor */
    long malformed;     /* skipped: bad FEN, missing field, a number that is not one */
    long passed;        /* positions of the training games a share below 1 passed over */
    int cut;            /* 1 when the limit ended the reading before the file's end */
    char lines_sha256[65];  /* the SHA-256 of the lines it yields (its text, or --read's lines); "" when cut */
} LabelledCount;

/* Reads path ("-": standard input; a name ending in .xz through `xz -dc`): lines, or with a
 * name ending in .games or .games.xz datagen's game records (modes/gamefile.h), and takes the
 * SHA-256 of the lines it yields (all its text, or the lines `datagen --read` prints). Every
 * hold_out-th game is held out (none when hold_out is 0); of the others, `share`
 * (0 < share <= 1), spread evenly through the file, are trained on, and the rest passed over,
 * so that a smaller share keeps the same held-out games and the same mix. Calls visit for every
 * good line or training position of the games kept, at most `limit` lines or positions when
 * limit > 0. Prints one warning naming the first malformed line. Returns 1, or 0 with a reason
 * in err when the file is missing or unreadable, holds no good line, is damaged (a file of
 * records: nothing of it is trained on then), or the visitor stopped. */
int labelled_read(const char *path, LabelledVisit visit, void *context, long limit, int hold_out, double share,
                  LabelledCount *count, char *err, size_t err_size);
/* Writes the SHA-256 of the file at path (as stored, compressed or not) into hex, 64 digits;
 * returns 0 if it cannot be read. */
int file_sha256(const char *path, char hex[65]);
/* Writes the SHA-256 of the size bytes at text into hex, 64 digits. */
void text_sha256(const char *text, size_t size, char hex[65]);

/* Draws from the rules' generator (movement.h's random_seed and random_next, which give the
 * numbers the tools' own generator gave before it was shared, so that the seeds docs/weights.md
 * names still make the tables it lists): a number uniformly drawn from [0, 1), and one from a
 * normal distribution with mean 0 and deviation 1 (Box-Muller). */
double random_unit(uint64_t *state);
double random_normal(uint64_t *state);

/* Makes room for need items of item bytes in array, which holds *capacity (doubling from
 * first): returns the array, perhaps moved, or NULL when memory is short (array as it was). */
void *grow_array(void *array, long *capacity, long need, size_t item, long first);

/* Returns the whole of the file at path as a string (NULL if it cannot be read or memory is
 * short); the caller frees it. */
char *read_text_file(const char *path);
/* Runs command through the shell and returns what it wrote on stdout, *length bytes and a '\0'
 * (NULL if it could not be run, failed, or memory is short); the caller frees it. */
char *command_output(const char *command, size_t *length);

/* The logistic function 1 / (1 + e^-x). */
double sigmoid(double x);

/* The options both tools take: the data (FILE '-' for standard input, at most DATA_FILES_MAX;
 * an added file is trained on whole), the table to write, the schedule, the blend of result and
 * score, the seed, a line limit. */
enum { DATA_FILES_MAX = 16 };
typedef struct {
    const char *data[DATA_FILES_MAX];
    int data_count;
    int data_added[DATA_FILES_MAX];         /* --add's: every game trained on, none held out or passed over */
    char data_sha256[DATA_FILES_MAX][65];   /* tool_read_data's: each file's, and its lines' */
    char data_lines_sha256[DATA_FILES_MAX][65];
    long data_positions[DATA_FILES_MAX];
    const char *lineage;    /* --lineage TABLE: a table whose Data lines name the files' lines, or NULL */
    const char *out;
    int epochs;
    int batch;
    double rate;
    double lambda;
    uint64_t seed;
    long limit;
    int hold_out;       /* every hold_out-th game held out for validation (VALIDATION_EVERY unless set) */
    double train_share; /* the share of the other games trained on (1 unless set; labelled_read) */
} ToolOptions;

/* Sets o to the defaults both tools share (batch 16384, seed 1, nothing else set) and these. */
void tool_defaults(ToolOptions *o, const char *out, int epochs, double rate, double lambda);

/* A tool's own options: returns 1 when it takes key (its value read into own), 0 when key is
 * not one of them, -1 when the value is bad. */
typedef int (*OptionTake)(void *own, const char *key, const char *value);

/* Reads argv's `--key value` pairs into o, or into the tool's own options through take (NULL:
 * none); --help prints usage and exits. Returns 1, or 0 after one error line. The caller
 * fills o's defaults first and checks the values after. */
int tool_options(int argc, char **argv, ToolOptions *o, void (*usage)(FILE *out), OptionTake take, void *own);
/* A numeric option: its name and where its value goes, a whole number or a real one. */
typedef struct {
    const char *name;
    int *whole;
    double *real;
} NumberOption;
/* Takes key's value whole into the option of table (count of them) named key: returns 1, 0
 * when none is named so, -1 when the value is not a number. */
int take_number(const NumberOption *table, int count, const char *key, const char *value);

/* Reads every data file of o, handing each good line to visit, with a line of counts per file
 * on stdout, and notes each file's name, SHA-256, its lines' SHA-256 and positions for
 * tool_command; with --lineage TABLE, each file that a Data line of TABLE names by its stem (the
 * name less .txt, .games and .xz: own-c8-n1000.txt.xz and own-c8-n1000.games.xz are one) must
 * yield the lines that line's lines SHA-256 names (the file's SHA-256, for a line without one).
 * Returns 1, or 0 after one error line (*failure, when the visitor set it, says why). */
int tool_read_data(ToolOptions *o, LabelledVisit visit, void *context, const char *const *failure);
/* Writes " * Command: TOOL ARGS", each file named by its base name alone (no machine's folders)
 * and --lineage left out (a check, not the recipe), then the line start when it is not NULL
 * (" * Start: ..."), then a " * Data: NAME, SHA-256 HEX, lines SHA-256 HEX, N positions" line for
 * each data file read, into summary. */
size_t tool_command(char *summary, size_t size, const char *tool, const ToolOptions *o, int argc, char **argv,
                    const char *start);

/* Opens path.tmp for writing; commit_output renames it over path once it is complete, and
 * abandon_output removes it. Each returns 1, or 0 with a reason in err. */
FILE *begin_output(const char *path, char *err, size_t err_size);
int commit_output(FILE *f, const char *path, char *err, size_t err_size);
void abandon_output(FILE *f, const char *path);

#endif
