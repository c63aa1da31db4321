import { useCallback, useState } from 'react';
import type { ComparisonPlan } from '../../../shared/comparison.ts';
import type { RunRecord } from '../../../shared/history.ts';
import type { Scenario } from '../../../shared/scenario.ts';
import { targetLabel } from '../../../shared/scenario.ts';
import type { Palette } from '../../charts/palette.ts';
import { TargetStrip } from '../../components/TargetStrip.tsx';
import { ReportDetails, ReportSummary } from '../../report/Report.tsx';
import { ChartCard } from '../../components/ChartCard.tsx';
import { formatWhen } from '../../components/time.ts';
import { ComparisonReport } from '../Compare/ComparisonReport.tsx';
import { fileSlug } from '../../../shared/file-name.ts';
import { ResultExports } from '../Export/ResultExports.tsx';
import { timelineChart } from './timeline.ts';

interface RecordViewProps {
  record: RunRecord;
  onLoadScenario: (scenario: Scenario) => void;
  onLoadPlan: (plan: ComparisonPlan) => void;
}

/** A saved run shown again: its report (or the comparison's), and its exports. */
export function RecordView({ record, onLoadScenario, onLoadPlan }: RecordViewProps) {
  return (
    <section className="record" data-testid="history-record" data-kind={record.kind}>
      <header className="record__head card">
        <div>
          <h2 className="record__title" data-testid="record-name">
            {record.name}
          </h2>
          <p className="muted small">
            {formatWhen(record.createdAt)} ·{' '}
            <span className={`status status--${record.status}`}>{record.status}</span> · Trebuchet{' '}
            {record.appVersion}
            {record.generator && (
              <>
                {' '}
                · {record.generator.cpuCores} × {record.generator.cpuModel}
              </>
            )}
          </p>
        </div>
        <button
          type="button"
          className="btn btn--secondary btn--sm"
          data-testid="record-load"
          onClick={() =>
            record.kind === 'scenario' ? onLoadScenario(record.scenario) : onLoadPlan(record.plan)
          }
        >
          {record.kind === 'scenario' ? 'Open in the run editor' : 'Open in the comparison editor'}
        </button>
      </header>
      {record.kind === 'scenario' ? (
        <ScenarioRecord record={record} />
      ) : (
        <ComparisonReport plan={record.plan} outcomes={record.outcomes} status={record.status} />
      )}
    </section>
  );
}

function ScenarioRecord({ record }: { record: Extract<RunRecord, { kind: 'scenario' }> }) {
  const [shown, setShown] = useState(0);
  const results = record.results;
  const result = results[shown];
  const base = fileSlug(record.name, 'run');
  const throughput = useCallback((p: Palette) => timelineChart(results, 'rps', p), [results]);
  const latency = useCallback((p: Palette) => timelineChart(results, 'p99', p), [results]);
  if (!result)
    return <p className="muted">This run has no results (it was stopped before any target ran).</p>;
  return (
    <>
      <ResultExports results={results} name={record.name} json={record} />
      {results.length > 1 && (
        <TargetStrip
          targets={results.map((r) => ({ label: targetLabel(r.target) }))}
          shown={shown}
          onPick={setShown}
        />
      )}
      <ReportSummary result={result} />
      <div className="chart-grid">
        <ChartCard
          title="Throughput over time (req/s)"
          testId="chart-history-rps"
          fileName={`${base}-throughput`}
          build={throughput}
        />
        <ChartCard
          title="p99 latency over time (ms)"
          testId="chart-history-p99"
          fileName={`${base}-p99`}
          build={latency}
        />
      </div>
      <ReportDetails results={results} shown={shown} />
    </>
  );
}
