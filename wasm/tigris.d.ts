// tigris.d.ts - types of tigris.js.
export declare const EVENT_BYTES: 48;

export type EventField = 'kind' | 'pool' | 'path' | 'stage' | 'tensor' | 'op' | 'offset' | 'src_offset' | 'bytes' |
  'row0' | 'row1' | 'col0' | 'col1' | 'fast_used' | 'slow_used';

export declare class TraceEvents {
  readonly buffer: ArrayBuffer;
  readonly count: number;
  get(i: number, field: EventField): number;
  event(i: number): Record<EventField, number>;
}

export declare class PlanError extends Error { code: number; }
export declare class RunError extends Error { code: number; events?: TraceEvents; }

export interface TensorSummary {
  index: number; name: string; stored_dtype: string; declared_dtype: string;
  shape: number[]; stored_bytes: number; declared_bytes: number;
}

export interface PlanSummary {
  schema: number; model_name: string; data_dtype: 'float32' | 'int8' | string;
  counts: { tensors: number; ops: number; stages: number; weights: number };
  inputs: TensorSummary[]; outputs: TensorSummary[];
  stages: { index: number; peak_bytes: number; chain_len: number; ops: number[] }[];
  memory: { budget: number; fast_arena_required: number; decompression_overhead: number; executor_workspace_bytes: number };
  tensor_names: string[]; op_names: string[];
  tensors: TensorSummary[];  // every tensor, by index
}

export interface ExecStats {
  stages_normal: number; stages_tiled: number; stages_chain: number; total_tiles: number;
  slow_overflow_count: number; slow_overflow_bytes: number; loads_bytes: number; spills_bytes: number;
  compactions: number; slow_peak: number; weight_bytes: number; copy_bytes: number;
}

export interface RunOptions {
  fast?: number;   // bytes; 0 = what the plan requires
  slow?: number;   // bytes; 0 = room for every tensor
  backend?: 'auto' | 'f32' | 's8';
  inputs?: Uint8Array;  // model inputs, declared dtypes, model-input order; default zeros
  trace?: boolean;      // default true
}

export interface RunResult {
  outputs: Uint8Array; stats: ExecStats; events: TraceEvents; backend: string;
  ms: number;      // the whole call: arenas, inputs, run, outputs
  coreMs: number;  // tigris_run_with_state alone, timed inside the wasm module

  fastSize: number; slowSize: number; fastPeak: number; slowPeak: number;
}

export interface Plan {
  summary: PlanSummary; inputBytes: number; fastRequired: number; defaultSlow: number;
  run(opt?: RunOptions): RunResult;
  close(): void;
}

export declare function openTigris(moduleArgs?: object): Promise<{ loadPlan(bytes: Uint8Array | ArrayBuffer): Plan }>;

export interface CompileOptions { fast: number; slow?: number; full?: boolean; quick?: boolean; name?: string }
export interface CompileResult {
  status: 0 | 1 | 2 | 3;  // compiled, other error, model refused, budget not met
  report: any;            // `tigris analyze -m --json` + text, tflite_micro_text, tflm_layout; or {ok:false,error,message}
  plan: Uint8Array | null;
  ms: number;
}
export declare function openCompiler(moduleArgs?: object): Promise<{ compile(model: Uint8Array | ArrayBuffer, opt: CompileOptions): CompileResult }>;
