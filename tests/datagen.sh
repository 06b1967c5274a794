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

# --pack: lines kept as records without loss. A file of every kind of line: a game joined over a
# castling and 9 plies, an en passant square reached and taken, a promotion, the fifty-move
# clock past 100, a line repeated, a FEN whose every field is as wide as it goes, a FEN that is
# not as the rules write it (its en passant square dropped) and one of four fields (kept as they
# stand), scores at the records' bounds. --read gives back its bytes, the joins found (16 lines
# in 8 games), the same file with 1 and 2 threads.
fen_after() { printf 'position %s moves %s\nd\nquit\n' "$1" "$2" | "$ENGINE" | sed -n 's/^fen //p'; }
opening="e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d3 f8e7 e1g1"
{ echo "$(fen_after startpos "") | 20 | 1.0"
  echo "$(fen_after startpos "$opening") | 35 | 1.0"
  echo "$(fen_after startpos "$opening e8g8 c2c3") | 30 | 1.0"
  echo "$(fen_after startpos "e2e4 a7a6") | 12 | 0.5"
  echo "$(fen_after startpos "e2e4 a7a6 e4e5 d7d5") | 10 | 0.5"
  echo "$(fen_after startpos "e2e4 a7a6 e4e5 d7d5 e5d6 a6a5") | 150 | 0.5"
  echo "8/P5k1/8/8/8/8/6K1/8 w - - 0 60 | 800 | 1.0"
  echo "$(fen_after "fen 8/P5k1/8/8/8/8/6K1/8 w - - 0 60" "a7a8q g7f6") | 1500 | 1.0"
  echo "8/8/4k3/8/8/4K3/8/7R w - - 97 80 | 600 | 1.0"
  echo "$(fen_after "fen 8/8/4k3/8/8/4K3/8/7R w - - 97 80" "e3d3 e6d6 h1h2") | 610 | 1.0"
  echo "$(fen_after "fen 8/8/4k3/8/8/4K3/8/7R w - - 97 80" "e3d3 e6d6 h1h2 d6c6") | 620 | 1.0"
  echo "$(fen_after "fen 8/8/4k3/8/8/4K3/8/7R w - - 97 80" "e3d3 e6d6 h1h2 d6c6") | 620 | 1.0"
  echo "r3k2r/1p1p1p1p/1p1p1n1b/1P1PpP1P/P1P3P1/8/8/R3K2R w KQkq e6 999999 999999 | -32767 | 0.0"
  echo "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 | 0 | 0.0"
  echo "$(fen_after startpos "e2e4 e7e5") | 32767 | 0.0"
  echo "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - | 7 | 0.0"; } >"$tmp/kinds.txt"
check "the lines to pack hold the kinds asked for (en passant square, promotion, clock 100)" \
  eval 'grep -q " d6 0 3 |" "$tmp/kinds.txt" && grep -q "^Q7/" "$tmp/kinds.txt" && grep -q " - 100 81 |" "$tmp/kinds.txt"'
engine datagen --pack "$tmp/kinds.txt" --out "$tmp/kinds.games" --threads 2 >"$tmp/stdout" 2>"$tmp/err"; status=$?
engine datagen --read "$tmp/kinds.games" >"$tmp/kinds.back" 2>/dev/null
check "--pack: status 0, nothing on stdout, no .tmp, a progress line (status $status, $(tail -1 "$tmp/err"))" \
  eval '[ $status -eq 0 ] && [ ! -s "$tmp/stdout" ] && [ ! -e "$tmp/kinds.games.tmp" ] && grep -q "^datagen: 16 lines in [0-9]* games" "$tmp/err"'
check "--read of the packed lines gives their bytes back" cmp -s "$tmp/kinds.txt" "$tmp/kinds.back"
check "the lines' joins are found: castling, 9 plies, en passant, promotion, the clock past 100 ($(tail -1 "$tmp/err"))" \
  grep -q "^datagen: 16 lines in 8 games" "$tmp/err"
check "the packed lines are records of version 2 with the lines flag" \
  eval '[ "$(od -An -tu1 -j8 -N2 "$tmp/kinds.games" | tr -s " ")" = " 2 2" ]'
engine datagen --pack "$tmp/kinds.txt" --out "$tmp/kinds1.games" --threads 1 >/dev/null 2>&1
check "--pack writes the same bytes with 1 and 2 threads" cmp -s "$tmp/kinds.games" "$tmp/kinds1.games"
engine datagen --pack - --out "$tmp/stdin.games" <"$tmp/kinds.txt" >/dev/null 2>&1; status=$?
check "--pack - reads standard input (status $status)" \
  eval '[ $status -eq 0 ] && engine datagen --read "$tmp/stdin.games" 2>/dev/null | cmp -s - "$tmp/kinds.txt"'
# datagen's own lines, one quiet position in two: games of plies apart, joined
engine datagen --games 3 --nodes 400 --seed 11 --sample 2 --threads 1 >"$tmp/sampled.txt" 2>/dev/null
engine datagen --pack "$tmp/sampled.txt" --out "$tmp/sampled.games" >/dev/null 2>"$tmp/err"; status=$?
check "--pack of sampled games gives their lines back, most joined (status $status, $(tail -1 "$tmp/err"))" \
  eval '[ $status -eq 0 ] && engine datagen --read "$tmp/sampled.games" 2>/dev/null | cmp -s - "$tmp/sampled.txt" \
    && [ "$(sed -n "s/.*(\([0-9]*\)\.[0-9]% joined).*/\1/p" "$tmp/err")" -ge 80 ]'
# a file of records of version 1 (and one of version 2) rewritten as version 2 without loss
engine datagen --pack "$here/data/records-v1.games" --out "$tmp/v2.games" >/dev/null 2>"$tmp/err"; status=$?
check "--pack rewrites a version-1 file as version 2, the same lines (status $status, $(tail -1 "$tmp/err"))" \
  eval '[ $status -eq 0 ] && [ "$(od -An -tu1 -j8 -N1 "$tmp/v2.games" | tr -d " ")" = 2 ] \
    && engine datagen --read "$tmp/v2.games" 2>/dev/null | cmp -s - "$here/data/records-v1.txt" && grep -q "^datagen: 4 games, 122 positions" "$tmp/err"'
engine datagen --pack "$tmp/kinds.games" --out "$tmp/again.games" >/dev/null 2>&1; status=$?
check "--pack of a file of version 2 gives the same lines (status $status)" \
  eval '[ $status -eq 0 ] && engine datagen --read "$tmp/again.games" 2>/dev/null | cmp -s - "$tmp/kinds.txt"'
# Hostile lines: one error line naming the line, status 1, no file left behind.
start_fen=$(fen_after startpos "")
expect_pack_error() {
  local what=$1 line=$2 pattern=$3
  { head -2 "$tmp/kinds.txt"; printf '%s\n' "$line"; tail -3 "$tmp/kinds.txt"; } >"$tmp/bad.txt"
  engine datagen --pack "$tmp/bad.txt" --out "$tmp/bad.games" >"$tmp/out" 2>"$tmp/err"; local got=$?
  check "--pack of $what: status 1, one error line naming line 3, no file ($got, $(cat "$tmp/err"))" \
    eval '[ "$got $(wc -l <"$tmp/err")" = "1 1" ] && grep -q "^error: datagen: $tmp/bad.txt line 3: .*$pattern" "$tmp/err" \
      && [ ! -e "$tmp/bad.games" ] && [ ! -e "$tmp/bad.games.tmp" ] && [ ! -s "$tmp/out" ]'
}
expect_pack_error "a malformed line" "not a line of training data" "not FEN | SCORE | RESULT"
expect_pack_error "an illegal FEN" "8/8/8/8/8/8/8/8 w - - 0 1 | 5 | 1.0" "illegal FEN"
expect_pack_error "a score out of range" "$start_fen | 40000 | 1.0" "out of range"
expect_pack_error "a score written with a sign" "$start_fen | +5 | 1.0" "not a whole number written plainly"
expect_pack_error "a result of 1" "$start_fen | 5 | 1" "result '1' is not"
expect_pack_error "a result of 2.0" "$start_fen | 5 | 2.0" "result '2.0' is not"
expect_pack_error "a line ended by CR LF" "$start_fen | 5 | 1.0"$'\r' "is not 1.0"
printf '%s | 5 | 1.0' "$start_fen" >"$tmp/bad.txt"
engine datagen --pack "$tmp/bad.txt" --out "$tmp/bad.games" >/dev/null 2>"$tmp/err"; status=$?
check "--pack of a last line without its newline: status 1, one error line ($status, $(cat "$tmp/err"))" \
  eval '[ $status -eq 1 ] && grep -q "line 1: no newline" "$tmp/err" && [ ! -e "$tmp/bad.games" ]'
if command -v xz >/dev/null; then
  xz -c "$tmp/kinds.txt" >"$tmp/kinds.txt.xz"
  engine datagen --pack "$tmp/kinds.txt.xz" --out "$tmp/bad.games" >/dev/null 2>"$tmp/err"; status=$?
  check "--pack of an xz file: status 1, one error line saying to pipe it ($status, $(cat "$tmp/err"))" \
    eval '[ $status -eq 1 ] && grep -q "compressed by xz" "$tmp/err" && [ ! -e "$tmp/bad.games" ]'
fi
engine datagen --pack "$tmp/missing.txt" --out "$tmp/bad.games" >/dev/null 2>"$tmp/err"; status=$?
check "--pack of a missing file: status 1, one error line ($status, $(cat "$tmp/err"))" \
  eval '[ $status -eq 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && [ ! -e "$tmp/bad.games" ]'

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
check "--rescore with no engine: status 1 and one error line, with the shell's message ($status, $(cat "$tmp/err"))" \
  eval '[ "$status $(grep -c "^error: " "$tmp/err")" = "1 1" ] && grep -q "on stderr: .*$tmp/none.*not found" "$tmp/err"'

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
expect_usage datagen --pack "$tmp/kinds.txt"
expect_usage datagen --pack "$tmp/kinds.txt" --out "$tmp/kinds.txt.out"
expect_usage datagen --pack "$tmp/kinds.txt" --out "$tmp/p.games" --games 2
expect_usage datagen --pack "$tmp/kinds.txt" --out "$tmp/p.games" --threads 0

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
