#!/usr/bin/env bash
# tests/timing.sh [ENGINE] [POSITIONS]: a benchmark, not a unit test. Runs one-shot calls on
# fixed positions at 0.05, 0.2, 1 and 3 seconds while BUSY busy loops (environment, default 1:
# the other core; 2 keeps both cores of a 2-core machine busy) load the machine, and prints
# per limit: moves, overruns, median and maximum of wall time / limit.
set -u
engine=${1:-./engine}
count=${2:-20}
here=$(cd "$(dirname "$0")" && pwd)
positions="$here/timing-positions.txt"   # FEN<TAB>moves, written from chess.js output
busy=()
for _ in $(seq "${BUSY:-1}"); do ( while :; do :; done ) & busy+=($!); done
trap 'kill "${busy[@]}" 2>/dev/null' EXIT
echo "busy loops: ${#busy[@]}, cores: $(nproc 2>/dev/null || echo ?)"
for limit in 0.05 0.2 1 3; do
  ratios=$(head -n "$count" "$positions" | while IFS=$'\t' read -r fen moves; do
    s=$(date +%s%N)
    out=$("$engine" "$fen" "$moves" "$limit" 2>/dev/null)
    e=$(date +%s%N)
    [[ "$out" =~ ^[0-9]+$ ]] || echo "bad-output"
    echo "scale=4; ($e - $s) / 1000000000 / $limit" | bc
  done)
  bad=$(echo "$ratios" | grep -c bad-output)
  echo "$ratios" | grep -v bad-output | sort -n | awk -v limit="$limit" -v bad="$bad" '
    { r[n++] = $1; if ($1 > 1) over++ }
    END { med = n % 2 ? r[(n - 1) / 2] : (r[n / 2 - 1] + r[n / 2]) / 2;
          printf "limit %5ss  moves %3d  overruns %d  bad %d  median %.3f  max %.3f\n", limit, n, over + 0, bad, med, r[n - 1] }'
done
