// The event -> rectangle model on hand-written traces: each rule that starts
// or ends a placement, transfer marks, stage and tile bands, stepping.
import { describe, expect, it } from 'vitest';
import { buildTimeline, Events, EventField, Kind, liveAt, NONE16, stepTo } from '../src/model';
import { toChrome, toJsonl } from '../src/exporters';

type Row = Partial<Record<EventField, number>> & { kind: number };

// A trace from rows; absent fields take the core's "none" values.
function events(rows: Row[]): Events {
  const dflt: Record<EventField, number> = {
    kind: 0, pool: 0xff, path: 0, stage: NONE16, tensor: NONE16, op: NONE16, offset: 0, src_offset: 0, bytes: 0,
    row0: -1, row1: -1, col0: -1, col1: -1, fast_used: 0, slow_used: 0,
  };
  return { count: rows.length, get: (i, f) => (rows[i][f] ?? dflt[f]) };
}

describe('placements', () => {
  it('a fast ALLOC lives until the RESET at or below its offset', () => {
    const t = buildTimeline(events([
      { kind: Kind.STAGE_BEGIN, stage: 0 },
      { kind: Kind.ALLOC, pool: 0, tensor: 3, offset: 0, bytes: 64 },
      { kind: Kind.ALLOC, pool: 0, tensor: 4, offset: 64, bytes: 32 },
      { kind: Kind.OP, op: 0, stage: 0 },
      { kind: Kind.RESET, pool: 0, offset: 0 },
      { kind: Kind.STAGE_END, stage: 0 },
    ]));
    expect(t.placements).toEqual([
      { tensor: 3, pool: 0, offset: 0, bytes: 64, start: 1, end: 4, endedBy: 'reset' },
      { tensor: 4, pool: 0, offset: 64, bytes: 32, start: 2, end: 4, endedBy: 'reset' },
    ]);
    expect(t.stages).toEqual([{ start: 0, end: 6, index: 0, stage: 0 }]);
    expect(t.ops).toEqual([3]);
  });

  it('a RESET above a placement keeps it (reserved prefix)', () => {
    const t = buildTimeline(events([
      { kind: Kind.ALLOC, pool: 0, tensor: 1, offset: 0, bytes: 32 },
      { kind: Kind.ALLOC, pool: 0, tensor: 2, offset: 32, bytes: 32 },
      { kind: Kind.RESET, pool: 0, offset: 32 },
    ]));
    const byTensor = Object.fromEntries(t.placements.map((p) => [p.tensor, p]));
    expect(byTensor[1].endedBy).toBe('end');
    expect(byTensor[1].end).toBe(3);
    expect(byTensor[2]).toMatchObject({ end: 2, endedBy: 'reset' });
  });

  it('a MOVE of a tensor ends its placement and starts one at the new offset', () => {
    const t = buildTimeline(events([
      { kind: Kind.ALLOC, pool: 1, tensor: 5, offset: 128, bytes: 64 },
      { kind: Kind.MOVE, pool: 1, tensor: 5, offset: 0, src_offset: 128, bytes: 64 },
    ]));
    expect(t.placements).toEqual([
      { tensor: 5, pool: 1, offset: 128, bytes: 64, start: 0, end: 1, endedBy: 'move' },
      { tensor: 5, pool: 1, offset: 0, bytes: 64, start: 1, end: 2, endedBy: 'end' },
    ]);
    expect(t.marks).toHaveLength(1);
  });

  it('a line-buffer roll (MOVE without a tensor) moves no placement', () => {
    const t = buildTimeline(events([
      { kind: Kind.ALLOC, pool: 0, tensor: 2, offset: 0, bytes: 96 },
      { kind: Kind.MOVE, pool: 0, offset: 0, src_offset: 32, bytes: 64, row0: 0, row1: 2 },
    ]));
    expect(t.placements).toEqual([{ tensor: 2, pool: 0, offset: 0, bytes: 96, start: 0, end: 2, endedBy: 'end' }]);
  });

  it('an overlapping ALLOC in the same pool ends the older placement (space reused)', () => {
    const t = buildTimeline(events([
      { kind: Kind.ALLOC, pool: 1, tensor: 1, offset: 0, bytes: 64 },
      { kind: Kind.ALLOC, pool: 0, tensor: 9, offset: 0, bytes: 64 },  // other pool: untouched
      { kind: Kind.ALLOC, pool: 1, tensor: 2, offset: 32, bytes: 64 },
    ]));
    const p1 = t.placements.find((p) => p.tensor === 1)!;
    expect(p1).toMatchObject({ end: 2, endedBy: 'reuse' });
    expect(t.placements.find((p) => p.tensor === 9)!.endedBy).toBe('end');
  });

  it('zero-byte ALLOCs draw nothing; weights ALLOCs have no tensor', () => {
    const t = buildTimeline(events([
      { kind: Kind.ALLOC, pool: 0, tensor: 1, offset: 0, bytes: 0 },
      { kind: Kind.ALLOC, pool: 0, offset: 0, bytes: 256 },
      { kind: Kind.WEIGHTS, pool: 0, offset: 0, src_offset: 100, bytes: 256 },
    ]));
    expect(t.placements).toHaveLength(1);
    expect(t.placements[0].tensor).toBe(NONE16);
    expect(t.marks.map((m) => m.kind)).toEqual([Kind.WEIGHTS]);
  });
});

describe('bands, curves and stepping', () => {
  const ev = events([
    { kind: Kind.STAGE_BEGIN, stage: 0, path: 1 },
    { kind: Kind.TILE_BEGIN, stage: 0, op: 0, row0: 0, row1: 4 },
    { kind: Kind.LOAD, pool: 0, tensor: 0, bytes: 64, fast_used: 64 },
    { kind: Kind.OP, op: 0, stage: 0, fast_used: 128 },
    { kind: Kind.SPILL, pool: 1, tensor: 1, bytes: 64, slow_used: 64 },
    { kind: Kind.TILE_BEGIN, stage: 0, op: 1, row0: 2, row1: 6 },
    { kind: Kind.OP, op: 0, stage: 0 },
    { kind: Kind.STAGE_END, stage: 0 },
    { kind: Kind.STAGE_BEGIN, stage: 1 },
    { kind: Kind.OP, op: 1, stage: 1 },
    { kind: Kind.STAGE_END, stage: 1 },
  ]);
  const t = buildTimeline(ev);

  it('tiles end at the next tile or the stage end', () => {
    expect(t.tiles).toEqual([
      { start: 1, end: 5, index: 0, stage: 0 },
      { start: 5, end: 8, index: 1, stage: 0 },
    ]);
    expect(t.stages.map((s) => [s.start, s.end, s.index])).toEqual([[0, 8, 0], [8, 11, 1]]);
  });

  it('in-use curves follow every event', () => {
    expect(Array.from(t.fastUsed.slice(2, 4))).toEqual([64, 128]);
    expect(t.slowUsed[4]).toBe(64);
  });

  it('transfers are marks of their own kind', () => {
    expect(t.marks.map((m) => m.kind)).toEqual([Kind.LOAD, Kind.SPILL]);
  });

  it('steps by op and by stage, and stays put at the ends', () => {
    expect(stepTo(t.ops, 0, 1)).toBe(3);
    expect(stepTo(t.ops, 3, 1)).toBe(6);
    expect(stepTo(t.ops, 9, 1)).toBe(9);
    expect(stepTo(t.ops, 6, -1)).toBe(3);
    const starts = t.stages.map((s) => s.start);
    expect(stepTo(starts, 2, 1)).toBe(8);
    expect(stepTo(starts, 8, -1)).toBe(0);
  });

  it('liveAt lists what occupies a pool at an event', () => {
    const t2 = buildTimeline(events([
      { kind: Kind.ALLOC, pool: 0, tensor: 1, offset: 0, bytes: 32 },
      { kind: Kind.ALLOC, pool: 1, tensor: 2, offset: 0, bytes: 32 },
      { kind: Kind.RESET, pool: 0, offset: 0 },
    ]));
    expect(liveAt(t2, 1).map((p) => p.tensor).sort()).toEqual([1, 2]);
    expect(liveAt(t2, 2, 0)).toEqual([]);
    expect(liveAt(t2, 2, 1).map((p) => p.tensor)).toEqual([2]);
  });

  it('exports JSONL lines and a balanced Chrome trace', () => {
    const lines = toJsonl(ev).trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(11);
    expect(lines[0]).toMatchObject({ kind: 'STAGE_BEGIN', path: 'tiled', stage: 0, pool: null, tensor: null });
    expect(lines[2]).toMatchObject({ kind: 'LOAD', pool: 'fast', tensor: 0, bytes: 64 });
    const chrome = JSON.parse(toChrome(ev, ['conv', 'pool'])).traceEvents as { ph: string; name: string }[];
    const begins = chrome.filter((e) => e.ph === 'B').length, ends = chrome.filter((e) => e.ph === 'E').length;
    expect(begins).toBe(4);  // 2 stages + 2 tiles
    expect(ends).toBe(begins);
    expect(chrome.filter((e) => e.ph === 'X').map((e) => e.name)).toEqual(['conv', 'conv', 'pool']);
    expect(chrome.filter((e) => e.ph === 'C')).toHaveLength(11);
  });
});
