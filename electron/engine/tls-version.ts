import type tls from 'node:tls';
import { loadTls } from './builtins.ts';
import { DEFAULTS } from '../../shared/model/defaults.ts';
import { TLS_VERSIONS, type TlsVersion } from '../../shared/model/scenario.ts';

/**
 * The oldest TLS version a scenario offers, as options for tls.connect and
 * tls.createSecureContext. OpenSSL 3 refuses TLS 1.0 and 1.1 at its default security level
 * (their handshakes sign with SHA-1), so allowing them also lowers it to 0, for that
 * connection only.
 */
export function tlsVersionOptions(minVersion: TlsVersion): { minVersion: TlsVersion; ciphers?: string } {
  return isOld(minVersion) ? { minVersion, ciphers: 'DEFAULT@SECLEVEL=0' } : { minVersion };
}

const isOld = (v: TlsVersion): boolean => v === 'TLSv1' || v === 'TLSv1.1';

const WORDS: Record<TlsVersion, string> = {
  TLSv1: 'TLS 1.0',
  'TLSv1.1': 'TLS 1.1',
  'TLSv1.2': 'TLS 1.2',
  'TLSv1.3': 'TLS 1.3',
};

/** OpenSSL's codes for a handshake that found no TLS version both sides accept. */
const VERSION_MISMATCH = new Set([
  'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION',
  'ERR_SSL_UNSUPPORTED_PROTOCOL',
  'ERR_SSL_NO_PROTOCOLS_AVAILABLE',
]);

export function isVersionMismatch(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && VERSION_MISMATCH.has(code);
}

/**
 * After a handshake failed on the TLS version: which older version the server offers (one
 * more handshake, allowing everything below the scenario's minimum), and what to do about
 * it, in words; null when it offers none of them either (the raw error is then the best
 * account). Never throws.
 */
export async function explainVersionMismatch(
  at: ({ host: string; port: number } | { path: string }) & { servername: string | undefined },
  minVersion: TlsVersion,
  track: (s: tls.TLSSocket) => void,
): Promise<string | null> {
  const below = TLS_VERSIONS.indexOf(minVersion) - 1;
  if (below < 0) return null;
  const offered = await new Promise<string | null>((resolve) => {
    const probe = loadTls().connect({
      ...at,
      rejectUnauthorized: false,
      minVersion: 'TLSv1',
      maxVersion: TLS_VERSIONS[below]!,
      ciphers: 'DEFAULT@SECLEVEL=0',
    });
    track(probe);
    probe.once('secureConnect', () => resolve(probe.getProtocol()));
    probe.once('error', () => resolve(null));
  });
  const version = TLS_VERSIONS.find((v) => v === offered);
  if (version === undefined) return null;
  const refused =
    minVersion === DEFAULTS.tls.minVersion
      ? `which this Node refuses by default (it requires ${WORDS[minVersion]} or later)`
      : `below options.tls.minVersion (${minVersion})`;
  const older = version === 'TLSv1' ? '' : ' or older';
  return `the server offers only ${WORDS[version]}${older}, ${refused}: set options.tls.minVersion to ${version} (--tls-min-version ${version}) to test it anyway`;
}
