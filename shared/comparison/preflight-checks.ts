import type { ComparisonCell } from './cells.ts';
import type { PreflightCheck } from '../model/preflight.ts';
import type { Scenario } from '../model/scenario.ts';

/**
 * The distinct URLs a comparison's cells measure, each with one cell's scenario to check it
 * by. Levels and repetitions never change the URL; what the pre-flight sends (method,
 * headers, body, the list's requests) and how it connects (route, protocol, TLS options)
 * make a URL distinct.
 */
export function preflightChecks(
  cells: readonly ComparisonCell[],
): { check: PreflightCheck; scenario: Scenario }[] {
  const byKey = new Map<string, { check: PreflightCheck; scenario: Scenario }>();
  for (const cell of cells) {
    const t = cell.scenario.targets[0];
    if (!t) continue;
    const o = cell.scenario.options;
    const key = JSON.stringify([
      t.url,
      t.method,
      t.headers,
      t.body,
      t.requests,
      t.connectTo,
      t.unixSocket,
      o.protocol,
      o.tls,
      o.timeoutMs,
    ]);
    const known = byKey.get(key);
    if (known) {
      if (!known.check.targets.includes(cell.target)) known.check.targets.push(cell.target);
      continue;
    }
    byKey.set(key, {
      check: { url: t.url, protocol: o.protocol, targets: [cell.target] },
      scenario: cell.scenario,
    });
  }
  return [...byKey.values()];
}
