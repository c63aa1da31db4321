// Where Node's on-disk compile cache lives for the CLI and every engine thread. Plain
// JavaScript: bin.js turns the cache on before any TypeScript loads (a .ts module here would
// load Node's type stripper on every start, the cost the cache saves).
import { join } from 'node:path';
import envPaths from 'env-paths';

/**
 * NODE_COMPILE_CACHE when the user set it, else a folder of the user's cache directory
 * (~/.cache/trebuchet/compile-cache on Linux, XDG_CACHE_HOME honoured; ~/Library/Caches on
 * macOS; %LOCALAPPDATA% on Windows): it outlives a reboot, unlike the OS temp dir, and is
 * the user's own. Node creates it; when it cannot (read-only, not a directory) Node runs
 * without the cache and says nothing.
 * @param {NodeJS.ProcessEnv} env
 * @returns {string}
 */
export function compileCacheDir(env = process.env) {
  if (env.NODE_COMPILE_CACHE) return env.NODE_COMPILE_CACHE;
  return join(envPaths('trebuchet', { suffix: '' }).cache, 'compile-cache');
}
