/**
 * `npm run check`: the type-check and the lint in one pass per tsconfig, both at once (one
 * process each). Each pass builds its TypeScript program once, reports its type errors (what
 * `tsc --noEmit` reports) and hands that same program to ESLint's typed rules, which would
 * otherwise build and check it again (`npm run typecheck` then `npm run lint` checked the code
 * three times: tsc twice, then ESLint both programs). A file in both programs (shared/) is
 * linted by the first, as `eslint .` with both projects does; the first pass lints the
 * JavaScript files too. Exits non-zero when either pass found an error.
 *
 *   node test/scripts/check.ts                      both passes, side by side
 *   node test/scripts/check.ts --project FILE       one pass (what each child runs)
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ESLint } from 'eslint';
import ts from 'typescript';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** In lint order: a file of both is linted with the first. */
const PROJECTS = ['tsconfig.json', 'tsconfig.web.json'];

const { values } = parseArgs({ options: { project: { type: 'string' } } });

if (values.project === undefined) process.exitCode = await both();
else process.exitCode = await pass(values.project);

/** Runs every pass in a child of its own and prints each one's output whole, in order. */
async function both(): Promise<number> {
  const children = PROJECTS.map((project) => {
    const child = spawn(process.execPath, [import.meta.filename, '--project', project], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0' },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    return new Promise<{ code: number; out: string }>((resolve) =>
      child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), out })),
    );
  });
  let worst = 0;
  for (const done of children) {
    const { code, out } = await done;
    process.stdout.write(out);
    worst = Math.max(worst, code);
  }
  return worst;
}

function parsedConfig(project: string): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, project), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  if (!parsed) throw new Error(`${project} could not be read`);
  return parsed;
}

/** One tsconfig: its program built once, its type errors, then ESLint over its files with it. */
async function pass(project: string): Promise<number> {
  const index = PROJECTS.indexOf(project);
  if (index < 0) throw new Error(`--project takes one of ${PROJECTS.join(', ')}`);
  const started = performance.now();
  const config = parsedConfig(project);
  const host = ts.createCompilerHost(config.options, true);
  const program = ts.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    projectReferences: config.projectReferences,
    host,
  });
  const diagnostics = [...config.errors, ...ts.getPreEmitDiagnostics(program)];
  if (diagnostics.length > 0) {
    const format =
      process.env.FORCE_COLOR === '1' ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
    process.stdout.write(
      format(diagnostics, {
        getCanonicalFileName: (f) => f,
        getCurrentDirectory: () => ROOT,
        getNewLine: () => '\n',
      }),
    );
  }
  const checked = performance.now();

  // The files this pass lints: its own, less those an earlier pass lints; the first pass
  // lints the whole tree but the files only later programs hold (and so the .js files too).
  const earlier = new Set(PROJECTS.slice(0, index).flatMap((p) => parsedConfig(p).fileNames));
  const later = new Set(PROJECTS.slice(index + 1).flatMap((p) => parsedConfig(p).fileNames));
  const own = new Set(config.fileNames);
  const eslint = new ESLint({
    cwd: ROOT,
    ignorePatterns:
      index === 0 ? [...later].filter((f) => !own.has(f)).map((f) => path.relative(ROOT, f)) : [],
    overrideConfig: {
      files: ['**/*.ts', '**/*.tsx', '**/*.mts'],
      languageOptions: { parserOptions: { programs: [program] } },
    },
  });
  const targets = index === 0 ? ['.'] : config.fileNames.filter((f) => !earlier.has(f));
  const results = await eslint.lintFiles(targets);
  const formatter = await eslint.loadFormatter('stylish');
  const text = await formatter.format(results);
  if (text) process.stdout.write(text);
  const errors = results.reduce((n, r) => n + r.errorCount + r.fatalErrorCount, 0);
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  process.stdout.write(
    `${project}: ${diagnostics.length} type error(s) in ${config.fileNames.length} files (${seconds(checked - started)} s), ` +
      `${errors} lint error(s) in ${results.length} files (${seconds(performance.now() - checked)} s)\n`,
  );
  return diagnostics.length > 0 || errors > 0 ? 1 : 0;
}
