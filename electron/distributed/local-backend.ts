/**
 * `--on local`: the shards as child processes of the `trebuchet` CLI on this machine, the
 * plan in a temporary folder. Each child's stdout is its stream; a child killed or exiting
 * non-zero without a result is a failed shard, its reason the signal, the error it threw, or its
 * last stderr line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { shardArgs, type DistributedBackend, type ShardEnd, type ShardLaunch } from './backend.ts';

/**
 * The repository's `trebuchet` bin. This module runs from its source (electron/distributed/)
 * or from the CLI's bundle (dist/cli-<key>/): both two folders below the root.
 */
const CLI_BIN = resolve(import.meta.dirname, '../../electron/cli/bin.js');

/** An uncaught error's own line ("Error: Cannot find module ..."), above its stack and Node's version line. */
const ERROR_LINE = /^[A-Za-z]*Error( \[[A-Z_]+\])?: /;

interface Child {
  process: ChildProcess;
  ended: Promise<ShardEnd>;
}

export class LocalBackend implements DistributedBackend {
  readonly name = 'local';
  #dir: string | null = null;
  #children: Child[] = [];

  async start(launch: ShardLaunch): Promise<void> {
    this.#dir = await mkdtemp(join(tmpdir(), 'trebuchet-plan-'));
    const planPath = join(this.#dir, 'plan.json');
    await writeFile(planPath, launch.planText);
    this.#children = Array.from({ length: launch.count }, (_, i) =>
      startChild(shardArgs(planPath, String(i), launch.count, launch.startAt)),
    );
  }

  lines(index: number): AsyncIterable<string> {
    return createInterface({ input: this.#children[index]!.process.stdout!, crlfDelay: Infinity });
  }

  ended(index: number): Promise<ShardEnd> {
    return this.#children[index]!.ended;
  }

  /** Ctrl-C's signal: each shard stops its load and writes its partial result. */
  stop(): Promise<void> {
    for (const c of this.#children)
      if (c.process.exitCode === null && c.process.signalCode === null) c.process.kill('SIGINT');
    return Promise.resolve();
  }

  async cleanup(): Promise<void> {
    for (const c of this.#children)
      if (c.process.exitCode === null && c.process.signalCode === null) c.process.kill('SIGKILL');
    await Promise.all(this.#children.map((c) => c.ended));
    if (this.#dir !== null) await rm(this.#dir, { recursive: true, force: true });
    this.#dir = null;
  }
}

function startChild(args: readonly string[]): Child {
  const child = spawn(process.execPath, [CLI_BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // Electron's binary runs as Node for the child (the app's host starting shards).
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
  });
  let lastError = '';
  let thrown: string | null = null;
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    if (lines.length > 0) lastError = lines.at(-1)!;
    thrown ??= lines.find((l) => ERROR_LINE.test(l)) ?? null;
  });
  const ended = new Promise<ShardEnd>((done) => {
    child.on('error', (e) => done({ failure: `could not start: ${e.message}` }));
    child.on('close', (code, signal) => {
      if (signal !== null) done({ failure: `process ${child.pid} was killed (${signal})` });
      else if (code !== 0)
        done({
          failure: `process ${child.pid} exited with code ${code}${thrown || lastError ? `: ${thrown ?? lastError}` : ''}`,
        });
      else done({ failure: null });
    });
  });
  return { process: child, ended };
}
