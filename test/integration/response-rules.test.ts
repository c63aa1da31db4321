import { describe, expect, it } from 'vitest';
import { AutocannonLoadGenerator } from '../../electron/engine/autocannon/load-generator.ts';
import { nativeLoadGenerator } from '../../electron/engine/native/load-generator.ts';
import { preflight } from '../../electron/engine/preflight/preflight.ts';
import { buildRunSpec } from '../../electron/engine/spec.ts';
import { scenarioSchema, type ScenarioInput } from '../../shared/model/scenario.ts';
import { endAfterEach } from '../helpers/cleanup.ts';
import { FLAG, frame, FRAME, startH2FaultServer, STATUS_200 } from '../helpers/h2-fault-server.ts';
import { sized, startHttp1FaultServer } from '../helpers/http1-fault-server.ts';
import { runInProcess } from '../helpers/native.ts';

/*
 * One set of rules for every reader of a response: the pre-flight and both engines accept
 * what one accepts and refuse what one refuses, with the same words (native/http1/response-head.ts).
 */

const track = endAfterEach();
const COUNT = 10;

async function check(input: ScenarioInput) {
  const built = await buildRunSpec(scenarioSchema.parse(input), 0, { runId: 'p', appVersion: '0' });
  if (!built.ok) throw new Error(built.result.error?.message);
  return preflight(built.spec, new AbortController().signal);
}

const scenario = (url: string, protocol: 'http1.1' | 'h2' = 'http1.1'): ScenarioInput => ({
  name: 'rules',
  targets: [{ url }],
  load: { model: 'closed', connections: 1, limit: { kind: 'requests', count: COUNT } },
  // Judged as a response, not stopped for its status: a status outside 2xx/3xx is measured on purpose.
  options: { protocol, timeoutMs: 3000, checkStatus: false },
});

describe('the pre-flight and both engines judge a response alike', () => {
  it.each([
    ['header folding', sized('hello', '200 OK', 'X-Folded: a\r\n b\r\n'), null, 200],
    [
      'Content-Length with Transfer-Encoding: chunked',
      'HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n',
      null,
      200,
    ],
    ['two equal Content-Lengths', sized('hello', '200 OK', 'Content-Length: 5\r\n'), null, 200],
    ['status 999', sized('hello', '999 Odd'), null, 999],
    ['NUL in a header value', sized('hello', '200 OK', 'X-Bad: a\0b\r\n'), /NUL \(0x00\) in header line/, 0],
    [
      '"HTTP/2.0 200"',
      'HTTP/2.0 200 OK\r\nContent-Length: 5\r\n\r\nhello',
      /the status line says HTTP\/2\.0/,
      0,
    ],
  ])('%s', async (_case, response, refused, status) => {
    const server = track(await startHttp1FaultServer((socket) => socket.write(response)));
    const pre = await check(scenario(server.url));
    if (refused === null) {
      expect(pre.ok).toBe(true);
      if (status === 999) {
        // Checked as the load's default does, an error status stops the run before its load.
        const checked = scenario(server.url);
        const stopped = await check({ ...checked, options: { ...checked.options, checkStatus: true } });
        expect(stopped.ok ? null : stopped.error.kind).toBe('status');
      }
    } else {
      expect(pre.ok).toBe(false);
      expect(pre.ok ? null : pre.error.kind).toBe('protocol');
      expect(pre.ok ? null : pre.error.message).toMatch(refused);
    }
    for (const generator of [nativeLoadGenerator, new AutocannonLoadGenerator()]) {
      const { recorder } = await runInProcess(generator, scenario(server.url));
      const errors = [...recorder.totals.errorSet].map(([kind, e]) => [kind, e.count, e.message]);
      if (refused === null) {
        expect(recorder.statusCodes(), generator.name).toEqual({ [status]: COUNT });
        expect(recorder.totals.inBody, generator.name).toBe(COUNT * 5);
        expect(errors, generator.name).toEqual([]);
      } else {
        expect(errors, generator.name).toEqual([['protocol', COUNT, expect.stringMatching(refused)]]);
      }
    }
  });

  it('an HTTP/2 response with 200 header fields (no limit on their number, only on their size)', async () => {
    const fields = [STATUS_200];
    for (let i = 0; i < 200; i++) {
      const name = `x-h${i}`;
      fields.push(Buffer.from([0x00, name.length, ...Buffer.from(name), 1, 0x61]));
    }
    const server = track(
      await startH2FaultServer({
        onRequest: (c, id) =>
          c.send(
            Buffer.concat([
              frame(FRAME.HEADERS, FLAG.END_HEADERS, id, Buffer.concat(fields)),
              frame(FRAME.DATA, FLAG.END_STREAM, id, Buffer.from('ok')),
            ]),
          ),
      }),
    );
    expect((await check(scenario(server.url, 'h2'))).ok).toBe(true);
    const { recorder } = await runInProcess(nativeLoadGenerator, scenario(server.url, 'h2'));
    expect(recorder.statusCodes()).toEqual({ 200: COUNT });
  });
});
