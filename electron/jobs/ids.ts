import type { JobKind } from '../../shared/contract/jobs.ts';

/** Each kind's id prefix: a job's id says what it is. */
const PREFIX: Record<JobKind, string> = { run: 'run', comparison: 'cmp', capacity: 'cap' };

/*
 * The time and 32 random bits: ids tell jobs apart, they guard nothing (a job is stopped by its
 * owner only), so Math.random does, and a run's start does not load node:crypto for it (~15 ms).
 */
const unique = (): string =>
  `${Date.now().toString(36)}-${Math.floor(Math.random() * 2 ** 32)
    .toString(16)
    .padStart(8, '0')}`;

/** A new job's id, e.g. "cmp-mb3k2x1a-9f3e0c2d" (jobIdSchema's characters, under 64). */
export function newJobId(kind: JobKind): string {
  return `${PREFIX[kind]}-${unique()}`;
}

/** A new engine run's id, for a part that is a run of its own (a comparison's cell, a search's step). */
export function newRunId(): string {
  return `run-${unique()}`;
}
