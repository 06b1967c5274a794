/* tests/web/e2e.js [SCREENSHOT]: web/index.html in headless Chromium. Plays 1.e4 by clicking at
 * 1 second a move, then a knight move by dragging at 3 seconds, checking the engine's legal
 * replies, its score, depth and principal variation while it searches and after, that Take back
 * stays put meanwhile (and the top lines' box keeps its size), and the time it took (within
 * the setting on the worker's clock, at least 70% of it); saves a screenshot (default
 * /tmp/boxer-web.png). Then: taking back (also during a search), stepping back with a click
 * and the ← key and playing on from there, the keyboard on the squares, FEN set-up and its
 * errors (in the field and in the address), PGN export and import (and a bad PGN's message),
 * the time of a move made on a new worker (a search dropped for a new game), resigning, a draw
 * offer declined and accepted, a promotion through the dialog and a checkmate with its PGN;
 * the strength (the level the worker and web_think are given, a low level's quick legal
 * reply, the choice kept for the next visit) and the top three lines under the board (shown
 * while Boxer thinks and after, sorted and distinct, the move played marked). Last, times a course-style choose_move(0, fenLength + 1, 3) of engine.wasm inside the
 * browser, which must return within 3 s. Ends with "N passed, N failed". */
'use strict';
const fs = require('fs');
const path = require('path');
const { serve, launch } = require('./chromium');
const { FENS, measure } = require('./measure');

const root = path.join(__dirname, '..', '..');
const screenshot = process.argv[2] || '/tmp/boxer-web.png';
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const SCORE = /([+\u2212]?\d+\.\d\d|#-?\d+) · depth (\d+) · /;

const { check, run } = require('./tally')();

/* Runs a self-contained function with arguments in the page. */
function inPage(page, fn, args) {
  return page.evaluate(({ source, list }) => (0, eval)('(' + source + ')')(...list), { source: fn.toString(), list: args });
}

/* The SAN moves shown in #moves. */
function shownMoves(page) {
  return page.$$eval('#moves .san', (els) => els.map((el) => el.textContent));
}

/* Waits until #moves shows count moves and the page waits for the person. */
async function waitMoves(page, count, timeout) {
  await page.waitForFunction((n) => document.querySelectorAll('#moves .san').length === n
    && document.body.dataset.state !== 'thinking', count, { timeout: timeout || 15000 });
}

/* The distinct places (top and bottom, rounded to the pixel) the element at selector takes,
 * looked at every 20 ms from now until the engine's answer is shown. */
function placesUntilAnswer(page, selector) {
  return page.evaluate((sel) => new Promise((resolve) => {
    const places = new Set();
    const look = () => {
      const box = document.querySelector(sel).getBoundingClientRect();
      places.add(Math.round(box.top) + ' to ' + Math.round(box.bottom));
      if (document.body.dataset.state === 'thinking') setTimeout(look, 20);
      else resolve([...places]);
    };
    look();
  }), selector);
}

/* The piece letters on the board by square, as the page shows them. */
function pieceOn(page, square) {
  return page.$eval('[data-square="' + square + '"] .piece', (el) => el.textContent);
}

/* Plays a move by clicking its two squares. */
async function clickMove(page, from, to) {
  await page.click('[data-square="' + from + '"]');
  await page.click('[data-square="' + to + '"]');
}

/* Checks #engine-line after the engine chose reply in the position fen (with ply number):
 * a score, a depth, and a principal variation that starts with the move it played. */
async function checkLine(page, reply, label) {
  const line = await page.textContent('#engine-line');
  const m = SCORE.exec(line);
  check(m && Number(m[2]) >= 1 && line.includes(label + reply), 'the engine line shows score, depth and a PV starting with '
    + label + reply + ': ' + JSON.stringify(line));
}

/* The engine's time for its last move, as the page measured it (post to answer). */
async function lastWall(page) {
  return Number(await page.getAttribute('#engine-line', 'data-wall'));
}

/* Where the last move's time went, for the messages: the worker's start and the search. */
async function timeParts(page) {
  return 'worker start ' + await page.getAttribute('#engine-line', 'data-waited') + ' ms, search '
    + await page.getAttribute('#engine-line', 'data-ms') + ' ms';
}

/* The slack of the wall time over the setting: the answer's message from the worker back to
 * the page, which a loaded 2-core machine (other tests, other builds) can hold up for a while,
 * as page.js allows the module's call in Node. */
const WALL_SLACK_MS = 250;

/* The least a search is given when a new worker's start took nearly all of the move's time
 * (MIN_SECONDS in web/worker.js). */
const MIN_SEARCH_MS = 50;

/* Checks the time of the engine's last move at `seconds` a move. On the worker's clock, its
 * start and the search keep strictly within the setting: the search gets what the start left,
 * MIN_SEARCH_MS at least, so only a start that took nearly the whole setting (a new worker on
 * a very busy machine) can make the move that much longer. On the page's clock the move takes
 * at least 70% of the setting, and at most that due time and WALL_SLACK_MS. Returns the wall time. */
async function checkTime(page, seconds, what) {
  const limit = seconds * 1000;
  const wall = await lastWall(page);
  const ms = Number(await page.getAttribute('#engine-line', 'data-ms'));
  const waited = Number(await page.getAttribute('#engine-line', 'data-waited'));
  const due = Math.max(limit, waited + MIN_SEARCH_MS);
  check(waited + ms < due, what + ': the worker\'s start and the search keep within ' + due + ' ms ('
    + await timeParts(page) + ')');
  check(wall >= 0.7 * limit && wall < due + WALL_SLACK_MS, what + ': ' + wall + ' ms on the page\'s clock ('
    + 0.7 * limit + ' to ' + (due + WALL_SLACK_MS) + ')');
  return wall;
}

/* The worker's messages so far (window.sentToWorker). */
function sentToWorker(page) {
  return page.evaluate(() => window.sentToWorker.map((m) => ({ level: m.level, lines: m.lines })));
}

/* The lines under the board: [{ score (White's side, a mate as +-(100000 - moves)), text,
 * first (its first move), played }]. */
function shownLines(page) {
  return page.$$eval('#lines li', (items) => items.map((li) => {
    const score = li.querySelector('.score').textContent.replace('\u2212', '-');
    const mate = /^#(-?\d+)$/.exec(score);
    const value = mate ? Math.sign(Number(mate[1])) * (100000 - Math.abs(Number(mate[1]))) : Math.round(Number(score) * 100);
    const pv = li.querySelector('.pv').textContent;
    return { score: value, text: score + ' ' + pv, first: pv.split(' ').find((w) => !/^\d+\.+$/.test(w)),
      played: li.classList.contains('played') };
  }));
}

/* The strength and the lines: the default (full strength, one line, no lines shown) as the
 * worker was given it so far; level 0 with three lines given to the worker, a legal reply
 * well within the setting, the level named; both choices kept across a reload; at full
 * strength three lines under the board while Boxer thinks and after, sorted best first for
 * the side to move, distinct, legal, the one played marked; hidden again when turned off. */
async function checkLevelsAndLines(page, server, rules, before) {
  check(before.length > 0 && before.every((m) => m.level === 20 && m.lines === 1) && await page.inputValue('#level') === '20'
    && !await page.isChecked('#show-lines') && await page.isHidden('#lines-box'),
  'by default Boxer plays at full strength (level 20) with one line, and no lines are shown: '
    + before.length + ' searches asked');
  const labels = await page.$$eval('#level option', (options) => options.map((o) => o.textContent));
  check(labels.length === 21 && labels[0] === 'Full strength' && labels[20] === 'Level 0 (beginner)'
    && await page.$eval('#level', (el) => el.labels.length === 1 && /^Strength/.test(el.labels[0].textContent)),
  'the strength is a labelled choice: ' + labels[0] + ', ' + labels[1] + ' ... ' + labels[20]);

  /* Level 0 with the lines on, at 3 s a move: the worker and web_think get both; the reply
   * is legal and comes well before the 3 s. */
  await page.goto('about:blank');
  await page.goto(server.url);
  await page.waitForSelector('body[data-state="play"]');
  await page.selectOption('#level', '0');
  await page.check('#show-lines');
  await page.selectOption('#seconds', '3');
  await page.selectOption('#colour', 'w');
  await page.click('#new-game');
  await clickMove(page, 'e2', 'e4');
  await waitMoves(page, 2);
  const sent = (await sentToWorker(page)).pop();
  const reply = (await shownMoves(page))[1];
  const wall = await lastWall(page);
  const nodes = Number(await page.getAttribute('#engine-line', 'data-nodes'));
  const head = await page.textContent('#engine-line .head');
  check(sent.level === 0 && sent.lines === 3 && await page.getAttribute('#engine-line', 'data-level') === '0',
    'level 0 and three lines are what the worker and web_think get: ' + JSON.stringify(sent));
  check(rules.play(START, 'e4').moves.some((m) => m.san === reply) && wall < 1500 && nodes < 5000 && /level 0/.test(head)
    && /\(level 0\)/.test(await page.textContent('#player-top')),
  'at level 0 Boxer answers 1.e4 with a legal ' + reply + ' in ' + wall + ' ms at 3 s a move, ' + nodes
    + ' nodes, the level named: ' + head);
  const lowLines = await shownLines(page);
  check(lowLines.length === 3, 'at level 0 the three best of its lines are shown: ' + lowLines.map((l) => l.text).join(' | '));

  /* Both choices are kept for the next visit. */
  await page.reload();
  await page.waitForSelector('body[data-state="play"]');
  check(await page.inputValue('#level') === '0' && await page.isChecked('#show-lines') && await page.isVisible('#lines-box'),
    'the level and the lines are kept across a reload');

  /* Full strength with the lines on, at 2 s: three lines while it searches and after. */
  await page.selectOption('#level', '20');
  await page.selectOption('#seconds', '2');
  await clickMove(page, 'd2', 'd4');
  const boxPlaces = placesUntilAnswer(page, '#lines-box');
  await page.waitForFunction(() => document.body.dataset.state === 'thinking'
    && document.querySelectorAll('#lines li').length === 3, null, { timeout: 5000 })
    .then(() => check(true, 'while Boxer searches, three lines show under the board'),
      () => check(false, 'while Boxer searches, three lines show under the board'));
  await waitMoves(page, 2);
  const boxes = await boxPlaces;
  check(boxes.length === 1, 'the lines\' box keeps its size from the move, before any line, to the answer: '
    + boxes.join(', ') + ' px');
  const played = (await shownMoves(page))[1];
  const lines = await shownLines(page);
  const afterD4 = rules.play(START, 'd4');
  const firsts = lines.map((l) => l.first);
  const marked = lines.filter((l) => l.played);
  console.log('     lines after 1.d4: ' + lines.map((l) => l.text.slice(0, 40)).join(' | '));
  check(lines.length === 3 && lines.every((l, i) => i === 0 || l.score >= lines[i - 1].score)
    && new Set(firsts).size === 3 && firsts.every((san) => afterD4.moves.some((m) => m.san === san)),
  'after the search three lines, sorted best first for Black, distinct and legal: ' + firsts.join(' '));
  const note = await page.textContent('#lines-note');
  check(marked.length === 1 ? marked[0].first === played : marked.length === 0 && note.includes(played),
    'the line Boxer played (' + played + ') is marked, or named when none of the three');
  check(SCORE.test(await page.textContent('#engine-line')) && (await page.textContent('#eval-text')).length > 0,
    'the engine line and the evaluation bar still show the score: ' + await page.textContent('#engine-line .head'));
  await page.screenshot({ path: screenshot.replace(/(\.png)?$/, '-lines.png') });
  await page.uncheck('#show-lines');
  check(await page.isHidden('#lines-box'), 'turning the lines off hides them');
}

async function main() {
  const bytes = fs.readFileSync(path.join(root, 'web', 'engine.wasm'));
  const rules = await require(path.join(root, 'web', 'boxer.js')).fromBytes(fs.readFileSync(path.join(root, 'web', 'boxer.wasm')));
  const server = await serve(path.join(root, 'web'));
  const browser = await launch();
  const times = {};
  try {
    const page = await browser.context.newPage();
    /* every message the page sends its worker, in window.sentToWorker */
    await page.addInitScript(() => {
      window.sentToWorker = [];
      const post = Worker.prototype.postMessage;
      Worker.prototype.postMessage = function (message, ...rest) {
        window.sentToWorker.push(message);
        return post.call(this, message, ...rest);
      };
    });
    const errors = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
    await page.goto(server.url);
    await page.waitForSelector('body[data-state="play"]', { timeout: 15000 });
    check(await page.locator('[data-square]').count() === 64, '64 squares with data-square');
    check(/your move/i.test(await page.textContent('#status')), '#status asks for a move');

    /* 1.e4 at one second a move. */
    await page.selectOption('#seconds', '1');
    await page.click('[data-square="e2"]');
    check(await page.locator('[data-square="e4"].target').count() === 1, 'e2 selected: e4 is highlighted');
    await page.click('[data-square="e4"]');
    await waitMoves(page, 2);
    const two = await shownMoves(page);
    const afterE4 = rules.play(START, 'e4');
    check(two[0] === 'e4', 'first move shown is e4: ' + two[0]);
    check(afterE4.moves.some((m) => m.san === two[1]), 'the reply ' + two[1] + ' is legal after 1.e4');
    check(/Boxer played/.test(await page.textContent('#status')), '#status tells the reply: ' + await page.textContent('#status'));
    await checkLine(page, two[1], '1... ');
    times[1] = await checkTime(page, 1, 'at 1 s a move');
    const firstSearches = await sentToWorker(page);

    /* Drag the g1 knight to f3 at three seconds; the engine's line shows while it searches. */
    await page.selectOption('#seconds', '3');
    const from = await page.locator('[data-square="g1"]').boundingBox();
    const to = await page.locator('[data-square="f3"]').boundingBox();
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2 - 10, { steps: 3 });
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 8 });
    await page.mouse.up();
    await page.waitForFunction(() => document.body.dataset.state === 'thinking'
      && /^thinking · \S+ · depth \d+/.test(document.getElementById('engine-line').textContent), null, { timeout: 5000 })
      .then(() => check(true, 'while it searches, the engine line shows a score, depth and PV'),
        () => check(false, 'while it searches, the engine line shows a score, depth and PV'));
    const during = await page.textContent('#engine-line');
    console.log('     during the search: ' + during);
    const takebackPlaces = await placesUntilAnswer(page, '#takeback');
    await waitMoves(page, 4);
    check(takebackPlaces.length === 1, 'Take back stays put while Boxer thinks and answers (a click aimed at it lands): '
      + takebackPlaces.join(', ') + ' px');
    const four = await shownMoves(page);
    const afterNf3 = rules.play(rules.play(afterE4.fen, two[1]).fen, 'Nf3');
    check(four[2] === 'Nf3', 'dragging g1 to f3 plays Nf3: ' + four[2]);
    check(!afterNf3.error && afterNf3.moves.some((m) => m.san === four[3]), 'the reply ' + four[3] + ' is legal');
    await checkLine(page, four[3], '2... ');
    times[3] = await checkTime(page, 3, 'at 3 s a move');
    const evalHeight = await page.$eval('#eval-fill', (el) => parseFloat(el.style.height));
    check(evalHeight > 0 && evalHeight < 100 && (await page.textContent('#eval-text')).length > 0,
      'the evaluation bar shows the score: ' + evalHeight + '% ' + await page.textContent('#eval-text'));
    await page.click('[data-square="d2"]');
    await page.waitForTimeout(500); /* the reply's slide */
    await page.screenshot({ path: screenshot, fullPage: true });
    console.log('screenshot: ' + screenshot + ' (moves: ' + four.join(' ') + '; engine line: '
      + await page.textContent('#engine-line') + ')');

    /* Take back the knight move and the reply. */
    await page.click('#takeback');
    await waitMoves(page, 2);
    const fenAfterTwo = rules.play(afterE4.fen, two[1]).fen;
    check(await page.inputValue('#fen') === fenAfterTwo && await pieceOn(page, 'g1') !== '' && await pieceOn(page, 'f3') === '',
      'take back: the knight is on g1 again and #fen is the position after 1.e4 ' + two[1]);
    check(/your move/i.test(await page.textContent('#status')), 'take back: the person is to move');

    /* Take back during a search: the search is dropped. */
    await clickMove(page, 'd2', 'd4');
    await page.waitForSelector('body[data-state="thinking"]');
    await page.click('#takeback');
    await waitMoves(page, 2);
    check(await pieceOn(page, 'd2') !== '' && await page.getAttribute('body', 'data-state') === 'play',
      'take back while the engine thinks: d4 is undone and the person is to move');

    /* Play d4 at one second, step back two plies (a click on the move, then ←) and play on there. */
    await page.selectOption('#seconds', '1');
    await clickMove(page, 'd2', 'd4');
    await waitMoves(page, 4);
    const withD4 = await shownMoves(page);
    await page.click('#moves [data-ply="3"]');
    check(await page.getAttribute('#moves [data-ply="3"]', 'class') === 'san current' && await pieceOn(page, 'd4') !== '',
      'a click on 2.d4 in the list shows the position after it');
    await page.keyboard.press('ArrowLeft');
    check(await pieceOn(page, 'd2') !== '' && await pieceOn(page, 'd4') === '' && /Looking back/.test(await page.textContent('#status')),
      '← shows the position before 2.d4: ' + await page.textContent('#status'));
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    check(await pieceOn(page, 'd4') !== '' && !/Looking back/.test(await page.textContent('#status')), '→ twice returns to the live position');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await clickMove(page, 'g1', 'f3');
    await waitMoves(page, 4);
    const playedOn = await shownMoves(page);
    check(playedOn[2] === 'Nf3' && playedOn[0] === withD4[0] && playedOn[1] === withD4[1] && await pieceOn(page, 'd2') !== '',
      'playing Nf3 on the earlier position drops 2.d4 and goes on: ' + playedOn.join(' '));

    /* PGN export: the game so far. */
    const exported = await page.inputValue('#pgn');
    check(exported.includes('[Result "*"]') && exported.endsWith('1. e4 ' + playedOn[1] + ' 2. Nf3 ' + playedOn[3] + ' *'),
      'the PGN holds the game so far: ' + JSON.stringify(exported.split('\n\n')[1]));

    /* The squares by keyboard: a tab stop on the board, Enter picks, arrows move, Enter moves. */
    await page.focus('[data-square][tabindex="0"]');
    const focused = await page.evaluate(() => document.activeElement.dataset.square);
    await page.focus('[data-square="b1"]');
    await page.keyboard.press('Enter');
    const picked = await page.locator('[data-square="b1"].selected').count();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowRight');
    const moved = await page.evaluate(() => document.activeElement.dataset.square);
    await page.keyboard.press('Escape');
    check(focused && picked === 1 && moved === 'c3' && await page.locator('.square.selected').count() === 0,
      'keyboard: one tab stop (' + focused + '), Enter picks b1, arrows reach ' + moved + ', Escape drops it');

    /* FEN set-up, a bad FEN in the field and in the address. */
    await page.fill('#fen', '4k3/8/8/8/8/8/4P3/4K3 w - - 0 1');
    await page.click('#load-fen');
    await page.waitForSelector('body[data-state="play"]');
    check(await pieceOn(page, 'e2') !== '' && await pieceOn(page, 'd1') === '' && (await shownMoves(page)).length === 0
      && /your move/i.test(await page.textContent('#status')), 'a FEN starts a game from its position');
    const badFen = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1';
    await page.fill('#fen', badFen);
    await page.click('#load-fen');
    const why = rules.state(badFen).error;
    const notice = await page.textContent('#notice');
    check(/unexpected character 'X'/.test(why) && notice.includes(why) && await pieceOn(page, 'd1') === '',
      'a bad FEN names what is wrong (' + notice + ') and changes nothing');
    await page.goto('about:blank');
    await page.goto(server.url + '#fen=' + encodeURIComponent('8/8/8 w - -'));
    await page.waitForSelector('body[data-state="play"]');
    const addressNotice = await page.textContent('#notice');
    const addressWhy = rules.state('8/8/8 w - -').error;
    check(/3 ranks/.test(addressWhy) && addressNotice.includes(addressWhy) && await pieceOn(page, 'e2') !== '',
      'a bad #fen= in the address is named (' + addressNotice + ') and the usual start is used');

    /* PGN import with tags, comments, a NAG, a variation, an annotation, a move number stuck to
     * its move, castling written with zeros and the result; then a bad one. */
    const game = '[Event "Test"]\n[White "Ann"]\n[Black "Bob"]\n[Result "1-0"]\n\n'
      + '1. e4 {best by test} e5 2. Nf3 $1 Nc6 (2... d6 3. d4) 3. Bb5 a6?! 4.Ba4 Nf6 5. 0-0 1-0\n';
    await page.fill('#pgn', game);
    await page.click('#load-pgn');
    await page.waitForSelector('body[data-state="over"]');
    const imported = await shownMoves(page);
    check(imported.join(' ') === 'e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O', 'a PGN is imported: ' + imported.join(' '));
    check(/1-0/.test(await page.textContent('#result')), 'its result is shown: ' + await page.textContent('#result'));
    const reexported = await page.inputValue('#pgn');
    check(reexported.includes('[White "Ann"]') && reexported.endsWith('4. Ba4 Nf6 5. O-O 1-0'), 'and exported again with its tags');
    await page.click('#moves [data-ply="3"]');
    check(await page.inputValue('#fen') === rules.play(rules.play(afterE4.fen, 'e5').fen, 'Nf3').fen,
      'a click on 2.Nf3 of the imported game shows its position in #fen');
    await page.fill('#pgn', '1. e4 e5 2. Ke3 Nc6 *');
    await page.click('#load-pgn');
    const pgnNotice = await page.textContent('#notice');
    check(/2\. Ke3/.test(pgnNotice) && /not legal/.test(pgnNotice) && (await shownMoves(page)).length === 9,
      'a bad PGN names its first bad move (' + pgnNotice + ') and changes nothing');

    /* A new game during a search, Boxer now White: it moves at once on a new worker, whose
     * start counts against the move's time (checkTime: only a start that took the whole second,
     * on a very busy machine, leaves the search its least, and the move that much longer). */
    await page.selectOption('#seconds', '1');
    await page.selectOption('#colour', 'w');
    await page.click('#new-game');
    await clickMove(page, 'e2', 'e4');
    await page.waitForSelector('body[data-state="thinking"]');
    await page.selectOption('#colour', 'b');
    await page.click('#new-game');
    await waitMoves(page, 1);
    await checkTime(page, 1, 'a new game during a search: Boxer moves first on a new worker');

    /* Resigning ends the game; the result stays while looking back. */
    await page.selectOption('#colour', 'w');
    await page.click('#new-game');
    await clickMove(page, 'e2', 'e4');
    await waitMoves(page, 2);
    await page.click('#resign');
    await page.click('#resign');
    await page.waitForSelector('body[data-state="over"]');
    await page.keyboard.press('ArrowLeft');
    check(/0-1/.test(await page.textContent('#result')) && /resigns/.test(await page.textContent('#result'))
      && await page.isVisible('#result') && await page.isDisabled('#takeback'),
      'resigning shows 0-1 with its reason, which stays when looking back: ' + await page.textContent('#result'));

    /* Offering a draw: declined before Boxer has judged the position and when it is winning,
     * accepted when it is losing; the result stays while looking back. */
    await page.fill('#fen', 'q3k3/8/8/8/8/8/8/4K3 w - - 0 1');
    await page.click('#load-fen');
    await page.click('#offer-draw');
    const early = await page.textContent('#notice');
    await clickMove(page, 'e1', 'd2');
    await waitMoves(page, 2);
    await page.click('#offer-draw');
    const winning = await page.textContent('#notice');
    check(/not judged/.test(early) && /declines/.test(winning) && await page.getAttribute('body', 'data-state') === 'play',
      'a draw offer is declined before a search and when Boxer is winning: ' + early + ' / ' + winning);
    await page.fill('#fen', '4k3/8/8/8/8/8/8/Q3K3 w - - 0 1');
    await page.click('#load-fen');
    await clickMove(page, 'e1', 'd2');
    await waitMoves(page, 2);
    await page.click('#offer-draw');
    await page.waitForSelector('body[data-state="over"]');
    await page.keyboard.press('ArrowLeft');
    const drawn = await page.textContent('#result');
    check(/^1\/2-1\/2 · Draw agreed/.test(drawn) && await page.isVisible('#result') && await page.isDisabled('#takeback')
      && (await page.inputValue('#pgn')).endsWith('1/2-1/2'),
      'a draw offer is accepted when Boxer is losing; the result stays when looking back: ' + drawn);
    check(errors.length === 0, 'no errors in the page' + (errors.length ? ': ' + errors.join('; ') : ''));

    /* A promotion, chosen in the dialog (the page starts from the FEN after #fen=). */
    await page.goto('about:blank');
    await page.goto(server.url + '#fen=' + encodeURIComponent('8/4P3/8/7k/7p/8/6K1/8 w - - 0 1'));
    await page.waitForSelector('body[data-state="play"]');
    await page.selectOption('#seconds', '1');
    await clickMove(page, 'e7', 'e8');
    check(await page.isVisible('#promotion'), 'moving a pawn to the last rank asks which piece');
    await page.screenshot({ path: screenshot.replace(/(\.png)?$/, '-promotion.png') });
    await page.click('[data-promotion="n"]');
    await waitMoves(page, 2);
    check((await shownMoves(page))[0] === 'e8=N', 'choosing the knight plays e8=N: ' + (await shownMoves(page))[0]);

    /* Checkmate ends the game with the result and the PGN. */
    await page.goto('about:blank');
    await page.goto(server.url + '#fen=' + encodeURIComponent('6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1'));
    await page.waitForSelector('body[data-state="play"]');
    await clickMove(page, 'd1', 'd8');
    await page.waitForSelector('body[data-state="over"]');
    await page.screenshot({ path: screenshot.replace(/(\.png)?$/, '-over.png') });
    check(/checkmate/i.test(await page.textContent('#status')), '#status tells the checkmate: ' + await page.textContent('#status'));
    const pgn = await page.inputValue('#pgn');
    check(/\[Result "1-0"\]/.test(pgn) && /\[FEN "6k1\/5ppp/.test(pgn) && /1\. Rd8# 1-0$/.test(pgn), 'the PGN holds the game: ' + JSON.stringify(pgn));

    await checkLevelsAndLines(page, server, rules, firstSearches);
    check(errors.length === 0, 'no errors in the page with levels and lines' + (errors.length ? ': ' + errors.join('; ') : ''));

    /* The course's call inside the browser: 3 seconds, two positions. */
    const timing = await inPage(page, measure, [Array.from(bytes), FENS.slice(0, 2), 3]);
    for (const call of timing.calls) {
      console.log('Chromium: choose_move(0, fenLength + 1, 3) took ' + call.ms.toFixed(0) + ' ms (' + call.fen + ')');
      check(call.index >= 0 && call.index < call.moves && call.ms < 3000, 'a 3-second call returns a valid index within 3 s');
    }
  } finally {
    await browser.close();
    server.close();
  }
  console.log('the page\'s engine in Chromium: ' + times[1] + ' ms at 1 s a move, ' + times[3] + ' ms at 3 s');
}

run(main);
