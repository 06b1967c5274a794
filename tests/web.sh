#!/usr/bin/env bash
# tests/web.sh [ENGINE]: the WebAssembly builds and the browser page (web/README.md).
# Builds web/engine.wasm (the course's drop-in) and web/boxer.wasm (the page's own) with
# `make web`, then runs the course drop-in test in Node (tests/web/course.js) and the page
# module's (tests/web/page.js), checks that both modules' bench prints the same `N nodes` as
# ENGINE, plays on web/index.html in headless Chromium (tests/web/e2e.js, screenshot in
# $WEB_SCREENSHOT, default /tmp/boxer-web.png) and checks its layout at the usual window sizes
# with a scroll bar (tests/web/layout.js, screenshots in $WEB_LAYOUT_DIR, default /tmp). A part
# whose tools are missing (emcc, node, chromium, tests/web/node_modules) is skipped with a message. The Node programs' closing
# lines are added up as tests/run-all.sh adds up the scripts' (tests/tally.sh). Ends with
# "N passed, N failed, N skipped".
set -u
engine=$(realpath "${1:-./engine}")
cd "$(dirname "$0")/.."
. tests/tally.sh
log=$(mktemp); trap 'rm -f "$log"' EXIT

# node_test NAME ARGS...: runs a Node test program and adds up its closing line.
node_test() {
  local name=$1; shift
  node "$@" 2>&1 | tee "$log"
  tally "$name" "${PIPESTATUS[0]}" "$log"
}

if ! command -v emcc >/dev/null || ! command -v node >/dev/null; then
  tally_skipped 7 "the WebAssembly tests (make web, course.js, page.js, two benches, e2e.js, layout.js) need emcc and node (apt-get install emscripten nodejs)"
  tally_line
  exit 0
fi
if make -s web >"$log" 2>&1; then tally_pass=$((tally_pass + 1)); else cat "$log"; echo "FAIL make web"; tally_fail=$((tally_fail + 1)); fi

if [ -f web/engine.wasm ] && [ -f web/boxer.wasm ]; then
  echo "-- the course drop-in, in Node"
  node_test course.js tests/web/course.js "$engine"

  echo "-- the page's own module, in Node"
  node_test page.js tests/web/page.js

  echo "-- the same bench on both platforms"
  native=$("$engine" bench 2>/dev/null | sed -n 's/^\([0-9]* nodes\) [0-9]* nps$/\1/p')
  for module in web/engine.wasm web/boxer.wasm; do
    wasm=$(node tests/web/bench.js 0 "$module" 2>/dev/null | sed -n 's/^\([0-9]* nodes\) [0-9]* nps$/\1/p')
    if [[ "$native" =~ ^[0-9]+\ nodes$ ]] && [ "$native" = "$wasm" ]; then
      tally_pass=$((tally_pass + 1)); echo "ok   native and $module bench: $native"
    else
      tally_fail=$((tally_fail + 1)); echo "FAIL bench: native '$native', $module '$wasm'"
    fi
  done

  echo "-- the page, in headless Chromium"
  if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
    tally_skipped 2 "the page tests (e2e.js, layout.js) need chromium (apt-get install chromium)"
  elif [ ! -d tests/web/node_modules/playwright-core ]; then
    tally_skipped 2 "the page tests (e2e.js, layout.js) need playwright-core (npm ci --prefix tests/web)"
  else
    node_test e2e.js tests/web/e2e.js "${WEB_SCREENSHOT:-/tmp/boxer-web.png}"
    echo "-- the page's layout, in headless Chromium with a scroll bar"
    node_test layout.js tests/web/layout.js "${WEB_LAYOUT_DIR:-/tmp}"
  fi
fi
tally_line
[ "$tally_fail" -eq 0 ]
