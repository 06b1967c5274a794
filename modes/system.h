/* modes/system.h: what the C99 build may use beyond C99, decided once for every file that
 * includes it first: POSIX (clock, load, mappings, files, pipes, processes) where the system
 * is a Unix and the build does not say ENGINE_NO_POSIX, and threads where POSIX has them and
 * the compiler has atomic built-ins. Each user keeps a portable fallback behind `#if HAVE_POSIX`
 * or `#if HAVE_THREADS`, so that `cc -std=c99` builds and answers anywhere. */
#ifndef SYSTEM_H
#define SYSTEM_H

#if !defined(_POSIX_C_SOURCE) && !defined(ENGINE_NO_POSIX)
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE 1       /* glibc: MAP_ANONYMOUS and madvise's MADV_HUGEPAGE as well */
#endif

#include <limits.h>             /* glibc's __GLIBC__ and __GLIBC_MINOR__, for the test below */

#if !defined(ENGINE_NO_POSIX) && defined(__unix__)
#define HAVE_POSIX 1
#else
#define HAVE_POSIX 0
#endif

/* Threads: POSIX threads, and GCC's and Clang's atomic built-ins for the few words threads
 * share (C99 has neither); without them a search runs on one thread. glibc before 2.34 keeps
 * its threads in a library of their own, linked only with -pthread (which defines _REENTRANT):
 * the plain `cc -std=c99 -O2 ...` of the README then builds a one-thread engine. */
#if HAVE_POSIX && defined(__GLIBC__) && (__GLIBC__ < 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ < 34)) && !defined(_REENTRANT)
#define ENGINE_NO_THREADS
#endif
#if HAVE_POSIX && (defined(__GNUC__) || defined(__clang__)) && !defined(ENGINE_NO_THREADS)
#define HAVE_THREADS 1
#else
#define HAVE_THREADS 0
#endif

#endif
