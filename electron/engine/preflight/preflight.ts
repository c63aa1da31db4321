import { lookup } from 'node:dns/promises';
import { once } from 'node:events';
import net from 'node:net';
import { loadTls } from '../builtins.ts';
import { shownUrl } from '../../../shared/format/labels.ts';
import { statusLine } from '../../../shared/figures/status-text.ts';
import type { TlsFacts } from '../../../shared/model/result.ts';
import { classifyError, describeCertError, type ClassifiedError } from '../errors.ts';
import { ephemeralKeyOf, TLS_GROUPS } from '../native/socket/dial.ts';
import { ExchangeError, sendOne, type SingleResponse } from '../native/single-request.ts';
import { isOkStatus } from '../recording/status-class.ts';
import { routeLabel, routeOf } from '../../../shared/model/route.ts';
import { hostAndPort, type TargetFacts } from '../result.ts';
import { explainVersionMismatch, isVersionMismatch, tlsVersionOptions } from '../tls-version.ts';
import type { RunSpec } from '../types.ts';
import { runRequests, specOfRequest } from '../request-list.ts';

export type PreflightOutcome =
  | { ok: true; facts: TargetFacts }
  | { ok: false; error: ClassifiedError; tls: TlsFacts | null; stopped: boolean };

class PreflightError extends Error {
  readonly kind: ClassifiedError['kind'];
  constructor(kind: ClassifiedError['kind'], message: string) {
    super(message);
    this.kind = kind;
  }
}

/**
 * The pre-flight of a run: its one request's, or one for every distinct URL of its list (in
 * list order, each as the load sends it, stopping at the first that fails); the facts are
 * the first URL's.
 */
export async function preflight(spec: RunSpec, signal: AbortSignal): Promise<PreflightOutcome> {
  if (spec.target.requests === undefined) return preflightOne(spec, signal);
  const seen = new Set<string>();
  let first: PreflightOutcome | null = null;
  for (const r of runRequests(spec)) {
    if (seen.has(r.target.url)) continue;
    seen.add(r.target.url);
    const outcome = await preflightOne(specOfRequest(spec, r), signal);
    if (!outcome.ok) return outcome;
    first ??= outcome;
  }
  return first!;
}

/**
 * Checks a target before any load: resolves its name, connects, completes the TLS handshake
 * (verifying the certificate unless options.tls.verify is off), and sends the scenario's
 * request once: the load's bytes, its answer read by the load's parser (single-request.ts).
 * An answer outside 2xx/3xx (a wrong path) stops it too, unless options.checkStatus is off.
 * Any failure comes back as an error with a message a person can act on, so a bad target
 * costs one request, not thousands of errors. Never throws.
 */
async function preflightOne(spec: RunSpec, signal: AbortSignal): Promise<PreflightOutcome> {
  const url = new URL(spec.target.url);
  const named = hostAndPort(spec.target.url);
  const { hostname } = named;
  const timeoutMs = spec.options.timeoutMs;
  const sockets: net.Socket[] = [];
  let tlsFacts: TlsFacts | null = null;
  let phase: string;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;

  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(new PreflightError('timeout', `timed out after ${timeoutMs} ms while ${phase} (${url.href})`)),
      timeoutMs,
    );
    onAbort = () => reject(new PreflightError('other', 'stopped before the load began'));
    signal.addEventListener('abort', onAbort, { once: true });
  });

  // Where the socket goes (a connect-to rule, a unix socket); Host, SNI and the certificate keep the URL's name.
  const route = routeOf(spec.target);
  const routed = route.kind === 'unix' || route.rule !== null ? ` (through ${routeLabel(route)})` : '';
  phase = route.kind === 'unix' ? `connecting to ${route.path}` : `resolving ${route.host}`;

  const check = async (): Promise<TargetFacts> => {
    let where: { path: string } | { host: string; port: number };
    if (route.kind === 'unix') {
      where = { path: route.path };
    } else {
      let address = route.host;
      if (!net.isIP(address)) {
        try {
          address = (await lookup(route.host)).address;
        } catch (err) {
          const { message } = classifyError(err);
          throw new PreflightError('dns', `cannot resolve ${route.host}: ${message}`);
        }
      }
      where = { host: address, port: route.port };
      phase = `connecting to ${address}:${route.port}`;
    }
    const raw = net.connect(where);
    sockets.push(raw);
    try {
      await once(raw, 'connect');
    } catch (err) {
      const c = classifyError(err);
      // Said in words first: "connect ECONNREFUSED" alone reads as a crash to many.
      const words = (err as { code?: unknown }).code === 'ECONNREFUSED' ? 'connection refused: ' : '';
      throw new PreflightError(c.kind, `cannot connect to ${url.host}${routed}: ${words}${c.message}`);
    }

    let socket: net.Socket = raw;
    if (url.protocol === 'https:') {
      phase = 'completing the TLS handshake';
      const servername = spec.options.tls.servername ?? (net.isIP(hostname) ? undefined : hostname);
      const secure = loadTls().connect({
        socket: raw,
        // The name the certificate is checked against: SNI name if given, else the URL's host.
        host: servername ?? hostname,
        servername,
        ca: spec.ca === null ? undefined : [...loadTls().rootCertificates, spec.ca],
        ecdhCurve: TLS_GROUPS,
        // Verification is judged below, so the facts are known even for a certificate we reject.
        rejectUnauthorized: false,
        // Offering http/1.1 too lets a server without HTTP/2 finish the handshake, so the error can say so.
        ALPNProtocols: spec.options.protocol === 'h2' ? ['h2', 'http/1.1'] : ['http/1.1'],
        ...tlsVersionOptions(spec.options.tls.minVersion),
      });
      sockets.push(secure);
      try {
        await once(secure, 'secureConnect');
      } catch (err) {
        const why = isVersionMismatch(err)
          ? await explainVersionMismatch({ ...where, servername }, spec.options.tls.minVersion, (s) =>
              sockets.push(s),
            )
          : null;
        throw new PreflightError(
          'tls',
          `TLS handshake with ${url.host} failed: ${why ?? classifyError(err).message}`,
        );
      }
      const authError = secure.authorizationError ? String(secure.authorizationError) : null;
      tlsFacts = {
        protocol: secure.getProtocol() ?? null,
        cipher: secure.getCipher()?.name ?? null,
        alpn: secure.alpnProtocol || null,
        verified: spec.options.tls.verify && secure.authorized,
        authorizationError: authError === null ? null : `${describeCertError(authError)} (${authError})`,
        ephemeralKey: ephemeralKeyOf(secure),
      };
      if (spec.options.tls.verify && !secure.authorized) {
        const code = authError ?? 'UNKNOWN';
        throw new PreflightError(
          'tls',
          `${describeCertError(code)} (${code}) for ${url.href} — turn off certificate verification to test it anyway`,
        );
      }
      if (spec.options.protocol === 'h2' && secure.alpnProtocol !== 'h2') {
        throw new PreflightError(
          'protocol',
          `${url.host} did not agree to HTTP/2 (ALPN answer: ${secure.alpnProtocol || 'none'})`,
        );
      }
      socket = secure;
    }

    phase = 'waiting for the response to one request';
    const sentAt = performance.now();
    const res = await sendOne(spec, socket);
    const roundTripMs = performance.now() - sentAt;
    if (spec.options.checkStatus && !isOkStatus(res.status)) {
      throw new PreflightError('status', statusFailure(spec, res));
    }
    return {
      tls: tlsFacts,
      server: {
        software: res.server,
        ...named,
        documentLength: res.bodyBytes,
        httpVersion: res.httpVersion,
      },
      roundTripMs,
    };
  };

  try {
    const facts = await Promise.race([check(), deadline]);
    return { ok: true, facts };
  } catch (err) {
    const error: ClassifiedError =
      err instanceof PreflightError
        ? { kind: err.kind, message: err.message }
        : err instanceof ExchangeError
          ? { kind: err.kind, message: `request to ${url.href} failed: ${err.message}` }
          : (() => {
              const c = classifyError(err);
              return { kind: c.kind, message: `request to ${url.href} failed: ${c.message}` };
            })();
    return { ok: false, error, tls: tlsFacts, stopped: signal.aborted };
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
    // Outermost first: destroying a TLS socket's underlying TCP socket before it crashes Node 24 (SIGSEGV).
    for (const s of sockets.reverse()) s.destroy();
  }
}

/**
 * "GET http://127.0.0.1:8080/1kb.html answered 404 Not Found: “Not Found”", and what to do:
 * the URL, the status and the server's own first line, so a wrong path is plain before any load.
 */
export function statusFailure(spec: RunSpec, res: Pick<SingleResponse, 'status' | 'bodyLine'>): string {
  const said = res.bodyLine === null ? '' : `: “${res.bodyLine}”`;
  return (
    `${spec.target.method} ${shownUrl(spec.target.url)} answered ${statusLine(res.status)}${said}` +
    ' — check the URL, or run anyway to measure this answer on purpose'
  );
}
