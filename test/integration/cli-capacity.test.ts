import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { historyRecordSchema } from '../../shared/records/history.ts';
import { endAfterAll } from '../helpers/cleanup.ts';
import { runCli } from '../helpers/cli.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';

const endAll = endAfterAll();
let limited: TestServer;
let one: TestServer;
let two: TestServer;
let dir: string;

beforeAll(async () => {
  // 10 requests at a time, each held 5 ms: 2,000 req/s.
  limited = endAll(await startHttpServer(handlers.limited(10, 5)));
  // 1 and 2 at a time, each held 5 ms: 200 and 400 req/s.
  one = endAll(await startHttpServer(handlers.limited(1, 5)));
  two = endAll(await startHttpServer(handlers.limited(2, 5)));
  dir = mkdtempSync(join(tmpdir(), 'trebuchet-cli-capacity-'));
  endAll({ remove: () => rmSync(dir, { recursive: true, force: true }) });
});

describe('trebuchet capacity', () => {
  it(
    'prints each step and the answer, exits 0, and saves the search with its steps',
    { tags: ['timing'] },
    async () => {
      const before = limited.requests;
      const r = await runCli([
        'capacity',
        `limited=${limited.url}`,
        // The server holds 2,000 req/s, so only a stall of the machine breaks a step: 100 ms did,
        // 1 run in 12, at load 5-12; p99s of 120-220 ms were seen at load 15. Hence 1 s.
        '--p99',
        '1000',
        '--start-rate',
        '100',
        '--max-rate',
        '200',
        '--step',
        '0.5s',
        '--warmup',
        '0.2',
        '--save',
        '--data-dir',
        dir,
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^limited · step 1 · 100 req\/s \(doubling\): held · /m);
      expect(r.stderr).toMatch(/^limited · step 2 · 200 req\/s \(doubling\): held · /m);
      expect(r.stdout).toContain(
        "limited: holds at least 200 req/s at p99 < 1,000 ms: the search's top rate held (raise the max rate to go further)",
      );
      expect(r.stdout).toMatch(
        /^ {2}200 req\/s {2}doubling +\d+\.\d req\/s +[\d.]+ ms +[\d.]+ ms +0\.0% +0\.0% {2}held$/m,
      );
      expect(r.stdout.trimEnd().split('\n').at(-1)).toBe(
        'limited holds at least 200 req/s (the top rate) at p99 < 1,000 ms',
      );
      // 0.5 s steps lengthened toward the 1,000 requests a p99 needs (at most 5 times): 2.7 s at
      // 100 req/s and 2.7 s at 200 req/s with the warm-up, plus the pre-flight of each step.
      expect(limited.requests - before).toBeGreaterThan(780);
      expect(limited.requests - before).toBeLessThan(860);

      const [file] = readdirSync(join(dir, 'history')).filter((f) => f.endsWith('.run.json'));
      const record = historyRecordSchema.parse(JSON.parse(readFileSync(join(dir, 'history', file!), 'utf8')));
      expect(record.kind).toBe('capacity');
      expect(record.kind === 'capacity' && record.steps.map((s) => [s.rate, s.result.load])).toEqual([
        [100, { model: 'open', rate: 100, durationSeconds: 2.5, maxInFlight: 1000 }],
        [200, { model: 'open', rate: 200, durationSeconds: 2.5, maxInFlight: 1000 }],
      ]);
    },
  );

  it('exits 1 when not even the lowest rate held, and 2 on a bad flag', async () => {
    // 1,000 req/s: 1 s steps measure the 1,000 requests a p99 needs, and a 5 ms hold breaks 1 ms.
    const r = await runCli([
      'capacity',
      limited.url,
      '--p99',
      '1',
      '--start-rate',
      '1000',
      '--step',
      '1',
      '--warmup',
      '0',
      '--format',
      'json',
    ]);
    expect(r.code, r.stderr).toBe(1);
    const out = JSON.parse(r.stdout) as { answers: { answer: { stop: string; message: string } }[] };
    expect(out.answers[0]!.answer.stop).toBe('none-held');
    expect(out.answers[0]!.answer.message).toMatch(
      /^not even the lowest rate held: 1,000 req\/s broke p99 < 1 ms/,
    );

    const bad = await runCli(['capacity', limited.url, '--p99', '10', '--step', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      'trebuchet capacity: --step: "soon" is not a duration (e.g. 10, 10s, 1m30s)\nRun "trebuchet capacity --help" for the flags.\n',
    );
  });

  it(
    'runs the built-in "Which server holds the most" preset against two servers: one sentence for both',
    { tags: ['timing'] },
    async () => {
      const r = await runCli(
        [
          'capacity',
          '--preset',
          'Which server holds the most',
          '--target',
          `Apache · http=${one.url}`,
          '--target',
          `nginx · http=${two.url}`,
          // The preset run as a person runs it, made short: a goal no stall of a busy machine
          // breaks (what a server holds is test/integration/capacity-search.test.ts's), steps of
          // 0.2 s lengthened toward 1,000 requests but at most to 1 s, windows of 100 ms.
          '--p99',
          '1000',
          '--start-rate',
          '50',
          '--max-rate',
          '100',
          '--step',
          '0.2',
          '--warmup',
          '0',
          '--interval',
          '100',
          '--format',
          'json',
          '--data-dir',
          dir,
        ],
        { timeoutMs: 110_000 },
      );
      expect(r.stderr).toContain(
        'left out (no URL given): H2O · http, Apache · https, nginx · https, H2O · https',
      );
      // Every step's run: far more than a pipe takes at once (64 KiB), all of it out before the exit.
      expect(r.stdout.length).toBeGreaterThan(65_536);
      const out = JSON.parse(r.stdout) as {
        answers: { target: string; answer: { stop: string; heldRate: number | null; message: string } }[];
        steps: { rate: number; result: { target: { name: string } } }[];
      };
      expect(r.code, r.stderr).toBe(0);
      expect(out.answers.map((a) => a.target)).toEqual(['Apache · http', 'nginx · http']);
      // Each searched its own server: 50 and 100 req/s, both held (the top rate).
      for (const a of out.answers) expect(a.answer).toMatchObject({ stop: 'max-rate', heldRate: 100 });
      expect(out.steps.map((s) => [s.result.target.name, s.rate])).toEqual([
        ['Apache · http', 50],
        ['Apache · http', 100],
        ['nginx · http', 50],
        ['nginx · http', 100],
      ]);
    },
  );
});
