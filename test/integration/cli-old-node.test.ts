import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NODE_DOWNLOAD, nodeTooOld, requiredNode } from '../../electron/cli/node-check.js';
import { CLI_BIN } from '../helpers/cli.ts';

/*
 * The CLI and the npm scripts on a Node too old for the TypeScript sources: Debian 12's
 * /usr/bin/node (Node 20) says which Node is needed and where to get it, in a sentence, never
 * ERR_UNKNOWN_FILE_EXTENSION with a stack trace.
 */

const OLD_NODE = '/usr/bin/node';
const ROOT = resolve(import.meta.dirname, '../..');
/** The machine's own node and npm first, as on a Debian 12 box with Node from apt. */
const OLD_PATH = `/usr/bin:${process.env.PATH ?? ''}`;

const oldVersion = spawnSync(OLD_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim().replace(/^v/, '');
const refusal = `Trebuchet needs Node 22.19 or newer (you have ${oldVersion}).`;

function expectRefused(r: { status: number | null; stderr: string }): void {
  expect(r.status).toBe(1);
  expect(r.stderr).toContain(refusal);
  expect(r.stderr).toContain(NODE_DOWNLOAD);
  expect(r.stderr).not.toContain('ERR_UNKNOWN_FILE_EXTENSION');
  expect(r.stderr).not.toMatch(/^\s+at /m);
}

describe('the CLI on an old Node', () => {
  it('the machine has an old Node to try (else these tests prove nothing)', () => {
    expect(Number(oldVersion.split('.')[0])).toBeLessThan(22);
  });

  it('node electron/cli/bin.js under Node 20 says which Node it needs, with no stack trace', () => {
    const r = spawnSync(OLD_NODE, [CLI_BIN, 'run', 'http://127.0.0.1:1/'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expectRefused(r);
    expect(r.stdout).toBe('');
  });

  it('npx trebuchet, npm run serve and npm start under Node 20 say the same before building anything', () => {
    const env = { ...process.env, PATH: OLD_PATH };
    for (const args of [['exec', '--', 'trebuchet', '--version'], ['run', 'serve'], ['start']]) {
      const r = spawnSync('npm', args, { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 });
      expectRefused(r);
      // Refused before vite or tsc ran.
      expect(r.stdout).not.toMatch(/vite|tsc -p/);
    }
  });

  it('the boundary is package.json engines.node', () => {
    expect(requiredNode()).toEqual([22, 19, 0]);
    expect(nodeTooOld('22.18.0')).toContain('needs Node 22.19 or newer (you have 22.18.0)');
    expect(nodeTooOld('20.20.2')).toContain('(you have 20.20.2)');
    expect(nodeTooOld('22.19.0')).toBeNull();
    expect(nodeTooOld('23.0.0')).toBeNull();
    expect(nodeTooOld('24.21.0')).toBeNull();
    expect(nodeTooOld('22.9.1', [22, 10, 2])).toContain('needs Node 22.10.2 or newer');
  });
});
