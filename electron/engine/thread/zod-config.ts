import { z } from 'zod';

// zod compiles each object schema's parser with `new Function` at its first parse: ~40 ms of
// CPU a thread for the run spec and the scenario, to speed up parses that happen a few times
// a run here (a spec, a scenario, one message a tick). Imported first by the CLI and the
// engine threads' entry, so it holds before any schema parses.
z.config({ jitless: true });
