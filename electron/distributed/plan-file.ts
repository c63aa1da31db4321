/**
 * The scenario a distributed run's shards read (plan.json): one target, self-contained. Files
 * read on this machine (a body, a CA) travel inside it as the browser's picked files do
 * (base64 body, PEM text), since the shards' machines do not have them; the server monitor is
 * the coordinator's, off in the shards.
 */
import { basename } from 'node:path';
import type { Body, Scenario } from '../../shared/model/scenario.ts';
import { LIMITS } from '../../shared/model/defaults.ts';
import { FileProblemError, readBoundedFile } from '../files/bounded-file.ts';

export class PlanFileError extends Error {}

/** A file read here within what a plan carries: a regular file, its size checked before it is read. */
async function boundedRead(path: string, what: string): Promise<Buffer> {
  try {
    return await readBoundedFile(path, LIMITS.uploadBytes.max, `a file a distributed run carries`);
  } catch (e) {
    const problem = e instanceof FileProblemError ? e.problem : e instanceof Error ? e.message : String(e);
    throw new PlanFileError(`the ${what} ${path} cannot be read: ${problem}`);
  }
}

/** A body file read here, carried as an upload; any other body as it is. */
async function portableBody(body: Body): Promise<Body> {
  if (body.kind !== 'file') return body;
  const bytes = await boundedRead(body.path, 'body file');
  return { kind: 'upload', name: basename(body.path), data: bytes.toString('base64') };
}

export async function portablePlan(scenario: Scenario, targetIndex: number): Promise<Scenario> {
  const target = scenario.targets[targetIndex]!;
  const body = await portableBody(target.body);
  // A list's bodies (vegeta's `@file` lines) are files of this machine too.
  const requests =
    target.requests &&
    (await Promise.all(target.requests.map(async (r) => ({ ...r, body: await portableBody(r.body) }))));
  const { tls } = scenario.options;
  const ca = tls.caFile;
  const options =
    ca === null
      ? scenario.options
      : {
          ...scenario.options,
          tls: {
            ...tls,
            caFile: null,
            caUpload: { name: basename(ca), pem: (await boundedRead(ca, 'CA file')).toString('utf8') },
          },
        };
  // The server is watched by the coordinator, as beside a local run: a shard's machine has none of its own to read.
  return {
    ...scenario,
    options,
    targets: [{ ...target, body, ...(requests ? { requests } : {}), monitor: { kind: 'off' } }],
  };
}
