/* tests/web/tally.js: the count the Node test programs keep. check() counts a check and prints
 * it ("ok   ..." or "FAIL ...", or only the failures when made with { quiet: true }); run(main)
 * runs the program's async main, then prints the closing line tests/web.sh adds up,
 * "N passed, N failed", with an exception that escaped main counted as one failure more, and
 * sets the exit status. */
'use strict';

function tally(options = {}) {
  let pass = 0;
  let fail = 0;
  function check(ok, what) {
    if (ok) pass++;
    else fail++;
    if (!ok || !options.quiet) console.log((ok ? 'ok   ' : 'FAIL ') + what);
  }
  function run(main) {
    main().then(() => {
      console.log(pass + ' passed, ' + fail + ' failed');
      process.exitCode = fail ? 1 : 0;
    }, (error) => {
      console.log('FAIL ' + (error && error.stack || error));
      console.log(pass + ' passed, ' + (fail + 1) + ' failed');
      process.exitCode = 1;
    });
  }
  return { check, run };
}

module.exports = tally;
