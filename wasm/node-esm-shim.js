// node-esm-shim.js - lets the ES6 module Emscripten emits run under node as
// well as in browsers: under node it supplies require/__dirname and a fetch
// that reads file:// URLs (the .wasm next to the module) from disk.
let require, __dirname, fetch = globalThis.fetch;
if (typeof process == 'object' && process.versions && process.versions.node) {
  const { createRequire } = await import('node:module');
  const { readFile } = await import('node:fs/promises');
  require = createRequire(import.meta.url);
  __dirname = decodeURIComponent(new URL('.', import.meta.url).pathname);
  fetch = async (url, opts) => {
    const u = new URL(url, import.meta.url);
    if (u.protocol !== 'file:') return globalThis.fetch(url, opts);
    return new Response(await readFile(u), { headers: { 'Content-Type': 'application/wasm' } });
  };
}
