// model.ts - what the timeline draws, derived from the trace alone:
// tensor placements (rectangles in address x event space), transfer marks,
// stage and tile bands, and the in-use curves of both pools.
//
// Placement rules (docs/runtime-semantics.md R3.2): a placement starts at its ALLOC
// and ends at the first of: a fast RESET at or below its offset, a MOVE of
// the same tensor in the same pool (which starts a new placement at the new
// offset), a later ALLOC that overlaps its bytes (the space was reused after
// a free the trace does not report), or the end of the trace.

export const Kind = {
  STAGE_BEGIN: 1, STAGE_END: 2, TILE_BEGIN: 3, LOAD: 4, SPILL: 5, ALLOC: 6,
  RESET: 7, MOVE: 8, WEIGHTS: 9, OP: 10, COPY: 11,
} as const;

export const KIND_NAMES: Record<number, string> = {
  1: 'STAGE_BEGIN', 2: 'STAGE_END', 3: 'TILE_BEGIN', 4: 'LOAD', 5: 'SPILL', 6: 'ALLOC',
  7: 'RESET', 8: 'MOVE', 9: 'WEIGHTS', 10: 'OP', 11: 'COPY',
};

export const POOL_FAST = 0;
export const POOL_SLOW = 1;
export const NONE16 = 0xffff;

// Read access to a packed trace (wasm/tigris.js TraceEvents has this shape).
export interface Events {
  count: number;
  get(i: number, field: EventField): number;
}
export type EventField = 'kind' | 'pool' | 'path' | 'stage' | 'tensor' | 'op' | 'offset' | 'src_offset' | 'bytes' |
  'row0' | 'row1' | 'col0' | 'col1' | 'fast_used' | 'slow_used';

export interface Placement {
  tensor: number;  // NONE16 for weights and accumulators
  pool: number;
  offset: number;
  bytes: number;
  start: number;   // event index of the ALLOC (or MOVE)
  end: number;     // event index where it ends (exclusive); count when it lives to the end
  endedBy: 'reset' | 'move' | 'reuse' | 'end';
}

export interface Mark {
  event: number;
  kind: number;    // LOAD, SPILL, MOVE, WEIGHTS, COPY
  pool: number;
  offset: number;
  bytes: number;
  tensor: number;
}

export interface Band {
  start: number;   // event index
  end: number;     // exclusive
  index: number;   // stage index or tile ordinal
  stage: number;
}

export interface Timeline {
  placements: Placement[];
  marks: Mark[];
  stages: Band[];
  tiles: Band[];
  ops: number[];   // event indices of OP events (for stepping)
  fastUsed: Uint32Array;
  slowUsed: Uint32Array;
}

// The trace as 48-byte records (the core's tigris_trace_event_t). A packed
// trace (wasm/tigris.js) is used as it is; any other Events is packed once.
const FIELD_AT: Record<EventField, number> = {
  kind: 0, pool: 1, path: 2, stage: 4, tensor: 6, op: 8, offset: 12, src_offset: 16, bytes: 20,
  row0: 24, row1: 28, col0: 32, col1: 36, fast_used: 40, slow_used: 44,
};

export function pack(ev: Events): ArrayBuffer {
  const buf = new ArrayBuffer(ev.count * 48);
  const dv = new DataView(buf);
  for (let i = 0; i < ev.count; i++) {
    for (const f of Object.keys(FIELD_AT) as EventField[]) {
      const at = i * 48 + FIELD_AT[f];
      const v = ev.get(i, f);
      if (f === 'kind' || f === 'pool' || f === 'path') dv.setUint8(at, v);
      else if (f === 'stage' || f === 'tensor' || f === 'op') dv.setUint16(at, v, true);
      else if (f.startsWith('row') || f.startsWith('col')) dv.setInt32(at, v, true);
      else dv.setUint32(at, v >>> 0, true);
    }
  }
  return buf;
}

export function buildTimeline(ev: Events & { buffer?: ArrayBuffer }): Timeline {
  const n = ev.count;
  const buf = ev.buffer && ev.buffer.byteLength >= n * 48 ? ev.buffer : pack(ev);
  // Typed views over the records: every field is naturally aligned.
  const u8 = new Uint8Array(buf), u16 = new Uint16Array(buf, 0, (n * 48) >> 1), u32 = new Uint32Array(buf, 0, (n * 48) >> 2);
  const placements: Placement[] = [];
  let open: Placement[] = [];  // live placements
  const marks: Mark[] = [];
  const stages: Band[] = [];
  const tiles: Band[] = [];
  const ops: number[] = [];
  const fastUsed = new Uint32Array(n);
  const slowUsed = new Uint32Array(n);
  let stage: Band | null = null;
  let tile: Band | null = null;

  const closeWhere = (at: number, why: Placement['endedBy'], pred: (p: Placement) => boolean) => {
    const keep: Placement[] = [];
    for (const p of open) {
      if (pred(p)) {
        p.end = at;
        p.endedBy = why;
        placements.push(p);
      } else {
        keep.push(p);
      }
    }
    open = keep;
  };
  const endTile = (at: number) => {
    if (tile) {
      tile.end = at;
      tiles.push(tile);
      tile = null;
    }
  };

  for (let i = 0; i < n; i++) {
    const b8 = i * 48, b16 = i * 24, b32 = i * 12;
    const kind = u8[b8];
    const pool = u8[b8 + 1];
    const tensor = u16[b16 + 3];
    const off = u32[b32 + 3];
    const bytes = u32[b32 + 5];
    fastUsed[i] = u32[b32 + 10];
    slowUsed[i] = u32[b32 + 11];
    switch (kind) {
      case Kind.ALLOC:
        if (bytes > 0) {
          closeWhere(i, 'reuse', (p) => p.pool === pool && p.offset < off + bytes && off < p.offset + p.bytes);
          open.push({ tensor, pool, offset: off, bytes, start: i, end: n, endedBy: 'end' });
        }
        break;
      case Kind.RESET:
        closeWhere(i, 'reset', (p) => p.pool === POOL_FAST && p.offset >= off);
        break;
      case Kind.MOVE: {
        marks.push({ event: i, kind, pool, offset: off, bytes, tensor });
        // Compaction moves a tensor's placement; a line-buffer roll (no
        // tensor) copies rows inside a buffer and moves nothing.
        if (tensor !== NONE16) {
          const src = u32[b32 + 4];
          const moved = open.find((p) => p.pool === pool && p.tensor === tensor && p.offset === src);
          if (moved) {
            closeWhere(i, 'move', (p) => p === moved);
            open.push({ tensor, pool, offset: off, bytes: moved.bytes, start: i, end: n, endedBy: 'end' });
          }
        }
        break;
      }
      case Kind.LOAD: case Kind.SPILL: case Kind.WEIGHTS: case Kind.COPY:
        marks.push({ event: i, kind, pool, offset: off, bytes, tensor });
        break;
      case Kind.OP:
        ops.push(i);
        break;
      case Kind.STAGE_BEGIN:
        endTile(i);
        stage = { start: i, end: n, index: u16[b16 + 2], stage: u16[b16 + 2] };
        break;
      case Kind.STAGE_END:
        endTile(i + 1);
        if (stage) {
          stage.end = i + 1;
          stages.push(stage);
          stage = null;
        }
        break;
      case Kind.TILE_BEGIN:
        endTile(i);
        tile = { start: i, end: n, index: u16[b16 + 4], stage: u16[b16 + 2] };
        break;
    }
  }
  endTile(n);
  if (stage) stages.push(stage);
  closeWhere(n, 'end', () => true);
  placements.sort((a, b) => a.start - b.start || a.offset - b.offset);
  return { placements, marks, stages, tiles, ops, fastUsed, slowUsed };
}

// Index of the next (dir = +1) or previous (-1) event in `points` after `at`.
export function stepTo(points: number[], at: number, dir: 1 | -1): number {
  if (dir > 0) {
    for (const p of points) if (p > at) return p;
    return at;
  }
  for (let k = points.length - 1; k >= 0; k--) if (points[k] < at) return points[k];
  return at;
}

// Placements alive at event i (for hover and the details panel).
export function liveAt(t: Timeline, i: number, pool?: number): Placement[] {
  return t.placements.filter((p) => p.start <= i && i < p.end && (pool === undefined || p.pool === pool));
}

// A stable colour per tensor index (cached: drawing asks once per rectangle).
const colours = new Map<number, string>();
export function tensorColour(tensor: number): string {
  let c = colours.get(tensor);
  if (!c) {
    c = tensor === NONE16 ? 'hsl(0 0% 55%)' : `hsl(${((tensor * 137.508) % 360).toFixed(1)} 62% 58%)`;
    colours.set(tensor, c);
  }
  return c;
}
