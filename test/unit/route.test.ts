import { describe, expect, it } from 'vitest';
import { listeningInodes } from '../../electron/monitor/unix-socket-owner.ts';
import { capacityPlanSchema } from '../../shared/capacity/plan.ts';
import { comparisonPlanSchema } from '../../shared/comparison/plan.ts';
import {
  parseConnectTo,
  reportedRoute,
  resolveAsConnectTo,
  routeLabel,
  routeOf,
} from '../../shared/model/route.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import { parseWith, type FieldIssue } from '../../shared/model/validation.ts';

const issues = (r: { ok: true } | { ok: false; issues: FieldIssue[] }): FieldIssue[] =>
  r.ok ? [] : r.issues;

describe('parseConnectTo: curl --connect-to HOST:PORT:ADDRESS:PORT', () => {
  it.each([
    [
      'example.test:443:127.0.0.1:8443',
      { host: 'example.test', port: 443, toHost: '127.0.0.1', toPort: 8443 },
    ],
    ['Example.TEST:443:localhost:', { host: 'example.test', port: 443, toHost: 'localhost', toPort: null }],
    ['::[::1]:8080', { host: null, port: null, toHost: '[::1]', toPort: 8080 }],
    ['[2001:DB8::1]:80:127.0.0.1:81', { host: '[2001:db8::1]', port: 80, toHost: '127.0.0.1', toPort: 81 }],
    [':::', { host: null, port: null, toHost: null, toPort: null }],
  ])('%s', (text, rule) => {
    expect(parseConnectTo(text)).toEqual(rule);
  });

  it.each([
    ['example.test:443:127.0.0.1', 'is not HOST:PORT:ADDRESS:PORT'],
    ['example.test:443:::1:80', 'is not HOST:PORT:ADDRESS:PORT'],
    ['example.test:0:127.0.0.1:80', 'the matched port 0 is not a port (1 to 65535)'],
    ['example.test:443:127.0.0.1:70000', 'the connected port 70000 is not a port (1 to 65535)'],
    ['exa mple:443:127.0.0.1:80', '"exa mple" is not a host name or address'],
    ['example.test:443:[nope]:80', '"[nope]" is not a host name or address'],
  ])('refuses %s', (text, words) => {
    const parsed = parseConnectTo(text);
    expect(typeof parsed).toBe('string');
    expect(parsed).toContain(words);
  });
});

describe('resolveAsConnectTo: curl --resolve HOST:PORT:ADDRESS', () => {
  it.each([
    ['example.test:443:127.0.0.1', 'example.test:443:127.0.0.1:443'],
    ['example.test:8080:::1', 'example.test:8080:[::1]:8080'],
    ['example.test:8080:[::1]', 'example.test:8080:[::1]:8080'],
  ])('%s means --connect-to %s', (text, rule) => {
    expect(resolveAsConnectTo(text)).toBe(rule);
  });

  it.each([
    ['example.test:443', 'is not HOST:PORT:ADDRESS'],
    ['example.test:443:localhost', '"localhost" is not an IP address'],
    ['example.test:443:127.0.0.1,127.0.0.2', 'give one address'],
    ['example.test:99999:127.0.0.1', 'is not a port'],
  ])('refuses %s', (text, words) => {
    const r = resolveAsConnectTo(text);
    expect(typeof r).toBe('object');
    expect((r as { problem: string }).problem).toContain(words);
  });
});

describe('routeOf: where the sockets go', () => {
  const url = 'https://example.test/a';
  it('the URL itself without rules; reportedRoute is null then', () => {
    expect(routeOf({ url })).toEqual({ kind: 'tcp', host: 'example.test', port: 443, rule: null });
    expect(reportedRoute({ url })).toBeNull();
    expect(routeOf({ url: 'http://[::1]:8080/' })).toEqual({
      kind: 'tcp',
      host: '::1',
      port: 8080,
      rule: null,
    });
  });

  it('the first rule that matches host and port (empty parts match any, keep the URL)', () => {
    const rules = [
      'other.test:443:127.0.0.9:1',
      'example.test:80:127.0.0.8:2',
      'example.test::127.0.0.1:',
      ':443:[::1]:9',
    ];
    expect(routeOf({ url, connectTo: rules })).toEqual({
      kind: 'tcp',
      host: '127.0.0.1',
      port: 443,
      rule: 'example.test::127.0.0.1:',
    });
    expect(routeOf({ url: 'https://else.test/', connectTo: rules })).toMatchObject({ host: '::1', port: 9 });
    expect(routeLabel(routeOf({ url: 'https://else.test/', connectTo: rules }))).toBe('[::1]:9');
    expect(reportedRoute({ url, connectTo: rules })).toBe('127.0.0.1:443');
    // No rule matches http://example.test:8080: the URL's own host and port.
    expect(reportedRoute({ url: 'http://example.test:8080/', connectTo: rules.slice(0, 2) })).toBeNull();
  });

  it('a URL that does not parse reports no route', () => {
    expect(reportedRoute({ url: 'not a url', connectTo: [':::'] })).toBeNull();
  });

  it('a unix socket', () => {
    expect(routeOf({ url, unixSocket: '/run/app.sock' })).toEqual({ kind: 'unix', path: '/run/app.sock' });
    expect(reportedRoute({ url, unixSocket: '/run/app.sock' })).toBe('unix:/run/app.sock');
  });
});

describe('the scenario schema: route fields checked at the field', () => {
  const scenario = (target: object) => ({ targets: [{ url: 'https://example.test/', ...target }] });

  it('keeps valid rules and a socket path; a target without them stays as it was', () => {
    const s = scenarioSchema.parse(scenario({ connectTo: ['example.test:443:127.0.0.1:8443'] }));
    expect(s.targets[0]!.connectTo).toEqual(['example.test:443:127.0.0.1:8443']);
    expect(scenarioSchema.parse(scenario({ unixSocket: '/tmp/a.sock' })).targets[0]!.unixSocket).toBe(
      '/tmp/a.sock',
    );
    expect('connectTo' in scenarioSchema.parse(scenario({})).targets[0]!).toBe(false);
  });

  it.each([
    [{ connectTo: ['example.test:443'] }, 'targets.0.connectTo.0', 'is not HOST:PORT:ADDRESS:PORT'],
    [{ unixSocket: 'app.sock' }, 'targets.0.unixSocket', 'unix socket path must be absolute (start with /)'],
    [{ unixSocket: `/${'a'.repeat(120)}` }, 'targets.0.unixSocket', 'longer than 107 characters'],
    [
      { unixSocket: '/tmp/a.sock', connectTo: [':::'] },
      'targets.0.connectTo',
      'a target goes over its unix socket or to a connect-to address, not both',
    ],
  ])('%j → %s', (target, path, words) => {
    const found = issues(parseWith(scenarioSchema, scenario(target)));
    expect(found.map((i) => i.path)).toEqual([path]);
    expect(found[0]!.message).toContain(words);
  });

  it('a comparison target is checked the same way', () => {
    const found = issues(
      parseWith(comparisonPlanSchema, {
        targets: [{ urls: { http: 'http://a.test/' }, unixSocket: '/tmp/a.sock', connectTo: [':::'] }],
        load: { model: 'closed' },
        levels: [1],
      }),
    );
    expect(found.map((i) => i.path)).toEqual(['targets.0.connectTo']);
  });

  it('a capacity target too', () => {
    const found = issues(
      parseWith(capacityPlanSchema, {
        targets: [{ url: 'http://a.test/', unixSocket: '/tmp/a.sock', connectTo: [':::'] }],
        search: { goal: { p99Ms: 10 } },
      }),
    );
    expect(found.map((i) => i.path)).toEqual(['targets.0.connectTo']);
  });
});

describe('listeningInodes: /proc/net/unix', () => {
  const table = [
    'Num       RefCount Protocol Flags    Type St Inode Path',
    '0000000000000000: 00000002 00000000 00010000 0001 01 35161 /tmp/app.sock',
    '0000000000000000: 00000003 00000000 00000000 0001 03 35170 /tmp/app.sock',
    '0000000000000000: 00000002 00000000 00010000 0001 01 35180 /tmp/other.sock',
    '0000000000000000: 00000002 00000000 00010000 0001 01 35190 /tmp/with space.sock',
    '0000000000000000: 00000002 00000000 00000000 0002 01 35200',
  ].join('\n');
  it('the listening ones at the path, connected ones left out', () => {
    expect(listeningInodes(table, '/tmp/app.sock')).toEqual([35161]);
    expect(listeningInodes(table, '/tmp/with space.sock')).toEqual([35190]);
    expect(listeningInodes(table, '/tmp/none.sock')).toEqual([]);
  });
});
