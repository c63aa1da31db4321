import { describe, expect, it } from 'vitest';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import { defaultUiSettings, uiSettingsSchema } from '../../shared/records/settings.ts';
import { keptSettings, type UiNow } from '../../renderer/settings/keptSettings.ts';

const scenario = (url: string) =>
  scenarioSchema.parse({
    name: 'kept',
    targets: [
      {
        url,
        headers: [
          { name: 'Authorization', value: 'Bearer s3cret' },
          { name: 'X-Trace', value: 'yes' },
        ],
      },
    ],
  });

const none = { content: null, edited: false };
const now = (run: UiNow['drafts']['run']): UiNow => ({
  view: 'run',
  matrixColumns: ['rps', 'p99'],
  drafts: { run, compare: none, capacity: none },
});

describe('what the page keeps of its drafts', () => {
  it('keeps a valid draft without its secret header values, and the settings schema reads it', () => {
    const kept = keptSettings(
      now({ content: scenario('http://127.0.0.1:8080/'), edited: true }),
      defaultUiSettings(),
    );
    const headers = kept.drafts.run?.content.targets[0]?.headers;
    expect(headers).toEqual([
      { name: 'Authorization', value: '' },
      { name: 'X-Trace', value: 'yes' },
    ]);
    expect(kept.drafts.run?.edited).toBe(true);
    expect(kept.matrixColumns).toEqual(['rps', 'p99']);
    expect(uiSettingsSchema.safeParse(JSON.parse(JSON.stringify(kept))).success).toBe(true);
  });

  it('keeps the last valid form of a draft that does not validate now, with the edited flag of now', () => {
    const before = keptSettings(
      now({ content: scenario('http://127.0.0.1:8080/a'), edited: false }),
      defaultUiSettings(),
    );
    const after = keptSettings(now({ content: null, edited: true }), before);
    expect(after.drafts.run?.content.targets[0]?.url).toBe('http://127.0.0.1:8080/a');
    expect(after.drafts.run?.edited).toBe(true);
    expect(keptSettings(now({ content: null, edited: true }), defaultUiSettings()).drafts.run).toBeNull();
  });
});
