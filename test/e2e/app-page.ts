import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Download, Page } from 'playwright-core';
import type { CellOutcome } from '../../shared/comparison/cells.ts';
import {
  jobEnvelopeSchema,
  withSamples,
  type JobEnvelope,
  type PartResultOf,
} from '../../shared/contract/jobs.ts';
import { pageMessageSchema } from '../../shared/contract/web-protocol.ts';
import type { RunResult, Sample } from '../../shared/model/result.ts';
import { SampleSeries } from '../../shared/figures/sample-series.ts';
import type { ResourceSample } from '../../shared/model/server-resources.ts';

export const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts');

/**
 * The few browser globals the in-page probes use. This file is type-checked as Node code
 * (no DOM lib), so each probe casts globalThis to this; the cast is erased before Playwright
 * sends the function to the page.
 */
interface PageElement {
  dataset: Record<string, string | undefined>;
}
interface PageGlobals {
  document: {
    body: unknown;
    querySelector(selector: string): PageElement | null;
    addEventListener(
      type: 'securitypolicyviolation',
      listener: (e: { violatedDirective: string; blockedURI: string }) => void,
    ): void;
  };
  MutationObserver: new (callback: () => void) => { observe(target: unknown, options: object): void };
  requestAnimationFrame(callback: (time: number) => void): number;
  __cspViolations?: string[];
  __pointLog?: PointLogEntry[];
  __frames?: number[];
  __framesRunning?: boolean;
}

export interface PointLogEntry {
  points: number;
  status: string | undefined;
}

/**
 * The app in a browser tab, as a person uses it, plus what the test reads beside the screen:
 * the job events the host sent over the WebSocket (validated with the shared schema), page
 * errors, and CSP violations.
 */
export interface AppPage {
  page: Page;
  /** Every job event received (every kind), in order. */
  events: JobEnvelope[];
  /** Uncaught page errors and console errors. */
  errors: string[];
  /** The runs' target results, in order, their samples joined back as the page joins them. */
  results(): RunResult[];
  /** The cell runs of comparisons, in order, their samples joined back as the page joins them. */
  outcomes(): CellOutcome[];
  /** The engine samples received for the runs' targets, in order. */
  samples(): Sample[];
  /** The server readings received for part `part` of jobs of a kind, in order. */
  readings(kind: 'run' | 'comparison', part?: number): ResourceSample[];
  /** The page's CSP violation reports (blocked inline script, eval, remote content...). */
  cspViolations(): Promise<string[]>;
  screenshot(name: string, fullPage?: boolean): Promise<string>;
}

export async function openApp(context: BrowserContext, url: string): Promise<AppPage> {
  const page = await context.newPage();
  const events: JobEnvelope[] = [];
  const seen = new Set<string>();
  const receive = (envelope: JobEnvelope): void => {
    const key = `${envelope.jobId}/${envelope.n}`;
    if (seen.has(key)) return;
    seen.add(key);
    events.push(envelope);
  };
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('websocket', (ws) => {
    ws.on('framereceived', ({ payload }) => {
      const parsed = pageMessageSchema.safeParse(JSON.parse(String(payload)));
      if (!parsed.success) return;
      const message = parsed.data;
      if (message.kind === 'job') return receive(message.envelope);
      // A reloaded page gets a job's events so far in its jobs.active answer (a reconnected one
      // in jobs.events'): they count as received, each once.
      const value: unknown = message.reply.ok ? message.reply.value : null;
      const replayed = (value as { jobs?: { events: unknown[] }[]; events?: unknown[] } | null) ?? {};
      for (const e of [...(replayed.jobs ?? []).flatMap((j) => j.events), ...(replayed.events ?? [])]) {
        const envelope = jobEnvelopeSchema.safeParse(e);
        if (envelope.success) receive(envelope.data);
      }
    });
  });
  // Runs before the page's own scripts; CDP-injected, so the page's CSP does not apply to it.
  await page.addInitScript(() => {
    const w = globalThis as unknown as PageGlobals;
    const violations: string[] = [];
    w.__cspViolations = violations;
    w.document.addEventListener('securitypolicyviolation', (e) => {
      violations.push(`${e.violatedDirective}: ${e.blockedURI}`);
    });
  });
  await page.goto(url);
  await page.getByTestId('target-url-0').waitFor();
  mkdirSync(ARTIFACTS, { recursive: true });
  return {
    page,
    events,
    errors,
    results: () => joined(events, 'run'),
    outcomes: () => joined(events, 'comparison'),
    samples: () =>
      events.flatMap(({ kind, event: e }) =>
        kind === 'run' && e.type === 'sample' && e.source === 'engine' ? [e.sample] : [],
      ),
    readings: (kind, part = 0) =>
      events.flatMap((m) =>
        m.kind === kind && m.event.type === 'sample' && m.event.source === 'server' && m.event.part === part
          ? [m.event.sample]
          : [],
      ),
    cspViolations: () => page.evaluate(() => (globalThis as unknown as PageGlobals).__cspViolations ?? []),
    async screenshot(name, fullPage = false) {
      // Off the buttons, so none is caught in its hover colour.
      await page.mouse.move(1270, 790);
      const path = join(ARTIFACTS, name);
      await page.screenshot({ path, fullPage });
      return path;
    },
  };
}

/**
 * The part results of every job of a kind, in order, each with its samples joined back from
 * the part's series, as the page's job store joins them (a result travels without them).
 */
function joined<K extends 'run' | 'comparison'>(events: readonly JobEnvelope[], kind: K): PartResultOf<K>[] {
  const series = new Map<string, SampleSeries<Sample>>();
  const out: PartResultOf<K>[] = [];
  // Job by job, each in its own order (a replay may have come after live events of the same job).
  const byJob = new Map<string, JobEnvelope[]>();
  for (const e of events) byJob.set(e.jobId, [...(byJob.get(e.jobId) ?? []), e]);
  const ordered = [...byJob.values()].flatMap((list) => list.sort((a, b) => a.n - b.n));
  for (const { jobId, kind: k, event } of ordered) {
    if (k !== kind) continue;
    const key = `${jobId}/${'part' in event ? event.part : ''}`;
    if (event.type === 'sample' && event.source === 'engine') {
      if (!series.has(key)) series.set(key, new SampleSeries());
      series.get(key)!.add(event.sample);
    }
    if (event.type === 'result') {
      out.push(withSamples(kind, event.result as PartResultOf<K>, series.get(key)?.items ?? []));
    }
  }
  return out;
}

/** Fills the editor the way a person would: URL, then the closed model's connections and duration. */
export async function fillScenario(
  app: AppPage,
  s: { url: string; connections?: number; seconds?: number; pipelining?: number; name?: string },
): Promise<void> {
  const { page } = app;
  await page.getByTestId('target-url-0').fill(s.url);
  if (s.name !== undefined) await page.getByTestId('scenario-name').fill(s.name);
  if (s.connections !== undefined) await page.getByTestId('load-connections').fill(String(s.connections));
  if (s.pipelining !== undefined) await page.getByTestId('load-pipelining').fill(String(s.pipelining));
  if (s.seconds !== undefined) await page.getByTestId('load-duration').fill(String(s.seconds));
}

/**
 * Fills the comparison editor (the Compare view shown): its name, two servers' http URLs, the
 * levels, each cell's duration, the repetitions and (when given) the pause between cells.
 */
export async function fillPlan(
  app: AppPage,
  p: { name: string; targets: [{ name: string; url: string }, { name: string; url: string }] },
  load: { levels: string; seconds: number; repetitions: number; pause?: number },
): Promise<void> {
  const { page } = app;
  await page.getByTestId('plan-name').fill(p.name);
  for (const [i, t] of p.targets.entries()) {
    await page.getByTestId(`plan-target-name-${i}`).fill(t.name);
    await page.getByTestId(`plan-target-${i}-http`).fill(t.url);
  }
  await page.getByTestId('plan-levels').fill(load.levels);
  await page.getByTestId('plan-duration').fill(String(load.seconds));
  await page.getByTestId('plan-repetitions').fill(String(load.repetitions));
  if (load.pause !== undefined) await page.getByTestId('plan-pause').fill(String(load.pause));
}

/**
 * Records every change of the throughput chart's point count with the run status at that
 * moment, so the test can tell the chart grew while the run was still going.
 */
export const watchThroughputPoints = (app: AppPage): Promise<void> =>
  watchChartPoints(app, 'chart-throughput');

/** The same for any live chart (its canvas' test id); pointLog reads the log. */
export async function watchChartPoints(app: AppPage, chartTestId: string): Promise<void> {
  await app.page.evaluate((testId) => {
    const w = globalThis as unknown as PageGlobals;
    const log: PointLogEntry[] = [];
    w.__pointLog = log;
    new w.MutationObserver(() => {
      const canvas = w.document.querySelector(`[data-testid="${testId}"]`);
      const status = w.document.querySelector('[data-testid="run-status"]')?.dataset.status;
      const points = Number(canvas?.dataset.points ?? 0);
      const last = log.at(-1);
      if (!last || last.points !== points || last.status !== status) log.push({ points, status });
    }).observe(w.document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-points', 'data-status'],
    });
  }, chartTestId);
}

export function pointLog(app: AppPage): Promise<PointLogEntry[]> {
  return app.page.evaluate(() => (globalThis as unknown as PageGlobals).__pointLog ?? []);
}

/** Waits until a chart (the throughput chart by default) has at least `min` points. */
export async function waitForPoints(
  app: AppPage,
  min: number,
  timeout = 60_000,
  chartTestId = 'chart-throughput',
): Promise<void> {
  await app.page.waitForFunction(
    ({ wanted, testId }) => {
      const w = globalThis as unknown as PageGlobals;
      const canvas = w.document.querySelector(`[data-testid="${testId}"]`);
      return Number(canvas?.dataset.points ?? 0) >= wanted;
    },
    { wanted: min, testId: chartTestId },
    { timeout },
  );
}

/** Waits until the shown target's run status is one of the given ones, and returns it. */
export async function waitForStatus(app: AppPage, statuses: string[], timeout = 60_000): Promise<string> {
  const handle = await app.page.waitForFunction(
    (wanted) => {
      const w = globalThis as unknown as PageGlobals;
      const s = w.document.querySelector('[data-testid="run-status"]')?.dataset.status;
      return s !== undefined && wanted.includes(s) ? s : false;
    },
    statuses,
    { timeout },
  );
  return String(await handle.jsonValue());
}

/** Waits until the whole run is over (every target, not just the one shown) and gives its status. */
export async function waitForRunDone(app: AppPage, timeout = 60_000): Promise<string> {
  await app.page.locator('[data-testid="run-panel"][data-phase="done"]').waitFor({ timeout });
  return String(await app.page.getByTestId('run-status').getAttribute('data-status'));
}

/** Starts sampling frame intervals with requestAnimationFrame (the page's own clock). */
export async function startFrameTimer(app: AppPage): Promise<void> {
  await app.page.evaluate(() => {
    const w = globalThis as unknown as PageGlobals;
    const frames: number[] = [];
    w.__frames = frames;
    w.__framesRunning = true;
    let prev = 0;
    const tick = (t: number): void => {
      if (!w.__framesRunning) return;
      frames.push(t - prev);
      prev = t;
      w.requestAnimationFrame(tick);
    };
    w.requestAnimationFrame((t) => {
      prev = t;
      w.requestAnimationFrame(tick);
    });
  });
}

/** Stops the frame timer and returns the intervals between frames, in ms. */
export async function stopFrameTimer(app: AppPage): Promise<number[]> {
  return app.page.evaluate(() => {
    const w = globalThis as unknown as PageGlobals;
    w.__framesRunning = false;
    return w.__frames ?? [];
  });
}

/** Clicks the button and saves what it downloads into dir; returns the file's path and suggested name. */
export async function saveDownload(
  page: Page,
  testId: string,
  dir: string,
): Promise<{ path: string; name: string }> {
  const [file]: [Download, void] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId(testId).first().click(),
  ]);
  const path = join(dir, file.suggestedFilename());
  await file.saveAs(path);
  return { path, name: file.suggestedFilename() };
}
