/* tests/web/chromium.js: what the browser tests share. serve() runs `python3 -m http.server`
 * on web/ (as `make run` does, on a free port of 127.0.0.1); launch() starts Debian's headless
 * Chromium through playwright-core with a fresh profile, and with scroll bars as a person's
 * browser shows them when asked (Playwright hides them by default: --hide-scrollbars). */
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/* Serves directory on 127.0.0.1; resolves to { url, close }. */
function serve(directory) {
  return new Promise((resolve, reject) => {
    const server = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', directory],
      { stdio: ['ignore', 'pipe', 'ignore'] });
    const timer = setTimeout(() => reject(new Error('http.server did not start')), 10000);
    let text = '';
    server.on('error', reject);
    server.stdout.on('data', (chunk) => {
      text += chunk;
      const port = /port (\d+)/.exec(text);
      if (port) {
        clearTimeout(timer);
        resolve({ url: 'http://127.0.0.1:' + port[1] + '/', close: () => server.kill() });
      }
    });
  });
}

/* Starts Chromium, with visible scroll bars when options.scrollbars is set; resolves to
 * { context, close } (a persistent context on a fresh profile). */
async function launch(options) {
  const { chromium } = require('playwright-core');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'boxer-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    ignoreDefaultArgs: options && options.scrollbars ? ['--hide-scrollbars'] : [],
    viewport: { width: 1100, height: 760 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

module.exports = { serve, launch };
