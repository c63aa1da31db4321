import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../shared/model/defaults.ts';
import { endAfterAll } from '../helpers/cleanup.ts';
import { runCli } from '../helpers/cli.ts';
import { peakRssMb } from '../helpers/process-memory.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';

/*
 * Files a person hands the CLI (--scenario, --preset FILE, presets show FILE) are checked by
 * size on the opened file before a byte is read, against one cap (LIMITS.inputFileBytes), and
 * whatever is not a regular file says what it is.
 */

const endAll = endAfterAll();
let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = endAll(await startHttpServer(handlers.ok('hello')));
  dir = mkdtempSync(join(tmpdir(), 'trebuchet-cli-files-'));
  endAll({ remove: () => rmSync(dir, { recursive: true, force: true }) });
});

const TIMED = resolve(import.meta.dirname, '../helpers/cli-timed.ts');

/** One CLI command timed in a child of its own (after a warm-up), and the child's peak RSS. */
async function timedCli(
  args: string[],
): Promise<{ code: number; ms: number; stderr: string; peakMb: number }> {
  const child = spawn(process.execPath, [TIMED, 'run', '--help', '--', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const ended = new Promise<void>((done) => child.once('close', () => done()));
  const peakMb = await peakRssMb(child.pid!, ended);
  clearTimeout(timer);
  const timed = /^TIMED (.*)$/m.exec(stderr);
  if (!timed) throw new Error(`the timed CLI printed no time:\n${stderr}`);
  const { code, ms } = JSON.parse(timed[1]!) as { code: number; ms: number };
  return { code, ms, stderr, peakMb };
}

const SMALL_SCENARIO = () => ({
  targets: [{ url: server.url }],
  load: { model: 'closed', connections: 1, limit: { kind: 'requests', count: 5 } },
});

describe('files the CLI reads are bounded before they are read', () => {
  it(
    'refuses a 2 GB (sparse) --scenario and --preset file in under a second, under 200 MB of memory',
    { tags: ['timing'] },
    async () => {
      const big = join(dir, 'big.json');
      writeFileSync(big, '');
      truncateSync(big, 2 * 1024 ** 3);
      const cap = LIMITS.inputFileBytes.max;
      for (const flag of ['--scenario', '--preset']) {
        const r = await timedCli(['run', flag, big]);
        expect(r.code).toBe(2);
        expect(r.stderr).toContain(
          `trebuchet run: ${flag}: ${big} is 2147483648 bytes; a scenario, preset or plan file is at most ${cap} bytes`,
        );
        // Before the bound: 12 to 29 s and 2.2 GB before V8 refused the string.
        expect(r.ms).toBeLessThan(1000);
        expect(r.peakMb).toBeGreaterThan(10);
        expect(r.peakMb).toBeLessThan(200);
      }
    },
  );

  it('says a FIFO or /dev/zero is what it is, for --scenario, --preset and presets show', async () => {
    const fifo = join(dir, 'scenario.fifo');
    execFileSync('mkfifo', [fifo]);
    const cases: [string[], string][] = [
      [
        ['run', '--scenario', fifo],
        `trebuchet run: --scenario: ${fifo} is a named pipe (FIFO), not a regular file`,
      ],
      [
        ['run', '--preset', fifo],
        `trebuchet run: --preset: ${fifo} is a named pipe (FIFO), not a regular file`,
      ],
      [
        ['run', '--scenario', '/dev/zero'],
        'trebuchet run: --scenario: /dev/zero is a character device, not a regular file',
      ],
      [
        ['presets', 'show', '/dev/zero'],
        'trebuchet presets: show: /dev/zero is a character device, not a regular file',
      ],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(args, { timeoutMs: 30_000 });
      expect(r.code).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe(message);
    }
  });

  it('reads a scenario and a preset file that start with a byte-order mark', async () => {
    const bom = '\uFEFF';
    const scenario = join(dir, 'bom-scenario.json');
    writeFileSync(scenario, bom + JSON.stringify(SMALL_SCENARIO()));
    const preset = join(dir, 'bom-preset.json');
    writeFileSync(
      preset,
      bom +
        JSON.stringify({
          format: 'trebuchet-preset',
          version: 5,
          id: 'bom',
          name: 'With a BOM',
          createdAt: '2025-01-01T00:00:00.000Z',
          updatedAt: '2025-01-01T00:00:00.000Z',
          kind: 'run',
          scenario: SMALL_SCENARIO(),
        }),
    );
    const before = server.requests;
    const s = await runCli(['run', '--scenario', scenario, '-q', '--format', 'json']);
    expect(s.stderr).toBe('');
    expect(s.code).toBe(0);
    expect((JSON.parse(s.stdout) as { requests: { ok: number } }).requests.ok).toBe(5);
    const p = await runCli(['run', '--preset', preset, '-q', '--format', 'json']);
    expect(p.code).toBe(0);
    expect((JSON.parse(p.stdout) as { requests: { ok: number } }).requests.ok).toBe(5);
    const shown = await runCli(['presets', 'show', preset]);
    expect(shown.code).toBe(0);
    expect((JSON.parse(shown.stdout) as { name: string }).name).toBe('With a BOM');
    // Five requests each, plus each run's pre-flight request.
    expect(server.requests - before).toBeGreaterThanOrEqual(10);
    expect(server.requests - before).toBeLessThanOrEqual(12);
  });

  it('never quotes a file that is not a preset (presets show ../../etc/passwd, a JSON file of secrets)', async () => {
    const secret = join(dir, 'secret.json');
    writeFileSync(secret, JSON.stringify({ format: 'hunter2-password' }));
    const passwd = `${'../'.repeat(12)}etc/passwd`;
    const cases: [string, string][] = [
      [
        passwd,
        'trebuchet presets: show: /etc/passwd: the file is not valid JSON (truncated, or edited by hand?)',
      ],
      [
        secret,
        `trebuchet presets: show: ${secret}: format: not a Trebuchet preset (expected "format": "trebuchet-preset")`,
      ],
    ];
    for (const [ref, message] of cases) {
      const r = await runCli(['presets', 'show', ref], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`${message}\n`);
      expect(r.stderr).not.toContain('root:');
      expect(r.stderr).not.toContain('hunter2');
    }
  });
});
