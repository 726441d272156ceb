// tflm.ts - TiGrIS's fast arena beside the arena TFLite Micro's planner lays
// out for the same model, on one address scale (bytes per pixel the same in
// both lanes): left, the compiled plan's fast placements over the run's
// events; right, TFLite Micro's head (every activation tensor and kernel
// scratch buffer at its planned offset, x = operator scope). Tensors that
// keep their name in the plan get the same colour in both lanes.
import { Placement, POOL_FAST, tensorColour } from './model';

export interface ArenaBuffer {
  tensor: number;  // TFLite tensor index, -1 for scratch
  op: number;      // scratch: the requesting operator
  offset: number;
  size: number;
  first: number;   // scopes: graph inputs 0, operator i at i + 1
  last: number;
  name?: string;
}

export interface TflmLayout {
  head: number;
  buffers: ArenaBuffer[];
  ops: string[];
}

export interface CompareInput {
  placements: Placement[];  // the TiGrIS run's
  events: number;
  fastArena: number;        // the plan's declared fast arena
  layout: TflmLayout;
  tail: number;             // TFLite Micro's persistent bytes (0: unknown)
  planIndex: Map<string, number>;  // tensor name -> plan tensor index (shared colours)
}

const TOP = 22, BOTTOM = 8, GAP = 24;

export class ArenaCompare {
  readonly canvas = document.createElement('canvas');
  highlight: number | null = null;  // plan tensor index

  constructor(readonly input: CompareInput) {
    this.canvas.height = 300;
    this.canvas.className = 'tflm-canvas';
  }

  // Bytes of the common scale: the larger of the two arenas.
  get scaleBytes(): number {
    return Math.max(1, this.input.fastArena, this.input.layout.head);
  }

  // The TFLite Micro buffer under a canvas point (for the tooltip).
  bufferAt(px: number, py: number): ArenaBuffer | undefined {
    const g = this.geometry();
    if (px < g.rightX) return undefined;
    const scope = g.scopeAt(px);
    const off = ((py - TOP) / g.h) * this.scaleBytes;
    return this.input.layout.buffers.find((b) => b.first <= scope && scope <= b.last && b.offset <= off && off < b.offset + b.size);
  }

  private geometry() {
    const w = this.canvas.width, h = this.canvas.height - TOP - BOTTOM;
    const half = (w - GAP) / 2;
    const scopes = Math.max(1, this.input.layout.ops.length + 1);
    const rightX = half + GAP;
    return {
      w, h, half, rightX,
      y: (b: number) => TOP + (b / this.scaleBytes) * h,
      ex: (e: number) => (e / Math.max(1, this.input.events)) * half,
      sx: (s: number) => rightX + (Math.max(0, s) / scopes) * half,
      scopeAt: (px: number) => Math.floor(((px - rightX) / half) * scopes),
    };
  }

  draw(): void {
    const c = this.canvas;
    const w = c.clientWidth || 1000;
    if (c.width !== w) c.width = w;
    const ctx = c.getContext('2d')!;
    const g = this.geometry();
    const { layout, fastArena, placements, planIndex } = this.input;
    ctx.clearRect(0, 0, c.width, c.height);
    ctx.font = '11px sans-serif';
    const dim = (t: number) => this.highlight !== null && t !== this.highlight;

    // Lane backgrounds up to each arena's size, on the common scale.
    ctx.fillStyle = '#f4f5f7';
    ctx.fillRect(0, TOP, g.half, g.y(fastArena) - TOP);
    ctx.fillRect(g.rightX, TOP, g.half, g.y(layout.head) - TOP);

    // TiGrIS fast placements.
    for (const p of placements) {
      if (p.pool !== POOL_FAST) continue;
      ctx.globalAlpha = dim(p.tensor) ? 0.2 : 1;
      ctx.fillStyle = tensorColour(p.tensor);
      const x0 = g.ex(p.start), x1 = g.ex(p.end);
      ctx.fillRect(x0, g.y(p.offset), Math.max(1, x1 - x0), Math.max(1, g.y(p.offset + p.bytes) - g.y(p.offset)));
    }
    // TFLite Micro's head.
    for (const b of layout.buffers) {
      const idx = b.name !== undefined ? planIndex.get(b.name) : undefined;
      ctx.globalAlpha = idx !== undefined ? (dim(idx) ? 0.2 : 1) : this.highlight !== null ? 0.2 : 0.9;
      ctx.fillStyle = b.tensor < 0 ? '#9e9e9e' : idx !== undefined ? tensorColour(idx) : '#b0a4c8';
      const x0 = g.sx(b.first), x1 = g.sx(b.last + 1);
      ctx.fillRect(x0, g.y(b.offset), Math.max(1, x1 - x0 - 1), Math.max(1, g.y(b.offset + b.size) - g.y(b.offset) - 0.5));
    }
    ctx.globalAlpha = 1;

    // The arena sizes as lines, and the labels.
    ctx.strokeStyle = '#0b3d91';
    ctx.setLineDash([4, 3]);
    ctx.beginPath();
    ctx.moveTo(0, g.y(fastArena));
    ctx.lineTo(g.half, g.y(fastArena));
    ctx.moveTo(g.rightX, g.y(layout.head));
    ctx.lineTo(g.rightX + g.half, g.y(layout.head));
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = '#1d2330';
    ctx.fillText(`TiGrIS fast arena ${fastArena} B (declared), x = events`, 2, 12);
    const tail = this.input.tail ? ` + persistent ${this.input.tail} B` : '';
    ctx.fillText(`TFLite Micro head ${layout.head} B${tail}, x = operators`, g.rightX + 2, 12);
  }
}
