/**
 * Staged load (k6's ramping-vus and ramping-arrival-rate): a list of stages, each ramping the
 * target linearly from where the previous stage ended to its own target over its duration.
 * The plan starts at 0; a 0-second stage jumps (`0s:100,30s:100` holds 100 from the start).
 * Closed model: the target is connections; open model: a rate in req/s. Pure math the
 * engine's drivers, the recorder, the charts and the reports all consult.
 */
import { z } from 'zod';
import { LIMITS } from './defaults.ts';
import { DURATION_EXAMPLES, parseDuration } from './duration.ts';
import { formatDurationSeconds } from '../figures/units.ts';
import { boundedNumber } from './number-schema.ts';

export interface Stage {
  durationSeconds: number;
  target: number;
}

/** What a stage's target counts: connections (closed model) or requests per second (open model). */
export type StageTargetKind = 'connections' | 'rate';

const TARGET_LIMITS: Record<StageTargetKind, { max: number; unit: string }> = {
  connections: { max: LIMITS.connections.max, unit: 'connections' },
  rate: { max: LIMITS.rate.max, unit: 'req/s' },
};

function targetSchema(kind: StageTargetKind) {
  const { max, unit } = TARGET_LIMITS[kind];
  const n = z
    .number({ error: 'stage target must be a number' })
    .min(0, 'stage target must be at least 0')
    .max(max, `stage target must be at most ${max} ${unit}`);
  return kind === 'connections' ? n.int('stage target must be a whole number of connections') : n;
}

/** A stage plan whose targets are `kind`: bounded in count and in total length, and sending something. */
export function stagesSchema(kind: StageTargetKind) {
  const { min, max } = LIMITS.durationSeconds;
  return z
    .array(
      z.strictObject({
        durationSeconds: boundedNumber('stage duration', { min: 0, max }),
        target: targetSchema(kind),
      }),
    )
    .min(1, 'add at least one stage')
    .max(LIMITS.stages.max, `at most ${LIMITS.stages.max} stages`)
    .superRefine((stages, ctx) => {
      if (stages.length === 0) return;
      const total = stagesSeconds(stages);
      if (total < min || total > max) {
        ctx.addIssue({
          code: 'custom',
          message: `the stages last ${total} s; between ${min} s and ${max} s`,
        });
      } else if (kind === 'rate' ? plannedArrivals(stages, total) < 1 : peakTarget(stages) === 0) {
        ctx.addIssue({ code: 'custom', message: 'the stages send nothing: raise a target above 0' });
      }
    });
}

/** Total length of the plan in seconds. */
export function stagesSeconds(stages: readonly Stage[]): number {
  let total = 0;
  for (const s of stages) total += s.durationSeconds;
  return total;
}

/** The highest target of the plan (the connection pool or the rate it must reach). */
export function peakTarget(stages: readonly Stage[]): number {
  let peak = 0;
  for (const s of stages) peak = Math.max(peak, s.target);
  return peak;
}

/** Where each stage starts and ends (seconds from the plan's start) and the target it ramps from. */
export interface StageSpan {
  index: number;
  startSeconds: number;
  endSeconds: number;
  from: number;
  to: number;
}

export function stageSpans(stages: readonly Stage[]): StageSpan[] {
  const spans: StageSpan[] = [];
  let start = 0;
  let from = 0;
  stages.forEach((s, index) => {
    spans.push({ index, startSeconds: start, endSeconds: start + s.durationSeconds, from, to: s.target });
    start += s.durationSeconds;
    from = s.target;
  });
  return spans;
}

/** The target at `t` seconds, linear within a stage; 0 before the start, the last target after the end. */
export function targetAt(stages: readonly Stage[], t: number): number {
  if (t < 0) return 0;
  let start = 0;
  let from = 0;
  for (const s of stages) {
    const end = start + s.durationSeconds;
    if (t < end) return from + ((s.target - from) * (t - start)) / s.durationSeconds;
    start = end;
    from = s.target;
  }
  return from;
}

/** Area under the target from 0 to `t`: for a rate, the requests due by `t`. */
export function plannedArrivals(stages: readonly Stage[], t: number): number {
  let area = 0;
  for (const span of stageSpans(stages)) {
    if (t <= span.startSeconds) break;
    if (span.endSeconds === span.startSeconds) continue;
    const u = Math.min(t, span.endSeconds) - span.startSeconds;
    const d = span.endSeconds - span.startSeconds;
    area += span.from * u + ((span.to - span.from) * u * u) / (2 * d);
  }
  return area;
}

/**
 * Due times of an open-model stage plan: arrival k is due when the integrated rate reaches
 * k + phase (arrival 0 at the first moment the rate is above 0 without a phase), so arrivals
 * follow the ramp exactly and a constant rate r gives (k + phase)/r. The phase places one of
 * n shards' plans (each scaled by 1/n) within the merged one: shard j's phase j/n makes its
 * arrival k the merged arrival n·k + j, on a ramp as on a constant rate (see
 * shared/shards/plan.ts). Asked in increasing k, each answer costs O(1): a cursor walks the
 * stages once.
 */
export class ArrivalSchedule {
  private readonly spans: StageSpan[];
  private readonly phase: number;
  /** Arrivals due before the cursor's stage, and that stage. */
  private before = 0;
  private span = 0;
  /** Arrivals in the whole plan: every k below it is due before the end. */
  readonly total: number;

  constructor(stages: readonly Stage[], phase = 0) {
    this.spans = stageSpans(stages);
    this.phase = phase;
    const area = plannedArrivals(stages, stagesSeconds(stages));
    // Arrival k is due inside the plan while k + phase < area; an area of exactly 600 gives 0..599.
    this.total = Math.max(0, Math.ceil(area - phase - 1e-9));
  }

  /** Seconds from the plan's start at which arrival `k` is due; Infinity past the plan. */
  timeOf(k: number): number {
    if (k >= this.total) return Infinity;
    const at = k + this.phase;
    for (;;) {
      const s = this.spans[this.span];
      if (s === undefined) return Infinity;
      const d = s.endSeconds - s.startSeconds;
      const inSpan = ((s.from + s.to) * d) / 2;
      if (at - this.before < inSpan || this.span === this.spans.length - 1) {
        // Solve from·u + slope·u²/2 = x for u; this form stays exact when the slope is 0 or negative.
        const x = at - this.before;
        if (x <= 0 || d === 0) return s.startSeconds;
        const slope = (s.to - s.from) / d;
        const u = (2 * x) / (s.from + Math.sqrt(Math.max(0, s.from * s.from + 2 * slope * x)));
        return s.startSeconds + Math.min(d, u);
      }
      this.before += inSpan;
      this.span++;
    }
  }
}

/** The plan with every target times `fraction` (one of n workers carries 1/n of the load). */
export function scaleStages(stages: readonly Stage[], fraction: number): Stage[] {
  return stages.map((s) => ({ durationSeconds: s.durationSeconds, target: s.target * fraction }));
}

export type ParsedStages = { ok: true; stages: Stage[] } | { ok: false; message: string };

const STAGE_TEXT = /^([^:]+):\s*(\d+(?:\.\d+)?|\.\d+)$/;

/** `30s:100,1m:1000,30s:0` (duration:target, comma-separated), as the CLI's --stages takes it. */
export function parseStagesText(text: string): ParsedStages {
  const stages: Stage[] = [];
  const parts = text.split(',').map((p) => p.trim());
  for (const [i, part] of parts.entries()) {
    const m = STAGE_TEXT.exec(part);
    const seconds = m ? parseDuration(m[1]!, 's') : null;
    if (!m || seconds === null) {
      return {
        ok: false,
        message: `stage ${i + 1} "${part}" is not duration:target (e.g. 30s:100; durations like ${DURATION_EXAMPLES.s})`,
      };
    }
    stages.push({ durationSeconds: seconds, target: Number(m[2]) });
  }
  return { ok: true, stages };
}

/** The plan as parseStagesText reads it back: `30s:100,1m0s:1000`. */
export function formatStagesText(stages: readonly Stage[]): string {
  return stages.map((s) => `${formatDurationSeconds(s.durationSeconds)}:${s.target}`).join(',');
}
