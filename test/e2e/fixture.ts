import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { startWebHost, type WebHost, type WebHostOptions } from '../../electron/host/server.ts';
import { WEB_SETTINGS_FILE } from '../../electron/stores/settings-store.ts';
import { launchChromium, type TestBrowser } from '../helpers/browser.ts';
import { openApp, type AppPage } from './app-page.ts';

/** The built renderer the web host serves (npm run build:renderer). */
export const STATIC_DIR = join(import.meta.dirname, '..', '..', 'dist', 'renderer');

export interface E2eApp {
  readonly host: WebHost;
  /** Where this file's presets and history go: a temp dir, never the user's config directory. */
  readonly dataDir: string;
  readonly browser: TestBrowser;
  /**
   * Opens the app (of this file's host, or of another at url) in a new tab; after the test
   * it must have run clean, then it is closed.
   */
  open(url?: string): Promise<AppPage>;
}

/** The settings file's version on disk; null when there is none. */
const stampOf = (file: string): string | null => {
  const st = statSync(file, { throwIfNoEntry: false });
  return st ? `${st.ino}:${st.mtimeMs}` : null;
};

/**
 * Removes the host's settings file once the pages just closed have stopped writing it: a page
 * sends its last change as it is hidden, which the host may write a moment after the close.
 */
async function forgetSettings(file: string): Promise<void> {
  for (let tries = 0; tries < 20; tries++) {
    const before = stampOf(file);
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (stampOf(file) === before) break;
  }
  rmSync(file, { force: true });
}

/**
 * The UI in Chromium against a web host over the built renderer and the real engine, for
 * one test file (hostOptions.filesDir: the folder it reads body and CA files from, as
 * --files-dir; hostOptions.startTarget: a scripted engine, test/helpers/fake-engine.ts, for a
 * test of the page's behaviour rather than the engine's numbers). Call it at the top of the
 * file: it registers the hooks that start the host
 * and the browser, check after each test that every page it opened ran clean (no script
 * error, nothing the CSP had to block), and stop everything at the end.
 */
export function useE2eApp(hostOptions: Pick<WebHostOptions, 'filesDir' | 'startTarget'> = {}): E2eApp {
  let host: WebHost | undefined;
  let dataDir: string | undefined;
  let browser: TestBrowser | undefined;
  const pages: AppPage[] = [];
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the e2e ${what} is not started (use it inside a test or hook)`);
    return value;
  };

  beforeAll(async () => {
    if (!existsSync(join(STATIC_DIR, 'index.html'))) {
      throw new Error(
        'dist/renderer is missing: build the UI first (npm run build:renderer; npm test does it)',
      );
    }
    dataDir = mkdtempSync(join(tmpdir(), 'trebuchet-e2e-data-'));
    host = await startWebHost({ staticDir: STATIC_DIR, appVersion: '0.1.0', dataDir, ...hostOptions });
    browser = await launchChromium();
  });

  afterEach(async () => {
    for (const app of pages.splice(0)) {
      expect(await app.cspViolations()).toEqual([]);
      expect(app.errors).toEqual([]);
      await app.page.close();
    }
    // Each test starts as a fresh install would: no kept drafts, the Run view (the host reads
    // its settings file again when it is gone).
    if (dataDir) await forgetSettings(join(dataDir, WEB_SETTINGS_FILE));
  });

  afterAll(async () => {
    await browser?.close();
    await host?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  return {
    get host() {
      return started(host, 'web host');
    },
    get dataDir() {
      return started(dataDir, 'data dir');
    },
    get browser() {
      return started(browser, 'browser');
    },
    async open(url) {
      const app = await openApp(started(browser, 'browser').context, url ?? started(host, 'web host').url);
      pages.push(app);
      return app;
    },
  };
}
