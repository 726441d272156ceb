// model.ts - what the timeline draws, derived from the trace alone:
// tensor placements (rectangles in address x event space), transfer marks,
// stage and tile bands, and the in-use curves of both pools.
//
// Placement rules (runtime-semantics §3.2): a placement starts at its ALLOC
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

export function buildTimeline(ev: Events): Timeline {
  const n = ev.count;
  const placements: Placement[] = [];
  const open: Placement[] = [];  // live placements
  const marks: Mark[] = [];
  const stages: Band[] = [];
  const tiles: Band[] = [];
  const ops: number[] = [];
  const fastUsed = new Uint32Array(n);
  const slowUsed = new Uint32Array(n);
  let stage: Band | null = null;
  let tile: Band | null = null;

  const close = (p: Placement, at: number, why: Placement['endedBy']) => {
    p.end = at;
    p.endedBy = why;
    placements.push(p);
  };
  const closeWhere = (at: number, why: Placement['endedBy'], pred: (p: Placement) => boolean) => {
    for (let k = open.length - 1; k >= 0; k--) {
      if (pred(open[k])) {
        close(open[k], at, why);
        open.splice(k, 1);
      }
    }
  };
  const endTile = (at: number) => {
    if (tile) {
      tile.end = at;
      tiles.push(tile);
      tile = null;
    }
  };

  for (let i = 0; i < n; i++) {
    const kind = ev.get(i, 'kind');
    const pool = ev.get(i, 'pool');
    const off = ev.get(i, 'offset');
    const bytes = ev.get(i, 'bytes');
    const tensor = ev.get(i, 'tensor');
    fastUsed[i] = ev.get(i, 'fast_used');
    slowUsed[i] = ev.get(i, 'slow_used');
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
          const src = ev.get(i, 'src_offset');
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
        stage = { start: i, end: n, index: ev.get(i, 'stage'), stage: ev.get(i, 'stage') };
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
        tile = { start: i, end: n, index: ev.get(i, 'op'), stage: ev.get(i, 'stage') };
        break;
    }
  }
  endTile(n);
  if (stage) stages.push(stage);
  for (const p of open) close(p, n, 'end');
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

// A stable colour per tensor index.
export function tensorColour(tensor: number): string {
  if (tensor === NONE16) return 'hsl(0 0% 55%)';
  const h = (tensor * 137.508) % 360;
  return `hsl(${h.toFixed(1)} 62% 58%)`;
}
