/* boxer.js: loads engine.wasm, the module the course page also uses, exactly as that page
 * does (imports { env: { __memory_base: 0 } }), and wraps its exports for the page, the
 * Web Worker and the Node tests: state(fen), play(fen, move), choose(fen, moves, seconds),
 * bench(depth). Strings travel through the module's argument buffer (web_input). */
(function (root) {
  'use strict';

  const IMPORTS = { env: { __memory_base: 0 } };
  const INPUT_SIZE = 32768; /* WEB_BUFFER in engine.c */

  /* Wraps an instance of engine.wasm. */
  function wrap(instance) {
    const e = instance.exports;
    const encoder = new TextEncoder();
    const decoder = new TextDecoder();
    const input = e.web_input();

    /* Writes NUL-terminated strings into the argument buffer; returns their addresses. */
    function write(strings) {
      const memory = new Uint8Array(e.memory.buffer);
      let at = input;
      return strings.map((text) => {
        const bytes = encoder.encode(text);
        if (at + bytes.length + 1 > input + INPUT_SIZE) throw new Error('argument too long');
        memory.set(bytes, at);
        memory[at + bytes.length] = 0;
        at += bytes.length + 1;
        return at - bytes.length - 1;
      });
    }

    /* Reads the NUL-terminated string at address. */
    function read(address) {
      const memory = new Uint8Array(e.memory.buffer);
      let end = address;
      while (memory[end] !== 0) end++;
      return decoder.decode(memory.subarray(address, end));
    }

    return {
      /* The position as { fen, turn, check, status, moves: [{ san, uci }] } or { error }. */
      state: (fen) => JSON.parse(read(e.web_state(...write([fen])))),
      /* The position after a move in SAN or coordinates, with its san and uci, or { error }. */
      play: (fen, move) => JSON.parse(read(e.web_play(...write([fen, move])))),
      /* The engine's choice: an index into moves (an array of SAN), or -1. */
      choose: (fen, moves, seconds) => e.choose_move(...write([fen, moves.join(' ')]), seconds),
      /* The bench's printed lines, `nodes N` last. */
      bench: (depth) => read(e.web_bench(depth || 0)),
    };
  }

  /* Instantiates engine.wasm from its bytes. */
  async function fromBytes(bytes) {
    const { instance } = await WebAssembly.instantiate(bytes, IMPORTS);
    return wrap(instance);
  }

  /* Fetches and instantiates engine.wasm from a URL. */
  async function load(url) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(url + ': ' + response.status + ' ' + response.statusText);
    return fromBytes(await response.arrayBuffer());
  }

  const Boxer = { IMPORTS, fromBytes, load };
  if (typeof module === 'object' && module.exports) module.exports = Boxer;
  else root.Boxer = Boxer;
})(typeof self !== 'undefined' ? self : this);
