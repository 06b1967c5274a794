#!/usr/bin/env bash
# tools/sprt.sh BASE [NODES GAMES ELO0 ELO1 CONCURRENCY OPENINGS]: `make sprt`. Builds git
# revision BASE in a temporary directory (removed at the end), then plays the working tree's
# ./engine against it, the base speaking UCI, at NODES nodes a move, both colours of each
# opening, until the SPRT of ELO0 against ELO1 has its verdict or GAMES games are played.
# The last lines are the match's: score, Elo with its 95% margin, and the verdict.
set -eu
if [ $# -lt 1 ] || [ -z "$1" ]; then
  echo "error: usage: make sprt BASE=<git revision> [NODES=20000] [GAMES=20000] [ELO0=0] [ELO1=5] [CONCURRENCY=2] [OPENINGS=FILE]" >&2
  exit 2
fi
base=$1 nodes=${2:-20000} games=${3:-20000} elo0=${4:-0} elo1=${5:-5} concurrency=${6:-2}
openings=${7:-../shared/data/openings.epd}
root=$(git rev-parse --show-toplevel)
commit=$(git -C "$root" rev-parse --verify -q "$base^{commit}") || { echo "error: '$base' is not a git revision" >&2; exit 2; }
[ -r "$openings" ] || { echo "error: cannot read the openings file $openings" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/boxer-sprt.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

git -C "$root" archive "$commit" | tar -x -C "$tmp"
# the base's own Makefile, else the plain build every revision promises
make -s -C "$tmp" engine >/dev/null 2>&1 || ${CC:-cc} -std=c99 -O2 "$tmp"/engine.c "$tmp"/movement.c "$tmp"/extra.c -o "$tmp/engine"
make -s -C "$root" engine
echo "sprt: working tree ($(git -C "$root" describe --always --dirty)) against $base (${commit:0:10}): bench $("$root/engine" bench 2>/dev/null) against $("$tmp/engine" bench 2>/dev/null), $nodes nodes a move" >&2
"$root/engine" match --opponent "$tmp/engine" --nodes "$nodes" --games "$games" --concurrency "$concurrency" \
  --openings "$openings" --sprt "$elo0,$elo1"
