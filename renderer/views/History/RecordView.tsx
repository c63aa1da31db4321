import { useState } from 'react';
import type { TrebuchetApi } from '../../../shared/contract/api.ts';
import type { CapacityPlan } from '../../../shared/capacity/plan.ts';
import { capacityReports } from '../../../shared/capacity/report.ts';
import type { ComparisonPlan } from '../../../shared/comparison/plan.ts';
import type { HistoryRecord } from '../../../shared/records/history.ts';
import { jsonItemOf, recordExport } from '../../../shared/export/record.ts';
import { downloadItem } from '../../lib/download.ts';
import { whatRan } from '../../../shared/records/kinds.ts';
import { recordStatusText } from '../../../shared/model/interruption.ts';
import type { Scenario } from '../../../shared/model/scenario.ts';
import { RunReport } from '../../report/RunReport.tsx';
import { formatWhen } from '../../components/time.ts';
import { useRevealWhenStacked } from '../../components/useRevealWhenStacked.ts';
import { CapacityResults } from '../Capacity/CapacityResults.tsx';
import { ComparisonResults } from '../Compare/ComparisonResults.tsx';
import { VsBaseline } from '../../report/VsBaseline.tsx';

interface RecordViewProps {
  api: TrebuchetApi;
  record: HistoryRecord;
  /** The baseline this run is shown against (shared/records/baselines.ts baselineOf), if any. */
  baselineId: string | null;
  onOpenDiff: (baseId: string, id: string) => void;
  onLoadScenario: (scenario: Scenario) => void;
  onLoadPlan: (plan: ComparisonPlan) => void;
  onLoadCapacity: (plan: CapacityPlan) => void;
}

const EDITORS: Record<HistoryRecord['kind'], string> = {
  run: 'Open in the run editor',
  comparison: 'Open in the comparison editor',
  capacity: 'Open in the capacity editor',
};

/** A saved run shown again: its report (or the comparison's, or the capacity search's), and its exports. */
export function RecordView({
  api,
  record,
  baselineId,
  onOpenDiff,
  onLoadScenario,
  onLoadPlan,
  onLoadCapacity,
}: RecordViewProps) {
  const reveal = useRevealWhenStacked<HTMLElement>(record.id);
  const load = (): void => {
    switch (record.kind) {
      case 'run':
        return onLoadScenario(record.scenario);
      case 'comparison':
        return onLoadPlan(record.plan);
      case 'capacity':
        return onLoadCapacity(record.plan);
    }
  };
  return (
    <section ref={reveal} className="record" data-testid="history-record" data-kind={record.kind}>
      <header className="record__head card">
        <div>
          <h2 className="record__title" data-testid="record-name">
            {record.name}
          </h2>
          <p className="record__ran" data-testid="record-ran">
            {whatRan(record)}
          </p>
          <p className="muted small">
            {formatWhen(record.createdAt)} ·{' '}
            <span className={`status status--${record.status}`} data-testid="record-status">
              {recordStatusText(record)}
            </span>{' '}
            · Trebuchet {record.appVersion}
            {record.generator && (
              <>
                {' '}
                · {record.generator.cpuCores} × {record.generator.cpuModel}
              </>
            )}
          </p>
        </div>
        <div className="record__actions">
          <button
            type="button"
            className="btn btn--secondary btn--sm"
            title="Save this result as the JSON file its command's --json writes"
            data-testid="record-save-json"
            onClick={() => {
              const bundle = recordExport(record);
              downloadItem(bundle, jsonItemOf(bundle));
            }}
          >
            Save as JSON
          </button>
          <button
            type="button"
            className="btn btn--secondary btn--sm"
            data-testid="record-load"
            onClick={load}
          >
            {EDITORS[record.kind]}
          </button>
        </div>
      </header>
      {baselineId !== null && (
        <VsBaseline
          key={`${baselineId}|${record.id}`}
          api={api}
          baseId={baselineId}
          id={record.id}
          onOpenDiff={() => onOpenDiff(baselineId, record.id)}
        />
      )}
      {record.kind === 'run' && <RunReport results={record.results} name={record.name} />}
      {record.kind === 'comparison' && <SavedComparison key={record.id} record={record} />}
      {record.kind === 'capacity' && (
        <CapacityResults
          key={record.id}
          result={record}
          reports={capacityReports(record.plan, record.steps, null)}
          running={null}
          name={record.name}
        />
      )}
    </section>
  );
}

/** A saved comparison's report; each of its cells opens its run. */
function SavedComparison({ record }: { record: Extract<HistoryRecord, { kind: 'comparison' }> }) {
  const [opened, setOpened] = useState<number | null>(null);
  return (
    <ComparisonResults
      plan={record.plan}
      outcomes={record.outcomes}
      status={record.status}
      opened={opened}
      onOpen={setOpened}
    />
  );
}
