import dns from 'node:dns';
import net from 'node:net';
import type tls from 'node:tls';
import { loadTls } from '../../builtins.ts';
import type { TlsFacts } from '../../../../shared/model/result.ts';
import { tlsVersionOptions } from '../../tls-version.ts';
import type { RunSpec } from '../../types.ts';
import { routeOf } from '../../../../shared/model/route.ts';
import { endpointOf, type Endpoint } from '../request-bytes.ts';
import { readDirectly } from './stream-handle.ts';

/** How long each step of opening a connection took, in ms. */
export interface DialTiming {
  /** performance.now() when the dial began. */
  startAt: number;
  dnsMs: number;
  connectMs: number;
  /** null for plain TCP. */
  tlsMs: number | null;
}

/** Receives bytes straight from the socket's read buffer (net's `onread`), valid only during the call. */
export type ReadHandler = (bytes: number, buffer: Buffer) => void;

export interface Dialer {
  readonly endpoint: Endpoint;
  /**
   * Opens a connection. `done` runs once: with the ready socket (connected, TLS handshake
   * finished) or with the error. The returned handle cancels a dial in progress.
   */
  dial(
    onRead: ReadHandler | null,
    done: (err: Error | null, socket: net.Socket | null, timing: DialTiming) => void,
  ): {
    cancel(): void;
  };
  /** TLS facts of the first handshake, for the report. */
  readonly tlsFacts: TlsFacts | null;
}

/**
 * One reused read buffer for every socket of the load generator. Safe because each read is handed
 * to its handler synchronously, and the parsers copy whatever they keep across reads.
 */
const READ_BUFFER_BYTES = 256 * 1024;

/**
 * The key exchange groups offered, X25519 first (its key share sent in the ClientHello),
 * as ab, wrk and h2load on OpenSSL 3.0 offer them. Node 24's OpenSSL 3.5 would also generate
 * an X25519MLKEM768 hybrid post-quantum key share for every handshake (a sixth of a
 * handshake's client-side instructions) that a server without ML-KEM throws away; leaving it
 * out keeps the handshake a full one (ECDHE, certificate verified) at the cost ab's has.
 * The group used is in the TLS facts (ab's "Server Temp Key").
 */
export const TLS_GROUPS = 'X25519:P-256:X448:P-521:P-384';

/** The negotiated key exchange of a TLS socket, for the report. */
export function ephemeralKeyOf(s: tls.TLSSocket): TlsFacts['ephemeralKey'] {
  const k = s.getEphemeralKeyInfo();
  return k && typeof k === 'object' && 'name' in k && typeof k.name === 'string'
    ? { name: k.name, bits: typeof k.size === 'number' ? k.size : null }
    : null;
}

/**
 * After each handshake Node checks the server's name (tls.checkServerIdentity) against
 * getPeerCertificate(true): the whole chain as JS objects, each with its DER, public key and
 * three fingerprints, a fifth of a keep-alive-off run's CPU. The check reads only the
 * leaf's subjectaltname (and its subject's CN when the names hold no DNS entry). Until the
 * handshake is over the socket answers that call with the leaf's alt names, read from its
 * X509Certificate (the same string Node's object would carry), and Node's own check judges
 * them as usual; when a CN could matter, or there is no certificate, it answers in full.
 */
function lightNameCheck(t: tls.TLSSocket, checkedName: string): void {
  let handshaking = true;
  const light = function (this: tls.TLSSocket, detailed?: boolean) {
    if (handshaking) {
      const altNames = this.getPeerX509Certificate()?.subjectAltName;
      if (altNames && (net.isIP(checkedName) !== 0 || /(^|, )DNS:/.test(altNames))) {
        return { subjectaltname: altNames } as tls.DetailedPeerCertificate;
      }
    }
    return loadTls().TLSSocket.prototype.getPeerCertificate.call(this, detailed as true);
  };
  Object.defineProperty(t, 'getPeerCertificate', { value: light, configurable: true, writable: true });
  // From the report on, the socket answers in full. The property stays: deleting it put the
  // socket in V8's dictionary mode, every property access slow for the connection's life.
  t.once('secureConnect', () => (handshaking = false));
}

/** Connection errors after which the next address of a host name is tried. */
const FALLBACK_CODES = new Set([
  'ECONNREFUSED',
  'EADDRNOTAVAIL',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EAFNOSUPPORT',
]);

export function createDialer(spec: RunSpec, alpn: readonly string[]): Dialer {
  const endpoint = endpointOf(spec.target.url);
  // Where the sockets go (a connect-to rule, a unix socket); the names sent stay the URL's.
  const route = routeOf(spec.target);
  const verify = spec.options.tls.verify;
  const servername =
    spec.options.tls.servername ?? (net.isIP(endpoint.hostname) ? undefined : endpoint.hostname);
  // The name the certificate must carry: the SNI name, else the URL's address (Node would
  // check the address connected to, which a connect-to rule or a unix socket changed).
  const checkedName = servername ?? endpoint.hostname;
  const checkIdentity =
    servername === undefined
      ? {
          checkServerIdentity: (_host: string, cert: tls.PeerCertificate) =>
            loadTls().checkServerIdentity(checkedName, cert),
        }
      : {};
  // One secure context for every connection: building it (and parsing the CA) per
  // handshake would be measured as the generator's cost, not the server's.
  const secureContext = endpoint.secure
    ? loadTls().createSecureContext({
        ecdhCurve: TLS_GROUPS,
        ...(spec.ca ? { ca: [...loadTls().rootCertificates, spec.ca] } : {}),
        ...tlsVersionOptions(spec.options.tls.minVersion),
      })
    : null;
  const readBuffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
  let tlsFacts: TlsFacts | null = null;

  const dial: Dialer['dial'] = (onRead, done) => {
    const timing: DialTiming = { startAt: performance.now(), dnsMs: 0, connectMs: 0, tlsMs: null };
    let socket: net.Socket | null = null;
    let settled = false;
    const finish = (err: Error | null): void => {
      if (settled) return;
      settled = true;
      if (err) {
        socket?.destroy();
        done(err, null, timing);
      } else {
        if (onRead) readDirectly(socket!, readBuffer, onRead);
        done(null, socket, timing);
      }
    };
    let connectStart = 0;
    /**
     * Connects to addresses[i] (a unix socket's path when the route is one); a refused or
     * unreachable address falls back to the next (::1 then 127.0.0.1 for localhost).
     */
    const connectTo = (addresses: readonly string[], i: number): void => {
      if (i === 0) {
        connectStart = performance.now();
        timing.dnsMs = connectStart - timing.startAt;
      }
      const address = addresses[i]!;
      const onread = onRead
        ? {
            buffer: readBuffer,
            callback: (n: number, b: Uint8Array): boolean => {
              onRead(n, b as Buffer);
              return true;
            },
          }
        : undefined;
      let connected = false;
      let s: net.Socket;
      const where = route.kind === 'unix' ? { path: route.path } : { host: address, port: route.port };
      if (secureContext) {
        // No `session` option: every connection does a full handshake, as ab does.
        const t = loadTls().connect({
          ...where,
          servername,
          ...checkIdentity,
          secureContext,
          rejectUnauthorized: verify,
          ALPNProtocols: [...alpn],
          ...(onread ? { onread } : {}),
        });
        s = t;
        if (verify) lightNameCheck(t, checkedName);
        t.setNoDelay(true);
        t.once('connect', () => {
          connected = true;
          timing.connectMs = performance.now() - connectStart;
        });
        t.once('secureConnect', () => {
          timing.tlsMs = performance.now() - (connectStart + timing.connectMs);
          if (tlsFacts === null) tlsFacts = factsOf(t, verify);
          t.removeListener('error', onError);
          finish(null);
        });
      } else {
        s = net.connect({ ...where, noDelay: true, ...(onread ? { onread } : {}) });
        s.once('connect', () => {
          connected = true;
          timing.connectMs = performance.now() - connectStart;
          s.removeListener('error', onError);
          finish(null);
        });
      }
      socket = s;
      const onError = (err: NodeJS.ErrnoException): void => {
        if (!connected && !settled && i + 1 < addresses.length && FALLBACK_CODES.has(err.code ?? '')) {
          s.destroy();
          connectTo(addresses, i + 1);
        } else {
          finish(err);
        }
      };
      s.once('error', onError);
    };

    if (route.kind === 'unix') {
      connectTo([route.path], 0);
    } else if (net.isIP(route.host)) {
      connectTo([route.host], 0);
    } else {
      dns.lookup(route.host, { all: true }, (err, found) => {
        if (settled) return;
        if (err) finish(err);
        else if (found.length === 0)
          finish(Object.assign(new Error(`no address for ${route.host}`), { code: 'ENOTFOUND' }));
        else
          connectTo(
            found.map((a) => a.address),
            0,
          );
      });
    }
    return {
      cancel: () => {
        if (settled) return;
        settled = true;
        socket?.destroy();
      },
    };
  };

  return {
    endpoint,
    dial,
    get tlsFacts() {
      return tlsFacts;
    },
  };
}

function factsOf(s: tls.TLSSocket, verify: boolean): TlsFacts {
  // Typed as Error, but Node sets an OpenSSL code string (e.g. DEPTH_ZERO_SELF_SIGNED_CERT).
  const err = s.authorizationError as unknown;
  return {
    protocol: s.getProtocol() ?? null,
    cipher: s.getCipher()?.name ?? null,
    alpn: typeof s.alpnProtocol === 'string' ? s.alpnProtocol : null,
    verified: verify && s.authorized,
    authorizationError: err instanceof Error ? err.message : typeof err === 'string' ? err : null,
    ephemeralKey: ephemeralKeyOf(s),
  };
}
