/**
 * docs/cli.md, the CLI reference, against the real `trebuchet` command: every flag a command's
 * --help names is in that command's section, and every flag the section lists (a bullet
 * "- `--flag ARG`: ...") is one the command's parser takes, so the page can neither miss a
 * flag nor keep one the command dropped.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';

const DOC = readFileSync(path.resolve(import.meta.dirname, '../../docs/cli.md'), 'utf8');
const COMMANDS = ['run', 'capacity', 'report', 'diff', 'merge', 'presets', 'history', 'serve'] as const;
/** Commands whose flags all parse together; history's depend on its subcommand (list --json, export --json F). */
const ONE_FLAG_SET = COMMANDS.filter((c) => c !== 'history');

/** A command's section: from its "## `trebuchet NAME`" heading to the next "## " heading. */
function section(command: string): string {
  const parts = DOC.split(/^## /m);
  const found = parts.find((p) => p.startsWith(`\`trebuchet ${command}\``));
  if (found === undefined) throw new Error(`docs/cli.md has no section "## \`trebuchet ${command}\`"`);
  return found;
}

/** Flags as words: --long-name or -x (a dotted name such as Prometheus' --web.enable-... is not ours). */
function flagsIn(text: string): Set<string> {
  return new Set([...text.matchAll(/(?<![\w-])(--[a-z][a-z0-9-]*|-[a-zA-Z])(?![\w.-])/g)].map((m) => m[1]!));
}

/**
 * The section's flag bullets as arguments the parser must accept: the long name, with "=x"
 * when the bullet shows a value (`--rate R`), bare when it shows none (`--closed`).
 */
function bulletArgs(text: string): string[] {
  const args: string[] = [];
  for (const [, head] of text.matchAll(/^- `([^`]+)`:/gm)) {
    const names = head!.split(', ');
    const last = names[names.length - 1]!;
    const [name, ...value] = last.split(' ');
    if (!name!.startsWith('-')) continue; // a subcommand (presets' `list`, `show NAME`)
    args.push(value.length > 0 ? `${name}=x` : name!);
  }
  return args;
}

describe('docs/cli.md against the trebuchet command', () => {
  it.each(COMMANDS)('names every flag of `trebuchet help %s`', async (command) => {
    const help = await runCli(['help', command]);
    expect(help.code).toBe(0);
    const helpFlags = [...flagsIn(help.stdout)];
    // Each command's help names its flags (at least --help itself).
    expect(helpFlags.length).toBeGreaterThan(0);
    const documented = flagsIn(section(command));
    expect(helpFlags.filter((f) => !documented.has(f))).toEqual([]);
  });

  it.each(ONE_FLAG_SET)('lists only flags that `trebuchet %s` takes', async (command) => {
    const args = bulletArgs(section(command));
    expect(args.length).toBeGreaterThan(0);
    // --help first: once every flag parses, the command prints its help and does nothing else;
    // a flag it does not take is refused (exit 2) naming the flag.
    const r = await runCli([command, '--help', ...args]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
