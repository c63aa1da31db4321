import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

/*
 * The tiers of docs/testing.md: unit, then integration and e2e together (one sequence.groupOrder:
 * as two groups, each one's last long file ran beside an idle worker), each file's tests in
 * parallel with the other files' (a worker per core). A test whose numbers depend on time or
 * the machine's load is tagged `timing`: `npm test` leaves those out of this run and runs them
 * afterwards, one file at a time (--tags-filter timing --max-workers 1 --isolate), so that no
 * other test's load skews what they measure; `npm run test:flaky` runs them under a CPU hog.
 */

/** Every test: counts its assertions when TREBUCHET_COUNT_ASSERTIONS names a file (docs/testing.md). */
const setupFiles = ['test/helpers/assertion-count.ts'];

/*
 * Real runs leave the machine unread (TREBUCHET_MACHINE=off): on a shared machine its readings
 * say machine busy whenever others' work runs, so only the tests about the machine read it
 * (they set it on: test/helpers/cpu-hogs.ts's MACHINE_ON; test/e2e/machine.test.ts reads a
 * scripted machine instead).
 */
const env = { TREBUCHET_MACHINE: 'off' };

/*
 * expect.poll waits for a page or a process to reach a state; its default 1 s is about neither
 * (a page's re-render on a loaded machine took longer). A state never reached still fails, after
 * this; polls with a bound of their own keep it.
 */
const expectOptions = { poll: { timeout: 15_000 } };

/*
 * The integration files that keep a module graph of their own: those that mock a module (a mock
 * must not reach, nor miss, another file's import of it). The timing pass isolates every file
 * (--isolate, test/scripts/timing-files.ts): a timing test's figures carry no other file's heap.
 */
const mocking = readdirSync(path.join(import.meta.dirname, 'test/integration'), {
  recursive: true,
  encoding: 'utf8',
})
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => path.join('test/integration', f))
  .filter((f) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(path.join(import.meta.dirname, f), 'utf8')))
  .sort();

const integration = {
  setupFiles,
  env,
  expect: expectOptions,
  testTimeout: 120_000,
  hookTimeout: 60_000,
  sequence: { groupOrder: 1 },
};

export default defineConfig({
  test: {
    maxWorkers: '100%',
    tags: [
      {
        name: 'timing',
        description:
          'passes or fails with time or the machine’s load: npm test runs it alone, after the rest; npm run test:flaky runs it 5 times under a CPU hog',
      },
    ],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.{ts,tsx}'],
          setupFiles,
          // Threads sharing one module graph per worker: a module is imported once, not once per
          // file (imports took half the tier's time). Unit tests keep no state in modules.
          pool: 'threads',
          isolate: false,
          testTimeout: 10_000,
          // Transformed by vitest, so a test's vi.mock('electron') reaches electron-store's own import of it.
          server: { deps: { inline: ['electron-store'] } },
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...integration,
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          exclude: mocking,
          // The files of a worker share one module graph: each file's own imports (the engine,
          // the hosts, zod's schemas) cost 0.7-0.9 CPU-seconds a file when isolated.
          isolate: false,
        },
      },
      {
        test: { ...integration, name: 'integration-isolated', include: mocking },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          setupFiles,
          env,
          // One Chromium for the tier; the files of a worker share one module graph, so they
          // share its connection and one web host too (test/e2e/fixture.ts).
          globalSetup: ['test/e2e/browser-setup.ts'],
          isolate: false,
          expect: expectOptions,
          testTimeout: 180_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
