/*
 * The CLI's bundle (issue 24): the `trebuchet` command and the engine thread's entry as a few
 * JavaScript files, so a start loads no TypeScript and resolves no module path (from source,
 * ~650 modules are found, read and linked one by one, in the command's process and again in
 * each engine thread).
 *
 * It lives in dist/cli-<key>/ (two folders deep, like electron/cli/, so the repository's root
 * is '../../' from either) and dist/cli.json names it. The key is a hash of everything the
 * bundle was built from: the content of every repository file in it (and of this file), and
 * the stat signature of every file it took from node_modules. bin.js asks for `cliEntry()` on
 * every start, which checks every file's signature against the one taken when it was built (a
 * stat each): a changed file means another key, so a stale bundle never runs; it is rebuilt
 * first (`npm run build:cli` does the same ahead of time: part of `npm run build` and of
 * `npm test`). Without rolldown (vite's bundler, a dev dependency) or when the build fails, the
 * CLI runs from the sources, as before.
 */
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Plugin } from 'rolldown';
import { loadCrypto } from '../engine/builtins.ts';
import { runChunks } from './bundle-chunks.ts';

// node:fs from Node itself: an ESM import builds its namespace from every export, some of them
// getters that load more (about 10 ms of CPU on every start, issue 24; LAZY_BUILTINS below).
const { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } =
  process.getBuiltinModule('node:fs');

/** The recipe: this file and the chunk grouping's (part of what a bundle is built from). */
const RECIPE = [
  fileURLToPath(import.meta.url),
  fileURLToPath(new URL('./bundle-chunks.ts', import.meta.url)),
];
/** The bundle's entries, by output name, relative to the root: the command and every engine thread's. */
const ENTRIES = { cli: 'electron/cli/main.ts', 'worker-main': 'electron/engine/thread/worker-main.ts' };

/**
 * What dist/cli.json holds: the key, the files it was computed from (relative to the root),
 * and each file's stat signature when it was built, which lets a start skip reading them.
 */
interface Manifest {
  key: string;
  sources: string[];
  packages: string[];
  signatures: Record<string, string>;
}

/** Older bundles kept beside the current one (see pruneOldBundles). */
const KEPT_BUNDLES = 4;

const isPackageFile = (path: string): boolean => path.split(sep).includes('node_modules');

/**
 * Built-ins whose ESM import costs a thread ~15 ms of CPU each: Node builds an import's
 * namespace by reading every export, and some of theirs are getters that load more (node:fs's
 * streams, node:util's). In the bundle they come from process.getBuiltinModule instead, with
 * their plain properties as named exports and the module itself as the default; a getter is
 * left out (importing one fails the build, which then runs the sources).
 */
const LAZY_BUILTINS = new Set(['node:fs', 'node:util']);
const LAZY_PREFIX = '\0builtin:';

const lazyBuiltins: Plugin = {
  name: 'trebuchet-lazy-builtins',
  resolveId(id) {
    return LAZY_BUILTINS.has(id) ? `${LAZY_PREFIX}${id}` : null;
  },
  load(id) {
    if (!id.startsWith(LAZY_PREFIX)) return null;
    const name = id.slice(LAZY_PREFIX.length);
    const plain = Object.entries(Object.getOwnPropertyDescriptors(process.getBuiltinModule(name)))
      .filter(([key, d]) => !d.get && /^[A-Za-z_$][\w$]*$/.test(key) && key !== 'default')
      .map(([key]) => key);
    return [
      `const m = process.getBuiltinModule(${JSON.stringify(name)});`,
      'export default m;',
      ...plain.map((key) => `export const ${key} = m.${key};`),
    ].join('\n');
  },
};

/**
 * hdr-histogram-js compresses with Node's zlib when its module can `require` it (a direct eval,
 * which it can from the sources) and else with pako, in JavaScript: in a bundle that eval finds
 * no `require`, and a run's one encode cost an engine thread 20-70 ms of cold pako code (and
 * other bytes than the sources write). Here the bundle asks Node for zlib as the sources do.
 */
const HDR_ZLIB = /eval\('require\("zlib"\)\.(deflateSync|inflateSync)'\)/g;
const hdrZlib: Plugin = {
  name: 'trebuchet-hdr-zlib',
  transform(code, id) {
    if (!id.endsWith(join('hdr-histogram-js', 'dist', 'JsHistogram.encoding.js'))) return null;
    const out = code
      .replace(HDR_ZLIB, (_m, fn: string) => `process.getBuiltinModule("node:zlib").${fn}`)
      // pako is then never called from here (hdr's WebAssembly module, autocannon's, still has it).
      .replace(HDR_PAKO, 'const pako = null;');
    if (!out.includes('node:zlib') || !out.includes('const pako = null;')) {
      throw new Error(`${id}: its zlib or pako lookup changed; see bundle.ts hdrZlib`);
    }
    // The lines stay where they were: the module's own map still holds (a few columns off on two).
    return { code: out, map: null };
  },
};
const HDR_PAKO = 'const pako = require("pako");';

/** A bundle of the CLI built from the project at `root`. */
export interface CliBundle {
  /** Its entry when it is built from the files as they are now, else null. */
  fresh(): URL | null;
  /** Builds it and names it in dist/cli.json; resolves with its entry. */
  build(): Promise<URL>;
}

export function cliBundle(root: string): CliBundle {
  const rootDir = root.endsWith(sep) ? root : `${root}${sep}`;
  const inRoot = (id: string): boolean => id.startsWith(rootDir);
  const dist = join(root, 'dist');
  const manifestPath = join(dist, 'cli.json');
  const bundleDir = (key: string): string => join(dist, `cli-${key}`);
  const readSource = (path: string): Buffer => readFileSync(join(root, path));

  /**
   * A file's inode, size, mtime and ctime: a write changes the ctime, which no tool sets back
   * (git's index trusts the same four), so an unchanged signature is unchanged content.
   */
  const signatureOf = (path: string): string => {
    // Not path.join: its normalizing, cold on every start, cost more than the ~300 stats (issue 24).
    const s = statSync(rootDir + path);
    return `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
  };

  /**
   * The key of a bundle built from these files: the sources' content (as `content` gives it),
   * the packages' signatures (npm gives every file it installs the same mtime, not the same
   * ctime). Throws when a file is gone.
   */
  const keyOf = (
    sources: readonly string[],
    packages: readonly string[],
    content: (path: string) => Buffer = readSource,
  ): string => {
    const hash = loadCrypto().createHash('sha256');
    for (const path of sources) hash.update(`${path}\0`).update(content(path)).update('\0');
    for (const path of packages) hash.update(`${path}\0${signatureOf(path)}\0`);
    return hash.digest('hex').slice(0, 16);
  };

  const readManifest = (): Manifest | null => {
    try {
      const m = JSON.parse(readFileSync(manifestPath, 'utf8')) as Partial<Manifest>;
      if (typeof m.key !== 'string' || !Array.isArray(m.sources) || !Array.isArray(m.packages)) return null;
      if (typeof m.signatures !== 'object' || m.signatures === null) return null;
      return { key: m.key, sources: m.sources, packages: m.packages, signatures: m.signatures };
    } catch {
      return null;
    }
  };

  // Renamed into place: a start never reads half a manifest, whoever else builds at once.
  const writeManifest = (manifest: Manifest): void => {
    const tmp = `${manifestPath}.${process.pid}`;
    writeFileSync(tmp, `${JSON.stringify(manifest, null, 1)}\n`);
    renameSync(tmp, manifestPath);
  };

  /**
   * Old bundles go: those over a day old, and all but the newest few (an edit and a start make
   * one, 6 MB each). A run started from one a minute ago may still start threads from it, so the
   * newest are kept.
   */
  const pruneOldBundles = (keep: string): void => {
    const dayAgo = Date.now() - 24 * 3600 * 1000;
    const others: { path: string; mtimeMs: number }[] = [];
    for (const name of readdirSync(dist)) {
      if (!name.startsWith('cli-') || name === `cli-${keep}`) continue;
      const path = join(dist, name);
      try {
        others.push({ path, mtimeMs: statSync(path).mtimeMs });
      } catch {
        // Another process pruned it first.
      }
    }
    others.sort((a, b) => b.mtimeMs - a.mtimeMs);
    others.forEach(({ path, mtimeMs }, i) => {
      if (i >= KEPT_BUNDLES || mtimeMs < dayAgo) rmSync(path, { recursive: true, force: true });
    });
  };

  return {
    /*
     * Every file's signature is checked; when one differs (a checkout that rewrote a file as it
     * was), the key is computed again from the content, and if it still matches, the new
     * signatures are kept for the next start.
     */
    fresh() {
      const manifest = readManifest();
      if (!manifest) return null;
      const entry = join(bundleDir(manifest.key), 'cli.js');
      if (!existsSync(entry)) return null;
      const files = [...manifest.sources, ...manifest.packages];
      try {
        const now = files.map(signatureOf);
        if (now.some((sig, i) => manifest.signatures[files[i]!] !== sig)) {
          if (keyOf(manifest.sources, manifest.packages) !== manifest.key) return null;
          writeManifest({ ...manifest, signatures: Object.fromEntries(files.map((f, i) => [f, now[i]!])) });
        }
      } catch {
        return null;
      }
      return pathToFileURL(entry);
    },

    /*
     * Each repository file is read once, by the plugin below, signed before and hashed as read:
     * the key is of exactly what went in, and a write during the build leaves a signature that
     * no longer matches. Several processes may build at once (tests start many CLIs): each
     * writes a folder of its own and renames it into place.
     */
    async build() {
      const { build } = await import('rolldown');
      mkdirSync(dist, { recursive: true });
      const signatures: Record<string, string> = {};
      const read = new Map<string, Buffer>();
      const readOnce = (path: string): Buffer => {
        signatures[path] = signatureOf(path);
        const content = readSource(path);
        read.set(path, content);
        return content;
      };
      // The recipe is part of what was built (outside the root in a test: '../' paths work the same).
      for (const file of RECIPE) readOnce(relative(root, file));
      const recordSources: Plugin = {
        name: 'trebuchet-bundle-key',
        load(id) {
          if (isPackageFile(id) || !inRoot(id) || id.startsWith(LAZY_PREFIX)) return null;
          const content = readOnce(relative(root, id));
          const moduleType = id.endsWith('.json') ? 'json' : id.endsWith('.ts') ? 'ts' : 'js';
          return { code: content.toString('utf8'), moduleType };
        },
      };
      const chunks = runChunks(root);
      const staging = join(dist, `cli-building-${process.pid}-${Date.now()}`);
      const output = await build({
        input: Object.fromEntries(Object.entries(ENTRIES).map(([name, path]) => [name, join(root, path)])),
        cwd: root,
        platform: 'node',
        // Electron is the desktop app's; the CLI never loads it.
        external: (id) => id === 'electron' || (id.startsWith('node:') && !LAZY_BUILTINS.has(id)),
        plugins: [lazyBuiltins, recordSources, hdrZlib, chunks.plugin],
        // A role's chunk takes its modules only, not what they import (that has a role of its
        // own); rolldown then needs room to add exports to the entries, and strict order below.
        preserveEntrySignatures: 'allow-extension',
        output: {
          dir: staging,
          format: 'esm',
          entryFileNames: '[name].js',
          chunkFileNames: '[name]-[hash].js',
          sourcemap: true,
          codeSplitting: { groups: chunks.groups, includeDependenciesRecursively: false },
          strictExecutionOrder: true,
        },
      });
      const ids = new Set(output.output.flatMap((o) => (o.type === 'chunk' ? o.moduleIds : [])));
      const packages = [...ids]
        .filter((id) => isPackageFile(id) && inRoot(id))
        .map((id) => relative(root, id))
        .sort();
      for (const path of packages) signatures[path] = signatureOf(path);
      const sources = [...read.keys()].sort();
      const key = keyOf(sources, packages, (path) => read.get(path) ?? Buffer.alloc(0));
      const dir = bundleDir(key);
      if (existsSync(dir)) rmSync(staging, { recursive: true, force: true });
      else renameSync(staging, dir);
      pruneOldBundles(key);
      writeManifest({ key, sources, packages, signatures });
      return pathToFileURL(join(dir, 'cli.js'));
    },
  };
}

/**
 * The module bin.js runs: the fresh bundle, built now when stale or missing, or the sources
 * when it cannot be built (no rolldown, a build error: the sources then say what is wrong).
 */
export async function cliEntry(): Promise<URL> {
  const bundle = cliBundle(fileURLToPath(new URL('../../', import.meta.url)));
  const fresh = bundle.fresh();
  if (fresh) return fresh;
  try {
    return await bundle.build();
  } catch {
    return new URL('./main.ts', import.meta.url);
  }
}
