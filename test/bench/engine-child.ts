/**
 * One scenario run as a run job (electron/jobs/run.ts, as the hosts run it) in a process of
 * its own, for the `rss` section: the process's peak resident set (which bash's `times`, the
 * CPU figure every other section takes from the CLI's whole process, does not give).
 * Argument: a JSON ScenarioInput with one target. Prints one JSON line (RssOutcome).
 */
import { runRunner } from '../../electron/jobs/run.ts';
import { startTarget } from '../../electron/jobs/target-run.ts';
import type { RunResult } from '../../shared/model/result.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';

export interface RssOutcome {
  status: RunResult['status'];
  error: string | null;
  requests: number;
  /** Peak resident set size of this process, KiB. */
  maxRssKiB: number;
}

const scenario = scenarioSchema.parse(JSON.parse(process.argv[2] ?? ''));
let r: RunResult | undefined;
// A host would send these events on.
const run = runRunner.start(
  scenario,
  (event) => {
    if (event.type === 'result') r ??= event.result;
  },
  {
    jobId: 'run-bench',
    appVersion: 'bench',
    startTarget,
    checkTarget: () => Promise.resolve({ ok: true }),
  },
);
await run.done;
if (!r) throw new Error('the run returned no result');
const outcome: RssOutcome = {
  status: r.status,
  error: r.error?.message ?? null,
  requests: r.requests.total,
  maxRssKiB: process.resourceUsage().maxRSS,
};
process.stdout.write(`${JSON.stringify(outcome)}\n`);
process.exit(0);
