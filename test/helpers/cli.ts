/** Runs the real `trebuchet` bin as a child process, as a user would. */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

export const CLI_BIN = resolve(import.meta.dirname, '../../electron/cli/bin.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliProcess {
  child: ChildProcess;
  /** Resolves when stderr contains the pattern (or rejects when the process ends first). */
  waitForStderr(pattern: RegExp): Promise<void>;
  done: Promise<CliRun>;
  /** Kills the process if it still runs and waits for its end (for endAfterEach). */
  close(): Promise<CliRun>;
}

export interface CliOptions {
  cwd?: string;
  timeoutMs?: number;
  /** Runs the CLI under this open-files limit (bash's `ulimit -n`), as a user's shell might. */
  openFiles?: number;
  /** A command the CLI runs under (its argv first): test/helpers/full-disk.ts's, say. */
  wrapper?: readonly string[];
  /** Variables set for it beside this process's (KUBECONFIG, say). */
  env?: Record<string, string>;
}

/** Starts `trebuchet ...args`; killed after timeoutMs so a hung run cannot hang the suite. */
export function startCli(args: readonly string[], opts: CliOptions = {}): CliProcess {
  const command = [...(opts.wrapper ?? []), process.execPath, CLI_BIN, ...args];
  const [file, argv] =
    opts.openFiles === undefined
      ? [command[0]!, command.slice(1)]
      : ['bash', ['-c', `ulimit -n ${opts.openFiles} && exec "$@"`, 'bash', ...command]];
  const child = spawn(file, argv, {
    cwd: opts.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(opts.env ? { env: { ...process.env, ...opts.env } } : {}),
  });
  let stdout = '';
  let stderr = '';
  const waiters: { pattern: RegExp; resolve: () => void; reject: (e: Error) => void }[] = [];
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    for (const w of [...waiters]) {
      if (w.pattern.test(stderr)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
  const done = new Promise<CliRun>((res) => {
    child.once('close', (code) => {
      clearTimeout(timer);
      for (const w of waiters)
        w.reject(new Error(`trebuchet exited (${code}) before stderr matched ${w.pattern}:\n${stderr}`));
      res({ code, stdout, stderr });
    });
  });
  return {
    child,
    done,
    close: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      return done;
    },
    waitForStderr: (pattern) =>
      pattern.test(stderr)
        ? Promise.resolve()
        : new Promise((resolve, reject) => waiters.push({ pattern, resolve, reject })),
  };
}

export function runCli(args: readonly string[], opts: CliOptions = {}): Promise<CliRun> {
  return startCli(args, opts).done;
}

/** The value on an ab report line ("Complete requests:      1000" -> "1000"). */
export function abField(stdout: string, label: string): string {
  const m = new RegExp(`^${label}:\\s+(.*)$`, 'm').exec(stdout);
  if (!m) throw new Error(`no "${label}" line in:\n${stdout}`);
  return m[1]!;
}
