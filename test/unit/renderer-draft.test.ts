import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../shared/model/defaults.ts';
import { plannedEngine } from '../../electron/engine/load-generators.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import { ENGINES } from '../../renderer/editor/choices.ts';
import {
  checkDraft,
  defaultDraft,
  duplicateTarget,
  newHeader,
  newThreshold,
  workersSummary,
  type ScenarioDraft,
} from '../../renderer/editor/draft.ts';
import { fieldPaths } from '../../renderer/editor/fieldPaths.ts';
import { draftFromScenario } from '../../renderer/views/Presets/scenarioDraft.ts';

function withUrl(url: string, change: (d: ScenarioDraft) => ScenarioDraft = (d) => d): ScenarioDraft {
  const d = defaultDraft();
  return change({ ...d, targets: [{ ...d.targets[0]!, url }] });
}

describe('scenario draft', () => {
  it('needs only a URL: the rest are the shared defaults', () => {
    const check = checkDraft(withUrl('http://127.0.0.1:8080/'));
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.scenario).toEqual(
      scenarioSchema.parse({ name: 'Untitled scenario', targets: [{ url: 'http://127.0.0.1:8080/' }] }),
    );
    expect(check.scenario.load).toMatchObject({ connections: DEFAULTS.closed.connections, rate: null });
  });

  it('keys the schema messages by field path', () => {
    const check = checkDraft(withUrl('not a url'));
    expect(check.ok).toBe(false);
    expect(check.issues.get('targets.0.url')).toBe('URL is not valid (expected e.g. http://127.0.0.1:8080/)');
    const ftp = checkDraft(withUrl('ftp://127.0.0.1/'));
    expect(ftp.issues.get('targets.0.url')).toBe('URL must start with http:// or https:// (got ftp://)');
    // A host:port without the scheme: the URL meant (it read "(got localhost://)").
    expect(checkDraft(withUrl('localhost:8181')).issues.get('targets.0.url')).toBe(
      'URL must start with http:// or https://: did you mean http://localhost:8181?',
    );
  });

  it('passes text that is not a number to the schema, which names the field', () => {
    const check = checkDraft(
      withUrl('http://127.0.0.1/', (d) => ({
        ...d,
        closed: { ...d.closed, connections: '12a', pipelining: '', seconds: '0' },
        timeoutMs: '1.5',
      })),
    );
    expect(check.issues.get('load.connections')).toBe('connections must be a number');
    expect(check.issues.get('load.pipelining')).toBe('pipelining must be a number');
    expect(check.issues.get('load.limit.seconds')).toBe('duration must be at least 0.1');
    expect(check.issues.get('options.timeoutMs')).toBe('timeout must be a whole number');
  });

  it('reads the workers field: auto (or empty) or a count, anything else named by the schema', () => {
    const workers = (text: string) =>
      checkDraft(withUrl('http://127.0.0.1/', (d) => ({ ...d, workers: text })));
    for (const auto of ['auto', '', ' Auto '])
      expect(workers(auto)).toMatchObject({ ok: true, scenario: { options: { workers: 'auto' } } });
    expect(workers('3')).toMatchObject({ ok: true, scenario: { options: { workers: 3 } } });
    expect(workers('0').issues.get('options.workers')).toBe('workers must be at least 1');
    expect(workers('two').issues.get('options.workers')).toMatch(/^workers must be 'auto' or a whole number/);
    expect(fieldPaths(defaultDraft()).has('options.workers')).toBe(true);
    expect(workersSummary('auto')).toBe('auto workers');
    expect(workersSummary('1')).toBe('1 worker');
  });

  it('maps empty optional fields to null and filled ones to numbers', () => {
    const off = checkDraft(withUrl('http://127.0.0.1/'));
    expect(off.ok && off.scenario.options.sloMs).toBeNull();
    const on = checkDraft(
      withUrl('http://127.0.0.1/', (d) => ({
        ...d,
        sloMs: '250',
        closed: { ...d.closed, rate: '500', limitKind: 'requests', requests: '2000' },
        tls: { verify: false, caFile: ' /tmp/ca.pem ', servername: '', minVersion: 'TLSv1' },
        thresholds: [{ ...newThreshold(), metric: 'p99', op: '<', value: '50' }],
      })),
    );
    expect(on.ok).toBe(true);
    if (!on.ok) return;
    expect(on.scenario.options.sloMs).toBe(250);
    expect(on.scenario.load).toEqual({
      model: 'closed',
      connections: DEFAULTS.closed.connections,
      pipelining: 1,
      limit: { kind: 'requests', count: 2000 },
      rate: 500,
    });
    expect(on.scenario.options.tls).toEqual({
      verify: false,
      caFile: '/tmp/ca.pem',
      servername: null,
      minVersion: 'TLSv1',
    });
    expect(on.scenario.options.thresholds).toEqual([{ metric: 'p99', op: '<', value: 50 }]);
  });

  it("takes durations as the CLI does: 1m30s, 500ms, and a bare number in the field's unit", () => {
    const check = checkDraft(
      withUrl('http://127.0.0.1/', (d) => ({
        ...d,
        closed: { ...d.closed, seconds: '1m30s' },
        warmupSeconds: '500ms',
        sloMs: '0.3s',
        timeoutMs: '1m',
        sampleIntervalMs: '250',
      })),
    );
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.scenario.load).toMatchObject({ limit: { kind: 'duration', seconds: 90 } });
    expect(check.scenario.options).toMatchObject({
      warmupSeconds: 0.5,
      sloMs: 300,
      timeoutMs: 60_000,
      sampleIntervalMs: 250,
    });
    const open = checkDraft(
      withUrl('http://127.0.0.1/', (d) => ({ ...d, model: 'open', open: { ...d.open, seconds: '2m' } })),
    );
    expect(open.ok && open.scenario.load).toMatchObject({ model: 'open', durationSeconds: 120 });
    // What the CLI refuses, the field does too, with the schema's message.
    const bad = checkDraft(
      withUrl('http://127.0.0.1/', (d) => ({ ...d, closed: { ...d.closed, seconds: '1m30x' } })),
    );
    expect(bad.issues.get('load.limit.seconds')).toBe('duration must be a number');
  });

  it('builds the open model and request bodies', () => {
    const check = checkDraft(
      withUrl('http://127.0.0.1/', (d) => ({
        ...d,
        model: 'open',
        open: { rate: '2000', seconds: '5', maxInFlight: '64' },
        targets: [
          {
            ...d.targets[0]!,
            url: 'http://127.0.0.1/',
            method: 'POST',
            bodyKind: 'text',
            bodyText: '{"a":1}',
          },
        ],
      })),
    );
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.scenario.load).toEqual({ model: 'open', rate: 2000, durationSeconds: 5, maxInFlight: 64 });
    expect(check.scenario.targets[0]!.body).toEqual({ kind: 'text', text: '{"a":1}' });
  });

  it('sends a body and a CA file picked in the browser instead of their paths, and reads them back', () => {
    const check = checkDraft(
      withUrl('https://127.0.0.1/', (d) => ({
        ...d,
        targets: [
          {
            ...d.targets[0]!,
            method: 'POST',
            bodyKind: 'file',
            bodyPath: '/left/over.bin',
            bodyUpload: { name: 'blob.bin', data: 'AAEC/w==', bytes: 4 },
          },
        ],
        tls: { ...d.tls, caFile: '/left/over.pem', caUpload: { name: 'ca.pem', pem: '-----BEGIN' } },
      })),
    );
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.scenario.targets[0]!.body).toEqual({ kind: 'upload', name: 'blob.bin', data: 'AAEC/w==' });
    expect(check.scenario.options.tls).toMatchObject({
      caFile: null,
      caUpload: { name: 'ca.pem', pem: '-----BEGIN' },
    });
    const again = draftFromScenario(check.scenario);
    expect(again.targets[0]).toMatchObject({
      bodyKind: 'file',
      bodyUpload: { name: 'blob.bin', data: 'AAEC/w==', bytes: 4 },
    });
    expect(again.tls.caUpload).toEqual({ name: 'ca.pem', pem: '-----BEGIN' });
    const big = checkDraft(
      withUrl('http://127.0.0.1/', (d) => ({
        ...d,
        targets: [{ ...d.targets[0]!, bodyKind: 'file', bodyUpload: { name: 'x', data: '*', bytes: 1 } }],
      })),
    );
    expect(big.issues.get('targets.0.body.data')).toBe('file content is not base64');
    expect(fieldPaths(defaultDraft()).has('targets.0.body.data')).toBe(true);
  });

  it('shows header problems beside the header and knows which paths it places', () => {
    const d = withUrl('http://127.0.0.1/', (x) => ({
      ...x,
      targets: [{ ...x.targets[0]!, headers: [{ ...newHeader(), name: 'Bad Name', value: 'v' }] }],
    }));
    const check = checkDraft(d);
    expect(check.issues.get('targets.0.headers.0.name')).toBe(
      'header name has characters HTTP does not allow',
    );
    expect(fieldPaths(d).has('targets.0.headers.0.name')).toBe(true);
    expect(fieldPaths(d).has('targets')).toBe(false);
    // A value HTTP cannot carry gets the message the CLI gives for -H.
    const euro = withUrl('http://127.0.0.1/', (x) => ({
      ...x,
      targets: [{ ...x.targets[0]!, headers: [{ ...newHeader(), name: 'X-Price', value: '5 \u20ac' }] }],
    }));
    expect(checkDraft(euro).issues.get('targets.0.headers.0.value')).toBe(
      'header value has "\u20ac" (U+20AC) at position 3; HTTP allows visible Latin-1 characters, spaces and tabs only',
    );
  });

  it('takes connect-to rules separated by spaces, commas or lines, and a unix socket, and reads them back', () => {
    const d = withUrl('https://example.test/', (x) => ({
      ...x,
      targets: [{ ...x.targets[0]!, connectTo: ' example.test:443:127.0.0.1:8443,\n:80:[::1]: ' }],
    }));
    const check = checkDraft(d);
    if (!check.ok) throw new Error(JSON.stringify(check.list));
    expect(check.scenario.targets[0]!.connectTo).toEqual(['example.test:443:127.0.0.1:8443', ':80:[::1]:']);
    expect(check.scenario.targets[0]!.unixSocket).toBeUndefined();
    expect(draftFromScenario(check.scenario).targets[0]).toMatchObject({
      connectTo: 'example.test:443:127.0.0.1:8443 :80:[::1]:',
      unixSocket: '',
    });
    // Empty fields leave the target as it was before they existed.
    const plain = checkDraft(withUrl('http://127.0.0.1/'));
    expect(plain.ok && Object.keys(plain.scenario.targets[0]!)).not.toContain('connectTo');
  });

  it('shows a bad connect-to rule at the Connect to field, naming the rule; a relative socket at its own', () => {
    const d = withUrl('https://example.test/', (x) => ({
      ...x,
      targets: [{ ...x.targets[0]!, connectTo: ':::  example.test:443:127.0.0.1', unixSocket: 'app.sock' }],
    }));
    const { issues } = checkDraft(d);
    expect(issues.get('targets.0.connectTo')).toBe(
      'rule 2: "example.test:443:127.0.0.1" is not HOST:PORT:ADDRESS:PORT (e.g. example.com:443:127.0.0.1:8443; an empty part matches or keeps any)',
    );
    expect(issues.get('targets.0.unixSocket')).toBe('unix socket path must be absolute (start with /)');
    expect(fieldPaths(d).has('targets.0.connectTo')).toBe(true);
    expect(fieldPaths(d).has('targets.0.unixSocket')).toBe(true);
  });

  it('duplicates a target with fresh keys', () => {
    const d = withUrl('http://127.0.0.1/', (x) => ({
      ...x,
      targets: [{ ...x.targets[0]!, headers: [{ ...newHeader(), name: 'Accept', value: '*/*' }] }],
    }));
    const copy = duplicateTarget(d.targets[0]!);
    expect(copy.url).toBe('http://127.0.0.1/');
    expect(copy.key).not.toBe(d.targets[0]!.key);
    expect(copy.headers[0]!.key).not.toBe(d.targets[0]!.headers[0]!.key);
    expect(copy.headers[0]!.name).toBe('Accept');
  });
});

describe('the engine picker', () => {
  it('says what each choice runs: auto is the native engine, which uses raw sockets', () => {
    const options = scenarioSchema.parse({ targets: [{ url: 'http://127.0.0.1/' }] }).options;
    for (const choice of ENGINES) {
      const engine = plannedEngine({ ...options, engine: choice.value }).name;
      expect(choice.label.toLowerCase(), choice.value).toContain(engine);
    }
    const native = ENGINES.find((c) => c.value === 'native')!.label;
    expect(native).toContain('raw sockets');
    expect(native).not.toMatch(/undici|http2\)/);
    expect(ENGINES.find((c) => c.value === 'auto')!.label).not.toContain('best for the load');
  });
});

describe('a target with a list of requests in the editor', () => {
  it('opening a saved scenario with a list and checking it again keeps the list and its order', () => {
    const saved = scenarioSchema.parse({
      targets: [
        {
          url: 'http://127.0.0.1:8080/',
          requests: [{ url: 'http://127.0.0.1:8080/a' }, { url: 'http://127.0.0.1:8080/b', method: 'POST' }],
          order: { kind: 'random', seed: 9 },
        },
      ],
    });
    const draft = draftFromScenario(saved);
    // Written back as vegeta's http format (a POST is in it), the card's text.
    expect(draft.targets[0]!.list).toMatchObject({
      text: 'GET http://127.0.0.1:8080/a\n\nPOST http://127.0.0.1:8080/b',
      format: 'http',
      order: 'random',
      seed: '9',
    });
    const check = checkDraft(draft);
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.scenario.targets[0]!.requests).toEqual(saved.targets[0]!.requests);
    expect(check.scenario.targets[0]!.order).toEqual({ kind: 'random', seed: 9 });
    expect(duplicateTarget(draft.targets[0]!).list).toEqual(draft.targets[0]!.list);
  });
});
