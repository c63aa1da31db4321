/*
 * `--out prometheus-rw=URL`: Prometheus remote write 1.0 (a snappy-compressed protobuf
 * WriteRequest over HTTP POST), through the prometheus-remote-write package (protobufjs and
 * snappyjs with Prometheus's remote.proto). Each push is bounded in time; the answer decides
 * what the queue does (push-queue.ts): 2xx delivered, 4xx but 429 refused for good (the spec's
 * "do not retry"), anything else tried again.
 */
import { pushTimeseries } from 'prometheus-remote-write';
import { remoteWriteSeries } from '../../shared/metrics/prometheus-series.ts';
import { RefusedPushError, SlowPushError, type PushWriter } from './push-queue.ts';

/** Of an endpoint's error answer, this much is kept in the warning. */
const ANSWER_CHARS = 200;

/** The queue's writer for one remote write endpoint, and what ends a push still in flight. */
export function remoteWriteWriter(
  url: string,
  opts: { timeoutMs: number; userAgent: string },
): { write: PushWriter; close: () => Promise<void> } {
  const closing = new AbortController();
  const write: PushWriter = async (batch) => {
    let answer: Awaited<ReturnType<typeof pushTimeseries>>;
    try {
      answer = await pushTimeseries(remoteWriteSeries(batch), {
        url,
        headers: {
          'Content-Encoding': 'snappy',
          'X-Prometheus-Remote-Write-Version': '0.1.0',
          'User-Agent': opts.userAgent,
        },
        // Node's own fetch, bounded in time (the package's default is node-fetch, not a dependency here).
        fetch: async (target, init) => {
          const response = await fetch(target, {
            method: init?.method,
            headers: init?.headers,
            // snappyjs's compressed bytes (typed loosely by the package).
            body: init?.body ? new Uint8Array(init.body) : null,
            signal: AbortSignal.any([AbortSignal.timeout(opts.timeoutMs), closing.signal]),
          });
          return { status: response.status, statusText: response.statusText, text: () => response.text() };
        },
      });
    } catch (error) {
      if (error instanceof Error && error.name === 'TimeoutError') {
        throw new SlowPushError(`no answer within ${opts.timeoutMs / 1000} s`, { cause: error });
      }
      throw new Error(reasonOf(error), { cause: error });
    }
    const { status } = answer;
    if (status >= 200 && status < 300) return;
    const why = `HTTP ${status}${answer.errorMessage ? `: ${answer.errorMessage.trim().slice(0, ANSWER_CHARS)}` : ''}`;
    if (status >= 400 && status < 500 && status !== 429) throw new RefusedPushError(why);
    throw new Error(why);
  };
  return {
    write,
    close: () => {
      closing.abort(new Error('the metrics out was closed'));
      return Promise.resolve();
    },
  };
}

/** A failed fetch's reason: undici's "fetch failed" hides it in the cause (ECONNREFUSED 127.0.0.1:9). */
export function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (cause instanceof Error) {
    const code = (cause as Error & { code?: unknown }).code;
    return typeof code === 'string' && !cause.message.includes(code)
      ? `${code}: ${cause.message}`
      : cause.message;
  }
  return error.message;
}
