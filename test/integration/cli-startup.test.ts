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
import { decodeHistogram, encodeHistogram } from '../../electron/engine/recording/histogram.ts';
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

/**
 * What `trebuchet run <load...>` loaded in each thread, with its result file; `requests` answers
 * expected, all 200 (null: a schedule's, whose count a busy machine may cut by a late or dropped
 * send; what it loads is the point here).
 */
async function loadsOf(
  requests: number | null,
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
  expect(r.stdout).toMatch(
    new RegExp(`^Status Codes\\s+\\[code:count\\]\\s+200:${requests ?? '\\d+'}$`, 'm'),
  );
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

/**
 * The modules a thread's bundle files hold (the bundle marks each with a "// <path>" line, the
 * path from the root): a module in none of them was not loaded by that thread.
 */
function modulesIn(files: string[]): Set<string> {
  const mods = new Set<string>();
  for (const file of new Set(files.filter((f) => /\/dist\/cli-[0-9a-f]+\/[\w-]+\.js$/.test(f)))) {
    for (const m of readFileSync(new URL(file), 'utf8').matchAll(/^\/\/ (\S+\.[jt]s)$/gm)) {
      mods.add(m[1]!.replace(/^(\.\.\/)*([\w.-]+\/)*node_modules\//, 'node_modules/'));
    }
  }
  return mods;
}

/** The bundle's files a thread loaded (issue 24: each costs a start a find, a read and a link). */
const bundleFiles = (files: string[]): string[] =>
  [...new Set(files.filter((f) => /\/dist\/cli-[0-9a-f]+\//.test(f)))].map((f) => f.replace(/.*\//, ''));

/**
 * At most this many bundle files: the entry, rolldown's runtime, the run's chunks by role
 * (bundle-chunks.ts: main, cli, shared, engine) and the stubs of the imports a run makes
 * (run-command, run-here, native-runner; worker or shard thread in an engine thread). Left to
 * rolldown, a tiny run loaded 56.
 */
const MAX_FILES = { tinyRun: 9, cliThread: 6, engineThread: 7 };

const HDR_ENCODING = 'node_modules/hdr-histogram-js/dist/JsHistogram.encoding.js';

/**
 * The engine's thread records into hdr-histogram-js; its log reader and writer (an
 * Intl.NumberFormat built at load) stay out. It compresses with Node's zlib, as the sources
 * do (pako's JavaScript took 20-70 ms cold): the result's histogram is the bytes the sources
 * write (pako's are others). Its WebAssembly histograms stay in: autocannon builds its own
 * with them.
 */
function expectHdrAsTheSources(engineFiles: string[], resultFile: string): void {
  const mods = modulesIn(engineFiles);
  expect(mods).toContain(HDR_ENCODING);
  expect(mods).not.toContain('node_modules/hdr-histogram-js/dist/HistogramLogWriter.js');
  const holder = [...new Set(engineFiles)].filter(
    (f) => /\/dist\/cli-/.test(f) && modulesIn([f]).has(HDR_ENCODING),
  );
  expect(holder).toHaveLength(1);
  expect(readFileSync(new URL(holder[0]!), 'utf8')).toContain(
    'process.getBuiltinModule("node:zlib").deflateSync',
  );
  const { histogram, requests } = JSON.parse(readFileSync(resultFile, 'utf8')) as {
    histogram: string;
    requests: { total: number };
  };
  expect(decodeHistogram(histogram).totalCount).toBe(requests.total);
  expect(encodeHistogram(decodeHistogram(histogram))).toBe(histogram);
}

const MERGE = 'electron/engine/shards/merged-result.ts';
const DISTRIBUTED = 'electron/jobs/sharded-target.ts';

describe('what a plain run loads', () => {
  it('a run past the tiny size: the CLI thread has no node:crypto, child_process, tls or zlib, no engine, shard merge or hdr-histogram-js, in a few files; one engine thread has hdr without its log writer, compressing with zlib, and no command code', async () => {
    const { main, engineThreads, resultFile } = await loadsOf(TINY_RUN_REQUESTS + 1);
    for (const name of ['crypto', 'child_process', 'tls', 'zlib']) {
      expect(main.builtins).not.toContain(`NativeModule ${name}`);
    }
    const mods = modulesIn(main.files);
    expect(mods).toContain('electron/cli/run/command.ts');
    for (const m of [
      'electron/engine/recording/histogram.ts',
      HDR_ENCODING,
      MERGE,
      DISTRIBUTED,
      'electron/engine/run-here.ts',
    ]) {
      expect(mods).not.toContain(m);
    }
    expect(bundleFiles(main.files).length).toBeLessThanOrEqual(MAX_FILES.cliThread);
    expect(engineThreads).toHaveLength(1);
    const engine = engineThreads[0]!.files;
    expectHdrAsTheSources(engine, resultFile);
    expect(modulesIn(engine)).not.toContain('electron/cli/run/command.ts');
    expect(bundleFiles(engine).length).toBeLessThanOrEqual(MAX_FILES.engineThread);
  });

  it('a tiny run (-n 1): its engine runs in the CLI thread, which still has no node:crypto, child_process or tls and no shard merge, in a few files; hdr as in an engine thread', async () => {
    const { main, engineThreads, resultFile } = await loadsOf(1);
    expect(engineThreads).toEqual([]);
    for (const name of ['crypto', 'child_process', 'tls']) {
      expect(main.builtins).not.toContain(`NativeModule ${name}`);
    }
    const mods = modulesIn(main.files);
    for (const m of [MERGE, DISTRIBUTED]) expect(mods).not.toContain(m);
    expect(mods).toContain('electron/engine/run-here.ts');
    expect(bundleFiles(main.files).length).toBeLessThanOrEqual(MAX_FILES.tinyRun);
    expectHdrAsTheSources(main.files, resultFile);
  });

  it("a scheduled run: its coordinator runs in the CLI thread and its one shard in the only engine thread, so the sends never wait for the tick's work and no thread holds only the coordinator", async () => {
    const { main, engineThreads, resultFile } = await loadsOf(null, ['--rate', '200', '-d', '0.5']);
    const mods = modulesIn(main.files);
    expect(mods).toContain('electron/engine/run-here.ts');
    expect(mods).toContain('electron/engine/shards/coordinator.ts');
    expect(engineThreads).toHaveLength(1);
    // The shard's thread sends and records: the native driver and hdr are there.
    const shard = engineThreads[0]!.files;
    expect(shard.some((f) => /\/thread-[\w-]+\.js$/.test(f))).toBe(true);
    expect(modulesIn(shard)).toContain('electron/engine/native/load-generator.ts');
    expectHdrAsTheSources(shard, resultFile);
  });
});
