#!/usr/bin/env bash
# tests/manual/referee-check.sh [ENGINE] [EVERY]: `../shared/referee check` (chess.js judges every
# answer) over every EVERY-th position of tests/data/check-positions.fen (default 25: 100 of the
# 2500), each in four variants: plain, shuffled move list, check marks stripped, both; 0.05 s
# a call. The referee judges every answer that comes within 1 s: a bad index, an illegal move,
# a bad exit status, a crash, and no answer within 1 s (a hang, twenty times the limit) fail. A
# valid answer later than 0.05 s (from before its process starts to its end) is an overrun:
# counted and shown with the load average, neither passed nor failed, and failed with
# STRICT_TIME=1 (tests/deadline.sh fails a one-shot call far over its limit; `make timing`
# measures the deadline). Skips without node or the referee. Ends with "N passed, N failed"
# (with ", 1 skipped" when it skips).
set -u
ENGINE=$(cd "$(dirname "${1:-./engine}")" && pwd)/$(basename "${1:-./engine}")
EVERY=${2:-25}
LIMIT=0.05
TOLERANCE_MS=950   # the referee judges answers up to LIMIT and this, and kills at 1 s more
REFEREE=${REFEREE:-$(cd "$(dirname "$0")/../../.." && pwd)/shared/referee}
tests=$(cd "$(dirname "$0")/.." && pwd)
skip() { echo "SKIP referee-check: $*"; echo "0 passed, 0 failed, 1 skipped"; exit 0; }
command -v node >/dev/null || skip "node is not installed"
[ -f "$REFEREE/referee.mjs" ] || skip "no referee at $REFEREE (set REFEREE=...)"
[ -d "$REFEREE/node_modules/chess.js" ] || skip "the referee's node_modules are missing (npm ci in $REFEREE)"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
grep -v '^#' "$tests/data/check-positions.fen" | awk -v n="$EVERY" 'NR % n == 1 || n == 1' >"$tmp/positions.fen"

# The engine as the referee runs it, noting each call's wall time in ms with its FEN and moves.
cat >"$tmp/timed" <<EOF
#!/usr/bin/env bash
t0=\${EPOCHREALTIME/./}
"$ENGINE" "\$@"; status=\$?
printf '%s\t%s\t%s\n' "\$(( (\${EPOCHREALTIME/./} - t0) / 1000 ))" "\$1" "\$2" >>"$tmp/times"
exit \$status
EOF
chmod +x "$tmp/timed"
: >"$tmp/times"
node "$REFEREE/referee.mjs" check --engine "argv:$tmp/timed" --file "$tmp/positions.fen" --time "$LIMIT" \
  --tolerance-ms "$TOLERANCE_MS" --json "$tmp/check.json" >"$tmp/out" 2>"$tmp/err"
cat "$tmp/out" "$tmp/err" | grep -v '^line '
grep '^line ' "$tmp/err" | head -20
# runs, failures (of every kind: within the tolerance a timeout is a hang) and overruns: valid
# answers (no failure with the same FEN and moves) later than the limit
read -r runs failed overruns slowest <<<"$(node -e '
  const fs = require("fs");
  const j = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
  const failures = new Map();
  for (const f of j.failures) failures.set(f.fen + "\t" + f.movesArg, (failures.get(f.fen + "\t" + f.movesArg) || 0) + 1);
  let overruns = 0, slowest = 0;
  for (const line of fs.readFileSync(process.argv[2], "utf8").split("\n").filter(Boolean)) {
    const [ms, fen, moves] = line.split("\t"), key = fen + "\t" + moves;
    slowest = Math.max(slowest, Number(ms));
    if (Number(ms) <= Number(process.argv[3]) * 1000) continue;
    if (failures.get(key)) failures.set(key, failures.get(key) - 1);
    else overruns++;
  }
  console.log(j.runs, j.failureCount, overruns, slowest);' "$tmp/check.json" "$tmp/times" "$LIMIT" 2>/dev/null || echo "0 1 0 0")"
echo "referee check: $runs runs, $failed failed, $overruns valid answers over $LIMIT s (the slowest call $slowest ms;" \
  "load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null))"
passed=$((runs - failed - overruns))
[ "${STRICT_TIME:-0}" = 1 ] && failed=$((failed + overruns))
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
