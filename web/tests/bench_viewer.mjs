// bench_viewer.mjs [DIST] - opens bench.html of the built viewer in Debian's
// headless Chromium and prints its figures (1 M synthetic events: model build
// + first paint, scrub frame times). Targets: first paint < 2000 ms, scrub
// frames < 33 ms; exit 1 when missed.
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const dist = resolve(process.argv[2] ?? join(fileURLToPath(new URL('.', import.meta.url)), '..', 'dist'));
const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm' };
const server = createServer((req, res) => {
  const file = join(dist, new URL(req.url, 'http://x').pathname);
  if (!file.startsWith(dist) || !existsSync(file)) return res.writeHead(404).end();
  res.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream' });
  res.end(readFileSync(file));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-extensions'] });
let ok = false;
try {
  const page = await browser.newPage({ viewport: { width: 1500, height: 900 } });
  await page.goto(`http://127.0.0.1:${server.address().port}/bench.html`);
  await page.waitForFunction(() => document.getElementById('out').textContent.startsWith('{') ||
    document.getElementById('out').textContent.startsWith('error'), null, { timeout: 120000 });
  const text = await page.textContent('#out');
  console.log(text);
  const r = JSON.parse(text);
  ok = r.first_paint_ms < 2000 && r.scrub_frame_max_ms < 33;
  console.log(ok ? 'PASS' : 'FAIL: first paint must be < 2000 ms and scrub frames < 33 ms');
} finally {
  await browser.close();
  server.close();
}
process.exit(ok ? 0 : 1);
