/* modes/uci.h: the Universal Chess Interface (modes/uci.c). run_uci (modes/common.h) speaks it
 * on stdin and stdout; a session made here takes its input from its caller instead, as a test
 * harness (tests/fuzz_uci.c) gives it, and writes to stdout as run_uci does. */
#ifndef UCI_H
#define UCI_H

#include "engine.h"

#include <stddef.h>

typedef struct Uci Uci;

/* A new session searching in s, as run_uci starts: the start position, the options at their
 * defaults (Hash at most hash_max megabytes, and initially the smaller of that and its
 * default), s given its table; NULL when memory is short. Its input is only what uci_give
 * hands it. uci_close frees it (not s). */
Uci *uci_open(Search *s, int hash_max);
void uci_close(Uci *u);
/* Hands the session its whole input (size bytes), after which the input ends. */
void uci_give(Uci *u, const char *data, size_t size);
/* Copies the next line of input into line (without its newline); returns 0 at the end. */
int uci_next_line(Uci *u, char *line, size_t size);
/* Runs one line as the loop does (searching when it is a `go`). */
void uci_execute(Uci *u, char *line);
/* Returns 1 once `quit` has come. */
int uci_quit(const Uci *u);
/* The searches the session has answered with a bestmove, so far. */
int uci_searches(const Uci *u);
/* Returns 1 if word is one of the loop's command words. */
int uci_is_command(const char *word);

#endif
