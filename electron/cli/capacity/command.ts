/**
 * `trebuchet capacity URL... --p99 10`: a capacity search per target through its job runner
 * (electron/jobs/, the same as the hosts'), a line per step as it ends, then every answer and its curve; saved in the
 * history when asked, with the exit code saying whether every target held a rate.
 */
import { machineWaitText } from '../../../shared/format/capacity-text.ts';
import { judgeStep, stepFigures } from '../../../shared/capacity/search.ts';
import { stepScenario, type CapacityPlan } from '../../../shared/capacity/plan.ts';
import { capacityReports, type CapacityResult } from '../../../shared/capacity/report.ts';
import { formatStepLine } from '../../../shared/format/capacity-text.ts';
import { targetLabel } from '../../../shared/model/scenario.ts';
import { withoutSecrets } from '../../../shared/model/secret-headers.ts';
import type { RunnerEvent } from '../../jobs/runner.ts';
import type { MetricsHub } from '../../metrics/hub.ts';
import { openMetricsHub } from '../metrics/metrics-flags.ts';
import { capacityFromPreset, parseCapacityArgs, type ParsedCapacity } from './args.ts';
import { nodeFileIo, type FileIo } from '../files.ts';
import { CAPACITY_HELP } from '../help.ts';
import { LazyStores, runJob, saveInHistory, type CliContext, type JobOutcome } from '../jobs.ts';
import { findPreset, presetFilePath, readPresetFile } from '../presets/lookup.ts';
import { ProgressLine } from '../progress.ts';
import { EXIT } from '../exit-codes.ts';
import { capacityExitCode, renderCapacityReport, writeCapacityFiles } from '../report.ts';
import { CliInputError } from '../values.ts';

/** The plan a parsed command searches: as given, or its preset (a file, or the stores) with the flags. */
async function resolvePlan(
  parsed: Exclude<ParsedCapacity, { help: true }>,
  io: FileIo,
  stores: LazyStores,
): Promise<{ plan: CapacityPlan; notes: string[] }> {
  if (parsed.kind === 'plan') return parsed;
  const file = presetFilePath(parsed.ref, io);
  const preset =
    file !== null
      ? readPresetFile('--preset', file, io)
      : findPreset('--preset', parsed.ref, (await stores.get()).presets);
  return capacityFromPreset(parsed, preset, io);
}

export async function capacityCommand(ctx: CliContext): Promise<number> {
  const io = nodeFileIo(ctx.cwd);
  let parsed: Exclude<ParsedCapacity, { help: true }>;
  let stores: LazyStores;
  let plan: CapacityPlan;
  let metrics: MetricsHub | null;
  try {
    const args = parseCapacityArgs(ctx.argv, io);
    if (args.help) {
      ctx.stdout.write(CAPACITY_HELP);
      return EXIT.ok;
    }
    parsed = args;
    stores = new LazyStores(parsed.history.dataDir, (m) => ctx.stderr.write(`trebuchet capacity: ${m}\n`));
    const resolved = await resolvePlan(parsed, io, stores);
    plan = resolved.plan;
    for (const note of resolved.notes) ctx.stderr.write(`trebuchet capacity: ${note}\n`);
    metrics = await openMetricsHub(parsed.metrics, {
      appVersion: ctx.appVersion,
      say: (line) => ctx.stderr.write(`trebuchet capacity: ${line}\n`),
    });
  } catch (e) {
    if (!(e instanceof CliInputError)) throw e;
    ctx.stderr.write(`trebuchet capacity: ${e.message}\nRun "trebuchet capacity --help" for the flags.\n`);
    return EXIT.badInput;
  }
  const { output, history } = parsed;
  const labels = plan.targets.map(targetLabel);
  let progress = null as ProgressLine | null;
  let hostError = false;
  /** Which search each started step belongs to, for an error's label. */
  const searchOf = new Map<number, number>();
  const say = (text: string): void => {
    if (!output.quiet) ctx.stderr.write(text);
  };
  const onEvent = (event: RunnerEvent<'capacity'>): void => {
    switch (event.type) {
      case 'progress': {
        const p = event.progress;
        if (p.type === 'started') {
          say(`${plan.name}: ${p.searchCount} target(s), one capacity search each\n`);
          return;
        }
        if (p.type === 'machine-wait' || p.type === 'machine-calm') {
          say(`${labels[p.searchIndex] ?? ''}: ${machineWaitText(p)}\n`);
          return;
        }
        searchOf.set(p.part, p.searchIndex);
        progress = new ProgressLine(ctx.stderr, stepScenario(plan, p.searchIndex, p.rate));
        return;
      }
      case 'sample':
        if (!output.quiet && event.source === 'engine') progress?.sample(0, event.sample);
        return;
      case 'result': {
        progress?.finish();
        const { searchIndex, stepIndex, rate, result } = event.result;
        const step = {
          ...event.result,
          judgement: judgeStep(result, plan.search.goal),
          figures: stepFigures(rate, result),
        };
        say(`${formatStepLine(labels[searchIndex] ?? '', stepIndex, step)}\n`);
        return;
      }
      case 'error': {
        hostError = true;
        progress?.finish();
        const searchIndex = event.part === null ? undefined : searchOf.get(event.part);
        const label = searchIndex === undefined ? null : labels[searchIndex];
        ctx.stderr.write(`trebuchet capacity: ${label ? `${label}: ` : ''}${event.message}\n`);
        return;
      }
    }
  };
  let run: JobOutcome<'capacity'>;
  try {
    run = await runJob(
      ctx,
      'capacity',
      plan,
      { event: onEvent, interrupted: () => progress?.finish() },
      { command: 'capacity', stopping: 'the steps measured so far follow' },
      {
        journals: history.save ? await stores.journals() : null,
        read: metrics ? (job, start) => metrics.watch({ job: job.id, kind: job.kind }, start) : undefined,
      },
    );
  } finally {
    progress?.finish();
    await metrics?.close();
  }
  const { interrupted } = run;
  const outcome = { plan, status: run.status, steps: run.results } satisfies CapacityResult;
  const shown = withoutSecrets(outcome, output.keepSecrets);
  const reports = capacityReports(shown.plan, shown.steps, null);
  ctx.stdout.write(renderCapacityReport(shown, output.format));
  const files = await writeCapacityFiles(shown, output);
  for (const path of files.written) ctx.stderr.write(`wrote ${path}\n`);
  for (const { path, message } of files.failed) {
    ctx.stderr.write(`trebuchet capacity: could not write ${path}: ${message}\n`);
  }
  const saveFailed =
    history.save &&
    outcome.steps.length > 0 &&
    !(await saveInHistory(
      ctx,
      'capacity',
      stores,
      {
        kind: 'capacity',
        status: outcome.status,
        plan,
        steps: outcome.steps,
      },
      run.journal,
    ));
  return capacityExitCode(reports, {
    interrupted,
    hostError,
    filesFailed: files.failed.length > 0,
    saveFailed,
  });
}
