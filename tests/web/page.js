/* tests/web/page.js [WASM]: the page's own module (web/boxer.wasm) in Node, through web/boxer.js
 * as the worker uses it: its imports are the clock and the search report only, it does not
 * export the course's choose_move, and web_think answers with a legal move, its score, depth and
 * a principal variation that starts with it, reports finished iterations while it searches, keeps
 * to the page's clock, finds a mate, counts the game's earlier positions for repetitions, plays a
 * lone legal move at once, and names bad input.
 * Ends with "N passed, N failed". */
'use strict';
const fs = require('fs');
const path = require('path');

const root = path.join(__dirname, '..', '..');
const wasmPath = process.argv[2] || path.join(root, 'web', 'boxer.wasm');
const Boxer = require(path.join(root, 'web', 'boxer.js'));
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

let pass = 0;
let fail = 0;
function check(ok, what) {
  if (ok) pass++;
  else fail++;
  console.log((ok ? 'ok   ' : 'FAIL ') + what);
}

async function main() {
  const bytes = fs.readFileSync(wasmPath);
  const module = new WebAssembly.Module(bytes);
  const imports = WebAssembly.Module.imports(module).map((i) => i.module + '.' + i.name).sort();
  const exports = WebAssembly.Module.exports(module).map((e) => e.name);
  check(JSON.stringify(imports) === '["env.web_now","env.web_progress"]', 'imports the clock and the report only: ' + imports);
  check(exports.includes('web_think') && !exports.includes('choose_move'), 'exports web_think, not choose_move');

  const boxer = await Boxer.fromBytes(bytes);
  boxer.think(START, [], 0.1, null); /* as the worker does first: the table, the code compiled */
  const lines = [];
  const start = performance.now();
  const answer = boxer.think(START, ['e2e4', 'e7e5'], 1, (info) => lines.push(info));
  const ms = performance.now() - start;
  const after = boxer.play(boxer.play(START, 'e4').fen, 'e5');
  console.log('     1 s after 1.e4 e5: ' + JSON.stringify(answer) + ' in ' + ms.toFixed(0) + ' ms');
  check(after.moves.some((m) => m.uci === answer.move && m.san === answer.san), 'a legal move: ' + answer.san);
  check(answer.depth >= 2 && answer.pv[0] === answer.san && Number.isInteger(answer.score), 'its score, depth and PV: '
    + answer.score + ', ' + answer.depth + ', ' + answer.pv.join(' '));
  /* the page's clock stops it (without it, it would search to depth 64); a quarter second of
   * slack for a loaded machine, where a process may wait that long for a core (e2e.js holds
   * the page to the setting itself) */
  check(ms < 1250 && ms >= 700 && Math.abs(answer.ms - ms) < 50, 'keeps to the clock: ' + ms.toFixed(0) + ' ms for 1 s');
  const depths = lines.map((l) => l.depth);
  check(lines.length >= 2 && depths.every((d, i) => i === 0 || d >= depths[i - 1]) && lines.every((l) => l.pv.length > 0)
    && lines[lines.length - 1].depth <= answer.depth + 1, 'reports each iteration while it searches: depths ' + depths.join(' '));

  const mate = boxer.think('6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1', [], 1, null);
  check(mate.san === 'Rd8#' && mate.mate === 1, 'mate in one: ' + JSON.stringify(mate));

  /* A rook down, White draws with Kb1 only because the game has been there before: with the
   * earlier positions Boxer scores the position as a draw; from the position alone, as lost. */
  const rookDown = '7k/8/8/8/8/7r/8/K7 w - - 0 1';
  const alone = boxer.think(rookDown, [], 1, null); /* first: the table is kept from call to call */
  const history = boxer.think(rookDown, ['a1b1', 'h3h4', 'b1a1', 'h4h3'], 1, null);
  check(history.san === 'Kb1' && Math.abs(history.score) <= 10 && alone.score < -300,
    'the earlier positions count for repetitions: ' + history.san + ' ' + history.score + ' (alone ' + alone.score + ')');

  const only = boxer.think('6rk/8/8/8/8/8/8/7K w - - 0 1', [], 3, null);
  check(only.depth === 0 && only.san === 'Kh2' && only.pv.join(' ') === 'Kh2', 'a lone legal move comes back at once: ' + JSON.stringify(only));
  check(boxer.think('not a fen', [], 1, null).error === boxer.state('not a fen').error, 'a bad FEN is named as web_state names it');
  check(/move 2 of the list/.test(boxer.think(START, ['e2e4', 'e2e4'], 1, null).error), 'a bad move list names its first bad move');
  check(/checkmate/.test(boxer.think('7k/6Q1/6K1/8/8/8/8/8 b - - 0 1', [], 1, null).error), 'no move to play: checkmate is named');
  check(/seconds/.test(boxer.think(START, [], 0, null).error), '0 seconds is refused');
  check(Boxer.parseLine('depth 12  score mate  -3  nodes 123  time 45 ms  pv Kh1 Qg2# (upper bound)').mate === -3
    && Boxer.parseLine('nodes 5') === null, 'parseLine reads report_text\'s lines');
  console.log(pass + ' passed, ' + fail + ' failed');
  process.exitCode = fail ? 1 : 0;
}

main().catch((error) => {
  console.log('FAIL ' + (error && error.stack || error));
  console.log(pass + ' passed, ' + (fail + 1) + ' failed');
  process.exitCode = 1;
});
