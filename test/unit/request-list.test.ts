import { describe, expect, it } from 'vitest';
import { capacityPlanSchema } from '../../shared/capacity/plan.ts';
import { formatTextReport } from '../../shared/format/report.ts';
import { formatAbReport } from '../../shared/format/ab.ts';
import { runHtmlReport } from '../../shared/format/html-report.ts';
import { runResultFixture } from '../helpers/run-result.ts';
import { LIMITS } from '../../shared/model/defaults.ts';
import {
  originFacts,
  originGroups,
  requestOfSend,
  shardSequence,
  WHOLE_SEQUENCE,
} from '../../shared/model/request-list.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import { parseWith, type FieldIssue } from '../../shared/model/validation.ts';
import { evenShares } from '../../shared/shards/plan.ts';
import { detectFormat, parseTargets } from '../../shared/targets-file/formats.ts';
import { problemText } from '../../shared/targets-file/problem.ts';

const issues = (r: { ok: true } | { ok: false; issues: FieldIssue[] }): FieldIssue[] =>
  r.ok ? [] : r.issues;

const problem = (text: string, format: 'http' | 'json' | 'urls' | null = null): string => {
  const r = parseTargets(text, format);
  return r.ok ? 'parsed' : problemText(r.problem);
};

describe('targets files: vegeta http, vegeta JSON, http_load urls', () => {
  it('reads vegeta http format: request lines, headers, @body, comments, blank lines', () => {
    const text = [
      '# the page mix',
      'GET http://127.0.0.1:8080/a?x=1',
      'X-Account-ID: 8675309',
      'Accept: text/html',
      '',
      'POST http://127.0.0.1:8080/things',
      'Content-Type: application/json',
      '@bodies/thing.json',
      'DELETE http://127.0.0.1:8080/things/1',
      '',
    ].join('\r\n');
    expect(detectFormat(text)).toBe('http');
    expect(parseTargets(text)).toEqual({
      ok: true,
      format: 'http',
      requests: [
        {
          method: 'GET',
          url: 'http://127.0.0.1:8080/a?x=1',
          headers: [
            { name: 'X-Account-ID', value: '8675309' },
            { name: 'Accept', value: 'text/html' },
          ],
        },
        {
          method: 'POST',
          url: 'http://127.0.0.1:8080/things',
          headers: [{ name: 'Content-Type', value: 'application/json' }],
          body: { kind: 'file', path: 'bodies/thing.json' },
        },
        { method: 'DELETE', url: 'http://127.0.0.1:8080/things/1', headers: [] },
      ],
    });
  });

  it('reads vegeta JSON lines: header lists, base64 body', () => {
    const text = [
      '{"method":"POST","url":"http://127.0.0.1:8080/p","header":{"X-A":["1","2"]},"body":"aGk="}',
      '',
      '{"method":"GET","url":"http://127.0.0.1:8080/g"}',
    ].join('\n');
    expect(detectFormat(text)).toBe('json');
    expect(parseTargets(text)).toEqual({
      ok: true,
      format: 'json',
      requests: [
        {
          method: 'POST',
          url: 'http://127.0.0.1:8080/p',
          headers: [
            { name: 'X-A', value: '1' },
            { name: 'X-A', value: '2' },
          ],
          body: { kind: 'upload', name: 'line 1', data: 'aGk=' },
        },
        { method: 'GET', url: 'http://127.0.0.1:8080/g', headers: [] },
      ],
    });
  });

  it("reads http_load's url file: one GET per line", () => {
    const text = 'http://127.0.0.1:8080/\n\nhttp://127.0.0.1:8080/big.bin\n';
    expect(detectFormat(text)).toBe('urls');
    const r = parseTargets(text);
    expect(r.ok && r.requests).toEqual([
      { method: 'GET', url: 'http://127.0.0.1:8080/' },
      { method: 'GET', url: 'http://127.0.0.1:8080/big.bin' },
    ]);
  });

  it.each([
    [
      'GET http://127.0.0.1/\nX-Bad Name: 1',
      'line 2, header: header name has characters HTTP does not allow',
    ],
    ['GET http://127.0.0.1/\nno colon here', 'line 2, header: "no colon here" is not Name: value'],
    ['GET http://127.0.0.1/\n@a\n@b', 'line 3, body: a request has one body file'],
    ['GET http://127.0.0.1/\n@a\nX-A: 1', 'line 3, header: headers come before the @body line'],
    ['GET http://127.0.0.1/\n\nX-A: 1', 'line 3, request line: "X-A: 1" is not METHOD URL'],
    ['FETCH http://127.0.0.1/', 'line 1, method:'],
    ['GET ftp://127.0.0.1/', 'line 1, url:'],
  ])('http format: %j → %s', (text, words) => {
    expect(problem(text, 'http')).toContain(words);
  });

  it.each([
    ['{"method":"GET"}', 'line 1, url: url is missing or not a string'],
    [
      '{"method":"GET","url":"http://127.0.0.1/","headers":{}}',
      'line 1, headers: unknown field; did you mean `header`?',
    ],
    ['{"method":"GET","url":"http://127.0.0.1/","body":"%%"}', 'line 1, body: body is not base64'],
    ['\n{"method":"GET",', 'line 2, json:'],
    [
      '{"method":"GET","url":"http://127.0.0.1/","header":{"X":"1"}}',
      "line 1, header: a header's values are a list",
    ],
  ])('json format: %j → %s', (text, words) => {
    expect(problem(text, 'json')).toContain(words);
  });

  it('urls format names the line of a bad URL; an empty file lists nothing', () => {
    expect(problem('http://127.0.0.1/\nnot a url')).toContain('line 2, url:');
    expect(problem('\n# only a comment\n')).toBe('line 1, request: the file lists no request');
  });

  it('bounds the list and the headers of a request at the line that passes them', () => {
    const many = Array.from({ length: LIMITS.listRequests.max + 1 }, () => 'http://127.0.0.1/').join('\n');
    expect(problem(many)).toBe(
      `line ${LIMITS.listRequests.max + 1}, request: a list has at most ${LIMITS.listRequests.max} requests`,
    );
    const headers = Array.from({ length: LIMITS.headers.max + 1 }, (_, i) => `X-${i}: v`);
    expect(problem(['GET http://127.0.0.1/', ...headers].join('\n'))).toBe(
      `line ${LIMITS.headers.max + 2}, header: a request has at most ${LIMITS.headers.max} headers`,
    );
  });
});

describe('which request a send carries', () => {
  it('round-robin: n*k sends carry each request exactly k times, split over any number of shards', () => {
    for (const workers of [1, 2, 3, 7]) {
      const counts = [0, 0, 0, 0];
      const shares = evenShares(4000, workers);
      shares.forEach((share, i) => {
        const seq = shardSequence(i, workers);
        for (let k = 0; k < share; k++)
          counts[requestOfSend({ kind: 'round-robin' }, 4, seq.first + k * seq.step)]!++;
      });
      expect(counts).toEqual([1000, 1000, 1000, 1000]);
    }
  });

  it('a machine shard split again into workers takes its sends from the outer sequence', () => {
    const sends = new Set<number>();
    const outerShares = evenShares(1003, 3);
    outerShares.forEach((outerShare, i) => {
      const outer = shardSequence(i, 3);
      evenShares(outerShare, 2).forEach((share, j) => {
        const seq = shardSequence(j, 2, outer);
        for (let k = 0; k < share; k++) sends.add(seq.first + k * seq.step);
      });
    });
    expect(sends.size).toBe(1003);
    expect(Math.max(...sends)).toBe(1002);
    expect(shardSequence(0, 1)).toEqual(WHOLE_SEQUENCE);
  });

  it('random: the same seed draws the same requests, another seed others, each about 1/n', () => {
    const draw = (seed: number) =>
      Array.from({ length: 4000 }, (_, g) => requestOfSend({ kind: 'random', seed }, 4, g));
    const a = draw(7);
    expect(draw(7)).toEqual(a);
    expect(draw(8)).not.toEqual(a);
    const counts = [0, 1, 2, 3].map((r) => a.filter((x) => x === r).length);
    for (const c of counts) expect(Math.abs(c - 1000)).toBeLessThan(120);
    expect(requestOfSend({ kind: 'random', seed: 7 }, 4, 2 ** 40)).toBeLessThan(4);
  });
});

describe('a target with a list of requests in the scenario', () => {
  const list = (over: object = {}, options: object = {}) => ({
    targets: [
      {
        url: 'http://127.0.0.1:8080/',
        requests: [{ url: 'http://127.0.0.1:8080/a' }, { url: 'http://127.0.0.1:8080/b', method: 'POST' }],
        ...over,
      },
    ],
    options,
  });

  it('keeps the list and its order', () => {
    const r = parseWith(scenarioSchema, list({ order: { kind: 'random', seed: 42 } }));
    expect(r.ok && r.value.targets[0]!.requests).toEqual([
      { method: 'GET', url: 'http://127.0.0.1:8080/a', headers: [], body: { kind: 'none' } },
      { method: 'POST', url: 'http://127.0.0.1:8080/b', headers: [], body: { kind: 'none' } },
    ]);
    expect(r.ok && r.value.targets[0]!.order).toEqual({ kind: 'random', seed: 42 });
  });

  it.each([
    [
      {
        requests: Array.from({ length: LIMITS.listOrigins.max + 1 }, (_, i) => ({
          url: `http://127.0.0.1:${8000 + i}/`,
        })),
      },
      {},
      'targets.0.requests',
      `the list reaches ${LIMITS.listOrigins.max + 1} origins (scheme, host and port); at most ${LIMITS.listOrigins.max}`,
    ],
    [
      { requests: [{ url: 'http://127.0.0.1:8080/a', method: 'HEAD' }, { url: 'http://127.0.0.1:8080/b' }] },
      {},
      'targets.0.requests.0.method',
      'mixes HEAD with other methods',
    ],
    [{ body: { kind: 'text', text: 'x' } }, {}, 'targets.0.body', 'remove the target body'],
    [{}, { engine: 'autocannon' }, 'targets.0.requests', 'autocannon sends one request per target'],
    [{ requests: [] }, {}, 'targets.0.requests', 'one at least'],
    [
      { requests: [{ url: 'http://127.0.0.1:8080/', extra: 1 }] },
      {},
      'targets.0.requests.0.extra',
      'unknown field',
    ],
    [{ order: { kind: 'random', seed: -1 } }, {}, 'targets.0.order.seed', 'seed'],
  ])('refuses %j %j at %s', (over, options, path, words) => {
    const found = issues(parseWith(scenarioSchema, list(over, options)));
    expect(found.map((i) => i.path)).toContain(path);
    expect(found.find((i) => i.path === path)?.message).toContain(words);
  });

  it('takes a list over several origins, up to LIMITS.listOrigins of them', () => {
    const urls = (n: number) => Array.from({ length: n }, (_, i) => ({ url: `https://h${i}.test/x` }));
    expect(parseWith(scenarioSchema, list({ requests: urls(LIMITS.listOrigins.max) })).ok).toBe(true);
    expect(
      parseWith(
        scenarioSchema,
        list({ requests: [{ url: 'http://127.0.0.1:8081/a' }, { url: 'http://other.test/' }] }),
      ).ok,
    ).toBe(true);
  });

  it('a capacity plan checks its lists the same way', () => {
    const r = parseWith(capacityPlanSchema, {
      targets: [
        {
          url: 'http://127.0.0.1:8080/',
          requests: Array.from({ length: LIMITS.listOrigins.max + 1 }, (_, i) => ({
            url: `http://h${i}.test/`,
          })),
        },
      ],
      search: { goal: { p99Ms: 10 } },
    });
    expect(issues(r).map((i) => i.path)).toEqual(['targets.0.requests']);
  });
});

describe('the origins of a list', () => {
  it('names each origin, its route when elsewhere, and the connections opened to it, in every report', () => {
    const base = runResultFixture();
    const target = {
      ...base.target,
      url: 'http://a.test:9000/',
      connectTo: ['a.test:9000:127.0.0.1:9000'],
      requests: ['http://a.test:9000/1', 'https://b.test/1'].map((url) => ({
        method: 'GET' as const,
        url,
        headers: [],
        body: { kind: 'none' as const },
      })),
    };
    const origins = originFacts(target, [3, 1]);
    expect(origins).toEqual([
      { origin: 'http://a.test:9000', connectedTo: '127.0.0.1:9000', connections: 3 },
      { origin: 'https://b.test:443', connections: 1 },
    ]);
    expect(originFacts({ ...target, requests: target.requests.slice(0, 1) }, [3])).toBeNull();
    expect(originFacts(target, undefined)).toBeNull();
    const r = runResultFixture({ target, server: { ...base.server!, origins: origins! } });
    for (const text of [formatAbReport(r), runHtmlReport([r])]) {
      expect(text).toContain('http://a.test:9000: 3 connections opened (to 127.0.0.1:9000)');
      expect(text).toContain('https://b.test:443: 1 connection opened');
    }
    // ab's one host and port name every origin's, each pair on its Origin line.
    const ab = formatAbReport(r).split('\n');
    expect(ab).toContain('Server Hostname:        a.test, b.test');
    expect(ab).toContain('Server Port:            9000, 443');
    const five = runResultFixture({
      target: {
        ...target,
        requests: ['a', 'b', 'c', 'd', 'a', 'e'].map((h) => ({
          ...target.requests[0]!,
          url: `http://${h}.test/`,
        })),
      },
    });
    expect(formatAbReport(five).split('\n')).toContain(
      'Server Hostname:        a.test, b.test, c.test + 2 more',
    );
    expect(formatAbReport(five).split('\n')).toContain('Server Port:            80');
  });

  it('groups URLs by scheme, host and port (a default port written or not), in order of first appearance', () => {
    expect(
      originGroups([
        'http://a.test/x',
        'https://a.test/y',
        'http://a.test:80/z',
        'http://127.0.0.1:8081/',
        'https://a.test:443/q',
        'http://A.test/upper',
      ]),
    ).toEqual({
      origins: ['http://a.test:80', 'https://a.test:443', 'http://127.0.0.1:8081'],
      originOfRequest: [0, 1, 0, 2, 1, 0],
    });
  });
});

describe('the text report of a run over a list', () => {
  it('names the list and its order where a single request names its method and URL', () => {
    const base = runResultFixture();
    const listed = runResultFixture({
      target: {
        ...base.target,
        url: 'http://127.0.0.1:8080/',
        requests: [
          { method: 'GET', url: 'http://127.0.0.1:8080/a', headers: [], body: { kind: 'none' } },
          { method: 'GET', url: 'http://127.0.0.1:8080/b', headers: [], body: { kind: 'none' } },
        ],
        order: { kind: 'random', seed: 5 },
      },
    });
    expect(formatTextReport(listed).split('\n')[0]).toBe(
      'Target: 127.0.0.1:8080  a list of 2 requests (random, seed 5)',
    );
    expect(formatTextReport(base).split('\n')[0]).toContain(`${base.target.method} ${base.target.url}`);
    const request = (url: string) => ({
      method: 'GET' as const,
      url,
      headers: [],
      body: { kind: 'none' as const },
    });
    const spread = runResultFixture({
      target: {
        ...base.target,
        url: 'http://a.test/',
        requests: ['http://a.test/1', 'http://b.test:8081/1', 'http://a.test/2'].map(request),
      },
    });
    expect(formatTextReport(spread).split('\n')[0]).toBe(
      'Target: a.test, b.test:8081  a list of 3 requests over 2 origins, a connection per slot and origin (round-robin)',
    );
    const many = runResultFixture({
      target: { ...spread.target, requests: ['a', 'b', 'c', 'd'].map((h) => request(`https://${h}.test/`)) },
    });
    expect(formatTextReport(many).split('\n')[0]).toBe(
      'Target: a.test, b.test, c.test + 1 more  a list of 4 requests over 4 origins, a connection per slot and origin (round-robin)',
    );
    // A target the user named keeps its name.
    const named = runResultFixture({ target: { ...spread.target, name: 'shop' } });
    expect(formatTextReport(named).split('\n')[0]).toMatch(
      /^Target: shop {2}a list of 3 requests over 2 origins/,
    );
  });
});
