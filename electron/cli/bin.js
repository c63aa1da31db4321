#!/usr/bin/env node
// The `trebuchet` bin: Node runs the TypeScript source directly (type stripping).
import { main } from './main.ts';

process.exitCode = await main(process.argv.slice(2));
// Worker threads and sockets may still be closing: the report is out, so end here.
process.exit();
