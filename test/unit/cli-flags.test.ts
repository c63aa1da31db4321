import { describe, expect, it } from 'vitest';
import { parseFlags } from '../../electron/cli/input/flags.ts';
import { RUN_OPTIONS } from '../../electron/cli/run/flags.ts';
import { CliInputError } from '../../electron/cli/values.ts';

/** The error a command line gets from a table, or null when it parses. */
function refusal(
  args: string[],
  options: Parameters<typeof parseFlags>[0]['options'],
  allowNegative = false,
) {
  try {
    parseFlags({ args, options, allowPositionals: true, allowNegative });
    return null;
  } catch (e) {
    if (!(e instanceof CliInputError)) throw e;
    return e.message;
  }
}

describe("a command's flags (issue 37)", () => {
  it('suggests the nearest flag of the table it was given, so a flag added later is suggested too', () => {
    expect(refusal(['--conections', '5'], RUN_OPTIONS, true)).toBe(
      '--conections: unknown flag; did you mean --connections?',
    );
    expect(refusal(['--conections=5'], RUN_OPTIONS, true)).toBe(
      '--conections: unknown flag; did you mean --connections?',
    );
    expect(refusal(['--no-keepaliv'], RUN_OPTIONS, true)).toBe(
      '--no-keepaliv: unknown flag; did you mean --no-keepalive?',
    );
    // A table with flags another change adds: read from the table, not a copy of it.
    const more = { ...RUN_OPTIONS, 'trace-sample': { type: 'string' } } as const;
    expect(refusal(['--trace-sampel', '0.1'], more)).toBe(
      '--trace-sampel: unknown flag; did you mean --trace-sample?',
    );
    expect(refusal(['--trace-sampel', '0.1'], RUN_OPTIONS)).toBe('--trace-sampel: unknown flag');
    // The flags the metrics change added to run's own table are suggested as they came.
    expect(refusal(['--metrics-lisen', ':9464'], RUN_OPTIONS)).toBe(
      '--metrics-lisen: unknown flag; did you mean --metrics-listen?',
    );
  });

  it('every long flag of run, one letter dropped, is suggested back', () => {
    for (const flag of Object.keys(RUN_OPTIONS).filter((f) => f.length >= 5)) {
      const typo = flag.slice(0, 2) + flag.slice(3);
      expect(refusal([`--${typo}`], RUN_OPTIONS, true), flag).toBe(
        `--${typo}: unknown flag; did you mean --${flag}?`,
      );
    }
  });

  it('keeps parseArgs own words for a value missing, under the flag', () => {
    expect(refusal(['--connections'], RUN_OPTIONS)).toBe(
      "-c: Option '-c, --connections <value>' argument missing",
    );
    expect(refusal(['-x'], RUN_OPTIONS)).toBe('-x: unknown flag');
  });
});
