import { defineConfig } from 'vitest/config';

// Load tests share two cores: run test files one at a time so one run's load never skews another's numbers.
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
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], testTimeout: 180_000, hookTimeout: 120_000 },
      },
    ],
  },
});
