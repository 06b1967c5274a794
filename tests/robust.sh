#!/usr/bin/env bash
# tests/robust.sh: hostile input on the command line, one test per row of the "Bad input"
# table in tests/README.md (each class: its exit status, one stderr line with the expected words, nothing else),
# then valgrind on a sample of calls (skipped without valgrind or on a sanitizer build), calls
# under `ulimit -v 65536`, and the fuzz targets replayed over tests/data/fuzz-corpus/. Usage:
# tests/robust.sh [ENGINE]. About 20 s; ends with "N passed, N failed, N skipped". A call
# still running after HANG_SECONDS (30) is a hang: it fails, and the script stops there.
# tests/cli.sh holds the first cases of each class.
set -u
ENGINE=${1:-./engine}
here=$(cd "$(dirname "$0")" && pwd)
pass=0; fail=0; skipped=0
HANG_SECONDS=30   # no call here has more than 3 s
START="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
OPENING="a3 a4 b3 b4 c3 c4 d3 d4 e3 e4 f3 f4 g3 g4 h3 h4 Na3 Nc3 Nf3 Nh3"
MATE1="6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"   # Rd8# is the only mate
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
labels=()

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
finish() { echo "$pass passed, $fail failed, $skipped skipped"; [ $fail -eq 0 ]; exit; }

# run ARGS...: sets status, out, err_lines; stderr stays in $tmp/err. A hang fails and ends the script.
run() {
  timeout -k 1 "$HANG_SECONDS" "$ENGINE" "$@" >"$tmp/out" 2>"$tmp/err"; status=$?
  if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    bad "the engine hung: no exit within $HANG_SECONDS s for$(shown "$@"); stopping here"
    finish
  fi
  out=$(cat "$tmp/out"); err_lines=$(grep -c '' "$tmp/err")
}

# shown ARGS...: the arguments for a failure message, control bytes as '?', long ones cut.
shown() { local a s=""; for a in "$@"; do s+=" '${a:0:60}'"; done; printf '%s' "$s" | tr -c '[:print:]' '?'; }

# error LABEL STATUS WORDS ARGS...: exit STATUS, empty stdout, one stderr line "error: ..."
# containing WORDS (a fixed string), printable ASCII only.
error() {
  local label=$1 want=$2 words=$3; shift 3; labels+=("$label"); run "$@"
  if [ "$status" -eq "$want" ] && [ -z "$out" ] && [ "$err_lines" -eq 1 ] && grep -q '^error: ' "$tmp/err" \
     && grep -qF -- "$words" "$tmp/err" && ! LC_ALL=C grep -q '[^[:print:]]' "$tmp/err"; then ok; else
    bad "$label: want exit $want and one line with '$words' for$(shown "$@"); got $status, out '$out', err '$(head -c 300 "$tmp/err" | cat -A)'"
  fi
}

# answer LABEL INDEX WORDS ARGS...: exit 0, stdout the index (INDEX, or any index below
# `<N` ), and on stderr one printable "warning: ..." line containing WORDS, or nothing if WORDS is empty.
answer() {
  local label=$1 want=$2 words=$3; shift 3; labels+=("$label"); run "$@"
  local index_ok=0
  if [[ "$want" == '<'* ]]; then [[ "$out" =~ ^[0-9]+$ ]] && [ "$out" -lt "${want#<}" ] && index_ok=1
  else [ "$out" = "$want" ] && index_ok=1; fi
  local err_ok=0
  if [ -z "$words" ]; then [ "$err_lines" -eq 0 ] && err_ok=1
  else [ "$err_lines" -eq 1 ] && grep -q '^warning: ' "$tmp/err" && grep -qF -- "$words" "$tmp/err" \
       && ! LC_ALL=C grep -q '[^[:print:]]' "$tmp/err" && err_ok=1; fi
  if [ "$status" -eq 0 ] && [ $index_ok -eq 1 ] && [ $err_ok -eq 1 ]; then ok; else
    bad "$label: want index $want and warning '$words' for$(shown "$@"); got $status, out '$out', err '$(head -c 300 "$tmp/err" | cat -A)'"
  fi
}

# fen_with FIELD VALUE: START with one of its six fields replaced.
fen_with() { local f; read -ra f <<<"$START"; f[$1]=$2; echo "${f[*]}"; }
TIME_MSG="is not a positive number of seconds (at most 86400)"

# --- the command line
error "arguments: count" 2 "got 1" "$START"
error "arguments: count" 2 "got 0" --depth 3
error "arguments: count" 2 "got 5" "$START" e4 1 2 3
error "arguments: count" 2 "got 4" -- "$START" e4 1
error "arguments: unknown option" 2 "unknown option '--Depth'" --Depth 3 "$START" e4 1
error "arguments: unknown option" 2 "unknown option '--x?y'" $'--x\ny' "$START" e4 1
error "arguments: option value" 2 "--depth needs a whole number from 1 to 64" --depth 65 "$START" e4 1
error "arguments: option value" 2 "--nodes needs a whole number" --nodes
error "arguments: option value" 2 "--nodes needs a whole number" --nodes 1000000000000001 "$START" e4 1
error "arguments: option value" 2 "--threads needs a whole number from 1 to 256" --threads 0 "$START" e4 1
error "arguments: option value" 2 "--threads needs a whole number from 1 to 256" --threads 257 "$START" e4 1
error "arguments: option value" 2 "--multipv needs a whole number from 1 to 256" --multipv x "$START" e4 1
error "arguments: option value" 2 "--level needs a whole number from 0 to 20" --level 21 "$START" e4 1
error "arguments: option value" 2 "--level needs a whole number from 0 to 20" --level -1 "$START" e4 1
error "arguments: option value" 2 "--hash-file needs a file name" --hash-file "" "$START" e4 1
for t in 1,5 +1 " +1" "1 2" " " $'\n' 1.2.3 0x10 inf nan 1s . $'1\n2' "1e-3"; do
  error "time: malformed" 2 "$TIME_MSG" "$START" e4 "$t"
done
for t in " 0.2" "0.2 " $'0.2\r' $'\t0.2\n'; do
  answer "time: whitespace around it" 0 "" "$START" "e4" "$t"
done
for t in 0 0.0 000 -0.5 86400.5 86401 99999999999999999999999999999; do
  error "time: out of range" 2 "$TIME_MSG" "$START" e4 "$t"
done
long_time=$(printf '9%.0s' $(seq 5000))
error "time: out of range" 2 "is not a positive number" "$START" e4 "$long_time"
answer "time: below the start-up cost" "<20" "" "$START" "$OPENING" 0.000001
answer "time: below the start-up cost" 0 "" "$START" "e4" .001

# --- the FEN, field by field
error "FEN: fields" 3 "FEN has 0 fields, expected 4 to 6" "" e4 1
error "FEN: fields" 3 "FEN has 3 fields" "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq" e4 1
error "FEN: fields" 3 "FEN has 7 fields" "$START 1" e4 1
error "FEN: fields" 3 "FEN has 1 fields" "${START// /$'\n'}" e4 1
error "FEN: length" 3 "FEN is too long (" "$START$(printf ' %.0s' $(seq 282))" e4 1
error "FEN: pieces" 3 "unexpected character 'x' in the piece placement" "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" e4 1
error "FEN: pieces" 3 "unexpected character '0'" "rnbqkbnr/pppppppp/8/8/8/0/PPPPPPPP/RNBQKBNR w KQkq - 0 1" e4 1
error "FEN: pieces" 3 "unexpected character '9'" "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" e4 1
error "FEN: pieces" 3 "unexpected character '.'" "rnbqkbnr/pppppppp/......../8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" e4 1
error "FEN: pieces" 3 "unexpected character '?'" "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNé w KQkq - 0 1" e4 1
error "FEN: pieces" 3 "two digits in a row in rank 5" "rnbqkbnr/pppppppp/8/44/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" e4 1
error "FEN: rank length" 3 "rank 6 of the piece placement has 7 squares, not 8" "rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" e4 1
error "FEN: rank length" 3 "rank 7 of the piece placement has more than 8 squares" "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" e4 1
error "FEN: rank length" 3 "rank 6 of the piece placement has more than 8 squares" "rnbqkbnr/pppppppp/8p/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" e4 1
error "FEN: rank count" 3 "the piece placement has 7 ranks, not 8" "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" e4 1
error "FEN: rank count" 3 "the piece placement has more than 8 ranks" "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" e4 1
error "FEN: rank count" 3 "rank 1 of the piece placement has 0 squares" "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/ w KQkq - 0 1" e4 1
for s in W white - B; do
  error "FEN: side" 3 "side to move '$s' is not 'w' or 'b'" "$(fen_with 1 "$s")" e4 1
done
error "FEN: side" 3 "side to move 'w?x' is not 'w' or 'b'" "$(fen_with 1 $'w\nx')" e4 1
error "FEN: castling" 3 "unexpected character 'X' in the castling field" "$(fen_with 2 KQXq)" e4 1
error "FEN: castling" 3 "unexpected character '-' in the castling field" "$(fen_with 2 KQ-)" e4 1
error "FEN: castling" 3 "castling right 'K' given twice" "$(fen_with 2 KQkqK)" e4 1
error "FEN: castling" 3 "unexpected character '?' in the castling field" "$(fen_with 2 $'KQ\x01kq')" e4 1
answer "FEN: castling without king or rook" "<2" "" "r3k2r/8/8/8/8/8/8/R4RK1 w KQkq - 0 1" "Kg2 Rf2" 0.1
answer "FEN: castling without king or rook" 1 "'O-O' (not legal here)" "r3k2r/8/8/8/8/8/8/R3K1R1 w KQkq - 0 1" "O-O O-O-O" 0.1
for e in e9 ee e33 E3 i3 3e; do
  error "FEN: en passant" 3 "en passant field '$e' is not '-' or a square" "$(fen_with 3 "$e")" e4 1
done
error "FEN: en passant rank" 3 "en passant square e3 is not on the 6th rank" "$(fen_with 3 e3)" e4 1
error "FEN: en passant rank" 3 "en passant square e6 is not on the 3rd rank" \
  "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e6 0 1" e5 1
answer "FEN: en passant without a capture" 0 "'exd6' (not legal here)" \
  "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 1" "a3 exd6" 0.1
answer "FEN: en passant without a capture" "<3" "" \
  "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 1" "a3 exd6 e6" 0.1
for h in -1 x 1000000 1.5; do
  error "FEN: halfmove clock" 3 "halfmove clock '$h' is not a number from 0 to 999999" "$(fen_with 4 "$h")" e4 1
done
for f in 0 x 1000000 -1; do
  error "FEN: fullmove number" 3 "fullmove number '$f' is not a number from 1 to 999999" "$(fen_with 5 "$f")" e4 1
done
answer "FEN: fields" 0 "" "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -" "e4" 1
error "FEN: kings" 3 "white has 0 kings, not 1" "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1" e4 1
error "FEN: kings" 3 "black has 2 kings, not 1" "rnbqkbnr/pppppppp/8/8/3k4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" e4 1
error "FEN: too many pieces" 3 "white has too many pieces (17 men, 8 pawns)" "rnbqkbnr/pppppppp/8/8/8/7N/PPPPPPPP/RNBQKBNR w KQkq - 0 1" e4 1
error "FEN: too many pieces" 3 "white has too many pieces (16 men, 9 pawns)" "rnbqkbnr/pppppppp/8/8/8/7P/PPPPPPPP/RNBQKB1R w KQkq - 0 1" e4 1
error "FEN: too many pieces" 3 "white has more promoted pieces than missing pawns" "rnbqkbnr/pppppppp/8/8/8/7Q/PPPPPPPP/RNBQKBN1 w Qkq - 0 1" e4 1
error "FEN: pawns on the back rank" 3 "a pawn stands on the first or last rank" "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1" e4 1
error "FEN: pawns on the back rank" 3 "a pawn stands on the first or last rank" "4k3/8/8/8/8/8/8/p3K3 w - - 0 1" Kd1 1
error "FEN: side not to move in check" 3 "the side not to move is in check" "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1" Kd1 1
error "FEN: side not to move in check" 3 "the side not to move is in check" "4k3/8/8/8/8/8/3p4/4K3 b - - 0 1" Kd8 1

# --- the move list
error "moves: empty" 4 "the move list is empty" "$START" $'\t\n\r \v\f' 1
error "moves: no legal token" 4 "no token of the move list is a legal move in this position; ignored tokens: 'e5' (not legal here), 'Qxf7' (not legal here), 'zz' (not a move)" "$START" "e5 Qxf7 zz" 1
error "moves: no legal token" 4 "'e4.' (not a move)" "$START" "-- e4. 'e4' \"e4\"" 1
error "moves: none legal (mate, stalemate)" 4 "no move is legal: the position is checkmate" "6k1/5ppp/8/8/8/8/5PPP/3r2K1 w - - 0 1" "Kf1 Kh1" 1
error "moves: none legal (mate, stalemate)" 4 "no move is legal: the position is stalemate" "k7/8/1Q6/8/8/8/8/7K b - - 0 1" "Ka7" 1
answer "moves: unknown tokens" 1 "ignored tokens: 'Zz9' (not a move), 'Rd9' (not a move)" "$MATE1" "Zz9 Rd8 Rd9" 0.3
answer "moves: unknown tokens" 1 "'1.' (not a move), '1-0' (not a move)" "$MATE1" "1. Rd8# 1-0" 0.3
answer "moves: illegal moves" 2 "'Rd9' (not a move), 'Kf2' (not legal here), 'Ra8' (not legal here)" "$MATE1" "Rd9 Kf2 Rd8+ Ra8" 0.3
answer "moves: ambiguous" 1 "'Nd2' (ambiguous)" "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1" "Nd2 Nbd2" 0.1
answer "moves: duplicates" 1 "'d1d8' (listed twice), 'Rd8' (listed twice)" "$MATE1" "Kf1 Rd8# d1d8 Rd8" 0.3
answer "moves: duplicates" 0 "'e4' (listed twice), 'e2e4' (listed twice)" "$START" "e4 e4 e2e4" 0.1
huge=$(printf 'e4 %.0s' $(seq 40000))   # 120 000 bytes: Linux takes at most 128 KiB per argument
answer "moves: huge" 0 "'e4' (listed twice), ..." "$START" "$huge" 0.1
answer "moves: huge" 29000 "'Nd7' (not legal here), ..." "$MATE1" "$(printf 'Nd7 %.0s' $(seq 29000))Rd8" 0.2
long_token=$(printf 'a%.0s' $(seq 100000))
answer "moves: long token" 1 "'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...' (not a move)" "$MATE1" "$long_token Rd8" 0.3
answer "moves: odd whitespace" 1 "" "$MATE1" $'\t Kf1\r\n\v\fRd8#\n\n h3  ' 0.3
answer "moves: odd whitespace" 2 "" "$MATE1" $'h3\tKf1\tRd8' 0.3
answer "moves: non-ASCII and control bytes" 2 "'??' (not a move), '??4' (not a move), '?[31m' (not a move)" \
  "$MATE1" $'é \xd0\xb54 Rd8 \e[31m' 0.3
answer "moves: non-ASCII and control bytes" 1 "'Rd8??' (not a move)" "$MATE1" $'Rd8\xc2\xa0 Rd8 Kf1' 0.3

# Every row of the table in tests/README.md is a label above, and every label a row: one check,
# bookkeeping rather than behaviour.
rows=$(sed -n '/^## Bad input/,/^## /p' "$here/README.md" | grep -E '^\| `[^`]+` \|' | sed -E 's/^\| `([^`]+)`.*/\1/' | LC_ALL=C sort -u)
tested=$(printf '%s\n' "${labels[@]}" | LC_ALL=C sort -u)
untested=$(LC_ALL=C comm -23 <(echo "$rows") <(echo "$tested") | paste -sd '|')
unlisted=$(LC_ALL=C comm -13 <(echo "$rows") <(echo "$tested") | paste -sd '|')
if [ -n "$rows" ] && [ -z "$untested$unlisted" ]; then ok; else
  bad "tests/README.md's Bad input table and the tests here differ: rows without a test '$untested', labels without a row '$unlisted'"
fi

# --- valgrind on a sample of calls (a sanitizer build cannot run under it, nor under ulimit -v)
sanitized=0; grep -q __asan_init "$ENGINE" 2>/dev/null && sanitized=1
if [ $sanitized -eq 1 ]; then
  echo "not applicable: valgrind (6 checks) and ulimit -v (3 checks) in a sanitizer build"
elif ! command -v valgrind >/dev/null; then
  echo "skip: valgrind (6 checks): valgrind is not installed"
  skipped=$((skipped + 6))
else
  # vg LABEL STATUS LINES PATTERN INPUT ARGS...: the engine under valgrind, ARGS and stdin INPUT,
  # ends with STATUS and writes LINES stdout lines that match PATTERN (grep), and valgrind finds
  # no error and no definite leak.
  vg() {
    local label=$1 want=$2 lines=$3 pattern=$4 input=$5 got; shift 5
    valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite "$ENGINE" "$@" \
      <"$input" >"$tmp/vg.out" 2>"$tmp/vg.err"; got=$?
    if [ $got -eq "$want" ] && [ "$(grep -c "$pattern" "$tmp/vg.out")" -eq "$lines" ] && ! grep -q '^==[0-9]*==' "$tmp/vg.err"; then ok; else
      bad "valgrind $label: status $got (want $want), $(grep -c "$pattern" "$tmp/vg.out") lines '$pattern' (want $lines); $(grep '^==' "$tmp/vg.err" | head -5)"
    fi
  }
  INDEX='^[0-9][0-9]*$'
  vg "one-shot" 0 1 "$INDEX" /dev/null --nodes 20000 "$START" "$OPENING" 5
  vg "bad FEN" 3 0 '' /dev/null "$(fen_with 3 e9)" e4 1
  vg "warnings" 0 1 "$INDEX" /dev/null --depth 3 "$MATE1" "$(printf 'Nd7 %.0s' $(seq 500))Rd8 $long_token é" 5
  vg "mate" 4 0 '' /dev/null "6k1/5ppp/8/8/8/8/5PPP/3r2K1 w - - 0 1" "Kf1" 1
  printf 'uci\nposition startpos moves e2e4 e7e5 g1f3\ngo nodes 20000\nsetoption name Hash value 2\nposition fen %s\ngo depth 5\nd\nquit\n' "$MATE1" >"$tmp/uci.in"
  vg "uci" 0 2 '^bestmove' "$tmp/uci.in"
  printf '%s\t%s\t1\nbad\tline\n%s\tRd8\t0.5\n' "$START" "$OPENING" "$MATE1" >"$tmp/batch.in"
  vg "batch" 0 3 '' "$tmp/batch.in" --nodes 5000 --batch
fi

# --- 64 MB of address space: the transposition table shrinks, the answers stay right
if [ $sanitized -eq 0 ]; then
  out=$( (ulimit -v 65536 && exec timeout -k 1 "$HANG_SECONDS" "$ENGINE" --depth 5 "$MATE1" "Kf1 h3 g3 Rd2 Rd8" 3) 2>"$tmp/err"); status=$?
  if [ $status -eq 0 ] && [ "$out" = 4 ]; then ok; else bad "ulimit -v 65536, 3 s call: status $status, out '$out', err '$(cat "$tmp/err")'"; fi
  out=$( (ulimit -v 65536 && printf 'setoption name Hash value 1024\nposition fen %s\ngo depth 5\nquit\n' "$MATE1" | timeout -k 1 "$HANG_SECONDS" "$ENGINE") 2>"$tmp/err"); status=$?
  if [ $status -eq 0 ] && grep -q '^bestmove d1d8' <<<"$out"; then ok; else bad "ulimit -v 65536, UCI Hash 1024: status $status, out '$(tail -2 <<<"$out")'"; fi
  out=$( (ulimit -v 65536 && printf '%s\tKf1 Rd8\t3\n%s\tKf1 Rd8\t0.05\n' "$MATE1" "$MATE1" | timeout -k 1 "$HANG_SECONDS" "$ENGINE" --depth 4 --batch) 2>/dev/null); status=$?
  if [ $status -eq 0 ] && [ "$out" = $'1\n1' ]; then ok; else bad "ulimit -v 65536, batch: status $status, out '$out'"; fi
fi

# --- the fuzz targets over their seed corpus and past findings (tests/data/fuzz-corpus/), without
# libFuzzer: built with -DFUZZ_REPLAY (and the sanitizers for a sanitizer build), in parallel,
# each with the sources the Makefile links it with (make fuzz-links)
cflags="-O1 -g"
[ $sanitized -eq 1 ] && cflags="$cflags -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
for name in oneshot uci tablefile gamefile; do
  links=$(make -s --no-print-directory -C "$here/.." fuzz-links NAME=$name)
  (cd "$here/.." && ${CC:-cc} -std=c99 -pedantic -Wall -Wextra -Werror -Wshadow -Wmissing-prototypes $cflags -DFUZZ_REPLAY \
    "tests/fuzz_$name.c" $links -o "$tmp/replay_$name") 2>"$tmp/replay_$name.cc" &
done
wait
for name in oneshot uci tablefile gamefile; do
  if [ ! -x "$tmp/replay_$name" ]; then bad "tests/fuzz_$name.c does not build: $(head -3 "$tmp/replay_$name.cc")"; continue; fi
  if "$tmp/replay_$name" "$here/data/fuzz-corpus/$name"/* >"$tmp/replay.out" 2>"$tmp/replay.err"; then ok; else
    bad "fuzz_$name over tests/data/fuzz-corpus/$name: $(grep -m3 -E 'contract|ERROR|runtime error|Assertion' "$tmp/replay.err")"; fi
done

finish
