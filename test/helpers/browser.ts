import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Debian's chromium, headless, with nothing running in the background to skew timings. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
] as const;

/*
 * Chromium 156 gives every window (each test's page) the address bar's two popups as WebUI
 * pages in a renderer of their own, headless too, where nobody sees them: 40 % of a browser
 * file's CPU (report-fixes: 50-57 CPU-s with them, 31 without). Their features are switched off.
 * Playwright passes a --disable-features list of its own, and Chromium takes the last such
 * switch only, so the browser's gets both: Playwright's, read from a first launch, and these.
 */
const UNSEEN_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];
let launchOptions: Promise<{ args: string[]; ignoreDefaultArgs: string[] }> | null = null;

function chromiumLaunchOptions(): Promise<{ args: string[]; ignoreDefaultArgs: string[] }> {
  launchOptions ??= (async () => {
    // --enable-automation: without it the browser does not say its command line.
    const probe = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS, '--enable-automation'],
    });
    try {
      const cdp = await probe.newBrowserCDPSession();
      const { arguments: commandLine } = await cdp.send('Browser.getBrowserCommandLine');
      const own = commandLine.filter((a) => a.startsWith('--disable-features='));
      const features = own.flatMap((a) => a.slice('--disable-features='.length).split(','));
      return {
        args: [...CHROMIUM_ARGS, `--disable-features=${[...features, ...UNSEEN_FEATURES].join(',')}`],
        ignoreDefaultArgs: own,
      };
    } finally {
      await probe.close();
    }
  })();
  return launchOptions;
}

export interface TestBrowser {
  context: BrowserContext;
  /** Closes it: a browser of its own with its profile, or a context of the shared one. */
  close(): Promise<void>;
}

/** The options every test browser gets: 1280x800, the smallest window the UI is designed for. */
const CONTEXT = { viewport: { width: 1280, height: 800 } } as const;

/**
 * Debian's Chromium as a server the test processes connect to (the e2e tier's one browser,
 * test/e2e/browser-setup.ts): `close` ends it.
 */
export async function launchChromiumServer(): Promise<{ wsEndpoint: string; close(): Promise<void> }> {
  const server = await chromium.launchServer({
    executablePath: CHROMIUM_PATH,
    ...(await chromiumLaunchOptions()),
  });
  return { wsEndpoint: server.wsEndpoint(), close: () => server.close() };
}

/** A browser launched by launchChromiumServer, from another process. */
export function connectChromium(wsEndpoint: string): Promise<Browser> {
  return chromium.connect(wsEndpoint);
}

/**
 * A fresh context of a running browser (its own cookies, storage and permissions; offline on
 * its own): what a test gets instead of a browser of its own. `close` closes the context.
 */
export async function newTestBrowser(
  browser: Browser,
  opts: { colorScheme?: 'light' | 'dark' } = {},
): Promise<TestBrowser> {
  const context = await browser.newContext({ ...CONTEXT, colorScheme: opts.colorScheme ?? 'light' });
  return { context, close: () => context.close() };
}

/**
 * A fresh Chromium with its own throwaway profile (playwright's persistent context is how a
 * user-data-dir is passed). 1280x800, the smallest window the UI is designed for.
 */
export async function launchChromium(opts: { colorScheme?: 'light' | 'dark' } = {}): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'trebuchet-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    ...(await chromiumLaunchOptions()),
    ...CONTEXT,
    colorScheme: opts.colorScheme ?? 'light',
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Opens a file (an exported report) in a new tab with the network off and every request but
 * the file itself aborted; returns the page and the requests it tried to make. The whole
 * context goes offline: use a context of its own, not the app's.
 */
export async function openOffline(
  context: BrowserContext,
  file: string,
): Promise<{ page: Page; blocked: string[] }> {
  const url = pathToFileURL(file).href;
  const blocked: string[] = [];
  const page = await context.newPage();
  await page.route('**/*', (route) => {
    const asked = route.request().url();
    if (asked === url) return route.continue();
    blocked.push(asked);
    return route.abort();
  });
  await context.setOffline(true);
  await page.goto(url);
  await page.waitForLoadState('load');
  return { page, blocked };
}
