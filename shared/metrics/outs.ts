import { z } from 'zod';
import { httpUrlSchema } from '../model/http-url.ts';
import { nearestName, parseWith, type Parsed } from '../model/validation.ts';

/*
 * Where live metrics go (docs/metrics.md), as the CLI's flags (`--out KIND=URL`,
 * `--metrics-listen HOST:PORT`) and the app's setting ("Send live metrics to …") give it: pushed
 * to Prometheus remote write or OTLP/HTTP endpoints, and served for scraping. Pure.
 */

export const METRICS_PUSH_KINDS = ['prometheus-rw', 'otlp'] as const;
export type MetricsPushKind = (typeof METRICS_PUSH_KINDS)[number];

/** Endpoints pushed to at most: each holds a queue and a request in flight. */
export const MAX_METRICS_PUSH = 4;

export const metricsPushSchema = z.strictObject({
  kind: z.enum(METRICS_PUSH_KINDS),
  url: httpUrlSchema(
    'metrics URL',
    'http://127.0.0.1:9090/api/v1/write',
    ' (they would be kept in plain text)',
  ),
});
export type MetricsPush = z.infer<typeof metricsPushSchema>;

export const listenAddressSchema = z.strictObject({
  host: z.string().trim().min(1, 'give a host to listen on, e.g. 127.0.0.1').max(253),
  /** 0 picks a free port (said where the job starts). */
  port: z.number().int().min(0).max(65535, 'a port is 0 to 65535'),
});
export type ListenAddress = z.infer<typeof listenAddressSchema>;

export const metricsOutSchema = z.strictObject({
  push: z
    .array(metricsPushSchema)
    .max(MAX_METRICS_PUSH, `give at most ${MAX_METRICS_PUSH} metrics endpoints`)
    .default([]),
  /** Serve the metrics for scraping (Prometheus text) here; null: not served. */
  listen: listenAddressSchema.nullable().default(null),
});
export type MetricsOut = z.infer<typeof metricsOutSchema>;

export const NO_METRICS_OUT: MetricsOut = { push: [], listen: null };

/** Whether metrics go anywhere. */
export const sendsMetrics = (out: MetricsOut): boolean => out.push.length > 0 || out.listen !== null;

/** The text of one push endpoint, as `--out` takes it: "prometheus-rw=URL" or "otlp=URL". */
export function parseMetricsPush(text: string): Parsed<MetricsPush> {
  const at = text.indexOf('=');
  const kind = at < 0 ? text.trim() : text.slice(0, at).trim();
  const refuse = (message: string): Parsed<MetricsPush> => ({ ok: false, issues: [{ path: '', message }] });
  if (at < 0)
    return refuse(`"${text}" is not KIND=URL (e.g. prometheus-rw=http://127.0.0.1:9090/api/v1/write)`);
  if (!(METRICS_PUSH_KINDS as readonly string[]).includes(kind)) {
    const near = nearestName(kind, METRICS_PUSH_KINDS);
    return refuse(
      `"${kind}" is not a way out (${METRICS_PUSH_KINDS.join(' or ')})${near ? `: did you mean ${near}?` : ''}`,
    );
  }
  return asOneField(parseWith(metricsPushSchema, { kind, url: text.slice(at + 1).trim() }));
}

/** A parse of a text that is one field (a flag's value, a form's field): its issues name no inner path. */
function asOneField<T>(parsed: Parsed<T>): Parsed<T> {
  return parsed.ok ? parsed : { ok: false, issues: parsed.issues.map((i) => ({ ...i, path: '' })) };
}

/** The text of a listen address: "HOST:PORT", "[::1]:PORT", or ":PORT" for 127.0.0.1. */
export function parseListenAddress(text: string): Parsed<ListenAddress> {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(text.trim());
  if (!m) {
    return { ok: false, issues: [{ path: '', message: `"${text}" is not HOST:PORT (e.g. 127.0.0.1:9464)` }] };
  }
  const host = m[1] ?? (m[2] === '' ? '127.0.0.1' : m[2]!);
  return asOneField(parseWith(listenAddressSchema, { host, port: Number(m[3]) }));
}

/** An address as text again ("127.0.0.1:9464", "[::1]:9464"). */
export function listenAddressText(a: ListenAddress): string {
  return a.host.includes(':') ? `[${a.host}]:${a.port}` : `${a.host}:${a.port}`;
}
