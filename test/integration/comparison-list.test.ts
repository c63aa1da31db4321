import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkTarget } from '../../electron/engine/preflight/target-check.ts';
import { comparisonRunner } from '../../electron/jobs/comparison.ts';
import { startTarget } from '../../electron/jobs/target-run.ts';
import { comparisonPlanSchema } from '../../shared/comparison/plan.ts';
import { runWith } from '../helpers/jobs.ts';
import { startHttpServer, type TestServer } from '../helpers/servers.ts';

/*
 * A comparison whose target holds a list: the cell runs the list on the real engine, at the
 * cell's server (the list was written for another port), round-robin.
 */

let server: TestServer;
const perPath = new Map<string, number>();

beforeAll(async () => {
  server = await startHttpServer((req, res) => {
    perPath.set(req.url ?? '', (perPath.get(req.url ?? '') ?? 0) + 1);
    res.end('ok');
  });
});
afterAll(() => server?.close());

describe('a comparison target with a list of requests', () => {
  it('each cell sends the list to its own server, each request as often', async () => {
    const plan = comparisonPlanSchema.parse({
      name: 'list',
      targets: [
        {
          name: 'local',
          urls: { http: server.url },
          requests: ['/a', '/b', '/c'].map((p) => ({ url: `http://127.0.0.1:9${p}` })),
        },
      ],
      load: { model: 'closed', limit: { kind: 'requests', count: 90 } },
      levels: [3],
      repetitions: 1,
      pauseSeconds: 0,
      options: { warmupSeconds: 0 },
    });
    const { results, status } = await runWith(
      comparisonRunner,
      plan,
      { start: startTarget },
      { checkTarget: (scenario, signal) => checkTarget(scenario, { appVersion: '0.0.0-test', signal }) },
    );
    expect(status).toBe('completed');
    expect(results).toHaveLength(1);
    expect(results[0]!.result.error).toBeNull();
    expect(results[0]!.result.requests.ok).toBe(90);
    // 30 each from the load; one each from the comparison's pre-flight and one from the cell run's.
    expect(Object.fromEntries(perPath)).toEqual({ '/a': 32, '/b': 32, '/c': 32 });
  });
});
