import type { Warning } from '../../../shared/model/result.ts';
import type { Target } from '../../../shared/model/scenario.ts';

/*
 * The one request builder: the bytes of a target's request, built once per run and sent as
 * they are by the pre-flight, the native engine and the autocannon engine, so what the
 * pre-flight checks is what the load sends. The engine owns the framing and the connection:
 * a header of the user's that would contradict it is left out, and said so in the result.
 */

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
 * A body up to this size is copied behind the head, so a request is one write; a larger one
 * (a body file) is written as is after the head, shared by every request and connection of
 * the run, never copied.
 */
export const INLINE_BODY_BYTES = 64 * 1024;

/** A header of the user's the request goes without, and why. */
export interface NotSent {
  header: string;
  why: string;
}

type RequestTarget = Pick<Target, 'url' | 'method' | 'headers'>;

/** One HTTP/1.1 request, as every sender writes it. */
export interface Http1Request {
  /** The request in one buffer (head and body), or its head when `body` is written apart. */
  bytes: Buffer;
  /** A body larger than INLINE_BODY_BYTES, written right after `bytes`; null when `bytes` holds it all. */
  body: Uint8Array | null;
  /** Bytes of one request on the wire. */
  length: number;
  bodyBytes: number;
  notSent: NotSent[];
}

const FRAMING = 'the engine frames the body itself, with a Content-Length from the body';
const CONNECTION = 'the engine manages the connection: keep-alive is a run option';

/**
 * The bytes of one HTTP/1.1 request, written as they are for every request (the request
 * never changes between sends). keepAlive false adds `Connection: close`, as ab does without -k.
 */
export function http1Request(
  target: RequestTarget,
  body: Uint8Array | null,
  opts: { keepAlive: boolean; appVersion: string },
): Http1Request {
  const ep = endpointOf(target.url);
  const has = (name: string) => target.headers.some((h) => h.name.toLowerCase() === name);
  const notSent: NotSent[] = [];
  const lines = [`${target.method} ${ep.path} HTTP/1.1`];
  if (!has('host')) lines.push(`Host: ${ep.authority}`);
  if (!has('user-agent')) lines.push(`User-Agent: ${userAgent(opts.appVersion)}`);
  if (!has('accept')) lines.push('Accept: */*');
  for (const h of target.headers) {
    const lower = h.name.toLowerCase();
    if (lower === 'content-length' || lower === 'transfer-encoding') {
      notSent.push({ header: `${h.name}: ${h.value}`, why: FRAMING });
    } else if (lower === 'connection') {
      notSent.push({ header: `${h.name}: ${h.value}`, why: CONNECTION });
    } else {
      lines.push(`${h.name}: ${h.value}`);
    }
  }
  if (!opts.keepAlive) lines.push('Connection: close');
  const bodyBytes = body?.byteLength ?? 0;
  if (body !== null || ['POST', 'PUT', 'PATCH'].includes(target.method)) {
    lines.push(`Content-Length: ${bodyBytes}`);
  }
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  const inline = body === null || bodyBytes <= INLINE_BODY_BYTES;
  return {
    bytes: inline && body !== null ? Buffer.concat([head, body]) : head,
    body: inline ? null : body,
    length: head.length + bodyBytes,
    bodyBytes,
    notSent,
  };
}

/** Connection-specific headers HTTP/2 forbids (RFC 9113 section 8.2.2); TE is allowed as "trailers" only. */
const H2_FORBIDDEN = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
]);
const H2_CONNECTION_SPECIFIC = 'HTTP/2 forbids connection-specific headers, RFC 9113 section 8.2.2';

/** One HTTP/2 request's header fields, in order, pseudo-headers first. */
export interface Http2Request {
  fields: [string, string][];
  notSent: NotSent[];
}

/** The header fields of an HTTP/2 request, built once per run (hpack/encoder.ts encodes them once). */
export function http2Request(
  target: RequestTarget,
  body: Uint8Array | null,
  appVersion: string,
): Http2Request {
  const ep = endpointOf(target.url);
  const has = (name: string) => target.headers.some((h) => h.name.toLowerCase() === name);
  const notSent: NotSent[] = [];
  const fields: [string, string][] = [
    [':method', target.method],
    [':path', ep.path],
    [':scheme', ep.secure ? 'https' : 'http'],
    [':authority', target.headers.find((h) => h.name.toLowerCase() === 'host')?.value ?? ep.authority],
  ];
  if (!has('user-agent')) fields.push(['user-agent', userAgent(appVersion)]);
  if (!has('accept')) fields.push(['accept', '*/*']);
  for (const h of target.headers) {
    const lower = h.name.toLowerCase();
    // Host is :authority in HTTP/2 (RFC 9113 section 8.3.1).
    if (lower === 'host') continue;
    if (lower === 'content-length') notSent.push({ header: `${h.name}: ${h.value}`, why: FRAMING });
    else if (H2_FORBIDDEN.has(lower) || (lower === 'te' && h.value.trim().toLowerCase() !== 'trailers'))
      notSent.push({ header: `${h.name}: ${h.value}`, why: H2_CONNECTION_SPECIFIC });
    else fields.push([lower, h.value]);
  }
  if (body !== null) fields.push(['content-length', String(body.byteLength)]);
  return { fields, notSent };
}

/** The result's word on the user's headers a request went without (none: no warning). */
export function notSentWarnings(notSent: readonly NotSent[]): Warning[] {
  if (notSent.length === 0) return [];
  const list = notSent.map((n) => `"${n.header}" (${n.why})`).join('; ');
  return [
    {
      code: 'other',
      message: `Headers left out of every request (the pre-flight's and the load's): ${list}.`,
    },
  ];
}
