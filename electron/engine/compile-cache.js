// Where Node's on-disk compile cache lives for the CLI and every engine thread. Plain
// JavaScript: bin.js turns the cache on before any TypeScript loads (a .ts module here would
// load Node's type stripper on every start, the cost the cache saves).
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The user's cache directory for an app, by env-paths' rule (what electron/stores uses for
 * its data): XDG_CACHE_HOME or ~/.cache on Linux, ~/Library/Caches on macOS,
 * %LOCALAPPDATA%\NAME\Cache on Windows. The package itself is not imported here: its ESM import
 * of node:process costs every start about 20 ms of CPU (issue 24); a test holds both to the
 * same answer.
 * @param {string} name
 * @param {NodeJS.ProcessEnv} env
 * @returns {string}
 */
function userCacheDir(name, env) {
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', name);
  if (process.platform === 'win32') {
    return join(env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local'), name, 'Cache');
  }
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), name);
}

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
  return join(userCacheDir('trebuchet', env), 'compile-cache');
}
