import { useCallback, useMemo, useState } from 'react';
import type { RunResult } from '../../shared/model/result.ts';
import { targetLabel } from '../../shared/model/scenario.ts';
import type { Palette } from '../charts/palette.ts';
import { TargetStrip } from '../components/TargetStrip.tsx';
import { ChartCard } from '../components/ChartCard.tsx';
import { aboutResults } from '../charts/chartSubject.ts';
import { ResultExports } from '../export/ResultExports.tsx';
import { timelineChart } from './timeline.ts';
import { ReportDetails, ReportSummary } from './Report.tsx';
import { ServerChartCard } from './ServerChartCard.tsx';
import { serverChartsOf } from './serverCharts.ts';
import { machineTimelineChart } from './machineChart.ts';
import { MACHINE_CHART } from '../../shared/machine/charts.ts';

interface RunReportProps {
  /** The run's results, one per target (a comparison cell's run has one). */
  results: readonly RunResult[];
  /** The run's name, for file names. */
  name: string;
}

/**
 * A finished run's whole report, as the Run tab shows it: summary, throughput and latency
 * over time, percentiles, connection times, status codes, error set, facts, and exports.
 * Shown for a saved run in History and for every cell run of a comparison.
 */
export function RunReport({ results, name }: RunReportProps) {
  const [shown, setShown] = useState(0);
  // A list of another run (a different cell) may be shorter than the tab picked before.
  const at = results[shown] ? shown : 0;
  const result = results[at];
  const about = useMemo(() => aboutResults(results), [results]);
  const throughput = useCallback((p: Palette) => timelineChart(results, 'rps', p), [results]);
  const latency = useCallback((p: Palette) => timelineChart(results, 'p99', p), [results]);
  const serverCharts = useMemo(() => serverChartsOf(results), [results]);
  const machine = useCallback((p: Palette) => machineTimelineChart(results[at]!, p), [results, at]);
  if (!result)
    return <p className="muted">This run has no results (it was stopped before any target ran).</p>;
  return (
    <>
      <ResultExports results={results} name={name} />
      {results.length > 1 && (
        <TargetStrip
          targets={results.map((r) => ({ label: targetLabel(r.target) }))}
          shown={at}
          onPick={setShown}
        />
      )}
      <ReportSummary result={result} />
      <div className="chart-grid">
        <ChartCard
          title="Throughput over time (req/s)"
          testId="chart-history-rps"
          slug="throughput"
          about={about}
          build={throughput}
        />
        <ChartCard
          title="p99 latency over time (ms)"
          testId="chart-history-p99"
          slug="p99-latency"
          about={about}
          build={latency}
        />
        {serverCharts.map((chart) => (
          <ServerChartCard key={chart.id} results={results} chart={chart} about={about} />
        ))}
        {result.machine && (
          <ChartCard
            title={`${MACHINE_CHART.title} over time (${MACHINE_CHART.unit})`}
            testId="chart-history-machine"
            slug={MACHINE_CHART.id}
            about={about}
            build={machine}
          />
        )}
      </div>
      <ReportDetails results={results} shown={at} />
    </>
  );
}
