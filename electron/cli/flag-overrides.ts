/**
 * What flags change in a base's targets and run options (a scenario file's, a preset's, or
 * none): -m, -H, --body, --monitor, --connect-to, --resolve, --unix-socket on each target; keep-alive, engine, timeouts, SLO,
 * thresholds, TLS and the sample interval in the options. A field no flag sets and no base
 * has is left out, for the schema to fill with its default.
 */
import { resolve } from 'node:path';
import type { Monitor } from '../../shared/model/monitor.ts';
import type { Body, Header, Scenario, Threshold } from '../../shared/model/scenario.ts';
import { inputFilesOf, type InputFileKind } from '../engine/input-files.ts';
import type { FileIo } from './files.ts';
import { secondsFlag, type Values } from './run/flags.ts';
import { resolveAsConnectTo } from '../../shared/model/route.ts';
import { CliInputError, parseHeader, parseMonitor, parseThreshold } from './values.ts';

/** A body or CA file given by a flag, checked as the engine will read it. */
function inputFile(flag: string, path: string, io: FileIo, kind: InputFileKind): string {
  const abs = resolve(io.cwd, path);
  const problem = io.inputFileProblem(abs, kind);
  if (problem) throw new CliInputError(flag, `${abs} ${problem}`);
  return abs;
}

/** The body and CA files a scenario or plan names, checked as the engine will read them. */
export function checkInputFiles(s: Parameters<typeof inputFilesOf>[0], io: FileIo, what: string): void {
  for (const { field, file, kind } of inputFilesOf(s)) {
    const problem = io.inputFileProblem(file, kind);
    if (problem) throw new CliInputError(`${what} ${field}`.trim(), `${file} ${problem}`);
  }
}

function bodyFromFlags(v: Values, io: FileIo): Body | null {
  if (v.body !== undefined && v['body-file'] !== undefined) {
    throw new CliInputError('--body', 'give either --body or --body-file, not both');
  }
  if (v.body !== undefined) return { kind: 'text', text: v.body };
  if (v['body-file'] !== undefined)
    return { kind: 'file', path: inputFile('--body-file', v['body-file'], io, 'body') };
  return null;
}

/** Headers from -H replace same-named ones from the file (case-insensitively) and add the rest. */
function mergeHeaders(base: readonly Header[], extra: readonly Header[]): Header[] {
  const names = new Set(extra.map((h) => h.name.toLowerCase()));
  return [...base.filter((h) => !names.has(h.name.toLowerCase())), ...extra];
}

/** -m, -H, --body, --monitor and the route flags as they change a target of a file or preset. */
export interface RequestFlags {
  method: string | undefined;
  headers: Header[];
  body: Body | null;
  monitor: Monitor | null;
  /** --connect-to rules, then those --resolve means, in order; null: none given. */
  connectTo: string[] | null;
  unixSocket: string | null;
}

/** --connect-to and --resolve as one list of connect-to rules (curl takes the first match). */
function connectToFromFlags(v: Values): string[] | null {
  if (v['connect-to'] === undefined && v.resolve === undefined) return null;
  const resolved = (v.resolve ?? []).map((text) => {
    const rule = resolveAsConnectTo(text);
    if (typeof rule !== 'string') throw new CliInputError('--resolve', rule.problem);
    return rule;
  });
  return [...(v['connect-to'] ?? []), ...resolved];
}

export function requestFlags(v: Values, io: FileIo): RequestFlags {
  return {
    method: v.method?.toUpperCase(),
    headers: (v.header ?? []).map((h) => parseHeader('--header', h)),
    body: bodyFromFlags(v, io),
    monitor: v.monitor === undefined ? null : parseMonitor('--monitor', v.monitor),
    connectTo: connectToFromFlags(v),
    unixSocket: v['unix-socket'] === undefined ? null : resolve(io.cwd, v['unix-socket']),
  };
}

/** The fields of a target given by URL on the command line, from the flags (the schema fills the rest). */
export function newTargetFields(r: RequestFlags) {
  return {
    // A body without -m is a POST, as with ab -p.
    method: r.method ?? (r.body ? 'POST' : undefined),
    headers: r.headers,
    ...(r.body ? { body: r.body } : {}),
    ...(r.monitor ? { monitor: r.monitor } : {}),
    ...(r.connectTo ? { connectTo: r.connectTo } : {}),
    ...(r.unixSocket ? { unixSocket: r.unixSocket } : {}),
  };
}

export function overrideRequest<
  T extends { method: string; headers: Header[]; body: Body; monitor: Monitor },
>(t: T, r: RequestFlags): Omit<T, 'method'> & { method: string } {
  return {
    ...t,
    ...(r.method ? { method: r.method } : {}),
    headers: mergeHeaders(t.headers, r.headers),
    ...(r.body ? { body: r.body } : {}),
    ...(r.monitor ? { monitor: r.monitor } : {}),
    ...(r.connectTo ? { connectTo: r.connectTo } : {}),
    ...(r.unixSocket ? { unixSocket: r.unixSocket } : {}),
  };
}

/** The run options as flags change them (the protocol aside: a comparison sets it per cell). */
export function optionsFromFlags(
  v: Values,
  o: Omit<Scenario['options'], 'protocol'> | undefined,
  io: FileIo,
) {
  const thresholds: Threshold[] | undefined = v.threshold?.map((t) => parseThreshold('--threshold', t));
  const timeout = secondsFlag(v, 'timeout', 's');
  const slo = secondsFlag(v, 'slo', 'ms');
  const interval = secondsFlag(v, 'interval', 'ms');
  return {
    keepAlive: v.keepalive ?? o?.keepAlive,
    engine: v.engine ?? o?.engine,
    // 'auto' or a count; anything else is the schema's to refuse, naming --threads.
    workers: v.threads === undefined ? o?.workers : v.threads === 'auto' ? 'auto' : Number(v.threads),
    timeoutMs: timeout === undefined ? o?.timeoutMs : Math.round(timeout * 1000),
    warmupSeconds: secondsFlag(v, 'warmup', 's') ?? o?.warmupSeconds,
    sloMs: slo === undefined ? o?.sloMs : slo * 1000,
    thresholds: thresholds ?? o?.thresholds,
    tls: {
      verify: v.insecure === undefined ? o?.tls.verify : !v.insecure,
      caFile: v.cacert === undefined ? o?.tls.caFile : inputFile('--cacert', v.cacert, io, 'ca'),
      servername: v.servername ?? o?.tls.servername,
      minVersion: v['tls-min-version'] ?? o?.tls.minVersion,
    },
    sampleIntervalMs: interval === undefined ? o?.sampleIntervalMs : Math.round(interval * 1000),
    checkStatus: v['allow-error-status'] === true ? false : o?.checkStatus,
  };
}
