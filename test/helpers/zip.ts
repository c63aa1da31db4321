/** Reading a zip back with Python's zipfile (CRC-checked), so a test does not trust our own writer to read it. */
import { execFileSync } from 'node:child_process';

const SCRIPT = [
  'import json, sys, zipfile',
  'z = zipfile.ZipFile(sys.argv[1])',
  'assert z.testzip() is None',
  'print(json.dumps({n: z.read(n).decode("utf-8") for n in z.namelist()}))',
].join('\n');

/** The zip file's entries by name, as text. */
export function readZip(path: string): Record<string, string> {
  return JSON.parse(execFileSync('python3', ['-c', SCRIPT, path], { encoding: 'utf8' })) as Record<
    string,
    string
  >;
}
