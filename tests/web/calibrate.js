/* tests/web/calibrate.js [SECONDS]: the numbers behind WASM_NODES_PER_SECOND in web/wasm.c.
 * In Node and in headless Chromium it times course-style choose_move(0, fenLength + 1,
 * SECONDS) calls (default 3), each on a fresh instance so the code is cold as on a page just
 * loaded, then the bench's nodes per second on warm code. Needs web/engine.wasm (make web)
 * and, for Chromium, `npm ci --prefix tests/web`. See web/README.md. */
'use strict';
const fs = require('fs');
const path = require('path');
const { FENS, measure } = require('./measure');

const root = path.join(__dirname, '..', '..');
const seconds = Number(process.argv[2] || 3);
const bytes = Array.from(fs.readFileSync(path.join(root, 'web', 'engine.wasm')));
const constant = (/WASM_NODES_PER_SECOND = (\d+)/.exec(fs.readFileSync(path.join(root, 'web', 'wasm.c'), 'utf8')) || [])[1];

/* Prints one environment's figures. */
function report(where, cold, bench) {
  const worst = Math.max(...cold.map((c) => c.ms));
  console.log(where + ': bench ' + bench.benchNodes + ' nodes in ' + bench.benchMs.toFixed(0) + ' ms = '
    + Math.round(bench.benchNodes / bench.benchMs * 1000) + ' nodes/s');
  for (const c of cold) console.log('  ' + seconds + ' s call: ' + c.ms.toFixed(0).padStart(5) + ' ms  ' + c.fen);
  console.log('  slowest ' + worst.toFixed(0) + ' ms = ' + (100 * worst / (seconds * 1000)).toFixed(0) + '% of the limit');
}

async function main() {
  console.log('WASM_NODES_PER_SECOND = ' + constant);
  const cold = [];
  for (const fen of FENS) cold.push(...(await measure(bytes, [fen], seconds)).calls);
  report('Node ' + process.version, cold, await measure(bytes, [], seconds));

  const { serve, launch } = require('./chromium');
  const server = await serve(path.join(root, 'web'));
  const browser = await launch();
  try {
    const page = await browser.context.newPage();
    await page.goto(server.url + 'boxer.js');
    const run = (list) => page.evaluate(({ source, args }) => (0, eval)('(' + source + ')')(...args),
      { source: measure.toString(), args: [bytes, list, seconds] });
    const browserCold = [];
    for (const fen of FENS) browserCold.push(...(await run([fen])).calls);
    report('Chromium ' + browser.context.browser().version(), browserCold, await run([]));
  } finally {
    await browser.close();
    server.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
