/**
 * One scenario run through RunManager in a process of its own, for test/bench/native.ts.
 * Argument: a JSON ScenarioInput (one target). Prints one JSON line (ChildOutcome).
 */
import { RunManager } from '../../electron/engine/manager.ts';
import { scenarioSchema } from '../../shared/scenario.ts';

export interface ChildOutcome {
  status: string;
  error: string | null;
  engine: string;
  requests: number;
  ok: number;
  errors: number;
  seconds: number;
  requestsPerSecond: number;
  sent: number;
  late: number | null;
  dropped: number | null;
  attackSeconds: number | null;
  /** CPU seconds of the engine worker thread (user + system) over the run, from its samples. */
  workerCpuSeconds: number;
  p50: number | null;
  p99: number | null;
  alpn: string | null;
  httpVersion: string | null;
}

const scenario = scenarioSchema.parse(JSON.parse(process.argv[2] ?? ''));
const manager = new RunManager({ appVersion: 'bench' });
const runId = manager.start(scenario);
const [r] = await manager.whenDone(runId);
if (!r) throw new Error('the run returned no result');

const workerCpuSeconds = r.samples.reduce((a, s) => a + ((s.cpuPercent ?? 0) / 100) * s.intervalSeconds, 0);
const outcome: ChildOutcome = {
  status: r.status,
  error: r.error?.message ?? null,
  engine: `${r.generator.engine} ${r.generator.engineVersion}`,
  requests: r.requests.total,
  ok: r.requests.ok,
  errors: r.requests.errors + r.requests.non2xx,
  seconds: r.durationSeconds,
  requestsPerSecond: r.throughput.requestsPerSecond,
  sent: Math.round(r.throughput.sentRate * r.durationSeconds),
  late: r.requests.late,
  dropped: r.requests.dropped,
  attackSeconds: r.attackSeconds,
  workerCpuSeconds,
  p50: r.latency?.percentiles['50'] ?? null,
  p99: r.latency?.percentiles['99'] ?? null,
  alpn: r.tls?.alpn ?? null,
  httpVersion: r.server?.httpVersion ?? null,
};
process.stdout.write(`${JSON.stringify(outcome)}\n`);
process.exit(0);
