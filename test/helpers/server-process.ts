/**
 * What every real web server a test starts has in common (nginx.ts, web-servers.ts): the seed
 * articles' docroot in a temp dir, free loopback ports, a foreground process in its own
 * process group, the wait until its ports accept, and a stop() that ends the whole group and
 * removes the temp dir (and the certificates it made for itself).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { makeTestCerts, type TestCerts } from './certs.ts';
import { freePorts } from './servers.ts';

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A valid 1x1 PNG padded to exactly `size` bytes with a text chunk (seed 001's image is 8106 bytes). */
function pngOfSize(size: number): Buffer {
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]); // 1x1, 8-bit greyscale
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const fixed = [
    signature,
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.from([0, 0x80]))),
    pngChunk('IEND', Buffer.alloc(0)),
  ];
  const used = fixed.reduce((n, b) => n + b.length, 0) + 12; // + the text chunk's length, type and CRC
  const text = pngChunk('tEXt', Buffer.from(`Comment\0${'.'.repeat(size - used - 8)}`, 'latin1'));
  return Buffer.concat([fixed[0]!, fixed[1]!, fixed[2]!, text, fixed[3]!]);
}

/** The 85-byte page of seed 002 ("Welcome foo !"). */
const SEED_002_INDEX = `<html>
<head>
<title>First Page</title>
</head>
<body>
Welcome foo !
</body>
</html>
`;

/** A page of exactly `size` bytes. */
const htmlOfSize = (size: number): Buffer =>
  Buffer.from(`<html><body>${'x'.repeat(size - 27)}</body></html>\n`);

/** The docroot every server serves: the files the seed articles fetch, at their sizes. */
export const DOCROOT_FILES = {
  /** Seed 000: `echo test > test.html`, 5 bytes. */
  'test.html': Buffer.from('test\n'),
  /** Seed 002: the 85-byte index page, fetched as `/`. */
  'index.html': Buffer.from(SEED_002_INDEX),
  /** Seed 001: the 8106-byte image. */
  'test.png': pngOfSize(8106),
  /** Seed 003: the 1 KB page (the query string carries another 1 KB). */
  '1kb.html': htmlOfSize(1024),
  /** Seed 004: the 3 KB file. */
  '3kb.html': htmlOfSize(3072),
  /** An 8 KiB binary body. */
  '8k.bin': randomBytes(8192),
} as const;

/** A web server a test started on 127.0.0.1. */
export interface LocalServer {
  /** What the server is ("Apache (event)", "nginx", ...), for messages and table rows. */
  name: string;
  /** `http://127.0.0.1:PORT/` */
  httpUrl: string;
  /** `https://127.0.0.1:PORT/` (HTTP/1.1, and HTTP/2 by ALPN where the server speaks it), when https was asked for. */
  httpsUrl?: string;
  /** The CA that signed the https certificate: trust it with options.tls.caFile (`--cacert`). */
  caFile?: string;
  /** The main process id (for CPU accounting). */
  pid: number;
  /** Ends the server and every process it forked, and removes its temp dir. */
  stop(): Promise<void>;
}

export interface ServerPorts {
  http: number;
  https: number | null;
}

/** What a server's configure() is handed: where to write, which ports to use, which certificate. */
export interface ServerSetup {
  /** The temp dir (world-readable, so a server that drops to www-data or nobody can read below it). */
  dir: string;
  /** The docroot inside dir. */
  www: string;
  ports: ServerPorts;
  /** Set when https was asked for: serve certs.valid (signed by certs.ca for 127.0.0.1). */
  certs: TestCerts | null;
}

/** How to start a configured server. */
export interface ServerCommand {
  bin: string;
  args: string[];
  /** Extra environment variables. */
  env?: Record<string, string>;
  /** Files (the error log) whose text explains a failed start. */
  logFiles?: string[];
}

export interface LaunchOptions {
  /** What the server is ("Apache (event)", "nginx", ...): its LocalServer name and temp dir prefix. */
  name: string;
  https: boolean;
  /** Certificates to serve (several servers behind one `--cacert`); made, and removed at stop, when absent. */
  certs?: TestCerts;
  /** Extra docroot files (name -> content). */
  files?: Record<string, string | Buffer>;
  /** Writes the server's config for these ports and says how to start it. */
  configure(setup: ServerSetup): ServerCommand;
}

/** Resolves once something accepts on the port; rejects when `failed()` says the server died. */
async function waitForPort(
  name: string,
  port: number,
  failed: () => string | null,
  timeoutMs = 15_000,
): Promise<void> {
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
      throw new Error(`${name} did not accept on 127.0.0.1:${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Signals the child's whole process group (apache's and nginx's workers, h2o's helpers); gone already is fine. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return; // never started (spawn error)
  try {
    process.kill(-child.pid, signal);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e;
  }
}

function readLogs(files: readonly string[]): string {
  return files
    .map((f) => {
      try {
        return readFileSync(f, 'utf8');
      } catch {
        return ''; // not written
      }
    })
    .join('');
}

/** The bound port was taken between freePorts() and the server's bind: worth another try with new ports. */
const PORT_TAKEN = /address already in use|EADDRINUSE|could not bind/i;

/** Starts the process and waits until its ports accept; on failure it is killed and the error says why. */
async function startProcess(
  name: string,
  setup: ServerSetup,
  command: ServerCommand,
): Promise<{ child: ChildProcess; stop(): Promise<void> }> {
  // detached: the server leads its own process group, so stop() reaches every process it forks.
  const child = spawn(command.bin, command.args, {
    cwd: setup.dir,
    env: { ...process.env, ...command.env },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  // The tail is enough to say why a start failed; a chatty server must not grow it for ever.
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-8192)));
  let spawnError: Error | null = null;
  child.once('error', (e) => (spawnError = e));
  const failed = (): string | null => {
    if (spawnError) return `cannot start ${command.bin}: ${spawnError.message}`;
    if (child.exitCode === null && child.signalCode === null) return null;
    const why = `${stderr}${readLogs(command.logFiles ?? [])}`.trim();
    return `${name} exited (${child.exitCode ?? child.signalCode}): ${why}`;
  };
  try {
    await waitForPort(name, setup.ports.http, failed);
    if (setup.ports.https !== null) await waitForPort(name, setup.ports.https, failed);
  } catch (e) {
    if (child.pid !== undefined) {
      signalGroup(child, 'SIGKILL');
      await exited(child);
    }
    throw e;
  }
  return {
    child,
    stop: async () => {
      // SIGTERM to the main process: each server's own fast shutdown, workers included.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), 5000);
      await exited(child);
      clearTimeout(timer);
      // Whatever the main process left behind (a helper it did not wait for).
      signalGroup(child, 'SIGKILL');
    },
  };
}

/**
 * Makes the temp dir and docroot, picks free ports, lets `configure` write the config, starts
 * the server and waits until it accepts. A port taken by someone else in between is retried
 * with new ports (twice).
 */
export async function launchServer(opts: LaunchOptions): Promise<LocalServer> {
  const slug = opts.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const dir = mkdtempSync(join(tmpdir(), `trebuchet-${slug}-`));
  // Servers started as root serve files as www-data or nobody: the docroot must be world-readable.
  chmodSync(dir, 0o755);
  const www = join(dir, 'www');
  mkdirSync(www, { mode: 0o755 });
  for (const [name, content] of Object.entries({ ...DOCROOT_FILES, ...opts.files })) {
    writeFileSync(join(www, name), content, { mode: 0o644 });
  }
  const ownCerts = opts.https && !opts.certs ? makeTestCerts() : null;
  const certs = opts.https ? (opts.certs ?? ownCerts) : null;
  const cleanup = (): void => {
    ownCerts?.remove();
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };

  try {
    for (let attempt = 1; ; attempt++) {
      const [http, https] = await freePorts(opts.https ? 2 : 1);
      const ports = { http: http!, https: https ?? null };
      const setup = { dir, www, ports, certs };
      let started: Awaited<ReturnType<typeof startProcess>>;
      try {
        started = await startProcess(opts.name, setup, opts.configure(setup));
      } catch (e) {
        if (attempt < 3 && PORT_TAKEN.test((e as Error).message)) continue;
        throw e;
      }
      const { child } = started;
      // A test process that exits without stop() must not leave the server behind.
      const killOnExit = (): void => {
        signalGroup(child, 'SIGKILL');
        cleanup();
      };
      process.once('exit', killOnExit);
      return {
        name: opts.name,
        httpUrl: `http://127.0.0.1:${ports.http}/`,
        ...(ports.https !== null && certs
          ? { httpsUrl: `https://127.0.0.1:${ports.https}/`, caFile: certs.ca.certFile }
          : {}),
        pid: child.pid!,
        stop: async () => {
          process.off('exit', killOnExit);
          await started.stop();
          cleanup();
        },
      };
    }
  } catch (e) {
    cleanup();
    throw e;
  }
}

/** Running as root: servers must then be told to drop to an unprivileged user. */
export const isRoot = (): boolean => process.getuid?.() === 0;
