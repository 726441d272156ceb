// compiler.test.mjs TIGRIS_JS SHARED [TIGRIS_CLI] - the viewer's compiler
// (tigris_compiler.wasm) against the CLI it is built from: for each model and
// budget, `tigris analyze MODEL -m BUDGET --json` and the wasm report must
// agree on everything under "tigris" (verdict, schedule, floor, budget rows)
// and "tflite_micro" except the LZ4 plan size, which the wasm build does not
// compute (no liblz4), and the plan must be the bytes `tigris compile`
// writes. The compiled plan must load in the wasm core and run
// at its declared arena within it. Without the CLI (no host build) only the
// wasm side is checked, and the test says so. Exit 77 when the models are absent.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import assert from 'node:assert/strict';

const [jsPath, sharedArg, cliArg] = process.argv.slice(2);
const shared = resolve(sharedArg ?? '../shared');
const models = join(shared, 'models');
const CASES = [['vww_96_int8.tflite', ['64K', '16K']], ['kws_ref_model.tflite', ['16K']]];
if (!existsSync(join(models, CASES[0][0]))) {
  console.log(`SKIP: ${join(models, CASES[0][0])} not found; this test needs the shared models`);
  process.exit(77);
}
const cli = cliArg && existsSync(cliArg) ? cliArg : null;
if (!cli) console.log(`note: no tigris CLI at ${cliArg ?? '(none given)'}: checking the wasm compiler alone`);

const { openCompiler, openTigris } = await import(pathToFileURL(resolve(jsPath)).href);
const compiler = await openCompiler();
const core = await openTigris();
const size = (s) => Number(s.replace(/K$/, '')) * (s.endsWith('K') ? 1024 : 1);

let passed = 0;
for (const [file, budgets] of CASES) {
  const path = join(models, file);
  if (!existsSync(path)) continue;
  const bytes = readFileSync(path);
  for (const b of budgets) {
    const r = compiler.compile(bytes, { fast: size(b), name: basename(path) });
    assert.equal(r.status, 0, `${file} at ${b}: ${JSON.stringify(r.report).slice(0, 300)}`);
    const plan = core.loadPlan(r.plan);
    const s = r.report.tigris.schedule;
    assert.equal(plan.fastRequired, s.fast_arena_required);
    const run = plan.run({ fast: plan.fastRequired });
    assert.ok(run.fastPeak <= plan.fastRequired, `${file} at ${b}: fast peak ${run.fastPeak} > ${plan.fastRequired}`);
    plan.close();
    console.log(`${file} ${b}: ${r.report.tigris.verdict}; floor ${r.report.tigris.floor.bytes}; ` +
      `TFLM head ${r.report.tflite_micro.arena?.head_bytes}; ${r.ms.toFixed(0)} ms`);
    if (cli) {
      const ref = JSON.parse(execFileSync(cli, ['analyze', path, '-m', b, '--json'], { encoding: 'utf8' }));
      const mine = structuredClone(r.report.tigris);
      delete mine.plan_bytes_lz4;
      delete ref.tigris.plan_bytes_lz4;
      assert.deepEqual(mine, ref.tigris, `${file} at ${b}: analyze -m differs`);
      assert.deepEqual(r.report.tflite_micro, ref.tflite_micro, `${file} at ${b}: TFLite Micro rows differ`);
      assert.equal(r.report.operators, ref.operators);
      // The plan itself: the bytes `tigris compile` writes.
      const out = join(mkdtempSync(join(tmpdir(), 'tigris-compiler-')), 'plan.tgrs');
      execFileSync(cli, ['compile', path, '-m', b, '-o', out]);
      assert.ok(Buffer.from(r.plan).equals(readFileSync(out)), `${file} at ${b}: the plan differs from tigris compile's`);
      rmSync(dirname(out), { recursive: true });
    }
    passed++;
  }
}
// A budget below the floor: status 3 and the reason naming the operator.
{
  const bytes = readFileSync(join(models, CASES[0][0]));
  const r = compiler.compile(bytes, { fast: 1024, name: CASES[0][0] });
  assert.equal(r.status, 3);
  assert.equal(r.plan, null);
  assert.match(r.report.tigris.reason, /cannot be met/);
  assert.ok(r.report.tigris.floor.bytes > 1024);
  passed++;
}
// Not a model: refused with a message, not a crash.
{
  const r = compiler.compile(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]), { fast: 65536 });
  assert.notEqual(r.status, 0);
  assert.equal(r.report.ok, false);
  passed++;
}
console.log(`${passed} passed, 0 failed`);
