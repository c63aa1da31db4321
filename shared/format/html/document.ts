/**
 * The HTML report's page: one file with its styles inline, no script to run and a CSP that
 * forbids loading anything, so it opens offline in any browser and cannot call out. The
 * report's data rides along as inert JSON (type application/json) for tools to read back.
 */
import { esc, jsonForScript } from './escape.ts';

/** Nothing may load or run: styles inline only, images only as data: URLs (none today). */
export const REPORT_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

const STYLE = `
:root { color-scheme: light; --fg: #1f2937; --muted: #6b7280; --line: #e5e7eb; --good: #15803d; --warn: #b45309; --bad: #b91c1c; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); margin: 0 auto; padding: 24px; max-width: 1200px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 28px 0 8px; } h3 { font-size: 16px; margin: 24px 0 8px; } h4 { font-size: 14px; margin: 16px 0 6px; }
.muted { color: var(--muted); }
.verdict { border: 1px solid var(--line); border-left: 6px solid var(--good); border-radius: 6px; padding: 8px 12px; margin: 12px 0; background: #f0fdf4; }
.verdict.warn { border-left-color: var(--warn); background: #fffbeb; } .verdict.bad { border-left-color: var(--bad); background: #fef2f2; }
.verdict p { margin: 0 0 4px; } .verdict ul { margin: 4px 0 0; padding-left: 18px; }
.badge { display: inline-block; font-size: 12px; padding: 0 6px; border-radius: 9px; background: #e5e7eb; }
.badge.bad { background: #fecaca; color: #7f1d1d; } .badge.warn { background: #fde68a; color: #78350f; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(170px, 1fr)); gap: 8px; margin: 12px 0; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; }
.card .label { color: var(--muted); font-size: 12px; } .card .value { font-size: 18px; font-weight: 600; } .card .detail { color: var(--muted); font-size: 12px; }
.table-scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: 6px 0 12px; font-variant-numeric: tabular-nums; }
th, td { border-bottom: 1px solid var(--line); padding: 3px 8px; text-align: left; white-space: nowrap; }
thead th { border-bottom: 2px solid #d1d5db; font-size: 12px; }
.num { text-align: right; }
.flag { color: var(--bad); font-weight: 600; }
.charts { display: flex; flex-wrap: wrap; gap: 12px; }
figure.chart { margin: 0; flex: 1 1 540px; max-width: 720px; } svg { width: 100%; height: auto; font-size: 11px; }
svg .chart-title { font-size: 13px; font-weight: 600; fill: var(--fg); } svg .tick, svg .axis-label, svg text { fill: #374151; }
svg .grid { stroke: #eef0f3; } svg .axis { stroke: #9ca3af; } svg .flag-mark { fill: var(--bad); font-weight: 700; font-size: 14px; }
.fact-grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 12px; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; } dt { color: var(--muted); } dd { margin: 0; word-break: break-word; }
details { margin: 8px 0; } summary { cursor: pointer; font-weight: 600; }
pre { background: #f9fafb; border: 1px solid var(--line); padding: 8px; overflow-x: auto; font-size: 12px; }
section.run { border-top: 1px solid var(--line); margin-top: 16px; padding-top: 8px; }
.efficiency { font-size: 15px; margin: 6px 0; } .efficiency strong { font-size: 19px; } ul.notes { color: var(--muted); }
@media print { details { display: block; } details > summary { display: none; } }
`;

export function htmlDocument(opts: { title: string; subtitle: string; body: string; data: unknown }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${esc(REPORT_CSP)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="Trebuchet">
<title>${esc(opts.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>${esc(opts.title)}</h1><p class="muted">${esc(opts.subtitle)}</p></header>
<main>
${opts.body}
</main>
<script type="application/json" id="trebuchet-report-data">${jsonForScript(opts.data)}</script>
</body>
</html>
`;
}
