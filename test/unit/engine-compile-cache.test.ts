import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import envPaths from 'env-paths';
import { afterEach, describe, expect, it } from 'vitest';
import {
  COMPILE_CACHE_MAX_AGE_DAYS,
  compileCacheDir,
  pruneCompileCache,
} from '../../electron/engine/thread/compile-cache.js';
import { engineWorkerOptions } from '../../electron/engine/thread/worker-options.ts';

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
    expect(engineWorkerOptions(null, 'engine').env).toMatchObject({ NODE_COMPILE_CACHE: compileCacheDir() });
  });

  it('is NODE_COMPILE_CACHE when the user set it, for the threads too', () => {
    process.env.NODE_COMPILE_CACHE = join('/srv', 'cc');
    expect(compileCacheDir()).toBe(join('/srv', 'cc'));
    expect(compileCacheDir({ NODE_COMPILE_CACHE: '/x' })).toBe('/x');
    expect(engineWorkerOptions(null, 'engine').env).toMatchObject({ NODE_COMPILE_CACHE: join('/srv', 'cc') });
  });
});

describe("pruning Node's compile cache (it never deletes an entry itself)", () => {
  const DAY = 24 * 3600 * 1000;

  it('deletes entries unused for a week, and folders left empty, once a day at most', () => {
    const dir = mkdtempSync(join(tmpdir(), 'trebuchet-cc-'));
    try {
      const now = Date.now();
      const entry = (folder: string, name: string, ageDays: number): string => {
        mkdirSync(join(dir, folder), { recursive: true });
        const path = join(dir, folder, name);
        writeFileSync(path, 'compiled');
        const at = new Date(now - ageDays * DAY);
        utimesSync(path, at, at);
        return path;
      };
      const old = COMPILE_CACHE_MAX_AGE_DAYS + 1;
      // An old bundle's modules beside the current one's, and an old Node version's folder.
      const stale = entry('v24.21.0-x64-aa-0', 'oldbundle', old);
      const current = entry('v24.21.0-x64-aa-0', 'current', 0);
      entry('v22.0.0-x64-bb-0', 'gone', old);
      expect(pruneCompileCache(dir, now)).toBe(2);
      expect(existsSync(stale)).toBe(false);
      expect(existsSync(current)).toBe(true);
      expect(readdirSync(dir).sort()).toEqual(['.trebuchet-pruned', 'v24.21.0-x64-aa-0']);
      // Looked over a moment ago: the next start pays one stat and deletes nothing.
      const later = entry('v24.21.0-x64-aa-0', 'later', old);
      expect(pruneCompileCache(dir, now + 1000)).toBe(0);
      expect(existsSync(later)).toBe(true);
      // A day on, it is looked over again.
      expect(pruneCompileCache(dir, now + DAY + 1000)).toBe(1);
      expect(existsSync(later)).toBe(false);
      // No cache yet (Node could not make it): nothing happens, nothing throws.
      expect(pruneCompileCache(join(dir, 'missing', 'deeper'), now)).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
