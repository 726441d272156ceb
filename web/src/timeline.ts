// timeline.ts - draws one run's Timeline on a canvas: stage and tile bands on
// top, then the fast and the slow pool as two lanes (y = address, each lane
// scaled to its arena), tensor placements as rectangles, transfers as marks,
// the in-use curves, and the cursor. Only what is inside the visible event
// range is drawn, and curves are reduced to one min/max pair per pixel, so a
// trace of a million events still draws in a frame.
import { Kind, Mark, Placement, POOL_FAST, Timeline, tensorColour } from './model';

// Placements shorter than this many events are found by binary search on
// their start; the few longer ones are always considered.
const SHORT = 4096;

// First index in a list sorted by key whose key is >= v.
function lowerBound<T>(list: T[], v: number, key: (t: T) => number): number {
  let lo = 0, hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (key(list[mid]) < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface View {
  start: number;  // first visible event (fractional)
  end: number;    // one past the last visible event
}

export interface Arenas {
  fast: number;
  slow: number;
}

const BAND_H = 28;
const LANE_GAP = 14;

export class TimelineView {
  readonly canvas: HTMLCanvasElement;
  private ctx: CanvasRenderingContext2D;
  view: View;
  cursor = 0;
  // A selected tensor (others drawn faint) and a marked event (the peak).
  highlight: number | null = null;
  marker: { event: number; label: string } | null = null;
  private short: Placement[];
  private long: Placement[];
  // Everything but the cursor, drawn once per view and reused while the
  // cursor moves, so scrubbing costs one image copy per frame.
  private layer = document.createElement('canvas');
  private layerKey = '';

  constructor(
    readonly timeline: Timeline,
    readonly count: number,
    readonly arenas: Arenas,
    readonly label: string,
  ) {
    this.canvas = document.createElement('canvas');
    this.canvas.height = 360;
    this.ctx = this.canvas.getContext('2d')!;
    this.view = { start: 0, end: Math.max(1, count) };
    this.short = timeline.placements.filter((p) => p.end - p.start <= SHORT);  // stays sorted by start
    this.long = timeline.placements.filter((p) => p.end - p.start > SHORT);
    // Each lane is scaled to the highest byte this run used in that pool
    // (not the arena's size, which can be far larger and flatten the lane).
    for (const p of timeline.placements) this.peak[p.pool] = Math.max(this.peak[p.pool] ?? 0, p.offset + p.bytes);
  }
  private peak: number[] = [0, 0];
  private laneSize(pool: number): number {
    const arena = pool === POOL_FAST ? this.arenas.fast : this.arenas.slow;
    return Math.max(1, this.peak[pool] || arena);
  }

  // Calls fn on every placement that overlaps the visible event range
  // (stops early when fn returns true).
  private forVisible(fn: (p: Placement) => boolean | void): void {
    const { start, end } = this.view;
    for (const p of this.long) if (p.end > start && p.start < end && fn(p)) return;
    for (let k = lowerBound(this.short, start - SHORT, (p) => p.start); k < this.short.length; k++) {
      const p = this.short[k];
      if (p.start >= end) break;
      if (p.end > start && fn(p)) return;
    }
  }

  private laneH(): number {
    return (this.canvas.height - BAND_H - 2 * LANE_GAP) / 2;
  }
  private laneTop(pool: number): number {
    return BAND_H + LANE_GAP + (pool === POOL_FAST ? 0 : this.laneH() + LANE_GAP);
  }
  x(event: number): number {
    return ((event - this.view.start) / (this.view.end - this.view.start)) * this.canvas.width;
  }
  eventAt(px: number): number {
    const e = this.view.start + (px / this.canvas.width) * (this.view.end - this.view.start);
    return Math.max(0, Math.min(this.count - 1, Math.floor(e)));
  }
  private y(pool: number, offset: number): number {
    const size = this.laneSize(pool);
    return this.laneTop(pool) + (offset / size) * this.laneH();
  }

  // The placement under a canvas point, if any.
  placementAt(px: number, py: number): Placement | undefined {
    const e = this.eventAt(px);
    for (const pool of [0, 1]) {
      const top = this.laneTop(pool);
      if (py < top || py > top + this.laneH()) continue;
      const size = this.laneSize(pool);
      const off = ((py - top) / this.laneH()) * size;
      let hit: Placement | undefined;
      this.forVisible((p) => {
        if (p.pool === pool && p.start <= e && e < p.end && p.offset <= off && off < p.offset + p.bytes) hit = p;
        return hit !== undefined;
      });
      return hit;
    }
    return undefined;
  }

  zoom(factor: number, aroundPx: number): void {
    const c = this.view.start + (aroundPx / this.canvas.width) * (this.view.end - this.view.start);
    let span = (this.view.end - this.view.start) * factor;
    span = Math.max(8, Math.min(Math.max(8, this.count), span));
    let start = c - (c - this.view.start) * factor;
    start = Math.max(0, Math.min(start, this.count - span));
    this.view = { start, end: start + span };
  }

  pan(dxPx: number): void {
    const span = this.view.end - this.view.start;
    let start = this.view.start + (dxPx / this.canvas.width) * span;
    start = Math.max(0, Math.min(start, Math.max(0, this.count - span)));
    this.view = { start, end: start + span };
  }

  // Keeps the cursor inside the view.
  follow(): void {
    const span = this.view.end - this.view.start;
    if (this.cursor < this.view.start || this.cursor >= this.view.end) {
      const start = Math.max(0, Math.min(this.cursor - span / 2, this.count - span));
      this.view = { start, end: start + span };
    }
  }

  draw(): void {
    const { canvas } = this;
    const w = canvas.clientWidth || 1000;
    if (canvas.width !== w) canvas.width = w;
    const key = `${canvas.width}x${canvas.height}:${this.view.start}:${this.view.end}:${this.highlight}:${this.marker?.event}`;
    if (key !== this.layerKey) {
      this.layer.width = canvas.width;
      this.layer.height = canvas.height;
      this.drawLayer(this.layer.getContext('2d')!);
      this.layerKey = key;
    }
    const ctx = this.ctx;
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(this.layer, 0, 0);
    const cx = this.x(this.cursor + 0.5);
    ctx.strokeStyle = '#000';
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(cx, 0);
    ctx.lineTo(cx, canvas.height);
    ctx.stroke();
  }

  private drawLayer(ctx: CanvasRenderingContext2D): void {
    const canvas = this.layer;
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    const t = this.timeline;
    const vis = (a: number, b: number) => b > this.view.start && a < this.view.end;

    // Stage and tile bands.
    t.stages.forEach((s, k) => {
      if (!vis(s.start, s.end)) return;
      ctx.fillStyle = k % 2 ? '#dfe6f5' : '#c9d6f0';
      ctx.fillRect(this.x(s.start), 0, Math.max(1, this.x(s.end) - this.x(s.start)), BAND_H / 2);
      ctx.fillStyle = '#1d2330';
      ctx.font = '10px sans-serif';
      // "S3" says which stage; "stage 3" when there is room, nothing when too narrow.
      const w = this.x(s.end) - this.x(s.start) - 4;
      const label = [`stage ${s.index}`, `S${s.index}`].find((l) => ctx.measureText(l).width <= w);
      if (label) ctx.fillText(label, this.x(s.start) + 2, 10);
    });
    t.tiles.forEach((s, k) => {
      if (!vis(s.start, s.end)) return;
      ctx.fillStyle = k % 2 ? '#f3e3c6' : '#e9cf9f';
      ctx.fillRect(this.x(s.start), BAND_H / 2, Math.max(1, this.x(s.end) - this.x(s.start)), BAND_H / 2 - 2);
    });

    // Lanes.
    for (const pool of [0, 1]) {
      const top = this.laneTop(pool);
      ctx.fillStyle = '#f4f5f7';
      ctx.fillRect(0, top, canvas.width, this.laneH());
      ctx.fillStyle = '#555';
      ctx.font = '10px sans-serif';
      const arena = pool === 0 ? this.arenas.fast : this.arenas.slow;
      ctx.fillText(`${pool === 0 ? 'fast' : 'slow'} arena ${arena} B, lane scaled to used peak ${this.laneSize(pool)} B`, 2, top - 3);
    }

    // Placements. Many narrower than a pixel land in one column when zoomed
    // out: one rectangle per column, tensor, pool and offset is enough.
    const drawn = new Map<number, number>();
    const scale = canvas.width / (this.view.end - this.view.start), v0 = this.view.start;
    this.forVisible((p) => {
      const x0 = (p.start - v0) * scale, x1 = (p.end - v0) * scale;
      if (x1 - x0 < 1) {
        const key = (p.tensor * 2 + p.pool) * 4294967296 + p.offset, col = Math.floor(x0);
        if (drawn.get(key) === col) return;
        drawn.set(key, col);
      }
      const y0 = this.y(p.pool, p.offset), y1 = this.y(p.pool, p.offset + p.bytes);
      ctx.globalAlpha = this.highlight !== null && p.tensor !== this.highlight ? 0.2 : 1;
      ctx.fillStyle = tensorColour(p.tensor);
      ctx.fillRect(x0, y0, Math.max(1, x1 - x0), Math.max(1, y1 - y0));
      if (p.tensor === this.highlight) {
        ctx.strokeStyle = '#000';
        ctx.lineWidth = 1;
        ctx.strokeRect(x0, y0, Math.max(1, x1 - x0), Math.max(1, y1 - y0));
      }
    });
    ctx.globalAlpha = 1;

    // In-use curves, one min/max pair per pixel column.
    for (const pool of [0, 1]) {
      const used = pool === 0 ? t.fastUsed : t.slowUsed;
      ctx.strokeStyle = pool === 0 ? '#0b3d91' : '#7a1f1f';
      ctx.lineWidth = 1;
      ctx.beginPath();
      const perPx = (this.view.end - this.view.start) / canvas.width;
      for (let px = 0; px < canvas.width; px++) {
        const a = Math.floor(this.view.start + px * perPx), b = Math.max(a + 1, Math.floor(this.view.start + (px + 1) * perPx));
        let hi = 0;
        for (let e = a; e < b && e < used.length; e++) hi = Math.max(hi, used[e]);
        if (a >= used.length) break;
        const y = this.y(pool, hi);
        if (px === 0) ctx.moveTo(px, y);
        else ctx.lineTo(px, y);
      }
      ctx.stroke();
    }

    // Transfer marks: loads blue, spills red, moves purple, weights grey, copies green.
    const colours: Record<number, string> = {
      [Kind.LOAD]: '#1565c0', [Kind.SPILL]: '#c62828', [Kind.MOVE]: '#6a1b9a', [Kind.WEIGHTS]: '#616161', [Kind.COPY]: '#2e7d32',
    };
    const lastCol = new Map<number, number>();
    for (let k = lowerBound(t.marks, this.view.start, (m: Mark) => m.event); k < t.marks.length; k++) {
      const m = t.marks[k];
      if (m.event >= this.view.end) break;
      if (m.pool !== 0 && m.pool !== 1) continue;
      const x = this.x(m.event + 0.5), y = this.y(m.pool, m.offset);
      const key = m.kind * 2 + m.pool, col = Math.floor(x);  // one mark per kind, pool and column
      if (lastCol.get(key) === col) continue;
      lastCol.set(key, col);
      ctx.fillStyle = colours[m.kind] ?? '#000';
      ctx.beginPath();
      if (m.kind === Kind.LOAD) { ctx.moveTo(x - 4, y - 6); ctx.lineTo(x + 4, y - 6); ctx.lineTo(x, y); }
      else if (m.kind === Kind.SPILL) { ctx.moveTo(x - 4, y + 6); ctx.lineTo(x + 4, y + 6); ctx.lineTo(x, y); }
      else if (m.kind === Kind.MOVE) { ctx.moveTo(x, y - 4); ctx.lineTo(x + 4, y); ctx.lineTo(x, y + 4); ctx.lineTo(x - 4, y); }
      else if (m.kind === Kind.WEIGHTS) { ctx.rect(x - 3, y, 6, 6); }
      else { ctx.arc(x, y + 3, 3, 0, 2 * Math.PI); }
      ctx.fill();
    }

    // The marked event (the fast peak): a dashed line over both lanes.
    if (this.marker && vis(this.marker.event, this.marker.event + 1)) {
      const x = this.x(this.marker.event + 0.5);
      ctx.strokeStyle = '#d32f2f';
      ctx.lineWidth = 1.5;
      ctx.setLineDash([5, 3]);
      ctx.beginPath();
      ctx.moveTo(x, BAND_H);
      ctx.lineTo(x, canvas.height);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.fillStyle = '#d32f2f';
      ctx.font = 'bold 10px sans-serif';
      const tw = ctx.measureText(this.marker.label).width;
      ctx.fillText(this.marker.label, Math.min(x + 3, canvas.width - tw - 2), BAND_H + LANE_GAP + 11);
    }
  }
}
