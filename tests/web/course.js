/* tests/web/course.js ENGINE [WASM]: loads web/engine.wasm in Node exactly as the course page
 * does (imports { env: { __memory_base: 0 } }, the FEN at address 0, the move list right after
 * it, choose_move(0, fenLength + 1, seconds) called synchronously) and checks the answers over
 * many positions, with and without check marks. The move lists come from the native engine's
 * `perft 1`, so they do not depend on the module under test. Ends with "N passed, N failed". */
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const root = path.join(__dirname, '..', '..');
const enginePath = process.argv[2] || path.join(root, 'engine');
const wasmPath = process.argv[3] || path.join(root, 'web', 'engine.wasm');
const bytes = fs.readFileSync(wasmPath);
const COURSE_IMPORTS = { env: { __memory_base: 0 } };
const encoder = new TextEncoder();
/* The slack of a call's time over its limit: a loaded 2-core machine (other tests, other
 * developers' matches) can keep this process from a core that long, as page.js allows the
 * page's module (the calls' usual time is a third of the limit: 0.28 s mean, 0.48 s slowest
 * for 1 s at a load average of 7). */
const SLACK_MS = 250;

const { check, run } = require('./tally')({ quiet: true });

/* A small deterministic generator (mulberry32) for shuffles and playouts. */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/* The legal moves in SAN, with check marks, from the native engine. */
function legalMoves(fen) {
  const out = execFileSync(enginePath, ['perft', '1', fen], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return out.split('\n').filter((l) => l && !l.startsWith('nodes ')).map((l) => l.split(' ')[0]);
}

/* What the course page does: write the strings at 0 and right after, then call. */
function courseCall(instance, fen, moves, seconds) {
  const memory = new Uint8Array(instance.exports.memory.buffer);
  const f = encoder.encode(fen);
  const m = encoder.encode(moves);
  memory.set(f, 0);
  memory[f.length] = 0;
  memory.set(m, f.length + 1);
  memory[f.length + 1 + m.length] = 0;
  const start = performance.now();
  const index = instance.exports.choose_move(0, f.length + 1, seconds);
  return { index, ms: performance.now() - start };
}

/* Positions: a spread of the perft suite and some reached by random play from the start. */
function positions(shared, rand) {
  const epd = fs.readFileSync(path.join(root, 'tests', 'data', 'perft.epd'), 'utf8').split('\n').filter(Boolean);
  const list = [];
  for (let i = 0; i < epd.length; i += Math.ceil(epd.length / 16)) list.push(epd[i].split(';')[0].trim());
  const boxer = shared;
  for (let game = 0; game < 4; game++) {
    let state = boxer.state('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    for (let ply = 0; ply < 80 && state.moves.length; ply++) {
      const checks = state.moves.filter((m) => m.san.includes('+'));
      const pick = checks.length && rand() < 0.5 ? checks : state.moves;
      state = boxer.play(state.fen, pick[Math.floor(rand() * pick.length)].uci);
      if (ply % 20 === 13 || (state.check && state.moves.length > 1 && ply % 3 === 0)) list.push(state.fen);
    }
  }
  return list;
}

async function main() {
  const module = new WebAssembly.Module(bytes);
  const imports = WebAssembly.Module.imports(module);
  const exports = WebAssembly.Module.exports(module).map((e) => e.name);
  check(imports.every((i) => i.module === 'env' && i.name === '__memory_base'),
    'imports other than env.__memory_base: ' + JSON.stringify(imports));
  check(exports.includes('memory') && exports.includes('choose_move'), 'exports memory and choose_move: ' + exports);
  check(!exports.includes('_start') && !exports.includes('main'), 'no entry point: ' + exports);

  const { instance } = await WebAssembly.instantiate(bytes, COURSE_IMPORTS);
  const Boxer = require(path.join(root, 'web', 'boxer.js'));
  const helper = await Boxer.fromBytes(bytes);
  const rand = random(20240611);
  const fens = positions(helper, rand);
  let slowest = 0;
  let calls = 0;
  let total = 0;
  for (const fen of fens) {
    const sans = legalMoves(fen);
    if (sans.length === 0) continue;
    const shuffled = sans.slice().sort(() => rand() - 0.5);
    for (const list of [shuffled, shuffled.map((s) => s.replace(/[+#]/g, ''))]) {
      const { index, ms } = courseCall(instance, fen, list.join(' '), 1);
      calls++;
      slowest = Math.max(slowest, ms);
      check(Number.isInteger(index) && index >= 0 && index < list.length,
        'index ' + index + ' of ' + list.length + ' for ' + fen + ' [' + list.join(' ') + ']');
      /* each call within its limit and SLACK_MS: the module has no clock, so it budgets by nodes
       * at a third of its measured speed (web/wasm.c, WASM_NODES_PER_SECOND) */
      check(ms < 1000 + SLACK_MS, 'a 1-second call took ' + ms.toFixed(0) + ' ms for ' + fen);
      total += ms;
    }
  }
  console.log(fens.length + ' positions, ' + calls + ' calls of 1 s: mean ' + (total / calls).toFixed(0)
    + ' ms, slowest ' + slowest.toFixed(0) + ' ms');

  /* The course's own call: 3 seconds, on a fresh instance each time, as a page load would. */
  for (const fen of ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
    'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1']) {
    const fresh = (await WebAssembly.instantiate(bytes, COURSE_IMPORTS)).instance;
    const sans = legalMoves(fen);
    const { index, ms } = courseCall(fresh, fen, sans.join(' '), 3);
    console.log('choose_move(0, fenLength + 1, 3) in Node: ' + ms.toFixed(0) + ' ms, index ' + index);
    check(index >= 0 && index < sans.length, 'index ' + index + ' for ' + fen);
    check(ms < 3000, 'a 3-second call took ' + ms.toFixed(0) + ' ms');
  }

  /* Mate in one is found; bad input gives -1; a lone legal move comes back at once. */
  const mate = courseCall(instance, '6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1', 'Kf1 h3 Rd8 g3', 1);
  check(mate.index === 2, 'mate in one: index ' + mate.index);
  check(courseCall(instance, 'not a fen', 'e4', 1).index === -1, 'bad FEN gives -1');
  check(courseCall(instance, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', '', 1).index === -1, 'empty list gives -1');
  check(courseCall(instance, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'e4', 0).index === -1, 'timeout 0 gives -1');
  check(courseCall(instance, '7k/6Q1/6K1/8/8/8/8/8 b - - 0 1', '', 1).index === -1, 'checkmated side gives -1');
  const illegal = courseCall(instance, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'e5 Qh5 e4', 1);
  check(illegal.index === 2, 'illegal tokens are never chosen: index ' + illegal.index);
  /* at once: a search would take most of the 3 s; the bound leaves 500 ms for a loaded 2-core
   * machine to hold up this process */
  const lone = courseCall(instance, '7k/8/8/8/8/8/r7/K7 w - - 0 1', 'Kxa2', 3);
  check(lone.index === 0 && lone.ms < 500, 'a single legal move comes back at once (' + lone.ms.toFixed(0) + ' ms)');

  /* Memory below 64 KiB is the caller's: a search leaves it as the caller wrote it. */
  const memory = new Uint8Array(instance.exports.memory.buffer);
  check(memory.length === 96 * 1024 * 1024, 'memory is 96 MiB: ' + memory.length);
  for (let i = 0; i < 65536; i++) memory[i] = (i * 7 + 3) & 255;
  const fen = 'r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4';
  const list = legalMoves(fen).join(' ');
  const used = fen.length + 1 + list.length + 1;
  const snapshot = memory.slice(used, 65536);
  courseCall(instance, fen, list, 1);
  check(Buffer.compare(Buffer.from(snapshot), Buffer.from(memory.subarray(used, 65536))) === 0,
    'memory between the strings and 64 KiB is untouched');
}

run(main);
