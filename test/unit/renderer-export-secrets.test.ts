import { describe, expect, it } from 'vitest';
import { withoutSecrets } from '../../shared/model/secret-headers.ts';
import { resultJson } from '../../renderer/views/Export/exports.ts';
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
  it('the JSON export clears Authorization and keeps other headers', () => {
    const json = resultJson({ kind: 'scenario', results: [withToken()] });
    expect(json).not.toContain('s3cret');
    const parsed = JSON.parse(json) as { results: { target: { headers: unknown } }[] };
    expect(parsed.results[0]!.target.headers).toEqual([
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
