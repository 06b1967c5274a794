#!/usr/bin/env bash
# tests/cli.sh: the command-line contract of ./engine (one-shot answers, exit statuses,
# warnings, options, perft/eval/bench subcommands). Usage: tests/cli.sh [ENGINE]. A call
# still running after HANG_SECONDS (30; 300 in a sanitizer build) is a hang: it fails, and the script stops there.
# Ends with "N passed, N failed".
set -u
ENGINE=${1:-./engine}
pass=0; fail=0
HANG_SECONDS=30   # no call here takes more than 10 s in a release build
# A sanitizer build searches some forty times slower: its genfens of 20 openings took over 30 s
# on a loaded machine, so a hang there is a call past five minutes.
grep -q __asan_init "$ENGINE" 2>/dev/null && HANG_SECONDS=300
START="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
HANDOUT="a3 a4 b3 b4 c3 c4 d3 d4 e3 e4 f3 f4 g3 g4 h3 h4 Na3 Nc3 Nf3 Nh3"
MATE1="6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

# run ARGS...: sets out, err, status. A hang fails and ends the script.
run() {
  timeout -k 1 "$HANG_SECONDS" "$ENGINE" "$@" >"$tmp/out" 2>"$tmp/err"; status=$?
  if [ $status -eq 124 ] || [ $status -eq 137 ]; then
    bad "the engine hung: no exit within $HANG_SECONDS s for: $*; stopping here"
    echo "$pass passed, $fail failed"
    exit 1
  fi
  out=$(cat "$tmp/out"); err=$(cat "$tmp/err")
}

# expect_index N_MOVES ARGS...: a valid index, exit 0, nothing else on stdout
expect_index() {
  local n=$1; shift; run "$@"
  if [ $status -eq 0 ] && [[ "$out" =~ ^[0-9]+$ ]] && [ "$out" -lt "$n" ]; then ok; else
    bad "expected an index below $n for: $* (status $status, out '$out', err '$err')"; fi
}

# expect_clean N_MOVES ARGS...: as expect_index, and nothing on stderr: every token parsed
expect_clean() {
  local n=$1; shift; run "$@"
  if [ $status -eq 0 ] && [[ "$out" =~ ^[0-9]+$ ]] && [ "$out" -lt "$n" ] && [ -z "$err" ]; then ok; else
    bad "expected an index below $n and no warning for: $* (status $status, out '$out', err '$err')"; fi
}

# expect_choice INDEX ARGS...
expect_choice() {
  local want=$1; shift; run "$@"
  if [ $status -eq 0 ] && [ "$out" = "$want" ]; then ok; else
    bad "expected index $want for: $* (status $status, out '$out', err '$err')"; fi
}

# expect_error STATUS WORD ARGS...: that status, one line on stderr containing WORD, empty stdout
expect_error() {
  local want=$1 word=$2; shift 2; run "$@"
  local lines; lines=$(printf '%s' "$err" | grep -c '')
  if [ $status -eq "$want" ] && [ -z "$out" ] && [ "$lines" -eq 1 ] && grep -qi -- "$word" "$tmp/err"; then ok; else
    bad "expected exit $want with one line about '$word' for: $* (status $status, out '$out', err '$err')"; fi
}

# The handout example.
expect_index 20 "$START" "$HANDOUT" 3

# Mate in one, with and without check marks, in any order.
expect_choice 1 "$MATE1" "Kf1 Rd8# h3 g3" 0.3
expect_choice 1 "$MATE1" "Kf1 Rd8 h3 g3" 0.3
expect_choice 3 "$MATE1" "h4 g4 Rd2 Rd8" 0.3
expect_choice 0 "$MATE1" "Rd8# Rd2 Rd3 Rd4 Rd5 Rd6 Rd7 Rc1 Rb1 Ra1 Re1 Rf1 Kf1 h3 h4 g3 g4 f3 f4" 0.3
expect_choice 2 "$MATE1" "Kf1 h3 d1d8 g3" 0.3
# Black to move, mate along the back rank.
expect_choice 2 "3r2k1/8/8/8/8/8/5PPP/6K1 b - - 0 1" "Kf8 Rd7 Rd1# Rd2" 0.3
# Mate in one found when the list is shuffled and carries only some moves.
expect_choice 0 "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4" "Qxf7# Qh4 Nc3 a3" 0.5

# A timed call ends once its answer cannot change (docs/command-line.md#time): a mate for the side
# to move in fewer moves than the depth, three iterations in a row. At 86400 s a mate in 3 ends
# at depth 6 or so (the last --verbose line), where --depth and --nodes searches go on (to the
# depth asked, or to the rule every search keeps: twice the mate's plies and 4 more, 14).
MATE3="2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1"
# last_depth: the depth and score of the last iteration --verbose reported
last_depth() { grep '^depth' "$tmp/err" | grep -v bound | tail -1 | awk '{ print $2, $4, $5 }'; }
run --verbose "$MATE3" "Kg7 Qg6+ Rc4 Qxb3 a6" 86400
read -r depth kind moves < <(last_depth)
if [ $status -eq 0 ] && [ "$out" = 1 ] && [ "$kind $moves" = "mate 3" ] && [ "$depth" -le 8 ]; then ok; else
  bad "a mate in 3 at 86400 s ends at once with Qg6+: status $status, out '$out', last iteration '$depth $kind $moves'"; fi
run --verbose --depth 10 "$MATE3" "Kg7 Qg6+ Rc4 Qxb3 a6" 86400
read -r depth kind moves < <(last_depth)
if [ $status -eq 0 ] && [ "$out" = 1 ] && [ "$depth" = 10 ]; then ok; else
  bad "--depth 10 searches its 10 plies though the mate is settled: status $status, out '$out', last depth $depth"; fi
run --verbose --nodes 1000000 "$MATE3" "Kg7 Qg6+ Rc4 Qxb3 a6" 86400
read -r depth kind moves < <(last_depth)
if [ $status -eq 0 ] && [ "$out" = 1 ] && [ "$depth" -gt 8 ]; then ok; else
  bad "--nodes searches on though the mate is settled: status $status, out '$out', last depth $depth"; fi
# King and rook against a king at 86400 s: the answer (a mating line) within 10 s, where the
# search went on for the day before. Release builds: a sanitizer build searches it some forty
# times slower, so there it is not run (nor counted).
KRK="8/8/8/4k3/8/8/8/R3K3 w - - 0 1"
if grep -q __asan_init "$ENGINE" 2>/dev/null; then
  echo "not applicable: king and rook against a king at 86400 s within 10 s, in a sanitizer build"
else
  t0=${EPOCHREALTIME/./}
  run --verbose "$KRK" "Ra2 Ra3 Ra4 Ra5+ Ra6 Ra7 Ra8 Rb1 Rc1 Rd1 Kd1 Kd2 Ke2 Kf2 Kf1" 86400
  ms=$(((${EPOCHREALTIME/./} - t0) / 1000))
  read -r depth kind moves < <(last_depth)
  if [ $status -eq 0 ] && [[ "$out" =~ ^[0-9]+$ ]] && [ "$out" -lt 15 ] && [ "$kind" = mate ] && [ "$moves" -gt 0 ] && [ "$ms" -le 10000 ]; then ok; else
    bad "king and rook against a king at 86400 s answers a mate within 10 s: status $status, out '$out', $ms ms, last iteration '$depth $kind $moves'"; fi
fi

# Tolerant forms: any index is fine, but every token parses (a token that does not is named
# in a warning).
expect_clean 2 "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1" "0-0 Kd1" 0.2
expect_clean 2 "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1" "0-0-0 O-O" 0.2
# Chess960 castling: X-FEN's KQkq (the outermost rooks, the king off the e-file) and
# Shredder-FEN's file letters name the same rights, and O-O / O-O-O the castlings.
expect_clean 2 "bq2rkrn/pppppppp/8/8/8/8/PPPPPPPP/BQ2RKRN w KQkq - 0 1" "O-O O-O-O" 0.2
expect_clean 2 "bq2rkrn/pppppppp/8/8/8/8/PPPPPPPP/BQ2RKRN w GEge - 0 1" "O-O O-O-O" 0.2
run d "bq2rkrn/pppppppp/8/8/8/8/PPPPPPPP/BQ2RKRN w GEge - 0 1"
if grep -q '^fen bq2rkrn/pppppppp/8/8/8/8/PPPPPPPP/BQ2RKRN w KQkq - 0 1$' "$tmp/out"; then ok; else
  bad "Shredder-FEN GEge is written back as X-FEN KQkq: $out"; fi
expect_clean 3 "$START" "e2e4 g1f3 Ng1h3" 0.2

# Deterministic limits: the same answer twice.
run --depth 6 "$START" "$HANDOUT" 5; first=$out
run --depth 6 "$START" "$HANDOUT" 5
if [ $status -eq 0 ] && [ "$out" = "$first" ]; then ok; else bad "--depth 6 not deterministic ($first vs $out)"; fi
run --nodes 20000 "$START" "$HANDOUT" 5; first=$out
run --nodes 20000 "$START" "$HANDOUT" 5
if [ $status -eq 0 ] && [ "$out" = "$first" ]; then ok; else bad "--nodes not deterministic ($first vs $out)"; fi
run --verbose --depth 4 "$START" "$HANDOUT" 5
if [ $status -eq 0 ] && [ "$(printf '%s\n' "$err" | grep -c '^depth')" -ge 4 ] && grep -q 'pv ' "$tmp/err"; then ok; else
  bad "--verbose prints one line per iteration (err '$err')"; fi

# Illegal tokens: one warning naming them, never chosen, the legal ones still played.
run "$MATE1" "Zz9 Rd8 Qh5 e4" 0.3
if [ $status -eq 0 ] && [ "$out" = 1 ] && [ "$(printf '%s\n' "$err" | grep -c '')" -eq 1 ] \
   && grep -q "Zz9" "$tmp/err" && grep -q "Qh5" "$tmp/err" && grep -q "e4" "$tmp/err"; then ok; else
  bad "illegal tokens: status $status out '$out' err '$err'"; fi
run "$START" "e5 e4 e4" 0.2
if [ $status -eq 0 ] && [ "$out" = 1 ] && grep -q "twice" "$tmp/err"; then ok; else bad "duplicates: '$out' '$err'"; fi

# Exit statuses with real bad input.
expect_error 2 "expected 3 arguments" "$START" "e4"
expect_error 2 "expected 3 arguments" "$START" "e4" 1 extra
expect_error 2 "time" "$START" "e4" abc
expect_error 2 "time" "$START" "e4" 0
expect_error 2 "time" "$START" "e4" -1
expect_error 2 "time" "$START" "e4" ""
expect_error 2 "time" "$START" "e4" 1e3
# Whitespace around the time is ignored (as shell variables and files give it); inside it is not.
expect_index 20 "$START" "$HANDOUT" " 0.2 "
expect_index 20 "$START" "$HANDOUT" $'0.2\n'
expect_index 20 "$START" "$HANDOUT" $'\t0.2\r'
expect_error 2 "time" "$START" "e4" " "
expect_error 2 "time" "$START" "e4" "1 2"
expect_error 2 "time" "$START" "e4" $'1\n2'
expect_error 2 "time" "$START" "e4" " +1"
expect_error 2 "option" --frobnicate "$START" "e4" 1
expect_error 2 "depth" --depth 0 "$START" "e4" 1
# The options of issue 25: threads, several lines, levels; each still answers an index.
expect_index 20 --threads 2 "$START" "$HANDOUT" 0.2
expect_index 20 --multipv 3 "$START" "$HANDOUT" 0.2
run --multipv 3 --verbose --depth 6 "$START" "$HANDOUT" 5
if [ $status -eq 0 ] && [[ "$out" =~ ^[0-9]+$ ]] && [ "$(grep -c '^depth  6  line [123] ' "$tmp/err")" -ge 3 ]; then ok; else
  bad "--multipv 3 --verbose: an index, and three lines at depth 6 (status $status, out '$out'): $(tail -3 "$tmp/err")"; fi
expect_index 20 --level 0 "$START" "$HANDOUT" 0.2
expect_choice 0 --level 0 "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1" "Rxd5 Kd1 Rc2" 1
# A level is weaker by its node cap (LEVEL_NODES in engine.c): level 0 stops at 50 nodes, after
# a ply at least, so a 5-second call answers at once after a few hundred (the last --verbose
# line's count); at full strength it would search for most of the 5 s. 1.5 s covers the start
# and exit of a sanitizer build on a loaded machine.
t0=${EPOCHREALTIME/./}
run --level 0 --verbose "$START" "$HANDOUT" 5
ms=$(((${EPOCHREALTIME/./} - t0) / 1000))
nodes=$(grep '^depth' "$tmp/err" | tail -1 | sed -n 's/.* nodes *\([0-9]*\) .*/\1/p')
if [ $status -eq 0 ] && [ -n "$nodes" ] && [ "$nodes" -le 1000 ] && [ "$ms" -le 1500 ]; then ok; else
  bad "--level 0 answers a 5-second call at once at its node cap: status $status, ${nodes:-no} nodes, $ms ms"; fi
expect_error 2 "nodes" --nodes x "$START" "e4" 1
expect_error 3 "fields" "not a fen" "e4" 1
expect_error 3 "kings" "8/8/8/8/8/8/8/8 w - - 0 1" "e4" 1
expect_error 3 "rank" "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1" "e4" 1
expect_error 3 "side" "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1" "e4" 1
expect_error 3 "check" "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1" "Kd1" 1
expect_error 4 "empty" "$START" "" 1
expect_error 4 "empty" "$START" "   " 1
expect_error 4 "legal" "$START" "e5 Nf6 xyz" 1
expect_error 4 "checkmate" "6k1/5ppp/8/8/8/8/5PPP/3r2K1 w - - 0 1" "Kf1" 1

# Search parameters (tools/spsa.mjs tunes them): `engine params` lists name, value, range and
# step, each value inside its range; --param sets one for the call, and the search then differs
# (each set to an end of its range, or else to the other: at depth 10 of one position an end
# may search what the value does, as aspiration windows from depth 2 instead of 5 did once
# the check extension went);
# a name, a value or a form that is wrong is a usage error naming it.
ITALIAN="r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
# every legal move, so that the root's own parameters (root_lmr_*) have late moves to act on
ITALIAN_MOVES="a3 a4 b3 b4 c3 c4 d3 d4 g3 g4 h3 h4 Nc3 Na3 Ng5 Nh4 Ng1 Nd4 Nxe5 Be2 Bd3 Bc4 Bb5 Ba6 Rg1 Qe2 Ke2"
run params
if [ $status -eq 0 ] && [ "$(grep -c '' "$tmp/out")" -ge 10 ] && awk 'NF != 5 || $2 < $3 || $2 > $4 || $3 >= $4 || $5 < 1 { exit 1 }' "$tmp/out"; then ok; else
  bad "params: name value min max step for each, value within range (status $status, out '$out')"; fi
# nodes_at_depth ARGS...: the node count of a --depth 10 search's last line at depth 10 (none
# if it stopped short); its time is never the bound (a sanitizer build on a loaded machine once
# stopped at depth 9 within 5 s, where no parameter had shown yet)
nodes_at_depth() { run --depth 10 --verbose "$@" "$ITALIAN" "$ITALIAN_MOVES" 600; awk '$1 == "depth" && $2 == 10 { n = $7 } END { print n }' "$tmp/err"; }
default_nodes=$(nodes_at_depth)
lmr_base=$("$ENGINE" params | awk '$1 == "lmr_base" { print $2 }')
if [ -n "$lmr_base" ] && [ "$(nodes_at_depth --param "lmr_base=$lmr_base")" = "$default_nodes" ] && [ -n "$default_nodes" ]; then ok; else
  bad "--param lmr_base=$lmr_base (its default) searched other than the default ($default_nodes nodes)"; fi
while read -r name value min max step; do
  shown=""   # an end of the range that searched otherwise: a step alone may not show at depth 10
  for end in "$min" "$max"; do
    if [ "$end" != "$value" ] && [ "$(nodes_at_depth --param "$name=$end")" != "$default_nodes" ]; then
      shown=$end; break; fi
  done
  if [ -n "$shown" ]; then ok; else
    bad "--param $name at $min and at $max searched the same $default_nodes nodes as $name=$value"; fi
  expect_error 2 "$name must be from $min to $max" --param "$name=$((max + 1))" "$START" "e4" 1
done < <("$ENGINE" params)
# docs/tuning.md's table names every parameter, and no other
here_dir=$(cd "$(dirname "$0")" && pwd)
listed=$("$ENGINE" params | awk '{ print $1 }' | sort)
documented=$(grep -oE '^\| `[a-z_]+`(, `[a-z_]+`)*' "$here_dir/../docs/tuning.md" | grep -oE '[a-z_]+' | sort)
if [ -n "$listed" ] && [ "$listed" = "$documented" ]; then ok; else
  bad "docs/tuning.md's table and ./engine params differ: $(diff <(echo "$listed") <(echo "$documented") | grep '^[<>]' | tr '\n' ' ')"; fi
expect_error 2 "no search parameter 'nonsense'" --param nonsense=3 "$START" "e4" 1
expect_error 2 "NAME=VALUE" --param lmr_base "$START" "e4" 1
expect_error 2 "NAME=VALUE" --param lmr_base=3x "$START" "e4" 1
expect_error 2 "NAME=VALUE" --param "$START" "e4" 1

# Help: the overview and every mode's part (--help, help, -h); a mode's part alone (help MODE,
# MODE --help, MODE ... --help), for each mode of docs/command-line.md's table; an unknown mode
# a usage error. The help and docs/command-line.md name the same options, each one in both.
run --help; help_text=$out
if [ $status -eq 0 ] && grep -q "exit status" "$tmp/out" && grep -q -- "--depth" "$tmp/out" \
   && grep -q "^usage: engine datagen" "$tmp/out" && grep -q "genfens" "$tmp/out"; then ok; else bad "--help: status $status"; fi
for args in help -h; do
  run $args
  if [ $status -eq 0 ] && [ "$out" = "$help_text" ]; then ok; else bad "'$args' prints what --help does (status $status)"; fi
done
docs="$(dirname "$0")/../docs/command-line.md"
modes=$(sed -n 's/^| `\([a-z0-9]*\)` | .*/\1/p' "$docs")
if [ "$(wc -w <<<"$modes")" -ge 10 ]; then ok; else bad "docs/command-line.md's table of modes: '$modes'"; fi
for mode in $modes; do
  run help "$mode"; part=$out
  if [ $status -eq 0 ] && grep -q "^usage: engine" "$tmp/out" && [ ${#part} -lt ${#help_text} ] && [[ $help_text == *"$part"* ]]; then ok; else
    bad "help $mode: that mode's part of the help (status $status, '$(head -1 "$tmp/out")')"; fi
  case $mode in
    call) set -- --depth 3 --help ;;
    batch) set -- --batch --help ;;
    genfens) set -- "genfens 4 seed 1 book None" --help ;;
    match) set -- match --games 2 --help ;;
    *) set -- "$mode" --help ;;
  esac
  run "$@"
  if [ $status -eq 0 ] && [ "$out" = "$part" ]; then ok; else bad "'$*' prints what 'help $mode' does (status $status)"; fi
done
expect_error 2 "no mode 'castle'" help castle
expect_error 2 "usage" help match datagen
options() { grep -o -- '--[a-z][a-z0-9-]*' | sort -u; }
drift=$(diff <(options <<<"$help_text") <(options <"$docs"))
if [ -z "$drift" ] && [ "$(options <<<"$help_text" | wc -l)" -ge 25 ]; then ok; else
  bad "the help and docs/command-line.md name other options (< only in the help, > only in the page): $drift"; fi
# every option the README names is in the help, but for other programs' in its commands
# (GNU Chess's --uci, npm's --prefix)
missing=$(comm -23 <(options <"$(dirname "$0")/../README.md" | grep -vx -e --uci -e --prefix) <(options <<<"$help_text") | paste -sd ' ')
if [ -z "$missing" ]; then ok; else bad "options the README names and the help does not: $missing"; fi
run --version
if [ $status -eq 0 ] && [[ "$out" =~ [0-9]+\.[0-9]+ ]]; then ok; else bad "--version: '$out'"; fi
run perft 3
if [ $status -eq 0 ] && [ "$(tail -1 "$tmp/out")" = "nodes 8902" ] && [ "$(grep -c '' "$tmp/out")" -eq 21 ]; then ok; else bad "perft 3: $(tail -1 "$tmp/out")"; fi
run perft 2 "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
if [ $status -eq 0 ] && [ "$(tail -1 "$tmp/out")" = "nodes 2039" ] && grep -q '^O-O 43$' "$tmp/out"; then ok; else bad "perft kiwipete: $(tail -1 "$tmp/out")"; fi
expect_error 3 "fields" perft 2 "garbage"
run eval "$MATE1"
if [ $status -eq 0 ] && grep -q "^score" "$tmp/out" && grep -q "material" "$tmp/out"; then ok; else bad "eval: '$out'"; fi
run bench 6; first=$(tail -1 "$tmp/out" | cut -d' ' -f1-2)
run bench 6
if [ $status -eq 0 ] && [[ "$first" =~ ^[0-9]+\ nodes$ ]] && [ "$(tail -1 "$tmp/out" | cut -d' ' -f1-2)" = "$first" ]; then ok; else
  bad "bench not deterministic: '$first' vs '$(tail -1 "$tmp/out")'"; fi

# OpenBench's client reads the bench as it does (Client/bench.py): stdout and stderr together,
# from the last line up, every character other than a letter, digit or space made a space, the
# first `N nodes` or `nodes N` it meets and the first `N nps` or `nps N`.
openbench_read() {
  local line nodes='' nps=''
  while IFS= read -r line; do
    line=$(tr -c 'A-Za-z0-9 \n' ' ' <<<"$line")
    [ -z "$nodes" ] && nodes=$(grep -ioE '[0-9]+ +nodes|nodes +[0-9]+' <<<"$line" | head -1 | grep -oE '[0-9]+')
    [ -z "$nps" ] && nps=$(grep -ioE '[0-9]+ +nps|nps +[0-9]+' <<<"$line" | head -1 | grep -oE '[0-9]+')
  done < <(tac)
  echo "$nodes $nps"
}
got=$(timeout -k 1 "$HANG_SECONDS" "$ENGINE" bench 6 2>&1 | openbench_read)
if [[ "$got" =~ ^[0-9]+\ [0-9]+$ ]] && [ "${got% *}" = "${first% nodes}" ] && [ "${got#* }" -gt 0 ]; then ok; else
  bad "OpenBench reads the bench as '$got' (nodes, nps), the signature is '$first'"; fi

# genfens, as OpenBench's client asks for openings: N lines `info string genfens FEN`, each FEN
# a legal position with a move to play, the same for a seed, others for another, from a book.
genfens() { timeout -k 1 "$HANG_SECONDS" "$ENGINE" "genfens $1 seed $2 book $3" quit 2>"$tmp/err"; }
genfens 20 7 None >"$tmp/g1"; status=$?
genfens 20 7 None >"$tmp/g2"
genfens 20 8 None >"$tmp/g3"
if [ $status -eq 0 ] && [ "$(grep -c '^info string genfens ' "$tmp/g1")" = 20 ] && [ "$(wc -l <"$tmp/g1")" = 20 ]; then ok; else
  bad "genfens 20: status $status, $(wc -l <"$tmp/g1") lines: $(head -2 "$tmp/g1")"; fi
if cmp -s "$tmp/g1" "$tmp/g2" && ! cmp -s "$tmp/g1" "$tmp/g3" && [ "$(sort -u "$tmp/g1" | wc -l)" = 20 ]; then ok; else
  bad "genfens: the same seed gives the same 20 openings, all different; another seed others"; fi
legal=0
while read -r fen; do
  run d "$fen"; [ $status -eq 0 ] || { legal=1; echo "genfens gave a FEN the engine refuses: $fen"; }
done < <(sed 's/^info string genfens //' "$tmp/g1")
if [ $legal -eq 0 ]; then ok; else bad "genfens: a FEN that is not a legal position"; fi
printf 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n' >"$tmp/book.epd"
genfens 5 1 "$tmp/book.epd" >"$tmp/g4"; status=$?
if [ $status -eq 0 ] && [ "$(wc -l <"$tmp/g4")" = 5 ] && ! grep -v ' [wb] [-KQkq]* [-a-h36]* [0-9]* [34]$' "$tmp/g4" >/dev/null; then ok; else
  bad "genfens from a book of one opening at move 2: 5 openings at move 3 or 4 (status $status): $(head -2 "$tmp/g4")"; fi
for bad_command in "genfens 0 seed 1 book None" "genfens 5 seed x book None" "genfens 5 book None" "genfens 5 seed 1 book $tmp/none.epd"; do
  run "$bad_command" quit
  if [ $status -eq 2 ] && [ -z "$out" ] && [ "$(grep -c '^error: ' "$tmp/err")" = 1 ]; then ok; else
    bad "'$bad_command': status $status (want 2), one error line: $err"; fi
done

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
