import { loadCrypto } from '../engine/builtins.ts';
import type { JobKind } from '../../shared/contract/jobs.ts';

/** Each kind's id prefix: a job's id says what it is. */
const PREFIX: Record<JobKind, string> = { run: 'run', comparison: 'cmp', capacity: 'cap' };

const unique = (): string => `${Date.now().toString(36)}-${loadCrypto().randomBytes(4).toString('hex')}`;

/** A new job's id, e.g. "cmp-mb3k2x1a-9f3e0c2d" (jobIdSchema's characters, under 64). */
export function newJobId(kind: JobKind): string {
  return `${PREFIX[kind]}-${unique()}`;
}

/** A new engine run's id, for a part that is a run of its own (a comparison's cell, a search's step). */
export function newRunId(): string {
  return `run-${unique()}`;
}
