import { describe, expect, it } from 'vitest';
import { checkTarget } from '../../electron/engine/preflight/target-check.ts';
import { comparisonRunner } from '../../electron/jobs/comparison.ts';
import type { RunnerEvent, TargetChecker } from '../../electron/jobs/runner.ts';
import { startTarget } from '../../electron/jobs/target-run.ts';
import {
  aggregateComparison,
  cellAt,
  comparisonPercentileTable,
  scalingSeries,
} from '../../shared/comparison/table.ts';
import {
  comparisonPlanSchema,
  type ComparisonPlan,
  type ComparisonPlanInput,
} from '../../shared/comparison/plan.ts';
import type { PreflightFailure } from '../../shared/model/preflight.ts';
import { makeTestCerts } from '../helpers/certs.ts';
import { endAfterAll, endAfterEach } from '../helpers/cleanup.ts';
import { runWith } from '../helpers/jobs.ts';
import { handlers, refusedPort, startHttpServer, type TestServer } from '../helpers/servers.ts';

const track = endAfterEach();
const engineCheck: TargetChecker = (scenario, signal) =>
  checkTarget(scenario, { appVersion: '0.0.0-test', signal });

async function twoServers(): Promise<[TestServer, TestServer]> {
  // A short fixed delay keeps the request volume modest on a shared 2-core machine.
  return [
    track(await startHttpServer(handlers.delay(2, 'apache'))),
    track(await startHttpServer(handlers.delay(2, 'nginx'))),
  ];
}

type Event = RunnerEvent<'comparison'>;
const progressOf = (events: Event[], type: string) =>
  events.flatMap((e) => (e.type === 'progress' && e.progress.type === type ? [e.progress] : []));

/** A plan run on the real engine: its events, its outcomes and table, the URLs its pre-flight failed. */
async function compare(plan: ComparisonPlan, onEvent?: (e: Event, stop: () => void) => void) {
  const { events, results, status } = await runWith(
    comparisonRunner,
    plan,
    { start: startTarget },
    {
      checkTarget: engineCheck,
      onEvent,
    },
  );
  const failed = progressOf(events, 'preflight-failed')[0];
  const preflightFailures: PreflightFailure[] = failed?.type === 'preflight-failed' ? failed.failures : [];
  return {
    events,
    outcome: { status, outcomes: results, table: aggregateComparison(plan, results), preflightFailures },
  };
}

function planFor(a: TestServer, b: TestServer, over: Partial<ComparisonPlanInput>) {
  return comparisonPlanSchema.parse({
    name: 'two local servers',
    targets: [
      { name: 'first', urls: { http: a.url } },
      { name: 'second', urls: { http: b.url } },
    ],
    protocols: ['http'],
    load: { model: 'closed', limit: { kind: 'duration', seconds: 1 } },
    levels: [1, 4],
    repetitions: 2,
    ...over,
  });
}

describe('comparison runner against two local servers', () => {
  it('runs 2 servers x 2 levels x 2 repetitions: 8 results in a 4-cell table', async () => {
    const [a, b] = await twoServers();
    const plan = planFor(a, b, {});
    const { events, outcome } = await compare(plan);

    expect(outcome.status).toBe('completed');
    expect(outcome.outcomes).toHaveLength(8);
    expect(outcome.outcomes.every((o) => o.result.status === 'completed')).toBe(true);
    // Progress over the whole matrix, in order.
    expect(events[0]).toEqual({ type: 'progress', progress: { type: 'started', cellCount: 8 } });
    const started = progressOf(events, 'part-started').flatMap((p) => (p.type === 'part-started' ? [p] : []));
    expect(started.map((p) => p.part)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(
      started.map((p) => `${p.coordinates.repetition}/${p.coordinates.level}/${p.coordinates.targetIndex}`),
    ).toEqual(['0/1/0', '0/1/1', '0/4/0', '0/4/1', '1/1/0', '1/1/1', '1/4/0', '1/4/1']);
    expect(events.filter((e) => e.type === 'result').map((e) => e.type === 'result' && e.part)).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7,
    ]);
    expect(events.filter((e) => e.type === 'sample' && e.source === 'engine').length).toBeGreaterThanOrEqual(
      8,
    );

    const table = outcome.table;
    expect(table.cells).toHaveLength(4);
    for (const cell of table.cells) {
      expect(cell.runs, cell.key).toBe(2);
      expect(cell.figures.rps!.mean, cell.key).toBeGreaterThan(20);
      expect(cell.figures.rps!.stdev, cell.key).not.toBeNull();
      expect(cell.figures.rps!.min).toBeLessThanOrEqual(cell.figures.rps!.max);
      // Each request waits for the server's 2 ms delay.
      expect(cell.figures.p50!.mean, cell.key).toBeGreaterThanOrEqual(2);
      expect(cell.figures.p99!.mean).toBeGreaterThanOrEqual(cell.figures.p50!.mean);
      expect(cell.failedRequests).toBe(0);
      expect(cell.figures.successRatio!.mean).toBe(1);
    }
    // Every request counted in a result reached its own server.
    for (const [i, server] of [a, b].entries()) {
      const counted = outcome.outcomes
        .filter((o) => o.coordinates.targetIndex === i)
        .reduce((n, o) => n + o.result.requests.total, 0);
      expect(counted).toBeGreaterThan(0);
      expect(server.requests).toBeGreaterThanOrEqual(counted);
    }
    // Every cell's results came from its own target at its own level.
    for (const o of outcome.outcomes) {
      expect(o.result.target.url).toBe(o.coordinates.targetIndex === 0 ? a.url : b.url);
      expect(o.result.load.model === 'closed' && o.result.load.connections).toBe(o.coordinates.level);
    }
    const pt = comparisonPercentileTable(table, { protocol: 'http', level: 4 });
    expect(pt.columns).toEqual(['first', 'second']);
    expect(pt.rows.find((r) => r.percentile === 99)!.values.every((v) => v !== null && v >= 2)).toBe(true);
    const series = scalingSeries(table);
    expect(series.map((s) => s.points.map((p) => p.level))).toEqual([
      [1, 4],
      [1, 4],
    ]);
    const c4 = cellAt(table, { targetIndex: 0, protocol: 'http', level: 4 })!;
    expect(series[0]!.points[1]!.rps).toBe(c4.figures.rps!.mean);
  });

  it('stops mid-cell, keeping the finished cells and the partial one', async () => {
    const [a, b] = await twoServers();
    const plan = planFor(a, b, {
      levels: [2],
      repetitions: 3,
      load: { model: 'closed', limit: { kind: 'duration', seconds: 2 } },
      options: { sampleIntervalMs: 200 },
      pauseSeconds: 0.2,
    });
    let stopped = false;
    const { events, outcome } = await compare(plan, (e, stop) => {
      if (e.type === 'sample' && e.part === 2 && !stopped) {
        stopped = true;
        stop();
      }
    });
    expect(stopped).toBe(true);

    expect(outcome.status).toBe('cancelled');
    expect(outcome.outcomes.map((o) => o.cellIndex)).toEqual([0, 1, 2]);
    expect(outcome.outcomes.map((o) => o.result.status)).toEqual(['completed', 'completed', 'cancelled']);
    expect(outcome.outcomes[2]!.result.requests.total).toBeGreaterThan(0);
    expect(progressOf(events, 'pause').map((p) => p.type === 'pause' && p.next)).toEqual([1, 2]);
    expect(progressOf(events, 'part-started')).toHaveLength(3);
    // The partial cell stays out of the table: each target has one completed repetition.
    expect(outcome.table.cells.map((c) => [c.runs, c.skipped])).toEqual([
      [1, 1],
      [1, 0],
    ]);
  });

  it('checks each URL before the first cell: a self-signed https server and a closed port stop it before any load', async () => {
    const certs = endAfterAll()(makeTestCerts());
    const selfSigned = track(await startHttpServer(handlers.ok('secret'), { tls: certs.selfSigned }));
    const closed = `https://127.0.0.1:${await refusedPort()}/`;
    const plan = comparisonPlanSchema.parse({
      name: 'pre-flight',
      targets: [
        { name: 'self-signed', urls: { https: selfSigned.url } },
        { name: 'down', urls: { https: closed } },
      ],
      protocols: ['https'],
      load: { model: 'closed', limit: { kind: 'requests', count: 20 } },
      levels: [1, 2],
      repetitions: 2,
    });
    const { events, outcome } = await compare(plan);

    expect(outcome.status).toBe('failed');
    expect(outcome.outcomes).toEqual([]);
    expect(progressOf(events, 'part-started')).toHaveLength(0);
    // The handshake was refused before any request: no load reached the server.
    expect(selfSigned.requests).toBe(0);
    const [cert, down] = outcome.preflightFailures;
    expect(outcome.preflightFailures).toHaveLength(2);
    expect(cert).toMatchObject({
      url: selfSigned.url,
      protocol: 'http1.1',
      targets: ['self-signed'],
      kind: 'tls',
      fixes: ['turn-off-verification', 'choose-ca-file'],
    });
    expect(cert!.message).toContain('certificate is self-signed');
    expect(down).toMatchObject({ url: closed, targets: ['down'], kind: 'refused', fixes: [] });
    expect(progressOf(events, 'preflight-failed')[0]).toMatchObject({ failures: outcome.preflightFailures });

    // The first fix offered, verification off, lets the matrix run.
    const fixed = comparisonPlanSchema.parse({
      ...plan,
      targets: [plan.targets[0]!],
      levels: [1],
      repetitions: 1,
      options: { ...plan.options, tls: { ...plan.options.tls, verify: false } },
    });
    const { outcome: ran } = await compare(fixed);
    expect(ran.preflightFailures).toEqual([]);
    expect(ran.status).toBe('completed');
    expect(ran.outcomes[0]!.result.requests.ok).toBe(20);
  });
});
