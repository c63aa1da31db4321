import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { GO_ANNOTATION } from '../../shared/distributed/manifests.ts';
import { jobGo, stdinGo } from '../../electron/distributed/go-sources.ts';
import { isMessageLine, MessageLines } from '../../electron/distributed/message-lines.ts';
import { messageLine } from '../../electron/engine/shards/messages.ts';
import { FakeCluster } from '../helpers/fake-kube.ts';

/*
 * The shard messages over a byte stream (a process's pipes, a pod's log), bounded and parsed
 * line by line, and where a machine's shard hears its go: its stdin, or its Job's annotation.
 */

function lines(limit?: number) {
  const heard = { lines: [] as string[], broken: [] as string[] };
  const l = new MessageLines(
    { line: (t) => heard.lines.push(t), broken: (r) => heard.broken.push(r) },
    limit,
  );
  return { l, heard };
}

describe('message lines', () => {
  it('reassembles lines split across chunks, skips blank ones, takes a last line without its newline', () => {
    const { l, heard } = lines();
    l.push('{"type":"rea');
    l.push(Buffer.from('dy"}\n\n{"a":'));
    l.push('1}\n{"b":2}');
    expect(heard.lines).toEqual(['{"type":"ready"}', '{"a":1}']);
    l.end();
    expect(heard.lines).toEqual(['{"type":"ready"}', '{"a":1}', '{"b":2}']);
  });

  it('breaks on a line over its bound without keeping it, and reads nothing after', () => {
    const long = lines(64);
    long.l.push(`{"x":"${'y'.repeat(40)}`);
    long.l.push(`${'y'.repeat(40)}"}\n{"a":1}\n`);
    expect(long.heard.broken).toEqual(['wrote a line over 64 bytes']);
    expect(long.heard.lines).toEqual([]);
  });

  it("tells a pod's stderr line from a message", () => {
    expect(isMessageLine('(node:1) Warning: x')).toBe(false);
    expect(isMessageLine('{"type":"ready"}')).toBe(true);
  });
});

describe('the go of a machine’s shard', () => {
  it('on stdin: start is the go, stop stops, and the end of the stream stops too', () => {
    const input = new PassThrough();
    const stops: string[] = [];
    const gos: number[] = [];
    const off = stdinGo(input, { stop: () => stops.push('stop'), problem: (m) => stops.push(m) }).follow({
      go: (at) => gos.push(at),
    });
    input.write(messageLine({ type: 'start', at: 1_800_000_000_000 }));
    input.write('{"type":"start"}\n');
    input.write('go\n');
    input.write(messageLine({ type: 'stop' }));
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        expect(gos).toEqual([1_800_000_000_000]);
        expect(stops).toEqual([
          expect.stringMatching(/^not a coordinator's message: at/),
          "not a coordinator's message: go",
          'stop',
        ]);
        input.end();
        setImmediate(() => {
          expect(stops.at(-1)).toBe('stop');
          expect(stops).toHaveLength(4);
          off();
          resolve();
        });
      }),
    );
  });

  it("on its Job: the annotation's RFC 3339 time, once set; a value that is not one is said and waited past", async () => {
    const cluster = new FakeCluster();
    await cluster.createJob({
      metadata: { name: 'run-a', namespace: 'load' },
      spec: { completions: 0 },
    } as never);
    const gos: number[] = [];
    const problems: string[] = [];
    const off = jobGo(cluster, 'load', 'run-a', (m) => problems.push(m)).follow({ go: (at) => gos.push(at) });
    await new Promise((r) => setImmediate(r));
    expect(gos).toEqual([]);
    await cluster.annotateJob('load', 'run-a', GO_ANNOTATION, 'soon');
    expect(problems).toEqual([
      `the Job's ${GO_ANNOTATION} annotation "soon" is not an RFC 3339 time: waiting for one`,
    ]);
    await cluster.annotateJob('load', 'run-a', GO_ANNOTATION, '2026-12-02T10:00:05Z');
    expect(gos).toEqual([Date.parse('2026-12-02T10:00:05Z')]);
    off();
    cluster.close();
  });
});
