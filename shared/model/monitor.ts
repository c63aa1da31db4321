import { z } from 'zod';
import { LIMITS } from './defaults.ts';
import { httpUrlSchema } from './http-url.ts';
import { boundedInt } from './number-schema.ts';

/*
 * How a target's server is watched while it is under load (its CPU, memory and load on the
 * run's time axis). Part of a scenario's target and of a comparison's target.
 *
 * - auto: the host decides at run start. A target on this machine (a loopback address, or
 *   one of the machine's own addresses) is watched through the process listening on the
 *   target's port and its process tree; any other target is not watched. This is how the
 *   default is "on for local targets, off for remote ones" with one stored value: whether a
 *   host name is this machine is only known on the host (DNS, network interfaces), so 'auto'
 *   resolves there (electron/monitor/resolve.ts), never in the UI or a stored file.
 * - pid: that process and its descendants, on this machine, whatever the target's port.
 * - node-exporter: a Prometheus node_exporter's /metrics URL (machine CPU, load, memory,
 *   network), for a server on another machine.
 * - off: nothing is sampled.
 */

/** A node_exporter URL: http(s), no credentials. */
export const exporterUrlSchema = httpUrlSchema('node_exporter URL', 'http://server:9100/metrics', '');

export const monitorSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('auto') }),
    z.strictObject({
      kind: z.literal('pid'),
      pid: boundedInt('pid', LIMITS.pid),
    }),
    z.strictObject({ kind: z.literal('node-exporter'), url: exporterUrlSchema }),
    z.strictObject({ kind: z.literal('off') }),
  ],
  { error: 'monitor kind must be auto, pid, node-exporter or off' },
);
export type Monitor = z.infer<typeof monitorSchema>;
export type MonitorKind = Monitor['kind'];

/**
 * The CLI's `--monitor` text: `auto`, `off`, `pid:N` or a node_exporter URL. Returns the
 * monitor or a message saying what was wrong (the caller names the flag).
 */
export function parseMonitorText(
  text: string,
): { ok: true; monitor: Monitor } | { ok: false; message: string } {
  const t = text.trim();
  let candidate: unknown;
  if (t === 'auto' || t === 'off') candidate = { kind: t };
  else if (/^pid:/i.test(t)) {
    const digits = t.slice(4).trim();
    if (!/^\d+$/.test(digits))
      return { ok: false, message: `"${text}": pid:N takes a process id (e.g. pid:1234)` };
    candidate = { kind: 'pid', pid: Number(digits) };
  } else if (/^https?:\/\//i.test(t)) candidate = { kind: 'node-exporter', url: t };
  else {
    return {
      ok: false,
      message: `"${text}" is not a monitor (auto, off, pid:N, or a node_exporter URL such as http://server:9100/metrics)`,
    };
  }
  const parsed = monitorSchema.safeParse(candidate);
  if (!parsed.success)
    return { ok: false, message: `"${text}": ${parsed.error.issues[0]?.message ?? 'invalid'}` };
  return { ok: true, monitor: parsed.data };
}

/** The monitor as the CLI writes it back (for help, notes and round trips). */
export function monitorText(monitor: Monitor): string {
  switch (monitor.kind) {
    case 'auto':
    case 'off':
      return monitor.kind;
    case 'pid':
      return `pid:${monitor.pid}`;
    case 'node-exporter':
      return monitor.url;
  }
}

/**
 * True for a host name that is a loopback address by its text alone (localhost, 127.0.0.0/8,
 * ::1, [::1], ::ffff:127.x). Other names may still be this machine (the host checks DNS and
 * the network interfaces).
 */
export function isLoopbackHostname(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  const v4 = h.startsWith('::ffff:') ? h.slice(7) : h;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}
