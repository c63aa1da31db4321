import type { TestProject } from 'vitest/node';
import { launchChromiumServer } from '../helpers/browser.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the e2e tier's one Chromium listens (fixture.ts connects each test file to it). */
    chromiumEndpoint: string;
  }
}

/**
 * The e2e tier's global setup: one Chromium for every browser test file, each in contexts of
 * its own (a launch per file cost a second or more and a browser's memory each time).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const chromium = await launchChromiumServer();
  project.provide('chromiumEndpoint', chromium.wsEndpoint);
  return () => chromium.close();
}
