// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReportSummary } from '../../renderer/report/Report.tsx';
import { runResultFixture } from '../helpers/run-result.ts';

afterEach(cleanup);

describe("a run's summary", () => {
  it('has no error box when the run did not fail (an empty one was announced and drawn)', () => {
    render(<ReportSummary result={runResultFixture()} onRunAnyway={() => undefined} />);
    expect(screen.queryByTestId('run-error')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says why a run failed, with Run anyway for an error status', () => {
    const runAnyway = vi.fn();
    const failed = runResultFixture({
      status: 'failed',
      error: { kind: 'status', message: 'GET http://127.0.0.1:8080/ answered 404 Not Found' },
    });
    render(<ReportSummary result={failed} onRunAnyway={runAnyway} />);
    expect(screen.getByTestId('run-error').textContent).toContain('answered 404 Not Found');
    fireEvent.click(screen.getByTestId('run-anyway'));
    expect(runAnyway).toHaveBeenCalledOnce();
  });
});
