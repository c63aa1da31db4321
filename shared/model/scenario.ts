import { z } from 'zod';
import { DEFAULTS, LIMITS } from './defaults.ts';
import { httpUrlSchema } from './http-url.ts';
import { monitorSchema } from './monitor.ts';
import { boundedInt, boundedNumber } from './number-schema.ts';
import { connectToListSchema, routeIssues, unixSocketSchema } from './route.ts';
import { requestListIssues } from './request-list.ts';
import { stagesSchema } from './stages.ts';

const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export const httpMethodSchema = z.enum(HTTP_METHODS);
export type HttpMethod = z.infer<typeof httpMethodSchema>;

const atMost = (what: string, max: number) => `${what} is longer than ${max} characters`;

/** The name of a scenario, a plan or a target (may be empty: a label is derived then). */
export const displayNameSchema = z.string().max(LIMITS.nameChars.max, atMost('name', LIMITS.nameChars.max));

export const targetUrlSchema = httpUrlSchema(
  'URL',
  'http://127.0.0.1:8080/',
  '; use an Authorization header',
);

const headerNameSchema = z
  .string()
  .max(LIMITS.headerNameChars.max, atMost('header name', LIMITS.headerNameChars.max))
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'header name has characters HTTP does not allow');

/**
 * What RFC 9110 allows in a field value (field-vchar, SP, HTAB; obs-text is 0x80-0xFF) and
 * Node's http accepts: visible Latin-1 characters, spaces and tabs. The first character
 * outside it, matched as a whole code point so the message can show it.
 */
const FIELD_VALUE_OUTSIDE = /[^\t\x20-\x7e\x80-\xff]/u;

/** The header value's first character HTTP does not allow, said so a person can find it. */
export function headerValueProblem(value: string): string | null {
  const m = FIELD_VALUE_OUTSIDE.exec(value);
  if (!m) return null;
  const char = m[0];
  if (char === '\r' || char === '\n') return 'header value must not contain line breaks';
  const code = `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  const shown = /\p{Cc}/u.test(char) ? `a control character (${code})` : `"${char}" (${code})`;
  return `header value has ${shown} at position ${m.index + 1}; HTTP allows visible Latin-1 characters, spaces and tabs only`;
}

export const headerSchema = z.strictObject({
  name: headerNameSchema,
  value: z
    .string()
    .max(LIMITS.headerValueChars.max, atMost('header value', LIMITS.headerValueChars.max))
    .superRefine((value, ctx) => {
      // A value past the length limit already has its issue; scanning megabytes says nothing new.
      if (value.length > LIMITS.headerValueChars.max) return;
      const problem = headerValueProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
});
export type Header = z.infer<typeof headerSchema>;

/** A target's headers: bounded in count and in size together, as a server bounds what it reads. */
const headersSchema = z
  .array(headerSchema)
  .max(LIMITS.headers.max, `a target has at most ${LIMITS.headers.max} headers`)
  .superRefine((headers, ctx) => {
    const chars = headers.reduce((n, h) => n + h.name.length + h.value.length, 0);
    if (chars > LIMITS.headerChars.max) {
      ctx.addIssue({
        code: 'custom',
        message: `the headers add up to ${chars} characters; at most ${LIMITS.headerChars.max}`,
      });
    }
  });

/** A path to a file the host reads (body, CA certificates). */
export const filePathSchema = z
  .string()
  .min(1, 'file path is empty')
  .max(LIMITS.pathChars.max, atMost('file path', LIMITS.pathChars.max));

/** The name of a file picked in the browser, as the person's machine named it (shown, never opened). */
const uploadNameSchema = z
  .string()
  .min(1, 'file name is empty')
  .max(LIMITS.nameChars.max, atMost('file name', LIMITS.nameChars.max));

const MAX_UPLOAD_BASE64 = Math.ceil(LIMITS.uploadBytes.max / 3) * 4;

export const bodySchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('none') }),
  z.strictObject({
    kind: z.literal('text'),
    text: z.string().max(LIMITS.textBodyChars.max, atMost('body text', LIMITS.textBodyChars.max)),
  }),
  z.strictObject({ kind: z.literal('file'), path: filePathSchema }),
  /** A file picked in the browser: its bytes travel in the scenario (base64), no path is read. */
  z.strictObject({
    kind: z.literal('upload'),
    name: uploadNameSchema,
    data: z
      .string()
      .max(MAX_UPLOAD_BASE64, `a file sent from the browser is at most ${LIMITS.uploadBytes.max} bytes`)
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'file content is not base64'),
  }),
]);
export type Body = z.infer<typeof bodySchema>;

/**
 * One request of a target's list (a line of vegeta's targets or http_load's url file): its
 * own method, URL, headers (over the target's) and body. A list may span up to
 * LIMITS.listOrigins origins, each with connections of its own (shared/model/request-list.ts).
 */
export const listRequestSchema = z.strictObject({
  method: httpMethodSchema.default(DEFAULTS.method),
  url: targetUrlSchema,
  headers: headersSchema.default([]),
  body: bodySchema.default({ kind: 'none' }),
});
export type ListRequest = z.infer<typeof listRequestSchema>;
export type ListRequestInput = z.input<typeof listRequestSchema>;

/** Which request of a list goes next: in turn (vegeta), or drawn with a seed (http_load). */
export const requestOrderSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('round-robin') }),
  z.strictObject({ kind: z.literal('random'), seed: boundedInt('seed', LIMITS.seed) }),
]);
export type RequestOrder = z.infer<typeof requestOrderSchema>;

export const targetSchema = z.strictObject({
  name: displayNameSchema.default(''),
  url: targetUrlSchema,
  method: httpMethodSchema.default(DEFAULTS.method),
  headers: headersSchema.default([]),
  body: bodySchema.default({ kind: 'none' }),
  /** How the server's CPU and memory are watched during the run (shared/model/monitor.ts). */
  monitor: monitorSchema.default({ kind: DEFAULTS.monitor.kind }),
  /**
   * curl's --connect-to rules (HOST:PORT:ADDRESS:PORT): the sockets go to the first match's
   * address while Host, SNI and the certificate check keep the URL's name (shared/model/route.ts).
   * Absent: none.
   */
  connectTo: connectToListSchema.optional(),
  /** A unix domain socket the requests go over (the URL still gives Host and path). Absent: TCP. */
  unixSocket: unixSocketSchema.optional(),
  /**
   * A list of requests the load spreads over, instead of one request (absent): each has its
   * own method, URL, headers and body; the target's headers go with every one.
   */
  requests: z
    .array(listRequestSchema)
    .min(1, 'a list of requests has one at least')
    .max(LIMITS.listRequests.max, `a list has at most ${LIMITS.listRequests.max} requests`)
    .optional(),
  /** The list's order; absent: round-robin. */
  order: requestOrderSchema.optional(),
});
export type Target = z.infer<typeof targetSchema>;

export const closedLimitSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('duration'), seconds: boundedNumber('duration', LIMITS.durationSeconds) }),
  z.strictObject({ kind: z.literal('requests'), count: boundedInt('requests', LIMITS.requests) }),
]);
export type ClosedLimit = z.infer<typeof closedLimitSchema>;

/** Closed model: N connections each sending the next request when the previous answer arrives (ab, wrk, JMeter threads). */
export const closedLoadSchema = z.strictObject({
  model: z.literal('closed'),
  connections: boundedInt('connections', LIMITS.connections).default(DEFAULTS.closed.connections),
  /** Requests in flight per connection: HTTP/1.1 pipelining depth, or HTTP/2 concurrent streams. */
  pipelining: boundedInt('pipelining', LIMITS.pipelining).default(DEFAULTS.closed.pipelining),
  limit: closedLimitSchema.default({ kind: 'duration', seconds: DEFAULTS.closed.durationSeconds }),
  /** Optional cap on the closed loop's total rate (req/s); null = as fast as the server answers. */
  rate: boundedNumber('rate', LIMITS.rate).nullable().default(null),
  /**
   * A staged load (shared/model/stages.ts, k6's ramping-vus), absent for a fixed level: the
   * connections follow the stages' targets and the stages set the run's length;
   * `connections` and `limit` are not used then.
   */
  stages: stagesSchema('connections').optional(),
});
export type ClosedLoad = z.infer<typeof closedLoadSchema>;

/** Open model: requests start on a fixed schedule whatever the server does (vegeta -rate, wrk2 -R). */
export const openLoadSchema = z.strictObject({
  model: z.literal('open'),
  rate: boundedNumber('rate', LIMITS.rate).default(DEFAULTS.open.rate),
  durationSeconds: boundedNumber('duration', LIMITS.durationSeconds).default(DEFAULTS.open.durationSeconds),
  maxInFlight: boundedInt('max in flight', LIMITS.maxInFlight).default(DEFAULTS.open.maxInFlight),
  /**
   * A staged load (shared/model/stages.ts, k6's ramping-arrival-rate), absent for a fixed rate: the
   * rate follows the stages' targets and the stages set the run's length; `rate` and
   * `durationSeconds` are not used then.
   */
  stages: stagesSchema('rate').optional(),
});

export const loadSchema = z.discriminatedUnion('model', [closedLoadSchema, openLoadSchema]);
export type Load = z.infer<typeof loadSchema>;
/** A load as flags or a file may give it: defaults may be left out. */
export type LoadInput = z.input<typeof loadSchema>;

export const protocolSchema = z.enum(['http1.1', 'h2']);
export type Protocol = z.infer<typeof protocolSchema>;

/** 'auto' is the native engine (it runs every model and protocol); 'autocannon' forces that one. */
export const engineChoiceSchema = z.enum(['auto', 'autocannon', 'native']);
export type EngineChoice = z.infer<typeof engineChoiceSchema>;

/** TLS versions as Node names them, oldest first. */
export const TLS_VERSIONS = ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'] as const;
export type TlsVersion = (typeof TLS_VERSIONS)[number];

/**
 * Engine worker threads a run's load is split across (wrk's and h2load's -t): a number, or
 * 'auto' for the machine's cores less one when the target is on the same machine.
 */
export const workersSchema = z.union([z.literal('auto'), boundedInt('workers', LIMITS.workers)], {
  error: `workers must be 'auto' or a whole number from ${LIMITS.workers.min} to ${LIMITS.workers.max}`,
});
export type Workers = z.infer<typeof workersSchema>;

export const tlsOptionsSchema = z
  .strictObject({
    /** Verify the server certificate. Off = accept self-signed, expired or wrong-host certificates. */
    verify: z.boolean().default(DEFAULTS.tls.verify),
    /** PEM file with extra trusted CA certificates. */
    caFile: filePathSchema.nullable().default(null),
    /** Or the same picked in the browser: its text travels in the scenario (absent: none). */
    caUpload: z
      .strictObject({
        name: uploadNameSchema,
        pem: z
          .string()
          .max(
            LIMITS.uploadBytes.max,
            `a file sent from the browser is at most ${LIMITS.uploadBytes.max} bytes`,
          ),
      })
      .optional(),
    /** SNI server name (and name checked against the certificate); defaults to the URL's host. */
    servername: z
      .string()
      .min(1, 'server name is empty')
      .max(LIMITS.servernameChars.max, atMost('server name', LIMITS.servernameChars.max))
      .nullable()
      .default(null),
    /**
     * The oldest TLS version offered. Node refuses TLS 1.0 and 1.1 by default; TLSv1 or
     * TLSv1.1 here allows them (with OpenSSL's security level 0, which their SHA-1 needs).
     */
    minVersion: z
      .enum(TLS_VERSIONS, { error: `TLS version must be one of ${TLS_VERSIONS.join(', ')}` })
      .default(DEFAULTS.tls.minVersion),
  })
  .superRefine((tls, ctx) => {
    if (tls.caFile !== null && tls.caUpload !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['caUpload'], message: 'give a CA file or pick one, not both' });
    }
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
export const thresholdSchema = z.strictObject({
  metric: thresholdMetricSchema,
  op: z.enum(['<', '<=', '>', '>=']),
  value: z.number({ error: 'threshold value must be a number' }).finite(),
});
export type Threshold = z.infer<typeof thresholdSchema>;

export const runOptionsSchema = z.strictObject({
  keepAlive: z.boolean().default(DEFAULTS.keepAlive),
  protocol: protocolSchema.default(DEFAULTS.protocol),
  engine: engineChoiceSchema.default(DEFAULTS.engine),
  workers: workersSchema.default(DEFAULTS.workers),
  timeoutMs: boundedInt('timeout', LIMITS.timeoutMs).default(DEFAULTS.timeoutMs),
  warmupSeconds: boundedNumber('warm-up', LIMITS.warmupSeconds).default(DEFAULTS.warmupSeconds),
  /** A response slower than this counts as a failure (JMeter's duration assertion). null = off. */
  sloMs: boundedNumber('SLO', LIMITS.sloMs).nullable().default(null),
  thresholds: z
    .array(thresholdSchema)
    .max(LIMITS.thresholds.max, `at most ${LIMITS.thresholds.max} thresholds`)
    .default([]),
  tls: tlsOptionsSchema.default({
    verify: DEFAULTS.tls.verify,
    caFile: null,
    servername: null,
    minVersion: DEFAULTS.tls.minVersion,
  }),
  sampleIntervalMs: boundedInt('sample interval', LIMITS.sampleIntervalMs).default(DEFAULTS.sampleIntervalMs),
  /**
   * The pre-flight's request answered outside 2xx/3xx (a wrong path, a missing login) stops
   * the run before its load. false = run anyway, for someone measuring error answers on
   * purpose (the verdict still says so). Absent in files saved before it: check.
   */
  checkStatus: z.boolean().default(DEFAULTS.checkStatus),
});
export type RunOptions = z.infer<typeof runOptionsSchema>;

export const SCENARIO_VERSION = 1;

/** The targets of a scenario or a comparison plan: one at least, LIMITS.targets at most. */
export function targetsSchema<T extends z.ZodType>(target: T) {
  return z
    .array(target)
    .min(1, 'add at least one target')
    .max(LIMITS.targets.max, `at most ${LIMITS.targets.max} targets`);
}

/** The name a scenario nobody named has (the CLI's without --name, the editor's first draft). */
export const UNTITLED_SCENARIO = 'Untitled scenario';

export const scenarioSchema = z
  .strictObject({
    version: z.literal(SCENARIO_VERSION).default(SCENARIO_VERSION),
    name: displayNameSchema.default(UNTITLED_SCENARIO),
    targets: targetsSchema(targetSchema),
    load: loadSchema.default({
      model: 'closed',
      connections: DEFAULTS.closed.connections,
      pipelining: DEFAULTS.closed.pipelining,
      limit: { kind: 'duration', seconds: DEFAULTS.closed.durationSeconds },
      rate: null,
    }),
    options: runOptionsSchema.default(() => runOptionsSchema.parse({})),
  })
  .superRefine((scenario, ctx) => {
    for (const issue of routeIssues(scenario.targets)) ctx.addIssue({ code: 'custom', ...issue });
    for (const issue of requestListIssues(scenario.targets, scenario.options.engine))
      ctx.addIssue({ code: 'custom', ...issue });
    // The stages start from 0; a warm-up before them would run at no level of the plan.
    if (scenario.load.stages && scenario.options.warmupSeconds > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['options', 'warmupSeconds'],
        message: 'a staged load has no separate warm-up: set it to 0 and let the first stage ramp up',
      });
    }
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
