import { describe, expect, it } from 'vitest';
import { classifyError, describeCertError } from '../../electron/engine/errors.ts';

const err = (code: string | undefined, message: string) =>
  Object.assign(new Error(message), code ? { code } : {});

describe('classifyError', () => {
  it.each([
    ['ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1', 'refused'],
    ['ENOTFOUND', 'getaddrinfo ENOTFOUND x.invalid', 'dns'],
    ['EAI_AGAIN', 'getaddrinfo EAI_AGAIN x', 'dns'],
    ['ETIMEDOUT', 'connect ETIMEDOUT', 'timeout'],
    ['UND_ERR_HEADERS_TIMEOUT', 'Headers Timeout Error', 'timeout'],
    ['ECONNRESET', 'read ECONNRESET', 'reset'],
    ['EPIPE', 'write EPIPE', 'reset'],
    ['UND_ERR_SOCKET', 'other side closed', 'reset'],
    ['CERT_HAS_EXPIRED', 'certificate has expired', 'tls'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate', 'tls'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames", 'tls'],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'wrong version number', 'tls'],
    ['HPE_INVALID_CONSTANT', 'Parse Error: Expected HTTP/', 'protocol'],
    ['ERR_HTTP2_STREAM_ERROR', 'Stream closed with error code NGHTTP2_PROTOCOL_ERROR', 'protocol'],
    ['EMFILE', 'connect EMFILE 127.0.0.1:80', 'other'],
    ['EADDRNOTAVAIL', 'connect EADDRNOTAVAIL 127.0.0.1:80', 'refused'],
  ] as const)('%s is %s', (code, message, kind) => {
    expect(classifyError(err(code, message)).kind).toBe(kind);
  });

  it.each([
    ['EMFILE', 'open-files', 'ulimit -n'],
    ['ENFILE', 'open-files', 'ulimit -n'],
    ['EADDRNOTAVAIL', 'local-ports', 'ephemeral port range'],
    ['EADDRINUSE', 'local-ports', 'ephemeral port range'],
  ] as const)("names %s as the load generator's own %s limit, with what to change", (code, limit, fix) => {
    const c = classifyError(err(code, `connect ${code} 127.0.0.1:80 - Local (undefined:undefined)`));
    expect(c.limit).toBe(limit);
    expect(c.message).toMatch(new RegExp(`^${code}: `));
    expect(c.message).toContain(fix);
  });

  it('marks no other failure as a limit of the load generator', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND']) {
      expect(classifyError(err(code, code)).limit).toBeUndefined();
    }
  });

  it('falls back on the message when there is no code', () => {
    expect(classifyError(new Error('request timed out')).kind).toBe('timeout');
    expect(classifyError(new Error('socket hang up')).kind).toBe('reset');
    expect(classifyError('something odd').kind).toBe('other');
  });

  it('keeps the first message and adds the code when the message lacks it', () => {
    expect(classifyError(err('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9')).message).toBe(
      'connect ECONNREFUSED 127.0.0.1:9',
    );
    expect(classifyError(err('CERT_HAS_EXPIRED', 'certificate has expired')).message).toBe(
      'certificate has expired (CERT_HAS_EXPIRED)',
    );
  });

  it('says certificate codes in words', () => {
    expect(describeCertError('CERT_HAS_EXPIRED')).toBe('certificate has expired');
    expect(describeCertError('DEPTH_ZERO_SELF_SIGNED_CERT')).toBe('certificate is self-signed');
    expect(describeCertError('ERR_TLS_CERT_ALTNAME_INVALID')).toBe(
      'certificate does not match the host name',
    );
    expect(describeCertError('SOMETHING_NEW')).toBe('certificate rejected (SOMETHING_NEW)');
  });
});
