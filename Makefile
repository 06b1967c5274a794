# Boxer: a one-shot chess move chooser. `make` builds ./engine, `make test` runs tests/.
CC ?= cc
WARNINGS = -std=c99 -pedantic -Wall -Wextra -Werror -Wshadow -Wmissing-prototypes
CFLAGS ?= -O2 -DNDEBUG
DEBUG_FLAGS = -O1 -g -DENGINE_DEBUG -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# The engine and the rules and evaluation it uses; the front ends (modes/README.md); all of it.
CORE = engine.c movement.c extra.c
MODES = modes/cli.c modes/common.c modes/uci.c modes/games.c modes/match.c modes/process.c modes/datagen.c modes/pack.c modes/gamefile.c modes/genfens.c modes/tablefile.c
SOURCES = $(CORE) $(MODES)
HEADERS = movement.h extra.h tables/hce.h tables/nnue-shape.h tables/nnue.h $(wildcard modes/*.h)
PERFT_CAP ?= 500000000
DEBUG_PERFT_CAP ?= 200000

.PHONY: all test debug tsan bench perft-bench perft-full timing sprt spsa fuzz fuzz-links web run clean tune train

# The WebAssembly builds (web/README.md). The course's drop-in WEB_TARGET: a standalone module
# with no imports, its static data from 64 KiB up (the course page writes its strings from
# address 0) and a fixed 96 MiB memory (no growth without an import) that holds the 64 MiB
# transposition table. The page's own PAGE_TARGET: the same, plus web_think, importing the
# page's clock (env.web_now) and a line-by-line report of the search (env.web_progress).
EMCC ?= emcc
WEB_TARGET ?= web/engine.wasm
PAGE_TARGET ?= web/boxer.wasm
WEB_EXPORTS = _choose_move,_web_input,_web_state,_web_play,_web_bench
PAGE_EXPORTS = _web_input,_web_state,_web_play,_web_think,_web_bench
WEB_FLAGS = -O2 -msimd128 -DNDEBUG -DENGINE_WASM -DENGINE_NO_POSIX --no-entry -sSTANDALONE_WASM \
	-sGLOBAL_BASE=65536 -sINITIAL_MEMORY=96MB -sALLOW_MEMORY_GROWTH=0 -sABORTING_MALLOC=0
# The modules' sources: the engine, the front ends' shared helpers and the entry points.
WEB_SOURCES = $(CORE) modes/common.c web/wasm.c

# EXE names the binary `make` builds (OpenBench's client builds with `make EXE=NAME`); the
# tests and the other targets use ./engine.
EXE ?= engine
all: $(EXE)

$(sort engine $(EXE)): $(SOURCES) $(HEADERS)
	$(CC) $(WARNINGS) $(CFLAGS) $(SOURCES) -o $@

tests/unit: tests/unit.c movement.c extra.c $(HEADERS)
	$(CC) $(WARNINGS) $(CFLAGS) -Wno-missing-prototypes tests/unit.c movement.c extra.c -o $@

engine-debug: $(SOURCES) $(HEADERS)
	$(CC) $(WARNINGS) $(DEBUG_FLAGS) $(SOURCES) -o $@

# The mating test links the engine and the one-shot decision the command line calls.
tests/endgame: tests/endgame.c $(CORE) modes/common.c $(HEADERS)
	$(CC) $(WARNINGS) $(CFLAGS) tests/endgame.c $(CORE) modes/common.c -o $@

tests/unit-debug: tests/unit.c movement.c extra.c $(HEADERS)
	$(CC) $(WARNINGS) $(DEBUG_FLAGS) -Wno-missing-prototypes tests/unit.c movement.c extra.c -o $@

# The threaded search under ThreadSanitizer (one build of the hot functions: its runtime is not
# ready when the loader would pick one): one-shot calls and a UCI session at 2 and 4 threads.
TSAN_FLAGS = -O1 -g -fsanitize=thread -DENGINE_NO_CLONES
engine-tsan: $(SOURCES) $(HEADERS)
	$(CC) $(WARNINGS) $(TSAN_FLAGS) $(SOURCES) -o $@

tsan: engine-tsan
	TSAN_OPTIONS="halt_on_error=0 second_deadlock_stack=1" bash tests/threads.sh ./engine-tsan

# Every test; perft counts up to PERFT_CAP nodes per position and depth (about a minute).
# ENGINE_UNDER_TEST: a broken engine from tests/fakes/broken/ (ours but for the one-shot call)
# shows that the tests catch it: `make test ENGINE_UNDER_TEST=tests/fakes/broken/hangs.sh`.
ENGINE_UNDER_TEST ?= ./engine
test: engine tests/unit tests/endgame tools/tune tools/train
	REAL_ENGINE=$(CURDIR)/engine ENDGAME=./tests/endgame bash tests/run-all.sh $(ENGINE_UNDER_TEST) ./tests/unit $(PERFT_CAP)

# The same tests with assertions (board_is_ok after make/unmake) and sanitizers.
debug: engine-debug tests/unit-debug tools/tune tools/train
	bash tests/run-all.sh ./engine-debug ./tests/unit-debug $(DEBUG_PERFT_CAP)

# The whole perft suites, standard and Chess960, at every depth (several minutes).
perft-full: tests/unit
	./tests/unit 100000000000000 tests/data/perft.epd tests/data/perft960.epd

# Startpos perft 6 timed against Stockfish's `go perft 6`, side by side.
perft-bench: engine
	bash tests/manual/perft-bench.sh ./engine

bench: engine
	./engine bench

# Wall time / limit at 0.05, 0.2, 1 and 3 s with BUSY cores kept busy (1: the other core; 2:
# both cores of the 2-core machine), a benchmark of about 90 s. LIMITS and COUNT (calls a
# limit) choose others: `make timing LIMITS=0.1 COUNT=2000` measures the 99.9th percentile.
BUSY ?= 1
LIMITS ?= 0.05 0.2 1 3
COUNT ?= 20
timing: engine
	BUSY=$(BUSY) LIMITS="$(LIMITS)" COUNT=$(COUNT) bash tests/manual/timing.sh ./engine

# An SPRT of the working tree against git revision BASE, both at NODES nodes a move (the base
# built in a temporary directory, speaking UCI): stops at the verdict or after GAMES games.
BASE ?=
NODES ?= 20000
GAMES ?= 20000
ELO0 ?= 0
ELO1 ?= 5
CONCURRENCY ?= 2
OPENINGS ?= ../shared/data/openings.epd
sprt: engine
	bash tools/sprt.sh "$(BASE)" $(NODES) $(GAMES) $(ELO0) $(ELO1) $(CONCURRENCY) "$(OPENINGS)"

# Tunes the search parameters (`./engine params`) for the one-shot call, cold, at SPSA_NODES nodes
# a move: SPSA_ITERATIONS iterations of SPSA_PAIRS game pairs through ../shared/referee
# (docs/tuning.md); prints the values found as --param options.
SPSA_ITERATIONS ?= 480
SPSA_PAIRS ?= 4
SPSA_NODES ?= 10000
SPSA_ARGS ?= --r-end 0.02 --seed 1
spsa: engine
	node tools/spsa.mjs --engine ./engine --iterations $(SPSA_ITERATIONS) --pairs $(SPSA_PAIRS) --nodes $(SPSA_NODES) \
	  --openings $(OPENINGS) $(SPSA_ARGS)

# The tables' makers (docs/weights.md). `make` never runs them: the
# tables they write are committed, and remade only by these targets.
TOOLS_COMMON = tools/common.c tools/common.h
RECORDS = modes/gamefile.c modes/gamefile.h
tools/tune: tools/tune.c $(TOOLS_COMMON) $(RECORDS) movement.c extra.c $(HEADERS)
	$(CC) $(WARNINGS) -O2 -pthread tools/tune.c tools/common.c modes/gamefile.c movement.c extra.c -lm -o $@

# Fits every weight of extra.c to TUNE_DATA (files of lines or game records, plain or .xz) and
# rewrites tables/hce.h.
LABELLED = ../shared/data/labelled
TUNE_DATA ?= $(LABELLED)/sf15-n2000.txt.xz
TUNE_ARGS ?= --epochs 150 --lambda 0.5 --seed 1
tune: tools/tune
	./tools/tune $(foreach file,$(TUNE_DATA),--data $(file)) $(TUNE_ARGS) --out tables/hce.h

tools/train: tools/train.c $(TOOLS_COMMON) $(RECORDS) movement.c movement.h extra.h tables/nnue-shape.h
	$(CC) $(WARNINGS) -O3 -march=native -ffast-math -pthread tools/train.c tools/common.c modes/gamefile.c movement.c -lm -o $@

# Trains the network on TRAIN_DATA (files of lines or game records, plain or .xz, each its own
# --data), from the tables/nnue.h of commit START (empty: from scratch), and rewrites tables/nnue.h
# (its weights) and tables/nnue-shape.h (its shape): with these defaults, the network we ship
# (docs/weights.md), whose header names START and each file with its SHA-256 and its lines'. Each
# file the table at hand names (by stem: own-c8-n1000.txt.xz or its packed own-c8-n1000.games.xz)
# must give the lines it names (--lineage; LINEAGE= to train on other data of those names).
TRAIN_DATA ?= $(LABELLED)/sf15-n2000.txt.xz $(LABELLED)/own-c2-n1000.txt.xz $(LABELLED)/own-k-n1000.txt.xz \
              $(LABELLED)/own-c8-n1000.txt.xz $(LABELLED)/own-c12-s901.games.xz
START ?= eefaefb5b35f78f7cc240028e88c41ae862c9ff9
TRAIN_ARGS ?= --epochs 10 --batch 4096 --rate 0.0005 --lambda 0 --k-data 0.006226 --hold-out 50 \
              --mirror 1 --factorize 1 --seed 1 --hidden 640 --threads 2
LINEAGE ?= tables/nnue.h
train: tools/train
	./tools/train $(foreach file,$(TRAIN_DATA),--data $(file)) $(if $(START),--start $(START)) $(TRAIN_ARGS) \
	  $(if $(LINEAGE),--lineage $(LINEAGE)) --out tables/nnue.h

# libFuzzer targets (clang -fsanitize=fuzzer): the one-shot decision, the UCI loop, the table file
# of --hash-file and the reader of datagen's game records, run for FUZZ_SECONDS each, one after the other, from tests/data/fuzz-corpus/ (tests/README.md).
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_FLAGS = -O1 -g -DENGINE_DEBUG -fsanitize=fuzzer,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

# Each links the engine and the front end it drives.
FUZZ_LINKS_oneshot = modes/common.c
FUZZ_LINKS_uci = modes/common.c modes/uci.c
FUZZ_LINKS_tablefile = modes/tablefile.c
FUZZ_LINKS_gamefile = modes/gamefile.c
tests/fuzz_oneshot tests/fuzz_uci tests/fuzz_tablefile tests/fuzz_gamefile: tests/fuzz_%: tests/fuzz_%.c $(SOURCES) $(HEADERS)
	$(FUZZ_CC) $(WARNINGS) $(FUZZ_FLAGS) $< $(CORE) $(FUZZ_LINKS_$*) -o $@

# The sources a fuzz target links, for tests/robust.sh's replay builds: make -s fuzz-links NAME=uci
fuzz-links:
	@echo $(CORE) $(FUZZ_LINKS_$(NAME))

fuzz: tests/fuzz_oneshot tests/fuzz_uci tests/fuzz_tablefile tests/fuzz_gamefile
	bash tests/manual/fuzz.sh $(FUZZ_SECONDS)

# The WebAssembly modules: the course's drop-in and web/index.html's own.
web: $(WEB_TARGET) $(PAGE_TARGET)

$(WEB_TARGET): $(WEB_SOURCES) $(HEADERS)
	$(EMCC) $(WARNINGS) $(WEB_FLAGS) -sEXPORTED_FUNCTIONS=$(WEB_EXPORTS) $(WEB_SOURCES) -o $@

$(PAGE_TARGET): $(WEB_SOURCES) $(HEADERS)
	$(EMCC) $(WARNINGS) $(WEB_FLAGS) -DENGINE_WASM_PAGE -sEXPORTED_FUNCTIONS=$(PAGE_EXPORTS) -sERROR_ON_UNDEFINED_SYMBOLS=0 \
		-sWARN_ON_UNDEFINED_SYMBOLS=0 $(WEB_SOURCES) -o $@

# Serves web/ on http://127.0.0.1:8000 (this machine only), as the course template does.
run: web
	python3 -m http.server 8000 --bind 127.0.0.1 --directory web

clean:
	rm -f tools/tune tools/train engine engine-debug engine-tsan tests/unit tests/unit-debug tests/endgame tests/fuzz_oneshot tests/fuzz_uci tests/fuzz_tablefile tests/fuzz_gamefile web/engine.wasm web/boxer.wasm
