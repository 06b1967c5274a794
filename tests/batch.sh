#!/usr/bin/env bash
# tests/batch.sh: `engine --batch`: answers equal one-shot answers, bad lines stay on their
# own line, the time limit per line.
# Usage: tests/batch.sh [ENGINE]. Takes about 5 s; ends with "N passed, N failed".
set -u
ENGINE=${1:-./engine}
pass=0; fail=0
START="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
check() { local what=$1; shift; if "$@"; then ok; else bad "$what"; fi; }
now_ms() { local t=${EPOCHREALTIME/./}; echo $((t / 1000)); }

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

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
