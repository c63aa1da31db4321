/**
 * `trebuchet run`: parse (finding the preset, if any), run a scenario or a comparison through
 * its job runner (electron/jobs/, the same as the hosts'), print, write files, save in the
 * history when asked, and pick the exit code.
 */
import type { ComparisonOutcome } from '../../jobs/comparison.ts';
import type { RunnerEvent } from '../../jobs/runner.ts';
import { withoutSecrets } from '../../../shared/model/secret-headers.ts';
import { aggregateComparison } from '../../../shared/comparison/table.ts';
import { expandPlan } from '../../../shared/comparison/cells.ts';
import { levelLabel, levelKindOf } from '../../../shared/comparison/plan.ts';
import { fixesOfResult, type PreflightFailure } from '../../../shared/model/preflight.ts';
import { fixText } from '../../../shared/model/preflight.ts';
import { applyPreset, parseRunArgs, type PresetRequest, type RunCommand } from './args.ts';
import { nodeFileIo, type FileIo } from '../files.ts';
import { RUN_HELP } from '../help.ts';
import { LazyStores, runJob, saveInHistory, type CliContext, type JobOutcome } from '../jobs.ts';
import { ProgressLine, cellSummaryLine } from '../progress.ts';
import { EXIT } from '../exit-codes.ts';
import {
  exitCodeFor,
  renderComparisonReport,
  renderReport,
  writeComparisonFiles,
  writeOutputFiles,
  type WrittenFiles,
} from '../report.ts';
import { CliInputError } from '../values.ts';
import { placementFor, type Placed, type ShardRequest } from './shard-flags.ts';
import { placedTarget, startTargetForCli, type PartReader } from '../../jobs/target-run.ts';
import type { MetricsHub } from '../../metrics/hub.ts';
import { shardJob } from '../../../shared/metrics/labels.ts';
import { openMetricsHub } from '../metrics/metrics-flags.ts';
import { resultLine, tickLine } from '../../../shared/shards/stream.ts';
import { checkSplit } from './distributed-flags.ts';

async function resolvePreset(request: PresetRequest, io: FileIo, stores: LazyStores): Promise<RunCommand> {
  // Loaded only for --preset: the preset schemas cost a plain run's start a few ms (issue 24).
  const { findPreset, presetFilePath, readPresetFile } = await import('../presets/lookup.ts');
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
  let placed: Placed | null = null;
  let metrics: MetricsHub | null = null;
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
    if (command.kind === 'run' && command.shard) placed = placementFor(command.scenario, command.shard);
    if (command.kind === 'run' && command.distributed)
      checkSplit(command.scenario, command.distributed.count);
    if (!(command.kind === 'run' && command.distributed?.dryRun)) {
      metrics = await openMetricsHub(command.metrics, {
        appVersion: ctx.appVersion,
        say: (line) => ctx.stderr.write(`trebuchet run: ${line}\n`),
      });
    }
  } catch (e) {
    if (!(e instanceof CliInputError)) throw e;
    ctx.stderr.write(`trebuchet run: ${e.message}\nRun "trebuchet run --help" for the flags.\n`);
    return EXIT.badInput;
  }
  for (const note of command.notes) ctx.stderr.write(`trebuchet run: ${note}\n`);
  try {
    const read = metrics && partReader(metrics, placed, command.kind === 'run' ? command.shard : null);
    return command.kind === 'run'
      ? await runScenario(ctx, command, stores, placed, read)
      : await runComparison(ctx, command, stores, read);
  } finally {
    await metrics?.close();
  }
}

/** How the job's parts are read into the metrics: a machine's shard carries its plan's job name and its index. */
function partReader(hub: MetricsHub, placed: Placed | null, shard: ShardRequest | null): PartReader {
  const p = placed?.placement;
  // The shards of one start share a job: its time, or the Job whose go they wait for.
  const start = p?.startAt ?? (shard?.start.kind === 'job' ? shard.start.job : 'stdin');
  return (job, begin) =>
    hub.watch(
      p
        ? { job: shardJob(p.planId, start), kind: job.kind, shard: p.shard.index }
        : { job: job.id, kind: job.kind },
      begin,
    );
}

async function runScenario(
  ctx: CliContext,
  command: Extract<RunCommand, { kind: 'run' }>,
  stores: LazyStores,
  placed: Placed | null,
  read: PartReader | null,
): Promise<number> {
  const { output, distributed, shard } = command;
  const scenario = placed?.scenario ?? command.scenario;
  // A shard its coordinator starts: its messages on stdout, its result the coordinator's.
  if (placed && shard && shard.start.kind !== 'at') {
    const { runLinkShard } = await import('./link-command.ts');
    return runLinkShard(ctx, placed, shard);
  }
  // The distributed start (its links, the merge and hdr-histogram-js) loads only for a plan:
  // a plain run's start skips it (issue 24).
  if (distributed?.dryRun && distributed.kubernetes) {
    const { dryRunManifests } = await import('./dry-run.ts');
    const { PlanFileError } = await import('../../distributed/plan-file.ts');
    try {
      ctx.stdout.write(
        await dryRunManifests({ ...distributed, kubernetes: distributed.kubernetes }, scenario),
      );
      return EXIT.ok;
    } catch (e) {
      if (!(e instanceof PlanFileError)) throw e;
      ctx.stderr.write(`trebuchet run: ${e.message}\n`);
      return EXIT.badInput;
    }
  }
  const progress = new ProgressLine(ctx.stderr, scenario);
  let hostError = false;
  const onEvent = (event: RunnerEvent<'run'>): void => {
    switch (event.type) {
      case 'sample':
        if (event.source !== 'engine') return;
        if (output.jsonStream) ctx.stdout.write(tickLine(event.sample, new Date()));
        if (!output.quiet) progress.sample(event.part, event.sample);
        return;
      case 'result':
        progress.finish();
        if (event.result.status === 'failed' && event.result.error) {
          ctx.stderr.write(`trebuchet run: ${event.result.target.url}: ${event.result.error.message}\n`);
          // A pre-flight's refusal names the flags that get past it.
          for (const fix of fixesOfResult(event.result))
            ctx.stderr.write(`trebuchet run:   fix: ${fixText(fix, 'run')}\n`);
        }
        return;
      case 'error':
        hostError = true;
        progress.finish();
        ctx.stderr.write(`trebuchet run: ${event.message}\n`);
        return;
      case 'progress':
        return;
    }
  };
  let run: JobOutcome<'run'>;
  try {
    run = await runJob(
      ctx,
      'run',
      scenario,
      { event: onEvent, interrupted: () => progress.finish() },
      { command: 'run', stopping: 'partial results follow' },
      {
        start: distributed
          ? (await import('../../jobs/sharded-target.ts')).shardedTarget(distributed)
          : placed
            ? placedTarget(placed.placement)
            : startTargetForCli,
        journals: command.history.save ? await stores.journals() : null,
        read: read ?? undefined,
        shards: distributed ?? null,
      },
    );
  } finally {
    progress.finish();
  }

  const { results, interrupted, status } = run;
  const shown = withoutSecrets(results, output.keepSecrets);
  // --json -: stdout is the stream (ticks, then the results); the report is in the files asked for.
  if (output.jsonStream) for (const r of shown) ctx.stdout.write(resultLine(r));
  else if (results.length > 0) ctx.stdout.write(renderReport(shown, output.format ?? 'text'));
  const filesFailed = reportFiles(ctx, await writeOutputFiles(shown, output));
  // Saved whatever became of the files: a full disk for --json does not cost the run.
  const saveFailed =
    command.history.save &&
    results.length > 0 &&
    !(await saveInHistory(ctx, 'run', stores, { kind: 'run', status, scenario, results }, run.journal));
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
  read: PartReader | null,
): Promise<number> {
  const { plan, output } = command;
  const cells = expandPlan(plan);
  const kind = levelKindOf(plan.load);
  let progress = null as ProgressLine | null;
  let hostError = false;
  let preflightFailures: PreflightFailure[] = [];
  const say = (text: string): void => {
    if (!output.quiet) ctx.stderr.write(text);
  };
  const onProgress = (p: Extract<RunnerEvent<'comparison'>, { type: 'progress' }>['progress']): void => {
    switch (p.type) {
      case 'started':
        say(`${plan.name}: ${p.cellCount} run(s)\n`);
        return;
      case 'part-started': {
        const cell = cells[p.part];
        if (!cell) return;
        const c = cell.coordinates;
        say(
          `[${p.part + 1}/${cells.length}] ${cell.target} · ${c.protocol} · ${levelLabel(kind, c.level)} · run ${c.repetition + 1}/${plan.repetitions}\n`,
        );
        progress = new ProgressLine(ctx.stderr, cell.scenario);
        return;
      }
      case 'pause':
        say(`pausing ${p.seconds} s before the next run\n`);
        return;
      case 'preflight':
        say(`checking ${p.checks.length} URL(s) before any load\n`);
        return;
      case 'preflight-failed':
        preflightFailures = p.failures;
        ctx.stderr.write(
          `trebuchet run: ${p.failures.length} URL(s) failed the check; no load was sent (the report says why)\n`,
        );
        return;
    }
  };
  const onEvent = (event: RunnerEvent<'comparison'>): void => {
    switch (event.type) {
      case 'progress':
        return onProgress(event.progress);
      case 'sample':
        if (!output.quiet && event.source === 'engine') progress?.sample(0, event.sample);
        return;
      case 'result': {
        progress?.finish();
        const r = event.result.result;
        if (r.status === 'failed' && r.error)
          ctx.stderr.write(`trebuchet run: ${r.target.url}: ${r.error.message}\n`);
        else say(`${cellSummaryLine(r)}\n`);
        return;
      }
      case 'error':
        hostError = true;
        progress?.finish();
        ctx.stderr.write(`trebuchet run: run ${(event.part ?? 0) + 1}: ${event.message}\n`);
        return;
    }
  };
  let run: JobOutcome<'comparison'>;
  try {
    run = await runJob(
      ctx,
      'comparison',
      plan,
      { event: onEvent, interrupted: () => progress?.finish() },
      { command: 'run', stopping: 'finished runs and the partial one follow' },
      { journals: command.history.save ? await stores.journals() : null, read: read ?? undefined },
    );
  } finally {
    progress?.finish();
  }

  const { interrupted } = run;
  const outcome: ComparisonOutcome = {
    comparisonId: run.jobId,
    plan,
    status: run.status,
    outcomes: run.results,
    table: aggregateComparison(plan, run.results),
    preflightFailures,
  };
  const results = outcome.outcomes.map((o) => o.result);
  const shown = withoutSecrets(outcome, output.keepSecrets);
  ctx.stdout.write(renderComparisonReport(shown, output.format));
  const filesFailed = reportFiles(ctx, await writeComparisonFiles(shown, output));
  const saveFailed =
    command.history.save &&
    results.length > 0 &&
    !(await saveInHistory(
      ctx,
      'run',
      stores,
      {
        kind: 'comparison',
        status: outcome.status,
        plan,
        outcomes: outcome.outcomes,
      },
      run.journal,
    ));
  return exitCodeFor(results, {
    interrupted,
    hostError,
    filesFailed,
    saveFailed,
    failUnlessClean: output.failUnlessClean,
  });
}
