import { memo, useMemo } from 'react';
import type { RunResult } from '../../shared/model/result.ts';
import { runVerdict } from '../../shared/verdict/verdict.ts';
import { Alert } from '../components/Alert.tsx';
import { formatSeconds } from '../../shared/figures/units.ts';
import { PercentileChart } from './PercentileChart.tsx';
import {
  ConnectionTimes,
  ErrorSet,
  LatencyPercentileTable,
  StatusTable,
  Thresholds,
} from './ReportTables.tsx';
import { Facts } from './Facts.tsx';
import { ServerResourcesReport } from './ServerResourcesReport.tsx';
import { MachineReport } from './MachineReport.tsx';
import { failureSummary } from './reportModel.ts';
import { ShardsTable } from './ShardsTable.tsx';
import { StagesTable } from './StagesTable.tsx';
import { UrlsTable } from './UrlsTable.tsx';
import { SummaryCards } from './SummaryCards.tsx';
import { VerdictBanner } from './VerdictBanner.tsx';
import { Warnings } from './Warnings.tsx';
import './report.css';

interface ReportProps {
  results: readonly (RunResult | null)[];
  shown: number;
}

/**
 * What a target's run came to: why it failed, if it did (with "Run anyway" for a URL that
 * answered an error status before the load, when the caller can start it again); else whether its figures are the
 * server's (the verdict), then the headline figures.
 */
export function ReportSummary({ result, onRunAnyway }: { result: RunResult; onRunAnyway?: () => void }) {
  const failure = failureSummary(result);
  const verdict = useMemo(() => runVerdict(result), [result]);
  return (
    <>
      <Alert tone="error" testId="run-error">
        {failure !== null && (
          <>
            {failure}
            {/* An error status may be what someone means to measure: the same run, the check off. */}
            {result.error?.kind === 'status' && onRunAnyway && (
              <div className="alert__actions">
                <button
                  type="button"
                  className="btn btn--sm btn--primary"
                  data-testid="run-anyway"
                  title="Run it again without the status check, measuring this answer on purpose"
                  onClick={onRunAnyway}
                >
                  Run anyway
                </button>
              </div>
            )}
          </>
        )}
      </Alert>
      {/* A target that never answered has no figures worth a card: the error says it all. */}
      {failure === null && <VerdictBanner verdict={verdict} />}
      {result.requests.total > 0 && <SummaryCards result={result} verdict={verdict} />}
    </>
  );
}

/** The detailed report of the shown target, its distribution beside the other targets'. */
export const ReportDetails = memo(function ReportDetails({ results, shown }: ReportProps) {
  const result = results[shown];
  const verdict = useMemo(() => (result ? runVerdict(result) : null), [result]);
  if (!result || !verdict) return null;
  return (
    <section className="report" data-testid="report" data-status={result.status}>
      <Warnings result={result} />
      <ShardsTable result={result} />
      <StagesTable result={result} />
      <UrlsTable result={result} />
      {result.latency && (
        <div className="report-grid">
          <LatencyPercentileTable percentiles={result.latency.percentiles} />
          <PercentileChart results={results} shown={shown} />
        </div>
      )}
      {result.phases && <ConnectionTimes phases={result.phases} />}
      <div className="report-grid">
        <StatusTable result={result} />
        <ErrorSet result={result} />
      </div>
      {result.serverResources && (
        <ServerResourcesReport resources={result.serverResources} verdict={verdict} />
      )}
      {result.machine && <MachineReport machine={result.machine} />}
      <Thresholds result={result} />
      <Facts result={result} />
      <p className="muted small report-foot">
        Run {result.runId} · {new Date(result.startedAt).toLocaleString()} · measured{' '}
        {formatSeconds(result.durationSeconds)}
      </p>
    </section>
  );
});
