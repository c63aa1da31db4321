/**
 * `npm run bench`'s flags: what --help prints, and the options read from the command line.
 * A wrong flag is a sentence naming it (with the nearest flag), never a stack trace.
 */
import { parseFlags } from '../../electron/cli/input/flags.ts';
import { CliInputError } from '../../electron/cli/values.ts';
import { ALL_SECTIONS, SECTIONS, type Section } from './sections.ts';

export const BENCH_HELP = `Usage: npm run bench -- [flags]

Trebuchet's engines against the reference tools (wrk, ab, h2load, autocannon) on one local
nginx, each ratio against a reference measured in the same run; markdown tables on stdout for
docs/benchmarks.md, progress on stderr. Load goes to 127.0.0.1 only. About 10 minutes in full.

Flags:
  --quick              1 round of 2 s runs (RSS runs of 3 and 6 s): a smoke check of a minute or two
  --only SECTION,...   these sections only (default: ${SECTIONS.join(', ')})
  --rounds N           rounds of every section (interleaved generators)
  --seconds S          seconds of every run
  --pin on|off|both    generators and nginx pinned to CPUs with taskset, unpinned, or both (default)
  -h, --help           this help

Sections: ${ALL_SECTIONS.join(', ')} (opt-in: servers, Debian's Apache, nginx, H2O, lighttpd
and Caddy; metrics, live metrics pushed to a Prometheus)
`;

export interface BenchOptions {
  pin: 'on' | 'off' | 'both';
  quick: boolean;
  sections: Set<Section>;
  rounds: number | null;
  seconds: number | null;
}

/** The options, or 'help'; a CliInputError naming the flag when one is wrong. */
export function benchOptions(argv: readonly string[]): BenchOptions | 'help' {
  const { values } = parseFlags({
    args: [...argv],
    options: {
      quick: { type: 'boolean' },
      only: { type: 'string' },
      rounds: { type: 'string' },
      seconds: { type: 'string' },
      pin: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  const whole = (flag: string, text: string | undefined): number | null => {
    if (text === undefined) return null;
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1)
      throw new CliInputError(`--${flag}`, `must be a whole number >= 1 (got ${text})`);
    return n;
  };
  const only = values.only?.split(',').map((s) => s.trim()) ?? [...SECTIONS];
  const unknown = only.filter((s) => !(ALL_SECTIONS as readonly string[]).includes(s));
  if (unknown.length > 0)
    throw new CliInputError(
      '--only',
      `unknown section ${unknown.join(', ')} (sections: ${ALL_SECTIONS.join(', ')})`,
    );
  const pin = values.pin ?? 'both';
  if (pin !== 'on' && pin !== 'off' && pin !== 'both')
    throw new CliInputError('--pin', `must be on, off or both (got ${pin})`);
  return {
    pin,
    quick: values.quick === true,
    sections: new Set(only as Section[]),
    rounds: whole('rounds', values.rounds),
    seconds: whole('seconds', values.seconds),
  };
}
