import { describe, expect, it } from 'vitest';
import { capacityPlanOfComparison } from '../../shared/capacity/from-comparison.ts';
import { capacityPlanSchema } from '../../shared/capacity/plan.ts';
import { expandPlan } from '../../shared/comparison/cells.ts';
import { preflightChecks } from '../../shared/comparison/preflight-checks.ts';
import { comparisonPlanSchema } from '../../shared/comparison/plan.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import { newListDraft } from '../../renderer/editor/listDraft.ts';
import { checkPlanDraft, defaultPlanDraft, draftFromPlan } from '../../renderer/views/Compare/planDraft.ts';
import { checkCapacityDraft, draftFromCapacityPlan } from '../../renderer/views/Capacity/capacityDraft.ts';

/* A comparison whose target holds a list of requests: every cell sends the list to its own server. */

const plan = comparisonPlanSchema.parse({
  name: 'page mix',
  targets: [
    {
      name: 'nginx',
      urls: { http: 'http://127.0.0.1:82/', https: 'https://127.0.0.1:4432/' },
      requests: [
        { url: 'http://127.0.0.1:8080/index.html' },
        { url: 'http://127.0.0.1:8080/api?q=1', method: 'POST', headers: [{ name: 'X-A', value: '1' }] },
      ],
      order: { kind: 'random', seed: 7 },
    },
    { name: 'apache', urls: { http: 'http://127.0.0.1:81/', https: 'https://127.0.0.1:4431/' } },
  ],
  protocols: ['http', 'https'],
  load: { model: 'closed', limit: { kind: 'requests', count: 100 } },
  levels: [10],
});

describe('a comparison target with a list', () => {
  it("runs each cell with the list on the cell's server, path and query kept, in its order", () => {
    const cells = expandPlan(plan);
    const nginx = cells.filter((c) => c.coordinates.targetIndex === 0 && c.coordinates.repetition === 0);
    expect(nginx.map((c) => c.scenario.targets[0]!.requests!.map((r) => r.url))).toEqual([
      ['http://127.0.0.1:82/index.html', 'http://127.0.0.1:82/api?q=1'],
      ['https://127.0.0.1:4432/index.html', 'https://127.0.0.1:4432/api?q=1'],
    ]);
    expect(nginx[0]!.scenario.targets[0]!.requests![1]).toMatchObject({
      method: 'POST',
      headers: [{ name: 'X-A', value: '1' }],
    });
    expect(nginx[0]!.scenario.targets[0]!.order).toEqual({ kind: 'random', seed: 7 });
    // Each cell's scenario is one the run schema takes (its list on its URL's origin).
    for (const c of cells) expect(scenarioSchema.safeParse(c.scenario).success).toBe(true);
    expect(
      cells.filter((c) => c.coordinates.targetIndex === 1)[0]!.scenario.targets[0]!.requests,
    ).toBeUndefined();
    // The pre-flight checks the list's server once per protocol, apart from apache's.
    expect(preflightChecks(cells)).toHaveLength(4);
  });

  it('a search from the comparison searches each server with its list; the Capacity editor keeps it', () => {
    const capacity = capacityPlanSchema.parse(
      capacityPlanOfComparison(plan, { goal: { p99Ms: 10 }, startRate: 10, maxRate: 1000 }),
    );
    expect(capacity.targets[2]!.requests!.map((r) => r.url)).toEqual([
      'https://127.0.0.1:4432/index.html',
      'https://127.0.0.1:4432/api?q=1',
    ]);
    const d = draftFromCapacityPlan(capacity);
    const again = checkCapacityDraft(d);
    expect(again.ok && again.plan).toEqual(capacity);
    // Another URL typed for the server: the list follows it.
    const moved = checkCapacityDraft({
      ...d,
      targets: d.targets.map((t, i) => (i === 2 ? { ...t, url: 'https://127.0.0.1:9443/' } : t)),
    });
    expect(moved.ok && moved.plan.targets[2]!.requests!.map((r) => r.url)).toEqual([
      'https://127.0.0.1:9443/index.html',
      'https://127.0.0.1:9443/api?q=1',
    ]);
  });

  it('the editor opens and checks it again unchanged (a preset round-trips)', () => {
    const d = draftFromPlan(plan);
    expect(d.targets[0]!.list).toMatchObject({ format: 'http', order: 'random', seed: '7' });
    const check = checkPlanDraft(d);
    expect(check.ok && check.plan).toEqual(plan);
  });

  it('a list pasted in the Compare tab is checked at its field', () => {
    const d = defaultPlanDraft();
    const bad = {
      ...d,
      targets: d.targets.map((t, i) => ({
        ...t,
        urls: { ...t.urls, http: `http://127.0.0.1:8${i}/` },
        ...(i === 0 ? { list: newListDraft('http://127.0.0.1:9/a\n:nope\n') } : {}),
      })),
    };
    const check = checkPlanDraft(bad);
    expect(check.ok).toBe(false);
    expect(check.issues.get('targets.0.requests')).toMatch(/^line 2, url: /);
  });
});
