import { describe, expect, it } from 'vitest';
import { expandPlan } from '../../shared/comparison/cells.ts';
import {
  cellCount,
  comparisonPlanSchema,
  levelLabel,
  urlFor,
  type ComparisonPlanInput,
} from '../../shared/comparison/plan.ts';
import { describeIssues, parseWith } from '../../shared/model/validation.ts';

const twoServers: ComparisonPlanInput = {
  name: 'web servers',
  targets: [
    { name: 'apache', urls: { http: 'http://127.0.0.1:81/t.html', https: 'https://127.0.0.1:4431/t.html' } },
    {
      name: 'nginx',
      urls: {
        http: 'http://127.0.0.1:82/t.html',
        https: 'https://127.0.0.1:4432/t.html',
        h2: 'https://127.0.0.1:4442/t.html',
      },
      headers: [{ name: 'X-Test', value: '1' }],
    },
  ],
  protocols: ['http', 'https', 'h2'],
  load: { model: 'closed', connections: 1, limit: { kind: 'duration', seconds: 2 } },
  levels: [100, 1000],
  repetitions: 2,
  options: { warmupSeconds: 1, keepAlive: false },
};

describe('comparison plan schema', () => {
  it('fills defaults and keeps the matrix', () => {
    const plan = comparisonPlanSchema.parse({
      targets: [{ urls: { http: 'http://127.0.0.1:8080/' } }],
      load: { model: 'open' },
      levels: [100, 1000, 10000],
    });
    expect(plan.protocols).toEqual(['http']);
    expect(plan.repetitions).toBe(3);
    expect(plan.pauseSeconds).toBe(0);
    expect(plan.options.warmupSeconds).toBe(0);
    expect(cellCount(plan)).toBe(9);
  });

  it('names every bad field', () => {
    const r = parseWith(comparisonPlanSchema, {
      targets: [
        { urls: { http: 'https://127.0.0.1/', https: 'ftp://x/' } },
        { urls: { http: 'http://127.0.0.1/' } },
      ],
      protocols: ['http', 'https', 'http'],
      load: { model: 'closed' },
      levels: [10, 2.5, 20_000, 10],
      repetitions: 0,
      pauseSeconds: -1,
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const text = describeIssues(r.issues);
    expect(text).toContain('targets.0.urls.http: the http URL must start with http://');
    expect(text).toContain('targets.0.urls.https: URL must start with http:// or https://');
    expect(text).toContain('repetitions: repetitions must be at least 1');
    expect(text).toContain('pauseSeconds: pause must be at least 0');
    // Cross-field checks run once the fields themselves are valid.
    const r2 = parseWith(comparisonPlanSchema, {
      targets: [{ urls: { http: 'http://127.0.0.1/' } }],
      protocols: ['http', 'https', 'http'],
      load: { model: 'closed' },
      levels: [10, 2.5, 20_000, 10],
    });
    expect(r2.ok).toBe(false);
    if (r2.ok) return;
    const t2 = describeIssues(r2.issues);
    expect(t2).toContain('levels.1: connections must be a whole number');
    expect(t2).toContain('levels.2: connections must be between 1 and 10000');
    expect(t2).toContain('levels.3: level 10 is listed twice');
    expect(t2).toContain('protocols.2: http is listed twice');
    expect(t2).toContain('targets.0.urls.https: the plan compares https, but this target has no https URL');
  });

  it('refuses more connections than requests, as ab does', () => {
    const r = parseWith(comparisonPlanSchema, {
      targets: [{ urls: { http: 'http://127.0.0.1/' } }],
      load: { model: 'closed', limit: { kind: 'requests', count: 500 } },
      levels: [10, 1000],
    });
    expect(!r.ok && describeIssues(r.issues)).toBe(
      'levels.1: 1000 connections exceed the 500 requests of the limit',
    );
  });

  it('checks rates, not connections, for the open model', () => {
    const r = parseWith(comparisonPlanSchema, {
      targets: [{ urls: { http: 'http://127.0.0.1/' } }],
      load: { model: 'open' },
      levels: [0.5, 2_000_000],
    });
    expect(!r.ok && describeIssues(r.issues)).toBe('levels.1: rate must be between 0.1 and 1000000');
  });

  it('bounds the targets, the levels and the runs the matrix makes', () => {
    const target = { urls: { http: 'http://127.0.0.1/' } };
    const issues = (input: Partial<ComparisonPlanInput>) => {
      const r = parseWith(comparisonPlanSchema, {
        targets: [target],
        load: { model: 'closed' },
        levels: [1],
        ...input,
      });
      return r.ok ? 'accepted' : describeIssues(r.issues);
    };
    expect(issues({ targets: Array.from({ length: 101 }, () => target) })).toBe(
      'targets: at most 100 targets',
    );
    const levels = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    expect(issues({ levels: levels(101) })).toBe('levels: at most 100 load levels');
    // 100 targets x 100 levels x 1 protocol x 2 repetitions = 20000 runs.
    expect(
      issues({ targets: Array.from({ length: 100 }, () => target), levels: levels(100), repetitions: 2 }),
    ).toBe(
      'repetitions: the plan makes 20000 runs (targets × protocols × levels × repetitions); at most 10000',
    );
    expect(issues({ targets: [{ ...target, headers: [{ name: 'X', value: '\u20ac' }] }] })).toContain(
      'targets.0.headers.0.value: header value has "\u20ac" (U+20AC)',
    );
  });

  it('uses the https URL for h2 unless the target names one', () => {
    const plan = comparisonPlanSchema.parse(twoServers);
    expect(urlFor(plan.targets[0]!, 'h2')).toBe('https://127.0.0.1:4431/t.html');
    expect(urlFor(plan.targets[1]!, 'h2')).toBe('https://127.0.0.1:4442/t.html');
    expect(urlFor({ urls: { http: 'http://a/' } }, 'https')).toBeNull();
  });
});

describe('expandPlan', () => {
  const plan = comparisonPlanSchema.parse(twoServers);
  const cells = expandPlan(plan);

  it('makes targets x levels x protocols x repetitions cells, repetitions outermost', () => {
    expect(cells).toHaveLength(2 * 2 * 3 * 2);
    expect(cells.map((c) => c.index)).toEqual([...Array(24).keys()]);
    const order = cells
      .slice(0, 7)
      .map(
        (c) =>
          `${c.coordinates.repetition}/${c.coordinates.level}/${c.coordinates.protocol}/${c.coordinates.targetIndex}`,
      );
    expect(order).toEqual([
      '0/100/http/0',
      '0/100/http/1',
      '0/100/https/0',
      '0/100/https/1',
      '0/100/h2/0',
      '0/100/h2/1',
      '0/1000/http/0',
    ]);
    expect(cells[12]!.coordinates).toEqual({ targetIndex: 0, protocol: 'http', level: 100, repetition: 1 });
    // Repetitions of a cell share its key; different cells do not.
    expect(cells[12]!.key).toBe(cells[0]!.key);
    expect(new Set(cells.map((c) => c.key)).size).toBe(12);
  });

  it('gives each cell a single-target scenario at its level and protocol', () => {
    const h2 = cells.find(
      (c) =>
        c.coordinates.protocol === 'h2' && c.coordinates.targetIndex === 1 && c.coordinates.level === 1000,
    )!;
    expect(h2.scenario.targets).toEqual([
      {
        name: 'nginx',
        url: 'https://127.0.0.1:4442/t.html',
        method: 'GET',
        headers: [{ name: 'X-Test', value: '1' }],
        body: { kind: 'none' },
        monitor: { kind: 'auto' },
      },
    ]);
    expect(h2.scenario.options.protocol).toBe('h2');
    expect(h2.scenario.load).toEqual({
      model: 'closed',
      connections: 1000,
      pipelining: 1,
      limit: { kind: 'duration', seconds: 2 },
      rate: null,
    });
    expect(h2.scenario.options.warmupSeconds).toBe(1);
    expect(h2.scenario.options.keepAlive).toBe(false);
    expect(h2.scenario.name).toBe('web servers · nginx · h2 · c=1000 · #1');
    const https = cells.find((c) => c.coordinates.protocol === 'https')!;
    expect(https.scenario.options.protocol).toBe('http1.1');
    expect(https.scenario.targets[0]!.url).toBe('https://127.0.0.1:4431/t.html');
  });

  it('sets the rate for the open model', () => {
    const open = comparisonPlanSchema.parse({
      targets: [{ urls: { http: 'http://127.0.0.1/' } }],
      load: { model: 'open', durationSeconds: 5 },
      levels: [100, 1000],
      repetitions: 1,
    });
    expect(expandPlan(open).map((c) => c.scenario.load)).toEqual([
      { model: 'open', rate: 100, durationSeconds: 5, maxInFlight: 1000 },
      { model: 'open', rate: 1000, durationSeconds: 5, maxInFlight: 1000 },
    ]);
    expect(levelLabel('rate', 100)).toBe('100 req/s');
    expect(levelLabel('connections', 100)).toBe('c=100');
  });
});
