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

/** Compiled code unused this long goes (Node never deletes an entry: a new bundle path or Node version leaves the old ones). */
export const COMPILE_CACHE_MAX_AGE_DAYS = 7;
/** The cache is looked over at most this often; a start between pays one stat. */
const PRUNE_EVERY_MS = 24 * 3600 * 1000;
/** A file in the cache's root whose mtime says when it was last looked over (Node reads only its own folders). */
const STAMP = '.trebuchet-pruned';

/**
 * Once a day at most, deletes the entries of every Node folder in `dir` not used for
 * COMPILE_CACHE_MAX_AGE_DAYS (last use: the later of atime and mtime; Node writes an entry when it
 * compiles a module and reads it on every later load, which a relatime mount notes once a day),
 * and the folders left empty. A deleted entry that was still wanted is compiled again once. Run
 * after the command's output (bin.js), never on its way; errors (another process pruning, a
 * folder that cannot be read) end it silently. node:fs comes from getBuiltinModule: its ESM
 * import costs a start ~15 ms.
 * @param {string} dir
 * @param {number} [now]
 * @returns {number} entries deleted
 */
export function pruneCompileCache(dir, now = Date.now()) {
  const fs = /** @type {typeof import('node:fs')} */ (process.getBuiltinModule('node:fs'));
  const stamp = join(dir, STAMP);
  try {
    if (now - fs.statSync(stamp).mtimeMs < PRUNE_EVERY_MS) return 0;
  } catch {
    // Never looked over (or no cache yet): go on.
  }
  let deleted = 0;
  try {
    // Stamped first: a start at the same moment leaves the work to this one.
    fs.writeFileSync(stamp, '');
    const oldest = now - COMPILE_CACHE_MAX_AGE_DAYS * 24 * 3600 * 1000;
    for (const folder of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!folder.isDirectory()) continue;
      const path = join(dir, folder.name);
      let kept = 0;
      let gone = 0;
      for (const name of fs.readdirSync(path)) {
        try {
          const s = fs.statSync(join(path, name));
          if (Math.max(s.atimeMs, s.mtimeMs) < oldest) {
            fs.rmSync(join(path, name), { force: true });
            gone++;
          } else kept++;
        } catch {
          kept++;
        }
      }
      deleted += gone;
      // Emptied here (a folder Node has just made, still empty, is left to it).
      if (kept === 0 && gone > 0) fs.rmSync(path, { recursive: true, force: true });
    }
  } catch {
    // Another process pruning at once, or a cache Node could not make: nothing to do.
  }
  return deleted;
}
