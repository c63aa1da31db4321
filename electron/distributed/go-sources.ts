/**
 * Where a machine's shard (link-end.ts) hears the common start: a `start` message on its stdin
 * (a local process its coordinator started), or the `trebuchet.dev/go` annotation of its Job (a
 * pod: the coordinator sets it once every pod is ready, or a person does, `kubectl annotate`).
 */
import { describeIssues, issuesOf } from '../../shared/model/validation.ts';
import { GO_ANNOTATION } from '../../shared/distributed/manifests.ts';
import { rfc3339Ms } from '../../shared/shards/start-time.ts';
import { toShardSchema } from '../engine/shards/messages.ts';
import type { KubeClient } from './kubernetes-client.ts';
import { MessageLines } from './message-lines.ts';

export interface GoSource {
  /** Starts listening: `go` hears the common start (epoch ms), once. Returns how to stop listening. */
  follow(on: { go: (at: number) => void }): () => void;
}

/**
 * The coordinator's messages on stdin: `start` is the go, `stop` stops the load, and the
 * stream's end (the coordinator gone) stops it too, so no shard outlives its coordinator.
 */
export function stdinGo(
  input: NodeJS.ReadableStream,
  on: { stop(): void; problem(message: string): void },
): GoSource {
  return {
    follow({ go }) {
      const lines = new MessageLines({
        line: (text) => {
          let value: unknown;
          try {
            value = JSON.parse(text);
          } catch {
            on.problem(`not a coordinator's message: ${text.slice(0, 120)}`);
            return;
          }
          const parsed = toShardSchema.safeParse(value);
          if (!parsed.success)
            on.problem(`not a coordinator's message: ${describeIssues(issuesOf(parsed.error))}`);
          else if (parsed.data.type === 'start') go(parsed.data.at);
          else on.stop();
        },
        broken: (reason) => {
          on.problem(`stdin ${reason}`);
          on.stop();
        },
      });
      const data = (chunk: Buffer | string): void => lines.push(chunk);
      const end = (): void => on.stop();
      input.on('data', data);
      input.on('end', end);
      input.on('error', end);
      return () => {
        input.off('data', data);
        input.off('end', end);
        input.off('error', end);
        // Let the process end: nothing more is read.
        (input as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      };
    },
  };
}

/** The Job's go annotation, watched: its time is the common start. */
export function jobGo(
  client: KubeClient,
  namespace: string,
  job: string,
  problem: (message: string) => void,
): GoSource {
  return {
    follow({ go }) {
      let said = '';
      return client.watchJob(
        namespace,
        job,
        (annotations) => {
          const value = annotations[GO_ANNOTATION];
          if (value === undefined || value === said) return;
          said = value;
          const at = rfc3339Ms(value);
          if (at === null)
            problem(
              `the Job's ${GO_ANNOTATION} annotation "${value.slice(0, 60)}" is not an RFC 3339 time: waiting for one`,
            );
          else go(at);
        },
        (message) =>
          problem(`watching Job ${namespace}/${job} for its ${GO_ANNOTATION} annotation: ${message}`),
      );
    },
  };
}
