import { z } from 'zod';
import {
  comparisonTargetLabel,
  levelKindOf,
  levelLabel,
  protocolVariantSchema,
  requestsAt,
  urlFor,
  type ComparisonPlan,
} from './plan.ts';
import { runResultSchema } from '../model/result.ts';
import { SCENARIO_VERSION, type Load, type Scenario } from '../model/scenario.ts';

/* A comparison's cells (one run each, in run order) and their outcomes (its job: ./job.ts). */

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
                {
                  name: label,
                  url,
                  method: t.method,
                  headers: t.headers,
                  body: t.body,
                  monitor: t.monitor,
                  ...(t.connectTo ? { connectTo: t.connectTo } : {}),
                  ...(t.unixSocket ? { unixSocket: t.unixSocket } : {}),
                  ...(t.requests ? { requests: requestsAt(t.requests, url) } : {}),
                  ...(t.order ? { order: t.order } : {}),
                },
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
