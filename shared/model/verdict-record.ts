import { z } from 'zod';

/*
 * The verdict as a result's JSON file carries it (`verdict: { word, reasons[] }`), written by
 * the exports from shared/verdict/verdict.ts. It is what the verdict said when the file was
 * written: every view reads the verdict computed again from the result, never this field.
 * Apart from verdict.ts so that the result's schema can name it without an import circle. Pure.
 */

/**
 * From best to worst; a verdict takes the worst state among its caveats. Each word names what
 * limited the figure:
 * - clean: the server (or, in the open model, the rate asked for, held with a machine to spare).
 * - partial: the run was stopped before its end (the figures cover what ran).
 * - setup-bound: connection setup (connect + TLS) was most of the p99.
 * - link-bound: the network link between the generator and a server past this machine was full.
 * - server-worker-bound: one server process ran flat out while the machine had room.
 * - failures: transport errors, error statuses or SLO failures above VERDICT.failurePercent.
 * - rate-not-reached: the open model's schedule was not kept (late or dropped requests).
 * - client-bound: the load generator ran flat out: the client, not the server, was the limit.
 * - machine-busy: other processes took the machine's CPU, or none was left idle with neither side flat.
 * - all-non-2xx: no response was a 2xx: the server answered something else than the page.
 * - not-measured: the run failed, or no response arrived.
 */
export const VERDICT_STATES = [
  'clean',
  'partial',
  'setup-bound',
  'link-bound',
  'server-worker-bound',
  'failures',
  'rate-not-reached',
  'client-bound',
  'machine-busy',
  'all-non-2xx',
  'not-measured',
] as const;
export type VerdictState = (typeof VERDICT_STATES)[number];

/** What a reason (a caveat) is about: the rule that found it. */
export const CAVEAT_CODES = [
  'not-measured',
  'all-non-2xx',
  'machine-busy',
  'client-bound',
  'rate-not-reached',
  'transport-errors',
  'error-statuses',
  'slo-failures',
  'server-worker-bound',
  'link-bound',
  'setup-bound',
  'closed-model',
  'partial',
  'runs-left-out',
  'shards-apart',
] as const;
export type CaveatCode = (typeof CAVEAT_CODES)[number];

/** A figure a caveat makes untrustworthy, so a view can mark where it shows it. */
export type VerdictFigure = 'throughput' | 'latency' | 'success';

/** One reason of a verdict: what a rule found, with the numbers that say why and what to do. */
export interface Caveat {
  code: CaveatCode;
  /** bad: the figures are not the server's (the verdict is not clean); warn: worth knowing, figures stand. */
  severity: 'warn' | 'bad';
  /** Short badge text: "rate not reached", "errors 2.1%", "machine busy". */
  label: string;
  /** One sentence with the numbers, and what to do. */
  message: string;
  /** The figures it affects; absent when it concerns the whole result. */
  figures?: VerdictFigure[];
}

export const verdictRecordSchema = z.strictObject({
  /** The verdict's word, as every view names it ("clean", "machine busy"). */
  word: z.string().max(64),
  state: z.enum(VERDICT_STATES),
  /** One sentence: the worst reason's, or that the figures are the server's. */
  headline: z.string().max(2000),
  /** Every reason, worst first: its rule, bad (the figures are not the server's) or a note, its badge and its sentence with what to do. */
  reasons: z
    .array(
      z.strictObject({
        code: z.enum(CAVEAT_CODES),
        severity: z.enum(['warn', 'bad']),
        label: z.string().max(200),
        message: z.string().max(2000),
      }),
    )
    .max(32),
});
export type VerdictRecord = z.infer<typeof verdictRecordSchema>;
