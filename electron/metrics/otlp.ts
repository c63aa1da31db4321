/*
 * `--out otlp=URL`: OpenTelemetry metrics over OTLP/HTTP with the official exporter
 * (@opentelemetry/exporter-metrics-otlp-http, which sends the JSON encoding, Content-Type
 * application/json) to URL as given (a collector's http://host:4318/v1/metrics). The
 * snapshots go as the SDK's own ResourceMetrics, cumulative: a counter is a monotonic sum, a
 * histogram carries the sample buckets' counts with their bounds in seconds, each data point
 * from its series' start to the snapshot's time. The exporter retries what its spec calls
 * retryable within the time given; the queue (push-queue.ts) does the rest.
 */
import { ValueType } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AggregationTemporality,
  DataPointType,
  type MetricData,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import type { MetricDef } from '../../shared/metrics/catalog.ts';
import { HISTOGRAM_BOUNDS_SECONDS, type MetricSeries, type Snapshot } from '../../shared/metrics/series.ts';
import { SlowPushError, type PushWriter } from './push-queue.ts';

/** Epoch ms as OpenTelemetry's [seconds, nanoseconds]. */
const hrTime = (ms: number): [number, number] => [Math.floor(ms / 1000), Math.round((ms % 1000) * 1e6)];

/** One metric's data points over a batch of snapshots. */
function metricData(def: MetricDef, points: { at: number; series: MetricSeries }[]): MetricData {
  const descriptor = {
    name: def.otelName,
    description: def.help,
    unit: def.unit,
    valueType: ValueType.DOUBLE,
  };
  const aggregationTemporality = AggregationTemporality.CUMULATIVE;
  const timed = (p: { at: number; series: MetricSeries }) => ({
    startTime: hrTime(p.series.since),
    endTime: hrTime(p.at),
    attributes: { ...p.series.labels },
  });
  if (def.type === 'histogram') {
    return {
      descriptor,
      aggregationTemporality,
      dataPointType: DataPointType.HISTOGRAM,
      dataPoints: points.flatMap((p) =>
        p.series.kind === 'histogram'
          ? [
              {
                ...timed(p),
                value: {
                  buckets: { boundaries: [...HISTOGRAM_BOUNDS_SECONDS], counts: [...p.series.counts] },
                  sum: p.series.sum,
                  count: p.series.count,
                },
              },
            ]
          : [],
      ),
    };
  }
  const dataPoints = points.map((p) => ({
    ...timed(p),
    value: p.series.kind === 'scalar' ? p.series.value : 0,
  }));
  return def.type === 'counter'
    ? { descriptor, aggregationTemporality, dataPointType: DataPointType.SUM, isMonotonic: true, dataPoints }
    : { descriptor, aggregationTemporality, dataPointType: DataPointType.GAUGE, dataPoints };
}

/** Snapshots as one ResourceMetrics: per metric, its series' points in time order. */
export function resourceMetricsOf(batch: readonly Snapshot[], appVersion: string): ResourceMetrics {
  const byMetric = new Map<string, { def: MetricDef; points: { at: number; series: MetricSeries }[] }>();
  for (const snapshot of batch) {
    for (const series of snapshot.series) {
      let m = byMetric.get(series.def.name);
      if (!m) {
        m = { def: series.def, points: [] };
        byMetric.set(series.def.name, m);
      }
      m.points.push({ at: snapshot.at, series });
    }
  }
  return {
    resource: resourceFromAttributes({ 'service.name': 'trebuchet', 'service.version': appVersion }),
    scopeMetrics: [
      {
        scope: { name: 'trebuchet', version: appVersion },
        metrics: [...byMetric.values()].map((m) => metricData(m.def, m.points)),
      },
    ],
  };
}

/** The queue's writer for one OTLP/HTTP endpoint, and what closes its exporter. */
export function otlpWriter(
  url: string,
  opts: { timeoutMs: number; closeWaitMs: number; appVersion: string },
): { write: PushWriter; close: () => Promise<void> } {
  const exporter = new OTLPMetricExporter({ url, timeoutMillis: opts.timeoutMs });
  return {
    write: (batch) =>
      new Promise((resolve, reject) => {
        exporter.export(resourceMetricsOf(batch, opts.appVersion), (result) => {
          if (result.code === ExportResultCode.SUCCESS) return resolve();
          const message = result.error?.message ?? 'the export failed';
          reject(
            /timed out/i.test(message)
              ? new SlowPushError(`no answer within ${opts.timeoutMs / 1000} s`)
              : new Error(message),
          );
        });
      }),
    // The exporter's shutdown waits for an export in flight; a stalled endpoint is not waited for long.
    close: () =>
      Promise.race([
        exporter.shutdown(),
        new Promise<void>((resolve) => setTimeout(resolve, opts.closeWaitMs).unref()),
      ]),
  };
}
