/* tests/web/layout.js [DIR]: web/index.html's layout in headless Chromium with the scroll bar a
 * person's browser shows (the page is taller than the window, so it has one). At 1024x700,
 * 1200x900, 1280x1024, 1366x768, 1600x900 and 1920x1080 the board and the panel stand side by
 * side and the whole board, the panel's status line and its New game button lie inside the
 * window (its width less the scroll bar), with nothing to scroll sideways; the board's squares
 * are square, all of one size, eight to its side. On a phone (390x844, portrait) the panel
 * comes below the board and its status line and New game are in view. Saves what it saw at
 * 1200x900 and 1366x768 as DIR/boxer-layout-WxH.png (default DIR /tmp). Ends with
 * "N passed, N failed". */
'use strict';
const path = require('path');
const { serve, launch } = require('./chromium');

const root = path.join(__dirname, '..', '..');
const dir = process.argv[2] || '/tmp';
const WIDE = ['1024x700', '1200x900', '1280x1024', '1366x768', '1600x900', '1920x1080'];
const PHONE = '390x844';
const SAVED = ['1200x900', '1366x768'];
/* a square's sides may differ by this much (sub-pixel rounding of the grid) */
const SQUARE_SLACK = 0.01;

const { check, run } = require('./tally')();

/* What the page shows at its size: the window and its scroll bar, and the boxes of the board,
 * its squares, the panel, the status line and New game. */
function measure(page) {
  return page.evaluate(() => {
    const box = (el) => {
      const r = el.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height };
    };
    const html = document.documentElement;
    return {
      width: html.clientWidth, height: html.clientHeight, bar: innerWidth - html.clientWidth,
      scrollWidth: html.scrollWidth, scrollHeight: html.scrollHeight, innerHeight,
      board: box(document.querySelector('#board')), panel: box(document.querySelector('.panel')),
      status: box(document.querySelector('#status')), newGame: box(document.querySelector('#new-game')),
      squares: Array.from(document.querySelectorAll('#board .square'), box),
    };
  });
}

/* Returns 1 if box lies inside the window m measured (its width less the scroll bar). */
function inView(box, m) {
  return box.left >= 0 && box.top >= 0 && box.right <= m.width && box.bottom <= m.height && box.width > 0;
}

/* A box as text, for the messages. */
function text(box) {
  return '(' + [box.left, box.top, box.right, box.bottom].map((v) => Math.round(v)).join(', ') + ')';
}

/* The board's squares: 64, each square, all of one size, eight of them its side. */
function squaresOk(m) {
  const side = m.squares.length ? m.squares[0].width : 0;
  return m.squares.length === 64 && side > 0
    && m.squares.every((s) => Math.abs(s.width - s.height) <= SQUARE_SLACK && Math.abs(s.width - side) <= SQUARE_SLACK)
    && Math.abs(m.board.width - 8 * side) <= 8 * SQUARE_SLACK && Math.abs(m.board.height - 8 * side) <= 8 * SQUARE_SLACK;
}

async function main() {
  const server = await serve(path.join(root, 'web'));
  const browser = await launch({ scrollbars: true });
  try {
    const page = await browser.context.newPage();
    await page.goto(server.url);
    await page.waitForFunction(() => document.body.dataset.state === 'play', null, { timeout: 30000 });
    for (const size of WIDE.concat([PHONE])) {
      const [width, height] = size.split('x').map(Number);
      await page.setViewportSize({ width, height });
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      const m = await measure(page);
      check(m.bar > 0 && m.scrollHeight > m.innerHeight, size + ': the page scrolls and shows its scroll bar ('
        + m.bar + ' px, the page ' + m.scrollHeight + ' px tall)');
      check(squaresOk(m), size + ': the board\'s squares are square and of one size ('
        + m.squares.slice(0, 1).map((s) => s.width.toFixed(2) + ' x ' + s.height.toFixed(2)).join('') + ', the board '
        + m.board.width.toFixed(2) + ' x ' + m.board.height.toFixed(2) + ')');
      check(m.scrollWidth <= m.width, size + ': nothing to scroll sideways (' + m.scrollWidth + ' px wide in ' + m.width + ')');
      check(inView(m.status, m) && inView(m.newGame, m), size + ': the status line ' + text(m.status) + ' and New game '
        + text(m.newGame) + ' lie inside the window ' + m.width + ' x ' + m.height);
      if (size === PHONE) {
        check(m.panel.top >= m.board.bottom, size + ': on a phone the panel ' + text(m.panel) + ' is below the board ' + text(m.board));
      } else {
        check(inView(m.board, m) && m.panel.left >= m.board.right, size + ': the whole board ' + text(m.board)
          + ' is in view, the panel ' + text(m.panel) + ' beside it');
      }
      if (SAVED.includes(size)) {
        const file = path.join(dir, 'boxer-layout-' + size + '.png');
        await page.screenshot({ path: file });
        console.log(size + ': what the test saw is ' + file);
      }
    }
  } finally {
    await browser.close();
    server.close();
  }
}

run(main);
