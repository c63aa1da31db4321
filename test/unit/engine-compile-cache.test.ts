import { join } from 'node:path';
import envPaths from 'env-paths';
import { afterEach, describe, expect, it } from 'vitest';
import { compileCacheDir } from '../../electron/engine/compile-cache.js';
import { engineWorkerOptions } from '../../electron/engine/worker-options.ts';

const saved = {
  XDG_CACHE_HOME: process.env.XDG_CACHE_HOME,
  NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE,
};
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe("Node's compile cache: where the CLI and its engine threads keep compiled code", () => {
  it("is the user's cache directory (XDG_CACHE_HOME honoured), not the OS temp dir", () => {
    delete process.env.NODE_COMPILE_CACHE;
    process.env.XDG_CACHE_HOME = '/home/u/.cache-elsewhere';
    expect(compileCacheDir()).toBe(
      process.platform === 'linux' ? '/home/u/.cache-elsewhere/trebuchet/compile-cache' : compileCacheDir(),
    );
    expect(compileCacheDir()).toMatch(/trebuchet[/\\](Cache[/\\])?compile-cache$/);
    // env-paths' rule (the stores' data folder follows it), without importing it at start.
    expect(compileCacheDir()).toBe(join(envPaths('trebuchet', { suffix: '' }).cache, 'compile-cache'));
    delete process.env.XDG_CACHE_HOME;
    expect(compileCacheDir()).toBe(join(envPaths('trebuchet', { suffix: '' }).cache, 'compile-cache'));
    // Every engine thread gets the same folder (a thread does not inherit its process's cache).
    expect(engineWorkerOptions(null).env).toMatchObject({ NODE_COMPILE_CACHE: compileCacheDir() });
  });

  it('is NODE_COMPILE_CACHE when the user set it, for the threads too', () => {
    process.env.NODE_COMPILE_CACHE = join('/srv', 'cc');
    expect(compileCacheDir()).toBe(join('/srv', 'cc'));
    expect(compileCacheDir({ NODE_COMPILE_CACHE: '/x' })).toBe('/x');
    expect(engineWorkerOptions(null).env).toMatchObject({ NODE_COMPILE_CACHE: join('/srv', 'cc') });
  });
});
