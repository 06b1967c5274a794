#!/usr/bin/env bash
# tests/hashfile.sh [ENGINE]: the table file of --hash-file (docs/command-line.md): a second
# call starts from the first one's table; each kind of hostile file that docs/command-line.md
# lists answers as a cold call does, with one warning at most and no harm to a file not ours;
# calls at once leave a file the next call accepts; without the option nothing is written.
# A call still running after HANG_SECONDS is a hang and fails. Ends with "N passed, N failed,
# N skipped".
set -u
HANG_SECONDS=30   # no call here has more than 1 s of search
ENGINE=$(cd "$(dirname "${1:-./engine}")" && pwd)/$(basename "${1:-./engine}")
pass=0; fail=0; skipped=0
tmp=$(mktemp -d); trap 'chattr -i "$tmp"/* 2>/dev/null; rm -rf "$tmp"' EXIT
POS="r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
MOVES="a3 a4 b3 b4 c3 d3 d4 g3 g4 h3 h4 Nc3 Na3 Ng5 Nh4 Ng1 Nd4 Nxe5 Bd5 Be6 Bxf7+ Bb5 Ba6 Bd3 Be2 Bf1 Bb3 Rg1 Rf1 Qe2 Ke2 Kf1 O-O"
DEPTH=7

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
skip() { skipped=$((skipped + 1)); echo "SKIP $*"; }
# engine ARGS...: the engine, killed as a hang after HANG_SECONDS
engine() { timeout -k 1 $HANG_SECONDS "$ENGINE" "$@"; }

# search [ENGINE OPTIONS...]: a fixed-depth one-shot call; sets status, out (the index), lines
# (the verbose report without its times: depth, score, nodes, pv) and warnings (their count)
search() {
  engine --depth $DEPTH --verbose "$@" "$POS" "$MOVES" 30 >"$tmp/out" 2>"$tmp/err"; status=$?
  out=$(cat "$tmp/out")
  lines=$(grep '^depth' "$tmp/err" | sed 's/time *[0-9]* ms//')
  warnings=$(grep -c '^warning: ' "$tmp/err")
}

search; cold_out=$out; cold_lines=$lines
[ $status -eq 0 ] && [ -n "$cold_lines" ] && ok || bad "the cold call failed (status $status)"

# as_cold WHAT WANT_WARNINGS [OPTIONS...]: the call answers exactly as the cold call does
as_cold() {
  local what=$1 want=$2; shift 2
  search "$@"
  if [ $status -eq 0 ] && [ "$out" = "$cold_out" ] && [ "$lines" = "$cold_lines" ] && [ "$warnings" -eq "$want" ]; then ok; else
    bad "$what: expected the cold call's answer and $want warning(s) within $HANG_SECONDS s (status $status, index '$out', warnings $warnings: $(grep warning "$tmp/err"))"; fi
}

# unchanged WHAT FILE SUM: FILE still has the checksum SUM
unchanged() {
  if [ "$(cksum <"$2")" = "$3" ]; then ok; else bad "$1: the file was changed"; fi
}

# A new file: no warning, the same search as a cold one, then a valid table file.
as_cold "a missing file" 0 --hash-file "$tmp/new.tt"
[ -f "$tmp/new.tt" ] && [ "$(head -c 7 "$tmp/new.tt")" = "BoxerTT" ] && ok || bad "no table file was made"
ls "$tmp" | grep -q '\.tmp$' && bad "a temporary file was left: $(ls "$tmp")" || ok

# Warm: the second call finds the first one's table and searches fewer nodes to the same depth.
search --hash-file "$tmp/new.tt"
first=$(echo "$cold_lines" | tail -1 | awk '{print $7}'); second=$(echo "$lines" | tail -1 | awk '{print $7}')
if [ $status -eq 0 ] && [ "$second" -lt "$first" ] && grep -q 'per mille of it filled' "$tmp/err" \
   && ! grep -q ' 0 per mille' "$tmp/err"; then ok; else
  bad "a second call did not start from the first one's table ($first nodes cold, $second warm: $(grep 'hash file' "$tmp/err"))"; fi
engine --depth 3 --hash-file "$tmp/new.tt" "$POS" "$MOVES" 1 >/dev/null 2>"$tmp/err"
[ -s "$tmp/err" ] && bad "a good file gave a warning: $(cat "$tmp/err")" || ok

# An empty file (as mktemp makes it) becomes a table without a warning.
: >"$tmp/empty.tt"
as_cold "an empty file" 0 --hash-file "$tmp/empty.tt"
[ "$(head -c 7 "$tmp/empty.tt")" = "BoxerTT" ] && ok || bad "the empty file did not become a table file"

# A table file of ours that cannot be used is replaced, with one warning.
cp "$tmp/new.tt" "$tmp/good.tt"
size=$(stat -c %s "$tmp/good.tt")
head -c $((size / 2)) "$tmp/good.tt" >"$tmp/truncated.tt"
as_cold "a truncated file" 1 --hash-file "$tmp/truncated.tt"
[ "$(stat -c %s "$tmp/truncated.tt")" -eq "$size" ] && ok || bad "the truncated file was not replaced"
{ cat "$tmp/good.tt"; head -c 4096 /dev/zero; } >"$tmp/oversized.tt"
as_cold "an oversized file" 1 --hash-file "$tmp/oversized.tt"
cp "$tmp/good.tt" "$tmp/version.tt"; printf '\x63' | dd of="$tmp/version.tt" bs=1 seek=8 conv=notrunc 2>/dev/null
as_cold "another version's file" 1 --hash-file "$tmp/version.tt"
cp "$tmp/good.tt" "$tmp/signature.tt"; printf '\x00\x00' | dd of="$tmp/signature.tt" bs=1 seek=16 conv=notrunc 2>/dev/null
as_cold "another evaluation's file" 1 --hash-file "$tmp/signature.tt"

# A file that is not ours is left as it is, with one warning.
for name in text random short; do
  case $name in
    text) printf 'my notes\n%.0s' $(seq 100) >"$tmp/$name" ;;
    random) head -c "$size" /dev/urandom >"$tmp/$name" ;;
    short) printf 'Boxer' >"$tmp/$name" ;;
  esac
  sum=$(cksum <"$tmp/$name")
  as_cold "a foreign file ($name)" 1 --hash-file "$tmp/$name"
  unchanged "a foreign file ($name)" "$tmp/$name" "$sum"
done

# A damaged table (a good header, random entries and histories) may steer the search, never break it.
cp "$tmp/good.tt" "$tmp/damaged.tt"
head -c $((size - 64)) /dev/urandom | dd of="$tmp/damaged.tt" bs=64 seek=1 conv=notrunc 2>/dev/null
for i in 1 2 3; do
  engine --hash-file "$tmp/damaged.tt" "$POS" "$MOVES" 0.2 >"$tmp/out" 2>"$tmp/err"; status=$?
  index=$(cat "$tmp/out")
  if [ $status -eq 0 ] && [[ "$index" =~ ^[0-9]+$ ]] && [ "$index" -lt 33 ] && [ ! -s "$tmp/err" ]; then ok; else
    bad "a damaged table (run $i): status $status, index '$index', $(cat "$tmp/err")"; fi
done

# Not a regular file, or not to be followed: one warning, the cold answer, nothing written.
mkdir "$tmp/dir.tt"
as_cold "a directory" 1 --hash-file "$tmp/dir.tt"
[ -z "$(ls -A "$tmp/dir.tt")" ] && ok || bad "something was written into the directory"
as_cold "/dev/null" 1 --hash-file /dev/null
[ -c /dev/null ] && ok || bad "/dev/null is no longer a character device"
mkfifo "$tmp/fifo.tt"
as_cold "a FIFO" 1 --hash-file "$tmp/fifo.tt"
printf 'precious\n' >"$tmp/precious"; ln -s "$tmp/precious" "$tmp/link.tt"
as_cold "a symbolic link" 1 --hash-file "$tmp/link.tt"
[ "$(cat "$tmp/precious")" = precious ] && [ -L "$tmp/link.tt" ] && ok || bad "the symbolic link or its target was changed"
ln -s "$tmp/nowhere" "$tmp/dangling.tt"
as_cold "a dangling symbolic link" 1 --hash-file "$tmp/dangling.tt"
[ ! -e "$tmp/nowhere" ] && ok || bad "a dangling symbolic link was followed"
as_cold "a file in a missing directory" 1 --hash-file "$tmp/missing/x.tt"

# No room: a file size limit stands in for a full disk.
(ulimit -f 64; as_cold "no room for the file" 1 --hash-file "$tmp/noroom.tt"; echo "$pass $fail" >"$tmp/counts")
read -r pass fail <"$tmp/counts"
[ ! -e "$tmp/noroom.tt" ] && ! ls "$tmp" | grep -q '\.tmp$' && ok || bad "no room: a file was left ($(ls "$tmp"))"

# Unreadable and unwritable: root reads and writes any file, but not an immutable one.
cp "$tmp/good.tt" "$tmp/immutable.tt"
if chattr +i "$tmp/immutable.tt" 2>/dev/null; then
  as_cold "an immutable file" 1 --hash-file "$tmp/immutable.tt"
  chattr -i "$tmp/immutable.tt"
else
  skip "an immutable file (chattr +i is not allowed here)"
fi
if [ "$(id -u)" -ne 0 ]; then
  cp "$tmp/good.tt" "$tmp/unreadable.tt"; chmod 000 "$tmp/unreadable.tt"
  as_cold "an unreadable file" 1 --hash-file "$tmp/unreadable.tt"
else
  echo "not applicable: an unreadable file, as root (root reads every file)"
fi

# Calls at once share one file; the next call accepts it whole. Each searches to a depth, not
# for a time, so that a loaded machine (the sanitizers' build, two cores) still fills the table.
rm -f "$tmp/shared.tt"
for i in 1 2 3 4 5 6; do
  engine --depth $DEPTH --hash-file "$tmp/shared.tt" "$POS" "$MOVES" 30 >"$tmp/shared.$i" 2>&1 &
done
wait
all=ok
for i in 1 2 3 4 5 6; do [[ "$(cat "$tmp/shared.$i")" =~ ^[0-9]+$ ]] || all="call $i: $(cat "$tmp/shared.$i")"; done
[ "$all" = ok ] && ok || bad "calls at once: $all"
search --hash-file "$tmp/shared.tt"
if [ $status -eq 0 ] && [ "$warnings" -eq 0 ] && ! grep -q ' 0 per mille' "$tmp/err"; then ok; else
  bad "the file calls at once left was not accepted: $(cat "$tmp/err")"; fi
ls "$tmp" | grep -q '\.tmp$' && bad "calls at once left a temporary file" || ok

# The environment variable, and the option over it; --batch.
BOXER_HASH_FILE="$tmp/env.tt" engine --depth 3 "$POS" "$MOVES" 1 >/dev/null 2>&1
[ -f "$tmp/env.tt" ] && ok || bad "BOXER_HASH_FILE made no file"
BOXER_HASH_FILE="$tmp/env2.tt" engine --depth 3 --hash-file "$tmp/option.tt" "$POS" "$MOVES" 1 >/dev/null 2>&1
[ -f "$tmp/option.tt" ] && [ ! -e "$tmp/env2.tt" ] && ok || bad "--hash-file did not win over BOXER_HASH_FILE"
printf '%s\t%s\t0.1\n%s\t%s\t0.1\n' "$POS" "$MOVES" "$POS" "$MOVES" | engine --batch --hash-file "$tmp/batch.tt" >"$tmp/out" 2>/dev/null
[ "$(grep -c '^[0-9][0-9]*$' "$tmp/out")" -eq 2 ] && [ "$(grep -c '' "$tmp/out")" -eq 2 ] && [ -f "$tmp/batch.tt" ] && ok \
  || bad "--batch --hash-file: two indices wanted, got '$(cat "$tmp/out")'"
engine --hash-file >/dev/null 2>"$tmp/err"; status=$?
[ $status -eq 2 ] && [ "$(grep -c '^error: ' "$tmp/err")" -eq 1 ] && ok || bad "--hash-file without a name: status $status"

# Without the option or the variable, a call writes nothing: not in its working directory, nor
# in $TMPDIR or $HOME (each an empty directory of its own here).
mkdir "$tmp/quiet" "$tmp/quiet-tmp" "$tmp/quiet-home"
(cd "$tmp/quiet" && env -u BOXER_HASH_FILE TMPDIR="$tmp/quiet-tmp" HOME="$tmp/quiet-home" \
  timeout -k 1 $HANG_SECONDS "$ENGINE" "$POS" "$MOVES" 0.1 >/dev/null 2>&1)
wrote=$(cd "$tmp" && ls -A quiet quiet-tmp quiet-home | grep -v '^quiet.*:$' | grep .)
[ -z "$wrote" ] && ok || bad "a default call wrote $(cd "$tmp" && ls -AR quiet quiet-tmp quiet-home)"

# The plain C99 build's table file (without POSIX: read whole at the start, written back whole
# through a temporary file renamed over it), built here from the sources: a new file, then a
# warm call; a file not ours (an empty one included: C99 cannot tell it from a device) left as
# it is; a damaged table of ours replaced; nothing left behind. It builds warning-free under the
# flags make uses, as the POSIX build does.
sources=$(cd "$(dirname "$0")/.." && pwd)
if (cd "$sources" && ${CC:-cc} -std=c99 -pedantic -Wall -Wextra -Werror -O2 -DENGINE_NO_POSIX engine.c movement.c extra.c modes/*.c \
      -o "$tmp/c99-engine") 2>"$tmp/cc.err"; then
  ENGINE=$tmp/c99-engine
  search; cold_out=$out; cold_lines=$lines
  as_cold "C99: a missing file" 0 --hash-file "$tmp/c99.tt"
  [ "$(head -c 7 "$tmp/c99.tt" 2>/dev/null)" = "BoxerTT" ] && ok || bad "C99: no table file was made"
  search --hash-file "$tmp/c99.tt"
  second=$(echo "$lines" | tail -1 | awk '{print $7}'); first=$(echo "$cold_lines" | tail -1 | awk '{print $7}')
  [ $status -eq 0 ] && [ "$second" -lt "$first" ] && ok || bad "C99: a second call was not warm ($first nodes cold, $second)"
  printf 'my notes\n' >"$tmp/c99-notes"; : >"$tmp/c99-empty"
  for name in notes empty; do
    sum=$(cksum <"$tmp/c99-$name")
    as_cold "C99: a file not ours ($name)" 1 --hash-file "$tmp/c99-$name"
    unchanged "C99: a file not ours ($name)" "$tmp/c99-$name" "$sum"
  done
  head -c 1000 "$tmp/c99.tt" >"$tmp/c99-truncated.tt"
  as_cold "C99: a truncated table" 1 --hash-file "$tmp/c99-truncated.tt"
  [ "$(stat -c %s "$tmp/c99-truncated.tt")" -eq "$(stat -c %s "$tmp/c99.tt")" ] && ok || bad "C99: the truncated table was not replaced"
  ls "$tmp" | grep -q '\.tmp$' && bad "C99: a temporary file was left: $(ls "$tmp")" || ok
else
  bad "the C99 build (-DENGINE_NO_POSIX) does not build warning-free: $(head -1 "$tmp/cc.err")"
fi

echo "$pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ]
