// @vitest-environment jsdom
import { cleanup, render, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Facts } from '../../renderer/report/Facts.tsx';
import { amendResult, seed000Result } from '../helpers/run-result.ts';

afterEach(cleanup);

describe('the report facts', () => {
  it("show each engine worker's CPU and the send lateness beside the generator", () => {
    const result = amendResult(seed000Result(), {
      generator: {
        cpuPercentMean: 120,
        cpuPercentMax: 130,
        saturated: false,
        workers: [
          { cpuPercentMean: 61, cpuPercentMax: 66, saturated: false },
          { cpuPercentMean: 59, cpuPercentMax: 64, saturated: false },
        ],
      },
      sendLateness: { min: 0, mean: 0.3, stdev: 0.1, max: 4, percentiles: { '50': 0.2, '99': 1.5 } },
    });
    const { getByTestId } = render(<Facts result={result} />);
    const facts = within(getByTestId('generator-facts'));
    expect(facts.getByText('2 workers: 61%, 59% of a core on average (max 66%, 64%)')).toBeTruthy();
    expect(facts.getByText('p50 0.200 ms, p99 1.500 ms, max 4.000 ms')).toBeTruthy();
  });
});
