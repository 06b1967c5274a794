/* app.js: the game on web/index.html. The rules (legal moves, SAN, checkmate and draws by
 * rule) come from engine.wasm on this thread; the engine's moves come from the same module
 * in a Web Worker (worker.js). Test hooks: [data-square], #moves, #status, body[data-state].
 * index.html#fen=<FEN> starts the games from that position instead of the usual one. */
'use strict';

const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const FILES = 'abcdefgh';
const COLOUR_NAME = { w: 'White', b: 'Black' };
/* Solid glyphs for both sides (coloured by CSS); U+FE0E asks for text, not emoji, style. */
const GLYPH = { k: '\u265A', q: '\u265B', r: '\u265C', b: '\u265D', n: '\u265E', p: '\u265F\uFE0E' };
const VALUE = { p: 1, n: 3, b: 3, r: 5, q: 9, k: 0 };

const ui = {};
for (const id of ['board', 'status', 'moves', 'colour', 'seconds', 'new-game', 'flip', 'promotion',
  'promotion-choices', 'promotion-cancel', 'game-over', 'result', 'pgn', 'copy-pgn', 'download-pgn',
  'player-top', 'player-bottom']) {
  ui[id.replace(/-(.)/g, (_, c) => c.toUpperCase())] = document.getElementById(id);
}

let rules = null;   /* engine.wasm on this thread */
let worker = null;  /* engine.wasm in a Web Worker */
const squares = {}; /* name -> element */
const game = {
  human: 'w', flipped: false, start: null, state: null, plies: [], seen: new Map(), over: null,
  thinking: false, thinkStart: 0, request: 0, selected: null, lastReply: null, date: new Date(),
};
let drag = null;
let ticker = 0;

/* ------------------------------------------------------------------ setup */

/* Loads the rules, starts the worker and the first game. */
async function boot() {
  buildBoard();
  bindControls();
  try {
    rules = await Boxer.load('engine.wasm');
  } catch (error) {
    setStatus('Could not load engine.wasm (' + error.message + '). Build it with `make web`.', 'error');
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
  worker.onmessage = (event) => onReply(event.data);
  worker.onerror = (event) => {
    game.thinking = false;
    setStatus('The engine failed: ' + (event.message || 'unknown error'), 'error');
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
      el.innerHTML = '<span class="hint"></span><span class="piece"></span>';
      squares[name] = el;
    }
  }
  ui.board.addEventListener('pointerdown', onPointerDown);
  ui.board.addEventListener('pointermove', onPointerMove);
  ui.board.addEventListener('pointerup', onPointerUp);
  ui.board.addEventListener('pointercancel', cancelDrag);
  ui.board.addEventListener('contextmenu', (event) => event.preventDefault());
}

/* Wires the buttons and selectors. */
function bindControls() {
  ui.newGame.addEventListener('click', newGame);
  window.addEventListener('hashchange', newGame);
  ui.flip.addEventListener('click', () => {
    game.flipped = !game.flipped;
    render();
  });
  ui.seconds.addEventListener('change', render);
  ui.promotionCancel.addEventListener('click', hidePromotion);
  ui.copyPgn.addEventListener('click', async () => {
    ui.pgn.select();
    try {
      await navigator.clipboard.writeText(ui.pgn.value);
      ui.copyPgn.textContent = 'Copied';
    } catch (error) {
      document.execCommand('copy');
      ui.copyPgn.textContent = 'Copied';
    }
    setTimeout(() => { ui.copyPgn.textContent = 'Copy PGN'; }, 1500);
  });
}

/* ------------------------------------------------------------------- game */

/* Starts a game with the chosen colour; the engine moves first when you are Black. */
function newGame() {
  if (!rules) return;
  if (game.thinking) startWorker(); /* a search cannot be interrupted: drop its worker */
  const choice = ui.colour.value;
  game.human = choice === 'r' ? (Math.random() < 0.5 ? 'w' : 'b') : choice;
  game.flipped = game.human === 'b';
  game.start = rules.state(startFen());
  game.state = game.start;
  game.plies = [];
  game.seen = new Map([[positionKey(game.start.fen), 1]]);
  game.over = null;
  game.thinking = false;
  game.selected = null;
  game.lastReply = null;
  game.date = new Date();
  hidePromotion();
  render();
  if (game.state.turn !== game.human) think();
}

/* The FEN in the page address (#fen=...) when it is a legal position, else the usual start. */
function startFen() {
  const fen = new URLSearchParams(location.hash.slice(1)).get('fen');
  if (!fen) return START_FEN;
  const state = rules.state(fen);
  return state.error || state.status !== 'play' ? START_FEN : state.fen;
}

/* The move number and the ply parity (0 White, 1 Black) of the first move of the game. */
function firstMove() {
  return { number: Number(game.start.fen.split(' ')[5]) || 1, offset: game.start.turn === 'w' ? 0 : 1 };
}

/* The part of a FEN that decides repetition: placement, side, castling, en passant. */
function positionKey(fen) {
  return fen.split(' ').slice(0, 4).join(' ');
}

/* Plays a legal move of the current position (an entry of state.moves). */
function commit(move) {
  const next = rules.play(game.state.fen, move.uci);
  if (next.error) {
    setStatus('Move refused: ' + next.error, 'error');
    return;
  }
  game.plies.push({ san: next.san, uci: next.uci });
  game.state = next;
  const key = positionKey(next.fen);
  game.seen.set(key, (game.seen.get(key) || 0) + 1);
  game.selected = null;
  game.over = outcome();
  render();
  if (!game.over && game.state.turn !== game.human) think();
}

/* Returns { result, text } when the game has ended, else null. */
function outcome() {
  const { status, turn } = game.state;
  const winner = turn === 'w' ? 'b' : 'w';
  if (status === 'checkmate') {
    const who = winner === game.human ? 'you win' : 'Boxer wins';
    return { result: winner === 'w' ? '1-0' : '0-1', text: 'Checkmate: ' + COLOUR_NAME[winner] + ' wins (' + who + ').' };
  }
  const draws = {
    stalemate: 'Draw by stalemate.',
    material: 'Draw: neither side has enough material to mate.',
    fifty: 'Draw by the fifty-move rule.',
  };
  if (draws[status]) return { result: '1/2-1/2', text: draws[status] };
  if (game.seen.get(positionKey(game.state.fen)) >= 3) return { result: '1/2-1/2', text: 'Draw by threefold repetition.' };
  return null;
}

/* Asks the worker for the engine's move. */
function think() {
  game.thinking = true;
  game.thinkStart = performance.now();
  game.request++;
  worker.postMessage({
    id: game.request,
    fen: game.state.fen,
    moves: game.state.moves.map((m) => m.san),
    seconds: Number(ui.seconds.value),
  });
  clearInterval(ticker);
  ticker = setInterval(renderStatus, 100);
  render();
}

/* Plays the worker's answer, unless a new game made it stale. */
function onReply(reply) {
  if (reply.id !== game.request || !game.thinking) return;
  game.thinking = false;
  clearInterval(ticker);
  const move = game.state.moves[reply.index];
  if (reply.error || !move) {
    setStatus('The engine gave no move' + (reply.error ? ': ' + reply.error : '') + '.', 'error');
    return;
  }
  game.lastReply = { san: move.san, ms: reply.ms };
  commit(move);
}

/* ------------------------------------------------------------ interaction */

/* Returns 1 if the person may move now. */
function canMove() {
  return rules && game.state && !game.over && !game.thinking && game.state.turn === game.human
    && ui.promotion.hidden;
}

/* The legal moves of the current position that start on square. */
function movesFrom(square) {
  return game.state.moves.filter((m) => m.uci.slice(0, 2) === square);
}

/* The square element under a point, or null. */
function squareAt(x, y) {
  const el = document.elementFromPoint(x, y);
  return el && el.closest ? el.closest('[data-square]') : null;
}

function onPointerDown(event) {
  const el = event.target.closest('[data-square]');
  if (!el || !canMove() || event.button > 0) return;
  const square = el.dataset.square;
  if (game.selected && game.selected !== square && movesFrom(game.selected).some((m) => m.uci.slice(2, 4) === square)) {
    tryMove(game.selected, square);
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

function onPointerMove(event) {
  if (!drag) return;
  if (!drag.ghost) {
    if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 5) return;
    const piece = squares[drag.from].querySelector('.piece');
    drag.ghost = document.createElement('div');
    drag.ghost.className = 'ghost ' + piece.className.replace('piece', '').trim();
    drag.ghost.textContent = piece.textContent;
    document.body.appendChild(drag.ghost);
    squares[drag.from].classList.add('dragging');
  }
  drag.ghost.style.left = event.clientX + 'px';
  drag.ghost.style.top = event.clientY + 'px';
}

function onPointerUp(event) {
  if (!drag) return;
  const { from, ghost, wasSelected } = drag;
  cancelDrag();
  if (ghost) {
    const el = squareAt(event.clientX, event.clientY);
    if (el && el.dataset.square !== from) tryMove(from, el.dataset.square);
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

/* Plays from -> to if legal, asking which piece when it is a promotion. */
function tryMove(from, to) {
  const candidates = movesFrom(from).filter((m) => m.uci.slice(2, 4) === to);
  if (candidates.length === 0) {
    render();
    return;
  }
  if (candidates.length === 1) {
    commit(candidates[0]);
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
    button.className = game.state.turn;
    button.textContent = GLYPH[type];
    button.title = { q: 'Queen', r: 'Rook', b: 'Bishop', n: 'Knight' }[type];
    button.dataset.promotion = type;
    button.addEventListener('click', () => {
      hidePromotion();
      commit(move);
    });
    ui.promotionChoices.appendChild(button);
  }
  ui.promotion.hidden = false;
}

function hidePromotion() {
  ui.promotion.hidden = true;
  render();
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
  if (!game.state) return;
  document.body.dataset.state = game.over ? 'over' : game.thinking ? 'thinking' : 'play';
  renderBoard();
  renderPlayers();
  renderMoves();
  renderStatus();
  renderGameOver();
}

function renderBoard() {
  const pieces = placement(game.state.fen);
  const last = game.plies.length ? game.plies[game.plies.length - 1].uci : '';
  const targets = game.selected ? movesFrom(game.selected) : [];
  const mine = canMove() ? new Set(game.state.moves.map((m) => m.uci.slice(0, 2))) : new Set();
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
    const king = game.state.turn === 'w' ? 'K' : 'k';
    const target = targets.find((m) => m.uci.slice(2, 4) === name);
    el.classList.toggle('last', last !== '' && (last.slice(0, 2) === name || last.slice(2, 4) === name));
    el.classList.toggle('check', game.state.check && letter === king);
    el.classList.toggle('selected', game.selected === name);
    el.classList.toggle('target', Boolean(target));
    el.classList.toggle('capture', Boolean(target) && (Boolean(letter) || target.san.includes('x')));
    el.classList.toggle('movable', mine.has(name));
    el.querySelectorAll('.coord').forEach((c) => c.remove());
    if (i % 8 === 0) el.insertAdjacentHTML('beforeend', '<span class="coord rank">' + name[1] + '</span>');
    if (i >= 56) el.insertAdjacentHTML('beforeend', '<span class="coord file">' + name[0] + '</span>');
  });
}

/* Names the players above and below the board, with the material one has more of than
 * the other (the pieces and their sum, as chess sites show it) and the thinking mark. */
function renderPlayers() {
  const pieces = Object.values(placement(game.state.fen));
  const count = (letter) => pieces.filter((p) => p === letter).length;
  const captured = { w: [], b: [] }; /* pieces one side has more of */
  let lead = 0; /* white's material minus black's */
  for (const type of ['q', 'r', 'b', 'n', 'p']) {
    const more = count(type.toUpperCase()) - count(type);
    lead += more * VALUE[type];
    for (let i = 0; i < Math.abs(more); i++) captured[more > 0 ? 'w' : 'b'].push(GLYPH[type]);
  }
  const top = game.flipped ? 'w' : 'b';
  for (const [el, colour] of [[ui.playerTop, top], [ui.playerBottom, top === 'w' ? 'b' : 'w']]) {
    const name = colour === game.human ? 'You' : 'Boxer';
    const ahead = colour === 'w' ? lead : -lead;
    el.className = 'player' + (game.thinking && colour !== game.human ? ' thinking' : '');
    el.innerHTML = '<span class="swatch ' + colour + '"></span><span class="name">' + name + '</span>'
      + '<span class="captured">' + captured[colour].join('') + '</span>'
      + (ahead > 0 ? '<span class="lead">+' + ahead + '</span>' : '')
      + '<span class="thinking-dots">thinking…</span>';
  }
}

function renderMoves() {
  const { number, offset } = firstMove();
  const rows = [];
  const cell = (j) => (j < 0 ? '<span>…</span>' : j < game.plies.length
    ? '<span class="san' + (j === game.plies.length - 1 ? ' current' : '') + '">' + game.plies[j].san + '</span>'
    : '<span></span>');
  for (let i = -offset; i < game.plies.length; i += 2) {
    rows.push('<li><span class="num">' + (number + (i + offset) / 2) + '.</span>' + cell(i) + cell(i + 1) + '</li>');
  }
  const html = rows.join('');
  if (ui.moves.innerHTML !== html) {
    ui.moves.innerHTML = html;
    ui.moves.scrollTop = ui.moves.scrollHeight;
  }
}

/* Writes the status line: whose move, check, thinking (with a running clock), or the result. */
function renderStatus() {
  if (game.over) {
    setStatus(game.over.text + ' ' + game.over.result, 'over');
  } else if (game.thinking) {
    const seconds = ((performance.now() - game.thinkStart) / 1000).toFixed(1);
    setStatus('Boxer is thinking… ' + seconds + ' s of up to ' + ui.seconds.value + ' s', 'thinking');
  } else if (game.state.turn === game.human) {
    const reply = game.lastReply ? 'Boxer played ' + game.lastReply.san + ' in '
      + (game.lastReply.ms / 1000).toFixed(1) + ' s. ' : '';
    setStatus(reply + (game.state.check ? 'Check! ' : '') + 'Your move (' + COLOUR_NAME[game.human] + ').', '');
  }
}

function setStatus(text, kind) {
  ui.status.textContent = text;
  ui.status.className = 'status' + (kind ? ' ' + kind : '');
}

/* Shows the result and the PGN once the game is over. */
function renderGameOver() {
  ui.gameOver.hidden = !game.over;
  if (!game.over) return;
  ui.result.textContent = game.over.text;
  ui.pgn.value = pgn();
  ui.downloadPgn.href = URL.createObjectURL(new Blob([ui.pgn.value + '\n'], { type: 'application/x-chess-pgn' }));
}

/* Returns the game in PGN (the Seven Tag Roster, then the moves wrapped at 80 columns). */
function pgn() {
  const d = game.date;
  const date = d.getFullYear() + '.' + String(d.getMonth() + 1).padStart(2, '0') + '.' + String(d.getDate()).padStart(2, '0');
  const result = game.over ? game.over.result : '*';
  const tags = [
    ['Event', 'Casual game'], ['Site', 'Boxer in the browser'], ['Date', date], ['Round', '-'],
    ['White', game.human === 'w' ? 'You' : 'Boxer'], ['Black', game.human === 'b' ? 'You' : 'Boxer'],
    ['Result', result],
  ];
  if (game.start.fen !== START_FEN) tags.push(['SetUp', '1'], ['FEN', game.start.fen]);
  const { number, offset } = firstMove();
  const words = [];
  game.plies.forEach((ply, i) => {
    const n = number + Math.floor((i + offset) / 2);
    if ((i + offset) % 2 === 0) words.push(n + '.');
    else if (i === 0) words.push(n + '...');
    words.push(ply.san);
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
  return tags.map(([k, v]) => '[' + k + ' "' + v + '"]').join('\n') + '\n\n' + lines.join('\n');
}

boot();
