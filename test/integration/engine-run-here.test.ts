/**
 * A tiny run's engine in the caller's thread (electron/engine/run-here.ts, the CLI's only):
 * the same result as in an engine worker, and a CPU figure that stays the engine's own: what
 * the host does on the thread meanwhile (its sample callbacks) is charged to the host's
 * account, which the engine's meter leaves out.
 */
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../../shared/model/result.ts';
import type { ScenarioInput } from '../../shared/model/scenario.ts';
import { CpuAccount, cpuClock } from '../../electron/engine/cpu.ts';
import { startRun } from '../../electron/engine/run.ts';
import { startRunHere } from '../../electron/engine/run-here.ts';
import { isTinyLoad, TINY_RUN_REQUESTS } from '../../electron/jobs/target-run.ts';
import { oneTarget, runSpecFixture } from '../helpers/engine.ts';

let server: Server;
let url = '';
beforeAll(async () => {
  // Each answer 60 ms late: a run of a few requests spans several 100 ms ticks.
  server = createServer((_req, res) => void setTimeout(() => res.end('ok'), 60));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

/** Keys of an object, nested, as paths (arrays by their first element). */
function shapeOf(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.length > 0 ? shapeOf(value[0], `${path}[]`) : [`${path}[]`];
  if (value === null || typeof value !== 'object') return [path];
  return Object.entries(value).flatMap(([k, v]) => shapeOf(v, `${path}.${k}`));
}

/** Spends `micros` of this thread's CPU. */
function burn(micros: number): void {
  const start = cpuClock();
  for (;;) {
    const now = cpuClock();
    if (now.user - start.user + (now.system - start.system) >= micros) return;
  }
}

describe('a tiny run in this thread', () => {
  it('a tiny load is a closed loop of at most TINY_RUN_REQUESTS requests, no rate, no stages', () => {
    const load = (over: NonNullable<ScenarioInput['load']>) =>
      runSpecFixture(oneTarget(url, { load: over })).load;
    expect(isTinyLoad(load({ model: 'closed', limit: { kind: 'requests', count: 1 } }))).toBe(true);
    expect(isTinyLoad(load({ model: 'closed', limit: { kind: 'requests', count: TINY_RUN_REQUESTS } }))).toBe(
      true,
    );
    expect(
      isTinyLoad(load({ model: 'closed', limit: { kind: 'requests', count: TINY_RUN_REQUESTS + 1 } })),
    ).toBe(false);
    expect(isTinyLoad(load({ model: 'closed', rate: 10, limit: { kind: 'requests', count: 1 } }))).toBe(
      false,
    );
    expect(isTinyLoad(load({ model: 'closed', limit: { kind: 'duration', seconds: 1 } }))).toBe(false);
    expect(isTinyLoad(load({ model: 'open', rate: 10, durationSeconds: 1 }))).toBe(false);
  });

  it('gives the result an engine worker gives: same fields, counts and samples; the host hears each sample on a later turn, as a copy', async () => {
    const spec = runSpecFixture(
      oneTarget(url, { load: { model: 'closed', connections: 2, limit: { kind: 'requests', count: 8 } } }),
    );
    const heard: Sample[] = [];
    const here = await startRunHere(spec, { onSample: (s) => heard.push(s) }, new CpuAccount()).done;
    const worker = await startRun(spec).done;
    expect(here.status).toBe('completed');
    expect(worker.status).toBe('completed');
    expect(shapeOf(here).sort()).toEqual(shapeOf(worker).sort());
    expect(here.requests).toEqual(worker.requests);
    expect(here.statusCodes).toEqual(worker.statusCodes);
    expect(here.samples).toEqual(heard);
    expect(here.samples.at(-1)?.final).toBe(true);
    expect(here.generator.workers).toHaveLength(1);
    expect(here.generator.cpuScope).toBe(worker.generator.cpuScope);
  });

  it("leaves the host's work out of the engine's CPU figure", async () => {
    // 20 answers over 2 connections, 60 ms each: about 0.6 s, 100 ms ticks.
    const spec = runSpecFixture(
      oneTarget(url, {
        load: { model: 'closed', connections: 2, limit: { kind: 'requests', count: 20 } },
        options: { sampleIntervalMs: 100 },
      }),
    );
    const hostCpu = new CpuAccount();
    const result = await startRunHere(spec, { onSample: () => burn(40_000) }, hostCpu).done;
    expect(result.status).toBe('completed');
    const ticks = result.samples.filter((s) => !s.final).length;
    expect(ticks).toBeGreaterThanOrEqual(2);
    // The host spent 40 ms of CPU on every sample, charged to its account...
    expect(hostCpu.seconds).toBeGreaterThanOrEqual(0.04 * result.samples.length);
    // ...of which the engine's CPU-seconds hold none: it waits on the server most of the time.
    const engineSeconds = result.samples.reduce(
      (a, s) => a + ((s.cpuPercent ?? 0) / 100) * s.intervalSeconds,
      0,
    );
    expect(engineSeconds).toBeLessThan(hostCpu.seconds / 2);
  });

  it('turns an error thrown on the thread during the run into a failed result, as a worker crash is, and the process lives on', () => {
    const out = execFileSync(
      process.execPath,
      [resolve(import.meta.dirname, '../helpers/run-here-crash.ts')],
      {
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    expect(JSON.parse(out)).toEqual({ status: 'failed', error: 'engine crashed: thrown from a handler' });
  });
});
