// main.ts - the viewer page: open a plan (file picker, drop, ?plan=URL),
// show its summary, run it in the wasm core with chosen arenas and inputs,
// draw the memory timeline, step through events, compare two runs, export.
import { describeEvent, toChrome, toJsonl } from './exporters';
import { buildTimeline, stepTo, Timeline } from './model';
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

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

let tigris: Tigris | null = null;
let plan: Plan | null = null;
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

async function openBytes(bytes: Uint8Array, name: string): Promise<void> {
  try {
    const t = await core();
    plan?.close();
    plan = null;
    shown = [];
    $('timelines').replaceChildren();
    $('timeline-panel').hidden = true;
    $('details-panel').hidden = true;
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
  } catch (e) {
    showError((e as Error).message);
  }
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
window.addEventListener('resize', () => shown.forEach((s) => s.view.draw()));

// ?plan=URL opens a plan on load; the viewer's test hooks live on window.
const planUrl = new URLSearchParams(location.search).get('plan');
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
};
