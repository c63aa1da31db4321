/**
 * Debian's nginx on a free loopback port with a generated config, for integration tests and
 * the benchmark. Runs in the foreground (daemon off) from a temp prefix; stop() kills it and
 * removes the temp dir (and the test certificates it made).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTestCerts, type TestCerts } from './certs.ts';
import { freePort } from './servers.ts';

export const NGINX_BIN = '/usr/sbin/nginx';

/** The docroot every instance serves (seed 000's test.html, seed 004's 3 KB page, seed 001's ~8 KB image). */
export const NGINX_FILES = {
  /** `echo test > test.html`: 5 bytes. */
  'test.html': Buffer.from('test\n'),
  '3k.html': Buffer.from(`<html><body>${'x'.repeat(3072 - 27)}</body></html>\n`),
  '8k.bin': randomBytes(8192),
} as const;

export interface NginxOptions {
  /** nginx worker processes (default 1). */
  workers?: number;
  /** Requests served on one keep-alive connection before nginx closes it (default 1,000,000). */
  keepaliveRequests?: number;
  /** Also listen with TLS and HTTP/2 (`listen ... ssl http2`), with a test CA's certificate. */
  https?: boolean;
  /** Extra files for the docroot (name -> content). */
  files?: Record<string, string | Buffer>;
}

export interface NginxServer {
  /** `http://127.0.0.1:PORT/` */
  httpUrl: string;
  /** `https://127.0.0.1:PORT/` (HTTP/1.1 and HTTP/2 by ALPN), when https was asked for. */
  httpsUrl?: string;
  /** The CA that signed the https certificate: trust it with options.tls.caFile. */
  caFile?: string;
  /** The master process id (for CPU accounting). */
  pid: number;
  stop(): Promise<void>;
}

function config(
  dir: string,
  o: Required<Omit<NginxOptions, 'files' | 'https'>>,
  ports: { http: number; https: number | null },
  certs: TestCerts | null,
): string {
  const tls =
    ports.https !== null && certs
      ? `
    listen 127.0.0.1:${ports.https} ssl http2;
    ssl_certificate ${certs.valid.certFile};
    ssl_certificate_key ${certs.valid.keyFile};
    ssl_protocols TLSv1.2 TLSv1.3;`
      : '';
  return `worker_processes ${o.workers};
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 20000; }
http {
  access_log off;
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
  types { text/html html; application/octet-stream bin; }
  default_type application/octet-stream;
  sendfile on;
  tcp_nopush on;
  keepalive_requests ${o.keepaliveRequests};
  keepalive_timeout 65s;
  server {
    listen 127.0.0.1:${ports.http};${tls}
    server_name localhost;
    root ${dir}/www;
  }
}
`;
}

/** Resolves once something accepts on the port; rejects when `failed()` says the server died. */
async function waitForPort(port: number, failed: () => string | null, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const why = failed();
    if (why !== null) throw new Error(why);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline)
      throw new Error(`nginx did not accept on 127.0.0.1:${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

export async function startNginx(opts: NginxOptions = {}): Promise<NginxServer> {
  const dir = mkdtempSync(join(tmpdir(), 'trebuchet-nginx-'));
  // nginx started as root serves files as 'nobody': the docroot must be world-readable.
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, 'www'), { mode: 0o755 });
  mkdirSync(join(dir, 'tmp'));
  for (const [name, content] of Object.entries({ ...NGINX_FILES, ...opts.files })) {
    writeFileSync(join(dir, 'www', name), content, { mode: 0o644 });
  }
  const certs = opts.https ? makeTestCerts() : null;
  const cleanup = () => {
    certs?.remove();
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };

  try {
    const ports = { http: await freePort(), https: opts.https ? await freePort() : null };
    const conf = join(dir, 'nginx.conf');
    writeFileSync(
      conf,
      config(
        dir,
        { workers: opts.workers ?? 1, keepaliveRequests: opts.keepaliveRequests ?? 1_000_000 },
        ports,
        certs,
      ),
    );

    // -e: the startup error log too, so nginx never touches /var/log/nginx.
    const child = spawn(NGINX_BIN, ['-p', dir, '-c', conf, '-e', join(dir, 'error.log')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    let spawnError: Error | null = null;
    child.once('error', (e) => (spawnError = e));
    const failed = (): string | null => {
      if (spawnError) return `cannot start ${NGINX_BIN}: ${spawnError.message}`;
      if (child.exitCode === null && child.signalCode === null) return null;
      let log = '';
      try {
        log = readFileSync(join(dir, 'error.log'), 'utf8');
      } catch {
        // no log written
      }
      return `nginx exited (${child.exitCode ?? child.signalCode}): ${stderr}${log}`.trim();
    };
    try {
      await waitForPort(ports.http, failed);
      if (ports.https !== null) await waitForPort(ports.https, failed);
    } catch (e) {
      child.kill('SIGKILL');
      await exited(child);
      throw e;
    }

    // A test process that exits without stop() must not leave nginx behind. SIGTERM, not
    // SIGKILL: the master then takes its workers down with it.
    const killOnExit = (): void => {
      child.kill('SIGTERM');
      cleanup();
    };
    process.once('exit', killOnExit);

    return {
      httpUrl: `http://127.0.0.1:${ports.http}/`,
      ...(ports.https !== null && certs
        ? { httpsUrl: `https://127.0.0.1:${ports.https}/`, caFile: certs.ca.certFile }
        : {}),
      pid: child.pid!,
      stop: async () => {
        process.off('exit', killOnExit);
        // SIGTERM: fast shutdown of the master and its workers.
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited(child);
        clearTimeout(timer);
        cleanup();
      },
    };
  } catch (e) {
    cleanup();
    throw e;
  }
}
