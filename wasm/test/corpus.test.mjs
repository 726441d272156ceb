// corpus.test.mjs TIGRIS_JS SHARED_DIR - the wasm core on every corpus case:
// outputs byte-identical to the expected bytes (which the native `tigris
// run` reproduces, tests/service/test_run_cli.cpp), fast peak within the
// plan's requirement, a trace recorded; a refused plan throws PlanError with
// the loader's code. Exit 77 (ctest: skipped) when the shared data is absent.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import assert from 'node:assert/strict';

const [, , tigrisJs, shared] = process.argv;
const corpus = join(shared, 'corpus');
if (!existsSync(corpus)) {
  console.log(`SKIP: shared corpus not found at ${corpus}; this test needs it`);
  process.exit(77);
}
const { openTigris, PlanError } = await import(pathToFileURL(tigrisJs).href);
const tigris = await openTigris();
let passed = 0;
const plans = ['pool_chain_v5', 'linebuf_conv_chain_v5', 'linebuf_conv_sig_chain_v5', 'linebuf_s8_conv_sig_chain_v5'];
for (const p of plans) {
  for (const v of ['pattern', 'random']) {
    const c = `${p}.${v}`;
    const plan = tigris.loadPlan(readFileSync(join(corpus, `${c}.tgrs`)));
    const inputs = new Uint8Array(readFileSync(join(corpus, `${c}.input.bin`)));
    assert.equal(plan.inputBytes, inputs.length, c);
    const r = plan.run({ inputs });
    const want = new Uint8Array(readFileSync(join(corpus, `${c}.expected.bin`)));
    assert.equal(r.outputs.length, want.length, c);
    assert.ok(Buffer.from(r.outputs).equals(Buffer.from(want)), `${c}: outputs differ from the native runtime`);
    assert.ok(r.fastPeak <= plan.fastRequired, `${c}: fast peak ${r.fastPeak} > ${plan.fastRequired}`);
    assert.ok(r.events.count > 0, `${c}: no trace`);
    assert.equal(r.backend, p.includes('_s8_') ? 's8' : 'f32');
    plan.close();
    passed++;
  }
}
// A negative plan: the loader's refusal, by code and text.
const neg = join(corpus, 'negative', 'legacy_v1_pool_chain.tgrs');
assert.throws(() => tigris.loadPlan(readFileSync(neg)), (e) => e instanceof PlanError && e.code < 0 && /refuses/.test(e.message));
passed++;
assert.throws(() => tigris.loadPlan(new Uint8Array([1, 2, 3])), PlanError);
passed++;
console.log(`${passed} passed, 0 failed`);
