/* tests/web/bench.js [DEPTH] [WASM]: `./engine bench` for a WebAssembly build (default
 * web/engine.wasm, the course's; web/boxer.wasm is the page's), run in Node: prints the bench's
 * last line `N nodes M nps` on stdout, as the native engine does (M is 0 from the course's
 * module, which has no clock: the speed here is Node's), and its timing on stderr. */
'use strict';
const fs = require('fs');
const path = require('path');
const Boxer = require(path.join(__dirname, '..', '..', 'web', 'boxer.js'));

const wasm = process.argv[3] || path.join(__dirname, '..', '..', 'web', 'engine.wasm');

Boxer.fromBytes(fs.readFileSync(wasm)).then((boxer) => {
  const start = performance.now();
  const printed = boxer.bench(Number(process.argv[2] || 0));
  const seconds = (performance.now() - start) / 1000;
  const lines = printed.split('\n').filter((line) => / nodes /.test(line));
  process.stdout.write(lines.join('\n') + '\n');
  const count = Number(lines.length ? lines[0].split(' ')[0] : 0);
  console.error(path.basename(wasm) + ' in Node ' + process.version + ': ' + seconds.toFixed(3) + ' s, '
    + Math.round(count / seconds) + ' nodes per second');
});
