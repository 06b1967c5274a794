// tools/spsa.mjs: `make spsa`. Tunes the search parameters (`engine params`) for the one-shot
// call, cold, at a fixed number of nodes: SPSA (Spall, "Implementation of the simultaneous
// perturbation algorithm for stochastic optimization", 1998) with fishtest's schedule and
// defaults (alpha 0.602, gamma 0.101, A a tenth of the iterations, r_end 0.002). Each
// iteration moves every parameter a step either way at random, plays game pairs between the
// two engines so set through the referee (`argv:` engines, each call a fresh process with
// --nodes and --param), and moves the parameters toward the side that scored more.
// --tune NAME,NAME,... moves only those parameters (the others keep the engine's values).
// --state FILE keeps the run in FILE after every iteration and, when FILE exists, goes on
// with the run it holds, so that a run longer than a machine's life can be played in parts;
// --until K stops at iteration K (playing what is missing, replaying what the file holds).
// Prints a line an iteration played and, at the end, the values found as --param options.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const USAGE = 'usage: node tools/spsa.mjs [--engine ./engine] [--iterations 200] [--pairs 4] [--nodes 10000]\n' +
  '       [--openings ../shared/data/openings.epd] [--referee ../shared/referee] [--seed 1] [--concurrency 2]\n' +
  '       [--r-end 0.002] [--tune NAME,NAME,...] [--state FILE] [--until K]';
const ALPHA = 0.602, GAMMA = 0.101, A_SHARE = 0.1;
// the options that make a run what it is: a state file keeps them, and a run it goes on with
// takes them from it
const RUN_OPTIONS = ['iterations', 'pairs', 'nodes', 'seed', 'r-end', 'tune'];
const STATE_VERSION = 1;

function fail(message) {
  console.error(`error: ${message} (node tools/spsa.mjs --help)`);
  process.exit(2);
}

function readOptions(argv) {
  const o = { engine: './engine', iterations: 200, pairs: 4, nodes: 10000, openings: '../shared/data/openings.epd',
    referee: process.env.REFEREE || '../shared/referee', seed: 1, concurrency: 2, 'r-end': 0.002,
    tune: '', state: '', until: 0 };
  o.given = new Set();
  if (argv[0] === '--help') {
    console.log(USAGE);
    process.exit(0);
  }
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i].replace(/^--/, ''), value = argv[i + 1];
    if (!(name in o) || !argv[i].startsWith('--') || value === undefined) fail(`bad option '${argv[i]}'`);
    if (name === 'r-end') {
      if (!(Number(value) > 0 && Number(value) < 1)) fail(`--r-end needs a number between 0 and 1, got '${value}'`);
      o[name] = Number(value);
    } else if (typeof o[name] === 'number') {
      if (!/^[1-9][0-9]*$/.test(value)) fail(`--${name} needs a positive whole number, got '${value}'`);
      o[name] = Number(value);
    } else {
      o[name] = value;
    }
    o.given.add(name);
  }
  o.engine = resolve(o.engine);
  if (!existsSync(o.engine)) fail(`no engine at ${o.engine}`);
  if (!existsSync(join(o.referee, 'referee.mjs'))) fail(`no referee at ${o.referee} (--referee or REFEREE=...)`);
  if (!existsSync(o.openings)) fail(`cannot read the openings file ${o.openings}`);
  return o;
}

// The engine's parameters: name, value, min, max, step (`engine params`); only those named in
// tune (a comma-separated list) when it is not empty.
function readParams(engine, tune) {
  const run = spawnSync(engine, ['params'], { encoding: 'utf8' });
  if (run.status !== 0) fail(`${engine} params failed: ${run.stderr.trim()}`);
  const all = run.stdout.trim().split('\n').map((line) => {
    const [name, value, min, max, step] = line.split(' ');
    return { name, theta: Number(value), min: Number(min), max: Number(max), step: Number(step) };
  });
  if (!tune) return all;
  const names = tune.split(',');
  const unknown = names.filter((name) => !all.some((p) => p.name === name));
  if (unknown.length) fail(`--tune: no parameter ${unknown.join(', ')} (see ${engine} params)`);
  return all.filter((p) => names.includes(p.name));
}

const clamp = (x, p) => Math.min(p.max, Math.max(p.min, x));
const paramArgs = (values, params) => params.map((p, i) => `--param ${p.name}=${Math.round(values[i])}`).join(' ');

// A small seeded generator (mulberry32), so that a run can be repeated.
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Plays pairs of games between the engine set to plus and to minus; returns plus's wins less its losses.
function play(o, params, plus, minus, iteration, dir) {
  const spec = (name, values) => `argv:${o.engine}?name=${name}&args=--nodes ${o.nodes} ${paramArgs(values, params)}`;
  const json = join(dir, 'match.json');
  // a limit far above what the nodes take: the nodes decide, the clock only catches a hang
  const run = spawnSync('node', [join(o.referee, 'referee.mjs'), 'match', '--a', spec('plus', plus), '--b',
    spec('minus', minus), '--time', '5', '--games', String(2 * o.pairs), '--openings', o.openings,
    '--concurrency', String(o.concurrency), '--seed', String(o.seed * 100003 + iteration), '--json', json],
  { encoding: 'utf8' });
  if (run.status !== 0 || !existsSync(json)) fail(`the referee failed: ${(run.stderr || '').trim().split('\n').pop()}`);
  const summary = JSON.parse(readFileSync(json, 'utf8')).summary;
  const forfeits = Object.values(summary.forfeits || {}).flatMap((f) => Object.values(f)).reduce((a, b) => a + b, 0);
  if (forfeits) fail(`${forfeits} forfeits in iteration ${iteration}: see the referee`);
  return summary.wins - summary.losses;
}

// The run that o.state holds, or null where there is none yet. Its options replace o's; one
// given on the command line with another value is a usage error, and so is a list of
// parameters (names, ranges, steps, starting values) other than the engine's.
function loadState(o) {
  if (!o.state || !existsSync(o.state)) return null;
  let state;
  try {
    state = JSON.parse(readFileSync(o.state, 'utf8'));
  } catch (error) {
    fail(`cannot read the state file ${o.state}: ${error.message}`);
  }
  if (state.version !== STATE_VERSION) fail(`${o.state} is not a state file of this version (${STATE_VERSION})`);
  for (const name of RUN_OPTIONS) {
    if (o.given.has(name) && o[name] !== state.options[name])
      fail(`${o.state} holds a run with --${name} ${state.options[name] || "''"}, not ${o[name]}`);
    o[name] = state.options[name];
  }
  return state;
}

// A run goes on only with the parameters it started with: the same names, ranges, steps and
// starting values as the engine's `params` now.
function checkStateParams(o, state, params) {
  const listed = (p) => [p.name, p.min, p.max, p.step].join(' ');
  const same = state.params.length === params.length &&
    params.every((p, i) => listed(p) === listed(state.params[i]) && p.theta === state.params[i].start);
  if (!same) fail(`${o.state} holds a run of other parameters or values than ${o.engine} params gives (another build?)`);
}

// Writes the run to o.state, whole or not at all: its options, its parameters with their
// starting values, each iteration's result (plus's wins less its losses) and the values now.
function saveState(o, params, results, theta) {
  const state = { version: STATE_VERSION, options: Object.fromEntries(RUN_OPTIONS.map((name) => [name, o[name]])),
    params: params.map((p) => ({ name: p.name, start: p.theta, min: p.min, max: p.max, step: p.step })),
    results, theta };
  writeFileSync(`${o.state}.part`, `${JSON.stringify(state)}\n`);
  renameSync(`${o.state}.part`, o.state);
}

// The values a state file holds must be its results replayed; others come from another
// version of this program, whose run this one cannot go on with.
function checkReplay(o, state, theta) {
  if (!state.theta.every((t, i) => Math.abs(t - theta[i]) < 1e-9))
    fail(`${o.state}: its results replayed do not give its values (another version of tools/spsa.mjs?)`);
}

function main() {
  const o = readOptions(process.argv.slice(2));
  if (o.until && !o.state) fail('--until needs --state, to keep the run for later');
  const state = loadState(o);
  const params = readParams(o.engine, o.tune);
  if (state) checkStateParams(o, state, params);
  const next = random(o.seed);
  const dir = mkdtempSync(join(tmpdir(), 'boxer-spsa-'));
  const bigA = A_SHARE * o.iterations;
  // fishtest's schedule: c_k = c / k^gamma reaches the step at the last iteration, and
  // a_k / c_k^2 reaches r_end there (fishtest's 0.002 assumes tens of thousands of pairs)
  const c = params.map((p) => p.step * o.iterations ** GAMMA);
  const a = params.map((p) => o['r-end'] * p.step ** 2 * (bigA + o.iterations) ** ALPHA);
  const theta = params.map((p) => p.theta);
  // the iterations a state file holds are replayed (the same random signs, its results), so
  // that the run goes on as it would have in one go
  const results = state ? state.results : [];
  const done = results.length;
  const last = o.until ? Math.min(o.until, o.iterations) : o.iterations;
  let total = 0;
  console.log(`spsa: ${params.length} parameters, ${o.iterations} iterations of ${o.pairs} pairs at ${o.nodes} nodes` +
    (done ? `, ${done} of them played before (${o.state})` : ''));
  try {
    for (let k = 1; k <= last; k++) {
      const flip = params.map(() => (next() < 0.5 ? -1 : 1));
      const ck = c.map((ci) => ci / k ** GAMMA);
      const plus = theta.map((t, i) => clamp(t + ck[i] * flip[i], params[i]));
      const minus = theta.map((t, i) => clamp(t - ck[i] * flip[i], params[i]));
      const replayed = k <= done;
      const result = replayed ? results[k - 1] : play(o, params, plus, minus, k, dir);
      total += result;
      theta.forEach((t, i) => {
        const rk = a[i] / (bigA + k) ** ALPHA / ck[i] ** 2;
        theta[i] = clamp(t + rk * ck[i] * result * flip[i], params[i]);
      });
      if (k === done) checkReplay(o, state, theta);
      if (replayed) continue;
      results.push(result);
      if (o.state) saveState(o, params, results, theta);
      console.log(`iteration ${k}: plus - minus ${result >= 0 ? '+' : ''}${result} | ` +
        params.map((p, i) => `${p.name}=${theta[i].toFixed(1)}`).join(' '));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`spsa: ${last * o.pairs * 2} games, plus - minus ${total}; ` +
    (last < o.iterations ? `the values at iteration ${last} of ${o.iterations} (${o.state}):` : 'found:'));
  console.log(paramArgs(theta, params));
}

main();
