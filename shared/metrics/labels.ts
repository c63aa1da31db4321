import type { Scenario } from '../model/scenario.ts';
import { targetLabel } from '../model/scenario.ts';

/*
 * The labels every series of a job's part carries (docs/metrics.md): which job (its id), of
 * which kind, which target, over which protocol, at which level (a comparison's cell, a
 * capacity search's step) and on which shard (a machine's shard of a plan). Their values are
 * bounded in length and in number: a part is one target, a list of requests is one target
 * (its URLs are the per-URL table's rows, shared/model/url-table.ts). Pure.
 */

/** A label value longer than this is cut (a long URL path or name): series stay small. */
export const MAX_LABEL_CHARS = 256;

export type Labels = Readonly<Record<string, string>>;

/** A label value within MAX_LABEL_CHARS, ending in "…" when cut. */
export function labelValue(text: string): string {
  return text.length <= MAX_LABEL_CHARS ? text : `${text.slice(0, MAX_LABEL_CHARS - 1)}…`;
}

/** The job a part belongs to, as its labels name it. */
export interface JobLabels {
  /** The job's id ("run-…", "cmp-…"), or a sharded plan's common name (see shardJob). */
  job: string;
  /** run, comparison or capacity. */
  kind: string;
  /** A machine's shard of a plan (`trebuchet run --shard i/N`): its index, from 0. */
  shard?: number;
}

/**
 * The job label of a machine's shard of a plan: the same on every shard (the plan's id and
 * its common start, or the Job whose go its pods wait for), so the shards' series add up under one job.
 */
export function shardJob(planId: string, start: number | string): string {
  return `plan-${planId}-${typeof start === 'number' ? new Date(start).toISOString() : start}`;
}

/**
 * A part's labels: job, job_kind (the error kind has `kind`), target, protocol, level where a
 * job's parts have one (a comparison's connections or rate, a search's rate), shard when placed.
 */
export function partLabels(job: JobLabels, scenario: Scenario, targetIndex: number): Labels {
  const target = scenario.targets[targetIndex];
  const labels: Record<string, string> = {
    job: labelValue(job.job),
    job_kind: job.kind,
    target: labelValue(target ? targetLabel(target) : `target ${targetIndex + 1}`),
    protocol: scenario.options.protocol,
  };
  if (job.kind !== 'run') {
    const load = scenario.load;
    labels.level = String(load.model === 'open' ? load.rate : load.connections);
  }
  // Counted from 1, as `--shard i/N` and every report count shards.
  if (job.shard !== undefined) labels.shard = String(job.shard + 1);
  return labels;
}

/** A label set's key: its names and values in name order (two equal sets, one key). */
export function labelsKey(labels: Labels): string {
  return JSON.stringify(
    Object.keys(labels)
      .sort()
      .map((k) => [k, labels[k]]),
  );
}
