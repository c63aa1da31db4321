import { DEFAULTS } from '../../shared/model/defaults.ts';
import { parseMonitorText, type Monitor, type MonitorKind } from '../../shared/model/monitor.ts';

/*
 * A target's server monitor (shared/model/monitor.ts) as the editor holds it: the CLI's --monitor
 * text (auto, off, pid:N or a node_exporter URL), so the card, a preset and the CLI say it
 * the same way. The card shows it as a kind and, for pid and node_exporter, a value.
 */

/** The monitor a new target gets. */
export const DEFAULT_MONITOR_TEXT = DEFAULTS.monitor.kind;

/** The kind a monitor text is (a text being typed that is neither auto, off nor pid:N is an exporter URL). */
export function monitorKindOf(text: string): MonitorKind {
  const t = text.trim();
  if (t === 'auto' || t === 'off') return t;
  return /^pid:/i.test(t) ? 'pid' : 'node-exporter';
}

/** What the value box shows: the process id, or the URL; nothing for auto and off. */
export function monitorValueOf(text: string): string {
  switch (monitorKindOf(text)) {
    case 'pid':
      return text.trim().slice(4);
    case 'node-exporter':
      return text;
    case 'auto':
    case 'off':
      return '';
  }
}

/** The text of a kind with its value, as the CLI takes it. */
export function monitorTextFor(kind: MonitorKind, value: string): string {
  switch (kind) {
    case 'pid':
      return `pid:${value.trim()}`;
    case 'node-exporter':
      return value;
    case 'auto':
    case 'off':
      return kind;
  }
}

/** The monitor of a text, or the message saying what is wrong with it (shown at the field). */
export function parseMonitorDraft(
  text: string,
): { ok: true; monitor: Monitor } | { ok: false; message: string } {
  const kind = monitorKindOf(text);
  const value = monitorValueOf(text).trim();
  // The CLI's messages quote what was typed; an empty box needs saying what goes in it.
  if (kind === 'pid' && value === '')
    return { ok: false, message: 'type the server’s process id (e.g. 1234)' };
  if (kind === 'node-exporter' && value === '') {
    return { ok: false, message: 'type the node_exporter’s URL (e.g. http://server:9100/metrics)' };
  }
  return parseMonitorText(text);
}

/**
 * The monitor as the schema's input: the parsed monitor, or the text itself so the schema
 * rejects it (monitorIssues then puts the parser's message at the field).
 */
export function monitorInput(text: string): Monitor | string {
  const r = parseMonitorDraft(text);
  return r.ok ? r.monitor : text;
}

/**
 * Issues keyed by field path, with each target's monitor issue (any path under
 * `targets.N.monitor`) replaced by the parser's message at `targets.N.monitor`.
 */
export function withMonitorIssues(
  issues: ReadonlyMap<string, string>,
  targets: readonly { monitor: string }[],
): Map<string, string> {
  const out = new Map<string, string>();
  for (const [path, message] of issues) {
    const m = /^targets\.(\d+)\.monitor(\.|$)/.exec(path);
    if (!m) out.set(path, message);
    else {
      const key = `targets.${m[1]}.monitor`;
      const parsed = parseMonitorDraft(targets[Number(m[1])]?.monitor ?? '');
      if (!out.has(key)) out.set(key, parsed.ok ? message : parsed.message);
    }
  }
  return out;
}
