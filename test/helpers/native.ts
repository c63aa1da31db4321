/**
 * Helpers for the load generators' tests: run one in-process against a Recorder (no worker, no
 * pre-flight), and servers with the behaviours those tests need (a periodic stall, HTTP/2
 * with GOAWAY).
 */
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import type net from 'node:net';
import { nativeLoadGenerator } from '../../electron/engine/native/load-generator.ts';
import { Recorder } from '../../electron/engine/recording/recorder.ts';
import type { LoadGenerator, LoadOutcome } from '../../electron/engine/types.ts';
import type { ScenarioInput } from '../../shared/model/scenario.ts';
import { runSpecFixture } from './engine.ts';

export interface NativeRun {
  recorder: Recorder;
  outcome: LoadOutcome;
  /** Wall-clock seconds the load generator took. */
  seconds: number;
  /** Seconds from the load generator's start to the load's end (its summary work after that left out). */
  loadSeconds: number;
  /** Seconds from the load's start (the load generator's start gate, its set-up done) to its end. */
  drivenSeconds: number;
  /** How long the warm-up really lasted (its timer may fire late on a busy machine); null without one. */
  warmupSeconds: number | null;
}

export interface InProcessOptions {
  /** The PEM text the host would read from caFile. */
  ca?: string;
  warmupSeconds?: number;
  signal?: AbortSignal;
  body?: Uint8Array;
}

/** Runs the scenario's first target through the native load generator in this process (see runInProcess). */
export function runNative(input: ScenarioInput, opts: InProcessOptions = {}): Promise<NativeRun> {
  return runInProcess(nativeLoadGenerator, input, opts);
}

/**
 * Runs the scenario's first target through a load generator in this process, ticking the recorder
 * as the worker would, without the worker's pre-flight: the server sees the load only.
 */
export async function runInProcess(
  generator: LoadGenerator,
  input: ScenarioInput,
  opts: InProcessOptions = {},
): Promise<NativeRun> {
  const spec = runSpecFixture(input, {
    runId: 'native-test',
    ...(opts.body ? { body: opts.body } : {}),
    ca: opts.ca ?? null,
  });
  const warmupSeconds = opts.warmupSeconds ?? 0;
  let warmupEndedAt: number | null = null;
  const t0 = performance.now();
  const recorder = new Recorder({ sloMs: spec.options.sloMs, warmup: warmupSeconds > 0, now: t0 });
  const ticker = setInterval(() => recorder.tick(performance.now()), 200);
  let gateAt = t0;
  let warmupTimer: NodeJS.Timeout | undefined;
  const warmupDone =
    warmupSeconds > 0
      ? new Promise<void>((resolve) => {
          warmupTimer = setTimeout(() => {
            warmupEndedAt = performance.now();
            recorder.tick(warmupEndedAt);
            recorder.startMeasuring();
            resolve();
          }, warmupSeconds * 1000);
        })
      : Promise.resolve();
  try {
    const outcome = await generator.run({
      spec,
      recorder,
      signal: opts.signal ?? new AbortController().signal,
      warmupSeconds,
      warmupDone,
      startGate: () => {
        gateAt = performance.now();
        return Promise.resolve();
      },
    });
    const end = performance.now();
    recorder.tick(end);
    return {
      recorder,
      outcome,
      seconds: (end - t0) / 1000,
      loadSeconds: ((outcome.loadEndedAt ?? end) - t0) / 1000,
      drivenSeconds: ((outcome.loadEndedAt ?? end) - gateAt) / 1000,
      warmupSeconds: warmupEndedAt === null ? null : (warmupEndedAt - t0) / 1000,
    };
  } finally {
    clearInterval(ticker);
    clearTimeout(warmupTimer);
  }
}

/** Latency percentile of the whole run in ms. */
export function percentileMs(recorder: Recorder, p: number): number {
  return recorder.histogram.getValueAtPercentile(p) / 1000;
}

/**
 * An HTTP server that pauses like a stop-the-world GC: for `stallMs` at the start of every
 * `periodMs`, nothing is answered; requests arriving then are answered when the pause ends.
 */
export async function startStallServer(
  stallMs: number,
  periodMs: number,
): Promise<{ url: string; requests: () => number; close(): Promise<void> }> {
  const start = performance.now();
  let requests = 0;
  const server = http.createServer((_req, res) => {
    requests++;
    const phase = (performance.now() - start) % periodMs;
    const answer = () => {
      res.writeHead(200, { 'content-length': 2 });
      res.end('ok');
    };
    if (phase < stallMs) setTimeout(answer, stallMs - phase);
    else answer();
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface H2Server {
  url: string;
  /** HTTP/2 sessions (connections) accepted. */
  readonly sessions: number;
  /** Streams answered with a complete response. */
  readonly answered: number;
  /** GOAWAY frames sent. */
  readonly goaways: number;
  close(): Promise<void>;
}

/**
 * A Node HTTP/2 server: h2 over TLS (ALPN) when given a certificate, h2c (prior knowledge)
 * without. With goawayAfter, each session answers that many streams, then sends GOAWAY
 * naming the last one it processed and closes; streams the client opened past it are
 * refused, unanswered, as nginx does at keepalive_requests.
 */
export async function startH2Server(
  opts: { tls?: { key: string; cert: string }; goawayAfter?: number; body?: string; server?: string } = {},
): Promise<H2Server> {
  const body = Buffer.from(opts.body ?? 'hello h2');
  const software = opts.server ?? 'node-h2-test';
  const counts = { sessions: 0, answered: 0, goaways: 0 };
  const server = opts.tls
    ? http2.createSecureServer({ key: opts.tls.key, cert: opts.tls.cert })
    : http2.createServer();
  const sockets = new Set<net.Socket>();
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('session', (session: http2.ServerHttp2Session) => {
    counts.sessions++;
    let streams = 0;
    let closing = false;
    session.on('error', () => undefined);
    session.on('stream', (stream, headers) => {
      stream.on('error', () => undefined);
      if (closing) {
        stream.close(http2.constants.NGHTTP2_REFUSED_STREAM);
        return;
      }
      streams++;
      const last = opts.goawayAfter !== undefined && streams >= opts.goawayAfter;
      stream.respond({ ':status': 200, 'content-length': body.length, server: software });
      stream.end(headers[':method'] === 'HEAD' ? undefined : body, () => counts.answered++);
      if (last) {
        closing = true;
        counts.goaways++;
        session.goaway(http2.constants.NGHTTP2_NO_ERROR, stream.id);
        // Let the last answers go out, then close as nginx does.
        setTimeout(() => session.close(), 20);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${opts.tls ? 'https' : 'http'}://127.0.0.1:${port}/`,
    get sessions() {
      return counts.sessions;
    },
    get answered() {
      return counts.answered;
    },
    get goaways() {
      return counts.goaways;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
