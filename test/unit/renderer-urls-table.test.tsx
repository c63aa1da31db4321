// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { UrlsTable } from '../../renderer/report/UrlsTable.tsx';
import { urlTableText } from '../../shared/format/urls.ts';
import { runResultFixture } from '../helpers/run-result.ts';
import { listResultFixture } from '../helpers/url-results.ts';

afterEach(cleanup);

const shownRows = () =>
  [...screen.getByTestId('urls-table').querySelectorAll('tbody tr')].map((tr) =>
    [...tr.children].map((c) => c.textContent),
  );

describe("the app's per-URL table", () => {
  it('lays out the shared rows: the 20 most requested, the count of the rest, every row on demand', () => {
    const result = listResultFixture(45, 12);
    render(<UrlsTable result={result} />);
    const text = urlTableText(result)!;
    expect(shownRows()).toEqual(text.rows);
    expect(screen.getByTestId('urls-card').textContent).toContain(
      '… 26 more URL rows, the least requested: every row is in the URLs CSV and the JSON.',
    );
    // Figures right-aligned, text left: requests, req/s, received and the latencies.
    const numeric = [...screen.getByTestId('urls-table').querySelectorAll('thead th')].map(
      (th) => th.className === 'num',
    );
    expect(numeric).toEqual([false, true, true, false, false, true, true, true, true]);
    fireEvent.click(screen.getByRole('button', { name: 'Show all 46' }));
    expect(shownRows()).toHaveLength(46);
    expect(shownRows().at(-1)![0]).toBe('every other (12 URLs)');
    fireEvent.click(screen.getByRole('button', { name: 'Show the top 20' }));
    expect(shownRows()).toHaveLength(20);
  });

  it('shows a short list whole, without a note, and nothing for a run without a list', () => {
    render(<UrlsTable result={listResultFixture(3)} />);
    expect(shownRows()).toHaveLength(3);
    expect(screen.queryByRole('button')).toBeNull();
    cleanup();
    render(<UrlsTable result={runResultFixture()} />);
    expect(screen.queryByTestId('urls-card')).toBeNull();
  });
});
