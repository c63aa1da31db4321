/** `trebuchet run`: parse, run through the engine's RunManager, print, write files, exit code. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { RunManager } from '../engine/manager.ts';
import type { RunEvent } from '../../shared/api.ts';
import type { RunResult } from '../../shared/result.ts';
import { parseRunArgs } from './args.ts';
import { RUN_HELP } from './help.ts';
import { Progress } from './progress.ts';
import { EXIT, exitCodeFor, renderReport, writeOutputFiles } from './report.ts';
import { CliInputError } from './values.ts';

export interface CliContext {
  argv: readonly string[];
  cwd: string;
  appVersion: string;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** Subscribes to Ctrl-C; returns the unsubscribe function. */
  onInterrupt(handler: () => void): () => void;
}

const isFile = (p: string): boolean => existsSync(p) && statSync(p).isFile();
const isDirectory = (p: string): boolean => existsSync(p) && statSync(p).isDirectory();

export async function runCommand(ctx: CliContext): Promise<number> {
  let parsed;
  try {
    parsed = parseRunArgs(ctx.argv, {
      cwd: ctx.cwd,
      isFile,
      isDirectory,
      readFile: (p) => readFileSync(p, 'utf8'),
    });
  } catch (e) {
    if (!(e instanceof CliInputError)) throw e;
    ctx.stderr.write(`trebuchet run: ${e.message}\nRun "trebuchet run --help" for the flags.\n`);
    return EXIT.badInput;
  }
  if (parsed.help) {
    ctx.stdout.write(RUN_HELP);
    return EXIT.ok;
  }
  const { scenario, output } = parsed;

  const manager = new RunManager({ appVersion: ctx.appVersion });
  const progress = new Progress(ctx.stderr, scenario);
  let hostError = false;
  const onEvent = (event: RunEvent): void => {
    switch (event.type) {
      case 'sample':
        if (!output.quiet) progress.sample(event.targetIndex, event.sample);
        return;
      case 'target-done':
        progress.finish();
        if (event.result.status === 'failed' && event.result.error) {
          ctx.stderr.write(`trebuchet run: ${event.result.target.url}: ${event.result.error.message}\n`);
        }
        return;
      case 'error':
        hostError = true;
        progress.finish();
        ctx.stderr.write(`trebuchet run: ${event.message}\n`);
        return;
      case 'started':
      case 'target-started':
      case 'done':
        return;
    }
  };
  const unsubscribe = manager.subscribe(onEvent);

  let interrupted = false;
  let results: RunResult[];
  let runId: string | null = null;
  const stopInterrupt = ctx.onInterrupt(() => {
    if (interrupted || runId === null) return;
    interrupted = true;
    progress.finish();
    ctx.stderr.write('trebuchet run: stopping (partial results follow)...\n');
    void manager.stop(runId);
  });
  try {
    runId = manager.start(scenario);
    results = await manager.whenDone(runId);
  } finally {
    stopInterrupt();
    unsubscribe();
    progress.finish();
    await manager.stopAll();
  }

  if (results.length > 0) ctx.stdout.write(renderReport(results, output.format));
  for (const path of writeOutputFiles(results, output)) ctx.stderr.write(`wrote ${path}\n`);
  return exitCodeFor(results, { interrupted, hostError });
}
