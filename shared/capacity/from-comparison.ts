/**
 * A comparison as capacity searches: one per target and protocol, so the answer is one bar
 * per server (and protocol), the highest rate each holds within the goal, instead of a
 * matrix at levels picked by hand. Pure.
 */
import type { CapacitySearchInput } from './search.ts';
import type { CapacityPlanInput } from './plan.ts';
import { comparisonTargetLabel, requestsAt, urlFor, type ComparisonPlan } from '../comparison/plan.ts';
import { DEFAULTS } from '../model/defaults.ts';

/**
 * The capacity job that searches each of the comparison's targets over each of its protocols
 * (protocol by protocol, servers side by side), with the comparison's requests, options and
 * in-flight cap (an open-model comparison's), and the given goal and steps; for
 * capacityPlanSchema (the search is the caller's input, validated there).
 */
export function capacityPlanOfComparison(
  plan: ComparisonPlan,
  search: CapacitySearchInput,
): CapacityPlanInput {
  const several = plan.protocols.length > 1;
  const targets = plan.protocols.flatMap((protocol) =>
    plan.targets.map(({ urls, ...t }) => {
      const label = comparisonTargetLabel({ ...t, urls });
      // The comparison's schema guarantees a URL for every protocol it lists.
      const url = urlFor({ urls }, protocol) ?? '';
      return {
        ...t,
        name: several ? `${label} · ${protocol}` : label,
        url,
        ...(t.requests ? { requests: requestsAt(t.requests, url) } : {}),
        protocol: protocol === 'h2' ? ('h2' as const) : ('http1.1' as const),
      };
    }),
  );
  // Each step warms up as the search says, not as the comparison's cells did.
  const { warmupSeconds: _cells, ...options } = plan.options;
  return {
    name: plan.name,
    targets,
    search,
    maxInFlight: plan.load.model === 'open' ? plan.load.maxInFlight : DEFAULTS.open.maxInFlight,
    options,
  };
}
