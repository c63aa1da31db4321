/**
 * One result of each kind, as the engine and the runners make them, for the tests that feed
 * the same result to every view and export (test/unit/renderer-one-figure.test.tsx) and to
 * both the CLI's and the app's export paths.
 */
import { capacityPlanSchema, type CapacityStep } from '../../shared/capacity/plan.ts';
import type { CellOutcome } from '../../shared/comparison/cells.ts';
import type { ComparisonResult } from '../../shared/comparison/result.ts';
import type { CapacityResult } from '../../shared/capacity/report.ts';
import type { RunResult } from '../../shared/model/result.ts';
import { Recorder } from '../../electron/engine/recording/recorder.ts';
import { recorderReport } from '../../electron/engine/recording/recorder-report.ts';
import { buildRunResult } from '../../electron/engine/shards/results.ts';
import { emptyOutcome } from '../../electron/engine/types.ts';
import { knee } from './capacity-results.ts';
import { resultWith, twoServerPlan } from './comparison-results.ts';
import { runSpecFixture } from './engine.ts';
import { amendResult } from './run-result.ts';
import { closedModelRun, LIMITED_RUNS } from './machine-results.ts';
import { VERDICT_STATE_LABELS, type VerdictState } from '../../shared/verdict/verdict.ts';

/**
 * An open run at 1,000 req/s for 3 s as the engine builds it: 3,020 answers (1 to 3 ms), 12
 * of them sent late (a note, not a caveat), an attack of 3.019 s and a wait of 4 ms inside a
 * measured window of 3.08 s (the engine's start-up before the first send): the run that read
 * "Duration 3.08 s · attack 3.02 s · wait 0.00 s" beside a vegeta text of 3.023 s.
 */
export function openRun(): RunResult {
  const spec = runSpecFixture(
    {
      name: 'open 1000',
      targets: [{ name: 'nginx', url: 'http://127.0.0.1:8080/' }],
      load: { model: 'open', rate: 1000, durationSeconds: 3, maxInFlight: 100 },
    },
    { runId: 'one-run', appVersion: '9.9.9' },
  );
  const r = new Recorder({ sloMs: null, warmup: false, now: 0 });
  for (let i = 0; i < 3020; i++) {
    r.started();
    r.sent(0, 90);
    r.response(200, 1000 + (i % 3) * 1000, 10, 120);
    r.inFlight--;
  }
  r.late(12);
  const samples = [r.tick(1000, 30), r.tick(2000, 31), r.tick(3080, 29, true)];
  const outcome = emptyOutcome({ attackSeconds: 3.019, waitSeconds: 0.004, dropped: 0 });
  return buildRunResult({
    spec,
    status: 'completed',
    error: null,
    startedAt: new Date('2026-01-05T10:00:00.000Z'),
    endedAt: new Date('2026-01-05T10:00:03.080Z'),
    measuredSeconds: 3.08,
    // One shard: the coordinator's path for a run of one worker.
    reports: [recorderReport(r, outcome)],
    samples,
    engine: { name: 'native', version: '0.1.0' },
    tls: null,
    server: {
      software: 'nginx',
      hostname: '127.0.0.1',
      port: 8080,
      documentPath: '/',
      documentLength: 10,
      httpVersion: '1.1',
    },
  });
}

/** One repetition of the open comparison below: its rate, and a schedule a little late or every answer a 404. */
function repetition(rps: number, kind: 'late' | 'all-404'): RunResult {
  const base = resultWith({ rps, total: 1000, ok: kind === 'all-404' ? 0 : 1000 });
  return amendResult(base, {
    load: { model: 'open', rate: 1000, durationSeconds: 1, maxInFlight: 100 },
    requests: { late: kind === 'late' ? 5 : 0, dropped: 0 },
    throughput: { targetRate: 1000, sentRate: rps },
    statusCodes: kind === 'all-404' ? { '404': 1000 } : { '200': 1000 },
  });
}

/** The rates of nginx's four repetitions: the matrix's mean is 1,005 req/s, the last one 1,020. */
export const NGINX_RATES = [1000, 1010, 990, 1020];

/**
 * A comparison with repetitions and caveats: nginx and apache at 1,000 req/s, four
 * repetitions each; nginx sends 0.5% late (clean, with a note), apache answers every request
 * with a 404 (all non-2xx).
 */
export function comparisonWithCaveats(): ComparisonResult {
  const plan = twoServerPlan({
    name: 'nginx vs apache, open',
    load: { model: 'open', rate: 1000, durationSeconds: 1, maxInFlight: 100 },
    levels: [1000],
    repetitions: 4,
  });
  const outcomes: CellOutcome[] = [];
  for (let rep = 0; rep < 4; rep++) {
    for (const targetIndex of [0, 1]) {
      outcomes.push({
        cellIndex: outcomes.length,
        coordinates: { targetIndex, protocol: 'http', level: 1000, repetition: rep },
        result: repetition(
          targetIndex === 0 ? NGINX_RATES[rep]! : 700 + rep,
          targetIndex === 0 ? 'late' : 'all-404',
        ),
      });
    }
  }
  return { plan, status: 'completed', outcomes, preflightFailures: [] };
}

/** A capacity job of two servers: nginx holds up to 1,300 req/s, apache breaks at its start rate. */
export function capacitySearch(): CapacityResult {
  const plan = capacityPlanSchema.parse({
    name: 'capacity of two',
    targets: [
      { name: 'nginx', url: 'http://127.0.0.1:8081/' },
      { name: 'apache', url: 'http://127.0.0.1:8082/' },
    ],
    search: { goal: { p99Ms: 10 }, startRate: 400, maxRate: 3200 },
  });
  const rates: [number, CapacityStep['phase']][] = [
    [400, 'doubling'],
    [800, 'doubling'],
    [1600, 'doubling'],
    [1200, 'bisecting'],
  ];
  const steps: CapacityStep[] = [
    ...rates.map(([rate, phase], stepIndex) => ({
      searchIndex: 0,
      stepIndex,
      rate,
      phase,
      result: knee(1300)(rate),
    })),
    { searchIndex: 1, stepIndex: 0, rate: 400, phase: 'doubling', result: knee(100)(400) },
  ];
  return { plan, status: 'completed', steps };
}

/**
 * One run per word of issue 32 that names what limited the figures, with its state: machine
 * busy (two `yes` hogs), server worker-bound (one nginx worker), setup-bound (TLS handshakes),
 * link-bound (a shaped veth), client-bound by the generator's whole process, and clean with
 * the closed model's note (nothing flat on a machine with room).
 */
export function limitedRuns(): { state: VerdictState; result: RunResult; label: string }[] {
  return [
    ...Object.entries(LIMITED_RUNS).map(([state, make]) => ({
      state: state as VerdictState,
      result: make(),
      label: VERDICT_STATE_LABELS[state as VerdictState],
    })),
    { state: 'clean', result: closedModelRun(), label: 'closed model' },
  ];
}

/** A comparison of one target per limited run (level 10, one repetition): the matrix names each. */
export function comparisonOfLimits(): ComparisonResult {
  const runs = limitedRuns();
  const plan = twoServerPlan({
    name: 'what limited each',
    targets: runs.map((r, i) => ({
      name: r.label.replace(/ /g, '-'),
      urls: { http: `http://127.0.0.1:${8081 + i}/` },
    })),
    repetitions: 1,
  });
  const outcomes: CellOutcome[] = runs.map((r, i) => ({
    cellIndex: i,
    coordinates: { targetIndex: i, protocol: 'http', level: 10, repetition: 0 },
    result: r.result,
  }));
  return { plan, status: 'completed', outcomes, preflightFailures: [] };
}
