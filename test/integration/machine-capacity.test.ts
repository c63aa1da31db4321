/**
 * Issue 32's capacity search on this machine: with CPU hogs running it never calls a break
 * of the busy machine the server's (it waits for calm, measures again, and says no quiet step
 * could be had); without them, two searches in a row give answers that agree within a step
 * when both are the server's. The machine is shared: a search may find it busy with others'
 * work too, and then says so, which these tests accept and check (see machine.test.ts).
 * Tagged `timing`, as machine.test.ts's: they run alone, their hogs slowing no other test.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { capacityPlanSchema, capacityStepSchema } from '../../shared/capacity/plan.ts';
import { capacityReports, type SearchReport } from '../../shared/capacity/report.ts';
import { endAfterAll, endAfterEach } from '../helpers/cleanup.ts';
import { runCli } from '../helpers/cli.ts';
import { MACHINE_ON, startCpuHogs } from '../helpers/cpu-hogs.ts';
import { startNginx, type NginxServer } from '../helpers/nginx.ts';

const endAll = endAfterAll();
const endEach = endAfterEach();
let dir: string;
let nginx: NginxServer;

/**
 * About 20 KB of text: half a millisecond of gzip -9 each, so one worker holds under 2,000
 * req/s, where a step measures a p99's 1,000 requests in its 0.5 s (at 40 KB it held 875-1,000
 * and every step was lengthened toward them: 25 s a search).
 */
const PAGE = Array.from({ length: 750 }, (_, i) => `line ${i} of the page, ${(i * 7919) % 1000}`).join('\n');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'trebuchet-machine-capacity-'));
  endAll({ remove: () => rmSync(dir, { recursive: true, force: true }) });
  nginx = endAll(await startNginx({ workers: 1, gzip: true, files: { 'page.txt': PAGE } }));
  expect((await runCli(['--version'], { env: MACHINE_ON })).code).toBe(0);
});

/** One search of the page, its report and what the CLI said while it ran. */
async function search(name: string): Promise<{ report: SearchReport; stderr: string; stdout: string }> {
  const json = join(dir, `${name}.json`);
  const r = await runCli(
    [
      'capacity',
      `nginx=${nginx.httpUrl}page.txt`,
      // From 400 req/s: below what nginx holds here with room for a machine half as fast;
      // steps under 2,000 req/s are lengthened toward a p99's 1,000 requests (2.5 s at 400).
      ...['-H', 'Accept-Encoding: gzip', '--p99', '50', '--start-rate', '400', '--max-rate', '12800'],
      ...['--step', '0.5s', '--warmup', '0.2', '--json', json],
    ],
    // A search is a dozen steps of 1-3 s, and up to three waits of four steps' time at a rate.
    { env: MACHINE_ON, timeoutMs: 240_000 },
  );
  expect([0, 1], r.stderr).toContain(r.code);
  const file = JSON.parse(readFileSync(json, 'utf8')) as { plan: unknown; steps: unknown[] };
  const plan = capacityPlanSchema.parse(file.plan);
  const steps = file.steps.map((s) => capacityStepSchema.parse(s));
  return { report: capacityReports(plan, steps, null)[0]!, stderr: r.stderr, stdout: r.stdout };
}

/** No break the search counted was measured on a busy machine. */
function expectNoBusyBreak(report: SearchReport): void {
  for (const s of report.steps) {
    if (s.judgement.kind === 'broke')
      expect(s.result.verdict?.state, `${s.rate} req/s`).not.toBe('machine-busy');
  }
}

describe('trebuchet capacity on a busy machine', () => {
  it(
    'with CPU hogs running, waits for calm, measures again, and says its answer is not the server’s',
    { tags: ['timing'] },
    async () => {
      // Bounded well past the search: they are stopped as soon as it ends.
      const hogs = await startCpuHogs([0, 1], 300);
      for (const h of hogs) endEach(h);
      const { report, stderr, stdout } = await search('hogs');
      for (const h of hogs) await h.stop();
      expectNoBusyBreak(report);
      const busy = report.steps.filter((s) => s.judgement.kind === 'machine-busy');
      expect(busy.length).toBeGreaterThan(0);
      // Each busy step named the hogs' work, and the search waited before measuring its rate again.
      expect(stderr).toMatch(
        /^nginx: the machine was busy at [\d,]+ req\/s: waiting up to 3 s for it to calm/m,
      );
      expect(busy[0]!.result.machine!.otherProcesses.some((p) => hogs.some((h) => h.pid === p.pid))).toBe(
        true,
      );
      // The hogs stayed: no quiet step could be had at that rate, and the answer says so.
      expect(report.answer?.stop).toBe('machine-busy');
      expect(report.answer?.message).toMatch(
        /(^not the server's: |, so not the server's ).*no quiet step could be had$/,
      );
      expect(stdout).toMatch(
        /(\(the machine was busy at [\d,]+ req\/s\)|not measured \(the machine was busy\)) at p99 < 50 ms$/m,
      );
    },
  );

  it(
    'without hogs, twice in a row: answers that agree within a step when both are the server’s',
    { tags: ['timing'] },
    async () => {
      const first = await search('quiet-1');
      const second = await search('quiet-2');
      for (const { report } of [first, second]) {
        expectNoBusyBreak(report);
        if (report.answer?.stop === 'machine-busy')
          expect(report.answer.message).toContain("not the server's");
      }
      const [a, b] = [first.report.answer!, second.report.answer!];
      if (a.stop === 'converged' && b.stop === 'converged') {
        // Halfway between agreeing and the error this guards against: a break the machine caused,
        // read as the server's, halves the answer (two hogs leave nginx half the CPU), while the
        // server's own capacity moves a few percent between two quiet searches (1,950 and 2,100
        // req/s here, 7 %; at 40 KB, 5 % in a quiet CI). So: within a quarter of the larger
        // answer, and never closer than the wider of the two last steps demands.
        const step = Math.max(a.limitRate! - a.heldRate!, b.limitRate! - b.heldRate!);
        const larger = Math.max(a.heldRate!, b.heldRate!);
        expect(Math.abs(a.heldRate! - b.heldRate!)).toBeLessThanOrEqual(Math.max(step, larger / 4));
      } else {
        // Not both the server's: the machine (others' work) or the client was the limit, and each answer says so.
        for (const x of [a, b])
          expect(['converged', 'machine-busy', 'client-limit', 'max-rate']).toContain(x.stop);
      }
    },
  );
});
