import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { META_CONTENT_SECURITY_POLICY } from '../shared/contract/csp.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The built page carries the policy too (shared/contract/csp.ts, also sent as a header by both hosts),
 * so the renderer is locked down whichever host serves it. Only in the build: the dev
 * server's React refresh preamble is an inline script this policy would block.
 */
function contentSecurityPolicy(): Plugin {
  return {
    name: 'trebuchet-csp',
    apply: 'build',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: META_CONTENT_SECURITY_POLICY },
        injectTo: 'head-prepend',
      },
    ],
  };
}

export default defineConfig({
  root,
  // Relative asset URLs: the page works wherever it is served from (app://trebuchet/, the web host).
  base: './',
  plugins: [react(), contentSecurityPolicy()],
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    // One self-contained bundle per entry; nothing fetched from elsewhere.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    // One bundle of zod, React and chart.js, loaded from disk or loopback: size is not a concern.
    chunkSizeWarningLimit: 1024,
  },
});
