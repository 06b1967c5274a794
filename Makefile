# Boxer: a one-shot chess move chooser. `make` builds ./engine; `make test` runs tests/.
CC ?= cc
CFLAGS ?= -std=c99 -O2 -Wall -Wextra -Werror -pedantic -Wshadow -Wmissing-prototypes -DNDEBUG
SOURCES = engine.c movement.c extra.c
HEADERS = movement.h extra.h

.PHONY: all test debug bench perft-bench perft-full clean

all: engine

engine: $(SOURCES) $(HEADERS)
	$(CC) $(CFLAGS) $(SOURCES) -o $@

clean:
	rm -f engine engine-debug tests/unit tests/unit-debug
