// bench_run.mjs WASM_DIR SHARED_DIR NATIVE_BENCH [options] - run time of the
// core in WebAssembly against the native core, on the corpus plans, in one go.
//
//   WASM_DIR      build/wasm/wasm/web (tigris.js, tigris_core.mjs/.wasm)
//   SHARED_DIR    ../shared (the corpus)
//   NATIVE_BENCH  build/host/tests/bench/tigris_bench (the "run/<plan>.<input>" family)
//   --rounds R    interleaved rounds (default 5); every figure is a minimum over them
//   --runs N      wasm runs per plan and round (default 100)
//   --native-time S  google-benchmark min time per plan and round (default 0.3 s)
//   --input pattern|random   which corpus input (the plans are the same)
//   --no-chromium skip the headless-Chromium column
//   --max-ratio X exit 1 when a wasm/native ratio (node or Chromium) exceeds X
//   --json FILE   also write the figures as JSON
//
// What is timed, on both sides: one tigris_run_with_state call (the executor
// and the kernels), with the arenas set up and the inputs placed before the
// clock starts, the plan's required fast arena and the default slow arena
// (every tensor twice), the backend the plan's data dtype picks, no trace
// callback. Native: the "run/<plan>.<input>" benchmarks of tigris_bench (the host
// build: gcc, RelWithDebInfo), fastest single run. Wasm: the same call timed
// inside the module (plan.run(...).coreMs), fastest of N runs, in node and in
// Debian's Chromium. Process and module start-up are outside every figure.
// Also shown: the wasm call as the viewer makes it (whole plan.run: arena
// malloc, inputs, run, outputs) and the run with the trace on. The machine is
// shared, so native, node and Chromium batches alternate round by round and
// each figure is the minimum over the rounds. Every wasm run's outputs are
// checked against the corpus's expected bytes.
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const PLANS = ['pool_chain_v5', 'linebuf_conv_chain_v5', 'linebuf_conv_sig_chain_v5', 'linebuf_s8_conv_sig_chain_v5'];

function parseArgs(argv) {
  const pos = [];
  const o = { rounds: 5, runs: 100, nativeTime: 0.3, input: 'pattern', chromium: true, maxRatio: 0, json: '' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--rounds') o.rounds = +argv[++i];
    else if (a === '--runs') o.runs = +argv[++i];
    else if (a === '--native-time') o.nativeTime = +argv[++i];
    else if (a === '--input') o.input = argv[++i];
    else if (a === '--no-chromium') o.chromium = false;
    else if (a === '--max-ratio') o.maxRatio = +argv[++i];
    else if (a === '--json') o.json = argv[++i];
    else pos.push(a);
  }
  if (pos.length !== 3 || !(o.rounds > 0) || !(o.runs > 0)) {
    console.error('usage: bench_run.mjs WASM_DIR SHARED_DIR NATIVE_BENCH [--rounds R] [--runs N] ' +
      '[--native-time S] [--input pattern|random] [--no-chromium] [--max-ratio X] [--json FILE]');
    process.exit(2);
  }
  return { wasmDir: resolve(pos[0]), shared: resolve(pos[1]), nativeBench: resolve(pos[2]), ...o };
}

const opt = parseArgs(process.argv.slice(2));
const corpus = join(opt.shared, 'corpus');
if (!existsSync(corpus)) {
  console.log(`SKIP: shared corpus not found at ${corpus}; this benchmark needs it`);
  process.exit(77);
}
if (!existsSync(opt.nativeBench)) {
  console.log(`SKIP: native benchmark ${opt.nativeBench} not built (cmake --build build/host --target tigris_bench)`);
  process.exit(77);
}
const cases = PLANS.map((p) => ({ plan: p, c: `${p}.${opt.input}` }));

// ---- native: one tigris_bench process per round, every plan in it ----
function nativeRound() {
  const out = execFileSync(opt.nativeBench, [`--benchmark_filter=^run/.*\\.${opt.input}$`, '--benchmark_format=json',
    `--benchmark_min_time=${opt.nativeTime}`], { env: { ...process.env, TIGRIS_SHARED_DIR: opt.shared },
    maxBuffer: 1 << 24 }).toString();
  const ms = {};
  for (const b of JSON.parse(out).benchmarks) {
    if (b.error_occurred) throw new Error(`native ${b.name}: ${b.error_message}`);
    ms[b.name.replace(/^run\//, '').replace(`.${opt.input}`, '')] = b.min_run_us / 1000;
  }
  return ms;
}

// ---- wasm: the same loop in node and in the page ----
// Runs each plan `runs` times; returns the fastest run, the fastest whole
// call, and the fastest run with the trace on (a tenth as many runs).
// The source of this function is also sent to Chromium, so it uses nothing
// but its arguments.
async function wasmRound(tigris, data, runs) {
  const res = {};
  for (const d of data) {
    const plan = tigris.loadPlan(d.plan);
    const best = { core: Infinity, call: Infinity, traced: Infinity, events: 0 };
    const check = (r) => {
      const a = r.outputs, b = d.expected;
      if (a.length !== b.length || a.some((v, i) => v !== b[i])) throw new Error(`${d.name}: wasm outputs differ`);
    };
    for (let i = 0; i < runs; i++) {
      const r = plan.run({ inputs: d.inputs, trace: false });
      if (i === 0) check(r);
      best.core = Math.min(best.core, r.coreMs);
      best.call = Math.min(best.call, r.ms);
    }
    for (let i = 0; i < Math.max(1, Math.floor(runs / 10)); i++) {
      const r = plan.run({ inputs: d.inputs, trace: true });
      if (i === 0) check(r);
      best.traced = Math.min(best.traced, r.coreMs);
      best.events = r.events.count;
    }
    plan.close();
    res[d.name] = best;
  }
  return res;
}

const read = (f) => new Uint8Array(readFileSync(join(corpus, f)));
const data = cases.map(({ plan, c }) => ({ name: plan, plan: read(`${c}.tgrs`), inputs: read(`${c}.input.bin`),
  expected: read(`${c}.expected.bin`) }));
const { openTigris } = await import(pathToFileURL(join(opt.wasmDir, 'tigris.js')).href);
const tigris = await openTigris();

// Chromium: the wasm directory and the corpus served over loopback, with
// cross-origin isolation so performance.now() is not coarsened to 100 us.
let browser, page, server;
async function openChromium() {
  const { chromium } = await import('playwright-core');
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm' };
  server = createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    const headers = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
    if (path === '/') {
      res.writeHead(200, { ...headers, 'Content-Type': 'text/html' });
      return res.end('<!doctype html><title>wasm run benchmark</title><script type="module">' +
        'import { openTigris } from "./wasm/tigris.js"; window.tigris = await openTigris(); window.ready = true;</script>');
    }
    const [root, rel] = path.startsWith('/wasm/') ? [opt.wasmDir, path.slice(6)]
      : path.startsWith('/corpus/') ? [corpus, path.slice(8)] : [null, null];
    const file = root && join(root, rel);
    if (!file || !file.startsWith(root) || !existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200, { ...headers, 'Content-Type': types[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-extensions'] });
  page = await browser.newPage();
  page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.waitForFunction(() => window.ready === true, null, { timeout: 60000 });
  if (!(await page.evaluate(() => crossOriginIsolated))) console.warn('warning: page not cross-origin isolated');
  await page.evaluate(async (cs) => {
    const get = async (f) => new Uint8Array(await (await fetch(`/corpus/${f}`)).arrayBuffer());
    window.data = [];
    for (const { plan, c } of cs)
      window.data.push({ name: plan, plan: await get(`${c}.tgrs`), inputs: await get(`${c}.input.bin`),
        expected: await get(`${c}.expected.bin`) });
  }, cases);
}
async function chromiumRound() {
  return page.evaluate(async ([src, runs]) => {
    const fn = (0, eval)(`(${src})`);
    return fn(window.tigris, window.data, runs);
  }, [wasmRound.toString(), opt.runs]);
}

const best = {};
for (const { plan } of cases)
  best[plan] = { native: Infinity, node: Infinity, nodeCall: Infinity, nodeTraced: Infinity, chromium: Infinity,
    chromiumCall: Infinity, events: 0 };
const lower = (p, k, v) => { best[p][k] = Math.min(best[p][k], v); };
try {
  if (opt.chromium) await openChromium();
  for (let r = 0; r < opt.rounds; r++) {
    const n = nativeRound();
    const w = await wasmRound(tigris, data, opt.runs);
    const c = opt.chromium ? await chromiumRound() : null;
    for (const { plan } of cases) {
      if (!(plan in n)) throw new Error(`native benchmark run/${plan} missing`);
      lower(plan, 'native', n[plan]);
      lower(plan, 'node', w[plan].core);
      lower(plan, 'nodeCall', w[plan].call);
      lower(plan, 'nodeTraced', w[plan].traced);
      best[plan].events = w[plan].events;
      if (c) {
        lower(plan, 'chromium', c[plan].core);
        lower(plan, 'chromiumCall', c[plan].call);
      }
    }
    process.stderr.write(`round ${r + 1}/${opt.rounds} done\n`);
  }
} finally {
  if (browser) await browser.close();
  if (server) server.close();
}

const f = (v) => (Number.isFinite(v) ? v.toFixed(3) : '-');
const ratio = (a, b) => (Number.isFinite(a) && b > 0 ? a / b : NaN);
console.log(`input: ${opt.input}; ${opt.rounds} rounds x ${opt.runs} wasm runs; minima in ms`);
console.log('plan                          native   node  ratio  chromium  ratio | node call  node traced (events)');
let ok = true;
const rows = [];
for (const { plan } of cases) {
  const b = best[plan];
  const rn = ratio(b.node, b.native), rc = ratio(b.chromium, b.native);
  rows.push({ plan, ...b, ratio_node: rn, ratio_chromium: rc });
  if (opt.maxRatio > 0 && (rn > opt.maxRatio || rc > opt.maxRatio)) ok = false;
  console.log(`${plan.padEnd(29)} ${f(b.native).padStart(6)} ${f(b.node).padStart(6)} ${f(rn).padStart(5)}x` +
    ` ${f(b.chromium).padStart(8)} ${f(rc).padStart(5)}x | ${f(b.nodeCall).padStart(9)} ${f(b.nodeTraced).padStart(12)}` +
    ` (${b.events})`);
}
if (opt.json) writeFileSync(opt.json, JSON.stringify({ input: opt.input, rounds: opt.rounds, runs: opt.runs, rows }, null, 2));
if (opt.maxRatio > 0) console.log(ok ? `PASS: every ratio <= ${opt.maxRatio}` : `FAIL: a ratio exceeds ${opt.maxRatio}`);
process.exit(ok ? 0 : 1);
