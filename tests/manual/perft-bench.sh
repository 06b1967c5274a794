#!/usr/bin/env bash
# tests/manual/perft-bench.sh ENGINE: startpos perft 6 (119,060,324 leaves) with our engine and with
# Stockfish's `go perft 6`, each the best of 3 runs, and the ratio of the two times.
set -u
engine=${1:-./engine}
sf=$(command -v stockfish || echo /usr/games/stockfish)
best() { sort -n | head -1; }
ours=$(for i in 1 2 3; do s=$(date +%s%N); "$engine" perft 6 >/dev/null 2>&1; echo $(( $(date +%s%N) - s )); done | best)
printf 'ours:      %.3f s\n' "$(echo "$ours / 1000000000" | bc -l)"
if [ ! -x "$sf" ]; then echo "stockfish not installed (apt-get install stockfish): no ratio"; exit 0; fi
theirs=$(for i in 1 2 3; do s=$(date +%s%N); printf 'go perft 6\nquit\n' | "$sf" >/dev/null 2>&1; echo $(( $(date +%s%N) - s )); done | best)
printf 'stockfish: %.3f s\n' "$(echo "$theirs / 1000000000" | bc -l)"
printf 'ratio:     %.2f (ours / stockfish; the goal is at most 0.8)\n' "$(echo "$ours / $theirs" | bc -l)"
