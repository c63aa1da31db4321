/**
 * The load generators the benchmark compares, as a table: Trebuchet's engines (each run
 * through RunManager in a process of its own) and the reference tools. Add an engine by
 * adding a row.
 */
import { resolve } from 'node:path';
import {
  AUTOCANNON_BIN,
  parseAutocannonJson,
  parseWrk,
  runMeasured,
  type LoadFigures,
} from '../helpers/reference-tools.ts';
import type { EngineJob, EngineOutcome } from './engine-child.ts';

const ENGINE_CHILD = resolve(import.meta.dirname, 'engine-child.ts');

export interface BenchLoad {
  url: string;
  connections: number;
  seconds: number;
}

export interface GeneratorRun extends LoadFigures {
  /** CPU seconds of the generator's process, start to exit (every thread). */
  cpuSeconds: number;
  /** Engines only: the worker thread's CPU, the whole process's CPU during the run, peak RSS. */
  engine?: Pick<
    EngineOutcome,
    'workerCpuSeconds' | 'runCpuSeconds' | 'hostThreadCpuSeconds' | 'maxRssKiB' | 'engineVersion'
  >;
}

export interface Generator {
  id: string;
  label: string;
  kind: 'engine' | 'reference';
  run(load: BenchLoad): Promise<GeneratorRun>;
}

/** Generous: a generator that hangs is killed instead of stalling the benchmark. */
const timeoutFor = (load: BenchLoad): number => (load.seconds + 60) * 1000;

export class GeneratorUnavailable extends Error {
  override readonly name = 'GeneratorUnavailable';
}

export function engineGenerator(engine: EngineJob['engine']): Generator {
  return {
    id: `engine-${engine}`,
    label: `Trebuchet, ${engine} engine`,
    kind: 'engine',
    async run(load) {
      const job: EngineJob = { ...load, engine };
      const m = await runMeasured(process.execPath, [ENGINE_CHILD, JSON.stringify(job)], timeoutFor(load));
      const line = m.stdout.trim().split('\n').pop() ?? '';
      if (m.exitCode !== 0 || !line.startsWith('{')) {
        throw new Error(`engine ${engine} exited ${m.exitCode}: ${m.stderr.trim() || m.stdout.trim()}`);
      }
      const o = JSON.parse(line) as EngineOutcome;
      if (o.status === 'failed') {
        const unavailable = /not available|not part of this build/i.test(o.error ?? '');
        throw unavailable
          ? new GeneratorUnavailable(o.error ?? '')
          : new Error(`engine ${engine} failed: ${o.error}`);
      }
      return {
        requests: o.requests,
        seconds: o.seconds,
        requestsPerSecond: o.requestsPerSecond,
        errors: o.errors,
        cpuSeconds: m.cpuSeconds,
        engine: {
          workerCpuSeconds: o.workerCpuSeconds,
          runCpuSeconds: o.runCpuSeconds,
          hostThreadCpuSeconds: o.hostThreadCpuSeconds,
          maxRssKiB: o.maxRssKiB,
          engineVersion: o.engineVersion,
        },
      };
    },
  };
}

async function reference(
  command: string,
  args: string[],
  load: BenchLoad,
  parse: (out: string) => LoadFigures,
): Promise<GeneratorRun> {
  const m = await runMeasured(command, args, timeoutFor(load));
  if (m.exitCode !== 0) throw new Error(`${command} exited ${m.exitCode}: ${m.stderr.trim()}`);
  return { ...parse(m.stdout), cpuSeconds: m.cpuSeconds };
}

/** autocannon's own CLI: same library, no worker thread, no HdrHistogram of ours. */
export const autocannonCli: Generator = {
  id: 'autocannon-cli',
  label: 'autocannon CLI',
  kind: 'reference',
  run: (load) =>
    reference(
      AUTOCANNON_BIN,
      ['-c', String(load.connections), '-d', String(load.seconds), '-j', load.url],
      load,
      parseAutocannonJson,
    ),
};

/** wrk with one thread: the C reference, on the same single core an engine worker gets. */
export const wrk: Generator = {
  id: 'wrk',
  label: 'wrk -t1',
  kind: 'reference',
  run: (load) =>
    reference('wrk', ['-t1', `-c${load.connections}`, `-d${load.seconds}s`, load.url], load, parseWrk),
};

/** Every engine the benchmark knows; one that this build lacks is reported and skipped. */
export const ENGINES: readonly Generator[] = [engineGenerator('autocannon'), engineGenerator('native')];
export const REFERENCES: readonly Generator[] = [autocannonCli, wrk];
