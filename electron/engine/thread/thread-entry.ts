/*
 * The entry of every engine thread (worker-main.ts), for the engine worker (run.ts) and each
 * shard's thread (shards/links.ts). Same extension as this file: .ts when running from source,
 * .js from tsc's build (dist/electron/engine/) and from the CLI's bundle (electron/cli/bundle.ts),
 * whose chunks all sit in one folder beside its worker-main.js.
 */
export const ENGINE_THREAD_URL = new URL(
  import.meta.url.endsWith('.ts') ? './worker-main.ts' : './worker-main.js',
  import.meta.url,
);
