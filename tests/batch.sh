#!/usr/bin/env bash
# tests/batch.sh: `engine --batch` (answers equal one-shot answers, bad lines stay on their
# own line, the time limit per line) and `engine match` (wins against the random mover,
# fixed nodes, concurrency, SPRT with its LLR worked by hand, forfeits of fake opponents that
# crash, play illegal moves or hang after their first move, the error of an opponent that fails
# before it (with what it wrote on stderr), processes reaped, PGN read back move by move through our
# SAN parser by tests/pgn_check.c and through chess.js by tests/pgn_chessjs.js, openings,
# usage). Usage: tests/batch.sh [ENGINE]. Takes about 10 s, minutes under the sanitizers.
# Ends with "N passed, N failed, N skipped": the chess.js checks are skipped where node or
# chess.js is missing (CHESS_JS, else tests/web/node_modules/chess.js, which tests/web's
# package.json lists: `npm ci --prefix tests/web`). A one-shot or batch call still running after
# HANG_SECONDS (30) is a hang: it fails, and the script stops there.
set -u
ENGINE=${1:-./engine}
pass=0; fail=0; skipped=0
HANG_SECONDS=30   # no one-shot or batch call here has more than 5 s
START="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
here=$(cd "$(dirname "$0")" && pwd)

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
check() { local what=$1; shift; if "$@"; then ok; else bad "$what"; fi; }
finish() { echo "$pass passed, $fail failed, $skipped skipped"; [ $fail -eq 0 ]; exit; }
now_ms() { local t=${EPOCHREALTIME/./}; echo $((t / 1000)); }
exec 3>&1   # this script's own output, for messages from within redirected calls
# engine ARGS...: runs the engine for a one-shot, batch or usage call; a hang fails and ends
# the script. (A match runs as long as its games take: minutes under the sanitizers on a
# loaded machine; tests/run-all.sh stops a script that never ends.)
# Within a command substitution (a subshell) it stops the script itself through its TERM trap.
engine() {
  local status
  timeout -k 1 "$HANG_SECONDS" "$ENGINE" "$@"; status=$?
  if [ $status -eq 124 ] || [ $status -eq 137 ]; then
    echo "the engine hung: no exit within $HANG_SECONDS s for: ${*:1:6}; stopping here" >"$tmp/hung"
    if [ "$BASH_SUBSHELL" -gt 0 ]; then kill -TERM $$; exit 1; fi
    hung
  fi
  return $status
}
hung() { { bad "$(cat "$tmp/hung")"; finish; } >&3 2>&3; }
trap hung TERM

# The PGN readers: our SAN parser over the movetext (tests/pgn_check.c), and chess.js, whose
# rules are written apart from ours (tests/pgn_chessjs.js).
${CC:-cc} -std=c99 -pedantic -Wall -Wextra -Werror -Wshadow -O2 -I"$here/.." "$here/pgn_check.c" "$here/../movement.c" \
  -o "$tmp/pgn_check" || bad "tests/pgn_check.c does not build"
CHESS_JS=${CHESS_JS:-$here/web/node_modules/chess.js}
if ! command -v node >/dev/null || [ ! -f "$CHESS_JS/package.json" ]; then
  echo "skip: the PGN read back by chess.js (7 checks): no node, or no chess.js at $CHESS_JS (npm ci --prefix tests/web)"
  CHESS_JS=""
fi
# reads_back NAME PGN: every game's moves parse and print back through our SAN code, and chess.js
# reads every game (legal moves, PlyCount) and agrees with how it ended; a check each.
reads_back() {
  if "$tmp/pgn_check" "$2" >"$tmp/pgn.log"; then ok; else bad "$1: our SAN parser reads the PGN back: $(cat "$tmp/pgn.log")"; fi
  if [ -z "$CHESS_JS" ]; then skipped=$((skipped + 1)); return; fi
  if node "$here/pgn_chessjs.js" "$CHESS_JS" "$2" >"$tmp/pgn.log" 2>&1; then ok; else
    bad "$1: chess.js reads the PGN back: $(head -3 "$tmp/pgn.log")"; fi
}

# legal_moves FEN: the position's legal moves in SAN, from perft's divide.
legal_moves() { engine perft 1 "$1" 2>/dev/null | sed '$d' | cut -d' ' -f1 | tr '\n' ' '; }

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
  engine --depth 5 "$fen" "$moves" 5 >>"$tmp/want" 2>/dev/null || echo "one-shot failed" >>"$tmp/want"
  case $i in # a bad line after some of the good ones
    0) printf 'not a fen\te4\t1\n' >>"$tmp/in"; echo "error: FEN" >>"$tmp/want" ;;
    1) printf '%s\te4 d4\n' "$START" >>"$tmp/in"; echo "error: expected 3 fields" >>"$tmp/want" ;;
    2) printf '%s\te4\tsoon\n' "$START" >>"$tmp/in"; echo "error: time" >>"$tmp/want" ;;
    3) printf '\n' >>"$tmp/in"; echo "error: expected 3 fields" >>"$tmp/want" ;;
    4) printf '%s\tKf1\t1\n' "6k1/5ppp/8/8/8/8/5PPP/3r2K1 w - - 0 1" >>"$tmp/in"; echo "error: no move is legal" >>"$tmp/want" ;;
  esac
done
engine --depth 5 --batch <"$tmp/in" >"$tmp/out" 2>"$tmp/err"; status=$?
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
printf '%s\te4 zz\t0.1\n%s\tNf3\t0.1' "$START" "$START" >"$tmp/in"
engine --batch <"$tmp/in" >"$tmp/out" 2>"$tmp/err"
check "warnings name the line and answers go on" [ "$(tr '\n' ' ' <"$tmp/out")" = "0 0 " ]
check "warning line" grep -q "^warning: line 1: .*'zz'" "$tmp/err"

# The per-line time limit: three 0.3 s lines, each clock started when its line is read. Each
# line searches most of its 0.3 s (about 0.25 s): together at least 0.6 s, where clocks started
# with the process would answer the later lines at once. At most 0.9 s, and 300 ms of slack
# for a loaded 2-core machine running the sanitizer build, which can hold up the process's
# start, its lines and its end (tests/deadline.sh holds one-shot calls to their limit).
moves=$(legal_moves "$START")
for i in 1 2 3; do printf '%s\t%s\t0.3\n' "$START" "$moves"; done >"$tmp/in"
t0=$(now_ms); engine --batch <"$tmp/in" >"$tmp/out" 2>/dev/null; t1=$(now_ms)
check "three 0.3 s lines answered in 600 to 900 ms and slack (took $((t1 - t0)) ms)" [ $((t1 - t0)) -ge 600 -a $((t1 - t0)) -lt 1200 ]
check "three answers" [ "$(grep -c '^[0-9][0-9]*$' "$tmp/out")" -eq 3 ]
check "--batch takes no arguments" bash -c "! '$ENGINE' --batch '$START' e4 1 </dev/null 2>/dev/null"

# --- match against the built-in random mover: 4 games at 0.05 s, all won, PGN reads back.
"$ENGINE" match --opponent random --games 4 --time 0.05 --pgn "$tmp/random.pgn" >"$tmp/out" 2>"$tmp/err"; status=$?
check "match vs random exits 0 (status $status)" [ $status -eq 0 ]
check "4 of 4 won against random: $(cat "$tmp/out")" grep -q "4 games, +4 =0 -0, score 100.0%" "$tmp/out"
check "a running score line per game" [ "$(grep -c '^game [1-4]/4: .* | Boxer +[0-9]' "$tmp/err")" -eq 4 ]
check "colours alternate" [ "$(grep -c '^\[White "Boxer' "$tmp/random.pgn")" -eq 2 ]
reads_back "match vs random" "$tmp/random.pgn"

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
reads_back "match at fixed nodes" "$tmp/self.pgn"
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
reads_back "--concurrency 2" "$tmp/self2.pgn"

# --- Chess960 against our UCI build (UCI_Chess960, king-takes-rook castling), on two threads:
# both games end by the rules, none by an illegal move, and the PGN says the variant.
"$ENGINE" match --opponent "$ENGINE" --chess960 --threads 2 --games 2 --nodes 3000 --pgn "$tmp/960.pgn" >"$tmp/out" 2>"$tmp/err"; status=$?
check "match --chess960 --threads 2 exits 0 with 2 games (status $status, $(tail -1 "$tmp/out"))" grep -q "^Boxer .* 2 games" "$tmp/out"
check "Chess960 games end by the rules: $(grep -o '([a-z ]*)' "$tmp/err" | tr '\n' ' ')" \
  [ "$(grep -cE '\((checkmate|stalemate|threefold repetition|fifty-move rule|insufficient material|ply limit reached)\)' "$tmp/err")" -eq 2 ]
check "the PGN says Chess960 and the start position" \
  [ "$(grep -c '^\[Variant "Chess960"\]$' "$tmp/960.pgn")" -eq 2 -a "$(grep -c '^\[FEN ' "$tmp/960.pgn")" -eq 2 ]

# --- SPRT: stops at its verdict (the last line), games in flight abandoned, no process left.
# The LLR worked by hand, as docs/match.md gives it (fishtest's GSPRT on game pairs): with n_i
# pairs scoring v_i = 0, 1/4, 1/2, 3/4, 1 (an outcome not seen counts 0.001), N = sum n_i, the
# mean s = sum n_i v_i / N, the variance var = sum n_i (v_i - s)^2 / N, and s0, s1 the scores
# 1 / (1 + 10^(-elo / 400)) of Elo 0 and 5 (0.5 and 0.507195):
# LLR = N (s1 - s0) (2 s - s0 - s1) / (2 var). Wald's bounds: ln(beta / (1 - alpha)), ln((1 - beta) / alpha).
# 20 pairs won: N = 20.004, s = 20.0015 / 20.004 = 0.999875, var = 9.3716e-5,
#   LLR = 20.004 * 0.0071951 * 0.992555 / 1.87431e-4 = 762.19; alpha = beta = 0.05: -2.94, 2.94.
# 1 pair won: N = 1.004, s = 1.0015 / 1.004 = 0.997510, var = 1.86133e-3,
#   LLR = 1.004 * 0.0071951 * 0.987825 / 3.72266e-3 = 1.92; alpha 0.01, beta 0.1: -2.29, 4.50.
# sprt_line PAIRS ELO0 ELO1 ALPHA BETA VERDICT: the match's last line, from the formula above
# (PAIRS: the five counts, comma-separated).
sprt_line() {
  awk -v pairs="$1" -v e0="$2" -v e1="$3" -v alpha="$4" -v beta="$5" -v verdict="$6" 'BEGIN {
    split(pairs, count, ","); split("0 0.25 0.5 0.75 1", value, " ")
    for (i = 1; i <= 5; i++) { c[i] = count[i] ? count[i] : 0.001; n += c[i]; sum += c[i] * value[i] }
    s = sum / n
    for (i = 1; i <= 5; i++) var += c[i] * (value[i] - s) ^ 2 / n
    s0 = 1 / (1 + 10 ^ (-e0 / 400)); s1 = 1 / (1 + 10 ^ (-e1 / 400))
    printf "SPRT [%s,%s]: %s (LLR %.2f, bounds %.2f..%.2f)\n", e0, e1, verdict,
      n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var), log(beta / (1 - alpha)), log((1 - beta) / alpha) }'
}
"$ENGINE" match --opponent random --games 60 --nodes 1000 --sprt 0,5 >"$tmp/out" 2>"$tmp/err"
want=$(sprt_line 0,0,0,0,20 0 5 0.05 0.05 "H1 accepted")
check "SPRT against random: H1 after the first 20 pairs, not before: '$(tail -1 "$tmp/out")', by hand '$want'" \
  [ "$(tail -1 "$tmp/out")" = "$want" ]
check "SPRT: 40 games counted" grep -q "^Boxer 1.0 vs random: 40 games, +40 =0 -0" "$tmp/out"
check "SPRT: the pentanomial line" grep -q "^pentanomial 0 0 0 0 20 (pairs" "$tmp/out"
check "SPRT: the LLR on each score line" [ "$(grep -c ', LLR [-0-9.]* (-2.94..2.94)$' "$tmp/err")" -eq 40 ]
"$ENGINE" match --opponent random --games 2 --nodes 1000 --sprt 0,5 --alpha 0.01 --beta 0.1 >"$tmp/out" 2>/dev/null
want=$(sprt_line 0,0,0,0,1 0 5 0.01 0.1 inconclusive)
check "SPRT: inconclusive at --games: '$(tail -1 "$tmp/out")', by hand '$want'" [ "$(tail -1 "$tmp/out")" = "$want" ]
cp "$ENGINE" "$tmp/same-engine"
"$ENGINE" match --opponent "$tmp/same-engine" --games 60 --nodes 1000 --concurrency 2 --sprt 0,5 >"$tmp/out" 2>/dev/null
check "SPRT against our UCI build: every pair 1-1, H0 ($(tail -1 "$tmp/out"))" \
  grep -q "^SPRT \[0,5\]: H0 accepted" "$tmp/out"
check "SPRT stopped before --games, at its first verdict (20 pairs)" grep -q "^Boxer 1.0 vs Boxer 1.0: 40 games" "$tmp/out"
check "no opponent left running after the SPRT stopped the workers" \
  bash -c "sleep 0.2; ! ps -eo args | grep -v grep | grep -q '$tmp/same-engine'"

# --- fake opponents (copied to $tmp, so that their processes are easy to find): each forfeits
# when it fails after its first move (`late`: tests/fakes/first-move.sh).
cp "$here"/fakes/*.sh "$tmp/"
forfeit() { # FAKE TERMINATION DETAIL
  local t0 t1; t0=$(now_ms)
  "$ENGINE" match --opponent "$tmp/$1.sh late" --games 1 --time 0.05 --pgn "$tmp/$1.pgn" >"$tmp/out" 2>"$tmp/err"
  t1=$(now_ms)
  check "$1: forfeits ($(cat "$tmp/out"))" grep -q "1 games, +1 =0 -0" "$tmp/out"
  check "$1: Termination \"$2\"" grep -q "^\[Termination \"$2\"\]$" "$tmp/$1.pgn"
  check "$1: reason '$3' in the PGN" grep -q "^\[TerminationDetails \"opponent forfeits: $3" "$tmp/$1.pgn"
  check "$1: reason in the movetext" grep -q "{opponent forfeits: $3" "$tmp/$1.pgn"
  check "$1: takes $((t1 - t0)) ms" [ $((t1 - t0)) -lt 3000 ]
  reads_back "$1" "$tmp/$1.pgn"
}
forfeit crash "abandoned" "crashed (killed by signal 11)"
forfeit illegal "rules infraction" "illegal move 'e2e5'"
forfeit hang "time forfeit" "no 'bestmove' within"
"$ENGINE" match --opponent "$tmp/hang.sh late" --games 2 --time 0.05 --concurrency 2 >"$tmp/out" 2>/dev/null
check "forfeits in worker processes too ($(cat "$tmp/out"))" grep -q "2 games, +2 =0 -0" "$tmp/out"
check "no fake opponent left running: $(ps -eo args | grep "$tmp/" | grep -v grep)" \
  bash -c "! ps -eo args | grep -v grep | grep -q '$tmp/'"

# An opponent that fails before its first move never played: no game counts, status 1, one
# error line naming the command, what went wrong and what it wrote on stderr, no result line.
fails_first() { # WHAT DETAIL ARGS...
  local what=$1 detail=$2; shift 2
  "$ENGINE" match --games 4 --time 0.05 --pgn "$tmp/first.pgn" "$@" >"$tmp/out" 2>"$tmp/err"; status=$?
  check "$what: status 1 ($status), nothing on stdout ('$(cat "$tmp/out")')" [ $status -eq 1 -a ! -s "$tmp/out" ]
  check "$what: one line on stderr, the error: $(cat "$tmp/err")" \
    eval '[ "$(grep -c "" "$tmp/err")" -eq 1 ] && grep -qF -- "$detail" "$tmp/err" && grep -q "^error: match: the opponent .* failed before its first move: " "$tmp/err"'
  check "$what: no game in the PGN" [ ! -s "$tmp/first.pgn" ]
}
fails_first "a command not found" "'$tmp/missing --uci' failed before its first move: crashed (exited with status 127) before 'uciok'; on stderr: " \
  --opponent "$tmp/missing --uci"
check "... its stderr names what is missing" grep -q "on stderr: .*$tmp/missing.*not found" "$tmp/err"
printf '#!/bin/sh\necho "cannot read nn-1.bin: no such file" >&2\necho "and a second line" >&2\nexit 3\n' >"$tmp/no-net.sh"
chmod +x "$tmp/no-net.sh"
fails_first "an engine that stops at once" "crashed (exited with status 3) before 'uciok'; on stderr: cannot read nn-1.bin: no such file | and a second line" \
  --opponent "$tmp/no-net.sh"
printf '#!/bin/sh\nread line\necho "uciok"\nexec sleep 1000\n' >"$tmp/no-ready.sh"
chmod +x "$tmp/no-ready.sh"
fails_first "an engine that never says readyok" "no 'readyok' within 5.00 s; nothing on stderr" --opponent "$tmp/no-ready.sh"
fails_first "an engine that crashes on its first go" "crashed (killed by signal 11) before 'bestmove'" --opponent "$tmp/crash.sh"
fails_first "an engine whose first move is illegal" "illegal move 'e2e5'" --opponent "$tmp/illegal.sh" --concurrency 2
check "no fake opponent left running after them: $(ps -eo args | grep "$tmp/" | grep -v grep)" \
  bash -c "sleep 0.2; ! ps -eo args | grep -v grep | grep -q '$tmp/'"

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
reads_back "openings" "$tmp/open.pgn"

# --- usage errors.
expect_status() { # STATUS ARGS...
  local want=$1; shift; engine "$@" >/dev/null 2>"$tmp/err" </dev/null; local got=$?
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

finish
