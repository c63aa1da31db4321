import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { failureLine, readFailures } from '../scripts/failures.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'failures-'));
const write = (name: string, text: string) => {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
};

describe('the failures npm test names in its last lines', () => {
  test('a failure reads back as written, its message cut at 300 characters', () => {
    const long = failureLine('test/e2e/a.test.ts', 'runs', 'x'.repeat(1000));
    expect(long.message).toHaveLength(300);
    expect(long.message.endsWith('…')).toBe(true);
    const file = write('ok.json', JSON.stringify([long, failureLine('b.ts', 't', 'expected 1 to be 2')]));
    expect(readFailures(file)).toEqual([long, { file: 'b.ts', test: 't', message: 'expected 1 to be 2' }]);
  });

  test('a missing, broken or unknown-field list is said, not thrown', () => {
    expect(readFailures(path.join(dir, 'none.json'))).toMatch(/wrote no list of failures/);
    expect(readFailures(write('bad.json', '[{'))).toMatch(/not JSON/);
    const extra = write('extra.json', JSON.stringify([{ file: 'a', test: 't', message: 'm', stack: 's' }]));
    expect(readFailures(extra)).toMatch(/malformed.*stack/s);
  });
});
