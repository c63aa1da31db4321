/**
 * Debian's nginx on a free loopback port with a generated config, for integration tests and
 * the benchmark. Runs in the foreground (daemon off) from a temp prefix; stop() kills it and
 * removes the temp dir (and the test certificates it made). Process handling and the docroot
 * are server-process.ts's, shared with the other servers of the comparison suite.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import type { TestCerts } from './certs.ts';
import { launchServer, type LocalServer, type ServerSetup } from './server-process.ts';

export const NGINX_BIN = '/usr/sbin/nginx';

export interface NginxOptions {
  /** nginx worker processes (default 1). */
  workers?: number;
  /** Requests served on one keep-alive connection before nginx closes it (default 1,000,000). */
  keepaliveRequests?: number;
  /** Also listen with TLS and HTTP/2 (`listen ... ssl http2`), with a test CA's certificate. */
  https?: boolean;
  /** The certificates to serve (shared with other servers); made for this server when absent. */
  certs?: TestCerts;
  /** Extra files for the docroot (name -> content). */
  files?: Record<string, string | Buffer>;
  /** Also listen on this unix domain socket (`listen unix:PATH`). */
  unixSocket?: string;
  /** Write the access log (one line per request: its Host, path and status) to this file. */
  accessLog?: string;
  /**
   * Compress text/plain answers with gzip at level 9, each time (no cache): a few milliseconds
   * of one worker's CPU per request of a large text file, so one worker is the limit long
   * before the client is.
   */
  gzip?: boolean;
}

export type NginxServer = LocalServer;

function config(
  { dir, www, ports, certs }: ServerSetup,
  o: { workers: number; keepaliveRequests: number; unixSocket?: string; accessLog?: string; gzip?: boolean },
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
  ${o.accessLog ? `log_format paths '$host $request_uri $status'; access_log ${o.accessLog} paths;` : 'access_log off;'}
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
  types { text/html html; text/plain txt; image/png png; application/octet-stream bin; }${o.gzip ? '\n  gzip on; gzip_comp_level 9; gzip_min_length 0; gzip_types text/plain;' : ''}
  default_type application/octet-stream;
  sendfile on;
  tcp_nopush on;
  keepalive_requests ${o.keepaliveRequests};
  keepalive_timeout 65s;
  server {
    listen 127.0.0.1:${ports.http};${o.unixSocket ? `\n    listen unix:${o.unixSocket};` : ''}${tls}
    server_name localhost;
    root ${www};
    # nginx's own counters (connections accepted, requests), for tests that check ours against them.
    location = /nginx_status { stub_status; }
  }
}
`;
}

export function startNginx(opts: NginxOptions = {}): Promise<NginxServer> {
  return launchServer({
    name: 'nginx',
    https: opts.https ?? false,
    certs: opts.certs,
    files: opts.files,
    configure: (setup) => {
      const { dir } = setup;
      mkdirSync(join(dir, 'tmp'), { recursive: true });
      const conf = join(dir, 'nginx.conf');
      const o = {
        workers: opts.workers ?? 1,
        keepaliveRequests: opts.keepaliveRequests ?? 1_000_000,
        ...(opts.unixSocket ? { unixSocket: opts.unixSocket } : {}),
        ...(opts.accessLog ? { accessLog: opts.accessLog } : {}),
        ...(opts.gzip ? { gzip: true } : {}),
      };
      writeFileSync(conf, config(setup, o));
      // -e: the startup error log too, so nginx never touches /var/log/nginx.
      const errorLog = join(dir, 'error.log');
      return { bin: NGINX_BIN, args: ['-p', dir, '-c', conf, '-e', errorLog], logFiles: [errorLog] };
    },
  });
}

/** nginx's stub_status counters: connections accepted so far, and requests served (this one included). */
export interface NginxStatus {
  accepts: number;
  requests: number;
}

/** Reads the counters over a connection of its own (it counts in both). */
export function nginxStatus(server: NginxServer): Promise<NginxStatus> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${server.httpUrl}nginx_status`,
      { agent: false, headers: { connection: 'close' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          // "server accepts handled requests\n 12 12 40"
          const m = /accepts handled requests\s+(\d+)\s+\d+\s+(\d+)/.exec(text);
          if (m) resolve({ accepts: Number(m[1]), requests: Number(m[2]) });
          else reject(new Error(`nginx_status said: ${text}`));
        });
      },
    );
    req.on('error', reject);
  });
}
