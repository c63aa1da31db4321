import { defineConfig } from 'vitest/config';

// Load tests share two cores: run test files one at a time so one run's load never skews another's numbers.
// Real runs leave the machine unread (TREBUCHET_MACHINE=off): on a shared machine its readings say
// machine busy whenever others' work runs, so only the tests about the machine read it (they set on).
const machineOff = { TREBUCHET_MACHINE: 'off' };
export default defineConfig({
  test: {
    fileParallelism: false,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.{ts,tsx}'],
          testTimeout: 10_000,
          // Transformed by vitest, so a test's vi.mock('electron') reaches electron-store's own import of it.
          server: { deps: { inline: ['electron-store'] } },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          env: machineOff,
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          env: machineOff,
          testTimeout: 180_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
