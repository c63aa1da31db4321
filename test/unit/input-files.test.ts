import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  inputFileIssues,
  inputFileProblem,
  inputFileProblemSync,
  readInputFile,
} from '../../electron/engine/input-files.ts';
import { buildRunSpec } from '../../electron/engine/spec.ts';
import { LIMITS } from '../../shared/model/defaults.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import { makeTestCerts, type TestCerts } from '../helpers/certs.ts';

let dir: string;
let certs: TestCerts;
const at = (name: string) => path.join(dir, name);

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trebuchet-input-files-'));
  fs.writeFileSync(at('body.json'), '{"a":1}');
  fs.mkdirSync(at('folder'));
  execFileSync('mkfifo', [at('fifo')]);
  // Sparse: one byte past the limit without writing 256 MiB.
  fs.closeSync(fs.openSync(at('huge.bin'), 'w'));
  fs.truncateSync(at('huge.bin'), LIMITS.bodyFileBytes.max + 1);
  fs.writeFileSync(at('not.pem'), 'hello, I am not a certificate\n');
  fs.writeFileSync(at('bad-block.pem'), '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
  certs = makeTestCerts();
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  certs.remove();
});

describe('input files (bodies, CA certificates)', () => {
  it('reads a regular file', async () => {
    expect((await readInputFile(at('body.json'), 'body')).toString()).toBe('{"a":1}');
    expect(await inputFileProblem(at('body.json'), 'body')).toBeNull();
    expect(inputFileProblemSync(at('body.json'), 'body')).toBeNull();
  });

  it.each([
    ['missing', 'does not exist'],
    ['folder', 'is a folder, not a file'],
    ['fifo', 'is a named pipe (FIFO), not a regular file'],
    [
      'huge.bin',
      `is ${LIMITS.bodyFileBytes.max + 1} bytes; a body file is at most ${LIMITS.bodyFileBytes.max} bytes`,
    ],
  ])('refuses %s: %s', async (name, problem) => {
    // A FIFO without a writer would block a plain open() (and the thread doing it) for good.
    expect(await inputFileProblem(at(name), 'body')).toBe(problem);
    expect(inputFileProblemSync(at(name), 'body')).toBe(problem);
    await expect(readInputFile(at(name), 'body')).rejects.toThrow(`${at(name)} ${problem}`);
  });

  it('refuses a device such as /dev/zero, which never ends', async () => {
    expect(await inputFileProblem('/dev/zero', 'body')).toBe('is a character device, not a regular file');
    await expect(readInputFile('/dev/zero', 'body')).rejects.toThrow('/dev/zero is a character device');
  });

  it('accepts a CA file of PEM certificates only', async () => {
    expect(await inputFileProblem(certs.ca.certFile, 'ca')).toBeNull();
    expect(inputFileProblemSync(certs.ca.certFile, 'ca')).toBeNull();
    const bundle = at('bundle.pem');
    fs.writeFileSync(bundle, `${certs.ca.cert}\n${certs.valid.cert}`);
    expect(await inputFileProblem(bundle, 'ca')).toBeNull();
    const notPem = 'is not a PEM certificate (no "-----BEGIN CERTIFICATE-----" block)';
    expect(await inputFileProblem(at('not.pem'), 'ca')).toBe(notPem);
    expect(inputFileProblemSync(at('not.pem'), 'ca')).toBe(notPem);
    expect(await inputFileProblem(at('bad-block.pem'), 'ca')).toBe(
      'is not a PEM certificate (certificate 1 of 1 does not parse)',
    );
    // A private key is PEM, but no certificate.
    expect(await inputFileProblem(certs.ca.keyFile, 'ca')).toBe(notPem);
  });

  it('names the field of each bad file of a scenario', async () => {
    const scenario = scenarioSchema.parse({
      targets: [
        { url: 'http://127.0.0.1/', body: { kind: 'file', path: at('body.json') } },
        { url: 'http://127.0.0.1/', body: { kind: 'file', path: at('fifo') } },
      ],
      options: { tls: { caFile: at('not.pem') } },
    });
    expect(await inputFileIssues(scenario)).toEqual([
      { path: 'targets.1.body.path', message: `${at('fifo')} is a named pipe (FIFO), not a regular file` },
      {
        path: 'options.tls.caFile',
        message: `${at('not.pem')} is not a PEM certificate (no "-----BEGIN CERTIFICATE-----" block)`,
      },
    ]);
  });

  it('a run whose body file is a FIFO fails at once, naming the field', async () => {
    const scenario = scenarioSchema.parse({
      targets: [{ url: 'http://127.0.0.1:1/', method: 'POST', body: { kind: 'file', path: at('fifo') } }],
    });
    const built = await buildRunSpec(scenario, 0, { runId: 'fifo', appVersion: '0' });
    expect(built.ok).toBe(false);
    if (built.ok) return;
    expect(built.result.error?.message).toBe(
      `targets.0.body.path: ${at('fifo')} is a named pipe (FIFO), not a regular file`,
    );
  });
});
