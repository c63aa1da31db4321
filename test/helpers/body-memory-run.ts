/**
 * A child process for the body-memory test: runs a scenario's first target through the
 * engine as a host does (body file read on the host, load in a worker thread) and prints the
 * run's figures and the process's peak resident memory as JSON. A process of its own, so its
 * peak is the run's alone.
 */
import { startRun } from '../../electron/engine/run.ts';
import { buildRunSpec } from '../../electron/engine/spec.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';

const scenario = scenarioSchema.parse(JSON.parse(process.argv[2]!));
const built = await buildRunSpec(scenario, 0, { runId: 'body-memory', appVersion: '0.0.0-test' });
const result = built.ok ? await startRun(built.spec).done : built.result;
process.stdout.write(
  JSON.stringify({
    status: result.status,
    error: result.error,
    total: result.requests.total,
    ok: result.requests.ok,
    outBody: result.bytes.outBody,
    // resourceUsage() gives kilobytes.
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
  }),
);
process.exit(0);
