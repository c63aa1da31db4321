import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterEach, expect } from 'vitest';

/*
 * With TREBUCHET_COUNT_ASSERTIONS=FILE, every test appends one JSON line to FILE: its file, its
 * name, its state and the assertions it made (expect calls, an expect.poll once, its hooks'
 * included), so two versions of the suite can be compared by what they assert, not by how many
 * tests they have (docs/testing.md). Registered first, this afterEach runs after every other.
 */
const out = process.env.TREBUCHET_COUNT_ASSERTIONS;
if (out) {
  afterEach((context) => {
    const local = (context as unknown as { _local?: boolean })._local ? context.expect.getState() : null;
    const assertions = expect.getState().assertionCalls + (local?.assertionCalls ?? 0);
    const task = context.task;
    const line = {
      file: relative(process.cwd(), task.file.filepath),
      test: task.fullName,
      state: task.result?.state ?? 'run',
      assertions,
    };
    appendFileSync(out, `${JSON.stringify(line)}\n`);
  });
}
