import { memo } from 'react';
import { formatCount } from '../../shared/figures/units.ts';
import { workersSummary, type ScenarioDraft } from './draft.ts';
import { fieldPaths } from './fieldPaths.ts';
import { IssuesContext } from './issues.ts';
import { LoadEditor } from './LoadEditor.tsx';
import { ConnectionEditor, MeasurementEditor, ThresholdsEditor, TlsEditor } from './OptionsEditors.tsx';
import { Section } from './Section.tsx';
import { TargetsEditor } from './TargetsEditor.tsx';
import type { ScenarioDraftState } from './useScenarioDraft.ts';
import './editor.css';

const hasIssueUnder = (issues: ReadonlyMap<string, string>, prefixes: readonly string[]): boolean =>
  [...issues.keys()].some((path) => prefixes.some((p) => path === p || path.startsWith(`${p}.`)));

function loadSummary(d: ScenarioDraft): string {
  if (d.model === 'open') return `open · ${d.open.rate} req/s · ${d.open.seconds} s`;
  const limit = d.closed.limitKind === 'duration' ? `${d.closed.seconds} s` : `${d.closed.requests} requests`;
  return `closed · ${d.closed.connections} connections · ${limit}`;
}

/** The whole scenario form. Every message comes from the shared schema, next to its field. */
export const ScenarioEditor = memo(function ScenarioEditor({
  state,
  disabled,
}: {
  state: ScenarioDraftState;
  disabled: boolean;
}) {
  const { draft, update, check, issues } = state;
  const patch = (p: Partial<ScenarioDraft>): void => update((d) => ({ ...d, ...p }));
  const shown = fieldPaths(draft);
  const unplaced = [...check.issues].filter(([path]) => !shown.has(path));
  const connectionSummary = `${draft.protocol === 'h2' ? 'HTTP/2' : 'HTTP/1.1'} · ${draft.keepAlive ? 'keep-alive' : 'no keep-alive'} · ${formatCount(Number(draft.timeoutMs) || 0)} ms timeout · ${workersSummary(draft.workers)}`;
  const tlsSummary = draft.tls.verify ? 'verify certificates' : 'not verified';
  const measureSummary = [
    Number(draft.warmupSeconds) > 0 ? `${draft.warmupSeconds} s warm-up` : 'no warm-up',
    draft.sloMs.trim() ? `SLO ${draft.sloMs} ms` : null,
    draft.thresholds.length
      ? `${draft.thresholds.length} threshold${draft.thresholds.length > 1 ? 's' : ''}`
      : null,
  ]
    .filter(Boolean)
    .join(' · ');

  return (
    <IssuesContext.Provider value={issues}>
      <fieldset className="editor" disabled={disabled} data-testid="scenario-editor">
        <legend className="visually-hidden">Scenario</legend>
        <Section
          title="Targets"
          testId="section-targets"
          forceOpen={hasIssueUnder(check.issues, ['targets'])}
        >
          <TargetsEditor targets={draft.targets} onChange={(targets) => patch({ targets })} />
        </Section>
        <Section
          title="Load"
          summary={loadSummary(draft)}
          testId="section-load"
          forceOpen={hasIssueUnder(check.issues, ['load'])}
        >
          <LoadEditor draft={draft} onChange={patch} />
        </Section>
        <Section
          title="Connection"
          summary={connectionSummary}
          defaultOpen={false}
          testId="section-connection"
          forceOpen={hasIssueUnder(check.issues, ['options.timeoutMs', 'options.workers'])}
        >
          <ConnectionEditor draft={draft} onChange={patch} />
        </Section>
        <Section
          title="TLS"
          summary={tlsSummary}
          defaultOpen={false}
          testId="section-tls"
          forceOpen={hasIssueUnder(check.issues, ['options.tls'])}
        >
          <TlsEditor tls={draft.tls} onChange={(tls) => patch({ tls })} testIdPrefix="opt-tls" />
        </Section>
        <Section
          title="Measurement"
          summary={measureSummary}
          defaultOpen={false}
          testId="section-measurement"
          forceOpen={hasIssueUnder(check.issues, [
            'options.warmupSeconds',
            'options.sampleIntervalMs',
            'options.sloMs',
            'options.thresholds',
          ])}
        >
          <MeasurementEditor draft={draft} onChange={patch} />
          <h4 className="subhead">Thresholds</h4>
          <ThresholdsEditor draft={draft} onChange={patch} />
        </Section>
        {unplaced.length > 0 && (
          <ul className="form-issues" data-testid="form-issues">
            {unplaced.map(([path, message]) => (
              <li key={path}>{path ? `${path}: ${message}` : message}</li>
            ))}
          </ul>
        )}
      </fieldset>
    </IssuesContext.Provider>
  );
});
