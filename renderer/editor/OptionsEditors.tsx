import { thresholdMetricSchema, type Threshold, type TlsVersion } from '../../shared/model/scenario.ts';
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
} from './fields.tsx';
import { ENGINES, PROTOCOLS } from './choices.ts';
import { newThreshold, type ScenarioDraft, type ThresholdDraft, type TlsDraft } from './draft.ts';
import { PickFileField } from './PickFileField.tsx';
import { pickCa } from './pickedFile.ts';
import { useFileAccess, type FileAccess } from './useFileAccess.ts';

type Patch = (patch: Partial<ScenarioDraft>) => void;

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
      <CheckStatusToggle
        checked={draft.checkStatus}
        testId="opt-check-status"
        onChange={(checkStatus) => onChange({ checkStatus })}
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
        <WorkersField
          value={draft.workers}
          testId="opt-workers"
          onChange={(workers) => onChange({ workers })}
        />
      </div>
    </div>
  );
}

/**
 * Engine worker threads (options.workers, the CLI's -t) of a run (Run tab, "opt-workers"),
 * of every cell of a comparison ("plan-workers") or of every step of a capacity search
 * ("capacity-workers"); the text goes through draft.ts workersInput.
 */
/** The pre-flight's status check (options.checkStatus), as the Run and Compare editors offer it. */
export function CheckStatusToggle({
  checked,
  testId,
  onChange,
}: {
  checked: boolean;
  testId: string;
  onChange: (checked: boolean) => void;
}) {
  return (
    <Toggle
      label="Stop on an error status before the load"
      checked={checked}
      hint={
        checked ? undefined : 'Off: a URL answering 404 (or any status outside 2xx/3xx) is measured as it is.'
      }
      testId={testId}
      onChange={onChange}
    />
  );
}

export function WorkersField({
  value,
  testId,
  onChange,
}: {
  value: string;
  testId: 'opt-workers' | 'plan-workers' | 'capacity-workers';
  onChange: (workers: string) => void;
}) {
  return (
    <TextField
      label="Workers"
      path="options.workers"
      value={value}
      placeholder="auto"
      hint="engine threads, like wrk -t; auto: the cores, less one for a server on this machine"
      testId={testId}
      onChange={onChange}
    />
  );
}

type TlsKey = TextKeys<TlsDraft>;

const TLS_MIN_VERSIONS: readonly { value: TlsVersion; label: string }[] = [
  { value: 'TLSv1.2', label: 'TLS 1.2 (Node default)' },
  { value: 'TLSv1.3', label: 'TLS 1.3' },
  { value: 'TLSv1.1', label: 'TLS 1.1 (obsolete)' },
  { value: 'TLSv1', label: 'TLS 1.0 (obsolete)' },
];

type TlsPrefix = 'opt-tls' | 'plan-tls' | 'capacity-tls';

/**
 * The certificate text fields; their test ids start with the editor's prefix ("opt-tls-ca",
 * "plan-tls-ca"). The CA file's control has the element id caFileInputId(prefix): the path
 * field, or in a browser the file input (see TlsEditor).
 */
const tlsFields = (testIdPrefix: TlsPrefix, files: FileAccess, picked: boolean): FieldSpec<TlsKey>[] => [
  ...(files.paths && !picked
    ? [
        textField<TlsKey>(
          'caFile',
          files.folder === null ? 'Extra CA file (PEM)' : `Or a CA file in ${files.folder}`,
          'options.tls.caFile',
          {
            placeholder: files.folder === null ? '/etc/ssl/my-ca.pem' : 'my-ca.pem',
            hint: files.folder === null ? 'a path on the machine that runs the load' : undefined,
            testId: `${testIdPrefix}-ca`,
            id: files.pick ? undefined : caFileInputId(testIdPrefix),
          },
        ),
      ]
    : []),
  textField('servername', 'Server name (SNI)', 'options.tls.servername', {
    placeholder: "the URL's host",
    testId: `${testIdPrefix}-servername`,
  }),
];
/** The element id of an editor's CA file input, to move the focus there (a pre-flight fix). */
export function caFileInputId(testIdPrefix: string): string {
  return `${testIdPrefix}-ca-file`;
}

/**
 * Certificate checks of a run (Run tab, testIdPrefix "opt-tls"), of every cell of a
 * comparison ("plan-tls") or of every step of a capacity search ("capacity-tls"):
 * verification, an extra CA file and the SNI name.
 */
export function TlsEditor({
  tls,
  onChange,
  testIdPrefix,
}: {
  tls: TlsDraft;
  onChange: (tls: TlsDraft) => void;
  testIdPrefix: TlsPrefix;
}) {
  const set = (patch: Partial<TlsDraft>): void => onChange({ ...tls, ...patch });
  const files = useFileAccess();
  return (
    <div className="stack">
      <Toggle
        label="Verify certificate"
        checked={tls.verify}
        hint={
          tls.verify
            ? 'Self-signed test servers: give their CA file, or turn this off.'
            : 'Self-signed, expired and wrong-host certificates are accepted; the report says so.'
        }
        testId={`${testIdPrefix}-verify`}
        onChange={(verify) => set({ verify })}
      />
      {files.pick && (
        <PickFileField
          label="Extra CA file (PEM)"
          path="options.tls.caUpload"
          // PEM is ASCII: its characters are its bytes.
          picked={tls.caUpload && { name: tls.caUpload.name, bytes: tls.caUpload.pem.length }}
          testId={`${testIdPrefix}-ca-pick`}
          id={caFileInputId(testIdPrefix)}
          accept=".pem,.crt,.cer"
          hint="sent from this browser"
          onPick={async (file) => {
            const picked = await pickCa(file);
            if (picked.ok) set({ caUpload: picked.value, caFile: '' });
            return picked.ok ? null : picked.message;
          }}
          onClear={() => {
            const { caUpload: _dropped, ...rest } = tls;
            onChange(rest);
          }}
        />
      )}
      <TextFields
        fields={tlsFields(testIdPrefix, files, tls.caUpload !== undefined)}
        values={tls}
        onChange={set}
      />
      <SelectField
        label="Oldest TLS version"
        value={tls.minVersion}
        options={TLS_MIN_VERSIONS}
        testId={`${testIdPrefix}-min-version`}
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
