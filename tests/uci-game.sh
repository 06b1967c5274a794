#!/usr/bin/env bash
# tests/uci-game.sh [ENGINE]: two short games (0.05 s a move, at most 160 plies) between
# the engine in UCI mode and a Debian UCI engine, refereed by ../shared/referee (chess.js
# judges every move). Passes when the engine never forfeits (illegal move, timeout, crash).
# Needs node, the referee and one of glaurung, toga2, stockfish, gnuchess; without them it
# says what is missing and ends "0 passed, 0 failed". Ends with "N passed, N failed".
set -u
ENGINE=$(cd "$(dirname "${1:-./engine}")" && pwd)/$(basename "${1:-./engine}")
REFEREE=${REFEREE:-$(cd "$(dirname "$0")/../.." && pwd)/shared/referee}
OPENINGS=${OPENINGS:-$REFEREE/openings-sample.epd}
pass=0; fail=0
skip() { echo "SKIP uci-game: $*"; echo "0 passed, 0 failed"; exit 0; }

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
node "$REFEREE/referee.mjs" match --a "uci:$ENGINE?name=engine" --b "$opponent" --time 0.05 --games 2 \
  --maxplies 160 --openings "$OPENINGS" --json "$tmp/match.json" >"$tmp/out" 2>&1
cat "$tmp/out"
summary=$(node -e '
  const j = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const f = j.summary.forfeits.A || {};
  console.log(j.games.length, Object.values(f).reduce((a, b) => a + b, 0), j.summary.timing.A.moves);
' "$tmp/match.json" 2>/dev/null) || summary=""
read -r games forfeits moves <<<"${summary:-0 -1 0}"
if [ "$games" -eq 2 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL expected 2 games, got $games"; fi
if [ "$forfeits" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL the engine forfeited ($forfeits)"; fi
if [ "$moves" -gt 10 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL the engine played only $moves moves"; fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
