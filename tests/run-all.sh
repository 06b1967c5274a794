#!/usr/bin/env bash
# tests/run-all.sh ENGINE UNIT PERFT_CAP: runs every test program under tests/ and adds
# up their closing "N passed, N failed" lines into one.
set -u
engine=$1; unit=$2; cap=$3
total_pass=0; total_fail=0
run_one() {
  local name=$1; shift
  echo "== $name"
  local log; log=$(mktemp)
  "$@" 2>&1 | tee "$log"
  local last; last=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
  rm -f "$log"
  if [ -z "$last" ]; then total_fail=$((total_fail + 1)); echo "FAIL $name printed no closing line"; return; fi
  total_pass=$((total_pass + $(echo "$last" | cut -d' ' -f1)))
  total_fail=$((total_fail + $(echo "$last" | cut -d' ' -f3)))
}
run_one unit "$unit" "$cap" tests/perft.epd
run_one cli bash tests/cli.sh "$engine"
# mating with K+Q, K+R, K+B+N (release builds only: too slow under the sanitizers)
[ -n "${ENDGAME:-}" ] && run_one endgame "$ENDGAME"
for extra in tests/uci.sh tests/robust.sh tests/batch.sh tests/datagen.sh tests/web.sh tests/tools.sh; do
  [ -f "$extra" ] && run_one "$(basename "$extra" .sh)" bash "$extra" "$engine"
done
echo "== all"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
