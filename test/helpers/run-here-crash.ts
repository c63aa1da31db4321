/**
 * A child process for the run-here test: a tiny run in this thread (run-here.ts) during which
 * an error escapes a callback, as one thrown from an engine socket's handler would. Prints the
 * run's status and error as JSON and exits 0: the process must outlive the error.
 */
import { createServer } from 'node:http';
import { CpuAccount } from '../../electron/engine/cpu.ts';
import { startRunHere } from '../../electron/engine/run-here.ts';
import { oneTarget, runSpecFixture } from './engine.ts';

// Each answer 100 ms late, so the error below falls inside the run.
const server = createServer((_req, res) => void setTimeout(() => res.end('ok'), 100));
await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
const spec = runSpecFixture(
  oneTarget(url, { load: { model: 'closed', connections: 1, limit: { kind: 'requests', count: 5 } } }),
);
const run = startRunHere(spec, {}, new CpuAccount());
setTimeout(() => {
  throw new Error('thrown from a handler');
}, 150);
const result = await run.done;
process.stdout.write(JSON.stringify({ status: result.status, error: result.error?.message ?? null }));
process.exit(0);
