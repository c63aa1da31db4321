import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../shared/model/defaults.ts';
import { parsePresetFile, PRESET_FORMAT, presetFileName } from '../../shared/records/presets.ts';
import { summarizePreset } from '../../shared/records/preset-summary.ts';
import { isSecretHeader } from '../../shared/model/secret-headers.ts';
import { secretHeadersOf } from '../../shared/records/preset-summary.ts';
import { describeIssues } from '../../shared/model/validation.ts';

const ctx = { newId: () => 'fresh-id', now: () => new Date('2025-03-04T05:06:07.000Z') };

const v5 = {
  format: PRESET_FORMAT,
  version: 5,
  id: 'p1',
  name: 'nginx smoke',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-02T00:00:00.000Z',
  kind: 'run',
  scenario: {
    targets: [{ url: 'http://127.0.0.1:8080/', headers: [{ name: 'Authorization', value: 'Bearer x' }] }],
  },
};
const { scenario: _scenario, ...withoutScenario } = v5;

function errors(input: unknown): string {
  const r = parsePresetFile(input, ctx);
  if (r.ok) throw new Error('expected the input to be refused');
  return describeIssues(r.issues);
}

describe('parsePresetFile', () => {
  it('reads the current version as is, with defaults filled', () => {
    const r = parsePresetFile(v5, ctx);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.migratedFrom).toBeNull();
    expect(r.value.id).toBe('p1');
    expect(r.value.description).toBe('');
    expect(r.value.kind === 'run' && r.value.scenario.load.model).toBe('closed');
  });

  it('migrates version 1 to the current version', () => {
    const r = parsePresetFile(
      {
        format: PRESET_FORMAT,
        version: 1,
        name: 'old one',
        savedAt: '2024-06-01T12:00:00.000Z',
        scenario: { targets: [{ url: 'http://127.0.0.1:8080/' }], load: { model: 'open', rate: 500 } },
      },
      ctx,
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.migratedFrom).toBe(1);
    const p = r.value;
    expect(p).toMatchObject({
      format: PRESET_FORMAT,
      version: 5,
      id: 'fresh-id',
      name: 'old one',
      createdAt: '2024-06-01T12:00:00.000Z',
      updatedAt: '2024-06-01T12:00:00.000Z',
      kind: 'run',
    });
    expect(p.kind === 'run' && p.scenario.load).toEqual({
      model: 'open',
      rate: 500,
      durationSeconds: 5,
      maxInFlight: 1000,
    });
  });

  it("migrates a version 2 comparison to 3, naming the report its load's tool would print", () => {
    const plan = (load: object, options: object = {}) => ({
      format: PRESET_FORMAT,
      version: 2,
      id: 'c1',
      name: 'servers',
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
      kind: 'comparison',
      plan: { targets: [{ urls: { http: 'http://127.0.0.1:1/' } }], load, levels: [10], options },
    });
    const report = (input: unknown) => {
      const r = parsePresetFile(input, ctx);
      if (!r.ok) throw new Error(describeIssues(r.issues));
      expect(r.migratedFrom).toBe(2);
      expect(r.value.version).toBe(5);
      return r.value.kind === 'comparison' ? r.value.plan.report : undefined;
    };
    const columns = [...DEFAULTS.comparison.columns];
    expect(report(plan({ model: 'closed' }))).toEqual({ format: 'ab', columns });
    expect(report(plan({ model: 'open' }))).toEqual({ format: 'vegeta', columns });
    expect(report(plan({ model: 'closed' }, { sloMs: 300 }))).toEqual({ format: 'jmeter', columns });
    // A version 3 file keeps its own, and one without a report gets the same default.
    const own = { format: 'http_load', columns: ['rps', 'connectMean'] };
    const v3plan = { ...plan({ model: 'closed' }), version: 3 };
    const read = (input: unknown) => {
      const r = parsePresetFile(input, ctx);
      return r.ok && r.value.kind === 'comparison' ? r.value.plan.report : undefined;
    };
    expect(read({ ...v3plan, plan: { ...v3plan.plan, report: own } })).toEqual(own);
    expect(read(v3plan)).toEqual({ format: 'ab', columns });
    expect(
      errors({ ...v3plan, plan: { ...v3plan.plan, report: { format: 'k6', columns: ['rps'] } } }),
    ).toMatch(/^plan\.report\.format: /);
    expect(
      errors({ ...v3plan, plan: { ...v3plan.plan, report: { format: 'ab', columns: ['rps', 'rps'] } } }),
    ).toBe('plan.report.columns: a column is listed twice');
  });

  it("migrates versions 3 and 4 unchanged but for a run's kind ('scenario' then), and keeps a staged load", () => {
    const r = parsePresetFile({ ...v5, version: 3, kind: 'scenario' }, ctx);
    expect(r.ok && r.migratedFrom).toBe(3);
    expect(r.ok && r.value.version).toBe(5);
    const fromV4 = parsePresetFile({ ...v5, version: 4, kind: 'scenario' }, ctx);
    expect(fromV4.ok && fromV4.migratedFrom).toBe(4);
    const fromV5 = parsePresetFile(v5, ctx);
    expect(r.ok && fromV4.ok && r.value).toEqual(fromV4.ok && fromV4.value);
    expect(r.ok && fromV5.ok && r.value).toEqual(fromV5.ok && fromV5.value);
    // A version 4 file saying 'run', or a version 5 one saying 'scenario', is no file any version wrote.
    expect(errors({ ...v5, version: 4 })).toMatch(/^kind: /);
    expect(errors({ ...v5, kind: 'scenario' })).toMatch(/^kind: /);

    const stages = [
      { durationSeconds: 2, target: 200 },
      { durationSeconds: 2, target: 200 },
    ];
    const staged = parsePresetFile(
      { ...v5, scenario: { ...v5.scenario, load: { model: 'open', stages, maxInFlight: 50 } } },
      ctx,
    );
    expect(staged.ok && staged.value.kind === 'run' && staged.value.scenario.load).toEqual({
      model: 'open',
      rate: DEFAULTS.open.rate,
      durationSeconds: DEFAULTS.open.durationSeconds,
      maxInFlight: 50,
      stages,
    });
    expect(
      errors({
        ...v5,
        scenario: {
          ...v5.scenario,
          load: {
            model: 'closed',
            stages: [
              { durationSeconds: 1, target: 5 },
              { durationSeconds: 1, target: 1.5 },
            ],
          },
        },
      }),
    ).toBe('scenario.load.stages.1.target: stage target must be a whole number of connections');
  });

  it('wraps a bare scenario or comparison plan into a new preset', () => {
    const s = parsePresetFile({ name: 'from a run', targets: [{ url: 'http://127.0.0.1:1/' }] }, ctx);
    expect(s.ok && s.value).toMatchObject({
      id: 'fresh-id',
      name: 'from a run',
      kind: 'run',
      createdAt: '2025-03-04T05:06:07.000Z',
    });
    const p = parsePresetFile(
      { targets: [{ urls: { http: 'http://127.0.0.1:1/' } }], load: { model: 'closed' }, levels: [1, 2] },
      ctx,
    );
    expect(p.ok && p.value.kind).toBe('comparison');
    expect(p.ok && p.value.name).toBe('Untitled comparison');
  });

  it('names the field for anything else', () => {
    expect(errors('hello')).toBe('a preset file must hold a JSON object');
    expect(errors([1, 2])).toBe('a preset file must hold a JSON object');
    expect(errors({ hello: 1 })).toMatch(/^format: not a Trebuchet preset/);
    expect(errors({ format: 'k6' })).toBe(
      'format: not a Trebuchet preset (expected "format": "trebuchet-preset")',
    );
    expect(errors({ format: PRESET_FORMAT })).toBe('version: version must be a number');
    expect(errors({ ...v5, version: 9 })).toBe(
      'version: this preset is format version 9, written by a newer version of Trebuchet; this version of Trebuchet reads format versions 1 to 5',
    );
    expect(errors({ ...v5, version: 0 })).toBe(
      'version: unknown preset version 0; this app reads versions 1 to 5',
    );
    expect(errors({ ...v5, name: '  ' })).toBe('name: name is empty');
    expect(errors({ ...v5, createdAt: 'yesterday' })).toBe('createdAt: must be a date and time (ISO 8601)');
    expect(errors({ ...v5, kind: 'playlist' })).toMatch(/^kind: /);
    expect(errors({ ...v5, scenario: { targets: [{ url: 'ftp://x' }] } })).toBe(
      'scenario.targets.0.url: URL must start with http:// or https:// (got ftp://)',
    );
    expect(
      errors({
        ...v5,
        scenario: { targets: [{ url: 'http://a/' }], load: { model: 'closed', connections: 0 } },
      }),
    ).toBe('scenario.load.connections: connections must be at least 1');
    expect(
      errors({
        ...withoutScenario,
        kind: 'comparison',
        plan: { targets: [{ urls: { http: 'http://a/' } }], load: { model: 'closed' }, levels: [] },
      }),
    ).toBe('plan.levels: add at least one load level');
    expect(errors({ targets: [] })).toBe('targets: add at least one target');
  });
});

describe('secret headers', () => {
  it('recognises credentials by header name', () => {
    for (const n of [
      'Authorization',
      'cookie',
      'Proxy-Authorization',
      'X-API-Key',
      'X-Auth-Token',
      'x-goog-api-key',
      'Api-Key',
      'token',
    ]) {
      expect(isSecretHeader(n), n).toBe(true);
    }
    for (const n of ['Accept', 'X-Request-Id', 'Content-Type', 'X-Tokens-Left', 'Keyboard']) {
      expect(isSecretHeader(n), n).toBe(false);
    }
  });

  it('lists the secret values of a preset, ignoring empty ones', () => {
    const r = parsePresetFile(
      {
        ...v5,
        scenario: {
          targets: [
            {
              name: 'nginx',
              url: 'http://127.0.0.1:1/',
              headers: [
                { name: 'Accept', value: '*/*' },
                { name: 'Cookie', value: 'a=1' },
              ],
            },
            {
              url: 'http://127.0.0.1:2/x',
              headers: [
                { name: 'Authorization', value: '' },
                { name: 'X-Api-Key', value: 'k' },
              ],
            },
          ],
        },
      },
      ctx,
    );
    if (!r.ok) throw new Error(describeIssues(r.issues));
    expect(secretHeadersOf(r.value)).toEqual([
      { targetIndex: 0, headerIndex: 1, target: 'nginx', header: 'Cookie' },
      { targetIndex: 1, headerIndex: 1, target: '127.0.0.1:2/x', header: 'X-Api-Key' },
    ]);
    const summary = summarizePreset(r.value, 'user');
    expect(summary.secretCount).toBe(2);
    expect(summary.targets).toEqual(['nginx', '127.0.0.1:2/x']);
  });
});

describe('presetFileName', () => {
  it('makes a safe file name from the preset name', () => {
    expect(presetFileName('ab -n 50000 -c 500 on an 8 KB image')).toBe(
      'ab-n-50000-c-500-on-an-8-kb-image.trebuchet-preset.json',
    );
    expect(presetFileName('../../etc/passwd')).toBe('etc-passwd.trebuchet-preset.json');
    expect(presetFileName('日本語')).toBe('preset.trebuchet-preset.json');
  });
});
