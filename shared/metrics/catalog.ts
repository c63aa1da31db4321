/*
 * The metrics Trebuchet sends out (docs/metrics.md): each one's Prometheus name, OpenTelemetry
 * name and unit, type and help, and the labels of its own beside a part's (shared/metrics/
 * labels.ts). One list, read by every way out (remote write, OTLP, the scrape endpoint), the
 * Grafana dashboard's check and the docs' table. Pure.
 */

export type MetricType = 'counter' | 'gauge' | 'histogram';

export interface MetricDef {
  /** The Prometheus name (a counter's ends in _total, a unit's name before it). */
  name: string;
  /** The OpenTelemetry name; its Prometheus translation (unit and _total added) is `name`. */
  otelName: string;
  /** UCUM unit, as OTLP carries it ('s', 'By', '{request}'). */
  unit: string;
  type: MetricType;
  help: string;
  /** Labels of its own, beside the part's. */
  labels: readonly string[];
}

/** A histogram's bounds are a Sample's window buckets (shared/figures/window-buckets.ts), in seconds. */
export const METRICS = {
  requests: {
    name: 'trebuchet_requests_total',
    otelName: 'trebuchet.requests',
    unit: '{request}',
    type: 'counter',
    help: 'Requests finished, warm-up excluded: by response status code, status="error" for no response (a transport error).',
    labels: ['status'],
  },
  errors: {
    name: 'trebuchet_errors_total',
    otelName: 'trebuchet.errors',
    unit: '{request}',
    type: 'counter',
    help: 'Failed requests by kind, warm-up excluded (kind="slo": a response slower than the SLO, also counted by its status).',
    labels: ['kind'],
  },
  duration: {
    name: 'trebuchet_request_duration_seconds',
    otelName: 'trebuchet.request.duration',
    unit: 's',
    type: 'histogram',
    help: 'Latency of the responses, from the (intended) send to the last byte, warm-up excluded.',
    labels: [],
  },
  lateness: {
    name: 'trebuchet_send_lateness_seconds',
    otelName: 'trebuchet.send.lateness',
    unit: 's',
    type: 'histogram',
    help: "Scheduled sends only: how late each request went out after its intended time (the generator's delay).",
    labels: [],
  },
  late: {
    name: 'trebuchet_late_requests_total',
    otelName: 'trebuchet.late_requests',
    unit: '{request}',
    type: 'counter',
    help: 'Open model: requests that missed their scheduled send time, warm-up excluded.',
    labels: [],
  },
  received: {
    name: 'trebuchet_received_bytes_total',
    otelName: 'trebuchet.received',
    unit: 'By',
    type: 'counter',
    help: 'Bytes received, headers included, warm-up excluded.',
    labels: [],
  },
  inFlight: {
    name: 'trebuchet_requests_in_flight',
    otelName: 'trebuchet.requests_in_flight',
    unit: '{request}',
    type: 'gauge',
    help: 'Requests sent and not answered at the last tick.',
    labels: [],
  },
  connections: {
    name: 'trebuchet_connections',
    otelName: 'trebuchet.connections',
    unit: '{connection}',
    type: 'gauge',
    help: "Closed model: connections carrying load at the last tick (the stage's level, else -c).",
    labels: [],
  },
  generatorCpu: {
    name: 'trebuchet_generator_cpu_seconds_total',
    otelName: 'trebuchet.generator.cpu',
    unit: 's',
    type: 'counter',
    help: "CPU-seconds of the load generator's engine threads, warm-up excluded.",
    labels: [],
  },
  serverCpu: {
    name: 'trebuchet_server_cpu_seconds_total',
    otelName: 'trebuchet.server.cpu',
    unit: 's',
    type: 'counter',
    help: "CPU-seconds of the target's server (its process tree, or node_exporter's busy cores), warm-up excluded.",
    labels: [],
  },
  serverMemory: {
    name: 'trebuchet_server_resident_memory_bytes',
    otelName: 'trebuchet.server.resident_memory',
    unit: 'By',
    type: 'gauge',
    help: "Resident memory of the target's server process tree at the last reading.",
    labels: [],
  },
  machineCpu: {
    name: 'trebuchet_machine_cpu_busy_ratio',
    // A gauge of unit 1: the OpenTelemetry name's Prometheus translation adds _ratio.
    otelName: 'trebuchet.machine.cpu.busy',
    unit: '1',
    type: 'gauge',
    help: "Share of all the generator machine's cores busy (user, nice, system, irq, softirq, steal) at the last machine reading, 0-1: whatever ran there, the generator and the server included.",
    labels: [],
  },
  urlRequests: {
    name: 'trebuchet_url_requests_total',
    otelName: 'trebuchet.url.requests',
    unit: '{request}',
    type: 'counter',
    help: "A list of requests: each row of the per-URL table's requests by status (set at the part's end).",
    labels: ['url', 'status'],
  },
} as const satisfies Record<string, MetricDef>;

export type MetricId = keyof typeof METRICS;

/** Every metric, in the catalog's order. */
export const METRIC_LIST: readonly MetricDef[] = Object.values(METRICS);

/** The status label of a request that got no response (a transport error). */
export const NO_RESPONSE_STATUS = 'error';

/** The url label of the per-URL table's row that counts every METHOD URL past its bound. */
export const OTHER_URLS = 'other';
