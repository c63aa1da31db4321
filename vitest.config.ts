import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

/*
 * The tiers of docs/testing.md, one group after another (sequence.groupOrder): unit tests in
 * parallel; integration files in parallel, except those whose numbers depend on time or on the
 * machine's load (a test tagged `timing`), which run one at a time after them, so that no other
 * test's load skews what they measure; then the browser tests.
 */

/** Every test: counts its assertions when TREBUCHET_COUNT_ASSERTIONS names a file (docs/testing.md). */
const setupFiles = ['test/helpers/assertion-count.ts'];

const TIMING_TAG = /tags:\s*\[[^\]]*'timing'/;

/** The integration files with a test tagged `timing`: they run alone. */
function timingFiles(dir: string): string[] {
  return readdirSync(path.join(import.meta.dirname, dir))
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => `${dir}/${f}`)
    .filter((f) => TIMING_TAG.test(readFileSync(path.join(import.meta.dirname, f), 'utf8')));
}

const timing = timingFiles('test/integration');

export default defineConfig({
  test: {
    tags: [
      {
        name: 'timing',
        description:
          'passes or fails with time or the machine’s load: its file runs alone, and npm run test:flaky runs it 5 times under a CPU hog',
      },
    ],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.{ts,tsx}'],
          setupFiles,
          testTimeout: 10_000,
          // Transformed by vitest, so a test's vi.mock('electron') reaches electron-store's own import of it.
          server: { deps: { inline: ['electron-store'] } },
          maxWorkers: '100%',
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          exclude: timing,
          setupFiles,
          testTimeout: 120_000,
          hookTimeout: 60_000,
          maxWorkers: '100%',
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'integration-timing',
          include: timing,
          setupFiles,
          testTimeout: 120_000,
          hookTimeout: 60_000,
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          setupFiles,
          // One Chromium for the tier; the files of a worker share one module graph, so they
          // share its connection and one web host too (test/e2e/fixture.ts).
          globalSetup: ['test/e2e/browser-setup.ts'],
          isolate: false,
          maxWorkers: '100%',
          testTimeout: 180_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
