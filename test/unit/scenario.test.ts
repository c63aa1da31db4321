import { describe, expect, it } from 'vitest';
import { scenarioSchema } from '../../shared/scenario.ts';
import { DEFAULTS } from '../../shared/defaults.ts';
import { describeIssues, parseWith } from '../../shared/validation.ts';

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
});
