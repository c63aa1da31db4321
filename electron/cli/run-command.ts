/**
 * `trebuchet run`: parse (finding the preset, if any), run a scenario through the engine's
 * RunManager or a comparison through the ComparisonRunner, print, write files, save in the
 * history when asked, and pick the exit code.
 */
import { RunManager } from '../engine/manager.ts';
import { checkTarget } from '../engine/target-check.ts';
import { ComparisonRunner, type ComparisonOutcome } from '../services/comparison-runner.ts';
import { HistoryRecorder } from '../services/history-recorder.ts';
import type { Stores } from '../stores/index.ts';
import type { RunEvent } from '../../shared/api.ts';
import { expandPlan, levelLabel, levelKindOf, type ComparisonEvent } from '../../shared/comparison.ts';
import type { RunStatus } from '../../shared/history.ts';
import type { RunResult } from '../../shared/result.ts';
import { applyPreset, parseRunArgs, type PresetRequest, type RunCommand } from './args.ts';
import { nodeFileIo, type FileIo } from './files.ts';
import { RUN_HELP } from './help.ts';
import { findPreset, presetFilePath, readPresetFile } from './preset-lookup.ts';
import { Progress, cellSummaryLine } from './progress.ts';
import {
  EXIT,
  exitCodeFor,
  renderComparisonReport,
  renderReport,
  writeComparisonFiles,
  writeOutputFiles,
} from './report.ts';
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

/**
 * The stores of the data directory, loaded and opened once and only when needed (a preset by
 * name, --save): a plain run loads neither conf nor the history code.
 */
class LazyStores {
  readonly #dataDir: string | undefined;
  #stores: Promise<Stores> | null = null;
  constructor(dataDir: string | undefined) {
    this.#dataDir = dataDir;
  }
  get(): Promise<Stores> {
    this.#stores ??= import('../stores/index.ts').then(({ openStores }) =>
      openStores({ dataDir: this.#dataDir }),
    );
    return this.#stores;
  }
}

async function resolvePreset(request: PresetRequest, io: FileIo, stores: LazyStores): Promise<RunCommand> {
  const file = presetFilePath(request.ref, io);
  if (file !== null) return applyPreset(request, readPresetFile('--preset', file, io), io);
  const opened = await stores.get();
  const command = applyPreset(request, findPreset('--preset', request.ref, opened.presets), io);
  // A broken presets.json was set aside (its message says where): say so, or the user's preset seems to have vanished.
  const problems = opened.problems().map((p) => p.message);
  return { ...command, notes: [...problems, ...command.notes] };
}

export async function runCommand(ctx: CliContext): Promise<number> {
  const io = nodeFileIo(ctx.cwd);
  let command: RunCommand;
  let stores: LazyStores;
  try {
    const parsed = parseRunArgs(ctx.argv, io);
    if (parsed.help) {
      ctx.stdout.write(RUN_HELP);
      return EXIT.ok;
    }
    stores = new LazyStores(parsed.history.dataDir);
    command = parsed.kind === 'preset' ? await resolvePreset(parsed, io, stores) : parsed;
  } catch (e) {
    if (!(e instanceof CliInputError)) throw e;
    ctx.stderr.write(`trebuchet run: ${e.message}\nRun "trebuchet run --help" for the flags.\n`);
    return EXIT.badInput;
  }
  for (const note of command.notes) ctx.stderr.write(`trebuchet run: ${note}\n`);
  return command.kind === 'scenario'
    ? runScenario(ctx, command, stores)
    : runComparison(ctx, command, stores);
}

/** The RunManager or the ComparisonRunner: what a started run or comparison is awaited and stopped by. */
interface Runs<T> {
  whenDone(id: string): Promise<T>;
  stop(id: string): Promise<unknown>;
}

/**
 * Starts a run or comparison and waits for its end. The first Ctrl-C stops it (`onStop`
 * first, then a note on stderr saying what follows) and the partial outcome still comes back.
 */
async function untilDone<T>(
  ctx: CliContext,
  runs: Runs<T>,
  start: () => string,
  onStop: () => void,
  stopping: string,
): Promise<{ outcome: T; interrupted: boolean }> {
  let interrupted = false;
  let id: string | null = null;
  const stopInterrupt = ctx.onInterrupt(() => {
    if (interrupted || id === null) return;
    interrupted = true;
    onStop();
    ctx.stderr.write(`trebuchet run: stopping (${stopping})...\n`);
    void runs.stop(id);
  });
  try {
    id = start();
    const outcome = await runs.whenDone(id);
    return { outcome, interrupted };
  } finally {
    stopInterrupt();
  }
}

/** Saves the run in the history (never throws: a failed save is a message); prints where. */
async function save(
  ctx: CliContext,
  stores: LazyStores,
  draft: Parameters<HistoryRecorder['record']>[0],
): Promise<void> {
  let recorder: HistoryRecorder;
  try {
    recorder = new HistoryRecorder({ history: (await stores.get()).history, appVersion: ctx.appVersion });
  } catch (e) {
    ctx.stderr.write(`trebuchet run: could not open the history: ${(e as Error).message}\n`);
    return;
  }
  const saved = await recorder.record(draft);
  if ('historyId' in saved) ctx.stderr.write(`saved in history as ${saved.historyId}\n`);
  else ctx.stderr.write(`trebuchet run: ${saved.historyError}\n`);
}

async function runScenario(
  ctx: CliContext,
  command: Extract<RunCommand, { kind: 'scenario' }>,
  stores: LazyStores,
): Promise<number> {
  const { scenario, output } = command;
  const manager = new RunManager({ appVersion: ctx.appVersion });
  const progress = new Progress(ctx.stderr, scenario);
  let hostError = false;
  let status: RunStatus = 'failed';
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
      case 'done':
        status = event.status;
        return;
      case 'started':
      case 'target-started':
        return;
    }
  };
  const unsubscribe = manager.subscribe(onEvent);

  let run: { outcome: RunResult[]; interrupted: boolean };
  try {
    run = await untilDone(
      ctx,
      manager,
      () => manager.start(scenario),
      () => progress.finish(),
      'partial results follow',
    );
  } finally {
    unsubscribe();
    progress.finish();
    await manager.stopAll();
  }

  const { outcome: results, interrupted } = run;
  if (results.length > 0) ctx.stdout.write(renderReport(results, output.format ?? 'text'));
  for (const path of writeOutputFiles(results, output)) ctx.stderr.write(`wrote ${path}\n`);
  if (command.history.save && results.length > 0) {
    await save(ctx, stores, { kind: 'scenario', status, scenario, results });
  }
  return exitCodeFor(results, { interrupted, hostError });
}

async function runComparison(
  ctx: CliContext,
  command: Extract<RunCommand, { kind: 'comparison' }>,
  stores: LazyStores,
): Promise<number> {
  const { plan, output } = command;
  const cells = expandPlan(plan);
  const kind = levelKindOf(plan.load);
  const manager = new RunManager({ appVersion: ctx.appVersion });
  const runner = new ComparisonRunner({
    manager,
    checkTarget: (scenario, signal) => checkTarget(scenario, { appVersion: ctx.appVersion, signal }),
  });
  let progress = null as Progress | null;
  let hostError = false;
  const say = (text: string): void => {
    if (!output.quiet) ctx.stderr.write(text);
  };
  const onEvent = (event: ComparisonEvent): void => {
    switch (event.type) {
      case 'started':
        say(`${plan.name}: ${event.cellCount} run(s)\n`);
        return;
      case 'cell-started': {
        const cell = cells[event.cellIndex];
        if (!cell) return;
        const c = cell.coordinates;
        say(
          `[${event.cellIndex + 1}/${event.cellCount}] ${cell.target} · ${c.protocol} · ${levelLabel(kind, c.level)} · run ${c.repetition + 1}/${plan.repetitions}\n`,
        );
        progress = new Progress(ctx.stderr, cell.scenario);
        return;
      }
      case 'cell-sample':
        if (!output.quiet) progress?.sample(0, event.sample);
        return;
      case 'cell-done': {
        progress?.finish();
        const r = event.outcome.result;
        if (r.status === 'failed' && r.error)
          ctx.stderr.write(`trebuchet run: ${r.target.url}: ${r.error.message}\n`);
        else say(`${cellSummaryLine(r)}\n`);
        return;
      }
      case 'pause':
        say(`pausing ${event.seconds} s before the next run\n`);
        return;
      case 'preflight':
        say(`checking ${event.checks.length} URL(s) before any load\n`);
        return;
      case 'preflight-failed':
        ctx.stderr.write(
          `trebuchet run: ${event.failures.length} URL(s) failed the check; no load was sent (the report says why)\n`,
        );
        return;
      case 'error':
        hostError = true;
        progress?.finish();
        ctx.stderr.write(`trebuchet run: run ${event.cellIndex + 1}: ${event.message}\n`);
        return;
      case 'done':
        return;
    }
  };
  const unsubscribe = runner.subscribe(onEvent);

  let run: { outcome: ComparisonOutcome; interrupted: boolean };
  try {
    run = await untilDone(
      ctx,
      runner,
      () => runner.start(plan),
      () => progress?.finish(),
      'finished runs and the partial one follow',
    );
  } finally {
    unsubscribe();
    progress?.finish();
    await manager.stopAll();
  }

  const { outcome, interrupted } = run;
  const results = outcome.outcomes.map((o) => o.result);
  ctx.stdout.write(renderComparisonReport(outcome, output.format));
  for (const path of writeComparisonFiles(outcome, output)) ctx.stderr.write(`wrote ${path}\n`);
  if (command.history.save && results.length > 0) {
    await save(ctx, stores, { kind: 'comparison', status: outcome.status, plan, outcomes: outcome.outcomes });
  }
  return exitCodeFor(results, { interrupted, hostError });
}
