import {
  durationField,
  numberField,
  Segmented,
  TextFields,
  Toggle,
  type FieldSpec,
  type TextKeys,
} from './fields.tsx';
import { defaultStages, type LimitKind, type ScenarioDraft } from './draft.ts';
import { StagesEditor } from './StagesEditor.tsx';

interface LoadEditorProps {
  draft: ScenarioDraft;
  onChange: (patch: Partial<Pick<ScenarioDraft, 'model' | 'closed' | 'open' | 'staged' | 'stages'>>) => void;
}

const MODELS = [
  {
    value: 'closed',
    label: 'Closed',
    title: 'N connections, each sends its next request when the answer arrives (ab, wrk)',
  },
  {
    value: 'open',
    label: 'Open',
    title: 'Requests start on a fixed schedule whatever the server does (vegeta, wrk2)',
  },
] as const;

/**
 * What stops a closed run: "Time" (not "Duration", the name of the field it shows beside it,
 * so a screen reader or voice control never finds two "Duration"s) or a request count.
 */
export const LIMIT_CHOICES: readonly { value: LimitKind; label: string }[] = [
  { value: 'duration', label: 'Time' },
  { value: 'requests', label: 'Request count' },
];

type ClosedKey = TextKeys<ScenarioDraft['closed']>;
type OpenKey = TextKeys<ScenarioDraft['open']>;

const CONNECTIONS = numberField<ClosedKey>('connections', 'Connections', 'load.connections', {
  testId: 'load-connections',
});
const PIPELINING = numberField<ClosedKey>('pipelining', 'Pipelining', 'load.pipelining', {
  hint: 'requests in flight per connection',
  testId: 'load-pipelining',
});
const RATE_CAP = numberField<ClosedKey>('rate', 'Rate cap', 'load.rate', {
  unit: 'req/s',
  placeholder: 'none',
  testId: 'load-rate-cap',
});
const CLOSED_LIMITS: Record<LimitKind, readonly FieldSpec<ClosedKey>[]> = {
  duration: [
    durationField('seconds', 'Duration', 'load.limit.seconds', { testId: 'load-duration' }),
    RATE_CAP,
  ],
  requests: [numberField('requests', 'Requests', 'load.limit.count', { testId: 'load-requests' }), RATE_CAP],
};
const IN_FLIGHT_CAP = numberField<OpenKey>('maxInFlight', 'In-flight cap', 'load.maxInFlight', {
  testId: 'load-max-in-flight',
});
const OPEN_FIELDS: readonly FieldSpec<OpenKey>[] = [
  numberField('rate', 'Rate', 'load.rate', { unit: 'req/s', testId: 'load-rate' }),
  durationField('seconds', 'Duration', 'load.durationSeconds', { testId: 'load-open-duration' }),
  IN_FLIGHT_CAP,
];

/** Load model and its parameters; field paths match the schema's. */
export function LoadEditor({ draft, onChange }: LoadEditorProps) {
  const c = draft.closed;
  const o = draft.open;
  const setClosed = (patch: Partial<ScenarioDraft['closed']>): void =>
    onChange({ closed: { ...c, ...patch } });
  const setOpen = (patch: Partial<ScenarioDraft['open']>): void => onChange({ open: { ...o, ...patch } });
  const setStaged = (staged: boolean): void =>
    onChange(
      staged && draft.stages.length === 0
        ? { staged, stages: defaultStages(draft.model === 'closed' ? c.connections : o.rate) }
        : { staged },
    );

  return (
    <div className="load">
      <Segmented
        label="Model"
        value={draft.model}
        options={MODELS}
        testId="load-model"
        onChange={(model) => onChange({ model })}
      />
      <p className="muted small">
        {draft.model === 'closed'
          ? 'Connections send back to back, like ab and wrk: measures the most the server gives.'
          : 'Requests start on a fixed schedule, like vegeta: latency as users on a steady rate see it.'}
      </p>
      <Toggle
        label={draft.model === 'closed' ? 'Ramp the connections in stages' : 'Ramp the rate in stages'}
        checked={draft.staged}
        testId="load-staged"
        onChange={setStaged}
      />
      {draft.staged && (
        <StagesEditor stages={draft.stages} model={draft.model} onChange={(stages) => onChange({ stages })} />
      )}
      {draft.model === 'closed' && draft.staged && (
        <TextFields className="grid-2" fields={[PIPELINING, RATE_CAP]} values={c} onChange={setClosed} />
      )}
      {draft.model === 'closed' && !draft.staged && (
        <>
          <TextFields className="grid-2" fields={[CONNECTIONS, PIPELINING]} values={c} onChange={setClosed} />
          <Segmented
            label="Stop after"
            value={c.limitKind}
            options={LIMIT_CHOICES}
            testId="load-limit"
            onChange={(limitKind) => setClosed({ limitKind })}
          />
          <TextFields
            className="grid-2"
            fields={CLOSED_LIMITS[c.limitKind]}
            values={c}
            onChange={setClosed}
          />
        </>
      )}
      {draft.model === 'open' && (
        <TextFields
          className="grid-3"
          fields={draft.staged ? [IN_FLIGHT_CAP] : OPEN_FIELDS}
          values={o}
          onChange={setOpen}
        />
      )}
    </div>
  );
}
