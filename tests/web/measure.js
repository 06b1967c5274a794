/* tests/web/measure.js: one self-contained function, run in Node and (through Playwright) in
 * Chromium, that times engine.wasm there: the bench's nodes per second, and the wall time of
 * course-style choose_move(0, fenLength + 1, seconds) calls on a few typical positions. */
'use strict';

/* Positions for the timing: opening, two busy middlegames, a queen ending, a rook ending. */
const FENS = [
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
  'r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10',
  '6k1/5pp1/7p/8/3Q4/6P1/5PKP/1q6 b - - 0 40',
  '8/5pk1/6p1/7p/3R4/6PP/r4P1K/8 b - - 0 40',
];

/* Instantiates the module as the course page does, makes the calls (the first one on cold
 * code, as on a page just loaded), then runs the bench; returns { benchNodes, benchMs, calls }
 * with calls [{ fen, moves, index, ms }]. Uses nothing from outside its own body. */
async function measure(byteArray, fens, seconds) {
  const bytes = new Uint8Array(byteArray);
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const { instance } = await WebAssembly.instantiate(bytes, { env: { __memory_base: 0 } });
  const e = instance.exports;
  const read = (address) => {
    const memory = new Uint8Array(e.memory.buffer);
    let end = address;
    while (memory[end]) end++;
    return decoder.decode(memory.subarray(address, end));
  };
  const write = (text, at) => {
    const b = encoder.encode(text);
    new Uint8Array(e.memory.buffer).set(b, at);
    new Uint8Array(e.memory.buffer)[at + b.length] = 0;
    return b.length;
  };
  const calls = [];
  for (const fen of fens) {
    write(fen, e.web_input());
    const moves = JSON.parse(read(e.web_state(e.web_input()))).moves.map((m) => m.san);
    const fenLength = write(fen, 0);
    write(moves.join(' '), fenLength + 1);
    const start = performance.now();
    const index = e.choose_move(0, fenLength + 1, seconds);
    calls.push({ fen, moves: moves.length, index, ms: performance.now() - start });
  }
  const start = performance.now();
  const printed = read(e.web_bench(0));
  const benchMs = performance.now() - start;
  const benchNodes = Number((/(\d+) nodes/.exec(printed) || [])[1]);
  return { benchNodes, benchMs, calls };
}

module.exports = { FENS, measure };
