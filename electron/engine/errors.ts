import type { ErrorKind } from '../../shared/model/result.ts';

/**
 * A limit of the machine generating the load, not of the server: the process's open files,
 * or the local ports new connections take. A run that hits one says so, with the fix.
 */
export type ClientLimit = 'open-files' | 'local-ports';

/** A failure named the way vegeta's Error Set names it, with the message a person reads first. */
export interface ClassifiedError {
  kind: ErrorKind;
  message: string;
  /** Set when the failure is the generator's own limit (see ClientLimit). */
  limit?: ClientLimit;
}

/** Error codes of a connect that ran into a ClientLimit, and how they count. */
const LIMIT_CODES: Record<string, { limit: ClientLimit; kind: ErrorKind }> = {
  EMFILE: { limit: 'open-files', kind: 'other' },
  ENFILE: { limit: 'open-files', kind: 'other' },
  EADDRNOTAVAIL: { limit: 'local-ports', kind: 'refused' },
  EADDRINUSE: { limit: 'local-ports', kind: 'refused' },
};

const LIMIT_MESSAGES: Record<ClientLimit, string> = {
  'open-files': 'too many open files, the load generator reached its open-files limit (ulimit -n)',
  'local-ports':
    'no local address or port for a new connection, with many connections the ephemeral port range is used up',
};

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA']);
const RESET_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'ERR_STREAM_PREMATURE_CLOSE',
]);
const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'ESOCKETTIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);
const REFUSED_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH']);

/** OpenSSL's verification codes, as Node reports them, in words. */
const CERT_REASONS: Record<string, string> = {
  CERT_HAS_EXPIRED: 'certificate has expired',
  CERT_NOT_YET_VALID: 'certificate is not yet valid',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'certificate chain ends in an untrusted self-signed certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'certificate is signed by an unknown authority',
  UNABLE_TO_GET_ISSUER_CERT: 'certificate is signed by an unknown authority',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'certificate is signed by an unknown authority',
  ERR_TLS_CERT_ALTNAME_INVALID: 'certificate does not match the host name',
  CERT_REVOKED: 'certificate has been revoked',
  CERT_SIGNATURE_FAILURE: 'certificate signature is invalid',
  CERT_UNTRUSTED: 'certificate is not trusted',
};

function codeOf(err: unknown): string | null {
  if (typeof err !== 'object' || err === null) return null;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? code : null;
}

function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  if (typeof err === 'string') return err;
  return String(err);
}

/** Certificate verification code in words (e.g. CERT_HAS_EXPIRED -> "certificate has expired"). */
export function describeCertError(code: string): string {
  return CERT_REASONS[code] ?? `certificate rejected (${code})`;
}

export function isCertError(code: string): boolean {
  return code in CERT_REASONS || code.includes('CERT');
}

/** Names why a request failed from a Node or autocannon error (code first, then message). */
export function classifyError(err: unknown): ClassifiedError {
  const code = codeOf(err);
  const limit = code === null ? undefined : LIMIT_CODES[code];
  if (limit !== undefined) {
    return { kind: limit.kind, message: `${code}: ${LIMIT_MESSAGES[limit.limit]}`, limit: limit.limit };
  }
  const message = messageOf(err);
  const kind = kindOf(code, message);
  return { kind, message: code && !message.includes(code) ? `${message} (${code})` : message };
}

function kindOf(code: string | null, message: string): ErrorKind {
  if (code) {
    if (REFUSED_CODES.has(code)) return 'refused';
    if (DNS_CODES.has(code)) return 'dns';
    if (TIMEOUT_CODES.has(code)) return 'timeout';
    if (RESET_CODES.has(code)) return 'reset';
    if (code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || isCertError(code)) return 'tls';
    if (code.startsWith('HPE_') || code.startsWith('ERR_HTTP2') || code === 'ERR_INVALID_HTTP_RESPONSE') {
      return 'protocol';
    }
  }
  const m = message.toLowerCase();
  if (m.includes('timed out') || m.includes('timeout')) return 'timeout';
  if (m.includes('ssl') || m.includes('tls') || m.includes('certificate')) return 'tls';
  if (m.includes('socket hang up') || m.includes('reset')) return 'reset';
  if (m.includes('parse error') || m.includes('invalid http')) return 'protocol';
  return 'other';
}
