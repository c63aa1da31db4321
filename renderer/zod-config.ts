import { z } from 'zod';

// zod compiles object parsers with `new Function` unless told not to; under the page's CSP
// (no 'unsafe-eval') even its probe is reported as a violation. Imported first by main.tsx,
// so it holds before any schema parses.
z.config({ jitless: true });
