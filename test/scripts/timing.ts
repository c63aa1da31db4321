/**
 * The timing pass of `npm test` (docs/testing.md): every test tagged `timing`, one file at a
 * time, no other test's load beside them (timing-files.ts names the files).
 *
 *   node test/scripts/timing.ts [vitest args...]
 */
import { runTimingPass } from './timing-files.ts';

process.exitCode = await runTimingPass(process.argv.slice(2));
