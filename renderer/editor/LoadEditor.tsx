import { Segmented, TextField } from '../components/fields.tsx';
import type { LimitKind, ScenarioDraft } from './draft.ts';

interface LoadEditorProps {
  draft: ScenarioDraft;
  onChange: (patch: Partial<Pick<ScenarioDraft, 'model' | 'closed' | 'open'>>) => void;
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

const LIMITS: readonly { value: LimitKind; label: string }[] = [
  { value: 'duration', label: 'Duration' },
  { value: 'requests', label: 'Request count' },
];

/** Load model and its parameters; field paths match the schema's. */
export function LoadEditor({ draft, onChange }: LoadEditorProps) {
  const c = draft.closed;
  const o = draft.open;
  const setClosed = (patch: Partial<ScenarioDraft['closed']>): void =>
    onChange({ closed: { ...c, ...patch } });
  const setOpen = (patch: Partial<ScenarioDraft['open']>): void => onChange({ open: { ...o, ...patch } });

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
      {draft.model === 'closed' ? (
        <>
          <div className="grid-2">
            <TextField
              label="Connections"
              path="load.connections"
              numeric
              value={c.connections}
              testId="load-connections"
              onChange={(connections) => setClosed({ connections })}
            />
            <TextField
              label="Pipelining"
              path="load.pipelining"
              numeric
              hint="requests in flight per connection"
              value={c.pipelining}
              testId="load-pipelining"
              onChange={(pipelining) => setClosed({ pipelining })}
            />
          </div>
          <Segmented
            label="Stop after"
            value={c.limitKind}
            options={LIMITS}
            testId="load-limit"
            onChange={(limitKind) => setClosed({ limitKind })}
          />
          <div className="grid-2">
            {c.limitKind === 'duration' ? (
              <TextField
                label="Duration"
                path="load.limit.seconds"
                numeric
                unit="s"
                value={c.seconds}
                testId="load-duration"
                onChange={(seconds) => setClosed({ seconds })}
              />
            ) : (
              <TextField
                label="Requests"
                path="load.limit.count"
                numeric
                value={c.requests}
                testId="load-requests"
                onChange={(requests) => setClosed({ requests })}
              />
            )}
            <TextField
              label="Rate cap"
              path="load.rate"
              numeric
              unit="req/s"
              placeholder="none"
              value={c.rate}
              testId="load-rate-cap"
              onChange={(rate) => setClosed({ rate })}
            />
          </div>
        </>
      ) : (
        <div className="grid-3">
          <TextField
            label="Rate"
            path="load.rate"
            numeric
            unit="req/s"
            value={o.rate}
            testId="load-rate"
            onChange={(rate) => setOpen({ rate })}
          />
          <TextField
            label="Duration"
            path="load.durationSeconds"
            numeric
            unit="s"
            value={o.seconds}
            testId="load-open-duration"
            onChange={(seconds) => setOpen({ seconds })}
          />
          <TextField
            label="In-flight cap"
            path="load.maxInFlight"
            numeric
            value={o.maxInFlight}
            testId="load-max-in-flight"
            onChange={(maxInFlight) => setOpen({ maxInFlight })}
          />
        </div>
      )}
    </div>
  );
}
