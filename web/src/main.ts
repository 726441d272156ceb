// main.ts - the viewer page: open a .tflite model (compiled in the page by
// the wasm build of `tigris compile`, at a budget the user sets) or a plan
// (file picker, drop, ?model=URL, ?plan=URL), show its summary, run it in the
// wasm core with chosen arenas and inputs, draw the memory timeline beside
// TFLite Micro's arena, list the tensors, step through events, compare two
// runs, export.
import { describeEvent, toChrome, toJsonl } from './exporters';
import { buildTimeline, liveAt, POOL_FAST, stepTo, Timeline } from './model';
import { ArenaCompare, TflmLayout } from './tflm';
import { TimelineView } from './timeline';

interface TraceEvents {
  count: number;
  get(i: number, f: string): number;
}
interface RunResult {
  outputs: Uint8Array;
  stats: Record<string, number>;
  events: TraceEvents;
  ms: number;
  backend: string;
  fastSize: number;
  slowSize: number;
  fastPeak: number;
  slowPeak: number;
}
interface Plan {
  summary: any;
  inputBytes: number;
  fastRequired: number;
  defaultSlow: number;
  run(opt: object): RunResult;
  close(): void;
}
interface Tigris {
  loadPlan(bytes: Uint8Array): Plan;
}
interface CompileResult {
  status: number;
  report: any;
  plan: Uint8Array | null;
  ms: number;
}
interface Compiler {
  compile(model: Uint8Array, opt: { fast: number; slow?: number; full?: boolean; quick?: boolean; name?: string }): CompileResult;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

let tigris: Tigris | null = null;
let compiler: Compiler | null = null;
let plan: Plan | null = null;
// The open .tflite model, when the plan was compiled in the page.
let model: { bytes: Uint8Array; name: string } | null = null;
let compiled: CompileResult | null = null;
let compare: ArenaCompare | null = null;
let selected: number | null = null;
type CompileMode = 'quick' | 'full' | 'budget';
let lastTiming: { mode: CompileMode; compileMs: number; totalMs: number } | null = null;
const timings: { mode: CompileMode; compileMs: number; totalMs: number }[] = [];
interface Shown {
  run: RunResult;
  timeline: Timeline;
  view: TimelineView;
}
let shown: Shown[] = [];
let cursor = 0;

function showError(msg: string | null): void {
  const box = $('error');
  box.hidden = !msg;
  box.textContent = msg ?? '';
}

async function core(): Promise<Tigris> {
  if (!tigris) {
    const mod = await import(/* @vite-ignore */ new URL('./wasm/tigris.js', document.baseURI).href);
    tigris = (await mod.openTigris()) as Tigris;
  }
  return tigris;
}

async function compilerModule(): Promise<Compiler> {
  if (!compiler) {
    const mod = await import(/* @vite-ignore */ new URL('./wasm/tigris.js', document.baseURI).href);
    compiler = (await mod.openCompiler()) as Compiler;
  }
  return compiler;
}

function fmtShape(s: number[]): string {
  return `[${s.join(',')}]`;
}

function showSummary(p: Plan): void {
  const s = p.summary;
  const rows: [string, string][] = [
    ['model', s.model_name],
    ['schema', String(s.schema)],
    ['data dtype', s.data_dtype],
    ['tensors / ops / stages', `${s.counts.tensors} / ${s.counts.ops} / ${s.counts.stages}`],
    ...s.inputs.map((t: any) => [`input ${t.name}`, `${t.declared_dtype} ${fmtShape(t.shape)} ${t.declared_bytes} B`] as [string, string]),
    ...s.outputs.map((t: any) => [`output ${t.name}`, `${t.declared_dtype} ${fmtShape(t.shape)} ${t.declared_bytes} B`] as [string, string]),
    ['fast arena required', `${s.memory.fast_arena_required} B`],
    ['decompression overhead', `${s.memory.decompression_overhead} B`],
    ['stage peaks', s.stages.map((st: any) => st.peak_bytes).join(', ')],
  ];
  const dl = $('summary');
  dl.replaceChildren();
  for (const [k, v] of rows) {
    const dt = document.createElement('dt');
    dt.textContent = k;
    const dd = document.createElement('dd');
    dd.textContent = v;
    dl.append(dt, dd);
  }
  $('summary-panel').hidden = false;
  $('run-panel').hidden = false;
  $<HTMLInputElement>('fast').value = String(p.fastRequired);
  $<HTMLInputElement>('slow').value = String(p.defaultSlow);
}

function isTflite(bytes: Uint8Array, name: string): boolean {
  const tag = String.fromCharCode(...bytes.subarray(4, 8));
  return tag === 'TFL3' || /\.tflite$/i.test(name);
}

function clearPlan(): void {
  plan?.close();
  plan = null;
  shown = [];
  compare = null;
  selected = null;
  $('timelines').replaceChildren();
  for (const id of ['summary-panel', 'run-panel', 'timeline-panel', 'details-panel', 'tflm-panel', 'tensors-panel']) $(id).hidden = true;
}

async function openBytes(bytes: Uint8Array, name: string): Promise<void> {
  if (isTflite(bytes, name)) return openModel(bytes, name);
  model = null;
  compiled = null;
  $('compile-panel').hidden = true;
  try {
    const t = await core();
    clearPlan();
    plan = t.loadPlan(bytes);
    showError(null);
    showSummary(plan);
    document.title = `TiGrIS viewer - ${name}`;
  } catch (e) {
    $('summary-panel').hidden = true;
    $('run-panel').hidden = true;
    showError(`${name}: ${(e as Error).message}`);
  }
}

// Sizes as the CLI reads them: bytes, or K/M/G (powers of 1024).
export function parseSize(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kKmMgG]?)i?[bB]?\s*$/.exec(text);
  if (!m) return null;
  const mul = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2].toLowerCase() as '' | 'k' | 'm' | 'g'];
  return Math.round(Number(m[1]) * mul);
}
function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(2)} KiB`;
}
function sizeText(bytes: number): string {
  return bytes % 1024 === 0 ? `${bytes / 1024}K` : String(bytes);
}

async function openModel(bytes: Uint8Array, name: string): Promise<void> {
  model = { bytes, name: name.split('/').pop() ?? name };
  compiled = null;
  clearPlan();
  $('compile-panel').hidden = false;
  $('compile-model').textContent = model.name;
  document.title = `TiGrIS viewer - ${model.name}`;
  const b = new URLSearchParams(location.search).get('budget');
  if (b) $<HTMLInputElement>('budget-fast').value = b;
  // First the schedule at this budget (drawn at once), then the floor search
  // and the budget rows, which take longer (seconds on the larger models).
  await compileNow('quick');
}

// The range control maps 0..1000 onto the budgets between the floor and the
// naive peak, on a log scale, in 32-byte granules.
function rangeBounds(): [number, number] {
  const t = compiled?.report?.tigris;
  const lo = Math.max(32, t?.floor?.bytes || 1024);
  const hi = Math.max(lo * 2, t?.schedule?.naive_peak || 0, ...(t?.budgets ?? []).map((r: any) => r.budget));
  return [lo, hi];
}
function rangeToBytes(v: number): number {
  const [lo, hi] = rangeBounds();
  return Math.round((lo * Math.pow(hi / lo, v / 1000)) / 32) * 32;
}
function bytesToRange(b: number): number {
  const [lo, hi] = rangeBounds();
  return Math.max(0, Math.min(1000, Math.round((Math.log(b / lo) / Math.log(hi / lo)) * 1000)));
}

async function compileNow(mode: CompileMode = 'budget'): Promise<void> {
  if (!model) return;
  const fast = parseSize($<HTMLInputElement>('budget-fast').value);
  const slowText = $<HTMLInputElement>('budget-slow').value.trim();
  const slow = slowText ? parseSize(slowText) : 0;
  if (!fast || slow === null) {
    showError('budgets are bytes or K/M sizes: 64K, 16384, 1.5M');
    return;
  }
  const t0 = performance.now();
  let r: CompileResult;
  try {
    const c = await compilerModule();
    r = c.compile(model.bytes, { fast, slow, full: mode === 'full', quick: mode === 'quick', name: model.name });
  } catch (e) {
    showError(`${model.name}: ${(e as Error).message}`);
    return;
  }
  compiled = r;
  const rep = r.report;
  if (!rep.ok) {
    clearPlan();
    showError(`${model.name}: ${rep.error}: ${rep.message}`);
    return;
  }
  showError(null);
  const t = rep.tigris;
  const verdict = $('verdict');
  verdict.className = t.fits ? 'fits' : 'nofit';
  verdict.textContent = t.fits ? t.verdict : `does not fit ${kib(fast)}: ${t.reason}`;
  $('floor').textContent = rep.partial ? 'hard floor: finding it, and the budget rows...' : t.floor.bytes
    ? `hard floor ${kib(t.floor.bytes)} (${t.floor.bytes} B)${t.floor.set_by ? `: set by ${t.floor.set_by}` : ''}`
    : 'no budget meets this model';
  $('analysis').textContent = `${rep.model}   ${rep.operators} operators\n${rep.text}` +
    (rep.tflite_micro_text ? `\nmemory\n${rep.tflite_micro_text}` : '');
  showPresets(t, rep);
  $<HTMLInputElement>('budget-range').value = String(bytesToRange(fast));
  if (r.plan) {
    const tc = await core();
    const keep = selected;
    clearPlan();
    plan = tc.loadPlan(r.plan);
    showSummary(plan);
    $<HTMLSelectElement>('input-mode').value = 'zeros';
    $<HTMLInputElement>('fast').value = String(plan.fastRequired);
    if (slow) $<HTMLInputElement>('slow').value = String(Math.max(slow, plan.defaultSlow));
    selected = keep;
    await run(false);
  } else {
    clearPlan();
  }
  lastTiming = { mode, compileMs: r.ms, totalMs: performance.now() - t0 };
  timings.push(lastTiming);
  $('compile-time').textContent =
    `compiled in ${r.ms.toFixed(0)} ms${mode === 'full' ? ' (with the floor and budget rows)' : ''}; compiled and redrawn in ${lastTiming.totalMs.toFixed(0)} ms`;
  if (rep.partial) setTimeout(() => void compileNow('full'), 20);
}

function showPresets(t: any, rep: any): void {
  const box = $('presets');
  box.replaceChildren();
  const head = rep.tflite_micro?.arena?.head_bytes;
  for (const row of t.budgets ?? []) {
    if (!row.fits) continue;
    const btn = document.createElement('button');
    btn.type = 'button';
    btn.dataset.budget = String(row.budget);
    const tags = [row.budget === t.floor.bytes ? 'floor' : '', row.budget === head ? 'TFLite Micro head' : ''].filter(Boolean);
    btn.textContent = `${kib(row.budget)}${tags.length ? ` (${tags.join(', ')})` : ''}`;
    btn.title = `fast ${row.fast_arena_required} B + slow ${row.slow_peak} B, ${row.stages} stages`;
    btn.addEventListener('click', () => {
      $<HTMLInputElement>('budget-fast').value = sizeText(row.budget);
      void compileNow();
    });
    box.append(btn);
  }
  if (!box.childElementCount) box.textContent = 'none';
}

// Deterministic inputs: xorshift32 bytes from the seed.
function seeded(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    out[i] = s & 0xff;
  }
  // Float inputs get small finite values instead of random bit patterns.
  if (plan?.summary.inputs.every((t: any) => t.declared_dtype === 'float32')) {
    const f = new Float32Array(out.buffer);
    for (let i = 0; i < f.length; i++) f[i] = ((out[4 * i] / 255) - 0.5) * 4;
  }
  return out;
}

async function inputs(p: Plan): Promise<Uint8Array> {
  const mode = $<HTMLSelectElement>('input-mode').value;
  if (mode === 'zeros') return new Uint8Array(p.inputBytes);
  if (mode === 'file') {
    const f = $<HTMLInputElement>('input-file').files?.[0];
    if (!f) throw new Error('choose an input file (raw bytes of the model inputs)');
    const b = new Uint8Array(await f.arrayBuffer());
    if (b.length !== p.inputBytes) throw new Error(`the input file has ${b.length} bytes; the model inputs take ${p.inputBytes}`);
    return b;
  }
  return seeded(p.inputBytes, Number($<HTMLInputElement>('seed').value));
}

async function run(compare: boolean): Promise<void> {
  if (!plan) return;
  try {
    const r = plan.run({
      fast: Number($<HTMLInputElement>('fast').value) || 0,
      slow: Number($<HTMLInputElement>('slow').value) || 0,
      backend: $<HTMLSelectElement>('backend').value,
      inputs: await inputs(plan),
      trace: true,
    });
    showError(null);
    const timeline = buildTimeline(r.events);
    const label = `run ${compare ? shown.length + 1 : 1}: fast ${r.fastSize} B, slow ${r.slowSize} B`;
    const view = new TimelineView(timeline, r.events.count, { fast: r.fastSize, slow: r.slowSize }, label);
    if (!compare) shown = [];
    shown.push({ run: r, timeline, view });
    if (shown.length > 2) shown.shift();
    $('run-result').textContent =
      `${r.backend}: ${r.ms.toFixed(2)} ms, fast peak ${r.fastPeak} of ${r.fastSize} B, slow peak ${r.slowPeak} B, ` +
      `${r.events.count} events, outputs ${r.outputs.length} B`;
    cursor = 0;
    layout();
    showTensors();
    showCompare();
  } catch (e) {
    showError((e as Error).message);
  }
}

// The fast peak of the last run: its event and the tensors alive there.
function fastPeak(s: Shown): { event: number; bytes: number; alive: number[] } {
  let event = 0, bytes = 0;
  const used = s.timeline.fastUsed;
  for (let i = 0; i < used.length; i++) if (used[i] > bytes) { bytes = used[i]; event = i; }
  const alive = [...new Set(liveAt(s.timeline, event, POOL_FAST).map((p) => p.tensor))];
  return { event, bytes, alive };
}

function opAt(s: Shown, e: number): string {
  const op = s.run.events.get(e, 'op');
  const name = plan?.summary.op_names[op];
  return name ? ` ${name}` : '';
}

function showTensors(): void {
  const s = shown[shown.length - 1];
  if (!s || !plan) return;
  const sum = plan.summary;
  const peak = fastPeak(s);
  s.view.marker = { event: peak.event, label: `fast peak ${peak.bytes} B` };
  s.view.draw();
  const names = (t: number) => sum.tensor_names[t] ?? (t === 0xffff ? 'weights / accumulator' : `tensor ${t}`);
  $('peak-info').textContent = `fast peak ${peak.bytes} B at event ${peak.event}${opAt(s, peak.event)}; alive there: ` +
    peak.alive.map((t) => `${names(t)} (${sum.tensors?.[t]?.stored_bytes ?? '?'} B)`).join(', ');
  // One row per tensor the run placed.
  const rows = new Map<number, { pools: Set<string>; first: number; last: number }>();
  for (const p of s.timeline.placements) {
    const r = rows.get(p.tensor) ?? { pools: new Set<string>(), first: p.start, last: p.end - 1 };
    r.pools.add(p.pool === POOL_FAST ? 'fast' : 'slow');
    r.first = Math.min(r.first, p.start);
    r.last = Math.max(r.last, p.end - 1);
    rows.set(p.tensor, r);
  }
  const body = $('tensor-table').querySelector('tbody')!;
  body.replaceChildren();
  const alive = new Set(peak.alive);
  for (const [t, r] of [...rows].sort((a, b) => a[1].first - b[1].first || a[0] - b[0])) {
    const info = sum.tensors?.[t];
    const tr = document.createElement('tr');
    tr.dataset.tensor = String(t);
    if (alive.has(t)) tr.classList.add('at-peak');
    if (t === selected) tr.classList.add('selected');
    const cells = [alive.has(t) ? '★' : '', names(t), info ? fmtShape(info.shape) : '', info ? String(info.stored_bytes) : '',
      [...r.pools].join('+'), `${r.first}${opAt(s, r.first)}`, `${r.last}${opAt(s, r.last)}`];
    for (const c of cells) {
      const td = document.createElement('td');
      td.textContent = c;
      tr.append(td);
    }
    tr.addEventListener('click', () => select(t === selected ? null : t, r.first));
    body.append(tr);
  }
  filterTensors();
  $('tensors-panel').hidden = false;
}

function filterTensors(): void {
  const q = $<HTMLInputElement>('tensor-search').value.trim().toLowerCase();
  for (const tr of $('tensor-table').querySelectorAll<HTMLTableRowElement>('tbody tr'))
    tr.hidden = q !== '' && !(tr.children[1].textContent ?? '').toLowerCase().includes(q);
}

function select(t: number | null, first?: number): void {
  selected = t;
  for (const tr of $('tensor-table').querySelectorAll<HTMLTableRowElement>('tbody tr'))
    tr.classList.toggle('selected', Number(tr.dataset.tensor) === t);
  for (const s of shown) s.view.highlight = t;
  if (compare) {
    compare.highlight = t;
    compare.draw();
  }
  if (t !== null && first !== undefined) setCursor(first);
  else shown.forEach((s) => s.view.draw());
}

function showCompare(): void {
  const s = shown[shown.length - 1];
  const layout: TflmLayout | undefined = compiled?.report?.tflm_layout;
  const box = $('tflm-lanes');
  box.replaceChildren();
  if (!s || !plan || !model || !layout || !layout.buffers) {
    $('tflm-panel').hidden = true;
    return;
  }
  const arena = compiled!.report.tflite_micro?.export?.before;
  const tail = arena?.persistent_bytes ?? arena?.tail_bytes ?? 0;
  const planIndex = new Map<string, number>();
  plan.summary.tensor_names.forEach((n: string, i: number) => planIndex.set(n, i));
  compare = new ArenaCompare({ placements: s.timeline.placements, events: s.run.events.count, fastArena: plan.fastRequired,
    layout, tail, planIndex });
  compare.highlight = selected;
  const tip = $('tooltip');
  compare.canvas.addEventListener('mousemove', (ev) => {
    const c = compare!.canvas;
    const b = compare!.bufferAt(ev.offsetX * (c.width / c.clientWidth), ev.offsetY * (c.height / c.clientHeight));
    if (!b) { tip.hidden = true; return; }
    const what = b.tensor >= 0 ? b.name ?? `tensor ${b.tensor}` : `scratch of op ${b.op} ${layout.ops[b.op] ?? ''}`;
    tip.textContent = `TFLite Micro: ${what}: ${b.size} B at +${b.offset}, operators ${Math.max(0, b.first - 1)}-${Math.max(0, b.last - 1)}`;
    tip.style.left = `${ev.clientX + 12}px`;
    tip.style.top = `${ev.clientY + 12}px`;
    tip.hidden = false;
  });
  compare.canvas.addEventListener('mouseleave', () => (tip.hidden = true));
  box.append(compare.canvas);
  const ours = plan.fastRequired;
  const fig = $('tflm-figures');
  fig.dataset.head = String(layout.head);
  fig.dataset.tail = String(tail);
  fig.textContent = `TFLite Micro arena: head ${layout.head} B (${kib(layout.head)})` +
    (tail ? ` + persistent ${tail} B = ${layout.head + tail} B` : '') +
    `; TiGrIS fast arena ${ours} B (${(ours / Math.max(1, layout.head)).toFixed(2)}x the head)` +
    (compiled!.report.tigris.schedule ? ` + slow peak ${compiled!.report.tigris.schedule.slow_peak} B` : '');
  $('tflm-panel').hidden = false;
  compare.draw();
}

function layout(): void {
  const box = $('timelines');
  box.replaceChildren();
  for (const s of shown) {
    const cap = document.createElement('div');
    cap.className = 'timeline-label';
    cap.textContent = s.view.label;
    box.append(cap, s.view.canvas);
    attach(s.view);
  }
  $('timeline-panel').hidden = shown.length === 0;
  $('details-panel').hidden = shown.length === 0;
  ($('export-chrome') as HTMLButtonElement).disabled = shown.length === 0;
  ($('export-jsonl') as HTMLButtonElement).disabled = shown.length === 0;
  setCursor(cursor);
}

function setCursor(e: number): void {
  if (!shown.length) return;
  const last = shown[shown.length - 1];
  cursor = Math.max(0, Math.min(last.run.events.count - 1, e));
  for (const s of shown) {
    s.view.cursor = Math.min(cursor, s.run.events.count - 1);
    s.view.follow();
    s.view.draw();
  }
  const d = describeEvent(last.run.events as any, cursor, plan!.summary.tensor_names, plan!.summary.op_names);
  const table = $('details');
  table.replaceChildren();
  for (const [k, v] of Object.entries(d)) {
    const tr = document.createElement('tr');
    tr.dataset.field = k;
    const a = document.createElement('td');
    a.textContent = k;
    const b = document.createElement('td');
    b.textContent = v;
    tr.append(a, b);
    table.append(tr);
  }
}

function attach(v: TimelineView): void {
  let dragging = false;
  const tip = $('tooltip');
  v.canvas.addEventListener('mousedown', (ev) => {
    dragging = true;
    setCursor(v.eventAt(ev.offsetX * (v.canvas.width / v.canvas.clientWidth)));
  });
  window.addEventListener('mouseup', () => (dragging = false));
  v.canvas.addEventListener('mousemove', (ev) => {
    const px = ev.offsetX * (v.canvas.width / v.canvas.clientWidth);
    if (dragging) requestAnimationFrame(() => setCursor(v.eventAt(px)));
    const p = v.placementAt(px, ev.offsetY * (v.canvas.height / v.canvas.clientHeight));
    if (p) {
      const name = plan?.summary.tensor_names[p.tensor] ?? (p.tensor === 0xffff ? 'weights / accumulator' : `tensor ${p.tensor}`);
      tip.textContent = `${name}: ${p.bytes} B at ${p.pool ? 'slow' : 'fast'}+${p.offset}, events ${p.start}-${p.end}`;
      tip.style.left = `${ev.clientX + 12}px`;
      tip.style.top = `${ev.clientY + 12}px`;
      tip.hidden = false;
    } else {
      tip.hidden = true;
    }
  });
  v.canvas.addEventListener('mouseleave', () => (tip.hidden = true));
  v.canvas.addEventListener('wheel', (ev) => {
    ev.preventDefault();
    const px = ev.offsetX * (v.canvas.width / v.canvas.clientWidth);
    for (const s of shown) {
      if (ev.shiftKey) s.view.pan(ev.deltaY);
      else s.view.zoom(ev.deltaY > 0 ? 1.25 : 0.8, px);
      s.view.draw();
    }
  }, { passive: false });
}

function download(name: string, text: string, type: string): void {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

window.addEventListener('keydown', (ev) => {
  if (!shown.length || (ev.target as HTMLElement).tagName === 'INPUT') return;
  if (ev.key !== 'ArrowRight' && ev.key !== 'ArrowLeft') return;
  ev.preventDefault();
  const dir = ev.key === 'ArrowRight' ? 1 : -1;
  const t = shown[shown.length - 1].timeline;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) setCursor(stepTo(t.stages.map((s) => s.start), cursor, dir));
  else if (ev.shiftKey) setCursor(stepTo(t.ops, cursor, dir));
  else setCursor(cursor + dir);
});

$<HTMLInputElement>('plan-file').addEventListener('change', async (ev) => {
  const f = (ev.target as HTMLInputElement).files?.[0];
  if (f) await openBytes(new Uint8Array(await f.arrayBuffer()), f.name);
});
$('input-mode').addEventListener('change', () => {
  $('input-file').hidden = $<HTMLSelectElement>('input-mode').value !== 'file';
});
$('run').addEventListener('click', () => run(false));
$('compile').addEventListener('click', () => compileNow());
for (const id of ['budget-fast', 'budget-slow']) {
  $(id).addEventListener('keydown', (ev) => { if ((ev as KeyboardEvent).key === 'Enter') void compileNow(id === 'budget-slow' ? 'full' : 'budget'); });
}
$('budget-slow').addEventListener('change', () => compileNow('full'));
$('budget-range').addEventListener('input', () => {
  $<HTMLInputElement>('budget-fast').value = String(rangeToBytes(Number($<HTMLInputElement>('budget-range').value)));
});
$('budget-range').addEventListener('change', () => compileNow());
$('tensor-search').addEventListener('input', filterTensors);
$('compare').addEventListener('click', () => run(shown.length > 0));
$('export-chrome').addEventListener('click', () => {
  const s = shown[shown.length - 1];
  download('tigris_trace.json', toChrome(s.run.events as any, plan!.summary.op_names), 'application/json');
});
$('export-jsonl').addEventListener('click', () => {
  download('tigris_trace.jsonl', toJsonl(shown[shown.length - 1].run.events as any), 'application/x-ndjson');
});
document.addEventListener('dragover', (ev) => ev.preventDefault());
document.addEventListener('drop', async (ev) => {
  ev.preventDefault();
  const f = ev.dataTransfer?.files?.[0];
  if (f) await openBytes(new Uint8Array(await f.arrayBuffer()), f.name);
});
window.addEventListener('resize', () => {
  shown.forEach((s) => s.view.draw());
  compare?.draw();
});

// ?model=URL (a .tflite) or ?plan=URL (a .tgrs) opens it on load; the
// viewer's test hooks live on window.
const params = new URLSearchParams(location.search);
const planUrl = params.get('model') ?? params.get('plan');
if (planUrl) {
  fetch(planUrl)
    .then(async (r) => {
      if (!r.ok) throw new Error(`cannot fetch ${planUrl}: HTTP ${r.status}`);
      await openBytes(new Uint8Array(await r.arrayBuffer()), planUrl);
    })
    .catch((e) => showError((e as Error).message));
}
(window as any).tigrisViewer = {
  cursor: () => cursor,
  event: (i: number) => (shown.length ? shown[shown.length - 1].run.events.get.bind(shown[shown.length - 1].run.events) : null)?.(i, 'kind'),
  runs: () => shown.length,
  compiled: () => compiled?.report ?? null,
  timing: () => lastTiming,
  timings: () => timings,
  analysed: () => !!compiled?.report?.ok && !compiled.report.partial,
  fastPeak: () => (shown.length ? fastPeak(shown[shown.length - 1]) : null),
  plan: () => (plan ? { fastRequired: plan.fastRequired, stages: plan.summary.counts.stages } : null),
};
