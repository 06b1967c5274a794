/* app.js: the game on web/index.html. The rules (legal moves, SAN, checkmate and draws by
 * rule) come from boxer.wasm on this thread; the engine's moves and thoughts come from the
 * same module in a Web Worker (worker.js). See web/README.md. Test hooks: [data-square],
 * #moves (its .san cells are buttons), #status, #notice, #result, body[data-state], #takeback,
 * #fen, #load-fen, #pgn, #load-pgn, #engine-line (data-ms: the engine's milliseconds, data-wall:
 * the page's, data-waited: those a new worker took to start, for the last move; data-level and
 * data-nodes: the level of the search shown and its nodes), #level, #show-lines, #lines (an
 * item per line, best first, .played on the line Boxer played).
 * index.html#fen=<FEN> starts the games from that position. */
'use strict';

const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const FILES = 'abcdefgh';
const COLOUR_NAME = { w: 'White', b: 'Black' };
const OTHER = { w: 'b', b: 'w' };
/* Solid glyphs for both sides (coloured by CSS); U+FE0E asks for text, not emoji, style. */
const GLYPH = { k: '\u265A', q: '\u265B', r: '\u265C', b: '\u265D', n: '\u265E', p: '\u265F\uFE0E' };
const PIECE_NAME = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' };
const VALUE = { p: 1, n: 3, b: 3, r: 5, q: 9, k: 0 };
/* The lines the page asks for and shows under the board when #show-lines is on. */
const LINES_SHOWN = 3;
/* Boxer accepts a draw when its last search rated its side at most this (centipawns). */
const DRAW_ACCEPT_CP = 0;
const STATUS_TEXT = {
  checkmate: 'checkmate', stalemate: 'stalemate', material: 'a draw (neither side can mate)',
  fifty: 'a draw by the fifty-move rule',
};
const RESULTS = ['1-0', '0-1', '1/2-1/2', '*'];

const ui = {};
for (const id of ['board', 'status', 'notice', 'result', 'moves', 'colour', 'seconds', 'new-game', 'flip',
  'switch', 'sound', 'promotion', 'promotion-choices', 'promotion-cancel', 'engine-line', 'eval-bar', 'eval-fill',
  'eval-text', 'first', 'back', 'forward', 'last', 'takeback', 'offer-draw', 'resign', 'fen', 'load-fen', 'copy-fen',
  'pgn', 'load-pgn', 'copy-pgn', 'download-pgn', 'player-top', 'player-bottom', 'level', 'show-lines', 'lines-box',
  'lines', 'lines-note']) {
  ui[id.replace(/-(.)/g, (_, c) => c.toUpperCase())] = document.getElementById(id);
}

let rules = null;   /* boxer.wasm on this thread */
let worker = null;  /* boxer.wasm in a Web Worker */
const squares = {}; /* name -> element */
/* The game: the start position, then one entry per ply with the position after it. view is the
 * number of plies shown (plies.length: the live position). thoughts maps a position's ply
 * number to the engine's search there. over is { result, text, final } once the game has
 * ended (final: by resignation or agreement, so no taking back or playing on). */
const game = {
  human: 'w', flipped: false, start: null, plies: [], view: 0, over: null, tags: null,
  thinking: null, request: 0, selected: null, focus: 'e2', thoughts: new Map(), lastReply: null,
  date: new Date(),
};
const edited = { fen: false, pgn: false }; /* the user typed in the field: leave it alone */
let drag = null;
let ticker = 0;
let audio = null;
let resignArmed = 0;

/* ------------------------------------------------------------------ setup */

/* Loads the rules, starts the worker and the first game. */
async function boot() {
  buildBoard();
  bindControls();
  try {
    rules = await Boxer.load('boxer.wasm');
  } catch (error) {
    setStatus('Could not load boxer.wasm (' + error.message + '). Build it with `make web`.', 'error');
    document.body.dataset.state = 'error';
    return;
  }
  startWorker();
  newGame();
}

/* Starts (or restarts) the thinking worker. */
function startWorker() {
  if (worker) worker.terminate();
  worker = new Worker('worker.js');
  worker.onmessage = (event) => onWorker(event.data);
  worker.onerror = (event) => {
    game.thinking = null;
    clearInterval(ticker);
    setNotice('The engine failed: ' + (event.message || 'unknown error'), 'error');
    render();
  };
}

/* Creates the 64 squares, each with data-square, a piece, a move hint and coordinates. */
function buildBoard() {
  for (let rank = 0; rank < 8; rank++) {
    for (let file = 0; file < 8; file++) {
      const name = FILES[file] + (rank + 1);
      const el = document.createElement('div');
      el.className = 'square ' + ((file + rank) % 2 ? 'light' : 'dark');
      el.dataset.square = name;
      el.setAttribute('role', 'gridcell');
      el.tabIndex = -1;
      el.innerHTML = '<span class="hint"></span><span class="piece"></span>';
      squares[name] = el;
    }
  }
  ui.board.addEventListener('pointerdown', onPointerDown);
  ui.board.addEventListener('pointermove', onPointerMove);
  ui.board.addEventListener('pointerup', onPointerUp);
  ui.board.addEventListener('pointercancel', cancelDrag);
  ui.board.addEventListener('contextmenu', (event) => event.preventDefault());
  ui.board.addEventListener('keydown', onBoardKey);
}

/* Wires the buttons, selectors, fields and keys. */
function bindControls() {
  ui.newGame.addEventListener('click', newGame);
  window.addEventListener('hashchange', newGame);
  ui.flip.addEventListener('click', () => {
    game.flipped = !game.flipped;
    render();
  });
  ui.switch.addEventListener('click', switchSides);
  ui.seconds.addEventListener('change', render);
  ui.level.addEventListener('change', render);
  ui.showLines.addEventListener('change', renderEngine);
  ui.promotionCancel.addEventListener('click', hidePromotion);
  ui.first.addEventListener('click', () => goTo(0));
  ui.back.addEventListener('click', () => goTo(game.view - 1));
  ui.forward.addEventListener('click', () => goTo(game.view + 1));
  ui.last.addEventListener('click', () => goTo(game.plies.length));
  ui.moves.addEventListener('click', (event) => {
    const cell = event.target.closest('[data-ply]');
    if (cell) goTo(Number(cell.dataset.ply));
  });
  ui.takeback.addEventListener('click', takeBack);
  ui.offerDraw.addEventListener('click', offerDraw);
  ui.resign.addEventListener('click', resign);
  ui.loadFen.addEventListener('click', loadFen);
  ui.loadPgn.addEventListener('click', loadPgn);
  ui.fen.addEventListener('input', () => { edited.fen = true; });
  ui.pgn.addEventListener('input', () => { edited.pgn = true; });
  ui.fen.addEventListener('keydown', (event) => { if (event.key === 'Enter') loadFen(); });
  ui.copyFen.addEventListener('click', () => copy(ui.fen, ui.copyFen));
  ui.copyPgn.addEventListener('click', () => copy(ui.pgn, ui.copyPgn));
  ui.downloadPgn.addEventListener('click', () => {
    ui.downloadPgn.href = URL.createObjectURL(new Blob([pgn() + '\n'], { type: 'application/x-chess-pgn' }));
  });
  ui.sound.checked = recall('boxer-sound') === 'on';
  ui.showLines.checked = recall('boxer-lines') === 'on';
  const kept = recall('boxer-level');
  if (kept !== null && ui.level.querySelector('option[value="' + Number(kept) + '"]')) ui.level.value = String(Number(kept));
  ui.sound.addEventListener('change', () => keep('boxer-sound', ui.sound.checked ? 'on' : 'off'));
  ui.showLines.addEventListener('change', () => keep('boxer-lines', ui.showLines.checked ? 'on' : 'off'));
  ui.level.addEventListener('change', () => keep('boxer-level', ui.level.value));
  document.addEventListener('keydown', onPageKey);
}

/* A setting kept in the browser (sounds, the lines, the level), or null. */
function recall(key) {
  try {
    return localStorage.getItem(key);
  } catch (error) {
    return null; /* storage may be off: the default, then */
  }
}

/* Keeps a setting in the browser for the next visit. */
function keep(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch (error) { /* not kept, then */ }
}

/* The level the next search is given: 0 to Boxer.LEVEL_MAX (full strength). */
function level() {
  return Number(ui.level.value);
}

/* Copies a field's text to the clipboard, saying so on the button for a moment. */
async function copy(field, button) {
  const label = button.textContent;
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
  } catch (error) {
    document.execCommand('copy');
  }
  button.textContent = 'Copied';
  setTimeout(() => { button.textContent = label; }, 1500);
}

/* ------------------------------------------------------------------- game */

/* The position after n plies, and the one shown. */
function positionAt(n) {
  return n === 0 ? game.start : game.plies[n - 1].state;
}

/* The position on the board (an earlier one while looking back). */
function shown() {
  return positionAt(game.view);
}

/* Returns true when the live position is shown. */
function atEnd() {
  return game.view === game.plies.length;
}

/* Starts a game with the chosen colour from #fen= in the address, else the usual start. */
function newGame() {
  if (!rules) return;
  clearNotice();
  const choice = ui.colour.value;
  startGame(addressStart(), choice === 'r' ? (Math.random() < 0.5 ? 'w' : 'b') : choice, [], null);
}

/* Starts a game from state (a position from rules), human playing colour, with plies already
 * played (imported) and a result (imported, or null); the engine moves when it is its turn. */
function startGame(start, colour, plies, over, tags) {
  stopThinking();
  game.human = colour;
  game.flipped = colour === 'b';
  game.start = start;
  game.plies = plies;
  game.view = plies.length;
  game.thoughts = new Map();
  game.tags = tags || null;
  game.selected = null;
  game.lastReply = null;
  game.date = new Date();
  game.over = outcome() || over;
  edited.fen = false;
  edited.pgn = false;
  hidePromotion();
  render();
  if (!game.over && positionAt(game.plies.length).turn !== game.human) think();
}

/* The position in the page address (#fen=...) when it is one to play from, else the usual
 * start; a FEN it cannot use gets a notice that names what is wrong. */
function addressStart() {
  const fen = new URLSearchParams(location.hash.slice(1)).get('fen');
  if (fen) {
    const state = rules.state(fen);
    const problem = state.error || (state.status !== 'play' ? 'the position is ' + STATUS_TEXT[state.status] : '');
    if (!problem) return state;
    setNotice('The FEN in the address is not used: ' + problem + '. The game starts from the usual position.', 'error');
  }
  return rules.state(START_FEN);
}

/* The move number and the ply parity (0 White, 1 Black) of a position. */
function moveNumber(state) {
  return { number: Number(state.fen.split(' ')[5]) || 1, offset: state.turn === 'w' ? 0 : 1 };
}

/* "12." or "12..." for the move played from state. */
function moveLabel(state) {
  const { number, offset } = moveNumber(state);
  return number + (offset ? '...' : '.');
}

/* The part of a FEN that decides repetition: placement, side, castling, en passant. */
function positionKey(fen) {
  return fen.split(' ').slice(0, 4).join(' ');
}

/* Returns { result, text } when the live position ends the game by rule, else null. */
function outcome() {
  const last = game.plies.length;
  const state = positionAt(last);
  const winner = OTHER[state.turn];
  if (state.status === 'checkmate') {
    const who = winner === game.human ? 'you win' : 'Boxer wins';
    return { result: winner === 'w' ? '1-0' : '0-1', text: 'Checkmate: ' + COLOUR_NAME[winner] + ' wins (' + who + ').' };
  }
  const draws = {
    stalemate: 'Draw by stalemate.',
    material: 'Draw: neither side has enough material to mate.',
    fifty: 'Draw by the fifty-move rule.',
  };
  if (draws[state.status]) return { result: '1/2-1/2', text: draws[state.status] };
  const key = positionKey(state.fen);
  let seen = 0;
  for (let n = 0; n <= last; n++) if (positionKey(positionAt(n).fen) === key) seen++;
  if (seen >= 3) return { result: '1/2-1/2', text: 'Draw by threefold repetition.' };
  return null;
}

/* Plays a legal move of the shown position (an entry of its moves); when an earlier position
 * is shown, the game goes on from there and the moves after it are dropped. */
function commit(move, dragged) {
  const from = shown();
  const next = rules.play(from.fen, move.uci);
  if (next.error) {
    setNotice('Move refused: ' + next.error, 'error');
    return;
  }
  if (!atEnd()) {
    game.plies.length = game.view;
    for (const n of game.thoughts.keys()) if (n > game.view) game.thoughts.delete(n);
    if (game.over && !game.over.final) game.over = null;
  }
  game.plies.push({ san: next.san, uci: next.uci, state: next });
  game.view = game.plies.length;
  game.selected = null;
  edited.fen = false;
  edited.pgn = false;
  clearNotice();
  game.over = outcome();
  render();
  moved(game.plies[game.view - 1], !dragged, false);
  if (!game.over && next.turn !== game.human) think();
}

/* Takes back the person's last move and whatever the engine answered (or is thinking about). */
function takeBack() {
  const to = takeBackTarget();
  if (to === null) return;
  stopThinking();
  game.plies.length = to;
  for (const n of game.thoughts.keys()) if (n > to) game.thoughts.delete(n);
  game.view = to;
  game.over = null;
  game.selected = null;
  clearNotice();
  render();
}

/* The ply count to go back to (the person to move, one of their moves undone), or null. */
function takeBackTarget() {
  if (!rules || !game.start || (game.over && game.over.final)) return null;
  for (let n = game.plies.length - 1; n >= 0; n--) if (positionAt(n).turn === game.human) return n;
  return null;
}

/* The person takes the engine's side and the engine the person's, which it plays at once. */
function switchSides() {
  if (!rules || game.over) return;
  stopThinking();
  game.human = OTHER[game.human];
  game.flipped = game.human === 'b';
  game.view = game.plies.length;
  game.selected = null;
  render();
  if (positionAt(game.view).turn !== game.human) think();
}

/* Resigns for the person, after a second click within three seconds. */
function resign() {
  if (!rules || game.over) return;
  if (!resignArmed) {
    ui.resign.textContent = 'Really resign?';
    ui.resign.classList.add('armed');
    resignArmed = setTimeout(disarmResign, 3000);
    return;
  }
  disarmResign();
  stopThinking();
  const winner = OTHER[game.human];
  game.over = {
    result: winner === 'w' ? '1-0' : '0-1', final: true,
    text: COLOUR_NAME[game.human] + ' resigns: ' + COLOUR_NAME[winner] + ' wins (Boxer wins).',
  };
  game.view = game.plies.length;
  render();
}

/* Puts the resign button back to its first click. */
function disarmResign() {
  clearTimeout(resignArmed);
  resignArmed = 0;
  ui.resign.textContent = 'Resign';
  ui.resign.classList.remove('armed');
}

/* Offers Boxer a draw: it accepts when its last search did not rate its side above DRAW_ACCEPT_CP. */
function offerDraw() {
  if (!rules || game.over || game.thinking) return;
  const last = game.plies.length;
  const thought = game.thoughts.get(last) || game.thoughts.get(last - 1);
  if (!thought || thought.searching || thought.depth === 0) {
    setNotice('Boxer declines the draw: it has not judged this position yet.', '');
    render();
    return;
  }
  const engine = OTHER[game.human];
  const sign = positionAt(thought.ply).turn === engine ? 1 : -1;
  const forEngine = sign * (thought.mate ? Math.sign(thought.mate) * 100000 : thought.score);
  const rated = formatScore(thought, engine);
  if (forEngine > DRAW_ACCEPT_CP) {
    setNotice('Boxer declines the draw: it rates its position ' + rated + ' for itself.', '');
    render();
    return;
  }
  clearNotice();
  game.over = { result: '1/2-1/2', final: true, text: 'Draw agreed: Boxer accepts your offer (it rates its position ' + rated + ').' };
  game.view = last;
  render();
}

/* ----------------------------------------------------------------- engine */

/* Asks the worker for the engine's move in the live position. */
function think() {
  const ply = game.plies.length;
  game.request++;
  game.thinking = {
    id: game.request, ply, start: performance.now(), seconds: Number(ui.seconds.value), level: level(),
    lines: ui.showLines.checked ? LINES_SHOWN : 1,
  };
  game.thoughts.delete(ply);
  worker.postMessage({
    id: game.request, fen: game.start.fen, moves: game.plies.map((p) => p.uci), seconds: game.thinking.seconds,
    level: game.thinking.level, lines: game.thinking.lines, asked: performance.timeOrigin + game.thinking.start,
  });
  clearInterval(ticker);
  ticker = setInterval(renderStatus, 100);
  render();
}

/* Drops a search under way (it cannot be interrupted: its worker is replaced). */
function stopThinking() {
  if (!game.thinking) return;
  game.thoughts.delete(game.thinking.ply);
  game.thinking = null;
  clearInterval(ticker);
  startWorker();
}

/* A message from the worker: a line of an iteration's report, or the answer, which is played.
 * An iteration reports its lines together, best first: line 1 starts the thought shown. */
function onWorker(data) {
  const t = game.thinking;
  if (!t || data.id !== t.id) return;
  if (data.info) {
    const info = data.info;
    const now = game.thoughts.get(t.ply);
    if (info.bound || info.line > t.lines) return;
    if (info.line === 1) {
      game.thoughts.set(t.ply, Object.assign({ ply: t.ply, searching: true, level: t.level, wanted: t.lines }, info,
        { lines: [info] }));
    } else if (now) {
      now.lines[info.line - 1] = info;
    }
    renderEngine();
    return;
  }
  game.thinking = null;
  clearInterval(ticker);
  const state = positionAt(t.ply);
  const move = data.answer && state.moves.find((m) => m.uci === data.answer.move);
  if (data.error || !move) {
    setNotice('The engine gave no move' + (data.error ? ': ' + data.error : '') + '.', 'error');
    render();
    return;
  }
  const wall = performance.now() - t.start;
  const last = game.thoughts.get(t.ply);
  /* a move proven best late, or a table hit, can cut the final PV short: then the last
   * iteration's longer line for the same move stands in for the rest of it */
  const pv = data.answer.pv.length < 2 && last && last.pv[0] === data.answer.san ? last.pv : data.answer.pv;
  game.thoughts.set(t.ply, Object.assign({ ply: t.ply, level: t.level, wanted: t.lines }, data.answer,
    { searching: false, wall, pv }));
  game.lastReply = { san: move.san, ms: wall };
  const follow = atEnd();
  const next = rules.play(state.fen, move.uci);
  game.plies.push({ san: next.san, uci: next.uci, state: next });
  if (follow) game.view = game.plies.length;
  game.over = outcome();
  render();
  if (follow) moved(game.plies[game.view - 1], true, false);
}

/* ------------------------------------------------------------ interaction */

/* Returns 1 if the person may move in the shown position now. */
function canMove() {
  if (!rules || !game.start || game.thinking || !ui.promotion.hidden) return false;
  if (game.over && (game.over.final || atEnd())) return false;
  return shown().turn === game.human && shown().moves.length > 0;
}

/* The legal moves of the shown position that start on square. */
function movesFrom(square) {
  return shown().moves.filter((m) => m.uci.slice(0, 2) === square);
}

/* The square element under a point, or null. */
function squareAt(x, y) {
  const el = document.elementFromPoint(x, y);
  return el && el.closest ? el.closest('[data-square]') : null;
}

/* A click (or Enter) on a square: picks a piece, moves the picked one there, or drops it. */
function activate(square) {
  if (!canMove()) return;
  if (game.selected && game.selected !== square && movesFrom(game.selected).some((m) => m.uci.slice(2, 4) === square)) {
    tryMove(game.selected, square, false);
    return;
  }
  game.selected = movesFrom(square).length && game.selected !== square ? square : null;
  render();
}

/* A press on a square: a move to it when a piece is picked, else picks the piece and may start a drag. */
function onPointerDown(event) {
  const el = event.target.closest('[data-square]');
  if (!el || !canMove() || event.button > 0) return;
  const square = el.dataset.square;
  game.focus = square;
  if (game.selected && game.selected !== square && movesFrom(game.selected).some((m) => m.uci.slice(2, 4) === square)) {
    tryMove(game.selected, square, false);
    return;
  }
  if (movesFrom(square).length === 0) {
    game.selected = null;
    render();
    return;
  }
  drag = { from: square, wasSelected: game.selected === square, x: event.clientX, y: event.clientY, ghost: null };
  game.selected = square;
  ui.board.setPointerCapture(event.pointerId);
  event.preventDefault();
  render();
}

/* Drags the picked piece's ghost under the pointer, once it has moved 5 pixels. */
function onPointerMove(event) {
  if (!drag) return;
  if (!drag.ghost) {
    if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 5) return;
    const piece = squares[drag.from].querySelector('.piece');
    drag.ghost = document.createElement('div');
    drag.ghost.className = 'ghost ' + piece.className.replace('piece', '').trim();
    drag.ghost.textContent = piece.textContent;
    drag.ghost.style.fontSize = getComputedStyle(piece).fontSize; /* the board's size is known inside .layout only */
    document.body.appendChild(drag.ghost);
    squares[drag.from].classList.add('dragging');
  }
  drag.ghost.style.left = event.clientX + 'px';
  drag.ghost.style.top = event.clientY + 'px';
}

/* Drops a dragged piece (a move when legal), or a second click drops the pick. */
function onPointerUp(event) {
  if (!drag) return;
  const { from, ghost, wasSelected } = drag;
  cancelDrag();
  if (ghost) {
    const el = squareAt(event.clientX, event.clientY);
    if (el && el.dataset.square !== from) tryMove(from, el.dataset.square, true);
  } else if (wasSelected) {
    game.selected = null; /* a second click on the selected piece drops it */
    render();
  }
}

/* Ends a drag, putting the piece back. */
function cancelDrag() {
  if (!drag) return;
  if (drag.ghost) drag.ghost.remove();
  squares[drag.from].classList.remove('dragging');
  drag = null;
}

/* Arrow keys move between squares (as they look on screen), Enter or Space acts as a click,
 * Escape drops the picked piece. */
function onBoardKey(event) {
  const el = event.target.closest('[data-square]');
  if (!el) return;
  const steps = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[event.key];
  if (steps) {
    const sign = game.flipped ? -1 : 1;
    const file = FILES.indexOf(el.dataset.square[0]) + sign * steps[0];
    const rank = Number(el.dataset.square[1]) - 1 + sign * steps[1];
    if (file >= 0 && file < 8 && rank >= 0 && rank < 8) focusSquare(FILES[file] + (rank + 1));
  } else if (event.key === 'Enter' || event.key === ' ') {
    activate(el.dataset.square);
  } else if (event.key === 'Escape') {
    game.selected = null;
    render();
  } else {
    return;
  }
  event.preventDefault();
  event.stopPropagation();
}

/* Moves the keyboard focus (and the board's one tab stop) to a square. */
function focusSquare(name) {
  game.focus = name;
  renderFocus();
  squares[name].focus();
}

/* ← → Home End step through the game, unless a field or the board has the keys. */
function onPageKey(event) {
  const target = event.target;
  if (event.altKey || event.ctrlKey || event.metaKey || (target.closest && target.closest('input, textarea, select, #board'))) return;
  const to = { ArrowLeft: game.view - 1, ArrowRight: game.view + 1, Home: 0, End: game.plies.length }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  goTo(to);
}

/* Shows the position after n plies (clamped), animating a step of one ply. */
function goTo(n) {
  if (!game.start) return;
  const to = Math.max(0, Math.min(game.plies.length, n));
  if (to === game.view) return;
  const from = game.view;
  game.view = to;
  game.selected = null;
  edited.fen = false;
  edited.pgn = false;
  hidePromotion();
  render();
  if (to === from + 1) moved(game.plies[to - 1], true, false);
  else if (to === from - 1) moved(game.plies[from - 1], true, true);
}

/* Plays from -> to if legal, asking which piece when it is a promotion. */
function tryMove(from, to, dragged) {
  const candidates = movesFrom(from).filter((m) => m.uci.slice(2, 4) === to);
  if (candidates.length === 0) {
    render();
    return;
  }
  if (candidates.length === 1) {
    commit(candidates[0], dragged);
    return;
  }
  showPromotion(candidates);
}

/* Offers the promotion pieces, queen first. */
function showPromotion(candidates) {
  ui.promotionChoices.innerHTML = '';
  for (const type of ['q', 'r', 'b', 'n']) {
    const move = candidates.find((m) => m.uci[4] === type);
    const button = document.createElement('button');
    button.type = 'button';
    button.className = shown().turn;
    button.textContent = GLYPH[type];
    button.title = { q: 'Queen', r: 'Rook', b: 'Bishop', n: 'Knight' }[type];
    button.dataset.promotion = type;
    button.addEventListener('click', () => {
      hidePromotion();
      commit(move, false);
    });
    ui.promotionChoices.appendChild(button);
  }
  ui.promotion.hidden = false;
  ui.promotionChoices.firstChild.focus();
}

/* Closes the promotion dialog (the move is not played). */
function hidePromotion() {
  ui.promotion.hidden = true;
  render();
}

/* ---------------------------------------------------- set-up and export */

/* Starts a game from the FEN in #fen, the person playing the side to move. */
function loadFen() {
  if (!rules) return;
  const state = rules.state(ui.fen.value.trim());
  if (state.error) {
    setNotice('That FEN is not valid: ' + state.error + '.', 'error');
    return;
  }
  if (state.status !== 'play') {
    setNotice('That FEN has no game left to play: the position is ' + STATUS_TEXT[state.status] + '.', 'error');
    return;
  }
  setNotice('Started from the FEN: you play ' + COLOUR_NAME[state.turn] + ', the side to move.', 'ok');
  ui.colour.value = state.turn;
  startGame(state, state.turn, [], null);
}

/* Loads the game in #pgn (its first game): the person plays the side to move at its end. */
function loadPgn() {
  if (!rules) return;
  let parsed;
  try {
    parsed = replayPgn(ui.pgn.value);
  } catch (error) {
    setNotice(error.message, 'error');
    return;
  }
  const { start, plies, result, tags } = parsed;
  const end = plies.length ? plies[plies.length - 1].state : start;
  const over = result !== '*' ? { result, final: false, text: 'The game as loaded ended ' + result + '.' } : null;
  setNotice('Loaded the game: ' + plies.length + (plies.length === 1 ? ' ply' : ' plies') + '. You play '
    + COLOUR_NAME[end.turn] + ' from its end; click a move or use ← → to look back.', 'ok');
  ui.colour.value = end.turn;
  startGame(start, end.turn, plies, over, tags);
}

/* Reads a PGN's first game: its tags, its moves (with comments, variations, move numbers,
 * annotation glyphs and NAGs left out) and its result; returns { tags, sans, result }. */
function parsePgn(text) {
  const tags = {};
  const sans = [];
  let result = '*';
  let rest = text.replace(/^\uFEFF/, '').replace(/^%.*$/gm, '');
  const tag = /^\s*\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]/;
  for (let m = tag.exec(rest); m; m = tag.exec(rest)) {
    tags[m[1]] = m[2].replace(/\\(.)/g, '$1');
    rest = rest.slice(m[0].length);
  }
  let depth = 0;
  for (const token of rest.match(/\{[^}]*\}?|;[^\n]*|[()]|\[|[^\s(){};[]+/g) || []) {
    if (token === '(') depth++;
    else if (token === ')') depth = Math.max(0, depth - 1);
    if (depth > 0 || token === ')' || token[0] === '{' || token[0] === ';' || token[0] === '$') continue;
    if (token === '[') break; /* the tags of the next game */
    if (RESULTS.includes(token)) {
      result = token;
      break;
    }
    const move = token.replace(/^0-0-0/, 'O-O-O').replace(/^0-0/, 'O-O').replace(/^\d+\.+/, '').replace(/[!?]+$/, '');
    if (move && move !== 'e.p.' && !/^\d+$/.test(move)) sans.push(move);
  }
  return { tags, sans, result };
}

/* Replays parsePgn's moves through the rules; throws an Error naming the first bad move. */
function replayPgn(text) {
  const { tags, sans, result } = parsePgn(text);
  if (!sans.length && !tags.FEN) throw new Error('That PGN holds no moves and no FEN tag.');
  const start = rules.state(tags.FEN || START_FEN);
  if (start.error) throw new Error('The PGN\'s FEN tag is not valid: ' + start.error + '.');
  const plies = [];
  let state = start;
  for (const san of sans) {
    const next = rules.play(state.fen, san);
    if (next.error) {
      throw new Error('The PGN\'s move ' + moveLabel(state) + (state.turn === 'b' ? '' : ' ') + san + ' is not legal'
        + (plies.length ? ' after ' + plies.map((p) => p.san).slice(-3).join(' ') : ' in its first position')
        + ' (ply ' + (plies.length + 1) + ').');
    }
    plies.push({ san: next.san, uci: next.uci, state: next });
    state = next;
  }
  return { start, plies, result, tags };
}

/* Returns the whole game in PGN (the Seven Tag Roster, then the moves wrapped at 80 columns,
 * a move number never apart from its move). */
function pgn() {
  const d = game.date;
  const date = d.getFullYear() + '.' + String(d.getMonth() + 1).padStart(2, '0') + '.' + String(d.getDate()).padStart(2, '0');
  const result = game.over ? game.over.result : '*';
  const given = game.tags || {};
  const tags = [
    ['Event', given.Event || 'Casual game'], ['Site', given.Site || 'Boxer in the browser'], ['Date', given.Date || date],
    ['Round', given.Round || '-'], ['White', given.White || (game.human === 'w' ? 'You' : 'Boxer')],
    ['Black', given.Black || (game.human === 'b' ? 'You' : 'Boxer')], ['Result', result],
  ];
  if (game.start.fen !== START_FEN) tags.push(['SetUp', '1'], ['FEN', game.start.fen]);
  const words = [];
  game.plies.forEach((ply, i) => {
    const before = positionAt(i);
    words.push(before.turn === 'w' || i === 0 ? moveLabel(before) + ' ' + ply.san : ply.san); /* kept on one line */
  });
  words.push(result);
  const lines = [];
  let line = '';
  for (const word of words) {
    if (line && line.length + 1 + word.length > 80) {
      lines.push(line);
      line = word;
    } else {
      line = line ? line + ' ' + word : word;
    }
  }
  lines.push(line);
  const quote = (v) => String(v).replace(/[\\"]/g, '\\$&');
  return tags.map(([k, v]) => '[' + k + ' "' + quote(v) + '"]').join('\n') + '\n\n' + lines.join('\n');
}

/* ---------------------------------------------------------------- drawing */

/* Returns square name -> piece letter (upper case white) from a FEN. */
function placement(fen) {
  const pieces = {};
  fen.split(' ')[0].split('/').forEach((row, i) => {
    let file = 0;
    for (const c of row) {
      if (c >= '1' && c <= '8') file += Number(c);
      else pieces[FILES[file++] + (8 - i)] = c;
    }
  });
  return pieces;
}

/* Redraws everything from the game state. */
function render() {
  if (!game.start) return;
  document.body.dataset.state = game.over ? 'over' : game.thinking ? 'thinking' : 'play';
  renderBoard();
  renderPlayers();
  renderMoves();
  renderStatus();
  renderEngine();
  renderFields();
  renderButtons();
}

/* Draws the shown position: pieces, last move, check, the picked piece, its moves, labels. */
function renderBoard() {
  const state = shown();
  const pieces = placement(state.fen);
  const last = game.view ? game.plies[game.view - 1].uci : '';
  const targets = game.selected ? movesFrom(game.selected) : [];
  const mine = canMove() ? new Set(state.moves.map((m) => m.uci.slice(0, 2))) : new Set();
  const whiteBottom = !game.flipped;
  const order = [];
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      const file = whiteBottom ? col : 7 - col;
      const rank = whiteBottom ? 7 - row : row;
      order.push(FILES[file] + (rank + 1));
    }
  }
  order.forEach((name, i) => {
    const el = squares[name];
    if (ui.board.children[i] !== el) ui.board.insertBefore(el, ui.board.children[i] || null);
    const letter = pieces[name];
    const piece = el.querySelector('.piece');
    piece.textContent = letter ? GLYPH[letter.toLowerCase()] : '';
    piece.className = 'piece' + (letter ? (letter === letter.toUpperCase() ? ' w' : ' b') : '');
    piece.style.visibility = '';
    const king = state.turn === 'w' ? 'K' : 'k';
    const target = targets.find((m) => m.uci.slice(2, 4) === name);
    el.classList.toggle('last', last !== '' && (last.slice(0, 2) === name || last.slice(2, 4) === name));
    el.classList.toggle('check', state.check && letter === king);
    el.classList.toggle('selected', game.selected === name);
    el.classList.toggle('target', Boolean(target));
    el.classList.toggle('capture', Boolean(target) && (Boolean(letter) || target.san.includes('x')));
    el.classList.toggle('movable', mine.has(name));
    el.setAttribute('aria-label', name + ', ' + (letter ? COLOUR_NAME[letter === letter.toUpperCase() ? 'w' : 'b'].toLowerCase()
      + ' ' + PIECE_NAME[letter.toLowerCase()] : 'empty') + (game.selected === name ? ', picked' : target ? ', a move' : ''));
    el.querySelectorAll('.coord').forEach((c) => c.remove());
    if (i % 8 === 0) el.insertAdjacentHTML('beforeend', '<span class="coord rank">' + name[1] + '</span>');
    if (i >= 56) el.insertAdjacentHTML('beforeend', '<span class="coord file">' + name[0] + '</span>');
  });
  renderFocus();
}

/* Gives the focused square the board's one tab stop. */
function renderFocus() {
  for (const name in squares) squares[name].tabIndex = name === game.focus ? 0 : -1;
}

/* Names the players above and below the board, with the material one has more of than
 * the other (the pieces and their sum, as chess sites show it) and the thinking mark. */
function renderPlayers() {
  const pieces = Object.values(placement(shown().fen));
  const count = (letter) => pieces.filter((p) => p === letter).length;
  const captured = { w: [], b: [] }; /* pieces one side has more of */
  let lead = 0; /* white's material minus black's */
  for (const type of ['q', 'r', 'b', 'n', 'p']) {
    const more = count(type.toUpperCase()) - count(type);
    lead += more * VALUE[type];
    for (let i = 0; i < Math.abs(more); i++) captured[more > 0 ? 'w' : 'b'].push(GLYPH[type]);
  }
  const top = game.flipped ? 'w' : 'b';
  const boxer = 'Boxer' + (level() < Boxer.LEVEL_MAX ? ' (level ' + level() + ')' : '');
  for (const [el, colour] of [[ui.playerTop, top], [ui.playerBottom, OTHER[top]]]) {
    const name = colour === game.human ? 'You' : boxer;
    const ahead = colour === 'w' ? lead : -lead;
    el.className = 'player' + (game.thinking && colour !== game.human ? ' thinking' : '');
    el.innerHTML = '<span class="swatch ' + colour + '"></span><span class="name">' + name + '</span>'
      + '<span class="captured">' + captured[colour].join('') + '</span>'
      + (ahead > 0 ? '<span class="lead">+' + ahead + '</span>' : '')
      + '<span class="thinking-dots">thinking…</span>';
  }
}

/* The move list: a button per ply (data-ply: the plies played after it), the shown one marked. */
function renderMoves() {
  const { number, offset } = moveNumber(game.start);
  const rows = [];
  const cell = (j) => {
    if (j < 0) return '<span class="skip">…</span>';
    if (j >= game.plies.length) return '<span></span>';
    return '<button type="button" class="san' + (j === game.view - 1 ? ' current' : '') + '" data-ply="' + (j + 1)
      + '">' + game.plies[j].san + '</button>';
  };
  for (let i = -offset; i < game.plies.length; i += 2) {
    rows.push('<li><span class="num">' + (number + (i + offset) / 2) + '.</span>' + cell(i) + cell(i + 1) + '</li>');
  }
  const html = rows.join('');
  if (ui.moves.innerHTML !== html) ui.moves.innerHTML = html;
  const current = ui.moves.querySelector('.current');
  if (atEnd()) {
    ui.moves.scrollTop = ui.moves.scrollHeight;
  } else if (current) {
    const top = current.offsetTop - ui.moves.offsetTop;
    if (top < ui.moves.scrollTop || top + current.offsetHeight > ui.moves.scrollTop + ui.moves.clientHeight) {
      ui.moves.scrollTop = top - ui.moves.clientHeight / 2;
    }
  }
}

/* Writes the status line: whose move, check, thinking (with a running clock), looking back,
 * or the result. */
function renderStatus() {
  if (!game.start) return;
  const state = shown();
  if (game.thinking) {
    const seconds = ((performance.now() - game.thinking.start) / 1000).toFixed(1);
    setStatus('Boxer is thinking… ' + seconds + ' s of ' + game.thinking.seconds + ' s'
      + (atEnd() ? '' : ' (you are looking back: End returns)'), 'thinking');
  } else if (!atEnd()) {
    const where = game.view ? 'after ' + moveLabel(positionAt(game.view - 1)) + ' ' + game.plies[game.view - 1].san : 'at the start';
    const how = canMove() ? 'Move here to play on from this position' : 'Boxer was to move here';
    setStatus('Looking back ' + where + '. ' + how + ', or press → or End to return.', 'back');
  } else if (game.over) {
    setStatus(game.over.text + ' ' + game.over.result, 'over');
  } else if (state.turn === game.human) {
    const reply = game.lastReply ? 'Boxer played ' + game.lastReply.san + ' in '
      + (game.lastReply.ms / 1000).toFixed(1) + ' s. ' : '';
    setStatus(reply + (state.check ? 'Check! ' : '') + 'Your move (' + COLOUR_NAME[game.human] + ').', '');
  } else {
    setStatus('Boxer (' + COLOUR_NAME[state.turn] + ') is to move.', '');
  }
  ui.result.hidden = !game.over;
  ui.result.textContent = game.over ? game.over.result + ' · ' + game.over.text : '';
}

/* Writes the status line, kind ('', thinking, back, over, error) setting its colour. */
function setStatus(text, kind) {
  ui.status.textContent = text;
  ui.status.className = 'status' + (kind ? ' ' + kind : '');
}

/* A message under the status: an error in set-up, an answer to a draw offer, a confirmation. */
function setNotice(text, kind) {
  ui.notice.textContent = text;
  ui.notice.className = 'notice' + (kind ? ' ' + kind : '');
  ui.notice.hidden = false;
}

/* Hides the notice. */
function clearNotice() {
  ui.notice.hidden = true;
  ui.notice.textContent = '';
}

/* A score for colour's side: "+0.35", "-1.20", "#3" (mates in 3) or "#-3" (is mated in 3). */
function formatScore(thought, colour) {
  const sign = positionAt(thought.ply).turn === colour ? 1 : -1;
  if (thought.mate) return '#' + sign * thought.mate;
  const value = sign * thought.score / 100;
  return (value > 0 ? '+' : value < 0 ? '\u2212' : '') + Math.abs(value).toFixed(2);
}

/* A principal variation with move numbers, from the position after ply plies. */
function numberedLine(ply, sans) {
  let { number, offset } = moveNumber(positionAt(ply));
  const words = [];
  sans.forEach((san, i) => {
    if (offset === 0) words.push(number + '. ' + san);
    else words.push((i === 0 ? number + '... ' : '') + san);
    if (offset === 1) number++;
    offset = 1 - offset;
  });
  return words.join(' ');
}

/* The engine's line for the shown position (its search there, or the one that chose the move
 * that led there) in #engine-line, the evaluation bar, both from White's side, and its top
 * lines under the board. */
function renderEngine() {
  const t = game.thoughts.get(game.view) || game.thoughts.get(game.view - 1);
  renderLines(t);
  const bar = (percent, text, label) => {
    ui.evalFill.style.height = percent + '%';
    ui.evalText.textContent = text;
    ui.evalBar.setAttribute('aria-label', label);
    ui.evalBar.classList.toggle('flipped', game.flipped);
  };
  if (!t) {
    ui.engineLine.textContent = game.thinking && game.thinking.ply === game.view ? 'Boxer is starting to think…' : 'No thoughts about this position yet.';
    ui.engineLine.title = '';
    bar(50, '', 'Evaluation: none for this position');
    return;
  }
  const score = formatScore(t, 'w');
  const head = t.searching ? 'thinking · ' : '';
  const depth = t.depth ? 'depth ' + t.depth : 'only move';
  const time = t.searching ? (t.ms / 1000).toFixed(1) + ' s' : (t.ms / 1000).toFixed(2) + ' s';
  ui.engineLine.innerHTML = '';
  const add = (cls, text) => {
    const span = document.createElement('span');
    span.className = cls;
    span.textContent = text;
    ui.engineLine.appendChild(span);
    ui.engineLine.appendChild(document.createTextNode(' '));
  };
  const weaker = t.level < Boxer.LEVEL_MAX ? ' · level ' + t.level : '';
  add('head', head + (t.depth ? score : '') + (t.depth ? ' · ' : '') + depth + ' · ' + time + weaker);
  add('pv', numberedLine(t.ply, t.pv));
  ui.engineLine.title = ui.engineLine.textContent.trim(); /* the whole line, which the box may cut short */
  ui.engineLine.dataset.level = String(t.level);
  ui.engineLine.dataset.nodes = String(t.nodes);
  ui.engineLine.dataset.ms = t.searching ? '' : String(t.ms);
  ui.engineLine.dataset.wall = t.searching ? '' : String(Math.round(t.wall));
  ui.engineLine.dataset.waited = t.searching ? '' : String(t.waited || 0);
  if (!t.depth) {
    bar(50, '', 'Evaluation: none (an only move)');
    return;
  }
  const white = positionAt(t.ply).turn === 'w' ? 1 : -1;
  const percent = t.mate ? (white * t.mate > 0 ? 100 : 0) : 50 + 50 * (2 / (1 + Math.exp(-white * t.score / 400)) - 1);
  bar(percent.toFixed(1), score, 'Evaluation for White: ' + score);
}

/* The top lines of thought t (undefined: none yet) in #lines under the board, when #show-lines
 * is on: each line's score from White's side and its moves, best first, the one Boxer played
 * marked; a note says when the search there looked at one line, or played another. */
function renderLines(t) {
  ui.linesBox.hidden = !ui.showLines.checked;
  document.body.classList.toggle('show-lines', ui.showLines.checked);
  if (ui.linesBox.hidden) return;
  const lines = t && t.lines ? t.lines.slice(0, LINES_SHOWN) : [];
  ui.lines.innerHTML = '';
  lines.forEach((line, i) => {
    const item = document.createElement('li');
    const played = !t.searching && t.line === i + 1;
    const score = formatScore({ ply: t.ply, score: line.score, mate: line.mate }, 'w');
    const moves = numberedLine(t.ply, line.pv);
    item.className = played ? 'played' : '';
    item.title = score + ' ' + moves + (played ? ' (played)' : '');
    item.innerHTML = '<span class="score"></span> ' + (played ? '<span class="tag">played</span> ' : '') + '<span class="pv"></span>';
    item.querySelector('.score').textContent = score;
    item.querySelector('.pv').textContent = moves;
    ui.lines.appendChild(item);
  });
  let note = '';
  if (!t) note = game.thinking && game.thinking.ply === game.view ? 'Boxer is starting to think…' : 'No lines for this position yet.';
  else if (!t.depth) note = 'Boxer played its only move.';
  else if (t.wanted < LINES_SHOWN && lines.length < LINES_SHOWN) note = 'Boxer searched one line here; its next search shows three.';
  else if (!t.searching && !(t.line >= 1 && t.line <= lines.length)) {
    note = 'Boxer played ' + t.san + (t.level < Boxer.LEVEL_MAX ? ' (level ' + t.level + ')' : '') + ', not one of these.';
  }
  ui.linesNote.hidden = !note;
  ui.linesNote.textContent = note;
}

/* The FEN of the shown position and the PGN of the game, unless the user is typing there. */
function renderFields() {
  if (!edited.fen && document.activeElement !== ui.fen) ui.fen.value = shown().fen;
  if (!edited.pgn && document.activeElement !== ui.pgn) ui.pgn.value = pgn();
}

/* Enables the buttons that can act now. */
function renderButtons() {
  ui.takeback.disabled = takeBackTarget() === null;
  ui.first.disabled = ui.back.disabled = game.view === 0;
  ui.forward.disabled = ui.last.disabled = atEnd();
  ui.offerDraw.disabled = Boolean(game.over || game.thinking);
  ui.resign.disabled = ui.switch.disabled = Boolean(game.over);
}

/* ------------------------------------------------------- motion and sound */

/* After a ply is shown: slides its piece from where it stood (unless it was dragged there;
 * backwards when stepping back) and plays its sound. */
function moved(ply, slide, backwards) {
  const from = ply.uci.slice(backwards ? 2 : 0, backwards ? 4 : 2);
  const to = ply.uci.slice(backwards ? 0 : 2, backwards ? 2 : 4);
  if (!backwards) sound(ply.san.includes('x'));
  if (!slide || window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
  const piece = squares[to].querySelector('.piece');
  if (!piece.textContent) return;
  const a = squares[from].getBoundingClientRect();
  const b = squares[to].getBoundingClientRect();
  const ghost = document.createElement('div');
  ghost.className = 'mover ' + piece.className.replace('piece', '').trim();
  ghost.textContent = piece.textContent;
  ghost.style.fontSize = getComputedStyle(piece).fontSize; /* the board's size is known inside .layout only */
  ghost.style.left = a.left + a.width / 2 + 'px';
  ghost.style.top = a.top + a.height / 2 + 'px';
  document.body.appendChild(ghost);
  piece.style.visibility = 'hidden';
  const done = () => {
    if (!ghost.parentNode) return;
    ghost.remove();
    piece.style.visibility = '';
  };
  requestAnimationFrame(() => requestAnimationFrame(() => {
    ghost.style.transform = 'translate(-50%, -50%) translate(' + (b.left - a.left) + 'px, ' + (b.top - a.top) + 'px)';
  }));
  ghost.addEventListener('transitionend', done);
  setTimeout(done, 400);
}

/* A short synthesized click for a move, a lower knock for a capture (when #sound is on). */
function sound(capture) {
  if (!ui.sound.checked) return;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  audio = audio || new Context();
  const t = audio.currentTime;
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.type = capture ? 'square' : 'triangle';
  osc.frequency.setValueAtTime(capture ? 240 : 560, t);
  osc.frequency.exponentialRampToValueAtTime(capture ? 90 : 330, t + 0.09);
  gain.gain.setValueAtTime(0.0001, t);
  gain.gain.exponentialRampToValueAtTime(capture ? 0.22 : 0.18, t + 0.005);
  gain.gain.exponentialRampToValueAtTime(0.0001, t + (capture ? 0.18 : 0.1));
  osc.connect(gain).connect(audio.destination);
  osc.start(t);
  osc.stop(t + 0.2);
}

boot();
