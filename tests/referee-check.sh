#!/usr/bin/env bash
# tests/referee-check.sh [ENGINE] [EVERY]: `../shared/referee check` (chess.js judges every
# answer) over every EVERY-th position of tests/check-positions.fen (default 25: 100 of the
# 2500), each in four variants: plain, shuffled move list, check marks stripped, both; 0.05 s
# a call. Fails on any invalid answer (bad index, illegal move, exit status, crash); overruns
# of the 0.05 s are reported with the load average, and fail only with STRICT_TIME=1 (the
# timing proof is `make timing`). Skips without node or the referee. Ends with
# "N passed, N failed".
set -u
ENGINE=$(cd "$(dirname "${1:-./engine}")" && pwd)/$(basename "${1:-./engine}")
EVERY=${2:-25}
REFEREE=${REFEREE:-$(cd "$(dirname "$0")/../.." && pwd)/shared/referee}
here=$(cd "$(dirname "$0")" && pwd)
skip() { echo "SKIP referee-check: $*"; echo "0 passed, 0 failed"; exit 0; }
command -v node >/dev/null || skip "node is not installed"
[ -f "$REFEREE/referee.mjs" ] || skip "no referee at $REFEREE (set REFEREE=...)"
[ -d "$REFEREE/node_modules/chess.js" ] || skip "the referee's node_modules are missing (npm ci in $REFEREE)"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
grep -v '^#' "$here/check-positions.fen" | awk -v n="$EVERY" 'NR % n == 1 || n == 1' >"$tmp/positions.fen"
node "$REFEREE/referee.mjs" check --engine "argv:$ENGINE" --file "$tmp/positions.fen" --time 0.05 \
  --json "$tmp/check.json" >"$tmp/out" 2>"$tmp/err"
cat "$tmp/out" "$tmp/err" | grep -v '^line '
read -r runs invalid overruns <<<"$(node -e '
  const j = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const timeouts = j.failures.filter((f) => f.kind === "timeout").length;
  console.log(j.runs, j.failureCount - timeouts, timeouts);' "$tmp/check.json" 2>/dev/null || echo "0 1 0")"
cat "$tmp/out" "$tmp/err" | grep '^line ' | grep -v timeout | head -20
echo "referee check: $runs runs, $invalid invalid answers, $overruns overruns of 0.05 s (load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null))"
fail=$invalid
[ "${STRICT_TIME:-0}" = 1 ] && fail=$((fail + overruns))
echo "$((runs - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
