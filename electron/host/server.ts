import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import {
  clientIdSchema,
  clientMessageSchema,
  IMPORT_PATH,
  WEB_SOCKET_PATH,
  type PageMessage,
} from '../../shared/contract/web-protocol.ts';
import type { StartTarget } from '../jobs/target-run.ts';
import { createCommandHandlers, dispatchCommand, type CommandDeps } from './commands.ts';
import { filesFolder } from './file-rule.ts';
import { securityHeaders } from './csp.ts';
import { openStores, type Stores } from '../stores/index.ts';
import type { MetricsOut } from '../../shared/metrics/outs.ts';
import { createHostServices } from './services.ts';
import { recoverJournals } from '../jobs/journal/recover.ts';
import { ImportQueue, serveImport } from './import-route.ts';
import { sendText } from './http-replies.ts';
import { newToken, restartCommand, tokenForPort, TOKEN_PATTERN } from './reopen.ts';
import { readStaticFile } from './static-files.ts';

export interface WebHostOptions {
  /** Address to bind; default 127.0.0.1. Anything but loopback needs allowNonLoopback. */
  host?: string;
  /** Port to bind; default 0 (a free port, see the returned port). */
  port?: number;
  /** The built renderer (dist/renderer). */
  staticDir: string;
  appVersion: string;
  /**
   * Access token; by default the one kept for this port in the data folder (host-token.ts),
   * or 24 random bytes, base64url, when the port is picked at random. At least 16 of [A-Za-z0-9_-].
   */
  token?: string;
  /** Bind a non-loopback address anyway (trebuchet serve --allow-remote). */
  allowNonLoopback?: boolean;
  /**
   * Start runs on Kubernetes (trebuchet serve --allow-kubernetes), each once the page confirmed
   * its context, namespace, image and pod count. Off by default: a page holding the token would
   * otherwise create Jobs in whatever cluster this machine's kubeconfig reaches.
   */
  allowKubernetes?: boolean;
  /** How each part of a job runs; the engine's by default (tests pass a stand-in or a watcher). */
  startTarget?: StartTarget;
  /**
   * Where presets/ and history/ live (trebuchet serve --data-dir); default the user's config
   * folder for "trebuchet" (~/.config/trebuchet-nodejs on Linux). Tests use temp dirs.
   */
  dataDir?: string;
  /**
   * The one folder whose files a scenario may name (trebuchet serve --files-dir): body and CA
   * files are read inside it only (file-rule.ts). Without it the host reads none of its
   * machine's files; the browser sends the files a person picks.
   */
  filesDir?: string;
  /**
   * Keep secret header values (Authorization, Cookie, API keys) of saved runs as plain
   * text. The web host has no encryption, so by default they are cleared from history;
   * presets ask the user each time.
   */
  allowPlaintextSecretsInHistory?: boolean;
  /**
   * How long a page's jobs outlive its last socket, so a reload or a dropped connection
   * finds them again (same client id from sessionStorage). Default 30 s; then they stop
   * and keep their partial results.
   */
  reattachGraceMs?: number;
  /** How long a finished job's events stay for a page reconnecting after its end (JobRegistry's default). */
  keepFinishedMs?: number;
  /** Where live metrics go (trebuchet serve --out, --metrics-listen); the app's setting when absent. */
  metrics?: MetricsOut;
}

export interface WebHost {
  /** The URL to open, token included. */
  url: string;
  token: string;
  port: number;
  /** Where presets/ and history/ are kept. */
  dataDir: string;
  /** The real path of the folder scenarios may read files from; null when none. */
  filesDir: string | null;
  /** Stops the jobs started through this host (partial results kept and saved), closes every socket. */
  close(): Promise<void>;
}

const DEFAULT_REATTACH_GRACE_MS = 30_000;
/** A scenario with many targets and headers stays far below this. */
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** One browser tab (its client id survives reloads) and its open sockets. */
interface Page {
  sockets: Set<WebSocket>;
  /** Pending stop of the page's jobs after its last socket closed. */
  release: NodeJS.Timeout | null;
}

/**
 * Serves the built renderer and implements the API contract over a WebSocket, so the same
 * UI runs in any browser. Guarded by a random token: the page (any HTML) and the
 * WebSocket upgrade need it; static assets do not (a <script src> cannot carry it, and
 * they hold no secret). The upgrade also checks Origin, and every request its Host header
 * (loopback names only, against DNS rebinding) unless allowNonLoopback is set.
 */
export async function startWebHost(opts: WebHostOptions): Promise<WebHost> {
  const bindHost = opts.host ?? '127.0.0.1';
  if (!isLoopbackHost(bindHost) && !opts.allowNonLoopback) {
    throw new Error(
      `refusing to listen on ${bindHost}: the web host starts load tests from this machine, so it binds ` +
        'to loopback (127.0.0.1) by default; reach it through an SSH tunnel, or force it with --allow-remote',
    );
  }
  if (opts.token !== undefined && !TOKEN_PATTERN.test(opts.token))
    throw new Error('token must be at least 16 characters of A-Z, a-z, 0-9, _ or -');
  const staticDir = path.resolve(opts.staticDir);
  if (!existsSync(path.join(staticDir, 'index.html'))) {
    throw new Error(
      `${path.join(staticDir, 'index.html')} not found: build the UI first (npm run build:renderer)`,
    );
  }
  const stores: Stores = await openStores({
    dataDir: opts.dataDir,
    allowPlaintextSecretsInHistory: opts.allowPlaintextSecretsInHistory,
  });
  // A fixed port keeps its token in the data folder: a restarted host takes its pages back.
  const token =
    opts.token ??
    (opts.port
      ? tokenForPort(stores.dataDir, opts.port, (m) => console.error(`trebuchet serve: ${m}`))
      : newToken());
  const graceMs = opts.reattachGraceMs ?? DEFAULT_REATTACH_GRACE_MS;
  const filesDir = opts.filesDir === undefined ? null : await filesFolder(opts.filesDir);
  // Jobs an earlier host left unfinished (killed, crashed) become History entries first.
  const recovered = await recoverJournals({ dataDir: stores.dataDir, history: stores.history });
  const services = createHostServices({
    stores,
    recovered,
    appVersion: opts.appVersion,
    startTarget: opts.startTarget,
    keepFinishedMs: opts.keepFinishedMs,
    ...(opts.metrics ? { metrics: opts.metrics } : {}),
  });
  // Its restart command is known once it listens (a port picked at random).
  const info: CommandDeps['info'] = {
    appVersion: opts.appVersion,
    host: 'web',
    platform: process.platform,
    filesDir,
  };
  const handlers = createCommandHandlers({
    services,
    info,
    fileRule: { kind: 'folder', dir: filesDir },
    allowKubernetes: opts.allowKubernetes === true,
  });
  const pages = new Map<string, Page>();
  const imports = new ImportQueue();
  let closing = false;
  const allowedHosts = new Set<string>();

  const tokenMatches = (candidate: string | null): boolean => {
    if (candidate === null) return false;
    const a = Buffer.from(candidate);
    const b = Buffer.from(token);
    return a.length === b.length && timingSafeEqual(a, b);
  };
  const hostAllowed = (hostHeader: string | undefined): boolean =>
    hostHeader !== undefined &&
    (opts.allowNonLoopback === true || allowedHosts.has(hostHeader.toLowerCase()));

  const server = http.createServer((req, res) => {
    serveFile(req, res).catch((error: unknown) => {
      console.error('trebuchet serve: request failed:', error);
      if (!res.headersSent) sendText(res, 500, 'internal error');
      else res.destroy();
    });
  });

  async function serveFile(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (!hostAllowed(req.headers.host)) return sendText(res, 403, 'This host name is not served here.');
    if (new URL(req.url ?? '/', 'http://host.invalid').pathname === IMPORT_PATH)
      return serveImport(req, res, {
        tokenMatches,
        queue: imports,
        history: stores.history,
        appVersion: opts.appVersion,
      });
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      return sendText(res, 405, 'Method not allowed.');
    }
    const url = new URL(req.url ?? '/', 'http://host.invalid');
    const file = await readStaticFile(staticDir, url.pathname);
    if (!file) return sendText(res, 404, 'Not found.');
    if (file.isHtml && !tokenMatches(url.searchParams.get('token'))) {
      return sendText(res, 401, 'This page needs its token: open the URL printed by `trebuchet serve`.');
    }
    res.writeHead(200, {
      ...securityHeaders(),
      'content-type': file.contentType,
      'content-length': file.body.length,
      'cache-control': file.isHtml ? 'no-store' : 'no-cache',
    });
    res.end(req.method === 'HEAD' ? undefined : file.body);
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });

  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://host.invalid');
    const refuse = (status: number, message: string) => {
      socket.end(
        `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nconnection: close\r\n` +
          `content-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(message)}\r\n\r\n${message}`,
      );
    };
    if (closing) return refuse(503, 'Shutting down.');
    if (url.pathname !== WEB_SOCKET_PATH) return refuse(404, 'Not found.');
    if (!hostAllowed(req.headers.host)) return refuse(403, 'This host name is not served here.');
    if (!tokenMatches(url.searchParams.get('token'))) return refuse(401, 'Missing or wrong token.');
    // Browsers always send Origin: only this host's own page may connect. A client without
    // one is not a browser, so no web page can be driving it, and it holds the token.
    const origin = req.headers.origin;
    if (origin !== undefined && origin.toLowerCase() !== `http://${req.headers.host?.toLowerCase()}`) {
      return refuse(403, 'Foreign origin.');
    }
    const requested = clientIdSchema.safeParse(url.searchParams.get('client'));
    const clientId = requested.success ? requested.data : randomBytes(12).toString('base64url');
    wss.handleUpgrade(req, socket, head, (ws) => connect(ws, clientId));
  });

  /**
   * Sends a message on the page's open sockets. A job event sent while it has none is not kept
   * here: the job's replay holds it, and the page asks for what it missed when it is back.
   */
  function sendToPage(page: Page, message: PageMessage): void {
    const text = JSON.stringify(message);
    for (const ws of page.sockets) if (ws.readyState === WebSocket.OPEN) ws.send(text);
  }

  function pageFor(clientId: string): Page {
    let page = pages.get(clientId);
    if (!page) {
      const created: Page = { sockets: new Set(), release: null };
      services.attach(clientId, (envelope) => sendToPage(created, { kind: 'job', envelope }));
      pages.set(clientId, created);
      page = created;
    }
    return page;
  }

  function connect(ws: WebSocket, clientId: string): void {
    const page = pageFor(clientId);
    if (page.release) clearTimeout(page.release);
    page.release = null;
    page.sockets.add(ws);
    ws.on('error', () => ws.terminate());
    ws.on('message', (data: RawData, isBinary: boolean) => receive(ws, clientId, data, isBinary));
    ws.on('close', () => {
      page.sockets.delete(ws);
      if (page.sockets.size === 0) scheduleRelease(clientId, page);
    });
  }

  /** A page that is gone for good (not reloaded within the grace) has its jobs stopped. */
  function scheduleRelease(clientId: string, page: Page): void {
    const forget = () => {
      services.detach(clientId);
      pages.delete(clientId);
    };
    if (closing || !services.busy(clientId)) return forget();
    page.release = setTimeout(() => {
      forget();
      services
        .stopOwned(clientId)
        .catch((error: unknown) => console.error('trebuchet serve: stop failed:', error));
    }, graceMs);
  }

  function receive(ws: WebSocket, clientId: string, data: RawData, isBinary: boolean): void {
    if (isBinary) return ws.close(1003, 'text frames only');
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawText(data));
    } catch {
      return ws.close(1007, 'message is not JSON');
    }
    const message = clientMessageSchema.safeParse(parsed);
    if (!message.success) return ws.close(1008, 'message is not { id, command, input }');
    const { id, command, input } = message.data;
    void dispatchCommand(handlers, command, input, clientId).then(({ reply, replied }) => {
      if (ws.readyState === WebSocket.OPEN)
        ws.send(JSON.stringify({ kind: 'reply', id, reply } satisfies PageMessage));
      // Sent: a job the command started begins now, so its first event follows the reply.
      replied();
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, bindHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = bindHost.includes(':') && !bindHost.startsWith('[') ? `[${bindHost}]` : bindHost;
  for (const name of ['127.0.0.1', 'localhost', '[::1]', urlHost])
    allowedHosts.add(`${name.toLowerCase()}:${port}`);
  info.restart = {
    command: restartCommand({ ...opts, host: bindHost, port, dataDir: stores.dataDir, filesDir }),
    samePage: opts.token === undefined && Boolean(opts.port),
  };

  return {
    url: `http://${urlHost}:${port}/?token=${token}`,
    token,
    port,
    dataDir: stores.dataDir,
    filesDir,
    async close() {
      closing = true;
      for (const page of pages.values()) if (page.release) clearTimeout(page.release);
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      await services.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(new Uint8Array(data)).toString('utf8');
}
