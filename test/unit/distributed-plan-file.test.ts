import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PlanFileError, portablePlan } from '../../electron/distributed/plan-file.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';

const dir = mkdtempSync(join(tmpdir(), 'trebuchet-plan-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a distributed run's plan.json", () => {
  it("carries the files read here inside it: the target's body, each listed request's body, the CA", async () => {
    writeFileSync(join(dir, 'one.json'), '{"a":1}');
    writeFileSync(join(dir, 'two.bin'), Buffer.from([0, 1, 2, 255]));
    writeFileSync(join(dir, 'ca.pem'), '-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----\n');
    const scenario = scenarioSchema.parse({
      targets: [
        {
          url: 'http://app.test/',
          requests: [
            { method: 'POST', url: 'http://app.test/a', body: { kind: 'file', path: join(dir, 'one.json') } },
            { method: 'PUT', url: 'http://app.test/b', body: { kind: 'file', path: join(dir, 'two.bin') } },
            { url: 'http://app.test/c' },
          ],
        },
      ],
      load: { model: 'closed', connections: 2, limit: { kind: 'requests', count: 30 } },
      options: { tls: { caFile: join(dir, 'ca.pem') } },
    });
    const plan = await portablePlan(scenario, 0);
    const [target] = plan.targets;
    expect(target!.requests!.map((r) => r.body)).toEqual([
      { kind: 'upload', name: 'one.json', data: Buffer.from('{"a":1}').toString('base64') },
      { kind: 'upload', name: 'two.bin', data: Buffer.from([0, 1, 2, 255]).toString('base64') },
      { kind: 'none' },
    ]);
    expect(target!.monitor).toEqual({ kind: 'off' });
    expect(plan.options.tls.caFile).toBeNull();
    expect(plan.options.tls.caUpload?.name).toBe('ca.pem');
    // What the shards read back is a valid scenario on a machine without those files.
    expect(scenarioSchema.parse(JSON.parse(JSON.stringify(plan))).targets[0]!.requests).toHaveLength(3);
  });

  it('names a listed body file that cannot be read', async () => {
    const scenario = scenarioSchema.parse({
      targets: [
        {
          url: 'http://app.test/',
          requests: [
            { method: 'POST', url: 'http://app.test/a', body: { kind: 'file', path: join(dir, 'gone') } },
          ],
        },
      ],
    });
    await expect(portablePlan(scenario, 0)).rejects.toThrow(PlanFileError);
    await expect(portablePlan(scenario, 0)).rejects.toThrow(
      `the body file ${join(dir, 'gone')} cannot be read`,
    );
  });
});
