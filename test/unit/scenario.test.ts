import { describe, expect, it } from 'vitest';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import { DEFAULTS, LIMITS } from '../../shared/model/defaults.ts';
import { describeIssues, parseWith } from '../../shared/model/validation.ts';

describe('scenario schema', () => {
  it('fills every default from one URL', () => {
    const s = scenarioSchema.parse({ targets: [{ url: 'http://127.0.0.1:8080/' }] });
    expect(s.load).toEqual({
      model: 'closed',
      connections: DEFAULTS.closed.connections,
      pipelining: 1,
      limit: { kind: 'duration', seconds: DEFAULTS.closed.durationSeconds },
      rate: null,
    });
    expect(s.options.tls.verify).toBe(true);
    expect(s.options.tls.minVersion).toBe('TLSv1.2');
    expect(s.options.sampleIntervalMs).toBe(1000);
    expect(s.targets[0]!.method).toBe('GET');
  });

  it('names the field and the problem for bad input', () => {
    const r = parseWith(scenarioSchema, {
      targets: [{ url: 'ftp://example' }],
      load: { model: 'closed', connections: 20_000 },
      options: { sampleIntervalMs: 50, tls: { minVersion: 'SSLv3' } },
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const text = describeIssues(r.issues);
    expect(text).toContain('targets.0.url: URL must start with http:// or https://');
    expect(text).toContain('load.connections: connections must be at most 10000');
    expect(text).toContain('options.sampleIntervalMs: sample interval must be at least 100');
    expect(text).toContain(
      'options.tls.minVersion: TLS version must be one of TLSv1, TLSv1.1, TLSv1.2, TLSv1.3',
    );
  });

  it('rejects header injection and an empty target list', () => {
    const r = parseWith(scenarioSchema, { targets: [] });
    expect(r.ok).toBe(false);
    const h = parseWith(scenarioSchema, {
      targets: [{ url: 'http://localhost/', headers: [{ name: 'X-A', value: 'a\r\nX-B: b' }] }],
    });
    expect(!h.ok && describeIssues(h.issues)).toContain('targets.0.headers.0.value');
  });

  it('accepts header values HTTP allows: visible Latin-1, spaces and tabs', () => {
    const r = parseWith(scenarioSchema, {
      targets: [{ url: 'http://localhost/', headers: [{ name: 'X-A', value: 'caf\u00e9 \t a=1; "q"' }] }],
    });
    expect(r.ok).toBe(true);
  });

  it('names the character HTTP does not allow in a header value', () => {
    const issue = (value: string) => {
      const r = parseWith(scenarioSchema, {
        targets: [{ url: 'http://localhost/', headers: [{ name: 'X', value }] }],
      });
      return r.ok ? 'accepted' : describeIssues(r.issues);
    };
    expect(issue('price: \u20ac5')).toBe(
      'targets.0.headers.0.value: header value has "\u20ac" (U+20AC) at position 8; HTTP allows visible Latin-1 characters, spaces and tabs only',
    );
    expect(issue('a\u0000b')).toBe(
      'targets.0.headers.0.value: header value has a control character (U+0000) at position 2; HTTP allows visible Latin-1 characters, spaces and tabs only',
    );
    expect(issue('smile \u{1F600}')).toContain('"\u{1F600}" (U+1F600) at position 7');
    expect(issue('a\nb')).toBe('targets.0.headers.0.value: header value must not contain line breaks');
  });

  it('bounds targets, header sizes, bodies and names (LIMITS)', () => {
    const url = 'http://127.0.0.1/';
    const issues = (input: unknown) => {
      const r = parseWith(scenarioSchema, input);
      return r.ok ? 'accepted' : describeIssues(r.issues);
    };
    expect(LIMITS.targets.max).toBe(100);
    const targets = (n: number) => Array.from({ length: n }, () => ({ url }));
    expect(issues({ targets: targets(100) })).toBe('accepted');
    expect(issues({ targets: targets(101) })).toBe('targets: at most 100 targets');

    const big = 'v'.repeat(LIMITS.headerValueChars.max);
    expect(issues({ targets: [{ url, headers: [{ name: 'X', value: big }] }] })).toBe('accepted');
    expect(issues({ targets: [{ url, headers: [{ name: 'X', value: `${big}v` }] }] })).toBe(
      'targets.0.headers.0.value: header value is longer than 65536 characters',
    );
    // 16 values of 64 KB each: every one is allowed, together they pass the 1 MB of headers.
    const many = Array.from({ length: 16 }, (_, i) => ({ name: `X-${i}`, value: big }));
    expect(issues({ targets: [{ url, headers: many }] })).toBe(
      'targets.0.headers: the headers add up to 1048630 characters; at most 1048576',
    );
    const count = Array.from({ length: 1001 }, () => ({ name: 'X', value: '' }));
    expect(issues({ targets: [{ url, headers: count }] })).toBe(
      'targets.0.headers: a target has at most 1000 headers',
    );
    const text = 'b'.repeat(LIMITS.textBodyChars.max + 1);
    expect(issues({ targets: [{ url, body: { kind: 'text', text } }] })).toBe(
      'targets.0.body.text: body text is longer than 4194304 characters',
    );
    expect(issues({ targets: [{ url, name: 'n'.repeat(201) }] })).toBe(
      'targets.0.name: name is longer than 200 characters',
    );
    expect(issues({ targets: [{ url: `${url}${'p'.repeat(LIMITS.urlChars.max)}` }] })).toBe(
      'targets.0.url: URL is longer than 65536 characters',
    );
  });
});
