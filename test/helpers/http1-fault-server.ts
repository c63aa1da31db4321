/**
 * HTTP/1.x servers that answer with bytes a test writes by hand: framing node:http would
 * never send (a bad chunk size, a close-delimited HTTP/1.0 body, 1xx interim responses, a
 * close without `Connection: close`). Requests are read as heads only (GET, no body).
 */
import type net from 'node:net';
import { startRawServer, type TestServer } from './servers.ts';

/** Where a request stands: its connection (from 0), its place on it and overall (from 1). */
export interface RequestPlace {
  connection: number;
  onConnection: number;
  total: number;
}

export interface Http1FaultServer extends TestServer {
  /** Request heads received. */
  readonly heads: number;
}

/** Calls answer(socket, place) for every request head received; answer writes (or closes). */
export async function startHttp1FaultServer(
  answer: (socket: net.Socket, place: RequestPlace) => void,
): Promise<Http1FaultServer> {
  let connections = 0;
  let total = 0;
  const server = await startRawServer((socket) => {
    socket.on('error', () => undefined);
    socket.setNoDelay(true);
    const connection = connections++;
    let onConnection = 0;
    let pending = '';
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      for (let end = pending.indexOf('\r\n\r\n'); end >= 0; end = pending.indexOf('\r\n\r\n')) {
        pending = pending.slice(end + 4);
        if (socket.destroyed || socket.writableEnded) return;
        answer(socket, { connection, onConnection: ++onConnection, total: ++total });
      }
    });
  });
  return Object.defineProperty(server, 'heads', { get: () => total }) as Http1FaultServer;
}

/** A complete HTTP/1.1 response with a Content-Length body. */
export function sized(body: string, status = '200 OK', extra = ''): string {
  return `HTTP/1.1 ${status}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;
}
