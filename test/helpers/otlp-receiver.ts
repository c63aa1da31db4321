/**
 * A small OTLP/HTTP metrics receiver for the metrics-out tests: it takes POST /v1/metrics in the
 * JSON encoding (what @opentelemetry/exporter-metrics-otlp-http sends: the protobuf messages of
 * opentelemetry-proto's metrics.proto in the OTLP JSON mapping, 64-bit integers as strings),
 * checks each request against that shape, and keeps every data point. It answers 200 with an
 * empty ExportMetricsServiceResponse, as a collector does.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

const anyValue = z.object({
  stringValue: z.string().optional(),
  intValue: z.union([z.string(), z.number()]).optional(),
  doubleValue: z.number().optional(),
  boolValue: z.boolean().optional(),
});
const keyValue = z.object({ key: z.string(), value: anyValue });
/** uint64 and fixed64 fields: a decimal string in the JSON mapping (a number is accepted too). */
const uint64 = z.union([z.string().regex(/^\d+$/), z.number().int().nonnegative()]).transform(Number);

const numberPoint = z.object({
  attributes: z.array(keyValue).default([]),
  startTimeUnixNano: uint64,
  timeUnixNano: uint64,
  asDouble: z.number().optional(),
  asInt: uint64.optional(),
});
const histogramPoint = z.object({
  attributes: z.array(keyValue).default([]),
  startTimeUnixNano: uint64,
  timeUnixNano: uint64,
  count: uint64,
  sum: z.number().optional(),
  bucketCounts: z.array(uint64),
  explicitBounds: z.array(z.number()),
});
const metric = z
  .object({
    name: z.string(),
    description: z.string().optional(),
    unit: z.string().optional(),
    sum: z
      .object({
        dataPoints: z.array(numberPoint),
        aggregationTemporality: z.number(),
        isMonotonic: z.boolean(),
      })
      .optional(),
    gauge: z.object({ dataPoints: z.array(numberPoint) }).optional(),
    histogram: z
      .object({ dataPoints: z.array(histogramPoint), aggregationTemporality: z.number() })
      .optional(),
  })
  .refine((m) => [m.sum, m.gauge, m.histogram].filter(Boolean).length === 1, 'a metric has one kind of data');
export const exportMetricsRequestSchema = z.object({
  resourceMetrics: z.array(
    z.object({
      resource: z.object({ attributes: z.array(keyValue) }),
      scopeMetrics: z.array(
        z.object({
          scope: z.object({ name: z.string(), version: z.string().optional() }),
          metrics: z.array(metric),
        }),
      ),
    }),
  ),
});
export type ExportMetricsRequest = z.infer<typeof exportMetricsRequestSchema>;

export interface OtlpReceiver {
  url: string;
  /** Every request received, parsed. */
  readonly requests: ExportMetricsRequest[];
  /** Requests whose body did not have the shape (the reason each), answered 400. */
  readonly refused: string[];
  close(): Promise<void>;
}

export const attributesOf = (kvs: readonly z.infer<typeof keyValue>[]): Record<string, string> =>
  Object.fromEntries(
    kvs.map((kv) => [kv.key, kv.value.stringValue ?? String(kv.value.intValue ?? kv.value.doubleValue)]),
  );

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const requests: ExportMetricsRequest[] = [];
  const refused: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    req.on('end', () => {
      const type = req.headers['content-type'] ?? '';
      const parsed = exportMetricsRequestSchema.safeParse(
        type.startsWith('application/json') ? JSON.parse(body) : null,
      );
      if (req.url !== '/v1/metrics' || req.method !== 'POST' || !parsed.success) {
        refused.push(parsed.success ? `${req.method} ${req.url}` : parsed.error.message);
        res.writeHead(400).end();
        return;
      }
      requests.push(parsed.data);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1/metrics`,
    requests,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
