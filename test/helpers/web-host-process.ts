/**
 * A real web host in a process of its own, for tests that need two hosts on one data
 * directory at the same time (one process would run their stores' work one after another).
 * As a script: `node web-host-process.ts <staticDir> <dataDir>` prints {"port","token"} on its
 * first stdout line and serves until stdin closes.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { WebSocketApi } from '../../renderer/api/web-socket-client.ts';
import { connectToHost } from './web-host-client.ts';

export interface HostProcess {
  port: number;
  token: string;
  /** A client of that host, as the page reaches it. */
  connect(): Promise<WebSocketApi>;
  close(): Promise<void>;
}

export async function startHostProcess(staticDir: string, dataDir: string): Promise<HostProcess> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), staticDir, dataDir], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const first = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the web host process ended (${code}) before it served`)));
  });
  const { port, token } = JSON.parse(first) as { port: number; token: string };
  const clients: WebSocketApi[] = [];
  return {
    port,
    token,
    async connect() {
      const api = await connectToHost(port, token);
      clients.push(api);
      return api;
    },
    async close() {
      for (const c of clients.splice(0)) c.close();
      child.stdin.end();
      await ended;
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [staticDir, dataDir] = process.argv.slice(2);
  const { startWebHost } = await import('../../electron/host/server.ts');
  const host = await startWebHost({ staticDir: staticDir!, dataDir, appVersion: '0.0.0-test' });
  process.stdout.write(`${JSON.stringify({ port: host.port, token: host.token })}\n`);
  process.stdin.resume();
  process.stdin.once('end', () => {
    void host.close().then(() => process.exit(0));
  });
}
