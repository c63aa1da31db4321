import { describe, expect, it } from 'vitest';
import { builtInPresets } from '../../electron/stores/built-in-presets.ts';
import { capacityPlanOfComparison } from '../../shared/capacity/from-comparison.ts';
import { capacityPlanSchema, stepScenario } from '../../shared/capacity/plan.ts';
import { comparisonPlanSchema, type ComparisonPlan } from '../../shared/comparison/plan.ts';

function preset(id: string) {
  const p = builtInPresets().find((x) => x.id === id);
  if (!p) throw new Error(`no built-in preset ${id}`);
  return p;
}

const seed000 = (): ComparisonPlan => {
  const p = preset('builtin-seed-000-vegeta-rate');
  if (p.kind !== 'comparison') throw new Error('seed 000 is a comparison');
  return p.plan;
};

describe('a comparison as capacity searches', () => {
  it('searches each target over each protocol, protocol by protocol, with the comparison’s requests', () => {
    const plan = capacityPlanSchema.parse(capacityPlanOfComparison(seed000(), { goal: { p99Ms: 10 } }));
    expect(plan.targets.map((t) => [t.name, t.url, t.protocol])).toEqual([
      ['Apache · http', 'http://apache.example:8081/test.html', 'http1.1'],
      ['nginx · http', 'http://nginx.example:8082/test.html', 'http1.1'],
      ['H2O · http', 'http://h2o.example:8083/test.html', 'http1.1'],
      ['Apache · https', 'https://apache.example:4431/test.html', 'http1.1'],
      ['nginx · https', 'https://nginx.example:4432/test.html', 'http1.1'],
      ['H2O · https', 'https://h2o.example:4433/test.html', 'http1.1'],
    ]);
    // The open-model comparison's in-flight cap; the search's own steps and warm-up.
    expect(plan.maxInFlight).toBe(10_000);
    expect(plan.search).toMatchObject({
      goal: { p99Ms: 10, errorPercent: 1 },
      stepSeconds: 5,
      warmupSeconds: 1,
    });
  });

  it('runs an h2 search over HTTP/2 and names servers alone when there is one protocol', () => {
    const cmp = comparisonPlanSchema.parse({
      targets: [
        { name: 'nginx', urls: { https: 'https://127.0.0.1:4432/' } },
        { name: '', urls: { https: 'https://127.0.0.1:4433/', h2: 'https://127.0.0.1:4443/' } },
      ],
      protocols: ['h2'],
      load: { model: 'closed', connections: 10, limit: { kind: 'duration', seconds: 5 } },
      levels: [10],
    });
    const plan = capacityPlanSchema.parse(
      capacityPlanOfComparison(cmp, { goal: { p99Ms: 5 }, startRate: 50, stepSeconds: 2 }),
    );
    expect(plan.targets.map((t) => [t.name, t.url])).toEqual([
      ['nginx', 'https://127.0.0.1:4432/'],
      // Named as the comparison names it (after its first URL), searched at its h2 URL.
      ['127.0.0.1:4433', 'https://127.0.0.1:4443/'],
    ]);
    // A closed-model comparison has no in-flight cap of its own: the open model's default.
    expect(plan.maxInFlight).toBe(1000);
    const step = stepScenario(plan, 1, 200);
    expect(step.options.protocol).toBe('h2');
    expect(step.targets[0]).not.toHaveProperty('protocol');
    // 2 s steps, lengthened to 5 s at 200 req/s for 1,000 requests.
    expect(step.load).toEqual({ model: 'open', rate: 200, durationSeconds: 5, maxInFlight: 1000 });
  });

  it('the built-in "Which server holds the most at p99 < 10 ms" searches seed 000’s servers over both protocols', () => {
    const p = preset('builtin-capacity-p99-10ms');
    expect(p.kind).toBe('capacity');
    if (p.kind !== 'capacity') return;
    expect(p.name).toMatch(/^Which server holds the most at p99 < 10 ms/);
    expect(p.plan.search.goal).toEqual({ p99Ms: 10, errorPercent: 1 });
    const fromSeed = capacityPlanSchema.parse(capacityPlanOfComparison(seed000(), { goal: { p99Ms: 10 } }));
    expect(p.plan.targets.map((t) => [t.name, t.url])).toEqual(fromSeed.targets.map((t) => [t.name, t.url]));
  });
});
