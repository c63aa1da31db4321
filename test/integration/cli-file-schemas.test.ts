import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { endAfterAll } from '../helpers/cleanup.ts';
import { runCli } from '../helpers/cli.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';

/*
 * Scenario, preset and plan files are read strictly: an unknown field is an error naming it
 * and the nearest known name, at any depth, before any load is sent; a file of a newer format
 * version says so instead.
 */

const endAll = endAfterAll();
let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = endAll(await startHttpServer(handlers.ok('hello')));
  dir = mkdtempSync(join(tmpdir(), 'trebuchet-cli-schemas-'));
  endAll({ remove: () => rmSync(dir, { recursive: true, force: true }) });
});

let files = 0;
function file(content: unknown): string {
  const f = join(dir, `file-${++files}.json`);
  writeFileSync(f, typeof content === 'string' ? content : JSON.stringify(content));
  return f;
}

const preset = (kind: string, body: Record<string, unknown>) => ({
  format: 'trebuchet-preset',
  version: 5,
  id: `p${files}`,
  name: 'A preset',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  kind,
  ...body,
});

/** Runs the CLI and expects it to refuse the input (exit 2) before sending any request. */
async function refused(args: string[]): Promise<string> {
  const before = server.requests;
  const r = await runCli(args, { timeoutMs: 30_000 });
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(server.requests).toBe(before);
  return r.stderr.split('\n')[0]!;
}

describe('unknown fields in the files the CLI reads', () => {
  it('names each typo in a scenario with the field it was meant to be (methd, laod, optoins)', async () => {
    const s = file({
      targets: [{ url: server.url, methd: 'POST' }],
      laod: { model: 'closed', connections: 1 },
      optoins: { timeoutMs: 5 },
    });
    expect(await refused(['run', '--scenario', s, '-n', '10'])).toBe(
      'trebuchet run: --scenario targets.0.methd: unknown field; did you mean `method`?; ' +
        'laod: unknown field; did you mean `load`?; optoins: unknown field; did you mean `options`?',
    );
  });

  it('names a nested unknown field with the fields its object has (load.bogusField, options.tls.cafile)', async () => {
    const s = file({
      targets: [{ url: server.url }],
      load: { model: 'closed', connections: 1, bogusField: 1 },
      options: { tls: { cafile: '/x.pem' } },
    });
    expect(await refused(['run', '--scenario', s])).toBe(
      'trebuchet run: --scenario load.bogusField: unknown field (the fields here are `model`, ' +
        '`connections`, `pipelining`, `limit`, `rate`, `stages`); options.tls.cafile: unknown field; did you mean `caFile`?',
    );
  });

  it('names a 100,000-deep extra field in bounded time, without a stack overflow', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const s = file(`{"targets":[{"url":"${server.url}"}],"extra":${deep}}`);
    // The parse and the check take milliseconds; a check quadratic in the depth would take
    // minutes (10^10 steps), and the CLI killed at refused()'s 30 s has no exit code 2: the
    // bound, whatever the machine's speed or load.
    const line = await refused(['run', '--scenario', s]);
    expect(line).toBe(
      'trebuchet run: --scenario extra: unknown field (the fields here are `version`, `name`, `targets`, `load`, `options`)',
    );
  });

  it('refuses extra fields in preset files, and typos in comparison and capacity plans', async () => {
    const scenario = { targets: [{ url: server.url }] };
    const extra = file(preset('run', { extraField: 1, scenario }));
    expect(await refused(['run', '--preset', extra])).toBe(
      `trebuchet run: --preset: ${extra}: extraField: unknown field (the fields here are \`format\`, \`version\`, \`id\`, \`name\`, \`description\`, \`createdAt\`, \`updatedAt\`, \`kind\`, \`scenario\`)`,
    );
    const nested = file(preset('run', { scenario: { ...scenario, laod: { model: 'open' } } }));
    expect(await refused(['presets', 'show', nested])).toBe(
      `trebuchet presets: show: ${nested}: scenario.laod: unknown field; did you mean \`load\`?`,
    );
    const plan = file({
      targets: [{ urls: { http: server.url } }],
      load: { model: 'closed' },
      levels: [1],
      repititions: 2,
    });
    expect(await refused(['run', '--preset', plan])).toBe(
      `trebuchet run: --preset: ${plan}: repititions: unknown field; did you mean \`repetitions\`?`,
    );
    const capacity = file(
      preset('capacity', {
        plan: { targets: [{ url: server.url }], search: { goal: { p99Ms: 10 }, stepSecond: 1 } },
      }),
    );
    expect(await refused(['capacity', '--preset', capacity])).toBe(
      `trebuchet capacity: --preset: ${capacity}: plan.search.stepSecond: unknown field; did you mean \`stepSeconds\`?`,
    );
  });

  it('says a file is from a newer version of Trebuchet, naming both versions, instead of listing its fields', async () => {
    const s = file({ version: 2, targets: [{ url: server.url }], newField: true });
    expect(await refused(['run', '--scenario', s])).toBe(
      'trebuchet run: --scenario version: this scenario file is format version 2, written by a newer version of Trebuchet; this version of Trebuchet reads format version 1',
    );
    const p = file({
      ...preset('run', { scenario: { targets: [{ url: server.url }] } }),
      version: 6,
      x: 1,
    });
    expect(await refused(['run', '--preset', p])).toBe(
      `trebuchet run: --preset: ${p}: version: this preset is format version 6, written by a newer version of Trebuchet; this version of Trebuchet reads format versions 1 to 5`,
    );
  });
});

describe('a good file still runs', () => {
  it('runs a scenario file that has every field', async () => {
    const s = file({
      version: 1,
      name: 'every field',
      targets: [
        {
          name: 'local',
          url: server.url,
          method: 'GET',
          headers: [],
          body: { kind: 'none' },
          monitor: { kind: 'off' },
        },
      ],
      load: {
        model: 'closed',
        connections: 1,
        pipelining: 1,
        limit: { kind: 'requests', count: 3 },
        rate: null,
      },
      options: {
        keepAlive: true,
        timeoutMs: 5000,
        tls: { verify: true, caFile: null, servername: null, minVersion: 'TLSv1.2' },
      },
    });
    const r = await runCli(['run', '--scenario', s, '-q', '--format', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { requests: { ok: number } }).requests.ok).toBe(3);
  });
});
