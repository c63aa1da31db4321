import { describe, expect, it } from 'vitest';
import { comparisonPlanSchema } from '../../shared/comparison.ts';
import {
  checkCapacityDraft,
  defaultCapacityDraft,
  draftFromComparison,
} from '../../renderer/views/Capacity/capacityDraft.ts';

describe('the Capacity editor from a comparison', () => {
  it('takes the servers and protocols of the comparison, and keeps the goal the editor holds', () => {
    const comparison = comparisonPlanSchema.parse({
      name: 'nginx vs Apache',
      targets: [
        { name: 'nginx', urls: { http: 'http://127.0.0.1:8082/', https: 'https://127.0.0.1:4432/' } },
        { name: 'Apache', urls: { http: 'http://127.0.0.1:8081/', https: 'https://127.0.0.1:4431/' } },
      ],
      protocols: ['http', 'h2'],
      load: { model: 'open', rate: 100, durationSeconds: 5, maxInFlight: 500 },
      levels: [100, 1000],
    });
    const current = { ...defaultCapacityDraft(), p99Ms: '25', startRate: '400', stepSeconds: '3' };
    const draft = draftFromComparison(comparison, current);
    expect([draft.name, draft.p99Ms, draft.startRate, draft.stepSeconds, draft.maxInFlight]).toEqual([
      'nginx vs Apache',
      '25',
      '400',
      '3',
      '500',
    ]);
    const check = checkCapacityDraft(draft);
    if (!check.ok) throw new Error(JSON.stringify(check.list));
    expect(check.plan.search).toMatchObject({ goal: { p99Ms: 25 }, startRate: 400, stepSeconds: 3 });
    expect(check.plan.targets.map((t) => [t.name, t.url, t.protocol])).toEqual([
      ['nginx · http', 'http://127.0.0.1:8082/', 'http1.1'],
      ['Apache · http', 'http://127.0.0.1:8081/', 'http1.1'],
      ['nginx · h2', 'https://127.0.0.1:4432/', 'h2'],
      ['Apache · h2', 'https://127.0.0.1:4431/', 'h2'],
    ]);
  });
});
