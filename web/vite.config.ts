// vite.config.ts - the viewer is plain TypeScript; the core comes from the
// wasm preset's build (tigris.js + tigris_core.mjs/.wasm), copied into
// public/wasm/ so the dev server and the built dist/ serve it as /wasm/.
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig, Plugin } from 'vite';

const wasmDir = resolve(process.env.TIGRIS_WASM_DIR ?? resolve(__dirname, '../build/wasm/wasm/web'));

function copyCore(): Plugin {
  return {
    name: 'tigris-core',
    buildStart() {
      const out = resolve(__dirname, 'public/wasm');
      if (!existsSync(resolve(wasmDir, 'tigris.js')))
        throw new Error(`the wasm core is not built at ${wasmDir} (cmake --preset wasm && cmake --build build/wasm)`);
      mkdirSync(out, { recursive: true });
      for (const f of ['tigris.js', 'tigris_core.mjs', 'tigris_core.wasm', 'tigris_compiler.mjs', 'tigris_compiler.wasm']) cpSync(resolve(wasmDir, f), resolve(out, f));
    },
  };
}

export default defineConfig({
  base: './',
  plugins: [copyCore()],
  build: {
    target: 'es2022',
    outDir: process.env.TIGRIS_WEB_OUT ?? 'dist',
    emptyOutDir: true,
    rollupOptions: { input: { main: resolve(__dirname, 'index.html'), bench: resolve(__dirname, 'bench.html') } },
  },
  server: { host: '127.0.0.1' },
});
