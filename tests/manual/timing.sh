#!/usr/bin/env bash
# tests/manual/timing.sh [ENGINE]: a benchmark, not a unit test (tests/deadline.sh is the test that
# fails on a hang or a call far over its limit). Runs one-shot calls on fixed
# positions (cycling through them) at each limit of LIMITS (environment, default
# "0.05 0.2 1 3" seconds), COUNT calls a limit (default 20), while BUSY busy loops (default
# 1: the other core; 2 keeps both cores of a 2-core machine busy) load the machine, and prints
# per limit: calls, overruns, mean, median, 99th and 99.9th percentile (nearest rank) and
# maximum of wall time / limit (BUSY=0: an idle machine, for the share of the limit used). `LIMITS=0.1 COUNT=2000` measures the tail the one-shot reserve must
# cover (docs/figures.md).
set -u
engine=${1:-./engine}
count=${COUNT:-20}
limits=${LIMITS:-0.05 0.2 1 3}
tests=$(cd "$(dirname "$0")/.." && pwd)
positions="$tests/data/timing-positions.txt"   # FEN<TAB>moves, written from chess.js output
out=$(mktemp)
busy=()
for _ in $(seq "${BUSY:-1}"); do ( while :; do :; done ) & busy+=($!); done
trap 'kill "${busy[@]}" 2>/dev/null; rm -f "$out"' EXIT
echo "busy loops: ${#busy[@]}, cores: $(nproc 2>/dev/null || echo ?)"
for limit in $limits; do
  ratios=$(for ((i = 0; i < count; i += $(wc -l < "$positions"))); do cat "$positions"; done | head -n "$count" |
    while IFS=$'\t' read -r fen moves; do
      # bash's own clock around the call, its output to a file: the span is the shell's fork
      # and exec of the engine to its exit, as a harness that spawns it sees (no subshell or
      # date process inside it, which cost milliseconds on a loaded machine)
      s=$EPOCHREALTIME
      "$engine" "$fen" "$moves" "$limit" >"$out" 2>/dev/null
      e=$EPOCHREALTIME
      grep -Eq '^[0-9]+$' "$out" || echo "bad-output"
      echo "scale=4; (${e/./} - ${s/./}) / 1000000 / $limit" | bc
    done)
  bad=$(echo "$ratios" | grep -c bad-output)
  echo "$ratios" | grep -v bad-output | sort -n | awk -v limit="$limit" -v bad="$bad" '
    { r[n++] = $1; sum += $1; if ($1 > 1) over++ }
    function rank(p,  k) { k = int(p * n + 0.999999); return r[(k < 1 ? 1 : k) - 1] }
    END { med = n % 2 ? r[(n - 1) / 2] : (r[n / 2 - 1] + r[n / 2]) / 2;
          printf "limit %5ss  calls %4d  overruns %d  bad %d  mean %.3f  median %.3f  p99 %.3f  p99.9 %.3f  max %.3f\n",
                 limit, n, over + 0, bad, sum / n, med, rank(0.99), rank(0.999), r[n - 1] }'
done
