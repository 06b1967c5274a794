/* worker.js: the engine thinks here, off the page's thread, so the board never freezes.
 * Message in: { id, fen, moves (SAN array), seconds }; out: { id, index, ms } or { id, error }. */
'use strict';
importScripts('boxer.js');

const engine = Boxer.load('engine.wasm');

onmessage = async (event) => {
  const { id, fen, moves, seconds } = event.data;
  try {
    const boxer = await engine;
    const start = performance.now();
    const index = boxer.choose(fen, moves, seconds);
    postMessage({ id, index, ms: performance.now() - start });
  } catch (error) {
    postMessage({ id, error: String(error && error.message || error) });
  }
};
