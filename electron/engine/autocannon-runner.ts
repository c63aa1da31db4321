import { createRequire } from 'node:module';
import type { EventEmitter } from 'node:events';
import autocannon from 'autocannon';
import type { ClosedLoad } from '../../shared/model/scenario.ts';
import type { Warning } from '../../shared/model/result.ts';
import {
  bodyUntilClose,
  hookParser,
  PARSER_RESPONSE,
  parserIdle,
  type ParsedResponse,
  type ParserInternals,
} from './autocannon-parser.ts';
import { classifyError, type ClassifiedError } from './errors.ts';
import { headerObject } from './preflight.ts';
import { tlsVersionOptions } from './tls-version.ts';
import { emptyOutcome, type Runner, type RunnerContext, type RunnerOutcome } from './types.ts';

/*
 * The parts of autocannon 9's Client (lib/httpClient.js) this runner hooks (its parser's are
 * in autocannon-parser.ts). autocannon's own accounting is wrong exactly where a benchmark
 * needs it: a connection error or a server close re-connects without clearing the queue of
 * requests in flight (later responses are then timed against the wrong request, and the
 * queue grows), a request sent just as the server closed an idle keep-alive connection is
 * lost, a body delimited by the close (HTTP/1.0) never completes, the parser is not reset
 * after a broken response, a timeout counts `pipelining` errors even when nothing was in
 * flight, a HEAD response waits for a body that never comes, and every body is decoded into
 * a string. The hooks below complete a close-delimited body, send again what a clean close
 * left unprocessed (as the native engine and browsers do), count each other lost request
 * once, reset the parser, and count body bytes without decoding them.
 */
interface ClientInternals extends EventEmitter {
  timeout: number;
  destroyed: boolean;
  /** The current socket; absent until the first _connect(). */
  conn?: EventEmitter;
  parser: ParserInternals;
  pipelinedRequests: { size(): number; clear(): void };
  getRequestBuffer(): Buffer;
  destroy(): void;
  _connect: (this: ClientInternals) => void;
  _destroyConnection: (this: ClientInternals) => void;
  _doRequest: (this: ClientInternals, ...args: unknown[]) => void;
}

/** autocannon stops on its own timer; ours ends the run, so its timer only has to outlast any run. */
const AUTOCANNON_DURATION_S = 2_000_000;
/** autocannon's bookkeeping tick: after stop() it lingers at most this long. */
const AUTOCANNON_SAMPLE_MS = 100;
/** How long end() waits for autocannon's last tick before resolving anyway. */
const AUTOCANNON_WIND_DOWN_MS = 10 * AUTOCANNON_SAMPLE_MS;

const require = createRequire(import.meta.url);
const AUTOCANNON_VERSION = (require('autocannon/package.json') as { version: string }).version;

function assertInternals(client: ClientInternals): void {
  const missing = (['_connect', '_destroyConnection', '_doRequest', 'getRequestBuffer'] as const).filter(
    (k) => typeof client[k] !== 'function',
  );
  if (typeof client.pipelinedRequests?.size !== 'function') missing.push('pipelinedRequests' as never);
  if (
    typeof client.parser?.reinitialize !== 'function' ||
    typeof client.parser.consumeLine !== 'function' ||
    typeof client.parser.finish !== 'function'
  )
    missing.push('parser' as never);
  if (missing.length > 0) {
    throw new Error(
      `autocannon ${AUTOCANNON_VERSION} is not the version this runner was written for (missing ${missing.join(', ')})`,
    );
  }
}

interface ClientState extends ParsedResponse {
  /** Why the connection broke, set just before the connection is dropped or re-opened. */
  pendingError: ClassifiedError | null;
  /**
   * autocannon's next send would go out on a closing connection, or be one too many for a
   * fresh one that already sent its requests.
   */
  skipNextSend: boolean;
}

const CLOSED: ClassifiedError = {
  kind: 'reset',
  message: 'the server closed the connection before the response was complete',
};

/** What autocannon cannot do well for this load, said up front in the result. */
export function autocannonWarnings(load: ClosedLoad): Warning[] {
  const out: Warning[] = [];
  if (load.rate !== null) {
    const perConnection = load.rate / Math.min(load.connections, Math.floor(load.rate));
    out.push({
      code: 'engine-limit',
      message:
        `autocannon's rate limiter lets each connection send its share (${perConnection.toFixed(1)} req/s) back to back at the start of every second and then idle, so the load arrives in bursts rather than evenly spaced` +
        (load.pipelining > 1
          ? '; after its first pause a connection sends one request at a time, whatever the pipelining'
          : '') +
        (load.connections > load.rate
          ? `; it also cuts the connections to ${Math.floor(load.rate)} (one per req/s)`
          : '') +
        (Number.isInteger(load.rate / Math.min(load.connections, load.rate))
          ? ''
          : "; each connection's share is rounded down to whole requests per second") +
        '. Its own coordinated-omission correction assumes an interval of Math.ceil(1/rate) ms (1 ms at any rate of 1 req/s or more), so it is not used: latencies are service times. For an even schedule use the open model (native engine).',
    });
  }
  return out;
}

/**
 * Closed model over autocannon: `connections` connections, `pipelining` requests in flight
 * on each, for a duration or a total request count, optionally capped in rate. Each
 * response's latency (process.hrtime from the write to the last byte, sub-microsecond) goes
 * into our Recorder; autocannon's own histograms and statistics are ignored.
 * TLS: autocannon never verifies certificates (it forces rejectUnauthorized off), so the
 * pre-flight does.
 */
export class AutocannonRunner implements Runner {
  readonly name = 'autocannon' as const;
  readonly version = AUTOCANNON_VERSION;

  run(ctx: RunnerContext): Promise<RunnerOutcome> {
    const { spec, recorder, signal } = ctx;
    const load = spec.load;
    if (load.model !== 'closed') return Promise.reject(new Error('autocannon runs the closed model only'));
    return new Promise<RunnerOutcome>((resolve, reject) => {
      const outcome = emptyOutcome({ warnings: autocannonWarnings(load) });
      const clients: ClientInternals[] = [];
      const states = new Map<ClientInternals, ClientState>();
      const bodyLength = spec.body?.length ?? 0;
      const isHead = spec.target.method === 'HEAD';
      const countLimit = load.limit.kind === 'requests' ? load.limit.count : null;
      // Requests the count limit still allows; unlimited during the warm-up.
      let budget = countLimit !== null && ctx.warmupSeconds <= 0 ? countLimit : Infinity;
      let sentAgainstBudget = 0;
      let requestBytes = -1;
      let ended = false;
      let durationTimer: NodeJS.Timeout | undefined;
      // autocannon's callback: after stop() its last tick compresses its own histograms
      // (zlib). The worker is terminated once our result is posted, and terminating it in the
      // middle of that compression aborts the whole process (Node asserts "close before init").
      let autocannonFinished: () => void = () => undefined;
      const finished = new Promise<void>((r) => (autocannonFinished = r));

      const lose = (client: ClientInternals, error: ClassifiedError): void => {
        const lost = client.pipelinedRequests.size();
        for (let i = 0; i < lost; i++) recorder.error(error.kind, error.message);
        recorder.inFlight -= lost;
        client.pipelinedRequests.clear();
        client.parser.reinitialize(PARSER_RESPONSE);
      };

      /**
       * Accounts for the connection a client is about to replace. A body delimited by the
       * close completes now. Requests a clean close left unanswered, on a connection that had
       * answered (so the server is up, and closed between responses: its keep-alive limit or
       * idle timeout), were never processed: the new connection sends them again, so they
       * are taken off the books here. Anything else unanswered is lost with the reason.
       */
      const settleConnection = (
        client: ClientInternals,
        st: ClientState,
        why: ClassifiedError | null,
      ): void => {
        const parser = client.parser;
        if (why === null && bodyUntilClose(parser)) {
          // autocannon sends its next request right after the response: not on this socket.
          st.closeAfter = false;
          st.skipNextSend = true;
          parser.finish();
          st.skipNextSend = false;
          parser.reinitialize(PARSER_RESPONSE);
        }
        const unanswered = client.pipelinedRequests.size();
        if (
          unanswered > 0 &&
          st.responses > 0 &&
          parserIdle(parser) &&
          (why === null || why.kind === 'reset')
        ) {
          recorder.inFlight -= unanswered;
          sentAgainstBudget -= unanswered;
          client.pipelinedRequests.clear();
        }
        lose(client, why ?? CLOSED);
        st.bodyBytes = 0;
        st.responses = 0;
      };

      const end = (): void => {
        if (ended) return;
        ended = true;
        clearTimeout(durationTimer);
        signal.removeEventListener('abort', end);
        // Destroyed clients drop what is in flight; recorder.inFlight keeps it for the report.
        for (const c of clients) c.destroy();
        outcome.loadEndedAt = performance.now();
        instance.stop();
        const windDown = setTimeout(autocannonFinished, AUTOCANNON_WIND_DOWN_MS);
        void finished.then(() => {
          clearTimeout(windDown);
          resolve(outcome);
        });
      };

      const maybeFinishCount = (): void => {
        if (countLimit !== null && sentAgainstBudget >= budget && recorder.inFlight <= 0) end();
      };

      const setupClient = (raw: unknown): void => {
        const client = raw as ClientInternals;
        assertInternals(client);
        // autocannon takes whole seconds; its timer is created after this hook, with this value.
        client.timeout = spec.options.timeoutMs;
        clients.push(client);
        const st: ClientState = {
          pendingError: null,
          bodyBytes: 0,
          closeAfter: false,
          responses: 0,
          skipNextSend: false,
        };
        states.set(client, st);
        const timeoutError: ClassifiedError = {
          kind: 'timeout',
          message: `no response within ${spec.options.timeoutMs} ms`,
        };

        client.on('request', () => {
          if (requestBytes < 0) requestBytes = client.getRequestBuffer().length;
          recorder.started();
          recorder.sent(bodyLength, requestBytes);
          sentAgainstBudget++;
        });
        client.on('response', (status: number, resBytes: number, durationMs: number) => {
          recorder.inFlight--;
          recorder.response(status, durationMs * 1000, st.bodyBytes, resBytes);
          recorder.noteDocument(null, st.bodyBytes);
          st.bodyBytes = 0;
          if (st.closeAfter) {
            // The server closes after this answer (e.g. nginx at keepalive_requests). autocannon
            // would send the next request on the closing connection and lose it; like wrk, open
            // a new connection first, which sends again what was pipelined behind this answer.
            st.closeAfter = false;
            client._connect();
            st.skipNextSend = true;
          }
          if (countLimit !== null) maybeFinishCount();
        });
        client.on('connError', (err: unknown) => {
          st.pendingError = classifyError(err);
        });

        const connect = client._connect;
        const destroyConnection = client._destroyConnection;
        client._connect = function (this: ClientInternals) {
          // Reached after a connection error, a close by the server, a timeout or a broken
          // response (autocannon's first call, from its constructor, has no connection yet).
          if (this.conn !== undefined) {
            const why = st.pendingError;
            st.pendingError = null;
            settleConnection(this, st, why);
            // Without its listeners: a late 'error' or 'end' of the old socket cannot reconnect again.
            destroyConnection.call(this);
          }
          connect.call(this);
        };
        client._destroyConnection = function (this: ClientInternals) {
          // Outside destroy() (end of run) autocannon only drops a connection on its timeout.
          if (!this.destroyed) lose(this, st.pendingError ?? timeoutError);
          st.pendingError = null;
          destroyConnection.call(this);
        };
        const doRequest = client._doRequest;
        client._doRequest = function (this: ClientInternals, ...args: unknown[]) {
          if (st.skipNextSend) {
            st.skipNextSend = false;
            return;
          }
          if (ended || sentAgainstBudget >= budget) {
            maybeFinishCount();
            return;
          }
          doRequest.apply(this, args);
        };
      };

      let instance: autocannon.Instance;
      try {
        instance = autocannon(
          {
            url: spec.target.url,
            connections: load.connections,
            pipelining: load.pipelining,
            method: spec.target.method,
            headers: headerObject(spec.target.headers),
            ...(spec.body
              ? { body: Buffer.from(spec.body.buffer, spec.body.byteOffset, spec.body.byteLength) }
              : {}),
            duration: AUTOCANNON_DURATION_S,
            timeout: Math.max(1, Math.ceil(spec.options.timeoutMs / 1000)),
            sampleInt: AUTOCANNON_SAMPLE_MS,
            ...(load.rate !== null ? { overallRate: load.rate } : {}),
            ...(spec.options.tls.servername ? { servername: spec.options.tls.servername } : {}),
            tlsOptions: { ALPNProtocols: ['http/1.1'], ...tlsVersionOptions(spec.options.tls.minVersion) },
            setupClient,
          },
          (err: Error | null) => {
            autocannonFinished();
            if (err && !ended) {
              ended = true;
              reject(err);
            }
          },
        );
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      if (ended) return;

      // The clients exist now (autocannon builds them synchronously); no byte has arrived yet.
      for (const client of clients) {
        const outstanding = (): number => client.pipelinedRequests.size();
        hookParser(client.parser, states.get(client)!, { isHead, outstanding }, (message) => {
          if (client.destroyed) return;
          lose(client, { kind: 'protocol', message: `invalid HTTP response: ${message}` });
          client._connect();
        });
      }

      if (signal.aborted) end();
      else signal.addEventListener('abort', end, { once: true });

      void ctx.warmupDone.then(() => {
        if (ended) return;
        if (countLimit !== null) {
          // Warm-up requests still in flight finish inside the measured part: they use up budget.
          budget = Math.max(0, countLimit - recorder.inFlight);
          sentAgainstBudget = 0;
          maybeFinishCount();
        } else if (load.limit.kind === 'duration') {
          durationTimer = setTimeout(end, load.limit.seconds * 1000);
        }
      });
    });
  }
}
