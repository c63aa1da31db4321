/**
 * `trebuchet history list|show|export|rm`: a data folder's run history from the command line,
 * through the same store the hosts use (electron/stores/history-store.ts) and the same
 * reports and export bundles as `trebuchet report`. Opening the folder first saves the jobs a
 * host left unfinished (LazyStores: their journals become "interrupted" entries).
 */
import { parseArgs } from 'node:util';
import { alignColumns } from '../../../shared/format/table.ts';
import { formatCount } from '../../../shared/figures/units.ts';
import { recordStatusText } from '../../../shared/model/interruption.ts';
import { withoutSecrets } from '../../../shared/model/secret-headers.ts';
import type { HistorySummary, HistoryRecord } from '../../../shared/records/history.ts';
import { savedOfRecord } from '../../../shared/records/result-file.ts';
import { HistoryNotFoundError } from '../../stores/history-store.ts';
import { EXIT } from '../exit-codes.ts';
import { nodeFileIo } from '../files.ts';
import { LazyStores } from '../jobs.ts';
import { filesFromFlags, parseReportFormat, type OutputOptions } from '../output-flags.ts';
import {
  renderCapacityReport,
  renderComparisonReport,
  renderReport,
  writeCapacityFiles,
  writeComparisonFiles,
  writeOutputFiles,
  type WrittenFiles,
} from '../report.ts';
import { CliInputError, parseDataDir } from '../values.ts';
import { HISTORY_HELP } from './help.ts';

export interface HistoryContext {
  argv: readonly string[];
  cwd: string;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

type Action = 'list' | 'show' | 'export' | 'rm';
const ACTIONS: readonly Action[] = ['list', 'show', 'export', 'rm'];

interface HistoryOptions {
  action: Action;
  ids: string[];
  json: boolean;
  dataDir: string | undefined;
  output: Omit<OutputOptions, 'quiet' | 'jsonStream' | 'failUnlessClean'>;
}

/** Each action's flags: `list --json` is a switch, `export --json F` a file. */
const FLAGS = {
  list: { json: { type: 'boolean' } },
  show: { format: { type: 'string' }, 'keep-secrets': { type: 'boolean' } },
  export: {
    json: { type: 'string' },
    csv: { type: 'string' },
    html: { type: 'string' },
    export: { type: 'string' },
    'keep-secrets': { type: 'boolean' },
  },
  rm: {},
} as const;

function parseHistoryArgs(argv: readonly string[], cwd: string): HistoryOptions | null {
  const first = argv[0];
  const named = first !== undefined && !first.startsWith('-');
  const action = named ? first : 'list';
  if (!ACTIONS.includes(action as Action))
    throw new CliInputError('<action>', `"${action}" is not list, show, export or rm`);
  const act = action as Action;
  let parsed;
  try {
    parsed = parseArgs({
      args: argv.slice(named ? 1 : 0),
      options: {
        ...FLAGS[act],
        'data-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    throw new CliInputError(act, (e as Error).message);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help === true) return null;
  const ids = parsed.positionals;
  if (act === 'list' && ids.length > 0) throw new CliInputError('list', `unexpected argument "${ids[0]}"`);
  if ((act === 'show' || act === 'export') && ids.length !== 1)
    throw new CliInputError(act, 'name one entry by its id (trebuchet history list shows them)');
  if (act === 'rm' && ids.length === 0) throw new CliInputError('rm', 'name the entries to delete by id');
  const text = (name: string): string | undefined =>
    typeof values[name] === 'string' ? values[name] : undefined;
  return {
    action: act,
    ids,
    json: act === 'list' && values.json === true,
    dataDir: parseDataDir(text('data-dir'), cwd),
    output: {
      format: parseReportFormat(text('format')),
      ...filesFromFlags(
        { json: text('json'), csv: text('csv'), html: text('html'), export: text('export') },
        nodeFileIo(cwd),
      ),
      keepSecrets: values['keep-secrets'] === true,
    },
  };
}

/** One row per entry for `list --json`. */
function listRow(s: HistorySummary) {
  return {
    id: s.id,
    kind: s.kind,
    name: s.name,
    status: s.status,
    statusText: recordStatusText(s),
    startedAt: s.startedAt,
    savedAt: s.createdAt,
    requests: s.requests,
    results: s.results,
  };
}

/** The list as a table, newest first; an interrupted entry says when, under its row. */
export function formatHistoryList(runs: readonly HistorySummary[]): string {
  const [header = '', ...rows] = alignColumns([
    ['ID', 'KIND', 'STATUS', 'STARTED', 'REQUESTS', 'NAME'],
    ...runs.map((s) => [s.id, s.kind, s.status, s.startedAt ?? '–', formatCount(s.requests), s.name]),
  ]);
  const indent = ' '.repeat(header.length - 'NAME'.length);
  const lines = runs.flatMap((s, i) => [
    rows[i]!,
    ...(s.status === 'interrupted' ? [`${indent}${recordStatusText(s)}`] : []),
  ]);
  return [header, ...lines].join('\n') + '\n';
}

/** The line above an entry's report: what it is, how it ended, when it was saved. */
function headline(record: HistoryRecord): string {
  return `${record.name} · ${record.kind} · ${recordStatusText(record)} · saved ${record.createdAt} · ${record.id}\n\n`;
}

function report(record: HistoryRecord, output: HistoryOptions['output']): string {
  const saved = savedOfRecord(record);
  switch (saved.kind) {
    case 'run':
      return renderReport(withoutSecrets(saved.results, output.keepSecrets), output.format ?? 'text');
    case 'comparison':
      return renderComparisonReport(withoutSecrets(saved.comparison, output.keepSecrets), output.format);
    case 'capacity':
      return renderCapacityReport(withoutSecrets(saved.capacity, output.keepSecrets), output.format);
  }
}

function writeRecord(record: HistoryRecord, output: HistoryOptions['output']): Promise<WrittenFiles> {
  const saved = savedOfRecord(record);
  switch (saved.kind) {
    case 'run':
      return writeOutputFiles(withoutSecrets(saved.results, output.keepSecrets), output);
    case 'comparison':
      return writeComparisonFiles(withoutSecrets(saved.comparison, output.keepSecrets), output);
    case 'capacity':
      return writeCapacityFiles(withoutSecrets(saved.capacity, output.keepSecrets), output);
  }
}

export async function historyCommand(ctx: HistoryContext): Promise<number> {
  let opts: HistoryOptions | null;
  try {
    opts = parseHistoryArgs(ctx.argv, ctx.cwd);
  } catch (e) {
    if (!(e instanceof CliInputError)) throw e;
    ctx.stderr.write(`trebuchet history: ${e.message}\nRun "trebuchet history --help" for the flags.\n`);
    return EXIT.badInput;
  }
  if (opts === null) {
    ctx.stdout.write(HISTORY_HELP);
    return EXIT.ok;
  }
  const { history } = await new LazyStores(opts.dataDir, (m) =>
    ctx.stderr.write(`trebuchet history: ${m}\n`),
  ).get();
  try {
    switch (opts.action) {
      case 'list': {
        const runs = await history.list();
        ctx.stdout.write(
          opts.json ? `${JSON.stringify(runs.map(listRow), null, 2)}\n` : formatHistoryList(runs),
        );
        if (!opts.json) ctx.stdout.write(`\nKept in ${history.dir}\n`);
        return EXIT.ok;
      }
      case 'show': {
        const record = await history.get(opts.ids[0]!);
        ctx.stdout.write(headline(record) + report(record, opts.output));
        return EXIT.ok;
      }
      case 'export': {
        const files = await writeRecord(await history.get(opts.ids[0]!), opts.output);
        for (const path of files.written) ctx.stderr.write(`wrote ${path}\n`);
        for (const { path, message } of files.failed)
          ctx.stderr.write(`trebuchet history: could not write ${path}: ${message}\n`);
        if (files.written.length + files.failed.length === 0)
          throw new CliInputError('export', 'say what to write: --json F, --csv F, --html F or --export DIR');
        return files.failed.length > 0 ? EXIT.failed : EXIT.ok;
      }
      case 'rm': {
        for (const id of opts.ids) {
          if (!(await history.delete(id))) throw new HistoryNotFoundError(id);
          ctx.stderr.write(`deleted ${id}\n`);
        }
        return EXIT.ok;
      }
    }
  } catch (e) {
    if (!(e instanceof CliInputError || e instanceof HistoryNotFoundError)) throw e;
    ctx.stderr.write(`trebuchet history: ${e.message}\n`);
    return EXIT.badInput;
  }
}
