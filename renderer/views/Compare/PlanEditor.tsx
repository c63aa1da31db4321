import { memo } from 'react';
import { PROTOCOL_VARIANTS, type ProtocolVariant } from '../../../shared/comparison/plan.ts';
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
import { IssuesContext, useTouchedIssues } from '../../editor/issues.ts';
import { MonitorField } from '../../editor/MonitorField.tsx';
import { CheckStatusToggle, TlsEditor, WorkersField } from '../../editor/OptionsEditors.tsx';
import { urlFix } from '../../editor/fieldFixes.ts';
import { LIMIT_CHOICES } from '../../editor/LoadEditor.tsx';
import { ServersEditor } from '../../editor/ServersEditor.tsx';
import { newPlanTarget, parseLevels, type PlanCheck, type PlanDraft } from './planDraft.ts';

interface PlanEditorProps {
  draft: PlanDraft;
  check: PlanCheck;
  onChange: (change: (d: PlanDraft) => PlanDraft) => void;
  /** Show every message (a run was attempted), touched or not. */
  revealed: boolean;
  disabled: boolean;
}

const PROTOCOL_HINTS: Record<ProtocolVariant, string> = {
  http: 'HTTP/1.1 over TCP',
  https: 'HTTP/1.1 over TLS',
  h2: 'HTTP/2 over TLS (ALPN)',
};

const URL_PLACEHOLDERS: Record<ProtocolVariant, string> = {
  http: 'http://127.0.0.1:8080/',
  https: 'https://127.0.0.1:8443/',
  h2: 'same as https',
};

type PlanKey = TextKeys<PlanDraft>;

/** How each cell runs, after its limit (a duration, or a request count for the closed model). */
const CELL_FIELDS: readonly FieldSpec<PlanKey>[] = [
  numberField('repetitions', 'Repetitions', 'repetitions', {
    hint: '2 or more show the run-to-run spread',
    testId: 'plan-repetitions',
  }),
  numberField('warmupSeconds', 'Warm-up per cell', 'options.warmupSeconds', {
    unit: 's',
    testId: 'plan-warmup',
  }),
  numberField('pauseSeconds', 'Pause between cells', 'pauseSeconds', { unit: 's', testId: 'plan-pause' }),
  numberField('sloMs', 'SLO', 'options.sloMs', {
    unit: 'ms',
    placeholder: 'none',
    hint: 'slower responses count as failed',
    testId: 'plan-slo',
  }),
];
const BY_DURATION = [
  durationField<PlanKey>('seconds', 'Duration', 'load.limit.seconds', { testId: 'plan-duration' }),
  ...CELL_FIELDS,
];
const BY_COUNT = [
  numberField<PlanKey>('requests', 'Requests', 'load.limit.count', { testId: 'plan-requests' }),
  ...CELL_FIELDS,
];

/** The comparison's matrix: targets x protocols x levels x repetitions, and how each cell runs. */
export const PlanEditor = memo(function PlanEditor({
  draft,
  check,
  onChange,
  revealed,
  disabled,
}: PlanEditorProps) {
  const { issues, touched } = useTouchedIssues(check.issues, revealed);
  const set = (patch: Partial<PlanDraft>) => onChange((d) => ({ ...d, ...patch }));
  const toggleProtocol = (p: ProtocolVariant, on: boolean) =>
    onChange((d) => ({
      ...d,
      protocols: on
        ? PROTOCOL_VARIANTS.filter((q) => q === p || d.protocols.includes(q))
        : d.protocols.filter((q) => q !== p),
    }));
  const levelCount = parseLevels(draft.levels).length;
  // Certificates matter to https and h2 cells only.
  const needsTls = draft.protocols.some((p) => p !== 'http');
  const reps = Number(draft.repetitions);
  const runs =
    draft.targets.length * draft.protocols.length * levelCount * (Number.isInteger(reps) ? reps : 0);
  const protocolIssue = issues.messageFor('protocols');
  const otherIssues = check.ok
    ? []
    : check.list.filter(
        (i) => i.path === '' || i.path === 'targets' || /^targets\.\d+\.(headers|body|method)/.test(i.path),
      );

  return (
    <IssuesContext.Provider value={issues}>
      <fieldset className="editor plan-editor" disabled={disabled} data-testid="plan-editor">
        <TextField
          label="Comparison name"
          path="name"
          value={draft.name}
          testId="plan-name"
          onChange={(name) => set({ name })}
        />

        <div className="plan-section">
          <h3 className="subhead">Protocols</h3>
          <div className="check-row" role="group" aria-label="Protocols">
            {PROTOCOL_VARIANTS.map((p) => (
              <label
                key={p}
                className={`check-chip${draft.protocols.includes(p) ? ' is-on' : ''}`}
                title={PROTOCOL_HINTS[p]}
              >
                <input
                  type="checkbox"
                  checked={draft.protocols.includes(p)}
                  data-testid={`plan-protocol-${p}`}
                  onChange={(e) => toggleProtocol(p, e.target.checked)}
                />
                {p}
              </label>
            ))}
          </div>
          {protocolIssue && (
            <p className="field__error" role="alert">
              {protocolIssue}
            </p>
          )}
        </div>

        <ServersEditor
          title="Targets"
          noun="Target"
          testPrefix="plan"
          targets={draft.targets}
          onChange={(change) => onChange((d) => ({ ...d, targets: change(d.targets) }))}
          newTarget={newPlanTarget}
          listHint="each cell sends these requests to its own URL's server (path and query kept)"
          urls={(t, i, setTarget) =>
            draft.protocols.map((p) => (
              <TextField
                key={p}
                label={`${p} URL`}
                context={`Target ${i + 1}`}
                path={`targets.${i}.urls.${p}`}
                placeholder={URL_PLACEHOLDERS[p]}
                value={t.urls[p]}
                testId={`plan-target-${i}-${p}`}
                fixOf={urlFix}
                onChange={(url) => setTarget({ urls: { ...t.urls, [p]: url } })}
              />
            ))
          }
          after={(t, i, setTarget) => (
            <MonitorField
              value={t.monitor}
              path={`targets.${i}.monitor`}
              testId={`plan-target-${i}-monitor`}
              onChange={(monitor) => setTarget({ monitor })}
            />
          )}
        />

        <div className="plan-section">
          <h3 className="subhead">Load per cell</h3>
          <Segmented
            label="Model"
            value={draft.model}
            options={[
              {
                value: 'closed',
                label: 'Closed',
                title: 'N connections back to back (ab, wrk): levels are connections',
              },
              { value: 'open', label: 'Open', title: 'A fixed request rate (vegeta): levels are rates' },
            ]}
            testId="plan-model"
            onChange={(model) => set({ model })}
          />
          <TextField
            label={draft.model === 'closed' ? 'Concurrency levels' : 'Rate levels'}
            path="levels"
            unit={draft.model === 'closed' ? 'conns' : 'req/s'}
            hint="one cell per level, separated by commas: 10, 100, 1000"
            value={draft.levels}
            testId="plan-levels"
            onChange={(levels) => set({ levels })}
          />
          {draft.model === 'closed' && (
            <Segmented
              label="Each cell stops after"
              value={draft.limitKind}
              options={LIMIT_CHOICES}
              testId="plan-limit"
              onChange={(limitKind) => set({ limitKind })}
            />
          )}
          <TextFields
            className="grid-2"
            fields={draft.model === 'open' || draft.limitKind === 'duration' ? BY_DURATION : BY_COUNT}
            values={draft}
            onChange={set}
          />
          <WorkersField
            value={draft.workers}
            testId="plan-workers"
            onChange={(workers) => set({ workers })}
          />
          <Toggle label="Keep-alive" checked={draft.keepAlive} onChange={(keepAlive) => set({ keepAlive })} />
          <CheckStatusToggle
            checked={draft.checkStatus}
            testId="plan-check-status"
            onChange={(checkStatus) => set({ checkStatus })}
          />
        </div>

        {needsTls && (
          <div className="plan-section" data-testid="plan-tls">
            <h3 className="subhead">TLS</h3>
            <TlsEditor tls={draft.tls} onChange={(tls) => set({ tls })} testIdPrefix="plan-tls" />
          </div>
        )}

        <p className="plan-summary" data-testid="plan-summary">
          {draft.targets.length} target{draft.targets.length === 1 ? '' : 's'} × {draft.protocols.length}{' '}
          protocol
          {draft.protocols.length === 1 ? '' : 's'} × {levelCount} level{levelCount === 1 ? '' : 's'} ×{' '}
          {Number.isInteger(reps) ? reps : '?'} repetition{reps === 1 ? '' : 's'} ={' '}
          <strong>{runs} runs</strong>, one after another
        </p>
        {otherIssues.length > 0 && (revealed || touched) && (
          <ul className="form-issues" role="alert">
            {otherIssues.map((i) => (
              <li key={`${i.path}|${i.message}`}>{i.path ? `${i.path}: ${i.message}` : i.message}</li>
            ))}
          </ul>
        )}
      </fieldset>
    </IssuesContext.Provider>
  );
});
