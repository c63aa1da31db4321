/**
 * What `trebuchet run` loads before and around a plain run (issue 24: a start in a quarter of a
 * CPU-second): the CLI's thread leaves out what only a distributed plan, a shard merge or an
 * https target needs (and the engine's, but for a tiny run, whose engine runs there), and every
 * thread takes hdr-histogram-js from its modules, not its index.
 * Read from inside the processes (a preload records the built-ins and module files each thread
 * loaded), not from CPU figures, which a loaded machine makes noisy.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeHistogram, encodeHistogram } from '../../electron/engine/histogram.ts';
import { TINY_RUN_REQUESTS } from '../../electron/jobs/target-run.ts';
import { CLI_BIN } from '../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'trebuchet-startup-'));
const PRELOAD = join(dir, 'loads.mjs');
// Each module file a thread resolves is a line as it resolves (an engine thread is terminated
// once its result is in, so it may never see an exit); the CLI thread adds its built-ins at exit.
writeFileSync(
  PRELOAD,
  `import module from 'node:module';
import { appendFileSync } from 'node:fs';
import { isMainThread, threadId } from 'node:worker_threads';
const line = (o) => appendFileSync(process.env.LOADS_FILE, JSON.stringify({ thread: threadId, ...o }) + '\\n');
module.registerHooks({ resolve(spec, ctx, next) { const r = next(spec, ctx); line({ file: r.url }); return r; } });
if (isMainThread) process.on('exit', () => line({ builtins: process.moduleLoadList }));
`,
);

let server: Server;
let url = '';
beforeAll(async () => {
  server = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
});
afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Load {
  thread: number;
  file?: string;
  builtins?: string[];
}

/** What `trebuchet run <load...>` loaded in each thread, with its result file; `requests` answers expected. */
async function loadsOf(
  requests: number,
  load: string[] = ['-n', String(requests)],
): Promise<{
  main: { builtins: string[]; files: string[] };
  engineThreads: { thread: number; files: string[] }[];
  resultFile: string;
}> {
  const name = load.join('');
  const loadsFile = join(dir, `loads${name}.jsonl`);
  const resultFile = join(dir, `result${name}.json`);
  // Not spawnSync: the server answers from this process's event loop.
  const r = await promisify(execFile)(
    process.execPath,
    ['--import', pathToFileURL(PRELOAD).href, CLI_BIN, 'run', ...load, '-q', '--json', resultFile, url],
    { encoding: 'utf8', timeout: 60_000, env: { ...process.env, LOADS_FILE: loadsFile } },
  );
  expect(r.stderr).toBe(`wrote ${resultFile}\n`);
  expect(r.stdout).toMatch(new RegExp(`Status Codes\\s+\\[code:count\\]\\s+200:${requests}`));
  const loads = readFileSync(loadsFile, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Load);
  const filesOf = (thread: number): string[] =>
    loads.flatMap((l) => (l.thread === thread && l.file ? [l.file] : []));
  return {
    main: { builtins: loads.find((l) => l.builtins)!.builtins!, files: filesOf(0) },
    engineThreads: [...new Set(loads.map((l) => l.thread))]
      .filter((t) => t !== 0)
      .map((thread) => ({ thread, files: filesOf(thread) })),
    resultFile,
  };
}

// The bundle's chunks are named for their first module: hdr-histogram-js's is encoding-*.js.
const chunk = (files: string[], name: string): string[] =>
  files.filter((f) => new RegExp(`/${name}-[\\w-]+\\.js$`).test(f));

/**
 * The engine's thread records into hdr-histogram-js; its log reader and writer (an
 * Intl.NumberFormat built at load) stay out. It compresses with Node's zlib, as the sources
 * do (pako's JavaScript took 20-70 ms cold): the result's histogram is the bytes the sources
 * write (pako's are others).
 */
function expectHdrAsTheSources(engineFiles: string[], resultFile: string): void {
  expect(chunk(engineFiles, 'encoding')).toHaveLength(1);
  const engineCode = readFileSync(new URL(chunk(engineFiles, 'encoding')[0]!), 'utf8');
  expect(engineCode).not.toContain('HistogramLogWriter.js');
  expect(engineCode).toContain('process.getBuiltinModule("node:zlib").deflateSync');
  const { histogram, requests } = JSON.parse(readFileSync(resultFile, 'utf8')) as {
    histogram: string;
    requests: { total: number };
  };
  expect(decodeHistogram(histogram).totalCount).toBe(requests.total);
  expect(encodeHistogram(decodeHistogram(histogram))).toBe(histogram);
}

describe('what a plain run loads', () => {
  it('a run past the tiny size: the CLI thread has no node:crypto, child_process, tls or zlib, no shard merge or hdr-histogram-js; one engine thread has hdr without its log writer, compressing with zlib', async () => {
    const { main, engineThreads, resultFile } = await loadsOf(TINY_RUN_REQUESTS + 1);
    for (const name of ['crypto', 'child_process', 'tls', 'zlib']) {
      expect(main.builtins).not.toContain(`NativeModule ${name}`);
    }
    for (const name of ['histogram', 'encoding', 'merged-result', 'start', 'run-here']) {
      expect(chunk(main.files, name)).toEqual([]);
    }
    expect(engineThreads).toHaveLength(1);
    expectHdrAsTheSources(engineThreads[0]!.files, resultFile);
  });

  it('a tiny run (-n 1): its engine runs in the CLI thread, which still has no node:crypto, child_process or tls and no shard merge; hdr as in an engine thread', async () => {
    const { main, engineThreads, resultFile } = await loadsOf(1);
    expect(engineThreads).toEqual([]);
    for (const name of ['crypto', 'child_process', 'tls']) {
      expect(main.builtins).not.toContain(`NativeModule ${name}`);
    }
    for (const name of ['merged-result', 'start']) {
      expect(chunk(main.files, name)).toEqual([]);
    }
    expect(chunk(main.files, 'run-here')).toHaveLength(1);
    expectHdrAsTheSources(main.files, resultFile);
  });

  it("a scheduled run: its coordinator runs in the CLI thread and its one shard in the only engine thread, so the sends never wait for the tick's work and no thread holds only the coordinator", async () => {
    const { main, engineThreads, resultFile } = await loadsOf(100, ['--rate', '200', '-d', '0.5']);
    expect(chunk(main.files, 'run-here')).toHaveLength(1);
    expect(chunk(main.files, 'coordinator').length + chunk(main.files, 'execute').length).toBeGreaterThan(0);
    expect(engineThreads).toHaveLength(1);
    // The shard's thread sends and records: the native driver and hdr are there.
    expect(chunk(engineThreads[0]!.files, 'native-runner')).toHaveLength(1);
    expectHdrAsTheSources(engineThreads[0]!.files, resultFile);
  });
});
