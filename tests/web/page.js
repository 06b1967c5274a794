/* tests/web/page.js [WASM]: the page's own module (web/boxer.wasm) in Node, through web/boxer.js
 * as the worker uses it: its imports are the clock and the search report only, it does not
 * export the course's choose_move, and web_think answers with a legal move, its score, depth and
 * a principal variation that starts with it, reports finished iterations while it searches, keeps
 * to the page's clock, finds a mate, counts the game's earlier positions for repetitions, plays a
 * lone legal move at once, names bad input, searches three lines (sorted, distinct, reported
 * line by line) and plays at a level (level 0: at once, four lines, a free queen still taken).
 * Ends with "N passed, N failed". */
'use strict';
const fs = require('fs');
const path = require('path');

const root = path.join(__dirname, '..', '..');
const wasmPath = process.argv[2] || path.join(root, 'web', 'boxer.wasm');
const Boxer = require(path.join(root, 'web', 'boxer.js'));
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

const { check, run } = require('./tally')();

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
   * the search to the setting on the worker's clock) */
  check(ms < 1250 && ms >= 700, 'keeps to the clock: ' + ms.toFixed(0) + ' ms for 1 s');
  /* the module reads the page's clock (env.web_now): its own time of the call is the one
   * measured here but for the strings passed in and the JSON passed out, which take a few ms;
   * 250 ms of slack for a loaded machine, as above */
  check(Math.abs(answer.ms - ms) < 250, 'the module\'s time is the page\'s clock: ' + answer.ms + ' ms, measured '
    + ms.toFixed(0) + ' ms');
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
  const badFen = boxer.think('not a fen', [], 1, null).error;
  check(/^FEN has 3 fields/.test(badFen) && badFen === boxer.state('not a fen').error,
    'a bad FEN is named as web_state names it: ' + badFen);
  check(/move 2 of the list/.test(boxer.think(START, ['e2e4', 'e2e4'], 1, null).error), 'a bad move list names its first bad move');
  check(/checkmate/.test(boxer.think('7k/6Q1/6K1/8/8/8/8/8 b - - 0 1', [], 1, null).error), 'no move to play: checkmate is named');
  check(/seconds/.test(boxer.think(START, [], 0, null).error), '0 seconds is refused');
  check(Boxer.parseLine('depth 12  score mate  -3  nodes 123  time 45 ms  pv Kh1 Qg2# (upper bound)').mate === -3
    && Boxer.parseLine('depth 12  score cp 5  nodes 1  time 4 ms  pv e4').line === 1
    && Boxer.parseLine('depth  8  line 2  score cp   -10  nodes 1  time 4 ms  pv d4 d5').line === 2
    && Boxer.parseLine('nodes 5') === null, 'parseLine reads report_text\'s lines, with and without a line number');

  /* Three lines (MultiPV): the answer's lines, best first, distinct, legal, from the last
   * finished iteration, whose reports came in order line 1, 2, 3; the number of the one played
   * (line 1 unless a move proved better during the next iteration; 0 if none of them). */
  const reports = [];
  const three = boxer.think(START, ['e2e4'], 1, (info) => reports.push(info), { lines: 3 });
  const afterE4 = boxer.play(START, 'e4');
  const firsts = three.lines.map((l) => l.pv[0]);
  console.log('     three lines after 1.e4: ' + three.lines.map((l) => l.score + ' ' + l.pv.slice(0, 3).join(' ')).join(' | '));
  check(three.lines.length === 3 && three.lines.every((l, i) => i === 0 || l.score <= three.lines[i - 1].score)
    && new Set(firsts).size === 3 && firsts.every((san) => afterE4.moves.some((m) => m.san === san)),
  'three lines, sorted best first, distinct and legal: ' + firsts.join(' '));
  const exact = reports.filter((r) => !r.bound);
  check(exact.length >= 6 && exact.every((r, i) => r.line === i % 3 + 1 && r.depth === exact[i - r.line + 1].depth)
    && exact.slice(-3).map((r) => r.pv[0]).join(' ') === firsts.join(' '),
  'each finished iteration reports lines 1, 2, 3 in turn, the last one as the answer has them');
  check(three.pv[0] === three.san && (three.line >= 1 ? firsts[three.line - 1] === three.san : !firsts.includes(three.san)),
    'the line played is marked: line ' + three.line + ', ' + three.san);
  check(boxer.think(START, ['e2e4'], 0.3, null).lines.length === 1, 'one line by default');

  /* Levels: web_think is given the level (below full strength the search takes four lines,
   * few nodes); level 0 answers at once with a legal move, and still takes a free queen. */
  const levelReports = [];
  const low = boxer.think(START, ['e2e4'], 3, (info) => levelReports.push(info), { level: 0 });
  check(afterE4.moves.some((m) => m.uci === low.move) && low.ms < 300 && low.nodes < 5000
    && levelReports.some((r) => r.line === 4) && low.lines.length === 1,
  'level 0: a legal move (' + low.san + ', line ' + low.line + ') in ' + low.ms + ' ms and ' + low.nodes
    + ' nodes, four lines searched, one answered');
  const full = boxer.think(START, ['e2e4'], 0.3, (info) => levelReports.push(info), { level: 20 });
  check(full.nodes > 5 * low.nodes, 'level 20 is full strength: ' + full.nodes + ' nodes in 0.3 s');
  const queen = [];
  for (let i = 0; i < 5; i++) queen.push(boxer.think('k7/8/8/3q4/8/8/8/K2R4 w - - 0 1', [], 1, null, { level: 0 }).san);
  check(queen.every((san) => san === 'Rxd5'), 'level 0 takes a free queen every time: ' + queen.join(' '));
  check(/level/.test(boxer.think(START, [], 1, null, { level: 21 }).error)
    && /lines/.test(boxer.think(START, [], 1, null, { lines: 0 }).error), 'a bad level or number of lines is named');
}

run(main);
