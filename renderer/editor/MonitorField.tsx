import type { MonitorKind } from '../../shared/model/monitor.ts';
import { Field } from './fields.tsx';
import { monitorKindOf, monitorTextFor, monitorValueOf } from './monitorDraft.ts';
import './MonitorField.css';

const KINDS: readonly { value: MonitorKind; label: string; hint: string }[] = [
  {
    value: 'auto',
    label: 'Auto',
    hint: 'a server on this machine: the process listening where the run connects, and its children; a remote one: nothing',
  },
  { value: 'pid', label: 'Process id', hint: 'that process and its children, on this machine' },
  {
    value: 'node-exporter',
    label: 'node_exporter',
    hint: 'the whole machine’s CPU, load, memory and network, from Prometheus’ node_exporter',
  },
  { value: 'off', label: 'Off', hint: 'the server is not sampled' },
];

interface MonitorFieldProps {
  /** The CLI's --monitor text: auto, off, pid:N or a node_exporter URL. */
  value: string;
  onChange: (text: string) => void;
  /** Schema path of the target's monitor ("targets.0.monitor"): its message shows here. */
  path: string;
  /** "target-monitor-0": the select, and "-value" the box. */
  testId: string;
}

/**
 * How the target's server is watched during the run (its CPU, memory and load beside the
 * throughput): auto, a process id, a node_exporter URL, or off. The value box appears for a
 * process id or a URL; switching kind keeps nothing of the other's value.
 */
export function MonitorField({ value, onChange, path, testId }: MonitorFieldProps) {
  const kind = monitorKindOf(value);
  const boxed = kind === 'pid' || kind === 'node-exporter';
  const hint = KINDS.find((k) => k.value === kind)?.hint;
  return (
    <Field label="Server monitor" path={path} hint={hint}>
      {({ id, invalid, describedBy, touch }) => (
        <div className="monitor-row">
          <select
            id={boxed ? undefined : id}
            className="input select monitor-row__kind"
            aria-label="Server monitor"
            value={kind}
            data-testid={testId}
            onChange={(e) => {
              const next = KINDS.find((k) => k.value === e.target.value);
              if (next) onChange(monitorTextFor(next.value, ''));
              touch();
            }}
          >
            {KINDS.map((k) => (
              <option key={k.value} value={k.value}>
                {k.label}
              </option>
            ))}
          </select>
          {boxed && (
            <input
              id={id}
              className="input monitor-row__value"
              type="text"
              inputMode={kind === 'pid' ? 'numeric' : 'url'}
              spellCheck={false}
              autoComplete="off"
              placeholder={kind === 'pid' ? '1234' : 'http://server:9100/metrics'}
              value={monitorValueOf(value)}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              data-testid={`${testId}-value`}
              onChange={(e) => {
                onChange(monitorTextFor(kind, e.target.value));
                touch();
              }}
              onBlur={touch}
            />
          )}
        </div>
      )}
    </Field>
  );
}
