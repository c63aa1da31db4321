import { describeIssues } from '../../shared/model/validation.ts';
import {
  listenAddressText,
  parseListenAddress,
  parseMetricsPush,
  type MetricsOut,
  type MetricsPush,
} from '../../shared/metrics/outs.ts';

/*
 * The "Send live metrics to …" form: one field per way out (a remote write URL, an OTLP URL, an
 * address to serve on), each empty for none, read with the CLI's own parsers (--out,
 * --metrics-listen), so the app takes what the flags take. Pure.
 */

export interface MetricsOutForm {
  remoteWrite: string;
  otlp: string;
  listen: string;
}

export type MetricsFormField = keyof MetricsOutForm;

export type MetricsFormCheck =
  { ok: true; out: MetricsOut } | { ok: false; problems: Partial<Record<MetricsFormField, string>> };

/** The form of a setting: the first endpoint of each kind (the CLI may give more; the app keeps one of each). */
export function metricsForm(out: MetricsOut): MetricsOutForm {
  const first = (kind: MetricsPush['kind']) => out.push.find((p) => p.kind === kind)?.url ?? '';
  return {
    remoteWrite: first('prometheus-rw'),
    otlp: first('otlp'),
    listen: out.listen ? listenAddressText(out.listen) : '',
  };
}

/** The setting a form gives, or each field's problem. */
export function metricsOutOf(form: MetricsOutForm): MetricsFormCheck {
  const problems: Partial<Record<MetricsFormField, string>> = {};
  const push: MetricsPush[] = [];
  const url = (field: 'remoteWrite' | 'otlp', kind: MetricsPush['kind']) => {
    const text = form[field].trim();
    if (text === '') return;
    const parsed = parseMetricsPush(`${kind}=${text}`);
    if (parsed.ok) push.push(parsed.value);
    else problems[field] = describeIssues(parsed.issues);
  };
  url('remoteWrite', 'prometheus-rw');
  url('otlp', 'otlp');
  let listen: MetricsOut['listen'] = null;
  if (form.listen.trim() !== '') {
    const parsed = parseListenAddress(form.listen);
    if (parsed.ok) listen = parsed.value;
    else problems.listen = describeIssues(parsed.issues);
  }
  return Object.keys(problems).length > 0 ? { ok: false, problems } : { ok: true, out: { push, listen } };
}

/** The button's words for a setting: where the metrics go, or the offer to send them. */
export function metricsSummary(out: MetricsOut): string {
  const ways = [
    ...out.push.map((p) => (p.kind === 'otlp' ? 'OTLP' : 'Prometheus')),
    ...(out.listen ? [`scrape ${listenAddressText(out.listen)}`] : []),
  ];
  return ways.length === 0 ? 'Send live metrics to…' : `Live metrics: ${ways.join(', ')}`;
}
