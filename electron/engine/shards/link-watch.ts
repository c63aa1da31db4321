import type { Member } from './assembly.ts';

/*
 * When the coordinator gives up a shard it waits for (coordinator.ts): one not ready within its
 * link's limit (a pod never scheduled, a process that never got going), or one silent past its
 * link's limit once the load began (stopped, hung, its machine gone). Silence is counted against
 * the freshest word of any shard, so a machine too busy for all of them (every link late alike)
 * ends none; once every other shard is done, or when none has said anything past the limit, it
 * is counted against now. Pure.
 */

/** How often the coordinator looks: a fraction of the shortest limit a link has (1 s or more). */
export const WATCH_EVERY_MS = 500;

const seconds = (ms: number): string =>
  `${Number.isInteger(ms / 1000) ? ms / 1000 : (ms / 1000).toFixed(1)} s`;

/** The shards past a limit, and why, in order. */
export function overdueLinks(
  members: readonly Member[],
  at: { now: number; started: boolean; openedAt: number },
): { member: Member; reason: string }[] {
  const { now, started, openedAt } = at;
  let freshest = 0;
  let going = 0;
  for (const m of members) {
    freshest = Math.max(freshest, m.heardAt);
    if (m.lost === null && m.report === null) going++;
  }
  const out: { member: Member; reason: string }[] = [];
  for (const m of members) {
    if (m.lost !== null || m.report !== null) continue;
    const { readyTimeoutMs, silenceMs } = m.backend;
    // Alone, or all silent past the limit: counted against now.
    const since = going === 1 || (silenceMs !== null && now - freshest > silenceMs) ? now : freshest;
    if (!started && !m.ready && readyTimeoutMs !== null && now - openedAt > readyTimeoutMs) {
      const why = m.link.waiting?.();
      out.push({
        member: m,
        reason: `was not ready after ${seconds(readyTimeoutMs)}${why ? ` (${why})` : ''}`,
      });
    } else if (started && silenceMs !== null && since - m.heardAt > silenceMs) {
      out.push({
        member: m,
        reason: `sent nothing for ${seconds(now - m.heardAt)}, past its ${seconds(silenceMs)} limit: ended`,
      });
    }
  }
  return out;
}
