#!/usr/bin/env bash
# tests/web.sh [ENGINE]: the WebAssembly builds and the browser page (web/README.md).
# Builds web/engine.wasm (the course's drop-in) and web/boxer.wasm (the page's own) with
# `make web`, then runs the course drop-in test in Node (tests/web/course.js) and the page
# module's (tests/web/page.js), checks that both modules' bench prints the same `nodes N` as
# ENGINE, and plays on web/index.html in headless Chromium (tests/web/e2e.js, screenshot in
# $WEB_SCREENSHOT, default /tmp/boxer-web.png). A part whose tools are missing (emcc, node,
# chromium, tests/web/node_modules) is skipped with a message. Ends with "N passed, N failed".
set -u
engine=$(realpath "${1:-./engine}")
cd "$(dirname "$0")/.."
pass=0; fail=0
log=$(mktemp); trap 'rm -f "$log"' EXIT

# counts: adds the closing "N passed, N failed" of the last run (in $log) to the totals
counts() {
  local last; last=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
  if [ -z "$last" ]; then fail=$((fail + 1)); echo "FAIL $1 printed no closing line"; return; fi
  pass=$((pass + $(echo "$last" | cut -d' ' -f1)))
  fail=$((fail + $(echo "$last" | cut -d' ' -f3)))
}

if ! command -v emcc >/dev/null || ! command -v node >/dev/null; then
  echo "skip: the WebAssembly tests need emcc and node (apt-get install emscripten nodejs)"
  echo "0 passed, 0 failed"
  exit 0
fi
if make -s web >"$log" 2>&1; then pass=$((pass + 1)); else cat "$log"; echo "FAIL make web"; fail=$((fail + 1)); fi

if [ -f web/engine.wasm ] && [ -f web/boxer.wasm ]; then
  echo "-- the course drop-in, in Node"
  node tests/web/course.js "$engine" 2>&1 | tee "$log"; counts course.js

  echo "-- the page's own module, in Node"
  node tests/web/page.js 2>&1 | tee "$log"; counts page.js

  echo "-- the same bench on both platforms"
  native=$("$engine" bench 2>/dev/null)
  for module in web/engine.wasm web/boxer.wasm; do
    wasm=$(node tests/web/bench.js 0 "$module" 2>/dev/null)
    if [[ "$native" =~ ^nodes\ [0-9]+$ ]] && [ "$native" = "$wasm" ]; then
      pass=$((pass + 1)); echo "ok   native and $module bench: $native"
    else
      fail=$((fail + 1)); echo "FAIL bench: native '$native', $module '$wasm'"
    fi
  done

  echo "-- the page, in headless Chromium"
  if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
    echo "skip: the page test needs chromium (apt-get install chromium)"
  elif [ ! -d tests/web/node_modules/playwright-core ]; then
    echo "skip: the page test needs playwright-core (npm ci --prefix tests/web)"
  else
    node tests/web/e2e.js "${WEB_SCREENSHOT:-/tmp/boxer-web.png}" 2>&1 | tee "$log"; counts e2e.js
  fi
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
