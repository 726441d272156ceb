// bench_compile.mjs [DIST] [SHARED] - by hand, not a test: every shared
// .tflite model opened in the built viewer in Debian's headless Chromium
// (?model=URL&budget=64K: the schedule at 64K drawn first, then the floor
// search and the budget rows), then recompiled at 16K in place (one compile, run and redraw).
// Prints a Markdown table of the page's own timings (window.tigrisViewer.timing()).
import { createServer } from 'node:http';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = fileURLToPath(new URL('.', import.meta.url));
const dist = resolve(process.argv[2] ?? join(here, '..', 'dist'));
const shared = resolve(process.argv[3] ?? join(here, '..', '..', '..', 'shared'));
const models = join(shared, 'models');
if (!existsSync(models)) {
  console.log(`SKIP: no shared models at ${models}`);
  process.exit(77);
}
const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.wasm': 'application/wasm' };
const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  const file = url.pathname.startsWith('/models/') ? join(models, url.pathname.slice(8))
    : join(dist, url.pathname === '/' ? 'index.html' : url.pathname);
  if (!existsSync(file)) return res.writeHead(404).end();
  res.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream' });
  res.end(readFileSync(file));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking'] });
console.log('| model | open at 64K: compile + run + draw ms | then floor + budget rows ms | 16K: compile ms | 16K: compile + run + redraw ms | verdict at 16K |');
console.log('|---|---:|---:|---:|---:|---|');
try {
  for (const m of readdirSync(models).filter((f) => f.endsWith('.tflite')).sort()) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${base}/?model=/models/${m}&budget=64K`);
    await page.waitForFunction(() => window.tigrisViewer?.analysed() || document.querySelector('#error:not([hidden])'),
      null, { timeout: 180000 });
    const ts = await page.evaluate(() => window.tigrisViewer.timings());
    const open = ts.find((t) => t.mode === 'quick'), full = ts.find((t) => t.mode === 'full');
    let row = `| ${m} | ${open ? open.totalMs.toFixed(0) : '-'} | ${full ? full.compileMs.toFixed(0) : '-'} |`;
    const err = await page.evaluate(() => { const e = document.querySelector('#error'); return e.hidden ? '' : e.textContent; });
    if (err || !open) {
      console.log(`${row} - | - | ${err.slice(0, 120)} |`);
      await page.close();
      continue;
    }
    const before = await page.textContent('#verdict');
    await page.fill('#budget-fast', '16K');
    await page.press('#budget-fast', 'Enter');
    await page.waitForFunction((v) => document.querySelector('#verdict').textContent !== v && window.tigrisViewer.timing(),
      before, { timeout: 60000 }).catch(() => {});
    const t = await page.evaluate(() => window.tigrisViewer.timing());
    row += ` ${t.compileMs.toFixed(0)} | ${t.totalMs.toFixed(0)} | ${(await page.textContent('#verdict')).slice(0, 90)} |`;
    console.log(row);
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
}
