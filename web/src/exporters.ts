// exporters.ts - the trace as JSONL and as Chrome trace-event JSON, with the
// same objects the native `tigris trace --format jsonl|chrome` writes
// (service/lib/trace_export_*.cpp), so files from both open the same way.
import { Events, Kind, KIND_NAMES, NONE16 } from './model';

export const PATH_NAMES = ['normal', 'tiled', 'tiled_2d', 'by_input', 'transpose', 'rows', 'reshape', 'chain', 'control'];

const kindName = (k: number) => KIND_NAMES[k] ?? `KIND_${k}`;
const pathName = (p: number) => PATH_NAMES[p] ?? `path_${p}`;
const orNull = (v: number) => (v === NONE16 ? null : v);

export function toJsonl(ev: Events): string {
  const lines: string[] = [];
  for (let i = 0; i < ev.count; i++) {
    const pool = ev.get(i, 'pool');
    lines.push(JSON.stringify({
      kind: kindName(ev.get(i, 'kind')), path: pathName(ev.get(i, 'path')),
      pool: pool === 0xff ? null : pool === 0 ? 'fast' : 'slow',
      stage: orNull(ev.get(i, 'stage')), tensor: orNull(ev.get(i, 'tensor')), op: orNull(ev.get(i, 'op')),
      offset: ev.get(i, 'offset'), src_offset: ev.get(i, 'src_offset'), bytes: ev.get(i, 'bytes'),
      row0: ev.get(i, 'row0'), row1: ev.get(i, 'row1'), col0: ev.get(i, 'col0'), col1: ev.get(i, 'col1'),
      fast_used: ev.get(i, 'fast_used'), slow_used: ev.get(i, 'slow_used'),
    }));
  }
  return lines.length ? lines.join('\n') + '\n' : '';
}

export function toChrome(ev: Events, opNames: string[]): string {
  const out: object[] = [];
  let stageOpen = false, tileOpen = false, ts = 0;
  const slice = (ph: string, name: string, args?: object) =>
    out.push({ ph, name, ts, pid: 1, tid: 1, ...(args ? { args } : {}) });
  for (let i = 0; i < ev.count; i++) {
    ts++;
    const k = ev.get(i, 'kind');
    if (k === Kind.STAGE_BEGIN) {
      if (tileOpen) { slice('E', 'tile'); tileOpen = false; }
      if (stageOpen) slice('E', 'stage');
      slice('B', 'stage', { stage: ev.get(i, 'stage'), path: pathName(ev.get(i, 'path')) });
      stageOpen = true;
    } else if (k === Kind.STAGE_END) {
      if (tileOpen) { slice('E', 'tile'); tileOpen = false; }
      if (stageOpen) { slice('E', 'stage'); stageOpen = false; }
    } else if (k === Kind.TILE_BEGIN) {
      if (tileOpen) slice('E', 'tile');
      slice('B', 'tile', { tile: ev.get(i, 'op'), row0: ev.get(i, 'row0'), row1: ev.get(i, 'row1') });
      tileOpen = true;
    } else if (k === Kind.OP) {
      const op = ev.get(i, 'op');
      out.push({ ph: 'X', name: opNames[op] ?? 'op', ts, dur: 1, pid: 1, tid: 1,
        args: { op, row0: ev.get(i, 'row0'), row1: ev.get(i, 'row1') } });
    } else {
      out.push({ ph: 'i', s: 't', name: kindName(k), ts, pid: 1, tid: 1,
        args: { tensor: ev.get(i, 'tensor'), bytes: ev.get(i, 'bytes'), offset: ev.get(i, 'offset') } });
    }
    out.push({ ph: 'C', name: 'arena bytes in use', ts, pid: 1,
      args: { fast: ev.get(i, 'fast_used'), slow: ev.get(i, 'slow_used') } });
  }
  ts++;
  if (tileOpen) slice('E', 'tile');
  if (stageOpen) slice('E', 'stage');
  return JSON.stringify({ traceEvents: out, displayTimeUnit: 'ns' }) + '\n';
}

export function describeEvent(ev: Events, i: number, tensorNames: string[], opNames: string[]): Record<string, string> {
  const k = ev.get(i, 'kind');
  const pool = ev.get(i, 'pool');
  const t = ev.get(i, 'tensor'), op = ev.get(i, 'op'), st = ev.get(i, 'stage');
  const rows = ev.get(i, 'row0') >= 0 ? `[${ev.get(i, 'row0')}, ${ev.get(i, 'row1')})` : '-';
  const cols = ev.get(i, 'col0') >= 0 ? `[${ev.get(i, 'col0')}, ${ev.get(i, 'col1')})` : '-';
  return {
    event: String(i),
    kind: kindName(k),
    stage: st === NONE16 ? '-' : String(st),
    path: pathName(ev.get(i, 'path')),
    op: k === Kind.OP && op !== NONE16 ? `${op} ${opNames[op] ?? ''}`.trim() : '-',
    tile: k === Kind.TILE_BEGIN ? String(op) : '-',
    rows, cols,
    tensor: t === NONE16 ? '-' : `${t} ${tensorNames[t] ?? ''}`.trim(),
    pool: pool === 0xff ? '-' : pool === 0 ? 'fast' : 'slow',
    offset: String(ev.get(i, 'offset')),
    src_offset: String(ev.get(i, 'src_offset')),
    bytes: String(ev.get(i, 'bytes')),
    fast_used: String(ev.get(i, 'fast_used')),
    slow_used: String(ev.get(i, 'slow_used')),
  };
}
