import { z } from 'zod';
import type { ListRequestInput } from '../model/scenario.ts';
import { parseHttpFormat, REQUEST_LINE } from './http-format.ts';
import { parseJsonFormat } from './json-format.ts';
import { TargetsFileError, linesOf, type TargetsProblem } from './problem.ts';
import { parseUrlFormat } from './url-format.ts';

/*
 * A list of requests from the text of a targets file, in one of the formats people already
 * have: vegeta's http format, vegeta's JSON lines, http_load's url file. Pure: the caller
 * reads the file (bounded) and resolves body file paths.
 */

export const TARGETS_FORMATS = ['http', 'json', 'urls'] as const;
export const targetsFormatSchema = z.enum(TARGETS_FORMATS, {
  error: `targets format must be one of ${TARGETS_FORMATS.join(', ')}`,
});
export type TargetsFormat = z.infer<typeof targetsFormatSchema>;

/** The format of a file, from its first line that is not blank or a comment: `{` JSON, `METHOD URL` http, else urls. */
export function detectFormat(text: string): TargetsFormat {
  const first = linesOf(text)
    .map((l) => l.trim())
    .find((l) => l !== '' && !l.startsWith('#'));
  if (first === undefined) return 'urls';
  if (first.startsWith('{')) return 'json';
  const m = REQUEST_LINE.exec(first);
  return m && /^[A-Z]+$/.test(m[1]!) ? 'http' : 'urls';
}

export type ParsedTargets =
  | { ok: true; format: TargetsFormat; requests: ListRequestInput[] }
  | { ok: false; format: TargetsFormat; problem: TargetsProblem };

const PARSERS: Record<TargetsFormat, (text: string) => ListRequestInput[]> = {
  http: parseHttpFormat,
  json: parseJsonFormat,
  urls: parseUrlFormat,
};

/** The requests of a targets file in the given format (detected when null); an empty file is a problem. */
export function parseTargets(text: string, format: TargetsFormat | null = null): ParsedTargets {
  const f = format ?? detectFormat(text);
  try {
    const requests = PARSERS[f](text);
    if (requests.length === 0) {
      return {
        ok: false,
        format: f,
        problem: { line: 1, field: 'request', message: 'the file lists no request' },
      };
    }
    return { ok: true, format: f, requests };
  } catch (err) {
    if (err instanceof TargetsFileError) return { ok: false, format: f, problem: err.problem };
    throw err;
  }
}
