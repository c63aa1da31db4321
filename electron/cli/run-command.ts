/**
 * `trebuchet run`: parse (finding the preset, if any), run a scenario through the engine's
 * RunManager or a comparison through the ComparisonRunner, print, write files, save in the
 * history when asked, and pick the exit code.
 */
import { RunManager } from '../engine/manager.ts';
import { checkTarget } from '../engine/target-check.ts';
import { ComparisonRunner, type ComparisonOutcome } from '../services/comparison-runner.ts';
import type { RunEvent } from '../../shared/contract/api.ts';
import { withoutSecrets } from '../../shared/model/secret-headers.ts';
import { expandPlan, type ComparisonEvent } from '../../shared/comparison/cells.ts';
import { levelLabel, levelKindOf } from '../../shared/comparison/plan.ts';
import type { RunResult, RunStatus } from '../../shared/model/result.ts';
import { applyPreset, parseRunArgs, type PresetRequest, type RunCommand } from './args.ts';
import { nodeFileIo, type FileIo } from './files.ts';
import { RUN_HELP } from './help.ts';
import { LazyStores, saveInHistory, untilDone, type CliContext } from './jobs.ts';
import { findPreset, presetFilePath, readPresetFile } from './preset-lookup.ts';
import { ProgressLine, cellSummaryLine } from './progress.ts';
import {
  EXIT,
  exitCodeFor,
  renderComparisonReport,
  renderReport,
  writeComparisonFiles,
  writeOutputFiles,
  type WrittenFiles,
} from './report.ts';
import { CliInputError } from './values.ts';

async function resolvePreset(request: PresetRequest, io: FileIo, stores: LazyStores): Promise<RunCommand> {
  const file = presetFilePath(request.ref, io);
  if (file !== null) return applyPreset(request, readPresetFile('--preset', file, io), io);
  return applyPreset(request, findPreset('--preset', request.ref, (await stores.get()).presets), io);
}

/** Says which output files were written and which could not be; true when one failed. */
function reportFiles(ctx: CliContext, files: WrittenFiles): boolean {
  for (const path of files.written) ctx.stderr.write(`wrote ${path}\n`);
  for (const { path, message } of files.failed) {
    ctx.stderr.write(`trebuchet run: could not write ${path}: ${message}\n`);
  }
  return files.failed.length > 0;
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
    stores = new LazyStores(parsed.history.dataDir, (message) =>
      ctx.stderr.write(`trebuchet run: ${message}\n`),
    );
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

async function runScenario(
  ctx: CliContext,
  command: Extract<RunCommand, { kind: 'scenario' }>,
  stores: LazyStores,
): Promise<number> {
  const { scenario, output } = command;
  const manager = new RunManager({ appVersion: ctx.appVersion });
  const progress = new ProgressLine(ctx.stderr, scenario);
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
  let run: { outcome: RunResult[]; interrupted: boolean };
  try {
    run = await untilDone(
      ctx,
      manager.start(scenario),
      { event: onEvent, stop: (id) => manager.stop(id), interrupted: () => progress.finish() },
      { command: 'run', stopping: 'partial results follow' },
    );
  } finally {
    progress.finish();
    await manager.stopAll();
  }

  const { outcome: results, interrupted } = run;
  const shown = withoutSecrets(results, output.keepSecrets);
  if (results.length > 0) ctx.stdout.write(renderReport(shown, output.format ?? 'text'));
  const filesFailed = reportFiles(ctx, await writeOutputFiles(shown, output));
  // Saved whatever became of the files: a full disk for --json does not cost the run.
  const saveFailed =
    command.history.save &&
    results.length > 0 &&
    !(await saveInHistory(ctx, 'run', stores, { kind: 'scenario', status, scenario, results }));
  return exitCodeFor(results, {
    interrupted,
    hostError,
    filesFailed,
    saveFailed,
    failUnlessClean: output.failUnlessClean,
  });
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
  let progress = null as ProgressLine | null;
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
        progress = new ProgressLine(ctx.stderr, cell.scenario);
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
  let run: { outcome: ComparisonOutcome; interrupted: boolean };
  try {
    run = await untilDone(
      ctx,
      runner.start(plan),
      { event: onEvent, stop: (id) => runner.stop(id), interrupted: () => progress?.finish() },
      { command: 'run', stopping: 'finished runs and the partial one follow' },
    );
  } finally {
    progress?.finish();
    await manager.stopAll();
  }

  const { outcome, interrupted } = run;
  const results = outcome.outcomes.map((o) => o.result);
  const shown = withoutSecrets(outcome, output.keepSecrets);
  ctx.stdout.write(renderComparisonReport(shown, output.format));
  const filesFailed = reportFiles(ctx, await writeComparisonFiles(shown, output));
  const saveFailed =
    command.history.save &&
    results.length > 0 &&
    !(await saveInHistory(ctx, 'run', stores, {
      kind: 'comparison',
      status: outcome.status,
      plan,
      outcomes: outcome.outcomes,
    }));
  return exitCodeFor(results, {
    interrupted,
    hostError,
    filesFailed,
    saveFailed,
    failUnlessClean: output.failUnlessClean,
  });
}
