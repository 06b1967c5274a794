#!/usr/bin/env bash
# tests/datagen.sh: `engine datagen` (the same seed gives the same lines, another seed other
# lines, every line `FEN | SCORE | RESULT` with a FEN that parses, --out written whole, bad
# arguments refused with status 2, a rescoring engine that answers late or not at all). Usage:
# tests/datagen.sh [ENGINE]. Takes about 20 seconds, most of it the fake rescorers' waits;
# ends with "N passed, N failed". A call still running after HANG_SECONDS is a hang: it is
# killed (status 124) and fails its check.
set -u
ENGINE=${1:-./engine}
here=$(cd "$(dirname "$0")" && pwd)
HANG_SECONDS=60   # no call here takes more than a few seconds, a minute under the sanitizers
pass=0; fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# engine ARGS...: the engine, killed as a hang after HANG_SECONDS
engine() { timeout -k 1 "$HANG_SECONDS" "$ENGINE" "$@"; }

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
# check WHAT COMMAND...: one check; a condition of several parts is one command, `eval '... && ...'`.
check() { local what=$1; shift; if "$@"; then ok; else bad "$what"; fi; }

engine datagen --games 2 --nodes 500 --seed 7 >"$tmp/a" 2>"$tmp/err"; status=$?
engine datagen --games 2 --nodes 500 --seed 7 >"$tmp/b" 2>/dev/null; same=$?
engine datagen --games 2 --nodes 500 --seed 8 >"$tmp/c" 2>/dev/null; other=$?
check "datagen exits 0 (status $status)" [ $status -eq 0 ]
check "datagen writes lines ($(wc -l <"$tmp/a"))" [ "$(wc -l <"$tmp/a")" -gt 10 ]
check "the same seed gives the same lines (status $same)" eval '[ $same -eq 0 ] && cmp -s "$tmp/a" "$tmp/b"'
check "another seed gives other lines (status $other, $(wc -l <"$tmp/c") lines)" \
  eval '[ $other -eq 0 ] && [ -s "$tmp/c" ] && ! cmp -s "$tmp/a" "$tmp/c"'
check "a progress line on stderr ($(cat "$tmp/err"))" grep -q '^datagen: 2/2 games, [0-9]* positions' "$tmp/err"

# Every line: a FEN our parser takes, a centipawn score that is not a mate, 1.0, 0.5 or 0.0.
shape=0; fens=0; n=0
while IFS= read -r line; do
  n=$((n + 1))
  [[ "$line" =~ ^([^|]+)\ \|\ (-?[0-9]+)\ \|\ (1\.0|0\.5|0\.0)$ ]] || { shape=$((shape + 1)); echo "bad line: $line"; continue; }
  score=${BASH_REMATCH[2]}
  [ "${score#-}" -lt 30000 ] || { shape=$((shape + 1)); echo "mate score: $line"; }
  engine d "${BASH_REMATCH[1]}" >/dev/null 2>&1 || { fens=$((fens + 1)); echo "bad FEN: $line"; }
done <"$tmp/a"
check "$n lines of three fields" [ $shape -eq 0 ]
check "every FEN parses" [ $fens -eq 0 ]
check "one result per game (2 games)" [ "$(awk -F' [|] ' '{print $3}' "$tmp/a" | uniq | wc -l)" -le 2 ]

# --out: the same lines, written to FILE.tmp and renamed, nothing on stdout.
engine datagen --games 2 --nodes 500 --seed 7 --out "$tmp/out.txt" >"$tmp/stdout" 2>/dev/null; status=$?
check "--out exits 0 (status $status)" [ $status -eq 0 ]
check "--out holds the lines of stdout" cmp -s "$tmp/a" "$tmp/out.txt"
check "--out leaves no .tmp and prints nothing" eval '[ ! -e "$tmp/out.txt.tmp" ] && [ ! -s "$tmp/stdout" ]'
printf '# one opening\nrnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n' >"$tmp/openings.epd"
engine datagen --games 1 --nodes 300 --seed 1 --openings "$tmp/openings.epd" >"$tmp/open" 2>/dev/null; status=$?
check "--openings exits 0 with lines (status $status)" eval '[ $status -eq 0 ] && [ -s "$tmp/open" ]'

# --sample K keeps about one position in K; --rescore scores the kept positions with another
# UCI engine (here our own, at fixed nodes, so that the lines repeat).
engine datagen --games 2 --nodes 500 --seed 7 --sample 3 >"$tmp/s" 2>/dev/null; status=$?
check "--sample 3 exits 0 with fewer lines ($(wc -l <"$tmp/s") of $(wc -l <"$tmp/a"))" \
  eval '[ $status -eq 0 ] && [ -s "$tmp/s" ] && [ "$(wc -l <"$tmp/s")" -lt "$(wc -l <"$tmp/a")" ]'
check "--sample 3 keeps lines of the full run" bash -c "[ -z \"\$(comm -23 <(sort '$tmp/s') <(sort '$tmp/a'))\" ]"
rescore=(datagen --games 2 --nodes 500 --seed 7 --rescore "$ENGINE" --rescore-nodes 300)
engine "${rescore[@]}" >"$tmp/r1" 2>"$tmp/rerr"; status=$?
engine "${rescore[@]}" >"$tmp/r2" 2>/dev/null
check "--rescore exits 0 with lines (status $status, $(cat "$tmp/rerr"))" eval '[ $status -eq 0 ] && [ -s "$tmp/r1" ]'
check "--rescore: the same seed gives the same lines" cmp -s "$tmp/r1" "$tmp/r2"
# the rescorer's lines: positions and results of the plain run (less those it scored as mates,
# which are dropped: at most a tenth here), with other scores
check "--rescore keeps the positions and results, with other scores" \
  bash -c "[ -z \"\$(comm -23 <(cut -d'|' -f1,3 '$tmp/r1' | sort) <(cut -d'|' -f1,3 '$tmp/a' | sort))\" ] \
    && [ \$((10 * \$(wc -l <'$tmp/r1'))) -ge \$((9 * \$(wc -l <'$tmp/a'))) ] && ! cmp -s '$tmp/r1' '$tmp/a'"
engine datagen --games 1 --nodes 300 --seed 1 --rescore "$tmp/none" --rescore-nodes 100 >"$tmp/out" 2>"$tmp/err"; status=$?
check "--rescore with no engine: status 1 and one error line ($status, $(cat "$tmp/err"))" \
  [ "$status $(grep -c '^error: ' "$tmp/err")" = "1 1" ]

# A rescoring engine that answers late is asked isready and waited for again (datagen stopped by
# Ctrl-Z for longer than its wait sees the same); one that answers nothing, not even isready
# (tests/fakes/hang.sh), ends the run with status 1 and one error line, and FILE is not made.
engine datagen --games 1 --nodes 300 --seed 1 --rescore "$here/fakes/late.sh" --rescore-nodes 100 \
  --out "$tmp/late.txt" >/dev/null 2>"$tmp/err"; status=$?
check "--rescore waits for a late engine: status 0, every score +/-12 ($status, $(cat "$tmp/err"))" \
  eval '[ $status -eq 0 ] && [ -s "$tmp/late.txt" ] && ! grep -qv " | -\?12 | " "$tmp/late.txt"'
engine datagen --games 1 --nodes 300 --seed 1 --rescore "$here/fakes/hang.sh" --rescore-nodes 100 \
  --out "$tmp/hang.txt" >/dev/null 2>"$tmp/err"; status=$?
check "--rescore with an engine that stops answering: status 1, one error line ($status, $(cat "$tmp/err"))" \
  [ "$status $(grep -c '^error: ' "$tmp/err") $(test -e "$tmp/hang.txt"; echo $?)" = "1 1 1" ]

# Bad arguments: status 2, one error line, nothing on stdout.
expect_usage() {
  engine "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; local got=$?
  check "exit 2 and one error line for: $* (got $got, $(cat "$tmp/err"))" \
    [ "$got $(grep -c '^error: ' "$tmp/err") $(wc -l <"$tmp/err") $(wc -c <"$tmp/out")" = "2 1 1 0" ]
}
expect_usage datagen
expect_usage datagen --nodes 500 --seed 1
expect_usage datagen --games 2 --seed 1
expect_usage datagen --games 2 --nodes 500
expect_usage datagen --games 0 --nodes 500 --seed 1
expect_usage datagen --games 2 --nodes x --seed 1
expect_usage datagen --games 2 --nodes 500 --seed -1
expect_usage datagen --games 2 --nodes 500 --seed 1 --colour white
expect_usage datagen --games 2 --nodes 500 --seed 1 --out
expect_usage datagen --games 2 --nodes 500 --seed 1 --out "$tmp/no/such/dir/file"
expect_usage datagen --games 2 --nodes 500 --seed 1 --openings "$tmp/none.epd"
expect_usage datagen --games 2 --nodes 500 --seed 1 --sample 0
expect_usage datagen --games 2 --nodes 500 --seed 1 --rescore "$ENGINE"
expect_usage datagen --games 2 --nodes 500 --seed 1 --rescore-nodes 100

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
