#!/usr/bin/env bash
# tests/batch.sh: `engine --batch` (answers equal one-shot answers, bad lines stay on their
# own line, the time limit per line) and `engine match` (wins against the random mover,
# fixed nodes, concurrency, SPRT, forfeits of fake opponents that crash, play illegal
# moves or hang, processes reaped, PGN read back move by move through our SAN parser by
# tests/pgn_check.c, openings, usage).
# Usage: tests/batch.sh [ENGINE]. Takes about 10 s; ends with "N passed, N failed".
set -u
ENGINE=${1:-./engine}
pass=0; fail=0
START="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
here=$(cd "$(dirname "$0")" && pwd)

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
check() { local what=$1; shift; if "$@"; then ok; else bad "$what"; fi; }
now_ms() { local t=${EPOCHREALTIME/./}; echo $((t / 1000)); }
# reads_back PGN: every game's moves parse and print back through our SAN code.
reads_back() { "$tmp/pgn_check" "$1" >"$tmp/pgn_check.log" || { cat "$tmp/pgn_check.log"; return 1; }; }

# The PGN reader: our SAN parser over the movetext (no other chess library involved).
${CC:-cc} -std=c99 -pedantic -Wall -Wextra -Werror -Wshadow -O2 -I"$here/.." "$here/pgn_check.c" "$here/../movement.c" \
  -o "$tmp/pgn_check" || bad "tests/pgn_check.c does not build"

# legal_moves FEN: the position's legal moves in SAN, from perft's divide.
legal_moves() { "$ENGINE" perft 1 "$1" 2>/dev/null | sed '$d' | cut -d' ' -f1 | tr '\n' ' '; }

# --- batch: the same indices as one-shot calls, bad lines in between on their own lines.
POSITIONS=(
  "$START"
  "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
  "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"
  "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
  "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
  "3r1rk1/p5pp/bpp1pp2/8/q1PP1P2/b3P3/P2NQRPP/1R2B1K1 b - - 6 22"
)
: >"$tmp/in"; : >"$tmp/want"
for i in "${!POSITIONS[@]}"; do
  fen=${POSITIONS[$i]}; moves=$(legal_moves "$fen")
  printf '%s\t%s\t5\n' "$fen" "$moves" >>"$tmp/in"
  "$ENGINE" --depth 5 "$fen" "$moves" 5 >>"$tmp/want" 2>/dev/null || echo "one-shot failed" >>"$tmp/want"
  case $i in # a bad line after some of the good ones
    0) printf 'not a fen\te4\t1\n' >>"$tmp/in"; echo "error: FEN" >>"$tmp/want" ;;
    1) printf '%s\te4 d4\n' "$START" >>"$tmp/in"; echo "error: expected 3 fields" >>"$tmp/want" ;;
    2) printf '%s\te4\tsoon\n' "$START" >>"$tmp/in"; echo "error: time" >>"$tmp/want" ;;
    3) printf '\n' >>"$tmp/in"; echo "error: expected 3 fields" >>"$tmp/want" ;;
    4) printf '%s\tKf1\t1\n' "6k1/5ppp/8/8/8/8/5PPP/3r2K1 w - - 0 1" >>"$tmp/in"; echo "error: no move is legal" >>"$tmp/want" ;;
  esac
done
"$ENGINE" --depth 5 --batch <"$tmp/in" >"$tmp/out" 2>"$tmp/err"; status=$?
check "--batch exits 0 (status $status)" [ $status -eq 0 ]
check "--batch writes one line per input line" [ "$(grep -c '' "$tmp/out")" -eq "$(grep -c '' "$tmp/in")" ]
n=0
while IFS= read -r want && IFS= read -r got <&3; do
  n=$((n + 1))
  if [[ "$want" == error:* ]]; then
    check "batch line $n: '$got' should start with '$want'" [ "${got#"$want"}" != "$got" ]
  else
    check "batch line $n: '$got', one-shot '$want'" [ "$got" = "$want" ]
  fi
done <"$tmp/want" 3<"$tmp/out"
check "batch summary on stderr (got '$(cat "$tmp/err")')" grep -q "^batch: 11 lines, 5 errors, [0-9.]* s$" "$tmp/err"

# A warning names its line; a last line without a newline is answered.
printf '%s\te4 zz\t0.1\n%s\tNf3\t0.1' "$START" "$START" | "$ENGINE" --batch >"$tmp/out" 2>"$tmp/err"
check "warnings name the line and answers go on" [ "$(tr '\n' ' ' <"$tmp/out")" = "0 0 " ]
check "warning line" grep -q "^warning: line 1: .*'zz'" "$tmp/err"

# The per-line time limit: three 0.3 s lines, each clock started when its line is read.
moves=$(legal_moves "$START")
for i in 1 2 3; do printf '%s\t%s\t0.3\n' "$START" "$moves"; done >"$tmp/in"
t0=$(now_ms); "$ENGINE" --batch <"$tmp/in" >"$tmp/out" 2>/dev/null; t1=$(now_ms)
check "three 0.3 s lines answered within 0.9 s (took $((t1 - t0)) ms)" [ $((t1 - t0)) -lt 900 ]
check "three answers" [ "$(grep -c '^[0-9][0-9]*$' "$tmp/out")" -eq 3 ]
check "--batch takes no arguments" bash -c "! '$ENGINE' --batch '$START' e4 1 </dev/null 2>/dev/null"

# --- match against the built-in random mover: 4 games at 0.05 s, all won, PGN reads back.
"$ENGINE" match --opponent random --games 4 --time 0.05 --pgn "$tmp/random.pgn" >"$tmp/out" 2>"$tmp/err"; status=$?
check "match vs random exits 0 (status $status)" [ $status -eq 0 ]
check "4 of 4 won against random: $(cat "$tmp/out")" grep -q "4 games, +4 =0 -0, score 100.0%" "$tmp/out"
check "a running score line per game" [ "$(grep -c '^game [1-4]/4: .* | Boxer +[0-9]' "$tmp/err")" -eq 4 ]
check "colours alternate" [ "$(grep -c '^\[White "Boxer' "$tmp/random.pgn")" -eq 2 ]
check "PGN reads back through our SAN parser" reads_back "$tmp/random.pgn"

# --- fixed nodes: against random, then against our own UCI build, whose search at `go nodes`
# is ours at --nodes (same table, same limits): both colours of the opening give the same game.
"$ENGINE" match --opponent random --games 2 --nodes 2000 --pgn "$tmp/nodes.pgn" >"$tmp/out" 2>"$tmp/err"; status=$?
check "match --nodes vs random: 2 of 2 won (status $status, $(cat "$tmp/out"))" grep -q "2 games, +2 =0 -0" "$tmp/out"
check "the PGN names the nodes" grep -q '^\[Event "Boxer match, 2000 nodes per move"\]$' "$tmp/nodes.pgn"
"$ENGINE" match --opponent "$ENGINE" --games 2 --nodes 1500 --pgn "$tmp/self.pgn" >"$tmp/out" 2>"$tmp/err"; status=$?
movetext() { awk -v n="$2" '/^\[Round /{r++} r==n && !/^\[/' "$1"; }
check "match --nodes vs our UCI build exits 0 (status $status)" [ $status -eq 0 ]
check "at fixed nodes our search plays as our UCI build: one game twice" \
  [ "$(movetext "$tmp/self.pgn" 1)" = "$(movetext "$tmp/self.pgn" 2)" ]
check "PGN at fixed nodes reads back" reads_back "$tmp/self.pgn"
echo "rn1q1rk1/ppp1ppbp/2b2np1/8/2QP1B2/2N2N2/PP2PPPP/R3KB1R w KQ - 5 9" >"$tmp/one.epd"
"$ENGINE" match --opponent "$ENGINE" --games 4 --nodes 1500 --openings "$tmp/one.epd" --pgn "$tmp/again.pgn" >/dev/null 2>&1
check "an opening played again at fixed nodes gives a new game (nodes drawn per move)" \
  [ "$(movetext "$tmp/again.pgn" 1)" != "$(movetext "$tmp/again.pgn" 3)" ]
check "... the same for both games of the pair" [ "$(movetext "$tmp/again.pgn" 3)" = "$(movetext "$tmp/again.pgn" 4)" ]

# --- concurrency: games in worker processes come back in their order, the same games.
"$ENGINE" match --opponent random --games 5 --nodes 1500 --pgn "$tmp/serial.pgn" >/dev/null 2>&1
"$ENGINE" match --opponent random --games 5 --nodes 1500 --concurrency 3 --pgn "$tmp/workers.pgn" >"$tmp/out" 2>"$tmp/err"; status=$?
check "match --concurrency 3 exits 0 (status $status)" [ $status -eq 0 ]
check "--concurrency 3: the summary ($(cat "$tmp/out"))" grep -q "5 games, +5 =0 -0" "$tmp/out"
check "--concurrency 3: score lines in order" [ "$(grep -o '^game [0-9]*/5' "$tmp/err" | tr '\n' ' ')" = "game 1/5 game 2/5 game 3/5 game 4/5 game 5/5 " ]
check "--concurrency 3: the PGN of the serial match" \
  [ "$(grep -v '^\[Date ' "$tmp/serial.pgn")" = "$(grep -v '^\[Date ' "$tmp/workers.pgn")" ]
"$ENGINE" match --opponent "$ENGINE" --games 4 --nodes 1000 --concurrency 2 --pgn "$tmp/self2.pgn" >"$tmp/out" 2>&1
check "--concurrency 2 against our UCI build: 4 games ($(tail -1 "$tmp/out"))" grep -q "4 games" "$tmp/out"
check "--concurrency 2: PGN reads back" reads_back "$tmp/self2.pgn"

# --- SPRT: stops at its verdict (the last line), games in flight abandoned, no process left.
"$ENGINE" match --opponent random --games 60 --nodes 1000 --sprt 0,5 >"$tmp/out" 2>"$tmp/err"
check "SPRT against random: H1 after the first 20 pairs, not before ($(tail -1 "$tmp/out"))" \
  [ "$(tail -1 "$tmp/out")" = "SPRT [0,5]: H1 accepted (LLR 762.19, bounds -2.94..2.94)" ]
check "SPRT: 40 games counted" grep -q "^Boxer 1.0 vs random: 40 games, +40 =0 -0" "$tmp/out"
check "SPRT: the pentanomial line" grep -q "^pentanomial 0 0 0 0 20 (pairs" "$tmp/out"
check "SPRT: the LLR on each score line" [ "$(grep -c ', LLR [-0-9.]* (-2.94..2.94)$' "$tmp/err")" -eq 40 ]
"$ENGINE" match --opponent random --games 2 --nodes 1000 --sprt 0,5 --alpha 0.01 --beta 0.1 >"$tmp/out" 2>/dev/null
check "SPRT: inconclusive at --games ($(tail -1 "$tmp/out"))" \
  [ "$(tail -1 "$tmp/out")" = "SPRT [0,5]: inconclusive (LLR 1.92, bounds -2.29..4.50)" ]
cp "$ENGINE" "$tmp/same-engine"
"$ENGINE" match --opponent "$tmp/same-engine" --games 60 --nodes 1000 --concurrency 2 --sprt 0,5 >"$tmp/out" 2>/dev/null
check "SPRT against our UCI build: every pair 1-1, H0 ($(tail -1 "$tmp/out"))" \
  grep -q "^SPRT \[0,5\]: H0 accepted" "$tmp/out"
check "SPRT stopped before --games, at its first verdict (20 pairs)" grep -q "^Boxer 1.0 vs Boxer 1.0: 40 games" "$tmp/out"
check "no opponent left running after the SPRT stopped the workers" \
  bash -c "sleep 0.2; ! ps -eo args | grep -v grep | grep -q '$tmp/same-engine'"

# --- fake opponents (copied to $tmp, so that their processes are easy to find): each forfeits.
cp "$here"/fakes/*.sh "$tmp/"
forfeit() { # FAKE TERMINATION DETAIL
  local t0 t1; t0=$(now_ms)
  "$ENGINE" match --opponent "$tmp/$1.sh" --games 1 --time 0.05 --pgn "$tmp/$1.pgn" >"$tmp/out" 2>"$tmp/err"
  t1=$(now_ms)
  check "$1: forfeits ($(cat "$tmp/out"))" grep -q "1 games, +1 =0 -0" "$tmp/out"
  check "$1: Termination \"$2\"" grep -q "^\[Termination \"$2\"\]$" "$tmp/$1.pgn"
  check "$1: reason '$3' in the PGN" grep -q "^\[TerminationDetails \"opponent forfeits: $3" "$tmp/$1.pgn"
  check "$1: reason in the movetext" grep -q "{opponent forfeits: $3" "$tmp/$1.pgn"
  check "$1: takes $((t1 - t0)) ms" [ $((t1 - t0)) -lt 3000 ]
  check "$1: PGN reads back" reads_back "$tmp/$1.pgn"
}
forfeit crash "abandoned" "crashed (killed by signal 11)"
forfeit illegal "rules infraction" "illegal move 'e2e5'"
forfeit hang "time forfeit" "no 'bestmove' within"
"$ENGINE" match --opponent "$tmp/hang.sh" --games 2 --time 0.05 --concurrency 2 >"$tmp/out" 2>/dev/null
check "forfeits in worker processes too ($(cat "$tmp/out"))" grep -q "2 games, +2 =0 -0" "$tmp/out"
check "no fake opponent left running: $(ps -eo args | grep "$tmp/" | grep -v grep)" \
  bash -c "! ps -eo args | grep -v grep | grep -q '$tmp/'"
check "a command that does not start forfeits as a crash" \
  bash -c "'$ENGINE' match --opponent '$tmp/missing' --games 1 --time 0.05 2>&1 | grep -q 'crashed (exited with status 127)'"

# --- openings: FEN and EPD lines, comments; each opening is played twice, colours swapped.
cat >"$tmp/openings.epd" <<'EOF'
# a comment line
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 # Italian, almost
rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - bm c4; id "queen pawn";
EOF
"$ENGINE" match --opponent random --games 3 --time 0.02 --openings "$tmp/openings.epd" --pgn "$tmp/open.pgn" >/dev/null 2>&1
check "openings in order, each twice" [ "$(grep '^\[FEN' "$tmp/open.pgn" | cut -c1-30 | uniq -c | awk '{print $1}' | tr '\n' ' ')" = "2 1 " ]
check "the EPD line's clocks default to 0 1" grep -q '^\[FEN "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 1"\]' "$tmp/open.pgn"
check "the opening's move number starts the movetext" grep -q '^3\. ' "$tmp/open.pgn"
check "openings PGN reads back" reads_back "$tmp/open.pgn"

# --- usage errors.
expect_status() { # STATUS ARGS...
  local want=$1; shift; "$ENGINE" "$@" >/dev/null 2>"$tmp/err" </dev/null; local got=$?
  local lines; lines=$(grep -c '^error: ' "$tmp/err")
  check "exit $want and one error line for: $* (got $got, $(cat "$tmp/err"))" [ "$got $lines" = "$want 1" ]
}
expect_status 2 match --games 2 --time 0.1
expect_status 2 match --opponent random --games 0 --time 0.1
expect_status 2 match --opponent random --games 2 --time 0
expect_status 2 match --opponent random --games 2 --time 0.1 --colour white
expect_status 2 match --opponent random --games 2 --time
expect_status 2 match --opponent random --games 2 --nodes 0
expect_status 2 match --opponent random --games 2 --nodes 100 --concurrency 0
expect_status 2 match --opponent random --games 2 --nodes 100 --sprt 5,0
expect_status 2 match --opponent random --games 2 --nodes 100 --sprt 5
expect_status 2 match --opponent random --games 3 --nodes 100 --sprt 0,5
expect_status 2 match --opponent random --games 2 --nodes 100 --sprt 0,5 --alpha 0.5
expect_status 2 match --opponent random --games 2 --nodes 100 --concurrency 65
expect_status 2 match --opponent random --games 2 --nodes 10x
expect_status 2 match --opponent random --games 2 --openings "$tmp/openings.epd"
expect_status 2 match --opponent random --games 2 --time 0.1 --openings "$tmp/none.epd"
printf 'not a fen\n' >"$tmp/bad.epd"
expect_status 3 match --opponent random --games 2 --time 0.1 --openings "$tmp/bad.epd"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
