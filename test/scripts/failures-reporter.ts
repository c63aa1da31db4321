/**
 * A vitest reporter beside the default one: at the run's end it writes the failed tests (and
 * errors outside any test) to the file named by TREBUCHET_FAILURES_FILE, so `npm test` can name
 * them in its last lines. CI shows only the tail of the output; a tier's failure printed minutes
 * earlier, among a thousand passing lines, was lost there.
 */
import { writeFileSync } from 'node:fs';
import type { Reporter, SerializedError, TestModule } from 'vitest/node';
import { failureLine, type FailureList } from './failures.ts';

const firstLine = (e: SerializedError | undefined) => (e?.message ?? 'failed').split('\n')[0] ?? '';

export default class FailuresReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>): void {
    const file = process.env.TREBUCHET_FAILURES_FILE;
    if (!file) return;
    const failures: FailureList = [];
    for (const m of modules) {
      for (const e of m.errors()) failures.push(failureLine(m.relativeModuleId, '(the file)', firstLine(e)));
      for (const t of m.children.allTests('failed')) {
        failures.push(failureLine(m.relativeModuleId, t.fullName, firstLine(t.result().errors?.[0])));
      }
    }
    for (const e of unhandled) failures.push(failureLine('(no file)', 'an unhandled error', firstLine(e)));
    writeFileSync(file, JSON.stringify(failures));
  }
}
