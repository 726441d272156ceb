// tigris.js - the TiGrIS core in WebAssembly, for browsers and node.
//
//   import { openTigris } from './tigris.js';
//   const tigris = await openTigris();            // loads tigris_core.mjs + .wasm
//   const plan = tigris.loadPlan(bytes);          // summary, or throws PlanError
//   const r = plan.run({ fast, slow, backend, inputs, trace: true });
//   r.outputs (Uint8Array), r.stats, r.events (TraceEvents: typed columns),
//   r.ms (the whole call: arenas, inputs, run, outputs), r.coreMs (the run alone)
//   plan.close();
//
// Types: tigris.d.ts. Events stay packed: 48-byte records in one
// ArrayBuffer read through typed views, never one JS object per event.
import createTigrisCore from './tigris_core.mjs';

export const EVENT_BYTES = 48;

// Field offsets of tigris_trace_event_t (core/include/tigris_trace.h).
const EV = { kind: 0, pool: 1, path: 2, stage: 4, tensor: 6, op: 8, offset: 12, src_offset: 16, bytes: 20,
  row0: 24, row1: 28, col0: 32, col1: 36, fast_used: 40, slow_used: 44 };

export class PlanError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'PlanError';
    this.code = code;
  }
}

export class RunError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'RunError';
    this.code = code;
  }
}

// A packed trace: get(i, field) reads one field of event i.
export class TraceEvents {
  constructor(buffer, count) {
    this.buffer = buffer;
    this.count = count;
    this.view = new DataView(buffer);
  }
  get(i, field) {
    const at = i * EVENT_BYTES + EV[field];
    switch (field) {
      case 'kind': case 'pool': case 'path': return this.view.getUint8(at);
      case 'stage': case 'tensor': case 'op': return this.view.getUint16(at, true);
      case 'row0': case 'row1': case 'col0': case 'col1': return this.view.getInt32(at, true);
      default: return this.view.getUint32(at, true);
    }
  }
  // One event as an object, for details panels (not for whole traces).
  event(i) {
    const e = {};
    for (const f of Object.keys(EV)) e[f] = this.get(i, f);
    return e;
  }
}

const STATS = ['stages_normal', 'stages_tiled', 'stages_chain', 'total_tiles', 'slow_overflow_count',
  'slow_overflow_bytes', 'loads_bytes', 'spills_bytes', 'compactions', 'slow_peak', 'weight_bytes', 'copy_bytes'];

export async function openTigris(moduleArgs = {}) {
  const M = await createTigrisCore(moduleArgs);
  if (M._tw_event_size() !== EVENT_BYTES) throw new Error('trace record size mismatch');
  const cstr = (p) => M.UTF8ToString(p);
  const copyIn = (bytes) => {
    const p = M._malloc(Math.max(1, bytes.length));
    M.HEAPU8.set(bytes, p);
    return p;
  };

  function loadPlan(bytes) {
    const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    const p = copyIn(u8);
    const ctx = M._tw_open(p, u8.length);
    M._free(p);
    if (!ctx) throw new PlanError(-100, 'out of memory while loading the plan');
    const err = M._tw_load_error(ctx);
    if (err !== 0) {
      const msg = cstr(M._tw_error_str(err));
      M._tw_close(ctx);
      throw new PlanError(err, `the runtime refuses this plan: ${msg} (error ${err})`);
    }
    const summary = JSON.parse(cstr(M._tw_summary(ctx)));
    let open = true;
    return {
      summary,
      inputBytes: M._tw_input_bytes(ctx),
      fastRequired: M._tw_fast_required(ctx),
      defaultSlow: M._tw_default_slow(ctx),
      run({ fast = 0, slow = 0, backend = 'auto', inputs, trace = true } = {}) {
        if (!open) throw new RunError(-100, 'the plan was closed');
        const input = inputs ?? new Uint8Array(M._tw_input_bytes(ctx));
        const b = backend === 'f32' ? 1 : backend === 's8' ? 2 : 0;
        const ip = copyIn(input);
        const t0 = performance.now();
        const rc = M._tw_run(ctx, fast >>> 0, slow >>> 0, b, ip, input.length, trace ? 1 : 0);
        const ms = performance.now() - t0;
        M._free(ip);
        const heap = M.HEAPU8;  // re-read: the heap may have grown
        const arenas = { fastSize: M._tw_arena(ctx, 0), slowSize: M._tw_arena(ctx, 1),
          fastPeak: M._tw_arena(ctx, 2), slowPeak: M._tw_arena(ctx, 3) };
        const n = M._tw_num_events(ctx);
        const ep = M._tw_events(ctx);
        const events = new TraceEvents(heap.slice(ep, ep + n * EVENT_BYTES).buffer, n);
        if (rc !== 0) {
          const e = new RunError(rc, `the run failed: ${cstr(M._tw_exec_error_str(rc))}`);
          e.events = events;
          e.arenas = arenas;
          throw e;
        }
        const op = M._tw_outputs(ctx);
        const outputs = heap.slice(op, op + M._tw_outputs_len(ctx));
        const sp = M._tw_stats(ctx) >>> 2;
        const stats = {};
        STATS.forEach((k, i) => {
          // four u16 fields, then u32 fields (tigris_exec_stats_t)
          stats[k] = i < 4 ? M.HEAPU16[(sp << 1) + i] : M.HEAPU32[sp + 2 + (i - 4)];
        });
        const coreMs = M._tw_core_ms(ctx);
        return { outputs, stats, events, ms, coreMs, backend: b === 0 ? (summary.data_dtype === 'int8' ? 's8' : 'f32') : backend, ...arenas };
      },
      close() {
        if (open) M._tw_close(ctx);
        open = false;
      },
    };
  }

  return { loadPlan };
}

// The compiler (tigris_compiler.mjs + .wasm, loaded only when asked for):
// `tigris compile` and `tigris analyze -m` built from the CLI's sources.
//
//   const compiler = await openCompiler();
//   const r = compiler.compile(tfliteBytes, { fast: 16384, slow: 0, name: 'vww_96_int8' });
//   r.status: 0 compiled, 3 budget not met, 2 model refused, 1 other error
//   r.report: analyze -m's JSON (+ text, tflm_layout); r.plan: the .tgrs bytes or null
//
// The model's floor and budget rows are kept between calls with the same
// model and slow budget, so a new fast budget costs one compile; full: true
// recomputes everything; quick: true on a new model gives only the schedule
// at this budget and TFLite Micro's layout (report.partial), no floor or rows.
export async function openCompiler(moduleArgs = {}) {
  const { default: createTigrisCompiler } = await import('./tigris_compiler.mjs');
  const M = await createTigrisCompiler(moduleArgs);
  return {
    compile(model, { fast, slow = 0, full = false, quick = false, name = 'model' } = {}) {
      const u8 = model instanceof Uint8Array ? model : new Uint8Array(model);
      const p = M._malloc(Math.max(1, u8.length));
      M.HEAPU8.set(u8, p);
      const nlen = M.lengthBytesUTF8(name) + 1;
      const np = M._malloc(nlen);
      M.stringToUTF8(name, np, nlen);
      const t0 = performance.now();
      const status = M._tc_compile(p, u8.length, fast >>> 0, Number(slow) || 0, (full ? 1 : 0) | (quick ? 2 : 0), np);
      const ms = performance.now() - t0;
      M._free(p);
      M._free(np);
      const report = JSON.parse(M.UTF8ToString(M._tc_json()));
      const n = M._tc_plan_len();
      const plan = n ? M.HEAPU8.slice(M._tc_plan(), M._tc_plan() + n) : null;
      return { status, report, plan, ms };
    },
  };
}
