import { memo } from 'react';
import {
  durationField,
  numberField,
  Segmented,
  TextField,
  TextFields,
  Toggle,
  type FieldSpec,
  type TextKeys,
} from '../../editor/fields.tsx';
import { stepLengthNeeds } from '../../../shared/capacity/step-length.ts';
import { durationOrText, numberOrText } from '../../editor/draft.ts';
import { IssuesContext, useTouchedIssues } from '../../editor/issues.ts';
import { TlsEditor, WorkersField } from '../../editor/OptionsEditors.tsx';
import { urlFix } from '../../editor/fieldFixes.ts';
import { ServersEditor } from '../../editor/ServersEditor.tsx';
import { newCapacityTarget, type CapacityCheck, type CapacityDraft } from './capacityDraft.ts';

type Key = TextKeys<CapacityDraft>;

const GOAL_FIELDS: readonly FieldSpec<Key>[] = [
  numberField('p99Ms', 'p99 goal', 'search.goal.p99Ms', {
    unit: 'ms',
    hint: 'a step with a slower p99 broke the goal',
    testId: 'capacity-p99',
  }),
  numberField('errorPercent', 'Error limit', 'search.goal.errorPercent', {
    unit: '%',
    hint: 'errors, or non-2xx, above this broke it',
    testId: 'capacity-errors',
  }),
];

const STEP_FIELDS: readonly FieldSpec<Key>[] = [
  numberField('startRate', 'Start rate', 'search.startRate', {
    unit: 'req/s',
    testId: 'capacity-start-rate',
  }),
  numberField('maxRate', 'Top rate', 'search.maxRate', { unit: 'req/s', testId: 'capacity-max-rate' }),
  durationField('stepSeconds', 'Each step', 'search.stepSeconds', { testId: 'capacity-step' }),
  durationField('warmupSeconds', 'Warm-up per step', 'search.warmupSeconds', { testId: 'capacity-warmup' }),
  numberField('maxInFlight', 'Max in flight', 'maxInFlight', {
    hint: 'unanswered requests at most',
    testId: 'capacity-max-in-flight',
  }),
];

interface CapacityEditorProps {
  draft: CapacityDraft;
  check: CapacityCheck;
  onChange: (change: (d: CapacityDraft) => CapacityDraft) => void;
  /** Show every message (a search was attempted), touched or not. */
  revealed: boolean;
  disabled: boolean;
}

/** The servers to search, the goal, and how the search steps. */
export const CapacityEditor = memo(function CapacityEditor({
  draft,
  check,
  onChange,
  revealed,
  disabled,
}: CapacityEditorProps) {
  const { issues } = useTouchedIssues(check.issues, revealed);
  const set = (patch: Partial<CapacityDraft>) => onChange((d) => ({ ...d, ...patch }));
  const needsTls = draft.targets.some((t) => t.url.trim().toLowerCase().startsWith('https:'));
  const needs = stepLengthNeeds({
    stepSeconds: Number(durationOrText(draft.stepSeconds, 's')),
    startRate: Number(numberOrText(draft.startRate)),
  });
  return (
    <IssuesContext.Provider value={issues}>
      <fieldset className="editor capacity-editor" disabled={disabled} data-testid="capacity-editor">
        <TextField
          label="Search name"
          path="name"
          value={draft.name}
          testId="capacity-name"
          onChange={(name) => set({ name })}
        />
        <ServersEditor
          title="Servers"
          noun="Server"
          testPrefix="capacity"
          targets={draft.targets}
          onChange={(change) => onChange((d) => ({ ...d, targets: change(d.targets) }))}
          newTarget={newCapacityTarget}
          listHint="each step sends these requests to this URL's server (path and query kept)"
          urls={(t, i, setTarget) => (
            <TextField
              label="URL"
              context={`Server ${i + 1}`}
              path={`targets.${i}.url`}
              placeholder="http://127.0.0.1:8080/"
              value={t.url}
              testId={`capacity-target-url-${i}`}
              fixOf={urlFix}
              onChange={(url) => setTarget({ url })}
            />
          )}
          after={(t, i) =>
            t.rest?.protocol && (
              <p className="muted small" data-testid={`capacity-target-protocol-${i}`}>
                Searched over {t.rest.protocol === 'h2' ? 'HTTP/2' : 'HTTP/1.1'} (from the comparison),
                whatever the protocol below.
              </p>
            )
          }
        />
        <div className="plan-section">
          <h3 className="subhead">Goal</h3>
          <TextFields className="grid-2" fields={GOAL_FIELDS} values={draft} onChange={set} />
        </div>
        <div className="plan-section">
          <h3 className="subhead">Steps</h3>
          <p className="muted small">
            Open-model steps from the start rate, doubling while the goal holds, then halving the gap between
            the highest rate that held and the lowest that broke until they are within 5%.
          </p>
          <TextFields className="grid-2" fields={STEP_FIELDS} values={draft} onChange={set} />
          {needs && (
            <p className="muted small" data-testid="capacity-step-needs">
              {needs}
            </p>
          )}
          <Segmented
            label="Protocol"
            value={draft.protocol}
            options={[
              { value: 'http1.1', label: 'HTTP/1.1' },
              { value: 'h2', label: 'HTTP/2', title: 'over TLS for https://, h2c for http://' },
            ]}
            testId="capacity-protocol"
            onChange={(protocol) => set({ protocol })}
          />
          <WorkersField
            value={draft.workers}
            testId="capacity-workers"
            onChange={(workers) => set({ workers })}
          />
          <Toggle label="Keep-alive" checked={draft.keepAlive} onChange={(keepAlive) => set({ keepAlive })} />
        </div>
        {needsTls && (
          <div className="plan-section" data-testid="capacity-tls">
            <h3 className="subhead">TLS</h3>
            <TlsEditor tls={draft.tls} onChange={(tls) => set({ tls })} testIdPrefix="capacity-tls" />
          </div>
        )}
      </fieldset>
    </IssuesContext.Provider>
  );
});
