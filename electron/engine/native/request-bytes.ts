import type { Target } from '../../../shared/model/scenario.ts';

/** Where a target lives, split once from its URL. */
export interface Endpoint {
  secure: boolean;
  /** Host name or address as written in the URL (brackets removed for IPv6). */
  hostname: string;
  port: number;
  /** Path and query, as sent on the request line (":path" in HTTP/2). */
  path: string;
  /** The Host header / ":authority" value: host[:port], port left out when it is the default. */
  authority: string;
}

export function endpointOf(url: string): Endpoint {
  const u = new URL(url);
  const secure = u.protocol === 'https:';
  const port = u.port ? Number(u.port) : secure ? 443 : 80;
  const hostname = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
  return { secure, hostname, port, path: `${u.pathname}${u.search}`, authority: u.host };
}

/** User-Agent sent unless the target sets its own (ab sends "ApacheBench/2.3"). */
export function userAgent(appVersion: string): string {
  return `Trebuchet/${appVersion}`;
}

/**
 * The bytes of one HTTP/1.1 request, built once per run and written as is for every
 * request (the request never changes between sends). keepAlive false adds
 * `Connection: close`, as ab does without -k.
 */
export function http1RequestBytes(
  target: Pick<Target, 'url' | 'method' | 'headers'>,
  body: Uint8Array | null,
  opts: { keepAlive: boolean; appVersion: string },
): { bytes: Buffer; bodyBytes: number } {
  const ep = endpointOf(target.url);
  const has = (name: string) => target.headers.some((h) => h.name.toLowerCase() === name);
  const lines = [`${target.method} ${ep.path} HTTP/1.1`];
  if (!has('host')) lines.push(`Host: ${ep.authority}`);
  if (!has('user-agent')) lines.push(`User-Agent: ${userAgent(opts.appVersion)}`);
  if (!has('accept')) lines.push('Accept: */*');
  for (const h of target.headers) {
    const lower = h.name.toLowerCase();
    // The runner owns the framing and the connection's fate.
    if (lower === 'content-length' || lower === 'transfer-encoding' || lower === 'connection') continue;
    lines.push(`${h.name}: ${h.value}`);
  }
  if (!opts.keepAlive) lines.push('Connection: close');
  const bodyBytes = body?.byteLength ?? 0;
  if (body !== null || ['POST', 'PUT', 'PATCH'].includes(target.method)) {
    lines.push(`Content-Length: ${bodyBytes}`);
  }
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return { bytes: body ? Buffer.concat([head, body]) : head, bodyBytes };
}

/** Connection-specific headers HTTP/2 forbids (RFC 9113 section 8.2.2). */
const H2_FORBIDDEN = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'host',
]);

/** The header block of an HTTP/2 request, built once per run. */
export function http2RequestHeaders(
  target: Pick<Target, 'url' | 'method' | 'headers'>,
  body: Uint8Array | null,
  appVersion: string,
): Record<string, string> {
  const ep = endpointOf(target.url);
  const headers: Record<string, string> = {
    ':method': target.method,
    ':path': ep.path,
    ':scheme': ep.secure ? 'https' : 'http',
    ':authority': target.headers.find((h) => h.name.toLowerCase() === 'host')?.value ?? ep.authority,
    'user-agent': userAgent(appVersion),
    accept: '*/*',
  };
  for (const h of target.headers) {
    const lower = h.name.toLowerCase();
    if (H2_FORBIDDEN.has(lower) || lower === 'content-length') continue;
    headers[lower] = h.value;
  }
  if (body !== null) headers['content-length'] = String(body.byteLength);
  return headers;
}
