import { describe, expect, it } from 'vitest';
import { comparisonPlanSchema } from '../../shared/comparison/plan.ts';
import { capacityPlanSchema } from '../../shared/capacity/plan.ts';
import { runResultSchema } from '../../shared/model/result.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import {
  editDistance,
  nearestName,
  newerVersionIssue,
  parseWith,
  unknownFieldMessage,
} from '../../shared/model/validation.ts';
import { readHistoryRecord } from '../../shared/records/history.ts';
import { parsePresetFile } from '../../shared/records/presets.ts';
import { runResultFixture } from '../helpers/run-result.ts';

const issues = (r: { ok: true } | { ok: false; issues: { path: string; message: string }[] }) =>
  r.ok ? [] : r.issues.map((i) => `${i.path}: ${i.message}`);

describe('did you mean', () => {
  it('counts a swap of two neighbours as one edit, and ignores case', () => {
    expect(editDistance('laod', 'load')).toBe(1);
    expect(editDistance('methd', 'method')).toBe(1);
    expect(editDistance('optoins', 'options')).toBe(1);
    expect(editDistance('CAFILE', 'caFile')).toBe(0);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('suggests a name within a third of the typo’s length, and nothing for a stranger', () => {
    const known = ['version', 'name', 'targets', 'load', 'options'];
    expect(nearestName('laod', known)).toBe('load');
    expect(nearestName('target', known)).toBe('targets');
    expect(nearestName('optoins', known)).toBe('options');
    expect(nearestName('bogusField', known)).toBeNull();
    expect(nearestName('p99', ['p99Ms', 'errorPercent'])).toBe('p99Ms');
    expect(nearestName('x'.repeat(100_000), known)).toBeNull();
    expect(unknownFieldMessage('laod', known)).toBe('unknown field; did you mean `load`?');
    expect(unknownFieldMessage('zzz', ['a', 'b'])).toBe('unknown field (the fields here are `a`, `b`)');
  });
});

describe('strict file schemas', () => {
  it('name every unknown field at its own path, at any depth', () => {
    const r = parseWith(scenarioSchema, {
      targets: [
        { url: 'http://127.0.0.1/', methd: 'POST', headers: [{ name: 'a', value: 'b', vaule: 'c' }] },
      ],
      laod: {},
      load: { model: 'open', rat: 5 },
    });
    expect(issues(r)).toEqual([
      'targets.0.headers.0.vaule: unknown field; did you mean `value`?',
      'targets.0.methd: unknown field; did you mean `method`?',
      'load.rat: unknown field; did you mean `rate`?',
      'laod: unknown field; did you mean `load`?',
    ]);
  });

  it('refuses unknown fields in comparison and capacity plans and in results', () => {
    const plan = parseWith(comparisonPlanSchema, {
      targets: [{ urls: { https: 'https://127.0.0.1/', htp: 'http://127.0.0.1/' } }],
      protocols: ['https'],
      load: { model: 'closed' },
      levels: [1],
    });
    expect(issues(plan)).toEqual(['targets.0.urls.htp: unknown field; did you mean `http`?']);
    const capacity = parseWith(capacityPlanSchema, {
      targets: [{ url: 'http://127.0.0.1/' }],
      search: { goal: { p99: 10 } },
    });
    expect(issues(capacity)).toContain('search.goal.p99: unknown field; did you mean `p99Ms`?');
    const result = { ...runResultFixture(), requests: { ...runResultFixture().requests, okk: 1 } };
    expect(issues(parseWith(runResultSchema, result))).toEqual([
      'requests.okk: unknown field; did you mean `ok`?',
    ]);
  });

  it('counts past 20 unknown fields of one object instead of naming them all', () => {
    const extra = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`x${i}`, i]));
    const r = issues(parseWith(scenarioSchema, { targets: [{ url: 'http://127.0.0.1/' }], ...extra }));
    expect(r).toHaveLength(21);
    expect(r.at(-1)).toBe(': and 9980 more unknown fields');
  });

  it('reads a preset of every earlier version and a version 1 run record, and refuses newer ones by name', () => {
    const v1 = {
      format: 'trebuchet-preset',
      version: 1,
      name: 'old',
      savedAt: '2024-01-01T00:00:00.000Z',
      scenario: { targets: [{ url: 'http://127.0.0.1/' }] },
    };
    expect(parsePresetFile(v1).ok).toBe(true);
    expect(issues(parsePresetFile({ ...v1, version: 7, newThing: 1 }))).toEqual([
      'version: this preset is format version 7, written by a newer version of Trebuchet; this version of Trebuchet reads format versions 1 to 5',
    ]);
    expect(issues(readHistoryRecord({ format: 'trebuchet-run', version: 4, appVersion: '9.0.0' }))).toEqual([
      'version: this saved run is format version 4, written by Trebuchet 9.0.0; this version of Trebuchet reads format versions 1 to 3',
    ]);
    expect(newerVersionIssue({ version: 1 }, 'scenario file', 1)).toBeNull();
    expect(newerVersionIssue({ version: 1.5 }, 'scenario file', 1)).toBeNull();
  });
});
