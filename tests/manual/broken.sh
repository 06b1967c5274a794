#!/usr/bin/env bash
# tests/manual/broken.sh [ENGINE]: the tests catch a broken engine. A quick subset of `make
# test`'s scripts (tests/cli.sh, tests/deadline.sh with COUNT=4) and tests/manual/referee-check.sh
# on two positions (where node and the referee are installed; skipped elsewhere) must pass with
# ENGINE, and each fake of tests/fakes/broken/ (ENGINE but for the one-shot call, see
# one-shot.sh, which they share) must fail one of them at least: a fake that passes them all
# fails here. A fake that fails a script of `make test` fails `make test`. `.ci/run` runs it.
# About a minute (the hanging fake waits out each script's HANG_SECONDS). Ends with
# "N passed, N failed".
set -u
ENGINE=$(cd "$(dirname "${1:-./engine}")" && pwd)/$(basename "${1:-./engine}")
tests=$(cd "$(dirname "$0")/.." && pwd)
pass=0; fail=0
log=$(mktemp); trap 'rm -f "$log"' EXIT

# subset CANDIDATE: runs the subset on CANDIDATE; sets caught (the scripts that failed) and
# passed (those that passed), each a list with a leading space.
subset() {
  local script status
  caught=""; passed=""
  for script in cli.sh deadline.sh manual/referee-check.sh; do
    REAL_ENGINE=$ENGINE COUNT=4 bash "$tests/$script" "$1" $([ $script = manual/referee-check.sh ] && echo 1250) >"$log" 2>&1
    status=$?
    echo "$(basename "$1") under $script: status $status, $(tail -1 "$log")"
    # a script that skips all it has (referee-check.sh without node or the referee) tells nothing
    if [ $status -ne 0 ]; then caught+=" $script"
    elif ! grep -Eq '^0 passed, 0 failed, [0-9]+ skipped$' "$log"; then passed+=" $script"; fi
  done
}

subset "$ENGINE"
if [ -z "$caught" ] && [ -n "$passed" ]; then pass=$((pass + 1)); else
  fail=$((fail + 1)); echo "FAIL the subset fails with ENGINE itself:$caught; a fake failing it would show nothing"; fi
for fake in "$tests"/fakes/broken/*.sh; do
  [ "$(basename "$fake")" = one-shot.sh ] && continue
  subset "$fake"
  if [ -n "$caught" ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL $(basename "$fake") passes every script of the subset:$passed"; fi
done

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
