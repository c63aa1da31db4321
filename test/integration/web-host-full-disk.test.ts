import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { endAfterAll } from '../helpers/cleanup.ts';
import { CLI_BIN } from '../helpers/cli.ts';
import { fullDiskWrapper } from '../helpers/full-disk.ts';
import { connectToHost } from '../helpers/web-host-client.ts';

/*
 * A full disk does not stop `trebuchet serve` from starting (issue 33): History's index, a
 * cache of its run files, stays in memory, and the page is told the disk is full.
 */

const endAll = endAfterAll();
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'trebuchet-full-disk-'));
  endAll({ remove: () => rmSync(dir, { recursive: true, force: true }) });
});

describe('the web host on a full disk', () => {
  it('starts, lists History, says the disk is full and refuses a job up front', async () => {
    // A 64 KiB tmpfs filled to its last byte before the host starts.
    const [unshare, ...wrapper] = fullDiskWrapper(dir, 64);
    const fill = `dd if=/dev/zero of="${dir}/fill" bs=1k count=100 2>/dev/null; exec "$@"`;
    const child = spawn(
      unshare!,
      [...wrapper, 'sh', '-c', fill, 'fill', process.execPath, CLI_BIN, 'serve', '--data-dir', dir],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const ended = new Promise<number | null>((resolve) => child.once('exit', resolve));
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    endAll({
      close: async () => {
        child.kill('SIGTERM');
        await ended;
      },
    });
    const url = await new Promise<URL>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /http:\/\/\S+/.exec(out);
        if (m) resolve(new URL(m[0]));
      });
      void ended.then((code) => reject(new Error(`serve ended (${code}):\n${out}${stderr}`)));
    });
    const api = await connectToHost(Number(url.port), url.searchParams.get('token')!);
    try {
      const { problems } = await api.api.app.info();
      expect(problems?.map((p) => [p.store, p.message])).toEqual([
        [
          'history',
          `The disk holding ${join(dir, 'history')} is full: runs cannot be saved until there is room. Export runs you want to keep and delete them, or free space elsewhere.`,
        ],
      ]);
      const list = await api.api.history.list();
      expect(list.runs).toEqual([]);
      expect(list.problems).toEqual(problems);
      // A job is refused before it begins, with the same words, not failed at its save.
      await expect(
        api.api.jobs.start({ kind: 'run', plan: { targets: [{ url: 'http://127.0.0.1:9/' }] } }),
      ).rejects.toThrow(problems![0]!.message);
      expect(await api.api.jobs.active()).toEqual({ jobs: [] });
    } finally {
      api.close();
    }
  });
});
