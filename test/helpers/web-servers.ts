/**
 * The comparison suite's other servers, as Debian packages them: Apache (event MPM unless
 * asked otherwise), H2O 2.2, lighttpd and Caddy, each on free 127.0.0.1 ports with http and
 * https (HTTP/2 by ALPN where the server offers it), serving the seed articles' docroot
 * (server-process.ts) with the test CA's certificate. Started in the foreground with their
 * own config, logs and runtime files in a temp dir; stop() ends the server and what it forked.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { TestCerts } from './certs.ts';
import { startNginx } from './nginx.ts';
import { isRoot, launchServer, type LocalServer, type ServerSetup } from './server-process.ts';

/** A suite server: always http and https. */
export interface WebServer extends LocalServer {
  httpsUrl: string;
  caFile: string;
}

export interface WebServerOptions {
  /** The certificates to serve; one set for every server lets a single `--cacert` verify them all. */
  certs?: TestCerts;
  /** Extra docroot files (name -> content). */
  files?: Record<string, string | Buffer>;
}

/** Apache's multi-processing modules: event (seed 000's), worker and prefork (seed 004's). */
export type ApacheMpm = 'event' | 'worker' | 'prefork';

export const APACHE_BIN = '/usr/sbin/apache2';
export const H2O_BIN = '/usr/bin/h2o';
export const LIGHTTPD_BIN = '/usr/sbin/lighttpd';
export const CADDY_BIN = '/usr/bin/caddy';

/** The user Debian's packages run their servers as. */
const RUN_USER = 'www-data';

function withTls(server: LocalServer): WebServer {
  const { httpsUrl, caFile } = server;
  if (httpsUrl === undefined || caFile === undefined) throw new Error(`${server.name} started without https`);
  return { ...server, httpsUrl, caFile };
}

/** The https certificate of a setup launched with https: true. */
function tlsOf(setup: ServerSetup): { certFile: string; keyFile: string; port: number } {
  if (setup.certs === null || setup.ports.https === null) throw new Error('https was not set up');
  return {
    certFile: setup.certs.valid.certFile,
    keyFile: setup.certs.valid.keyFile,
    port: setup.ports.https,
  };
}

const APACHE_MODULES = '/usr/lib/apache2/modules';

function apacheConfig(setup: ServerSetup, mpm: ApacheMpm): string {
  const { dir, www, ports } = setup;
  const tls = tlsOf(setup);
  const run = join(dir, 'run');
  const load = (name: string) => `LoadModule ${name}_module ${APACHE_MODULES}/mod_${name}.so`;
  // Debian's defaults otherwise (no tuning, as the articles ran it); mod_http2 serves h2
  // with event and worker (it declines under prefork).
  return `ServerRoot ${dir}
PidFile ${run}/apache2.pid
DefaultRuntimeDir ${run}
Mutex file:${run} default
${load(`mpm_${mpm}`)}
${load('authz_core')}
${load('mime')}
${load('dir')}
${load('socache_shmcb')}
${load('ssl')}
${load('http2')}
${isRoot() ? `User ${RUN_USER}\nGroup ${RUN_USER}` : ''}
ServerName localhost
ErrorLog ${dir}/error.log
LogLevel warn
Listen 127.0.0.1:${ports.http}
Listen 127.0.0.1:${tls.port}
DocumentRoot ${www}
DirectoryIndex index.html
<Directory ${www}>
  Require all granted
</Directory>
TypesConfig /dev/null
AddType text/html .html
AddType image/png .png
AddType application/octet-stream .bin
SSLSessionCache shmcb:${run}/ssl_scache(512000)
<VirtualHost 127.0.0.1:${tls.port}>
  SSLEngine on
  SSLCertificateFile ${tls.certFile}
  SSLCertificateKeyFile ${tls.keyFile}
  Protocols h2 http/1.1
</VirtualHost>
`;
}

/** Debian's apache2 (`apache2 -f conf -DFOREGROUND`), ServerRoot, PidFile and mutexes in the temp dir. */
export function startApache(opts: WebServerOptions & { mpm?: ApacheMpm } = {}): Promise<WebServer> {
  const mpm = opts.mpm ?? 'event';
  return launchServer({
    name: `Apache (${mpm})`,
    https: true,
    certs: opts.certs,
    files: opts.files,
    configure: (setup) => {
      mkdirSync(join(setup.dir, 'run'), { recursive: true });
      const conf = join(setup.dir, 'apache2.conf');
      writeFileSync(conf, apacheConfig(setup, mpm));
      return {
        bin: APACHE_BIN,
        args: ['-f', conf, '-DFOREGROUND'],
        env: { LANG: 'C' },
        logFiles: [join(setup.dir, 'error.log')],
      };
    },
  }).then(withTls);
}

function h2oConfig(setup: ServerSetup): string {
  const { dir, www, ports } = setup;
  const tls = tlsOf(setup);
  // OCSP stapling off: the test CA names no responder, and h2o would fork a fetcher for it.
  return `error-log: ${dir}/error.log
listen:
  host: 127.0.0.1
  port: ${ports.http}
listen:
  host: 127.0.0.1
  port: ${tls.port}
  ssl:
    certificate-file: ${tls.certFile}
    key-file: ${tls.keyFile}
    ocsp-update-interval: 0
hosts:
  default:
    paths:
      /:
        file.dir: ${www}
`;
}

/** Debian's H2O 2.2 (`h2o -c conf`); started as root it serves as nobody. */
export function startH2o(opts: WebServerOptions = {}): Promise<WebServer> {
  return launchServer({
    name: 'H2O',
    https: true,
    certs: opts.certs,
    files: opts.files,
    configure: (setup) => {
      const conf = join(setup.dir, 'h2o.conf');
      writeFileSync(conf, h2oConfig(setup));
      return { bin: H2O_BIN, args: ['-c', conf], logFiles: [join(setup.dir, 'error.log')] };
    },
  }).then(withTls);
}

function lighttpdConfig(setup: ServerSetup): string {
  const { www, ports } = setup;
  const tls = tlsOf(setup);
  // No server.errorlog: lighttpd opens it after dropping to www-data, which cannot write the
  // temp dir; with -D it logs to stderr, which launchServer keeps for a failed start.
  return `server.modules = ("mod_openssl")
server.document-root = "${www}"
server.bind = "127.0.0.1"
server.port = ${ports.http}
${isRoot() ? `server.username = "${RUN_USER}"\nserver.groupname = "${RUN_USER}"` : ''}
index-file.names = ("index.html")
mimetype.assign = (".html" => "text/html", ".png" => "image/png", ".bin" => "application/octet-stream")
$SERVER["socket"] == "127.0.0.1:${tls.port}" {
  ssl.engine = "enable"
  ssl.pemfile = "${tls.certFile}"
  ssl.privkey = "${tls.keyFile}"
}
`;
}

/** Debian's lighttpd (`lighttpd -D -f conf`), TLS through lighttpd-mod-openssl; HTTP/2 is on by default. */
export function startLighttpd(opts: WebServerOptions = {}): Promise<WebServer> {
  return launchServer({
    name: 'lighttpd',
    https: true,
    certs: opts.certs,
    files: opts.files,
    configure: (setup) => {
      const conf = join(setup.dir, 'lighttpd.conf');
      writeFileSync(conf, lighttpdConfig(setup));
      return { bin: LIGHTTPD_BIN, args: ['-D', '-f', conf] };
    },
  }).then(withTls);
}

function caddyfile(setup: ServerSetup): string {
  const { www, ports } = setup;
  const tls = tlsOf(setup);
  // admin off: no admin endpoint on :2019; auto_https off: no ACME, no redirects, no internal CA;
  // h1 and h2 only (no HTTP/3 over UDP); a short grace period so stop() is quick.
  return `{
	admin off
	auto_https off
	grace_period 1s
	servers {
		protocols h1 h2
	}
}
http://127.0.0.1:${ports.http} {
	bind 127.0.0.1
	root * ${www}
	file_server
}
https://127.0.0.1:${tls.port} {
	bind 127.0.0.1
	tls ${tls.certFile} ${tls.keyFile}
	root * ${www}
	file_server
}
`;
}

/** Debian's Caddy (`caddy run --adapter caddyfile`), its data and autosaved config in the temp dir. */
export function startCaddy(opts: WebServerOptions = {}): Promise<WebServer> {
  return launchServer({
    name: 'Caddy',
    https: true,
    certs: opts.certs,
    files: opts.files,
    configure: (setup) => {
      const { dir } = setup;
      const conf = join(dir, 'Caddyfile');
      writeFileSync(conf, caddyfile(setup));
      const home = join(dir, 'home');
      mkdirSync(home, { recursive: true });
      return {
        bin: CADDY_BIN,
        args: ['run', '--adapter', 'caddyfile', '--config', conf],
        env: { HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config') },
      };
    },
  }).then(withTls);
}

/** Debian's nginx with https, as a suite server: as many workers as cores (Debian's `worker_processes auto`). */
export function startNginxTls(opts: WebServerOptions = {}): Promise<WebServer> {
  return startNginx({
    https: true,
    workers: availableParallelism(),
    certs: opts.certs,
    files: opts.files,
  }).then(withTls);
}

/** The suite's servers by key: the name the seed articles give each, how to start it, the Server header it sends. */
export const WEB_SERVERS = {
  apache: { name: 'Apache', start: startApache, serverHeader: /^Apache\/2\.4\.\d+ \(Debian\)/ },
  nginx: { name: 'nginx', start: startNginxTls, serverHeader: /^nginx\/1\.\d+\.\d+$/ },
  h2o: { name: 'H2O', start: startH2o, serverHeader: /^h2o\/2\.2\.\d+$/ },
  lighttpd: { name: 'lighttpd', start: startLighttpd, serverHeader: /^lighttpd\/1\.4\.\d+$/ },
  caddy: { name: 'Caddy', start: startCaddy, serverHeader: /^Caddy$/ },
} as const;

/**
 * Starts several servers at once. Each one that started is handed to `track` (endAfterAll's
 * function, say) before any failure is thrown, so a failed start leaves no server behind.
 */
export async function startServers<K extends string>(
  starts: Record<K, () => Promise<WebServer>>,
  track: (server: WebServer) => WebServer,
): Promise<Record<K, WebServer>> {
  const keys = Object.keys(starts) as K[];
  const settled = await Promise.allSettled(keys.map((k) => starts[k]()));
  const servers = {} as Record<K, WebServer>;
  settled.forEach((s, i) => {
    if (s.status === 'fulfilled') servers[keys[i]!] = track(s.value);
  });
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  return servers;
}

/** The seed articles' servers: Apache (event MPM, prefork, worker), nginx, H2O and lighttpd. */
export type SeedServers = Record<
  'apache' | 'apachePrefork' | 'apacheWorker' | 'nginx' | 'h2o' | 'lighttpd',
  WebServer
>;

/** Starts the seed articles' servers at once, with one CA for all (see startServers for `track`). */
export function startSeedServers(
  certs: TestCerts,
  track: (server: WebServer) => WebServer,
): Promise<SeedServers> {
  return startServers(
    {
      apache: () => startApache({ certs }),
      apachePrefork: () => startApache({ certs, mpm: 'prefork' }),
      apacheWorker: () => startApache({ certs, mpm: 'worker' }),
      nginx: () => startNginxTls({ certs }),
      h2o: () => startH2o({ certs }),
      lighttpd: () => startLighttpd({ certs }),
    },
    track,
  );
}
