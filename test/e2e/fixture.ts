import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import { startWebHost, type WebHost } from '../../electron/host/server.ts';
import { startTarget, type StartTarget } from '../../electron/jobs/target-run.ts';
import { WEB_SETTINGS_FILE } from '../../electron/stores/settings-store.ts';
import { connectChromium, launchChromium, newTestBrowser, type TestBrowser } from '../helpers/browser.ts';
import { openApp, type AppPage } from './app-page.ts';

/** The built renderer the web host serves (npm run build:renderer). */
export const STATIC_DIR = join(import.meta.dirname, '..', '..', 'dist', 'renderer');

export interface E2eApp {
  readonly host: WebHost;
  /** Where the host's presets and history go: a temp dir, never the user's config directory. */
  readonly dataDir: string;
  /** This file's browser context (the app's tabs are in it). */
  readonly browser: TestBrowser;
  /**
   * Opens the app (of this file's host, or of another at url) in a new tab; after the test
   * it must have run clean, then it is closed.
   */
  open(url?: string): Promise<AppPage>;
  /**
   * Checks that the pages opened so far ran clean and closes them, as after each test: before a
   * host of the test's own stops (a page whose host is gone looks for it again, and the browser
   * logs each refused try).
   */
  closePages(): Promise<void>;
  /** A context of the same browser apart from the app's (to open an exported file offline); closed after the file. */
  context(): Promise<TestBrowser>;
  /** How the host runs each target in the tests from here to the file's end ('real': the engine). */
  useEngine(engine: { start: StartTarget } | 'real'): void;
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
 * What the files of this test process share (vitest runs the e2e files of a worker in one
 * module graph: isolate off): the browser they connect to, and one web host whose engine is
 * the file's that runs now, its data emptied between files.
 */
interface Shared {
  host: WebHost;
  dataDir: string;
}
let sharedHost: Promise<Shared> | null = null;
let sharedBrowser: Promise<Browser | null> | null = null;
/** The engine of the file running now: the real one unless it gave another. */
let engine: StartTarget = startTarget;
const delegate: StartTarget = (...args) => engine(...args);

function hostOf(): Promise<Shared> {
  sharedHost ??= (async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'trebuchet-e2e-data-'));
    process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
    // Jobs a file left running stop 10 s after its pages closed (not the default 30 s).
    const host = await startWebHost({
      staticDir: STATIC_DIR,
      appVersion: '0.1.0',
      dataDir,
      startTarget: delegate,
      reattachGraceMs: 10_000,
    });
    return { host, dataDir };
  })();
  return sharedHost;
}

/** The e2e tier's one Chromium (test/e2e/browser-setup.ts); null outside it (then a file launches its own). */
function browserOf(): Promise<Browser | null> {
  const endpoint = inject('chromiumEndpoint');
  sharedBrowser ??= endpoint ? connectChromium(endpoint) : Promise.resolve(null);
  return sharedBrowser;
}

/** A host's data as a fresh install has it: its folders kept (the stores write into them), their files gone. */
function emptyData(dataDir: string): void {
  for (const entry of readdirSync(dataDir, { withFileTypes: true })) {
    const path = join(dataDir, entry.name);
    if (!entry.isDirectory()) rmSync(path, { force: true });
    else for (const inner of readdirSync(path)) rmSync(join(path, inner), { recursive: true, force: true });
  }
}

/**
 * The UI in Chromium against a web host over the built renderer, for one test file. Call it at
 * the top of the file: it registers the hooks that give the file its host and its browser
 * context, check after each test that every page it opened ran clean (no script error, nothing
 * the CSP had to block), and close its pages. `engine`: how the host runs each target
 * (test/helpers/scripted-engine.ts for a test about the page); the real engine by default.
 * `filesDir`: the folder the host reads body and CA files from (--files-dir); `allowKubernetes`:
 * the host runs shards on Kubernetes (--allow-kubernetes); either gives the file a host of its own. Otherwise the host is the one this test process shares, its data emptied
 * for each file.
 */
export function useE2eApp(
  opts: { filesDir?: string; engine?: { start: StartTarget }; allowKubernetes?: boolean } = {},
): E2eApp {
  let host: WebHost | undefined;
  let dataDir: string | undefined;
  let own: WebHost | undefined;
  let browser: TestBrowser | undefined;
  const contexts: TestBrowser[] = [];
  const pages: AppPage[] = [];
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the e2e ${what} is not started (use it inside a test or hook)`);
    return value;
  };
  const newContext = async (): Promise<TestBrowser> => {
    const shared = await browserOf();
    const made = shared ? await newTestBrowser(shared) : await launchChromium();
    contexts.push(made);
    return made;
  };

  beforeAll(async () => {
    if (!existsSync(join(STATIC_DIR, 'index.html'))) {
      throw new Error(
        'dist/renderer is missing: build the UI first (npm run build:renderer; npm test does it)',
      );
    }
    engine = opts.engine?.start ?? startTarget;
    if (opts.filesDir !== undefined || opts.allowKubernetes) {
      dataDir = mkdtempSync(join(tmpdir(), 'trebuchet-e2e-data-'));
      own = await startWebHost({
        staticDir: STATIC_DIR,
        appVersion: '0.1.0',
        dataDir,
        ...(opts.filesDir === undefined ? {} : { filesDir: opts.filesDir }),
        allowKubernetes: opts.allowKubernetes === true,
        startTarget: delegate,
      });
      host = own;
    } else {
      const shared = await hostOf();
      emptyData(shared.dataDir);
      ({ host, dataDir } = shared);
    }
    browser = await newContext();
  });

  const closePages = async (): Promise<void> => {
    for (const app of pages.splice(0)) {
      expect(await app.cspViolations()).toEqual([]);
      expect(app.errors).toEqual([]);
      await app.page.close();
    }
  };

  afterEach(async () => {
    await closePages();
    // Each test starts as a fresh install would: no kept drafts, the Run view (the host reads
    // its settings file again when it is gone).
    if (dataDir) await forgetSettings(join(dataDir, WEB_SETTINGS_FILE));
  });

  afterAll(async () => {
    for (const c of contexts.splice(0)) await c.close();
    if (own) {
      await own.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    }
    engine = startTarget;
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
    closePages,
    context: newContext,
    useEngine(next) {
      engine = next === 'real' ? startTarget : next.start;
    },
  };
}
