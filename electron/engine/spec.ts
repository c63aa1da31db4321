import type { RunResult } from '../../shared/model/result.ts';
import type { Body, ListRequest, Scenario } from '../../shared/model/scenario.ts';
import { failedResult, type RunIdentity } from './result.ts';
import { InputFileError, readInputFile } from './input-files.ts';
import { plannedEngine } from './load-generators.ts';
import type { RunSpec } from './types.ts';

export type BuiltSpec = { ok: true; spec: RunSpec } | { ok: false; result: RunResult };

async function readField(path: string, field: string, kind: 'body' | 'ca'): Promise<Buffer> {
  try {
    return await readInputFile(path, kind);
  } catch (err) {
    if (err instanceof InputFileError) throw new Error(`${field}: ${err.message}`, { cause: err });
    const code = (err as { code?: unknown }).code;
    const why = typeof code === 'string' ? code : err instanceof Error ? err.message : String(err);
    throw new Error(`${field}: cannot read ${path}: ${why}`, { cause: err });
  }
}

/** The bytes of a body as the run sends it (null: none). */
async function bodyBytes(
  body: Body,
  field: string,
  files: Map<string, Promise<Buffer>>,
): Promise<Uint8Array | null> {
  let bytes: Uint8Array | null = null;
  if (body.kind === 'text') bytes = new TextEncoder().encode(body.text);
  if (body.kind === 'file') {
    // A file named by several requests is read once, and its bytes shared.
    let read = files.get(body.path);
    if (read === undefined) files.set(body.path, (read = readField(body.path, field, 'body')));
    bytes = await read;
  }
  if (body.kind === 'upload') bytes = Buffer.from(body.data, 'base64');
  return bytes && bytes.length > 0 ? bytes : null;
}

/** The bodies of a target's list of requests, in order. */
async function listBodies(
  requests: readonly ListRequest[],
  targetIndex: number,
): Promise<(Uint8Array | null)[]> {
  const files = new Map<string, Promise<Buffer>>();
  const out: (Uint8Array | null)[] = [];
  for (const [j, r] of requests.entries()) {
    out.push(await bodyBytes(r.body, `targets.${targetIndex}.requests.${j}.body.path`, files));
  }
  return out;
}

/**
 * The RunSpec of one target of a scenario, read on the host: the body file and the CA file
 * are read here (the worker reads nothing). An unreadable file gives a failed result that
 * names the field, e.g. "targets.0.body.path: /x does not exist".
 */
export async function buildRunSpec(
  scenario: Scenario,
  targetIndex: number,
  ctx: { runId: string; appVersion: string },
): Promise<BuiltSpec> {
  const target = scenario.targets[targetIndex];
  if (!target) throw new RangeError(`scenario has no target ${targetIndex}`);
  const id: RunIdentity = {
    runId: ctx.runId,
    scenarioName: scenario.name,
    target,
    load: scenario.load,
    options: scenario.options,
    appVersion: ctx.appVersion,
  };
  try {
    let body: Uint8Array | null = null;
    if (target.body.kind === 'text') body = new TextEncoder().encode(target.body.text);
    if (target.body.kind === 'file') {
      body = await readField(target.body.path, `targets.${targetIndex}.body.path`, 'body');
    }
    // A file picked in the browser came with the scenario: nothing to read here.
    if (target.body.kind === 'upload') body = Buffer.from(target.body.data, 'base64');
    const requestBodies = target.requests && (await listBodies(target.requests, targetIndex));
    const { caFile, caUpload } = scenario.options.tls;
    const ca =
      caUpload?.pem ??
      (caFile === null ? null : (await readField(caFile, 'options.tls.caFile', 'ca')).toString('utf8'));
    return {
      ok: true,
      spec: {
        ...id,
        body: body && body.length > 0 ? body : null,
        ca,
        ...(requestBodies ? { requestBodies } : {}),
      },
    };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return {
      ok: false,
      result: failedResult(id, { kind: 'other', message }, { engine: plannedEngine(scenario.options) }),
    };
  }
}
