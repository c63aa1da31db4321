// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTrebuchetApi, type SendCommand } from '../../shared/contract/client.ts';
import { capacityPlanSchema } from '../../shared/capacity/plan.ts';
import {
  HISTORY_RECORD_FORMAT,
  HISTORY_RECORD_VERSION,
  type HistoryRecord,
} from '../../shared/records/history.ts';
import { summarizeRecord } from '../../shared/records/history-summary.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import { diffRecords } from '../../electron/host/record-diff.ts';
import { HistoryView } from '../../renderer/views/History/HistoryView.tsx';
import { knee } from '../helpers/capacity-results.ts';
import { resultWith } from '../helpers/comparison-results.ts';

/*
 * History's list and its two-run diff (issue 37): a capacity search whose answer is a lower
 * bound reads as one; two ticked runs compare older (A) to newer (B) whichever was ticked first.
 */

const common = {
  format: HISTORY_RECORD_FORMAT,
  version: HISTORY_RECORD_VERSION,
  appVersion: 'test',
  generator: null,
} as const;

/** A plain run of one target, saved at `createdAt`, answering `rps`. */
function run(id: string, createdAt: string, rps: number): HistoryRecord {
  return {
    ...common,
    id,
    name: 's6 nginx baseline',
    createdAt,
    status: 'completed',
    kind: 'run',
    scenario: scenarioSchema.parse({ name: 's6 nginx baseline', targets: [{ url: 'http://127.0.0.1:1/' }] }),
    results: [resultWith({ rps, url: 'http://127.0.0.1:1/' })],
  };
}

/** nginx searched up to 2,000 req/s, holding p99 2 ms at every step: the top rate held. */
const capacity: HistoryRecord = {
  ...common,
  id: 'capacity',
  name: 'how much',
  createdAt: '2025-01-02T20:50:00.000Z',
  status: 'completed',
  kind: 'capacity',
  plan: capacityPlanSchema.parse({
    name: 'how much',
    targets: [{ name: 'nginx', url: 'http://127.0.0.1:1/' }],
    search: { goal: { p99Ms: 10 }, startRate: 500, maxRate: 2000 },
  }),
  steps: [500, 1000, 2000].map((rate, stepIndex) => ({
    searchIndex: 0,
    stepIndex,
    rate,
    phase: 'doubling' as const,
    result: knee(1e6)(rate),
  })),
};

// Saved 08:34:10 and 08:34:52 PM: the same minute, the same name.
const older = run('older', '2025-01-02T20:34:10.000Z', 1000);
const newer = run('newer', '2025-01-02T20:34:52.000Z', 1395);
const records = new Map([older, newer, capacity].map((r) => [r.id, r]));

const diffs: { base: string; next: string }[] = [];
const send: SendCommand = (command, input) => {
  switch (command) {
    case 'history.list':
      return Promise.resolve({
        ok: true,
        value: {
          runs: [capacity, newer, older].map((r) => summarizeRecord(r, 1000)),
          dir: '/history',
          baselines: [],
          problems: [],
        },
      });
    case 'history.get':
      return Promise.resolve({ ok: true, value: records.get((input as { id: string }).id)! });
    case 'history.diff': {
      const { base, next, parts } = input as {
        base: string;
        next: string;
        parts?: { base: string; next: string };
      };
      diffs.push({ base, next });
      return Promise.resolve({ ok: true, value: diffRecords(records.get(base)!, records.get(next)!, parts) });
    }
    default:
      return Promise.resolve({ ok: false, error: `${command}: not here` });
  }
};
const api = createTrebuchetApi(send, { onJobEvent: () => () => undefined });

vi.mock('../../renderer/charts/setup.ts', () => ({
  Chart: class {
    static getChart(): undefined {
      return undefined;
    }
    destroy(): void {}
    update(): void {}
  },
}));

beforeAll(() => {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    }) as unknown as MediaQueryList;
});
afterEach(cleanup);

const view = () =>
  render(
    <HistoryView
      api={api}
      toOpen={null}
      onOpened={() => undefined}
      onLoadScenario={() => undefined}
      onLoadPlan={() => undefined}
      onLoadCapacity={() => undefined}
    />,
  );

describe('History (issue 37)', () => {
  it('lists a search whose top rate held as "at least", not as a rate held to the hundredth', async () => {
    view();
    const rows = await screen.findAllByTestId('history-row');
    const row = rows.find((r) => r.dataset.historyId === 'capacity')!;
    expect(row.textContent).toContain('nginx: at least 2,000 req/s (the top rate) · 3 steps');
    expect(row.textContent).not.toContain('2,000.00');
  });

  it('compares the older run as A and the newer as B, whichever is ticked first, and tells them apart', async () => {
    view();
    const rows = await screen.findAllByTestId('history-row');
    const tick = (id: string) =>
      fireEvent.click(within(rows.find((r) => r.dataset.historyId === id)!).getByTestId('history-select'));
    // The newer one ticked first.
    tick('newer');
    tick('older');
    fireEvent.click(screen.getByTestId('history-compare'));
    await screen.findByTestId('diff-table');
    expect(diffs.at(-1)).toEqual({ base: 'older', next: 'newer' });
    expect(screen.getByTestId('diff-side-A').textContent).toContain('s6 nginx baseline · older');
    expect(screen.getByTestId('diff-side-B').textContent).toContain('s6 nginx baseline · newer');
    // The same minute told apart: to the second, and how much later.
    expect(screen.getByTestId('diff-when-B').textContent).toContain('42 s later');
    expect(screen.getByTestId('diff-when-A').textContent).not.toBe(
      screen.getByTestId('diff-when-B').textContent,
    );
    // req/s up 39.5 %, as "vs baseline" and `trebuchet diff older newer` say it.
    const rps = screen.getAllByTestId('diff-row').find((r) => r.dataset.figure === 'rps')!;
    expect(within(rps).getByTestId('diff-percent').textContent).toBe('+39.5 %');
    // Swapped on purpose: the newer is the base, and the page says so.
    fireEvent.click(screen.getByTestId('diff-swap'));
    await waitFor(() => expect(diffs.at(-1)).toEqual({ base: 'newer', next: 'older' }));
    expect(screen.getByTestId('diff-direction').textContent).toContain('A is the newer run here');
  });
});
