import type { CommandName } from '../../shared/contract/command-names.ts';

/**
 * IPC channel names, shared by the main process and the preload (which bundles this file).
 * One invoke channel per command; one channel carries the events of every job, whatever its
 * kind (the JobEnvelope of shared/contract/jobs.ts).
 */
export function commandChannel(command: CommandName): string {
  return `trebuchet:${command}`;
}

export const JOB_EVENT_CHANNEL = 'trebuchet:job-event';
