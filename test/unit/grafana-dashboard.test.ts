/**
 * The Grafana dashboard (resources/grafana/trebuchet.json), checked offline: read strictly into
 * Grafana's own dashboard model (the classic JSON model's types from @grafana/schema, Grafana's
 * maintained schema package: the parse's output must type-check as its Dashboard, and every
 * field the file has is known here), then every query names only metrics Trebuchet sends
 * (shared/metrics/catalog.ts), every variable it uses is defined, and the panels cover what
 * the issue asks. test/integration/metrics-out.test.ts runs each query in a real Prometheus.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  DashboardCursorSync,
  VariableHide,
  VariableRefresh,
  VariableSort,
  type Dashboard,
  type Panel,
  type RowPanel,
} from '@grafana/schema';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { METRIC_LIST } from '../../shared/metrics/catalog.ts';

const DASHBOARD_FILE = resolve(import.meta.dirname, '../../resources/grafana/trebuchet.json');

const datasource = z.strictObject({ type: z.literal('prometheus'), uid: z.literal('${datasource}') });
const gridPos = z.strictObject({
  h: z.number().int().positive(),
  w: z.number().int().min(1).max(24),
  x: z.number().int().min(0).max(23),
  y: z.number().int().min(0),
});
const query = z.strictObject({
  datasource,
  expr: z.string().min(1),
  legendFormat: z.string(),
  refId: z.string().regex(/^[A-Z]$/),
  range: z.literal(true).optional(),
  instant: z.literal(true).optional(),
});
const panel = z.strictObject({
  id: z.number().int().positive(),
  type: z.enum(['timeseries', 'stat']),
  title: z.string().min(1),
  description: z.string().min(1),
  datasource,
  gridPos,
  fieldConfig: z.strictObject({
    defaults: z.strictObject({
      unit: z.string(),
      min: z.number().optional(),
      custom: z.record(z.string(), z.unknown()).optional(),
    }),
    overrides: z.array(z.never()),
  }),
  options: z.record(z.string(), z.unknown()),
  targets: z.array(query).min(1),
});
const row = z.strictObject({
  id: z.number().int().positive(),
  type: z.literal('row'),
  title: z.string().min(1),
  collapsed: z.literal(false),
  repeat: z.string().optional(),
  gridPos,
  panels: z.array(panel).max(0),
});
const variable = z.strictObject({
  name: z.string().regex(/^[a-z]+$/),
  label: z.string(),
  type: z.enum(['datasource', 'query']),
  datasource: datasource.optional(),
  definition: z.string().optional(),
  query: z.union([z.string(), z.strictObject({ query: z.string(), refId: z.string() })]),
  hide: z.enum(VariableHide),
  refresh: z.enum(VariableRefresh),
  regex: z.string(),
  sort: z.enum(VariableSort).optional(),
  options: z.array(z.never()),
  includeAll: z.boolean(),
  multi: z.boolean(),
  allValue: z.string().optional(),
});
const dashboardSchema = z.strictObject({
  title: z.string(),
  uid: z.string().regex(/^[a-z0-9-]{1,40}$/),
  description: z.string(),
  tags: z.array(z.string()),
  editable: z.boolean(),
  graphTooltip: z.enum(DashboardCursorSync),
  schemaVersion: z.number().int().min(36),
  version: z.number().int(),
  refresh: z.string(),
  time: z.strictObject({ from: z.string(), to: z.string() }),
  timepicker: z.strictObject({}),
  timezone: z.string(),
  fiscalYearStartMonth: z.number().int().min(0).max(11),
  liveNow: z.boolean(),
  links: z.array(z.never()),
  annotations: z.strictObject({ list: z.array(z.never()) }),
  templating: z.strictObject({ list: z.array(variable) }),
  panels: z.array(z.union([panel, row])),
});

/** The file as Grafana's Dashboard model (a compile-time check that the parse's output is one). */
function readDashboard(): { model: Dashboard; parsed: z.output<typeof dashboardSchema> } {
  const parsed = dashboardSchema.parse(JSON.parse(readFileSync(DASHBOARD_FILE, 'utf8')));
  const model: Dashboard = parsed;
  return { model, parsed };
}

/** Every series name Trebuchet sends: a histogram's as its _bucket, _sum and _count. */
const SENT = new Set(
  METRIC_LIST.flatMap((m) =>
    m.type === 'histogram' ? ['_bucket', '_sum', '_count'].map((s) => m.name + s) : [m.name],
  ),
);

const isRow = (p: Panel | RowPanel): p is RowPanel => p.type === 'row';

describe('the Grafana dashboard', () => {
  it("reads strictly into Grafana's dashboard model", () => {
    const { model } = readDashboard();
    expect(model.schemaVersion).toBeGreaterThanOrEqual(36);
    expect(model.panels!.length).toBeGreaterThan(5);
  });

  it("queries only metrics Trebuchet sends, through the dashboard's Prometheus variable", () => {
    const { parsed } = readDashboard();
    const exprs = parsed.panels.flatMap((p) => (p.type === 'row' ? [] : p.targets.map((t) => t.expr)));
    // The datasource variable's query is a plugin type ("prometheus"), the others PromQL.
    const variables = parsed.templating.list.flatMap((v) =>
      typeof v.query === 'string' ? [] : [v.query.query],
    );
    for (const expr of [...exprs, ...variables]) {
      const metrics = expr.match(/\btrebuchet_[a-z_]+/g) ?? [];
      expect(metrics.length, expr).toBeGreaterThan(0);
      for (const name of metrics) expect(SENT, `${name} in ${expr}`).toContain(name);
      // What selects series is always one of them: no other metric is read.
      for (const [, name] of expr.matchAll(/([A-Za-z_:][\w:]*)\s*\{/g))
        expect(name, expr).toMatch(/^trebuchet_/);
    }
  });

  it("uses only variables it defines (and Grafana's own), and repeats a row per target", () => {
    const { parsed } = readDashboard();
    const defined = new Set(parsed.templating.list.map((v) => v.name));
    const text = JSON.stringify(parsed.panels);
    for (const [, name] of text.matchAll(/\$\{?([A-Za-z_]+)/g)) {
      if (name!.startsWith('__')) expect(['__rate_interval', '__range']).toContain(name);
      else expect(defined, `$${name}`).toContain(name);
    }
    const repeated = parsed.panels.filter((p) => p.type === 'row' && p.repeat !== undefined);
    expect(repeated.map((r) => (r.type === 'row' ? r.repeat : null))).toEqual(['target']);
    expect(parsed.templating.list.find((v) => v.name === 'target')).toMatchObject({
      multi: true,
      includeAll: true,
    });
  });

  it("has unique panel ids, and panels within the grid's 24 columns that do not overlap", () => {
    const { model } = readDashboard();
    const panels = model.panels!;
    expect(new Set(panels.map((p) => p.id)).size).toBe(panels.length);
    const cells = new Set<string>();
    for (const p of panels) {
      const g = p.gridPos!;
      expect(g.x + g.w, p.title).toBeLessThanOrEqual(24);
      for (let x = g.x; x < g.x + g.w; x++)
        for (let y = g.y; y < g.y + g.h; y++) {
          expect(cells.has(`${x},${y}`), `${p.title} overlaps at ${x},${y}`).toBe(false);
          cells.add(`${x},${y}`);
        }
    }
    expect(panels.filter(isRow).length).toBe(2);
  });

  it("shows throughput, latency percentiles, errors and the server's CPU", () => {
    const { parsed } = readDashboard();
    const exprs = parsed.panels.flatMap((p) => (p.type === 'row' ? [] : p.targets.map((t) => t.expr)));
    const some = (re: RegExp) =>
      expect(
        exprs.some((e) => re.test(e)),
        String(re),
      ).toBe(true);
    some(/rate\(trebuchet_requests_total\{/);
    some(/histogram_quantile\(0\.99, sum by \(le.*\) \(rate\(trebuchet_request_duration_seconds_bucket\{/);
    some(/histogram_quantile\(0\.5,/);
    some(/rate\(trebuchet_errors_total\{/);
    some(/rate\(trebuchet_server_cpu_seconds_total\{/);
  });
});
