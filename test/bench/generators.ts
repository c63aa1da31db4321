/**
 * The load generators the benchmark runs, each in a process of its own: Trebuchet as a user
 * runs it (the CLI, `trebuchet run --scenario`) and the reference tools (wrk, autocannon's
 * CLI, h2load, ab). Each returns the figures of one run; every CPU figure is the whole
 * process, from its start to its exit (bash `times`), the same for every generator.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runResultSchema } from '../../shared/model/result.ts';
import type { ScenarioInput } from '../../shared/model/scenario.ts';
import {
  AUTOCANNON_BIN,
  parseAb,
  parseAutocannonJson,
  parseH2load,
  parseWrk,
  runMeasured,
  type LoadFigures,
} from '../helpers/reference-tools.ts';
import type { RssOutcome } from './engine-child.ts';
import { engineOutcome, type EngineOutcome } from './engine-outcome.ts';
import { placed } from './pinning.ts';
import type { Figures } from './report.ts';

export const CLI_BIN = resolve(import.meta.dirname, '../../electron/cli/bin.js');
const ENGINE_CHILD = resolve(import.meta.dirname, 'engine-child.ts');

/** Generous: a generator that hangs is killed instead of stalling the benchmark. */
const timeoutFor = (seconds: number): number => (seconds + 60) * 1000;

export interface EngineFigures extends Figures {
  outcome: EngineOutcome;
}

/**
 * Runs a scenario (one target, load on 127.0.0.1) through the CLI, as a user runs it: the
 * bin, its bundle, the engine threads, the server monitor, the report. Its CPU is the whole
 * process's, start-up included, as wrk's is.
 */
export async function runEngine(scenario: ScenarioInput, seconds: number): Promise<EngineFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'trebuchet-bench-'));
  try {
    const input = join(dir, 'scenario.json');
    const output = join(dir, 'result.json');
    writeFileSync(input, JSON.stringify(scenario));
    const m = await runMeasured(
      ...placed(process.execPath, [CLI_BIN, 'run', '--scenario', input, '--json', output, '-q']),
      timeoutFor(seconds),
    );
    if (m.exitCode !== 0) {
      throw new Error(`trebuchet run exited ${m.exitCode}: ${m.stderr.trim() || m.stdout.trim()}`);
    }
    const o = engineOutcome(runResultSchema.parse(JSON.parse(readFileSync(output, 'utf8'))));
    if (o.status !== 'completed') throw new Error(`engine run ${o.status}: ${o.error}`);
    return {
      requests: o.requests,
      seconds: o.seconds,
      requestsPerSecond: o.requestsPerSecond,
      errors: o.errors,
      cpuSeconds: m.cpuSeconds,
      workerCpuSeconds: o.workerCpuSeconds,
      outcome: o,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A scenario's peak RSS, from a run job in a process of its own (engine-child.ts). */
export async function runEngineRss(scenario: ScenarioInput, seconds: number): Promise<RssOutcome> {
  const m = await runMeasured(
    ...placed(process.execPath, [ENGINE_CHILD, JSON.stringify(scenario)]),
    timeoutFor(seconds),
  );
  const line = m.stdout.trim().split('\n').pop() ?? '';
  if (m.exitCode !== 0 || !line.startsWith('{')) {
    throw new Error(`engine child exited ${m.exitCode}: ${m.stderr.trim() || m.stdout.trim()}`);
  }
  const o = JSON.parse(line) as RssOutcome;
  if (o.status !== 'completed') throw new Error(`engine run ${o.status}: ${o.error}`);
  return o;
}

async function runTool(
  command: string,
  args: string[],
  seconds: number,
  parse: (out: string) => LoadFigures,
  env: Record<string, string> = {},
): Promise<Figures> {
  const m = await runMeasured(...placed(command, args), timeoutFor(seconds), env);
  if (m.exitCode !== 0) throw new Error(`${command} exited ${m.exitCode}: ${m.stderr.trim()}`);
  return { ...parse(m.stdout), cpuSeconds: m.cpuSeconds };
}

export interface ToolLoad {
  url: string;
  connections: number;
  seconds: number;
}

/** The reference tools, by the label their table rows carry. */
export const tools = {
  /** wrk, one thread unless told: the C reference, on the single core an engine worker gets. */
  wrk: (l: ToolLoad, threads = 1) =>
    runTool('wrk', [`-t${threads}`, `-c${l.connections}`, `-d${l.seconds}s`, l.url], l.seconds, parseWrk),
  /** autocannon's own CLI: the library the autocannon engine wraps, without a worker or our histograms. */
  autocannon: (l: ToolLoad, caFile?: string) =>
    runTool(
      AUTOCANNON_BIN,
      ['-c', String(l.connections), '-d', String(l.seconds), '-j', l.url],
      l.seconds,
      parseAutocannonJson,
      caFile ? { NODE_EXTRA_CA_CERTS: caFile } : {},
    ),
  /** h2load over TLS: `streams` concurrent streams per connection. */
  h2load: (l: ToolLoad, streams: number) =>
    runTool(
      'h2load',
      [`-c${l.connections}`, `-m${streams}`, '-D', String(l.seconds), l.url],
      l.seconds,
      parseH2load,
    ),
  /** ab, with -k (keep-alive) or without (a new connection, and TLS handshake, per request). */
  ab: (l: ToolLoad, keepAlive: boolean) =>
    runTool(
      'ab',
      [
        '-q',
        '-c',
        String(l.connections),
        '-t',
        String(l.seconds),
        '-n',
        '10000000',
        ...(keepAlive ? ['-k'] : []),
        l.url,
      ],
      l.seconds,
      parseAb,
    ),
};
