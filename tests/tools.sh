#!/usr/bin/env bash
# tests/tools.sh: the table makers on a small data set (tests/data/labelled-sample.txt, 2000
# positions of ../shared/data/labelled, labelled by Stockfish 15.1): the error falls, the same
# seed gives the same table, the table builds the engine, and bad data is reported as
# docs/weights.md says. Usage: tests/tools.sh [ENGINE] (after `make tools/tune`; ENGINE, ./engine if not
# given, is the one tools/spsa.mjs plays). Ends with "N passed, N failed".
# A tool or engine still running after HANG_SECONDS is a hang: it is killed (status 124) and
# fails its check.
set -u
ENGINE=${1:-./engine}
HANG_SECONDS=300   # the longest run here takes seconds, about a minute under a loaded machine
pass=0; fail=0; skipped=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
DATA=tests/data/labelled-sample.txt
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
check() { if eval "$1"; then ok; else bad "$2"; fi; }

# training LINE LOG: the training error on the line that starts with LINE
training() { grep "^$1" "$2" | sed 's/.*training \([0-9.]*\),.*/\1/'; }

echo "-- tune"
# run_tune DIR ARGS...: tune in DIR (so that every table names the same output file)
run_tune() { local dir=$1; shift; mkdir -p "$dir"; (cd "$dir" && timeout -k 1 $HANG_SECONDS "$OLDPWD/tools/tune" --data "$OLDPWD/$DATA" --out hce.h "$@"); }
run_tune "$tmp/a" --epochs 20 --rate 0.2 --seed 5 >"$tmp/a.log" 2>&1; status=$?
check '[ $status -eq 0 ] && [ -s "$tmp/a/hce.h" ]' "tune runs (status $status): $(tail -2 "$tmp/a.log")"
before=$(training before "$tmp/a.log"); after=$(training "after:" "$tmp/a.log")
check '[ -n "$before" ] && [ -n "$after" ] && [ "$(echo "$after < $before - 0.001" | bc)" = 1 ]' \
  "tune: the training error falls ($before -> $after)"
check 'grep -q "give back the evaluation within [0-3]\." "$tmp/a.log"' \
  "tune: the features give back the evaluation ($(grep 'give back' "$tmp/a.log"))"
run_tune "$tmp/b" --epochs 20 --rate 0.2 --seed 5 >/dev/null 2>&1; same=$?
check '[ $same -eq 0 ] && cmp -s "$tmp/a/hce.h" "$tmp/b/hce.h"' "tune: the same seed gives the same table (status $same)"
run_tune "$tmp/c" --epochs 20 --rate 0.2 --seed 6 >/dev/null 2>&1; other=$?
check '[ $other -eq 0 ] && [ -s "$tmp/c/hce.h" ] && ! cmp -s "$tmp/a/hce.h" "$tmp/c/hce.h"' \
  "tune: another seed gives another table (status $other)"
# the tree built with the README's plain build line (no make)
plain_build=$(sed -n 's/^Without make: `\(cc -std=c99 [^`]*\)`.*/\1/p' README.md)
mkdir -p "$tmp/tree/tables"
cp -r engine.c movement.c movement.h extra.c extra.h modes "$tmp/tree/" && cp tables/nnue.h tables/nnue-shape.h "$tmp/tree/tables/"
cp "$tmp/a/hce.h" "$tmp/tree/tables/hce.h"
check '[ -n "$plain_build" ] && (cd "$tmp/tree" && $plain_build 2>"$tmp/cc.log" && timeout -k 1 $HANG_SECONDS ./engine bench 2 >/dev/null 2>&1)' \
  "tune: the table it writes builds an engine that runs: $(head -3 "$tmp/cc.log" 2>/dev/null)"

# OpenBench's client builds with `make -j EXE=NAME` (and perhaps CC=): the binary is NAME
cp Makefile "$tmp/tree/"
check '(cd "$tmp/tree" && make -s -j2 EXE=boxer-openbench CFLAGS=-O1 >"$tmp/make.log" 2>&1 && [ -x boxer-openbench ] \
  && timeout -k 1 $HANG_SECONDS ./boxer-openbench bench 2 2>/dev/null | grep -qE "^[0-9]+ nodes [0-9]+ nps$")' \
  "make EXE=boxer-openbench builds that binary, and it benches: $(tail -3 "$tmp/make.log" 2>/dev/null)"

echo "-- train"
run_train() { local dir=$1; shift; mkdir -p "$dir"; (cd "$dir" && timeout -k 1 $HANG_SECONDS "$OLDPWD/tools/train" --data "$OLDPWD/$DATA" --out nnue.h "$@"); }
# use_network DIR: the network trained in DIR, its weights and its shape, becomes the tree's
use_network() { cp "$1/nnue.h" "$1/nnue-shape.h" "$tmp/tree/tables/"; }
run_train "$tmp/n1" --epochs 4 --batch 256 --seed 5 >"$tmp/n1.log" 2>&1; status=$?
check '[ $status -eq 0 ] && [ -s "$tmp/n1/nnue.h" ] && grep -q "^#define NNUE_TABLE_HIDDEN 256$" "$tmp/n1/nnue-shape.h"' \
  "train runs and writes the weights and their shape beside them (status $status): $(tail -2 "$tmp/n1.log")"
before=$(training before "$tmp/n1.log"); after=$(training "after:" "$tmp/n1.log")
check '[ -n "$before" ] && [ -n "$after" ] && [ "$(echo "$after < $before - 0.01" | bc)" = 1 ]' \
  "train: the training loss falls ($before -> $after)"
run_train "$tmp/n2" --epochs 4 --batch 256 --seed 5 >/dev/null 2>&1; same=$?
check '[ $same -eq 0 ] && cmp -s "$tmp/n1/nnue.h" "$tmp/n2/nnue.h"' "train: the same seed gives the same network (status $same)"
run_train "$tmp/n7" --epochs 4 --batch 256 --seed 5 --threads 1 >/dev/null 2>&1; one=$?
# weights: a table without its first comment (which repeats the command)
weights() { sed '1,/^ \*\//d' "$1"; }
check '[ $one -eq 0 ] && cmp -s <(weights "$tmp/n1/nnue.h") <(weights "$tmp/n7/nnue.h")' "train: one thread gives the network of two (status $one)"
run_train "$tmp/n3" --epochs 4 --batch 256 --seed 6 >/dev/null 2>&1; other=$?
check '[ $other -eq 0 ] && [ -s "$tmp/n3/nnue.h" ] && ! cmp -s "$tmp/n1/nnue.h" "$tmp/n3/nnue.h"' \
  "train: another seed gives another network (status $other)"
use_network "$tmp/n1"
check '(cd "$tmp/tree" && $plain_build 2>"$tmp/cc.log" && timeout -k 1 $HANG_SECONDS ./engine bench 2 >/dev/null 2>&1)' \
  "train: the network it writes builds an engine that runs: $(head -3 "$tmp/cc.log" 2>/dev/null)"
# the engine's int16 network gives back the trainer's float scores within its rounding (3 cp),
# with a hidden size other than the default's (the engine takes the table's)
head -40 "$DATA" >"$tmp/fens.txt"
run_train "$tmp/n4" --epochs 3 --batch 128 --rate 0.01 --seed 7 --hidden 128 --check "$tmp/fens.txt" --save "$tmp/n4/net" >"$tmp/n4.log" 2>&1
# weights of one shape beside the shape of another do not build (extra.c's checks)
cp "$tmp/n4/nnue.h" "$tmp/tree/tables/nnue.h"
check '! (cd "$tmp/tree" && $plain_build 2>/dev/null)' "train: weights of 128 hidden beside a shape of 256 do not build"
use_network "$tmp/n4"
(cd "$tmp/tree" && $plain_build 2>/dev/null)
# worst_gap LOG: the largest difference in cp between the tree's engine's network score and the
# trainer's float score over the "check FEN | score" lines of LOG (white's view)
worst_gap() {
  grep '^check ' "$1" | while IFS='|' read -r fen score; do
    fen=${fen#check }; side=$(echo "$fen" | cut -d' ' -f2)
    raw=$(timeout -k 1 $HANG_SECONDS "$tmp/tree/engine" eval "$fen" | sed -n 's/^network *\(-*[0-9]*\) .*/\1/p')
    [ "$side" = b ] && raw=$((-raw))
    echo "$raw $score" | awk '{ d = $1 - $2; print (d < 0 ? -d : d) }'
  done | sort -g | tail -1
}
worst=$(worst_gap "$tmp/n4.log")
check '[ "$(grep -c "^check " "$tmp/n4.log")" = 40 ] && [ -n "$worst" ] && [ "$(echo "$worst <= 3" | bc)" = 1 ]' \
  "train: the engine's network (128 hidden) scores the trainer's checks within 3 cp (worst $worst)"
# king mirroring: the table says so, the engine's network gives back the trainer's scores, and
# its accumulators, updated move by move (a king crossing files d/e rebuilds its side), equal a
# refresh over the perft suites (tests/unit.c with small perft counts)
run_train "$tmp/n9" --epochs 3 --batch 128 --rate 0.01 --seed 7 --hidden 128 --king-mirror 1 --check "$tmp/fens.txt" >"$tmp/n9.log" 2>&1
use_network "$tmp/n9"
mkdir -p "$tmp/tree/tests/data" && cp tests/unit.c "$tmp/tree/tests/" && cp tests/data/perft.epd tests/data/perft960.epd "$tmp/tree/tests/data/"
(cd "$tmp/tree" && $plain_build 2>/dev/null)
worst=$(worst_gap "$tmp/n9.log")
check 'grep -q "^#define NNUE_TABLE_KING_MIRROR 1" "$tmp/n9/nnue-shape.h" && [ "$(grep -c "^check " "$tmp/n9.log")" = 40 ] && [ -n "$worst" ] && [ "$(echo "$worst <= 3" | bc)" = 1 ]' \
  "train --king-mirror 1: the engine's network scores the trainer's checks within 3 cp (worst $worst)"
unit_result=$(cd "$tmp/tree" && cc -std=c99 -O2 -DENGINE_DEBUG tests/unit.c movement.c extra.c -lm -o unit 2>&1 \
  && timeout -k 1 $HANG_SECONDS ./unit 1000 | tail -1)
check '[[ "$unit_result" =~ ^[0-9]+\ passed,\ 0\ failed$ ]]' \
  "train --king-mirror 1: the unit tests (accumulators after every make and unmake) pass with its network: $unit_result"
check '[ -s "$tmp/n4/net" ] && [ ! -e "$tmp/n4/net.tmp" ]' "train --save writes the float network whole"
run_train "$tmp/n5" --epochs 0 --hidden 128 --load "$tmp/n4/net" --check "$tmp/fens.txt" >"$tmp/n5.log" 2>&1
check 'diff <(grep "^check " "$tmp/n4.log") <(grep "^check " "$tmp/n5.log") >/dev/null' \
  "train --load starts from the saved network (same scores)"
run_train "$tmp/n6" --epochs 0 --load "$tmp/n4.log" >"$tmp/n6.log" 2>&1; status=$?
check '[ $status -ne 0 ] && grep -q "not a network" "$tmp/n6.log"' "train --load refuses a file that is not a network: $(tail -1 "$tmp/n6.log")"
run_train "$tmp/n8" --epochs 0 --load "$tmp/n4/net" >"$tmp/n8.log" 2>&1; status=$?
check '[ $status -ne 0 ] && grep -q "not a network of this layout" "$tmp/n8.log"' \
  "train --load refuses a network of another hidden size: $(tail -1 "$tmp/n8.log")"
# a table the trainer wrote is a starting point too: loaded and written again untrained, its
# weights come back the same; a table of another hidden size is refused
run_train "$tmp/n10" --epochs 0 --hidden 128 --load "$tmp/n4/nnue.h" >"$tmp/n10.log" 2>&1; status=$?
check '[ $status -eq 0 ] && cmp -s <(weights "$tmp/n4/nnue.h") <(weights "$tmp/n10/nnue.h")' \
  "train --load of a table gives back its weights (status $status): $(tail -1 "$tmp/n10.log")"
# a table written as one file, its shape inside (as the trainer wrote tables until the shape had
# a header of its own), loads too
mkdir -p "$tmp/one" && cat "$tmp/n4/nnue-shape.h" "$tmp/n4/nnue.h" >"$tmp/one/table.h"
run_train "$tmp/n12" --epochs 0 --hidden 128 --load "$tmp/one/table.h" >"$tmp/n12.log" 2>&1; status=$?
check '[ $status -eq 0 ] && cmp -s <(weights "$tmp/n4/nnue.h") <(weights "$tmp/n12/nnue.h")' \
  "train --load of a one-file table (its shape inside) gives back its weights (status $status): $(tail -1 "$tmp/n12.log")"
run_train "$tmp/n11" --epochs 0 --load "$tmp/n4/nnue.h" >"$tmp/n11.log" 2>&1; status=$?
check '[ $status -ne 0 ] && grep -q "not a network of this layout" "$tmp/n11.log"' \
  "train --load refuses a table of another hidden size: $(tail -1 "$tmp/n11.log")"
# --start COMMIT: a network starts from the table a commit of the repository here left in git's
# history. A repository of three commits: n4's table and shape; the same table written whole (its
# shape inside, as tables were until the shape had a header of its own); no table at all.
repo=$tmp/repo
mkdir -p "$repo/tables" && cp "$DATA" "$repo/"
git_commit() { git -C "$repo" -c user.name=test -c user.email=test@example.com commit -qm "$1" && git -C "$repo" rev-parse HEAD; }
git -C "$repo" init -q && cp "$tmp/n4/nnue.h" "$tmp/n4/nnue-shape.h" "$repo/tables/" && git -C "$repo" add tables
split=$(git_commit "a table and its shape")
split_sha=$(sha256sum <"$repo/tables/nnue.h" | cut -d' ' -f1)
cp "$tmp/one/table.h" "$repo/tables/nnue.h" && git -C "$repo" rm -q tables/nnue-shape.h && git -C "$repo" add tables
whole=$(git_commit "a table written whole")
git -C "$repo" rm -q tables/nnue.h
none=$(git_commit "no table")
# start_train OUT ARGS...: train in the repository (the data beside it, named as the header names it), the
# table and its shape moved to OUT
start_train() { local out=$1; shift; mkdir -p "$out"
  (cd "$repo" && timeout -k 1 $HANG_SECONDS "$OLDPWD/tools/train" --data "$(basename "$DATA")" --out nnue.h "$@" \
    && mv nnue.h nnue-shape.h "$out/"); }
start_train "$tmp/s1" --epochs 0 --hidden 128 --start "${split:0:10}" >"$tmp/s1.log" 2>&1; status=$?
check '[ $status -eq 0 ] && cmp -s <(weights "$tmp/n4/nnue.h") <(weights "$tmp/s1/nnue.h")' \
  "train --start gives back the weights of the commit's table (status $status): $(tail -1 "$tmp/s1.log")"
check 'grep -qx " \* Start: $split tables/nnue.h SHA-256 $split_sha" "$tmp/s1/nnue.h"' \
  "train --start names the full commit and its table's SHA-256 on a Start line: $(grep Start "$tmp/s1/nnue.h")"
start_train "$tmp/s2" --epochs 0 --hidden 128 --start "$whole" >"$tmp/s2.log" 2>&1; status=$?
check '[ $status -eq 0 ] && cmp -s <(weights "$tmp/n4/nnue.h") <(weights "$tmp/s2/nnue.h")' \
  "train --start reads a table written whole, its shape inside (status $status): $(tail -1 "$tmp/s2.log")"
# the rebuild: the header's command, run again where the Start commit and the Data files are,
# gives the same bytes
start_train "$tmp/s3" --epochs 2 --batch 256 --seed 5 --hidden 128 --start "$split" >"$tmp/s3.log" 2>&1; status=$?
command=$(sed -n 's/^ \* Command: train //p' "$tmp/s3/nnue.h")
(cd "$repo" && timeout -k 1 $HANG_SECONDS "$OLDPWD/tools/train" $command >"$tmp/s4.log" 2>&1); again=$?
check '[ $status -eq 0 ] && [ $again -eq 0 ] && ! cmp -s <(weights "$tmp/n4/nnue.h") <(weights "$tmp/s3/nnue.h") \
  && cmp -s "$tmp/s3/nnue.h" "$repo/nnue.h" && cmp -s "$tmp/s3/nnue-shape.h" "$repo/nnue-shape.h"' \
  "train --start: the header's command makes the same network again, byte for byte (status $status, $again): $command"
start_train "$tmp/s5" --epochs 0 --hidden 128 --start "$none" >"$tmp/s5.log" 2>&1; status=$?
check '[ $status -eq 1 ] && grep -q "has no tables/nnue.h" "$tmp/s5.log" && [ ! -e "$tmp/s5/nnue.h" ]' \
  "train --start refuses a commit without a table: $(tail -1 "$tmp/s5.log")"
start_train "$tmp/s6" --epochs 0 --hidden 128 --start 0123456789abcdef >"$tmp/s6.log" 2>&1; status=$?
check '[ $status -eq 1 ] && grep -q "not in the history" "$tmp/s6.log"' "train --start refuses a commit not in the history: $(tail -1 "$tmp/s6.log")"
start_train "$tmp/s7" --epochs 0 --start "$split" >"$tmp/s7.log" 2>&1; status=$?
check '[ $status -eq 1 ] && grep -q "not a network of this layout" "$tmp/s7.log"' \
  "train --start refuses a table of another hidden size: $(tail -1 "$tmp/s7.log")"
start_train "$tmp/s8" --epochs 0 --hidden 128 --start "HEAD; true" >"$tmp/s8.log" 2>&1; status=$?
check '[ $status -eq 1 ] && grep -q "hexadecimal digits" "$tmp/s8.log"' "train --start takes hexadecimal digits alone: $(tail -1 "$tmp/s8.log")"
start_train "$tmp/s9" --epochs 0 --hidden 128 --start "$split" --load "$tmp/n4/nnue.h" >"$tmp/s9.log" 2>&1; status=$?
check '[ $status -eq 2 ] && [ "$(grep -c "" "$tmp/s9.log")" = 1 ]' "train: --start and --load together are a usage error: $(cat "$tmp/s9.log")"
check 'make -s -n train START=abcdef12 | grep -q -- "--start abcdef12 " && ! make -s -n train START= | grep -q -- "--start"' \
  "make train passes START as --start, and none when it is empty"
# data as the trainer takes it from datagen and ../shared/data/labelled: the same lines as game
# records, xz-compressed or not, give the same positions; the header names each file by its base
# name and SHA-256, never by a machine's folders
timeout -k 1 $HANG_SECONDS "$ENGINE" datagen --games 12 --nodes 300 --seed 3 --threads 1 --out "$tmp/d.games" 2>/dev/null
timeout -k 1 $HANG_SECONDS "$ENGINE" datagen --read "$tmp/d.games" >"$tmp/d.txt" 2>/dev/null
xz -k "$tmp/d.games" "$tmp/d.txt" 2>/dev/null
for form in d.games d.games.xz d.txt.xz; do
  mkdir -p "$tmp/f-$form"
  (cd "$tmp/f-$form" && timeout -k 1 $HANG_SECONDS "$OLDPWD/tools/train" --data "$tmp/$form" --out nnue.h --epochs 1 --batch 64 \
    --hidden 16 --seed 3 >"$tmp/f-$form.log" 2>&1)
done
# positions LOG: the training and validation positions the trainer read, added
positions() { sed -n 's/^\([0-9]*\) training and \([0-9]*\) validation positions.*/\1 + \2/p' "$1" | bc; }
# the limit takes the first game (its lines until the move number falls or the result changes, as
# the trainer cuts them; its length is the search's) and 20 lines of the second, the one held out
first_game=$(awk -F' [|] ' '{ split($1, f, " ") } NR > 1 && ($3 != r || f[6] + 0 < m) { print NR - 1; exit } { r = $3; m = f[6] + 0 }' "$tmp/d.txt")
limit=$((first_game + 20))
(cd "$tmp/f-d.txt.xz" && timeout -k 1 $HANG_SECONDS "$OLDPWD/tools/train" --data "$tmp/d.txt.xz" --limit $limit --hold-out 2 --out limit.h \
  --epochs 0 --hidden 16 >"$tmp/limit.log" 2>&1); status=$?
check '[ $status -eq 0 ] && grep -q "$limit lines, $limit positions" "$tmp/limit.log" && [ $limit -lt $(wc -l <"$tmp/d.txt") ]' \
  "train --limit stops reading an xz file early, which is no error: $(tail -1 "$tmp/limit.log")"
check '[ -s "$tmp/f-d.games/nnue.h" ] && cmp -s <(weights "$tmp/f-d.games/nnue.h") <(weights "$tmp/f-d.games.xz/nnue.h") \
  && [ "$(positions "$tmp/f-d.games.log")" = "$(wc -l <"$tmp/d.txt")" ] && [ "$(positions "$tmp/f-d.txt.xz.log")" = "$(wc -l <"$tmp/d.txt")" ]' \
  "train reads game records, plain or xz, and lines through xz, each position once: $(tail -1 "$tmp/f-d.games.log")"
# --train-share: a share of the training games, the same held-out games (lines and records)
# counts LOG: "TRAINING VALIDATION", as the trainer read them
counts() { sed -n 's/^\([0-9]*\) training and \([0-9]*\) validation positions.*/\1 \2/p' "$1"; }
for form in d.txt.xz d.games; do
  for share in 1 0.5; do
    (cd "$tmp/f-$form" && timeout -k 1 $HANG_SECONDS "$OLDPWD/tools/train" --data "$tmp/$form" --train-share $share --hold-out 3 \
      --out share.h --epochs 0 --hidden 16 >"$tmp/share-$form-$share.log" 2>&1)
  done
  read -r all_train all_valid < <(counts "$tmp/share-$form-1.log"); read -r half_train half_valid < <(counts "$tmp/share-$form-0.5.log")
  check '[ -n "$all_train" ] && [ "$half_valid" = "$all_valid" ] && [ $((4 * half_train)) -gt $all_train ] \
    && [ $((4 * half_train)) -lt $((3 * all_train)) ] && grep -q "passed over" "$tmp/share-$form-0.5.log"' \
    "train --train-share 0.5 ($form): about half the training positions, the same held out ($all_train $all_valid, $half_train $half_valid)"
done
# --add: a file trained on whole beside a share of the others, their held-out games kept
(cd "$tmp/f-d.games" && timeout -k 1 $HANG_SECONDS "$OLDPWD/tools/train" --data "$tmp/d.games" --add "$tmp/d.txt.xz" \
  --train-share 0.5 --hold-out 3 --out add.h --epochs 0 --hidden 16 >"$tmp/add.log" 2>&1)
read -r half_train half_valid < <(counts "$tmp/share-d.games-0.5.log"); read -r add_train add_valid < <(counts "$tmp/add.log")
check '[ -n "$add_train" ] && [ "$add_valid" = "$half_valid" ] && [ "$add_train" = $((half_train + $(wc -l <"$tmp/d.txt"))) ] \
  && grep -q "d.txt.xz: .* all trained on (--add)" "$tmp/add.log" && grep -q "^ \* Command: .* --add d.txt.xz" "$tmp/f-d.games/add.h"' \
  "train --add: every line of the added file trained on, the other file's share and held-out games as before ($half_train $half_valid, $add_train $add_valid)"
sha=$(sha256sum "$tmp/d.games.xz" | cut -d' ' -f1); lines_sha=$(sha256sum <"$tmp/d.txt" | cut -d' ' -f1)
check 'grep -q "^ \* Data: d.games.xz, SHA-256 $sha, lines SHA-256 $lines_sha, [0-9]* positions$" "$tmp/f-d.games.xz/nnue.h" \
  && grep -q "^ \* Data: d.txt.xz, SHA-256 [0-9a-f]*, lines SHA-256 $lines_sha, " "$tmp/f-d.txt.xz/nnue.h" && ! sed -n "1,/\*\//p" "$tmp/f-d.games.xz/nnue.h" | grep -q "$tmp"' \
  "train names its data by base name, SHA-256 and the SHA-256 of its lines (those of --read), and no folder of this machine: $(grep -m2 "Command\|Data" "$tmp/f-d.games.xz/nnue.h")"
# lineage by content: the lines packed (datagen --pack) give the network of their text, byte for
# byte, under the same lines SHA-256; --lineage TABLE takes a file of the stem a Data line names
# when it gives that line's lines, and refuses one that does not (nothing written)
mkdir -p "$tmp/packed" "$tmp/other" "$tmp/f-packed"
timeout -k 1 $HANG_SECONDS "$ENGINE" datagen --pack "$tmp/d.txt" --out "$tmp/packed/d.games" 2>/dev/null
(cd "$tmp/f-packed" && timeout -k 1 $HANG_SECONDS "$OLDPWD/tools/train" --data "$tmp/packed/d.games" --out nnue.h --epochs 1 --batch 64 \
  --hidden 16 --seed 3 --lineage "$tmp/f-d.txt.xz/nnue.h" >"$tmp/f-packed.log" 2>&1); status=$?
check '[ $status -eq 0 ] && cmp -s <(weights "$tmp/f-d.txt.xz/nnue.h") <(weights "$tmp/f-packed/nnue.h") \
  && grep -q "^ \* Data: d.games, SHA-256 [0-9a-f]*, lines SHA-256 $lines_sha, " "$tmp/f-packed/nnue.h"' \
  "train on the lines packed gives the network of their text, their lines named the same (status $status): $(grep -m1 Data "$tmp/f-packed/nnue.h")"
check 'grep -q "^d.games: the same lines, as .* names d.txt.xz" "$tmp/f-packed.log" && ! grep -q -- "--lineage" "$tmp/f-packed/nnue.h"' \
  "train --lineage: a packed file stands for the text a Data line names, and the Command line leaves the check out: $(grep "same lines" "$tmp/f-packed.log")"
head -60 "$tmp/d.txt" >"$tmp/other/d.txt"
(cd "$tmp/f-packed" && timeout -k 1 $HANG_SECONDS "$OLDPWD/tools/train" --data "$tmp/other/d.txt" --out other.h --epochs 0 \
  --hidden 16 --lineage "$tmp/f-d.txt.xz/nnue.h" >/dev/null 2>"$tmp/lineage.err"); status=$?
check '[ $status -eq 1 ] && [ "$(wc -l <"$tmp/lineage.err")" = 1 ] && grep -q "d.txt is not the data .* names as d.txt.xz: lines SHA-256" "$tmp/lineage.err" \
  && [ ! -e "$tmp/f-packed/other.h" ]' "train --lineage refuses a file of that stem with other lines, writing nothing: $(cat "$tmp/lineage.err")"
check 'make -s -n train | grep -q -- "--lineage tables/nnue.h" && ! make -s -n train LINEAGE= | grep -q -- "--lineage"' \
  "make train checks the data against tables/nnue.h's Data lines (--lineage), and not with LINEAGE="
timeout -k 1 $HANG_SECONDS ./tools/train --data "$tmp/missing.txt" --out "$tmp/m.h" >/dev/null 2>"$tmp/m.err"; status=$?
check '[ $status -ne 0 ] && grep -q "cannot read" "$tmp/m.err" && [ ! -e "$tmp/m.h" ] && [ ! -e "$tmp/m-shape.h" ]' \
  "train: a missing file is an error and writes nothing: $(cat "$tmp/m.err")"

echo "-- bad data"
{ head -50 "$DATA"
  echo "not a fen | 10 | 1.0"
  echo "8/8/8/8/8/8/8/K6k w - - 0 1 | 10"
  echo "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | ten | 0.5"
  echo "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 10 | 2.0"
  echo ""
  tail -50 "$DATA"; } >"$tmp/bad.txt"
timeout -k 1 $HANG_SECONDS ./tools/tune --data "$tmp/bad.txt" --epochs 2 --out "$tmp/bad.h" >"$tmp/bad.out" 2>"$tmp/bad.err"; status=$?
check '[ $status -eq 0 ] && grep -q "104 lines, 100 positions, 4 malformed" "$tmp/bad.out"' \
  "malformed lines are counted and skipped (status $status): $(head -1 "$tmp/bad.out")"
check '[ "$(grep -c warning "$tmp/bad.err")" = 1 ] && grep -q "line 51" "$tmp/bad.err"' \
  "one warning names the first malformed line: $(cat "$tmp/bad.err")"
timeout -k 1 $HANG_SECONDS ./tools/tune --data "$tmp/missing.txt" --out "$tmp/m.h" >/dev/null 2>"$tmp/m.err"; status=$?
check '[ $status -ne 0 ] && grep -q "cannot read" "$tmp/m.err" && [ ! -e "$tmp/m.h" ] && [ ! -e "$tmp/m.h.tmp" ]' \
  "a missing file is an error and writes nothing: $(cat "$tmp/m.err")"
: >"$tmp/empty.txt"
timeout -k 1 $HANG_SECONDS ./tools/tune --data "$tmp/empty.txt" --out "$tmp/e.h" >/dev/null 2>"$tmp/e.err"; status=$?
check '[ $status -ne 0 ] && grep -q "no position" "$tmp/e.err" && [ ! -e "$tmp/e.h" ]' \
  "an empty file is an error: $(cat "$tmp/e.err")"
timeout -k 1 $HANG_SECONDS ./tools/tune --data "$DATA" --epochs x --out "$tmp/u.h" >/dev/null 2>"$tmp/u.err"; status=$?
check '[ $status -eq 2 ] && [ "$(grep -c "" "$tmp/u.err")" = 1 ]' "a bad option is a usage error: $(cat "$tmp/u.err")"

echo "-- spsa"
# tools/spsa.mjs, two iterations of one pair at 500 nodes: every parameter comes back inside its
# range, the same seed gives the same values (the games at fixed nodes are deterministic), and
# --tune moves only the parameters it names
REFEREE=${REFEREE:-$(cd "$(dirname "$0")/../.." && pwd)/shared/referee}
run_spsa() { timeout -k 1 $HANG_SECONDS node tools/spsa.mjs --engine "$ENGINE" --iterations 2 --pairs 1 --nodes 500 \
  --r-end 0.5 --referee "$REFEREE" --openings "$tmp/openings.epd" "$@"; }
printf '%s\n' "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -" \
  "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -" "rnbqkbnr/pppp1ppp/8/4p3/2P5/8/PP1PPPPP/RNBQKBNR w KQkq -" >"$tmp/openings.epd"
if ! command -v node >/dev/null || [ ! -d "$REFEREE/node_modules/chess.js" ]; then
  echo "SKIP spsa: no node, or no referee with its node_modules at $REFEREE"; skipped=$((skipped + 8))
else
  run_spsa --seed 3 >"$tmp/spsa.log" 2>&1; status=$?
  found=$(tail -1 "$tmp/spsa.log")
  in_range=1
  while read -r name value min max step; do
    v=$(printf '%s\n' "$found" | tr ' ' '\n' | sed -n "s/^$name=//p")
    if [ -z "$v" ] || [ "$v" -lt "$min" ] || [ "$v" -gt "$max" ]; then in_range=0; fi
  done < <("$ENGINE" params)
  check '[ $status -eq 0 ] && grep -q "^spsa: 4 games" "$tmp/spsa.log" && [ $in_range = 1 ]' \
    "spsa: four games, every parameter in its range (status $status): $(tail -3 "$tmp/spsa.log")"
  run_spsa --seed 3 >"$tmp/spsa2.log" 2>&1; status=$?
  check '[ $status -eq 0 ] && cmp -s "$tmp/spsa.log" "$tmp/spsa2.log"' "spsa: the same seed gives the same run (status $status)"
  run_spsa --seed 3 --iterations 1 --tune rfp_margin,lmr_base >"$tmp/spsa3.log" 2>&1; status=$?
  check '[ $status -eq 0 ] && tail -1 "$tmp/spsa3.log" | grep -Eqx -- "--param rfp_margin=[0-9]+ --param lmr_base=[0-9]+"' \
    "spsa: --tune moves only the parameters named (status $status): $(tail -1 "$tmp/spsa3.log")"
  # a run kept in a state file, stopped after its first iteration and taken up again with no
  # other option, ends as the run in one go did; the file refuses another run's options
  # resume_spsa: goes on with the run in the state file, with no option of its own
  resume_spsa() { timeout -k 1 $HANG_SECONDS node tools/spsa.mjs --engine "$ENGINE" --referee "$REFEREE" \
    --openings "$tmp/openings.epd" --state "$tmp/spsa.json" "$@"; }
  run_spsa --seed 3 --state "$tmp/spsa.json" --until 1 >"$tmp/spsa4.log" 2>&1; status=$?
  resume_spsa >"$tmp/spsa5.log" 2>&1; status2=$?
  check '[ $status -eq 0 ] && [ $status2 -eq 0 ] && grep -q "the values at iteration 1 of 2" "$tmp/spsa4.log" \
    && [ "$(tail -1 "$tmp/spsa5.log")" = "$found" ] && [ "$(grep "^iteration 2" "$tmp/spsa5.log")" = "$(grep "^iteration 2" "$tmp/spsa.log")" ]' \
    "spsa: a run taken up from its state file ends as the run in one go (status $status, $status2): $(tail -2 "$tmp/spsa5.log")"
  resume_spsa --until 1 >"$tmp/spsa6.log" 2>&1; status=$?
  check '[ $status -eq 0 ] && [ "$(tail -1 "$tmp/spsa6.log")" = "$(tail -1 "$tmp/spsa4.log")" ] && ! grep -q "^iteration" "$tmp/spsa6.log"' \
    "spsa: --until before the file's last iteration replays it, playing nothing (status $status): $(tail -2 "$tmp/spsa6.log")"
  run_spsa --seed 4 --state "$tmp/spsa.json" >/dev/null 2>"$tmp/spsa.err"; status=$?
  check '[ $status -eq 2 ] && [ "$(grep -c "" "$tmp/spsa.err")" = 1 ] && grep -q "holds a run with --seed 3" "$tmp/spsa.err"' \
    "spsa: a state file refuses another run's options in one line: $(cat "$tmp/spsa.err")"
  run_spsa --until 1 >/dev/null 2>"$tmp/spsa.err"; status=$?
  check '[ $status -eq 2 ] && grep -q "needs --state" "$tmp/spsa.err"' "spsa: --until without --state is a usage error: $(cat "$tmp/spsa.err")"
  run_spsa --tune rfp_margin,nowhere >/dev/null 2>"$tmp/spsa.err"; status=$?
  check '[ $status -eq 2 ] && [ "$(grep -c "" "$tmp/spsa.err")" = 1 ] && grep -q "no parameter nowhere" "$tmp/spsa.err"' \
    "spsa: --tune with an unknown name is a usage error in one line: $(cat "$tmp/spsa.err")"
fi
if command -v node >/dev/null; then
  node tools/spsa.mjs --engine "$ENGINE" --referee "$tmp/nowhere" >/dev/null 2>"$tmp/spsa.err"; status=$?
  check '[ $status -eq 2 ] && [ "$(grep -c "" "$tmp/spsa.err")" = 1 ] && grep -q "no referee" "$tmp/spsa.err"' \
    "spsa: no referee is a usage error in one line: $(cat "$tmp/spsa.err")"
  node tools/spsa.mjs --iterations 0 >/dev/null 2>"$tmp/spsa.err"; status=$?
  check '[ $status -eq 2 ] && grep -q "positive whole number" "$tmp/spsa.err"' "spsa: a bad option is a usage error: $(cat "$tmp/spsa.err")"
else
  skipped=$((skipped + 2))
fi

echo "$pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ]
