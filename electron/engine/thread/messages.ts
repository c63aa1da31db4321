import { z } from 'zod';
import { runResultSchema, sampleSchema } from '../../../shared/model/result.ts';
import { loadSchema, runOptionsSchema, targetSchema } from '../../../shared/model/scenario.ts';
import { shardSchema } from '../../../shared/shards/plan.ts';
import type { RunSpec } from '../types.ts';

/**
 * The worker boundary: the RunSpec goes in as workerData, the host may post `stop`, the
 * worker posts one `sample` per tick and one `result` at the end. The result comes without
 * its samples: the host has each of them already, once, from the `sample` messages, and puts
 * them back (run.ts). Both sides parse what they receive, so a malformed message is an error
 * that names the field, not a silent misreading.
 */
export const runSpecSchema = z.strictObject({
  runId: z.string().min(1),
  scenarioName: z.string(),
  target: targetSchema,
  load: loadSchema,
  options: runOptionsSchema,
  body: z.instanceof(Uint8Array).nullable(),
  requestBodies: z.array(z.instanceof(Uint8Array).nullable()).optional(),
  sequence: z
    .strictObject({ first: z.number().int().nonnegative(), step: z.number().int().positive() })
    .optional(),
  ca: z.string().nullable(),
  appVersion: z.string(),
  placement: z
    .strictObject({
      shard: shardSchema.pick({ index: true, count: true, offsetMs: true, arrivalPhase: true }),
      planId: z.string().min(1),
      planLoad: loadSchema,
      startAt: z.number().positive().optional(),
    })
    .optional(),
}) satisfies z.ZodType<RunSpec>;

export const toWorkerSchema = z.strictObject({ type: z.literal('stop') });
export type ToWorker = z.infer<typeof toWorkerSchema>;

export const workerMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('sample'), sample: sampleSchema }),
  z.strictObject({ type: z.literal('result'), result: runResultSchema.omit({ samples: true }).strict() }),
]);
export type WorkerMessage = z.infer<typeof workerMessageSchema>;
