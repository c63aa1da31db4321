import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A key and certificate, as PEM text and as files (for nginx and other servers). */
export interface CertPair {
  key: string;
  cert: string;
  keyFile: string;
  certFile: string;
}

export interface TestCerts {
  dir: string;
  /** The test CA: trust it with `options.tls.caFile = ca.certFile`. */
  ca: CertPair;
  /** Signed by the CA for 127.0.0.1, ::1 and localhost. */
  valid: CertPair;
  /** Self-signed for the same names: rejected unless verification is off. */
  selfSigned: CertPair;
  /** Signed by the CA, but expired a year ago. */
  expired: CertPair;
  /** Signed by the CA for wrong.example only. */
  wrongHost: CertPair;
  /** Signed by the CA for example.test only: reached on loopback through --connect-to. */
  exampleTest: CertPair;
  remove(): void;
}

const LOCAL_SAN = 'subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost';

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

function pair(dir: string, name: string): CertPair {
  const keyFile = join(dir, `${name}.key`);
  const certFile = join(dir, `${name}.crt`);
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), keyFile, certFile };
}

/** Generates fresh certificates in a temp dir (never committed); call remove() after the tests. */
export function makeTestCerts(): TestCerts {
  const dir = mkdtempSync(join(tmpdir(), 'trebuchet-certs-'));
  const key = (name: string) =>
    openssl(dir, [
      'genpkey',
      '-algorithm',
      'EC',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-out',
      `${name}.key`,
    ]);

  key('ca');
  openssl(dir, [
    'req',
    '-x509',
    '-new',
    '-key',
    'ca.key',
    '-subj',
    '/CN=Trebuchet Test CA',
    '-days',
    '2',
    '-out',
    'ca.crt',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);

  const signed = (name: string, san: string, dates: string[] = ['-days', '2']) => {
    key(name);
    openssl(dir, ['req', '-new', '-key', `${name}.key`, '-subj', `/CN=${name}`, '-out', `${name}.csr`]);
    writeFileSync(
      join(dir, `${name}.ext`),
      `${san}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`,
    );
    openssl(dir, [
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-extfile',
      `${name}.ext`,
      ...dates,
      '-out',
      `${name}.crt`,
    ]);
  };
  signed('valid', LOCAL_SAN);
  signed('wronghost', 'subjectAltName=DNS:wrong.example');
  signed('exampletest', 'subjectAltName=DNS:example.test');

  // openssl x509 cannot back-date; `openssl ca` can, with a throwaway CA database.
  key('expired');
  openssl(dir, ['req', '-new', '-key', 'expired.key', '-subj', '/CN=expired', '-out', 'expired.csr']);
  writeFileSync(join(dir, 'index.txt'), '');
  writeFileSync(join(dir, 'serial'), '1000\n');
  writeFileSync(
    join(dir, 'ca.cnf'),
    [
      '[ca]',
      'default_ca=test',
      '[test]',
      `dir=${dir}`,
      'database=$dir/index.txt',
      'serial=$dir/serial',
      'new_certs_dir=$dir',
      'default_md=sha256',
      'policy=any',
      'copy_extensions=none',
      'x509_extensions=ext',
      '[any]',
      'commonName=supplied',
      '[ext]',
      LOCAL_SAN.replace('=', ' = '),
      'basicConstraints=CA:FALSE',
      '',
    ].join('\n'),
  );
  openssl(dir, [
    'ca',
    '-batch',
    '-config',
    'ca.cnf',
    '-cert',
    'ca.crt',
    '-keyfile',
    'ca.key',
    '-in',
    'expired.csr',
    '-startdate',
    '20200101000000Z',
    '-enddate',
    '20210101000000Z',
    '-out',
    'expired.crt',
    '-notext',
  ]);

  key('self');
  openssl(dir, [
    'req',
    '-x509',
    '-new',
    '-key',
    'self.key',
    '-subj',
    '/CN=localhost',
    '-days',
    '2',
    '-out',
    'self.crt',
    '-addext',
    LOCAL_SAN,
  ]);

  return {
    dir,
    ca: pair(dir, 'ca'),
    valid: pair(dir, 'valid'),
    selfSigned: pair(dir, 'self'),
    expired: pair(dir, 'expired'),
    wrongHost: pair(dir, 'wronghost'),
    exampleTest: pair(dir, 'exampletest'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
