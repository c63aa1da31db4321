import type { CommandName } from '../../shared/contract/command-names.ts';

/**
 * IPC channel names, shared by the main process and the preload (which bundles this file).
 * One invoke channel per command; one channel carries every run event (the RunEvent union),
 * one every comparison event (the ComparisonEvent union), one every capacity search event.
 */
export function commandChannel(command: CommandName): string {
  return `trebuchet:${command}`;
}

export const RUN_EVENT_CHANNEL = 'trebuchet:run-event';

export const COMPARISON_EVENT_CHANNEL = 'trebuchet:comparison-event';

export const CAPACITY_EVENT_CHANNEL = 'trebuchet:capacity-event';
