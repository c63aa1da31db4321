/** The `trebuchet` command: dispatches to run / merge / capacity / report / diff / serve / presets / history / help / version. */
import '../engine/thread/zod-config.ts';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  CAPACITY_HELP,
  DIFF_HELP,
  MAIN_HELP,
  MERGE_HELP,
  PRESETS_HELP,
  REPORT_HELP,
  RUN_HELP,
  SERVE_HELP,
} from './help.ts';
import { HISTORY_HELP } from './history/help.ts';
import type { CliContext } from './jobs.ts';
import { EXIT } from './exit-codes.ts';

const REPO_ROOT = new URL('../../', import.meta.url);

function appVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('package.json', REPO_ROOT), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
}

function onSignals(signals: readonly NodeJS.Signals[], handler: () => void): () => void {
  for (const s of signals) process.on(s, handler);
  return () => {
    for (const s of signals) process.off(s, handler);
  };
}

/** Runs the command; an unexpected failure prints its message and exits 1, never a stack dump. */
export async function main(argv: readonly string[]): Promise<number> {
  try {
    return await dispatch(argv);
  } catch (e) {
    process.stderr.write(`trebuchet: ${e instanceof Error ? e.message : String(e)}\n`);
    return EXIT.failed;
  }
}

/** What a command that runs load gets: the process's streams, and Ctrl-C to stop. */
function loadContext(argv: readonly string[], appVersion: string): CliContext {
  return {
    argv,
    cwd: process.cwd(),
    appVersion,
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: () => process.stdin,
    onInterrupt: (handler) => {
      // A second Ctrl-C while stopping ends the process at once.
      let stopping = false;
      return onSignals(['SIGINT', 'SIGTERM'], () => {
        if (stopping) process.exit(EXIT.interrupted);
        stopping = true;
        handler();
      });
    },
  };
}

async function dispatch(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  const version = appVersion();
  switch (command) {
    // Each command loads only its own modules: help and version start instantly, run never loads the web host.
    case 'run': {
      const { runCommand } = await import('./run/command.ts');
      return runCommand(loadContext(rest, version));
    }
    case 'capacity': {
      const { capacityCommand } = await import('./capacity/command.ts');
      return capacityCommand(loadContext(rest, version));
    }
    case 'merge': {
      const { mergeCommand } = await import('./results/merge-command.ts');
      return mergeCommand({ argv: rest, cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr });
    }
    case 'serve': {
      const { serveCommand } = await import('./serve-command.ts');
      return serveCommand({
        argv: rest,
        cwd: process.cwd(),
        appVersion: version,
        staticDir: fileURLToPath(new URL('dist/renderer', REPO_ROOT)),
        stdout: process.stdout,
        stderr: process.stderr,
        untilShutdown: () =>
          new Promise((resolve) => {
            const off = onSignals(['SIGINT', 'SIGTERM'], () => {
              off();
              resolve();
            });
          }),
      });
    }
    case 'report': {
      const { reportCommand } = await import('./results/report-command.ts');
      return reportCommand({
        argv: rest,
        cwd: process.cwd(),
        stdout: process.stdout,
        stderr: process.stderr,
      });
    }
    case 'diff': {
      const { diffCommand } = await import('./results/diff-command.ts');
      return diffCommand({ argv: rest, cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr });
    }
    case 'history': {
      const { historyCommand } = await import('./history/command.ts');
      return historyCommand({
        argv: rest,
        cwd: process.cwd(),
        stdout: process.stdout,
        stderr: process.stderr,
      });
    }
    case 'presets': {
      const { presetsCommand } = await import('./presets/command.ts');
      return presetsCommand({
        argv: rest,
        cwd: process.cwd(),
        stdout: process.stdout,
        stderr: process.stderr,
      });
    }
    case 'version':
    case '--version':
    case '-v':
      process.stdout.write(`trebuchet ${version}\n`);
      return EXIT.ok;
    case 'help':
    case '--help':
    case '-h':
    case undefined: {
      const topic = rest[0];
      const help: Record<string, string> = {
        run: RUN_HELP,
        capacity: CAPACITY_HELP,
        merge: MERGE_HELP,
        serve: SERVE_HELP,
        presets: PRESETS_HELP,
        history: HISTORY_HELP,
        report: REPORT_HELP,
        diff: DIFF_HELP,
      };
      process.stdout.write((topic === undefined ? undefined : help[topic]) ?? MAIN_HELP);
      return command === undefined ? EXIT.badInput : EXIT.ok;
    }
    default: {
      // Loaded for a typo only: the dispatcher stays light for every other start.
      const { nearestName } = await import('../../shared/model/validation.ts');
      const near = nearestName(command, COMMANDS);
      process.stderr.write(
        near === null
          ? `trebuchet: unknown command "${command}"\n\n${MAIN_HELP}`
          : `trebuchet: unknown command "${command}"; did you mean "${near}"?\nRun "trebuchet help" for the commands.\n`,
      );
      return EXIT.badInput;
    }
  }
}

/** The commands the dispatcher knows, for the nearest one to a typo. */
const COMMANDS = ['run', 'capacity', 'merge', 'serve', 'report', 'diff', 'presets', 'help', 'version'];
