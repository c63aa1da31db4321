/**
 * One engine run in its own process, so the benchmark measures the engine's CPU time and
 * memory the same way as the reference tools' (a process of its own). Argument: a JSON
 * EngineJob. Prints one JSON line (EngineOutcome) on stdout.
 */
import { RunManager } from '../../electron/engine/manager.ts';
import { scenarioSchema } from '../../shared/scenario.ts';

export interface EngineJob {
  url: string;
  engine: 'autocannon' | 'native';
  connections: number;
  seconds: number;
}

export interface EngineOutcome {
  status: 'completed' | 'cancelled' | 'failed';
  error: string | null;
  engine: string;
  engineVersion: string;
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  errors: number;
  /** The engine worker thread's CPU seconds (the result's own generator figure). */
  workerCpuSeconds: number;
  /** This whole process's CPU seconds from start to end of the run (every thread). */
  runCpuSeconds: number;
  /** The host (main) thread's CPU seconds over the run: what RunManager and its events cost. */
  hostThreadCpuSeconds: number;
  /** Peak resident set size of this process, KiB. */
  maxRssKiB: number;
}

const job = JSON.parse(process.argv[2] ?? '') as EngineJob;
const scenario = scenarioSchema.parse({
  name: 'bench',
  targets: [{ url: job.url }],
  load: { model: 'closed', connections: job.connections, limit: { kind: 'duration', seconds: job.seconds } },
  options: { engine: job.engine, keepAlive: true },
});

const manager = new RunManager({ appVersion: 'bench' });
const cpuBefore = process.cpuUsage();
const hostBefore = process.threadCpuUsage();
const runId = manager.start(scenario);
const [result] = await manager.whenDone(runId);
const cpu = process.cpuUsage(cpuBefore);
const host = process.threadCpuUsage(hostBefore);
if (!result) throw new Error('the run returned no result');

const outcome: EngineOutcome = {
  status: result.status,
  error: result.error?.message ?? null,
  engine: result.generator.engine,
  engineVersion: result.generator.engineVersion,
  requests: result.requests.total,
  seconds: result.durationSeconds,
  requestsPerSecond: result.throughput.requestsPerSecond,
  errors: result.requests.total - result.requests.ok,
  workerCpuSeconds: (result.generator.cpuPercentMean / 100) * result.durationSeconds,
  runCpuSeconds: (cpu.user + cpu.system) / 1e6,
  hostThreadCpuSeconds: (host.user + host.system) / 1e6,
  maxRssKiB: process.resourceUsage().maxRSS,
};
process.stdout.write(`${JSON.stringify(outcome)}\n`);
process.exit(0);
