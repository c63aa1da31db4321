import { z } from 'zod';

/*
 * The pieces of a result that a shard's report (shared/shards/merge.ts) is made of too, apart
 * so that a result can carry a shard's report without an import circle. result.ts re-exports them.
 */

/**
 * Why a request failed, vegeta-style. Transport failures have a kind of their own;
 * 'refused-stream' and 'goaway' are HTTP/2 requests the server would not process (refused
 * again after one retry, or cut off when it closed the connection);
 * 'slo' is a response that arrived but slower than the scenario's SLO (JMeter's rule);
 * 'status' is the pre-flight's request answered outside 2xx/3xx (the run stops before its load).
 * A load's HTTP status codes are counted in statusCodes, never here.
 */
export const ERROR_KINDS = [
  'refused',
  'dns',
  'timeout',
  'reset',
  'tls',
  'protocol',
  'refused-stream',
  'goaway',
  'slo',
  'status',
  'other',
] as const;
export const errorKindSchema = z.enum(ERROR_KINDS);
export type ErrorKind = z.infer<typeof errorKindSchema>;

export const ERROR_KIND_LABELS: Record<ErrorKind, string> = {
  refused: 'connection refused',
  dns: 'DNS lookup failed',
  timeout: 'timed out',
  reset: 'connection reset',
  tls: 'TLS error',
  protocol: 'protocol error',
  'refused-stream': 'stream refused by the server (HTTP/2)',
  goaway: 'cut off by GOAWAY (HTTP/2)',
  slo: 'slower than the SLO',
  status: 'answered with an error status',
  other: 'other error',
};

const count = z.number().int().nonnegative();

export const errorEntrySchema = z.strictObject({
  kind: errorKindSchema,
  count: count,
  /** The first message seen for this kind, for the report's Error Set. */
  message: z.string(),
});
export type ErrorEntry = z.infer<typeof errorEntrySchema>;

export const tlsFactsSchema = z.strictObject({
  protocol: z.string().nullable(),
  cipher: z.string().nullable(),
  alpn: z.string().nullable(),
  /** True when the certificate chain and host name were checked and accepted. */
  verified: z.boolean(),
  /** Why the certificate would be rejected (when verification was off or failed). */
  authorizationError: z.string().nullable(),
  /**
   * The key exchange's ephemeral key (ab's "Server Temp Key"), e.g. X25519 of 253 bits (bits
   * null for a group Node gives no size for, such as the hybrid X25519MLKEM768). Absent in
   * results saved before it existed.
   */
  ephemeralKey: z.strictObject({ name: z.string(), bits: count.nullable() }).nullable().optional(),
});
export type TlsFacts = z.infer<typeof tlsFactsSchema>;

/**
 * Per-request timing phases. setup = dns + connect + tls (ab's "Connect" row, 0 on a reused
 * keep-alive connection) and processing = total - setup (ab's "Processing" row); waiting runs
 * from the request written to the first response byte (ab's "Waiting").
 */
export const PHASES = [
  'dns',
  'connect',
  'tls',
  'setup',
  'waiting',
  'transfer',
  'processing',
  'total',
] as const;
export type Phase = (typeof PHASES)[number];

export const warningSchema = z.strictObject({
  code: z.enum([
    'generator-saturated',
    'tls-not-verified',
    'closed-loop-latency',
    'in-flight-at-end',
    'engine-limit',
    'rate-not-reached',
    'client-limit',
    /** Live metrics (docs/metrics.md) that did not reach an endpoint, or could not be served: never the figures'. */
    'metrics-not-delivered',
    'other',
  ]),
  message: z.string(),
});
export type Warning = z.infer<typeof warningSchema>;

/** A result's request counts. */
export const requestCountsSchema = z.strictObject({
  /** Every request that finished: responses plus transport errors. */
  total: count,
  /** Responses received (any status). */
  responses: count,
  /** Responses with status 200-399 and within the SLO: the success ratio's numerator. */
  ok: count,
  /** Responses outside 2xx (ab's "Non-2xx responses"). */
  non2xx: count,
  /** Transport errors (no response): refused, reset, timeout, TLS, ... */
  errors: count,
  /** Responses slower than the SLO. */
  sloExceeded: count,
  /**
   * Responses whose body length differs from the document length (the first measured
   * response's): ab's "Length" failures. Absent in results of engines or app versions that
   * did not count it.
   */
  lengthMismatch: count.optional(),
  /**
   * Responses that answered no request: a second answer to one request, an answer that came
   * before its request was written, HTTP/2 frames on a stream already answered. The
   * server's protocol error, counted apart: never in total, errors or the success ratio.
   * Absent in results saved before it was counted.
   */
  unsolicited: count.optional(),
  /** Sent but unanswered when the run ended; reported, not hidden. */
  inFlightAtEnd: count,
  /** Open model: requests that missed their scheduled send time, and ones never sent. */
  late: count.nullable(),
  dropped: count.nullable(),
});

/** A result's byte counts. */
export const byteCountsSchema = z.strictObject({
  /** Everything received: status lines, headers and bodies (ab's "Total transferred"). */
  inTotal: count,
  /** Response bodies only (ab's "HTML transferred", vegeta's "Bytes In"). */
  inBody: count,
  /** Request bodies sent (vegeta's "Bytes Out"). */
  outBody: count,
  /** Everything sent, headers included. */
  outTotal: count,
});

/**
 * The open model's warm phase (native engine, keep-alive on): before the first scheduled send
 * the engine opened the connections the rate needs (HTTP/2: its sessions) and completed their
 * TLS handshakes, sending nothing. Its time is not part of the run's measured time.
 */
export const warmFactsSchema = z.strictObject({
  /** How long it took (the slowest engine worker's), seconds; the schedule's clock started after it. */
  seconds: z.number().nonnegative(),
  /** Connections (HTTP/2: sessions) the pool was sized for, over every engine worker. */
  wanted: z.number().int().nonnegative(),
  /** Of them, open (TLS handshake done) before the first send. */
  ready: z.number().int().nonnegative(),
  /** The pre-flight request's round trip the pool was sized from, ms; null when not measured. */
  roundTripMs: z.number().nonnegative().nullable(),
  /** A machine's shard of a plan (--shard): the plan's common start ended it before every connection opened. */
  cutAtStart: z.literal(true).optional(),
});
export type WarmFacts = z.infer<typeof warmFactsSchema>;
