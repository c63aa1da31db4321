import { describe, expect, it } from 'vitest';
import { capacityPlanSchema } from '../../shared/capacity/plan.ts';
import { comparisonPlanSchema } from '../../shared/comparison/plan.ts';
import {
  checkCapacityDraft,
  defaultCapacityDraft,
  draftFromCapacityPlan,
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

describe('the Capacity editor and workers', () => {
  const saved = (workers: number | 'auto') =>
    capacityPlanSchema.parse({
      name: 'nginx',
      targets: [{ name: 'nginx', url: 'http://127.0.0.1:8082/' }],
      search: { goal: { p99Ms: 10 } },
      options: { workers },
    });

  it("keeps a preset's workers through load and save, and names the field when the text is bad", () => {
    for (const workers of [2, 'auto'] as const) {
      const d = draftFromCapacityPlan(saved(workers));
      expect(d.workers).toBe(String(workers));
      const check = checkCapacityDraft(d);
      expect(check).toMatchObject({ ok: true, plan: { options: { workers } } });
      if (check.ok) expect(check.plan).toEqual(saved(workers));
    }
    expect(defaultCapacityDraft().workers).toBe('auto');
    const edited = (workers: string) => checkCapacityDraft({ ...draftFromCapacityPlan(saved(2)), workers });
    expect(edited('3')).toMatchObject({ ok: true, plan: { options: { workers: 3 } } });
    expect(edited('')).toMatchObject({ ok: true, plan: { options: { workers: 'auto' } } });
    expect(edited('0').issues.get('options.workers')).toBe('workers must be at least 1');
    expect(edited('1.5').issues.get('options.workers')).toMatch(/^workers must be/);
    expect(edited('two').issues.get('options.workers')).toMatch(/^workers must be 'auto' or a whole number/);
  });

  it("takes a comparison's workers with its servers", () => {
    const comparison = comparisonPlanSchema.parse({
      name: 'two workers',
      targets: [{ name: 'nginx', urls: { http: 'http://127.0.0.1:8082/' } }],
      load: { model: 'open', rate: 100, durationSeconds: 5 },
      levels: [100],
      options: { workers: 2 },
    });
    const draft = draftFromComparison(comparison, defaultCapacityDraft());
    expect(draft.workers).toBe('2');
    expect(checkCapacityDraft(draft)).toMatchObject({ ok: true, plan: { options: { workers: 2 } } });
  });
});
