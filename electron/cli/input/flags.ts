/**
 * A command's flags read with node:util's parseArgs, its errors turned into CliInputErrors
 * that name the flag: an unknown one with the nearest flag of the command's own table
 * ("--conections: unknown flag; did you mean --connections?"), so a flag added to a table is
 * suggested without anything else to change.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { nearestName } from '../../../shared/model/validation.ts';
import { CliInputError } from '../values.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/** The long flags a table takes (and their --no- forms where negation is allowed), without dashes. */
function knownFlags(options: Options, negative: boolean): string[] {
  const names = Object.keys(options);
  const negations = negative ? names.filter((n) => options[n]?.type === 'boolean').map((n) => `no-${n}`) : [];
  return [...names, ...negations];
}

/**
 * "--conections: unknown flag; did you mean --connections?", "--frobnicate: unknown flag", or
 * parseArgs' own message (a value missing, a flag that takes none) under the flag it names.
 */
export function flagError(e: unknown, options: Options, negative = false): CliInputError {
  const message = e instanceof Error ? e.message : String(e);
  const unknown = /^Unknown option '(-[^']*)'/.exec(message)?.[1];
  if (unknown !== undefined) {
    const typed = unknown.replace(/^--?/, '').split('=')[0]!;
    const near = unknown.startsWith('--') ? nearestName(typed, knownFlags(options, negative)) : null;
    return new CliInputError(
      unknown,
      near === null ? 'unknown flag' : `unknown flag; did you mean --${near}?`,
    );
  }
  const flag = /'(-[^']*?)(?:[ ,'])/.exec(message)?.[1] ?? 'arguments';
  return new CliInputError(flag, message);
}

/** parseArgs (strict, its default) whose errors name the flag (flagError). */
export function parseFlags<T extends ParseArgsConfig & { options: Options }>(
  config: T,
): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (e) {
    throw flagError(e, config.options, config.allowNegative === true);
  }
}
