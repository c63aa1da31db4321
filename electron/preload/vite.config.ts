import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * A sandboxed preload can require only 'electron' (and a few Node polyfills), not our own
 * modules: bundle it, with the shared contract it imports, into one CommonJS file.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  publicDir: false,
  build: {
    outDir: fileURLToPath(new URL('../../dist/preload', import.meta.url)),
    emptyOutDir: true,
    target: 'chrome140',
    minify: false,
    sourcemap: false,
    lib: {
      entry: fileURLToPath(new URL('index.ts', import.meta.url)),
      formats: ['cjs'],
      fileName: () => 'index.cjs',
    },
    rollupOptions: { external: ['electron'] },
  },
});
