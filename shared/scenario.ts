import { z } from 'zod';
import { DEFAULTS, LIMITS } from './defaults.ts';

const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export const httpMethodSchema = z.enum(HTTP_METHODS);
export type HttpMethod = z.infer<typeof httpMethodSchema>;

const num = (name: string, lim: { min: number; max: number }) =>
  z
    .number({ error: `${name} must be a number` })
    .min(lim.min, `${name} must be at least ${lim.min}`)
    .max(lim.max, `${name} must be at most ${lim.max}`);

const int = (name: string, lim: { min: number; max: number }) =>
  num(name, lim).int(`${name} must be a whole number`);

export const targetUrlSchema = z.string().superRefine((value, ctx) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'URL is not valid (expected e.g. http://127.0.0.1:8080/)' });
    return;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    ctx.addIssue({
      code: 'custom',
      message: `URL must start with http:// or https:// (got ${url.protocol}//)`,
    });
  }
  if (url.username || url.password) {
    ctx.addIssue({ code: 'custom', message: 'URL must not carry credentials; use an Authorization header' });
  }
});

const headerNameSchema = z
  .string()
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'header name has characters HTTP does not allow');

export const headerSchema = z.object({
  name: headerNameSchema,
  value: z.string().regex(/^[^\r\n]*$/, 'header value must not contain line breaks'),
});
export type Header = z.infer<typeof headerSchema>;

export const bodySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  z.object({ kind: z.literal('text'), text: z.string() }),
  z.object({ kind: z.literal('file'), path: z.string().min(1, 'file path is empty') }),
]);
export type Body = z.infer<typeof bodySchema>;

export const targetSchema = z.object({
  name: z.string().max(200).default(''),
  url: targetUrlSchema,
  method: httpMethodSchema.default(DEFAULTS.method),
  headers: z.array(headerSchema).default([]),
  body: bodySchema.default({ kind: 'none' }),
});
export type Target = z.infer<typeof targetSchema>;

export const closedLimitSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('duration'), seconds: num('duration', LIMITS.durationSeconds) }),
  z.object({ kind: z.literal('requests'), count: int('requests', LIMITS.requests) }),
]);
export type ClosedLimit = z.infer<typeof closedLimitSchema>;

/** Closed model: N connections each sending the next request when the previous answer arrives (ab, wrk, JMeter threads). */
export const closedLoadSchema = z.object({
  model: z.literal('closed'),
  connections: int('connections', LIMITS.connections).default(DEFAULTS.closed.connections),
  /** Requests in flight per connection: HTTP/1.1 pipelining depth, or HTTP/2 concurrent streams. */
  pipelining: int('pipelining', LIMITS.pipelining).default(DEFAULTS.closed.pipelining),
  limit: closedLimitSchema.default({ kind: 'duration', seconds: DEFAULTS.closed.durationSeconds }),
  /** Optional cap on the closed loop's total rate (req/s); null = as fast as the server answers. */
  rate: num('rate', LIMITS.rate).nullable().default(null),
});
export type ClosedLoad = z.infer<typeof closedLoadSchema>;

/** Open model: requests start on a fixed schedule whatever the server does (vegeta -rate, wrk2 -R). */
export const openLoadSchema = z.object({
  model: z.literal('open'),
  rate: num('rate', LIMITS.rate).default(DEFAULTS.open.rate),
  durationSeconds: num('duration', LIMITS.durationSeconds).default(DEFAULTS.open.durationSeconds),
  maxInFlight: int('max in flight', LIMITS.maxInFlight).default(DEFAULTS.open.maxInFlight),
});
export type OpenLoad = z.infer<typeof openLoadSchema>;

export const loadSchema = z.discriminatedUnion('model', [closedLoadSchema, openLoadSchema]);
export type Load = z.infer<typeof loadSchema>;

export const protocolSchema = z.enum(['http1.1', 'h2']);
export type Protocol = z.infer<typeof protocolSchema>;

/** 'auto' picks the best runner for the protocol and model; the others force one. */
export const engineChoiceSchema = z.enum(['auto', 'autocannon', 'native']);
export type EngineChoice = z.infer<typeof engineChoiceSchema>;

/**
 * Engine worker threads a run's load is split across (wrk's and h2load's -t): a number, or
 * 'auto' for the machine's cores less one when the target is on the same machine.
 */
export const workersSchema = z.union([z.literal('auto'), int('workers', LIMITS.workers)], {
  error: `workers must be 'auto' or a whole number from ${LIMITS.workers.min} to ${LIMITS.workers.max}`,
});
export type Workers = z.infer<typeof workersSchema>;

export const tlsOptionsSchema = z.object({
  /** Verify the server certificate. Off = accept self-signed, expired or wrong-host certificates. */
  verify: z.boolean().default(DEFAULTS.tls.verify),
  /** PEM file with extra trusted CA certificates. */
  caFile: z.string().min(1).nullable().default(null),
  /** SNI server name (and name checked against the certificate); defaults to the URL's host. */
  servername: z.string().min(1).nullable().default(null),
});
export type TlsOptions = z.infer<typeof tlsOptionsSchema>;

export const thresholdMetricSchema = z.enum([
  'p50',
  'p90',
  'p95',
  'p99',
  'p99.9',
  'mean',
  'max',
  'errorRate',
  'rps',
]);
export type ThresholdMetric = z.infer<typeof thresholdMetricSchema>;

/** The unit a threshold's value is in: latency metrics in ms, errorRate in percent, rps in requests/s. */
export const THRESHOLD_UNITS: Readonly<Record<ThresholdMetric, 'ms' | '%' | 'req/s'>> = {
  p50: 'ms',
  p90: 'ms',
  p95: 'ms',
  p99: 'ms',
  'p99.9': 'ms',
  mean: 'ms',
  max: 'ms',
  errorRate: '%',
  rps: 'req/s',
};

/** A pass/fail rule, its value in the metric's THRESHOLD_UNITS. */
export const thresholdSchema = z.object({
  metric: thresholdMetricSchema,
  op: z.enum(['<', '<=', '>', '>=']),
  value: z.number({ error: 'threshold value must be a number' }).finite(),
});
export type Threshold = z.infer<typeof thresholdSchema>;

export const runOptionsSchema = z.object({
  keepAlive: z.boolean().default(DEFAULTS.keepAlive),
  protocol: protocolSchema.default(DEFAULTS.protocol),
  engine: engineChoiceSchema.default(DEFAULTS.engine),
  workers: workersSchema.default(DEFAULTS.workers),
  timeoutMs: int('timeout', LIMITS.timeoutMs).default(DEFAULTS.timeoutMs),
  warmupSeconds: num('warm-up', LIMITS.warmupSeconds).default(DEFAULTS.warmupSeconds),
  /** A response slower than this counts as a failure (JMeter's duration assertion). null = off. */
  sloMs: num('SLO', LIMITS.sloMs).nullable().default(null),
  thresholds: z.array(thresholdSchema).default([]),
  tls: tlsOptionsSchema.default({ verify: DEFAULTS.tls.verify, caFile: null, servername: null }),
  sampleIntervalMs: int('sample interval', LIMITS.sampleIntervalMs).default(DEFAULTS.sampleIntervalMs),
});
export type RunOptions = z.infer<typeof runOptionsSchema>;

export const SCENARIO_VERSION = 1;

export const scenarioSchema = z.object({
  version: z.literal(SCENARIO_VERSION).default(SCENARIO_VERSION),
  name: z.string().max(200).default('Untitled scenario'),
  targets: z.array(targetSchema).min(1, 'add at least one target'),
  load: loadSchema.default({
    model: 'closed',
    connections: DEFAULTS.closed.connections,
    pipelining: DEFAULTS.closed.pipelining,
    limit: { kind: 'duration', seconds: DEFAULTS.closed.durationSeconds },
    rate: null,
  }),
  options: runOptionsSchema.default(() => runOptionsSchema.parse({})),
});
/** A scenario as stored and sent: every default filled in. */
export type Scenario = z.infer<typeof scenarioSchema>;
/** A scenario as a person or a file may write it: defaults may be left out. */
export type ScenarioInput = z.input<typeof scenarioSchema>;

/** The display name of a target: its own name, else host:port/path of its URL. */
export function targetLabel(target: Pick<Target, 'name' | 'url'>): string {
  if (target.name.trim()) return target.name.trim();
  try {
    const u = new URL(target.url);
    return `${u.host}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return target.url;
  }
}
