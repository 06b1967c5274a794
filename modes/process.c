/* modes/process.c: the process shim of the match and datagen: an engine run as a child
 * process and spoken to through pipes, and the workers, copies of this process that play a
 * match's games for it. First what needs no system call, then one block with POSIX (fork,
 * exec, pipe, poll, signals) and one without, where no process starts. */
#include "system.h"
#include "process.h"

#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if HAVE_POSIX
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

/* prototypes */
static int pipe_transfer(int fd, void *data, size_t size, int writing);
#if HAVE_POSIX
static long fork_with_pipes(int *in, int *out, const char *what, char *err, size_t err_size);
static void child_read_stderr(Child *c);
static void worker_on_signal(int signal_number);
#endif


/* Writes line and its newline to the child in one write, as a GUI does; returns 0 if the
 * child cannot take them or the line is too long. */
int child_send(Child *c, const char *line)
{
    char buf[8192];
    size_t len = strlen(line);
    if (!c->pid || len + 1 > sizeof buf)
        return 0;
    memcpy(buf, line, len);
    buf[len++] = '\n';
    return pipe_transfer(c->to_child, buf, len, 1);
}

/* Writes the start of the child's stderr as one line: its lines joined by " | ", surrounding
 * whitespace dropped, bytes that are not printable as '?'; "" when it wrote nothing. */
void child_stderr_text(const Child *c, char *out, size_t size)
{
    size_t i, used = 0;
    int line_break = 0;
    if (size == 0)
        return;
    for (i = 0; i < c->errors_kept && used + 1 < size; i++) {
        unsigned char byte = (unsigned char)c->errors[i];
        if (byte == '\n' || byte == '\r') {
            line_break = used > 0;
            continue;
        }
        if (line_break && used + 4 < size) {
            memcpy(out + used, " | ", 3);
            used += 3;
        }
        line_break = 0;
        if (used > 0 || !isspace(byte))
            out[used++] = isprint(byte) ? (char)byte : '?';
    }
    while (used > 0 && out[used - 1] == ' ')
        used--;
    out[used] = '\0';
}

/* Writes size bytes to the other side; returns 1, or 0 if it is gone. */
int worker_send(const Worker *w, void *data, size_t size)
{
    return pipe_transfer(w->out, data, size, 1);
}

/* Reads exactly size bytes from the other side, waiting for them; returns 1, or 0 if it is
 * gone (or closed its end) first. */
int worker_receive(const Worker *w, void *data, size_t size)
{
    return pipe_transfer(w->in, data, size, 0);
}

#if HAVE_POSIX

/* The longest a child_read_line waits in one poll before it looks at the clock again: a poll's
 * milliseconds are an int, which a wait of 25 days would overflow. */
static const double POLL_WAIT_MAX = 60;

/* The process group of the running child, which a match worker's signal handler kills. */
static volatile sig_atomic_t child_group;

/* Forks this process with a pipe each way (close-on-exec, so that no program started later
 * inherits them): returns the new process's pid here and 0 in the new process, each keeping
 * its own two ends, `in` to read and `out` to write; or -1 with a reason, what could not
 * start being `what`. Here, a dead process no longer kills us on the next write (SIGPIPE is
 * ignored). */
static long fork_with_pipes(int *in, int *out, const char *what, char *err, size_t err_size)
{
    int down[2] = { -1, -1 }, up[2] = { -1, -1 }, i; /* down: to the new process; up: back */
    pid_t pid = -1;
    if (pipe(down) != 0 || pipe(up) != 0 || (pid = fork()) < 0) {
        snprintf(err, err_size, "cannot start %s: %s", what, strerror(errno));
        for (i = 0; i < 2; i++) {
            if (down[i] >= 0)
                close(down[i]);
            if (up[i] >= 0)
                close(up[i]);
        }
        return -1;
    }
    for (i = 0; i < 2; i++) {
        fcntl(down[i], F_SETFD, FD_CLOEXEC);
        fcntl(up[i], F_SETFD, FD_CLOEXEC);
    }
    close(pid == 0 ? down[1] : down[0]);
    close(pid == 0 ? up[0] : up[1]);
    *in = pid == 0 ? down[0] : up[0];
    *out = pid == 0 ? up[1] : down[1];
    if (pid != 0)
        signal(SIGPIPE, SIG_IGN);
    return (long)pid;
}

/* Starts `command` through /bin/sh in its own process group, its stdin, stdout and stderr on
 * pipes (stderr's read without waiting, close-on-exec as the others); returns 1, or 0 with a
 * reason. */
int child_start(Child *c, const char *command, char *err, size_t err_size)
{
    int in, out, errors[2];
    long pid;
    c->pid = 0;
    c->used = c->errors_kept = 0;
    c->errors_from_child = -1;
    if (pipe(errors) != 0) {
        snprintf(err, err_size, "cannot start a process: %s", strerror(errno));
        return 0;
    }
    fcntl(errors[0], F_SETFD, FD_CLOEXEC);
    fcntl(errors[1], F_SETFD, FD_CLOEXEC);
    pid = fork_with_pipes(&in, &out, "a process", err, err_size);
    if (pid == 0) {
        setpgid(0, 0);
        dup2(in, 0);
        dup2(out, 1);
        dup2(errors[1], 2);
        signal(SIGPIPE, SIG_DFL); /* undo our SIG_IGN, which exec would pass on */
        execl("/bin/sh", "sh", "-c", command, (char *)NULL);
        _exit(127);
    }
    close(errors[1]);
    if (pid < 0) {
        close(errors[0]);
        return 0;
    }
    fcntl(errors[0], F_SETFL, O_NONBLOCK);
    setpgid((pid_t)pid, (pid_t)pid);
    child_group = (sig_atomic_t)pid;
    c->pid = pid;
    c->to_child = out;
    c->from_child = in;
    c->errors_from_child = errors[0];
    return 1;
}

/* Reads what the child's stderr holds now, without waiting: the first CHILD_STDERR_KEPT bytes
 * kept, the rest dropped; closes it at its end. */
static void child_read_stderr(Child *c)
{
    char chunk[512];
    ssize_t n;
    while (c->errors_from_child >= 0) {
        size_t room = sizeof c->errors - c->errors_kept;
        n = read(c->errors_from_child, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n <= 0) {
            close(c->errors_from_child);
            c->errors_from_child = -1;
            return;
        }
        memcpy(c->errors + c->errors_kept, chunk, (size_t)n < room ? (size_t)n : room);
        c->errors_kept += (size_t)n < room ? (size_t)n : room;
    }
}

/* Reads one line from the child into line (without its newline, cut to size), waiting until
 * clock_now() reaches deadline, and what its stderr holds meanwhile; returns 1, 0 on timeout,
 * -1 when its output is closed. */
int child_read_line(Child *c, char *line, size_t size, double deadline)
{
    for (;;) {
        char *end = memchr(c->buf, '\n', c->used);
        struct pollfd p[2];
        ssize_t n;
        double wait = deadline - clock_now();
        if (end) {
            size_t len = (size_t)(end - c->buf), keep = len < size - 1 ? len : size - 1;
            memcpy(line, c->buf, keep);
            line[keep > 0 && line[keep - 1] == '\r' ? keep - 1 : keep] = '\0';
            c->used -= len + 1;
            memmove(c->buf, end + 1, c->used);
            return 1;
        }
        if (c->used == sizeof c->buf)
            c->used = 0; /* a line longer than the buffer is dropped */
        if (!c->pid || wait <= 0)
            return c->pid ? 0 : -1;
        p[0].fd = c->from_child;
        p[1].fd = c->errors_from_child; /* -1 once closed, which poll passes over */
        p[0].events = p[1].events = POLLIN;
        p[0].revents = p[1].revents = 0;
        if (poll(p, 2, wait < POLL_WAIT_MAX ? (int)(wait * 1000) + 1 : (int)(POLL_WAIT_MAX * 1000)) <= 0)
            continue; /* timeout or signal: the clock decides */
        if (p[1].revents)
            child_read_stderr(c);
        if (!p[0].revents)
            continue;
        n = read(c->from_child, c->buf + c->used, sizeof c->buf - c->used);
        if (n == 0 || (n < 0 && errno != EINTR))
            return -1;
        c->used += n > 0 ? (size_t)n : 0;
    }
}

/* Ends the child: closes its input, gives it 0.2 s to exit, then kills its process group,
 * reaps it, reads the rest of its stderr and describes how it ended in how ("exited with
 * status 0", "killed by signal 9"). */
void child_stop(Child *c, char *how, size_t how_size)
{
    int status = 0, i;
    pid_t done = 0;
    snprintf(how, how_size, "not running");
    if (!c->pid)
        return;
    close(c->to_child);
    for (i = 0; i < 20 && (done = waitpid((pid_t)c->pid, &status, WNOHANG)) == 0; i++)
        poll(NULL, 0, 10);
    kill(-(pid_t)c->pid, SIGKILL); /* also whatever it started */
    child_group = 0;
    if (done <= 0)
        while (waitpid((pid_t)c->pid, &status, 0) < 0 && errno == EINTR)
            ;
    close(c->from_child);
    child_read_stderr(c);
    if (c->errors_from_child >= 0)
        close(c->errors_from_child);
    c->errors_from_child = -1;
    c->pid = 0;
    if (WIFSIGNALED(status))
        snprintf(how, how_size, "killed by signal %d", WTERMSIG(status));
    else
        snprintf(how, how_size, "exited with status %d", WEXITSTATUS(status));
}

/* Forks workers[index] with its two pipes (fork_with_pipes); returns 1 in the parent, 0 in the
 * worker (which closes the parent's ends to the earlier workers, so that each sees the end of
 * its own input), -1 with a reason if it cannot. */
int worker_start(Worker *workers, int index, char *err, size_t err_size)
{
    Worker *w = &workers[index];
    long pid = fork_with_pipes(&w->in, &w->out, "a worker process", err, err_size);
    int i;
    if (pid < 0)
        return -1;
    w->pid = pid;
    if (pid > 0)
        return 1;
    for (i = 0; i < index; i++) {
        close(workers[i].in);
        close(workers[i].out);
    }
    signal(SIGTERM, worker_on_signal);
    signal(SIGINT, worker_on_signal);
    return 0;
}

/* A worker's SIGTERM and SIGINT: kills and reaps its opponent's process group, then ends. */
static void worker_on_signal(int signal_number)
{
    (void)signal_number;
    if (child_group) {
        kill(-(pid_t)child_group, SIGKILL);
        waitpid((pid_t)child_group, NULL, 0);
    }
    _exit(1);
}

/* Writes size bytes of data to fd (writing), or reads exactly size bytes from it into data,
 * waiting for them and going on after a signal; returns 1, or 0 if the other side is gone (or
 * closed its end) first. */
static int pipe_transfer(int fd, void *data, size_t size, int writing)
{
    char *p = data;
    while (size > 0) {
        ssize_t n = writing ? write(fd, p, size) : read(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return 0;
        p += n;
        size -= (size_t)n;
    }
    return 1;
}

/* Waits until one of the count workers has written something (or ended); returns its index,
 * or -1 if waiting fails. */
int worker_wait(const Worker *workers, int count)
{
    struct pollfd p[WORKERS_MAX];
    int i, n = int_min(count, WORKERS_MAX);
    for (i = 0; i < n; i++) {
        p[i].fd = workers[i].in;
        p[i].events = POLLIN;
        p[i].revents = 0;
    }
    while (poll(p, (nfds_t)n, -1) < 0)
        if (errno != EINTR)
            return -1;
    for (i = 0; i < n; i++)
        if (p[i].revents)
            return i;
    return -1;
}

/* Ends a worker and reaps it: closing its input ends an idle one; a busy one (now) first
 * gets SIGTERM, on which it kills its opponent. */
void worker_stop(Worker *w, int now)
{
    int status;
    if (!w->pid)
        return;
    if (now)
        kill((pid_t)w->pid, SIGTERM);
    close(w->out);
    close(w->in);
    while (waitpid((pid_t)w->pid, &status, 0) < 0 && errno == EINTR)
        ;
    w->pid = 0;
}

/* Ends this process at once, as a worker does: its parent owns the files and buffers. */
void worker_exit(int status)
{
    _exit(status);
}

#else /* no POSIX: no process starts, so there is no child, worker or pipe to speak to */

/* Returns 0 with the reason: no process can start. */
int child_start(Child *c, const char *command, char *err, size_t err_size)
{
    (void)command;
    c->pid = 0;
    c->used = c->errors_kept = 0;
    c->errors_from_child = -1;
    snprintf(err, err_size, "this build cannot start a process (no POSIX fork, exec, pipe)");
    return 0;
}

/* Returns -1: there is no child to read from. */
int child_read_line(Child *c, char *line, size_t size, double deadline)
{
    (void)c;
    (void)line;
    (void)size;
    (void)deadline;
    return -1;
}

/* Says that no child runs. */
void child_stop(Child *c, char *how, size_t how_size)
{
    (void)c;
    snprintf(how, how_size, "not running");
}

/* Returns -1 with the reason: no worker can start. */
int worker_start(Worker *workers, int index, char *err, size_t err_size)
{
    workers[index].pid = 0;
    snprintf(err, err_size, "this build cannot start a worker process (no POSIX fork, exec, pipe)");
    return -1;
}

/* Returns 0: there is no pipe. */
static int pipe_transfer(int fd, void *data, size_t size, int writing)
{
    (void)fd;
    (void)data;
    (void)size;
    (void)writing;
    return 0;
}

/* Returns -1: there is no worker to wait for. */
int worker_wait(const Worker *workers, int count)
{
    (void)workers;
    (void)count;
    return -1;
}

/* Nothing to stop. */
void worker_stop(Worker *w, int now)
{
    (void)w;
    (void)now;
}

/* Ends this process (never called: no worker starts). */
void worker_exit(int status)
{
    exit(status);
}

#endif
