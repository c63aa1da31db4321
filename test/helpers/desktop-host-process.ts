/**
 * The desktop host's main process (electron/main/index.ts, as Electron would start it) in a
 * process of its own with a mocked `electron` (electron-process-mock.ts), so a test can kill it
 * as a crash would and start it again on the same userData folder. Its window's IPC is driven
 * over stdio: each stdin line { id, command, input } is invoked as the app's own window would
 * (its trusted sender), each reply and job event is a stdout line.
 * As a script: `node desktop-host-process.ts <userData>`.
 */
import { spawn } from 'node:child_process';
import { register } from 'node:module';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { CommandReply } from '../../shared/contract/api.ts';
import type { JobEnvelope } from '../../shared/contract/jobs.ts';
import type * as ProcessMock from './electron-process-mock.ts';

const MOCK_URL = new URL('./electron-process-mock.ts', import.meta.url).href;

type Line =
  | { kind: 'ready' }
  | { kind: 'reply'; id: number; reply: CommandReply }
  | { kind: 'job'; envelope: JobEnvelope };

export interface DesktopHost {
  /** Invokes a command as the app's window does; resolves with the reply's value, rejects with its error. */
  command(command: string, input?: unknown): Promise<unknown>;
  /** Every job event the window was sent, in order. */
  readonly events: JobEnvelope[];
  /** SIGKILL, as a crash: nothing runs after it. */
  kill(): Promise<void>;
  /** Ends it (stdin closed: the app quits as it would, stopping its jobs). */
  close(): Promise<void>;
}

export async function startDesktopHost(userData: string): Promise<DesktopHost> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), userData], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const events: JobEnvelope[] = [];
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let nextId = 1;
  const ready = new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the desktop host ended (${code}) before it was ready`)));
    createInterface({ input: child.stdout }).on('line', (text) => {
      const line = JSON.parse(text) as Line;
      if (line.kind === 'ready') return resolve();
      if (line.kind === 'job') return void events.push(line.envelope);
      const waiter = waiting.get(line.id);
      waiting.delete(line.id);
      if (line.reply.ok) waiter?.resolve(line.reply.value);
      else waiter?.reject(new Error(line.reply.error));
    });
  });
  await ready;
  return {
    events,
    command(command, input) {
      const id = nextId++;
      child.stdin.write(`${JSON.stringify({ id, command, input })}\n`);
      return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
    },
    async kill() {
      child.kill('SIGKILL');
      await ended;
    },
    async close() {
      child.stdin.end();
      await ended;
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.env.TREBUCHET_USER_DATA = process.argv[2];
  register(
    `data:text/javascript,${encodeURIComponent(
      `export async function resolve(specifier, context, next) {
        return specifier === 'electron' ? { url: ${JSON.stringify(MOCK_URL)}, shortCircuit: true } : next(specifier, context);
      }`,
    )}`,
  );
  const mock = (await import(MOCK_URL)) as typeof ProcessMock;
  const { APP_ORIGIN, APP_START_URL } = await import('../../electron/main/app-protocol.ts');
  const { commandChannel, JOB_EVENT_CHANNEL } = await import('../../electron/main/ipc-channels.ts');
  const write = (line: Line) => process.stdout.write(`${JSON.stringify(line)}\n`);
  mock.hooks.sent = (channel, args) => {
    if (channel === JOB_EVENT_CHANNEL) write({ kind: 'job', envelope: args[0] as JobEnvelope });
  };
  await import('../../electron/main/index.ts');
  // The app is ready once its window is open and its handlers registered.
  while (mock.BrowserWindow.instances.length === 0) await new Promise((r) => setTimeout(r, 10));
  const window = mock.BrowserWindow.instances[0]!;
  const sender = { id: window.webContents.id };
  const senderFrame = { parent: null, origin: APP_ORIGIN, url: APP_START_URL };
  createInterface({ input: process.stdin })
    .on('line', (text) => {
      const { id, command, input } = JSON.parse(text) as { id: number; command: string; input: unknown };
      const handler = mock.ipcMain.handlers.get(commandChannel(command as never));
      void Promise.resolve(handler?.({ sender, senderFrame }, input)).then((reply) =>
        write({
          kind: 'reply',
          id,
          reply: (reply as CommandReply | undefined) ?? { ok: false, error: 'no handler' },
        }),
      );
    })
    .on('close', () => mock.app.emit('before-quit', { preventDefault: () => undefined }));
  write({ kind: 'ready' });
}
