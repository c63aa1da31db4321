/**
 * The CLI's own entry (electron/cli/main.ts, which bin.js calls) run in this process with
 * one command timed on its own: `node cli-timed.ts <warm-up args> -- <timed args>` runs the
 * warm-up command first (it loads the modules the timed one needs, so the time is the
 * command's work, not Node's start on a busy machine), then prints
 * `TIMED {"code":N,"ms":M}` on stderr after the timed command's own output.
 */
import { main } from '../../electron/cli/main.ts';

const argv = process.argv.slice(2);
const split = argv.indexOf('--');
await main(argv.slice(0, split));
const started = performance.now();
const code = await main(argv.slice(split + 1));
const ms = performance.now() - started;
process.stderr.write(`TIMED ${JSON.stringify({ code, ms })}\n`);
process.exit(code);
