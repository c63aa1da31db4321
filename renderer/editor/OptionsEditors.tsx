import {
  thresholdMetricSchema,
  type EngineChoice,
  type Protocol,
  type Threshold,
  type TlsVersion,
} from '../../shared/scenario.ts';
import {
  numberField,
  RemoveButton,
  Segmented,
  SelectField,
  TextField,
  textField,
  TextFields,
  Toggle,
  type FieldSpec,
  type TextKeys,
} from '../components/fields.tsx';
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

type TlsKey = TextKeys<ScenarioDraft['tls']>;

const TLS_MIN_VERSIONS: readonly { value: TlsVersion; label: string }[] = [
  { value: 'TLSv1.2', label: 'TLS 1.2 (Node default)' },
  { value: 'TLSv1.3', label: 'TLS 1.3' },
  { value: 'TLSv1.1', label: 'TLS 1.1 (obsolete)' },
  { value: 'TLSv1', label: 'TLS 1.0 (obsolete)' },
];

const TLS_FIELDS: readonly FieldSpec<TlsKey>[] = [
  textField('caFile', 'Extra CA file (PEM)', 'options.tls.caFile', {
    placeholder: '/etc/ssl/my-ca.pem',
    testId: 'opt-tls-ca',
  }),
  textField('servername', 'Server name (SNI)', 'options.tls.servername', {
    placeholder: "the URL's host",
    testId: 'opt-tls-servername',
  }),
];

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
      <TextFields fields={TLS_FIELDS} values={tls} onChange={set} />
      <SelectField
        label="Oldest TLS version"
        value={tls.minVersion}
        options={TLS_MIN_VERSIONS}
        testId="opt-tls-min-version"
        onChange={(minVersion) => set({ minVersion })}
      />
    </div>
  );
}

const MEASUREMENT_FIELDS: readonly FieldSpec<TextKeys<ScenarioDraft>>[] = [
  numberField('warmupSeconds', 'Warm-up', 'options.warmupSeconds', { unit: 's', testId: 'opt-warmup' }),
  numberField('sampleIntervalMs', 'Sample every', 'options.sampleIntervalMs', {
    unit: 'ms',
    testId: 'opt-sample-interval',
  }),
  numberField('sloMs', 'SLO', 'options.sloMs', { unit: 'ms', placeholder: 'off', testId: 'opt-slo' }),
];

export function MeasurementEditor({ draft, onChange }: { draft: ScenarioDraft; onChange: Patch }) {
  return <TextFields className="grid-3" fields={MEASUREMENT_FIELDS} values={draft} onChange={onChange} />;
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
          <RemoveButton
            label="Remove threshold"
            className="threshold-row__remove"
            onClick={() => onChange({ thresholds: list.filter((_, k) => k !== i) })}
          />
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
