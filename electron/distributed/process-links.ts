/**
 * `--on local`: each shard a child process of this machine (`trebuchet run --scenario plan.json
 * --shard i/N --start-on stdin`), the plan in a temporary folder. The coordinator's messages go
 * down its stdin and the shard's come up its stdout, one line each (message-lines.ts); its
 * stderr is kept for its last words. A child that exits or is killed before its report is a
 * lost shard, its reason the signal, its exit code and the error it printed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { LinkListener, ShardBackend, ShardLink } from '../engine/shards/links.ts';
import { messageLine, type ShardData, type ToShard } from '../engine/shards/messages.ts';
import { MessageLines } from './message-lines.ts';

/**
 * The repository's `trebuchet` bin. This module runs from its source (electron/distributed/)
 * or from the CLI's bundle (dist/cli-<key>/): both two folders below the root.
 */
const CLI_BIN = resolve(import.meta.dirname, '../../electron/cli/bin.js');

/** An uncaught error's own line ("Error: Cannot find module ..."), above its stack and Node's version line. */
const ERROR_LINE = /^[A-Za-z]*Error( \[[A-Z_]+\])?: /;

/**
 * What a `start` takes to reach a ready shard's process and, from it, its engine threads: a
 * pipe's write and read on a machine that may be busy with the load's other processes.
 */
const PROCESS_START_MARGIN_MS = 100;
/**
 * A shard's process sends a window every tick once its load began; this long without one
 * (stopped, SIGSTOPped, its machine starved) gives it up. It leaves a loaded machine's stalls
 * (a second or two here, with the load average at 12 on 2 cores) far inside.
 */
export const PROCESS_SILENCE_MS = 10_000;

export interface ProcessLinksOptions {
  planText: string;
  count: number;
  readyTimeoutMs: number;
  /** How long a shard may say nothing once the load began (PROCESS_SILENCE_MS by default). */
  silenceMs?: number;
  /** The program and arguments before a shard's own: the `trebuchet` bin by default (tests: a scripted engine). */
  command?: readonly string[];
}

export class ProcessLinks implements ShardBackend {
  readonly kind = 'machine';
  readonly startMarginMs = PROCESS_START_MARGIN_MS;
  readonly silenceMs: number;
  readonly readyTimeoutMs: number;
  readonly #dir: string;
  readonly #count: number;
  readonly #command: readonly string[];
  readonly #children: { child: ChildProcess; exited: Promise<void> }[] = [];

  private constructor(dir: string, options: ProcessLinksOptions) {
    this.#dir = dir;
    this.#count = options.count;
    this.readyTimeoutMs = options.readyTimeoutMs;
    this.silenceMs = options.silenceMs ?? PROCESS_SILENCE_MS;
    this.#command = options.command ?? [process.execPath, CLI_BIN];
  }

  /** The plan written where the shards read it. */
  static async create(options: ProcessLinksOptions): Promise<ProcessLinks> {
    const dir = await mkdtemp(join(tmpdir(), 'trebuchet-plan-'));
    await writeFile(join(dir, 'plan.json'), options.planText);
    return new ProcessLinks(dir, options);
  }

  open(data: ShardData, listener: LinkListener): ShardLink {
    const [program, ...before] = this.#command;
    const shard = `${data.shard.index + 1}/${this.#count}`;
    const args = [
      'run',
      '--scenario',
      join(this.#dir, 'plan.json'),
      '--shard',
      shard,
      '--start-on',
      'stdin',
      '-q',
    ];
    const child = spawn(program!, [...before, ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
      // A group of its own: a terminal's Ctrl-C reaches the coordinator only, which stops every
      // shard itself (a shard interrupted on its own would end without its report).
      detached: true,
      // Electron's binary runs as Node for the child (the app's host starting shards).
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    });
    let gone = false;
    const lose = (reason: string): void => {
      if (gone) return;
      gone = true;
      listener.lost(reason);
    };
    const lines = new MessageLines({
      // Parsed and checked by the coordinator, on its CPU account.
      line: (text) => listener.message(text),
      broken: (reason) => {
        lose(`failed: process ${child.pid} ${reason}`);
        child.kill('SIGKILL');
      },
    });
    child.stdout.on('data', (chunk: Buffer) => lines.push(chunk));
    child.stdout.on('end', () => lines.end());
    let lastError = '';
    let thrown: string | null = null;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      const said = text.split('\n').filter((l) => l.trim() !== '');
      if (said.length > 0) lastError = said.at(-1)!.slice(0, 500);
      thrown ??= said.find((l) => ERROR_LINE.test(l))?.slice(0, 500) ?? null;
    });
    // A child gone before it read its go: its end is said by 'close'.
    child.stdin.on('error', () => undefined);
    const exited = new Promise<void>((done) => {
      child.on('error', (e) => {
        lose(`failed: could not start: ${e.message}`);
        done();
      });
      child.on('close', (code, signal) => {
        const words = thrown ?? lastError;
        if (signal !== null) lose(`failed: process ${child.pid} was killed (${signal})`);
        else if (code !== 0)
          lose(`failed: process ${child.pid} exited with code ${code}${words ? `: ${words}` : ''}`);
        else lose(`failed: process ${child.pid} ended without its report`);
        done();
      });
    });
    this.#children.push({ child, exited });
    return {
      send: (m: ToShard) => {
        if (child.stdin.writable) child.stdin.write(messageLine(m));
      },
      close: () => {
        gone = true;
        // Ended once the run has its result or gave the shard up; a killed child is reaped by dispose().
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      },
    };
  }

  /** Every child ended and reaped, the plan's folder removed; safe to call more than once. */
  async dispose(): Promise<void> {
    for (const { child } of this.#children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await Promise.all(this.#children.map((c) => c.exited));
    await rm(this.#dir, { recursive: true, force: true });
  }
}
