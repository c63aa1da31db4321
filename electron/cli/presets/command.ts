/**
 * `trebuchet presets list|show`: the built-in presets (the seed experiments) and the ones
 * saved in the data directory (the desktop app's and `trebuchet serve`'s presets/ folder).
 */
import { alignColumns } from '../../../shared/format/table.ts';
import type { PresetSummary } from '../../../shared/records/preset-summary.ts';
import { openStores } from '../../stores/index.ts';
import { nodeFileIo } from '../files.ts';
import { withoutSecrets } from '../../../shared/model/secret-headers.ts';
import { PRESETS_HELP } from '../help.ts';
import { findPreset, presetFilePath, readPresetFile } from './lookup.ts';
import { EXIT } from '../exit-codes.ts';
import { CliInputError, parseDataDir } from '../values.ts';
import { parseFlags } from '../input/flags.ts';

export interface PresetsContext {
  argv: readonly string[];
  cwd: string;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** One preset per line (id, kind, source, name), its targets on the line below, under the name. */
export function formatPresetList(presets: readonly PresetSummary[]): string {
  const [header = '', ...rows] = alignColumns([
    ['ID', 'KIND', 'SOURCE', 'NAME'],
    ...presets.map((p) => [p.id, p.kind, p.source, p.name]),
  ]);
  const indent = ' '.repeat(header.length - 'NAME'.length);
  const lines = presets.flatMap((p, i) => [
    rows[i]!,
    ...(p.targets.length > 0 ? [`${indent}targets: ${p.targets.join(', ')}`] : []),
  ]);
  return [header, ...lines].join('\n') + '\n';
}

interface PresetsOptions {
  action: 'list' | 'show';
  ref: string | null;
  json: boolean;
  /** show: print secret header values instead of clearing them. */
  keepSecrets: boolean;
  dataDir: string | undefined;
}

function parsePresetsArgs(argv: readonly string[], cwd: string): PresetsOptions | null {
  const parsed = parseFlags({
    args: [...argv],
    options: {
      json: { type: 'boolean' },
      'keep-secrets': { type: 'boolean' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
  });
  const { values, positionals } = parsed;
  if (values.help) return null;
  const [action = 'list', ref, ...extra] = positionals;
  if (action !== 'list' && action !== 'show') {
    throw new CliInputError('<action>', `"${action}" is not list or show`);
  }
  if (action === 'show' && ref === undefined)
    throw new CliInputError('show', 'name the preset: an id, a name or a file');
  const unexpected = action === 'list' ? [ref, ...extra] : extra;
  if (unexpected.some((x) => x !== undefined)) {
    throw new CliInputError(action, `unexpected argument "${unexpected.find((x) => x !== undefined)}"`);
  }
  return {
    action,
    ref: ref ?? null,
    json: values.json === true,
    keepSecrets: values['keep-secrets'] === true,
    dataDir: parseDataDir(values['data-dir'], cwd),
  };
}

export async function presetsCommand(ctx: PresetsContext): Promise<number> {
  let opts: PresetsOptions | null;
  try {
    opts = parsePresetsArgs(ctx.argv, ctx.cwd);
    if (opts === null) {
      ctx.stdout.write(PRESETS_HELP);
      return EXIT.ok;
    }
    const io = nodeFileIo(ctx.cwd);
    const file = opts.ref === null ? null : presetFilePath(opts.ref, io);
    if (opts.action === 'show' && file !== null) {
      const preset = withoutSecrets(readPresetFile('show', file, io), opts.keepSecrets);
      ctx.stdout.write(JSON.stringify(preset, null, 2) + '\n');
      return EXIT.ok;
    }
    const stores = await openStores({ dataDir: opts.dataDir });
    // Each message says where a broken file was kept.
    for (const p of stores.problems()) ctx.stderr.write(`trebuchet presets: ${p.message}\n`);
    if (opts.action === 'show') {
      const preset = withoutSecrets(findPreset('show', opts.ref!, stores.presets), opts.keepSecrets);
      ctx.stdout.write(JSON.stringify(preset, null, 2) + '\n');
      return EXIT.ok;
    }
    const list = stores.presets.list();
    if (opts.json) {
      ctx.stdout.write(JSON.stringify(list, null, 2) + '\n');
    } else {
      ctx.stdout.write(formatPresetList(list));
      ctx.stdout.write(
        `\nSaved presets: ${stores.presets.path}\nRun one: trebuchet run --preset <id> --target '<target>=<url>' (see trebuchet help run)\n`,
      );
    }
    return EXIT.ok;
  } catch (e) {
    if (!(e instanceof CliInputError)) throw e;
    ctx.stderr.write(`trebuchet presets: ${e.message}\n`);
    return EXIT.badInput;
  }
}
