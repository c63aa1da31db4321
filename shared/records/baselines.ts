/**
 * Baselines in History: per subject (what was run), the one saved result later runs of it are
 * compared with. A subject (history.ts subjectOf) is the record's kind and the name of its scenario or plan, as it
 * ran (not the History entry's name, which a rename changes): a preset's runs carry the
 * preset's name, so "the baseline of a preset" and "of a scenario" are the same thing. Two
 * scenarios of one name are one subject; rename one to keep them apart. Pure.
 */
import { z } from 'zod';
import { parseWith, type Parsed } from '../model/validation.ts';
import { historyIdSchema, type HistorySummary } from './history.ts';

export const BASELINES_FORMAT = 'trebuchet-baselines';
/**
 * Version 2 names a plain run's subject "run · …" (its record's kind, issue 36); version 1
 * said "scenario · …", and is read with its runs' subjects renamed. A later one is refused
 * naming it, as every stored file's is.
 */
export const BASELINES_VERSION = 2;

export const baselineSchema = z.strictObject({ subject: z.string().min(1), id: historyIdSchema });
export type Baseline = z.infer<typeof baselineSchema>;

const fileOf = <V extends number>(version: V) =>
  z.strictObject({
    format: z.literal(BASELINES_FORMAT),
    version: z.literal(version),
    baselines: z.array(baselineSchema),
  });

/** history/baselines.json, of any version this app reads. */
const baselinesFileSchema = z.discriminatedUnion('version', [fileOf(1), fileOf(BASELINES_VERSION)]);

// Version 1's subject of a plain run, its record's kind then.
const LEGACY_RUN_SUBJECT = /^scenario · /;

/** The baselines of a baselines.json (not of a newer version), its subjects as this version names them. */
export function readBaselinesFile(raw: unknown): Parsed<Baseline[]> {
  const r = parseWith(baselinesFileSchema, raw);
  if (!r.ok) return r;
  const { version, baselines } = r.value;
  if (version !== 1) return { ok: true, value: baselines };
  return {
    ok: true,
    value: baselines.map((b) => ({ ...b, subject: b.subject.replace(LEGACY_RUN_SUBJECT, 'run · ') })),
  };
}

/**
 * The baseline a saved result is shown against: its subject's, when that is another entry
 * saved before it (a baseline is compared with what came after it, not before). Null otherwise.
 */
export function baselineOf(
  summary: Pick<HistorySummary, 'id' | 'subject' | 'createdAt'>,
  baselines: readonly Baseline[],
  runs: readonly Pick<HistorySummary, 'id' | 'createdAt'>[],
): string | null {
  const id = baselines.find((b) => b.subject === summary.subject)?.id;
  if (id === undefined || id === summary.id) return null;
  const base = runs.find((r) => r.id === id);
  return base && base.createdAt < summary.createdAt ? id : null;
}
