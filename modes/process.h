/* modes/process.h: the process shim (modes/process.c): an engine run as a child process and
 * spoken to through pipes (a match's opponent, datagen's rescorer), and the workers that play a
 * match's games at once. A build without POSIX starts none: each start fails with a reason. */
#ifndef PROCESS_H
#define PROCESS_H

#include "engine.h"

#include <stddef.h>

enum { WORKERS_MAX = 64 };   /* workers at once, at most */
/* The longest line read from a child, and how long a UCI child may take to answer its handshake. */
enum { CHILD_LINE = 4096, CHILD_HANDSHAKE_MS = 5000 };
/* The bytes of a child's stderr kept for an error message (the rest is read and dropped). */
enum { CHILD_STDERR_KEPT = 256 };

/* An engine run as a child process and spoken to through pipes. */
typedef struct {
    long pid;               /* 0 when no process runs */
    int to_child;           /* our end of its stdin */
    int from_child;         /* our end of its stdout */
    int errors_from_child;  /* our end of its stderr; -1 once it is closed */
    size_t used;            /* bytes waiting in buf */
    size_t errors_kept;     /* bytes of its stderr in errors */
    char buf[4096];
    char errors[CHILD_STDERR_KEPT]; /* the start of what it wrote on stderr */
} Child;

/* A copy of this process that plays games for it, with a pipe each way. Each side reads from
 * its `in` and writes to its `out`. */
typedef struct {
    long pid;               /* in the parent: the worker's; 0 when none runs (and in the worker) */
    int in;
    int out;
} Worker;

/* Starts `command` through /bin/sh in its own process group, its stdin, stdout and stderr on
 * pipes (the start of its stderr kept, read while its lines are); returns 1, or 0 with a reason. */
int child_start(Child *c, const char *command, char *err, size_t err_size);
/* Writes line and its newline to the child in one write; returns 0 if it cannot take them. */
int child_send(Child *c, const char *line);
/* Reads one line from the child (without its newline, cut to size), waiting until clock_now()
 * reaches deadline; returns 1, 0 on timeout, -1 when its output is closed. */
int child_read_line(Child *c, char *line, size_t size, double deadline);
/* Ends the child (its input closed, 0.2 s to exit, then its process group killed) and says in
 * how how it ended. */
void child_stop(Child *c, char *how, size_t how_size);
/* Writes the start of what the child wrote on stderr as one line (its lines joined by " | ",
 * bytes that are not printable as '?'), "" when it wrote nothing; complete after child_stop. */
void child_stderr_text(const Child *c, char *out, size_t size);

/* Forks workers[index] with its two pipes; returns 1 in the parent, 0 in the worker, -1 with
 * a reason if it cannot. */
int worker_start(Worker *workers, int index, char *err, size_t err_size);
/* Writes size bytes to the other side, or reads exactly size bytes from it; returns 1, or 0
 * if it is gone first. */
int worker_send(const Worker *w, void *data, size_t size);
int worker_receive(const Worker *w, void *data, size_t size);
/* Waits until one of the count workers has written something (or ended); returns its index,
 * or -1 if waiting fails. */
int worker_wait(const Worker *workers, int count);
/* Ends a worker and reaps it; a busy one (now) first gets SIGTERM, on which it kills its child. */
void worker_stop(Worker *w, int now);
/* Ends this process at once, as a worker does: its parent owns the files and buffers. */
void worker_exit(int status);

#endif
