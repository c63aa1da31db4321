// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTrebuchetApi, type SendCommand } from '../../shared/contract/client.ts';
import {
  HISTORY_RECORD_FORMAT,
  HISTORY_RECORD_VERSION,
  type HistoryRecord,
} from '../../shared/records/history.ts';
import { scenarioSchema } from '../../shared/model/scenario.ts';
import { RunDiff } from '../../renderer/views/History/RunDiff.tsx';
import { diffRecords } from '../../electron/host/record-diff.ts';
import { resultWith } from '../helpers/comparison-results.ts';

/** A saved plain run with one result per URL. */
function savedRun(id: string, urls: string[]): HistoryRecord {
  return {
    format: HISTORY_RECORD_FORMAT,
    version: HISTORY_RECORD_VERSION,
    id,
    name: `run ${id}`,
    createdAt: '2025-01-02T03:04:05.000Z',
    appVersion: 'test',
    status: 'completed',
    generator: null,
    kind: 'run',
    scenario: scenarioSchema.parse({ targets: urls.map((url) => ({ url })) }),
    results: urls.map((url, i) => resultWith({ rps: 1000 * (i + 1), url })),
  };
}

const records = new Map(
  [
    savedRun('two-a', ['http://127.0.0.1:1/', 'http://127.0.0.1:2/']),
    savedRun('two-b', ['http://127.0.0.1:1/', 'http://127.0.0.1:2/']),
    savedRun('one-a', ['http://127.0.0.1:3/']),
    savedRun('one-b', ['http://127.0.0.1:3/']),
  ].map((r) => [r.id, r]),
);

const send: SendCommand = (command, input) => {
  if (command === 'history.diff') {
    // The host's own computation, as the web host and the desktop answer it.
    const { base, next, parts } = input as {
      base: string;
      next: string;
      parts?: { base: string; next: string };
    };
    return Promise.resolve({ ok: true, value: diffRecords(records.get(base)!, records.get(next)!, parts) });
  }
  const record = command === 'history.get' ? records.get((input as { id: string }).id) : undefined;
  return Promise.resolve(record ? { ok: true, value: record } : { ok: false, error: `${command}: not here` });
};
const api = createTrebuchetApi(send, { onJobEvent: () => () => undefined });

// jsdom has no 2D canvas: the overlay's charts are stand-ins (ChartCard still writes their points).
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

describe('two saved runs compared', () => {
  it('starts again from the first part when another pair of runs is compared', async () => {
    const view = render(
      <RunDiff api={api} a="two-a" b="two-b" onClose={() => undefined} onSwap={() => undefined} />,
    );
    await screen.findByTestId('diff-table');
    // The second target of A against the first of B.
    fireEvent.change(screen.getByTestId('diff-part-A'), { target: { value: '1' } });
    expect(screen.getByTestId<HTMLSelectElement>('diff-part-A').value).toBe('1');
    // The parts picked, compared by the host as `trebuchet diff` compares them: 1,000 req/s against 2,000.
    await waitFor(() => expect(screen.getByTestId('diff-table').dataset.part).toBe('127.0.0.1:2'));
    const rps = screen.getAllByTestId('diff-row').find((r) => r.dataset.figure === 'rps')!;
    expect(rps.querySelector('[data-testid="diff-percent"]')!.textContent).toBe('-50.0 %');

    // Two runs of a single target each: there is no second part to stay on.
    view.rerender(
      <RunDiff api={api} a="one-a" b="one-b" onClose={() => undefined} onSwap={() => undefined} />,
    );
    await waitFor(() => expect(screen.queryByText('run two-a')).toBeNull());
    expect(screen.getByText('run one-a')).toBeTruthy();
    expect((await screen.findAllByTestId('diff-row')).length).toBeGreaterThan(0);
    // The two runs' throughput series overlaid: each run's samples, A's and B's.
    const one = records.get('one-a');
    const samples = one?.kind === 'run' ? (one.results[0]?.samples.length ?? 0) : 0;
    expect(samples).toBeGreaterThan(0);
    expect(screen.getByTestId('diff-chart-throughput').dataset.points).toBe(String(2 * samples));
  });
});
