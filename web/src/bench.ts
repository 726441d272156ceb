// bench.ts - the viewer's timeline under a synthetic trace of 1 M events
// (the shape of a long tiled stage: per tile a TILE_BEGIN, a LOAD, three
// ALLOCs, two OPs, a SPILL and a RESET): time to build the model and paint
// the first frame, then frame times while the cursor is scrubbed across it.
// Results land in #out as JSON (tests/bench_viewer.mjs reads them).
import { buildTimeline, Events, EventField, Kind } from './model';
import { TimelineView } from './timeline';

const N = Number(new URLSearchParams(location.search).get('events') ?? 1_000_000);
const OFF: Record<EventField, [number, number]> = {
  kind: [0, 1], pool: [1, 1], path: [2, 1], stage: [4, 2], tensor: [6, 2], op: [8, 2], offset: [12, 4],
  src_offset: [16, 4], bytes: [20, 4], row0: [24, 4], row1: [28, 4], col0: [32, 4], col1: [36, 4],
  fast_used: [40, 4], slow_used: [44, 4],
};

function synth(n: number): Events {
  const buf = new ArrayBuffer(n * 48);
  const dv = new DataView(buf);
  const pattern = [Kind.TILE_BEGIN, Kind.LOAD, Kind.ALLOC, Kind.ALLOC, Kind.OP, Kind.ALLOC, Kind.OP, Kind.SPILL, Kind.RESET];
  let fast = 0, slow = 0;
  for (let i = 0; i < n; i++) {
    const k = i === 0 ? Kind.STAGE_BEGIN : i === n - 1 ? Kind.STAGE_END : pattern[i % pattern.length];
    const at = i * 48;
    dv.setUint8(at, k);
    dv.setUint8(at + 1, k === Kind.SPILL ? 1 : 0);
    dv.setUint16(at + 4, 0, true);
    dv.setUint16(at + 6, (i % 7) + 1, true);
    dv.setUint16(at + 8, k === Kind.TILE_BEGIN ? Math.floor(i / pattern.length) & 0xffff : 0xffff, true);
    let off = 0, bytes = 0;
    if (k === Kind.ALLOC) { off = fast; bytes = 1024; fast += 1024; }
    if (k === Kind.LOAD) { off = fast; bytes = 512; }
    if (k === Kind.SPILL) { off = slow % 65536; bytes = 1024; slow += 64; }
    if (k === Kind.RESET) { fast = 0; }
    dv.setUint32(at + 12, off, true);
    dv.setUint32(at + 20, bytes, true);
    for (const r of [24, 28, 32, 36]) dv.setInt32(at + r, -1, true);
    dv.setUint32(at + 40, fast, true);
    dv.setUint32(at + 44, slow % 65536, true);
  }
  return {
    count: n,
    get(i, f) {
      const [o, w] = OFF[f];
      const at = i * 48 + o;
      if (w === 1) return dv.getUint8(at);
      if (w === 2) return dv.getUint16(at, true);
      return f.startsWith('row') || f.startsWith('col') ? dv.getInt32(at, true) : dv.getUint32(at, true);
    },
  };
}

const frame = () => new Promise<number>((r) => requestAnimationFrame(r));

async function main(): Promise<void> {
  const ev = synth(N);
  const t0 = performance.now();
  const tl = buildTimeline(ev);
  const modelMs = performance.now() - t0;
  const view = new TimelineView(tl, ev.count, { fast: 8192, slow: 65536 }, 'bench');
  document.getElementById('timelines')!.append(view.canvas);
  view.draw();
  await frame();
  const firstPaint = performance.now() - t0;
  // Scrub: 120 cursor moves across the whole trace, one per frame, zoomed in
  // to a 5 000-event window that follows the cursor (as the viewer does).
  view.zoom(5000 / N, 0);
  const times: number[] = [];
  for (let k = 0; k < 120; k++) {
    const s = performance.now();
    view.cursor = Math.floor((k / 120) * (N - 1));
    view.follow();
    view.draw();
    times.push(performance.now() - s);
    await frame();
  }
  // And the whole trace in view (the worst case for drawing).
  const full = new TimelineView(tl, ev.count, { fast: 8192, slow: 65536 }, 'full');
  document.getElementById('timelines')!.append(full.canvas);
  const wide: number[] = [];
  for (let k = 0; k < 10; k++) {
    const s = performance.now();
    full.cursor = Math.floor((k / 10) * (N - 1));
    full.draw();
    wide.push(performance.now() - s);
    await frame();
  }
  times.sort((a, b) => a - b);
  wide.sort((a, b) => a - b);
  document.getElementById('out')!.textContent = JSON.stringify({
    events: N, placements: tl.placements.length, model_ms: modelMs, first_paint_ms: firstPaint,
    scrub_frame_p50_ms: times[Math.floor(times.length / 2)], scrub_frame_max_ms: times[times.length - 1],
    full_view_frame_max_ms: wide[wide.length - 1],
  });
}
main().catch((e) => (document.getElementById('out')!.textContent = `error: ${e}`));
