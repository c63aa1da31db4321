/*
 * How the CLI's bundle (bundle.ts) groups modules into chunks (issue 24). Left to itself,
 * rolldown makes a chunk of every set of entries and dynamic imports that share modules: 86
 * files, 56 of them loaded by `trebuchet run -n 1`, each a file to find, read and link (about a
 * quarter of that run's CPU). Here the modules a run loads go into three chunks by role:
 *
 *   run-cli     what only the command's thread loads for a run (flags, job, report, monitor)
 *   run-engine  what only an engine loads (native driver, recorder, hdr-histogram-js)
 *   run-shared  what both load (the model's schemas, the spec)
 *
 * so a run past the tiny size loads no engine code in the command's thread and an engine
 * thread no command code, and a tiny run (its engine in the command's thread) loads all three.
 * The command's entry keeps its own modules (help and version load nothing more); everything
 * else (serve, merge, report, distributed plans, autocannon) keeps rolldown's chunks.
 * Strict execution order wraps each module in a function run at its first import, in import
 * order, as the sources run: a chunk runs the bodies of the modules a thread imports, not of
 * every module it holds.
 */
import { join } from 'node:path';
import type { CodeSplittingGroup, Plugin } from 'rolldown';

/** The modules whose static imports make each role (relative to the root). */
const ROOTS = {
  cli: ['electron/cli/run/command.ts'],
  // The engine worker, a scheduled run's shard thread, and a tiny run's engine in the command's thread.
  engine: [
    'electron/engine/thread/worker.ts',
    'electron/engine/shards/thread.ts',
    'electron/engine/run-here.ts',
    'electron/engine/native/load-generator.ts',
  ],
  entry: ['electron/cli/main.ts'],
};

export interface RunChunks {
  /** Records the module graph once it is known (before chunks are made). */
  plugin: Plugin;
  /** output.codeSplitting.groups */
  groups: CodeSplittingGroup[];
}

/** The chunk groups for a project at `root`. */
export function runChunks(root: string): RunChunks {
  const imports = new Map<string, readonly string[]>();
  /** Every module `roots` import statically, themselves included. */
  const reach = (roots: readonly string[]): Set<string> => {
    const seen = new Set<string>();
    const todo = roots.map((path) => join(root, path));
    for (let id = todo.pop(); id !== undefined; id = todo.pop()) {
      if (seen.has(id)) continue;
      seen.add(id);
      todo.push(...(imports.get(id) ?? []));
    }
    return seen;
  };
  let roles: Map<string, string> | null = null;
  const roleOf = (id: string): string | null => {
    if (!roles) {
      const entry = reach(ROOTS.entry);
      const cli = reach(ROOTS.cli);
      const engine = reach(ROOTS.engine);
      roles = new Map();
      for (const id of new Set([...entry, ...cli, ...engine])) {
        const role = entry.has(id) ? 'main' : cli.has(id) ? (engine.has(id) ? 'shared' : 'cli') : 'engine';
        roles.set(id, `run-${role}`);
      }
    }
    return roles.get(id) ?? null;
  };
  return {
    plugin: {
      name: 'trebuchet-run-chunks',
      buildEnd() {
        for (const id of this.getModuleIds()) imports.set(id, this.getModuleInfo(id)?.importedIds ?? []);
      },
    },
    groups: [{ name: (id) => roleOf(id), debugName: 'run' }],
  };
}
