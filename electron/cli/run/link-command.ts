/**
 * `trebuchet run --shard i/N --start-on stdin|job/NAME`: the process of a machine's shard
 * (link-end.ts) wired to its coordinator: its messages on stdout, the go from stdin or from its
 * Job's annotation, Ctrl-C or SIGTERM (a pod deleted) stopping its load. What it cannot do
 * (a file of the plan unreadable, no kubeconfig to watch its Job with) is said as a `failed`
 * message, in its own words, before it exits.
 */
import { DEFAULT_NAMESPACE } from '../../../shared/distributed/placement.ts';
import { messageLine, type FromShard } from '../../engine/shards/messages.ts';
import { buildRunSpec } from '../../engine/spec.ts';
import type { CliContext } from '../jobs.ts';
import { EXIT } from '../exit-codes.ts';
import type { Placed, ShardRequest } from './shard-flags.ts';
import { newRunId } from '../../jobs/ids.ts';
import { jobGo, stdinGo, type GoSource } from '../../distributed/go-sources.ts';
import { runLinkEnd } from '../../distributed/link-end.ts';

async function goSource(
  ctx: CliContext,
  start: ShardRequest['start'],
  stop: () => void,
  problem: (message: string) => void,
): Promise<GoSource> {
  if (start.kind === 'stdin') return stdinGo(ctx.stdin?.() ?? process.stdin, { stop, problem });
  if (start.kind !== 'job') throw new Error('a shard given --start-at starts on its own');
  const { kubeClient, kubeNamespace } = await import('../../distributed/kubernetes-client.ts');
  // In a pod, its own namespace (the service account's); by hand, the kubeconfig context's.
  return jobGo(kubeClient(null), kubeNamespace(null) ?? DEFAULT_NAMESPACE, start.job, problem);
}

export async function runLinkShard(ctx: CliContext, placed: Placed, request: ShardRequest): Promise<number> {
  const send = (m: FromShard): void => void ctx.stdout.write(messageLine(m));
  const built = await buildRunSpec(placed.scenario, 0, { runId: newRunId(), appVersion: ctx.appVersion });
  if (!built.ok) {
    const error = built.result.error ?? { kind: 'other' as const, message: 'the plan cannot be run' };
    send({ type: 'failed', message: error.message, kind: error.kind });
    return EXIT.failed;
  }
  const spec = { ...built.spec, placement: placed.placement };
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  const stopInterrupt = ctx.onInterrupt(stop);
  const problem = (m: string): void => void ctx.stderr.write(`trebuchet run: ${m}\n`);
  try {
    let go: GoSource;
    try {
      go = await goSource(ctx, request.start, stop, problem);
    } catch (e) {
      send({
        type: 'failed',
        message: `cannot wait for the go: ${e instanceof Error ? e.message : String(e)}`,
      });
      return EXIT.failed;
    }
    const outcome = await runLinkEnd(spec, {
      send,
      go,
      signal: controller.signal,
      problem,
      ...(request.readyFile === null ? {} : { readyFile: request.readyFile }),
    });
    return outcome === 'reported' ? EXIT.ok : outcome === 'stopped' ? EXIT.interrupted : EXIT.failed;
  } finally {
    stopInterrupt();
  }
}
