import { createRequire } from 'node:module';
import type { EventEmitter } from 'node:events';
import autocannon from 'autocannon';
import { ClientReader } from './parser.ts';
import { autocannonWarnings } from './warnings.ts';
import { classifyError, type ClassifiedError } from '../errors.ts';
import { autocannonRoute } from './route.ts';
import { http1Request, notSentWarnings } from '../native/request-bytes.ts';
import { tlsVersionOptions } from '../tls-version.ts';
import { emptyOutcome, type LoadGenerator, type LoadGeneratorContext, type LoadOutcome } from '../types.ts';
import type { ClosedLoad } from '../../../shared/model/scenario.ts';

/*
 * The parts of autocannon 9's Client (lib/httpClient.js) this load generator hooks (its parser is
 * replaced: parser.ts). autocannon's own accounting is wrong exactly where a
 * benchmark needs it: a connection error or a server close re-connects without clearing the
 * queue of requests in flight (later responses are then timed against the wrong request, and
 * the queue grows), a request sent just as the server closed an idle keep-alive connection is
 * lost, a timeout counts `pipelining` errors even when nothing was in flight, and it sends the
 * next request from inside the read that answered the last, before the rest of that read is
 * parsed. The hooks below send autocannon's request bytes from the engine's builder (what the
 * pre-flight sent), hold sends asked for during a read until its end (as the native engine
 * does), complete a close-delimited body, send again what a clean close left unprocessed (as
 * the native engine and browsers do), count each other lost request once, and count a
 * response that answered no request apart, replacing its connection.
 */
interface ClientInternals extends EventEmitter {
  timeout: number;
  destroyed: boolean;
  /** The current socket; absent until the first _connect(). */
  conn?: EventEmitter & { write(bytes: Uint8Array): boolean };
  parser: unknown;
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
  if (typeof (client.parser as { execute?: unknown } | undefined)?.execute !== 'function')
    missing.push('parser' as never);
  if (missing.length > 0) {
    throw new Error(
      `autocannon ${AUTOCANNON_VERSION} is not the version this load generator was written for (missing ${missing.join(', ')})`,
    );
  }
}

interface ClientState {
  reader: ClientReader;
  /** Why the connection broke, set just before the connection is dropped or re-opened. */
  pendingError: ClassifiedError | null;
  /**
   * autocannon's next send would go out on a closing connection, or be one too many for a
   * fresh one that already sent its requests.
   */
  skipNextSend: boolean;
  /** Sends autocannon asked for during a read, made when it ends. */
  deferred: number;
  /** The response autocannon is told of next: its bytes, and whether the server closes after it. */
  bodyBytes: number;
  totalBytes: number;
  closeAfter: boolean;
  /** Final responses completed on the current connection. */
  responses: number;
  /** A read found a response to no request: the connection is replaced when the read ends. */
  replace: boolean;
  /** A closing connection is being settled: a response it completes does not reconnect. */
  settling: boolean;
}

const CLOSED: ClassifiedError = {
  kind: 'reset',
  message: 'the server closed the connection before the response was complete',
};

/**
 * Closed model over autocannon: `connections` connections, `pipelining` requests in flight
 * on each, for a duration or a total request count, optionally capped in rate. Each
 * response's latency (process.hrtime from the write to the last byte, sub-microsecond) goes
 * into our Recorder; autocannon's own histograms and statistics are ignored.
 * TLS: autocannon never verifies certificates (it forces rejectUnauthorized off), so the
 * pre-flight does.
 */
export class AutocannonLoadGenerator implements LoadGenerator {
  readonly name = 'autocannon' as const;
  readonly version = AUTOCANNON_VERSION;

  run(ctx: LoadGeneratorContext): Promise<LoadOutcome> {
    const load = ctx.spec.load;
    if (load.model !== 'closed') return Promise.reject(new Error('autocannon runs the closed model only'));
    // autocannon sends as soon as it is made: it is made at the common start.
    return ctx.startGate().then(() => this.#attack(ctx, load));
  }

  #attack(ctx: LoadGeneratorContext, load: ClosedLoad): Promise<LoadOutcome> {
    const { spec, recorder, signal } = ctx;
    return new Promise<LoadOutcome>((resolve, reject) => {
      const request = http1Request(spec.target, spec.body, {
        keepAlive: spec.options.keepAlive,
        appVersion: spec.appVersion,
      });
      const outcome = emptyOutcome({
        warnings: [...autocannonWarnings(load), ...notSentWarnings(request.notSent)],
      });
      const clients: ClientInternals[] = [];
      const isHead = spec.target.method === 'HEAD';
      const countLimit = load.limit.kind === 'requests' ? load.limit.count : null;
      // Requests the count limit still allows; unlimited during the warm-up.
      let budget = countLimit !== null && ctx.warmupSeconds <= 0 ? countLimit : Infinity;
      let sentAgainstBudget = 0;
      let ended = false;
      let durationTimer: NodeJS.Timeout | undefined;
      // autocannon's callback: after stop() its last tick compresses its own histograms
      // (zlib). The worker is terminated once our result is posted, and terminating it in the
      // middle of that compression aborts the whole process (Node asserts "close before init").
      let autocannonFinished: () => void = () => undefined;
      const finished = new Promise<void>((r) => (autocannonFinished = r));

      /**
       * Takes the connection's unanswered requests off the books: lost, failing with `error`,
       * or (error null) never processed, so the next connection sends them again.
       */
      const drop = (client: ClientInternals, st: ClientState, error: ClassifiedError | null): void => {
        const n = client.pipelinedRequests.size();
        if (error === null) sentAgainstBudget -= n;
        else for (let i = 0; i < n; i++) recorder.error(error.kind, error.message);
        recorder.inFlight -= n;
        client.pipelinedRequests.clear();
        st.reader.dropped();
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
        const parser = st.reader.parser;
        if (why === null) {
          // autocannon sends its next request right after the response: not on this socket.
          st.settling = true;
          st.skipNextSend = true;
          parser.finish();
          st.settling = false;
          st.skipNextSend = false;
        }
        if (
          client.pipelinedRequests.size() > 0 &&
          st.responses > 0 &&
          parser.idle &&
          (why === null || why.kind === 'reset')
        ) {
          drop(client, st, null);
        }
        drop(client, st, why ?? CLOSED);
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

      /** What a read brought: the sends it held back go out, or the connection is replaced. */
      const readEnded = (client: ClientInternals, st: ClientState, error: string | null): void => {
        const held = st.deferred;
        st.deferred = 0;
        if (client.destroyed || ended) return;
        if (error !== null) {
          // The requests written fail with it (with none, it answered nothing); a new connection sends anew.
          if (client.pipelinedRequests.size() === 0) recorder.unsolicited();
          drop(client, st, { kind: 'protocol', message: `invalid HTTP response: ${error}` });
          client._connect();
        } else if (st.replace) {
          st.replace = false;
          drop(client, st, null);
          client._connect();
        } else {
          for (let i = 0; i < held; i++) client._doRequest();
        }
      };

      const setupClient = (raw: unknown): void => {
        const client = raw as ClientInternals;
        assertInternals(client);
        // autocannon takes whole seconds; its timer is created after this hook, with this value.
        client.timeout = spec.options.timeoutMs;
        // The engine's request (the pre-flight's bytes), not autocannon's own build of it.
        client.getRequestBuffer = () => request.bytes;
        clients.push(client);
        const st: ClientState = {
          reader: new ClientReader(
            { headRequests: isHead, outstanding: () => client.pipelinedRequests.size() },
            {
              answered: (_status, bodyBytes, totalBytes, close) => {
                st.responses++;
                st.bodyBytes = bodyBytes;
                st.totalBytes = totalBytes;
                st.closeAfter = close && !st.settling;
              },
              unsolicited: () => {
                // The run is over: the rest of its last read goes unread, as in the native engine.
                if (ended) return;
                recorder.unsolicited();
                st.replace = true;
              },
              readEnded: (error) => readEnded(client, st, error),
            },
          ),
          pendingError: null,
          skipNextSend: false,
          deferred: 0,
          bodyBytes: 0,
          totalBytes: 0,
          closeAfter: false,
          responses: 0,
          replace: false,
          settling: false,
        };
        // autocannon sets its handlers on the parser after this hook: on the shim.
        client.parser = st.reader.shim;
        const timeoutError: ClassifiedError = {
          kind: 'timeout',
          message: `no response within ${spec.options.timeoutMs} ms`,
        };

        client.on('request', () => {
          recorder.started();
          recorder.sent(request.bodyBytes, request.length);
          sentAgainstBudget++;
        });
        client.on('response', (status: number, _bytes: number, durationMs: number) => {
          recorder.inFlight--;
          recorder.response(status, durationMs * 1000, st.bodyBytes, st.totalBytes);
          recorder.noteDocument(null, st.bodyBytes);
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
          // Reached after a connection error, a close by the server, a timeout, a broken
          // response or one to no request (autocannon's first call, from its constructor,
          // has no connection yet).
          if (this.conn !== undefined) {
            const why = st.pendingError;
            st.pendingError = null;
            settleConnection(this, st, why);
            // Without its listeners: a late 'error' or 'end' of the old socket cannot reconnect again.
            destroyConnection.call(this);
          }
          st.reader.replaced();
          connect.call(this);
        };
        client._destroyConnection = function (this: ClientInternals) {
          // Outside destroy() (end of run) autocannon only drops a connection on its timeout.
          if (!this.destroyed) drop(this, st, st.pendingError ?? timeoutError);
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
          if (st.reader.reading) {
            st.deferred++;
            return;
          }
          const queued = this.pipelinedRequests.size();
          doRequest.apply(this, args);
          // Not sent when autocannon's rate limiter holds it back.
          if (this.pipelinedRequests.size() === queued) return;
          st.reader.wrote();
          // A large body goes right after the head, shared, never copied into a request buffer.
          if (request.body !== null) this.conn?.write(request.body);
        };
      };

      const route = autocannonRoute(spec);
      let instance: autocannon.Instance;
      try {
        instance = autocannon(
          {
            ...route,
            connections: load.connections,
            pipelining: load.pipelining,
            // The bytes sent are the engine's (getRequestBuffer above): no headers or body here,
            // so autocannon keeps no copy of the body per connection.
            method: spec.target.method,
            duration: AUTOCANNON_DURATION_S,
            timeout: Math.max(1, Math.ceil(spec.options.timeoutMs / 1000)),
            sampleInt: AUTOCANNON_SAMPLE_MS,
            ...(load.rate !== null ? { overallRate: load.rate } : {}),
            tlsOptions: {
              ALPNProtocols: ['http/1.1'],
              ...(route.servername === undefined ? {} : { servername: route.servername }),
              ...tlsVersionOptions(spec.options.tls.minVersion),
            },
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
