import { statfs } from 'node:fs/promises';

/**
 * What a job writes before it has measured much: its journal's head (the plan, fsynced at the
 * start) and its first lines of samples, every 5 s. Below this much free space a job's journal
 * and record would fail within seconds of its start, so it is refused before it begins.
 */
export const ROOM_FOR_A_JOB_BYTES = 1024 * 1024;

/** True when the disk holding dir has less room than a job needs to keep what it measures. */
export async function tooFullForAJob(dir: string): Promise<boolean> {
  const s = await statfs(dir);
  return s.bavail * s.bsize < ROOM_FOR_A_JOB_BYTES;
}
