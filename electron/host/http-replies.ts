/** The web host's plain-text answers: its security headers, never cached. */
import type http from 'node:http';
import { securityHeaders } from './csp.ts';

export function sendText(res: http.ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    ...securityHeaders(),
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}
