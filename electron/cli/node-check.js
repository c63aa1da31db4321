// The Node version check before anything else loads. Plain JavaScript on purpose: it must run
// on the old Node it refuses (Node 20, Debian 12's), which cannot load the TypeScript sources
// and would die on them with ERR_UNKNOWN_FILE_EXTENSION and a stack trace. bin.js calls it
// before it imports the CLI; `npm start` and `npm run serve` run this file first, `npm start`
// with --electron: Electron's binary checked too, before a build that could not be opened.
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// node:fs by require: an ESM import of it builds its namespace from every export, some of
// them getters that load more (about 10 ms of CPU on every start, issue 24).
const require = createRequire(import.meta.url);
const { existsSync, readFileSync } = require('node:fs');

const PACKAGE_JSON = new URL('../../package.json', import.meta.url);

/** Where a newer Node comes from, as the refusal says it. */
export const NODE_DOWNLOAD = 'https://nodejs.org/en/download (or nvm: nvm install 24)';

/** The oldest Node Trebuchet runs on, from package.json's engines.node (">=22.19.0"): [major, minor, patch]. */
export function requiredNode() {
  const range = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')).engines?.node ?? '';
  const m = /^>=\s*(\d+)\.(\d+)\.(\d+)$/.exec(range);
  if (!m) throw new Error(`package.json: engines.node "${range}" is not ">=X.Y.Z"`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/**
 * The sentence for a Node older than the required one ("Trebuchet needs Node 22.19 or newer
 * (you have 20.20.2)..."), or null when this one will do.
 * @param {string} version process.versions.node
 * @param {number[]} required [major, minor, patch]
 * @returns {string | null}
 */
export function nodeTooOld(version, required = requiredNode()) {
  const have = version.split('.').map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < 3; i++) {
    if ((have[i] ?? 0) > required[i]) return null;
    if ((have[i] ?? 0) < required[i]) {
      const [major, minor, patch] = required;
      const wanted = patch === 0 ? `${major}.${minor}` : `${major}.${minor}.${patch}`;
      return (
        `Trebuchet needs Node ${wanted} or newer (you have ${version}).\n` +
        `Get a current Node from ${NODE_DOWNLOAD}, then run the command again.\n`
      );
    }
  }
  return null;
}

/** Says why and exits 1 when this Node is too old; returns otherwise. */
export function exitIfNodeTooOld() {
  const problem = nodeTooOld(process.versions.node);
  if (problem === null) return;
  process.stderr.write(problem);
  process.exit(1);
}

/** The electron package's folder, or null when it is not installed. */
export function electronPackageDir() {
  try {
    return dirname(require.resolve('electron/package.json'));
  } catch {
    return null;
  }
}

/**
 * Why `electron .` cannot open the desktop app, or null when it can: the binary it runs is
 * where the electron package's index.js looks for it (path.txt under dist/, or under
 * ELECTRON_OVERRIDE_DIST_PATH). It is missing after `ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci`
 * or a download that failed, and then Electron tries the download again and dies on a stack
 * trace. Says so, and the way to the same app in a browser.
 * @param {string | null} packageDir
 * @param {Record<string, string | undefined>} env
 * @returns {string | null}
 */
export function electronMissing(packageDir = electronPackageDir(), env = process.env) {
  const why = (what) =>
    `The desktop app cannot start: ${what}.\n` +
    'Open the same app in a browser instead: npm run serve (it prints the address to open).\n' +
    "For the desktop app, download Electron's binary (it needs the network): " +
    'node node_modules/electron/install.js, then npm start again.\n';
  if (packageDir === null) return why('the electron package is not installed (npm ci installs it)');
  const pathFile = join(packageDir, 'path.txt');
  const executable = existsSync(pathFile) ? readFileSync(pathFile, 'utf8') : null;
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override) {
    const binary = join(override, executable ?? 'electron');
    return existsSync(binary)
      ? null
      : why(`Electron's binary is not at ${binary} (ELECTRON_OVERRIDE_DIST_PATH)`);
  }
  if (executable === null || !existsSync(join(packageDir, 'dist', executable)))
    return why(
      "Electron's binary is not installed (npm ci skips it with ELECTRON_SKIP_BINARY_DOWNLOAD=1, " +
        'and its download needs the network)',
    );
  return null;
}

// Run as a script (the npm scripts' first step; `--electron` for npm start).
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  exitIfNodeTooOld();
  const missing = process.argv.includes('--electron') ? electronMissing() : null;
  if (missing !== null) {
    process.stderr.write(missing);
    process.exit(1);
  }
}
