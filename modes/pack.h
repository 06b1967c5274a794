/* modes/pack.h: `engine datagen --pack` (modes/pack.c, docs/datagen.md): text lines
 * `FEN | SCORE | RESULT`, or a file of game records of any version, rewritten as game records
 * of version 2 from which `datagen --read` prints the same lines, byte for byte. */
#ifndef PACK_H
#define PACK_H

/* Packs the lines or records at path ("-": standard input) into out (a name ending in .games,
 * written as out.tmp and renamed at the end) on `threads` threads, with a progress line on
 * stderr every few seconds; returns 0, or 1 after one error line (out is then not made). */
int pack_run(const char *path, const char *out, int threads);

#endif
