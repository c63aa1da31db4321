import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { endAfterAll } from '../helpers/cleanup.ts';
import { runCli } from '../helpers/cli.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';

const endAll = endAfterAll();
let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = endAll(await startHttpServer(handlers.ok('hello', { server: 'node-test/1' })));
  dir = mkdtempSync(join(tmpdir(), 'trebuchet-cli-report-'));
  endAll({ remove: () => rmSync(dir, { recursive: true, force: true }) });
});

/** Every file of a folder by name, with its bytes. */
function filesOf(folder: string): Map<string, string> {
  return new Map(readdirSync(folder).map((name) => [name, readFileSync(join(folder, name), 'utf8')]));
}

/** The report of `json` written into a new folder: its stdout, exit code and files. */
async function reportOf(files: readonly string[], name: string, flags: readonly string[] = []) {
  const out = join(dir, name);
  const r = await runCli(['report', ...files, '--export', out, ...flags]);
  return { ...r, files: filesOf(out) };
}

function expectSameFiles(a: Map<string, string>, b: Map<string, string>, count: number): void {
  expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
  expect(a.size, [...a.keys()].sort().join(' ')).toBe(count);
  for (const [name, content] of a) expect(b.get(name), name).toBe(content);
}

describe('trebuchet report', () => {
  it("re-renders a run's JSON byte for byte: the same stdout in two layouts, the same 11 files, the same exit code", async () => {
    const first = join(dir, 'run-files');
    const run = await runCli([
      'run',
      '-n',
      '400',
      '-c',
      '4',
      '--threshold',
      'p99<0.0001',
      '--name',
      'report me',
      '--export',
      first,
      '-q',
      `${server.url}hello`,
    ]);
    // The threshold fails on purpose: the report's exit code must say so too.
    expect(run.code, run.stderr).toBe(1);
    const saved = join(first, 'report-me.json');
    const again = await reportOf([saved], 'run-again');
    expect(again.code, again.stderr).toBe(1);
    expect(again.stdout).toBe(run.stdout);
    expect(again.stdout).toMatch(/p99 < 0\.0001 ms: FAILED/);
    // JSON; summary, time series, percentiles and server resources (loopback: watched) CSVs; HTML; 5 text reports.
    expectSameFiles(filesOf(first), again.files, 11);
    const ab = await runCli(['report', saved, '--format', 'ab']);
    expect(ab.stdout).toMatch(/^Complete requests: +400$/m);
    expect(ab.stdout).toBe(again.files.get('report-me.ab.txt'));
  });

  it('re-renders a comparison and a capacity search as their commands wrote them', async () => {
    const planFile = join(dir, 'plan.json');
    writeFileSync(
      planFile,
      JSON.stringify({
        name: 'two levels',
        targets: [{ name: 'node', urls: { http: server.url } }],
        protocols: ['http'],
        load: { model: 'closed', limit: { kind: 'requests', count: 200 } },
        levels: [1, 2],
        repetitions: 2,
      }),
    );
    const cmpDir = join(dir, 'cmp-files');
    const cmp = await runCli(['run', '--preset', planFile, '--export', cmpDir, '-q', '--data-dir', dir]);
    expect(cmp.code, cmp.stderr).toBe(0);
    const cmpAgain = await reportOf([join(cmpDir, 'two-levels.json')], 'cmp-again');
    expect(cmpAgain.code, cmpAgain.stderr).toBe(0);
    expect(cmpAgain.stdout).toBe(cmp.stdout);
    expect(cmpAgain.stdout).toMatch(/^ +node +http +c=2 +/m);
    // JSON; matrix, summary, time series, resources and a percentile table per level; HTML; 5 texts.
    expectSameFiles(filesOf(cmpDir), cmpAgain.files, 13);

    const capDir = join(dir, 'cap-files');
    // A goal no stall of a busy machine breaks (a report re-rendered is the point, not the
    // answer), and steps of 0.2 s (lengthened toward 1,000 requests, at most to 1 s).
    const capFlags = ['--p99', '1000', '--start-rate', '50', '--max-rate', '100', '--step', '0.2'];
    const cap = await runCli(['capacity', `node=${server.url}`, ...capFlags, '--export', capDir, '-q']);
    expect(cap.code, cap.stderr).toBe(0);
    const capFile = readdirSync(capDir).find((f) => f.endsWith('.json'))!;
    const capAgain = await reportOf([join(capDir, capFile)], 'cap-again');
    expect(capAgain.code, capAgain.stderr).toBe(0);
    expect(capAgain.stdout).toBe(cap.stdout);
    expect(capAgain.stdout).toContain('node holds at least 100 req/s (the top rate) at p99 < 1,000 ms');
    // JSON; steps, answers, summary, time series, percentiles, resources; HTML; 5 texts.
    expectSameFiles(filesOf(capDir), capAgain.files, 13);
  });

  it('reads a history file as the run printed it, and joins several run files into one report', async () => {
    const dataDir = join(dir, 'data');
    const json = join(dir, 'saved.json');
    const run = await runCli([
      'run',
      '-n',
      '100',
      '-c',
      '1',
      '-q',
      '--save',
      '--data-dir',
      dataDir,
      '--json',
      json,
      server.url,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const id = /saved in history as (\S+)/.exec(run.stderr)![1]!;
    const historyFile = readdirSync(join(dataDir, 'history')).find((f) => f.startsWith(id))!;
    const fromHistory = await runCli(['report', join(dataDir, 'history', historyFile)]);
    expect(fromHistory.code, fromHistory.stderr).toBe(0);
    expect(fromHistory.stdout).toBe(run.stdout);
    const both = await runCli(['report', json, json, '--format', 'json']);
    expect(both.code).toBe(0);
    expect((JSON.parse(both.stdout) as unknown[]).length).toBe(2);
  });

  it('exits 2 on a file that is no result, of a newer version, or a comparison beside a run, naming the file and field', async () => {
    const saved = join(dir, 'saved.json');
    const result = JSON.parse(readFileSync(saved, 'utf8')) as Record<string, unknown>;
    const newer = join(dir, 'newer.json');
    writeFileSync(newer, JSON.stringify({ ...result, version: 3 }));
    const r = await runCli(['report', newer]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `${newer}: not a result Trebuchet reads: version: this result is format version 3, written by a newer version of Trebuchet; this version of Trebuchet reads format version 1`,
    );
    expect(r.stdout).toBe('');
    const typo = join(dir, 'typo.json');
    writeFileSync(typo, JSON.stringify({ ...result, latncy: 1 }));
    const t = await runCli(['report', typo]);
    expect(t.code).toBe(2);
    expect(t.stderr).toContain('latncy: unknown field; did you mean `latency`?');
    const missing = await runCli(['report', join(dir, 'nope.json')]);
    expect(missing.code).toBe(2);
    const mixed = await runCli(['report', saved, join(dir, 'cmp-files', 'two-levels.json')]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('is a comparison; only runs are reported together (give it alone)');
  });
});
