// @vitest-environment jsdom
/**
 * Issue 18's done-when: the CLI and the app produce the same files for one result of each
 * kind. The real `trebuchet` runs a run, a comparison and a capacity search against servers on
 * loopback and writes its bundle (--export) and its JSON; the app's view of that saved JSON
 * (rendered in jsdom) downloads its bundle, all in one zip (read back by Python's zipfile)
 * and each file on its own: same names, same bytes.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createElement, type ReactElement } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { capacityReports } from '../../shared/capacity/report.ts';
import type { CapacityPlan, CapacityStep } from '../../shared/capacity/plan.ts';
import type { CellOutcome } from '../../shared/comparison/cells.ts';
import type { ComparisonPlan } from '../../shared/comparison/plan.ts';
import type { RunResult, RunStatus } from '../../shared/model/result.ts';
import { RunReport } from '../../renderer/report/RunReport.tsx';
import { CapacityResults } from '../../renderer/views/Capacity/CapacityResults.tsx';
import { ComparisonReport } from '../../renderer/views/Compare/ComparisonReport.tsx';
import { endAfterAll } from '../helpers/cleanup.ts';
import { runCli } from '../helpers/cli.ts';
import { handlers, startHttpServer, type TestServer } from '../helpers/servers.ts';
import { readZip } from '../helpers/zip.ts';

vi.mock('../../renderer/charts/setup.ts', () => ({
  Chart: class {
    static getChart(): undefined {
      return undefined;
    }
    destroy(): void {}
    update(): void {}
  },
}));

const endAll = endAfterAll();
let nginx: TestServer;
let apache: TestServer;
let dir: string;

/** What the page downloaded: each file's name and its blob. */
let downloads: { name: string; blob: Blob }[] = [];

beforeAll(async () => {
  nginx = endAll(await startHttpServer(handlers.ok('nginx says hello')));
  apache = endAll(await startHttpServer(handlers.limited(2, 5)));
  dir = mkdtempSync(join(tmpdir(), 'trebuchet-same-files-'));
  endAll({ remove: () => rmSync(dir, { recursive: true, force: true }) });
  // jsdom has no modal dialogs: open and close the element as the browser would.
  HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close = function (this: HTMLDialogElement) {
    this.open = false;
  };
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    }) as unknown as MediaQueryList;
});

beforeEach(() => {
  // jsdom neither makes object URLs nor downloads: keep what a click would have saved.
  const blobs = new Map<string, Blob>();
  downloads = [];
  URL.createObjectURL = (blob: Blob) => {
    const url = `blob:test/${blobs.size}`;
    blobs.set(url, blob);
    return url;
  };
  URL.revokeObjectURL = () => {};
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push({ name: this.download, blob: blobs.get(this.href)! });
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const blobText = (blob: Blob): Promise<string> =>
  new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.readAsText(blob);
  });

const blobBytes = (blob: Blob): Promise<Uint8Array> =>
  new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.readAsArrayBuffer(blob);
  });

/** The files the CLI wrote into a folder, by name. */
function folder(path: string): Record<string, string> {
  return Object.fromEntries(readdirSync(path).map((n) => [n, readFileSync(join(path, n), 'utf8')]));
}

/** A zip's files by name, read back by Python's zipfile. */
function unzip(bytes: Uint8Array): Record<string, string> {
  const file = join(dir, `download-${Date.now()}.zip`);
  writeFileSync(file, bytes);
  return readZip(file);
}

/**
 * Renders a view, downloads all (the zip) and then every file on its own (a text report
 * from its dialog), and checks both against the CLI's folder, name by name and byte by byte.
 */
async function sameAsCli(view: ReactElement, cliFiles: Record<string, string>): Promise<void> {
  render(view);
  fireEvent.click(screen.getByTestId('export-all'));
  const zip = downloads.pop()!;
  expect(zip.name.endsWith('.zip')).toBe(true);
  expect(unzip(await blobBytes(zip.blob))).toEqual(cliFiles);
  const bar = screen.getByRole('group', { name: 'Export' });
  for (const button of [...bar.querySelectorAll('button[data-testid^="export-"]')]) {
    if (button.getAttribute('data-testid') === 'export-all') continue;
    fireEvent.click(button);
    const dialog = screen.queryByTestId('download-report');
    if (dialog) {
      fireEvent.click(dialog);
      fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    }
  }
  const one = Object.fromEntries(
    await Promise.all(downloads.map(async (d) => [d.name, await blobText(d.blob)] as const)),
  );
  expect(one).toEqual(cliFiles);
}

describe('the CLI and the app write the same files', () => {
  it('for a run', async () => {
    const out = join(dir, 'run');
    const r = await runCli([
      'run',
      nginx.url,
      '--rate',
      '40',
      '-d',
      '0.5',
      '--name',
      'same files, run',
      '--monitor',
      'off',
      '-q',
      '--export',
      out,
      '--json',
      join(dir, 'run.json'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    const cli = folder(out);
    expect(Object.keys(cli).sort()).toEqual(
      [
        'json',
        'summary.csv',
        'timeseries.csv',
        'percentiles.csv',
        'html',
        'report.txt',
        'ab.txt',
        'vegeta.txt',
        'http_load.txt',
        'jmeter.txt',
      ]
        .map((p) => `same-files-run.${p}`)
        .sort(),
    );
    const result = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as RunResult;
    await sameAsCli(createElement(RunReport, { results: [result], name: result.scenarioName }), cli);
  });

  it('for a comparison', async () => {
    const out = join(dir, 'comparison');
    const planFile = join(dir, 'plan.json');
    writeFileSync(
      planFile,
      JSON.stringify({
        name: 'same files, comparison',
        targets: [
          { name: 'nginx', urls: { http: nginx.url } },
          { name: 'apache', urls: { http: apache.url } },
        ],
        load: { model: 'closed', limit: { kind: 'duration', seconds: 0.3 } },
        levels: [1, 2],
        repetitions: 2,
        pauseSeconds: 0,
      }),
    );
    const r = await runCli(
      [
        'run',
        '--preset',
        planFile,
        '--monitor',
        'off',
        '-q',
        '--export',
        out,
        '--json',
        join(dir, 'comparison.json'),
      ],
      { timeoutMs: 90_000 },
    );
    expect(r.code, r.stderr).toBe(0);
    const cli = folder(out);
    expect(Object.keys(cli)).toContain('same-files-comparison.percentiles-http-c-2.csv');
    expect(Object.keys(cli)).toContain('same-files-comparison.matrix.csv');
    const saved = JSON.parse(readFileSync(join(dir, 'comparison.json'), 'utf8')) as {
      plan: ComparisonPlan;
      status: RunStatus;
      outcomes: CellOutcome[];
    };
    await sameAsCli(
      createElement(ComparisonReport, {
        plan: saved.plan,
        outcomes: saved.outcomes,
        status: saved.status,
        onOpenRun: () => {},
        shownColumns: null,
        onColumns: () => {},
      }),
      cli,
    );
  });

  it('for a capacity search', async () => {
    const out = join(dir, 'capacity');
    const r = await runCli(
      [
        'capacity',
        `apache=${apache.url}`,
        // A goal a loaded CI machine meets too: the test is about the files, not the answer.
        '--p99',
        '1000',
        '--start-rate',
        '50',
        '--max-rate',
        '100',
        '--step',
        '0.5',
        '--warmup',
        '0',
        '--name',
        'same files, capacity',
        '--monitor',
        'off',
        '-q',
        '--export',
        out,
        '--json',
        join(dir, 'capacity.json'),
      ],
      { timeoutMs: 90_000 },
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const cli = folder(out);
    expect(Object.keys(cli)).toEqual(
      expect.arrayContaining([
        'same-files-capacity.steps.csv',
        'same-files-capacity.answers.csv',
        'same-files-capacity.html',
      ]),
    );
    const saved = JSON.parse(readFileSync(join(dir, 'capacity.json'), 'utf8')) as {
      plan: CapacityPlan;
      status: RunStatus;
      steps: CapacityStep[];
    };
    const result = { plan: saved.plan, status: saved.status, steps: saved.steps };
    await sameAsCli(
      createElement(CapacityResults, {
        result,
        reports: capacityReports(result.plan, result.steps, null),
        running: null,
        name: result.plan.name,
      }),
      cli,
    );
  });
});
