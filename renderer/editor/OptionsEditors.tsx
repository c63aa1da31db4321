import {
  thresholdMetricSchema,
  type EngineChoice,
  type Protocol,
  type Threshold,
} from '../../shared/scenario.ts';
import { Segmented, SelectField, TextField, Toggle } from '../components/fields.tsx';
import { CloseIcon } from '../components/icons.tsx';
import { newThreshold, type ScenarioDraft, type ThresholdDraft } from './draft.ts';

type Patch = (patch: Partial<ScenarioDraft>) => void;

const PROTOCOLS: readonly { value: Protocol; label: string }[] = [
  { value: 'http1.1', label: 'HTTP/1.1' },
  { value: 'h2', label: 'HTTP/2' },
];

const ENGINES: readonly { value: EngineChoice; label: string }[] = [
  { value: 'auto', label: 'Auto (best for the load)' },
  { value: 'autocannon', label: 'autocannon' },
  { value: 'native', label: 'Native (undici / http2)' },
];

export function ConnectionEditor({ draft, onChange }: { draft: ScenarioDraft; onChange: Patch }) {
  return (
    <div className="stack">
      <Segmented
        label="Protocol"
        value={draft.protocol}
        options={PROTOCOLS}
        testId="opt-protocol"
        onChange={(protocol) => onChange({ protocol })}
      />
      <Toggle
        label="Keep-alive"
        checked={draft.keepAlive}
        hint={draft.keepAlive ? undefined : 'A new connection per request, like ab without -k.'}
        testId="opt-keepalive"
        onChange={(keepAlive) => onChange({ keepAlive })}
      />
      <div className="grid-2">
        <SelectField
          label="Engine"
          value={draft.engine}
          options={ENGINES}
          testId="opt-engine"
          onChange={(engine) => onChange({ engine })}
        />
        <TextField
          label="Timeout"
          path="options.timeoutMs"
          numeric
          unit="ms"
          value={draft.timeoutMs}
          testId="opt-timeout"
          onChange={(timeoutMs) => onChange({ timeoutMs })}
        />
      </div>
    </div>
  );
}

export function TlsEditor({ draft, onChange }: { draft: ScenarioDraft; onChange: Patch }) {
  const tls = draft.tls;
  const set = (patch: Partial<ScenarioDraft['tls']>): void => onChange({ tls: { ...tls, ...patch } });
  return (
    <div className="stack">
      <Toggle
        label="Verify certificate"
        checked={tls.verify}
        hint={
          tls.verify
            ? undefined
            : 'Self-signed, expired and wrong-host certificates are accepted; the report says so.'
        }
        testId="opt-tls-verify"
        onChange={(verify) => set({ verify })}
      />
      <TextField
        label="Extra CA file (PEM)"
        path="options.tls.caFile"
        placeholder="/etc/ssl/my-ca.pem"
        value={tls.caFile}
        testId="opt-tls-ca"
        onChange={(caFile) => set({ caFile })}
      />
      <TextField
        label="Server name (SNI)"
        path="options.tls.servername"
        placeholder="the URL's host"
        value={tls.servername}
        testId="opt-tls-servername"
        onChange={(servername) => set({ servername })}
      />
    </div>
  );
}

export function MeasurementEditor({ draft, onChange }: { draft: ScenarioDraft; onChange: Patch }) {
  return (
    <div className="grid-3">
      <TextField
        label="Warm-up"
        path="options.warmupSeconds"
        numeric
        unit="s"
        value={draft.warmupSeconds}
        testId="opt-warmup"
        onChange={(warmupSeconds) => onChange({ warmupSeconds })}
      />
      <TextField
        label="Sample every"
        path="options.sampleIntervalMs"
        numeric
        unit="ms"
        value={draft.sampleIntervalMs}
        testId="opt-sample-interval"
        onChange={(sampleIntervalMs) => onChange({ sampleIntervalMs })}
      />
      <TextField
        label="SLO"
        path="options.sloMs"
        numeric
        unit="ms"
        placeholder="off"
        value={draft.sloMs}
        testId="opt-slo"
        onChange={(sloMs) => onChange({ sloMs })}
      />
    </div>
  );
}

const METRICS = thresholdMetricSchema.options.map((m) => ({
  value: m,
  label: m === 'errorRate' ? 'error rate (%)' : m === 'rps' ? 'req/s' : `${m} (ms)`,
}));
const OPS: readonly { value: Threshold['op']; label: string }[] = [
  { value: '<', label: '<' },
  { value: '<=', label: '≤' },
  { value: '>', label: '>' },
  { value: '>=', label: '≥' },
];

export function ThresholdsEditor({ draft, onChange }: { draft: ScenarioDraft; onChange: Patch }) {
  const list = draft.thresholds;
  const setAt = (i: number, patch: Partial<ThresholdDraft>): void =>
    onChange({ thresholds: list.map((t, k) => (k === i ? { ...t, ...patch } : t)) });
  return (
    <div className="stack">
      {list.length === 0 && (
        <p className="muted small">Pass/fail rules checked after the run, e.g. p99 &lt; 50 ms.</p>
      )}
      {list.map((t, i) => (
        <div className="threshold-row" key={t.key} data-testid={`threshold-${i}`}>
          <SelectField
            label="Metric"
            value={t.metric}
            options={METRICS}
            onChange={(metric) => setAt(i, { metric })}
          />
          <SelectField
            label="Rule"
            value={t.op}
            options={OPS}
            className="threshold-row__op"
            onChange={(op) => setAt(i, { op })}
          />
          <TextField
            label="Value"
            path={`options.thresholds.${i}.value`}
            numeric
            value={t.value}
            onChange={(value) => setAt(i, { value })}
          />
          <button
            type="button"
            className="icon-btn threshold-row__remove"
            aria-label="Remove threshold"
            title="Remove threshold"
            onClick={() => onChange({ thresholds: list.filter((_, k) => k !== i) })}
          >
            <CloseIcon />
          </button>
        </div>
      ))}
      <button
        type="button"
        className="link-btn"
        data-testid="threshold-add"
        onClick={() => onChange({ thresholds: [...list, newThreshold()] })}
      >
        + Add threshold
      </button>
    </div>
  );
}
