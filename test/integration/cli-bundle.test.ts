/**
 * The CLI's bundle (electron/cli/bundle.ts): built from a project, found fresh until one of
 * its files changes, rebuilt with the change, and the repository's own bin runs from it.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliBundle } from '../../electron/cli/bundle.ts';
import { CLI_BIN } from '../helpers/cli.ts';

const project = mkdtempSync(join(tmpdir(), 'trebuchet-bundle-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(join(project, path, '..'), { recursive: true });
  writeFileSync(join(project, path), text);
}

const mainOf = async (url: URL): Promise<string> =>
  ((await import(url.href)) as { main: () => string }).main();

describe('the CLI bundle', () => {
  it('runs the files as they are: fresh until one changes, rebuilt with the change, a rewrite of the same content kept', async () => {
    write(
      'electron/cli/main.ts',
      "import { word } from './word.ts';\nexport const main = (): string => word;\n",
    );
    write('electron/cli/word.ts', "export const word: string = 'one';\n");
    write('electron/engine/thread/worker-main.ts', 'export {};\n');
    const bundle = cliBundle(project);
    expect(bundle.fresh()).toBeNull();

    const first = await bundle.build();
    expect(bundle.fresh()?.href).toBe(first.href);
    expect(await mainOf(first)).toBe('one');

    write('electron/cli/word.ts', "export const word: string = 'two';\n");
    expect(bundle.fresh()).toBeNull();
    const second = await bundle.build();
    expect(second.href).not.toBe(first.href);
    expect(await mainOf(second)).toBe('two');

    // Touched, same content: still fresh, and the new signature is kept (no hashing next time).
    const later = new Date(Date.now() + 5000);
    utimesSync(join(project, 'electron/cli/word.ts'), later, later);
    expect(bundle.fresh()?.href).toBe(second.href);
    const manifest = JSON.parse(readFileSync(join(project, 'dist/cli.json'), 'utf8')) as {
      signatures: Record<string, string>;
    };
    expect(manifest.signatures['electron/cli/word.ts']).toContain(`:${later.getTime()}:`);
  });

  it('the repository bin runs from a fresh bundle of the sources as they are', () => {
    const r = spawnSync(process.execPath, [CLI_BIN, 'version'], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^trebuchet \d+\.\d+\.\d+/);
    const fresh = cliBundle(resolve(import.meta.dirname, '../..')).fresh();
    expect(fresh?.pathname).toMatch(/\/dist\/cli-[0-9a-f]{16}\/cli\.js$/);
  });

  it("keeps compiled code in the user's cache directory, and runs the same where that cannot be made", () => {
    const cacheHome = join(project, 'cache-home');
    const { NODE_COMPILE_CACHE: _, ...env } = process.env;
    const version = (xdg: string) =>
      spawnSync(process.execPath, [CLI_BIN, 'version'], {
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...env, XDG_CACHE_HOME: xdg },
      });
    const cached = version(cacheHome);
    expect(cached.status).toBe(0);
    // Node's folder per version and flags, one file per module compiled.
    const [folder, ...more] = readdirSync(join(cacheHome, 'trebuchet/compile-cache')).filter(
      (name) => name !== '.trebuchet-pruned',
    );
    expect(more).toEqual([]);
    expect(folder).toMatch(new RegExp(`^v${process.versions.node}-`));
    expect(readdirSync(join(cacheHome, 'trebuchet/compile-cache', folder!)).length).toBeGreaterThanOrEqual(3);
    // After its output, once a day, the command deletes compiled code unused for a week (an old bundle's).
    const cache = join(cacheHome, 'trebuchet/compile-cache');
    expect(existsSync(join(cache, '.trebuchet-pruned'))).toBe(true);
    const stale = join(cache, folder!, 'old-bundle-module');
    writeFileSync(stale, 'compiled');
    const monthAgo = new Date(Date.now() - 30 * 24 * 3600 * 1000);
    utimesSync(stale, monthAgo, monthAgo);
    expect(version(cacheHome).status).toBe(0);
    expect(existsSync(stale)).toBe(true);
    utimesSync(join(cache, '.trebuchet-pruned'), monthAgo, monthAgo);
    expect(version(cacheHome).status).toBe(0);
    expect(existsSync(stale)).toBe(false);
    expect(readdirSync(join(cache, folder!)).length).toBeGreaterThanOrEqual(3);

    // A cache home that is a file: no folder can be made under it; the command runs alike, silently.
    writeFileSync(join(project, 'not-a-folder'), '');
    const uncached = version(join(project, 'not-a-folder'));
    expect(uncached.status).toBe(0);
    expect(uncached.stdout).toBe(cached.stdout);
    expect(uncached.stderr).toBe('');
  });
});
