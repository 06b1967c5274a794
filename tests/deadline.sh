#!/usr/bin/env bash
# tests/deadline.sh [ENGINE]: the one-shot deadline, as a test that can fail. COUNT (default 20)
# one-shot calls at LIMIT (0.1 s) on the positions of tests/data/timing-positions.txt, one after the
# other: each prints a valid index and exits with status 0, and its answer comes within the
# limit and SLACK_MS, counted from before its process starts until the index is read from the
# pipe. A call that has not answered after HANG_SECONDS (10) is a hang: it fails, and the
# script stops there. The figures (median, percentiles, worst, under load) are `make timing`'s
# (tests/manual/timing.sh). Ends with "N passed, N failed".
set -u
ENGINE=${1:-./engine}
COUNT=${COUNT:-20}
LIMIT=0.1
LIMIT_MS=100
HANG_SECONDS=10
here=$(cd "$(dirname "$0")" && pwd)
# The slack over the limit: what a loaded 2-core machine (other tests, other developers'
# matches) can hold a process up for beyond the engine's clock, before it runs and while its
# answer goes through the pipe to this shell, which waits for a core too. For a release build
# the limit again (twice the limit in all). A sanitizer build (make debug) takes longer to be
# scheduled and to start (AddressSanitizer maps its shadow memory first), and between two
# looks at the clock (every 256 nodes, ten times slower): 300 ms, as tests/uci.sh allows it
# (at a load average of 8 its slowest answer here took 99 ms).
SLACK_MS=$LIMIT_MS
grep -q __asan_init "$ENGINE" 2>/dev/null && SLACK_MS=300
pass=0; fail=0; worst=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
finish() { echo "deadline: $COUNT calls at $LIMIT s, the slowest answered in $worst ms"; echo "$pass passed, $fail failed"; [ $fail -eq 0 ]; exit; }

# call FEN MOVES: one one-shot call at LIMIT; sets answer (its first stdout line), status and ms
# (from before the process starts until that line is read).
call() {
  local t0 t1 fd rest
  t0=${EPOCHREALTIME/./}
  exec {fd}< <(timeout -k 1 "$HANG_SECONDS" "$ENGINE" "$1" "$2" "$LIMIT" 2>/dev/null; echo "exit $?")
  IFS= read -r -t $((HANG_SECONDS + 5)) answer <&"$fd"
  t1=${EPOCHREALTIME/./}
  while IFS= read -r -t $((HANG_SECONDS + 5)) rest <&"$fd"; do [[ $rest == exit* ]] && break; done
  exec {fd}<&-
  status=${rest#exit }
  [[ $answer == exit* ]] && status=${answer#exit }
  ms=$(((t1 - t0) / 1000))
}

n=0
while [ "$n" -lt "$COUNT" ]; do
  while IFS=$'\t' read -r fen moves && [ "$n" -lt "$COUNT" ]; do
    n=$((n + 1))
    call "$fen" "$moves"
    read -ra list <<<"$moves"
    if [ "$status" = 124 ] || [ "$status" = 137 ]; then
      bad "call $n: no answer within $HANG_SECONDS s, the engine hangs ($fen); stopping here"
      finish
    fi
    if [ "$status" = 0 ] && [[ $answer =~ ^[0-9]+$ ]] && [ "$answer" -lt "${#list[@]}" ]; then ok; else
      bad "call $n: status $status, answer '$answer', not an index below ${#list[@]} ($fen)"; fi
    if [ "$ms" -le $((LIMIT_MS + SLACK_MS)) ]; then ok; else
      bad "call $n: answered in $ms ms, more than its $LIMIT s limit and $SLACK_MS ms ($fen)"; fi
    [ "$ms" -gt "$worst" ] && worst=$ms
  done <"$here/data/timing-positions.txt"
done
finish
