#!/usr/bin/env bash
# tests/manual/uci-game.sh [ENGINE]: the engine in real games, refereed by ../shared/referee
# (chess.js judges every move): two short games in UCI mode (0.05 s a move, at most 160
# plies) against a Debian engine, then, if PolyGlot is installed, one short game in xboard
# mode through PolyGlot (1 s a move, at most 24 plies). Passes when the engine never
# forfeits (illegal move, timeout, crash). Needs node, the referee and one of glaurung,
# toga2, stockfish, gnuchess; without them it says what is missing and ends
# "0 passed, 0 failed, 1 skipped". Ends with "N passed, N failed, N skipped" (the xboard game's
# 3 checks skipped without PolyGlot).
set -u
ENGINE=$(cd "$(dirname "${1:-./engine}")" && pwd)/$(basename "${1:-./engine}")
REFEREE=${REFEREE:-$(cd "$(dirname "$0")/../../.." && pwd)/shared/referee}
OPENINGS=${OPENINGS:-$REFEREE/openings-sample.epd}
POLYGLOT=${POLYGLOT:-/usr/games/polyglot}
pass=0; fail=0; skipped=0
skip() { echo "SKIP uci-game: $*"; echo "0 passed, 0 failed, 1 skipped"; exit 0; }
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

command -v node >/dev/null || skip "node is not installed"
[ -f "$REFEREE/referee.mjs" ] || skip "no referee at $REFEREE (set REFEREE=...)"
[ -d "$REFEREE/node_modules/chess.js" ] || skip "the referee's node_modules are missing (npm ci in $REFEREE)"
opponent=""
for spec in "uci:/usr/games/glaurung?Threads=1" "uci:/usr/games/toga2" "uci:/usr/games/stockfish?Skill Level=0" \
            "uci:/usr/games/gnuchess --uci"; do
  path=${spec#uci:}; path=${path%%\?*}; path=${path%% *}
  if [ -x "$path" ]; then opponent=$spec; break; fi
done
[ -n "$opponent" ] || skip "no UCI opponent in /usr/games (apt-get install glaurung)"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# play NAME SPEC SECONDS GAMES MAXPLIES: a match of SPEC against the opponent; checks that
# all games were played, that SPEC moved, and that it never forfeited.
play() {
  local name=$1 spec=$2 summary games forfeits moves
  node "$REFEREE/referee.mjs" match --a "$spec" --b "$opponent" --time "$3" --games "$4" \
    --maxplies "$5" --openings "$OPENINGS" --json "$tmp/$name.json" >"$tmp/$name.out" 2>&1
  cat "$tmp/$name.out"
  summary=$(node -e '
    const j = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const f = j.summary.forfeits.A || {};
    console.log(j.games.length, Object.values(f).reduce((a, b) => a + b, 0), j.summary.timing.A.moves);
  ' "$tmp/$name.json" 2>/dev/null) || summary=""
  read -r games forfeits moves <<<"${summary:-0 -1 0}"
  if [ "$games" -eq "$4" ]; then ok; else bad "$name: expected $4 games, got $games"; fi
  if [ "$forfeits" -eq 0 ]; then ok; else bad "$name: the engine forfeited ($forfeits)"; fi
  if [ "$moves" -ge 5 ]; then ok; else bad "$name: the engine played only $moves moves"; fi
}

play uci "uci:$ENGINE?name=engine" 0.05 2 160

# PolyGlot reads xboard's st in whole seconds, hence 1 s a move (docs/uci.md, PolyGlot).
if [ -x "$POLYGLOT" ]; then
  printf '%s\n' "[PolyGlot]" "EngineName = Boxer" "EngineDir = $(dirname "$ENGINE")" \
    "EngineCommand = ./$(basename "$ENGINE")" "Book = false" "Resign = false" "Log = false" \
    "" "[Engine]" "Hash = 32" "Move Overhead = 30" >"$tmp/boxer.ini"
  play polyglot "xboard:$POLYGLOT $tmp/boxer.ini?name=engine-polyglot" 1 1 24
else
  echo "SKIP the xboard game (3 checks): no PolyGlot at $POLYGLOT (apt-get install polyglot)"
  skipped=$((skipped + 3))
fi
echo "$pass passed, $fail failed, $skipped skipped"
[ $fail -eq 0 ]
