/* worker.js: the engine thinks here, off the page's thread, so the board never freezes. It runs
 * boxer.wasm, the page's own build, whose clock is this worker's performance.now().
 * Message in: { id, fen, moves (coordinates from fen), seconds, level, lines, asked (when the
 * page asked, in performance.timeOrigin + performance.now() milliseconds) }. Out, for that id:
 * { id, info } for each line of each finished iteration of the search (Boxer.parseLine's
 * object), then once { id, answer } (boxer.think's object, with wall: the milliseconds the
 * call took) or { id, error }. A search cannot be interrupted: the page ends this worker to
 * stop one. */
'use strict';
importScripts('boxer.js');

/* The least time a search is given, when loading took nearly all of the move's. */
const MIN_SECONDS = 0.05;

/* A first short search allocates the engine's table and compiles its code before a move counts. */
const engine = Boxer.load('boxer.wasm').then((boxer) => {
  boxer.think('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', [], 0.1, null);
  return boxer;
});

onmessage = async (event) => {
  const { id, fen, moves, seconds, level, lines, asked } = event.data;
  try {
    const boxer = await engine;
    const start = performance.now();
    /* The time since the page asked counts against the move: a worker just started (after a
     * search was dropped) first loads and warms up, and the search gets what is left. */
    const waited = asked ? Math.min(seconds, Math.max(0, performance.timeOrigin + start - asked) / 1000) : 0;
    const left = Math.max(MIN_SECONDS, seconds - waited);
    const answer = boxer.think(fen, moves, left, (info) => postMessage({ id, info }), { level, lines });
    if (answer.error) throw new Error(answer.error);
    answer.wall = performance.now() - start;
    answer.waited = Math.round(waited * 1000);
    postMessage({ id, answer });
  } catch (error) {
    postMessage({ id, error: String(error && error.message || error) });
  }
};
