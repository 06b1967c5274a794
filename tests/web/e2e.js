/* tests/web/e2e.js [SCREENSHOT]: web/index.html in headless Chromium. Loads the page, plays
 * 1.e4 by clicking e2 then e4, waits for the engine's reply, checks that the move list shows
 * two legal moves, plays a knight move by dragging, and saves a screenshot (default
 * /tmp/boxer-web.png); then a promotion through the dialog and a checkmate with its PGN. Then times a course-style choose_move(0, fenLength + 1, 3) inside the
 * browser, which must return within 3 s. Ends with "N passed, N failed". */
'use strict';
const fs = require('fs');
const path = require('path');
const { serve, launch } = require('./chromium');
const { FENS, measure } = require('./measure');

const root = path.join(__dirname, '..', '..');
const screenshot = process.argv[2] || '/tmp/boxer-web.png';
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

let pass = 0;
let fail = 0;
function check(ok, what) {
  if (ok) pass++;
  else fail++;
  console.log((ok ? 'ok   ' : 'FAIL ') + what);
}

/* Runs a self-contained function with arguments in the page. */
function inPage(page, fn, args) {
  return page.evaluate(({ source, list }) => (0, eval)('(' + source + ')')(...list), { source: fn.toString(), list: args });
}

/* The SAN moves shown in #moves. */
function shownMoves(page) {
  return page.$$eval('#moves .san', (els) => els.map((el) => el.textContent));
}

async function main() {
  const bytes = fs.readFileSync(path.join(root, 'web', 'engine.wasm'));
  const rules = await require(path.join(root, 'web', 'boxer.js')).fromBytes(bytes);
  const server = await serve(path.join(root, 'web'));
  const browser = await launch();
  try {
    const page = await browser.context.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
    await page.goto(server.url);
    await page.waitForSelector('body[data-state="play"]', { timeout: 15000 });
    check(await page.locator('[data-square]').count() === 64, '64 squares with data-square');
    check(/your move/i.test(await page.textContent('#status')), '#status asks for a move');

    await page.click('[data-square="e2"]');
    check(await page.locator('[data-square="e4"].target').count() === 1, 'e2 selected: e4 is highlighted');
    await page.click('[data-square="e4"]');
    await page.waitForFunction(() => document.querySelectorAll('#moves .san').length === 2, null, { timeout: 15000 });
    const two = await shownMoves(page);
    const afterE4 = rules.play(START, 'e4');
    check(two[0] === 'e4', 'first move shown is e4: ' + two[0]);
    check(afterE4.moves.some((m) => m.san === two[1]), 'the reply ' + two[1] + ' is legal after 1.e4');
    await page.waitForSelector('body[data-state="play"]');
    check(/Boxer played/.test(await page.textContent('#status')), '#status tells the reply: ' + await page.textContent('#status'));

    /* Drag the g1 knight to f3. */
    const from = await page.locator('[data-square="g1"]').boundingBox();
    const to = await page.locator('[data-square="f3"]').boundingBox();
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2 - 10, { steps: 3 });
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 8 });
    await page.mouse.up();
    await page.waitForFunction(() => document.querySelectorAll('#moves .san').length === 4, null, { timeout: 15000 });
    const four = await shownMoves(page);
    const afterNf3 = rules.play(rules.play(afterE4.fen, two[1]).fen, 'Nf3');
    check(four[2] === 'Nf3', 'dragging g1 to f3 plays Nf3: ' + four[2]);
    check(!afterNf3.error && afterNf3.moves.some((m) => m.san === four[3]), 'the reply ' + four[3] + ' is legal');
    await page.waitForSelector('body[data-state="play"]');
    await page.click('[data-square="d2"]');
    await page.screenshot({ path: screenshot });
    console.log('screenshot: ' + screenshot + ' (moves: ' + four.join(' ') + ')');
    check(errors.length === 0, 'no errors in the page' + (errors.length ? ': ' + errors.join('; ') : ''));

    /* A promotion, chosen in the dialog (the page starts from the FEN after #fen=). */
    await page.goto('about:blank');
    await page.goto(server.url + '#fen=' + encodeURIComponent('8/4P3/8/7k/7p/8/6K1/8 w - - 0 1'));
    await page.waitForSelector('body[data-state="play"]');
    await page.click('[data-square="e7"]');
    await page.click('[data-square="e8"]');
    check(await page.isVisible('#promotion'), 'moving a pawn to the last rank asks which piece');
    await page.screenshot({ path: screenshot.replace(/(\.png)?$/, '-promotion.png') });
    await page.click('[data-promotion="n"]');
    await page.waitForFunction(() => document.querySelectorAll('#moves .san').length === 2, null, { timeout: 15000 });
    check((await shownMoves(page))[0] === 'e8=N', 'choosing the knight plays e8=N: ' + (await shownMoves(page))[0]);

    /* Checkmate ends the game with the result and the PGN. */
    await page.goto('about:blank');
    await page.goto(server.url + '#fen=' + encodeURIComponent('6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1'));
    await page.waitForSelector('body[data-state="play"]');
    await page.click('[data-square="d1"]');
    await page.click('[data-square="d8"]');
    await page.waitForSelector('body[data-state="over"]');
    await page.screenshot({ path: screenshot.replace(/(\.png)?$/, '-over.png') });
    check(/checkmate/i.test(await page.textContent('#status')), '#status tells the checkmate: ' + await page.textContent('#status'));
    const pgn = await page.inputValue('#pgn');
    check(/\[Result "1-0"\]/.test(pgn) && /\[FEN "6k1\/5ppp/.test(pgn) && /1\. Rd8# 1-0$/.test(pgn), 'the PGN holds the game: ' + JSON.stringify(pgn));

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
  console.log(pass + ' passed, ' + fail + ' failed');
  process.exitCode = fail ? 1 : 0;
}

main().catch((error) => {
  console.log('FAIL ' + (error && error.stack || error));
  console.log(pass + ' passed, ' + (fail + 1) + ' failed');
  process.exitCode = 1;
});
