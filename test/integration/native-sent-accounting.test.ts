import type net from 'node:net';
import { describe, expect, it } from 'vitest';
import { formatVegetaReport } from '../../shared/format/vegeta.ts';
import { endAfterEach } from '../helpers/cleanup.ts';
import { oneTarget, runTarget } from '../helpers/engine.ts';
import { startRawServer } from '../helpers/servers.ts';

const track = endAfterEach();

/**
 * A keep-alive server that answers the first request of each connection and closes the
 * connection cleanly when the second arrives, unanswered: as Apache's event MPM closes
 * keep-alive connections under load. The client sends that request again on a new connection.
 */
function closesAfterOne() {
  return startRawServer((socket: net.Socket) => {
    let seen = 0;
    let buffered = '';
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      while (buffered.includes('\r\n\r\n')) {
        buffered = buffered.slice(buffered.indexOf('\r\n\r\n') + 4);
        seen++;
        if (seen === 1)
          socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
        else socket.end();
      }
    });
    socket.on('error', () => undefined);
  });
}

describe('requests sent, counted once each however often they are written', () => {
  it('closed model: a request sent again on a new connection is one request, not two', async () => {
    const server = track(await closesAfterOne());
    const { result } = await runTarget(
      oneTarget(server.url, {
        load: { model: 'closed', connections: 1, limit: { kind: 'requests', count: 40 } },
      }),
    );
    expect(result.status).toBe('completed');
    expect(result.requests.total).toBe(40);
    expect(result.requests.ok).toBe(40);
    // Every request sent either finished or was in flight at the end.
    const sent = result.throughput.sentRate * result.durationSeconds;
    expect(sent).toBeLessThanOrEqual(result.requests.total + result.requests.inFlightAtEnd + 1e-6);
    expect(result.throughput.sentRate).toBeCloseTo(result.throughput.requestsPerSecond, 6);
    // The bytes on the wire do count each write: 39 requests went out twice.
    const perRequest = result.bytes.outTotal / (40 + 39);
    expect(Number.isInteger(perRequest)).toBe(true);
  });

  it("open model: vegeta's rate is the requests counted over the attack", async () => {
    const server = track(await closesAfterOne());
    const { result } = await runTarget(
      oneTarget(server.url, { load: { model: 'open', rate: 100, durationSeconds: 1, maxInFlight: 50 } }),
    );
    expect(result.status).toBe('completed');
    const q = result.requests;
    expect(q.total + q.inFlightAtEnd + q.dropped!).toBe(100);
    const sent = result.throughput.sentRate * result.attackSeconds!;
    expect(sent).toBeCloseTo(q.total + q.inFlightAtEnd, 6);
    const [requests] = formatVegetaReport(result).split('\n');
    const [total, rate] = /\]\s+(\d+), ([\d.]+),/.exec(requests!)!.slice(1).map(Number);
    expect(total).toBe(q.total);
    expect(rate! * result.attackSeconds!).toBeCloseTo(q.total + q.inFlightAtEnd, 0);
  });
});
