import { useId, useState } from 'react';
import type { TrebuchetApi } from '../../shared/contract/api.ts';
import type { MetricsOut } from '../../shared/metrics/outs.ts';
import { Dialog } from '../components/Dialog.tsx';
import { errorText } from '../lib/errors.ts';
import {
  metricsForm,
  metricsOutOf,
  metricsSummary,
  type MetricsFormField,
  type MetricsOutForm,
} from './metricsOutForm.ts';

const FIELDS: { field: MetricsFormField; label: string; placeholder: string; hint: string }[] = [
  {
    field: 'remoteWrite',
    label: 'Prometheus remote write URL',
    placeholder: 'http://127.0.0.1:9090/api/v1/write',
    hint: 'Prometheus started with --web.enable-remote-write-receiver, Mimir, Grafana Cloud…',
  },
  {
    field: 'otlp',
    label: 'OpenTelemetry (OTLP/HTTP) metrics URL',
    placeholder: 'http://127.0.0.1:4318/v1/metrics',
    hint: 'An OpenTelemetry Collector or any OTLP/HTTP receiver (JSON encoding).',
  },
  {
    field: 'listen',
    label: 'Serve for scraping at',
    placeholder: '127.0.0.1:9464',
    hint: 'HOST:PORT; Prometheus scrapes http://HOST:PORT/metrics while jobs run.',
  },
];

/**
 * "Send live metrics to …" (docs/metrics.md): the top bar's button and its dialog. What is
 * saved goes to the host's settings at once, and every job started after it sends its metrics
 * there; a job's report says what did not arrive.
 */
export function MetricsOutButton({ api, initial }: { api: TrebuchetApi; initial: MetricsOut }) {
  const [saved, setSaved] = useState(initial);
  const [form, setForm] = useState<MetricsOutForm | null>(null);
  const [problems, setProblems] = useState<Partial<Record<MetricsFormField, string>>>({});
  const [refused, setRefused] = useState<string | null>(null);
  const ids = useId();
  const close = () => {
    setForm(null);
    setProblems({});
    setRefused(null);
  };
  const save = () => {
    if (!form) return;
    const checked = metricsOutOf(form);
    if (!checked.ok) return setProblems(checked.problems);
    setProblems({});
    api.settings.set({ ui: { metrics: checked.out } }).then(
      (reply) => {
        setSaved(reply.ui.metrics);
        close();
      },
      (e: unknown) => setRefused(errorText(e)),
    );
  };
  return (
    <>
      <button
        type="button"
        className="btn btn--ghost btn--sm topbar__metrics"
        data-testid="metrics-out"
        title="Where every job's live metrics go (Prometheus, OpenTelemetry)"
        onClick={() => setForm(metricsForm(saved))}
      >
        {metricsSummary(saved)}
      </button>
      {form && (
        <Dialog
          title="Send live metrics to…"
          onClose={close}
          testId="metrics-out-dialog"
          footer={
            <>
              <button type="button" className="btn btn--secondary" onClick={close}>
                Cancel
              </button>
              <button
                type="button"
                className="btn btn--primary"
                data-testid="metrics-out-save"
                onClick={save}
              >
                Save
              </button>
            </>
          }
        >
          <p className="field__hint">
            Every job started from now on sends its throughput, latency histogram, errors and CPU here as it
            runs. Leave a field empty for none. An endpoint that is down costs a run nothing but a warning in
            its report.
          </p>
          {FIELDS.map(({ field, label, placeholder, hint }) => {
            const id = `${ids}-${field}`;
            const problem = problems[field];
            return (
              <div key={field} className={`field${problem ? ' field--invalid' : ''}`}>
                <label className="field__label" htmlFor={id}>
                  {label}
                </label>
                <input
                  id={id}
                  className="input"
                  value={form[field]}
                  placeholder={placeholder}
                  aria-invalid={problem !== undefined}
                  aria-describedby={`${id}-note`}
                  data-testid={`metrics-${field}`}
                  onChange={(e) => setForm({ ...form, [field]: e.target.value })}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') save();
                  }}
                />
                <p
                  className={problem ? 'field__error' : 'field__hint'}
                  id={`${id}-note`}
                  role={problem ? 'alert' : undefined}
                  data-testid={problem ? `metrics-${field}-error` : undefined}
                >
                  {problem ?? hint}
                </p>
              </div>
            );
          })}
          {refused && (
            <p className="field__error" role="alert">
              {refused}
            </p>
          )}
        </Dialog>
      )}
    </>
  );
}
