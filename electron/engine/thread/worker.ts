import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { describeIssues, issuesOf } from '../../../shared/model/validation.ts';
import { executeRun } from '../execute.ts';
import { toWorkerSchema, runSpecSchema, type WorkerMessage } from './messages.ts';

/*
 * The engine worker: one per target run, running it (execute.ts) off the host's event loop. It
 * posts one Sample per tick and, at the end, the RunResult without its samples (the host has
 * them). The host may post { type: 'stop' } at any time; the run then ends within a tick,
 * marked cancelled.
 */

function post(port: MessagePort, message: WorkerMessage): void {
  port.postMessage(message);
}

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('worker.ts runs as a worker thread only');
  const parsed = runSpecSchema.safeParse(workerData);
  if (!parsed.success) throw new Error(`run spec is invalid: ${describeIssues(issuesOf(parsed.error))}`);
  const controller = new AbortController();
  port.on('message', (raw: unknown) => {
    if (toWorkerSchema.safeParse(raw).success) controller.abort();
  });
  const { samples: _sent, ...result } = await executeRun(parsed.data, controller.signal, (sample) =>
    post(port, { type: 'sample', sample }),
  );
  post(port, { type: 'result', result });
  port.close();
}

await main();
