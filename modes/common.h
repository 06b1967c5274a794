/* modes/common.h: what the front ends share (modes/common.c): the exit statuses of the command
 * line, words and numbers read from text, one-line messages, the report line of a search, the
 * one-shot decision (a FEN and a move list in, an index out), the diagnostics (board, perft,
 * eval, bench); and the entry points of the modes that main starts. */
#ifndef COMMON_H
#define COMMON_H

#include "engine.h"

#include <stdio.h>

/* The command line's exit statuses (docs/command-line.md lists them for users). */
enum { EXIT_USAGE = 2, EXIT_BAD_FEN = 3, EXIT_BAD_MOVES = 4 };
enum { WARNING_MAX = 400 };            /* bytes of the warning line about ignored tokens */
enum { REPORT_LINE = PV_TEXT + 160 };  /* report_text's line: the PV and at most 150 bytes */

/* Prints one line to out: the formatted text, cut to 511 bytes, each byte that is not
 * printable ASCII as '?'. */
void print_line(FILE *out, const char *format, ...);
/* Returns the next token of *text (a run of bytes other than whitespace) with its length in
 * *len, moving *text past it; NULL when only whitespace is left. */
const char *next_token(const char **text, size_t *len);
/* Parses a decimal number (-5, 0.05, .5, 3.) up to the first other character, left in *end. */
int parse_real(const char *s, const char **end, double *out);
/* Parses a whole number from min to max, the whole of s. */
int parse_integer(const char *s, long long min, long long max, long long *out);
/* Parses a positive number of seconds, at most a day, with whitespace around it. */
int parse_seconds(const char *s, double *out);
/* Reads a mode's options from argv[2] on (`--key value` pairs, and the flags named in flags, a
 * NULL-ended list or NULL) through take; returns 0, or EXIT_USAGE after one error line. */
int parse_options(int argc, char **argv, const char *mode, const char *const *flags,
                  int (*take)(void *options, const char *key, const char *value), void *options);
/* move_from_text for a token of len bytes (next_token's). */
ParseResult move_from_token(Board *board, const char *token, size_t len, Move *m);

/* Writes a search's report as --verbose shows it (and the page reads it, web/boxer.js). */
void report_text(const Search *s, int depth, int score, int bound, char *out, size_t size);
/* --verbose's report: each on one line of stderr. */
void report_verbose(const Search *s, int depth, int score, int bound);

/* The decision behind the one-shot call, batch lines and choose_move(): reads fen and the move
 * list, then searches in s within seconds from limits->start; returns 0 with the index into the
 * list, or an exit status with the reason in err (and in warning the tokens it ignored). */
int decide(Search *s, const char *fen, const char *moves, double seconds, const Limits *limits, int *index, char *err,
           size_t err_size, char *warning, size_t warning_size);

/* Gives s the threads asked for (0: one), saying on stderr when fewer could be had. */
void use_threads(Search *s, int threads);

/* The diagnostics: b as a diagram with its FEN and key; perft's divide; the evaluation term by
 * term; the bench at depth (0: BENCH_DEPTH) in s, its positions and time on stderr, then its
 * last line (bench_signature) on stdout. */
void show_board(const Board *b);
void show_perft(Board *b, int depth);
void show_eval(const Board *b);
int run_bench(Search *s, int depth);
/* Writes the bench's last line, `N nodes N nps` (the signature, then the nodes a second). */
enum { BENCH_LINE = 64 };
void bench_signature(char *out, size_t size, uint64_t nodes, double seconds);

/* The modes main starts, each in a file of its own: UCI on stdin and stdout (modes/uci.c), a
 * match (modes/match.c), training data (modes/datagen.c), OpenBench's openings (modes/genfens.c). */
int run_uci(Search *s);
int run_match(Search *s, int argc, char **argv);
int run_datagen(Search *s, int argc, char **argv);
int run_genfens(Search *s, const char *command);

#endif
