import { z } from 'zod';
import { runResultSchema, sampleSchema, type RunResult, type Sample } from '../model/result.ts';

/**
 * `trebuchet run --json -`: what a run (a shard on another machine, say) writes on stdout, one
 * JSON object a line, for a coordinator following its log: a line per tick, then the result's
 * (a shard's carries its mergeable figures, shared/model/shard-facts.ts). Pure.
 */
export const streamLineSchema = z.discriminatedUnion('type', [
  /** One engine tick; `at` is the wall-clock time it was written (ISO 8601). */
  z.strictObject({ type: z.literal('tick'), at: z.string(), sample: sampleSchema }),
  z.strictObject({ type: z.literal('result'), result: runResultSchema }),
]);
export type StreamLine = z.infer<typeof streamLineSchema>;

export const tickLine = (sample: Sample, at: Date): string =>
  `${JSON.stringify({ type: 'tick', at: at.toISOString(), sample } satisfies StreamLine)}\n`;

export const resultLine = (result: RunResult): string =>
  `${JSON.stringify({ type: 'result', result } satisfies StreamLine)}\n`;
