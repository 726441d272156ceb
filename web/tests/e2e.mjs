// e2e.mjs [DIST] [SHARED] [SCREENSHOT] [TIGRIS_CLI] - the built viewer in Debian's headless
// Chromium (playwright-core): opens a corpus plan by ?plan=URL, runs it,
// steps 10 events with the arrow key, checks the details panel against the
// wasm trace computed here in node, steps by op and stage, compares two runs,
// and checks that a bad file shows the loader's error in the page. Saves a
// screenshot. Exit 77 when the shared corpus is absent (ctest: skipped).
// Then the model path: opens vww_96_int8.tflite from the shared models by
// ?model=URL, compiles it at 64K and then 16K in the page and checks the
// verdict and the plan figures against `tigris analyze -m` (TIGRIS_CLI; the
// wasm compiler in node when no CLI is built, and it says so), the TFLite
// Micro lane's head against analyze's, the tensor table and the peak, a
// budget below the floor, and the page width at 1400 and 1920 px
// (screenshots SCREENSHOT-model-{1400,1920}.png). Skipped, with a message,
// when the model is absent.
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { extname, join, resolve } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

const here = fileURLToPath(new URL('.', import.meta.url));
const dist = resolve(process.argv[2] ?? join(here, '..', 'dist'));
const shared = resolve(process.argv[3] ?? join(here, '..', '..', '..', 'shared'));
const shot = process.argv[4] ?? join(dist, '..', 'viewer-e2e.png');
const cliArg = process.argv[5];
const models = join(shared, 'models');
const MODEL = 'vww_96_int8.tflite';
const corpus = join(shared, 'corpus');
if (!existsSync(corpus)) {
  console.log(`SKIP: shared corpus not found at ${corpus}; this test needs it`);
  process.exit(77);
}
const CASE = 'linebuf_conv_chain_v5.pattern';

const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.wasm': 'application/wasm', '.tgrs': 'application/octet-stream', '.tflite': 'application/octet-stream' };
const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  let file;
  if (url.pathname === '/plans/bad.tgrs') {
    res.writeHead(200, { 'Content-Type': types['.tgrs'] });
    return res.end(Buffer.from('TGRS but not really a plan'));
  }
  if (url.pathname.startsWith('/plans/')) file = join(corpus, url.pathname.slice(7));
  else if (url.pathname.startsWith('/models/')) file = join(models, url.pathname.slice(8));
  else file = join(dist, url.pathname === '/' ? 'index.html' : url.pathname);
  if (!file.startsWith(dist) && !file.startsWith(corpus) && !file.startsWith(models)) return res.writeHead(403).end();
  if (!existsSync(file)) return res.writeHead(404).end();
  res.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream' });
  res.end(readFileSync(file));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;

// The reference: the same wasm core in node.
const { openTigris } = await import(pathToFileURL(join(dist, 'wasm', 'tigris.js')).href);
const tigris = await openTigris();
const plan = tigris.loadPlan(readFileSync(join(corpus, `${CASE}.tgrs`)));

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-default-apps',
    '--disable-extensions', '--no-pings'],
});
let passed = 0;
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  // Nothing fails on load: no console error, no failed or 4xx/5xx request (was a favicon.ico 404).
  const loadProblems = [];
  page.on('console', (m) => { if (m.type() === 'error') loadProblems.push(`console: ${m.text()}`); });
  page.on('requestfailed', (r) => loadProblems.push(`failed: ${r.url()}`));
  page.on('response', (r) => { if (r.status() >= 400) loadProblems.push(`${r.status()}: ${r.url()}`); });
  await page.goto(`${base}/?plan=/plans/${CASE}.tgrs`);
  await page.waitForSelector('#summary-panel:not([hidden])');
  const summary = await page.textContent('#summary');
  assert.match(summary, /linebuf|model/);
  assert.match(summary, new RegExp(String(plan.fastRequired)));
  await page.waitForLoadState('networkidle');
  assert.deepEqual(loadProblems, []);
  passed++;

  // Run with zeros so node can repeat the exact run.
  await page.selectOption('#input-mode', 'zeros');
  await page.click('#run');
  await page.waitForSelector('#timeline-panel:not([hidden])');
  const ref = plan.run({ inputs: new Uint8Array(plan.inputBytes) });
  const detail = async (field) => page.textContent(`#details tr[data-field="${field}"] td:last-child`);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  for (let k = 0; k < 10; k++) await page.keyboard.press('ArrowRight');
  assert.equal(await detail('event'), '10');
  const kinds = ['?', 'STAGE_BEGIN', 'STAGE_END', 'TILE_BEGIN', 'LOAD', 'SPILL', 'ALLOC', 'RESET', 'MOVE', 'WEIGHTS', 'OP', 'COPY'];
  assert.equal(await detail('kind'), kinds[ref.events.get(10, 'kind')]);
  assert.equal(await detail('bytes'), String(ref.events.get(10, 'bytes')));
  assert.equal(await detail('offset'), String(ref.events.get(10, 'offset')));
  assert.equal(await detail('fast_used'), String(ref.events.get(10, 'fast_used')));
  passed++;

  // Shift+Right goes to the next OP event.
  await page.keyboard.press('Shift+ArrowRight');
  assert.equal(await detail('kind'), 'OP');
  let next = 11;
  while (ref.events.get(next, 'kind') !== 10) next++;
  assert.equal(await detail('event'), String(next));
  passed++;

  // Two runs compared: a second canvas appears.
  await page.fill('#fast', String(plan.fastRequired + 4096));
  await page.click('#compare');
  assert.equal(await page.locator('#timelines canvas').count(), 2);
  passed++;
  await page.screenshot({ path: shot, fullPage: true });

  // Long names do not widen the page. The corpus plan's names are short, so
  // a 200-character name is put into the details panel and the summary (as
  // an imported TFLite model's tensor names would be) and the page must still
  // be no wider than the window at 1400 and 1920 px.
  const long = 'model/sequential/conv2d_depthwise_block_'.repeat(5);
  await page.evaluate((name) => {
    const cell = document.querySelector('#details tr[data-field="tensor"] td:last-child');
    if (cell) cell.textContent = `3 ${name}`;
    const dd = document.querySelector('#summary dd');
    if (dd) dd.textContent = name;
  }, long);
  for (const width of [1400, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    const [sw, iw] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    assert.ok(sw <= iw, `page ${sw} px wide in a ${iw} px window`);
    await page.screenshot({ path: shot.replace(/\.png$/, `-long-${width}.png`), fullPage: true });
  }
  passed++;

  // A bad file: the loader's error in the page, not a blank screen.
  await page.goto(`${base}/?plan=/plans/bad.tgrs`);
  await page.waitForSelector('#error:not([hidden])');
  assert.match(await page.textContent('#error'), /refuses this plan/);
  passed++;
  assert.deepEqual(errors, []);
  passed++;

  if (!existsSync(join(models, MODEL))) {
    console.log(`SKIP: the model part: ${join(models, MODEL)} not found (needs the shared models)`);
  } else {
    passed += await modelPath(browser);
  }
} finally {
  await browser.close();
  server.close();
}
console.log(`screenshot: ${shot}`);
console.log(`${passed} passed, 0 failed`);

// The .tflite path of the page against `tigris analyze -m` for the same budgets.
async function modelPath(browser) {
  let n = 0;
  const modelFile = join(models, MODEL);
  const cli = cliArg && existsSync(cliArg) ? cliArg : null;
  let reference;
  if (cli) {
    reference = (budget) => JSON.parse(execFileSync(cli, ['analyze', modelFile, '-m', budget, '--json'], { encoding: 'utf8' }));
  } else {
    console.log(`note: no tigris CLI at ${cliArg ?? '(none given)'}: the page is checked against the wasm compiler in node`);
    const { openCompiler } = await import(pathToFileURL(join(dist, 'wasm', 'tigris.js')).href);
    const c = await openCompiler();
    const bytes = readFileSync(modelFile);
    reference = (budget) => c.compile(bytes, { fast: Number(budget.replace('K', '')) * 1024, full: true, name: MODEL }).report;
  }
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('response', (r) => { if (r.status() >= 400) errors.push(`${r.status()}: ${r.url()}`); });
  const t0 = Date.now();
  await page.goto(`${base}/?model=/models/${MODEL}&budget=64K`);
  await page.waitForSelector('#tensors-panel:not([hidden])', { timeout: 120000 });
  const first = Date.now() - t0;
  await page.waitForFunction(() => window.tigrisViewer.analysed(), null, { timeout: 120000 });
  console.log(`${MODEL}: opened and drawn at 64K in ${first} ms, analysed (floor, budget rows) in ` +
    `${Date.now() - t0} ms (page load included); ${JSON.stringify(await page.evaluate(() => window.tigrisViewer.timings()))}`);
  let lastVerdict = '';
  const check = async (budget) => {
    const ref = reference(budget);
    const got = await page.evaluate(() => window.tigrisViewer.compiled());
    const verdict = await page.textContent('#verdict');
    assert.equal(verdict, ref.tigris.verdict, `verdict at ${budget}`);
    const mine = structuredClone(got.tigris), theirs = structuredClone(ref.tigris);
    delete mine.plan_bytes_lz4;  // the wasm build has no liblz4 (docs/viewer.md)
    delete theirs.plan_bytes_lz4;
    assert.deepEqual(mine, theirs, `analyze -m at ${budget}`);
    const s = ref.tigris.schedule;
    const p = await page.evaluate(() => window.tigrisViewer.plan());
    assert.equal(p.fastRequired, s.fast_arena_required);
    assert.equal(p.stages, s.stages.total);
    assert.equal(await page.inputValue('#fast'), String(s.fast_arena_required));
    const peak = await page.evaluate(() => window.tigrisViewer.fastPeak());
    assert.ok(peak.bytes <= s.fast_arena_required, `run peak ${peak.bytes} over the declared ${s.fast_arena_required}`);
    assert.equal(peak.bytes, s.fast_peak, `fast peak at ${budget}`);
    // TFLite Micro's lane: its head is analyze's.
    assert.equal(await page.getAttribute('#tflm-figures', 'data-head'), String(ref.tflite_micro.arena.head_bytes));
    assert.equal(await page.getAttribute('#tflm-figures', 'data-tail'), String(ref.tflite_micro.export.before.persistent_bytes));
    // The tensor table: the rows starred are the tensors alive at the peak.
    assert.equal(await page.locator('#tensor-table tbody tr.at-peak').count(), peak.alive.length);
    assert.ok(peak.alive.length > 0);
    lastVerdict = verdict;
    console.log(`${MODEL} at ${budget}: ${verdict}; TFLM head ${ref.tflite_micro.arena.head_bytes} B; ` +
      `page ${JSON.stringify(await page.evaluate(() => window.tigrisViewer.timing()))}`);
  };
  await check('64K');
  n++;
  const recompile = async (budget) => {
    await page.fill('#budget-fast', budget);
    await page.press('#budget-fast', 'Enter');
    await page.waitForFunction((v) => document.querySelector('#verdict').textContent !== v, lastVerdict, { timeout: 60000 });
  };
  await recompile('16K');
  await check('16K');
  n++;

  // Search and select in the tensor table.
  const rows = page.locator('#tensor-table tbody tr');
  const total = await rows.count();
  const name = await rows.nth(1).locator('td').nth(1).textContent();
  await page.fill('#tensor-search', name);
  const visible = await page.locator('#tensor-table tbody tr:not([hidden])').count();
  assert.ok(visible >= 1 && visible < total, `search kept ${visible} of ${total}`);
  await page.locator('#tensor-table tbody tr:not([hidden])').first().click();
  assert.equal(await page.locator('#tensor-table tbody tr.selected').count(), 1);
  await page.fill('#tensor-search', '');
  n++;

  // The presets are analyze's "also fits at" budgets; one click recompiles.
  const presets = await page.$$eval('#presets button', (b) => b.map((x) => Number(x.dataset.budget)));
  const got = await page.evaluate(() => window.tigrisViewer.compiled());
  assert.deepEqual(presets, got.tigris.budgets.filter((r) => r.fits).map((r) => r.budget));
  const floor = got.tigris.floor.bytes;
  assert.ok(presets.includes(floor));

  for (const width of [1400, 1920]) {
    await page.setViewportSize({ width, height: 1000 });
    await page.evaluate(() => window.dispatchEvent(new Event('resize')));
    const [sw, iw] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    assert.ok(sw <= iw, `page ${sw} px wide in a ${iw} px window`);
    await page.screenshot({ path: shot.replace(/\.png$/, `-model-${width}.png`), fullPage: true });
  }
  n++;

  // Below the floor: the verdict says so and names what sets the floor.
  await recompile(String(floor - 32));
  assert.equal(await page.getAttribute('#verdict', 'class'), 'nofit');
  assert.match(await page.textContent('#verdict'), /cannot be met/);
  assert.match(await page.textContent('#floor'), new RegExp(`${floor} B`));
  n++;
  assert.deepEqual(errors, []);
  await page.close();
  return n;
}
