/**
 * What a saved run ran, in a few words, read from its own scenario or plan: "5,000 req/s for
 * 3 s", "c=10, 100 · 10,000 requests per cell". History puts it beside the name, which may be
 * a preset's that was edited before the run ("… 10000 req/s for 5 s" for a run of 5,000 req/s
 * for 3 s). The words of a load; each kind's sentence is its spec's (kinds.ts `ran`). Pure.
 */
import { formatCount, formatGrouped } from '../figures/units.ts';
import type { Load } from '../model/scenario.ts';
import { peakTarget, stagesSeconds } from '../model/stages.ts';

/** "3 s", "1.5 s". */
export const secondsText = (s: number): string => `${formatGrouped(s, Number.isInteger(s) ? 0 : 1)} s`;

/** How long a load ran, or its request count: "for 3 s", "10,000 requests". */
export function lengthText(load: Load): string {
  if (load.model === 'open') return `for ${secondsText(load.durationSeconds)}`;
  return load.limit.kind === 'duration'
    ? `for ${secondsText(load.limit.seconds)}`
    : `${formatCount(load.limit.count)} requests`;
}

/** A run's load: "5,000 req/s for 3 s", "10 connections for 10 s", "stages to 200 req/s over 1 m". */
export function loadText(load: Load): string {
  const unit = load.model === 'open' ? 'req/s' : 'connections';
  if (load.stages) {
    return `stages to ${formatCount(peakTarget(load.stages))} ${unit} over ${secondsText(stagesSeconds(load.stages))}`;
  }
  const level = load.model === 'open' ? load.rate : load.connections;
  const cap =
    load.model === 'closed' && load.rate !== null ? `, at most ${formatCount(load.rate)} req/s` : '';
  const length = lengthText(load);
  return `${formatCount(level)} ${unit}${length.startsWith('for') ? ' ' : ', '}${length}${cap}`;
}
