/* boxer.js: loads one of the two WebAssembly builds (web/README.md) and wraps its exports for
 * the page, the Web Worker and the Node tests: state(fen), play(fen, move), think(fen, moves,
 * seconds, onLine, options) (boxer.wasm, the page's own build), choose(fen, moves, seconds) (engine.wasm,
 * the course's drop-in) and bench(depth). Strings travel through the module's argument buffer
 * (web_input). One import object serves both: the course's { env: { __memory_base: 0 } } and
 * the page build's clock (env.web_now) and search report (env.web_progress). */
(function (root) {
  'use strict';

  const INPUT_SIZE = 32768; /* WEB_BUFFER in web/wasm.c */

  /* report_text's line in modes/common.c ("depth  9  score cp    31  nodes  ...  time  ... ms
   * pv e4 e5 ...", "depth  9  line 2  score ..." when several lines are searched, with
   * " (lower bound)" or " (upper bound)" after an aspiration fail). */
  const LINE = /^depth\s+(\d+)(?:\s+line\s+(\d+))?\s+score (cp|mate)\s+(-?\d+)\s+nodes\s+(\d+)\s+time\s+(\d+) ms\s+pv ?(.*?)(?: \((lower|upper) bound\))?\s*$/;

  /* The level of full strength and the most lines web_think takes (LEVEL_MAX and
   * WEB_LINES_MAX in web/wasm.c). */
  const LEVEL_MAX = 20;
  const LINES_MAX = 5;

  /* One iteration's report as { depth, line, score, mate, nodes, ms, pv: [SAN], bound }, or
   * null. line counts from 1 (the best; 1 also when one line is searched); score is in
   * centipawns and mate in moves (0: none), both for the side to move. */
  function parseLine(line) {
    const m = LINE.exec(line);
    if (!m) return null;
    const value = Number(m[4]);
    return {
      depth: Number(m[1]), line: m[2] ? Number(m[2]) : 1, score: m[3] === 'cp' ? value : 0,
      mate: m[3] === 'mate' ? value : 0, nodes: Number(m[5]), ms: Number(m[6]), pv: m[7] ? m[7].split(' ') : [],
      bound: m[8] || '',
    };
  }

  /* Instantiates a module from its bytes and wraps its exports. */
  async function fromBytes(bytes) {
    let e = null;
    let onLine = null; /* the listener of the think() under way */
    const encoder = new TextEncoder();
    const decoder = new TextDecoder();

    /* Reads the NUL-terminated string at address. */
    function read(address) {
      const memory = new Uint8Array(e.memory.buffer);
      let end = address;
      while (memory[end] !== 0) end++;
      return decoder.decode(memory.subarray(address, end));
    }

    const imports = {
      env: {
        __memory_base: 0,
        web_now: () => performance.now(),
        web_progress: (address) => { if (onLine) onLine(read(address)); },
      },
    };
    const { instance } = await WebAssembly.instantiate(bytes, imports);
    e = instance.exports;
    const input = e.web_input();

    /* Writes NUL-terminated strings into the argument buffer; returns their addresses. */
    function write(strings) {
      const memory = new Uint8Array(e.memory.buffer);
      let at = input;
      return strings.map((text) => {
        const encoded = encoder.encode(text);
        if (at + encoded.length + 1 > input + INPUT_SIZE) throw new Error('argument too long');
        memory.set(encoded, at);
        memory[at + encoded.length] = 0;
        at += encoded.length + 1;
        return at - encoded.length - 1;
      });
    }

    /* The engine's choice after fen and moves (coordinates), about seconds of thought, at
     * options.level (0 to LEVEL_MAX, the default: full strength) with options.lines lines
     * (1, the default, to LINES_MAX): { move, san, score, mate, depth, nodes, ms, pv: [SAN],
     * line (the number of the line played, 0: none), lines: [{ score, mate, pv: [SAN] }] } or
     * { error }; onIteration gets each line of each finished iteration (parseLine's object) while it
     * searches. */
    function think(fen, moves, seconds, onIteration, options) {
      const level = options && options.level !== undefined ? options.level : LEVEL_MAX;
      const lines = options && options.lines !== undefined ? options.lines : 1;
      onLine = (line) => {
        const info = parseLine(line);
        if (info && onIteration) onIteration(info);
      };
      try {
        const answer = JSON.parse(read(e.web_think(...write([fen, moves.join(' ')]), seconds, level, lines)));
        if (!answer.error) {
          answer.pv = answer.pv ? answer.pv.split(' ') : [];
          for (const l of answer.lines) l.pv = l.pv ? l.pv.split(' ') : [];
        }
        return answer;
      } finally {
        onLine = null;
      }
    }

    return {
      exports: e,
      /* The position as { fen, turn, check, status, moves: [{ san, uci }] } or { error }. */
      state: (fen) => JSON.parse(read(e.web_state(...write([fen])))),
      /* The position after a move in SAN or coordinates, with its san and uci, or { error }. */
      play: (fen, move) => JSON.parse(read(e.web_play(...write([fen, move])))),
      think,
      /* The course's call: an index into moves (an array of SAN), or -1. */
      choose: (fen, moves, seconds) => e.choose_move(...write([fen, moves.join(' ')]), seconds),
      /* The bench's last line, `N nodes N nps` (N nodes: its signature). */
      bench: (depth) => read(e.web_bench(depth || 0)),
    };
  }

  /* Fetches and instantiates a module from a URL. */
  async function load(url) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(url + ': ' + response.status + ' ' + response.statusText);
    return fromBytes(await response.arrayBuffer());
  }

  const Boxer = { fromBytes, load, parseLine, LEVEL_MAX, LINES_MAX };
  if (typeof module === 'object' && module.exports) module.exports = Boxer;
  else root.Boxer = Boxer;
})(typeof self !== 'undefined' ? self : this);
