import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { electronMissing } from '../../electron/cli/node-check.js';

/*
 * `npm start` where Electron's binary is not installed (ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci,
 * as on this machine and in CI): a sentence that says so and points to `npm run serve`, before
 * any build, never Electron's download attempt and stack trace (issue 37).
 */

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'trebuchet-electron-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An electron package folder as npm leaves it: path.txt when the binary was downloaded, the binary under dist/. */
function fakePackage(name: string, parts: { pathTxt?: boolean; binary?: boolean }): string {
  const pkg = join(dir, name);
  mkdirSync(join(pkg, 'dist'), { recursive: true });
  if (parts.pathTxt) writeFileSync(join(pkg, 'path.txt'), 'electron');
  if (parts.binary) writeFileSync(join(pkg, 'dist', 'electron'), '');
  return pkg;
}

describe('npm start without the Electron binary', () => {
  it('says what is missing and points to npm run serve, before building anything', () => {
    // An empty override folder: the binary is missing whether or not this machine has one.
    const empty = join(dir, 'empty');
    mkdirSync(empty, { recursive: true });
    const r = spawnSync('npm', ['start'], {
      cwd: ROOT,
      env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: empty },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      `The desktop app cannot start: Electron's binary is not at ${join(empty, 'electron')}`,
    );
    expect(r.stderr).toContain('Open the same app in a browser instead: npm run serve');
    expect(r.stderr).not.toMatch(/^\s+at /m);
    // Refused before tsc, the bundle or vite ran, and before Electron tried a download.
    expect(r.stdout).not.toMatch(/tsc -p|build-bundle|vite build|Downloading Electron/);
  });

  it('finds the binary where the electron package looks for it', () => {
    expect(electronMissing(null, {})).toContain('the electron package is not installed');
    expect(electronMissing(fakePackage('skipped', {}), {})).toContain(
      "Electron's binary is not installed (npm ci skips it with ELECTRON_SKIP_BINARY_DOWNLOAD=1",
    );
    expect(electronMissing(fakePackage('half', { pathTxt: true }), {})).toContain('is not installed');
    expect(electronMissing(fakePackage('whole', { pathTxt: true, binary: true }), {})).toBeNull();
    const whole = join(dir, 'whole');
    expect(electronMissing(whole, { ELECTRON_OVERRIDE_DIST_PATH: join(whole, 'dist') })).toBeNull();
    expect(electronMissing(whole, { ELECTRON_OVERRIDE_DIST_PATH: dir })).toContain(
      `Electron's binary is not at ${join(dir, 'electron')} (ELECTRON_OVERRIDE_DIST_PATH)`,
    );
  });
});
