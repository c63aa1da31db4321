// `npm run build:cli`: the CLI's bundle (bundle.ts) built now, not at the next start.
import { fileURLToPath } from 'node:url';
import { cliBundle } from './bundle.ts';

const bundle = cliBundle(fileURLToPath(new URL('../../', import.meta.url)));
if (!bundle.fresh()) process.stdout.write(`built ${(await bundle.build()).pathname}\n`);
