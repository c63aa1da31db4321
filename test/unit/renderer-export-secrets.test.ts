import { describe, expect, it } from 'vitest';
import { withoutSecrets } from '../../shared/model/secret-headers.ts';
import { bundleFiles } from '../../shared/export/files.ts';
import { runExport } from '../../shared/export/run.ts';
import { abStyleResult } from '../helpers/run-result.ts';

const withToken = () => {
  const r = abStyleResult();
  return {
    ...r,
    target: {
      ...r.target,
      headers: [
        { name: 'Authorization', value: 'Bearer s3cret' },
        { name: 'Accept', value: 'text/plain' },
      ],
    },
  };
};

describe('exports leave secret header values out', () => {
  it('the JSON export clears Authorization and keeps other headers, and no file holds the value', () => {
    const files = bundleFiles(runExport({ name: 'x', results: withoutSecrets([withToken()]) }));
    for (const f of files) expect(f.content, f.name).not.toContain('s3cret');
    const parsed = JSON.parse(files.find((f) => f.name === 'x.json')!.content) as {
      target: { headers: unknown };
    };
    expect(parsed.target.headers).toEqual([
      { name: 'Authorization', value: '' },
      { name: 'Accept', value: 'text/plain' },
    ]);
  });

  it('withoutSecrets copies (the shown result keeps its value) unless asked to keep them', () => {
    const r = withToken();
    expect(withoutSecrets(r).target.headers[0]!.value).toBe('');
    expect(r.target.headers[0]!.value).toBe('Bearer s3cret');
    expect(withoutSecrets(r, true)).toBe(r);
  });
});
