#!/usr/bin/env node
// The `trebuchet` bin: an older Node is refused first with a sentence, not a stack trace
// (node-check.js). Then it runs the CLI's bundle (bundle.ts: built from the sources, rebuilt
// first whenever one of them changed; the sources themselves when it cannot be built). Node's
// on-disk compile cache (the user's cache directory, compile-cache.js; the engine threads use
// the same) keeps each module's compiled code from the second start on, so it is turned on
// before the CLI's modules load (hence the dynamic imports).
import module from 'node:module';
import v8 from 'node:v8';
import { compileCacheDir, pruneCompileCache } from '../engine/thread/compile-cache.js';
import { exitIfNodeTooOld } from './node-check.js';

exitIfNodeTooOld();
// The heap every engine thread starts with (V8 reads these when an isolate is made, so they
// reach the threads made from here on, not this one; a shebang's flags would not be portable).
// A thread began with a 1 MiB young generation and a small old one: 7-8 scavenges while it
// loaded and opened its pool, and a Mark-Compact in its first seconds of load (a 35-52 ms
// pause at 20,000 req/s); with these, 5 scavenges before the load and no Mark-Compact in a
// 5 s run (docs/benchmarks.md, issue 38). Single-threaded GC measured no better: not set.
v8.setFlagsFromString('--min-semi-space-size=4');
v8.setFlagsFromString('--initial-old-space-size=64');
module.enableCompileCache?.(compileCacheDir());
const { cliEntry } = await import('./bundle.ts');
/** @type {{ main: (argv: string[]) => Promise<number> }} */
const { main } = await import((await cliEntry()).href);

process.exitCode = await main(process.argv.slice(2));
// A pipe takes 64 KiB at a time: what is still queued for it (a long JSON report) goes out
// before the exit, which would drop it.
await Promise.all([process.stdout, process.stderr].map((s) => new Promise((done) => s.write('', done))));
// Once a day, after the output: compiled code of old bundles goes. A folder the user chose
// (NODE_COMPILE_CACHE) may hold other programs' code and is left alone.
if (!process.env.NODE_COMPILE_CACHE) pruneCompileCache(compileCacheDir());
// Worker threads and sockets may still be closing: the report is out, so end here.
process.exit();
