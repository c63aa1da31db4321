import { z } from 'zod';
import {
  comparisonTargetLabel,
  levelKindOf,
  levelLabel,
  protocolVariantSchema,
  urlFor,
  type ComparisonPlan,
} from './plan.ts';
import { preflightCheckSchema, preflightFailureSchema } from '../model/preflight.ts';
import { resourceSampleSchema } from '../resources/resources.ts';
import { runResultSchema, runStatusSchema, sampleSchema } from '../model/result.ts';
import { SCENARIO_VERSION, type Load, type Scenario } from '../model/scenario.ts';

/* A comparison's cells (one run each, in run order), their outcomes and the events of a comparison run. */

/** Where a cell sits in the matrix. Repetitions of the same target, protocol and level share a key. */
export const cellCoordinatesSchema = z.strictObject({
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
export const cellOutcomeSchema = z.strictObject({
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
  z.strictObject({
    type: z.literal('started'),
    comparisonId: z.string(),
    cellCount: z.number().int().nonnegative(),
  }),
  /** Before the first cell: the pre-flight of every distinct URL, then its failures (none: cells follow). */
  z.strictObject({
    type: z.literal('preflight'),
    comparisonId: z.string(),
    checks: z.array(preflightCheckSchema),
  }),
  z.strictObject({
    type: z.literal('preflight-failed'),
    comparisonId: z.string(),
    failures: z.array(preflightFailureSchema).min(1),
  }),
  /** Cell cellIndex (0-based, of cellCount) began as engine run runId. */
  z.strictObject({
    type: z.literal('cell-started'),
    comparisonId: z.string(),
    cellIndex: z.number().int().nonnegative(),
    cellCount: z.number().int().nonnegative(),
    coordinates: cellCoordinatesSchema,
    runId: z.string(),
  }),
  /** One tick of the running cell, for a live view. */
  z.strictObject({
    type: z.literal('cell-sample'),
    comparisonId: z.string(),
    cellIndex: z.number().int().nonnegative(),
    sample: sampleSchema,
  }),
  /** One reading of the running cell's server (target.monitor), after the cell-sample it belongs to. */
  z.strictObject({
    type: z.literal('cell-server-sample'),
    comparisonId: z.string(),
    cellIndex: z.number().int().nonnegative(),
    sample: resourceSampleSchema,
  }),
  z.strictObject({
    type: z.literal('cell-done'),
    comparisonId: z.string(),
    cellCount: z.number().int().nonnegative(),
    outcome: cellOutcomeSchema,
  }),
  /** Waiting pauseSeconds before cell nextCellIndex. */
  z.strictObject({
    type: z.literal('pause'),
    comparisonId: z.string(),
    nextCellIndex: z.number().int().nonnegative(),
    seconds: z.number().nonnegative(),
  }),
  /** A cell could not run (the host broke down, not the target: failing targets give failed results). */
  z.strictObject({
    type: z.literal('error'),
    comparisonId: z.string(),
    cellIndex: z.number().int().nonnegative(),
    message: z.string(),
  }),
  /** The comparison ended: cancelled when stopped (finished cells are kept), failed when every cell failed. */
  z.strictObject({
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
