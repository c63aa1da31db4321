import { z } from 'zod';
import { DEFAULTS, LIMITS, REPORT_PERCENTILES } from './defaults.ts';
import { preflightCheckSchema, preflightFailureSchema } from './preflight.ts';
import { comparisonReportSchema } from './report-settings.ts';
import { runResultSchema, runStatusSchema, sampleSchema, type ErrorKind, type RunResult } from './result.ts';
import {
  displayNameSchema,
  loadSchema,
  runOptionsSchema,
  SCENARIO_VERSION,
  targetLabel,
  targetSchema,
  targetsSchema,
  targetUrlSchema,
  type Load,
  type Scenario,
} from './scenario.ts';

/*
 * A comparison: targets x load levels x protocols x repetitions, run one cell after another.
 * This module holds the plan's schema, its expansion into cells, the aggregation of the
 * cells' RunResults across repetitions, the tables and series the report draws, and the
 * two-sided comparison of two sets of repetitions. Pure: no Node, DOM or Electron.
 */

// ---------------------------------------------------------------------------------------
// The plan

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
export const targetUrlsSchema = z.object({
  http: schemeUrl('http:', 'http').optional(),
  https: schemeUrl('https:', 'https').optional(),
  h2: schemeUrl('https:', 'h2').optional(),
});
export type TargetUrls = z.infer<typeof targetUrlsSchema>;

/** A server under comparison: a target whose URL depends on the protocol. */
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

const int = (name: string, lim: { min: number; max: number }) =>
  z
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(lim.min, `${name} must be at least ${lim.min}`)
    .max(lim.max, `${name} must be at most ${lim.max}`);

export const comparisonPlanSchema = z
  .object({
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
    repetitions: int('repetitions', LIMITS.repetitions).default(DEFAULTS.comparison.repetitions),
    /** Idle time between cells, so the server settles (TIME_WAIT sockets, GC) before the next one. */
    pauseSeconds: z
      .number({ error: 'pause must be a number' })
      .min(LIMITS.pauseSeconds.min, `pause must be at least ${LIMITS.pauseSeconds.min}`)
      .max(LIMITS.pauseSeconds.max, `pause must be at most ${LIMITS.pauseSeconds.max}`)
      .default(DEFAULTS.comparison.pauseSeconds),
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

/** A target's display name: its own name, else host:port/path of its first URL. */
export function comparisonTargetLabel(target: Pick<ComparisonTarget, 'name' | 'urls'>): string {
  const url = target.urls.http ?? target.urls.https ?? target.urls.h2 ?? '';
  return targetLabel({ name: target.name, url });
}

// ---------------------------------------------------------------------------------------
// Cells

/** Where a cell sits in the matrix. Repetitions of the same target, protocol and level share a key. */
export const cellCoordinatesSchema = z.object({
  targetIndex: z.number().int().nonnegative(),
  protocol: protocolVariantSchema,
  level: z.number().positive(),
  /** 0-based. */
  repetition: z.number().int().nonnegative(),
});
export type CellCoordinates = z.infer<typeof cellCoordinatesSchema>;

/** The aggregate cell a run belongs to: target, protocol and level (repetition left out). */
export function cellKey(c: Pick<CellCoordinates, 'targetIndex' | 'protocol' | 'level'>): string {
  return `${c.targetIndex}|${c.protocol}|${c.level}`;
}

/** One run of the matrix: a single-target scenario and where it sits. */
export interface ComparisonCell {
  /** Position in run order, 0-based. */
  index: number;
  key: string;
  coordinates: CellCoordinates;
  /** Display name of the cell's target. */
  target: string;
  scenario: Scenario;
}

/** The number of runs a plan makes. */
export function cellCount(
  plan: Pick<ComparisonPlan, 'targets' | 'protocols' | 'levels' | 'repetitions'>,
): number {
  return plan.targets.length * plan.protocols.length * plan.levels.length * plan.repetitions;
}

function loadAt(load: Load, level: number): Load {
  return load.model === 'closed' ? { ...load, connections: level } : { ...load, rate: level };
}

/**
 * The plan's runs in order. Repetitions are the outer loop (round 1 of every cell, then
 * round 2, ...): a drift of the machine over time (thermal throttling, a background job)
 * then spreads across all targets instead of penalising whichever ran last. Within a
 * round: level, then protocol, then target, so servers at the same level run back to back.
 */
export function expandPlan(plan: ComparisonPlan): ComparisonCell[] {
  const kind = levelKindOf(plan.load);
  const labels = plan.targets.map(comparisonTargetLabel);
  const cells: ComparisonCell[] = [];
  for (let repetition = 0; repetition < plan.repetitions; repetition++) {
    for (const level of plan.levels) {
      for (const protocol of plan.protocols) {
        plan.targets.forEach((t, targetIndex) => {
          const url = urlFor(t, protocol);
          // The schema guarantees a URL for every listed protocol; a plan built by hand may not.
          if (url === null) throw new Error(`target ${targetIndex} has no ${protocol} URL`);
          const label = labels[targetIndex]!;
          const coordinates: CellCoordinates = { targetIndex, protocol, level, repetition };
          cells.push({
            index: cells.length,
            key: cellKey(coordinates),
            coordinates,
            target: label,
            scenario: {
              version: SCENARIO_VERSION,
              name: `${plan.name} · ${label} · ${protocol} · ${levelLabel(kind, level)} · #${repetition + 1}`,
              targets: [
                { name: label, url, method: t.method, headers: t.headers, body: t.body, monitor: t.monitor },
              ],
              load: loadAt(plan.load, level),
              options: { ...plan.options, protocol: protocol === 'h2' ? 'h2' : 'http1.1' },
            },
          });
        });
      }
    }
  }
  return cells;
}

/** A finished cell run: where it sits and what it measured. Stored in run history. */
export const cellOutcomeSchema = z.object({
  cellIndex: z.number().int().nonnegative(),
  coordinates: cellCoordinatesSchema,
  result: runResultSchema,
});
export type CellOutcome = z.infer<typeof cellOutcomeSchema>;

/**
 * Progress of a comparison run, one stream keyed by comparison id. The UI rebuilds the
 * table from the outcomes with aggregateComparison() (cheap and pure), so events carry
 * only measured data.
 */
export const comparisonEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('started'),
    comparisonId: z.string(),
    cellCount: z.number().int().nonnegative(),
  }),
  /** Before the first cell: the pre-flight of every distinct URL, then its failures (none: cells follow). */
  z.object({ type: z.literal('preflight'), comparisonId: z.string(), checks: z.array(preflightCheckSchema) }),
  z.object({
    type: z.literal('preflight-failed'),
    comparisonId: z.string(),
    failures: z.array(preflightFailureSchema).min(1),
  }),
  /** Cell cellIndex (0-based, of cellCount) began as engine run runId. */
  z.object({
    type: z.literal('cell-started'),
    comparisonId: z.string(),
    cellIndex: z.number().int().nonnegative(),
    cellCount: z.number().int().nonnegative(),
    coordinates: cellCoordinatesSchema,
    runId: z.string(),
  }),
  /** One tick of the running cell, for a live view. */
  z.object({
    type: z.literal('cell-sample'),
    comparisonId: z.string(),
    cellIndex: z.number().int().nonnegative(),
    sample: sampleSchema,
  }),
  z.object({
    type: z.literal('cell-done'),
    comparisonId: z.string(),
    cellCount: z.number().int().nonnegative(),
    outcome: cellOutcomeSchema,
  }),
  /** Waiting pauseSeconds before cell nextCellIndex. */
  z.object({
    type: z.literal('pause'),
    comparisonId: z.string(),
    nextCellIndex: z.number().int().nonnegative(),
    seconds: z.number().nonnegative(),
  }),
  /** A cell could not run (the host broke down, not the target: failing targets give failed results). */
  z.object({
    type: z.literal('error'),
    comparisonId: z.string(),
    cellIndex: z.number().int().nonnegative(),
    message: z.string(),
  }),
  /** The comparison ended: cancelled when stopped (finished cells are kept), failed when every cell failed. */
  z.object({
    type: z.literal('done'),
    comparisonId: z.string(),
    status: runStatusSchema,
    outcomes: z.array(cellOutcomeSchema),
    /** Set when the pre-flight stopped it before any cell: the URLs that failed (nothing ran, nothing is saved). */
    preflightFailures: z.array(preflightFailureSchema).optional(),
    /** Set by a host that saved the comparison in run history (the saved run's id), or could not. */
    historyId: z.string().optional(),
    historyError: z.string().optional(),
  }),
]);
export type ComparisonEvent = z.infer<typeof comparisonEventSchema>;

// ---------------------------------------------------------------------------------------
// Statistics over repetitions

/** Spread of one figure across repetitions. stdev is the sample standard deviation (n - 1); null when n < 2. */
export interface Stat {
  n: number;
  mean: number;
  stdev: number | null;
  min: number;
  max: number;
}

/** Mean, sample stdev, min and max; null for an empty list. */
export function statOf(values: readonly number[]): Stat | null {
  const n = values.length;
  if (n === 0) return null;
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    sum += v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const mean = sum / n;
  let stdev: number | null = null;
  if (n >= 2) {
    let sq = 0;
    for (const v of values) sq += (v - mean) ** 2;
    stdev = Math.sqrt(sq / (n - 1));
  }
  return { n, mean, stdev, min, max };
}

export const FIGURES = ['rps', 'latencyMean', 'p50', 'p95', 'p99', 'successRatio', 'failed'] as const;
export type Figure = (typeof FIGURES)[number];

export interface FigureInfo {
  label: string;
  unit: string;
  /** Which direction is an improvement. */
  higherIsBetter: boolean;
}

export const FIGURE_INFO: Record<Figure, FigureInfo> = {
  rps: { label: 'Requests per second', unit: 'req/s', higherIsBetter: true },
  latencyMean: { label: 'Mean latency', unit: 'ms', higherIsBetter: false },
  p50: { label: 'p50 latency', unit: 'ms', higherIsBetter: false },
  p95: { label: 'p95 latency', unit: 'ms', higherIsBetter: false },
  p99: { label: 'p99 latency', unit: 'ms', higherIsBetter: false },
  /** ok / total, in [0, 1]. */
  successRatio: { label: 'Success ratio', unit: 'ratio', higherIsBetter: true },
  /** total - ok: transport errors, non-2xx/3xx statuses and SLO misses. */
  failed: { label: 'Failed requests', unit: 'requests', higherIsBetter: false },
};

/** One value of a figure in one run; null when the run has none (no response, so no latency). */
export function figureOf(result: RunResult, figure: Figure): number | null {
  const pct = (p: number) => result.latency?.percentiles[String(p)] ?? null;
  switch (figure) {
    case 'rps':
      return result.throughput.requestsPerSecond;
    case 'latencyMean':
      return result.latency?.mean ?? null;
    case 'p50':
      return pct(50);
    case 'p95':
      return pct(95);
    case 'p99':
      return pct(99);
    case 'successRatio':
      return result.successRatio;
    case 'failed':
      return result.requests.total - result.requests.ok;
  }
}

/** Several runs of the same thing, summarised. */
export interface RepetitionSummary {
  /** Runs the figures are computed from. */
  runs: number;
  /** Runs left out: failed ones, and cancelled ones unless asked to include them. */
  skipped: number;
  /** Why failed runs failed (one message per failed run). */
  failures: string[];
  figures: Record<Figure, Stat | null>;
  /** Requests over all counted runs, and how many of them failed (total - ok). */
  requests: number;
  failedRequests: number;
  /** What the failed requests were: transport errors and SLO misses by kind, and non-2xx responses. */
  errors: Partial<Record<ErrorKind, number>>;
  non2xx: number;
  /** Mean over the runs of each latency percentile, in ms, keyed as in LatencyStats ("50", "99.9"). */
  percentiles: Record<string, number>;
}

/**
 * Summarises results taken as repetitions of one measurement. Failed runs are left out
 * (they measured nothing); cancelled runs are partial, so they are left out too unless
 * includeCancelled (e.g. to look at a single run the user stopped).
 */
export function summarizeRepetitions(
  results: readonly RunResult[],
  opts: { includeCancelled?: boolean } = {},
): RepetitionSummary {
  const counted = results.filter(
    (r) => r.status === 'completed' || (r.status === 'cancelled' && opts.includeCancelled === true),
  );
  const failures = results.filter((r) => r.status === 'failed').map((r) => r.error?.message ?? 'run failed');
  const figures = {} as Record<Figure, Stat | null>;
  for (const f of FIGURES) {
    figures[f] = statOf(counted.map((r) => figureOf(r, f)).filter((v): v is number => v !== null));
  }
  const sums = new Map<string, { sum: number; n: number }>();
  for (const r of counted) {
    for (const [k, v] of Object.entries(r.latency?.percentiles ?? {})) {
      const s = sums.get(k) ?? { sum: 0, n: 0 };
      s.sum += v;
      s.n++;
      sums.set(k, s);
    }
  }
  const percentiles: Record<string, number> = {};
  for (const [k, s] of sums) percentiles[k] = s.sum / s.n;
  const errors: Partial<Record<ErrorKind, number>> = {};
  for (const r of counted) for (const e of r.errors) errors[e.kind] = (errors[e.kind] ?? 0) + e.count;
  return {
    runs: counted.length,
    skipped: results.length - counted.length,
    failures,
    figures,
    requests: counted.reduce((a, r) => a + r.requests.total, 0),
    failedRequests: counted.reduce((a, r) => a + r.requests.total - r.requests.ok, 0),
    errors,
    non2xx: counted.reduce((a, r) => a + r.requests.non2xx, 0),
    percentiles,
  };
}

// ---------------------------------------------------------------------------------------
// The comparison table

/** One cell of the table: a target at a protocol and a level, over its repetitions. */
export interface CellAggregate extends RepetitionSummary {
  key: string;
  targetIndex: number;
  target: string;
  protocol: ProtocolVariant;
  level: number;
  /** Repetitions the plan asked for. */
  planned: number;
}

export interface ComparisonTable {
  name: string;
  levelKind: LevelKind;
  targets: string[];
  protocols: ProtocolVariant[];
  levels: number[];
  repetitions: number;
  /**
   * Every cell of the plan in level, protocol, target order (plan order within each),
   * including cells without results yet (runs 0, figures null) so a stopped or running
   * comparison shows its whole matrix.
   */
  cells: CellAggregate[];
}

/** Groups cell runs by target, protocol and level and summarises each group across repetitions. */
export function aggregateComparison(plan: ComparisonPlan, outcomes: readonly CellOutcome[]): ComparisonTable {
  const byKey = new Map<string, RunResult[]>();
  for (const o of outcomes) {
    const k = cellKey(o.coordinates);
    const list = byKey.get(k);
    if (list) list.push(o.result);
    else byKey.set(k, [o.result]);
  }
  const targets = plan.targets.map(comparisonTargetLabel);
  const cells: CellAggregate[] = [];
  for (const level of plan.levels) {
    for (const protocol of plan.protocols) {
      targets.forEach((target, targetIndex) => {
        const key = cellKey({ targetIndex, protocol, level });
        cells.push({
          key,
          targetIndex,
          target,
          protocol,
          level,
          planned: plan.repetitions,
          ...summarizeRepetitions(byKey.get(key) ?? []),
        });
      });
    }
  }
  return {
    name: plan.name,
    levelKind: levelKindOf(plan.load),
    targets,
    protocols: [...plan.protocols],
    levels: [...plan.levels],
    repetitions: plan.repetitions,
    cells,
  };
}

/** The cell at a target, protocol and level; undefined when the table has none. */
export function cellAt(
  table: ComparisonTable,
  c: { targetIndex: number; protocol: ProtocolVariant; level: number },
): CellAggregate | undefined {
  const key = cellKey(c);
  return table.cells.find((cell) => cell.key === key);
}

// ---------------------------------------------------------------------------------------
// Percentile table (seed 001: one column per server, ab's percentiles as rows)

export interface PercentileTable {
  /** Column headings: one per server. */
  columns: string[];
  /** One row per percentile; values in ms, null where a column has no latency. */
  rows: { percentile: number; label: string; values: (number | null)[] }[];
}

function buildPercentileTable(
  columns: { label: string; percentiles: Record<string, number> }[],
  percentiles: readonly number[],
): PercentileTable {
  return {
    columns: columns.map((c) => c.label),
    rows: percentiles.map((p) => ({
      percentile: p,
      label: `${p}%`,
      values: columns.map((c) => c.percentiles[String(p)] ?? null),
    })),
  };
}

/**
 * A percentile table from runs: one column per entry, each the mean over its runs (e.g.
 * one plain run with three targets gives three columns of one run each).
 */
export function percentileTable(
  columns: readonly { label: string; results: readonly RunResult[] }[],
  percentiles: readonly number[] = REPORT_PERCENTILES,
): PercentileTable {
  return buildPercentileTable(
    columns.map((c) => ({ label: c.label, percentiles: summarizeRepetitions(c.results).percentiles })),
    percentiles,
  );
}

/** The comparison's percentile table at one protocol and level: one column per target. */
export function comparisonPercentileTable(
  table: ComparisonTable,
  at: { protocol: ProtocolVariant; level: number },
  percentiles: readonly number[] = REPORT_PERCENTILES,
): PercentileTable {
  const columns = table.targets.map((label, targetIndex) => ({
    label,
    percentiles: cellAt(table, { targetIndex, ...at })?.percentiles ?? {},
  }));
  return buildPercentileTable(columns, percentiles);
}

// ---------------------------------------------------------------------------------------
// Scaling series (req/s and p99 against the level), also the data of the grouped bar chart

export interface ScalingPoint {
  level: number;
  /** Mean req/s across repetitions and its spread; null before the cell has results. */
  rps: number | null;
  rpsStdev: number | null;
  /** Mean p99 latency in ms. */
  p99: number | null;
}

export interface ScalingSeries {
  targetIndex: number;
  protocol: ProtocolVariant;
  /** "nginx" with one protocol, "nginx · https" with several. */
  label: string;
  /** Ascending level. */
  points: ScalingPoint[];
}

/** One series per target and protocol, points in ascending level order. */
export function scalingSeries(table: ComparisonTable): ScalingSeries[] {
  const levels = [...table.levels].sort((a, b) => a - b);
  const series: ScalingSeries[] = [];
  for (const protocol of table.protocols) {
    table.targets.forEach((target, targetIndex) => {
      series.push({
        targetIndex,
        protocol,
        label: table.protocols.length > 1 ? `${target} · ${protocol}` : target,
        points: levels.map((level) => {
          const cell = cellAt(table, { targetIndex, protocol, level });
          return {
            level,
            rps: cell?.figures.rps?.mean ?? null,
            rpsStdev: cell?.figures.rps?.stdev ?? null,
            p99: cell?.figures.p99?.mean ?? null,
          };
        }),
      });
    });
  }
  return series;
}

// ---------------------------------------------------------------------------------------
// Comparing two sets of repetitions

/**
 * Two-sided 97.5 % quantiles of Student's t distribution (a 95 % two-sided test), by
 * degrees of freedom. Between rows the quantile is interpolated linearly in 1/df, which is
 * accurate to about 0.3 % and matches the normal quantile (1.96) as df grows.
 */
const T_975: readonly [number, number][] = [
  [1, 12.706],
  [2, 4.303],
  [3, 3.182],
  [4, 2.776],
  [5, 2.571],
  [6, 2.447],
  [7, 2.365],
  [8, 2.306],
  [9, 2.262],
  [10, 2.228],
  [12, 2.179],
  [15, 2.131],
  [20, 2.086],
  [25, 2.06],
  [30, 2.042],
  [40, 2.021],
  [60, 2.0],
  [120, 1.98],
  [Infinity, 1.96],
];

/** The t value a 95 % two-sided test must exceed at df degrees of freedom (df >= 1). */
export function tCritical95(df: number): number {
  if (!(df >= 1)) return T_975[0]![1];
  for (let i = 1; i < T_975.length; i++) {
    const [d1, t1] = T_975[i - 1]!;
    const [d2, t2] = T_975[i]!;
    if (df === d1) return t1;
    if (df < d2) {
      const x = 1 / df;
      const x1 = 1 / d1;
      const x2 = d2 === Infinity ? 0 : 1 / d2;
      return t1 + ((t2 - t1) * (x - x1)) / (x2 - x1);
    }
  }
  return 1.96;
}

export type NoiseVerdict = 'different' | 'within-noise' | 'too-few-repetitions' | 'no-data';

export interface FigureComparison {
  figure: Figure;
  info: FigureInfo;
  a: Stat | null;
  b: Stat | null;
  /** b - a, in the figure's unit. */
  delta: number | null;
  /** (b - a) / a in percent; null when a's mean is 0 (and b's is not) or either side is missing. */
  deltaPercent: number | null;
  /**
   * different: Welch's t-test (two-sided, 95 %) says the means differ by more than the
   * repetitions' run-to-run spread explains; within-noise: it does not; too-few-repetitions:
   * a side has fewer than 2 runs, so there is no spread to judge by; no-data: a side has no value.
   */
  verdict: NoiseVerdict;
  /** Which side is better, only when the verdict is 'different'. */
  better: 'a' | 'b' | null;
  /** Welch's statistic, its Welch-Satterthwaite degrees of freedom and the critical value. */
  test: { t: number; df: number; critical: number } | null;
  /** One line for the report, e.g. "+12.3 %: larger than run-to-run noise (Welch's t-test, 95 %)". */
  message: string;
}

function formatPercent(p: number): string {
  const sign = p > 0 ? '+' : '';
  return `${sign}${p.toFixed(1)} %`;
}

/** Compares one figure of two sets of repetitions (B against A). */
export function compareFigure(figure: Figure, a: Stat | null, b: Stat | null): FigureComparison {
  const info = FIGURE_INFO[figure];
  const base = { figure, info, a, b };
  if (a === null || b === null) {
    return {
      ...base,
      delta: null,
      deltaPercent: null,
      verdict: 'no-data',
      better: null,
      test: null,
      message: `no ${info.label.toLowerCase()} on ${a === null ? (b === null ? 'either side' : 'side A') : 'side B'}`,
    };
  }
  const delta = b.mean - a.mean;
  const deltaPercent = a.mean === 0 ? (b.mean === 0 ? 0 : null) : (delta / Math.abs(a.mean)) * 100;
  const change =
    deltaPercent === null ? `${delta > 0 ? '+' : ''}${delta} ${info.unit}` : formatPercent(deltaPercent);
  if (a.stdev === null || b.stdev === null) {
    return {
      ...base,
      delta,
      deltaPercent,
      verdict: 'too-few-repetitions',
      better: null,
      test: null,
      message: `${change}: too few repetitions to tell (A has ${a.n} run${a.n === 1 ? '' : 's'}, B has ${b.n}; need at least 2 on each side)`,
    };
  }
  const va = a.stdev ** 2 / a.n;
  const vb = b.stdev ** 2 / b.n;
  const se = Math.sqrt(va + vb);
  let test: FigureComparison['test'];
  let different: boolean;
  if (se === 0) {
    // No spread at all on either side: any difference in the means is real, none is noise.
    different = delta !== 0;
    test = {
      t: delta === 0 ? 0 : Math.sign(delta) * Infinity,
      df: a.n + b.n - 2,
      critical: tCritical95(a.n + b.n - 2),
    };
  } else {
    const t = delta / se;
    const df = (va + vb) ** 2 / (va ** 2 / (a.n - 1) + vb ** 2 / (b.n - 1));
    const critical = tCritical95(df);
    different = Math.abs(t) > critical;
    test = { t, df, critical };
  }
  const better = !different ? null : delta > 0 === info.higherIsBetter ? 'b' : 'a';
  return {
    ...base,
    delta,
    deltaPercent,
    verdict: different ? 'different' : 'within-noise',
    better,
    test,
    message: different
      ? `${change}: larger than run-to-run noise (Welch's t-test, 95 %)`
      : `${change}: within run-to-run noise (Welch's t-test, 95 %)`,
  };
}

/** Every figure of B compared with A. */
export function compareSummaries(a: RepetitionSummary, b: RepetitionSummary): FigureComparison[] {
  return FIGURES.map((f) => compareFigure(f, a.figures[f], b.figures[f]));
}
