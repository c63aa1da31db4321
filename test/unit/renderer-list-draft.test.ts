import { describe, expect, it } from 'vitest';
import { scenarioSchema, type ListRequest } from '../../shared/model/scenario.ts';
import { parseTargets } from '../../shared/targets-file/formats.ts';
import { targetsText } from '../../shared/targets-file/write.ts';
import { checkDraft, defaultDraft, type ScenarioDraft } from '../../renderer/editor/draft.ts';
import { fieldPaths } from '../../renderer/editor/fieldPaths.ts';
import { listSummary, newListDraft, type ListDraft } from '../../renderer/editor/listDraft.ts';
import { draftFromScenario } from '../../renderer/views/Presets/scenarioDraft.ts';

const ORIGIN = 'http://127.0.0.1:8080';
const THREE = `${ORIGIN}/a\n${ORIGIN}/b?x=1\n\n# a comment\n${ORIGIN}/c\n`;

function withList(list: Partial<ListDraft>, url = ''): ScenarioDraft {
  const d = defaultDraft();
  return { ...d, targets: [{ ...d.targets[0]!, url, list: { ...newListDraft(), ...list } }] };
}

function scenarioOf(d: ScenarioDraft) {
  const check = checkDraft(d);
  if (!check.ok) throw new Error(JSON.stringify([...check.issues]));
  return check.scenario;
}

describe('a list of requests in the target card', () => {
  it('a pasted url file is the target: its requests in order, round-robin, the URL its origin', () => {
    const s = scenarioOf(withList({ text: THREE }));
    const t = s.targets[0]!;
    expect(t.url).toBe(`${ORIGIN}/`);
    expect(t.requests!.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${ORIGIN}/a`,
      `GET ${ORIGIN}/b?x=1`,
      `GET ${ORIGIN}/c`,
    ]);
    expect(t.order).toBeUndefined();
    // Opened again (a preset, the kept draft): the same text, and the same scenario from it.
    const again = draftFromScenario(s);
    expect(again.targets[0]!.list).toMatchObject({ text: `${ORIGIN}/a\n${ORIGIN}/b?x=1\n${ORIGIN}/c` });
    expect(scenarioOf(again)).toEqual(s);
  });

  it('vegeta http format with headers and a random order with its seed round-trips', () => {
    const text = `POST ${ORIGIN}/api\nContent-Type: application/json\nX-Trace: 1\n\nGET ${ORIGIN}/`;
    const s = scenarioOf(withList({ text, order: 'random', seed: '42' }));
    expect(s.targets[0]!.order).toEqual({ kind: 'random', seed: 42 });
    expect(s.targets[0]!.requests![0]!.headers).toEqual([
      { name: 'Content-Type', value: 'application/json' },
      { name: 'X-Trace', value: '1' },
    ]);
    const again = draftFromScenario(s);
    expect(again.targets[0]!.list).toMatchObject({ format: 'http', order: 'random', seed: '42' });
    expect(scenarioOf(again)).toEqual(s);
  });

  it('a list whose requests carry bodies is kept as saved, byte for byte', () => {
    const saved = scenarioSchema.parse({
      targets: [
        {
          url: `${ORIGIN}/`,
          requests: [
            { url: `${ORIGIN}/a`, method: 'POST', body: { kind: 'upload', name: 'line 1', data: 'aGk=' } },
            { url: `${ORIGIN}/b` },
          ],
        },
      ],
    });
    const d = draftFromScenario(saved);
    expect(d.targets[0]!.list).toMatchObject({ text: null });
    expect(scenarioOf(d)).toEqual(saved);
  });

  it('a line that is no request is named at the list field; so is a bad seed', () => {
    const bad = checkDraft(withList({ text: `${ORIGIN}/a\nftp://127.0.0.1/b\n` }));
    expect(bad.ok).toBe(false);
    expect(bad.issues.get('targets.0.requests')).toMatch(/^line 2, url: /);
    const json = checkDraft(
      withList({ text: `{"method":"GET","url":"${ORIGIN}/"}\n{"url":1}`, format: 'json' }),
    );
    expect(json.issues.get('targets.0.requests')).toBe('line 2, method: method is missing or not a string');
    const seed = checkDraft(withList({ text: THREE, order: 'random', seed: 'abc' }));
    expect(seed.issues.has('targets.0.order.seed')).toBe(true);
    expect(fieldPaths(withList({ text: THREE })).has('targets.0.order.seed')).toBe(true);
  });

  it('refuses a vegeta @body-file: the app has no folder to read it from', () => {
    const check = checkDraft(withList({ text: `POST ${ORIGIN}/upload\n@payload.json\n` }));
    expect(check.ok).toBe(false);
    expect(check.issues.get('targets.0.requests')).toMatch(
      /^request 1: a body file \(@path\) is read by trebuchet run --targets/,
    );
  });

  it("a request's schema issue shows at the list field, naming the request", () => {
    const check = checkDraft(withList({ text: `GET ${ORIGIN}/a\n\nHEAD ${ORIGIN}/b` }));
    expect(check.issues.get('targets.0.requests')).toBe(
      'request 2: a list mixes HEAD with other methods: make HEAD requests a target of their own',
    );
  });

  it('removing the list goes back to the URL typed before', () => {
    const d = withList({ text: THREE }, `${ORIGIN}/one`);
    const { list: _dropped, ...one } = d.targets[0]!;
    expect(scenarioOf({ ...d, targets: [one] }).targets[0]).toMatchObject({ url: `${ORIGIN}/one` });
    expect(scenarioOf({ ...d, targets: [one] }).targets[0]!.requests).toBeUndefined();
  });

  it('the summary counts requests and distinct URLs and shows the first three', () => {
    const parsed = parseTargets(`${ORIGIN}/a\n${ORIGIN}/b\n${ORIGIN}/a\n${ORIGIN}/c\n`);
    if (!parsed.ok) throw new Error('not parsed');
    expect(listSummary(parsed.requests)).toEqual({
      count: 4,
      distinctUrls: 3,
      first: [`GET ${ORIGIN}/a`, `GET ${ORIGIN}/b`, `GET ${ORIGIN}/a`],
    });
  });
});

describe('a saved list written back as text', () => {
  const parse = (text: string, format: 'urls' | 'http'): ListRequest[] => {
    const p = parseTargets(text, format);
    if (!p.ok) throw new Error('not parsed');
    return scenarioSchema.parse({ targets: [{ url: `${ORIGIN}/`, requests: p.requests }] }).targets[0]!
      .requests!;
  };
  it('reads back as the same requests (url file, http format); none with a body or a padded value', () => {
    const bare = parse(`${ORIGIN}/a\n${ORIGIN}/b`, 'urls');
    expect(targetsText(bare)!.format).toBe('urls');
    expect(parse(targetsText(bare)!.text, 'urls')).toEqual(bare);
    const headed = parse(`PUT ${ORIGIN}/a\nX-A: 1\n\nGET ${ORIGIN}/b`, 'http');
    expect(targetsText(headed)!.format).toBe('http');
    expect(parse(targetsText(headed)!.text, 'http')).toEqual(headed);
    expect(targetsText([{ ...bare[0]!, headers: [{ name: 'X', value: ' padded' }] }])).toBeNull();
    expect(targetsText([{ ...bare[0]!, body: { kind: 'text', text: 'x' } }])).toBeNull();
  });
});
