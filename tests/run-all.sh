#!/usr/bin/env bash
# tests/run-all.sh ENGINE UNIT PERFT_CAP: runs every test program under tests/ and adds up
# their closing lines (tests/tally.sh: the last line each prints; a program that ends with a
# status other than 0 counts as failed) into one, "N passed, N failed, N skipped". A program
# still running after TEST_TIMEOUT seconds (default 1800) is stopped and counts as failed. The
# checks that cannot run with this build or user at all, which the programs leave uncounted
# with a line `not applicable: ...`, are named again above the total.
set -u
engine=$1; unit=$2; cap=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tally.sh"
log=$(mktemp); notes=$(mktemp); trap 'rm -f "$log" "$notes"' EXIT
run_one() {
  local name=$1 status; shift
  echo "== $name"
  timeout -k 10 "${TEST_TIMEOUT:-1800}" "$@" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  [ "$status" -eq 124 ] && echo "FAIL $name: still running after ${TEST_TIMEOUT:-1800} s, stopped"
  tally "$name" "$status" "$log"
  sed -n "s/^not applicable: /$name: /p" "$log" >>"$notes"
}
run_one unit "$unit" "$cap" tests/data/perft.epd tests/data/perft960.epd
run_one cli bash tests/cli.sh "$engine"
if [ -n "${ENDGAME:-}" ]; then
  run_one endgame "$ENDGAME"
else
  echo "== endgame"
  echo "not applicable: the mating test (tests/endgame.c) in a sanitizer build: too slow there" | tee "$log"
  sed -n "s/^not applicable: /endgame: /p" "$log" >>"$notes"
fi
for extra in tests/deadline.sh tests/hashfile.sh tests/threads.sh tests/uci.sh tests/robust.sh tests/batch.sh tests/datagen.sh tests/web.sh tests/tools.sh tests/docs.sh; do
  run_one "$(basename "$extra" .sh)" bash "$extra" "$engine"
done
echo "== all"
if [ -s "$notes" ]; then
  echo "not applicable to this build or user, so neither run nor counted:"
  sed 's/^/  /' "$notes"
fi
tally_line
[ "$tally_fail" -eq 0 ]
