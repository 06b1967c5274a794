#!/usr/bin/env bash
# tests/threads.sh [ENGINE]: the search on several threads, as `make test` runs it and as
# `make tsan` runs it under ThreadSanitizer: one-shot calls (with a table file, several lines,
# batch) and a UCI session (go depth, nodes, infinite and stop, ponder and ponderhit, MultiPV,
# a new game, quit while searching) at 2 and 4 threads. Every answer is checked, the helper
# threads must have searched (UCI's info string after the search gives their nodes), and under
# ThreadSanitizer (an ENGINE built with it, as `make tsan` builds it) any report of it on stderr
# fails; other builds print none, so there those checks could never fail and are not made (nor
# counted: one `not applicable:` line says so). A call still running after HANG_SECONDS is a
# hang and fails. Ends with "N passed, N failed".
set -u
ENGINE=${1:-./engine}
HANG_SECONDS=60   # generous: ThreadSanitizer slows the search tenfold
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
POS="r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
MOVES="a3 d3 Nc3 O-O h3 Bb3 Qe2"
MOVE='[a-h][1-8][a-h][1-8][qrbn]?'

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
check() { local what=$1; shift; if "$@"; then ok; else bad "$what"; fi; }
# no_report FILE: FILE holds no report of ThreadSanitizer.
no_report() { ! grep -q ThreadSanitizer "$1"; }
# race_free WHAT FILE: under ThreadSanitizer, a check that FILE holds no report of it; a build
# without it reports nothing, so there the check could not fail and is not made.
tsan=0; grep -q __tsan_init "$ENGINE" 2>/dev/null && tsan=1
[ $tsan -eq 1 ] || echo "not applicable: the data-race checks (12) need a build with ThreadSanitizer (make tsan)"
race_free() { if [ $tsan -eq 1 ]; then check "$1" no_report "$2"; fi; }

for t in 2 4; do
  # one-shot calls: an index among the moves, nothing but warnings on stderr
  for args in "" "--hash-file $tmp/table.tt" "--multipv 2 --verbose" "--nodes 30000"; do
    timeout -k 1 $HANG_SECONDS "$ENGINE" --threads $t $args "$POS" "$MOVES" 0.3 >"$tmp/out" 2>"$tmp/err"; status=$?
    index=$(cat "$tmp/out")
    check "one-shot --threads $t $args: status $status, index '$index'" eval '[ $status -eq 0 ] && [[ $index =~ ^[0-6]$ ]]'
    race_free "one-shot --threads $t $args: no data race" "$tmp/err"
  done
  printf '%s\t%s\t0.2\n' "$POS" "$MOVES" "$POS" "a3 d3" | timeout -k 1 $HANG_SECONDS "$ENGINE" --threads $t --batch >"$tmp/out" 2>"$tmp/err"
  check "batch --threads $t: two answers ($(tr '\n' ' ' <"$tmp/out"))" test "$(grep -c '^[0-6]$' "$tmp/out")" -eq 2
  race_free "batch --threads $t: no data race" "$tmp/err"

  # a UCI session, fed with pauses as a GUI sends it
  {
    printf 'uci\nsetoption name Threads value %s\nisready\nposition startpos moves e2e4\ngo depth 8\n' $t
    sleep 1
    printf 'go nodes 20000\n'
    sleep 1
    printf 'position startpos\ngo infinite\n'; sleep 1; printf 'isready\n'; sleep 0.3; printf 'stop\n'
    sleep 0.5
    printf 'position startpos moves e2e4 e7e5\ngo ponder wtime 2000 btime 2000\n'; sleep 0.5; printf 'ponderhit\n'
    sleep 1.5
    printf 'setoption name MultiPV value 2\nucinewgame\nposition startpos\ngo depth 6\n'
    sleep 1
    printf 'setoption name MultiPV value 1\ngo infinite\n'; sleep 0.5; printf 'quit\n'
  } | timeout -k 1 $HANG_SECONDS "$ENGINE" >"$tmp/uci" 2>"$tmp/err"; status=$?
  check "UCI Threads $t: quit ends the session with status 0 ($status)" test $status -eq 0
  check "UCI Threads $t: six searches, six legal-looking bestmoves" test "$(grep -Ec "^bestmove $MOVE( ponder $MOVE)?$" "$tmp/uci")" -eq 6
  check "UCI Threads $t: readyok twice" test "$(grep -c '^readyok$' "$tmp/uci")" -eq 2
  n=$(grep '^info nodes' "$tmp/uci" | sed -n 2p | cut -d' ' -f3)
  helpers=$(grep '^info string threads' "$tmp/uci" | sed -n 3p | sed -n "s/^info string threads $t, helper nodes \([0-9]*\)$/\1/p")
  check "UCI Threads $t: the helper threads searched (${helpers:-no} nodes in go infinite's 1.3 s; $(grep -m1 '^info string' "$tmp/uci"))" \
    test "${helpers:-0}" -gt 0
  check "UCI Threads $t: go nodes 20000 counts every thread's nodes (${n:-none})" \
    test "${n:-0}" -ge 20000 -a "${n:-0}" -le $((20000 + 256 * t + 1000))
  check "UCI Threads $t: MultiPV 2 reports two lines" grep -q '^info depth 6 .* multipv 2 ' "$tmp/uci"
  check "UCI Threads $t: nothing but protocol lines" test -z "$(grep -Ev '^(id |option |uciok|readyok|info |bestmove )' "$tmp/uci")"
  race_free "UCI Threads $t: no data race" "$tmp/err"
done

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
