#!/usr/bin/env bash
# tests/datagen.sh: `engine datagen` (the same seed gives the same lines, another seed other
# lines, with any number of threads; every line `FEN | SCORE | RESULT` with a FEN that parses;
# --out written whole; game records (--out FILE.games) that --read and the trainer give back as
# the same lines, and that a truncated, damaged or foreign file makes an error of; --hours and
# SIGTERM stop it with every finished game kept; bad arguments refused with status 2; a
# rescoring engine that answers late or not at all). Usage: tests/datagen.sh [ENGINE]. Takes
# about 30 seconds, most of it the fake rescorers' waits; ends with "N passed, N failed". A
# call still running after HANG_SECONDS is a hang: it is killed (status 124) and fails its check.
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
check "a progress line on stderr ($(cat "$tmp/err"))" grep -q '^datagen: 2/2 games, [0-9]* positions, [0-9]* positions an hour' "$tmp/err"
engine datagen --games 5 --nodes 500 --seed 7 --threads 1 >"$tmp/t1" 2>/dev/null
engine datagen --games 5 --nodes 500 --seed 7 --threads 3 >"$tmp/t3" 2>/dev/null; status=$?
check "--threads 3 gives the lines of --threads 1, in the same order (status $status)" \
  eval '[ $status -eq 0 ] && [ -s "$tmp/t1" ] && cmp -s "$tmp/t1" "$tmp/t3"'

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

# Game records: --out FILE.games, read back by --read as the lines of the text run; the same
# bytes with any number of threads; smaller than the lines.
engine datagen --games 5 --nodes 500 --seed 7 --threads 2 --out "$tmp/g.games" >"$tmp/stdout" 2>/dev/null; status=$?
engine datagen --games 5 --nodes 500 --seed 7 --threads 1 --out "$tmp/g1.games" >/dev/null 2>&1
engine datagen --read "$tmp/g.games" >"$tmp/g.txt" 2>"$tmp/err"; read_status=$?
check "--out FILE.games exits 0, prints nothing, leaves no .tmp (status $status)" \
  eval '[ $status -eq 0 ] && [ ! -s "$tmp/stdout" ] && [ ! -e "$tmp/g.games.tmp" ]'
check "the records begin with BOXGAMES" eval '[ "$(head -c 8 "$tmp/g.games")" = BOXGAMES ]'
check "--read gives the lines of the text run (status $read_status, $(wc -l <"$tmp/g.txt") lines)" \
  eval '[ $read_status -eq 0 ] && [ ! -s "$tmp/err" ] && cmp -s "$tmp/g.txt" "$tmp/t1"'
check "the records are the same with 1 and 2 threads" cmp -s "$tmp/g.games" "$tmp/g1.games"
check "the records are smaller than the lines ($(wc -c <"$tmp/g.games") bytes, $(wc -c <"$tmp/t1"))" \
  [ "$(wc -c <"$tmp/g.games")" -lt $(($(wc -c <"$tmp/t1") / 5)) ]
check "the records are of version 2 (byte 8: $(od -An -tu1 -j8 -N1 "$tmp/g.games"))" [ "$(od -An -tu1 -j8 -N1 "$tmp/g.games" | tr -d ' ')" = 2 ]
# A file of version 1 (tests/data/records-v1.games, written by d06cd89's datagen --games 4
# --nodes 300 --seed 69 --sample 2) is read as it always was: the lines that build printed.
engine datagen --read "$here/data/records-v1.games" >"$tmp/v1.txt" 2>"$tmp/err"; status=$?
check "--read of a version-1 file gives its lines as before (status $status, $(cat "$tmp/err"))" \
  eval '[ $status -eq 0 ] && [ ! -s "$tmp/err" ] && cmp -s "$tmp/v1.txt" "$here/data/records-v1.txt"'
# Damaged files: --read prints the games before the damage and no byte of a damaged block, then
# one error line naming the file and the game, status 1. The trainer refuses the file.
size=$(wc -c <"$tmp/g.games")
head -c $((size - 7)) "$tmp/g.games" >"$tmp/cut.games"
cp "$tmp/g.games" "$tmp/flip.games"
printf '\x5a' | dd of="$tmp/flip.games" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
expect_damage() {
  local file=$1 what=$2 pattern=$3
  engine datagen --read "$file" >"$tmp/out" 2>"$tmp/err"; local got=$?
  check "--read of a $what file: status 1, one error line naming it, no line of it (got $got, $(cat "$tmp/err"), $(wc -l <"$tmp/out") lines)" \
    eval '[ "$got $(grep -c "^error: datagen: $file" "$tmp/err") $(wc -l <"$tmp/err")" = "1 1 1" ] && [ ! -s "$tmp/out" ] && grep -q "$pattern" "$tmp/err"'
  if [ -x "$here/../tools/train" ]; then
    "$here/../tools/train" --data "$file" --epochs 0 --hidden 16 --threads 1 --out "$tmp/net.h" >/dev/null 2>"$tmp/err"; got=$?
    check "the trainer refuses a $what file with one error line naming it (status $got, $(cat "$tmp/err"))" \
      eval '[ "$got $(grep -c "^error: .*$file" "$tmp/err")" = "1 1" ] && [ ! -e "$tmp/net.h" ]'
  fi
}
expect_damage "$tmp/cut.games" truncated 'truncated'
expect_damage "$tmp/flip.games" damaged 'damaged'
cp "$tmp/t1" "$tmp/foreign.games"
expect_damage "$tmp/foreign.games" foreign 'not a file of game records'

# --hours stops taking games when the time is up; SIGTERM stops at once: each keeps every
# finished game in FILE, which --read takes whole.
engine datagen --hours 0.0005 --nodes 300 --seed 5 --threads 2 --out "$tmp/h.games" >/dev/null 2>"$tmp/err"; status=$?
engine datagen --read "$tmp/h.games" >"$tmp/h.txt" 2>/dev/null; read_status=$?
check "--hours 0.0005: status 0, a whole file of games ($status, $read_status, $(tail -1 "$tmp/err"))" \
  eval '[ "$status $read_status" = "0 0" ] && [ -s "$tmp/h.txt" ] && grep -q "^datagen: [0-9]* games, " "$tmp/err"'
"$ENGINE" datagen --games 100000 --nodes 300 --seed 5 --threads 2 --out "$tmp/s.games" >/dev/null 2>"$tmp/err" &
pid=$!
for _ in $(seq "$HANG_SECONDS"); do grep -q "^datagen: [1-9]" "$tmp/err" && break; sleep 1; done # a game kept
kill -TERM $pid; wait $pid; status=$?
engine datagen --read "$tmp/s.games" >"$tmp/s.txt" 2>/dev/null; read_status=$?
check "SIGTERM: status 0, every finished game kept in FILE, no .tmp ($status, $read_status, $(tail -1 "$tmp/err"))" \
  eval '[ "$status $read_status" = "0 0" ] && [ -s "$tmp/s.txt" ] && [ ! -e "$tmp/s.games.tmp" ] && grep -q "stopped by signal" "$tmp/err"'
kept=$(grep -o "the [0-9]* games" "$tmp/err" | grep -o "[0-9]*")
check "the games kept after SIGTERM are games of an uninterrupted run (of as many and one more a thread)" \
  eval '[ -z "$(comm -23 <(sort "$tmp/s.txt") <(engine datagen --games $((kept + 2)) --nodes 300 --seed 5 --threads 2 2>/dev/null | sort))" ]'

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
engine "${rescore[@]}" --threads 2 >"$tmp/r3" 2>/dev/null
check "--rescore: the same lines with 2 threads, each with its rescorer" cmp -s "$tmp/r1" "$tmp/r3"
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
expect_usage datagen --games 2 --nodes 500 --seed 1 --threads 0
expect_usage datagen --games 2 --nodes 500 --seed 1 --threads 65
expect_usage datagen --hours 0 --nodes 500 --seed 1
expect_usage datagen --hours x --nodes 500 --seed 1
expect_usage datagen --read
expect_usage datagen --read "$tmp/g.games" --games 2

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
