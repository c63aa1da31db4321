import { z } from 'zod';
import { DEFAULTS, LIMITS } from '../model/defaults.ts';
import { boundedInt, boundedNumber } from '../model/number-schema.ts';
import { originOf, requestListIssues } from '../model/request-list.ts';
import { routeIssues } from '../model/route.ts';
import { comparisonReportSchema } from './report-settings.ts';
import {
  displayNameSchema,
  loadSchema,
  runOptionsSchema,
  targetLabel,
  targetSchema,
  targetsSchema,
  targetUrlSchema,
  type Load,
} from '../model/scenario.ts';

/*
 * A comparison: targets x load levels x protocols x repetitions, run one cell after another.
 * This module holds its plan: the schema, the protocols and URLs of each target, the levels.
 * Its cells and events are in shared/comparison/cells.ts, the statistics over repetitions in
 * shared/comparison/stats.ts, the test of two sets of repetitions in shared/comparison/noise.ts, the tables
 * and series the report draws in shared/comparison/table.ts. Pure: no Node, DOM or Electron.
 */

/**
 * How a cell reaches its target. `http`: HTTP/1.1 over TCP; `https`: HTTP/1.1 over TLS;
 * `h2`: HTTP/2 over TLS (ALPN). Each target names the URL to use for each protocol, since
 * servers usually listen on different ports for http and https (seed 000: :81 and :4431).
 */
export const PROTOCOL_VARIANTS = ['http', 'https', 'h2'] as const;
export const protocolVariantSchema = z.enum(PROTOCOL_VARIANTS);
export type ProtocolVariant = z.infer<typeof protocolVariantSchema>;

const schemeUrl = (scheme: 'http:' | 'https:', variant: ProtocolVariant) =>
  targetUrlSchema.refine(
    (u) => {
      // A URL that is not http(s) at all already has targetUrlSchema's message.
      const protocol = URL.canParse(u) ? new URL(u).protocol : null;
      return (protocol !== 'http:' && protocol !== 'https:') || protocol === scheme;
    },
    { message: `the ${variant} URL must start with ${scheme}//` },
  );

/**
 * Per-protocol URLs of one target. `h2` may be left out when the https URL's server also
 * speaks HTTP/2 (one TLS port offering both through ALPN, the usual setup): it then
 * defaults to the https URL.
 */
export const targetUrlsSchema = z.strictObject({
  http: schemeUrl('http:', 'http').optional(),
  https: schemeUrl('https:', 'https').optional(),
  h2: schemeUrl('https:', 'h2').optional(),
});

/**
 * A server under comparison: a target whose URL depends on the protocol. Its list of requests
 * (if any) is written for one server and goes to each cell's (requestsAt).
 */
export const comparisonTargetSchema = targetSchema.omit({ url: true }).extend({
  urls: targetUrlsSchema,
});
export type ComparisonTarget = z.infer<typeof comparisonTargetSchema>;

/** What a level sets: connections for the closed model (ab -c), the rate for the open model (vegeta -rate). */
export type LevelKind = 'connections' | 'rate';

export function levelKindOf(load: Pick<Load, 'model'>): LevelKind {
  return load.model === 'closed' ? 'connections' : 'rate';
}

/** "c=100" for connections, "100 req/s" for a rate. */
export function levelLabel(kind: LevelKind, level: number): string {
  return kind === 'connections' ? `c=${level}` : `${level} req/s`;
}

export const COMPARISON_PLAN_VERSION = 1;

export const comparisonPlanSchema = z
  .strictObject({
    version: z.literal(COMPARISON_PLAN_VERSION).default(COMPARISON_PLAN_VERSION),
    name: displayNameSchema.default('Untitled comparison'),
    targets: targetsSchema(comparisonTargetSchema),
    /** Protocols every target is measured with. */
    protocols: z.array(protocolVariantSchema).min(1, 'pick at least one protocol').default(['http']),
    /** The load of every cell; each level replaces its connections (closed) or rate (open). */
    load: loadSchema,
    /** Connections (closed model) or requests per second (open model), one cell per level. */
    levels: z
      .array(z.number({ error: 'level must be a number' }))
      .min(1, 'add at least one load level')
      .max(LIMITS.levels.max, `at most ${LIMITS.levels.max} load levels`),
    repetitions: boundedInt('repetitions', LIMITS.repetitions).default(DEFAULTS.comparison.repetitions),
    /** Idle time between cells, so the server settles (TIME_WAIT sockets, GC) before the next one. */
    pauseSeconds: boundedNumber('pause', LIMITS.pauseSeconds).default(DEFAULTS.comparison.pauseSeconds),
    /**
     * Options of every cell. The protocol is set per cell; warmupSeconds is each cell's
     * warm-up (every cell opens fresh connections, so each one warms up on its own).
     */
    options: runOptionsSchema
      .omit({ protocol: true })
      .default(() => runOptionsSchema.omit({ protocol: true }).parse({})),
    /** Layout and matrix columns of the report; absent: planReport()'s default for the load. */
    report: comparisonReportSchema.optional(),
  })
  .superRefine((plan, ctx) => {
    for (const issue of routeIssues(plan.targets)) ctx.addIssue({ code: 'custom', ...issue });
    // A list's rules as a run's, its first URL standing for the target's (each cell's replaces it).
    const listed = plan.targets.map((t) => ({ ...t, url: t.requests?.[0]?.url ?? '' }));
    for (const issue of requestListIssues(listed, plan.options.engine))
      ctx.addIssue({ code: 'custom', ...issue });
    if (plan.load.stages) {
      ctx.addIssue({
        code: 'custom',
        path: ['load', 'stages'],
        message: 'a comparison sets the load per cell from its levels; stages are for a single run',
      });
    }
    const kind = levelKindOf(plan.load);
    const lim = kind === 'connections' ? LIMITS.connections : LIMITS.rate;
    const seen = new Set<number>();
    plan.levels.forEach((level, i) => {
      const path = ['levels', i];
      if (kind === 'connections' && !Number.isInteger(level)) {
        ctx.addIssue({ code: 'custom', path, message: 'connections must be a whole number' });
      } else if (level < lim.min || level > lim.max) {
        ctx.addIssue({ code: 'custom', path, message: `${kind} must be between ${lim.min} and ${lim.max}` });
      } else if (seen.has(level)) {
        ctx.addIssue({ code: 'custom', path, message: `level ${level} is listed twice` });
      } else if (
        plan.load.model === 'closed' &&
        plan.load.limit.kind === 'requests' &&
        level > plan.load.limit.count
      ) {
        // As ab refuses -c above -n: connections beyond the request count would never send.
        ctx.addIssue({
          code: 'custom',
          path,
          message: `${level} connections exceed the ${plan.load.limit.count} requests of the limit`,
        });
      }
      seen.add(level);
    });
    const protocols = new Set<ProtocolVariant>();
    plan.protocols.forEach((p, i) => {
      if (protocols.has(p))
        ctx.addIssue({ code: 'custom', path: ['protocols', i], message: `${p} is listed twice` });
      protocols.add(p);
    });
    // Each cell is a run of its own (and an entry in the saved record): bound the matrix.
    const runs = plan.targets.length * plan.protocols.length * plan.levels.length * plan.repetitions;
    if (runs > LIMITS.comparisonRuns.max) {
      ctx.addIssue({
        code: 'custom',
        path: ['repetitions'],
        message: `the plan makes ${runs} runs (targets × protocols × levels × repetitions); at most ${LIMITS.comparisonRuns.max}`,
      });
    }
    plan.targets.forEach((target, i) => {
      for (const p of protocols) {
        if (urlFor(target, p) === null) {
          ctx.addIssue({
            code: 'custom',
            path: ['targets', i, 'urls', p],
            message: `the plan compares ${p}, but this target has no ${p} URL`,
          });
        }
      }
    });
  });
/** A plan as stored and run: every default filled in. */
export type ComparisonPlan = z.infer<typeof comparisonPlanSchema>;
/** A plan as a person or a file may write it. */
export type ComparisonPlanInput = z.input<typeof comparisonPlanSchema>;

/** The URL a target is measured at with a protocol; null when it has none. */
export function urlFor(target: Pick<ComparisonTarget, 'urls'>, protocol: ProtocolVariant): string | null {
  const { urls } = target;
  if (protocol === 'h2') return urls.h2 ?? urls.https ?? null;
  return urls[protocol] ?? null;
}

/**
 * A target's list as a cell at `url` sends it: the requests on the list's first origin go to
 * the cell's origin (scheme, host and port; path and query kept), so one list of a page's
 * URLs measures every server and protocol of the matrix.
 */
export function requestsAt<R extends { url: string }>(requests: readonly R[], url: string): R[] {
  const from = originOf(requests[0]?.url ?? '');
  const to = new URL(url);
  return requests.map((r) => {
    if (originOf(r.url) !== from) return r;
    const u = new URL(r.url);
    u.protocol = to.protocol;
    u.host = to.host;
    return { ...r, url: u.href };
  });
}

/** A target's display name: its own name, else host:port/path of its first URL. */
export function comparisonTargetLabel(target: Pick<ComparisonTarget, 'name' | 'urls'>): string {
  const url = target.urls.http ?? target.urls.https ?? target.urls.h2 ?? '';
  return targetLabel({ name: target.name, url });
}

/** The number of runs a plan makes. */
export function cellCount(
  plan: Pick<ComparisonPlan, 'targets' | 'protocols' | 'levels' | 'repetitions'>,
): number {
  return plan.targets.length * plan.protocols.length * plan.levels.length * plan.repetitions;
}

/**
 * Where a run sits in the matrix, "nginx · http · c=100 · #2" (a cell without a repetition:
 * "nginx · http · c=100"): the one name a cell or its run goes by on screen, in the text
 * reports, the CSV files and the HTML report.
 */
export function cellLabel(
  plan: Pick<ComparisonPlan, 'targets' | 'load'>,
  c: { targetIndex: number; protocol: ProtocolVariant; level: number; repetition?: number },
): string {
  const target = plan.targets[c.targetIndex];
  return [
    target ? comparisonTargetLabel(target) : `target ${c.targetIndex + 1}`,
    c.protocol,
    levelLabel(levelKindOf(plan.load), c.level),
    ...(c.repetition === undefined ? [] : [`#${c.repetition + 1}`]),
  ].join(' · ');
}
