// e2e.mjs [DIST] [SHARED] [SCREENSHOT] - the built viewer in Debian's headless
// Chromium (playwright-core): opens a corpus plan by ?plan=URL, runs it,
// steps 10 events with the arrow key, checks the details panel against the
// wasm trace computed here in node, steps by op and stage, compares two runs,
// and checks that a bad file shows the loader's error in the page. Saves a
// screenshot. Exit 77 when the shared corpus is absent (ctest: skipped).
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

const here = fileURLToPath(new URL('.', import.meta.url));
const dist = resolve(process.argv[2] ?? join(here, '..', 'dist'));
const shared = resolve(process.argv[3] ?? join(here, '..', '..', '..', 'shared'));
const shot = process.argv[4] ?? join(dist, '..', 'viewer-e2e.png');
const corpus = join(shared, 'corpus');
if (!existsSync(corpus)) {
  console.log(`SKIP: shared corpus not found at ${corpus}; this test needs it`);
  process.exit(77);
}
const CASE = 'linebuf_conv_chain_v5.pattern';

const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.wasm': 'application/wasm', '.tgrs': 'application/octet-stream' };
const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  let file;
  if (url.pathname === '/plans/bad.tgrs') {
    res.writeHead(200, { 'Content-Type': types['.tgrs'] });
    return res.end(Buffer.from('TGRS but not really a plan'));
  }
  if (url.pathname.startsWith('/plans/')) file = join(corpus, url.pathname.slice(7));
  else file = join(dist, url.pathname === '/' ? 'index.html' : url.pathname);
  if (!file.startsWith(dist) && !file.startsWith(corpus)) return res.writeHead(403).end();
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
} finally {
  await browser.close();
  server.close();
}
console.log(`screenshot: ${shot}`);
console.log(`${passed} passed, 0 failed`);
