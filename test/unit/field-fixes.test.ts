import { describe, expect, it } from 'vitest';
import { durationProblem, splitHeaderLine, urlFix } from '../../renderer/editor/fieldFixes.ts';
import { httpUrlMeant } from '../../shared/model/http-url.ts';
import { whatRan } from '../../shared/records/kinds.ts';
import { loadText } from '../../shared/records/what-ran.ts';
import { comparisonPlanSchema } from '../../shared/comparison/plan.ts';
import { capacityPlanSchema } from '../../shared/capacity/plan.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';

describe('what a field offers for what was typed', () => {
  it('the URL meant without its scheme', () => {
    expect(httpUrlMeant('localhost:8181')).toBe('http://localhost:8181');
    expect(httpUrlMeant(' 127.0.0.1:8080/test.html ')).toBe('http://127.0.0.1:8080/test.html');
    expect(httpUrlMeant('nginx.example')).toBe('http://nginx.example');
    expect(httpUrlMeant('[::1]:8080')).toBe('http://[::1]:8080');
    // A scheme already, a bare word, spaces, credentials: no guess.
    for (const t of ['http://x:1', 'ftp://x', 'nope', 'not a url', 'user:pw@host:1', '']) {
      expect(httpUrlMeant(t), t).toBeNull();
    }
    expect(urlFix('localhost:8181')).toEqual({
      label: 'Use http://localhost:8181',
      value: 'http://localhost:8181',
    });
  });

  it('a header line typed into the name, split at its first colon', () => {
    expect(splitHeaderLine('X-Test: 1')).toEqual({ name: 'X-Test', value: '1' });
    expect(splitHeaderLine('Authorization: Bearer a:b')).toEqual({
      name: 'Authorization',
      value: 'Bearer a:b',
    });
    expect(splitHeaderLine('X-Empty:')).toEqual({ name: 'X-Empty', value: '' });
    expect(splitHeaderLine('Accept')).toBeNull();
    expect(splitHeaderLine(':authority')).toBeNull();
  });

  it('what a duration field takes, when the text is none', () => {
    expect(durationProblem('abc', 's')).toBe('"abc" is not a duration: type 10, 10s, 1m30s');
    expect(durationProblem('1m30s', 's')).toBeNull();
    expect(durationProblem('', 's')).toBeNull();
    expect(durationProblem('fast', 'ms')).toBe('"fast" is not a duration: type 300, 300ms, 1.5s');
  });
});

describe('what a saved run ran', () => {
  it('reads the load of a run, a comparison and a capacity search', () => {
    const run = (load: unknown) => scenarioSchema.parse({ targets: [{ url: 'http://127.0.0.1:1/' }], load });
    expect(whatRan({ kind: 'run', scenario: run({ model: 'open', rate: 5000, durationSeconds: 3 }) })).toBe(
      '5,000 req/s for 3 s',
    );
    expect(
      loadText(run({ model: 'closed', connections: 10, limit: { kind: 'requests', count: 1000 } }).load),
    ).toBe('10 connections, 1,000 requests');
    expect(
      loadText(
        run({ model: 'closed', connections: 2, rate: 50, limit: { kind: 'duration', seconds: 1.5 } }).load,
      ),
    ).toBe('2 connections for 1.5 s, at most 50 req/s');
    const plan = comparisonPlanSchema.parse({
      targets: [{ name: 'a', urls: { http: 'http://127.0.0.1:1/' } }],
      load: { model: 'open', rate: 1, durationSeconds: 3 },
      levels: [1000, 100],
      repetitions: 2,
    });
    expect(whatRan({ kind: 'comparison', plan })).toBe('100, 1,000 req/s · for 3 s per cell, 2 runs each');
    const capacity = capacityPlanSchema.parse({
      targets: [{ url: 'http://127.0.0.1:1/' }],
      search: { goal: { p99Ms: 10 }, stepSeconds: 2 },
    });
    expect(whatRan({ kind: 'capacity', plan: capacity })).toBe('p99 < 10 ms · 2 s steps');
  });
});
